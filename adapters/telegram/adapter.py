"""The Telegram adapter: a :class:`bot.port.Port` for ``tg:`` tables, on python-telegram-bot.

PTB's life cycle is run by hand (``initialize``/``start``/``updater.start_polling``, then
the reverse) inside the caller's event loop, so other platforms can share it; a start that
fails half-way closes what it opened. Updates are turned into table-service calls by
:mod:`adapters.telegram.handlers`; what the service shows comes back here and goes out
through the paced :class:`~.outbox.Outbox` (every send, edit and deletion, menus included).

Refusals go to the user alone: an alert on the button they pressed, else a private
message; when the private chat is closed to the bot, a refusal of a typed command (or of a
chosen inline result) is a reply in the group that deletes itself after a few seconds.
Callback queries are always answered (network errors retried briefly, then logged), and
so is whatever fails on our side: a change the database could not save is answered
"Could not save that — please try again." (the handlers' ``_answered``). A private chat
Telegram refuses (never opened, bot blocked) is not tried again for ``unreachable_ttl``
seconds or until the user writes to the bot privately, and at most one refusal per user
waits in the outbox (the latest). An edit that would change nothing is not sent. What
the adapter remembers per user or chat (languages, titles, usernames, table messages,
what each message was last sent with) is kept in bounded LRU maps.

What the chat has seen is reported to the service (``Service.shown``, see ``bot.port``):
once a table edit is out, and the announcements made up to its version (a round won, the
game won: taken from ``TableInfo.pending``, so that none is lost or made twice), the
turn, challenge and UNO-catch windows that edit shows count from then, not from the commit
seconds earlier (pacing under the group's 20 a minute holds edits back). After a crash
(``kill -9``: what the outbox held is lost, what was committed is not) :meth:`start`
shows every table whose last version was not reported again, with the announcements it
never made, and a line saying so; the windows of a turn nobody saw start then. Replies to
commands that change nothing (``/rules``, ``/stats``...) still queued are not kept: the
game lost nothing, and that line says a command may be sent again.

A group upgraded to a supergroup gets a new chat id: told by a service message or by a
send that fails with ``ChatMigrated``, the adapter moves the chat's tables to the new id
(:meth:`Service.move_scope`) and sends each open table afresh in the new chat; the buttons
and inline results still naming the old chat follow it there.

Several processes on one database (a shared store, PostgreSQL): the token's one update
stream is polled by the process holding the polling lease (``_elect``), or, with a webhook,
every process serves it and may get any update. Then nothing a process remembers is the
only copy of what another needs: a table is drawn as stored when its edit runs, its
message is the one the table's data names (``tg_msg``), a new one is sent by the process
that claims it in the table's data (``tg_sending``), the announcements likewise
(``tg_saying``; ``tg_said``: made up to that version), an edit that landed after another
process's newer one is drawn again, and private hand messages are the ones the data names
(``dm<user>``). Sends to a group are also reserved in the database (``Store.pace``): the
group's budget is shared. Every ``SWEEP_SECONDS`` each process shows the tables a dead
one left unshown (:meth:`_catch_up`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar
from urllib.parse import urlparse

from telegram import (
    BotCommand,
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)
from telegram.error import (
    BadRequest,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.ext import Application

from adapters.telegram import views
from adapters.telegram.codec import chat_of, key_of, player_id, scope_of, user_of
from adapters.telegram.http import AiohttpRequest
from adapters.telegram.ordering import PerUser
from adapters.telegram.outbox import Limits, Outbox, retry_seconds
from adapters.telegram.stickers import StickerSets
from bot import metrics, render
from bot.cards import Pictures
from bot.config import Settings
from bot.i18n import N_, Translator, resolve_lang, translator
from bot.model import LOBBY, Pending
from bot.model import OPEN_STATUSES as OPEN
from bot.port import Notice, TableInfo
from bot.service import Service
from engine import (
    Card,
    CardsDrawn,
    ChallengeResolved,
    Event,
    HandsRotated,
    HandsSwapped,
    View,
)

__all__ = ["INTERACTIVE", "Adapter", "Lru", "Origin", "Posted", "answer_quietly", "notice_text"]

log = logging.getLogger(__name__)

PRIVATE_RECENT = 3
UPDATES = ["message", "callback_query", "inline_query", "chosen_inline_result"]
# notices worth a new group message; the rest become lines on the table message
NEWS = frozenset({"info.round_won", "info.game_won", "info.afk_removed", "info.kicked"})
QUIET_IN_LOBBY = frozenset({"info.left", "info.kicked", "info.new_host"})
# set by the handlers: the change being shown is a person's own doing, so its table edit
# may use the token kept in reserve (timers and bot seats run with the default)
INTERACTIVE: ContextVar[bool] = ContextVar("tg_interactive", default=False)
MEMORY = 5000  # entries kept in each per-user / per-chat map
REFUSAL_TTL = 15.0  # seconds a refusal shown in a group stays there
CHOICE_TTL = 60.0  # seconds a posted inline choice may still be answered
UNREACHABLE_TTL = 600.0  # seconds a private chat that refused the bot is not tried
REFUSAL = "refusal"  # the outbox key of a user's refusal (one waits at most)
BAD_TOKEN = "Telegram rejected UNO_TELEGRAM_TOKEN (check it with @BotFather)"
OPEN_CHAT = N_("Open a private chat with me")
# the last line of a table message shown again after a crash (until the next change)
RESUMED = N_(
    "♻️ I was restarted: every move is kept. A command that got no answer may be sent again."
)
# refusals that would tell the group something about a hand: private chat only
_HAND_REFUSALS = frozenset({"wild_draw_four_illegal", "must_play"})
_SECRET = _HAND_REFUSALS | {"info.revealed"}  # notices never shown in the group

# Several processes on one database (a shared store). A token has one update stream: with
# polling, one process polls, elected by a lease in the database that it renews every
# POLL_RENEW seconds for POLL_LEASE; it stops polling once it could not renew for
# POLL_LEASE - POLL_RENEW (before anybody else may take the lease), and a standby tries
# for it every STANDBY_SECONDS: it polls within POLL_LEASE + STANDBY_SECONDS (7 s) of the
# poller's death.
POLL_LEASE = 6.0
POLL_RENEW = 2.0
STANDBY_SECONDS = 1.0
# a send only one process may make (a table's new message, its announcements) is claimed
# in the table's data for CLAIM_SECONDS; one that finds another's claim looks again after
# CLAIM_RETRY (divided by the limits' scale)
CLAIM_SECONDS = 10.0
CLAIM_RETRY = 1.0
# every SWEEP_SECONDS each process looks for tables whose last version nobody showed though
# they have not changed for SWEEP_IDLE seconds (what a process that died left unshown), and
# shows them (both divided by the limits' scale: they follow the pacing)
SWEEP_SECONDS = 5.0
SWEEP_IDLE = 20.0

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(OrderedDict[K, V]):
    """A dict that keeps only its ``size`` most recently used entries."""

    def __init__(self, size: int = MEMORY) -> None:
        super().__init__()
        self.size = size

    def __getitem__(self, key: K) -> V:
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def get(self, key: K, default: V | None = None) -> V | None:  # type: ignore[override]
        try:
            return self[key]
        except KeyError:
            return default

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(frozen=True, slots=True)
class Posted:
    """A message a person posted in a group (a typed command, or the message a chosen
    inline result posted): what a refusal can reply to when their private chat is closed."""

    chat: int
    thread: int | None
    message_id: int


@dataclass(eq=False)
class Origin:
    """Where a service call came from, so that what the service tells the user goes back
    the same way: an alert on the pressed button, else the private chat, else (closed) a
    short-lived reply to ``posted``, or to the message the inline choice at table
    ``chosen`` posted."""

    user: int
    lang: str
    query: CallbackQuery | None = None
    alerts: list[str] = field(default_factory=list)
    url: str | None = None
    posted: Posted | None = None
    chosen: str | None = None


@dataclass(eq=False)
class _Slot:
    """One table's public message (a new slot per table: a new game gets a new message)."""

    key: str
    chat: int
    thread: int | None
    n: int
    info: TableInfo
    msg_id: int | None
    final: bool = False
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)  # one send or edit at once
    # versions: of the table message on screen, of the last announcements sent, of the last
    # report to the service (``Service.shown``); the version shown again after a restart
    displayed: int = 0
    announced: int = 0
    reported: int = 0
    resumed: int | None = None
    # which table it is (``TableInfo.created``: a new table at the chat is another slot)
    created: float = 0.0
    # on a shared store: an edit of this process's landed after a newer one (it drew the
    # table before another process's change): draw it again even if shown since
    redraw: bool = False


