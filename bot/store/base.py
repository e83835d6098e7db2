"""What every store shares: the ``Store`` protocol, the records and batches a store
writes and reads, migrations, and the group commit in front of a database
(``_GroupCommit``). ``bot.store`` (SQLite, and ``store_for``) and ``bot.store.postgres``
(PostgreSQL) both build on it; neither imports the other's module at import time.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Protocol

from bot.model import Deadline, Table
from bot.ratings import GameResult, Rating

log = logging.getLogger(__name__)


DIALECTS = ("sqlite", "postgresql")
SPENT = float("inf")  # a claim that never runs out: the deadline fired and changed nothing


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


class Keep(enum.Enum):
    """A chat setting that a ``ChatUpdate`` leaves as it is stored (``KEEP``)."""

    KEEP = "keep"


KEEP = Keep.KEEP


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A chat's saved settings, as ``Store.chat_settings`` reads them. ``None``: not set
    (never, or cleared), so what stands in applies: the bot's default preset, the preset's
    own flags, each reader's own language."""

    preset: str | None = None  # the rules' preset (``official``, ``house``, ...)
    overrides: Mapping[str, Any] | None = None  # flag -> value, over the preset
    lang: str | None = None  # the chat's language


@dataclass(frozen=True, slots=True)
class ChatUpdate:
    """A change to one chat's settings (``WriteBatch.chat_settings``). Each field is
    ``KEEP`` (left as stored: the default) or its new value; ``lang=None`` clears the
    chat's language (its readers' own languages apply again)."""

    scope: str
    preset: str | Keep = KEEP
    overrides: Mapping[str, Any] | Keep = KEEP
    lang: str | Keep | None = KEEP

    def row(self) -> tuple[str, str | None, str | None, str | None]:
        """The row both stores upsert: ``NULL`` keeps a column; ``lang`` ``''`` clears it
        (the upsert's ``CASE``), so ``None`` and ``''`` stay inside the stores."""
        return (
            self.scope,
            None if self.preset is KEEP else self.preset,
            None if self.overrides is KEEP else json.dumps(dict(self.overrides)),
            None if self.lang is KEEP else (self.lang or ""),
        )


@dataclass(frozen=True, slots=True)
class CardAsset:
    """A picture of the card set as a platform has it (``bot.ui.card_set``): on ``platform``
    (``tg``, ``dc``), of drawings ``version``, picture ``name`` (``r5``, ``r5_d``) is
    ``ref`` (a sticker's file id, an emoji's id). In a ``WriteBatch``, ``ref`` ``None``
    forgets it."""

    platform: str
    version: int
    name: str
    ref: str | None


