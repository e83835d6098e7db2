"""Several processes on one PostgreSQL database: each service here has a store (a pool) of
its own, as each ``uno-bot`` process would, and they share the database only. Any of them
may handle any table; every change is applied exactly once, on the stored table, and each
deadline fires in one of them, once."""

from __future__ import annotations

import asyncio
import contextvars
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.model import Deadline
from bot.port import RecordingPort
from bot.service import OVERDUE_SECONDS, Service
from bot.store import Store, Unsent, store_for
from engine import Draw, Leave, Pass, Timeout, scenario
from tests.bot.helpers import Clock, game_json, put_game, replay, settings

BACKENDS = ("postgresql",)
KEY = "t:chat:1"

# the deadline a service is firing (a context of its own per firing)
FIRING: contextvars.ContextVar[tuple[str, Deadline] | None] = contextvars.ContextVar(
    "firing", default=None
)


class Counting(Service):
    """A service that notes each deadline whose firing committed a change."""

    fired: list[tuple[str, str, float, int]]

    def __init__(self, *args: Any, fired: list[tuple[str, str, float, int]], **kw: Any):
        super().__init__(*args, **kw)
        self.fired = fired  # every process's (one list)
        self.mine: list[tuple[str, str, float, int]] = []

    async def _fire(self, key: str, d: Deadline) -> None:
        token = FIRING.set((key, d))
        try:
            await super()._fire(key, d)
        finally:
            FIRING.reset(token)

    async def _store_and_keep(self, step: Any, rev: int) -> None:
        await super()._store_and_keep(step, rev)
        firing = FIRING.get()
        if firing is not None:
            key, d = firing
            self.fired.append((key, d.kind, d.due, d.version))
            self.mine.append((key, d.kind, d.due, d.version))


Proc = tuple[Counting, Store, RecordingPort]


@pytest.fixture
async def procs(db: str, clock: Clock) -> AsyncIterator[list[Proc]]:
    """Three "processes": services on stores of their own, on the one database."""
    fired: list[tuple[str, str, float, int]] = []
    out: list[Proc] = []
    for i in range(3):
        store = store_for(db)
        await store.open()
        port = RecordingPort()
        svc = Counting(
            store, port, settings(), clock=clock, seed=10 + i, bot_delay=1.0, fired=fired
        )
        await svc.start(run_timers=False)
        out.append((svc, store, port))
    yield out
    for svc, store, _ in out:
        await svc.stop()
        await store.close()


async def two_humans(svc: Service, key: str = KEY, bots: int = 0) -> None:
    assert (await svc.create(key, "chat", "u1", "Ann")).ok
    assert (await svc.join(key, "u2", "Bob")).ok
    for _ in range(bots):
        assert (await svc.add_bot(key, "u1", "smart")).ok
    assert (await svc.start_game(key, "u1")).ok


async def check_log(store: Store, key: str) -> list[Any]:
    """The table's log: each version once, in order, and it replays to the stored game."""
    t = await store.get_table(key)
    assert t is not None and t.game is not None
    log = await store.actions(key)
    versions = [r.version for r in log]
    assert versions == sorted(set(versions)), versions
    assert game_json(replay(log, t.game_no)) == game_json(t.game)
    return log


# -- the one path across processes ---------------------------------------------------------


async def test_a_change_made_elsewhere_is_seen_and_built_on(procs: list[Proc]) -> None:
    (a, store, _), (b, _, b_port), _ = procs
    await two_humans(a)
    info = await b.table(KEY)  # b reads it: now b has a copy
    assert info is not None and info.view is not None
    first = info.view.current
    assert first is not None
    assert (await a.act(KEY, first, Draw())).ok  # a changes it
    assert (await a.act(KEY, first, Pass())).ok
    second = "u2" if first == "u1" else "u1"
    # b's copy says it is still the first player's turn: the stored table says otherwise
    res = await b.act(KEY, second, Draw())
    assert res.ok, res.code
    assert b_port.of("tell") == []  # nobody was refused on b's old copy
    seen = await a.table(KEY)  # and a's reads see b's change
    assert seen is not None and res.table is not None and seen.version == res.table.version
    log = await check_log(store, KEY)
    assert [r.player for r in log[-3:]] == [first, first, second]


