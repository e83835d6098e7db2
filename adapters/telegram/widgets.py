"""What Telegram users see: message texts, inline keyboards and inline-mode results.

Pure functions of public state, one player's own view and a translator: no I/O. The table
message is made from ``TableInfo`` (the public view) only, so no group message can hold a
hand; a hand is rendered only for its owner (private chat, personal inline results). What
choosing an inline result posts to the group is the same neutral :data:`POSTED` for every
result: a choice may be refused (stale, not playable), and its card must not show before
the table message does. (With the card stickers made, ``pictures`` answers the Play query
instead, and a playable card posts its sticker.)

What a menu offers and what a button means are ``bot``'s: ``bot.ui.controls`` gives the
controls (the table in every phase, a hand's moves, the settings, the kick menu), with the
options Telegram declares where platforms differ (:data:`TABLE_OPTIONS`,
:data:`HAND_OPTIONS`), ``bot.ui.settings_schema`` every flag and its values, ``bot.ui.intents``
the ``callback_data`` (:func:`callback_data`, :func:`widget`); this module lays them out
under Telegram's limits (64 bytes of data, no disabled buttons, inline mode for the hand:
the table's ``OpenHand`` is its Play and My cards buttons) and words what only Telegram
shows (the inline results' descriptions, the cards not playable now).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any, Literal

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
    WebAppInfo,
)

from adapters.telegram.ids import MAX_DATA, Link, encode_action, tid_of
from bot.port import TableInfo
from bot.ui import controls, render
from bot.ui import settings_schema as schema
from bot.ui.controls import Control, Row
from bot.ui.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Translator, translator
from bot.ui.intents import (
    TELEGRAM_LIMIT,
    Act,
    Autopilot,
    CardLook,
    CloseSettings,
    Intent,
    Language,
    Look,
    OpenHand,
    encode,
    try_encode,
)
from engine import (
    Accept,
    Action,
    CallUno,
    Card,
    Draw,
    Pass,
    Play,
    View,
)

__all__ = [
    "callback_data",
    "cards_done",
    "cards_menu",
    "hand_message",
    "inline_answer",
    "kick_menu",
    "language_menu",
    "settings_flag",
    "settings_main",
    "table_message",
]

ALERT_MAX = 200  # characters of a callback query alert
INLINE_MAX = 50  # results per inline answer
HAND_BUTTONS = 80  # card buttons on a private hand (a keyboard holds about 100)
TEXT_MAX = 4096

POSTED = "🎴"  # what any chosen inline result posts in the group (never a card)
# an inline result's code for the hand's "Play for me" / "Take my seat back" (an action
# code never starts with a capital: ``bot.ui.intents``)
PILOT_CODES: dict[bool, str] = {True: "P1", False: "P0"}
PILOT_HINTS: dict[bool, str] = {
    True: N_("A bot plays your turns until you press anything"),
    False: N_("Play your own turns again"),
}

SETTINGS = N_("Settings")
CHAT_PROMPT = N_("Choose the language of this chat:")
USER_PROMPT = N_("Choose your language:")
MY_CARDS = N_("My cards")
OPEN_TABLE = N_("Open the table")  # the web table (``UNO_WEB_URL``)
CARDS_PROMPT = N_("How should your cards be shown when you press “{play}”?")
CARDS_HELP = N_(
    "Stickers show a picture of each card, and each card you play joins your recent "
    "stickers. Text shows the same cards in words."
)
CARDS_NONE = N_("This bot has no card stickers yet: your cards are shown as text for now.")
# each way of showing the cards: its button, and what is said once it is chosen
CARD_LOOKS: dict[Look, tuple[str, str, str]] = {
    "pictures": ("🖼", N_("Stickers"), N_("Your cards are shown as stickers.")),
    "text": ("🔤", N_("Text"), N_("Your cards are shown as text.")),
}


def deep_link(username: str | None, payload: str) -> str | None:
    """``t.me/<bot>?start=<payload>``: opens the private chat with the bot."""
    if not username or len(payload) > MAX_DATA:
        return None
    return f"https://t.me/{username}?start={payload}"


def callback_data(intent: Intent, tid: str) -> str | None:
    """A button's ``callback_data``: ``intent`` at table ``tid`` in the one intent codec
    (``bot.ui.intents``), ``None`` if it cannot be one here (over 64 bytes, a player with no
    short form)."""
    return try_encode(intent, tid, limit=TELEGRAM_LIMIT)


def _button(text: str, intent: Intent, tid: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=encode(intent, tid, limit=TELEGRAM_LIMIT))


def widget(control: Control, tid: str) -> InlineKeyboardButton | None:
    """A control as an inline button: its glyph, else its icon before its label; ✓ before
    the selected value of a choice. One that cannot be pressed now, or cannot be encoded
    in 64 bytes, is left out (Telegram has no disabled buttons)."""
    if not control.enabled:
        return None
    data = callback_data(control.intent, tid)
    if data is None:
        return None
    return InlineKeyboardButton(_text(control), callback_data=data)


def _text(control: Control) -> str:
    """Its glyph alone if it has one, else its icon and label; ✓ before a selected one."""
    mark = "✓ " if control.selected else ""
    if control.glyph:
        return mark + control.glyph
    return mark + (control.icon + " " if control.icon else "") + control.label


def keyboard(rows: Sequence[Row], tid: str, width: int) -> list[list[InlineKeyboardButton]]:
    """Rows of controls as rows of buttons, at most ``width`` a row (a choice row too:
    Telegram draws one as buttons, the selected one marked)."""
    out: list[list[InlineKeyboardButton]] = []
    for row in rows:
        buttons = [b for b in (widget(c, tid) for c in row) if b is not None]
        out.extend(_rows(buttons, width))
    return out


def _rows(buttons: Sequence[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def _seats(info: TableInfo) -> list[str]:
    return [s.id for s in info.seats]


# -- the table message --------------------------------------------------------------------


def table_message(
    info: TableInfo,
    tr: Translator,
    recent: Iterable[str] = (),
    username: str | None = None,
    *,
    web: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The public table: text from the public view, buttons for the phase; ``web``: the
    link to the web table (the Mini App on this table), a last row while the table is open."""
    text = render.table_text(info, tr, list(recent))
    if len(text) > TEXT_MAX:
        text = text[: TEXT_MAX - 1] + "…"
    markup = table_keyboard(info, tr, username)
    if web is not None and markup is not None:
        row = [InlineKeyboardButton("🎴 " + tr.gettext(OPEN_TABLE), url=web)]
        markup = InlineKeyboardMarkup([*markup.inline_keyboard, row])
    return text, markup


