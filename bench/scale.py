"""Several bot processes on one PostgreSQL database, beside one on SQLite, in one run.

The workload is ``bench/service.py``'s (its code, imported): ``--tables`` tables of
``--players`` bot seats, ``bot_delay=0``, every action entering through a deadline and
committed before it is shown. Each configuration runs in separate OS processes, started
afresh: one process on an SQLite file, then 1, 2, 3 ... processes on one PostgreSQL
database (a schema of its own per configuration, in a database created for this run and
dropped after it), measured over the same window.

Each process opens and drives its share of the tables (``tables / processes``): that is
the bot's steady state. A table's actions come to the process that holds its chat (a
Discord shard's guilds, the Telegram poller), and its deadlines fire where the change that
armed them was committed: each one is still claimed in the database first (the same code
as in production, a statement per batch of due deadlines), and nothing keeps another
process from taking a table; but with bot seats only, no process ever has a reason to.

Printed for each configuration: actions/s (all processes together), the latency per action
(from its deadline firing to its change committed and shown, ``bench/service.py``'s), and
the memory per open table in each process (its RSS grown while it opened its tables, and
after the run, every game played since, divided by its tables).

The machine may be doing other things meanwhile: ``--rounds`` runs every configuration
that many times in turn, and the summary compares the best round of each (the least
disturbed), with the CPU each bot process spent per action (its own threads; the
database server's is not in it).

Failover: in the run of ``--failover`` processes, once measured, one process is killed
with SIGKILL while all its tables are in play; the time from the kill to the first action
committed by a survivor on one of its orphaned tables (and to half of them, and all), in
every round.

    python -m bench.scale [--tables 1000] [--seconds 15] [--procs 1,2,3] [--failover 2]
                          [--rounds 2]

PostgreSQL: ``UNO_BENCH_POSTGRES`` or ``--postgres`` (default
``postgresql://postgres@127.0.0.1:5432/postgres``: it needs the right to create a database).
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import signal
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bench.service import TimedService, open_tables, pct, rss, settings
from bot.cli import settle_gc
from bot.port import RecordingPort
from bot.store import store_for

DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
FAILOVER_WAIT = 60.0  # seconds the survivors get to take every orphaned table


def key_of(worker: int, i: int) -> str:
    return f"bench:w{worker}:{i}"


def emit(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


# -- one process --------------------------------------------------------------------------------


class Worker(TimedService):
    """The bench's timed service; once told ``since``, it notes its first action on each
    table another process opened (taken over after that one died)."""

    def __init__(self, *args: Any, mine: str, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.mine = mine
        self.since: float | None = None
        self.served: set[str] = set()

    async def _run(self, key: str, user: str | None, build: Any) -> Any:
        res = await super()._run(key, user, build)
        if (
            res.events
            and self.since is not None
            and not key.startswith(self.mine)
            and key not in self.served
        ):
            self.served.add(key)
            emit(orphan=key, at=time.time())
        return res

    def held(self) -> list[str]:
        """The tables whose deadlines this process has armed: the ones it plays (a process
        that is behind may have had some taken by another; it may have taken some)."""
        return [k for k in self.open_tables() if self.timers.armed(k)]


async def worker(args: argparse.Namespace) -> None:
    """One bot process: open its tables, say so, run when told, report; go on running
    (taking over a dead one's tables) until told to stop."""
    loop = asyncio.get_running_loop()
    commands = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(commands), sys.stdin)

    store: Any = store_for(args.db)
    await store.open()
    me = args.worker
    svc = Worker(
        store, RecordingPort(keep=False), settings(), seed=me, bot_delay=0.0, mine=f"bench:w{me}:"
    )
    svc.timers.max_running = args.max_running
    await svc.start(run_timers=False)
    gc.collect()
    rss0 = rss()
    keys = [key_of(me, i) for i in range(args.tables)]
    # a target no table reaches during the run: every table stays in play
    await open_tables(svc, keys, args.players, {"target": 100_000, "afk_strikes": 0})
    gc.collect()
    opened = rss() - rss0
    settle_gc()  # as ``uno-bot run`` does once it has started
    emit(ready=me, pid=os.getpid(), worker=svc.worker)

    assert (await commands.readline()).strip() == b"go"
    svc.timers.start()
    await asyncio.sleep(args.warmup)
    svc.measuring = True
    start, cpu = time.perf_counter(), time.process_time()
    await asyncio.sleep(args.seconds)
    svc.measuring = False
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    gc.collect()
    emit(
        done=me,
        actions=svc.actions,
        rate=svc.actions / elapsed,
        latencies=[round(x, 6) for x in svc.latencies],
        lags=[round(x, 4) for x in svc.lags],
        per_table_opened=opened / max(1, args.tables),
        per_table_after=(rss() - rss0) / max(1, args.tables),
        open=len(svc.open_tables()),
        cpu_per_action=cpu / max(1, svc.actions),
    )
    while True:
        line = (await commands.readline()).strip()
        if line == b"tables":
            emit(tables=svc.held())
        elif line == b"since":
            svc.since = time.time()
            emit(since=me)
        else:  # "stop", or the pipe closed
            break
    await svc.stop(grace=1.0)
    await store.close()
    emit(stopped=me)


