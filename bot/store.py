"""Persistence: the ``Store`` protocol, SQLite (the embedded default, here) and PostgreSQL
(``bot.pgstore``, for several processes on one database). ``store_for(UNO_DB)`` picks one.

SQLite goes through aiosqlite: one writer connection (WAL, ``synchronous=NORMAL``, foreign
keys, busy timeout) and one reader connection. On both, writes are *group-committed*: every
caller's batch waits in a queue, a single writer task runs everything queued in one
transaction and then resolves each caller's future. A caller is answered only after the
transaction that holds its change has committed, so state and action always land together
and nothing is shown before it is stored; under load, many actions share one commit.

Every table row has a revision (``rev``), raised by each write of the row. A batch may say
which revision each of its tables was built on (``WriteBatch.expect``); the writer checks
them in the committing transaction, under the database's lock on those rows (SQLite's
``BEGIN IMMEDIATE``; on PostgreSQL an advisory lock per table key), and refuses a batch
built on an older copy with ``Stale``, without failing the other batches committed with it.

Migrations are the numbered files in ``bot/migrations``, the same numbers for both
databases (``NNNN_name.postgresql.sql`` stands in for ``NNNN_name.sql`` where the SQL
differs); SQLite records how many were applied in ``PRAGMA user_version``, PostgreSQL in a
``schema_version`` table, and a database newer than the code is refused (``SchemaTooNew``).

Opening checks what an operator can get wrong, and refuses with one line naming the file
(``StoreError``): a database another process uses (an OS lock on ``<db>.lock``, released
when its holder exits or dies, however it dies), a path that is a directory or cannot be
created, a read-only file or directory, a file that is not a database, one that fails
``PRAGMA quick_check``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

from bot.model import OPEN_STATUSES, Deadline, Table

__all__ = [
    "DIALECTS",
    "ActionRecord",
    "CardAsset",
    "SchemaTooNew",
    "ScopeMove",
    "ShownMark",
    "SqliteStore",
    "Stale",
    "StatLine",
    "StatUpdate",
    "Store",
    "StoreError",
    "WriteBatch",
    "gcra",
    "is_server_url",
    "migrations",
    "store_for",
]

log = logging.getLogger(__name__)

DIALECTS = ("sqlite", "postgresql")
SPENT = float("inf")  # a claim that never runs out: the deadline fired and changed nothing


try:
    import fcntl
except ImportError:  # Windows: no lock (the bot itself runs on Linux)
    fcntl = None  # type: ignore[assignment]


class StoreError(RuntimeError):
    """The database cannot be used; the message (one line, naming the file) says why and
    what to do. The command line prints it instead of a traceback."""


class SchemaTooNew(StoreError):
    """The database was written by a newer version of the bot."""


class Stale(Exception):
    """A batch was built on a copy of a table older than the stored one (another process,
    or another writer, changed it since): nothing of it was written. Reload and decide
    again. ``keys``: the tables concerned."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = tuple(sorted(keys))
        super().__init__("stale: " + ", ".join(self.keys))


@dataclass(frozen=True, slots=True)
class ActionRecord:
    table_key: str
    game_no: int
    version: int
    player: str
    action: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class StatUpdate:
    """Increments for one player in one scope."""

    scope: str
    player: str
    name: str
    games: int = 0
    wins: int = 0
    rounds_won: int = 0
    points: int = 0
    cards_played: int = 0
    rounds_placed: int = 0  # places: rounds played out for places
    places_total: int = 0  # places: the places taken in them, summed


@dataclass(frozen=True, slots=True)
class StatLine:
    player: str
    name: str
    games: int
    wins: int
    rounds_won: int
    points: int
    cards_played: int
    rounds_placed: int = 0
    places_total: int = 0


@dataclass(frozen=True, slots=True)
class ScopeMove:
    """A chat that became another (a Telegram group upgraded to a supergroup): the rows
    of the tables ``keys`` (old key, new key) are deleted, their action log re-keyed (the
    new rows come in the same batch's ``tables``); the chat settings move to
    ``new_scope`` (what it has set already wins) and the statistics add up there."""

    old_scope: str
    new_scope: str
    keys: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class ShownMark:
    """A table's platform showed ``version`` (``Service.shown``): its ``shown`` column
    rises to it (never falls), and its deadlines become ``deadlines`` if given (windows
    re-armed from the moment they were shown). Written without the rest of the row (its
    revision rises: it is a write of the row)."""

    key: str
    version: int
    deadlines: tuple[Deadline, ...] | None = None


@dataclass(frozen=True, slots=True)
class CardAsset:
    """A picture of the card set as a platform has it (``bot.cards``): on ``platform``
    (``tg``, ``dc``), of drawings ``version``, picture ``name`` (``r5``, ``r5_d``) is
    ``ref`` (a sticker's file id, an emoji's id). In a ``WriteBatch``, ``ref`` ``None``
    forgets it."""

    platform: str
    version: int
    name: str
    ref: str | None


@dataclass(slots=True)
class WriteBatch:
    """What one service step writes, all in one transaction.

    ``expect``: the revision (``Table.rev``) each table concerned was built on, 0 for one
    that was not stored; if any stored revision differs when the batch commits, nothing of
    the batch is written and ``write`` raises ``Stale``. Tables not named are written
    whatever is stored."""

    tables: list[Table] = field(default_factory=list)
    actions: list[ActionRecord] = field(default_factory=list)
    stats: list[StatUpdate] = field(default_factory=list)
    chat_settings: list[tuple[str, str | None, dict[str, Any] | None, str | None]] = field(
        default_factory=list
    )
    user_settings: list[tuple[str, str | None]] = field(default_factory=list)
    moves: list[ScopeMove] = field(default_factory=list)
    shown: list[ShownMark] = field(default_factory=list)
    expect: dict[str, int] = field(default_factory=dict)
    card_assets: list[CardAsset] = field(default_factory=list)


