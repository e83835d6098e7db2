"""The ``expert`` seat: determinized playouts over what the seat may know.

``decide(view, memory, seed, budget)`` sees the seat's ``engine.view`` and the public
record (``Memory``) and nothing else. In its turn it weighs each of its moves by playing
the round out many times: each time the hidden cards (the other hands, the draw pile's
order) are dealt at random among the cards it has not seen, consistently with what the
record says each player cannot hold (``World``), and every seat then plays as ``smart``
does (``rollout``) on the fast path (``engine.fast``). Every move is tried on the same
deals (common random numbers), so the comparison between moves is not drowned by the
luck of the deal; a move other than ``smart``'s own is taken only when its paired lead
is clear of the noise. Out of turn (catching, calling UNO, jumping in) it plays as
``smart``.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from bot.seats import strategies as ai
from bot.seats.expert.memory import Memory
from bot.seats.expert.rollout import playout, theta_for, value_after
from engine import (
    COLORS,
    Accept,
    Action,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Game,
    Pass,
    Phase,
    Play,
    Rank,
    View,
    full_deck,
    legal_actions,
    view,
)
from engine.cards import Card, Color
from engine.fast import (
    CARD_COLOR,
    CARD_RANK,
    CHALLENGE,
    CHOOSING,
    D2,
    PLAYING,
    W4,
    FastRound,
    supported,
)
from engine.rules import Rules

__all__ = ["BOT_BUDGET", "Budget", "World", "choose", "decide"]


@dataclass(frozen=True)
class Budget:
    """How much a decision may search: ``playouts`` positions played out in all (the
    fixed count that makes the choice the same for the same seed), stopping early when
    ``seconds`` of this thread's CPU time are spent (``None``: never)."""

    playouts: int = 600
    seconds: float | None = None
    # how many standard errors a move must lead smart's by to replace it (0: any lead)
    z: float = 0.0
    halving: bool = True  # spend the playouts in stages, dropping the weaker moves
    # play out this many steps and value the position (``rollout.value``); 0: to the end
    depth: int = 12


# what a seat of the running bot searches (README, "Bot seats"): the playouts fit the time
# box on one core of the machine it was measured on; the time box stops a search that
# would not (a slower machine, a busy one)
BOT_BUDGET = Budget(playouts=600, seconds=0.045)


def choose(
    game: Game,
    player: str,
    memory: Memory | None,
    rng: Random,
    budget: Budget | None = None,
) -> Action | None:
    """The expert's action for ``player`` now: decided from ``view(game, player)``, the
    public ``memory`` and the moves the seat is offered, alone (the game itself goes no
    further than those)."""
    # the playouts alone, not the clock: the same seed gives the same choice (simulate)
    budget = budget or dataclasses.replace(BOT_BUDGET, seconds=None)
    moves = legal_actions(game, player)  # what its menu offers it: its hand and the table
    return decide(view(game, player), memory, rng.getrandbits(64), budget, moves)