@dataclass(frozen=True, slots=True)
class Unsent:
    """Replies to ``chat`` (a platform's chat key, ``tg:<chat>[:<topic>]``) were queued by
    process ``holder`` and are not all sent, as of ``since`` (unix time: when it queued the
    first or last sent one). In a ``WriteBatch``, ``since`` ``None`` clears the mark if
    ``holder`` holds it (another process's mark of the chat stays)."""

    chat: str
    holder: str
    since: float | None


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
    chat_settings: list[ChatUpdate] = field(default_factory=list)
    user_settings: list[tuple[str, str | None]] = field(default_factory=list)
    # (user, how their cards are shown: ``CARD_LOOKS``, or None for the default)
    user_cards: list[tuple[str, str | None]] = field(default_factory=list)
    moves: list[ScopeMove] = field(default_factory=list)
    shown: list[ShownMark] = field(default_factory=list)
    expect: dict[str, int] = field(default_factory=dict)
    card_assets: list[CardAsset] = field(default_factory=list)
    unsent: list[Unsent] = field(default_factory=list)
    # games that ended, recorded and (finished ones) rated in this transaction, in order
    games: list[GameResult] = field(default_factory=list)
    rebuild_ratings: bool = False  # every rating computed again from the recorded games


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
    looks: list[tuple[Any, ...]] = field(default_factory=list)  # (user, cards)
    deadlines: dict[str, list[tuple[Any, ...]]] = field(default_factory=dict)
    expect: dict[str, int] = field(default_factory=dict)
    assets: list[CardAsset] = field(default_factory=list)
    unsent: list[Unsent] = field(default_factory=list)
    games: list[GameResult] = field(default_factory=list)
    rebuild_ratings: bool = False

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
            chats=[c.row() for c in b.chat_settings],
            users=list(b.user_settings),
            looks=list(b.user_cards),
            moves=[m for m in b.moves if m.old_scope != m.new_scope],
            shown=[(m.key, m.version) for m in b.shown],
            deadlines={
                m.key: [(m.key, d.kind, d.due, d.version) for d in m.deadlines]
                for m in b.shown
                if m.deadlines is not None
            },
            expect=dict(b.expect),
            assets=list(b.card_assets),
            unsent=list(b.unsent),
            games=list(b.games),
            rebuild_ratings=b.rebuild_ratings,
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
    looks: list[tuple[Any, ...]] = field(default_factory=list)
    revs: dict[str, int] = field(default_factory=dict)  # every key's, once applied (0: none)
    # card pictures: (platform, version, name) -> ref, the latest batch's (None: forgotten)
    assets: dict[tuple[str, int, str], str | None] = field(default_factory=dict)
    # chats owed replies: (chat, holder) -> since, the latest batch's (None: cleared)
    unsent: dict[tuple[str, str], float | None] = field(default_factory=dict)
    games: list[GameResult] = field(default_factory=list)  # in the order the batches came
    rebuild_ratings: bool = False

    def ratings_moves(self) -> list[tuple[str, str]]:
        """The chats that became others, ``(old scope, new scope)``, for the ratings."""
        return [(m.old_scope, m.new_scope) for m in self.moves]

    def unsent_rows(self) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        """The marks to write ``(chat, holder, since)`` and to clear ``(chat, holder)``, by
        chat (one order of rows for every transaction). Any order of the two is right: a
        clear removes its own holder's mark only."""
        put = sorted((c, h, t) for (c, h), t in self.unsent.items() if t is not None)
        drop = sorted((c, h) for (c, h), t in self.unsent.items() if t is None)
        return put, drop

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
        p.looks.extend(b.looks)
        for a in b.assets:
            p.assets[(a.platform, a.version, a.name)] = a.ref
        for u in b.unsent:
            p.unsent[(u.chat, u.holder)] = u.since
        p.games.extend(b.games)
        p.rebuild_ratings = p.rebuild_ratings or b.rebuild_ratings
    # every statement writes a row's final revision: their order does not matter
    for k, row in p.tables.items():
        row["rev"] = cur[k]
    p.shown = [(k, v, cur[k]) for k, v in shown]
    p.revs = cur
    return p


class Listening(Protocol):
    """A ``Store.listen`` under way."""

    async def close(self) -> None:
        """Stop listening."""


class Store(Protocol):
    """What the service needs from storage: SQLite (``SqliteStore``, one process) or
    PostgreSQL (``bot.store.postgres.PostgresStore``, several processes sharing the database).

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
    async def chat_settings(self, scope: str) -> ChatSettings: ...
    async def user_lang(self, user: str) -> str | None: ...
    async def user_cards(self, user: str) -> str | None: ...
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
    # telling the other processes (a shared store's; one of its own has nobody to tell)
    async def notify(self, channel: str, payload: str) -> None: ...
    async def listen(
        self, channel: str, heard: Callable[[str], None], lost: Callable[[], None] | None = None
    ) -> Listening: ...
    async def pace(
        self, name: str, now: float, interval: float, burst: int, spare: int = 0
    ) -> float: ...
    async def tables_unshown(self, prefix: str, since: float, until: float) -> list[Table]: ...
    async def unsent(self, prefix: str, before: float) -> list[Unsent]: ...
    async def take_unsent(
        self, prefix: str, holder: str, before: float, now: float
    ) -> list[Unsent]: ...
    # the ratings (``bot.store.ratings.RatingReads``)
    async def ladder(self, scope: str, season: str, limit: int = 10) -> list[Rating]: ...
    async def player_ratings(self, player: str, scopes: Sequence[str]) -> list[Rating]: ...
    async def rated_named(self, scope: str, name: str) -> list[str]: ...
    async def game_results(self) -> list[GameResult]: ...


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
    for entry in resources.files("bot.store.sql").iterdir():
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


_FLOWS_MAX = 10_000  # paced flows kept in memory before the idle ones are forgotten