@dataclass(slots=True)
class _Rows:
    """A ``WriteBatch`` as SQL parameters."""

    tables: dict[str, tuple[dict[str, Any], list[tuple[Any, ...]]]]
    actions: list[tuple[Any, ...]]
    stats: list[tuple[Any, ...]]
    chats: list[tuple[Any, ...]]
    users: list[tuple[Any, ...]]
    moves: list[ScopeMove]
    shown: list[tuple[str, int]] = field(default_factory=list)  # (key, version)
    deadlines: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    expect: dict[str, int] = field(default_factory=dict)
    assets: list[CardAsset] = field(default_factory=list)

    @classmethod
    def of(cls, b: WriteBatch) -> _Rows:
        return cls(
            tables={
                t.key: (t.to_row(), [(t.key, d.kind, d.due, d.version) for d in t.deadlines])
                for t in b.tables
            },
            actions=[
                (a.table_key, a.game_no, a.version, a.player, json.dumps(a.action), a.at)
                for a in b.actions
            ],
            stats=[
                (
                    s.scope,
                    s.player,
                    s.name,
                    s.games,
                    s.wins,
                    s.rounds_won,
                    s.points,
                    s.cards_played,
                    s.rounds_placed,
                    s.places_total,
                )
                for s in b.stats
            ],
            chats=[
                (scope, preset, None if ov is None else json.dumps(ov), lang)
                for scope, preset, ov, lang in b.chat_settings
            ],
            users=list(b.user_settings),
            moves=[m for m in b.moves if m.old_scope != m.new_scope],
            shown=[(m.key, m.version) for m in b.shown],
            deadlines={
                m.key: [(m.key, d.kind, d.due, d.version) for d in m.deadlines]
                for m in b.shown
                if m.deadlines is not None
            },
            expect=dict(b.expect),
            assets=list(b.card_assets),
        )

    def keys(self) -> set[str]:
        """Every table row this batch reads or writes."""
        out = set(self.tables) | set(self.expect) | {k for k, _ in self.shown}
        for m in self.moves:
            for old, new in m.keys:
                out.update((old, new))
        return out


