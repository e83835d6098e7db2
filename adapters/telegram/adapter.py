"""The Telegram adapter: a :class:`bot.port.Port` for ``tg:`` tables, on python-telegram-bot.

PTB's life cycle is run by hand (``initialize``/``start``/``updater.start_polling``, then
the reverse) inside the caller's event loop, so other platforms can share it. Updates are
turned into table-service calls by :mod:`adapters.telegram.handlers`; what the service
shows comes back here and goes out through the paced :class:`~.outbox.Outbox`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import logging
from collections import deque
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

from telegram import BotCommand, CallbackQuery, InlineKeyboardMarkup, Message
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.ext import Application

from adapters.telegram import views
from adapters.telegram.codec import chat_of, player_id, scope_of, user_of
from adapters.telegram.outbox import Limits, Outbox, retry_seconds
from bot import render
from bot.config import Settings
from bot.i18n import Translator, resolve_lang, translator
from bot.model import LOBBY
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

__all__ = ["INTERACTIVE", "Adapter", "Origin"]

log = logging.getLogger(__name__)

RECENT = 5  # event lines kept on the table message
PRIVATE_RECENT = 3
UPDATES = ["message", "callback_query", "inline_query", "chosen_inline_result"]
# notices worth a new group message; the rest become lines on the table message
NEWS = frozenset({"info.round_won", "info.game_won", "info.afk_removed", "info.kicked"})
QUIET_IN_LOBBY = frozenset({"info.left", "info.kicked", "info.new_host"})
# set by the handlers: the change being shown is a person's own doing, so its table edit
# may use the token kept in reserve (timers and bot seats run with the default)
INTERACTIVE: ContextVar[bool] = ContextVar("tg_interactive", default=False)


@dataclass(eq=False)
class Origin:
    """Where a service call came from, so that what the service tells the user goes back
    the same way: an alert on the pressed button, or the private chat."""

    user: int
    lang: str
    query: CallbackQuery | None = None
    alerts: list[str] = field(default_factory=list)
    url: str | None = None


@dataclass(eq=False)
class _Slot:
    """One table's public message (a new slot per table: a new game gets a new message)."""

    key: str
    chat: int
    thread: int | None
    n: int
    info: TableInfo
    msg_id: int | None
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT))
    news: list[str] = field(default_factory=list)
    final: bool = False


