"""The table service: the one path every action takes (ARCHITECTURE.md).

1. An adapter calls a method with ``(table_key, player, action, seen_version)``.
2. Under the table's lock the service checks the version, asks the engine, and builds
   the new table.
3. The new state, the action and the re-armed timers are committed to the store in one
   transaction (``Store.write``) before anything is shown.
4. Then the port shows it: the public table, private hands, announcements.
Timers and bot seats come in through the same path.

Several processes may share one database (PostgreSQL: ``Store.shared``). The lock above is
then this process's only; across processes the store's is the one that counts: a change
is committed only on the stored revision of the table it was built on (``Table.rev``, the
``expect`` of its batch, checked under the database's lock on the table). A process whose
copy was older gets ``Stale``, reloads the table and decides again (a refusal, or a
deadline that changes nothing, is decided again on the stored table too before it is
told). Reads (``table``, ``hand``, ``legal``) check the copy's revision first. A due
deadline fires where it is claimed (``Store.claim``): one process fires each; every second
each process also looks for deadlines overdue that nobody holds (a dead process's) and
fires those. Nothing lives only in one process's memory: what it keeps is a cache.

The action log (``actions``) alone rebuilds every game: ``Start`` records the players, the
rules and the seed (``engine.new_game``), ``Join`` a player dealt in between rounds
(``engine.join``), ``Rules`` a change of rules between rounds (``engine.set_rules``);
every other record is an engine action (``bot.codec``) applied by its ``player``, timeouts
and bot moves included. Each record carries the table version it produced.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import engine
from bot import ai, intents, policy
from bot.codec import action_to_dict
from bot.config import Settings
from bot.expert import Experts, Move
from bot.metrics import Metrics
from bot.model import (
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    STOPPED,
    Deadline,
    Pending,
    Recent,
    Seat,
    Table,
)
from bot.names import clean_name, fallback_name
from bot.port import Notice, Port, TableInfo, on_table, reports_shown
from bot.render import table_line
from bot.store import (
    ActionRecord,
    ScopeMove,
    ShownMark,
    Stale,
    StatLine,
    StatUpdate,
    Store,
    WriteBatch,
)
from bot.timers import Timers
from engine import (
    Action,
    CallUno,
    CardPlayed,
    CardsDrawn,
    CatchUno,
    ChallengeResolved,
    Event,
    GameWon,
    HandsRotated,
    HandsSwapped,
    IllegalAction,
    Leave,
    NextRound,
    Phase,
    RoundStarted,
    RoundWon,
    Rules,
    Timeout,
    redact,
)
from engine.game import ACTIVE
from engine.play import can as can_apply
from engine.rules import check_seating, max_seats, refusal

__all__ = ["GLOBAL", "Result", "Service"]

log = logging.getLogger(__name__)

GLOBAL = "*"  # the statistics scope of every game everywhere
# a turn deadline that fires this much after it was due ran out while the bot was down:
# it still times the turn out (docs/rules.md section 4), but it is no AFK strike
LATE_SECONDS = 30.0
# actions that leave the turn as it was: they do not make other players' buttons stale
_KEEPS_TURN = (CallUno, CatchUno)
# buttons that are never out of date: calling, catching, leaving
_ANY_TIME = (CallUno, CatchUno, Leave)
RECENT = 5  # public lines kept with a table for its message (events, notices)
PENDING = 10  # announcements kept with a table until shown (``Service.shown``)
BEHIND_SECONDS = 24 * 3600.0  # a table closed longer ago than this is not shown again
# several processes on one database: how often a change found its copy stale (another
# process changed the table) is decided again before giving up; how long a claimed deadline
# is this process's to fire; how overdue an unclaimed one must be before any process takes
# it (its own process fires it on time: this is for a dead or stuck one), and how often
# each process looks for those
STALE_TRIES = 8
CLAIM_SECONDS = 5.0
OVERDUE_SECONDS = 2.0
POLL_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Result:
    """What a service call did: ``ok``, or refused with ``code`` (also told to the user)."""

    ok: bool
    code: str | None = None
    table: TableInfo | None = None
    events: tuple[Event, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)


class Refused(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(slots=True)
class _Step:
    """One change being built: the new table, what to log and show."""

    table: Table
    events: list[Event] = field(default_factory=list)
    actions: list[ActionRecord] = field(default_factory=list)
    stats: list[StatUpdate] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    tells: list[tuple[str, Notice]] = field(default_factory=list)
    chat: list[tuple[str, str | None, dict[str, Any] | None, str | None]] = field(
        default_factory=list
    )
    closed: bool = False
    public: list[Event] = field(default_factory=list)  # the events as everyone sees them
    moves: list[Move] = field(default_factory=list)  # each move's, for expert seats' records


class Service:
    """Tables, their games and timers. ``await start()`` restores every open table."""

    def __init__(
        self,
        store: Store,
        port: Port,
        settings: Settings | None = None,
        *,
        clock: Callable[[], float] = time.time,
        mono: Callable[[], float] | None = None,
        seed: int | None = None,
        bot_delay: float | None = None,
        metrics: Metrics | None = None,
        experts: Experts | None = None,
    ) -> None:
        self.store = store
        self.port = port
        self.settings = settings or Settings()
        # other processes write the same database: this one's tables are a cache
        self.shared = bool(getattr(store, "shared", False))
        # who this process is, in the database's claims and in the log
        self.worker = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.metrics = metrics or Metrics(self.worker, store=getattr(store, "dialect", ""))
        self.metrics.watch(self)
        self.clock = clock
        self.bot_delay = self.settings.bot_delay if bot_delay is None else bot_delay
        self._rng = random.Random(seed if seed is not None else secrets.randbits(64))
        # expert seats: tables' public records, searches off the event loop (bot.expert)
        self.experts = experts or Experts(self.settings.expert_workers)
        self._tables: dict[str, Table] = {}
        self._moved_scopes: dict[str, str] = {}  # chats that became others (move_scope)
        # a table's lock lives while someone holds or awaits it (weak values): no lock is
        # kept for each of the many tables a long-running bot has seen
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # deadlines are stored in wall time (``clock``), waited for in monotonic time
        self.timers = Timers(
            self._fire,
            clock,
            mono=mono,
            claim=self._claim if self.shared else None,
            poll=self.poll_overdue if self.shared else None,
            poll_seconds=POLL_SECONDS,
            metrics=self.metrics,
        )

    # -- life cycle ---------------------------------------------------------------------

    async def start(self, *, run_timers: bool = True) -> int:
        """Load every open table and re-arm its deadlines (overdue ones fire at once)."""
        tables = await self.store.load_open_tables()
        now = self.clock()
        clamped = []
        for t in tables:
            # a table already loaded (a change committed while we read) is newer: keep it
            if self._tables.setdefault(t.key, t) is t:
                if self._clamp(t, now):
                    clamped.append(t)
                self.timers.set(t.key, t.deadlines)
        if self.shared and clamped:
            # deadlines are claimed as stored: other processes must see these too
            await asyncio.gather(*(self._store_clamped(t) for t in clamped))
        if run_timers:
            self.timers.start()
        if self.shared:
            log.info("process %s: %d open tables in the shared database", self.worker,
                     len(tables))  # fmt: skip
        else:
            log.info("restored %d open tables", len(tables))
        return len(tables)

    def _clamp(self, t: Table, now: float) -> bool:
        """A restored deadline further away than its kind can ever be (the clock went back
        while the bot was down) is brought to ``now`` plus that length: no table waits
        for what would have been a clock's mistake. Only in memory (on a store of its own:
        the table's next change stores it); whether any was."""
        ds = []
        for d in t.deadlines:
            longest = self._longest(t, d.kind)
            if longest is not None and d.due > now + longest:
                log.warning(
                    "table %s: its %s deadline was %.0f s away, longer than it can be "
                    "(%g s): the clock went back; it is due in %g s",
                    t.key, d.kind, d.due - now, longest, longest,
                )  # fmt: skip
                d = Deadline(d.kind, now + longest, d.version)
            ds.append(d)
        changed = tuple(ds) != t.deadlines
        t.deadlines = tuple(ds)
        return changed

    async def restart_clocks(self, key: str) -> None:
        """Arm table ``key``'s deadlines afresh, each for its full length from now, and store
        them. For a table whose clocks stop while the program is closed: the terminal's,
        whose one person was away with it (a turn that ran out meanwhile would be a strike
        for nobody's fault). Call it after ``start(run_timers=False)``, before the timers
        run; chats' tables keep theirs (one that passed while the bot was down fires)."""
        async with self._lock(key):
            t = self._tables.get(key)
            if t is None:
                return
            now = self.clock()
            fresh = []
            for d in t.deadlines:
                length = self._longest(t, d.kind)
                fresh.append(d if length is None else Deadline(d.kind, now + length, d.version))
            if tuple(fresh) == t.deadlines:
                return
            nt = t.evolve(deadlines=tuple(fresh))
            try:
                await asyncio.shield(
                    self.store.write(WriteBatch(tables=[nt], expect={key: t.rev}))
                )
            except Stale:  # another process has the table: its clocks are that one's
                await self._load(key)
                return
            nt.rev = t.rev + 1
            self._tables[key] = nt
            self.timers.set(key, nt.deadlines)

    async def _store_clamped(self, t: Table) -> None:
        async with self._lock(t.key):
            try:
                await self.store.write(WriteBatch(tables=[t], expect={t.key: t.rev}))
            except Stale:  # another process has it (and stored its own deadlines)
                await self._load(t.key)
                return
            t.rev += 1

    def _longest(self, t: Table, kind: str) -> float | None:
        """The longest a deadline of ``kind`` can be armed for at table ``t``."""
        if kind == "lobby":
            return float(self.settings.lobby_seconds)
        if kind == "bot":
            return self.bot_delay
        if kind == "next_round":
            return self.settings.round_pause_seconds
        g = t.game
        if g is None:
            return None
        wait = self.settings.show_wait_seconds if reports_shown(self.port, t.key) else 0.0
        if kind == "turn":
            secs = (
                g.rules.challenge_seconds if g.phase is Phase.CHALLENGE else g.rules.turn_seconds
            )
            return float(secs) + wait
        if kind.startswith("uno:"):
            return float(g.rules.uno_window_seconds) + wait
        return None

    async def stop(self, grace: float = 5.0) -> None:
        """Stop the timers; deadlines being handled get ``grace`` seconds to finish."""
        await self.timers.stop(grace)
        self.experts.close()

    def _lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def _get(self, key: str) -> Table | None:
        """This process's copy of the table at ``key``, else the stored one. On a shared
        store the copy may be older than the stored table: the commit finds out."""
        t = self._tables.get(key)
        if t is None:
            t = await self._load(key)
        return t

    async def _load(self, key: str) -> Table | None:
        """The stored table at ``key``, kept as this process's copy while it is open. Where
        this process times the table, its timers follow the stored deadlines."""
        t = await self.store.get_table(key)
        if t is not None and policy.is_open(t):
            self._tables[key] = t
        else:
            self._tables.pop(key, None)
        if self.timers.armed(key):
            self.timers.set(key, t.deadlines if t is not None else ())
        return t

    async def _current(self, key: str) -> Table | None:
        """The table at ``key`` as stored now: this process's copy if no other process has
        changed it since (one revision lookup, on a shared store), else reloaded."""
        t = self._tables.get(key)
        if t is None:
            return await self._load(key)
        if self.shared and await self.store.table_rev(key) != t.rev:
            return await self._load(key)
        return t

    async def _newer(self, key: str, t: Table | None) -> tuple[bool, Table | None]:
        """Whether the stored table at ``key`` is not ``t`` (another process changed it),
        and the stored one."""
        rev = await self.store.table_rev(key)
        if rev == (t.rev if t is not None else None):
            return False, t
        return True, await self._load(key)

    # -- reading --------------------------------------------------------------------------

    def info(self, t: Table) -> TableInfo:
        g = t.game
        turn = t.deadline("turn")
        due = None if turn is None else turn.due - self._unseen(t, turn.version)
        return TableInfo(
            key=t.key,
            scope=t.scope,
            version=t.version,
            status=t.status,
            host=t.host,
            seats=t.seats,
            waiting=t.waiting,
            rules=t.rules,
            preset=t.preset,
            lang=t.lang,
            view=engine.view(g, None) if g is not None else None,
            meta=dict(t.meta),
            game_no=t.game_no,
            # a turn not shown yet: as it ends if shown now (its wait for that aside)
            deadline=due,
            recent=t.recent,
            shown=t.shown,
            pending=tuple(p for p in t.pending if p.version > t.shown),
            created=t.created,
            updated=t.updated,
            turn_version=t.turn_version,
        )

    async def table(self, key: str) -> TableInfo | None:
        t = await self._current(key)
        return None if t is None else self.info(t)

    async def hand(self, key: str, player: str) -> engine.View | None:
        """``player``'s private view of the game at ``key`` (``None`` if not seated)."""
        t = await self._current(key)
        g = t.game if t is not None else None
        if g is None or player not in g.players:
            return None
        return engine.view(g, player)

    async def legal(self, key: str, player: str) -> list[Action]:
        t = await self._current(key)
        g = t.game if t is not None else None
        if g is None or t is None or t.status != PLAYING:
            return []
        return engine.legal_actions(g, player)

    def open_tables(self) -> list[str]:
        return [k for k, t in self._tables.items() if policy.is_open(t)]

    async def leaderboard(self, scope: str, limit: int = 10) -> list[StatLine]:
        return await self.store.leaderboard(scope, limit)

    async def player_stats(self, scope: str, player: str) -> StatLine | None:
        return await self.store.player_stats(scope, player)

    async def user_lang(self, user: str) -> str | None:
        return await self.store.user_lang(user)

    async def chat_lang(self, scope: str) -> str | None:
        return (await self.store.chat_settings(scope))[2]

    # -- the one path ---------------------------------------------------------------------

    async def _run(
        self,
        key: str,
        user: str | None,
        origin: Any,
        build: Callable[[Table | None], _Step | None],
    ) -> Result:
        """Lock the table, build the change, commit it, show it. Refusals go to ``user``."""
        called = time.perf_counter()
        if not isinstance(key, str):  # forged input: never a lock, a query or a crash
            log.info("refused no_table for %r at %r: not a table key", user, key)
            self.metrics.refused("?", "no_table")
            if isinstance(user, str):
                await self._tell(str(key), user, Notice("no_table"), origin)
            return Result(False, "no_table")
        async with self._lock(key):
            t = self._tables.get(key)
            # a copy read just now is current; a kept one, on a shared store, may not be
            checked = not self.shared or t is None
            if t is None:
                t = await self._load(key)
            for _ in range(STALE_TRIES):
                try:
                    step = build(t)
                except Refused as r:
                    if not checked:  # decided on the stored table, not on an old copy
                        checked = True
                        newer, t = await self._newer(key, t)
                        if newer:
                            continue
                    log.info("refused %s for %r at %s: %s", r.code, user, key, r.params or "")
                    self.metrics.refused(key, r.code)
                    if isinstance(user, str):
                        await self._tell(key, user, Notice(r.code, r.params), origin)
                    return Result(False, r.code, self.info(t) if t else None, params=r.params)
                if step is None:
                    if not checked:
                        checked = True
                        newer, t = await self._newer(key, t)
                        if newer:
                            continue
                    return Result(True, None, self.info(t) if t else None)
                self._keep_recent(step)
                try:
                    await self._commit(step, t)
                except Stale:
                    # another process changed the table since this copy: decide again on
                    # the stored one (nothing of this step was written, nor shown)
                    log.info("table %s changed in another process: deciding again", key)
                    self.metrics.stale()
                    t, checked = await self._load(key), True
                    continue
                kinds = (a.action.get("type", "?") for a in step.actions)
                self.metrics.committed(key, kinds, time.perf_counter() - called)
                info = self.info(step.table)
                await self._show(t, step, origin, info)
                return Result(True, None, info, tuple(step.events))
            raise RuntimeError(f"table {key} kept changing: not changed after {STALE_TRIES} tries")

    def _keep_recent(self, step: _Step) -> None:
        """The step's public lines join the table's recent ones (the last ``RECENT``),
        committed with it: its events as everyone sees them, and the notices the port
        shows on the table message rather than as news of their own."""
        t = step.table
        status = t.status
        step.public = [redact(e, None) for e in step.events]  # shown on the table too
        new = [Recent.of_event(status, p) for p in step.public if table_line(p)]
        news: list[Pending] = []
        for n in step.notices:
            if on_table(self.port, t.key, status, n):
                new.append(Recent.of_notice(status, n.code, n.params))
            else:
                news.append(Pending(t.version, n.code, n.params, status))
        if new:
            t = step.table = t.evolve(recent=(*t.recent, *new)[-RECENT:])
        if news or t.pending:
            # kept until the port reports them shown (``shown``): a restart makes them
            # still; the last few only, for a port that never reports
            kept = [p for p in t.pending if p.version > t.shown]
            step.table = t.evolve(pending=tuple([*kept, *news][-PENDING:]))

    async def _commit(self, step: _Step, base: Table | None) -> None:
        """Store ``step``, built on ``base`` (raises ``Stale``, nothing stored, if the stored
        table is no longer ``base``)."""
        # shielded: once a change is handed to the store it is stored, and memory and the
        # timers must follow it even if the caller is cancelled meanwhile (shutdown)
        await asyncio.shield(self._store_and_keep(step, base.rev if base is not None else 0))

    async def _store_and_keep(self, step: _Step, rev: int) -> None:
        t = step.table
        await self.store.write(
            WriteBatch(
                tables=[t],
                actions=step.actions,
                stats=step.stats,
                chat_settings=step.chat,
                expect={t.key: rev},
            )
        )
        t.rev = rev + 1  # the write of the row on that revision made this one
        if policy.is_open(t):
            self._tables[t.key] = t
            if step.moves and any(s.bot == "expert" for s in t.seats):
                self.experts.record(t.key, t.rules, step.moves)
        else:
            self._tables.pop(t.key, None)
            self.experts.forget(t.key)
        self.timers.set(t.key, t.deadlines)

    async def _tell(self, key: str, user: str, notice: Notice, origin: Any) -> None:
        try:
            await self.port.tell(key, user, notice, origin)
        except Exception:
            log.exception("port.tell failed for %s at %s", user, key)

    async def _show(self, before: Table | None, step: _Step, origin: Any, info: TableInfo) -> None:
        t = step.table
        port = self.port
        # each call on its own: one failing (a platform error) must not keep the others
        # (a revealed hand, the closing of a finished table's buttons) from being shown
        calls: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("table", lambda: port.show_table(info, step.public))
        ]
        g = t.game
        if g is not None and step.events:
            for p in self._hand_audience(before, t, step.events):
                calls.append(("hand", partial(self._show_hand, info, g, p, step.events)))
        calls.extend(("announce", partial(port.announce, info, n)) for n in step.notices)
        calls.extend(("tell", partial(port.tell, t.key, u, n, origin)) for u, n in step.tells)
        if step.closed:
            calls.append(("closed", partial(port.closed, info)))
        for what, call in calls:
            try:
                await call()
            except Exception:
                log.exception("showing %s of table %s failed", what, t.key)

    async def _show_hand(
        self, info: TableInfo, g: engine.Game, player: str, events: Sequence[Event]
    ) -> None:
        await self.port.show_hand(
            info, player, engine.view(g, player), [redact(e, player) for e in events]
        )

    @staticmethod
    def _hand_audience(before: Table | None, t: Table, events: Sequence[Event]) -> list[str]:
        """The people whose private hand display should change."""
        g = t.game
        assert g is not None
        humans = {s.id for s in t.seats if s.bot is None}
        if not humans:
            return []
        touched: set[str] = set()
        if g.current is not None:
            touched.add(g.current)
        old = before.game if before is not None else None
        if old is not None and old.current is not None:
            touched.add(old.current)
        for e in events:
            if isinstance(e, CardPlayed | CardsDrawn):
                touched.add(e.player)
            elif isinstance(e, HandsSwapped):
                touched.update((e.player, e.target))
            elif isinstance(e, HandsRotated | RoundStarted):
                touched.update(g.players)
            elif isinstance(e, ChallengeResolved):
                touched.update((e.challenger, e.offender))
        seated = set(g.players)
        return [p for p in g.players if p in touched and p in humans and p in seated]

    # -- lobby ----------------------------------------------------------------------------

    async def create(
        self,
        key: str,
        scope: str,
        host: str,
        host_name: str,
        *,
        lang: str | None = None,
        preset: str | None = None,
        overrides: dict[str, Any] | None = None,
        seat_host: bool = True,
        origin: Any = None,
    ) -> Result:
        """Open a lobby at ``key`` hosted by ``host`` (refused if a table is open there).
        ``seat_host=False`` opens it without seating the host (an all-bot table)."""
        c_preset, c_over, c_lang = await self.store.chat_settings(scope)
        explicit = preset is not None or overrides is not None
        preset = preset or c_preset or self.settings.default_preset
        over = dict(c_over or {}) if overrides is None else dict(overrides)
        bad: dict[str, Any] | None = None
        try:
            Rules.preset(preset, **over)
        except ValueError as e:
            if explicit:
                bad = _setting_error(e)  # what the user asked for: tell them
            # the chat's saved rules no longer valid (an older version's flag): defaults
            preset, over = self.settings.default_preset, {}
        now = self.clock()

        def build(t: Table | None) -> _Step:
            if t is not None and policy.is_open(t):
                raise Refused("table_exists")
            if bad is not None:
                raise Refused("bad_setting", **bad)
            nt = Table(
                key=key,
                scope=scope,
                host=host,
                status=LOBBY,
                version=(t.version + 1) if t else 1,
                turn_version=(t.version + 1) if t else 1,
                game_no=(t.game_no if t else 0),
                seats=(_seat(host, host_name),) if seat_host else (),
                preset=preset,
                overrides=over,
                lang=lang or c_lang,
                seed=self._rng.getrandbits(63),
                meta={},
                created=now,
                updated=now,
                shown=t.shown if t else 0,  # the key's versions go on: so does what was shown
            )
            return _Step(self._arm(nt))

        return await self._run(key, host, origin, build)

    async def join(self, key: str, player: str, name: str, *, origin: Any = None) -> Result:
        """Sit down: in the lobby, or (mid-game) for the next round."""

        def build(t: Table | None) -> _Step:
            t = _open(t)
            g = t.game
            seated = t.seat(player) is not None and (
                t.status == LOBBY or player in t.waiting or (g is not None and player in g.players)
            )
            if seated:
                raise Refused("already_joined")
            _next_round_ahead(t)
            if self._count(t) >= max_seats(t.rules):
                raise Refused("table_full")
            if t.status == PLAYING and t.rules.partners:
                raise Refused("teams_fixed")
            if t.seat(player) is not None:  # coming back: same place, refreshed name
                seats = tuple(_seat(player, name) if s.id == player else s for s in t.seats)
            else:
                seats = (*t.seats, _seat(player, name))
            if t.status == LOBBY:
                return _Step(self._touch(t, seats=seats))
            step = _Step(self._touch(t, seats=seats, waiting=(*t.waiting, player)))
            step.tells.append((player, Notice("info.next_round")))
            return step

        return await self._run(key, player, origin, build)

    def _count(self, t: Table) -> int:
        if t.status == LOBBY:
            return len(t.seats)
        g = t.game
        return (len(g.players) if g is not None else 0) + len(t.waiting)

    async def add_bot(
        self,
        key: str,
        by: str,
        strategy: str = "smart",
        *,
        admin: bool = False,
        origin: Any = None,
    ) -> Result:
        """Add a bot seat (host or admin; lobby, or for the next round)."""
        if strategy not in ai.STRATEGIES:
            strategy = "smart"

        def build(t: Table | None) -> _Step:
            t = _open(t)
            _host_or_admin(t, by, admin)
            _next_round_ahead(t)
            if self._count(t) >= max_seats(t.rules):
                raise Refused("table_full")
            if t.status == PLAYING and t.rules.partners:
                raise Refused("teams_fixed")
            used = {s.id for s in t.seats}
            # numbered after every bot seat, also those named by the key a table had
            # before it moved (see ``move_scope``): "b2" names one seat only
            taken = {s.id.rpartition(":")[2] for s in t.seats if s.bot is not None}
            n = 1
            while f"bot:{t.key}:{n}" in used or str(n) in taken:
                n += 1
            seat = _seat(f"bot:{t.key}:{n}", f"Bot {n}", strategy)
            if t.status == LOBBY:
                return _Step(self._touch(t, seats=(*t.seats, seat)))
            return _Step(self._touch(t, seats=(*t.seats, seat), waiting=(*t.waiting, seat.id)))

        return await self._run(key, by, origin, build)

    async def leave(self, key: str, player: str, *, origin: Any = None) -> Result:
        """Leave the table (mid-game: the engine's Leave policy)."""
        return await self._remove(key, player, player, admin=False, origin=origin)

    async def kick(
        self, key: str, by: str, target: str, *, admin: bool = False, origin: Any = None
    ) -> Result:
        """Remove ``target`` (the host, or a chat admin as the adapter reports)."""
        return await self._remove(key, by, target, admin=admin, origin=origin)

    async def _remove(self, key: str, by: str, target: str, *, admin: bool, origin: Any) -> Result:
        def build(t: Table | None) -> _Step:
            t = _open(t)
            if by != target:
                _host_or_admin(t, by, admin)
            seat = t.seat(target)
            g = t.game
            in_game = g is not None and t.status == PLAYING and target in g.players
            if seat is None or (t.status == PLAYING and not in_game and target not in t.waiting):
                raise Refused("not_seated")
            notice = Notice("info.left" if by == target else "info.kicked", _who(t, target))
            if t.status == LOBBY or not in_game:
                seats = tuple(s for s in t.seats if s.id != target)
                waiting = tuple(p for p in t.waiting if p != target)
                nt = self._touch(t, seats=seats if t.status == LOBBY else t.seats, waiting=waiting)
                step = _Step(nt)
                step.notices.append(notice)
                return self._after_membership(step)
            step = _Step(t)
            self._apply(step, target, Leave(), source="kick" if by != target else "player")
            step.notices.append(notice)
            return self._after_membership(step)

        return await self._run(key, by, origin, build)

    def _after_membership(self, step: _Step) -> _Step:
        """A host who left hands the table on; a table with no person left closes."""
        t = step.table
        g = t.game
        if not policy.is_open(t):
            return step
        if t.status == LOBBY:
            present = [s for s in t.seats if s.bot is None]
        else:
            here = set(g.players if g is not None else ()) | set(t.waiting)
            present = [s for s in t.seats if s.bot is None and s.id in here]
        if not present:
            step.table = self._arm(self._touch(t, status=STOPPED))
            step.closed = True
            step.notices.append(Notice("info.closed_empty"))
            return step
        if t.host not in {s.id for s in present} and present:
            step.table = self._arm(self._touch(step.table, host=present[0].id))
            step.notices.append(Notice("info.new_host", _who(t, present[0].id)))
        return step

    async def configure(
        self,
        key: str,
        by: str,
        *,
        preset: str | None = None,
        overrides: dict[str, Any] | None = None,
        admin: bool = False,
        origin: Any = None,
    ) -> Result:
        """Change the table's rules: a preset, and/or flags (``overrides`` merged in; a flag
        set to its preset value is dropped). Lobby, or between rounds; host or admin."""

        def build(t: Table | None) -> _Step:
            t = _open(t)
            _host_or_admin(t, by, admin)
            g = t.game
            if not policy.may_configure(t):
                raise Refused("not_mid_round")
            new_preset = preset or t.preset
            over = dict(t.overrides) if preset is None else {}
            over.update(overrides or {})
            try:
                rules = Rules.preset(new_preset, **over)
            except ValueError as e:
                raise Refused("bad_setting", **_setting_error(e)) from None
            base = Rules.preset(new_preset)
            over = {
                k: v for k, v in rules.model_dump(mode="json").items()
                if getattr(base, k) != getattr(rules, k)
            }  # fmt: skip
            if self._count(t) > max_seats(rules):
                raise Refused("table_full")
            changes: dict[str, Any] = {"preset": new_preset, "overrides": over}
            if g is not None and t.status == PLAYING:
                try:
                    check_seating(len(g.players), rules, before=g.rules)
                    changes["game"] = engine.set_rules(g, rules)
                except (IllegalAction, ValueError) as e:
                    raise Refused("bad_setting", **_setting_error(e)) from None
            step = _Step(self._touch(t, **changes))
            if "game" in changes:  # the game's rules changed: the log must say so
                step.actions.append(
                    self._record(step.table, by, {"type": "Rules", "rules": rules.to_json_dict()})
                )
            step.chat.append((t.scope, new_preset, over, None))
            return step

        return await self._run(key, by, origin, build)

    async def set_chat_language(self, key: str, scope: str, lang: str | None) -> Result:
        """The chat's language (``None``: back to the platform's default), applied to every
        open table of the chat (all its forum topics or threads). The adapter checks who
        may do it. The result is the table at ``key``, if one is open."""
        # the chat's lock: a move of the chat (``move_scope``) waits, or is waited for,
        # so the setting is never written to a chat whose settings just moved away
        async with self._lock(_scope_lock(scope)):
            scope = self._moved_scopes.get(scope, scope)  # the chat moved meanwhile
            if self.shared:  # tables another process has open count too
                others = [k for k in await self._keys_of(scope) if k != key]
            else:
                others = [k for k, t in self._tables.items() if t.scope == scope and k != key]
            first = Result(True)
            for k in [key, *others]:

                def build(t: Table | None) -> _Step | None:
                    if t is None or not policy.is_open(t) or t.scope != scope:
                        return None
                    return _Step(self._touch(t, lang=lang))

                res = await self._run(k, None, None, build)
                if k == key:
                    first = res
            await self.store.write(WriteBatch(chat_settings=[(scope, None, None, lang or "")]))
            return first

    async def chat_settings(self, scope: str) -> tuple[str | None, dict[str, Any], str | None]:
        """A chat's saved defaults: (preset, flag overrides, language)."""
        preset, over, lang = await self.store.chat_settings(scope)
        return preset, dict(over or {}), lang

    async def rules_of(self, key: str, scope: str) -> tuple[Rules, str | None]:
        """What ``/rules`` shows: the open table's rules and preset, else the chat's saved
        defaults (the official rules if those are no longer valid: an older version's flag)."""
        info = await self.table(key)
        if info is not None and policy.is_open(info):
            return info.rules, info.preset
        preset, over, _lang = await self.chat_settings(scope)
        name = preset or self.settings.default_preset
        try:
            return Rules.preset(name, **over), name
        except ValueError:
            return Rules(), "official"

    def tables_of(self, player: str) -> list[TableInfo]:
        """The open tables where ``player`` is seated, waiting or hosting (in memory)."""
        out = []
        for t in self._tables.values():
            if not policy.is_open(t):
                continue
            if t.host == player or player in t.waiting or t.seat(player) is not None:
                g = t.game
                gone = t.status == PLAYING and g is not None and player not in g.players
                if gone and player not in t.waiting and t.host != player:
                    continue  # left this game
                out.append(self.info(t))
        return out

    async def set_user_language(self, user: str, lang: str | None) -> None:
        await self.store.write(WriteBatch(user_settings=[(user, lang)]))

    async def user_cards(self, user: str) -> str | None:
        """How ``user`` wants their cards shown (``intents.CARD_LOOKS``); ``None``: as the
        platform shows them by default (its pictures, where it has them)."""
        look = await self.store.user_cards(user)
        return look if look in intents.CARD_LOOKS else None

    async def set_user_cards(self, user: str, look: str | None) -> None:
        if look is not None and look not in intents.CARD_LOOKS:
            raise ValueError(f"not a way to show cards: {look!r}")
        await self.store.write(WriteBatch(user_cards=[(user, look)]))

    async def set_meta(self, key: str, **meta: Any) -> None:
        """Adapter data kept with the table (message ids...). Not a game change (the
        version stays), but a write of the row on the revision it read: another process's
        data, or change, is never overwritten."""
        await self.change_meta(key, lambda _: meta)

    async def change_meta(
        self, key: str, decide: Callable[[TableInfo], dict[str, Any] | None]
    ) -> TableInfo | None:
        """Change adapter data kept with the table as ``decide`` says on seeing the table
        as stored: the entries it returns are set (``None`` removes one), nothing if it
        returns nothing. A compare-and-set among processes: written on the revision read,
        and decided again on the stored table if another process wrote it meanwhile (so
        that one process may claim a message only one may send). Returns the table as
        stored then (``None``: no table at ``key``)."""
        async with self._lock(key):
            t = await self._get(key)
            for _ in range(STALE_TRIES):
                if t is None:
                    return None
                changes = decide(self.info(t))
                if not changes:
                    if self.shared:  # decided on the stored table, not on an old copy
                        newer, t = await self._newer(key, t)
                        if newer:
                            continue
                    return self.info(t) if t is not None else None
                meta = {**t.meta, **changes}
                nt = t.evolve(meta={k: v for k, v in meta.items() if v is not None})
                try:
                    await self.store.write(WriteBatch(tables=[nt], expect={key: t.rev}))
                except Stale:
                    self.metrics.stale()
                    t = await self._load(key)
                    continue
                nt.rev = t.rev + 1
                if policy.is_open(nt):
                    self._tables[key] = nt
                return self.info(nt)
            raise RuntimeError(f"table {key} kept changing: its data not kept")

    async def move_scope(
        self,
        old_scope: str,
        new_scope: str,
        rekey: Callable[[str], str],
        *,
        meta: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
    ) -> dict[str, TableInfo]:
        """A chat became another (a Telegram group upgraded to a supergroup has a new id):
        every table of ``old_scope``, open or not, moves to ``new_scope`` at key
        ``rekey(old_key)``, with its deadlines and action log, its adapter data passed
        through ``meta``; the chat's settings move too (those the new chat has set win)
        and its statistics add up in the new chat's. One transaction, under the locks of
        every key concerned; nothing changes version (the buttons of private hands stay
        good). Idempotent: once moved, a second call finds nothing left to move.

        Returns ``{old key: table}`` for each table moved. Nothing is shown: the adapter
        decides how the moved tables appear in the new chat. A table whose new key holds
        a table already stays where it was (the new chat's own table is never lost)."""
        if old_scope == new_scope:
            return {}
        async with contextlib.AsyncExitStack() as chats:
            for scope in sorted((old_scope, new_scope)):  # see set_chat_language
                await chats.enter_async_context(self._lock(_scope_lock(scope)))
            moved = await self._move_locked(old_scope, new_scope, rekey, meta)
            self._moved_scopes[old_scope] = new_scope
            return moved

    async def _move_locked(
        self,
        old_scope: str,
        new_scope: str,
        rekey: Callable[[str], str],
        meta: Callable[[dict[str, Any]], dict[str, Any]] | None,
    ) -> dict[str, TableInfo]:
        for _ in range(STALE_TRIES):
            keys = await self._keys_of(old_scope)
            pairs = {k: rekey(k) for k in keys}
            async with contextlib.AsyncExitStack() as stack:
                # always in the same order: two moves never wait on each other's locks
                for k in sorted({*pairs, *pairs.values()}):
                    await stack.enter_async_context(self._lock(k))
                if not set(await self._keys_of(old_scope)) <= set(pairs):
                    continue  # a table opened in the old chat meanwhile: lock it too
                try:
                    return await asyncio.shield(self._move(old_scope, new_scope, pairs, meta))
                except Stale as e:  # another process changed one: read them all again
                    for k in e.keys:
                        self._tables.pop(k, None)
        raise RuntimeError(f"tables of {old_scope} kept changing: not moved")

    async def _keys_of(self, scope: str) -> list[str]:
        keys = set(await self.store.table_keys(scope))
        keys.update(k for k, t in self._tables.items() if t.scope == scope)
        return sorted(keys)

    async def _move(
        self,
        old_scope: str,
        new_scope: str,
        pairs: dict[str, str],
        meta: Callable[[dict[str, Any]], dict[str, Any]] | None,
    ) -> dict[str, TableInfo]:
        moved: list[tuple[str, Table]] = []
        expect: dict[str, int] = {}
        for old, new in sorted(pairs.items()):
            t = await self._get(old)
            if t is None or t.scope != old_scope:
                continue
            there = await self._get(new) if new != old else None
            # the new chat's own open table is never lost; a closed one (a game over, a
            # lobby stopped) gives way to an open table moving in, whose write replaces its
            # row and deadlines (its action log stays, under its own game numbers)
            if there is not None and (
                there.status in OPEN_STATUSES or t.status not in OPEN_STATUSES
            ):
                log.warning("table %s not moved to %s: a table is there already", old, new)
                continue
            data = dict(t.meta)
            nt = t.evolve(key=new, scope=new_scope, meta=meta(data) if meta else data)
            moved.append((old, nt))
            # both rows as read: the old one is deleted, the new one written, on them
            expect[new] = there.rev if there is not None else 0
            expect[old] = t.rev
        batch = WriteBatch(
            tables=[nt for _, nt in moved],
            moves=[ScopeMove(old_scope, new_scope, tuple((o, nt.key) for o, nt in moved))],
            expect=expect,
        )
        await self.store.write(batch)
        out: dict[str, TableInfo] = {}
        for old, nt in moved:
            # a row re-keyed is a new row on the new key's revision; kept where it was, on
            # its own
            nt.rev = (expect[nt.key] if nt.key != old else nt.rev) + 1
            self._tables.pop(old, None)
            self.timers.set(old, ())
            if policy.is_open(nt):
                self._tables[nt.key] = nt
            self.timers.set(nt.key, nt.deadlines)
            out[old] = self.info(nt)
        if moved:
            log.info("moved %d tables from %s to %s", len(moved), old_scope, new_scope)
        return out

    async def start_game(
        self, key: str, by: str, *, admin: bool = False, origin: Any = None
    ) -> Result:
        """Deal: the lobby's seats (2 to 10 per deck) become a game."""

        def build(t: Table | None) -> _Step:
            t = _open(t)
            if t.status != LOBBY:
                raise Refused("already_started")
            _host_or_admin(t, by, admin)
            rules = t.rules
            ids = [s.id for s in t.seats]
            if len(ids) < 2:
                raise Refused("not_enough_players")
            if len(ids) > max_seats(rules):
                raise Refused("table_full")
            try:
                check_seating(len(ids), rules)
                g, events = engine.new_game_events(ids, rules, seed=t.seed)
            except ValueError as e:
                raise Refused("bad_setting", **_setting_error(e)) from None
            nt = self._touch(
                t, status=PLAYING, game=g, game_no=t.game_no + 1, played={}, strikes={}
            )
            nt.turn_version = nt.version
            step = _Step(nt, events=list(events))
            step.moves.append((by, None, [redact(e, None) for e in events]))
            # what ``engine.new_game`` needs, so that the log alone replays the game
            start = {"type": "Start", "players": ids, "rules": rules.to_json_dict()}
            step.actions.append(self._record(nt, by, {**start, "seed": t.seed}))
            step.table = self._arm(nt)
            return step

        return await self._run(key, by, origin, build)

    async def stop_game(
        self, key: str, by: str, *, admin: bool = False, origin: Any = None
    ) -> Result:
        """End the table now (host or admin); scores are not counted."""

        def build(t: Table | None) -> _Step:
            t = _open(t)
            _host_or_admin(t, by, admin)
            step = _Step(self._arm(self._touch(t, status=STOPPED)))
            step.closed = True
            step.notices.append(Notice("info.stopped", _who(t, by)))
            return step

        return await self._run(key, by, origin, build)

    # -- playing --------------------------------------------------------------------------

    async def press(
        self,
        key: str,
        player: str,
        intent: intents.Intent,
        *,
        name: str = "",
        admin: bool = False,
        origin: Any = None,
    ) -> Result | None:
        """Do what a pressed control asks (``bot.intents``), as ``player`` (named ``name``
        when they sit down; ``admin``: the platform says they manage the chat). ``None``
        for an intent that only changes what the presser sees (a page, a menu, the hand):
        the adapter's to show."""
        match intent:
            case intents.Act(action, version):
                return await self.act(key, player, action, seen_version=version, origin=origin)
            case intents.Join():
                return await self.join(key, player, name or player, origin=origin)
            case intents.Leave():
                return await self.leave(key, player, origin=origin)
            case intents.AddBot():
                return await self.add_bot(key, player, admin=admin, origin=origin)
            case intents.Start():
                return await self.start_game(key, player, admin=admin, origin=origin)
            case intents.SetFlag(flag, value):
                return await self.configure(
                    key, player, overrides={flag: value}, admin=admin, origin=origin
                )
            case intents.SetPreset(preset):
                return await self.configure(key, player, preset=preset, admin=admin, origin=origin)
            case intents.Kick(target):
                return await self.kick(key, player, target, admin=admin, origin=origin)
        return None

    async def act(
        self,
        key: str,
        player: str,
        action: Action,
        *,
        seen_version: int | None = None,
        origin: Any = None,
    ) -> Result:
        """A game action by a person. ``seen_version``: the table version their button was
        drawn for; a button older than the turn is refused as ``stale``."""

        def build(t: Table | None) -> _Step:
            t = _open(t)
            if t.status != PLAYING:
                raise Refused("not_started")
            g = t.game
            assert g is not None
            if not isinstance(player, str) or player not in g.players:
                raise Refused("not_a_player")
            if seen_version is not None and (
                not isinstance(seen_version, int) or isinstance(seen_version, bool)
            ):
                raise Refused("bad_action")
            if seen_version is not None and (
                seen_version > t.version
                or (seen_version < t.turn_version and not isinstance(action, _ANY_TIME))
            ):
                raise Refused("stale")
            if isinstance(action, Timeout):
                raise Refused("bad_action")  # only the service's own timers time out
            step = _Step(t)
            if isinstance(action, NextRound):
                self._next_round(step, player, source="player")
            elif isinstance(action, Leave):
                self._apply(step, player, action, source="player")
                step.notices.append(Notice("info.left", _who(t, player)))
                return self._after_membership(step)
            else:
                self._apply(step, player, action, source="player")
            return step

        return await self._run(key, player, origin, build)

    def _apply(self, step: _Step, player: str, action: Action, *, source: str) -> None:
        """Apply one engine action to ``step.table`` (raises ``Refused`` if illegal)."""
        t = step.table
        g = t.game
        assert g is not None
        try:
            g2, events = engine.apply(g, player, action)
        except IllegalAction as err:
            raise Refused(err.code.value) from None
        now = self.clock()
        version = t.version + 1
        turn_version = t.turn_version if isinstance(action, _KEEPS_TURN) else version
        if isinstance(action, Timeout) and action.window == "uno":
            turn_version = t.turn_version
        strikes = dict(t.strikes)
        if source == "player":
            strikes.pop(player, None)
        elif isinstance(action, Timeout) and action.window == "turn" and source == "timer":
            # (a turn that ran out while the bot itself was down is no strike: "late")
            strikes[player] = strikes.get(player, 0) + 1
        played = dict(t.played)
        for e in events:
            if isinstance(e, CardPlayed):
                played[e.player] = played.get(e.player, 0) + 1 + len(e.together)
        nt = t.evolve(
            game=g2,
            version=version,
            turn_version=turn_version,
            strikes=strikes,
            played=played,
            updated=now,
        )
        step.table = nt
        step.events.extend(events)
        step.moves.append((player, action, [redact(e, None) for e in events]))
        step.actions.append(
            ActionRecord(nt.key, nt.game_no, version, player, action_to_dict(action), now)
        )
        for e in events:
            if isinstance(e, ChallengeResolved) and e.hand is not None:
                step.tells.append(
                    (
                        e.challenger,
                        Notice(
                            "info.revealed",
                            {"player": e.offender, "cards": [c.code for c in e.hand]},
                        ),
                    )
                )
            elif isinstance(e, RoundWon):
                won: dict[str, Any] = {"points": e.points, "round": e.round, "reason": e.reason}
                if e.places:  # the places rule: everyone in finishing order
                    won["places"] = list(e.places)
                step.notices.append(Notice("info.round_won", {**_who(nt, e.player), **won}))
                self._count_round(step, e.player, e.places)
        # AFK: a player timed out afk_strikes times in a row leaves
        limit = nt.rules.afk_strikes
        if (
            isinstance(action, Timeout)
            and limit > 0
            and strikes.get(player, 0) >= limit
            and player in g2.players
            and g2.phase in ACTIVE
        ):
            step.notices.append(Notice("info.afk_removed", _who(nt, player)))
            step.table = nt.evolve(strikes={p: n for p, n in strikes.items() if p != player})
            self._apply(step, player, Leave(), source="afk")
            seat = step.table.seat(player)
            if seat is not None and seat.bot is None:
                # leaving by timing out is leaving: the host's role passes on, and a table
                # with nobody left but bots closes
                self._after_membership(step)
            return
        if any(isinstance(e, GameWon) for e in events):
            self._finish(step)
        else:
            step.table = self._arm(step.table)

    def _next_round(self, step: _Step, by: str, *, source: str) -> None:
        t = step.table
        g = t.game
        assert g is not None
        if g.phase is not Phase.ROUND_OVER:
            raise Refused("round_in_progress")
        waiting: list[str] = []
        strikes = dict(t.strikes)
        version = t.version
        for p in t.waiting:  # players who sat down during the round join now
            try:
                g, ev = engine.join(g, p)
            except IllegalAction:
                waiting.append(p)
                continue
            step.events.extend(ev)
            strikes.pop(p, None)
            # in the log too, so that replaying it rebuilds the game
            version += 1
            step.actions.append(
                ActionRecord(t.key, t.game_no, version, p, {"type": "Join"}, self.clock())
            )
        step.table = t.evolve(game=g, waiting=tuple(waiting), version=version, strikes=strikes)
        self._apply(step, by, NextRound(), source=source)

    def _finish(self, step: _Step) -> None:
        t = step.table
        g = t.game
        assert g is not None
        winner = g.winner
        names = t.names
        # fixed partners win as a team; rotating ones (partners=rotate) each for themselves
        wteam = g.team_of(winner) if winner is not None and g.rules.partners is True else None
        for p, score in g.scores.items():
            seat = t.seat(p)
            if seat is None or seat.bot is not None:
                continue  # bots keep no statistics
            won = p == winner or (wteam is not None and g.team_of(p) == wteam)
            for scope in (t.scope, GLOBAL):
                step.stats.append(
                    StatUpdate(
                        scope=scope,
                        player=p,
                        name=names.get(p, p),
                        games=1,
                        wins=1 if won else 0,
                        points=score,
                        cards_played=t.played.get(p, 0),
                    )
                )
        step.notices.append(Notice("info.game_won", _who(t, winner) if winner else {}))
        step.table = self._arm(self._touch(t, status=FINISHED))
        step.closed = True

    def _count_round(self, step: _Step, winner: str, places: Sequence[str] = ()) -> None:
        """A round won by a person counts in their statistics at once; so does each
        person's place in a round played out for places."""
        t = step.table
        seat = t.seat(winner)
        if seat is not None and seat.bot is None:
            for scope in (t.scope, GLOBAL):
                step.stats.append(StatUpdate(scope, winner, seat.name, rounds_won=1))
        for place, p in enumerate(places, 1):
            seat = t.seat(p)
            if seat is None or seat.bot is not None:
                continue
            for scope in (t.scope, GLOBAL):
                step.stats.append(
                    StatUpdate(scope, p, seat.name, rounds_placed=1, places_total=place)
                )

    # -- what was shown ---------------------------------------------------------------------

    async def shown(self, key: str, version: int) -> None:
        """The port showed table ``key`` at ``version`` (the table message for it, or a later
        one, sent or edited; the announcements up to it made): see ``bot.port``. The
        windows that version opened run from now (never shorter than from their commit:
        armed ``show_wait_seconds`` longer until now, on a port that reports); the
        version is kept as the table's ``shown``, its announcements up to it done."""
        if not isinstance(key, str) or not isinstance(version, int):
            return
        async with self._lock(key):
            # on a shared store another process may have shown or changed it since
            t = await self._current(key) if self.shared else self._tables.get(key)
            for _ in range(STALE_TRIES):
                if t is None or not policy.is_open(t):
                    # closed: the mark alone (the store keeps it within the version)
                    alone = WriteBatch(shown=[ShownMark(key, version)])
                    await asyncio.shield(self.store.write(alone))
                    return
                if not t.shown < version <= t.version:  # (past the version: not this table's)
                    return
                now = self.clock()
                wait = self.settings.show_wait_seconds if reports_shown(self.port, key) else 0.0
                deadlines = []
                for d in t.deadlines:
                    secs = self._window(t, d)
                    # opened by a change this message shows, not one shown before: it runs
                    # from now, never shorter than from its commit (armed ``wait`` longer)
                    if secs is not None and t.shown < d.version <= version:
                        due = max(now + secs, d.due - wait)
                        if due != d.due:
                            d = Deadline(d.kind, due, d.version)
                    deadlines.append(d)
                rearmed = tuple(deadlines) != t.deadlines
                nt = t.evolve(
                    shown=version,
                    deadlines=tuple(deadlines),
                    pending=tuple(p for p in t.pending if p.version > version),
                    rev=t.rev + 1,
                )
                mark = ShownMark(key, version, nt.deadlines if rearmed else None)
                try:  # on the revision read: deadlines re-armed on an old copy would undo
                    batch = WriteBatch(shown=[mark], expect={key: t.rev})
                    await asyncio.shield(self.store.write(batch))
                except Stale:
                    self.metrics.stale()
                    t = await self._load(key)
                    continue
                self._tables[key] = nt
                if rearmed:
                    self.timers.set(key, nt.deadlines)
                return
            raise RuntimeError(f"table {key} kept changing: not marked shown")

    def _unseen(self, t: Table, version: int) -> float:
        """How much longer than its length a window opened at ``version`` of table ``t`` is
        armed: ``show_wait_seconds`` while its port has not reported it shown (and says
        it will), so that its clock starts when it is seen (``bot.port``), else 0."""
        if version <= t.shown or not reports_shown(self.port, t.key):
            return 0.0
        return self.settings.show_wait_seconds

    @staticmethod
    def _window(t: Table, d: Deadline) -> float | None:
        """How long deadline ``d`` gives people to act once they see it (``None``: it is
        nobody's to see: a bot's move, the round pause, the lobby)."""
        g = t.game
        if g is None or t.status != PLAYING:
            return None
        if d.kind == "turn":
            return (
                g.rules.challenge_seconds if g.phase is Phase.CHALLENGE else g.rules.turn_seconds
            )
        if d.kind.startswith("uno:"):
            return g.rules.uno_window_seconds
        return None

    async def behind(self, prefix: str, *, idle: float = 0.0) -> list[TableInfo]:
        """The tables of platform ``prefix`` whose last version was never reported shown:
        open ones, and ones that closed in the last day (a crash came between the commit
        and the message). The adapter shows them again, with their ``pending``
        announcements. ``idle``: only those not changed for that many seconds; on a
        shared store they are looked for in the database (any process's tables: what a
        process that died left unshown), the others being shown by the live processes."""
        start = prefix + ":"
        now = self.clock()
        if self.shared:
            found = await self.store.tables_unshown(prefix, now - BEHIND_SECONDS, now - idle)
            return [self.info(t) for t in found]
        out = [
            self.info(t)
            for k, t in self._tables.items()
            if k.startswith(start)
            and t.status in OPEN_STATUSES
            and t.shown < t.version
            and t.updated <= now - idle
        ]
        for t in await self.store.tables_behind(prefix, now - BEHIND_SECONDS):
            if t.key not in self._tables and t.updated <= now - idle:  # (an open one is newer)
                out.append(self.info(t))
        return out

    # -- timers and bots --------------------------------------------------------------------

    def _arm(self, t: Table) -> Table:
        """``t`` with its deadlines recomputed (kept as they were where nothing changed)."""
        now = self.clock()
        old = {d.kind: d for d in t.deadlines}
        out: list[Deadline] = []
        if t.status == LOBBY:
            out.append(old.get("lobby") or Deadline("lobby", now + self.settings.lobby_seconds, 0))
        elif t.status == PLAYING:
            g = t.game
            assert g is not None
            rules = g.rules
            if g.phase in ACTIVE:
                prev = old.get("turn")
                if prev is not None and prev.version == t.turn_version:
                    out.append(prev)
                else:
                    secs = (
                        rules.challenge_seconds
                        if g.phase is Phase.CHALLENGE
                        else rules.turn_seconds
                    ) + self._unseen(t, t.turn_version)
                    out.append(Deadline("turn", now + secs, t.turn_version))
                if rules.uno_window_seconds > 0:
                    for p in g.exposed_players:
                        kind = f"uno:{p}"
                        # the version that opened the window: ``shown`` re-arms it from
                        # the moment that version is seen (until then it cannot run out)
                        window = rules.uno_window_seconds + self._unseen(t, t.version)
                        out.append(old.get(kind) or Deadline(kind, now + window, t.version))
                if self._bot_wants(t):
                    prev = old.get("bot")
                    if prev is not None and prev.version == t.version:
                        out.append(prev)
                    else:
                        out.append(Deadline("bot", now + self.bot_delay, t.version))
            elif g.phase is Phase.ROUND_OVER:
                out.append(
                    old.get("next_round")
                    or Deadline("next_round", now + self.settings.round_pause_seconds, 0)
                )
        t.deadlines = tuple(out)
        return t

    def _bot_wants(self, t: Table) -> bool:
        g = t.game
        if g is None:
            return False
        for s in t.seats:
            if s.bot is None or s.id not in g.players:
                continue
            if g.current == s.id or ai.out_of_turn(g, s.id, s.bot):
                return True
        return False

    async def _fire(self, key: str, d: Deadline) -> None:
        """A deadline is due: act on it if it still applies, through the one path."""

        def build(t: Table | None) -> _Step | None:
            if t is None or t.deadline(d.kind) != d:
                return None  # the table moved on
            if d.kind == "lobby":
                if t.status != LOBBY:
                    return None
                step = _Step(self._arm(self._touch(t, status=STOPPED)))
                step.notices.append(Notice("info.lobby_expired"))
                step.closed = True
                return step
            if t.status != PLAYING:
                return None
            g = t.game
            assert g is not None
            step = _Step(t)
            try:
                if d.kind == "turn":
                    if g.current is None or d.version != t.turn_version:
                        return None
                    late = self.timers.late(key, d) > LATE_SECONDS  # the bot was down
                    self._apply(step, g.current, Timeout(), source="late" if late else "timer")
                elif d.kind.startswith("uno:"):
                    p = d.kind[4:]
                    if p not in g.exposed_players:
                        return None
                    self._apply(step, p, Timeout(window="uno"), source="timer")
                elif d.kind == "next_round":
                    if g.phase is not Phase.ROUND_OVER:
                        return None
                    self._next_round(step, g.players[0], source="timer")
                elif d.kind == "bot":
                    if d.version != t.version or not self._bot_move(step, plan):
                        return None
                else:
                    return None
            except Refused as r:
                log.warning("deadline %s at %s refused: %s", d.kind, key, r.code)
                return None
            return step

        changed = False
        plan = await self._plan(key, d) if d.kind == "bot" else None

        def decide(t: Table | None) -> _Step | None:
            nonlocal changed
            step = build(t)
            changed = step is not None
            return step

        # a deadline that changed nothing stays handed out by the timers: it does not fire
        # again until the table arms a new one
        await self._run(key, None, None, decide)
        if self.shared and not changed:  # nor, kept claimed, in any other process
            await self.store.spend(self.worker, key, d)

    async def _claim(self, due: list[tuple[str, Deadline]]) -> list[tuple[str, Deadline]]:
        """The deadlines of ``due`` this process fires: those it claimed in the database.
        A table whose deadline another process claimed (or changed) is that one's now."""
        granted = await self.store.claim(self.worker, due, self.clock(), CLAIM_SECONDS)
        mine = []
        for key, d in due:
            if (key, d.kind) in granted:
                mine.append((key, d))
            elif self.timers.armed(key).get(d.kind) == d:  # (not re-armed here meanwhile)
                log.debug("table %s: its %s deadline is another process's", key, d.kind)
                self.timers.set(key, ())
                self._tables.pop(key, None)
        return mine

    async def poll_overdue(self) -> int:
        """Claim the deadlines overdue that no process holds (their process died, or is
        stuck) and arm them here: they fire at once. Every ``POLL_SECONDS`` on a shared
        store (the timers call it); returns how many were taken."""
        now = self.clock()
        got = await self.store.claim_overdue(
            self.worker, now - OVERDUE_SECONDS, now, CLAIM_SECONDS, self.timers.max_running
        )
        for key, d in got:
            async with self._lock(key):
                t = await self._current(key)
                if t is None or t.deadline(d.kind) != d:
                    continue  # changed meanwhile: whoever changed it armed the new ones
                self.timers.set(key, t.deadlines)
                self.timers.again(key, d)  # (if it was armed here, and handed out)
        if got:
            log.info("process %s took over %d overdue deadlines", self.worker, len(got))
            self.metrics.taken_over(len(got))
        return len(got)

    async def _plan(self, key: str, d: Deadline) -> tuple[int, str, Action | None] | None:
        """An expert seat whose turn it is at the version of deadline ``d``: its move,
        searched in the experts' worker before the table is locked (the other tables, and
        this one, go on meanwhile). ``None``: no expert to move, or the search failed."""
        t = self._tables.get(key)
        g = t.game if t is not None else None
        if t is None or g is None or t.version != d.version or g.current is None:
            return None
        if not any(s.id == g.current and s.bot == "expert" for s in t.seats):
            return None
        try:
            action = await self.experts.decide(key, g, g.current, self._rng.getrandbits(64))
        except Exception:
            log.exception("table %s: the expert seat's search failed; it plays as smart", key)
            return None
        return t.version, g.current, action

    def _bot_move(self, step: _Step, plan: tuple[int, str, Action | None] | None = None) -> bool:
        t = step.table
        g = t.game
        assert g is not None
        bots = [s for s in t.seats if s.bot is not None and s.id in g.players]
        # the bot whose turn it is first, then any bot that would act out of turn
        bots.sort(key=lambda s: s.id != g.current)
        for s in bots:
            assert s.bot is not None
            if g.current != s.id and not ai.out_of_turn(g, s.id, s.bot):
                continue
            if s.bot != "expert":
                action = ai.choose(g, s.id, s.bot, self._rng)
            elif (
                plan is not None
                and plan[:2] == (t.version, s.id)
                and plan[2] is not None
                and can_apply(g, s.id, plan[2])
            ):
                action = plan[2]  # searched on this very version
            else:  # out of turn (or its search did not come): as smart
                action = ai.choose(g, s.id, "smart", self._rng)
            if action is None:
                continue
            self._apply(step, s.id, action, source="bot")
            return True
        return False

    # -- helpers ---------------------------------------------------------------------------

    def _touch(self, t: Table, **changes: Any) -> Table:
        """A new version of ``t``."""
        nt = t.evolve(version=t.version + 1, updated=self.clock(), **changes)
        return nt

    def _record(self, t: Table, player: str, action: dict[str, Any]) -> ActionRecord:
        return ActionRecord(t.key, t.game_no, t.version, player, action, self.clock())