class World:
    """The hidden cards as the seat may imagine them: the cards it has not seen (the deck
    but its hand and the discard pile) dealt to the other hands and the draw pile, each
    card of a hand avoiding what the record says it cannot be."""

    def __init__(self, v: View, memory: Memory | None) -> None:
        assert v.viewer is not None and v.hand is not None
        self.v = v
        players = list(v.players)
        unseen = Counter(c.order for c in full_deck(v.rules.decks))
        unseen.subtract(c.order for c in v.hand)
        known = (
            memory is not None
            and memory.round == v.round
            and memory.discard is not None
            and len(memory.discard) == v.discard_pile_size
            and memory.discard[-1] == v.top
            and set(memory.players) == set(players)
        )
        self.memory = memory if known else None
        discard = [c.order for c in memory.discard] if memory and memory.discard and known else []
        if known:
            unseen.subtract(discard)
            if min(unseen.values()) < 0:
                known, discard = False, []
                unseen = Counter(c.order for c in full_deck(v.rules.decks))
                unseen.subtract(c.order for c in v.hand)
        if not known:
            discard = [v.top.order]
            unseen.subtract(discard)
        if min(unseen.values()) < 0:
            raise ValueError("the view holds more cards than the deck")
        self.discard = discard
        self.pool = sorted(unseen.elements())
        self.me = players.index(v.viewer)
        need = sum(v.counts[p] for p in players if p != v.viewer) + v.draw_pile_size
        # cards of the discard pile the record did not see (it started mid-round)
        self.hidden_discard = len(self.pool) - need
        if self.hidden_discard < 0:
            raise ValueError("fewer unseen cards than hidden places")
        # every card of every other hand: (seat, the cards it cannot be), the most
        # constrained first
        slots: list[tuple[int, int]] = []
        self.sizes = [v.counts[p] for p in players]
        for s, p in enumerate(players):
            if s == self.me:
                continue
            masks = list(self.memory.slots.get(p, ())) if self.memory else []
            n = v.counts[p]
            masks.sort(key=lambda m: -m.bit_count())
            masks = (masks + [0] * n)[:n]
            slots.extend((s, m) for m in masks)
        slots.sort(key=lambda t: -t[1].bit_count())
        self.slots = slots

    def sample(self, rnd: Random) -> tuple[list[list[int]], list[int], list[int]]:
        """One deal of the hidden cards: every hand, the draw pile, the discard pile."""
        pool = self.pool[:]
        rnd.shuffle(pool)
        hands: list[list[int]] = [[] for _ in self.sizes]
        hands[self.me] = [c.order for c in self.v.hand or ()]
        discard = self.discard
        if self.hidden_discard:
            under = pool[: self.hidden_discard]
            del pool[: self.hidden_discard]
            discard = under + discard
        for s, mask in self.slots:
            if mask:
                at = 0  # if nothing fits, the record was wrong about this one
                for i, c in enumerate(pool):
                    if not (mask >> c) & 1:
                        at = i
                        break
                hands[s].append(pool.pop(at))
            else:
                hands[s].append(pool.pop())
        return hands, pool, list(discard)

    def fast_round(
        self, hands: list[list[int]], draw: list[int], discard: list[int], seed: int
    ) -> FastRound:
        """The round to play out on one deal."""
        v = self.v
        players = list(v.players)
        seat = {p: i for i, p in enumerate(players)}
        mem = self.memory
        phase = {Phase.PLAYING: PLAYING, Phase.CHOOSING_COLOR: CHOOSING}.get(v.phase, CHALLENGE)
        pkind = -1
        pfrom = pby = -1
        if v.pending_draw:
            kind = mem.pending_kind if mem else None
            if kind is None:
                kind = v.top.rank if v.top.draw else None
            pkind = W4 if kind is not None and kind.value == "W4" else D2
            if mem:
                pfrom = seat.get(mem.pending_from, -1) if mem.pending_from else -1
                pby = seat.get(mem.pending_by, -1) if mem.pending_by else -1
        chal_off = -1
        chal_legal = True
        if v.phase is Phase.CHALLENGE and v.challenge_from in seat:
            chal_off = seat[v.challenge_from]
            if mem and mem.last_w4 is not None:
                _, color, top = mem.last_w4
                chal_legal = _w4_was_legal(v.rules, hands[chal_off], color, top)
        return FastRound.new(
            v.rules,
            hands,
            draw,
            discard,
            cur=seat.get(v.current or "", 0),
            direction=v.direction,
            color=COLORS.index(v.color) if v.color is not None else -1,
            phase=phase,
            pending=v.pending_draw,
            pkind=pkind,
            pfrom=pfrom,
            pby=pby,
            chal_off=chal_off,
            chal_legal=chal_legal,
            drawn=v.drawn.order if v.drawn is not None else -1,
            first_play=v.rules.first_play_number and mem is not None and not mem.opened,
            stalled=mem.stalled if mem else 0,
            seed=seed,
        )

    def game(self, hands: list[list[int]], draw: list[int], discard: list[int]) -> Game:
        """The engine's game on one deal (for the legal moves and ``smart``'s choice, which
        read only the seat's own hand and what is public)."""
        v = self.v
        mem = self.memory
        opened = mem.opened if mem else True
        d: dict[str, Any] = {
            "rules": v.rules,
            "format": 2,
            "players": list(v.players),
            "hands": [" ".join(ALL[c].code for c in h) for h in hands],
            "draw_pile": " ".join(ALL[c].code for c in draw),
            "discard": " ".join(ALL[c].code for c in discard),
            "cur": list(v.players).index(v.current) if v.current in v.players else 0,
            "direction": v.direction,
            "color": v.color.value if v.color is not None else None,
            "phase": v.phase.value,
            "pending": v.pending_draw,
            "pending_kind": None,
            "pending_from": None,
            "pending_by": None,
            "challenge": None,
            "drawn": v.drawn.code if v.drawn is not None else None,
            "first_play": v.rules.first_play_number and not opened,
            "stalled": mem.stalled if mem else 0,
            "exposed": list(v.exposed),
            "called": list(v.called),
            "after_color": "start" if v.phase is Phase.CHOOSING_COLOR and not opened else None,
            "deferred": None,
            "follow": v.follow,
            "silent": list(v.silent),
            "out": list(v.places),
            "dealer": v.dealer,
            "round": v.round,
            "scores": dict(v.scores),
            "teams": v.teams,
            "round_winner": v.round_winner,
            "winner": v.winner,
            "rng": 0,
        }
        if v.pending_draw:
            kind = mem.pending_kind if mem else None
            if kind is None:
                kind = v.top.rank if v.top.draw else Rank.DRAW_TWO
            d["pending_kind"] = kind.value
            if mem:
                d["pending_from"] = mem.pending_from
                d["pending_by"] = mem.pending_by
        if v.phase is Phase.CHALLENGE and v.challenge_from is not None:
            d["challenge"] = [v.challenge_from, True]
        return Game.from_dict(d)


