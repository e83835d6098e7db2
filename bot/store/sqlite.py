"""Persistence: SQLite (the embedded default, here) and PostgreSQL (``bot.store.postgres``, for
several processes on one database), both on what ``bot.store.base`` declares (the ``Store``
protocol, the records, the group commit; ``bot.store`` re-exports them).
``store_for(UNO_DB)`` picks one.

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

Migrations are the numbered files in ``bot/store/sql``, the same numbers for both
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

import contextlib
import json
import logging
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.model import OPEN_STATUSES, Deadline, Table
from bot.store import ratings as ratings_db
from bot.store.base import (
    ActionRecord,
    CardAsset,
    ChatSettings,
    Listening,
    SchemaTooNew,
    ScopeMove,
    Stale,
    StatLine,
    Store,
    StoreError,
    Unsent,
    WriteBatch,
    _GroupCommit,
    _plan,
    _Rows,
    migrations,
)

try:
    import fcntl
except ImportError:  # Windows: no lock (the bot itself runs on Linux)
    fcntl = None  # type: ignore[assignment]

__all__ = ["SqliteStore", "is_server_url", "sqlite_path", "store_for"]

log = logging.getLogger(__name__)


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
        from bot.store.postgres import PostgresStore

        return PostgresStore(str(db), **kw)
    return SqliteStore(sqlite_path(db), **kw)


_KNOWN_MAX = 100_000  # revisions a SQLite store keeps in memory at most

_PRAGMAS: tuple[str, ...] = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=NORMAL",
    "PRAGMA foreign_keys=ON",
    "PRAGMA busy_timeout=5000",
)

_UPSERT_TABLE = """
INSERT INTO tables (key, scope, status, version, turn_version, game_no, host, seats, waiting,
    preset, overrides, lang, seed, game, meta, strikes, played, created, updated, recent,
    shown, pending, presence, rev)
VALUES (:key, :scope, :status, :version, :turn_version, :game_no, :host, :seats, :waiting,
    :preset, :overrides, :lang, :seed, :game, :meta, :strikes, :played, :created, :updated,
    :recent, :shown, :pending, :presence, :rev)
ON CONFLICT (key) DO UPDATE SET scope=excluded.scope, status=excluded.status,
    version=excluded.version, turn_version=excluded.turn_version, game_no=excluded.game_no,
    host=excluded.host, seats=excluded.seats, waiting=excluded.waiting,
    preset=excluded.preset, overrides=excluded.overrides, lang=excluded.lang,
    seed=excluded.seed, game=excluded.game, meta=excluded.meta, strikes=excluded.strikes,
    played=excluded.played, created=excluded.created, updated=excluded.updated,
    recent=excluded.recent, shown=max(shown, excluded.shown), pending=excluded.pending,
    presence=excluded.presence, rev=excluded.rev
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

_UPSERT_LOOK = (
    'INSERT INTO user_settings ("user", cards) VALUES (?, ?) '
    'ON CONFLICT ("user") DO UPDATE SET cards=excluded.cards'
)

_UPSERT_ASSET = (
    "INSERT INTO card_assets (platform, version, name, ref) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (platform, version, name) DO UPDATE SET ref=excluded.ref"
)
_DROP_ASSET = "DELETE FROM card_assets WHERE platform = ? AND version = ? AND name = ?"

_MARK_UNSENT = (
    "INSERT INTO unsent (chat, holder, since) VALUES (?, ?, ?) "
    "ON CONFLICT (chat) DO UPDATE SET holder=excluded.holder, since=excluded.since"
)
_CLEAR_UNSENT = "DELETE FROM unsent WHERE chat = ? AND holder = ?"

