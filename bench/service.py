"""Table service speed: bot tables driven through the real service, store and timers.

1. The floor: single-row commits through aiosqlite on the store's settings (WAL,
   ``synchronous=NORMAL``), one ``INSERT`` + ``COMMIT`` at a time.
2. ``--tables`` concurrent tables of ``--players`` bot seats, ``bot_delay=0``: every action
   enters through a deadline, as in production, and is committed (state, action, deadlines
   in one transaction) before a recording port is shown it. The store group-commits:
   actions that arrive together share a commit, and each caller is answered only after
   the commit that holds its change. Latency is per action, from the moment its deadline
   fires (the scheduler hands it to the service) until it is committed and shown; the
   schedule lag (how late the deadline fired, which grows when the offered load exceeds
   what one process does) is reported apart.
3. ``--restore`` tables with games in progress: the time ``Service.start()`` takes to load
   them and re-arm their deadlines after a restart, and the memory per loaded table.

    python -m bench.service [--tables 1000] [--seconds 20] [--restore 10000]
    python -m bench.service --db postgresql://postgres@127.0.0.1:5432/postgres

``--db`` runs it all on a PostgreSQL server instead (each part in a schema of its own,
dropped after): the floor is then single-row commits through asyncpg.

``--compare-metrics N`` adds N runs of part 2 with the metrics counting and N with them
doing nothing (``NoMetrics``), alternated, and what their calls alone cost an action.

Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import aiosqlite

import bot.store
from bot.cli import settle_gc
from bot.model import Deadline, Table
from bot.ops.config import Settings
from bot.ops.metrics import Metrics
from bot.port import RecordingPort
from bot.service import Result, Service
from bot.store import ActionRecord, Store, WriteBatch, store_for

KEY = "bench:{}"


class Backend:
    """Where the benchmark's databases are: files in ``folder`` (SQLite), or schemas of
    their own on the PostgreSQL server ``url``. ``name`` names one database."""

    def __init__(self, folder: Path, url: str | None) -> None:
        self.folder = folder
        self.url = url
        self.schemas: list[str] = []

    @property
    def kind(self) -> str:
        return "SQLite" if self.url is None else "PostgreSQL"

    def db(self, name: str) -> Path | str:
        if self.url is None:
            return self.folder / f"{name}.sqlite3"
        schema = f"uno_bench_{name}_{uuid.uuid4().hex[:8]}"
        self.schemas.append(schema)
        parts = urlsplit(self.url)
        query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
        query.append(("search_path", schema))
        return urlunsplit(parts._replace(query=urlencode(query)))

    async def store(self, db: Path | str) -> Store:
        if isinstance(db, str):
            await self._admin(f'CREATE SCHEMA IF NOT EXISTS "{_schema(db)}"')
        s = store_for(db)
        await s.open()
        return s

    async def size_mb(self, db: Path | str) -> float:
        if isinstance(db, Path):
            return db.stat().st_size / 1e6
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            size = await conn.fetchval(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = $1 AND c.relkind = 'r'",
                _schema(db),
            )
        finally:
            await conn.close()
        return float(size) / 1e6

    async def cleanup(self) -> None:
        for schema in self.schemas:
            await self._admin(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')

    async def _admin(self, sql: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()


def _schema(url: str) -> str:
    return dict(parse_qsl(urlsplit(url).query))["search_path"]


# -- 1. the floor ------------------------------------------------------------------------------


async def raw_commits(be: Backend, name: str, seconds: float) -> float:
    """Single-row commits per second through aiosqlite or asyncpg (INSERT, then COMMIT)."""
    target = be.db(name)
    if isinstance(target, str):
        return await raw_pg_commits(be, target, seconds)
    db = await aiosqlite.connect(target)
    for pragma in bot.store.sqlite._PRAGMAS:
        await db.execute(pragma)
    await db.execute("CREATE TABLE IF NOT EXISTS raw (id INTEGER PRIMARY KEY, body TEXT)")
    await db.commit()
    body = "x" * 200
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        await db.execute("INSERT INTO raw (body) VALUES (?)", (body,))
        await db.commit()
        n += 1
    elapsed = time.perf_counter() - start
    await db.close()
    return n / elapsed


async def raw_pg_commits(be: Backend, url: str, seconds: float) -> float:
    import asyncpg

    await be._admin(f'CREATE SCHEMA IF NOT EXISTS "{_schema(url)}"')
    db = await asyncpg.connect(url)
    await db.execute("CREATE TABLE IF NOT EXISTS raw (id BIGSERIAL PRIMARY KEY, body TEXT)")
    body = "x" * 200
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        async with db.transaction():
            await db.execute("INSERT INTO raw (body) VALUES ($1)", body)
        n += 1
    elapsed = time.perf_counter() - start
    await db.close()
    return n / elapsed


async def store_one_at_a_time(be: Backend, seconds: float) -> float:
    """``Store.write`` of one action (a table in play, its deadlines, the action) at a
    time, nothing to group it with: the store's own floor per action."""
    store = await be.store(be.db("one"))
    svc = Service(store, RecordingPort(keep=False), settings(), seed=4, bot_delay=0.0)
    await svc.start(run_timers=False)
    await open_tables(svc, ["one"], 4, {})
    t = await store.get_table("one")
    assert t is not None
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while time.perf_counter() < end:
        n += 1
        base = t.rev
        t = t.evolve(version=t.version + 1)
        t.game_json = None  # serialised again, as after a real action
        rec = ActionRecord(t.key, t.game_no, t.version, "bot", {"type": "Draw"}, time.time())
        await store.write(WriteBatch(tables=[t], actions=[rec], expect={t.key: base}))
        t.rev = base + 1
    elapsed = time.perf_counter() - start
    await svc.stop()
    await store.close()
    return n / elapsed