@dataclass(slots=True)
class _Plan:
    """What one group commit writes: the accepted batches merged, each row with the
    revision it has once they are all applied."""

    verdicts: list[Stale | None] = field(default_factory=list)
    moves: list[ScopeMove] = field(default_factory=list)
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)  # the latest state wins
    # each table's deadlines as the latest batch that sets them has them (its row, or a
    # re-arming when it was shown)
    deadlines: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    shown: list[tuple[str, int, int]] = field(default_factory=list)  # (key, version, rev)
    actions: list[tuple[Any, ...]] = field(default_factory=list)
    stats: list[tuple[Any, ...]] = field(default_factory=list)
    chats: list[tuple[Any, ...]] = field(default_factory=list)
    users: list[tuple[Any, ...]] = field(default_factory=list)
    revs: dict[str, int] = field(default_factory=dict)  # every key's, once applied (0: none)
    # card pictures: (platform, version, name) -> ref, the latest batch's (None: forgotten)
    assets: dict[tuple[str, int, str], str | None] = field(default_factory=dict)

    def asset_rows(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """The card pictures to write ``(platform, version, name, ref)`` and to forget
        ``(platform, version, name)``."""
        put = [(*k, ref) for k, ref in self.assets.items() if ref is not None]
        drop = [k for k, ref in self.assets.items() if ref is None]
        return put, drop


def _plan(batches: Sequence[_Rows], revs: dict[str, int]) -> _Plan:
    """Decide each batch of a group commit against the stored revisions ``revs`` (read
    under the lock of those rows; a key missing has no row), in the order they came: a
    batch whose expectations fail is refused (``Stale``), the others are merged and
    counted on, as the transaction will leave the rows. Pure: the SQL follows the plan."""
    cur = dict(revs)
    p = _Plan()
    shown: list[tuple[str, int]] = []
    for b in batches:
        stale = [k for k, rev in b.expect.items() if cur.get(k, 0) != rev]
        if stale:
            p.verdicts.append(Stale(stale))
            continue
        p.verdicts.append(None)
        for m in b.moves:  # the moves run first: an older write of an old key is void
            p.moves.append(m)
            for old, new in m.keys:
                if old != new:
                    cur[old] = 0
                    p.tables.pop(old, None)
                    p.deadlines.pop(old, None)
                    shown = [s for s in shown if s[0] != old]
        for k, (row, dls) in b.tables.items():
            cur[k] = cur.get(k, 0) + 1
            p.tables[k] = row
            p.deadlines[k] = dls
        for k, version in b.shown:
            if cur.get(k, 0):  # a mark for a row that is not there changes nothing
                cur[k] += 1
                shown.append((k, version))
                if k in b.deadlines:
                    p.deadlines[k] = b.deadlines[k]
        p.actions.extend(b.actions)
        p.stats.extend(b.stats)
        p.chats.extend(b.chats)
        p.users.extend(b.users)
        for a in b.assets:
            p.assets[(a.platform, a.version, a.name)] = a.ref
    # every statement writes a row's final revision: their order does not matter
    for k, row in p.tables.items():
        row["rev"] = cur[k]
    p.shown = [(k, v, cur[k]) for k, v in shown]
    p.revs = cur
    return p


class Store(Protocol):
    """What the service needs from storage: SQLite (``SqliteStore``, one process) or
    PostgreSQL (``bot.pgstore.PostgresStore``, several processes sharing the database).

    ``shared``: other processes may write the same database, so a copy of a table held in
    memory may be older than the stored one (``table_rev`` tells), and a due deadline is
    fired only by the process that claims it (``claim``, ``claim_overdue``, ``spend``);
    a flow of sends every process makes (a Telegram group's messages) is paced in the
    database (``pace``), and a role one process at a time takes (a poller) is a ``lease``.
    A store that is not shared has one process: every claim and lease is its own, and it
    paces in memory."""

    shared: bool

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def write(self, batch: WriteBatch) -> None: ...
    async def load_open_tables(self) -> list[Table]: ...
    async def get_table(self, key: str) -> Table | None: ...
    async def table_rev(self, key: str) -> int | None: ...
    async def chat_settings(
        self, scope: str
    ) -> tuple[str | None, dict[str, Any] | None, str | None]: ...
    async def user_lang(self, user: str) -> str | None: ...
    async def leaderboard(self, scope: str, limit: int = 10) -> list[StatLine]: ...
    async def player_stats(self, scope: str, player: str) -> StatLine | None: ...
    async def actions(self, key: str) -> list[ActionRecord]: ...
    async def table_keys(self, scope: str) -> list[str]: ...
    async def tables_behind(self, prefix: str, since: float) -> list[Table]: ...
    async def claim(
        self, owner: str, due: Sequence[tuple[str, Deadline]], now: float, seconds: float
    ) -> set[tuple[str, str]]: ...
    async def claim_overdue(
        self, owner: str, before: float, now: float, seconds: float, limit: int
    ) -> list[tuple[str, Deadline]]: ...
    async def spend(self, owner: str, key: str, deadline: Deadline) -> None: ...
    async def lease(self, name: str, owner: str, now: float, seconds: float) -> bool: ...
    async def release(self, name: str, owner: str) -> None: ...
    async def ping(self) -> None: ...
    async def card_assets(self, platform: str) -> list[CardAsset]: ...
    async def pace(
        self, name: str, now: float, interval: float, burst: int, spare: int = 0
    ) -> float: ...
    async def tables_unshown(self, prefix: str, since: float, until: float) -> list[Table]: ...


def gcra(
    tat: float | None, now: float, interval: float, burst: int, spare: int = 0
) -> tuple[float, float]:
    """One send of a flow paced by GCRA (the generic cell rate algorithm: a token bucket of
    ``burst`` tokens refilled one every ``interval`` seconds, kept as one number, the
    flow's theoretical arrival time ``tat``; ``None``: a flow never used). The send is
    reserved now, for the moment it may go: returns the seconds to wait for it and the
    new ``tat``. ``spare``: the send leaves that many tokens of the burst for others (a
    send nobody waits for keeps the last token for one somebody does).

    However sends are reserved (and some sent later than others reserved after them), no
    ``W`` seconds ever see more than ``burst + W / interval`` of them go."""
    base = now if tat is None else max(tat, now)
    tau = max(0, burst - 1 - spare) * interval
    return max(0.0, base - tau - now), base + interval


def migrations(dialect: str = "sqlite") -> list[tuple[int, str]]:
    """The numbered SQL migrations for ``dialect``, in order: ``[(1, sql), (2, sql), ...]``
    (``NNNN_name.<dialect>.sql`` where there is one, else ``NNNN_name.sql``)."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown SQL dialect {dialect!r}")
    plain: dict[int, str] = {}
    own: dict[int, str] = {}
    for entry in resources.files("bot.migrations").iterdir():
        m = re.fullmatch(r"(\d{4})_[\w-]+?(?:\.(sqlite|postgresql))?\.sql", entry.name)
        if not m:
            continue
        n, which = int(m.group(1)), m.group(2)
        into = plain if which is None else own if which == dialect else None
        if into is None:
            continue
        if n in into:
            raise RuntimeError(f"two migrations numbered {n}: {entry.name}")
        into[n] = entry.read_text(encoding="utf-8")
    out = sorted({**plain, **own}.items())
    for i, (n, _) in enumerate(out, 1):
        if n != i:
            raise RuntimeError(f"migration numbers must run 1, 2, 3 ...; found {n} at {i}")
    return out


def is_server_url(db: str | Path) -> bool:
    """``UNO_DB`` names a database server (PostgreSQL), not an SQLite file."""
    return str(db).startswith(("postgresql://", "postgres://"))


def sqlite_path(db: str | Path) -> Path:
    """The SQLite file ``UNO_DB`` names: a path, or a ``sqlite:///path`` URL (three
    slashes and a relative path, four for an absolute one, as SQLAlchemy writes them)."""
    text = str(db)
    if text.startswith("sqlite://"):
        rest = text[len("sqlite://") :]
        if not rest.startswith("/") or len(rest) == 1:
            raise StoreError(
                f"UNO_DB={text!r}: an SQLite URL is sqlite:///relative/path or "
                f"sqlite:////absolute/path"
            )
        return Path(rest[1:])
    if re.match(r"^[A-Za-z][\w+.-]*://", text):
        scheme = text.split("://", 1)[0]
        raise StoreError(
            f"UNO_DB: unknown database kind {scheme!r}: give a file path (SQLite), "
            f"sqlite:///path, or postgresql://user:password@host:5432/database"
        )
    return Path(text)


def store_for(db: str | Path, **kw: Any) -> Store:
    """The store ``UNO_DB`` names, not yet open: ``postgresql://...`` (or ``postgres://``)
    is a PostgreSQL server, anything else an SQLite file (``sqlite:///path`` too)."""
    if is_server_url(db):
        from bot.pgstore import PostgresStore

        return PostgresStore(str(db), **kw)
    return SqliteStore(sqlite_path(db), **kw)


class _GroupCommit:
    """The queue in front of a database: callers' batches wait, one writer task commits
    what is queued (``max_batch`` callers at most per transaction, ``writers`` transactions
    at most at a time) and answers each caller once its transaction has committed: its
    batch refused (``Stale``) alone, a failure of the transaction to every caller in it. A
    dialect supplies ``_commit``."""

    def __init__(self, max_batch: int, writers: int = 1) -> None:
        self.max_batch = max(1, max_batch)  # callers per transaction at most
        self.writers = max(1, writers)  # transactions in flight at most
        self._queue: list[tuple[_Rows, asyncio.Future[None]]] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self._closing = False
        self.commits = 0  # transactions committed (for benchmarks)
        self.batches = 0  # batches written
        self._flows: dict[str, float] = {}  # ``pace``: each flow's theoretical arrival time

    def _start_writer(self) -> None:
        self._wake = asyncio.Event()
        self._closing = False
        self._writer = asyncio.create_task(self._write_loop(), name="uno-store-writer")

    async def _stop_writer(self) -> None:
        self._closing = True
        if self._wake is not None:
            self._wake.set()
        if self._writer is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None

    async def write(self, batch: WriteBatch) -> None:
        """Store ``batch`` durably; returns once its transaction has committed. Raises
        ``Stale`` (nothing written) if a table it expects was changed since."""
        if self._wake is None or self._closing:
            raise RuntimeError("the store is not open")
        # serialised here, by the caller, so that the writer's turn is SQL only (and a
        # value that cannot be stored fails its own caller, nobody else's)
        rows = _Rows.of(batch)
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((rows, fut))
        self._wake.set()
        await fut

    async def _write_loop(self) -> None:
        assert self._wake is not None
        flying: set[asyncio.Task[None]] = set()
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    if len(flying) >= self.writers:
                        await asyncio.wait(flying, return_when=asyncio.FIRST_COMPLETED)
                        continue
                    # at most ``max_batch`` callers per transaction: under load the next
                    # group is being built while this one commits, and no caller waits
                    # behind an unbounded pile
                    n = self.max_batch
                    pending, self._queue = self._queue[:n], self._queue[n:]
                    if self.writers == 1:
                        await self._group(pending)
                        continue
                    task = asyncio.create_task(self._group(pending))
                    flying.add(task)
                    task.add_done_callback(flying.discard)
                if self._closing and not self._queue:
                    if flying:
                        await asyncio.wait(flying)
                    if not self._queue:
                        return
        finally:
            for task in flying:
                task.cancel()

    async def _group(self, pending: list[tuple[_Rows, asyncio.Future[None]]]) -> None:
        """Commit one group and answer its callers."""
        try:
            verdicts = await self._commit([b for b, _ in pending])
        except BaseException as exc:  # every waiting caller learns of the failure
            for _, fut in pending:
                if not fut.done():
                    fut.set_exception(exc)
            if isinstance(exc, asyncio.CancelledError):
                raise
            log.exception("store write failed")
        else:
            for (_, fut), stale in zip(pending, verdicts, strict=True):
                if fut.done():
                    continue
                if stale is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(stale)

    async def _commit(self, batches: Sequence[_Rows]) -> list[Stale | None]:
        raise NotImplementedError

    async def ping(self) -> None:
        """One round trip to the database, and the writer alive: raises if not (the
        health check, ``/healthz``; the caller bounds the wait)."""
        if self._writer is None or self._writer.done() or self._closing:
            raise RuntimeError("the store is not open")
        await self._ping()

    async def _ping(self) -> None:
        raise NotImplementedError

    # -- one process has nobody to share with ------------------------------------------

    async def claim(
        self, owner: str, due: Sequence[tuple[str, Deadline]], now: float, seconds: float
    ) -> set[tuple[str, str]]:
        """Claim the due deadlines ``due`` for ``owner`` until ``now + seconds``; returns
        the ``(key, kind)`` granted. Not shared: every one."""
        return {(k, d.kind) for k, d in due}

    async def claim_overdue(
        self, owner: str, before: float, now: float, seconds: float, limit: int
    ) -> list[tuple[str, Deadline]]:
        """Claim up to ``limit`` deadlines due before ``before`` that nobody holds (their
        process died). Not shared: there is nobody else's."""
        return []

    async def spend(self, owner: str, key: str, deadline: Deadline) -> None:
        """``deadline`` fired and changed nothing: it stays claimed until the table arms
        another (not shared: the timers keep it handed out)."""

    async def lease(self, name: str, owner: str, now: float, seconds: float) -> bool:
        """Take or renew the lease ``name`` for ``owner`` until ``now + seconds``; ``False``
        if another holds it. Not shared: the one process holds every lease."""
        return True

    async def release(self, name: str, owner: str) -> None:
        """Give up the lease ``name`` if ``owner`` holds it."""

    async def pace(
        self, name: str, now: float, interval: float, burst: int, spare: int = 0
    ) -> float:
        """Reserve the next send of flow ``name`` (at most ``burst`` at once, one every
        ``interval`` seconds on average: see ``gcra``) at ``now``; returns the seconds to
        wait before sending. Not shared: this process is the only sender, the flows are
        kept in memory."""
        flows = self._flows
        wait, flows[name] = gcra(flows.get(name), now, interval, burst, spare)
        if len(flows) > _FLOWS_MAX:  # forget the flows whose bucket is full again
            for k in [k for k, tat in flows.items() if tat < now]:
                del flows[k]
        return wait


_KNOWN_MAX = 100_000  # revisions a SQLite store keeps in memory at most
_FLOWS_MAX = 10_000  # paced flows kept in memory before the idle ones are forgotten

_PRAGMAS: tuple[str, ...] = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)

