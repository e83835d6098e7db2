"""The service's one face: ``Service``, whose methods are every change and read an adapter
makes. Each change is a step builder of its concern (``lobby``, ``play``, ``deadlines``,
``chats``) run through the one path (``runner``); see the package's docstring."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

import engine
from bot import policy, ratings
from bot.model import PLAYING, Deadline, Table
from bot.ops.config import Settings
from bot.ops.metrics import Metrics
from bot.port import Port, TableInfo
from bot.seats import strategies as ai
from bot.seats.expert import Experts
from bot.service import absent, chats, deadlines, lobby, play
from bot.service import shown as shown_
from bot.service.cache import Tables
from bot.service.runner import Runner
from bot.service.steps import GLOBAL, POLL_SECONDS, Result, Step, refused, setting_error
from bot.service.windows import clamp
from bot.store import (
    ActionRecord,
    CardAsset,
    ChatSettings,
    Listening,
    StatLine,
    Store,
    Unsent,
    WriteBatch,
)
from bot.timers import Timers
from bot.ui import intents
from engine import Action, Rules

log = logging.getLogger("bot.service")


class Service(Runner):
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
        self.shared = bool(getattr(store, "shared", False))
        self.worker = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.metrics = metrics or Metrics(self.worker, store=getattr(store, "dialect", ""))
        self.metrics.watch(self)
        self.clock = clock
        self.bot_delay = self.settings.bot_delay if bot_delay is None else bot_delay
        self._rng = random.Random(seed if seed is not None else secrets.randbits(64))
        # expert seats: tables' public records, searches off the event loop (bot.seats.expert)
        self.experts = experts or Experts(self.settings.expert_workers)
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
        self.cache = Tables(store, self.timers, shared=self.shared)

    @property
    def _tables(self) -> dict[str, Table]:
        """This process's open tables (the cache's)."""
        return self.cache.tables

    def cached(self, key: str) -> Table | None:
        """This process's copy of the table at ``key``, if it holds one: read without a
        lock or the store (a look for tests and diagnostics; the service's reads are
        ``table``, ``hand``, ``legal``)."""
        return self.cache.tables.get(key)

    # -- life cycle ---------------------------------------------------------------------

    async def start(self, *, run_timers: bool = True) -> int:
        """Load every open table and re-arm its deadlines (overdue ones fire at once)."""
        tables = await self.store.load_open_tables()
        clamped = []
        for t in tables:
            # a table already loaded (a change committed while we read) is newer: keep it
            if self.cache.tables.setdefault(t.key, t) is t:
                if clamp(t, self.ctx(t.key)):
                    clamped.append(t)
                self.timers.set(t.key, t.deadlines)
        if self.shared and clamped:
            # deadlines are claimed as stored: other processes must see these too
            await asyncio.gather(*(deadlines.store_clamped(self, t) for t in clamped))
        if run_timers:
            self.timers.start()
        if self.shared:
            log.info("process %s: %d open tables in the shared database", self.worker,
                     len(tables))  # fmt: skip
        else:
            log.info("restored %d open tables", len(tables))
        return len(tables)

    async def restart_clocks(self, key: str) -> None:
        """Arm table ``key``'s deadlines afresh, each for its full length from now, and store
        them. For a table whose clocks stop while the program is closed: the terminal's,
        whose one person was away with it (a turn that ran out meanwhile would be a strike
        for nobody's fault). Call it after ``start(run_timers=False)``, before the timers
        run; chats' tables keep theirs (one that passed while the bot was down fires)."""
        await deadlines.restart_clocks(self, key)

    async def stop(self, grace: float = 5.0) -> None:
        """Stop the timers; deadlines being handled get ``grace`` seconds to finish."""
        await self.timers.stop(grace)
        self.experts.close()

    # -- what adapters ask of the store, through the service ----------------------------
    # Leases, pacing, the chats owed replies, the card sets' records and the notifications
    # between processes are the store's, shared by every process on one database; an
    # adapter asks them here, never of the store. Kept in wall time (``time.time``), not
    # the game's clock.

    async def open(self) -> None:
        """Open the store (a front end that made its own, like the terminal's)."""
        await self.store.open()

    async def close(self) -> None:
        """Close the store (after ``stop``)."""
        await self.store.close()

    async def lease(self, name: str, seconds: float, *, owner: str | None = None) -> bool:
        """Take or renew the lease ``name`` for ``owner`` (this process unless told) for
        ``seconds``; ``False`` if another holds it (``Store.lease``)."""
        return await self.store.lease(name, owner or self.worker, time.time(), seconds)

    async def release(self, name: str, *, owner: str | None = None) -> None:
        """Give up the lease ``name`` if ``owner`` (this process unless told) holds it."""
        await self.store.release(name, owner or self.worker)

    async def pace(self, name: str, interval: float, burst: int, spare: int = 0) -> float:
        """Reserve the next send of flow ``name`` among every process (``Store.pace``);
        the seconds to wait before sending."""
        return await self.store.pace(name, time.time(), interval, burst, spare)

    async def card_assets(self, platform: str) -> list[CardAsset]:
        """What ``platform`` has uploaded of the card set, every version (the records
        ``bot.ui.card_set.Uploads`` reads)."""
        return await self.store.card_assets(platform)

    async def save_card_assets(self, assets: Sequence[CardAsset]) -> None:
        """Keep what a platform uploaded (a ``ref`` of ``None``: that picture is gone)."""
        await self.store.write(WriteBatch(card_assets=list(assets)))

    async def notify(self, channel: str, payload: str) -> None:
        """Tell every process listening on ``channel`` (``listen``) ``payload`` (8000
        bytes at most; ``Store.notify``, PostgreSQL's ``NOTIFY``). On a store of its own
        there is no other process: nothing is sent."""
        if self.shared:
            await self.store.notify(channel, payload)

    async def listen(
        self, channel: str, heard: Callable[[str], None], lost: Callable[[], None] | None = None
    ) -> Listening | None:
        """Call ``heard(payload)`` for each ``notify`` on ``channel`` (every process's, this
        one's too), ``lost()`` once listening again after the connection was lost (what
        was said meanwhile was missed): ``Store.listen``. ``None`` on a store of its own
        (no other process to hear); else ``close()`` it to stop."""
        if not self.shared:
            return None
        return await self.store.listen(channel, heard, lost)

    async def mark_unsent(self, marks: Sequence[Unsent]) -> None:
        """Note chats this process owes replies (``Unsent(chat, worker, since)``), or no
        longer owes (``since=None``)."""
        await self.store.write(WriteBatch(unsent=list(marks)))

    async def take_unsent(self, prefix: str, before: float, now: float) -> list[Unsent]:
        """The chats under ``prefix`` owed replies by a process whose mark is older than
        ``before``: taken by this one (``Store.take_unsent``)."""
        return await self.store.take_unsent(prefix, self.worker, before, now)

    # -- reading --------------------------------------------------------------------------

    async def table(self, key: str) -> TableInfo | None:
        t = await self.cache.current(key)
        return None if t is None else self.info(t)

    async def moves(self, key: str) -> list[ActionRecord]:
        """The action log of the game now at ``key`` (its moves, in order)."""
        t = await self.cache.current(key)
        if t is None:
            return []
        return [a for a in await self.store.actions(key) if a.game_no == t.game_no]

    async def hand(self, key: str, player: str) -> engine.View | None:
        """``player``'s private view of the game at ``key`` (``None`` if not seated)."""
        t = await self.cache.current(key)
        g = t.game if t is not None else None
        if g is None or player not in g.players:
            return None
        return engine.view(g, player)

    async def legal(self, key: str, player: str) -> list[Action]:
        t = await self.cache.current(key)
        g = t.game if t is not None else None
        if g is None or t is None or t.status != PLAYING:
            return []
        return engine.legal_actions(g, player)

    async def seen(
        self, key: str, players: Sequence[str] = (), *, reload: bool = False
    ) -> tuple[TableInfo | None, dict[str, tuple[engine.View, list[Action]]]]:
        """The table at ``key`` as everyone sees it, and each of ``players``' own view of
        it with their legal moves, from one read (a page of the web table draws all of it
        at once: one version, never a table of one version beside a hand of another).
        Players not dealt in are left out; their moves are none while not in play.
        ``reload``: another process is known to have changed it (read it without first
        checking its revision)."""
        t = await self.cache.load(key) if reload and self.shared else await self.cache.current(key)
        if t is None:
            return None, {}
        g = t.game
        own: dict[str, tuple[engine.View, list[Action]]] = {}
        if g is not None:
            for p in players:
                if p in g.players:
                    legal = engine.legal_actions(g, p) if t.status == PLAYING else []
                    own[p] = (engine.view(g, p), legal)
        return self.info(t), own

    def open_tables(self) -> list[str]:
        return self.cache.open_keys()

    def tables_of(self, player: str) -> list[TableInfo]:
        """The open tables where ``player`` is seated, waiting or hosting (in memory)."""
        out = []
        for t in self.cache.tables.values():
            if not policy.is_open(t):
                continue
            if t.host == player or player in t.waiting or t.seat(player) is not None:
                g = t.game
                gone = t.status == PLAYING and g is not None and player not in g.players
                if gone and player not in t.waiting and t.host != player:
                    continue  # left this game
                out.append(self.info(t))
        return out

    async def leaderboard(self, scope: str, limit: int = 10) -> list[StatLine]:
        return await self.store.leaderboard(scope, limit)

    async def player_stats(self, scope: str, player: str) -> StatLine | None:
        return await self.store.player_stats(scope, player)

    # -- ratings (bot.ratings) -----------------------------------------------------------

    def season(self) -> str | None:
        """The ratings' season now (``None``: seasons are off, ``UNO_SEASON=none``)."""
        return ratings.season_of(self.clock(), self.settings.season)

    def _ladders(self, scope: str) -> list[tuple[bool, str | None]]:
        """The ladders shown for ``scope``: ``(everywhere, season or None for all time)``,
        here first (none where ``scope`` is everywhere), the season's before all time's."""
        current = self.season()
        seasons = [current, None] if current is not None else [None]
        wheres = [True] if scope == GLOBAL else [False, True]
        return [(ev, season) for ev in wheres for season in seasons]

    async def rank(
        self, scope: str, player: str
    ) -> list[tuple[bool, str | None, ratings.Rating | None]]:
        """``player``'s ratings (``/rank``): on each ladder of ``_ladders``, theirs or None."""
        found = await self.store.player_ratings(player, sorted({scope, GLOBAL}))
        by = {(r.scope, r.season): r for r in found}
        return [
            (ev, season, by.get((GLOBAL if ev else scope, season or ratings.ALL_TIME)))
            for ev, season in self._ladders(scope)
        ]

    async def top(
        self, scope: str, limit: int = 10
    ) -> list[tuple[bool, str | None, list[ratings.Rating]]]:
        """The ladders of ``scope`` (``/top``; ``GLOBAL``: everywhere's), best first: the
        season's, then all time's."""
        everywhere = scope == GLOBAL
        return [
            (everywhere, season, await self.store.ladder(scope, season or ratings.ALL_TIME, limit))
            for ev, season in self._ladders(scope)
            if ev == everywhere
        ]

    async def rated_named(self, scope: str, name: str) -> str | None:
        """The player rated in ``scope`` (else everywhere) under ``name``, the most played
        one if several are."""
        for where in dict.fromkeys((scope, GLOBAL)):
            found = await self.store.rated_named(where, name.strip())
            if found:
                return found[0]
        return None

    async def rebuild_ratings(self) -> None:
        """Every rating computed again from the recorded games (``uno-bot ratings
        --rebuild``), in one transaction."""
        await self.store.write(WriteBatch(rebuild_ratings=True))

    # -- the lobby (``lobby``: pure builders, run through the one path) -------------------

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
    ) -> Result:
        """Open a lobby at ``key`` hosted by ``host`` (refused if a table is open there).
        ``seat_host=False`` opens it without seating the host (an all-bot table)."""
        saved = await self.store.chat_settings(scope)
        explicit = preset is not None or overrides is not None
        preset = preset or saved.preset or self.settings.default_preset
        over = dict(saved.overrides or {}) if overrides is None else dict(overrides)
        bad: dict[str, Any] | None = None
        try:
            Rules.preset(preset, **over)
        except ValueError as e:
            if explicit:
                bad = setting_error(e)  # what the user asked for: tell them
            # the chat's saved rules no longer valid (an older version's flag): defaults
            preset, over = self.settings.default_preset, {}
        chosen, lang = (preset, over), lang or saved.lang

        def build(t: Table | None) -> Step:
            preset, over = chosen
            ctx = self.ctx(key)
            return lobby.create(
                t, key, scope, host, host_name, ctx, preset=preset, overrides=over,
                lang=lang, seat_host=seat_host, bad=bad,
            )  # fmt: skip

        return await self._run(key, host, build)

    async def join(self, key: str, player: str, name: str) -> Result:
        """Sit down: in the lobby, or (mid-game) for the next round."""
        return await self._run(key, player, lambda t: lobby.join(t, player, name, self.ctx(key)))

    async def add_bot(
        self,
        key: str,
        by: str,
        strategy: str | None = None,
        *,
        admin: bool = False,
    ) -> Result:
        """Add a bot seat (host or admin; lobby, or for the next round) playing
        ``strategy``; none, or one that is no strategy: the operator's default
        (``UNO_DEFAULT_BOT``, ``smart`` unless set)."""
        if strategy not in ai.STRATEGIES:
            strategy = self.settings.default_bot
        return await self._run(key, by, lambda t: lobby.add_bot(
            t, by, strategy, self.ctx(key), admin=admin
        ))  # fmt: skip

    async def leave(self, key: str, player: str) -> Result:
        """Leave the table (mid-game: the engine's Leave policy)."""
        return await self._remove(key, player, player, admin=False)

    async def kick(self, key: str, by: str, target: str, *, admin: bool = False) -> Result:
        """Remove ``target`` (the host, or a chat admin as the adapter reports)."""
        return await self._remove(key, by, target, admin=admin)

    async def _remove(self, key: str, by: str, target: str, *, admin: bool) -> Result:
        return await self._run(key, by, lambda t: lobby.remove(
            t, by, target, self.ctx(key), admin=admin
        ))  # fmt: skip

    async def configure(
        self,
        key: str,
        by: str,
        *,
        preset: str | None = None,
        overrides: dict[str, Any] | None = None,
        admin: bool = False,
    ) -> Result:
        """Change the table's rules: a preset, and/or flags (``overrides`` merged in; a flag
        set to its preset value is dropped). Lobby, or between rounds; host or admin."""
        return await self._run(key, by, lambda t: lobby.configure(
            t, by, self.ctx(key), preset=preset, overrides=overrides, admin=admin
        ))  # fmt: skip

    async def start_game(self, key: str, by: str, *, admin: bool = False) -> Result:
        """Deal: the lobby's seats (2 to 10 per deck) become a game."""
        return await self._run(key, by, lambda t: lobby.start(t, by, self.ctx(key), admin=admin))

    async def stop_game(self, key: str, by: str, *, admin: bool = False) -> Result:
        """End the table now (host or admin); scores are not counted."""
        return await self._run(key, by, lambda t: lobby.stop(t, by, self.ctx(key), admin=admin))

    # -- playing (``play``) ---------------------------------------------------------------

    async def act(
        self,
        key: str,
        player: str,
        action: Action,
        *,
        seen_version: int | None = None,
    ) -> Result:
        """A game action by a person. ``seen_version``: the table version their button was
        drawn for; a button older than the turn is refused as ``stale``."""
        return await self._run(key, player, lambda t: play.act(
            t, player, action, seen_version, self.ctx(key)
        ))  # fmt: skip

    # -- presence: the autopilot, the vote to end a game (``absent``, ``bot.presence``) ----

    async def autopilot(self, key: str, player: str, on: bool) -> Result:
        """``player`` hands their seat to the autopilot (``on``: "Play for me") or takes it
        back."""
        return await self._run(
            key, player, lambda t: absent.autopilot(t, player, on, self.ctx(key))
        )

    async def vote_end(self, key: str, player: str, vote: int = 0) -> Result:
        """``player`` votes to end the game (``vote``: the version the vote they pressed
        opened at, 0 for a button drawn while none was open): a vote opens, or counts, or
        ends the game as ``/stop`` does (recorded abandoned, never rated)."""
        return await self._run(
            key, player, lambda t: absent.vote_end(t, player, vote, self.ctx(key))
        )

    # -- chats (``chats``) ----------------------------------------------------------------

    async def user_lang(self, user: str) -> str | None:
        return await self.store.user_lang(user)

    async def chat_lang(self, scope: str) -> str | None:
        return (await self.store.chat_settings(scope)).lang

    async def set_chat_language(
        self, key: str, scope: str, lang: str | None, *, admin: bool = True
    ) -> Result:
        """The chat's language (``None``: back to the platform's default), applied to every
        open table of the chat (all its forum topics or threads). Only a chat admin, as the
        adapter reports (``admin``), may: anyone else is refused ``not_host``. The result
        is the table at ``key``, if one is open."""
        if not admin:
            return refused("not_host")
        return await chats.set_chat_language(self, key, scope, lang)

    async def chat_settings(self, scope: str) -> ChatSettings:
        """A chat's saved defaults: its preset, flag overrides and language."""
        return await self.store.chat_settings(scope)

    async def rules_of(self, key: str, scope: str) -> tuple[Rules, str | None]:
        """What ``/rules`` shows: the open table's rules and preset, else the chat's saved
        defaults (the official rules if those are no longer valid: an older version's flag)."""
        info = await self.table(key)
        if info is not None and policy.is_open(info):
            return info.rules, info.preset
        saved = await self.chat_settings(scope)
        name = saved.preset or self.settings.default_preset
        try:
            return Rules.preset(name, **(saved.overrides or {})), name
        except ValueError:
            return Rules(), "official"

    async def set_user_language(self, user: str, lang: str | None) -> Result:
        """``user``'s own language (``None``: back to the chat's, or the platform's)."""
        await self.store.write(WriteBatch(user_settings=[(user, lang)]))
        return Result(True)

    async def user_cards(self, user: str) -> str | None:
        """How ``user`` wants their cards shown (``intents.CARD_LOOKS``); ``None``: as the
        platform shows them by default (its pictures, where it has them)."""
        look = await self.store.user_cards(user)
        return look if look in intents.CARD_LOOKS else None

    async def set_user_cards(self, user: str, look: str | None) -> Result:
        """How ``user`` wants their cards shown (``intents.CARD_LOOKS``; ``None``: the
        platform's default); anything else refused as ``forged``."""
        if look is not None and look not in intents.CARD_LOOKS:
            return refused("forged")
        await self.store.write(WriteBatch(user_cards=[(user, look)]))
        return Result(True)

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
        return await chats.change_meta(self, key, decide)

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
        return await chats.move_scope(self, old_scope, new_scope, rekey, meta)

    # -- what was shown (``shown``) -------------------------------------------------------

    async def shown(self, key: str, version: int) -> None:
        """The port showed table ``key`` at ``version`` (the table message for it, or a later
        one, sent or edited; the announcements up to it made): see ``bot.port``. The
        windows that version opened run from now (never shorter than from their commit:
        armed ``show_wait_seconds`` longer until now, on a port that reports); the
        version is kept as the table's ``shown``, its announcements up to it done."""
        await shown_.shown(self, key, version)

    async def behind(self, prefix: str, *, idle: float = 0.0) -> list[TableInfo]:
        """The tables of platform ``prefix`` whose last version was never reported shown:
        open ones, and ones that closed in the last day (a crash came between the commit
        and the message). The adapter shows them again, with their ``pending``
        announcements. ``idle``: only those not changed for that many seconds; on a
        shared store they are looked for in the database (any process's tables: what a
        process that died left unshown), the others being shown by the live processes."""
        return await shown_.behind(self, prefix, idle)

    # -- deadlines (``deadlines``; the timers call these) ----------------------------------

    async def _fire(self, key: str, d: Deadline) -> None:
        await deadlines.fire(self, key, d)

    async def _claim(self, due: list[tuple[str, Deadline]]) -> list[tuple[str, Deadline]]:
        return await deadlines.claim(self, due)

    async def poll_overdue(self) -> int:
        """Claim the deadlines overdue that no process holds and fire them here (every
        ``POLL_SECONDS`` on a shared store): see ``deadlines.poll_overdue``."""
        return await deadlines.poll_overdue(self)
