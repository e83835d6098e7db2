"""The menus in the private chat, drawn: a table's settings (for its host or a group admin),
the languages (the chat's, for an admin; a user's own) and how a user's cards are shown
(``/cards``: stickers or text, their own setting on every table).

The settings are the schema's (``bot.ui.settings_schema``, through ``bot.ui.controls`` and
:mod:`adapters.telegram.widgets`): a flag added there shows here with its values. Who may
open or change them is for the handlers (``inbound``) to check before anything is drawn
here; this module only sends and edits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from telegram import CallbackQuery

from adapters.telegram import widgets
from adapters.telegram.chats import Chats
from adapters.telegram.common import Wire
from adapters.telegram.ids import key_of, tid_of
from adapters.telegram.outbound.replies import Messages
from adapters.telegram.text import notice_text
from bot.port import Notice, TableInfo
from bot.ui import settings_schema as schema
from bot.ui.i18n import LANGUAGE_NAMES, Translator

__all__ = ["Menus", "lang_done"]


class Menus:
    """The settings, language and ``/cards`` menus, sent and edited."""

    def __init__(
        self, wire: Wire, chats: Chats, messages: Messages, stickers: Callable[[], bool]
    ) -> None:
        self.wire = wire
        self.chats = chats
        self.messages = messages
        self._stickers = stickers  # whether the card stickers are made

    async def send_settings(
        self, chat: int, info: TableInfo | None, refused: str | None, tr: Translator
    ) -> None:
        """The settings menu of ``info`` as a new message in ``chat`` (private); the
        refusal ``refused`` instead (no table: ``no_table``)."""
        if info is None or refused is not None:
            await self.wire.bot.send_message(chat, notice_text(Notice(refused or "no_table"), tr))
            return
        text, markup = widgets.settings_main(info, tr)
        await self.wire.bot.send_message(chat, text, reply_markup=markup)

    def settings_main(self, q: CallbackQuery, info: TableInfo, tr: Translator) -> None:
        """The menu's main page, drawn over the menu pressed."""
        self.messages.edit(q, *widgets.settings_main(info, tr))

    def settings_flag(self, q: CallbackQuery, info: TableInfo, flag: str, tr: Translator) -> None:
        """A flag's page, drawn over the menu pressed."""
        self.messages.edit(q, *widgets.settings_flag(info, flag, tr))

    def settings_done(self, q: CallbackQuery, info: TableInfo, tr: Translator) -> None:
        """Done: the menu becomes the rules as set."""
        self.messages.edit(q, schema.rules_summary(info.rules, tr, info.preset), None)

    def done(self, q: CallbackQuery, text: str) -> None:
        """A menu that has done its work: its buttons go (``text`` stays)."""
        self.messages.edit(q, text, None)

    async def cards_menu(self, uid: int, tr: Translator) -> tuple[str, Any]:
        """The ``/cards`` menu for ``uid`` (in their private chat)."""
        current = await self.chats.user_cards(uid)
        return widgets.cards_menu(tid_of(key_of(uid)), current, tr, stickers=self._stickers())

    async def cards_again(self, q: CallbackQuery, uid: int) -> None:
        """The ``/cards`` menu drawn again over the one pressed (the choice ticked)."""
        self.messages.edit(q, *await self.cards_menu(uid, await self.chats.user_tr(uid)))


def lang_done(tr: Translator) -> str:
    return tr.gettext("Language: {language}", language=_lang_name(tr.lang))


def _lang_name(lang: str) -> str:
    return LANGUAGE_NAMES.get(lang, lang)