class Adapter:
    """Telegram front end; ``prefix`` ``tg`` routes ``tg:...`` tables here."""

    prefix = "tg"

    def __init__(
        self,
        settings: Settings,
        service: Service,
        *,
        limits: Limits | None = None,
        poll_timeout: float = 10.0,
        admin_ttl: float = 60.0,
    ) -> None:
        if settings.telegram_token is None:
            raise ValueError("UNO_TELEGRAM_TOKEN is not set")
        self.settings = settings
        self.service = service
        self.limits = limits or Limits()
        self.poll_timeout = poll_timeout
        self.admin_ttl = admin_ttl
        self.app: Application[Any, Any, Any, Any, Any, Any] | None = None
        self.outbox: Outbox | None = None
        self.username: str | None = None
        self._slots: dict[str, _Slot] = {}
        self._slot_no = 0
        self._dm: dict[tuple[str, int], int] = {}  # (table, user) -> private hand message
        self._private: dict[tuple[str, int], deque[Event]] = {}
        self._tg_lang: dict[int, str | None] = {}  # a user's Telegram language_code
        self._user_lang: dict[int, str | None] = {}  # a user's saved language
        self._chat_lang: dict[int, str | None] = {}
        self._admins: dict[tuple[int, int], tuple[bool, float]] = {}
        self.titles: dict[int, str] = {}
        self.usernames: dict[str, int] = {}  # @username -> user id, as seen (for /kick)
        from adapters.telegram.handlers import Handlers

        self.handlers = Handlers(self)

    # -- life cycle -----------------------------------------------------------------------

    @property
    def bot(self) -> Any:
        assert self.app is not None, "the adapter is not started"
        return self.app.bot

    async def start(self) -> None:
        """Build the application, register commands, and start polling (or the webhook)."""
        s = self.settings
        assert s.telegram_token is not None
        app = (
            Application.builder()
            .token(s.telegram_token.get_secret_value())
            .base_url(s.telegram_api_url)
            .concurrent_updates(64)
            .build()
        )
        self.handlers.install(app)
        self.app = app
        self.outbox = Outbox(self.limits)
        await app.initialize()
        self.username = app.bot.username
        await self._set_commands()
        await app.start()
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
        else:
            await updater.start_polling(
                poll_interval=0.0,
                timeout=dtm.timedelta(seconds=self.poll_timeout),
                allowed_updates=UPDATES,
            )
        log.info("telegram: @%s is up", self.username)

    async def stop(self, flush: float = 10.0) -> None:
        """Stop taking updates, send what is queued (up to ``flush`` seconds), shut down."""
        app = self.app
        if app is None:
            return
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        if self.outbox is not None:
            await self.outbox.flush(flush)
            await self.outbox.close()
        await app.shutdown()
        self.app = None

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
        if uid not in self._user_lang:
            self._user_lang[uid] = await self.service.user_lang(player_id(uid))
        return resolve_lang(self._user_lang[uid], self._tg_lang.get(uid))

    async def user_tr(self, uid: int) -> Translator:
        return translator(await self.user_lang(uid))

    def set_user_lang(self, uid: int, lang: str | None) -> None:
        self._user_lang[uid] = lang

    async def chat_lang(self, chat: int) -> str:
        if chat not in self._chat_lang:
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
        if len(self._admins) > 10_000:
            now = loop.time()
            self._admins = {k: v for k, v in self._admins.items() if v[1] > now}
        self._admins[(chat, uid)] = (ok, loop.time() + self.admin_ttl)
        return ok

    # -- the port ----------------------------------------------------------------------------

    def _slot(self, info: TableInfo) -> _Slot:
        slot = self._slots.get(info.key)
        if slot is None or slot.final:
            chat, thread = chat_of(info.key)
            self._slot_no += 1
            msg = info.meta.get("tg_msg")
            slot = _Slot(
                info.key, chat, thread, self._slot_no, info, msg if isinstance(msg, int) else None
            )
            self._slots[info.key] = slot
            for name, value in info.meta.items():  # private hands, after a restart
                if name.startswith("dm") and name[2:].isdigit() and isinstance(value, int):
                    self._dm.setdefault((info.key, int(name[2:])), value)
        return slot

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        """Queue one coalesced edit of the table message."""
        slot = self._slot(table)
        slot.info = table
        slot.recent.extend(render.event_lines(events, translator(table.lang), table.names))
        self._queue_table(slot)
        # private hands show whose turn it is and carry the version: refresh them all
        for key, uid in [k for k in self._dm if k[0] == table.key]:
            self.queue_hand(key, uid)

    def _queue_table(self, slot: _Slot) -> None:
        if self.outbox is None:
            return

        async def job() -> None:
            await self._send_table(slot)

        self.outbox.put(slot.chat, ("table", slot.n), job, urgent=INTERACTIVE.get())

    async def _send_table(self, slot: _Slot) -> None:
        info = slot.info
        tr = translator(info.lang)
        text, markup = views.table_message(info, tr, slot.recent, self.username)
        if slot.msg_id is not None:
            try:
                await self.bot.edit_message_text(
                    text, chat_id=slot.chat, message_id=slot.msg_id, reply_markup=markup
                )
                return
            except BadRequest as err:
                why = str(err).lower()
                if "not modified" in why:
                    return
                if not any(s in why for s in ("not found", "message_id_invalid", "can't be")):
                    raise
                log.info("table message of %s is gone (%s): sending it again", slot.key, err)
        msg = await self.bot.send_message(
            slot.chat, text, reply_markup=markup, message_thread_id=slot.thread
        )
        slot.msg_id = msg.message_id
        if not slot.final:
            await self.service.set_meta(slot.key, tg_msg=msg.message_id)

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
        if self.outbox is None:
            return

        async def job() -> None:
            await self.send_hand(key, uid)

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
                await self.bot.send_message(uid, render.notice_text(Notice("no_table"), tr, {}))
            return None
        text, markup, seated = await self._hand_view(info, uid, tr)
        if not seated:
            if new:
                await self.bot.send_message(uid, text)
            return None
        mid = None if new else self._dm.get((key, uid))
        if mid is not None:
            try:
                await self.bot.edit_message_text(
                    text, chat_id=uid, message_id=mid, reply_markup=markup
                )
            except BadRequest as err:
                why = str(err).lower()
                if "not modified" not in why:
                    if not any(s in why for s in ("not found", "message_id_invalid", "can't be")):
                        raise
                    mid = None
        if mid is None:
            msg = await self.bot.send_message(uid, text, reply_markup=markup)
            mid = int(msg.message_id)
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
        tr = translator(table.lang)
        text = render.notice_text(notice, tr, table.names)
        if table.status == LOBBY and notice.code in QUIET_IN_LOBBY:
            self._queue_table(slot)  # the seat list says it
            return
        if notice.code not in NEWS:
            slot.recent.append(text)
            self._queue_table(slot)
            return
        slot.news.append(text)
        if self.outbox is None:
            return

        async def job() -> None:
            if not slot.news:
                return
            body = "\n".join(slot.news)
            await self.bot.send_message(slot.chat, body, message_thread_id=slot.thread)
            slot.news.clear()

        self.outbox.put(slot.chat, ("news", slot.n), job)

    async def tell(self, table_key: str, user: str, notice: Notice, origin: Any) -> None:
        """Privately: an alert on the button just pressed, else the private chat."""
        uid = user_of(user)
        if uid is None:
            return  # a bot seat
        if isinstance(origin, Origin) and origin.user == uid:
            tr = translator(origin.lang)
            text = self._notice(notice, tr, table_key)
            if origin.query is not None:
                origin.alerts.append(text)
                return
        self.dm_notice(uid, notice, table_key)

    def _notice(self, notice: Notice, tr: Translator, key: str) -> str:
        slot = self._slots.get(key)
        names = slot.info.names if slot is not None else {}
        text = render.notice_text(notice, tr, names)
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

    def dm_notice(self, uid: int, notice: Notice, key: str) -> None:
        async def job() -> None:
            tr = await self.user_tr(uid)
            await self.bot.send_message(uid, self._notice(notice, tr, key))

        self.dm(uid, job)

    def dm(self, uid: int, job: Any) -> None:
        """A private message; a user who never opened the private chat, or blocked the bot,
        is skipped quietly."""
        if self.outbox is None:
            return

        async def quiet() -> None:
            try:
                await job()
            except Forbidden as err:
                log.info("user %s cannot be messaged: %s", uid, err)

        self.outbox.put(uid, None, quiet)

    def say(self, chat: int, thread: int | None, text: str, markup: Any = None) -> None:
        """A reply in a chat (commands that ask for one: /rules, /stats, /help...)."""
        if self.outbox is None:
            return

        async def job() -> None:
            await self.bot.send_message(chat, text, reply_markup=markup, message_thread_id=thread)

        self.outbox.put(chat, None, job)

    async def closed(self, table: TableInfo) -> None:
        """The table ended: a last edit without buttons; private hands lose theirs."""
        slot = self._slot(table)
        slot.info = table
        slot.final = True
        self._queue_table(slot)
        for s in table.seats:
            uid = user_of(s.id)
            if uid is not None and self._dm_message(table, uid) is not None:
                self.queue_hand(table.key, uid)

    # -- helpers for handlers ----------------------------------------------------------------

    async def answer(self, query: CallbackQuery, origin: Origin) -> None:
        """Answer a callback query exactly once: alerts for what the service said."""
        text = "\n".join(origin.alerts)
        if len(text) > views.ALERT_MAX:
            # too long for an alert: in full privately, the start of it on the button
            full = text
            self.dm(origin.user, lambda: self.bot.send_message(origin.user, full))
            text = text[: views.ALERT_MAX - 1] + "…"
        for attempt in range(3):
            try:
                if origin.url and not text:
                    await query.answer(url=origin.url)
                else:
                    await query.answer(text or None, show_alert=bool(text))
                return
            except RetryAfter as err:
                if attempt == 2:
                    raise
                await asyncio.sleep(min(retry_seconds(err), 5.0))
            except BadRequest as err:  # too old, or answered already
                log.info("answerCallbackQuery failed: %s", err)
                return

    async def reply_private(self, message: Message, text: str, markup: Any = None) -> None:
        with contextlib.suppress(Forbidden):
            await message.reply_text(text, reply_markup=markup, do_quote=False)


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
