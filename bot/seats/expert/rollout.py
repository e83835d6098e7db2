"""The rollout policy: ``smart`` (``bot.seats.strategies``) played on ``engine.fast.FastRound``.

Every seat of a playout plays as ``smart`` does at the table (its scores, its colour, its
challenges, its jump-ins before the current player moves, as ``bot.seats.simulate`` orders
them), so a playout is what the rest of the round would look like if everyone from now
on played ``smart``: the model of the other seats, and the expert's own default.
"""

from __future__ import annotations

import math
from random import Random

from engine.fast import (
    CARD_COLOR,
    CARD_RANK,
    CHALLENGE,
    CHOOSING,
    OVER,
    PLAYING,
    W4,
    WILD,
    WILD4,
    FastRound,
    Move,
)

__all__ = [
    "THETAS",
    "best_color",
    "pick",
    "playout",
    "smart_step",
    "theta_for",
    "value",
    "value_after",
]


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


def _base(next_count: int) -> tuple[float, ...]:
    """``_score`` of each card played alone, before the colour held most counts (a wild
    is named in that colour)."""
    out = []
    for c in range(54):
        r = CARD_RANK[c]
        if c == WILD4:
            out.append(5.0 + (30 if next_count <= 2 else -25))
        elif c == WILD:
            out.append(-15.0)
        elif r > 9:
            out.append(12.0 if next_count <= 3 else 4.0)
        else:
            out.append(r / 10)
    return tuple(out)


