"""The inline buttons: a press -> an intent (``bot.ui.intents``) -> ``bot.ui.press.press``, always
answered (refusals as an alert on the button).

One ``CallbackQueryHandler`` per kind of intent (:data:`ROUTES`, put on PTB's application by
:meth:`Presses.install`), its pattern a callable on the decoded intent: the
``callback_data`` is read once (:func:`read`: the intent codec, or ``legacy`` for the
buttons posted before it, so an old button does what it did; cached, so that the patterns
asking in turn decode it once), and the one handler whose kind it is runs its typed
function. Anything else (forged, over 64 bytes, naming another chat's table) is answered
"This button is not valid."; a form too old to read "This button is outdated".

Every change a button asks (play, join, leave, add a bot, start, kick, a setting, a
language, the look of one's cards) goes through ``bot.ui.press.press``, and what the call
tells the presser (its ``Result.told``) is said on the button; what only the presser sees
(the hand, a settings page, the menus) is drawn by ``outbound`` (``hands``, ``menus``). A
menu's button acts on its own menu message only (:func:`menu_of` judges a message by the
buttons it holds): a ``callback_data`` slipped onto the public table message, or onto a
private hand, would draw the menu over it.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import lru_cache
from typing import Any

from telegram import CallbackQuery, Message, Update
from telegram.constants import ChatType
from telegram.error import Forbidden
from telegram.ext import Application, CallbackQueryHandler

from adapters.telegram import widgets
from adapters.telegram.common import INTERACTIVE, ReplyTo
from adapters.telegram.ids import Link, chat_of, key_of_tid, player_id, scope_of, tid_of
from adapters.telegram.inbound import legacy
from adapters.telegram.inbound.front import Base, Context, Handler, Pressed
from adapters.telegram.outbound.menus import lang_done
from adapters.telegram.text import INVALID, NOT_SAVED, OPEN_PRIVATE, OUTDATED, display_name
from bot import policy
from bot.port import TableInfo
from bot.service import Result
from bot.ui import intents
from bot.ui import settings_schema as schema
from bot.ui.i18n import LANGUAGES, Translator, translator
from bot.ui.intents import (
    TELEGRAM_LIMIT,
    Act,
    AddBot,
    Autopilot,
    CardLook,
    CloseSettings,
    DecodeRefusal,
    Intent,
    Join,
    Kick,
    Language,
    LeaveTable,
    OpenFlag,
    OpenHand,
    OpenSettings,
    Press,
    Refresh,
    SetFlag,
    SetPreset,
    Start,
    VoteEnd,
)
from bot.ui.press import press

__all__ = ["MENUS", "ROUTES", "Presses", "menu_of", "on_its_menu", "read"]

log = logging.getLogger(__name__)

Read = Press | legacy.OldChoice | DecodeRefusal


@lru_cache(maxsize=512)
def read(data: str | None) -> Read:
    """What a button's ``callback_data`` means: read once per press (every handler's
    pattern asks), by the intent codec, or as an old button (``legacy``)."""
    if not data:
        return intents.FORGED
    old = legacy.read(data)
    if old is not None:
        return old
    return intents.decode(data, limit=TELEGRAM_LIMIT)


def _kind(data: object) -> type | None:
    """The kind of intent a button's ``callback_data`` carries (an old button's too)."""
    found = read(data) if isinstance(data, str) else None
    if isinstance(found, Press):
        return type(found.raw)
    if isinstance(found, legacy.OldChoice):
        return SetFlag  # an old value button sets its flag
    return None


def _pattern(kind: type) -> Callable[[object], bool]:
    """A handler's pattern: the presses of this kind of intent."""
    return lambda data: _kind(data) is kind


# -- which menu a message is -------------------------------------------------------------------

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


# -- the handlers ------------------------------------------------------------------------------


