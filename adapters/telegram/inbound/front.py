"""What the update handlers need of the adapter (:class:`Front`), and what they share.

The handlers (``commands``, ``presses``, ``inline``, put together by ``handlers``) depend
on this small protocol, not on the adapter: the adapter makes its
:class:`~.handlers.Handlers` with itself as the front, and nothing imports it back.

Handlers only translate: who (``tg:<user>``), where (``tg:<chat>[:<topic>]``), what (an
engine action or a service call) and the table version the button or result was made
for. The service decides; what it tells the user a call was made for comes back in the
call's ``Result`` (``told``), answered by the handler the way the user came
(:class:`~adapters.telegram.common.ReplyTo`, :meth:`Messages.told`): an alert on the button
they pressed, else a private message (else, the private chat being closed, a short-lived
reply to the command in the group: see :meth:`Messages.refuse`). The port (the adapter)
tells only the others a change concerns.

Nothing here logs an update's content: a private hand's button carries the whole hand
message, so failures are logged by update id and kind only.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from telegram import CallbackQuery, Message, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from adapters.telegram.chats import Chats
from adapters.telegram.common import INTERACTIVE, Posted, ReplyTo
from adapters.telegram.ids import chat_of, key_of, player_id, scope_of
from adapters.telegram.inbound import legacy
from adapters.telegram.moves import Moves
from adapters.telegram.outbound.hands import Hands
from adapters.telegram.outbound.menus import Menus
from adapters.telegram.outbound.replies import Messages
from adapters.telegram.text import display_name, notice_text
from bot import policy
from bot.port import Notice, TableInfo
from bot.service import Result, Service
from bot.ui.card_set import Pictures
from bot.ui.i18n import Translator
from bot.ui.intents import Press

__all__ = ["Base", "Context", "Front", "Handler", "Here", "Pressed", "Run"]

Context = ContextTypes.DEFAULT_TYPE
Handler = Callable[[Update, Context], Coroutine[Any, Any, None]]


class Front(Protocol):
    """The adapter as the handlers see it: the service, the adapter's parts (``moves``:
    the groups moved to a supergroup, a table key as it is now), and the few things only
    the adapter knows (the bot, its username and stickers)."""

    service: Service
    chats: Chats
    messages: Messages
    hands: Hands
    menus: Menus
    moves: Moves

    @property
    def bot(self) -> Any: ...

    @property
    def username(self) -> str | None: ...

    @property
    def stickers(self) -> Pictures | None: ...

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

    @property
    def reply(self) -> ReplyTo:
        """Whom to answer and how: privately, else (closed) a reply to the command."""
        posted = None if self.private else Posted(self.chat, self.thread, self.message.message_id)
        return ReplyTo(self.uid, posted=posted)


@dataclass(frozen=True, slots=True)
class Pressed:
    """A press at the table ``key`` (the chat's current table key), read: its intent, its
    query, its answer (``reply``: the alerts the query is answered with, in ``tr``), and
    the presser (``uid``, as a player ``pid``)."""

    key: str
    read: Press | legacy.OldChoice
    q: CallbackQuery
    reply: ReplyTo
    tr: Translator
    uid: int
    pid: str

    def alert(self, text: str) -> None:
        self.reply.alerts.append(text)

    def refuse(self, code: str) -> None:
        self.alert(notice_text(Notice(code), self.tr))


Run = Callable[[Pressed], Awaitable[None]]


class Base:
    """What every kind of handler does: find out who and where, answer them."""

    def __init__(self, front: Front) -> None:
        self.a = front
        self.chats = front.chats
        self.messages = front.messages
        self.hands = front.hands
        self.menus = front.menus
        self.moves = front.moves
        self.svc: Service = front.service

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

    def _reply_to(self, uid: int, *, chosen: str | None = None) -> ReplyTo:
        """``uid``, answered privately, else (closed) under the message their latest inline
        choice at table ``chosen`` posted (for a typed command: :attr:`Here.reply`)."""
        choice = self.messages.choice(chosen, uid) if chosen is not None else None
        return ReplyTo(uid, choice=choice)

    def _answer(self, here: Here, res: Result) -> bool:
        """What a service call made for ``here``'s sender tells them (``Result.told``),
        answered: privately, else a short-lived reply to the command; whether it was ok."""
        self.messages.told(here.key, here.reply, res.told)
        return res.ok

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

    async def _refuse(self, here: Here, code: str, **params: Any) -> None:
        self.messages.dm_notice(here.uid, Notice(code, params), here.key, here.reply)

    async def _tell_text(
        self, uid: int, message: str, reply: ReplyTo | None = None, **params: Any
    ) -> None:
        """A translated hint or refusal of the handlers' own (see :meth:`Messages.refuse`)."""
        self.messages.refuse(uid, lambda tr: tr.gettext(message, **params), reply)

    async def _tables_of(self, pid: str) -> list[str]:
        """Open Telegram tables where ``pid`` has a seat."""
        return [t.key for t in self.svc.tables_of(pid) if t.key.startswith("tg:")]
