"""The Telegram adapter: a :class:`bot.port.Port` for ``tg:`` tables, on python-telegram-bot.

PTB's life cycle is run by hand (``initialize``/``start``/``updater.start_polling``, then
the reverse) inside the caller's event loop, so other platforms can share it; a start that
fails half-way closes what it opened. Updates are turned into table-service calls by
:mod:`adapters.telegram.inbound.handlers`; what the service shows comes back here and goes out
through the paced :class:`~.outbox.Outbox` (every send, edit and deletion, menus included).

This class wires the parts and runs their life cycle; each part owns one concern:

- :mod:`.chats`: what it knows of users and chats (languages, admins, titles, usernames,
  private chats that refused the bot);
- :mod:`.outbound.replies`: refusals, notices, replies and menu edits to people, and the plumbing
  of every send and edit (an edit that would change nothing is not sent);
- :mod:`.outbound.table`: each table's public message and the announcements (news), what the chat
  has seen reported to the service (``Service.shown``), and the shared-store path;
- :mod:`.outbound.hands`: the private hand messages;
- :mod:`.inbound.polling`: who polls (the polling lease, several processes on one database).

Whatever fails on our side is answered too: a change the database could not save is
answered "Could not save that — please try again." (the handlers' ``_answered``). What
the adapter remembers per user or chat is kept in bounded LRU maps.

After a crash (``kill -9``: what the outbox held is lost, what was committed is not)
:meth:`start` shows every table whose last version was not reported again, with the
announcements it never made, and a line saying so (``RESUMED``); the windows of a turn
nobody saw start then. Replies to commands that change nothing (``/rules``,
``/stats``...) still queued are not kept: the game lost nothing, and that line says a
command may be sent again.

A group upgraded to a supergroup gets a new chat id: told by a service message or by a
send that fails with ``ChatMigrated``, the adapter moves the chat's tables to the new id
(:meth:`Service.move_scope`) and sends each open table afresh in the new chat; the buttons
and inline results still naming the old chat follow it there.

Several processes on one database (a shared store, PostgreSQL): the token's one update
stream is polled by the process holding the polling lease (:mod:`.inbound.polling`), or, with a
webhook, every process serves it and may get any update (see :mod:`.outbound.table` for what
follows). Sends to a group are also reserved in the database (``Store.pace``): the
group's budget is shared. Every ``SWEEP_SECONDS`` each process shows the tables a dead
one left unshown (:meth:`_catch_up`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, ClassVar
from urllib.parse import urlparse

from telegram import BotCommand
from telegram.error import InvalidToken, TelegramError
from telegram.ext import Application

from adapters.telegram.chats import ADMIN_TTL, UNREACHABLE_TTL, Chats
from adapters.telegram.common import (
    INTERACTIVE,
    MEMORY,
    Lru,
    Posted,
    ReplyTo,
    Wire,
    answer_quietly,
)
from adapters.telegram.http import AiohttpRequest
from adapters.telegram.ids import user_of
from adapters.telegram.inbound.commands import OWN_COMMANDS
from adapters.telegram.inbound.handlers import Handlers
from adapters.telegram.inbound.ordering import PerUser
from adapters.telegram.inbound.polling import UPDATES, Poller
from adapters.telegram.moves import Moves
from adapters.telegram.outbound.hands import Hands
from adapters.telegram.outbound.menus import Menus
from adapters.telegram.outbound.replies import REFUSAL_TTL, Messages
from adapters.telegram.outbound.stickers import StickerSets
from adapters.telegram.outbound.table import NEWS, QUIET_IN_LOBBY, RESUMED, Tables
from adapters.telegram.outbox import Limits, Outbox
from adapters.telegram.text import notice_text
from bot import policy
from bot.ops.config import Settings
from bot.port import Notice, Port, TableInfo
from bot.service import Service
from bot.ui import render
from bot.ui.card_set import Pictures
from bot.ui.i18n import translator
from bot.weblinks import links_for
from engine import Event, View

__all__ = [
    "BAD_TOKEN",
    "INTERACTIVE",
    "MEMORY",
    "NEWS",
    "QUIET_IN_LOBBY",
    "RESUMED",
    "Adapter",
    "Lru",
    "Posted",
    "ReplyTo",
    "answer_quietly",
    "notice_text",
]

log = logging.getLogger(__name__)

BAD_TOKEN = "Telegram rejected UNO_TELEGRAM_TOKEN (check it with @BotFather)"
# every SWEEP_SECONDS each process looks for tables whose last version nobody showed though
# they have not changed for SWEEP_IDLE seconds (what a process that died left unshown), and
# shows them (both divided by the limits' scale: they follow the pacing)
SWEEP_SECONDS = 5.0
SWEEP_IDLE = 20.0


class Adapter(Port):
    """Telegram front end; ``prefix`` ``tg`` routes ``tg:...`` tables here."""

    prefix = "tg"
    # the pacing when none is given (a test running `uno-bot run` faster sets it scaled)
    default_limits: ClassVar[Limits] = Limits()

    def __init__(
        self,
        settings: Settings,
        service: Service,
        *,
        limits: Limits | None = None,
        poll_timeout: float = 10.0,
        admin_ttl: float = ADMIN_TTL,
        refusal_ttl: float = REFUSAL_TTL,
        unreachable_ttl: float = UNREACHABLE_TTL,
    ) -> None:
        if settings.telegram_token is None:
            raise ValueError("UNO_TELEGRAM_TOKEN is not set")
        self.settings = settings
        self.service = service
        self.limits = limits or self.default_limits
        # several processes share the database: nothing here is the only copy of what
        # another one needs (the table's data is; see ``tables``)
        self.shared = bool(getattr(service, "shared", False))
        self.wire = Wire(service, self.limits, self.shared)
        self.wire.web = links_for(settings)
        self.wire.webapp = settings.telegram_webapp
        moved: Lru[int, int] = Lru(MEMORY)  # a group's old id -> its supergroup's
        self.chats = Chats(self.wire, admin_ttl=admin_ttl, unreachable_ttl=unreachable_ttl)
        self.messages = Messages(
            self.wire,
            self.chats,
            self._names,
            moved,
            refusal_ttl=refusal_ttl,
        )
        self.hands = Hands(self.wire, self.chats, self.messages)
        self.menus = Menus(self.wire, self.chats, self.messages, lambda: self.stickers is not None)
        self.tables = Tables(self.wire, self.messages, self.hands)
        self.moves = Moves(self.wire, self.chats, self.tables, self.hands, moved)
        webhook = bool(settings.telegram_webhook_url)
        self.poller = Poller(self.wire, poll_timeout=poll_timeout, webhook=webhook)
        self._election: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._swept: Lru[str, int] = Lru(MEMORY)  # tables shown again by the sweep: version
        self.handlers = Handlers(self)
        # the card stickers (``UNO_TELEGRAM_OWNER``): read or made at start
        self.cards = StickerSets(service, settings.telegram_owner, enabled=settings.card_images)

    # -- what the parts share, seen from outside -----------------------------------------------

    @property
    def app(self) -> Application[Any, Any, Any, Any, Any, Any] | None:
        return self.wire.app

    @property
    def outbox(self) -> Outbox | None:
        return self.wire.outbox

    @property
    def username(self) -> str | None:
        return self.wire.username

    @property
    def bot(self) -> Any:
        return self.wire.bot

    @property
    def stickers(self) -> Pictures | None:
        """The card set as stickers, once made (else the cards are text)."""
        return self.cards.pictures

    @property
    def refusal_ttl(self) -> float:
        """Seconds a refusal shown in a group stays there."""
        return self.messages.refusal_ttl

    @refusal_ttl.setter
    def refusal_ttl(self, seconds: float) -> None:
        self.messages.refusal_ttl = seconds

    @property
    def titles(self) -> Lru[int, str]:
        return self.chats.titles

    @property
    def usernames(self) -> Lru[str, int]:
        return self.chats.usernames

    # -- what it keeps, read only (for the tests and the curious; nothing writes here) --------

    def table_message(self, key: str) -> int | None:
        """The message this process shows table ``key`` on (``None``: none it knows)."""
        slot = self.tables.slots.get(key)
        return slot.msg_id if slot is not None else None

    def hands_kept(self, key: str) -> set[int]:
        """The users of table ``key`` whose private hand this process keeps (its message,
        its recent lines): none once the table is closed."""
        return {uid for k, uid in (*self.hands.dm, *self.hands.private) if k == key}

    @property
    def replies_to_delete(self) -> int:
        """Replies shown in groups for a while whose deletion is still to come."""
        return len(self.messages.expiring)

    def _names(self, key: str) -> dict[str, str]:
        return self.tables.names(key)  # (made after the messages, which ask it)

    # -- life cycle -----------------------------------------------------------------------

    def connected(self) -> bool:
        """Up, for ``/healthz``: the application started and running (its updater retries
        a lost connection by itself)."""
        return self.app is not None and self.app.running

    async def start(self) -> None:
        """Build the application, register commands, and start polling (or the webhook).

        On any failure what was started is stopped and closed again; a token Telegram
        rejects is a ``RuntimeError`` that does not carry the token (nor the error that
        did)."""
        try:
            await self._start()
        except InvalidToken:
            await self._abort()
            raise RuntimeError(BAD_TOKEN) from None
        except BaseException:
            await self._abort()
            raise

    async def _start(self) -> None:
        s = self.settings
        assert s.telegram_token is not None
        app = (
            Application.builder()
            .token(s.telegram_token.get_secret_value())
            .base_url(s.telegram_api_url)
            # one user's updates in order; those past the backlog answered at once
            .concurrent_updates(PerUser(64, overflow=self.handlers.overflow))
            # aiohttp, not httpx: a tenth of the CPU a request (adapters/telegram/http.py)
            .request(AiohttpRequest())
            .get_updates_request(AiohttpRequest(connection_pool_size=1))
            .build()
        )
        self.handlers.install(app)
        self.wire.app = app
        pace = self._pace if self.shared else None
        self.wire.outbox = Outbox(self.limits, on_migrated=self.migrate, pace=pace)
        await app.initialize()
        await self.moves.remember(self.prefix)
        self.wire.username = app.bot.username
        await self.cards.start(app.bot, self.username)
        await self._set_commands()
        await self._catch_up()
        await app.start()
        if self.shared:
            self._sweeper = asyncio.create_task(self._sweep(), name="tg-sweep")
        updater = app.updater
        assert updater is not None
        if s.telegram_webhook_url:
            url = s.telegram_webhook_url
            secret = s.telegram_webhook_secret
            await updater.start_webhook(
                listen=s.telegram_webhook_listen,
                port=s.telegram_webhook_port,
                url_path=urlparse(url).path.lstrip("/"),
                webhook_url=url,
                secret_token=secret.get_secret_value() if secret is not None else None,
                allowed_updates=UPDATES,
            )
        elif self.shared:
            # one poller among the processes: whoever holds the lease
            self.poller.lease = f"telegram-poll:{app.bot.id}"
            self._election = asyncio.create_task(self.poller.elect(), name="tg-election")
        else:
            await self.poller.start_polling()
        log.info("telegram: @%s is up", self.username)

    @property
    def polling(self) -> bool:
        """Whether this process polls Telegram for updates now."""
        return self.poller.polling

    async def _pace(self, chat: int, urgent: bool) -> float:
        """The seconds before the next send to group ``chat`` may go, reserved among every
        process (``Store.pace``): at most ``group_per_minute`` a minute, whoever sends."""
        lim = self.limits
        spare = 0 if urgent else lim.group_reserve
        return await self.service.pace(f"tg:{chat}", 1.0 / lim.group_rate, lim.group_burst, spare)

    async def _abort(self) -> None:
        """Undo a start that failed half-way: whatever runs is stopped, whatever is open
        (PTB's HTTP clients, even after a failed ``initialize``) closed. Never raises."""
        app, outbox = self.app, self.outbox
        self.wire.app = self.wire.outbox = None
        self.wire.username = None
        with contextlib.suppress(Exception):
            await self.cards.stop()
        await self._end_tasks()
        self.messages.cancel_expiring()
        if app is None:
            return
        steps: list[Callable[[], Awaitable[Any]]] = []
        if app.updater is not None and app.updater.running:
            steps.append(app.updater.stop)
        if app.running:
            steps.append(app.stop)
        if outbox is not None:
            steps.append(outbox.close)
        steps += [app.shutdown, app.bot.shutdown]  # the bot's: initialize() may have failed
        for step in steps:
            try:
                await step()
            except Exception as err:
                log.info("telegram: cleaning up a failed start: %s", type(err).__name__)

    async def stop(self, flush: float = 10.0) -> None:
        """Stop taking updates, send what is queued (up to ``flush`` seconds; replies due
        for deletion are deleted now), shut down."""
        app = self.app
        if app is None:
            return
        await self.cards.stop()
        await self._end_tasks()
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        await self.poller.release()
        if app.running:
            await app.stop()
        self.wire.stopping = True
        self.messages.delete_expiring()
        if self.outbox is not None:
            await self.outbox.flush(flush)
            await self.outbox.close()
        await self.messages.owed.settle()  # what is owed still, noted before the store closes
        await app.shutdown()
        self.wire.app = None
        self.wire.stopping = False

    async def _end_tasks(self) -> None:
        tasks = [t for t in (self._election, self._sweeper) if t is not None]
        self._election = self._sweeper = None
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    async def _sweep(self) -> None:
        """On a shared store, every ``SWEEP_SECONDS``: show the tables whose last version
        nobody showed (see ``_catch_up``)."""
        while True:
            await asyncio.sleep(SWEEP_SECONDS / self.limits.scale)
            try:
                await self._catch_up(restarted=False)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("telegram: looking for tables not shown failed: %s", err)

    async def _catch_up(self, *, restarted: bool = True) -> None:
        """After a crash: show again every table whose last version the chat never saw
        (a move committed and answered, then the process died before its paced edit went
        out), with the announcements it never got; the turn that edit shows counts from
        now (``Service.shown``). Replies to commands that change nothing (``/rules``...)
        are not kept: the table message says a command may be sent again (when this
        process was ``restarted``; the sweep of a shared store, which may find a table a
        live process is slow to show, shows it without that line); a chat that was owed
        replies and has no such table message is told so once (``unsent``)."""
        if self.shared:
            # other processes are alive: only what has waited long enough is a dead one's
            found = await self.service.behind(self.prefix, idle=SWEEP_IDLE / self.limits.scale)
            behind = [i for i in found if (self._swept.get(i.key) or 0) < i.version]
            for info in behind:
                self._swept[info.key] = info.version
        else:
            behind = await self.service.behind(self.prefix)
        told: set[str] = set()  # chats whose table message says a command may be resent
        for info in behind:
            if policy.is_open(info):
                slot = self.tables.slot(info)
                if restarted:
                    slot.resumed = info.version
                    told.add(info.key)
                await self.show_table(info, [])
            else:
                await self.closed(info)  # its last edit, without buttons
                slot = self.tables.slots[info.key]
            self.tables.queue_news(slot)
        if behind:
            why = "after a restart" if restarted else "left unshown"
            log.info("telegram: %d tables shown again %s", len(behind), why)
        owed = self.messages.owed
        chats = await owed.take(self.prefix, scale=self.limits.scale)
        for chat in chats:
            if chat in told:
                owed.release(chat)
            else:
                await self.messages.tell_restarted(chat)
        if chats:
            log.info("telegram: %d chats were owed replies by a process gone", len(chats))

    async def _set_commands(self) -> None:
        for lang, code in (("en", None), ("zh_Hans", "zh")):
            tr = translator(lang)
            commands = [BotCommand(c, render.command_help(c, tr)) for c in render.COMMANDS]
            commands += [BotCommand(c, tr.gettext(msg)) for c, msg in OWN_COMMANDS.items()]
            try:
                await self.bot.set_my_commands(commands, language_code=code)
            except TelegramError as err:
                log.warning("setMyCommands (%s) failed: %s", lang, err)

    # -- a group upgraded to a supergroup (see ``moves``) ------------------------------------

    def current_key(self, key: str) -> str:
        """The table key now, for a key naming a group that became a supergroup."""
        return self.moves.current_key(key)

    async def migrate(self, old: int, new: int) -> None:
        """Group ``old`` is supergroup ``new`` now: its tables move there."""
        await self.moves.migrate(old, new)

    # -- the port: each call to the part that shows it ----------------------------------------

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        """Queue one coalesced edit of the table message (and of the private hands)."""
        await self.tables.show_table(table, events)

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        """Refresh the private-chat hand of a player who plays from there."""
        await self.hands.show_hand(table, player, view, events)

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        """Round and game results as a new group message; the rest on the table message."""
        await self.tables.announce(table, notice)

    def on_table(self, key: str, status: str, notice: Notice) -> bool:
        """A notice the table message shows among its recent lines (kept with the table)."""
        return self.tables.on_table(key, status, notice)

    def reports_shown(self, key: str) -> bool:
        """Every table edit that lands is reported (``Service.shown``): a window's clock
        starts when its buttons are on screen, however long the pacing held them."""
        return True

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        """Privately, to a user who did not make the call that tells it (a timer, a bot
        seat, another player's change): what a call tells its caller comes back in its
        ``Result``, answered by the handler."""
        uid = user_of(user)
        if uid is not None:  # (a bot seat has no one to tell)
            self.messages.dm_notice(uid, notice, table_key)

    async def closed(self, table: TableInfo) -> None:
        """The table ended: a last edit without buttons; private hands lose theirs."""
        await self.tables.closed(table)

    # -- what other code asks of it (the handlers take the parts themselves) -----------------

    async def send_hand(self, key: str, uid: int, *, new: bool = False) -> int | None:
        """Edit (``new``: send) ``uid``'s private hand message for table ``key``."""
        return await self.hands.send_hand(key, uid, new=new)

    async def is_admin(self, chat: int, uid: int) -> bool:
        """A chat's creator or administrator (for kick, stop, settings)."""
        return await self.chats.is_admin(chat, uid)

    def dm_notice(self, uid: int, notice: Notice, key: str, reply: ReplyTo | None = None) -> None:
        """A notice in ``uid``'s private chat (see :meth:`Messages.dm_notice`)."""
        self.messages.dm_notice(uid, notice, key, reply)