# -- the conductor ------------------------------------------------------------------------------


@dataclass
class Proc:
    index: int
    proc: asyncio.subprocess.Process
    lines: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        assert self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            with contextlib.suppress(ValueError):
                await self.lines.put(json.loads(line))
        await self.lines.put({"eof": self.index})

    async def expect(self, key: str, timeout: float) -> dict[str, Any]:
        while True:
            msg = await asyncio.wait_for(self.lines.get(), timeout)
            if key in msg:
                return msg
            if "eof" in msg:
                raise RuntimeError(f"process {self.index} ended (exit {self.proc.returncode})")

    async def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        with contextlib.suppress(ConnectionError):
            await self.proc.stdin.drain()


@dataclass
class Result:
    label: str
    procs: int
    rate: float
    p50: float
    p99: float
    lag99: float
    per_proc: list[float]
    opened: list[float]
    after: list[float]
    cpu: list[float]
    failover: dict[str, float] | None = None


async def spawn(index: int, db: str, tables: int, args: argparse.Namespace) -> Proc:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env["UNO_LOG_LEVEL"] = "WARNING"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.scale", "--worker", str(index), "--db", db,
        "--tables", str(tables), "--players", str(args.players),
        "--seconds", str(args.seconds), "--warmup", str(args.warmup),
        "--max-running", str(args.max_running),
        env=env, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        limit=1 << 26,  # (a line carries every latency measured)
    )  # fmt: skip
    p = Proc(index, proc)
    p.reader = asyncio.create_task(p.read())
    return p


