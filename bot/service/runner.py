"""The one path of every change: under the table's lock, build the step on the table as
stored (``Tries``: decided again when another process changed it), commit it in one write,
then show it through the port. ``Runner`` is the core the service's concerns share: the
store, the port, the cache, the timers, and ``_run``."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from functools import partial

import engine
from bot import policy, presence
from bot.model import PLAYING, Pending, Recent, Table
from bot.ops.config import Settings
from bot.ops.metrics import Metrics
from bot.port import Notice, Port, TableInfo
from bot.seats.expert import Experts
from bot.service.cache import Tables
from bot.service.steps import PENDING, RECENT, STALE_TRIES, Ctx, Refused, Result, Step, unseen
from bot.store import Stale, Store, WriteBatch
from bot.timers import Timers
from engine import (
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    Event,
    GameWon,
    HandsRotated,
    HandsSwapped,
    RoundStarted,
    RoundWon,
    UnoWindowClosed,
    redact,
)

log = logging.getLogger("bot.service")


class Tries:
    """The one stale-retry loop: ``for t in tries`` gives the table to decide on, up
    to ``STALE_TRIES`` times. ``await tries.stale()`` after a write found the stored table
    changed (``Stale``): the next try decides on the stored one. ``await tries.newer()``
    before answering from a copy that may be old (a refusal, nothing to do): ``True`` if
    another process changed the table (the next try decides on it). ``exhausted(what)``:
    the error once every try found the table changed."""

    def __init__(self, cache: Tables, metrics: Metrics, key: str, t: Table | None, *,
                 fresh: bool) -> None:  # fmt: skip
        self.cache, self.metrics, self.key = cache, metrics, key
        self.table = t
        self.fresh = fresh  # ``table`` is as stored (just read), not a kept copy

    def __iter__(self) -> Iterator[Table | None]:
        for _ in range(STALE_TRIES):
            yield self.table

    async def stale(self, keys: Iterable[str] = ()) -> None:
        """The write found the stored table changed (or ``keys``, of a write of several:
        forgotten, read again on the next try)."""
        self.metrics.stale()
        if keys:
            for k in keys:
                self.cache.forget(k)
            return
        self.table, self.fresh = await self.cache.load(self.key), True

    async def newer(self) -> bool:
        """Whether the table decided on was a copy another process has changed since (then
        the next try decides on the stored table); at most once a run."""
        if self.fresh:
            return False
        self.fresh = True
        newer, self.table = await self.cache.newer(self.key, self.table)
        return newer

    def exhausted(self, what: str) -> RuntimeError:
        return RuntimeError(f"table {self.key} kept changing: {what} after {STALE_TRIES} tries")


class Runner:
    """What every concern of the service shares (set up by ``Service.__init__``) and the
    one path of a change (``_run``)."""

    store: Store
    port: Port
    settings: Settings
    shared: bool  # other processes write the same database: the tables here are a cache
    worker: str  # who this process is, in the database's claims and in the log
    metrics: Metrics
    clock: Callable[[], float]
    bot_delay: float
    cache: Tables
    timers: Timers
    experts: Experts  # expert seats: tables' public records, searches off the loop
    _rng: random.Random

    def ctx(self, key: str) -> Ctx:
        """What a step builder of table ``key`` is given, now."""
        return Ctx(
            now=self.clock(),
            settings=self.settings,
            bot_delay=self.bot_delay,
            rng=self._rng,
            reports=self.port.reports_shown(key),
        )

    def tries(self, key: str, t: Table | None, *, fresh: bool) -> Tries:
        return Tries(self.cache, self.metrics, key, t, fresh=fresh)

    def info(self, t: Table) -> TableInfo:
        g = t.game
        turn = t.deadline("turn")
        due = None
        if turn is not None:
            wait = unseen(t, turn.version, self.settings, reports=self.port.reports_shown(t.key))
            due = turn.due - wait
        now = self.clock()
        vote = presence.open_vote(t, now) if t.status == PLAYING else None
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
            autopilot=t.autopilot,
            vote=vote,
            vote_needed=presence.needed(t, vote.voters, now) if vote is not None else 0,
        )

    async def _run(
        self,
        key: str,
        user: str | None,
        build: Callable[[Table | None], Step | None],
    ) -> Result:
        """Lock the table, build the change, commit it, show it. What ``user`` (the caller)
        is told, a refusal or a change's word to them, comes back in ``Result.told``: theirs
        to answer. ``Port.tell`` carries what a change tells the others."""
        called = time.perf_counter()
        if not isinstance(key, str):  # forged input: never a lock, a query or a crash
            log.info("refused no_table for %r at %r: not a table key", user, key)
            self.metrics.refused("?", "no_table")
            return Result(False, "no_table", told=(Notice("no_table"),))
        async with self.cache.lock(key):
            t = self.cache.tables.get(key)
            # a copy read just now is current; a kept one, on a shared store, may not be
            fresh = not self.shared or t is None
            if t is None:
                t = await self.cache.load(key)
            tries = self.tries(key, t, fresh=fresh)
            for t in tries:
                try:
                    step = build(t)
                except Refused as r:
                    if await tries.newer():  # decided on the stored table, not an old copy
                        continue
                    t = tries.table
                    log.info("refused %s for %r at %s: %s", r.code, user, key, r.params or "")
                    self.metrics.refused(key, r.code)
                    told = (Notice(r.code, r.params),)
                    info = self.info(t) if t else None
                    return Result(False, r.code, info, params=r.params, told=told)
                if step is None:
                    if await tries.newer():
                        continue
                    t = tries.table
                    return Result(True, None, self.info(t) if t else None)
                self._keep_recent(step)
                try:
                    await self._commit(step, t)
                except Stale:
                    # another process changed the table since this copy: decide again on
                    # the stored one (nothing of this step was written, nor shown)
                    log.info("table %s changed in another process: deciding again", key)
                    await tries.stale()
                    continue
                kinds = (a.action.get("type", "?") for a in step.actions)
                self.metrics.committed(key, kinds, time.perf_counter() - called)
                info = self.info(step.table)
                # what the change tells the caller is theirs to answer (``Result.told``)
                mine = tuple(n for u, n in step.tells if u == user)
                step.tells = [(u, n) for u, n in step.tells if u != user]
                await self._show(t, step, info)
                return Result(True, None, info, tuple(step.events), told=mine)
            raise tries.exhausted("not changed")

    def _keep_recent(self, step: Step) -> None:
        """The step's public lines join the table's recent ones (the last ``RECENT``),
        committed with it: its events as everyone sees them, and the notices the port
        shows on the table message rather than as news of their own."""
        t = step.table
        status = t.status
        step.public = [redact(e, None) for e in step.events]  # shown on the table too
        new = [Recent.of_event(status, p) for p in step.public if recent_event(p)]
        news: list[Pending] = []
        for n in step.notices:
            if self.port.on_table(t.key, status, n):
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

    async def _commit(self, step: Step, base: Table | None) -> None:
        """Store ``step``, built on ``base`` (raises ``Stale``, nothing stored, if the stored
        table is no longer ``base``)."""
        # shielded: once a change is handed to the store it is stored, and memory and the
        # timers must follow it even if the caller is cancelled meanwhile (shutdown)
        await asyncio.shield(self._store_and_keep(step, base.rev if base is not None else 0))

    async def _store_and_keep(self, step: Step, rev: int) -> None:
        t = step.table
        await self.store.write(
            WriteBatch(
                tables=[t],
                actions=step.actions,
                stats=step.stats,
                games=step.games,
                chat_settings=step.chat,
                expect={t.key: rev},
            )
        )
        t.rev = rev + 1  # the write of the row on that revision made this one
        self.cache.keep(t)
        if not policy.is_open(t):
            self.experts.forget(t.key)
        elif step.moves and any(s.bot == "expert" for s in t.seats):
            self.experts.record(t.key, t.rules, step.moves)
        self.timers.set(t.key, t.deadlines)

    async def _show(self, before: Table | None, step: Step, info: TableInfo) -> None:
        t = step.table
        port = self.port
        # each call on its own: one failing (a platform error) must not keep the others
        # (a revealed hand, the closing of a finished table's buttons) from being shown
        calls: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("table", lambda: port.show_table(info, step.public))
        ]
        g = t.game
        if g is not None and (step.events or step.hands):
            audience = hand_audience(before, t, step.events) if step.events else []
            # and those whose hand offers another control now (the autopilot's)
            audience += [p for p in g.players if p in step.hands and p not in audience]
            for p in audience:
                calls.append(("hand", partial(self._show_hand, info, g, p, step.events)))
        calls.extend(("announce", partial(port.announce, info, n)) for n in step.notices)
        calls.extend(("tell", partial(port.tell, t.key, u, n)) for u, n in step.tells)
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


# events a table's recent lines leave out: results (their notice and the table's heading say
# them) and a catch window that closed (nothing happened)
_NOT_RECENT = (RoundWon, GameWon, UnoWindowClosed)
# draws whose cause said already why and how many (a catch, a false alarm, a challenge):
# a line of their own only where the cards are seen (the drawer's), never in public
_TOLD_BEFORE = ("uno", "false_uno", "challenge")


def recent_event(e: Event) -> bool:
    """Whether public event ``e`` is one of a table's recent lines, decided on the event
    (what happened), in no language: every event but those above; a draw of no card
    only when someone tried to draw and the deck was empty."""
    if isinstance(e, CardsDrawn):
        if e.count == 0:
            return e.reason == "draw"
        return e.reason not in _TOLD_BEFORE or bool(e.cards)
    return not isinstance(e, _NOT_RECENT)


def hand_audience(before: Table | None, t: Table, events: Sequence[Event]) -> list[str]:
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
