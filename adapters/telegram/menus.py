"""The menus in the private chat: a table's settings (for its host or a group admin), the
languages (the chat's, for an admin; a user's own) and how a user's cards are shown
(``/cards``: stickers or text, their own setting on every table).

The settings are the schema's (``bot.ui.settings_schema``, through ``bot.ui.controls``): a flag
added there shows here with its values, and its buttons name it by its key. Who may open
or change them is ``bot.policy``'s to say; the service refuses a change as it must.

A menu's button acts on its own menu message only (:func:`menu_of` judges a message by
the buttons it holds): a ``callback_data`` slipped onto the public table message, or onto a
private hand, would draw the menu over it."""

from __future__ import annotations

from typing import Any

from telegram import Message
from telegram.constants import ChatType
from telegram.error import Forbidden

from adapters.telegram import legacy, views
from adapters.telegram.common import notice_text
from adapters.telegram.front import INVALID, Base, Pressed
from adapters.telegram.ids import Link, chat_of, key_of, player_id, scope_of, tid_of
from bot.port import Notice, TableInfo
from bot.ui import intents
from bot.ui import settings_schema as schema
from bot.ui.i18n import LANGUAGE_NAMES, LANGUAGES, Translator, translator
from bot.ui.intents import (
    TELEGRAM_LIMIT,
    CardLook,
    CloseSettings,
    Kick,
    Language,
    Look,
    OpenFlag,
    OpenSettings,
    Press,
    SetFlag,
    SetPreset,
)

__all__ = ["MENUS", "Menus", "lang_done", "menu_of", "on_its_menu"]

# the intents that act on the menu message they are pressed on, and which menu that is
MENUS: dict[type, str] = {
    OpenFlag: "settings",
    SetFlag: "settings",
    SetPreset: "settings",
    CloseSettings: "settings",
    Kick: "kick",
    Language: "language",
}
# what a settings menu holds (its main page: presets, flag openers, Done; a flag's page: its
# values and Back), and what makes one (a menu of nothing but Back and Done is none)
_SETTINGS = frozenset({SetPreset, OpenFlag, SetFlag, OpenSettings, CloseSettings})
_SETTING = frozenset({SetPreset, OpenFlag, SetFlag})


def _kind(data: object) -> type | None:
    """The kind of intent a button's ``callback_data`` carries (an old button's too)."""
    if not isinstance(data, str):
        return None  # a link, an inline-mode switch: no menu's
    found = legacy.read(data) or intents.decode(data, limit=TELEGRAM_LIMIT)
    if isinstance(found, legacy.OldChoice):
        return SetFlag
    return type(found.raw) if isinstance(found, Press) else None


def menu_of(msg: Any) -> str | None:
    """Which menu ``msg`` is (``settings``, ``kick``, ``language``), judged by the buttons
    this bot draws on each; ``None`` for anything else (the table message, a hand, a
    message whose buttons Telegram no longer gives)."""
    markup = msg.reply_markup if isinstance(msg, Message) else None
    if markup is None:
        return None
    kinds = {_kind(b.callback_data) for row in markup.inline_keyboard for b in row}
    if kinds <= _SETTINGS and kinds & _SETTING:
        return "settings"
    if kinds == {Kick}:
        return "kick"
    if kinds == {Language}:
        return "language"
    return None


def on_its_menu(p: Pressed) -> bool:
    """Whether a press acts where it may: a menu's intent on that menu's message only (an
    old message Telegram gives without its buttons: in the presser's own private chat
    only, where it can overwrite nothing public); every other intent anywhere."""
    menu = MENUS.get(SetFlag if isinstance(p.read, legacy.OldChoice) else type(p.read.raw))
    if menu is None:
        return True
    msg = p.q.message
    if msg is None:
        return False
    if not isinstance(msg, Message):  # inaccessible: its keyboard is not given
        return msg.chat.type == ChatType.PRIVATE and msg.chat.id == p.uid
    return menu_of(msg) == menu