class Adapter:
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
        admin_ttl: float = 60.0,
        refusal_ttl: float = REFUSAL_TTL,
        unreachable_ttl: float = UNREACHABLE_TTL,
    ) -> None:
        if settings.telegram_token is None:
            raise ValueError("UNO_TELEGRAM_TOKEN is not set")
        self.settings = settings
        self.service = service
        self.limits = limits or self.default_limits
        # several processes share the database: nothing here is the only copy of what
        # another one needs (the table's data is; see ``_send_table_shared``)
        self.shared = bool(getattr(service, "shared", False))
        self._election: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._polling_lease: str | None = None
        self._swept: Lru[str, int] = Lru(MEMORY)  # tables shown again by the sweep: version
        self.poll_timeout = poll_timeout
        self.admin_ttl = admin_ttl
        self.refusal_ttl = refusal_ttl
        self.unreachable_ttl = unreachable_ttl
        self.app: Application[Any, Any, Any, Any, Any, Any] | None = None
        self.outbox: Outbox | None = None
        self.username: str | None = None
        # bounded: an evicted table slot is made again from the table's meta (``tg_msg``)
        self._slots: Lru[str, _Slot] = Lru(MEMORY)
        self._slot_no = 0
        # (table, user) -> private hand message; entries go when the table closes
        self._dm: dict[tuple[str, int], int] = {}
        self._private: dict[tuple[str, int], deque[Event]] = {}
        self._tg_lang: Lru[int, str | None] = Lru(MEMORY)  # a user's Telegram language_code
        self._user_lang: Lru[int, str | None] = Lru(MEMORY)  # a user's saved language
        self._chat_lang: Lru[int, str | None] = Lru(MEMORY)
        self._admins: Lru[tuple[int, int], tuple[bool, float]] = Lru(2 * MEMORY)
        self._choices: Lru[tuple[str, int], tuple[Posted, float]] = Lru(MEMORY)
        # (chat, message) -> what it was last sent with: an edit that changes nothing is
        # not sent (Telegram refuses it, and it costs a token of the chat's budget)
        self._contents: Lru[tuple[int, int], tuple[str, str | None]] = Lru(2 * MEMORY)
        self._expiring: dict[tuple[int, int], asyncio.TimerHandle] = {}
        # users whose private chat refused the bot: until when it is not tried again
        self._unreachable: Lru[int, float] = Lru(MEMORY)
        self._stopping = False
        self.titles: Lru[int, str] = Lru(MEMORY)
        self.usernames: Lru[str, int] = Lru(MEMORY)  # @username -> user id (for /kick)
        self._moved: Lru[int, int] = Lru(MEMORY)  # a group's old id -> its supergroup's
        from adapters.telegram.handlers import Handlers

        self.handlers = Handlers(self)
        # the card stickers (``UNO_TELEGRAM_OWNER``): read or made at start
        self.cards = StickerSets(
            getattr(service, "store", None),
            settings.telegram_owner,
            enabled=settings.card_images,
            worker=getattr(service, "worker", "telegram"),
        )

    @property
    def stickers(self) -> Pictures | None:
        """The card set as stickers, once made (else the cards are text)."""
        return self.cards.pictures

    # -- life cycle -----------------------------------------------------------------------

    @property
    def bot(self) -> Any:
        assert self.app is not None, "the adapter is not started"
        return self.app.bot

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
            .concurrent_updates(PerUser(64))  # one user's updates in order
            # aiohttp, not httpx: a tenth of the CPU a request (adapters/telegram/http.py)
            .request(AiohttpRequest())
            .get_updates_request(AiohttpRequest(connection_pool_size=1))
            .build()
        )
        self.handlers.install(app)
        self.app = app
        pace = self._pace if self.shared else None
        self.outbox = Outbox(self.limits, on_migrated=self.migrate, pace=pace)
        await app.initialize()
        await self._remember_moves()
        self.username = app.bot.username
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
            self._polling_lease = f"telegram-poll:{app.bot.id}"
            self._election = asyncio.create_task(self._elect(), name="tg-election")
        else:
            await self._start_polling()
        log.info("telegram: @%s is up", self.username)

    async def _start_polling(self) -> None:
        assert self.app is not None and self.app.updater is not None
        await self.app.updater.start_polling(
            poll_interval=0.0,
            timeout=dtm.timedelta(seconds=self.poll_timeout),
            allowed_updates=UPDATES,
        )

    @property
    def polling(self) -> bool:
        """Whether this process polls Telegram for updates now."""
        updater = self.app.updater if self.app is not None else None
        return updater is not None and updater.running and not self.settings.telegram_webhook_url

    async def _elect(self) -> None:
        """Poll while this process holds the polling lease (several processes, one update
        stream): take it when free, renew it, stop polling once it could not be renewed
        in time (the database out of reach) or was lost."""
        name = self._polling_lease
        assert name is not None
        store, owner = self.service.store, self.service.worker
        loop = asyncio.get_running_loop()
        held: float | None = None  # when the lease was last granted (loop time)
        while True:
            granted: bool | None
            try:
                granted = await asyncio.wait_for(
                    store.lease(name, owner, time.time(), POLL_LEASE), POLL_RENEW
                )
            except asyncio.CancelledError:
                raise
            except Exception as err:  # (TimeoutError too) held until it runs out here
                log.warning("telegram: the polling lease could not be renewed: %s", err)
                granted = None
            now = loop.time()
            if granted:
                held = now
            elif granted is False:
                held = None
            holding = held is not None and now - held < POLL_LEASE - POLL_RENEW
            try:
                if holding and not self.polling:
                    log.info("telegram: process %s polls for updates", owner)
                    await self._start_polling()
                elif not holding and self.polling:
                    log.info("telegram: process %s no longer holds the polling lease", owner)
                    await self.app.updater.stop()  # type: ignore[union-attr]
            except asyncio.CancelledError:
                raise
            except Exception as err:  # (Telegram out of reach: tried again next round)
                log.warning("telegram: starting or stopping polling failed: %s", err)
            await asyncio.sleep(POLL_RENEW if holding else STANDBY_SECONDS)

    async def _pace(self, chat: int, urgent: bool) -> float:
        """The seconds before the next send to group ``chat`` may go, reserved among every
        process (``Store.pace``): at most ``group_per_minute`` a minute, whoever sends."""
        lim = self.limits
        spare = 0 if urgent else lim.group_reserve
        return await self.service.store.pace(
            f"tg:{chat}", time.time(), 1.0 / lim.group_rate, lim.group_burst, spare
        )

    async def _abort(self) -> None:
        """Undo a start that failed half-way: whatever runs is stopped, whatever is open
        (PTB's HTTP clients, even after a failed ``initialize``) closed. Never raises."""
        app, outbox = self.app, self.outbox
        self.app = self.outbox = None
        self.username = None
        with contextlib.suppress(Exception):
            await self.cards.stop()
        await self._end_tasks()
        for handle in self._expiring.values():
            handle.cancel()
        self._expiring.clear()
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
        await self._release_polling()
        if app.running:
            await app.stop()
        self._stopping = True
        for (chat, mid), handle in list(self._expiring.items()):
            handle.cancel()
            self._delete(chat, mid)
        if self.outbox is not None:
            await self.outbox.flush(flush)
            await self.outbox.close()
        await app.shutdown()
        self.app = None
        self._stopping = False

    async def _end_tasks(self) -> None:
        tasks = [t for t in (self._election, self._sweeper) if t is not None]
        self._election = self._sweeper = None
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    async def _release_polling(self) -> None:
        """Give the polling lease up (once polling stopped): a standby polls at once."""
        name, self._polling_lease = self._polling_lease, None
        if name is None:
            return
        try:
            await self.service.store.release(name, self.service.worker)
        except Exception as err:  # it runs out by itself
            log.warning("telegram: the polling lease could not be released: %s", err)

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
        live process is slow to show, shows it without that line)."""
        if self.shared:
            # other processes are alive: only what has waited long enough is a dead one's
            found = await self.service.behind(self.prefix, idle=SWEEP_IDLE / self.limits.scale)
            behind = [i for i in found if (self._swept.get(i.key) or 0) < i.version]
            for info in behind:
                self._swept[info.key] = info.version
        else:
            behind = await self.service.behind(self.prefix)
        for info in behind:
            if info.status in OPEN:
                slot = self._slot(info)
                if restarted:
                    slot.resumed = info.version
                await self.show_table(info, [])
            else:
                await self.closed(info)  # its last edit, without buttons
                slot = self._slots[info.key]
            self._queue_news(slot)
        if behind:
            why = "after a restart" if restarted else "left unshown"
            log.info("telegram: %d tables shown again %s", len(behind), why)

    async def _set_commands(self) -> None:
        for lang, code in (("en", None), ("zh_Hans", "zh")):
            tr = translator(lang)
            commands = [BotCommand(c, render.command_help(c, tr)) for c in render.COMMANDS]
            try:
                await self.bot.set_my_commands(commands, language_code=code)
            except TelegramError as err:
                log.warning("setMyCommands (%s) failed: %s", lang, err)

    # -- languages and permissions ---------------------------------------------------------

    def seen_user(self, user: Any) -> None:
        """Remember a Telegram user's ``language_code`` (their private language until they
        choose one)."""
        self._tg_lang[user.id] = getattr(user, "language_code", None)
        if getattr(user, "username", None):
            self.usernames[user.username.lower()] = user.id

    async def user_lang(self, uid: int) -> str:
        # (on a shared store another process may have saved a new one: asked every time)
        if self.shared or uid not in self._user_lang:
            self._user_lang[uid] = await self.service.user_lang(player_id(uid))
        return resolve_lang(self._user_lang[uid], self._tg_lang.get(uid))

    async def user_tr(self, uid: int) -> Translator:
        return translator(await self.user_lang(uid))

    def set_user_lang(self, uid: int, lang: str | None) -> None:
        self._user_lang[uid] = lang

    async def chat_lang(self, chat: int) -> str:
        if self.shared or chat not in self._chat_lang:
            self._chat_lang[chat] = await self.service.chat_lang(scope_of(chat))
        return resolve_lang(self._chat_lang[chat])

    async def chat_tr(self, chat: int) -> Translator:
        return translator(await self.chat_lang(chat))

    def set_chat_lang(self, chat: int, lang: str) -> None:
        self._chat_lang[chat] = lang

    async def is_admin(self, chat: int, uid: int) -> bool:
        """A chat's creator or administrator (for kick, stop, settings)."""
        if chat == uid:
            return True  # one's own private chat
        loop = asyncio.get_running_loop()
        found = self._admins.get((chat, uid))
        if found is not None and found[1] > loop.time():
            return found[0]
        try:
            member = await self.bot.get_chat_member(chat, uid)
            ok = member.status in ("creator", "administrator")
        except TelegramError as err:
            log.info("getChatMember %s/%s failed: %s", chat, uid, err)
            ok = False
        self._admins[(chat, uid)] = (ok, loop.time() + self.admin_ttl)
        return ok

    # -- a group upgraded to a supergroup -----------------------------------------------------

    async def _remember_moves(self) -> None:
        """After a restart: the groups whose open tables moved to a supergroup."""
        for key in self.service.open_tables():
            if not key.startswith(self.prefix + ":"):
                continue
            info = await self.service.table(key)
            old = info.meta.get("tg_from") if info is not None else None
            if isinstance(old, int) and not isinstance(old, bool):
                self._moved[old] = chat_of(key)[0]

    def current_key(self, key: str) -> str:
        """The table key now, for a key naming a group that became a supergroup (the
        buttons of private hands, inline results and deep links made before)."""
        try:
            chat, thread = chat_of(key)
        except ValueError:
            return key
        new = self._moved.get(chat)
        return key if new is None else key_of(new, thread)

    async def migrate(self, old: int, new: int) -> None:
        """Group ``old`` is supergroup ``new`` now: move its tables there and show each
        open one afresh (the old chat's messages cannot be edited any more). Called for
        both service messages and for every send that fails with ``ChatMigrated``: once
        moved, the next calls find nothing to do."""
        if old == new:
            return
        self._moved[old] = new
        title = self.titles.get(old)
        if title is not None and new not in self.titles:
            self.titles[new] = title
        moved = await self.service.move_scope(
            scope_of(old),
            scope_of(new),
            lambda k: key_of(new, chat_of(k)[1]),
            meta=lambda m: _fresh(m, old),
        )
        self._chat_lang.pop(old, None)
        self._chat_lang.pop(new, None)  # the old chat's language may have moved there
        if self.outbox is not None:
            self.outbox.move(old, new)  # what waits for the old chat: one lane, one table
        for old_key, info in moved.items():
            slot = self._slots.pop(old_key, None)
            for k in [k for k in self._dm if k[0] == old_key]:
                self._dm[(info.key, k[1])] = self._dm.pop(k)
            for k in [k for k in self._private if k[0] == old_key]:
                self._private[(info.key, k[1])] = self._private.pop(k)
            if info.status not in OPEN:
                continue
            if slot is not None and not slot.final:
                # the same slot, in the new chat: what it still has to say (announcements
                # not made yet, the recent lines: the table's own) goes there, on a new
                # table message
                slot.key, slot.chat, slot.msg_id, slot.info = info.key, new, None, info
                self._slots[info.key] = slot
            await self.show_table(info, [])
        if moved:
            log.info("telegram: group %s is supergroup %s now: %d tables moved",
                     old, new, len(moved))  # fmt: skip

    # -- the port ----------------------------------------------------------------------------

    def _slot(self, info: TableInfo) -> _Slot:
        slot = self._slots.get(info.key)
        if slot is None or slot.final or slot.created != info.created:
            chat, thread = chat_of(info.key)
            self._slot_no += 1
            msg = info.meta.get("tg_msg")
            slot = _Slot(
                info.key,
                chat,
                thread,
                self._slot_no,
                info,
                msg if isinstance(msg, int) else None,
                created=info.created,
            )
            # what the service knows was shown: its announcements up to there are made
            slot.displayed = slot.announced = slot.reported = info.shown
            self._slots[info.key] = slot
            for name, value in info.meta.items():  # private hands, after a restart
                if name.startswith("dm") and name[2:].isdigit() and isinstance(value, int):
                    self._dm.setdefault((info.key, int(name[2:])), value)
        if self.shared:
            self._learn(slot, info)
        return slot

    def _learn(self, slot: _Slot, info: TableInfo) -> None:
        """On a shared store: what the table's data says, another process may have written
        it (the table message, the announcements made, the private hand messages)."""
        if info.created != slot.created:
            return
        meta = info.meta
        msg = meta.get("tg_msg")
        if isinstance(msg, int) and not isinstance(msg, bool):
            slot.msg_id = msg
        slot.announced = max(slot.announced, _said(info))
        for name, value in meta.items():
            if name.startswith("dm") and name[2:].isdigit() and isinstance(value, int):
                self._dm[(info.key, int(name[2:]))] = value

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        """Queue one coalesced edit of the table message."""
        slot = self._slot(table)
        if not self.shared or table.version >= slot.info.version:
            slot.info = table  # its recent lines included (kept with the table)
        self._queue_table(slot)
        # private hands show whose turn it is and carry the version: refresh them all
        for key, uid in [k for k in self._dm if k[0] == table.key]:
            self.queue_hand(key, uid)
        if self.shared and self._unannounced(slot):
            # announcements another process made, or died before making: claimed, so
            # they are made once
            self._queue_news(slot)

    def _queue_table(self, slot: _Slot) -> None:
        if self.outbox is None:
            return

        async def job() -> None:
            await self._send_table(slot)

        self.outbox.put(slot.chat, ("table", slot.n), job, urgent=INTERACTIVE.get())

    async def _send_table(self, slot: _Slot) -> None:
        # one at a time: after a chat moved, its old lane and its new one may both hold
        # this table's edit, and only one may send the new table message
        async with slot.sending:
            if self.shared:
                await self._send_table_shared(slot)
            else:
                await self._send_table_now(slot)

    async def _send_table_now(self, slot: _Slot) -> None:
        info = slot.info
        tr = translator(info.lang)
        recent = render.recent_lines(info, tr)
        if slot.resumed == info.version:
            recent.append(tr.gettext(RESUMED))
        text, markup = views.table_message(info, tr, recent, self.username)
        if slot.msg_id is not None:
            try:
                await self.edit_text(slot.chat, slot.msg_id, text, markup)
                await self._displayed(slot, info)
                return
            except BadRequest as err:
                if not _gone(err):
                    raise
                log.info("table message of %s is gone (%s): sending it again", slot.key, err)
        msg = await self.bot.send_message(
            slot.chat, text, reply_markup=markup, message_thread_id=slot.thread
        )
        self._sent(slot.chat, msg.message_id, text, markup)
        slot.msg_id = msg.message_id
        if not slot.final:
            await self.service.set_meta(slot.key, tg_msg=msg.message_id)
        await self._displayed(slot, info)

    async def _displayed(self, slot: _Slot, info: TableInfo) -> None:
        slot.displayed = max(slot.displayed, info.version)
        await self._report(slot)

    # -- several processes on one database -------------------------------------------------

    async def _send_table_shared(self, slot: _Slot) -> None:
        """The table message when other processes show the same tables: any of them may
        have changed the table since this edit was queued, sent its message, or edited
        it. So the table is drawn as stored now; its message is the one its data names
        (``tg_msg``), and a new one is sent by one process only (claimed in the table's
        data); and an edit that lands after another process's newer one is drawn again:
        the message ends on the newest version, whoever edited last."""
        info = await self._newest(slot)
        if info is None:
            return  # another table at the chat now: this one's last edit is not ours
        if info.shown >= info.version and not slot.redraw:
            slot.displayed = max(slot.displayed, info.shown)
            return  # on screen already (another process showed it)
        slot.redraw = False
        tr = translator(info.lang)
        recent = render.recent_lines(info, tr)
        if slot.resumed == info.version:
            recent.append(tr.gettext(RESUMED))
        text, markup = views.table_message(info, tr, recent, self.username)
        mid = slot.msg_id
        if mid is not None:
            try:
                # whatever this process last sent there, another may have edited it since
                await self.edit_text(slot.chat, mid, text, markup, force=True)
            except BadRequest as err:
                if not _gone(err):
                    raise
                log.info("table message of %s is gone (%s): sending it again", slot.key, err)
                created = slot.created
                await self.service.change_meta(
                    slot.key,
                    lambda i: (
                        {"tg_msg": None}
                        if i.created == created and i.meta.get("tg_msg") == mid
                        else None
                    ),
                )
                slot.msg_id = None
            else:
                await self._displayed(slot, info)
                await self._recheck(slot, info)
                return
        granted, stored = await self._claim(slot, "tg_sending", _has_message)
        if not granted:
            if stored is not None and stored.created == slot.created and _has_message(stored):
                self._learn(slot, stored)
                self._queue_table(slot)  # sent by another process meanwhile: edit it
            elif stored is not None and stored.created == slot.created:
                self._later(self._queue_table, slot)  # another process is sending it
            return
        msg = await self.bot.send_message(
            slot.chat, text, reply_markup=markup, message_thread_id=slot.thread
        )
        self._sent(slot.chat, msg.message_id, text, markup)
        slot.msg_id = mid = msg.message_id
        created = slot.created
        await self.service.change_meta(
            slot.key,
            lambda i: {"tg_msg": mid, "tg_sending": None} if i.created == created else None,
        )
        await self._displayed(slot, info)
        await self._recheck(slot, info)

    async def _newest(self, slot: _Slot) -> TableInfo | None:
        """Slot's table as stored now (``None``: another table took its chat, and this
        process did not close this one: another did, and showed it closed)."""
        info = await self.service.table(slot.key)
        if info is None or info.created != slot.created:
            return slot.info if slot.final else None
        if info.version >= slot.info.version:
            slot.info = info
        self._learn(slot, info)
        return slot.info

    async def _recheck(self, slot: _Slot, drawn: TableInfo) -> None:
        """After an edit: a newer version stored meanwhile (another process's change, whose
        own edit may have landed first) is drawn again."""
        info = await self.service.table(slot.key)
        if info is not None and info.created == slot.created and info.version > drawn.version:
            slot.redraw = True
            self._queue_table(slot)

    async def _claim(
        self, slot: _Slot, name: str, done: Callable[[TableInfo], bool]
    ) -> tuple[bool, TableInfo | None]:
        """Claim, in the table's data (entry ``name``), a send only one process may make,
        unless ``done`` says it is made: granted unless another process's claim holds
        (for ``CLAIM_SECONDS``: one that died is taken over then). Returns whether it was
        granted, and the table as stored."""
        me = self.service.worker
        granted = False

        def decide(info: TableInfo) -> dict[str, Any] | None:
            nonlocal granted
            granted = False
            if info.created != slot.created or done(info):
                return None
            held = info.meta.get(name)
            now = time.time()
            if (
                isinstance(held, list)
                and len(held) == 2
                and held[0] != me
                and isinstance(held[1], int | float)
                and held[1] > now
            ):
                return None
            granted = True
            return {name: [me, now + CLAIM_SECONDS]}

        stored = await self.service.change_meta(slot.key, decide)
        return granted, stored

    def _later(self, queue: Callable[[_Slot], None], slot: _Slot) -> None:
        """``queue(slot)`` again in a moment (another process holds what it needs)."""
        loop = asyncio.get_running_loop()
        loop.call_later(CLAIM_RETRY / self.limits.scale, queue, slot)

    async def _send_news_shared(self, slot: _Slot) -> None:
        """The announcements not made yet, when other processes show the same tables: made
        by the process that claims them (``tg_saying``), noted made in the table's data
        (``tg_said``: the version they were made up to), so that each is made once."""
        info = await self._newest(slot)
        if info is None:
            return
        news = self._unannounced(slot)
        if not news:
            return
        top = max(p.version for p in news)
        granted, stored = await self._claim(slot, "tg_saying", lambda i: _said(i) >= top)
        if not granted:
            if stored is None or stored.created != slot.created:
                if not slot.final:
                    return  # (another table at the chat: this one was another's to close)
                # this process closed it and another table came at once: no claim to make
            elif _said(stored) >= top:  # made by another process
                self._learn(slot, stored)
                await self._report(slot)
                return
            else:
                self._later(self._queue_news, slot)  # being made by another process
                return
        elif stored is not None and stored.version >= slot.info.version:
            slot.info = stored  # (newer announcements may have come meanwhile)
        news = self._unannounced(slot)
        if not news:
            return
        top = max(p.version for p in news)
        tr = translator(slot.info.lang)
        names = slot.info.names
        body = "\n".join(notice_text(Notice(p.code, p.params), tr, names) for p in news)
        await self.bot.send_message(slot.chat, body, message_thread_id=slot.thread)
        slot.announced = max(slot.announced, top)
        created = slot.created
        await self.service.change_meta(
            slot.key,
            lambda i: (
                {"tg_said": max(_said(i), top), "tg_saying": None}
                if i.created == created
                else None
            ),
        )
        await self._report(slot)

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        """Refresh the private-chat hand of a player who plays from there."""
        uid = user_of(player)
        if uid is None:
            return
        mid = self._dm_message(table, uid)
        if mid is None:
            return  # plays through inline mode only
        mine = [e for e in events if _private_interest(e, player)]
        if mine:
            self._private.setdefault((table.key, uid), deque(maxlen=PRIVATE_RECENT)).extend(mine)
        self.queue_hand(table.key, uid)

    def _dm_message(self, table: TableInfo, uid: int) -> int | None:
        mid = self._dm.get((table.key, uid))
        if mid is None:
            stored = table.meta.get(f"dm{uid}")
            if isinstance(stored, int):
                mid = self._dm[(table.key, uid)] = stored
        return mid

    def queue_hand(self, key: str, uid: int) -> None:
        if self.outbox is None or not self.can_message(uid):
            return

        async def job() -> None:
            try:
                await self.send_hand(key, uid)
            except Forbidden as err:  # blocked the bot since: their hand waits for /hand
                self.cannot_message(uid, err)

        self.outbox.put(uid, ("hand", key), job)

    async def _hand_view(
        self, info: TableInfo, uid: int, tr: Translator
    ) -> tuple[str, InlineKeyboardMarkup | None, bool]:
        key = info.key
        player = player_id(uid)
        view = await self.service.hand(key, player)
        legal = await self.service.legal(key, player)
        events = self._private.get((key, uid), ())
        lines = render.event_lines(events, tr, info.names)
        title = self.titles.get(chat_of(key)[0])
        text, markup = views.hand_message(info, view, legal, tr, lines, title)
        return text, markup, view is not None

    def remember_dm(self, key: str, uid: int, message_id: int) -> None:
        self._dm[(key, uid)] = message_id

    async def send_hand(self, key: str, uid: int, *, new: bool = False) -> int | None:
        """Edit ``uid``'s private hand message for table ``key`` (``new``: send one and
        follow the game there from now on)."""
        info = await self.service.table(key)
        tr = await self.user_tr(uid)
        if info is None:
            if new:
                await self.bot.send_message(uid, notice_text(Notice("no_table"), tr))
            return None
        text, markup, seated = await self._hand_view(info, uid, tr)
        if not seated:
            if new:
                await self.bot.send_message(uid, text)
            if info.status not in OPEN:  # left before the end: nothing more to show
                self._dm.pop((key, uid), None)
                self._private.pop((key, uid), None)
            return None
        mid = None if new else self._dm.get((key, uid))
        if self.shared and not new:
            stored = info.meta.get(f"dm{uid}")  # (another process may have sent a new one)
            if isinstance(stored, int) and not isinstance(stored, bool):
                mid = self._dm[(key, uid)] = stored
        if mid is not None:
            try:
                await self.edit_text(uid, mid, text, markup, force=self.shared)
            except BadRequest as err:
                if not _gone(err):
                    raise
                mid = None
            else:
                if self.shared:  # a newer version meanwhile: another process's edit of it
                    now = await self.service.table(key)  # may have landed before this one
                    if now is not None and now.version > info.version:
                        self.queue_hand(key, uid)
        if mid is None:
            msg = await self.bot.send_message(uid, text, reply_markup=markup)
            mid = int(msg.message_id)
            self._sent(uid, mid, text, markup)
            self._dm[(key, uid)] = mid
            if info.status in OPEN:
                await self.service.set_meta(key, **{f"dm{uid}": mid})
        if info.status not in OPEN and self._dm.get((key, uid)) == mid:
            del self._dm[(key, uid)]  # the table ended: this message is final
            self._private.pop((key, uid), None)
        return mid

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        """Round and game results as a new group message; the rest on the table message."""
        slot = self._slot(table)
        if table.status == LOBBY and notice.code in QUIET_IN_LOBBY:
            self._queue_table(slot)  # the seat list says it
            return
        if notice.code not in NEWS:
            self._queue_table(slot)  # one of its recent lines (``on_table``)
            return
        if table.version >= slot.info.version:
            slot.info = table  # its pending announcements include this one
        self._queue_news(slot)

    def _is_news(self, p: Pending) -> bool:
        """A pending announcement this adapter makes as a group message of its own."""
        return p.code in NEWS and not (p.status == LOBBY and p.code in QUIET_IN_LOBBY)

    def _unannounced(self, slot: _Slot) -> list[Pending]:
        return [p for p in slot.info.pending if p.version > slot.announced and self._is_news(p)]

    def _queue_news(self, slot: _Slot) -> None:
        """One group message for the announcements not made yet (the table's ``pending``:
        also those a crash kept from being made)."""
        if self.outbox is None:
            return

        async def job() -> None:
            if self.shared:
                await self._send_news_shared(slot)
                return
            news = self._unannounced(slot)
            if not news:
                return
            info = slot.info
            tr = translator(info.lang)
            body = "\n".join(notice_text(Notice(p.code, p.params), tr, info.names) for p in news)
            await self.bot.send_message(slot.chat, body, message_thread_id=slot.thread)
            slot.announced = max(slot.announced, *(p.version for p in news))
            await self._report(slot)

        # a result goes before the table edits waiting in the chat's lane (issue 11)
        self.outbox.put(slot.chat, ("news", slot.n), job, first=True)

    async def _report(self, slot: _Slot) -> None:
        """Tell the service what the chat has seen of the table: the message on screen,
        the announcements up to it made (``Service.shown``: its windows count from now)."""
        upto = slot.displayed
        waiting = self._unannounced(slot)
        if waiting:
            upto = min(upto, min(p.version for p in waiting) - 1)
        if upto <= slot.reported:
            return
        slot.reported = upto
        try:
            await self.service.shown(slot.key, upto)
        except Exception as err:  # a courtesy to the timers: never the reason a send fails
            log.warning("table %s: could not note version %d shown: %s", slot.key, upto, err)

    def on_table(self, key: str, status: str, notice: Notice) -> bool:
        """A notice the table message shows among its recent lines (kept with the table):
        not news of its own, and not what the lobby's seat list says already."""
        return notice.code not in NEWS and not (status == LOBBY and notice.code in QUIET_IN_LOBBY)

    async def tell(self, table_key: str, user: str, notice: Notice, origin: Any) -> None:
        """Privately: an alert on the button just pressed, else the private chat (else, for
        a refusal of what they typed or chose in a group, a short-lived reply there)."""
        uid = user_of(user)
        if uid is None:
            return  # a bot seat
        if isinstance(origin, Origin) and origin.user == uid:
            if origin.query is not None:
                tr = translator(origin.lang)
                origin.alerts.append(self._notice(notice, tr, table_key))
                return
            self.dm_notice(uid, notice, table_key, origin)
            return
        self.dm_notice(uid, notice, table_key)

    def _notice(self, notice: Notice, tr: Translator, key: str) -> str:
        slot = self._slots.get(key)
        names = slot.info.names if slot is not None else {}
        text = notice_text(notice, tr, names)
        if notice.code == "info.revealed" and len(text) > views.ALERT_MAX:
            cards = " ".join(
                render.card_short(Card.parse(c)) for c in notice.params.get("cards", ())
            )
            text = tr.format(
                render.INFOS["info.revealed"],
                player=names.get(notice.params.get("player", ""), "?"),
                cards=cards,
            )
        return text

    def dm_notice(self, uid: int, notice: Notice, key: str, origin: Origin | None = None) -> None:
        """A notice in ``uid``'s private chat; one that tells nothing of a hand (a refusal,
        "you are in for the next round") falls back to the group as :meth:`refuse` says:
        whoever typed or chose something is always answered."""
        if notice.code not in _SECRET:
            self.refuse(uid, lambda tr: self._notice(notice, tr, key), origin)
            return

        async def job() -> None:
            tr = await self.user_tr(uid)
            await self.bot.send_message(uid, self._notice(notice, tr, key))

        self.dm(uid, job)

    def refuse(self, uid: int, text: Callable[[Translator], str], origin: Origin | None) -> None:
        """A refusal (or a hint) not tied to a button, in ``uid``'s language: privately;
        when the private chat is closed to the bot and ``origin`` is what they typed (or
        chose from inline results) in a group, as a reply there, with a button opening the
        private chat, deleted after ``refusal_ttl`` seconds. Refusal texts are not secret;
        hands never come this way."""

        async def job() -> None:
            tr = await self.user_tr(uid)
            await self.bot.send_message(uid, text(tr))

        # one refusal waiting per user at most, the latest: a flood of refused presses
        # or choices costs one message, not one each
        if origin is None or origin.user != uid or not (origin.posted or origin.chosen):
            self.dm(uid, job, key=REFUSAL)
            return
        came_from = origin

        def fallback() -> None:
            self._reply_in_group(uid, text, came_from)

        self.dm(uid, job, fallback, key=REFUSAL)

    def _reply_in_group(self, uid: int, text: Callable[[Translator], str], origin: Origin) -> None:
        where = origin.posted
        if where is None and origin.chosen is not None:
            found = self._choices.get((origin.chosen, uid))
            loop = asyncio.get_running_loop()
            if found is not None and found[1] > loop.time() - CHOICE_TTL:
                where = found[0]
        if where is None or self.outbox is None:
            return  # an inline choice whose message the bot did not see: nothing to answer
        posted = where

        async def job() -> None:
            tr = await self.user_tr(uid)
            link = views.deep_link(self.username, "help")  # names no table: the help
            markup = None
            if link is not None:
                button = InlineKeyboardButton("💬 " + tr.gettext(OPEN_CHAT), url=link)
                markup = InlineKeyboardMarkup([[button]])
            msg = await self.bot.send_message(
                posted.chat,
                text(tr),
                reply_markup=markup,
                message_thread_id=posted.thread,
                reply_parameters=ReplyParameters(
                    posted.message_id, allow_sending_without_reply=True
                ),
            )
            self._expire(posted.chat, msg.message_id)

        self.outbox.put(posted.chat, (REFUSAL, uid), job)

    def saw_choice(self, key: str, uid: int, posted: Posted) -> None:
        """The message a user's inline choice posted at table ``key`` (for a refusal)."""
        self._choices[(key, uid)] = (posted, asyncio.get_running_loop().time())

    def _expire(self, chat: int, message_id: int) -> None:
        """Delete a message of the bot's after ``refusal_ttl`` seconds (at once when
        stopping)."""
        if self._stopping:
            self._delete(chat, message_id)
            return
        loop = asyncio.get_running_loop()
        handle = loop.call_later(self.refusal_ttl, self._delete, chat, message_id)
        self._expiring[(chat, message_id)] = handle

    def _delete(self, chat: int, message_id: int) -> None:
        """Delete a message of the bot's, through the outbox."""
        self._expiring.pop((chat, message_id), None)
        if self.outbox is None:
            return

        async def job() -> None:
            try:
                await self.bot.delete_message(chat, message_id)
            except BadRequest as err:  # deleted already, or too old
                log.info("chat %s: a reply could not be deleted: %s", chat, err)

        self.outbox.put(chat, ("delete", message_id), job)

    def dm(
        self,
        uid: int,
        job: Callable[[], Awaitable[Any]],
        fallback: Callable[[], None] | None = None,
        *,
        key: Hashable | None = None,
    ) -> None:
        """A private message; a user who never opened the private chat, or blocked the bot,
        is skipped quietly (``fallback`` is called then, if given), and remembered for a
        while (:meth:`cannot_message`): no message is tried again meanwhile. ``key``: a
        newer message with the same key replaces one still waiting."""
        if self.outbox is None:
            return
        if not self.can_message(uid):
            if fallback is not None:
                fallback()
            return

        async def quiet() -> None:
            if not self.can_message(uid):  # learnt while this waited
                if fallback is not None:
                    fallback()
                return
            try:
                await job()
            except (Forbidden, BadRequest) as err:
                if isinstance(err, BadRequest) and "chat not found" not in str(err).lower():
                    raise
                self.cannot_message(uid, err)
                if fallback is not None:
                    fallback()

        self.outbox.put(uid, key, quiet)

    def can_message(self, uid: int) -> bool:
        """Whether the bot may try a private message to ``uid``: not while a recent try
        was refused (never opened the chat, blocked the bot)."""
        until = self._unreachable.get(uid)
        if until is None:
            return True
        if until <= asyncio.get_running_loop().time():
            self._unreachable.pop(uid, None)
            return True
        return False

    def cannot_message(self, uid: int, err: Exception | None = None) -> None:
        """Telegram refused a private message to ``uid``: none is tried for
        ``unreachable_ttl`` seconds, or until they write to the bot privately."""
        if uid not in self._unreachable:
            log.info("user %s cannot be messaged: %s", uid, err)
        loop = asyncio.get_running_loop()
        self._unreachable[uid] = loop.time() + self.unreachable_ttl

    def reachable(self, uid: int) -> None:
        """``uid`` wrote to the bot in the private chat: it can message them again."""
        self._unreachable.pop(uid, None)

    def edit(self, q: CallbackQuery, text: str, markup: InlineKeyboardMarkup | None) -> None:
        """Edit the message whose button was pressed (a menu), paced like every send; the
        latest of several quick presses wins."""
        msg = q.message
        if msg is None or self.outbox is None:
            return
        chat, mid = msg.chat.id, msg.message_id

        async def job() -> None:
            await self.edit_text(chat, mid, text, markup)

        self.outbox.put(chat, ("menu", mid), job, urgent=True)

    async def edit_text(
        self,
        chat: int,
        message_id: int,
        text: str,
        markup: InlineKeyboardMarkup | None,
        *,
        force: bool = False,
    ) -> bool:
        """Edit a message of the bot's to ``text`` and ``markup``, unless that is what it
        shows already (as far as this process knows: what it last sent there), which
        Telegram would refuse as "message is not modified". False if nothing was sent.
        ``force``: sent whatever this process last sent (other processes edit it too)."""
        shown = _content(text, markup)
        if not force and self._contents.get((chat, message_id)) == shown:
            return False
        try:
            await self.bot.edit_message_text(
                text, chat_id=chat, message_id=message_id, reply_markup=markup
            )
        except BadRequest as err:
            if "not modified" not in str(err).lower():  # after a restart: it is shown
                raise
        self._contents[(chat, message_id)] = shown
        return True

    def _sent(self, chat: int, message_id: int, text: str, markup: Any) -> None:
        """A message of the bot's was sent with this content (see :meth:`edit_text`)."""
        self._contents[(chat, message_id)] = _content(text, markup)

    def say(self, chat: int, thread: int | None, text: str, markup: Any = None) -> None:
        """A reply in a chat (commands that ask for one: /rules, /stats, /help...)."""
        if self.outbox is None:
            return

        async def job() -> None:
            where = self._moved.get(chat) or chat  # a group that became a supergroup
            await self.bot.send_message(where, text, reply_markup=markup, message_thread_id=thread)

        self.outbox.put(chat, None, job)

    async def closed(self, table: TableInfo) -> None:
        """The table ended: a last edit without buttons; private hands lose theirs. The
        hands of players who left before are forgotten."""
        slot = self._slot(table)
        slot.info = table
        slot.final = True
        self._queue_table(slot)
        seated = set()
        for s in table.seats:
            uid = user_of(s.id)
            if uid is not None and self._dm_message(table, uid) is not None:
                seated.add(uid)
                self.queue_hand(table.key, uid)
        for k in [k for k in self._dm if k[0] == table.key and k[1] not in seated]:
            del self._dm[k]
        for k in [k for k in self._private if k[0] == table.key and k[1] not in seated]:
            del self._private[k]

    # -- helpers for handlers ----------------------------------------------------------------

    async def answer(self, query: CallbackQuery, origin: Origin) -> None:
        """Answer a callback query exactly once: alerts for what the service said. Never
        raises: a failure is retried briefly, then logged (without the update)."""
        text = "\n".join(origin.alerts)
        if len(text) > views.ALERT_MAX:
            # too long for an alert: in full privately, the start of it on the button
            full = text
            self.dm(origin.user, lambda: self.bot.send_message(origin.user, full))
            text = text[: views.ALERT_MAX - 1] + "…"

        async def send() -> Any:
            if origin.url and not text:
                return await query.answer(url=origin.url)
            return await query.answer(text or None, show_alert=bool(text))

        await answer_quietly("answerCallbackQuery", send)

    async def reply_private(self, message: Message, text: str, markup: Any = None) -> None:
        with contextlib.suppress(Forbidden):
            await message.reply_text(text, reply_markup=markup, do_quote=False)