# -- 2. tables of bots through the service --------------------------------------------------


class TimedService(Service):
    """The service, timing each deadline-driven action from firing to shown."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.measuring = False
        self.latencies: list[float] = []
        self.lags: list[float] = []
        self.actions = 0

    async def _fire(self, key: str, d: Deadline) -> None:
        if self.measuring and d.kind == "bot":
            self.lags.append(max(0.0, time.time() - d.due))
        await super()._fire(key, d)

    async def _run(
        self,
        key: str,
        user: str | None,
        build: Callable[[Table | None], Any],
    ) -> Result:
        start = time.perf_counter()
        res = await super()._run(key, user, build)
        if self.measuring and user is None and res.events:
            self.latencies.append(time.perf_counter() - start)
            self.actions += 1
        return res


class NoMetrics(Metrics):
    """The reference for what the metrics cost: the same calls, doing nothing."""

    def committed(self, key: str, kinds: Any, seconds: float) -> None:
        pass

    def refused(self, key: str, code: str) -> None:
        pass

    def stale(self) -> None:
        pass

    def fired(self, kind: str, late: float) -> None:
        pass


def settings(**kw: Any) -> Settings:
    base: dict[str, Any] = {"round_pause_seconds": 0.0, "lobby_seconds": 3600, "bot_delay": 0.0}
    base.update(kw)
    return Settings(_env_file=None, **base)


async def open_tables(svc: Service, keys: list[str], players: int, rules: dict[str, Any]) -> None:
    """Lobbies of bot seats, dealt; in chunks, concurrently (the store groups the writes)."""
    strategies = ("smart", "basic", "random")

    async def one(key: str) -> None:
        res = await svc.create(key, "bench", "host", "Host", seat_host=False, overrides=rules)
        assert res.ok, res.code
        for i in range(players):
            await svc.add_bot(key, "host", strategies[i % len(strategies)])
        res = await svc.start_game(key, "host")
        assert res.ok, res.code

    for i in range(0, len(keys), 500):
        await asyncio.gather(*(one(k) for k in keys[i : i + 500]))


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


async def drive(
    be: Backend,
    tables: int,
    players: int,
    seconds: float,
    warmup: float,
    max_running: int,
    metrics: bool = True,
    name: str = "service",
) -> dict[str, float]:
    store: Any = await be.store(be.db(name))
    off = None if metrics else NoMetrics("bench")
    svc = TimedService(
        store, RecordingPort(keep=False), settings(), seed=1, bot_delay=0.0, metrics=off
    )
    svc.timers.max_running = max_running
    keys = [KEY.format(i) for i in range(tables)]
    # a target no table reaches during the run: every table stays in play
    await svc.start(run_timers=False)
    await open_tables(svc, keys, players, {"target": 100_000, "afk_strikes": 0})
    settle_gc()  # as ``uno-bot run`` does once it has started
    svc.timers.start()
    await asyncio.sleep(warmup)
    commits0, batches0 = store.commits, store.batches
    svc.measuring = True
    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.sleep(seconds)
    svc.measuring = False
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    commits, batches = store.commits - commits0, store.batches - batches0
    open_now = len(svc.open_tables())
    await svc.stop()
    await store.close()
    lat = svc.latencies
    return {
        "actions": svc.actions,
        "rate": svc.actions / elapsed,
        "p50": pct(lat, 0.50) * 1000,
        "p99": pct(lat, 0.99) * 1000,
        "max": max(lat) * 1000 if lat else float("nan"),
        "lag50": pct(svc.lags, 0.50) * 1000,
        "lag99": pct(svc.lags, 0.99) * 1000,
        "per_commit": batches / commits if commits else float("nan"),
        "commits": commits / elapsed,
        "open": open_now,
        "cpu_per_action": cpu / svc.actions if svc.actions else float("nan"),
    }


# -- 3. restoring many tables ----------------------------------------------------------------


def rss() -> int:
    """Resident memory of this process, in bytes (Linux)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


