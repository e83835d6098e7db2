"""Telegram updates -> table-service calls: every handler, registered on PTB's application.

The handlers themselves are by kind: :mod:`.commands` (typed commands), :mod:`.presses`
(inline buttons, the menus' too), :mod:`.inline` (inline queries and chosen results); they
all see the adapter as a :class:`~.front.Front`. What
fails on our side is answered here (``_answered``) and logged by update id and kind only.
"""

from __future__ import annotations

import logging
from typing import Any

from telegram import InlineQueryResultsButton, Update
from telegram.ext import (
    Application,
    ChosenInlineResultHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    filters,
)

from adapters.telegram.common import answer_quietly
from adapters.telegram.ids import key_of_tid
from adapters.telegram.inbound.commands import READ_ONLY, Commands
from adapters.telegram.inbound.front import Base, Context, Front, Handler
from adapters.telegram.inbound.inline import Inline
from adapters.telegram.inbound.presses import Presses
from adapters.telegram.text import FAILED, NOT_SAVED, TOO_FAST

__all__ = ["Handlers"]

log = logging.getLogger(__name__)


class Handlers(Base):
    """The update handlers of one adapter (its :class:`~.front.Front`)."""

    def __init__(self, front: Front) -> None:
        super().__init__(front)
        self.commands = Commands(front)
        self.presses = Presses(front)
        self.inline = Inline(front)

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """Register every handler on ``app``."""
        new_messages = filters.UpdateType.MESSAGE
        for name, callback in self.commands.table().items():
            failed = FAILED if name in READ_ONLY else NOT_SAVED
            guarded = self._answered(callback, failed)
            app.add_handler(CommandHandler(name, guarded, filters=new_messages))
        self.presses.install(app)  # one handler per kind of intent
        app.add_handler(InlineQueryHandler(self._answered(self.inline.inline, FAILED)))
        app.add_handler(ChosenInlineResultHandler(self._answered(self.inline.chosen, NOT_SAVED)))
        posted = new_messages & filters.VIA_BOT & filters.ChatType.GROUPS
        app.add_handler(MessageHandler(posted, self.inline.posted))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.migrated))
        app.add_error_handler(self.error)

    # -- helpers ------------------------------------------------------------------------------

    def _answered(self, callback: Handler, failed: str) -> Handler:
        """``callback``, answered when it fails: a typed command or an inline choice is
        told ``failed`` (:meth:`Messages.refuse`: privately, else in the group), an inline
        query gets it as its button. The failure is logged by update id and kind only.

        A service call that raises changed nothing (the change is committed before
        anything is shown): the store could not write it, and the user may try again."""

        async def run(update: Update, context: Context) -> None:
            try:
                await callback(update, context)
            except Exception:
                log.exception("update %s (%s) failed", update.update_id, _kind(update))
                try:
                    await self._say_failed(update, failed)
                except Exception:  # the answer is a courtesy: never a second traceback
                    log.warning("update %s: the failure could not be told", update.update_id)

        return run

    async def _say_failed(self, update: Update, failed: str) -> None:
        user = update.effective_user
        if user is None or user.is_bot:
            return
        iq = update.inline_query
        if iq is not None:
            text = (await self.chats.user_tr(user.id)).gettext(failed)
            button = InlineQueryResultsButton(text[:64], start_parameter="help")
            await answer_quietly("answerInlineQuery", lambda: iq.answer([], button=button))
            return
        chosen = update.chosen_inline_result
        if chosen is not None:
            key = key_of_tid(chosen.result_id.split("|")[0])
            reply = self._reply_to(user.id, chosen=self.moves.current_key(key) if key else None)
        else:
            here = self._here(update)
            if here is None:
                return
            reply = here.reply
        await self._tell_text(user.id, failed, reply)

    async def overflow(self, update: Update) -> None:
        """An update of a user with ``ordering.BACKLOG`` updates waiting already: not
        handled, and answered at once, never queued. A pressed button is told "too fast"
        (its query must be answered, or its spinner turns); an inline query gets no
        results and "too fast" as its button; a chosen inline result, whose card is not
        played, is told so (privately, else as a reply in the group: one such reply waits
        per user at most); the 🎴 such a choice posted is still noted (it belongs to its
        chosen result). Other messages (typed commands, talk) are left unanswered: 33 of
        them typed faster than one is handled are a flood, and answering each would be
        one too (a command typed again later is answered)."""
        user = update.effective_user
        if user is None or user.is_bot:
            return
        q = update.callback_query
        iq = update.inline_query
        if q is not None or iq is not None:
            text = (await self.chats.user_tr(user.id)).gettext(TOO_FAST)
            if q is not None:
                await answer_quietly("answerCallbackQuery", lambda: q.answer(text))
            elif iq is not None:
                button = InlineQueryResultsButton(text[:64], start_parameter="help")
                await answer_quietly(
                    "answerInlineQuery",
                    lambda: iq.answer([], button=button, cache_time=0, is_personal=True),
                )
            return
        if update.chosen_inline_result is not None:
            key = self.inline.chose(update)
            await self._tell_text(user.id, TOO_FAST, self._reply_to(user.id, chosen=key))
            return
        self.inline.saw_post(update)

    async def migrated(self, update: Update, context: Context) -> None:
        """A group upgraded to a supergroup: the service message in the old chat
        (``migrate_to_chat_id``) or in the new one (``migrate_from_chat_id``), whichever
        comes first, moves the chat's tables (the other finds nothing left to move)."""
        msg = update.effective_message
        if msg is None:
            return
        if msg.migrate_to_chat_id:
            await self.a.migrate(msg.chat.id, msg.migrate_to_chat_id)
        elif msg.migrate_from_chat_id:
            await self.a.migrate(msg.migrate_from_chat_id, msg.chat.id)

    async def error(self, update: object, context: Context) -> None:
        """Log what a handler raised: the update's id and kind, never its content (the
        button of a private hand carries the hand message)."""
        if isinstance(update, Update):
            what = f"update {update.update_id} ({_kind(update)})"
        else:
            what = "a job" if update is None else type(update).__name__
        log.error("%s failed", what, exc_info=context.error)


def _kind(update: Update) -> str:
    """Which kind of update (``message``, ``callback_query``...): what a log may say."""
    for name in Update.ALL_TYPES:
        if getattr(update, str(name), None) is not None:
            return str(name)
    return "unknown"