_MOVE_CHAT = """
INSERT INTO chat_settings (scope, preset, overrides, lang)
SELECT ?, preset, overrides, lang FROM chat_settings WHERE scope = ?
ON CONFLICT (scope) DO UPDATE SET
    preset=CASE WHEN preset IS NULL AND overrides IS NULL THEN excluded.preset ELSE preset END,
    overrides=CASE WHEN preset IS NULL AND overrides IS NULL THEN excluded.overrides
        ELSE overrides END,
    lang=coalesce(lang, excluded.lang)
"""


class SqliteStore(ratings_db.RatingReads, _GroupCommit):
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

    def _ratings_db(self) -> ratings_db.Db:
        return ratings_db.SqliteDb(self._reader)

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
            if p.looks:
                await w.executemany(_UPSERT_LOOK, p.looks)
            if p.assets:
                put, drop = p.asset_rows()
                if drop:
                    await w.executemany(_DROP_ASSET, drop)
                if put:
                    await w.executemany(_UPSERT_ASSET, put)
            if p.unsent:
                put, drop = p.unsent_rows()
                if drop:
                    await w.executemany(_CLEAR_UNSENT, drop)
                if put:
                    await w.executemany(_MARK_UNSENT, put)
            db = ratings_db.SqliteDb(w)
            await ratings_db.commit(db, p.games, p.rebuild_ratings, p.ratings_moves())
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

    async def chat_settings(self, scope: str) -> ChatSettings:
        async with self._reader.execute(
            "SELECT preset, overrides, lang FROM chat_settings WHERE scope = ?", (scope,)
        ) as cur:
            row = await cur.fetchone()
        if row is None:
            return ChatSettings()
        ov = json.loads(row["overrides"]) if row["overrides"] else None
        return ChatSettings(row["preset"], ov, row["lang"] or None)  # '': cleared

    async def user_lang(self, user: str) -> str | None:
        async with self._reader.execute(
            'SELECT lang FROM user_settings WHERE "user" = ?', (user,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else row["lang"]

    async def user_cards(self, user: str) -> str | None:
        async with self._reader.execute(
            'SELECT cards FROM user_settings WHERE "user" = ?', (user,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else row["cards"]

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
        """What ``platform`` has of the card set, every version (``bot.ui.card_set``)."""
        async with self._reader.execute(
            "SELECT version, name, ref FROM card_assets WHERE platform = ? ORDER BY version, name",
            (platform,),
        ) as cur:
            rows = await cur.fetchall()
        return [CardAsset(platform, int(r[0]), str(r[1]), str(r[2])) for r in rows]

    # -- telling other processes: there are none (one process at a time) ----------------------

    async def notify(self, channel: str, payload: str) -> None:
        """Not shared: there is no other process to tell."""

    async def listen(
        self, channel: str, heard: Callable[[str], None], lost: Callable[[], None] | None = None
    ) -> Listening:
        """Not shared: nobody else speaks, ``heard`` is never called."""
        return _Deaf()

    async def unsent(self, prefix: str, before: float) -> list[Unsent]:
        """The chats of platform ``prefix`` owed replies, marked before ``before``."""
        async with self._reader.execute(
            "SELECT chat, holder, since FROM unsent WHERE substr(chat, 1, ?) = ? "
            "AND since < ? ORDER BY chat",
            (len(prefix) + 1, prefix + ":", before),
        ) as cur:
            rows = await cur.fetchall()
        return [Unsent(str(r[0]), str(r[1]), float(r[2])) for r in rows]

    async def take_unsent(
        self, prefix: str, holder: str, before: float, now: float
    ) -> list[Unsent]:
        """The chats of platform ``prefix`` owed replies by another process, marked before
        ``before``: now ``holder``'s (marked ``now``), as they were (one process: nobody
        takes them meanwhile)."""
        found = [u for u in await self.unsent(prefix, before) if u.holder != holder]
        if found:
            await self.write(WriteBatch(unsent=[Unsent(u.chat, holder, now) for u in found]))
        return found

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


class _Deaf:
    """What ``SqliteStore.listen`` gives: a listening that hears nothing."""

    async def close(self) -> None:
        return None
