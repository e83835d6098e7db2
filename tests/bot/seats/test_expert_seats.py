"""Expert seats in the service: each table's public record kept from its committed moves,
the search run off the event loop (a table waiting for its expert's search never holds
up another table), and a table of experts playing to the end through its timers."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.model import FINISHED
from bot.port import RecordingPort
from bot.seats.expert import Budget, Experts
from bot.service import Service
from bot.store import SqliteStore, store_for
from engine import Draw, Play, Rules, legal_actions
from tests.bot.helpers import Clock, drive, game_json, replay, settings

KEY = "t:chat:1"
OTHER = "t:chat:2"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = store_for(tmp_path / "uno.db")
    await s.open()
    yield s  # type: ignore[misc]
    await s.close()


async def _service(store: SqliteStore, clock: Clock, executor: Executor) -> Service:
    experts = Experts(budget=Budget(playouts=40), executor=executor)
    svc = Service(store, RecordingPort(), settings(), clock=clock, seed=3, experts=experts)
    await svc.start(run_timers=False)
    return svc


async def test_a_table_of_experts_plays_to_the_end(store: SqliteStore) -> None:
    clock = Clock()
    with ThreadPoolExecutor(1) as pool:
        svc = await _service(store, clock, pool)
        assert (await svc.create(KEY, "chat", "h", "Host", seat_host=False)).ok
        for strategy in ("expert", "smart", "expert"):
            assert (await svc.add_bot(KEY, "h", strategy)).ok
        assert (await svc.configure(KEY, "h", overrides={"target": 100})).ok
        assert (await svc.start_game(KEY, "h")).ok
        seen: list[tuple[int, int]] = []
        record = svc.experts.record

        def checked(key: str, rules: Rules, moves: Any) -> None:
            record(key, rules, moves)
            t = svc._tables.get(key)
            mem = svc.experts.memory(key)
            if t is not None and t.game is not None and mem is not None and not mem.over:
                g = t.game
                assert mem.discard == g.discard  # the record keeps the pile as it is
                assert {p: len(s) for p, s in mem.slots.items()} == {
                    p: g.hand_size(p) for p in g.players
                }
                seen.append((g.round, len(g.discard)))

        svc.experts.record = checked  # type: ignore[method-assign]
        await drive(svc, clock, KEY)
        await svc.stop()
    t = await store.get_table(KEY)
    assert t is not None and t.status == FINISHED and t.game is not None
    assert t.game.winner is not None
    assert game_json(replay(await store.actions(KEY), t.game_no)) == game_json(t.game)
    assert len(seen) > 30
    assert svc.experts.memory(KEY) is None  # forgotten with the table


class _Held(Executor):
    """An executor that starts each job only when the test lets it."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.started = threading.Event()
        self._pool = ThreadPoolExecutor(1)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def held() -> Any:
            self.started.set()
            self.go.wait(10)
            return fn(*args, **kwargs)

        return self._pool.submit(held)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.go.set()
        self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


async def test_a_search_under_way_holds_up_no_other_table(store: SqliteStore) -> None:
    clock = Clock()
    held = _Held()
    svc = await _service(store, clock, held)
    assert (await svc.create(KEY, "chat", "h", "Host", seat_host=False)).ok
    for strategy in ("expert", "expert"):
        assert (await svc.add_bot(KEY, "h", strategy)).ok
    assert (await svc.start_game(KEY, "h")).ok
    assert (await svc.create(OTHER, "chat", "u1", "Ann")).ok
    assert (await svc.join(OTHER, "u2", "Bob")).ok
    assert (await svc.start_game(OTHER, "u1")).ok
    before = await store.get_table(KEY)
    assert before is not None
    clock.advance(5)
    searching = asyncio.create_task(svc.timers.run_due(clock()))
    while not held.started.is_set():  # the expert's search has begun (and waits)
        await asyncio.sleep(0.01)
    # meanwhile the other table plays on
    info = await svc.table(OTHER)
    assert info is not None and info.view is not None and info.view.current is not None
    cur = info.view.current
    moved = await svc.act(OTHER, cur, _any_move(svc, OTHER, cur))
    assert moved.ok
    assert not searching.done()
    held.go.set()
    await searching
    t = await store.get_table(KEY)
    assert t is not None and t.version == before.version + 1  # the expert's move, made
    await svc.stop()


def _any_move(svc: Service, key: str, player: str) -> Any:
    t = svc._tables[key]
    assert t.game is not None
    plays = [a for a in legal_actions(t.game, player) if isinstance(a, Play)]
    return plays[0] if plays else Draw()


async def test_the_worker_process_decides(store: SqliteStore) -> None:
    """The default worker: a process of its own (spawned), the same choice as in this
    process for the same view, record and seed."""
    from bot.seats.expert import decide
    from engine import new_game, view

    experts = Experts(budget=Budget(playouts=60))
    try:
        g = new_game(["a", "b", "c"], Rules(target=0), seed=5)
        p = g.current
        assert p is not None
        got = await experts.decide("k", g, p, 99)
        assert got == decide(view(g, p), None, 99, Budget(playouts=60))
    finally:
        experts.close()
