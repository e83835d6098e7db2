"""Inline mode: an inline query answers with the player's hand as personal results (card
stickers once the set is made, unless the player chose text with ``/cards``: their own
setting, stickers by default as before it existed); a chosen result plays it; the message
it posted in the group is remembered (what a refusal of that choice replies to).

A refused choice (a dimmed card, a stale pick) leaves nothing in the group: the message it
posted (🎴, or the card's sticker) says a move that did not happen, so the bot deletes it
once the refusal has been tried privately (:data:`WITHDRAW_AFTER`), or with the refusal's
reply when the refusal went to the group as a reply to it (a player the bot cannot write
to privately). Telegram lets a bot delete someone else's message in a group only as an
administrator (in a supergroup, with the right to delete messages); where it may not, the
message stays, and the group is not asked again for a while.

A chosen result and the message it posted are two updates, in either order, and neither
names the other: they are paired as they come, one of each per player (their updates are
handled one after the other), within :data:`PAIR_SECONDS` of each other and at the same
table; a message with a sticker is never taken for a dimmed card's 🎴.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from telegram import InlineQueryResultsButton, Update
from telegram.error import BadRequest

from adapters.telegram import pictures, widgets
from adapters.telegram.common import INTERACTIVE, MEMORY, Lru, Posted, answer_quietly
from adapters.telegram.ids import decode_action, key_of, key_of_tid, player_id, version_of
from adapters.telegram.inbound.front import Base, Context, Front
from adapters.telegram.text import INVALID, NO_TABLES, display_name
from bot.model import LOBBY, PLAYING
from bot.port import Notice
from engine import Card, Play

__all__ = ["PAIR_SECONDS", "UNDELETABLE_TTL", "WITHDRAW_AFTER", "Inline"]

log = logging.getLogger(__name__)

PAIR_SECONDS = 10.0  # a choice and the message it posted reach the bot this close together
UNDELETABLE_TTL = 3600.0  # seconds a group that refused a deletion is not asked again
# seconds a refused choice's message waits: time for the refusal's private message, whose
# failure sends the refusal to the group as a reply to that message instead
WITHDRAW_AFTER = 1.0


@dataclass(frozen=True, slots=True)
class _Choice:
    """A chosen result whose message has not come yet: ``refused`` (``None``: unknown, it
    failed on our side), ``text``: it posts text (a dimmed card's 🎴), never a sticker."""

    key: str
    refused: bool | None
    text: bool
    at: float


@dataclass(frozen=True, slots=True)
class _Message:
    """A message posted through the bot whose choice has not come yet."""

    key: str
    where: Posted
    sticker: bool
    at: float


class Inline(Base):
    """The handlers of inline queries, chosen inline results and the messages they post."""

    def __init__(self, front: Front) -> None:
        super().__init__(front)
        # per player: their choice waiting for its message, or the message for its choice
        self._choices: Lru[int, _Choice] = Lru(MEMORY)
        self._posts: Lru[int, _Message] = Lru(MEMORY)
        self._undeletable: Lru[int, float] = Lru(MEMORY)  # group -> until when

    async def _table_for(self, query: str, pid: str) -> str | None:
        """The table an inline query names (inline queries carry no chat), else the one
        the player sits at."""
        words = query.split()
        if words:
            key = key_of_tid(words[0])
            if key is not None:
                return self.moves.current_key(key)
        mine = await self._tables_of(pid)
        return mine[0] if mine else None

    async def inline(self, update: Update, context: Context) -> None:
        """An inline query: the player's hand as personal results."""
        iq = update.inline_query
        if iq is None:
            return
        uid = iq.from_user.id
        self.chats.seen_user(iq.from_user)
        pid = player_id(uid)
        tr = await self.chats.user_tr(uid)
        key = await self._table_for(iq.query, pid)
        info = await self.svc.table(key) if key is not None else None
        results: list[Any] = []
        button: InlineQueryResultsButton | None
        if key is None or info is None or info.status != PLAYING:
            button = InlineQueryResultsButton(tr.gettext(NO_TABLES), start_parameter="help")
        else:
            view = await self.svc.hand(key, pid)
            legal = await self.svc.legal(key, pid)
            found: Sequence[Any]
            # the card set made, and the player has not asked for text (/cards): stickers
            stickers = self.a.stickers
            if stickers is not None and await self.chats.user_cards(uid) != "text":
                found, button = pictures.inline_answer(info, view, legal, tr, stickers)
            else:
                found, button = widgets.inline_answer(info, view, legal, tr, self.a.username)
            results.extend(found)
        await answer_quietly(
            "answerInlineQuery",
            lambda: iq.answer(results, cache_time=0, is_personal=True, button=button),
        )

    async def chosen(self, update: Update, context: Context) -> None:
        """A chosen inline result: play it (a stale one is refused privately, else as a
        reply to the message the choice posted, else to the table message)."""
        r = update.chosen_inline_result
        if r is None:
            return
        INTERACTIVE.set(True)
        uid = r.from_user.id
        self.chats.seen_user(r.from_user)
        parts = r.result_id.split("|")
        key = self.chose(update)
        refused: bool | None = None
        try:
            refused = await self._play(uid, key, parts)
        finally:  # (what a failure of ours changed is not known: its message stays)
            self._chose(uid, key, refused, text=len(parts) == 3 and parts[2].startswith("-"))

    async def _play(self, uid: int, key: str | None, parts: list[str]) -> bool:
        """Play the chosen result ``parts`` at table ``key``: whether it was refused."""
        version = version_of(parts[1]) if len(parts) == 3 else None
        reply = self._reply_to(uid, chosen=key)
        if key is None or version is None:
            await self._tell_text(uid, INVALID)
            return True
        info = await self.svc.table(key)
        if info is None or info.status != PLAYING:
            lobby = info is not None and info.status == LOBBY
            self.messages.dm_notice(
                uid, Notice("not_started" if lobby else "no_table"), key, reply
            )
            return True
        code = parts[2]
        pilot = next((on for on, c in widgets.PILOT_CODES.items() if c == code), None)
        if pilot is not None:  # "Play for me", or my seat back
            res = await self.svc.autopilot(key, player_id(uid), pilot)
            self.messages.told(key, reply, res.told)
            return not res.ok
        action: Any
        if code.startswith("-"):
            # a card shown as not playable: let the engine say why
            try:
                action = Play(Card.parse(code[1:]))
            except ValueError:
                action = None
        else:
            action = decode_action(code, [s.id for s in info.seats])
        if action is None:
            await self._tell_text(uid, INVALID, reply)
            return True
        res = await self.svc.act(key, player_id(uid), action, seen_version=version)
        self.messages.told(key, reply, res.told)
        return not res.ok

    def chose(self, update: Update) -> str | None:
        """The table a chosen inline result was chosen at (``None``: not one of ours), its
        choice noted: the 🎴 it posted is what a refusal of it replies to."""
        r = update.chosen_inline_result
        if r is None:
            return None
        parts = r.result_id.split("|")
        key = key_of_tid(parts[0]) if len(parts) == 3 else None
        if key is None:
            return None
        key = self.moves.current_key(key)
        self.messages.chose(key, r.from_user.id, display_name(r.from_user))
        return key

    async def posted(self, update: Update, context: Context) -> None:
        """A group message posted through this bot (an inline choice): remembered, so that
        a refusal of that choice can reply to it, and paired with its choice (withdrawn if
        that was refused)."""
        self.saw_post(update)

    def saw_post(self, update: Update) -> bool:
        """Remember the message ``update`` brings if an inline choice posted it through this
        bot (also when the update is not handled otherwise: ``Handlers.overflow``, so that
        each chosen result keeps its own 🎴); whether it was one."""
        msg = update.effective_message
        user = update.effective_user
        if msg is None or user is None or msg.via_bot is None or msg.via_bot.id != self.a.bot.id:
            return False
        thread = msg.message_thread_id if msg.is_topic_message else None
        posted = Posted(msg.chat.id, thread, msg.message_id)
        key = key_of(msg.chat.id, thread)
        self.messages.saw_choice(key, user.id, posted)
        self._saw(user.id, key, posted, sticker=msg.sticker is not None)
        return True

    # -- a refused choice's message, withdrawn ----------------------------------------------

    def _chose(self, uid: int, key: str | None, refused: bool | None, *, text: bool) -> None:
        """``uid``'s choice at ``key`` was played or refused: paired with its message if
        that came first, else waiting for it."""
        now = asyncio.get_running_loop().time()
        post = self._posts.pop(uid, None)
        if post is not None and post.key == key and now - post.at <= PAIR_SECONDS:
            self._settle(uid, refused, text, post.where, sticker=post.sticker)
        elif key is not None:
            self._choices[uid] = _Choice(key, refused, text, now)

    def _saw(self, uid: int, key: str, where: Posted, *, sticker: bool) -> None:
        """``uid`` posted ``where`` through the bot: paired with their choice if that came
        first, else waiting for it."""
        now = asyncio.get_running_loop().time()
        choice = self._choices.pop(uid, None)
        if choice is not None and choice.key == key and now - choice.at <= PAIR_SECONDS:
            self._settle(uid, choice.refused, choice.text, where, sticker=sticker)
        else:
            self._posts[uid] = _Message(key, where, sticker, now)

    def _settle(
        self, uid: int, refused: bool | None, text: bool, where: Posted, *, sticker: bool
    ) -> None:
        if not refused or (text and sticker):  # played (or not known), or not its message
            return
        asyncio.get_running_loop().call_later(WITHDRAW_AFTER, self._refused, uid, where)

    def _refused(self, uid: int, where: Posted) -> None:
        if self.chats.can_message(uid):  # the refusal was told privately
            self._withdraw(where)
        else:  # it replies to the message in the group: both go when the reply does
            loop = asyncio.get_running_loop()
            loop.call_later(self.messages.refusal_ttl, self._withdraw, where)

    def _withdraw(self, where: Posted) -> None:
        """Delete the message of a refused choice (queued in its chat's lane); a group
        where the bot may not is not asked again for :data:`UNDELETABLE_TTL` seconds."""
        outbox = self.messages.wire.outbox
        chat = where.chat
        until = self._undeletable.get(chat)
        if outbox is None or (until is not None and until > asyncio.get_running_loop().time()):
            return

        async def job() -> None:
            try:
                await self.a.bot.delete_message(chat, where.message_id)
            except BadRequest as err:  # not an admin who may, or deleted already
                said = str(err).lower()
                if "can't be deleted" in said or "not enough rights" in said:
                    loop = asyncio.get_running_loop()
                    self._undeletable[chat] = loop.time() + UNDELETABLE_TTL
                log.info("chat %s: a refused choice's message stays: %s", chat, err)

        outbox.put(chat, ("withdraw", where.message_id), job)
