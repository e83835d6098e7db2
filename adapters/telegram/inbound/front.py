"""What the update handlers need of the adapter (:class:`Front`), and what they share.

The handlers (``commands``, ``presses``, ``inline``, put together by ``handlers``) depend
on this small protocol, not on the adapter: the adapter makes its
:class:`~.handlers.Handlers` with itself as the front, and nothing imports it back.

Handlers only translate: who (``tg:<user>``), where (``tg:<chat>[:<topic>]``), what (an
engine action or a service call) and the table version the button or result was made
for. The service decides; what it says comes back through the port (the adapter), and a
refusal goes to the user alone: an alert on the button they pressed, else a private
message (else, the private chat being closed, a short-lived reply to the command in the
group: see :meth:`Messages.refuse`).

Nothing here logs an update's content: a private hand's button carries the whole hand
message, so failures are logged by update id and kind only.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import CallbackQuery, Message, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from adapters.telegram.chats import Chats
from adapters.telegram.common import INTERACTIVE, Origin, Posted
from adapters.telegram.ids import chat_of, key_of, player_id, scope_of
from adapters.telegram.inbound import legacy
from adapters.telegram.outbound.hands import Hands
from adapters.telegram.outbound.menus import Menus
from adapters.telegram.outbound.replies import Messages
from adapters.telegram.text import display_name, notice_text
from bot import policy
from bot.port import Notice, TableInfo
from bot.service import Service
from bot.ui.card_set import Pictures
from bot.ui.i18n import translator
from bot.ui.intents import Look, Press

__all__ = ["Base", "Context", "Front", "Handler", "Here", "Pressed", "Run"]

log = logging.getLogger(__name__)

Context = ContextTypes.DEFAULT_TYPE
Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


class Front(Protocol):
    """The adapter as the handlers see it: the service, the adapter's parts, and the few
    things only the adapter knows (the bot, its username and stickers, moved chats)."""

    service: Service
    chats: Chats
    messages: Messages
    hands: Hands
    menus: Menus

    @property
    def bot(self) -> Any: ...

    @property
    def username(self) -> str | None: ...

    @property
    def stickers(self) -> Pictures | None: ...

    def current_key(self, key: str) -> str: ...

    async def migrate(self, old: int, new: int) -> None: ...


@dataclass(frozen=True, slots=True)
class Here:
    """Where a command was sent and by whom."""

    chat: int
    thread: int | None
    key: str
    scope: str
    uid: int
    pid: str
    name: str
    private: bool
    message: Message


@dataclass(frozen=True, slots=True)
class Pressed:
    """A press at the table ``key`` (the chat's current table key), read: its intent, its
    query, and the origin of the service calls it makes."""

    key: str
    read: Press | legacy.OldChoice
    q: CallbackQuery
    origin: Origin

    @property
    def uid(self) -> int:
        return self.q.from_user.id

    @property
    def pid(self) -> str:
        return player_id(self.q.from_user.id)

    def alert(self, text: str) -> None:
        self.origin.alerts.append(text)

    def refuse(self, code: str) -> None:
        self.alert(notice_text(Notice(code), translator(self.origin.lang)))


Run = Callable[[Pressed], Awaitable[None]]


class Base:
    """What every kind of handler does: find out who and where, answer them."""

    def __init__(self, front: Front) -> None:
        self.a = front
        self.chats = front.chats
        self.messages = front.messages
        self.hands = front.hands
        self.menus = front.menus

    @property
    def svc(self) -> Service:
        return self.a.service

    def _here(self, update: Update) -> Here | None:
        msg = update.effective_message
        user = update.effective_user
        if msg is None or user is None or user.is_bot:
            return None
        INTERACTIVE.set(True)
        chat = msg.chat
        self.chats.seen_user(user)
        if chat.type == ChatType.PRIVATE:
            self.chats.reachable(user.id)  # they write to the bot: it may write back
        if chat.title:
            self.chats.titles[chat.id] = chat.title
        thread = msg.message_thread_id if msg.is_topic_message else None
        return Here(
            chat=chat.id,
            thread=thread,
            key=key_of(chat.id, thread),
            scope=scope_of(chat.id),
            uid=user.id,
            pid=player_id(user.id),
            name=display_name(user),
            private=chat.type == ChatType.PRIVATE,
            message=msg,
        )

    async def _origin(
        self,
        uid: int,
        query: CallbackQuery | None = None,
        *,
        here: Here | None = None,
        chosen: str | None = None,
    ) -> Origin:
        """``here``: a typed command, ``chosen``: the table of a chosen inline result (what
        a refusal answers in the group when the private chat is closed)."""
        try:
            lang = await self.chats.user_lang(uid)
        except Exception:  # the store being slow or down must not leave a button hanging
            log.exception("user_lang(%s) failed", uid)
            lang = "en"
        posted = None
        if here is not None and not here.private:
            posted = Posted(here.chat, here.thread, here.message.message_id)
        choice = self.messages.choice(chosen, uid) if chosen is not None else None
        return Origin(uid, lang, query=query, posted=posted, chosen=chosen, choice=choice)

    async def _admin(self, key: str, uid: int, info: TableInfo | None = None) -> bool:
        """Whether to pass ``admin=True``: Telegram is asked only when the host check alone
        fails (``bot.policy.needs_admin``); ``info``: the table, if at hand."""
        if info is None:
            info = await self.svc.table(key)
        if info is None or not policy.needs_admin(info, player_id(uid)):
            return False
        return await self.chats.is_admin(chat_of(key)[0], uid)

    async def _manager(self, key: str, uid: int) -> tuple[TableInfo | None, str | None, bool]:
        """The table, why ``uid`` may not manage it (``bot.policy.refusal_code``: ``no_table``,
        ``not_host``; ``None``: they may), and whether they are an admin."""
        info = await self.svc.table(key)
        admin = await self._admin(key, uid, info)
        return info, policy.refusal_code(info, player_id(uid), admin=admin, manage=True), admin

    async def _send_settings(self, key: str, uid: int, chat: int) -> None:
        """The settings menu of table ``key`` as a new message in ``chat`` (private), or
        why ``uid`` may not have it."""
        info, refused, _admin = await self._manager(key, uid)
        await self.menus.send_settings(chat, info, refused, await self.chats.user_tr(uid))

    async def _set_chat_lang(self, key: str, chat: int, lang: str) -> None:
        self.chats.set_chat_lang(chat, lang)
        await self.svc.set_chat_language(key, scope_of(chat), lang)

    async def _set_user_lang(self, uid: int, lang: str | None) -> None:
        self.chats.set_user_lang(uid, lang)
        await self.svc.set_user_language(player_id(uid), lang)

    async def _set_user_cards(self, uid: int, look: Look) -> None:
        """Saved first, then remembered: the next inline query shows the cards so."""
        await self.svc.set_user_cards(player_id(uid), look)
        self.chats.set_user_cards(uid, look)

    async def _refuse(self, here: Here, code: str, **params: Any) -> None:
        origin = await self._origin(here.uid, here=here)
        self.messages.dm_notice(here.uid, Notice(code, params), here.key, origin)

    async def _tell_text(
        self, uid: int, message: str, origin: Origin | None = None, **params: Any
    ) -> None:
        """A translated hint or refusal of the handlers' own (see :meth:`Messages.refuse`)."""
        self.messages.refuse(uid, lambda tr: tr.gettext(message, **params), origin)

    async def _tables_of(self, pid: str) -> list[str]:
        """Open Telegram tables where ``pid`` has a seat."""
        return [t.key for t in self.svc.tables_of(pid) if t.key.startswith("tg:")]