ALL = {c.order: c for c in full_deck()}


def _w4_was_legal(rules: Rules, hand: list[int], color: Color | None, top: Card) -> bool:
    """Whether a Wild Draw Four from ``hand`` on ``top`` in ``color`` was legal: no card
    of the colour (``draw_four_when=no_play``: nor of the top card's number or symbol)."""
    col = COLORS.index(color) if color is not None else -2
    rank = CARD_RANK[top.order] if rules.draw_four_when != "no_color" and not top.is_wild else -2
    return not any(c < 52 and (CARD_COLOR[c] == col or CARD_RANK[c] == rank) for c in hand)


def _twin(a: Action) -> tuple[str, int, int, int]:
    """An action as the fast path plays it."""
    if isinstance(a, Play):
        color = COLORS.index(a.color) if a.card.is_wild and a.color is not None else -1
        return ("play", a.card.order, len(a.together), color)
    if isinstance(a, ChooseColor):
        return ("color", COLORS.index(a.color), 0, 0)
    return (type(a).__name__.lower(), 0, 0, 0)


def _apply_twin(f: FastRound, s: int, t: tuple[str, int, int, int]) -> None:
    kind = t[0]
    if kind == "play":
        f.play(s, t[1], t[2], t[3])
    elif kind == "draw":
        f.do_draw(s)
    elif kind == "pass":
        f.do_pass(s)
    elif kind == "accept":
        f.accept(s)
    elif kind == "challenge":
        f.do_challenge(s)
    elif kind == "color":
        f.choose_color(t[1])


_IN_TURN = (Play, Draw, Pass, Accept, Challenge, ChooseColor)