def notice_text(notice: Notice, tr: Translator, names: Mapping[str, str] | None = None) -> str:
    """A service notice as Telegram words it (``not_host``: the host or a group admin,
    what this adapter checks): every notice the adapter shows goes through here."""
    return render.notice_text(notice, tr, names or {}, platform="tg")


async def answer_quietly(
    what: str, send: Callable[[], Awaitable[Any]], *, tries: int = 3, pause: float = 0.3
) -> bool:
    """Answer a callback or inline query (``send``): a 429 or a network error is retried
    (briefly: a query expires in seconds), then the failure is logged by ``what`` alone,
    never with the query. True if it went through."""
    for attempt in range(1, tries + 1):
        last = attempt == tries
        try:
            await send()
            return True
        except RetryAfter as err:
            metrics.rate_limited("tg")
            if last:
                log.warning("%s failed: flood control", what)
                return False
            await asyncio.sleep(min(retry_seconds(err), 5.0))
        except BadRequest as err:  # too old, or answered already: nothing to retry
            log.info("%s failed: %s", what, err)
            return False
        except (TimedOut, NetworkError) as err:
            if last:
                log.warning("%s failed after %d tries: %s", what, tries, err)
                return False
            await asyncio.sleep(pause * attempt)
        except TelegramError as err:
            log.warning("%s failed: %s", what, err)
            return False
    return False


