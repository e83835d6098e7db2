"""``uno-bot simulate``: bot seats against each other, straight on the engine (no service,
no storage), to compare strategies."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from bot.seats import strategies as ai
from bot.seats.expert import Memory
from engine import (
    Action,
    Event,
    Game,
    NextRound,
    Phase,
    Rules,
    apply,
    legal_actions,
    new_game_events,
    redact,
)

__all__ = ["SimResult", "simulate", "wilson"]


@dataclass(frozen=True)
class SimResult:
    games: int
    seats: tuple[str, ...]  # the strategy of each seat
    wins: dict[str, int]  # wins per strategy
    seat_counts: dict[str, int]  # seats per strategy per game
    actions: int

    def share(self, strategy: str) -> float:
        """Fraction of games won by seats of ``strategy``."""
        return self.wins.get(strategy, 0) / self.games if self.games else 0.0

    def fair_share(self, strategy: str) -> float:
        """What ``share`` would be if every seat were equally strong."""
        return self.seat_counts.get(strategy, 0) / len(self.seats)

    def interval(self, strategy: str) -> tuple[float, float]:
        """The 95 % (Wilson) interval of ``share``."""
        return wilson(self.wins.get(strategy, 0), self.games)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95 % for ``z`` 1.96): unlike the normal
    approximation it stays within 0-1 and holds for small samples and extreme rates."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z / (1 + z2 / games) * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def simulate(
    games: int,
    players: int,
    rules: Rules,
    strategies: Sequence[str] = ("smart", "random"),
    seed: int = 0,
    max_steps: int = 20_000,
) -> SimResult:
    """Play ``games`` games; seat ``i`` uses ``strategies[i % len(strategies)]``, and the
    seating rotates every game so no strategy keeps the first seat."""
    rng = random.Random(seed)
    wins: Counter[str] = Counter()
    base = [strategies[i % len(strategies)] for i in range(players)]
    total = 0
    for n in range(games):
        shift = n % players
        seats = base[shift:] + base[:shift]
        ids = [f"{s}{i}" for i, s in enumerate(seats)]
        strat = dict(zip(ids, seats, strict=True))
        g, ev = new_game_events(ids, rules, seed=rng.getrandbits(63))
        # the public record, for expert seats
        memory = Memory(rules) if "expert" in strategies else None
        if memory is not None:
            memory.feed(ids[0], None, _public(ev))
        steps = 0
        while g.winner is None and steps < max_steps:
            if g.phase is Phase.ROUND_OVER:
                g, ev = apply(g, g.players[0], NextRound())
                if memory is not None:
                    memory.feed(g.players[0], None, _public(ev))
                continue
            action, who = _next_action(g, ids, strat, rng, memory)
            g, ev = apply(g, who, action)
            if memory is not None:
                memory.feed(who, action, _public(ev))
            steps += 1
        total += steps
        if g.winner is not None:
            wins[strat[g.winner]] += 1
    return SimResult(
        games=games,
        seats=tuple(base),
        wins=dict(wins),
        seat_counts=dict(Counter(base)),
        actions=total,
    )


def _public(events: Sequence[Event]) -> list[Event]:
    return [redact(e, None) for e in events]


def _next_action(
    g: Game,
    ids: list[str],
    strat: dict[str, str],
    rng: random.Random,
    memory: Memory | None,
) -> tuple[Action, str]:
    # out-of-turn first (catches, jump-ins), in seat order, as a quick table would see it
    for p in ids:
        if p in g.players and p != g.current and ai.out_of_turn(g, p, strat[p]):
            a = ai.choose(g, p, strat[p], rng, memory)
            if a is not None:
                return a, p
    cur = g.current
    assert cur is not None
    a = ai.choose(g, cur, strat[cur], rng, memory)
    if a is None:  # cannot happen: the current player always has a move
        a = legal_actions(g, cur)[0]
    return a, cur