def decide(
    v: View,
    memory: Memory | None,
    seed: int,
    budget: Budget,
    moves: Sequence[Action] | None = None,
) -> Action | None:
    """The expert's action for the viewer of ``v`` (see the module's docstring), one of
    ``moves``: the seat's legal actions, as its menu offers them (by default those of a
    game rebuilt from ``v`` and ``memory``, which may miss a fact of the table a view
    does not hold when there is no record, such as the kind of a deflected penalty)."""
    me = v.viewer
    if me is None or v.hand is None or v.phase not in _ACTIVE:
        return None
    rnd = Random(seed)
    world = World(v, memory)
    g0 = world.game(*world.sample(rnd))
    listed = list(moves) if moves is not None else legal_actions(g0, me)
    smart = ai.choose(g0, me, "smart", Random(seed ^ 0x5EED))
    if smart is not None and _plain(smart) not in listed:
        smart = None  # the rebuilt game missed something: choose among the listed moves
    if v.current != me or isinstance(smart, CatchUno | CallUno):
        return smart
    turn: list[Action] = [a for a in listed if isinstance(a, _IN_TURN)]
    if not turn:
        return smart
    base = _plain(smart) if smart is not None else turn[0]
    if (
        len(turn) < 2
        or not supported(v.rules)
        or (v.phase is Phase.CHOOSING_COLOR and g0.after_color is None)
    ):
        return smart if smart is not None else base
    turn.remove(base)
    turn.insert(0, base)  # smart's move first: the one every other is measured against
    best = _search(world, turn, rnd, budget)
    if best is base and smart is not None:
        return smart
    if isinstance(best, Play):
        return ai._with_uno(g0, me, best)
    return best


_ACTIVE = (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE)


def _plain(a: Action) -> Action:
    """A play without its UNO call, as ``legal_actions`` lists it."""
    if isinstance(a, Play) and a.uno:
        return Play(a.card, a.color, a.target, a.together)
    return a


def _search(world: World, moves: list[Action], rnd: Random, budget: Budget) -> Action:
    """The move with the best paired lead over ``moves[0]`` (smart's), if that lead is
    more than ``budget.z`` standard errors; else ``moves[0]``. Successive halving: the
    playouts are spent in stages, each on new deals; after each the weaker half of the
    moves (never smart's) is dropped, so the last stages compare the contenders closely."""
    v = world.v
    me = world.me
    teams = v.teams
    players = list(v.players)
    mine = {me}  # the seats whose win is the expert's: itself, and its partner
    if teams is not None and v.viewer in teams:
        mine |= {i for i, p in enumerate(players) if teams.get(p) == teams[v.viewer]}
    twins = [_twin(a) for a in moves]
    k = len(moves)
    diffs: list[list[float]] = [[] for _ in range(k)]
    stop = time.thread_time() + budget.seconds if budget.seconds is not None else math.inf
    active = list(range(k))
    stages = max(1, math.ceil(math.log2(k))) if budget.halving else 1
    depth = budget.depth
    theta = theta_for(len(players), v.rules.stacking != "off")
    out = False
    for stage in range(stages):
        deals = max(2, budget.playouts // stages // len(active))
        for _ in range(deals):
            hands, draw, discard = world.sample(rnd)
            start = world.fast_round(hands, draw, discard, rnd.getrandbits(32))
            seed = rnd.getrandbits(32)
            results = []
            for i in active:
                f = start.copy()
                _apply_twin(f, me, twins[i])
                if depth:
                    results.append(value_after(f, Random(seed), depth, mine, theta))
                else:
                    results.append(1.0 if playout(f, Random(seed)) in mine else 0.0)
            r0 = results[0]
            for j in range(1, len(active)):
                diffs[active[j]].append(results[j] - r0)
            if time.thread_time() > stop:
                out = True
                break
        if out or len(active) <= 2:
            break
        if stage < stages - 1:  # keep smart's move and the better half of the others
            rest = sorted(active[1:], key=lambda i: -sum(diffs[i]) / max(1, len(diffs[i])))
            active = [0, *rest[: max(1, len(rest) // 2)]]
    best, lead = 0, 0.0
    for i in range(1, k):
        d = diffs[i]
        n = len(d)
        if n < 2:
            continue
        mean = sum(d) / n
        var = sum((x - mean) ** 2 for x in d) / (n - 1)
        se = math.sqrt(var / n)
        if mean > lead and mean > budget.z * se:
            best, lead = i, mean
    return moves[best]