async def test_a_refusal_is_decided_on_the_stored_table(procs: list[Proc]) -> None:
    (a, _, _), (b, _, b_port), _ = procs
    await two_humans(a)
    info = await b.table(KEY)
    assert info is not None and info.view is not None and info.view.current is not None
    first = info.view.current
    second = "u2" if first == "u1" else "u1"
    assert (await a.act(KEY, first, Draw())).ok
    assert (await a.act(KEY, first, Pass())).ok
    # on b's old copy this is "not your turn" for the first player; stored, it is true
    res = await b.act(KEY, first, Draw())
    assert not res.ok and res.code == "not_your_turn"
    assert res.table is not None and res.table.view is not None
    assert res.table.view.current == second  # refused on the stored table, not the copy
    assert [n.code for n in res.told] == ["not_your_turn"] and b_port.of("tell") == []


async def test_presses_from_every_process_at_once_apply_once(procs: list[Proc]) -> None:
    (a, store, _), *_ = procs
    await two_humans(a)
    infos = [await svc.table(KEY) for svc, _, _ in procs]  # every one has a copy
    assert infos[0] is not None and infos[0].view is not None
    player, v = infos[0].view.current, infos[0].version
    assert player is not None
    results = await asyncio.gather(
        *(svc.act(KEY, player, Draw(), seen_version=v) for _ in range(10) for svc, _, _ in procs)
    )
    assert sum(r.ok for r in results) == 1
    assert {r.code for r in results if not r.ok} == {"stale"}
    log = await check_log(store, KEY)
    assert [r.action for r in log].count({"type": "Draw"}) == 1


async def test_adapter_data_from_two_processes_is_all_kept(procs: list[Proc]) -> None:
    """Message ids set in one process are not lost by a change (or data) from another."""
    (a, store, _), (b, _, _), (c, _, _) = procs
    await two_humans(a)
    await b.table(KEY)
    await c.table(KEY)
    await a.set_meta(KEY, tg_msg=1)
    await b.set_meta(KEY, dc_msg=2)  # b's copy had no tg_msg
    info = await c.table(KEY)
    assert info is not None and info.view is not None and info.view.current is not None
    assert (await c.act(KEY, info.view.current, Draw())).ok
    stored = await store.get_table(KEY)
    assert stored is not None and stored.meta == {"tg_msg": 1, "dc_msg": 2}
    seen = await a.table(KEY)
    assert seen is not None and seen.meta == {"tg_msg": 1, "dc_msg": 2}


async def test_a_claim_in_the_tables_data_is_granted_to_one_process(procs: list[Proc]) -> None:
    """``change_meta`` is a compare-and-set on the table as stored: ten claims at once
    from each of three processes (each with an old copy of the table), one granted."""
    (a, store, _), *_ = procs
    await two_humans(a)
    for svc, _, _ in procs:
        await svc.table(KEY)  # every one has a copy
    await a.set_meta(KEY, tg_msg=5)  # the others' copies are old now
    granted: list[str] = []

    def claim(who: str) -> Any:
        def decide(info: Any) -> dict[str, Any] | None:
            if "sending" in info.meta or info.meta.get("tg_msg") != 5:
                return None
            granted.append(who)
            return {"sending": who}

        return decide

    results = await asyncio.gather(
        *(svc.change_meta(KEY, claim(f"{i}.{n}")) for n in range(10) for i, (svc, _, _) in
          enumerate(procs))
    )  # fmt: skip
    stored = await store.get_table(KEY)
    assert stored is not None
    winner = stored.meta["sending"]
    # a decision written is the last one its process made: the winner's, once
    assert granted.count(winner) >= 1 and all(r is not None for r in results)
    assert all(r.meta["sending"] == winner for r in results if r is not None)
    # every process now reads the claim; an entry set to None goes
    await procs[2][0].change_meta(KEY, lambda info: {"sending": None})
    seen = await a.table(KEY)
    assert seen is not None and seen.meta == {"tg_msg": 5}


