"""Inline mode: an inline query answers with the player's hand as personal results; a
chosen result plays it; the message it posted in the group is remembered (what a refusal
of that choice replies to)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from telegram import InlineQueryResultsButton, Update

from adapters.telegram import pictures, views
from adapters.telegram.codec import decode_action, key_of, key_of_tid, player_id, version_of
from adapters.telegram.common import INTERACTIVE, Posted, answer_quietly
from adapters.telegram.front import INVALID, NO_TABLES, Base, Context, display_name
from bot.model import LOBBY, PLAYING
from bot.port import Notice
from engine import Card, Play

__all__ = ["Inline"]


class Inline(Base):
    """The handlers of inline queries, chosen inline results and the messages they post."""

    async def _table_for(self, query: str, pid: str) -> str | None:
        """The table an inline query names (inline queries carry no chat), else the one
        the player sits at."""
        words = query.split()
        if words:
            key = key_of_tid(words[0])
            if key is not None:
                return self.a.current_key(key)
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
            if self.a.stickers is not None:  # the card set is made: cards as stickers
                found, button = pictures.inline_answer(info, view, legal, tr, self.a.stickers)
            else:
                found, button = views.inline_answer(info, view, legal, tr, self.a.username)
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
        version = version_of(parts[1]) if len(parts) == 3 else None
        origin = await self._origin(uid, chosen=key)
        if key is None or version is None:
            await self._tell_text(uid, INVALID)
            return
        info = await self.svc.table(key)
        if info is None or info.status != PLAYING:
            lobby = info is not None and info.status == LOBBY
            self.messages.dm_notice(
                uid, Notice("not_started" if lobby else "no_table"), key, origin
            )
            return
        code = parts[2]
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
            await self._tell_text(uid, INVALID, origin)
            return
        await self.svc.act(key, player_id(uid), action, seen_version=version, origin=origin)

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
        key = self.a.current_key(key)
        self.messages.chose(key, r.from_user.id, display_name(r.from_user))
        return key

    async def posted(self, update: Update, context: Context) -> None:
        """A group message posted through this bot (an inline choice): remembered, so that
        a refusal of that choice can reply to it."""
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
        self.messages.saw_choice(key_of(msg.chat.id, thread), user.id, posted)
        return True