class Presses(Base):
    """The handlers of the inline buttons: one per kind of intent (:data:`ROUTES`)."""

    def install(self, app: Application[Any, Any, Any, Any, Any, Any]) -> None:
        """One handler per kind of intent, by pattern; then one for whatever is left."""
        for kind, route in ROUTES:
            app.add_handler(CallbackQueryHandler(self._pressed(route), pattern=_pattern(kind)))
        app.add_handler(CallbackQueryHandler(self._pressed(None)))

    def _pressed(self, route: Route | None) -> Handler:
        """``route`` for a press: the query always answered, what it raised said on it."""

        async def handle(update: Update, context: Context) -> None:
            q = update.callback_query
            if q is None:
                return
            INTERACTIVE.set(True)
            self.chats.seen_user(q.from_user)
            if q.message is not None and q.message.chat.title:
                self.chats.titles[q.message.chat.id] = q.message.chat.title
            uid = q.from_user.id
            try:
                lang = await self.chats.user_lang(uid)
            except Exception:  # the store being slow or down must not leave a button hanging
                log.exception("user_lang(%s) failed", uid)
                lang = "en"
            reply = ReplyTo(uid, lang, query=q)
            tr = translator(lang)
            try:
                pressed = self._where(q, reply, tr)
                if route is None or pressed is None:
                    outdated = read(q.data) == intents.OUTDATED
                    reply.alerts.append(tr.gettext(OUTDATED if outdated else INVALID))
                elif not on_its_menu(pressed):  # slipped onto the table, or a hand
                    reply.alerts.append(tr.gettext(INVALID))
                else:
                    await route(self, pressed)
            except Forbidden as err:  # a private message the press asked for: refused
                self.chats.cannot_message(uid, err)
                reply.alerts.append(tr.gettext(OPEN_PRIVATE))
            except Exception:  # logged by kind only: the data of a hand's button names a card
                kind = _kind(q.data)
                log.exception("a button (%s) failed", kind.__name__ if kind else "?")
                reply.alerts.append(tr.gettext(NOT_SAVED))  # nothing was changed
            finally:
                await self.messages.answer(q, reply)

        return handle

    def _where(self, q: CallbackQuery, reply: ReplyTo, tr: Translator) -> Pressed | None:
        """The press, at its table (a group's buttons act on that group's tables only)."""
        found = read(q.data)
        if isinstance(found, DecodeRefusal):
            return None
        key = key_of_tid(found.token)
        if key is None or not _same_chat(q, key):
            return None
        uid = q.from_user.id
        return Pressed(self.moves.current_key(key), found, q, reply, tr, uid, player_id(uid))

    async def intent(self, p: Pressed, info: TableInfo | None = None) -> Intent | None:
        """The intent with the players it names found at the table (``info``, else read;
        ``None``: forged)."""
        assert isinstance(p.read, Press)
        if not p.read.needs_seats:
            return p.read.raw
        if info is None:
            info = await self.svc.table(p.key)
        seats = [s.id for s in info.seats] if info is not None else []
        intent = p.read.resolve(seats)
        return None if isinstance(intent, DecodeRefusal) else intent

    async def manager(self, p: Pressed) -> tuple[TableInfo, bool] | None:
        """The table and whether the presser is an admin, if they may manage it; else
        ``None``, refused on the button."""
        info, refused, admin = await self._manager(p.key, p.uid)
        if info is None or refused is not None:
            p.refuse(refused or "no_table")
            return None
        return info, admin

    async def press(
        self, p: Pressed, intent: Intent, *, admin: bool = False, scope: str | None = None
    ) -> Result | None:
        """``intent`` through ``bot.ui.press.press`` as the presser: the table as changed,
        or ``None`` (refused). What the call tells the presser (``Result.told``: a
        refusal, a hand a challenge revealed) is said on the button."""
        name = display_name(p.q.from_user) if isinstance(intent, Join) else ""
        res = await press(self.svc, p.key, p.pid, intent, name=name, admin=admin, scope=scope)
        if res is None:
            return None
        self.messages.told(p.key, p.reply, res.told)
        return res if res.ok else None


Route = Callable[[Presses, Pressed], Awaitable[None]]


# -- one typed function per kind of intent -----------------------------------------------------


