"""The PostgreSQL store: ``UNO_DB=postgresql://user:password@host:5432/database``.

Several processes may use one database at once (``shared``). It speaks asyncpg through a
pool of connections: reads take any connection, and one writer task group-commits every
queued batch in one transaction on one of them, as the SQLite store does (``bot.store``).
In that transaction it first takes a transaction-scoped advisory lock on each table key
the batches touch (in one order, so two processes never deadlock), then reads those rows'
revisions and decides every batch against them (``WriteBatch.expect``): one built on an
older copy of a table (another process changed it) is refused with ``Stale`` and nothing
of it is written; the others commit together. The hot rows go in one statement per table
(``unnest`` of arrays), whatever the number of batches.

Deadlines are rows: a due one is fired by the process that claims it (``claim``: an
``UPDATE ... FOR UPDATE SKIP LOCKED``, held until ``claim_until``), so no two fire the same;
one overdue that nobody holds (its process died) is claimed by any other
(``claim_overdue``). A deadline that fired and changed nothing is ``spend``-t: it stays
claimed until its table arms another. Sends every process makes to one place (a Telegram
group) are paced here (``pace``: a reservation in one statement per send).

Migrations are the SQLite ones, with ``NNNN_name.postgresql.sql`` where the SQL differs;
their count is kept in ``schema_version``, each applied in its own transaction under a
session advisory lock (processes starting together on a new database take turns), and a
database newer than the code is refused (``SchemaTooNew``). A URL's query parameters other
than asyncpg's own are server settings (``?search_path=uno`` puts the tables in schema
``uno``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import unquote, urlsplit

import asyncpg

from bot.model import OPEN_STATUSES, Deadline, Table
from bot.store import ratings as ratings_db
from bot.store.base import (
    SPENT,
    ActionRecord,
    CardAsset,
    ChatSettings,
    SchemaTooNew,
    ScopeMove,
    Stale,
    StatLine,
    StoreError,
    Unsent,
    _GroupCommit,
    _plan,
    _Rows,
    migrations,
)

__all__ = ["Listener", "PostgresStore"]

log = logging.getLogger(__name__)

MIN_SERVER = 12  # identity columns, and a server still maintained
# the session lock every process takes to migrate (any number, fixed: "uno" + 1)
_MIGRATION_LOCK = 0x756E6F0001

_TABLE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("key", "text"),
    ("scope", "text"),
    ("status", "text"),
    ("version", "int4"),
    ("turn_version", "int4"),
    ("game_no", "int4"),
    ("host", "text"),
    ("seats", "text"),
    ("waiting", "text"),
    ("preset", "text"),
    ("overrides", "text"),
    ("lang", "text"),
    ("seed", "int8"),
    ("game", "text"),
    ("meta", "text"),
    ("strikes", "text"),
    ("played", "text"),
    ("created", "float8"),
    ("updated", "float8"),
    ("recent", "text"),
    ("shown", "int4"),
    ("pending", "text"),
    ("presence", "text"),
    ("rev", "int4"),
)
_NAMES = [c for c, _ in _TABLE_COLUMNS]

# every row of a group commit in one statement: each column an array
_UPSERT_TABLES = (
    f"INSERT INTO tables ({', '.join(_NAMES)}) SELECT * FROM unnest("
    + ", ".join(f"${i}::{t}[]" for i, (_, t) in enumerate(_TABLE_COLUMNS, 1))
    + ") ON CONFLICT (key) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in _NAMES[1:] if c != "shown")
    # a mark and the table's own row may cross: what was shown never falls
    + ", shown = GREATEST(tables.shown, excluded.shown)"
)

# a table's deadlines become the new ones; one that stays as it was keeps its claim
_DROP_DEADLINES = """
DELETE FROM deadlines d WHERE d.table_key = ANY($1::text[]) AND NOT EXISTS (
    SELECT 1 FROM unnest($2::text[], $3::text[], $4::float8[], $5::int4[])
        AS n(table_key, kind, due, version)
    WHERE n.table_key = d.table_key AND n.kind = d.kind AND n.due = d.due
        AND n.version = d.version)