def _seat(player: str, name: str, bot: str | None = None) -> Seat:
    """The one place a name enters a table (and, through its seats, the statistics):
    cleaned for display on every platform (``bot.names``)."""
    return Seat(player, clean_name(name, fallback_name(player)), bot)


def _who(t: Table, player: str) -> dict[str, Any]:
    """Notice parameters naming ``player`` (with their name: they may have left)."""
    return {"player": player, "name": t.name(player)}


def _open(t: Table | None) -> Table:
    if t is None or not policy.is_open(t):
        raise Refused("no_table")
    return t


def _next_round_ahead(t: Table) -> None:
    """Sitting down mid-game is for the next round: refused when there is none (a game of
    a single round, ``target`` 0; whether a game ends at this round is known only then)."""
    if t.status == PLAYING and t.rules.target == 0:
        raise Refused("no_next_round")


def _host_or_admin(t: Table, by: str, admin: bool) -> None:
    if not policy.may_manage(t, by, admin):
        raise Refused("not_host")


def _setting_error(e: Exception) -> dict[str, Any]:
    """Why rules were refused, as notice parameters a translation can use: ``reason`` (a
    code of ``engine.rules.REASONS``), the ``flag`` concerned and the refusal's parameters
    (``other``: the flag it conflicts with); ``detail`` is the English text, for the log.
    Read from the refusal's data (``engine.rules.refusal``), never from its text."""
    r = refusal(e)
    out: dict[str, Any] = {"reason": r.reason, **r.params}
    if r.flag is not None:
        out["flag"] = r.flag
    out["detail"] = str(r)
    return out


def _scope_lock(scope: str) -> str:
    """The lock name of a chat as a whole (never a table key: those hold no NUL)."""
    return "\0scope:" + scope