TABLE_OPTIONS: dict[str, Any] = {
    "uno": "callable",  # UNO! only while someone may call it (a shorter keyboard)
    "hand_between_rounds": False,  # the next round alone: the hand waits for the round
}
"""What Telegram's table message declares of ``bot.ui.controls.table_controls``' options."""

ROW_WIDTH = 4  # buttons a row of the table message


def table_keyboard(
    info: TableInfo, tr: Translator, username: str | None = None
) -> InlineKeyboardMarkup | None:
    """The table message's buttons: ``bot.ui.controls.table_controls`` (with
    :data:`TABLE_OPTIONS`), each control a button. The hand (``OpenHand``) is two widgets
    built around inline mode: "Play" in its place opens the player's hand as inline results
    above the keyboard, "My cards" (a last row, a link) the private chat."""
    tid = tid_of(info.key)
    rows: list[list[InlineKeyboardButton]] = []
    last: list[list[InlineKeyboardButton]] = []
    for row in controls.table_controls(info, tr, **TABLE_OPTIONS):
        buttons: list[InlineKeyboardButton] = []
        for c in row:
            if isinstance(c.intent, OpenHand):
                buttons.append(_play_button(c, tid, tr))
                link = deep_link(username, Link.HAND + tid)
                if link:
                    last.append([my_cards_button(link, tr)])
            elif (w := widget(c, tid)) is not None:
                buttons.append(w)
        rows.extend(_rows(buttons, ROW_WIDTH))
    rows.extend(last)
    return InlineKeyboardMarkup(rows) if rows else None


def my_cards_button(link: str, tr: Translator) -> InlineKeyboardButton:
    """The "🔒 My cards" button: a link to the private chat, where the hand is."""
    return InlineKeyboardButton("🔒 " + tr.gettext(MY_CARDS), url=link)


def _play_button(control: Control, tid: str, tr: Translator) -> InlineKeyboardButton:
    """The hand as Telegram opens it in a group: an inline query for the table ``tid``."""
    text = (control.icon + " " if control.icon else "") + render.button_label("play", tr)
    return InlineKeyboardButton(text, switch_inline_query_current_chat=tid)