"""
_ADD_DEADLINES = """
INSERT INTO deadlines (table_key, kind, due, version)
SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::int4[])
ON CONFLICT (table_key, kind) DO NOTHING
"""

_MARK_SHOWN = (
    "UPDATE tables SET shown = CASE WHEN version >= $1 THEN GREATEST(shown, $1) "
    "ELSE shown END, rev = $2 WHERE key = $3"
)

_ADD_ACTIONS = """
INSERT INTO actions (table_key, game_no, version, player, action, at)
SELECT * FROM unnest($1::text[], $2::int4[], $3::int4[], $4::text[], $5::text[], $6::float8[])
"""

_UPSERT_STATS = """
INSERT INTO stats (scope, player, name, games, wins, rounds_won, points, cards_played,
    rounds_placed, places_total)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
ON CONFLICT (scope, player) DO UPDATE SET name = excluded.name,
    games = stats.games + excluded.games, wins = stats.wins + excluded.wins,
    rounds_won = stats.rounds_won + excluded.rounds_won,
    points = stats.points + excluded.points,
    cards_played = stats.cards_played + excluded.cards_played,
    rounds_placed = stats.rounds_placed + excluded.rounds_placed,
    places_total = stats.places_total + excluded.places_total
"""

_UPSERT_CHAT = """
INSERT INTO chat_settings (scope, preset, overrides, lang) VALUES ($1, $2, $3, $4)
ON CONFLICT (scope) DO UPDATE SET
    preset = coalesce(excluded.preset, chat_settings.preset),
    overrides = coalesce(excluded.overrides, chat_settings.overrides),
    lang = CASE WHEN excluded.lang IS NULL THEN chat_settings.lang
        WHEN excluded.lang = '' THEN NULL ELSE excluded.lang END
"""

# a user's language ($4) or card look ($5), whichever the row sets: both kinds of row in
# one statement, so that they lock their rows in one order (by user) as every row here
_UPSERT_USER = """
INSERT INTO user_settings ("user", lang, cards) VALUES ($1, $2, $3)
ON CONFLICT ("user") DO UPDATE SET
    lang = CASE WHEN $4 THEN excluded.lang ELSE user_settings.lang END,
    cards = CASE WHEN $5 THEN excluded.cards ELSE user_settings.cards END
"""

_UPSERT_ASSET = """
INSERT INTO card_assets (platform, version, name, ref) VALUES ($1, $2, $3, $4)
ON CONFLICT (platform, version, name) DO UPDATE SET ref = excluded.ref
"""
_DROP_ASSET = "DELETE FROM card_assets WHERE platform = $1 AND version = $2 AND name = $3"

_MARK_UNSENT = """
INSERT INTO unsent (chat, holder, since) VALUES ($1, $2, $3)
ON CONFLICT (chat) DO UPDATE SET holder = excluded.holder, since = excluded.since
"""
_CLEAR_UNSENT = "DELETE FROM unsent WHERE chat = $1 AND holder = $2"
# another process's marks, old enough, become this one's: each taken by one process only
_TAKE_UNSENT = """
WITH old AS (
    SELECT chat, holder, since FROM unsent
    WHERE left(chat, $1) = $2 AND since < $3 AND holder <> $4
    ORDER BY chat FOR UPDATE SKIP LOCKED)
UPDATE unsent u SET holder = $4, since = $5
FROM old WHERE u.chat = old.chat
RETURNING old.chat, old.holder, old.since
"""

_MOVE_STATS = """
INSERT INTO stats (scope, player, name, games, wins, rounds_won, points, cards_played,
    rounds_placed, places_total)
SELECT $1, player, name, games, wins, rounds_won, points, cards_played,
    rounds_placed, places_total FROM stats
WHERE scope = $2
ON CONFLICT (scope, player) DO UPDATE SET
    games = stats.games + excluded.games, wins = stats.wins + excluded.wins,
    rounds_won = stats.rounds_won + excluded.rounds_won,
    points = stats.points + excluded.points,
    cards_played = stats.cards_played + excluded.cards_played,
    rounds_placed = stats.rounds_placed + excluded.rounds_placed,
    places_total = stats.places_total + excluded.places_total
