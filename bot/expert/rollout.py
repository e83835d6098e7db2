"""The rollout policy: ``smart`` (``bot.ai``) played on ``engine.fast.FastRound``.

Every seat of a playout plays as ``smart`` does at the table (its scores, its colour, its
challenges, its jump-ins before the current player moves, as ``bot.simulate`` orders
them), so a playout is what the rest of the round would look like if everyone from now
on played ``smart``: the model of the other seats, and the expert's own default.
"""

from __future__ import annotations

from random import Random

from engine.fast import (
    CARD_COLOR,
    CARD_RANK,
    CHALLENGE,
    CHOOSING,
    OVER,
    W4,
    WILD,
    WILD4,
    FastRound,
    Move,
)

__all__ = ["best_color", "pick", "playout", "smart_step"]


def best_color(hand: list[int], color: int) -> int:
    """``ai._best_color``: the colour held most (ties: the first in ``COLORS``)."""
    counts = [0, 0, 0, 0]
    for c in hand:
        if c < 52:
            counts[c // 13] += 1
    best = -1
    top = 0
    for i in range(4):
        if counts[i] > top:
            top = counts[i]
            best = i
    if best < 0:
        return color if color >= 0 else 0
    return best


def _score(m: Move, n: int, best: int, next_count: int) -> float:
    """``ai._score_play``."""
    card, extra, color = m
    k = 1 + extra
    if k == n:
        return 1000.0
    s = 10.0 * extra
    r = CARD_RANK[card]
    if r == W4:
        s += 30 if next_count <= 2 else -25
    elif card == WILD:
        s -= 20
    elif r > 9:
        s += 12 if next_count <= 3 else 4
    else:
        s += r / 10
    if color >= 0:
        s += 5 if color == best else -5
    if card < 52 and CARD_COLOR[card] == best:
        s += 2
    return s


def pick(f: FastRound, s: int, plays: list[Move], next_count: int, rnd: Random) -> Move:
    """``ai._pick``: the best-scored play, never a bluffed +4 while another play fits."""
    hand = f.hands[s]
    best = best_color(hand, f.color)
    if not f.w4_legal(hand):
        legal = [m for m in plays if m[0] != WILD4]
        if legal:
            plays = legal
    n = len(hand)
    top = -1e9
    ties: list[Move] = []
    for m in plays:
        v = _score(m, n, best, next_count)
        if v > top:
            top = v
            ties = [m]
        elif v == top:
            ties.append(m)
    return ties[0] if len(ties) == 1 else rnd.choice(ties)


def smart_step(f: FastRound, rnd: Random) -> None:
    """One step of a table of ``smart`` seats: a jump-in if anyone has one (in seat
    order), else the current player's move."""
    n = f.n
    hands = f.hands
    cur = f.cur
    if f.fl.jump_in and f.jump_in_open():
        top = f.discard[-1]
        for p in range(n):
            if p != cur and top in hands[p]:
                moves = f.plays(p)
                if moves:
                    m = moves[0] if len(moves) == 1 else rnd.choice(moves)
                    f.play(p, m[0], m[1], m[2])
                    return
    phase = f.phase
    hand = hands[cur]
    if phase == CHOOSING:
        f.choose_color(best_color(hand, f.color))
        return
    next_count = len(hands[(cur + f.direction) % n])
    plays = f.plays(cur)
    if plays:
        m = pick(f, cur, plays, next_count, rnd)
        f.play(cur, m[0], m[1], m[2])
    elif phase == CHALLENGE:
        # ai._smart: the offender was innocent only if they held no card of the colour
        p_innocent = (0.7 if f.fl.draw_no_play else 0.76) ** len(hands[f.chal_off])
        if p_innocent < 0.4:
            f.do_challenge(cur)
        else:
            f.accept(cur)
    elif f.pending:
        f.accept(cur)
    elif f.drawn >= 0 and f.may_pass():
        f.do_pass(cur)
    else:
        f.do_draw(cur)


def playout(f: FastRound, rnd: Random, max_steps: int = 2000) -> int:
    """Play ``f`` to the end of its round with every seat ``smart``: the winner's seat
    (-1 if the round outlasted ``max_steps``)."""
    steps = 0
    while f.phase != OVER:
        smart_step(f, rnd)
        steps += 1
        if steps >= max_steps:
            return -1
    return f.winner