# -- a hand, privately ------------------------------------------------------------------------


HAND_OPTIONS: dict[str, Any] = {
    "uno_first": True,  # the call first: a player one card from UNO reads it first
    "next_round": False,  # dealt from the table message alone
}
"""What Telegram's private hand and inline results declare of ``bot.ui.controls.hand_menu``."""

CARD_WIDTH = 4  # card buttons a row of a private hand
MOVE_WIDTH = 2  # other buttons a row


@dataclasses.dataclass(frozen=True, slots=True)
class Moves:
    """``hand_menu``'s controls by kind: ``plays`` (its ``cards`` row), the ``others`` (the
    rest that are moves: colours, draw, UNO!…), and ``extra`` (Refresh)."""

    plays: tuple[Control, ...]
    others: tuple[Control, ...]
    extra: tuple[Row, ...]

    def cards(self) -> set[Card]:
        """The cards that can be played now."""
        return {
            c.intent.action.card
            for c in self.plays
            if isinstance(c.intent, Act) and isinstance(c.intent.action, Play)
        }


def hand_moves(
    info: TableInfo, view: View, legal: Sequence[Action], tr: Translator, **options: Any
) -> Moves:
    """``bot.ui.controls.hand_menu`` (with :data:`HAND_OPTIONS`, or ``options``) by kind."""
    plays: tuple[Control, ...] = ()
    others: list[Control] = []
    extra: list[Row] = []
    for row in controls.hand_menu(info, view, legal, tr, **(options or HAND_OPTIONS)):
        if row.menu == "cards":
            plays = row.controls
        elif all(isinstance(c.intent, Act) for c in row):
            others.extend(row)
        else:
            extra.append(row)
    return Moves(plays, tuple(others), tuple(extra))