async def test_a_table_shown_in_one_process_is_shown_for_all(
    procs: list[Proc], clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    (a, store, _), (b, _, _), _ = procs
    await two_humans(a)
    info = await b.table(KEY)
    assert info is not None and info.shown == 0 and info.view is not None
    clock.advance(20)
    await b.shown(KEY, info.version)  # the turn runs from now: 20 s later than armed
    stored = await store.get_table(KEY)
    assert stored is not None and stored.shown == info.version
    due = stored.deadline("turn").due  # type: ignore[union-attr]
    assert due == clock() + 60
    seen = await a.table(KEY)  # a's copy is from before: its reads see the mark
    assert seen is not None and seen.shown == info.version and seen.deadline == due
    # and a change a builds on a copy from before the mark is decided again on the table
    # as stored (the mark re-armed its deadlines)
    a._tables[KEY] = stored.evolve(shown=0, rev=stored.rev - 1)
    assert info.view.current is not None
    with caplog.at_level("INFO", logger="bot.service"):
        assert (await a.act(KEY, info.view.current, Draw())).ok
    assert "changed in another process: deciding again" in caplog.text
    after = await store.get_table(KEY)
    assert after is not None and after.shown == info.version


# -- deadlines among processes ---------------------------------------------------------------


async def test_a_deadline_armed_in_every_process_fires_in_one(
    db: str, clock: Clock, procs: list[Proc]
) -> None:
    (a, store, _), *_ = procs
    await two_humans(a)
    # the others know the table too (a restart of each would load it): all three time it
    for svc, _, _ in procs[1:]:
        await svc.start(run_timers=False)
        assert "turn" in svc.timers.armed(KEY)
    turn = a.timers.armed(KEY)["turn"]
    clock.t = turn.due + 0.5
    fired = await asyncio.gather(*(svc.timers.run_due(clock()) for svc, _, _ in procs))
    assert sorted(fired) == [0, 0, 1]
    winner = next(svc for (svc, _, _), n in zip(procs, fired, strict=True) if n == 1)
    for svc, _, _ in procs:
        if svc is not winner:  # the table is the winner's now
            assert svc.timers.armed(KEY) == {}
    log = await check_log(store, KEY)
    assert log[-1].action == {"type": "Timeout", "window": "turn"}
    assert a.fired == [(KEY, "turn", turn.due, turn.version)]  # (all of theirs)


async def test_a_deadline_that_changed_nothing_is_not_fired_again_elsewhere(
    procs: list[Proc], clock: Clock
) -> None:
    """A turn deadline stored for a turn that is over (armed for another turn version)
    fires and changes nothing: it stays handed out, in the database too, so no process
    takes it up again, however overdue."""
    (a, store, _), (b, _, _), _ = procs
    game = scenario({"u1": ["R5", "G7"], "u2": ["B2", "Y3"]}, ["R9"], current="u1")
    stray = Deadline("turn", clock() + 60, 99)  # the table's turn_version is 1
    await put_game(store, KEY, game, clock=clock, deadlines=(stray,))
    await a.start(run_timers=False)
    clock.advance(60)
    assert await a.timers.run_due(clock()) == 1  # claimed and fired: nothing to do
    assert a.mine == []
    clock.advance(OVERDUE_SECONDS + 60)
    assert await b.poll_overdue() == 0  # not b's to take: it is spent
    await b.start(run_timers=False)
    assert b.timers.armed(KEY) == {"turn": stray}
    assert await b.timers.run_due(clock()) == 0  # nor to fire
    assert await a.timers.run_due(clock()) == 0  # nor a's, again
    t = await store.get_table(KEY)
    assert t is not None and t.version == 1 and await store.actions(KEY) == []


async def test_a_dead_processes_deadlines_are_fired_by_another(
    procs: list[Proc], clock: Clock
) -> None:
    """a opens a table of bots and dies (its timers never run): b has never seen the table,
    finds its deadlines overdue and unclaimed, and plays the game to the end."""
    (a, store, _), (b, _, b_port), _ = procs
    assert (await a.create(KEY, "chat", "h", "Host", seat_host=False)).ok
    for _ in range(3):
        assert (await a.add_bot(KEY, "h", "smart")).ok
    assert (await a.start_game(KEY, "h", admin=True)).ok
    assert KEY not in b.open_tables() and b.timers.armed(KEY) == {}
    clock.advance(1 + OVERDUE_SECONDS - 0.5)
    assert await b.poll_overdue() == 0  # a's own, still: not overdue enough to take
    clock.advance(1)
    assert await b.poll_overdue() == 1
    assert await b.timers.run_due(clock()) == 1  # b fires it (it holds the claim)
    for _ in range(5000):
        info = await b.table(KEY)
        assert info is not None
        if info.status != "playing":
            break
        if await b.timers.run_due(clock()) == 0:
            nxt = b.timers.next_due()
            assert nxt is not None
            clock.t = max(clock.t, nxt)
    assert info.status == "finished"
    await check_log(store, KEY)
    assert a.mine == [] and len(b.mine) > 10
    assert b_port.of("closed")


# -- at random, from everywhere ---------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2])
async def test_actions_at_random_from_three_processes(
    procs: list[Proc], clock: Clock, seed: int
) -> None:
    """Six tables (two people and a bot seat each), played at once from three processes
    chosen at random: people's actions (many of them stale or illegal), timers and the
    overdue poll in every process. Every action accepted is in its table's log exactly
    once, each log replays to the stored game, and no deadline fired twice."""
    rng = random.Random(seed)
    keys = [f"t:chat:{i}" for i in range(6)]
    for i, key in enumerate(keys):
        await two_humans(procs[i % 3][0], key, bots=1)
    for svc, _, _ in procs:
        await svc.start(run_timers=False)  # as after a restart: everyone times everything
    accepted: list[tuple[str, int, str]] = []

    async def person(key: str) -> None:
        svc = rng.choice(procs)[0]
        player = rng.choice(["u1", "u2"])
        info = await svc.table(key)
        if info is None or info.status != "playing":
            return
        legal = [a for a in await svc.legal(key, player) if not isinstance(a, Leave | Timeout)]
        if not legal:
            return
        seen = info.version if rng.random() < 0.8 else max(1, info.version - 2)
        action = rng.choice(legal)
        await asyncio.sleep(rng.random() * 0.002)  # another may act meanwhile
        res = await svc.act(key, player, action, seen_version=seen)
        if res.ok:
            assert res.table is not None
            accepted.append((key, res.table.version, player))

    async def timers() -> None:
        svc = rng.choice(procs)[0]
        if rng.random() < 0.2:
            await svc.poll_overdue()
        await svc.timers.run_due(clock())

    for _ in range(60):
        clock.advance(rng.choice([0.0, 0.5, 1.0, 3.0, 30.0]))
        jobs = [person(rng.choice(keys)) for _ in range(6)] + [timers() for _ in range(3)]
        await asyncio.gather(*jobs)

    fired = procs[0][0].fired
    assert len(fired) > 20 and len(fired) == len(set(fired))  # each deadline once
    assert len(accepted) > 20
    store = procs[0][1]
    for key in keys:
        log = await check_log(store, key)
        by_version = {r.version: r for r in log}
        for k, version, player in accepted:
            if k == key:  # the accepted action is the record of its version, by its player
                assert by_version[version].player == player
        assert len([a for a in accepted if a[0] == key]) <= len(log)
    assert {k for k, *_ in fired} <= set(keys)


# -- leases, pacing and replies owed: what adapters ask of the store, through the service --


async def test_a_lease_is_one_process_s_until_released(procs: list[Proc]) -> None:
    (a, _, _), (b, _, _), _ = procs
    assert await a.lease("dc-emojis", 60.0)
    assert await a.lease("dc-emojis", 60.0)  # renewed by its holder
    assert not await b.lease("dc-emojis", 60.0)
    assert await b.lease("dc:identify:0", 5.0, owner=f"{b.worker}:0:1")  # another lease
    await b.release("dc-emojis")  # not b's: nothing changes
    assert not await b.lease("dc-emojis", 60.0)
    await a.release("dc-emojis")
    assert await b.lease("dc-emojis", 60.0)
    assert not await a.lease("dc-emojis", 60.0)


async def test_a_flow_is_paced_across_processes(procs: list[Proc]) -> None:
    (a, _, _), (b, _, _), _ = procs
    waits = [await svc.pace("tg:-5", 3.0, 2) for svc in (a, b, a)]
    assert waits[:2] == [0.0, 0.0]  # the burst
    assert 2.0 < waits[2] <= 3.0  # the third waits about one interval, whoever sends it


async def test_replies_owed_by_a_process_are_taken_by_another(procs: list[Proc]) -> None:
    (a, _, _), (b, _, _), _ = procs
    await a.mark_unsent([Unsent("tg:-1", a.worker, 100.0), Unsent("tg:-2", a.worker, 100.0)])
    await a.mark_unsent([Unsent("tg:-2", a.worker, None)])  # no longer owed
    assert await b.take_unsent("tg", 50.0, 200.0) == []  # marked after ``before``
    taken = await b.take_unsent("tg", 150.0, 200.0)
    assert taken == [Unsent("tg:-1", a.worker, 100.0)]
    assert await a.take_unsent("tg", 150.0, 300.0) == []  # b's now, marked at 200