def _said(info: TableInfo) -> int:
    """The version a table's announcements were made up to (in its data, on a shared store;
    those up to the version shown are made too)."""
    said = info.meta.get("tg_said")
    if isinstance(said, int) and not isinstance(said, bool):
        return max(info.shown, said)
    return info.shown


def _has_message(info: TableInfo) -> bool:
    """The table's message was sent (its id is in the table's data)."""
    msg = info.meta.get("tg_msg")
    return isinstance(msg, int) and not isinstance(msg, bool)


def _content(text: str, markup: Any) -> tuple[str, str | None]:
    """A message's content, comparable: its text and its keyboard as JSON."""
    return text, markup.to_json() if markup is not None else None


def _gone(err: BadRequest) -> bool:
    """The message to edit no longer exists (deleted, or too old to edit): send anew."""
    why = str(err).lower()
    return any(s in why for s in ("not found", "message_id_invalid", "can't be"))


def _fresh(meta: dict[str, Any], old_chat: int) -> dict[str, Any]:
    """A moved table's adapter data: its table message was in the old chat (private hand
    messages stay where they are); ``tg_from`` remembers the old chat, so that buttons,
    inline queries and deep links naming it still find the table after a restart."""
    out = {k: v for k, v in meta.items() if k != "tg_msg"}
    out["tg_from"] = old_chat
    return out


def _private_interest(e: Event, player: str) -> bool:
    """Events worth a line on a private hand: the player's own draws (with the cards),
    swaps, and a challenged hand they were shown."""
    if isinstance(e, CardsDrawn):
        return e.player == player and bool(e.cards)
    if isinstance(e, HandsSwapped):
        return player in (e.player, e.target)
    if isinstance(e, HandsRotated):
        return True
    if isinstance(e, ChallengeResolved):
        return e.hand is not None
    return False
