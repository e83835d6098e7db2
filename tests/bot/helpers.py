"""Shared pieces for the service tests: a clock the test moves, a service on a temporary
database, tables set up from an engine scenario, and a driver that runs every due timer."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import engine
from bot.json_codec import action_from_dict
from bot.model import PLAYING, Deadline, Seat, Table
from bot.ops.config import Settings
from bot.port import RecordingPort
from bot.service import Service
from bot.store import ActionRecord, Store, WriteBatch, is_server_url, store_for
from engine import Game, Rules

T0 = 1_800_000_000.0  # a fixed start for the fake clock


class Clock:
    """A clock that moves only when the test says so."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> float:
        self.t += seconds
        return self.t


def settings(**kw: Any) -> Settings:
    """Settings that ignore the environment and any ``.env`` file."""
    base: dict[str, Any] = {"lobby_seconds": 600, "round_pause_seconds": 10.0, "bot_delay": 1.0}
    base.update(kw)
    return Settings(_env_file=None, **base)


async def open_service(
    path: Path | str,
    clock: Clock,
    port: RecordingPort | None = None,
    *,
    seed: int = 7,
    bot_delay: float | None = None,
    store: Store | None = None,
    **kw: Any,
) -> tuple[Service, Store, RecordingPort]:
    """A started service (timers not running: tests fire them with ``run_due``), on
    ``store`` if given (open), else on a store it opens on ``path`` (a file, or a
    PostgreSQL URL)."""
    if store is None:
        store = store_for(path)
        await store.open()
    port = port if port is not None else RecordingPort()
    svc = Service(store, port, settings(**kw), clock=clock, seed=seed, bot_delay=bot_delay)
    await svc.start(run_timers=False)
    return svc, store, port


async def close_service(svc: Service, store: Store) -> None:
    await svc.stop()
    await store.close()


async def put_game(
    store: Store,
    key: str,
    game: Game,
    *,
    clock: Clock,
    bots: Mapping[str, str] | None = None,
    host: str | None = None,
    scope: str = "chat",
    deadlines: tuple[Deadline, ...] | None = None,
) -> Table:
    """Store a table in play with ``game`` (an ``engine.scenario``), its turn deadline armed
    as the service would. Load it with ``Service.start``."""
    bots = bots or {}
    rules = game.rules
    over = rules.overrides("official")
    now = clock()
    t = Table(
        key=key,
        scope=scope,
        host=host or next(p for p in game.players if p not in bots),
        status=PLAYING,
        version=1,
        turn_version=1,
        game_no=1,
        seats=tuple(Seat(p, p.upper(), bots.get(p)) for p in game.players),
        preset="official",
        overrides=over,
        seed=1,
        created=now,
        updated=now,
    ).evolve(game=game)
    if deadlines is None:
        secs = (
            rules.challenge_seconds if game.phase is engine.Phase.CHALLENGE else rules.turn_seconds
        )
        deadlines = (Deadline("turn", now + secs, 1),)
    t.deadlines = deadlines
    await store.write(WriteBatch(tables=[t]))
    return t


async def drive(svc: Service, clock: Clock, key: str, *, limit: int = 20_000) -> int:
    """Fire due timers, moving the clock to the next deadline each time, until the table
    at ``key`` is closed or nothing is armed. Returns how many deadlines fired."""
    fired = 0
    for _ in range(limit):
        info = await svc.table(key)
        if info is None or info.status not in ("lobby", "playing"):
            return fired
        n = await svc.timers.run_due(clock())
        fired += n
        if n == 0:
            nxt = svc.timers.next_due()
            if nxt is None:
                return fired
            clock.t = max(clock.t, nxt)
    raise AssertionError(f"table {key} still open after {limit} steps")


def replay(records: list[ActionRecord], game_no: int) -> Game:
    """Rebuild a game from the action log alone."""
    g: Game | None = None
    for r in records:
        if r.game_no != game_no:
            continue
        a = r.action
        if a["type"] == "Start":
            g = engine.new_game(a["players"], Rules.model_validate(a["rules"]), seed=a["seed"])
            continue
        assert g is not None, f"record before the Start: {r}"
        if a["type"] == "Join":
            g, _ = engine.join(g, r.player)
        elif a["type"] == "Rules":
            g = engine.set_rules(g, Rules.model_validate(a["rules"]))
        else:
            g, _ = engine.apply(g, r.player, action_from_dict(a))
    assert g is not None, "no Start record"
    return g


def game_json(game: Game) -> Any:
    return json.loads(engine.game_to_json(game))


class Other:
    """Another program's view of the database ``db`` (an SQLite file or a PostgreSQL URL):
    ``await other.rows(sql, *args)`` with ``?`` placeholders, through connections of its
    own (``async with Other(db) as other``)."""

    def __init__(self, db: Path | str) -> None:
        self.db = db
        self._pool: Any = None

    async def __aenter__(self) -> Other:
        if is_server_url(self.db):
            import asyncpg

            self._pool = await asyncpg.create_pool(str(self.db), min_size=1, max_size=4)
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._pool is not None:
            await self._pool.close()

    async def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        if self._pool is None:
            import sqlite3

            with sqlite3.connect(str(self.db)) as c:
                return [tuple(r) for r in c.execute(sql, args).fetchall()]
        parts = sql.split("?")
        text = parts[0] + "".join(f"${i}{p}" for i, p in enumerate(parts[1:], 1))
        return [tuple(r) for r in await self._pool.fetch(text, *args)]


async def peek(db: Path | str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """``Other(db).rows(sql, *args)``, once."""
    async with Other(db) as other:
        return await other.rows(sql, *args)


def store_path(store: Store) -> Path | str:
    """Where ``store`` is (to open another on the same database)."""
    return getattr(store, "url", None) or store.path  # type: ignore[attr-defined]