async def configuration(
    label: str, db: str, n: int, args: argparse.Namespace, failover: bool
) -> Result:
    """``n`` processes on ``db``, ``args.tables`` tables between them, measured together."""
    shares = [args.tables // n + (1 if i < args.tables % n else 0) for i in range(n)]
    procs = [await spawn(i, db, shares[i], args) for i in range(n)]
    try:
        for p in procs:
            await p.expect("ready", 600)
        for p in procs:  # all at once: one measured window
            await p.send("go")
        done = [await p.expect("done", args.warmup + args.seconds + 120) for p in procs]
        fo = await kill_one(procs, db) if failover else None
        for p in procs:
            if p.proc.returncode is None:
                await p.send("stop")
        for p in procs:
            if p.proc.returncode is None:
                with contextlib.suppress(Exception):
                    await p.expect("stopped", 60)
    finally:
        for p in procs:
            if p.proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    p.proc.kill()
            await p.proc.wait()
            if p.reader is not None:
                await p.reader
    lat = [x for d in done for x in d["latencies"]]
    lags = [x for d in done for x in d["lags"]]
    return Result(
        label=label,
        procs=n,
        rate=sum(d["rate"] for d in done),
        p50=pct(lat, 0.50) * 1000,
        p99=pct(lat, 0.99) * 1000,
        lag99=pct(lags, 0.99) * 1000,
        per_proc=[d["rate"] for d in done],
        opened=[d["per_table_opened"] for d in done],
        after=[d["per_table_after"] for d in done],
        cpu=[d["cpu_per_action"] for d in done],
        failover=fo,
    )


async def kill_one(procs: list[Proc], db: str) -> dict[str, float]:
    """SIGKILL process 0 while its tables are in play; the seconds until the survivors'
    first action on one of them, on half of them and on all (within ``FAILOVER_WAIT``).
    Its tables are those it has armed just before (a process behind its load may have had
    some of its own taken by another already, and taken some of another's)."""
    victim, survivors = procs[0], procs[1:]
    await victim.send("tables")
    held = set((await victim.expect("tables", 60))["tables"])
    for p in survivors:
        await p.send("since")
    for p in survivors:
        await p.expect("since", 60)
    killed = time.time()
    os.kill(victim.proc.pid, signal.SIGKILL)
    taken: dict[str, float] = {}
    tables = len(held)
    end = time.monotonic() + FAILOVER_WAIT
    while len(taken) < tables and time.monotonic() < end:
        for p in survivors:
            while not p.lines.empty():
                msg = p.lines.get_nowait()
                if msg.get("orphan") in held:
                    taken.setdefault(msg["orphan"], msg["at"] - killed)
        await asyncio.sleep(0.05)
    if len(taken) < tables:
        await left_behind(db, sorted(held - set(taken)))
    times = sorted(taken.values())
    return {
        "tables": tables,
        "taken": len(times),
        "first": times[0] if times else float("nan"),
        "half": times[len(times) // 2] if len(times) * 2 >= tables else float("nan"),
        "all": times[-1] if len(times) == tables else float("nan"),
    }


async def left_behind(db: str, keys: list[str]) -> None:
    """What the orphaned tables no survivor served hold: their deadlines as stored."""
    import asyncpg

    conn = await asyncpg.connect(db)
    try:
        rows = await conn.fetch(
            "SELECT t.key, t.status, t.version, d.kind, d.due, d.version AS dv, d.claimed_by, "
            "d.claim_until FROM tables t LEFT JOIN deadlines d ON d.table_key = t.key "
            "WHERE t.key = ANY($1::text[]) ORDER BY t.key, d.kind",
            keys,
        )
    finally:
        await conn.close()
    now = time.time()
    print(f"    {len(keys)} orphaned tables not served; their deadlines:", flush=True)
    for r in rows[:12]:
        until = r["claim_until"]
        print(
            f"      {r['key']} {r['status']} v{r['version']}: {r['kind']} due "
            f"{(r['due'] or now) - now:+.1f} s v{r['dv']}, claimed by {r['claimed_by']} "
            f"until {'-' if until is None else f'{until - now:+.1f} s'}",
            flush=True,
        )


def with_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("search_path", schema)])))


async def admin(url: str, sql: str) -> Any:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval(sql)
    finally:
        await conn.close()