class Menus(Base):
    """The settings and language menus."""

    async def send_settings(self, key: str, uid: int, chat: int) -> None:
        """The settings menu of table ``key`` as a new message in ``chat`` (private)."""
        info, refused, _admin = await self._manager(key, uid)
        tr = await self.chats.user_tr(uid)
        if info is None or refused is not None:
            await self.a.bot.send_message(chat, notice_text(Notice(refused or "no_table"), tr))
            return
        text, markup = views.settings_main(info, tr)
        await self.a.bot.send_message(chat, text, reply_markup=markup)

    async def set_chat_lang(self, key: str, chat: int, lang: str) -> None:
        self.chats.set_chat_lang(chat, lang)
        await self.svc.set_chat_language(key, scope_of(chat), lang)

    async def set_user_lang(self, uid: int, lang: str | None) -> None:
        self.chats.set_user_lang(uid, lang)
        await self.svc.set_user_language(player_id(uid), lang)

    async def set_user_cards(self, uid: int, look: Look) -> None:
        """Saved first, then remembered: the next inline query shows the cards so."""
        await self.svc.set_user_cards(player_id(uid), look)
        self.chats.set_user_cards(uid, look)

    async def cards_menu(self, uid: int, tr: Translator) -> tuple[str, Any]:
        """The ``/cards`` menu for ``uid`` (in their private chat)."""
        current = await self.chats.user_cards(uid)
        stickers = self.a.stickers is not None
        return views.cards_menu(tid_of(key_of(uid)), current, tr, stickers=stickers)

    # -- the settings' buttons ----------------------------------------------------------------

    async def _allowed(self, p: Pressed) -> tuple[TableInfo, bool] | None:
        """The table (as ``TableInfo``) and whether the presser is an admin, if they may
        manage it; else ``None``, refused on the button."""
        info, refused, admin = await self._manager(p.key, p.uid)
        if info is None or refused is not None:
            p.refuse(refused or "no_table")
            return None
        return info, admin

    async def open_settings(self, p: Pressed) -> None:
        """From the table message: the menu, privately. In the menu: back to it (drawn
        again there; from any other message, a new menu, never drawn over it)."""
        allowed = await self._allowed(p)
        if allowed is None:
            return
        msg = p.q.message
        if msg is not None and msg.chat.id == p.uid and menu_of(msg) == "settings":
            info, _admin = allowed
            text, markup = views.settings_main(info, translator(p.origin.lang))
            self.messages.edit(p.q, text, markup)
            return
        try:
            await self.send_settings(p.key, p.uid, p.uid)
        except Forbidden:
            p.origin.url = views.deep_link(self.a.username, Link.SETTINGS + tid_of(p.key))

    async def open_flag(self, p: Pressed) -> None:
        allowed = await self._allowed(p)
        if allowed is None or not isinstance(p.read, Press):
            return
        intent = p.read.raw
        assert isinstance(intent, OpenFlag)
        info, _admin = allowed
        text, markup = views.settings_flag(info, intent.flag, translator(p.origin.lang))
        self.messages.edit(p.q, text, markup)

    async def set_flag(self, p: Pressed) -> None:
        allowed = await self._allowed(p)
        if allowed is None:
            return
        info, admin = allowed
        intent = p.read.raw if isinstance(p.read, Press) else None
        if isinstance(p.read, legacy.OldChoice):  # an old button: the value it offered
            old = legacy.old_choice(p.read, getattr(info.rules, p.read.flag))
            intent = old if isinstance(old, SetFlag) else None
        if not isinstance(intent, SetFlag) or intent.flag not in schema.SCHEMA:
            p.alert(translator(p.origin.lang).gettext(INVALID))
            return
        overrides = {intent.flag: intent.value}
        res = await self.svc.configure(
            p.key, p.pid, overrides=overrides, admin=admin, origin=p.origin
        )
        if res.ok and res.table is not None:
            tr = translator(p.origin.lang)
            self.messages.edit(p.q, *views.settings_flag(res.table, intent.flag, tr))

    async def set_preset(self, p: Pressed) -> None:
        allowed = await self._allowed(p)
        if allowed is None or not isinstance(p.read, Press):
            return
        intent = p.read.raw
        assert isinstance(intent, SetPreset)
        _info, admin = allowed
        res = await self.svc.configure(
            p.key, p.pid, preset=intent.name, admin=admin, origin=p.origin
        )
        if res.ok and res.table is not None:
            tr = translator(p.origin.lang)
            self.messages.edit(p.q, *views.settings_main(res.table, tr))

    async def close_settings(self, p: Pressed) -> None:
        """Done: the menu becomes the rules as set."""
        allowed = await self._allowed(p)
        if allowed is None:
            return
        info, _admin = allowed
        tr = translator(p.origin.lang)
        text = schema.rules_summary(info.rules, tr, info.preset)
        self.messages.edit(p.q, text, None)

    # -- the languages' buttons ---------------------------------------------------------------

    async def language(self, p: Pressed) -> None:
        """The chat's language (an admin of the chat) or the user's own (their private
        chat)."""
        intent = p.read.raw if isinstance(p.read, Press) else None
        assert isinstance(intent, Language)
        uid, chat, lang = p.uid, chat_of(p.key)[0], intent.code
        tr = translator(p.origin.lang)
        if lang is not None and lang not in LANGUAGES:
            p.alert(tr.gettext(INVALID))
        elif intent.kind == "user" and chat == uid:
            await self.set_user_lang(uid, lang)
            self.messages.edit(p.q, lang_done(await self.chats.user_tr(uid)), None)
        elif intent.kind == "chat" and lang is not None:
            if not await self.chats.is_admin(chat, uid):
                p.refuse("not_host")
                return
            await self.set_chat_lang(p.key, chat, lang)
            self.messages.edit(p.q, lang_done(translator(lang)), None)
        else:
            p.alert(tr.gettext(INVALID))

    async def card_look(self, p: Pressed) -> None:
        """Stickers or text: the presser's own, chosen in their private chat (the menu
        drawn again with the choice ticked)."""
        intent = p.read.raw if isinstance(p.read, Press) else None
        assert isinstance(intent, CardLook)
        uid = p.uid
        if chat_of(p.key)[0] != uid:  # a menu of someone else's private chat: forged
            p.alert(translator(p.origin.lang).gettext(INVALID))
            return
        await self.set_user_cards(uid, intent.look)
        self.messages.edit(p.q, *await self.cards_menu(uid, await self.chats.user_tr(uid)))


def lang_done(tr: Translator) -> str:
    return tr.gettext("Language: {language}", language=_lang_name(tr.lang))


def _lang_name(lang: str) -> str:
    return LANGUAGE_NAMES.get(lang, lang)