_UPSERT_TABLE = """
INSERT INTO tables (key, scope, status, version, turn_version, game_no, host, seats, waiting,
    preset, overrides, lang, seed, game, meta, strikes, played, created, updated, recent,
    shown, pending, rev)
VALUES (:key, :scope, :status, :version, :turn_version, :game_no, :host, :seats, :waiting,
    :preset, :overrides, :lang, :seed, :game, :meta, :strikes, :played, :created, :updated,
    :recent, :shown, :pending, :rev)
ON CONFLICT (key) DO UPDATE SET scope=excluded.scope, status=excluded.status,
    version=excluded.version, turn_version=excluded.turn_version, game_no=excluded.game_no,
    host=excluded.host, seats=excluded.seats, waiting=excluded.waiting,
    preset=excluded.preset, overrides=excluded.overrides, lang=excluded.lang,
    seed=excluded.seed, game=excluded.game, meta=excluded.meta, strikes=excluded.strikes,
    played=excluded.played, created=excluded.created, updated=excluded.updated,
    recent=excluded.recent, shown=max(shown, excluded.shown), pending=excluded.pending,
    rev=excluded.rev
"""

# a version shown: never below what was (a mark and the table's own row may cross), never
# past the table's version (a mark for a table replaced meanwhile by a new one is old); the
# row's revision rises either way (the plan counts every mark on a row that is there)
_MARK_SHOWN = (
    "UPDATE tables SET shown = CASE WHEN version >= ? THEN max(shown, ?) ELSE shown END, "
    "rev = ? WHERE key = ?"
)

