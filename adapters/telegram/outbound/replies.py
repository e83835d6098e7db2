"""Messages to people, and the plumbing of every send: refusals, hints and notices (an
alert on the pressed button, else the private chat, else a short-lived reply in the
group), menus edited in place, replies to commands, and edits that change nothing left
unsent.

Refusals go to the user alone: an alert on the button they pressed, else a private
message; when the private chat is closed to the bot, a refusal of a typed command (or of a
chosen inline result) is a reply in the group that deletes itself after a few seconds. A
chosen result and the 🎴 it posted reach the bot as two updates in no promised order: its
refusal waits for the 🎴 a moment (``CHOICE_WAIT``), then replies to the table message
naming the user: every refusal reaches its presser.
Callback queries are always answered (network errors retried briefly, then logged). A
private chat Telegram refuses (never opened, bot blocked) is not tried again for a while
(:class:`~.chats.Chats`), and at most one refusal per user waits in the outbox (the
latest). An edit that would change nothing is not sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Mapping, Sequence
from typing import Any

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    ReplyParameters,
)
from telegram.error import BadRequest, Forbidden

from adapters.telegram import widgets
from adapters.telegram.chats import Chats
from adapters.telegram.common import (
    MEMORY,
    Choice,
    Lru,
    Posted,
    ReplyTo,
    Wire,
    answer_quietly,
    content,
)
from adapters.telegram.ids import chat_of, key_of
from adapters.telegram.outbound.unsent import NOTICE, Owed
from adapters.telegram.text import notice_text
from bot.port import Notice
from bot.ui import render
from bot.ui.i18n import N_, Translator, translator
from engine import Card

__all__ = ["CHOICE_TTL", "REFUSAL_TTL", "Messages"]

log = logging.getLogger(__name__)

REFUSAL_TTL = 15.0  # seconds a refusal shown in a group stays there
CHOICE_TTL = 60.0  # seconds a posted inline choice may still be answered
# seconds a refusal of an inline choice waits for the 🎴 message the choice posted (sent as
# an update of its own, maybe after the chosen result) before it replies to the table
CHOICE_WAIT = 3.0
REFUSAL = "refusal"  # the outbox key of a user's refusal (one waits at most)
OPEN_CHAT = N_("Open a private chat with me")
# a refusal in the group that replies to nothing of the user's: it names them
NAMED = N_("{name}: {text}")
# refusals that would tell the group something about a hand: private chat only
_HAND_REFUSALS = frozenset({"wild_draw_four_illegal", "must_play"})
_SECRET = _HAND_REFUSALS | {"info.revealed"}  # notices never shown in the group


class Messages:
    """What the adapter says to people, and how any message of its is sent or edited.
    ``names``: the names at a table (for a notice naming a player); ``moved``: a group's
    old id -> its supergroup's."""

    def __init__(
        self,
        wire: Wire,
        chats: Chats,
        names: Callable[[str], Mapping[str, str]],
        moved: Mapping[int, int],
        *,
        refusal_ttl: float = REFUSAL_TTL,
    ) -> None:
        self.wire = wire
        self.chats = chats
        self._names = names
        self._moved = moved
        self.refusal_ttl = refusal_ttl
        self.owed = Owed(wire)  # chats owed replies (what a kill would leave unanswered)
        self.choice_wait = CHOICE_WAIT
        # per (table, user): the 🎴 messages seen that no chosen result has taken yet, the
        # chosen results whose 🎴 is not seen yet, and the latest chosen result (oldest
        # first: each 🎴 belongs to the oldest chosen result still without one)
        self._posts: Lru[tuple[str, int], deque[tuple[Posted, float]]] = Lru(MEMORY)
        self._owed: Lru[tuple[str, int], deque[Choice]] = Lru(MEMORY)
        self._latest: Lru[tuple[str, int], Choice] = Lru(MEMORY)
        # (chat, message) -> what it was last sent with: an edit that changes nothing is
        # not sent (Telegram refuses it, and it costs a token of the chat's budget)
        self._contents: Lru[tuple[int, int], tuple[str, str | None]] = Lru(2 * MEMORY)
        self.expiring: dict[tuple[int, int], asyncio.TimerHandle] = {}

    def told(self, key: str, reply: ReplyTo, told: Sequence[Notice]) -> None:
        """What a service call made for ``reply.user`` at table ``key`` tells them (its
        ``Result.told``), in order: alerts on the button they pressed, else privately (a
        notice that tells nothing of a hand falls back to the group: :meth:`dm_notice`)."""
        if reply.query is not None:
            tr = translator(reply.lang)
            reply.alerts.extend(self._notice(notice, tr, key) for notice in told)
            return
        for notice in told:
            self.dm_notice(reply.user, notice, key, reply)

    def _notice(self, notice: Notice, tr: Translator, key: str) -> str:
        names = self._names(key)
        text = notice_text(notice, tr, names)
        if notice.code == "info.revealed" and len(text) > widgets.ALERT_MAX:
            cards = " ".join(
                render.card_short(Card.parse(c)) for c in notice.params.get("cards", ())
            )
            text = tr.format(
                render.INFOS["info.revealed"],
                player=names.get(notice.params.get("player", ""), "?"),
                cards=cards,
            )
        return text

    def dm_notice(self, uid: int, notice: Notice, key: str, reply: ReplyTo | None = None) -> None:
        """A notice in ``uid``'s private chat; one that tells nothing of a hand (a refusal,
        "you are in for the next round") falls back to the group as :meth:`refuse` says:
        whoever typed or chose something is always answered."""
        if notice.code not in _SECRET:
            self.refuse(uid, lambda tr: self._notice(notice, tr, key), reply)
            return

        async def job() -> None:
            tr = await self.chats.user_tr(uid)
            await self.wire.bot.send_message(uid, self._notice(notice, tr, key))

        self.dm(uid, job)

    def refuse(self, uid: int, text: Callable[[Translator], str], reply: ReplyTo | None) -> None:
        """A refusal (or a hint) not tied to a button, in ``uid``'s language: privately;
        when the private chat is closed to the bot and ``reply`` is what they typed (or
        chose from inline results) in a group, as a reply there, with a button opening the
        private chat, deleted after ``refusal_ttl`` seconds. Refusal texts are not secret;
        hands never come this way."""

        async def job() -> None:
            tr = await self.chats.user_tr(uid)
            await self.wire.bot.send_message(uid, text(tr))

        # one refusal waiting per user at most, the latest: a flood of refused presses
        # or choices costs one message, not one each
        if reply is None or reply.user != uid or not (reply.posted or reply.choice):
            self.dm(uid, job, key=REFUSAL)
            return
        came_from = reply

        def fallback() -> None:
            self._reply_in_group(uid, text, came_from)

        self.dm(uid, job, fallback, key=REFUSAL)

    def _reply_in_group(self, uid: int, text: Callable[[Translator], str], reply: ReplyTo) -> None:
        where = reply.posted
        choice = reply.choice
        if where is None and choice is not None:
            if choice.posted is None:  # its 🎴 not seen yet: the refusal waits for it
                self._wait_for_post(choice, text)
                return
            where = choice.posted
        if where is not None:
            self._reply(uid, text, where)

    def _reply(self, uid: int, text: Callable[[Translator], str], where: Posted) -> None:
        """A refusal as a short-lived reply in the group to ``where``, what ``uid`` posted."""

        async def reply_to() -> int:
            return where.message_id

        self._say_in_group(uid, text, where.chat, where.thread, reply_to)

    def _say_in_group(
        self,
        uid: int,
        text: Callable[[Translator], str],
        chat: int,
        thread: int | None,
        reply_to: Callable[[], Awaitable[int | None]],
        name: str | None = None,
    ) -> None:
        """A refusal as a short-lived message in the group, with a button opening the
        private chat: a reply to the message ``reply_to`` gives when it goes; ``name``: the
        user named at its start (it replies to nothing of theirs)."""
        if self.wire.outbox is None:
            return

        async def job() -> None:
            tr = await self.chats.user_tr(uid)
            link = widgets.deep_link(self.wire.username, "help")  # names no table: the help
            markup = None
            if link is not None:
                button = InlineKeyboardButton("💬 " + tr.gettext(OPEN_CHAT), url=link)
                markup = InlineKeyboardMarkup([[button]])
            said = text(tr)
            if name is not None:
                said = tr.gettext(NAMED, name=name, text=said)
            mid = await reply_to()
            msg = await self.wire.bot.send_message(
                chat,
                said,
                reply_markup=markup,
                message_thread_id=thread,
                reply_parameters=(
                    None if mid is None else ReplyParameters(mid, allow_sending_without_reply=True)
                ),
            )
            self._expire(chat, msg.message_id)

        self.wire.outbox.put(chat, (REFUSAL, uid), job)

    async def _table_message(self, key: str) -> int | None:
        """The message of the table at ``key`` (as its data names it), if any."""
        info = await self.wire.service.table(key)
        mid = info.meta.get("tg_msg") if info is not None else None
        return mid if isinstance(mid, int) and not isinstance(mid, bool) else None

    def _wait_for_post(self, choice: Choice, text: Callable[[Translator], str]) -> None:
        """A refusal of ``choice`` whose 🎴 the bot has not seen: it replies to the 🎴 when
        it comes (:meth:`saw_choice`), else after ``choice_wait`` seconds to the table
        message, naming the user (the latest refusal, if several)."""
        choice.refusal = text
        if choice.timer is None:
            loop = asyncio.get_running_loop()
            choice.timer = loop.call_later(self.choice_wait, self._post_missing, choice)

    def _post_missing(self, choice: Choice) -> None:
        text, choice.refusal, choice.timer = choice.refusal, None, None
        if text is None:
            return
        chat, thread = chat_of(choice.key)
        key = choice.key
        self._say_in_group(
            choice.uid, text, chat, thread, lambda: self._table_message(key), choice.name
        )

    def chose(self, key: str, uid: int, name: str) -> Choice:
        """User ``uid`` (named ``name``) chose an inline result at table ``key``: the 🎴 it
        posted is the oldest one seen and not taken, else the next one to come."""
        now = asyncio.get_running_loop().time()
        choice = Choice(key, uid, name, now)
        posts = self._posts.get((key, uid))
        while posts and posts[0][1] <= now - CHOICE_TTL:
            posts.popleft()  # (its chosen result never came: inline feedback off)
        if posts:
            choice.posted = posts.popleft()[0]
        else:
            owed = self._owed.get((key, uid))
            if owed is None:
                owed = self._owed[(key, uid)] = deque()
            owed.append(choice)
        self._latest[(key, uid)] = choice
        return choice

    def choice(self, key: str, uid: int) -> Choice | None:
        """The latest inline result ``uid`` chose at table ``key``, if lately."""
        choice = self._latest.get((key, uid))
        if choice is None or choice.at <= asyncio.get_running_loop().time() - CHOICE_TTL:
            return None
        return choice

    def saw_choice(self, key: str, uid: int, posted: Posted) -> None:
        """The 🎴 message a user's inline choice posted at table ``key``: it belongs to the
        oldest chosen result still without one (a refusal waiting for it replies now),
        else to the next one to come."""
        now = asyncio.get_running_loop().time()
        owed = self._owed.get((key, uid))
        while owed and owed[0].at <= now - CHOICE_TTL:
            owed.popleft()  # (its 🎴 never came)
        if not owed:
            posts = self._posts.get((key, uid))
            if posts is None:
                posts = self._posts[(key, uid)] = deque()
            posts.append((posted, now))
            return
        choice = owed.popleft()
        choice.posted = posted
        text, choice.refusal = choice.refusal, None
        if choice.timer is not None:
            choice.timer.cancel()
            choice.timer = None
        if text is not None:
            self._reply(uid, text, posted)

    def _expire(self, chat: int, message_id: int) -> None:
        """Delete a message of the bot's after ``refusal_ttl`` seconds (at once when
        stopping)."""
        if self.wire.stopping:
            self._delete(chat, message_id)
            return
        loop = asyncio.get_running_loop()
        handle = loop.call_later(self.refusal_ttl, self._delete, chat, message_id)
        self.expiring[(chat, message_id)] = handle

    def _delete(self, chat: int, message_id: int) -> None:
        """Delete a message of the bot's, through the outbox."""
        self.expiring.pop((chat, message_id), None)
        if self.wire.outbox is None:
            return

        async def job() -> None:
            try:
                await self.wire.bot.delete_message(chat, message_id)
            except BadRequest as err:  # deleted already, or too old
                log.info("chat %s: a reply could not be deleted: %s", chat, err)

        self.wire.outbox.put(chat, ("delete", message_id), job)

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
        if self.wire.outbox is None:
            return
        if not self.chats.can_message(uid):
            if fallback is not None:
                fallback()
            return

        async def quiet() -> None:
            if not self.chats.can_message(uid):  # learnt while this waited
                if fallback is not None:
                    fallback()
                return
            try:
                await job()
            except (Forbidden, BadRequest) as err:
                if isinstance(err, BadRequest) and "chat not found" not in str(err).lower():
                    raise
                self.chats.cannot_message(uid, err)
                if fallback is not None:
                    fallback()

        self.wire.outbox.put(uid, key, quiet)

    def edit(self, q: CallbackQuery, text: str, markup: InlineKeyboardMarkup | None) -> None:
        """Edit the message whose button was pressed (a menu), paced like every send; the
        latest of several quick presses wins."""
        msg = q.message
        if msg is None or self.wire.outbox is None:
            return
        chat, mid = msg.chat.id, msg.message_id

        async def job() -> None:
            await self.edit_text(chat, mid, text, markup)

        self.wire.outbox.put(chat, ("menu", mid), job, urgent=True)

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
        shown = content(text, markup)
        if not force and self._contents.get((chat, message_id)) == shown:
            return False
        try:
            await self.wire.bot.edit_message_text(
                text, chat_id=chat, message_id=message_id, reply_markup=markup
            )
        except BadRequest as err:
            if "not modified" not in str(err).lower():  # after a restart: it is shown
                raise
        self._contents[(chat, message_id)] = shown
        return True

    def sent(self, chat: int, message_id: int, text: str, markup: Any) -> None:
        """A message of the bot's was sent with this content (see :meth:`edit_text`)."""
        self._contents[(chat, message_id)] = content(text, markup)

    def say(self, chat: int, thread: int | None, text: str, markup: Any = None) -> None:
        """A reply in a chat (commands that ask for one: /rules, /stats, /help...): owed
        until it has gone (``unsent``: a kill meanwhile is owned up to after the restart)."""
        box = self.wire.outbox
        if box is None:
            return
        sent = False

        async def job() -> None:
            nonlocal sent
            await self.owed.noted()
            where = self._moved.get(chat) or chat  # a group that became a supergroup
            bot = self.wire.bot
            await bot.send_message(where, text, reply_markup=markup, message_thread_id=thread)
            sent = True

        owed = key_of(chat, thread)
        self.owed.owe(owed)

        def paid(fut: asyncio.Future[None]) -> None:
            # done: sent, or failed for good (nothing owed then); not when the outbox
            # closed with it waiting or in flight (a stop that could not send it)
            if sent or not (fut.cancelled() or box.closed):
                self.owed.paid(owed)

        box.put(chat, None, job).add_done_callback(paid)

    async def tell_restarted(self, key: str) -> None:
        """After a restart: the chat ``key`` was owed replies the process that died never
        sent; it is told once (in its language) that a command may need sending again."""
        chat, thread = chat_of(key)
        # (a private chat's id is its user's: their language)
        tr = await (self.chats.user_tr(chat) if chat > 0 else self.chats.chat_tr(chat))
        self.say(chat, thread, tr.gettext(NOTICE))  # (the mark stays until it has gone)

    async def answer(self, query: CallbackQuery, reply: ReplyTo) -> None:
        """Answer a callback query exactly once: ``reply``'s alerts (the handler's refusals,
        what the service calls told the presser), or its url. Never raises: a failure is
        retried briefly, then logged (without the update)."""
        text = "\n".join(reply.alerts)
        uid = reply.user
        if len(text) > widgets.ALERT_MAX:
            # too long for an alert: in full privately, the start of it on the button
            full = text
            self.dm(uid, lambda: self.wire.bot.send_message(uid, full))
            text = text[: widgets.ALERT_MAX - 1] + "…"
        url = reply.url

        async def send() -> Any:
            if url and not text:
                return await query.answer(url=url)
            return await query.answer(text or None, show_alert=bool(text))

        await answer_quietly("answerCallbackQuery", send)

    async def reply_private(self, message: Message, text: str, markup: Any = None) -> None:
        with contextlib.suppress(Forbidden):
            await message.reply_text(text, reply_markup=markup, do_quote=False)

    # -- replies due for deletion, at a stop ---------------------------------------------------

    def delete_expiring(self) -> None:
        """Stopping: the replies due for deletion are deleted now (queued)."""
        for (chat, mid), handle in list(self.expiring.items()):
            handle.cancel()
            self._delete(chat, mid)

    def cancel_expiring(self) -> None:
        """A failed start: nothing is left to delete later."""
        for handle in self.expiring.values():
            handle.cancel()
        self.expiring.clear()
