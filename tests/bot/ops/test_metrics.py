"""The operators' metrics (``bot.ops.metrics``): a short game through the service moves the
counters it should (actions by kind, refusals by code, deadlines fired and how late, the
latency of each commit); several processes on one database count their stale retries
and the deadlines they take over from a dead one; platforms' 429s are counted."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from aiohttp import ClientSession, web

from bot.ops import metrics as metrics_mod
from bot.ops.metrics import Metrics, aiohttp_trace, rate_limited, shard_range
from bot.port import RecordingPort
from bot.service import OVERDUE_SECONDS, Service
from bot.store import Store, store_for
from engine import Draw
from tests.bot.helpers import Clock, settings

BACKENDS = ("sqlite", "postgresql")
KEY = "tg:-100"
Env = tuple[Service, Store, RecordingPort]


def value(m: Metrics, name: str, **labels: str) -> float:
    return m.value(name, **labels)


async def test_a_short_game_moves_the_counters(env: Env, clock: Clock) -> None:
    svc, _, _ = env
    m = svc.metrics
    assert value(m, "uno_actions_total", platform="tg", kind="table") == 0
    assert (await svc.create(KEY, KEY, "u1", "Ann")).ok
    assert (await svc.join(KEY, "u2", "Bob")).ok
    assert (await svc.start_game(KEY, "u1")).ok
    assert value(m, "uno_actions_total", platform="tg", kind="table") == 2  # create, join
    assert value(m, "uno_actions_total", platform="tg", kind="Start") == 1

    info = await svc.table(KEY)
    assert info is not None and info.view is not None and info.view.current is not None
    assert (await svc.act(KEY, info.view.current, Draw())).ok
    assert value(m, "uno_actions_total", platform="tg", kind="Draw") == 1
    # a refusal is counted by its code, and changes no action count
    info = await svc.table(KEY)
    assert info is not None and info.view is not None
    waiting = "u2" if info.view.current == "u1" else "u1"
    res = await svc.act(KEY, waiting, Draw())
    assert not res.ok and res.code == "not_your_turn"
    assert value(m, "uno_refusals_total", platform="tg", code="not_your_turn") == 1
    res = await svc.join(KEY, "u2", "Bob")
    assert value(m, "uno_refusals_total", platform="tg", code="already_joined") == 1
    assert value(m, "uno_actions_total", platform="tg", kind="Draw") == 1
    # every committed change is timed, none of the refused ones
    assert value(m, "uno_action_seconds_count", platform="tg") == 4
    assert value(m, "uno_action_seconds_sum", platform="tg") > 0

    # the turn runs out; the timer fires it 5 s late: counted, and how late
    turn = (await svc.table(KEY)).deadline  # type: ignore[union-attr]
    assert turn is not None
    clock.t = turn + 5.0
    assert await svc.timers.run_due() >= 1
    assert value(m, "uno_deadlines_fired_total", kind="turn") == 1
    assert value(m, "uno_actions_total", platform="tg", kind="Timeout") == 1
    assert value(m, "uno_deadline_lateness_seconds_sum", kind="turn") == pytest.approx(5.0)
    assert value(m, "uno_deadline_lateness_seconds_bucket", kind="turn", le="2.5") == 0
    assert value(m, "uno_deadline_lateness_seconds_bucket", kind="turn", le="5.0") == 1

    # read when scraped: the open table, its deadlines
    assert value(m, "uno_open_tables", platform="tg") == 1
    assert value(m, "uno_deadlines_armed") == len(svc.timers) >= 1
    assert value(m, "uno_deadlines_overdue") == 0
    assert value(m, "uno_stale_retries_total") == 0  # one process: never stale
    text = m.exposition().decode()
    assert f'uno_actions_total{{kind="Draw",platform="tg",process="{svc.worker}"}} 1.0' in text
    assert "# TYPE uno_action_seconds histogram" in text
    assert 'uno_process_info{pid="' in text


async def test_an_uno_window_counts_as_uno_and_overdue_ones_are_seen(
    env: Env, clock: Clock
) -> None:
    svc, _, _ = env
    m = svc.metrics
    m.fired("uno:u1", 0.2)  # per player deadlines are one kind: no label per player
    assert value(m, "uno_deadlines_fired_total", kind="uno") == 1
    assert (await svc.create(KEY, KEY, "u1", "Ann")).ok
    assert value(m, "uno_deadlines_overdue") == 0
    clock.advance(3600)  # the lobby's deadline is due, not fired yet
    assert value(m, "uno_deadlines_overdue") == 1


async def test_each_service_has_registries_of_its_own(env: Env) -> None:
    svc, store, port = env
    other = Service(store, port, settings())
    assert (await svc.create(KEY, KEY, "u1", "Ann")).ok
    assert value(svc.metrics, "uno_actions_total", platform="tg", kind="table") == 1
    assert value(other.metrics, "uno_actions_total", platform="tg", kind="table") == 0
    assert other.metrics.registry is not svc.metrics.registry
    assert other.worker != svc.worker


def test_platform_labels_are_bounded() -> None:
    m = Metrics("p")
    labels = {m.platform(f"x{i}:1") for i in range(100)}
    assert len(labels) == metrics_mod.MAX_PLATFORMS + 1 and "other" in labels
    assert m.platform("x0:2") == "x0"


def test_shard_ranges() -> None:
    assert shard_range([2, 3], 4) == "2-3/4"
    assert shard_range([0], 8) == "0/8"
    assert shard_range([0, 2], 4) == "0,2/4"
    assert shard_range(None, None) == ""
    assert shard_range([], 4) == ""


async def test_429s_are_counted_per_platform_and_shard() -> None:
    m = Metrics("p")
    before = value(m, "uno_platform_rate_limited_total", platform="tg", shard="")
    rate_limited("tg")
    assert value(m, "uno_platform_rate_limited_total", platform="tg", shard="") == before + 1

    # discord.py's HTTP client takes a trace: a 429 answer counts, a 200 does not
    async def limited(request: web.Request) -> web.Response:
        return web.json_response({"retry_after": 0.01}, status=429)

    async def fine(request: web.Request) -> web.Response:
        return web.json_response({})

    app = web.Application()
    app.router.add_get("/limited", limited)
    app.router.add_get("/fine", fine)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    before = value(m, "uno_platform_rate_limited_total", platform="dc", shard="0-1/4")
    try:
        trace = aiohttp_trace("dc", lambda: "0-1/4")
        async with ClientSession(trace_configs=[trace]) as http:
            for path in ("/limited", "/fine", "/limited"):
                async with http.get(f"http://127.0.0.1:{port}{path}") as r:
                    await r.read()
    finally:
        await runner.cleanup()
    after = value(m, "uno_platform_rate_limited_total", platform="dc", shard="0-1/4")
    assert after == before + 2


# -- several processes on one database -------------------------------------------------------


@pytest.fixture
async def two(postgres_url: str, clock: Clock) -> AsyncIterator[list[tuple[Service, Store]]]:
    out = []
    for i in range(2):
        store = store_for(postgres_url)
        await store.open()
        svc = Service(store, RecordingPort(), settings(), clock=clock, seed=i, bot_delay=1.0)
        await svc.start(run_timers=False)
        out.append((svc, store))
    yield out
    for svc, store in out:
        await svc.stop()
        await store.close()


async def test_stale_retries_are_counted(two: list[tuple[Service, Store]]) -> None:
    (a, _), (b, _) = two
    assert (await a.create(KEY, KEY, "u1", "Ann")).ok
    assert (await b.table(KEY)) is not None  # b keeps a copy
    assert (await a.join(KEY, "u2", "Bob")).ok  # a changes the table: b's copy is old
    assert (await b.join(KEY, "u3", "Cy")).ok  # decided again on the stored table
    assert value(b.metrics, "uno_stale_retries_total") == 1
    assert value(a.metrics, "uno_stale_retries_total") == 0


async def test_deadlines_taken_over_from_a_dead_process_are_counted(
    two: list[tuple[Service, Store]], clock: Clock
) -> None:
    (a, _), (b, _) = two
    assert (await a.create(KEY, KEY, "u1", "Ann")).ok
    assert (await a.add_bot(KEY, "u1", "smart")).ok
    assert (await a.start_game(KEY, "u1")).ok
    # a never fires its deadlines (dead): b finds them overdue and takes them
    t = await b.store.get_table(KEY)
    assert t is not None and t.deadlines
    clock.t = max(d.due for d in t.deadlines) + OVERDUE_SECONDS + 1
    got = await b.poll_overdue()
    assert got >= 1
    assert value(b.metrics, "uno_deadlines_taken_over_total") == got
    assert value(a.metrics, "uno_deadlines_taken_over_total") == 0