_BASES = (_base(2), _base(3), _base(4))  # next player holding <= 2, 3, >= 4 cards
_COLOR4 = tuple(c // 13 if c < 52 else 4 for c in range(54))


def turn_pick(f: FastRound, s: int, next_count: int, rnd: Random) -> Move | None:
    """``pick`` over ``FastRound.turn_plays`` in one pass, for the ordinary turn (phase
    PLAYING, nothing pending or drawn, the round opened): the same best plays, ties broken
    alike, without listing the plays every other would lose to (a wild named in another
    colour than the best, fewer identical cards than may go together)."""
    hand = f.hands[s]
    fl = f.fl
    color = f.color
    top = f.discard[-1]
    trank = CARD_RANK[top] if top < 52 else -1
    play = [
        c
        for c in dict.fromkeys(hand)
        if c >= 52 or CARD_COLOR[c] == color or CARD_RANK[c] == trank
    ]
    if not play:
        return None
    counts = [0, 0, 0, 0, 0]
    for c in hand:
        counts[_COLOR4[c]] += 1
    legal4 = counts[color] == 0 if not fl.draw_no_play else f.w4_legal(hand)
    if not legal4 and fl.no_bluff and WILD4 in play:
        play.remove(WILD4)
        if not play:
            return None
    best = 0
    most = counts[0]
    for i in (1, 2, 3):
        if counts[i] > most:
            most = counts[i]
            best = i
    if not most:
        best = color if color >= 0 else 0
    n = len(hand)
    base = _BASES[0 if next_count <= 2 else 1 if next_count == 3 else 2]
    not_last = fl.not_last
    identical = fl.identical
    topv = -1e9
    ties: list[Move] = []
    w4: list[Move] = []  # a bluffed +4: only if nothing else fits
    for c in play:
        extra = hand.count(c) - 1 if identical else 0
        if extra + 1 == n and CARD_RANK[c] in not_last:
            extra -= 1
            if extra < 0:
                continue
        if extra + 1 == n:  # going out (a wild in any colour: the round is over)
            outs = [(c, extra, k) for k in range(4)] if c >= 52 else [(c, extra, -1)]
            if topv < 1000.0:
                topv = 1000.0
                ties = outs
            else:
                ties.extend(outs)
            continue
        if c >= 52:
            m = (c, extra, best)
            if c == WILD4 and not legal4:
                w4.append(m)
                continue
            v = base[c] + 10 * extra
        else:
            m = (c, extra, -1)
            v = base[c] + 10 * extra + (2.0 if c // 13 == best else 0.0)
        if v > topv:
            topv = v
            ties = [m]
        elif v == topv:
            ties.append(m)
    if not ties:
        if not w4:
            return None
        ties = w4
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
    if phase == PLAYING and not f.pending and f.drawn < 0 and not f.first_play:
        chosen = turn_pick(f, cur, next_count, rnd)
        if chosen is None:
            f.do_draw(cur)
        else:
            f.play(cur, chosen[0], chosen[1], chosen[2])
        return
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


# P(a seat wins the round) as a softmax over the seats of theta . features (``value``):
# cards held, holding one, two, three; Wilds, Wild Draw Fours, action cards; colours held;
# cards that fit the top card, whether one does; to play now, to play next. Fitted on
# positions of smart self-play (``python -m bench.expert_value``), by table: two players
# or more, without stacking (the official rules) or with it (the house rules).
# fmt: off
THETAS: dict[tuple[bool, bool], tuple[float, ...]] = {
    # (two players, stacking): fitted on official 2 players; official 4; house 2; house 3-5
    (True, False): (-0.143, 0.487, 0.136, 0.065, 0.681, 1.124,
                    0.226, -0.322, -0.036, 0.532, 0.027, -0.027),
    (False, False): (-0.298, 1.022, 0.401, 0.179, 0.714, 0.954,
                     0.132, -0.002, -0.034, 0.416, 0.150, 0.022),
    (True, True): (-0.108, 0.366, 0.100, 0.001, 0.350, 0.859,
                   0.145, -0.255, -0.015, 0.402, 0.014, -0.014),
    (False, True): (-0.188, 0.733, 0.319, 0.124, 0.314, 0.545,
                    0.014, -0.119, -0.026, 0.382, 0.089, 0.026),
}
# fmt: on
THETA = THETAS[False, False]


def theta_for(players: int, stacking: bool) -> tuple[float, ...]:
    """The position model for a table of ``players`` (``stacking``: a penalty may be
    stacked on)."""
    return THETAS[players == 2, stacking]


def value(
    f: FastRound, mine: set[int] | frozenset[int], theta: tuple[float, ...] = THETA
) -> float:
    """The chance that a seat of ``mine`` wins the round from here, as the position looks
    (``THETA``)."""
    if f.phase == OVER:
        return 1.0 if f.winner in mine else 0.0
    t_n, t_1, t_2, t_3, t_w, t_w4, t_act, t_cols, t_fit, t_any, t_cur, t_next = theta
    n = f.n
    cur = f.cur
    d = f.direction
    color = f.color
    top = f.discard[-1]
    trank = CARD_RANK[top] if top < 52 else -1
    total = 0.0
    ours = 0.0
    for i in range(n):
        h = f.hands[i]
        k = len(h)
        s = t_n * k + (t_1 if k == 1 else t_2 if k == 2 else t_3 if k == 3 else 0.0)
        cols = 0
        fit = 0
        for c in h:
            if c >= 52:
                s += t_w4 if c == WILD4 else t_w
            else:
                cols |= 1 << (c // 13)
                r = CARD_RANK[c]
                if r > 9:
                    s += t_act
                if c // 13 == color or r == trank:
                    fit += 1
        s += t_cols * cols.bit_count() + t_fit * fit + (t_any if fit else 0.0)
        dist = ((i - cur) * d) % n
        if dist == 0:
            s += t_cur
        elif dist == 1:
            s += t_next
        e = math.exp(s)
        total += e
        if i in mine:
            ours += e
    return ours / total


def value_after(
    f: FastRound, rnd: Random, depth: int, mine: set[int], theta: tuple[float, ...] = THETA
) -> float:
    """Play ``depth`` steps as ``playout`` does, then ``value`` the position."""
    steps = 0
    while f.phase != OVER and steps < depth:
        smart_step(f, rnd)
        steps += 1
    return value(f, mine, theta)