"""

_MOVE_CHAT = """
INSERT INTO chat_settings (scope, preset, overrides, lang)
SELECT $1, preset, overrides, lang FROM chat_settings WHERE scope = $2
ON CONFLICT (scope) DO UPDATE SET
    preset = CASE WHEN chat_settings.preset IS NULL AND chat_settings.overrides IS NULL
        THEN excluded.preset ELSE chat_settings.preset END,
    overrides = CASE WHEN chat_settings.preset IS NULL AND chat_settings.overrides IS NULL
        THEN excluded.overrides ELSE chat_settings.overrides END,
    lang = coalesce(chat_settings.lang, excluded.lang)
"""

# a deadline is free: nobody claimed it, the claim ran out, or it is the asker's own (and
# not spent); rows another transaction holds are skipped, never waited for
_FREE = (
    "(d.claim_until IS NULL OR d.claim_until < $2 "
    "OR (d.claimed_by = $1 AND d.claim_until < 'Infinity'))"
)

_CLAIM = f"""
WITH free AS (
    SELECT d.table_key, d.kind FROM deadlines d
    JOIN unnest($4::text[], $5::text[], $6::float8[], $7::int4[])
        AS w(table_key, kind, due, version)
        ON w.table_key = d.table_key AND w.kind = d.kind AND w.due = d.due
        AND w.version = d.version
    WHERE {_FREE}
    FOR UPDATE OF d SKIP LOCKED)
UPDATE deadlines d SET claimed_by = $1, claim_until = $3
FROM free WHERE d.table_key = free.table_key AND d.kind = free.kind
RETURNING d.table_key, d.kind
"""

_CLAIM_OVERDUE = """
WITH free AS (
    SELECT d.table_key, d.kind FROM deadlines d
    WHERE d.due <= $4 AND (d.claim_until IS NULL OR d.claim_until < $2)
    ORDER BY d.due LIMIT $5
    FOR UPDATE OF d SKIP LOCKED)