async def restore(be: Backend, tables: int, players: int) -> dict[str, float]:
    path = be.db("restore")
    store = await be.store(path)
    svc = Service(store, RecordingPort(keep=False), settings(), seed=2, bot_delay=5.0)
    await svc.start(run_timers=False)
    t0 = time.perf_counter()
    await open_tables(svc, [KEY.format(i) for i in range(tables)], players, {})
    created = time.perf_counter() - t0
    # a few moves on every table, so that each holds a game in progress with its timers
    clock = time.time() + 10.0
    for _ in range(3):
        clock += 6.0
        await svc.timers.run_due(clock)
    await svc.stop()
    await store.close()

    async def load() -> tuple[Service, Store, float]:
        st = await be.store(path)
        s = Service(st, RecordingPort(keep=False), settings(), seed=3, bot_delay=5.0)
        t = time.perf_counter()
        n = await s.start(run_timers=False)
        took = time.perf_counter() - t
        assert n == tables and len(s.timers) >= tables
        return s, st, took

    # the time, without tracemalloc slowing it down (best of 3)
    times = []
    for _ in range(3):
        s, st, took = await load()
        times.append(took)
        armed = len(s.timers)
        await s.stop()
        await st.close()
    # the memory: what the loaded tables hold, then with every game parsed (as when played)
    gc.collect()
    rss0 = rss()
    tracemalloc.start()
    base = tracemalloc.take_snapshot()
    s, st, _ = await load()
    gc.collect()
    loaded = tracemalloc.take_snapshot()
    rss1 = rss()
    for t in list(s._tables.values()):
        assert t.game is not None
    gc.collect()
    parsed = tracemalloc.take_snapshot()
    tracemalloc.stop()
    await s.stop()
    await st.close()

    def size(snap: tracemalloc.Snapshot) -> int:
        return sum(stat.size_diff for stat in snap.compare_to(base, "filename"))

    return {
        "created": created,
        "restore": min(times),
        "restore_all": times[0],
        "armed": armed,
        "per_table": size(loaded) / tables,
        "per_table_parsed": size(parsed) / tables,
        "rss_per_table": (rss1 - rss0) / tables,
        "db_mb": await be.size_mb(path),
    }


# -- main ---------------------------------------------------------------------------------------


async def main_async(args: argparse.Namespace) -> None:
    sync = args.synchronous.upper()
    if sync != "NORMAL":  # the same for the floor and for the store
        bot.store.sqlite._PRAGMAS = tuple(
            f"PRAGMA synchronous={sync}" if p.startswith("PRAGMA synchronous") else p
            for p in bot.store.sqlite._PRAGMAS
        )
    durable = (
        "survives a crash of the process; the OS syncs the WAL at checkpoints"
        if sync == "NORMAL"
        else "the WAL is synced to disk at every commit"
    )
    with tempfile.TemporaryDirectory(prefix="uno-bench-") as tmp:
        be = Backend(Path(tmp), args.db)
        try:
            await _run(be, args, sync, durable)
        finally:
            await be.cleanup()