async def conduct(args: argparse.Namespace) -> None:
    counts = [int(x) for x in args.procs.split(",") if x.strip()]
    server = args.postgres
    version = str(await admin(server, "SHOW server_version")).split()[0]
    name = f"uno_scale_{uuid.uuid4().hex[:8]}"
    await admin(server, f'CREATE DATABASE "{name}"')
    db_url = urlunsplit(urlsplit(server)._replace(path="/" + name))
    print(
        f"bench.scale: {os.cpu_count()} cores (the database server on them too), "
        f"{args.tables:,} tables x {args.players} bot seats, bot_delay=0, "
        f"{args.seconds:g} s measured after {args.warmup:g} s warm-up; PostgreSQL {version} "
        f"at {urlsplit(server).hostname}, database {name} (created for this run)",
        flush=True,
    )
    results: list[Result] = []
    try:
        for round_no in range(1, args.rounds + 1):
            if args.rounds > 1:
                print(f"round {round_no} of {args.rounds}:", flush=True)
            with tempfile.TemporaryDirectory(prefix="uno-scale-") as tmp:
                sqlite = str(Path(tmp) / "scale.sqlite3")
                results.append(await configuration("SQLite", sqlite, 1, args, False))
                report(results[-1])
            for n in counts:
                schema = f"r{round_no}p{n}"
                await admin(db_url, f'CREATE SCHEMA "{schema}"')
                url = with_schema(db_url, schema)
                # migrated once here: the processes find it done (they would take turns)
                s = store_for(url)
                await s.open()
                await s.close()
                fo = n == args.failover
                results.append(await configuration("PostgreSQL", url, n, args, fo))
                report(results[-1])
    finally:
        await admin(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    summary(results, args)


def report(r: Result, *, failover: bool = True) -> None:
    each = " + ".join(f"{x:,.0f}" for x in r.per_proc)
    mem = ", ".join(
        f"{a / 1024:.1f}/{b / 1024:.1f}" for a, b in zip(r.opened, r.after, strict=True)
    )
    print(
        f"  {r.procs} process{'es' if r.procs > 1 else '  '} on {r.label:<10}: "
        f"{r.rate:7,.0f} actions/s ({each}), latency p50 {r.p50:5.1f} ms, "
        f"p99 {r.p99:6.1f} ms (schedule lag p99 {r.lag99:,.0f} ms); "
        f"KiB per open table (RSS, opened/after the run): {mem}",
        flush=True,
    )
    fo = r.failover
    if fo is not None and failover:
        print(
            f"    failover: process 0 SIGKILLed with its {fo['tables']:.0f} tables in play; "
            f"first action on one of them {fo['first']:.1f} s later (goal <= 10 s), "
            f"half {fo['half']:.1f} s, all {fo['all']:.1f} s "
            f"({fo['taken']:.0f}/{fo['tables']:.0f} taken within {FAILOVER_WAIT:.0f} s)",
            flush=True,
        )


def summary(results: list[Result], args: argparse.Namespace) -> None:
    """The best round of each configuration (the one least slowed by whatever else the
    machine was doing), and the ratios between them."""
    best: dict[tuple[str, int], Result] = {}
    for r in results:
        k = (r.label, r.procs)
        if k not in best or r.rate > best[k].rate:
            best[k] = r
    if args.rounds > 1:
        print(f"best of {args.rounds} rounds:")
        for r in best.values():
            report(r, failover=False)
    base = best[("SQLite", 1)]
    pg = {n: r for (label, n), r in best.items() if label == "PostgreSQL"}
    if 1 in pg:
        print(f"one process: PostgreSQL / SQLite = {pg[1].rate / base.rate:.2f} (goal >= 0.5)")
    ref = pg.get(1, base)
    curve = ", ".join(f"{n}: {r.rate / ref.rate:.2f}x" for n, r in sorted(pg.items()))
    print(f"PostgreSQL, processes against one: {curve}")
    cpu = ", ".join(
        f"{r.label} x{r.procs} {sum(r.cpu) / len(r.cpu) * 1e6:.0f}" for r in best.values()
    )
    print(f"CPU per action in each bot process (us, its own threads; not the server's): {cpu}")
    fos = [r.failover for r in results if r.failover is not None]
    if fos:
        firsts = ", ".join(f"{f['first']:.1f}" for f in fos)
        alls = ", ".join(f"{f['all']:.1f}" for f in fos)
        print(f"failover, every round: first {firsts} s; all {alls} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=15.0)
    ap.add_argument("--warmup", type=float, default=3.0)
    ap.add_argument("--max-running", type=int, default=64, help="timers handled at once")
    ap.add_argument("--procs", default="1,2,3", help="process counts on PostgreSQL")
    ap.add_argument("--failover", type=int, default=2, help="kill one in this run (0: none)")
    ap.add_argument(
        "--rounds", type=int, default=2, help="every configuration this many times, in turn"
    )
    ap.add_argument("--postgres", default=os.environ.get("UNO_BENCH_POSTGRES", DEFAULT_POSTGRES))
    ap.add_argument("--worker", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--db", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker is not None:
        asyncio.run(worker(args))
    else:
        asyncio.run(conduct(args))


if __name__ == "__main__":
    main()