def hand_message(
    info: TableInfo,
    view: View | None,
    legal: Sequence[Action],
    tr: Translator,
    lines: Sequence[str] = (),
    title: str | None = None,
    *,
    web: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """A player's private hand (private chat): ``bot.ui.controls.hand_menu``'s controls, the
    plays (at most :data:`HAND_BUTTONS`), then the other moves, then 🔄."""
    tid = tid_of(info.key)
    head = [f"🎴 {title}"] if title else []
    if view is None or view.hand is None:
        return "\n".join([*head, tr.gettext(render.REFUSALS["not_a_player"])]), None
    text = "\n".join([*head, render.hand_text(view, tr, info.names), *_tail(lines)])
    m = hand_moves(info, view, legal, tr)
    cards = [b for b in (widget(c, tid) for c in m.plays) if b is not None]
    rows = _rows(cards[:HAND_BUTTONS], CARD_WIDTH)
    rows.extend(keyboard([Row(m.others)], tid, MOVE_WIDTH))
    rows.extend(keyboard(m.extra, tid, MOVE_WIDTH))
    if web is not None:  # the web table, opened inside Telegram (private chats only)
        rows.append(
            [InlineKeyboardButton("🎴 " + tr.gettext(OPEN_TABLE), web_app=WebAppInfo(web))]
        )
    return text, InlineKeyboardMarkup(rows) if rows else None


def _tail(lines: Sequence[str]) -> list[str]:
    return ["", *lines] if lines else []


# -- inline mode ------------------------------------------------------------------------------


def _result(
    tid: str, version: int, code: str, title: str, description: str | None
) -> InlineQueryResultArticle | None:
    rid = f"{tid}|{version}|{code}"
    if len(rid.encode()) > MAX_DATA:
        return None
    return InlineQueryResultArticle(
        id=rid,
        title=title,
        input_message_content=InputTextMessageContent(POSTED),
        description=description,
    )


def inline_answer(
    info: TableInfo,
    view: View | None,
    legal: Sequence[Action],
    tr: Translator,
    username: str | None = None,
) -> tuple[list[InlineQueryResultArticle], InlineQueryResultsButton | None]:
    """Personal inline results: playable cards first (marked), then the other moves, then
    the rest of the hand. Choosing any of them posts :data:`POSTED` to the group, never the
    card: the table message shows the move once it is applied."""
    tid = tid_of(info.key)
    names = info.names
    button = None
    if view is None or view.hand is None:
        button = InlineQueryResultsButton(
            tr.gettext("You are not playing at this table"), start_parameter="help"
        )
        return [], button
    ver = info.version
    m = hand_moves(info, view, legal, tr)
    seats = _seats(info)
    playable_mark = tr.gettext("✅ Playable")
    plays: list[InlineQueryResultArticle | None] = []
    for play, action in zip(m.plays, _actions(m.plays), strict=True):
        code = encode_action(action, seats)
        if code is not None:
            plays.append(_result(tid, ver, code, _title(play, action, tr, names), playable_mark))
    others: list[InlineQueryResultArticle | None] = []
    for move, other in zip(m.others, _actions(m.others), strict=True):
        code = encode_action(other, seats)
        if code is not None:
            others.append(_result(tid, ver, code, "▶️ " + move.detail, _hint(other, view, tr)))
    playable = m.cards()
    seen: dict[Card, int] = {}
    for c in sorted(view.hand, key=lambda c: c.order):
        if c not in playable:
            seen[c] = seen.get(c, 0) + 1
    dim = tr.gettext("Not playable now")
    rest: list[InlineQueryResultArticle | None] = []
    for c, n in seen.items():
        label = render.card_text(c, tr) + (f" ×{n}" if n > 1 else "")
        rest.append(_result(tid, ver, "-" + c.code, "✖ " + label, dim))
    # 50 results at most: the other moves (draw, pass, UNO...) always make it
    # ("Play for me", or the seat back, last: it never takes a card's place)
    pilot = pilot_results(info, m, tr)
    moves = [r for r in others if r is not None]
    cards = [r for r in plays if r is not None][: INLINE_MAX - len(moves) - len(pilot)]
    most = INLINE_MAX - len(pilot)
    results = [*[*cards, *moves, *(r for r in rest if r is not None)][:most], *pilot]
    status = _status(view, tr, names)
    button = InlineQueryResultsButton(status[:64], start_parameter=Link.HAND + tid)
    return results, button


def pilot_results(info: TableInfo, m: Moves, tr: Translator) -> list[InlineQueryResultArticle]:
    """The hand's "Play for me" (or "Take my seat back") as an inline result: its id's
    code is :data:`PILOT_CODES`'s, read by ``inline.Inline``."""
    out = []
    for row in m.extra:
        for c in row:
            if isinstance(c.intent, Autopilot):
                on = c.intent.on
                title = (c.icon + " " if c.icon else "") + c.label
                hint = tr.gettext(PILOT_HINTS[on])
                found = _result(tid_of(info.key), info.version, PILOT_CODES[on], title, hint)
                if found is not None:
                    out.append(found)
    return out


def _title(control: Control, action: Action, tr: Translator, names: dict[str, str]) -> str:
    """A play's result title: its detail (``🟥 Skip``), but one that calls UNO says it as
    its button does (``🟥 Skip · UNO!``: beside its plain twin, the call stands out)."""
    if isinstance(action, Play) and action.uno:
        return render.action_label(action, tr, names)
    return control.detail


def _actions(controls_: Sequence[Control]) -> list[Action]:
    """The actions of controls that are moves (``Act``)."""
    return [c.intent.action for c in controls_ if isinstance(c.intent, Act)]


def _hint(action: Action, view: View, tr: Translator) -> str | None:
    if isinstance(action, Draw):
        return tr.gettext("Take a card from the pile")
    if isinstance(action, Pass):
        return tr.gettext("Keep the card you drew")
    if isinstance(action, Accept):
        return tr.ngettext("Draw {n} card", "Draw {n} cards", view.pending_draw)
    if isinstance(action, CallUno):
        return tr.gettext("Call it before someone catches you")
    return None


def _status(view: View, tr: Translator, names: dict[str, str]) -> str:
    top = render.card_short(view.top)
    if view.color is not None and (view.top.is_wild or view.color is not view.top.color):
        top += "→" + render.COLOR_EMOJI[view.color]
    if view.current is None:
        return tr.gettext("The round is over")
    if view.current == view.viewer:
        return tr.gettext("▶ Your turn · top card {card}", card=top)
    who = names.get(view.current, view.current)
    return tr.gettext("Waiting for {player} · top card {card}", player=who, card=top)


# -- settings -------------------------------------------------------------------------------
# Every flag, its name, its values and the numbers a menu offers come from the settings
# schema (``bot.ui.settings_schema``) through ``bot.ui.controls``; buttons name a flag by its key.


def settings_main(info: TableInfo, tr: Translator) -> tuple[str, InlineKeyboardMarkup]:
    """The host's settings menu: the presets, a button per flag (every page's: a Telegram
    keyboard holds them all) opening its values, and Done."""
    tid = tid_of(info.key)
    text = "\n".join(
        [
            "⚙️ " + tr.gettext(SETTINGS),
            schema.rules_summary(info.rules, tr, info.preset),
            "",
            tr.gettext("Pick a preset, or a rule to change it."),
        ]
    )
    menu = controls.settings_menu(info, 0, tr)
    presets, last = menu[0], menu[-1]
    openers = Row(
        tuple(
            c for page in range(len(schema.pages())) for c in controls.flag_openers(info, page, tr)
        )
    )
    done = Row(tuple(c for c in last if isinstance(c.intent, CloseSettings)))
    rows = [*keyboard([presets], tid, 3), *keyboard([openers], tid, 2), *keyboard([done], tid, 1)]
    return text, InlineKeyboardMarkup(rows)


def settings_flag(info: TableInfo, flag: str, tr: Translator) -> tuple[str, InlineKeyboardMarkup]:
    """One flag: its meaning (and what it needs to act), a button per value, and back."""
    tid = tid_of(info.key)
    text = "⚙️ " + controls.flag_text(info, flag, tr)
    values, *rest = controls.flag_menu(info, flag, tr)
    # the text says what the flag needs to act: its values need not say it again
    note = schema.inactive_note(flag, info.rules, tr)
    if note:
        plain = tuple(dataclasses.replace(c, label=c.label.removesuffix(note)) for c in values)
        values = dataclasses.replace(values, controls=plain)
    return text, InlineKeyboardMarkup([*keyboard([values], tid, 2), *keyboard(rest, tid, 1)])


def language_menu(
    tid: str, kind: str, current: str | None, tr: Translator
) -> tuple[str, InlineKeyboardMarkup]:
    """``kind`` ``c``: the chat's language; ``u``: the user's own."""
    prompt = CHAT_PROMPT if kind == "c" else USER_PROMPT
    if current is None:
        # nothing chosen yet: the reader may not read the language we would guess
        text = "\n".join(dict.fromkeys(translator(lang).gettext(prompt) for lang in LANGUAGES))
    else:
        text = tr.gettext(prompt)
    whose: Literal["chat", "user"] = "chat" if kind == "c" else "user"
    buttons = [
        _button(("✓ " if code == current else "") + name, Language(whose, code), tid)
        for code, name in LANGUAGE_NAMES.items()
    ]
    rows = [buttons]
    if kind == "u":
        mark = "✓ " if current is None else ""
        rows.append([_button(mark + tr.gettext("As in Telegram"), Language(whose, None), tid)])
    return text, InlineKeyboardMarkup(rows)


def cards_menu(
    tid: str, current: str | None, tr: Translator, *, stickers: bool
) -> tuple[str, InlineKeyboardMarkup]:
    """``/cards``: the user's cards in the inline hand as stickers or as text, ✓ on the way
    chosen (``current``; ``None``: the default, stickers). ``stickers``: whether this bot
    has its card stickers (else the cards are text whatever is chosen, and it says so)."""
    lines = [
        tr.gettext(CARDS_PROMPT, play=render.button_label("play", tr)),
        tr.gettext(CARDS_HELP),
        "",
        cards_done(current, tr, stickers=stickers),
    ]
    chosen = current or "pictures"
    buttons = [
        _button(
            ("✓ " if look == chosen else "") + f"{icon} {tr.gettext(label)}", CardLook(look), tid
        )
        for look, (icon, label, _done) in CARD_LOOKS.items()
    ]
    return "\n".join(lines), InlineKeyboardMarkup([buttons])


def cards_done(current: str | None, tr: Translator, *, stickers: bool) -> str:
    """How the user's cards are shown now (``current``: their choice, ``None`` the
    default); with no card stickers made, they are text whatever the choice."""
    if not stickers and current != "text":
        return tr.gettext(CARDS_NONE)
    return tr.gettext(CARD_LOOKS["text" if current == "text" else "pictures"][2])


def kick_menu(info: TableInfo, tr: Translator, by: str) -> tuple[str, InlineKeyboardMarkup] | None:
    """``/kick`` naming nobody: who may be removed (``bot.ui.controls.kick_menu``), a button
    each; ``None`` when nobody else is seated."""
    rows = controls.kick_menu(info, tr, by)
    if not rows:
        return None
    return rows[0].title, InlineKeyboardMarkup(keyboard(rows, tid_of(info.key), 2))