UPDATE deadlines d SET claimed_by = $1, claim_until = $3
FROM free WHERE d.table_key = free.table_key AND d.kind = free.kind
RETURNING d.table_key, d.kind, d.due, d.version
"""

_SPEND = """
UPDATE deadlines SET claim_until = $6
WHERE table_key = $2 AND kind = $3 AND due = $4 AND version = $5 AND claimed_by = $1
"""

_LEASE = """
INSERT INTO leases (name, holder, until) VALUES ($1, $2, $3)
ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until
WHERE leases.holder = excluded.holder OR leases.until < $4
RETURNING holder
"""


# a flow's next send reserved (see ``bot.store.gcra``): its theoretical arrival time moves
# one interval on from itself, or from now if that is later; what comes back is the new one
_PACE = """
INSERT INTO pacing AS p (name, tat) VALUES ($1, $2::float8 + $3::float8)
ON CONFLICT (name) DO UPDATE SET tat = GREATEST(p.tat, $2::float8) + $3::float8
RETURNING tat
"""


def lock_id(key: str) -> int:
    """The advisory lock of table ``key``: a signed 64-bit hash (two keys sharing one only
    wait for each other)."""
    digest = hashlib.blake2b(key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


async def _keep(conn: asyncpg.Connection) -> None:
    """A connection handed back to the pool is kept as it is: nothing of a session is
    used between acquisitions, and the default reset costs a round trip each time."""


class PostgresStore(ratings_db.RatingReads, _GroupCommit):
    """The PostgreSQL store. ``await store.open()`` before use, ``await store.close()``
    after. ``pool_size``: connections at most (the writer's among them)."""

    shared = True
    dialect = "postgresql"

    def __init__(
        self,
        url: str,
        *,
        max_batch: int = 64,
        writers: int = 1,
        pool_size: int = 8,
        timeout: float = 10.0,
    ) -> None:
        # ``writers``: group commits in flight at once (batches of one table are never in
        # two: the service holds its lock until its commit is answered, and another
        # process waits for the advisory lock). One: a second measured no faster on two
        # cores shared with the server (bench/service.py --db); a server of its own may
        # take more.
        super().__init__(max_batch, writers)
        self.url = url
        self.pool_size = max(writers + 1, pool_size)
        self.timeout = timeout
        self._pool: asyncpg.Pool | None = None
        parts = urlsplit(url)
        self._user = unquote(parts.username or "") or None
        self._password = unquote(parts.password or "") or None
        self._database = unquote(parts.path.lstrip("/")) or None
        host = parts.hostname or "localhost"
        # named without the password: what the messages and the log say
        who = f"{self._user}@" if self._user else ""
        port = f":{parts.port}" if _port(parts) else ""
        self.where = f"postgresql://{who}{host}{port}/{self._database or ''}"

    # -- life cycle ---------------------------------------------------------------------

    async def open(self) -> None:
        """Connect, migrate (creating the tables on an empty database), start the pool.
        Raises ``StoreError`` (one line, naming the server and database) when it cannot."""
        try:
            conn = await asyncpg.connect(self.url, timeout=self.timeout)
        except Exception as e:  # every way of not getting in is the operator's to fix
            raise StoreError(self._explain(e)) from None
        try:
            version = conn.get_server_version()
            if version.major < MIN_SERVER:
                raise StoreError(
                    f"the PostgreSQL server at {self.where} is version {version.major}: "
                    f"uno-bot needs PostgreSQL {MIN_SERVER} or newer"
                )
            await self._migrate(conn)
        except StoreError:
            raise
        except Exception as e:
            raise StoreError(self._explain(e)) from None
        finally:
            with contextlib.suppress(Exception):
                await conn.close()
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                reset=_keep,
                timeout=self.timeout,
                command_timeout=60,
                # every statement here finds its rows by key, through an index; the planner
                # would rather scan a small table whole, and then every dead row left by
                # the moves since the last vacuum (ten times the live ones within a minute)
                server_settings={"enable_seqscan": "off"},
            )
        except Exception as e:
            raise StoreError(self._explain(e)) from None
        self._start_writer()
        log.info("PostgreSQL store open: %s", self.where)

    async def close(self) -> None:
        await self._stop_writer()
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), self.timeout)
            except (TimeoutError, Exception):  # a server gone: do not hang the exit
                pool.terminate()

    async def _migrate(self, conn: asyncpg.Connection) -> None:
        steps = migrations(self.dialect)
        # processes starting at once on a new database take turns: the first migrates,
        # the others find it done
        await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
        try:
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_version ("
                "version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)"
            )
            have = int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))
            if have > len(steps):
                raise SchemaTooNew(
                    f"the database {self.where} has schema version {have}, newer than this "
                    f"program's {len(steps)}: upgrade uno-bot, or use another database"
                )
            for n, sql in steps[have:]:
                async with conn.transaction():
                    await conn.execute(sql)
                    await conn.execute(
                        "INSERT INTO schema_version (version, applied) VALUES ($1, $2)",
                        n,
                        time.time(),
                    )
                log.info("database migrated to schema version %d", n)
        finally:
            with contextlib.suppress(Exception):
                await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)

    def _explain(self, e: BaseException) -> str:
        """One line for the operator: which server and database, what is wrong, what to
        do (never the password)."""
        text = (str(e).strip().splitlines() or [type(e).__name__])[0]
        if self._password:
            text = text.replace(self._password, "***")
        where, db, user = self.where, self._database or "(none)", self._user or "(default)"
        if isinstance(e, asyncpg.InvalidCatalogNameError):
            return (
                f"the PostgreSQL database {db!r} does not exist ({where}): create it "
                f"(createdb {db}) or fix UNO_DB"
            )
        if isinstance(
            e, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError
        ):
            return (
                f"PostgreSQL refused the login of user {user!r} ({where}: {text}): check "
                f"the user and password in UNO_DB"
            )
        if isinstance(e, asyncpg.InsufficientPrivilegeError):
            return (
                f"the PostgreSQL user {user!r} may not create or change the bot's tables in "
                f"{where} ({text}): grant it CREATE on the schema, or use another user"
            )
        if isinstance(e, TimeoutError):
            return (
                f"the PostgreSQL server at {where} did not answer within {self.timeout:g} s: "
                f"is it running, and are UNO_DB's host and port right?"
            )
        if isinstance(e, OSError):
            return (
                f"cannot reach the PostgreSQL server at {where} ({text}): is it running, "
                f"and are UNO_DB's host and port right?"
            )
        if isinstance(e, asyncpg.PostgresError):
            return f"cannot use the PostgreSQL database {where}: {text}"
        if isinstance(e, ValueError | asyncpg.InterfaceError):
            return (
                f"UNO_DB is not a PostgreSQL URL asyncpg can use ({text}): write it "
                f"postgresql://user:password@host:5432/database"
            )
        return f"cannot use the PostgreSQL database {where}: {type(e).__name__}: {text}"

    @property
    def _db(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the store is not open")
        return self._pool

    def _ratings_db(self) -> ratings_db.Db:
        return ratings_db.PgDb(self._db)

    # -- writing ------------------------------------------------------------------------

    async def _commit(self, batches: Sequence[_Rows]) -> list[Stale | None]:
        keys = sorted(set().union(*(b.keys() for b in batches)))
        async with self._db.acquire() as c, c.transaction():
            revs: dict[str, int] = {}
            if keys:
                # the tables' locks, in one order for every process: no deadlock
                locks = sorted({lock_id(k) for k in keys})
                await c.execute("SELECT pg_advisory_xact_lock(x) FROM unnest($1::int8[]) x", locks)
                # read once they are held (a statement of its own: it sees what the
                # transactions that held them committed)
                rows = await c.fetch("SELECT key, rev FROM tables WHERE key = ANY($1)", keys)
                revs = {r[0]: int(r[1]) for r in rows}
            p = _plan(batches, revs)
            for m in p.moves:  # before the new rows are written
                await self._move(c, m)
            if p.tables:
                rows_ = list(p.tables.values())
                await c.execute(_UPSERT_TABLES, *([r[n] for r in rows_] for n in _NAMES))
            if p.deadlines:
                new = [d for ds in p.deadlines.values() for d in ds]
                cols = [list(col) for col in zip(*new, strict=True)] if new else [[]] * 4
                await c.execute(_DROP_DEADLINES, list(p.deadlines), *cols)
                if new:
                    await c.execute(_ADD_DEADLINES, *cols)
            if p.shown:
                await c.executemany(_MARK_SHOWN, [(v, rev, k) for k, v, rev in p.shown])
            if p.actions:
                await c.execute(_ADD_ACTIONS, *(list(col) for col in zip(*p.actions, strict=True)))
            # rows other transactions may hold, locked in one order (by key) for all: two
            # commits in flight never wait for each other in a circle; in the order the
            # batches came where one key repeats (a stable sort)
            if p.stats:
                await c.executemany(_UPSERT_STATS, sorted(p.stats, key=lambda r: (r[0], r[1])))
            if p.chats:
                await c.executemany(_UPSERT_CHAT, sorted(p.chats, key=lambda r: r[0]))
            users = [(u, lang, None, True, False) for u, lang in p.users]
            users += [(u, None, cards, False, True) for u, cards in p.looks]
            if users:
                await c.executemany(_UPSERT_USER, sorted(users, key=lambda r: r[0]))
            if p.assets:
                put, drop = p.asset_rows()
                if drop:
                    await c.executemany(_DROP_ASSET, drop)
                if put:
                    await c.executemany(_UPSERT_ASSET, put)
            if p.unsent:
                put, drop = p.unsent_rows()
                if drop:
                    await c.executemany(_CLEAR_UNSENT, drop)
                if put:
                    await c.executemany(_MARK_UNSENT, put)
            # last: its lock is the last this transaction takes (bot.store.ratings)
            db = ratings_db.PgDb(c)
            await ratings_db.commit(db, p.games, p.rebuild_ratings, p.ratings_moves())
        self.commits += 1
        self.batches += len(batches)
        return p.verdicts

    async def _move(self, c: asyncpg.Connection, m: ScopeMove) -> None:
        for old, new in m.keys:
            if old == new:
                continue
            await c.execute("DELETE FROM tables WHERE key = $1", old)
            await c.execute("DELETE FROM deadlines WHERE table_key = $1", old)
            await c.execute("UPDATE actions SET table_key = $1 WHERE table_key = $2", new, old)
        await c.execute(_MOVE_CHAT, m.new_scope, m.old_scope)
        await c.execute("DELETE FROM chat_settings WHERE scope = $1", m.old_scope)
        await c.execute(_MOVE_STATS, m.new_scope, m.old_scope)
        await c.execute("DELETE FROM stats WHERE scope = $1", m.old_scope)

    # -- deadlines and leases, among processes ------------------------------------------

    async def claim(
        self, owner: str, due: Sequence[tuple[str, Deadline]], now: float, seconds: float
    ) -> set[tuple[str, str]]:
        """Claim the due deadlines ``due`` (each as this process has it armed) for
        ``owner`` until ``now + seconds``; returns the ``(key, kind)`` granted. One that
        another process holds, or that the table replaced meanwhile, is not."""
        if not due:
            return set()
        rows = await self._db.fetch(
            _CLAIM,
            owner,
            now,
            now + seconds,
            [k for k, _ in due],
            [d.kind for _, d in due],
            [d.due for _, d in due],
            [d.version for _, d in due],
        )
        return {(r[0], r[1]) for r in rows}

    async def claim_overdue(
        self, owner: str, before: float, now: float, seconds: float, limit: int
    ) -> list[tuple[str, Deadline]]:
        """Claim up to ``limit`` deadlines due before ``before`` that nobody holds (their
        process died, or is too busy for them), earliest first."""
        rows = await self._db.fetch(_CLAIM_OVERDUE, owner, now, now + seconds, before, limit)
        return [(r[0], Deadline(r[1], float(r[2]), int(r[3]))) for r in rows]

    async def spend(self, owner: str, key: str, deadline: Deadline) -> None:
        """``deadline`` fired for ``owner`` and changed nothing: it stays claimed until its
        table arms another, so that nobody fires it again and again."""
        await self._db.execute(
            _SPEND, owner, key, deadline.kind, deadline.due, deadline.version, SPENT
        )

    async def lease(self, name: str, owner: str, now: float, seconds: float) -> bool:
        """Take (or renew) the lease ``name`` for ``owner`` until ``now + seconds``;
        ``False`` while another holder's has not run out."""
        row = await self._db.fetchrow(_LEASE, name, owner, now + seconds, now)
        return row is not None

    async def release(self, name: str, owner: str) -> None:
        await self._db.execute("DELETE FROM leases WHERE name = $1 AND holder = $2", name, owner)

    async def pace(
        self, name: str, now: float, interval: float, burst: int, spare: int = 0
    ) -> float:
        """Reserve the next send of flow ``name``, whichever process sends (at most
        ``burst`` at once, one every ``interval`` seconds on average: ``bot.store.gcra``),
        in one statement; returns the seconds from ``now`` to wait before sending."""
        tat = float(await self._db.fetchval(_PACE, name, now, interval))
        tau = max(0, burst - 1 - spare) * interval
        return max(0.0, tat - interval - tau - now)

    # -- reading ------------------------------------------------------------------------

    async def load_open_tables(self) -> list[Table]:
        """Every table in the lobby or in play, with its deadlines."""
        async with self._db.acquire() as c:
            rows = await c.fetch(
                "SELECT * FROM tables WHERE status = ANY($1::text[])", list(OPEN_STATUSES)
            )
            dls = await c.fetch(
                "SELECT d.table_key, d.kind, d.due, d.version FROM deadlines d "
                "JOIN tables t ON t.key = d.table_key WHERE t.status = ANY($1::text[])",
                list(OPEN_STATUSES),
            )
        by: dict[str, list[Deadline]] = {}
        for key, kind, due, version in dls:
            by.setdefault(key, []).append(Deadline(kind, float(due), int(version)))
        return [Table.from_row(r, tuple(by.get(r["key"], ()))) for r in rows]

    async def get_table(self, key: str) -> Table | None:
        async with self._db.acquire() as c:
            row = await c.fetchrow("SELECT * FROM tables WHERE key = $1", key)
            if row is None:
                return None
            dls = await c.fetch(
                "SELECT kind, due, version FROM deadlines WHERE table_key = $1", key
            )
        return Table.from_row(row, tuple(Deadline(k, float(due), int(v)) for k, due, v in dls))

    async def _ping(self) -> None:
        await self._db.fetchval("SELECT 1")

    # -- telling other processes (LISTEN/NOTIFY) ----------------------------------------------

    async def notify(self, channel: str, payload: str) -> None:
        """Tell every process listening on ``channel`` (``listen``) ``payload`` (8000 bytes
        at most): PostgreSQL's ``NOTIFY``, delivered once this statement commits."""
        await self._db.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def listen(
        self, channel: str, heard: Callable[[str], None], lost: Callable[[], None] | None = None
    ) -> Listener:
        """Call ``heard(payload)`` for each notification on ``channel``, on a connection of
        its own (``LISTEN`` holds a session; the pool's connections are reset). If that
        connection is lost it is made again, every second until it is, and ``lost()`` is
        called once it listens again (what was said meanwhile was missed: look again)."""
        listener = Listener(self, channel, heard, lost)
        await listener.connect()
        return listener

    async def table_rev(self, key: str) -> int | None:
        """The stored revision of table ``key`` (``None``: no such table): one index
        lookup, what a process checks its copy against."""
        rev = await self._db.fetchval("SELECT rev FROM tables WHERE key = $1", key)
        return None if rev is None else int(rev)

    async def tables_behind(self, prefix: str, since: float) -> list[Table]:
        """Tables of platform ``prefix`` that closed since ``since`` before their
        platform showed their last version (see ``SqliteStore.tables_behind``)."""
        rows = await self._db.fetch(
            "SELECT * FROM tables WHERE status <> ALL($1::text[]) AND shown < version "
            "AND updated >= $2 AND left(key, $3) = $4",
            list(OPEN_STATUSES),
            since,
            len(prefix) + 1,
            prefix + ":",
        )
        return [Table.from_row(r) for r in rows]

    async def tables_unshown(self, prefix: str, since: float, until: float) -> list[Table]:
        """Tables of platform ``prefix``, open or closed, last changed between ``since``
        and ``until``, whose last version was never reported shown (see
        ``SqliteStore.tables_unshown``)."""
        rows = await self._db.fetch(
            "SELECT * FROM tables WHERE shown < version AND updated >= $1 AND updated <= $2 "
            "AND left(key, $3) = $4",
            since,
            until,
            len(prefix) + 1,
            prefix + ":",
        )
        return [Table.from_row(r) for r in rows]

    async def table_keys(self, scope: str) -> list[str]:
        rows = await self._db.fetch("SELECT key FROM tables WHERE scope = $1 ORDER BY key", scope)
        return [str(r[0]) for r in rows]

    async def chat_settings(self, scope: str) -> ChatSettings:
        row = await self._db.fetchrow(
            "SELECT preset, overrides, lang FROM chat_settings WHERE scope = $1", scope
        )
        if row is None:
            return ChatSettings()
        ov = json.loads(row["overrides"]) if row["overrides"] else None
        return ChatSettings(row["preset"], ov, row["lang"] or None)  # '': cleared

    async def user_lang(self, user: str) -> str | None:
        lang = await self._db.fetchval('SELECT lang FROM user_settings WHERE "user" = $1', user)
        return None if lang is None else str(lang)

    async def user_cards(self, user: str) -> str | None:
        cards = await self._db.fetchval('SELECT cards FROM user_settings WHERE "user" = $1', user)
        return None if cards is None else str(cards)

    async def leaderboard(self, scope: str, limit: int = 10) -> list[StatLine]:
        rows = await self._db.fetch(
            "SELECT player, name, games, wins, rounds_won, points, cards_played, "
            "rounds_placed, places_total FROM stats "
            "WHERE scope = $1 AND games > 0 ORDER BY wins DESC, points DESC, games ASC, "
            "player ASC LIMIT $2",
            scope,
            limit,
        )
        return [StatLine(*tuple(r)) for r in rows]

    async def player_stats(self, scope: str, player: str) -> StatLine | None:
        row = await self._db.fetchrow(
            "SELECT player, name, games, wins, rounds_won, points, cards_played, "
            "rounds_placed, places_total FROM stats "
            "WHERE scope = $1 AND player = $2",
            scope,
            player,
        )
        return None if row is None else StatLine(*tuple(row))

    async def actions(self, key: str) -> list[ActionRecord]:
        rows = await self._db.fetch(
            "SELECT table_key, game_no, version, player, action, at FROM actions "
            "WHERE table_key = $1 ORDER BY id",
            key,
        )
        return [
            ActionRecord(r[0], int(r[1]), int(r[2]), r[3], json.loads(r[4]), float(r[5]))
            for r in rows
        ]

    async def card_assets(self, platform: str) -> list[CardAsset]:
        """What ``platform`` has of the card set, every version (``bot.ui.card_set``)."""
        rows = await self._db.fetch(
            "SELECT version, name, ref FROM card_assets WHERE platform = $1 "
            "ORDER BY version, name",
            platform,
        )
        return [CardAsset(platform, int(r[0]), str(r[1]), str(r[2])) for r in rows]

    async def unsent(self, prefix: str, before: float) -> list[Unsent]:
        """The chats of platform ``prefix`` owed replies, marked before ``before``."""
        rows = await self._db.fetch(
            "SELECT chat, holder, since FROM unsent WHERE left(chat, $1) = $2 AND since < $3 "
            "ORDER BY chat",
            len(prefix) + 1,
            prefix + ":",
            before,
        )
        return [Unsent(str(r[0]), str(r[1]), float(r[2])) for r in rows]

    async def take_unsent(
        self, prefix: str, holder: str, before: float, now: float
    ) -> list[Unsent]:
        """The chats of platform ``prefix`` owed replies by another process, marked before
        ``before`` (its process died, or stopped sending): now ``holder``'s (marked
        ``now``), each taken by one process only; as they were."""
        rows = await self._db.fetch(
            _TAKE_UNSENT, len(prefix) + 1, prefix + ":", before, holder, now
        )
        found = [Unsent(str(r[0]), str(r[1]), float(r[2])) for r in rows]
        return sorted(found, key=lambda u: u.chat)

    async def schema_version(self) -> int:
        v = await self._db.fetchval("SELECT coalesce(max(version), 0) FROM schema_version")
        return int(v)


def _port(parts: Any) -> int | None:
    try:
        return int(parts.port) if parts.port is not None else None
    except ValueError:
        return None


class Listener:
    """One ``LISTEN`` on a connection of its own (``PostgresStore.listen``)."""

    RETRY_SECONDS = 1.0

    def __init__(
        self,
        store: PostgresStore,
        channel: str,
        heard: Callable[[str], None],
        lost: Callable[[], None] | None,
    ) -> None:
        self.store = store
        self.channel = channel
        self.heard = heard
        self.lost = lost
        self._conn: asyncpg.Connection | None = None
        self._closed = False
        self._again: asyncio.Task[None] | None = None

    def _on(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        try:
            self.heard(payload)
        except Exception:
            log.exception("a notification on %s could not be handled", self.channel)

    def _on_end(self, _conn: object) -> None:
        if self._closed or self._again is not None:
            return
        log.warning("the connection listening on %s was lost: connecting again", self.channel)
        self._again = asyncio.get_running_loop().create_task(self._reconnect())

    async def connect(self) -> None:
        conn = await asyncpg.connect(self.store.url, timeout=self.store.timeout)
        conn.add_termination_listener(self._on_end)
        await conn.add_listener(self.channel, self._on)
        self._conn = conn

    async def _reconnect(self) -> None:
        try:
            while not self._closed:
                try:
                    await self.connect()
                except Exception as e:
                    log.info("listening on %s again failed: %s", self.channel, e)
                    await asyncio.sleep(self.RETRY_SECONDS)
                    continue
                if self.lost is not None:
                    self.lost()
                return
        finally:
            self._again = None

    async def close(self) -> None:
        self._closed = True
        if self._again is not None:
            self._again.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._again
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), self.store.timeout)