async def act(h: Presses, p: Pressed) -> None:
    """A move: a card, draw, pass, UNO, a colour... (``Act``). A table not open is the
    service's to refuse (``no_table``); the table is read here only for a move that names
    a player (a hand swapped with them), found among its seats."""
    assert isinstance(p.read, Press)
    if p.read.needs_seats:
        info = await h.svc.table(p.key)
        if not policy.is_open(info):
            p.refuse("no_table")
            return
        intent = await h.intent(p, info)
    else:
        intent = p.read.raw
    if not isinstance(intent, Act):
        p.alert(p.tr.gettext(INVALID))
        return
    await h.press(p, intent)


async def seat(h: Presses, p: Pressed) -> None:
    """Join, leave (``Join``, ``LeaveTable``): anyone, for themselves."""
    assert isinstance(p.read, Press)
    await h.press(p, p.read.raw)


async def manage(h: Presses, p: Pressed) -> None:
    """Add a bot, start (``AddBot``, ``Start``): the host, or an admin of the chat (asked
    of Telegram only when the host check alone fails)."""
    assert isinstance(p.read, Press)
    await h.press(p, p.read.raw, admin=await h._admin(p.key, p.uid))


async def absent(h: Presses, p: Pressed) -> None:
    """A private hand's "Play for me" or "Take my seat back" (``Autopilot``), the table's
    vote to end the game (``VoteEnd``): the presser's own (``bot.presence``)."""
    assert isinstance(p.read, Press)
    await h.press(p, p.read.raw)


async def kick(h: Presses, p: Pressed) -> None:
    """A player chosen in the ``/kick`` menu: removed, and the menu closed."""
    intent = await h.intent(p)
    if not isinstance(intent, Kick):
        p.alert(p.tr.gettext(INVALID))
        return
    if await h.press(p, intent, admin=await h._admin(p.key, p.uid)) is not None:
        h.menus.done(p.q, getattr(p.q.message, "text", None) or "✓")


async def hand(h: Presses, p: Pressed) -> None:
    """The private hand (``OpenHand``, ``Refresh``): sent, or (its own refresh button)
    drawn again."""
    key, uid = p.key, p.uid
    if await h.svc.hand(key, p.pid) is None:  # forged, or left the game
        info = await h.svc.table(key)
        p.refuse("not_a_player" if policy.is_open(info) else "no_table")
        return
    if p.q.message is not None and p.q.message.chat.id == uid:
        h.hands.remember_dm(key, uid, p.q.message.message_id)
    try:
        await h.hands.send_hand(key, uid)
    except Forbidden as err:  # blocked the bot, or never opened the private chat
        h.chats.cannot_message(uid, err)
        p.reply.url = widgets.deep_link(h.a.username, Link.HAND + tid_of(key))


async def open_settings(h: Presses, p: Pressed) -> None:
    """From the table message: the menu, privately. In the menu: back to it (drawn again
    there; from any other message, a new menu, never drawn over it)."""
    allowed = await h.manager(p)
    if allowed is None:
        return
    msg = p.q.message
    if msg is not None and msg.chat.id == p.uid and menu_of(msg) == "settings":
        h.menus.settings_main(p.q, allowed[0], p.tr)
        return
    try:
        await h._send_settings(p.key, p.uid, p.uid)
    except Forbidden:
        p.reply.url = widgets.deep_link(h.a.username, Link.SETTINGS + tid_of(p.key))


async def open_flag(h: Presses, p: Pressed) -> None:
    """A flag's page of the settings menu (``OpenFlag``)."""
    allowed = await h.manager(p)
    if allowed is None or not isinstance(p.read, Press):
        return
    intent = p.read.raw
    assert isinstance(intent, OpenFlag)
    h.menus.settings_flag(p.q, allowed[0], intent.flag, p.tr)


