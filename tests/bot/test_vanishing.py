"""Issue 22, measured: tables where people vanish at random, on a fake clock.

Each table seats 2 to 5 people (and up to 2 bot seats) under random rules: ``absent``
``remove`` or ``autopilot``, ``afk_strikes`` 0 to 3, turns of 10 to 60 s. Each person plays
(the ``smart`` strategy's choice, through ``Service.act`` like a press) until, at random, they
vanish for good, or for a while and come back; those left waiting on the turn of a player
gone for two turns in a row vote to end the game now and then. Nothing else moves the
tables but their own deadlines, fired when due (``timers.run_due``). Checked:

- every game reaches a result (finished) or an explicit end (stopped: a vote, everyone
  away, everyone removed), none is left open;
- none waits on someone gone: while a table is open it always has a deadline armed or a
  present person able to act, and no table goes longer without a change than its longest
  window (its turn, or a +4's challenge time).

``make test`` runs a short version (``test_a_few_tables_...``); ``-m soak`` the long one,
which prints its figures (how each game ended, how long a table waited at most, how long
after the last person vanished a table closed).
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.model import PLAYING
from bot.port import Notice, NullPort, TableInfo
from bot.seats import strategies as ai
from bot.service import Service
from engine import Phase
from tests.bot.helpers import Clock, close_service, open_service

TURNS = (10, 20, 30, 60)


class Tally(NullPort):
    """A port that keeps, per table, the codes announced (the outcome is the last)."""

    def __init__(self) -> None:
        self.codes: dict[str, list[str]] = {}

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        self.codes.setdefault(table.key, []).append(notice.code)


@dataclass
class Person:
    pid: str
    vanish_after: int | None  # own presses before vanishing (None: stays to the end)
    away_for: float | None  # seconds gone before coming back (None: gone for good)
    presses: int = 0
    gone_at: float | None = None

    def here(self, now: float) -> bool:
        if self.gone_at is None:
            return True
        return self.away_for is not None and now >= self.gone_at + self.away_for


@dataclass
class Seating:
    key: str
    people: list[Person]
    rules: dict[str, Any]
    last_change: float = 0.0
    version: int = 0
    longest_wait: float = 0.0
    everyone_gone_at: float | None = None
    closed_at: float | None = None
    voted_for: set[tuple[int, str]] = field(default_factory=set)


@dataclass
class Report:
    outcomes: Counter[str]
    longest_wait: float  # the most seconds a table went without a change
    wait_over_window: list[str]  # tables that waited longer than their longest window
    gone_to_closed: dict[str, list[float]]  # by ``absent``: everyone gone -> closed, s
    actions: int


async def vanishing(db: Path, tables: int, seed: int, targets: Sequence[int]) -> Report:
    rng = random.Random(seed)
    clock = Clock()
    port = Tally()
    svc, store, _ = await open_service(db, clock, port, seed=seed, bot_delay=1.0)  # type: ignore[arg-type]
    seatings: list[Seating] = []
    try:
        for i in range(tables):
            seatings.append(await _open(svc, rng, f"t:vanish:{i}", targets))
        actions = await _play(svc, clock, rng, seatings)
    finally:
        await close_service(svc, store)
    outcomes: Counter[str] = Counter()
    gone: dict[str, list[float]] = {"remove": [], "autopilot": []}
    over: list[str] = []
    for s in seatings:
        outcomes[_outcome(s, port)] += 1
        window = max(s.rules["turn_seconds"], 20)  # the turn, or a +4's challenge time
        if s.longest_wait > window + 1e-6:
            over.append(f"{s.key}: {s.longest_wait:.0f} s > {window} s")
        if s.everyone_gone_at is not None and s.closed_at is not None:
            gone[s.rules["absent"]].append(s.closed_at - s.everyone_gone_at)
    return Report(
        outcomes,
        max(s.longest_wait for s in seatings),
        over,
        gone,
        actions,
    )


async def _open(svc: Service, rng: random.Random, key: str, targets: Sequence[int]) -> Seating:
    humans = rng.randint(2, 5)
    bots = rng.randint(0, 2)
    rules = {
        "absent": rng.choice(["remove", "autopilot"]),
        "afk_strikes": rng.choice([0, 1, 2, 3]),
        "turn_seconds": rng.choice(TURNS),
        "target": rng.choice(list(targets)),
    }
    people = [
        Person(
            f"p{key[-3:]}:{n}",
            rng.choice([None, 0, 1, 3, 8, 20]),
            rng.choice([None, None, 90.0, 400.0]),
        )
        for n in range(humans)
    ]
    host = people[0].pid
    assert (await svc.create(key, "vanish", host, "P0", overrides=rules)).ok
    for n, p in enumerate(people[1:], 1):
        assert (await svc.join(key, p.pid, f"P{n}")).ok
    for _ in range(bots):
        assert (await svc.add_bot(key, host, "smart")).ok
    res = await svc.start_game(key, host)
    assert res.ok and res.table is not None, res
    return Seating(key, people, rules, svc.clock(), res.table.version)


async def _play(svc: Service, clock: Clock, rng: random.Random, seatings: list[Seating]) -> int:
    actions = 0
    for _ in range(200_000):
        now = clock()
        open_ = [s for s in seatings if s.closed_at is None]
        if not open_:
            return actions
        moved = False
        for s in open_:
            t = svc._tables.get(s.key)
            if t is None or t.status != PLAYING:
                s.closed_at = now
                continue
            if t.version != s.version:
                s.longest_wait = max(s.longest_wait, now - s.last_change)
                s.version, s.last_change = t.version, now
            moved |= await _people_act(svc, rng, s, now)
        if moved:
            actions += 1
            continue
        open_ = [s for s in open_ if s.closed_at is None]
        if not open_:
            continue
        # nobody present can act: the tables move by their deadlines alone
        for s in open_:
            if svc._tables.get(s.key) is not None and not svc.timers.armed(s.key):
                raise AssertionError(f"{s.key} waits with no deadline armed")
        due = svc.timers.next_due()
        assert due is not None, "open tables, and nothing armed"
        clock.t = max(clock.t, due)
        await svc.timers.run_due(clock())
    raise AssertionError("the tables never all closed")


async def _people_act(svc: Service, rng: random.Random, s: Seating, now: float) -> bool:
    """One press of one present person at the table, if any has one to make (and each
    vanishing that is due); whether one pressed."""
    t = svc._tables[s.key]
    g = t.game
    assert g is not None
    seated = set(g.players)
    present = []
    for p in s.people:
        if p.pid not in seated:
            continue
        if p.gone_at is None and p.vanish_after is not None and p.presses >= p.vanish_after:
            p.gone_at = now  # gone, for good or for a while
        if p.here(now):
            present.append(p)
    if not present:
        if s.everyone_gone_at is None and not any(
            p.away_for is not None for p in s.people if p.pid in seated
        ):
            s.everyone_gone_at = now
        return False
    if g.phase not in (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE):
        return False
    for p in present:
        if p.gone_at is not None:  # back: their first press is whatever they do now
            p.gone_at, p.vanish_after = None, None
        mine = g.current == p.pid
        if not mine and not ai.out_of_turn(g, p.pid, "smart"):
            continue
        action = ai.choose(g, p.pid, "smart", rng)
        if action is None:
            continue
        res = await svc.act(s.key, p.pid, action, seen_version=t.version)
        p.presses += 1
        if res.ok:
            return True
    # waiting on someone gone whose turns ran out twice in a row already: now and then,
    # those here vote to end it
    gone = g.current is not None and g.current not in {p.pid for p in present}
    if gone and g.current in {p.pid for p in s.people} and t.strikes.get(g.current, 0) >= 2:
        vote = t.vote
        for p in present:
            key = (t.turn_version, p.pid)
            if key in s.voted_for or rng.random() > 0.3:
                continue
            s.voted_for.add(key)
            if vote is not None and p.pid in vote.voters:
                continue
            res = await svc.vote_end(s.key, p.pid, vote.version if vote else 0)
            if res.ok:
                return True
    return False


def _outcome(s: Seating, port: Tally) -> str:
    codes = port.codes.get(s.key, [])
    last = codes[-1] if codes else ""
    if last == "info.game_won":
        return "result"
    if last in ("info.vote_ended", "info.all_away", "info.closed_empty"):
        return last.removeprefix("info.")
    return f"other ({last})"


def _check(report: Report, tables: int) -> None:
    assert sum(report.outcomes.values()) == tables
    assert not [o for o in report.outcomes if o.startswith("other")], report.outcomes
    assert report.wait_over_window == [], report.wait_over_window[:5]


async def test_a_few_tables_where_people_vanish_all_end(tmp_path: Path) -> None:
    """The short version: a handful of one-round tables."""
    report = await vanishing(tmp_path / "v.db", tables=8, seed=22, targets=(0,))
    _check(report, 8)
    assert report.outcomes["result"] > 0


@pytest.mark.soak
@pytest.mark.parametrize("seed", [1, 2])
async def test_many_tables_where_people_vanish_all_end(tmp_path: Path, seed: int) -> None:
    tables = 150
    report = await vanishing(tmp_path / "v.db", tables=tables, seed=seed, targets=(0, 100, 200))
    _check(report, tables)
    print(f"\nseed {seed}: {tables} tables, {report.actions} rounds of presses")
    print("  ended:", dict(report.outcomes))
    print(f"  longest a table went without a change: {report.longest_wait:.0f} s")
    for absent, times in report.gone_to_closed.items():
        if times:
            print(
                f"  absent={absent}: everyone gone -> closed, {len(times)} tables: median "
                f"{statistics.median(times):.0f} s, max {max(times):.0f} s"
            )