_UPSERT_STATS = """
INSERT INTO stats (scope, player, name, games, wins, rounds_won, points, cards_played,
    rounds_placed, places_total)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (scope, player) DO UPDATE SET name=excluded.name,
    games=games+excluded.games, wins=wins+excluded.wins,
    rounds_won=rounds_won+excluded.rounds_won, points=points+excluded.points,
    cards_played=cards_played+excluded.cards_played,
    rounds_placed=rounds_placed+excluded.rounds_placed,
    places_total=places_total+excluded.places_total
"""

# a chat that moved: its statistics add up in the new scope (whose names are newer), its
# settings fill in what the new scope has not set (the rules, preset and flags, as one)
_MOVE_STATS = """
INSERT INTO stats (scope, player, name, games, wins, rounds_won, points, cards_played,
    rounds_placed, places_total)
SELECT ?, player, name, games, wins, rounds_won, points, cards_played,
    rounds_placed, places_total FROM stats
WHERE scope = ?
ON CONFLICT (scope, player) DO UPDATE SET
    games=games+excluded.games, wins=wins+excluded.wins,
    rounds_won=rounds_won+excluded.rounds_won, points=points+excluded.points,
    cards_played=cards_played+excluded.cards_played,
    rounds_placed=rounds_placed+excluded.rounds_placed,
    places_total=places_total+excluded.places_total
"""

_UPSERT_CHAT = (
    "INSERT INTO chat_settings (scope, preset, overrides, lang) "
    "VALUES (?, ?, ?, ?) ON CONFLICT (scope) DO UPDATE SET "
    "preset=coalesce(excluded.preset, preset), "
    "overrides=coalesce(excluded.overrides, overrides), "
    "lang=CASE WHEN excluded.lang IS NULL THEN lang "
    "WHEN excluded.lang = '' THEN NULL ELSE excluded.lang END"
)

# "user" is quoted: a reserved word in PostgreSQL (its column is so named on both)
_UPSERT_USER = (
    'INSERT INTO user_settings ("user", lang) VALUES (?, ?) '
    'ON CONFLICT ("user") DO UPDATE SET lang=excluded.lang'
)

_UPSERT_ASSET = (
    "INSERT INTO card_assets (platform, version, name, ref) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (platform, version, name) DO UPDATE SET ref=excluded.ref"
)
_DROP_ASSET = "DELETE FROM card_assets WHERE platform = ? AND version = ? AND name = ?"

_MOVE_CHAT = """
INSERT INTO chat_settings (scope, preset, overrides, lang)
SELECT ?, preset, overrides, lang FROM chat_settings WHERE scope = ?
ON CONFLICT (scope) DO UPDATE SET
    preset=CASE WHEN preset IS NULL AND overrides IS NULL THEN excluded.preset ELSE preset END,
    overrides=CASE WHEN preset IS NULL AND overrides IS NULL THEN excluded.overrides
        ELSE overrides END,
    lang=coalesce(lang, excluded.lang)
"""