async def set_flag(h: Presses, p: Pressed) -> None:
    """A flag's value (``SetFlag``, or an old value button): set, its page drawn again."""
    allowed = await h.manager(p)
    if allowed is None:
        return
    info, admin = allowed
    intent = p.read.raw if isinstance(p.read, Press) else None
    if isinstance(p.read, legacy.OldChoice):  # an old button: the value it offered
        old = legacy.old_choice(p.read, getattr(info.rules, p.read.flag))
        intent = old if isinstance(old, SetFlag) else None
    if not isinstance(intent, SetFlag) or intent.flag not in schema.SCHEMA:
        p.alert(p.tr.gettext(INVALID))
        return
    res = await h.press(p, intent, admin=admin)
    if res is not None and res.table is not None:
        h.menus.settings_flag(p.q, res.table, intent.flag, p.tr)


async def set_preset(h: Presses, p: Pressed) -> None:
    """A preset (``SetPreset``): set, the main page drawn again."""
    allowed = await h.manager(p)
    if allowed is None or not isinstance(p.read, Press):
        return
    intent = p.read.raw
    assert isinstance(intent, SetPreset)
    res = await h.press(p, intent, admin=allowed[1])
    if res is not None and res.table is not None:
        h.menus.settings_main(p.q, res.table, p.tr)


async def close_settings(h: Presses, p: Pressed) -> None:
    """Done (``CloseSettings``): the menu becomes the rules as set."""
    allowed = await h.manager(p)
    if allowed is not None:
        h.menus.settings_done(p.q, allowed[0], p.tr)


async def language(h: Presses, p: Pressed) -> None:
    """The chat's language (an admin of the chat) or the user's own (their private chat)."""
    intent = p.read.raw if isinstance(p.read, Press) else None
    assert isinstance(intent, Language)
    uid, chat, lang = p.uid, chat_of(p.key)[0], intent.code
    if lang is not None and lang not in LANGUAGES:
        p.alert(p.tr.gettext(INVALID))
    elif intent.kind == "user" and chat == uid:
        if await h.press(p, intent) is not None:
            h.chats.set_user_lang(uid, lang)
            h.menus.done(p.q, lang_done(await h.chats.user_tr(uid)))
    elif intent.kind == "chat" and lang is not None:
        admin = await h.chats.is_admin(chat, uid)
        if await h.press(p, intent, admin=admin, scope=scope_of(chat)) is not None:
            h.chats.set_chat_lang(chat, lang)
            h.menus.done(p.q, lang_done(translator(lang)))
    else:
        p.alert(p.tr.gettext(INVALID))


async def card_look(h: Presses, p: Pressed) -> None:
    """Stickers or text (``CardLook``): the presser's own, chosen in their private chat
    (saved, then remembered: the next inline query shows the cards so; the menu drawn
    again with the choice ticked)."""
    intent = p.read.raw if isinstance(p.read, Press) else None
    assert isinstance(intent, CardLook)
    if chat_of(p.key)[0] != p.uid:  # a menu of someone else's private chat: forged
        p.alert(p.tr.gettext(INVALID))
        return
    if await h.press(p, intent) is not None:
        h.chats.set_user_cards(p.uid, intent.look)
        await h.menus.cards_again(p.q, p.uid)


# each kind of intent a button carries, and its function
ROUTES: tuple[tuple[type, Route], ...] = (
    (Act, act),
    (Join, seat),
    (LeaveTable, seat),
    (AddBot, manage),
    (Start, manage),
    (OpenHand, hand),
    (Refresh, hand),
    (Kick, kick),
    (Autopilot, absent),
    (VoteEnd, absent),
    (OpenSettings, open_settings),
    (OpenFlag, open_flag),
    (SetFlag, set_flag),
    (SetPreset, set_preset),
    (CloseSettings, close_settings),
    (Language, language),
    (CardLook, card_look),
)


def _same_chat(q: CallbackQuery, key: str) -> bool:
    """A group's buttons act on that group's tables only; private buttons on any."""
    msg = q.message
    if msg is None:
        return False
    if msg.chat.type == ChatType.PRIVATE:
        return True
    return msg.chat.id == chat_of(key)[0]