async def _run(be: Backend, args: argparse.Namespace, sync: str, durable: str) -> None:
    if be.url is None:
        print(
            f"bench.service: {os.cpu_count()} cores, temp database in {be.folder}, "
            f"SQLite WAL + synchronous={sync} ({durable})"
        )
    else:
        print(
            f"bench.service: {os.cpu_count()} cores, PostgreSQL at {urlsplit(be.url).netloc}"
            f" (a schema of its own for each part)"
        )
    raw = await raw_commits(be, "raw", args.raw_seconds)
    driver = "aiosqlite" if be.url is None else "asyncpg"
    print(f"raw {driver}: {raw:,.0f} single-row commits/s (INSERT + COMMIT, one at a time)")
    one = await store_one_at_a_time(be, args.raw_seconds)
    print(f"store, one action per transaction (nothing to group with): {one:,.0f} writes/s")
    r = await drive(be, args.tables, args.players, args.seconds, args.warmup, args.max_running)
    raw_after = await raw_commits(be, "raw2", args.raw_seconds)
    floor = max(raw, raw_after)
    print(
        f"service: {args.tables} tables x {args.players} bot seats, bot_delay=0, "
        f"{args.seconds:.0f} s measured after {args.warmup:.0f} s warm-up"
    )
    print(
        f"  {r['actions']:,.0f} actions, {r['rate']:,.0f} actions/s, each committed "
        f"(state + action + deadlines) before it is shown; the store group-commits: "
        f"{r['per_commit']:.1f} actions per commit, {r['commits']:,.0f} commits/s"
    )
    print(
        f"  latency per action (deadline fired -> committed and shown): "
        f"p50 {r['p50']:.1f} ms, p99 {r['p99']:.1f} ms, max {r['max']:.1f} ms"
    )
    print(
        f"  schedule lag (deadline due -> fired; offered load is every table at once): "
        f"p50 {r['lag50']:.0f} ms, p99 {r['lag99']:.0f} ms"
    )
    print(
        f"  raw commits again after the run: {raw_after:,.0f}/s; "
        f"service / raw = {r['rate'] / floor:.2f} (goal >= 0.5), "
        f"p99 {'<' if r['p99'] < 50 else '>='} 50 ms"
    )
    if args.compare_metrics:
        await compare_metrics(be, args)
    m = await restore(be, args.restore, args.players)
    print(
        f"restore: {args.restore:,} tables in play ({m['armed']:,.0f} deadlines, "
        f"{m['db_mb']:.0f} MB database, made in {m['created']:.1f} s)"
    )
    print(
        f"  Service.start() loads them and re-arms their deadlines in "
        f"{m['restore']:.2f} s (best of 3; first {m['restore_all']:.2f} s)"
    )
    print(
        f"  memory per loaded table: {m['per_table'] / 1024:.1f} KiB as restored "
        f"(game kept as JSON until used), {m['per_table_parsed'] / 1024:.1f} KiB with "
        f"its game parsed (tracemalloc); RSS {m['rss_per_table'] / 1024:.1f} KiB"
    )


async def compare_metrics(be: Backend, args: argparse.Namespace) -> None:
    """The same run with the metrics counting and with them doing nothing, alternated
    (off, on, off, on ...: the machine's drift falls on both alike)."""
    runs: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    for i in range(2 * args.compare_metrics):
        on = i % 2 == 1
        runs[on].append(
            await drive(
                be,
                args.tables,
                args.players,
                args.seconds,
                args.warmup,
                args.max_running,
                metrics=on,
                name=f"metrics{i}",
            )
        )

    def mean(on: bool, k: str) -> float:
        return sum(r[k] for r in runs[on]) / len(runs[on])

    print(f"metrics: {args.compare_metrics} runs each, alternated")
    for on in (False, True):
        rates = ", ".join(f"{r['rate']:,.0f}" for r in runs[on])
        print(
            f"  metrics {'on ' if on else 'off'}: {mean(on, 'rate'):,.0f} actions/s ({rates}), "
            f"p50 {mean(on, 'p50'):.1f} ms, p99 {mean(on, 'p99'):.1f} ms"
        )
    print(f"  on / off = {mean(True, 'rate') / mean(False, 'rate'):.3f}")
    # what the calls cost, alone: an action's (a bot's move, fired by its deadline)
    m = Metrics("bench")
    n = 200_000
    t0 = time.process_time()
    for _ in range(n):
        m.fired("bot", 0.001)
        m.committed("bench:1", ("Play",), 0.01)
    per = (time.process_time() - t0) / n
    cpu = mean(True, "cpu_per_action")
    print(
        f"  the metrics' calls of one action alone: {per * 1e6:.2f} us of CPU, against "
        f"{cpu * 1e6:.0f} us of CPU per action in the runs with them: {per / cpu:.1%}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--raw-seconds", type=float, default=3.0)
    ap.add_argument("--restore", type=int, default=10_000)
    ap.add_argument("--max-running", type=int, default=64, help="timers handled at once")
    ap.add_argument(
        "--compare-metrics",
        type=int,
        default=0,
        metavar="N",
        help="also N runs each with the metrics on and doing nothing, alternated",
    )
    ap.add_argument(
        "--db", default=None, help="a PostgreSQL server (postgresql://...) instead of SQLite"
    )
    ap.add_argument(
        "--synchronous",
        choices=("normal", "full"),
        default="normal",
        help="SQLite synchronous for the floor and the store (the store uses NORMAL)",
    )
    asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    main()