class SqliteStore(_GroupCommit):
    """The SQLite store. ``await store.open()`` before use, ``await store.close()`` after.
    One process at a time (the lock file): not shared."""

    shared = False
    dialect = "sqlite"

    def __init__(self, path: str | Path, *, max_batch: int = 64) -> None:
        super().__init__(max_batch)
        self.path = Path(path)
        self._w: aiosqlite.Connection | None = None
        self._r: aiosqlite.Connection | None = None
        self._lock_fd: int | None = None
        # the revision of each row as this store last wrote or read it (0: no row): it is
        # the file's only writer (the lock), so a commit reads only the ones it has not
        # seen; bounded, the oldest forgotten first
        self._known: dict[str, int] = {}

    # -- life cycle ---------------------------------------------------------------------

    @property
    def lock_path(self) -> Path:
        """The file whose OS lock says a process uses the database (it holds its pid)."""
        return self.path.with_name(self.path.name + ".lock")

    async def open(self) -> None:
        """Open (creating and migrating as needed). Raises ``StoreError`` when the database
        cannot be used: another process has it, it is read-only, not a database, damaged..."""
        memory = str(self.path) == ":memory:"
        self._known.clear()
        if not memory:
            self._check_path()
            self._lock_fd = self._take_lock()
        w: aiosqlite.Connection | None = None
        try:
            w = await aiosqlite.connect(self.path, isolation_level=None)
            w.row_factory = aiosqlite.Row
            self._w = w
            for p in _PRAGMAS:
                await w.execute(p)
            if not memory:
                await self._check_database(w)
            await self._migrate()
            if memory:  # a second connection would be another, empty, database
                self._r = w
            else:
                r = await aiosqlite.connect(self.path, isolation_level=None)
                self._r = r
                r.row_factory = aiosqlite.Row
                await r.execute("PRAGMA busy_timeout=5000")
                await r.execute("PRAGMA query_only=ON")
        except BaseException as exc:
            # a refused or broken database: do not leave a connection's thread running
            # (it would keep the process from exiting), nor the lock held
            for conn in {id(c): c for c in (self._r, self._w, w) if c is not None}.values():
                with contextlib.suppress(Exception):
                    await conn.close()
            self._r = self._w = None
            self._release_lock()
            if isinstance(exc, sqlite3.Error):
                raise StoreError(self._explain(exc)) from None
            raise
        self._start_writer()

    async def close(self) -> None:
        await self._stop_writer()
        for conn in {id(c): c for c in (self._r, self._w) if c is not None}.values():
            await conn.close()
        self._r = self._w = None
        self._release_lock()  # last: the database is closed before another may take it

    # -- what opening checks ------------------------------------------------------------

    def _check_path(self) -> None:
        """The path names a file in a directory this process may write to."""
        path, parent = self.path, self.path.parent
        if path.is_dir():
            raise StoreError(
                f"the database {path} is a directory, not a file: set UNO_DB (or --db) to a "
                f"file path, e.g. {path / 'uno.sqlite3'}"
            )
        if parent.exists() and not parent.is_dir():
            raise StoreError(
                f"cannot create the database {path}: {parent} is a file, not a directory"
            )
        try:
            parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(
                f"cannot create the directory {parent} for the database {path}: {e.strerror or e}"
            ) from None
        if not os.access(parent, os.W_OK | os.X_OK):
            raise StoreError(
                f"the directory {parent} of the database {path} is read-only: uno-bot keeps "
                f"the database's journal and lock files there; make it writable, or set "
                f"UNO_DB (or --db) to a path in a writable directory"
            )
        if path.exists() and not os.access(path, os.R_OK | os.W_OK):
            raise StoreError(
                f"the database {path} is read-only (or unreadable) for this user: uno-bot must "
                f"write to it; fix its permissions or owner"
            )

    def _take_lock(self) -> int | None:
        """Lock ``<db>.lock`` (an OS lock: it goes with the process, even one killed with
        SIGKILL, so no stale lock ever blocks a start) and write our pid into it."""
        if fcntl is None:
            return None
        lock = self.lock_path
        try:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError as e:
            raise StoreError(
                f"cannot create the lock file {lock} beside the database: {e.strerror or e} "
                f"(the directory {lock.parent} must be writable)"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            held = isinstance(e, BlockingIOError)
            pid = _read_pid(fd) if held else None
            os.close(fd)
            if not held:
                raise StoreError(f"cannot lock {lock}: {e.strerror or e}") from None
            who = f"pid {pid}" if pid is not None else "pid unknown"
            raise StoreError(
                f"the database {self.path} is in use by another uno-bot process ({who}): "
                f"stop it first, or give this one another database (UNO_DB or --db)"
            ) from None
        with contextlib.suppress(OSError):  # the pid is for the message only
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return fd

    def _release_lock(self) -> None:
        fd, self._lock_fd = self._lock_fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)  # no pid left behind that could be someone else's
            os.close(fd)  # closing the last descriptor releases the lock

    async def _check_database(self, w: aiosqlite.Connection) -> None:
        """A database that is damaged, or that cannot be written, is refused now: it would
        start, then fail every change (and every timer, again and again)."""
        async with w.execute("PRAGMA quick_check") as cur:
            problems = [str(r[0]) for r in await cur.fetchall()]
        if problems != ["ok"]:
            shown = "; ".join(problems[:3]) + ("; ..." if len(problems) > 3 else "")
            raise StoreError(
                f"the database {self.path} is damaged (PRAGMA quick_check: "
                f"{' '.join(shown.split())}): {self._restore}"
            )
        async with w.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        await w.execute("BEGIN IMMEDIATE")
        try:  # a write that changes nothing, rolled back: the file and journal are writable
            await w.execute(f"PRAGMA user_version={int(row[0]) if row else 0}")
        finally:
            await w.execute("ROLLBACK")

    @property
    def _restore(self) -> str:
        p = self.path
        return (
            f"stop uno-bot and restore the database from a backup (copy it over {p}, and "
            f"delete {p.name}-wal and {p.name}-shm beside it), or move {p.name} away to "
            f"start with an empty database"
        )

    def _explain(self, e: sqlite3.Error) -> str:
        """One line for the operator: which file, what is wrong, what to do."""
        name = getattr(e, "sqlite_errorname", "") or ""
        p = self.path
        if name == "SQLITE_NOTADB":
            return (
                f"{p} is not an SQLite database (or it is encrypted or badly damaged): set "
                f"UNO_DB (or --db) to the bot's database, or move the file away to start a "
                f"new one"
            )
        if name.startswith("SQLITE_CORRUPT"):
            return f"the database {p} is damaged ({e}): {self._restore}"
        if name.startswith("SQLITE_READONLY"):
            return (
                f"the database {p} is read-only ({e}): uno-bot must write to it and to its "
                f"directory {p.parent}; fix their permissions"
            )
        if name.startswith("SQLITE_CANTOPEN"):
            return (
                f"cannot open the database {p} ({e}): {p.parent} must be a writable "
                f"directory and {p.name} a database file"
            )
        if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            return (
                f"the database {p} is locked by another program ({e}): close it (a sqlite3 "
                f"shell, a backup) and start again"
            )
        if name.startswith("SQLITE_FULL"):
            return f"the disk holding the database {p} is full: free some space"
        if name.startswith("SQLITE_IOERR"):
            return f"cannot read or write the database {p} (an I/O error: {e}): check the disk"
        return f"cannot use the database {p}: {e}"

    async def _migrate(self) -> None:
        w = self._conn
        steps = migrations(self.dialect)
        async with w.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        have = int(row[0]) if row else 0
        if have > len(steps):
            raise SchemaTooNew(
                f"the database {self.path} has schema version {have}, newer than this "
                f"program's {len(steps)}: upgrade uno-bot, or restore an older database"
            )
        for n, sql in steps[have:]:
            await w.execute("BEGIN IMMEDIATE")
            try:
                for stmt in _statements(sql):
                    await w.execute(stmt)
                await w.execute(f"PRAGMA user_version={n}")
                await w.execute("COMMIT")
            except BaseException:
                await w.execute("ROLLBACK")
                raise
            log.info("database migrated to schema version %d", n)

    @property
    def _conn(self) -> aiosqlite.Connection:
        if self._w is None:
            raise RuntimeError("the store is not open")
        return self._w

    @property
    def _reader(self) -> aiosqlite.Connection:
        if self._r is None:
            raise RuntimeError("the store is not open")
        return self._r

    # -- writing ------------------------------------------------------------------------

    async def _commit(self, batches: Sequence[_Rows]) -> list[Stale | None]:
        w = self._conn
        await w.execute("BEGIN IMMEDIATE")  # the write lock: the revisions read hold
        try:
            p = _plan(batches, await self._revs(set().union(*(b.keys() for b in batches))))
            for m in p.moves:  # before the new rows are written
                await self._move(m)
            if p.tables:
                await w.executemany(_UPSERT_TABLE, list(p.tables.values()))
            if p.deadlines:
                await w.executemany(
                    "DELETE FROM deadlines WHERE table_key = ?", [(k,) for k in p.deadlines]
                )
                rows = [d for ds in p.deadlines.values() for d in ds]
                if rows:
                    await w.executemany(
                        "INSERT INTO deadlines (table_key, kind, due, version) "
                        "VALUES (?, ?, ?, ?)",
                        rows,
                    )
            if p.shown:
                await w.executemany(_MARK_SHOWN, [(v, v, rev, k) for k, v, rev in p.shown])
            if p.actions:
                await w.executemany(
                    "INSERT INTO actions (table_key, game_no, version, player, action, at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    p.actions,
                )
            if p.stats:
                await w.executemany(_UPSERT_STATS, p.stats)
            if p.chats:
                await w.executemany(_UPSERT_CHAT, p.chats)
            if p.users:
                await w.executemany(_UPSERT_USER, p.users)
            if p.assets:
                put, drop = p.asset_rows()
                if drop:
                    await w.executemany(_DROP_ASSET, drop)
                if put:
                    await w.executemany(_UPSERT_ASSET, put)
            await w.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(Exception):
                await w.execute("ROLLBACK")
            self._known.clear()  # (what was rolled back is not known; ask again)
            raise
        self._remember(p.revs)
        self.commits += 1
        self.batches += len(batches)
        return p.verdicts

    async def _revs(self, keys: set[str]) -> dict[str, int]:
        """The stored revision of each of ``keys`` (0: no row), read from the file only for
        those this store has not written or read since it opened."""
        known = self._known
        out = {k: known[k] for k in keys if k in known}
        ask = sorted(keys - out.keys())
        for i in range(0, len(ask), 500):
            part = ask[i : i + 500]
            sql = f"SELECT key, rev FROM tables WHERE key IN ({','.join('?' * len(part))})"
            async with self._conn.execute(sql, part) as cur:
                rows = await cur.fetchall()
            out.update(dict.fromkeys(part, 0))
            out.update((str(key), int(rev)) for key, rev in rows)
        return out

    def _remember(self, revs: dict[str, int]) -> None:
        known = self._known
        known.update(revs)
        if len(known) > _KNOWN_MAX:  # the oldest half goes (dicts keep their order)
            for k in list(known)[: len(known) // 2]:
                del known[k]

    async def _move(self, m: ScopeMove) -> None:
        w = self._conn
        for old, new in m.keys:
            if old == new:
                continue
            await w.execute("DELETE FROM tables WHERE key = ?", (old,))
            await w.execute("DELETE FROM deadlines WHERE table_key = ?", (old,))
            await w.execute("UPDATE actions SET table_key = ? WHERE table_key = ?", (new, old))
        await w.execute(_MOVE_CHAT, (m.new_scope, m.old_scope))
        await w.execute("DELETE FROM chat_settings WHERE scope = ?", (m.old_scope,))
        await w.execute(_MOVE_STATS, (m.new_scope, m.old_scope))
        await w.execute("DELETE FROM stats WHERE scope = ?", (m.old_scope,))

    # -- reading ------------------------------------------------------------------------

    async def _deadlines(self, keys: Iterable[str] | None = None) -> dict[str, list[Deadline]]:
        out: dict[str, list[Deadline]] = {}
        args: tuple[str, ...] = ()
        if keys is None:
            sql = "SELECT table_key, kind, due, version FROM deadlines"
        else:
            ks = list(keys)
            if not ks:
                return out
            sql = (
                "SELECT table_key, kind, due, version FROM deadlines WHERE table_key IN ("
                + ",".join("?" * len(ks))
                + ")"
            )
            args = tuple(ks)
        async with self._reader.execute(sql, args) as cur:
            async for key, kind, due, version in cur:
                out.setdefault(key, []).append(Deadline(kind, float(due), int(version)))
        return out

    async def load_open_tables(self) -> list[Table]:
        """Every table in the lobby or in play, with its deadlines (for a restart)."""
        marks = ",".join("?" * len(OPEN_STATUSES))
        async with self._reader.execute(
            f"SELECT * FROM tables WHERE status IN ({marks})",  # constants only
            OPEN_STATUSES,
        ) as cur:
            rows = await cur.fetchall()
        dls = await self._deadlines()
        return [Table.from_row(r, tuple(dls.get(r["key"], ()))) for r in rows]

    async def get_table(self, key: str) -> Table | None:
        async with self._reader.execute("SELECT * FROM tables WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        if row is None:
            return None
        dls = await self._deadlines([key])
        return Table.from_row(row, tuple(dls.get(key, ())))

    async def _ping(self) -> None:
        async with self._reader.execute("SELECT 1") as cur:
            await cur.fetchone()

    async def table_rev(self, key: str) -> int | None:
        """The stored revision of table ``key`` (``None``: no such table)."""
        async with self._reader.execute("SELECT rev FROM tables WHERE key = ?", (key,)) as cur:
            row = await cur.fetchone()
        return None if row is None else int(row[0])

    async def tables_behind(self, prefix: str, since: float) -> list[Table]:
        """Tables of platform ``prefix`` that closed (finished, stopped) since ``since``
        before their platform showed their last version: what a crash kept it from
        showing (the open ones are loaded anyway)."""
        marks = ",".join("?" * len(OPEN_STATUSES))  # placeholders: the query holds no value
        async with self._reader.execute(
            f"SELECT * FROM tables WHERE status NOT IN ({marks}) AND shown < version "
            "AND updated >= ? AND substr(key, 1, ?) = ?",
            (*OPEN_STATUSES, since, len(prefix) + 1, prefix + ":"),
        ) as cur:
            rows = await cur.fetchall()
        return [Table.from_row(r) for r in rows]

    async def tables_unshown(self, prefix: str, since: float, until: float) -> list[Table]:
        """Tables of platform ``prefix``, open or closed, last changed between ``since``
        and ``until``, whose last version was never reported shown (their deadlines left
        out): what a process that died kept from being shown, on a shared database."""
        async with self._reader.execute(
            "SELECT * FROM tables WHERE shown < version AND updated >= ? AND updated <= ? "
            "AND substr(key, 1, ?) = ?",
            (since, until, len(prefix) + 1, prefix + ":"),
        ) as cur:
            rows = await cur.fetchall()
        return [Table.from_row(r) for r in rows]

    async def table_keys(self, scope: str) -> list[str]:
        """The keys of every table of ``scope``, open or not."""
        async with self._reader.execute(
            "SELECT key FROM tables WHERE scope = ? ORDER BY key", (scope,)
        ) as cur:
            rows = await cur.fetchall()
        return [str(r[0]) for r in rows]

    async def chat_settings(
        self, scope: str
    ) -> tuple[str | None, dict[str, Any] | None, str | None]:
        async with self._reader.execute(
            "SELECT preset, overrides, lang FROM chat_settings WHERE scope = ?", (scope,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return None, None, None
        ov = json.loads(row["overrides"]) if row["overrides"] else None
        return row["preset"], ov, row["lang"]

    async def user_lang(self, user: str) -> str | None:
        async with self._reader.execute(
            'SELECT lang FROM user_settings WHERE "user" = ?', (user,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else row["lang"]

    async def leaderboard(self, scope: str, limit: int = 10) -> list[StatLine]:
        async with self._reader.execute(
            "SELECT player, name, games, wins, rounds_won, points, cards_played, "
            "rounds_placed, places_total FROM stats "
            "WHERE scope = ? AND games > 0 ORDER BY wins DESC, points DESC, games ASC, "
            "player ASC LIMIT ?",
            (scope, limit),
        ) as cur:
            rows = await cur.fetchall()
        return [StatLine(*tuple(r)) for r in rows]

    async def player_stats(self, scope: str, player: str) -> StatLine | None:
        async with self._reader.execute(
            "SELECT player, name, games, wins, rounds_won, points, cards_played, "
            "rounds_placed, places_total FROM stats "
            "WHERE scope = ? AND player = ?",
            (scope, player),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else StatLine(*tuple(row))

    async def actions(self, key: str) -> list[ActionRecord]:
        async with self._reader.execute(
            "SELECT table_key, game_no, version, player, action, at FROM actions "
            "WHERE table_key = ? ORDER BY id",
            (key,),
        ) as cur:
            rows = await cur.fetchall()
        return [
            ActionRecord(r[0], int(r[1]), int(r[2]), r[3], json.loads(r[4]), float(r[5]))
            for r in rows
        ]

    async def card_assets(self, platform: str) -> list[CardAsset]:
        """What ``platform`` has of the card set, every version (``bot.cards``)."""
        async with self._reader.execute(
            "SELECT version, name, ref FROM card_assets WHERE platform = ? ORDER BY version, name",
            (platform,),
        ) as cur:
            rows = await cur.fetchall()
        return [CardAsset(platform, int(r[0]), str(r[1]), str(r[2])) for r in rows]

    async def schema_version(self) -> int:
        async with self._reader.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (``sqlite3.complete_statement`` knows where one
    ends, whatever semicolons comments or literals hold)."""
    out: list[str] = []
    buf = ""
    for line in sql.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()
    ):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {buf!r}")
    return out


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def now() -> float:
    return time.time()
