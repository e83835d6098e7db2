"""What Telegram users see: message texts, inline keyboards and inline-mode results.

Pure functions of public state, one player's own view and a translator: no I/O. The table
message is made from ``TableInfo`` (the public view) only, so no group message can hold a
hand; a hand is rendered only for its owner (private chat, personal inline results). What
choosing an inline result posts to the group is the same neutral :data:`POSTED` for every
result: a choice may be refused (stale, not playable), and its card must not show before
the table message does. (With the card stickers made, ``pictures`` answers the Play query
instead, and a playable card posts its sticker.)

What a menu offers and what a button means are ``bot``'s: ``bot.controls`` gives the
controls (the lobby, the settings, the kick menu, which plays come with an UNO twin),
``bot.settings_schema`` every flag and its values, ``bot.intents`` the ``callback_data``
(:func:`callback_data`, :func:`widget`); this module lays them out under Telegram's limits
(64 bytes of data, no disabled buttons, inline mode for the hand).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Literal

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
)

from adapters.telegram.codec import MAX_DATA, Link, encode_action, tid_of
from bot import controls, render
from bot import settings_schema as schema
from bot.controls import Control, Row
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Translator, translator
from bot.intents import (
    TELEGRAM_LIMIT,
    Act,
    CloseSettings,
    Intent,
    Language,
    Refresh,
    encode,
    try_encode,
)
from bot.model import LOBBY, PLAYING
from bot.port import TableInfo
from engine import (
    COLORS,
    Accept,
    Action,
    CallUno,
    Card,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Leave,
    NextRound,
    Pass,
    Phase,
    Play,
    Timeout,
    View,
)
from engine.game import ACTIVE  # the phases of a round being played

__all__ = [
    "callback_data",
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

SETTINGS = N_("Settings")
CHAT_PROMPT = N_("Choose the language of this chat:")
USER_PROMPT = N_("Choose your language:")
MY_CARDS = N_("My cards")


def deep_link(username: str | None, payload: str) -> str | None:
    """``t.me/<bot>?start=<payload>``: opens the private chat with the bot."""
    if not username or len(payload) > MAX_DATA:
        return None
    return f"https://t.me/{username}?start={payload}"


def callback_data(intent: Intent, tid: str) -> str | None:
    """A button's ``callback_data``: ``intent`` at table ``tid`` in the one intent codec
    (``bot.intents``), ``None`` if it cannot be one here (over 64 bytes, a player with no
    short form)."""
    return try_encode(intent, tid, limit=TELEGRAM_LIMIT)


def _button(text: str, intent: Intent, tid: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=encode(intent, tid, limit=TELEGRAM_LIMIT))


def widget(control: Control, tid: str) -> InlineKeyboardButton | None:
    """A control as an inline button: its icon before its label, ✓ before the selected
    value of a choice. One that cannot be pressed now, or cannot be encoded in 64 bytes,
    is left out (Telegram has no disabled buttons)."""
    if not control.enabled:
        return None
    data = callback_data(control.intent, tid)
    if data is None:
        return None
    text = ("✓ " if control.selected else "") + (control.icon + " " if control.icon else "")
    return InlineKeyboardButton(text + control.label, callback_data=data)


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


def _act(text: str, info: TableInfo, action: Action) -> InlineKeyboardButton | None:
    # over 64 bytes, or naming a player with no short form: left out rather than failing
    data = callback_data(Act(action, info.version), tid_of(info.key))
    return InlineKeyboardButton(text, callback_data=data) if data is not None else None


short_label = controls.short_label  # a button-sized label: ``🟥5``, ``🌈+4→🟦``, ``Draw a card``


# -- the table message --------------------------------------------------------------------


def table_message(
    info: TableInfo,
    tr: Translator,
    recent: Iterable[str] = (),
    username: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The public table: text from the public view, buttons for the phase."""
    text = render.table_text(info, tr, list(recent))
    if len(text) > TEXT_MAX:
        text = text[: TEXT_MAX - 1] + "…"
    return text, table_keyboard(info, tr, username)


def table_keyboard(
    info: TableInfo, tr: Translator, username: str | None = None
) -> InlineKeyboardMarkup | None:
    """The table message's buttons: the lobby's controls (``bot.controls``); during a
    round Telegram's own, built around inline mode: "Play" opens the player's hand as
    inline results above the keyboard, "My cards" the private chat (see the report of
    issue 12: the shared round controls differ from what this layout shows)."""
    tid = tid_of(info.key)
    b = render.button_label
    if info.status == LOBBY:
        return InlineKeyboardMarkup(keyboard(controls.table_controls(info, tr), tid, 2))
    v = info.view
    if info.status != PLAYING or v is None:
        return None
    rows: list[list[InlineKeyboardButton]] = []
    names = info.names
    if v.phase is Phase.ROUND_OVER:
        nxt = _act("⏭ " + b("next_round", tr), info, NextRound())
        return InlineKeyboardMarkup([[nxt]]) if nxt else None
    if v.phase not in ACTIVE:
        return None
    play = InlineKeyboardButton("🃏 " + b("play", tr), switch_inline_query_current_chat=tid)
    first: list[InlineKeyboardButton | None] = [play]
    if v.phase is Phase.CHALLENGE:
        first.append(_act("⚖️ " + b("challenge", tr), info, Challenge()))
        first.append(_act(tr.gettext("Take +{n}", n=v.pending_draw), info, Accept()))
    elif v.pending_draw:
        first.append(_act(tr.gettext("Take +{n}", n=v.pending_draw), info, Accept()))
    elif v.phase is Phase.PLAYING:
        first.append(_act("📥 " + b("draw", tr), info, Draw()))
    rows.append([x for x in first if x is not None])
    if v.phase is Phase.CHOOSING_COLOR:
        colours = [_act(render.COLOR_EMOJI[c], info, ChooseColor(c)) for c in COLORS]
        rows.append([x for x in colours if x is not None])
    extra: list[InlineKeyboardButton | None] = []
    # who holds one card and may still call (uno_call=with_play: not after their play)
    if any(v.counts.get(p) == 1 and p not in v.called and p not in v.silent for p in v.players):
        extra.append(_act("📢 UNO!", info, CallUno()))
    for p in v.exposed:
        extra.append(_act("🎯 " + render.action_label(CatchUno(p), tr, names), info, CatchUno(p)))
    rows.extend(_rows([x for x in extra if x is not None], 3))
    link = deep_link(username, Link.HAND + tid)
    if link:
        rows.append([InlineKeyboardButton("🔒 " + tr.gettext(MY_CARDS), url=link)])
    return InlineKeyboardMarkup(rows)


# -- a hand, privately ------------------------------------------------------------------------


def _playable(legal: Sequence[Action]) -> set[Card]:
    out: set[Card] = set()
    for a in legal:
        if isinstance(a, Play):
            out.add(a.card)
    return out


def uno_first(view: View, legal: Sequence[Action]) -> list[Play]:
    """The legal plays in card order (``bot.controls.with_uno_twins``), a play that leaves
    one card preceded by its twin calling UNO with it: here the call comes first."""
    out: list[Play] = []
    for play in controls.with_uno_twins(view, legal):
        plain = out[-1] if out else None
        if play.uno and plain is not None and play == dataclasses.replace(plain, uno=True):
            out.insert(len(out) - 1, play)
        else:
            out.append(play)
    return out


_OTHER_ORDER = (ChooseColor, Challenge, Accept, Draw, Pass, CallUno, CatchUno)


def _others(legal: Sequence[Action]) -> list[Action]:
    rest = [a for a in legal if not isinstance(a, Play | Leave | NextRound | Timeout)]
    return sorted(rest, key=lambda a: _OTHER_ORDER.index(type(a)))


def hand_message(
    info: TableInfo,
    view: View | None,
    legal: Sequence[Action],
    tr: Translator,
    lines: Sequence[str] = (),
    title: str | None = None,
) -> tuple[str, InlineKeyboardMarkup | None]:
    """A player's private hand (private chat), with a button for every legal move."""
    tid = tid_of(info.key)
    head = [f"🎴 {title}"] if title else []
    if view is None or view.hand is None:
        return "\n".join([*head, tr.gettext(render.REFUSALS["not_a_player"])]), None
    text = "\n".join([*head, render.hand_text(view, tr, info.names), *_tail(lines)])
    names = info.names
    buttons: list[InlineKeyboardButton] = []
    for a in uno_first(view, legal):
        btn = _act(short_label(a, tr, names), info, a)
        if btn is not None:
            buttons.append(btn)
    rows = _rows(buttons[:HAND_BUTTONS], 4)
    others = [_act(short_label(a, tr, names), info, a) for a in _others(legal)]
    rows.extend(_rows([x for x in others if x is not None], 2))
    if info.status == PLAYING:
        rows.append([_button("🔄", Refresh(), tid)])
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
    plays: list[InlineQueryResultArticle | None] = []
    playable_mark = tr.gettext("✅ Playable")
    for a in uno_first(view, legal):
        code = encode_action(a, _seats(info))
        if code is None:
            continue
        label = render.action_label(a, tr, names)
        plays.append(_result(tid, ver, code, label, playable_mark))
    others: list[InlineQueryResultArticle | None] = []
    for other in _others(legal):
        code = encode_action(other, _seats(info))
        if code is None:
            continue
        label = "▶️ " + render.action_label(other, tr, names)
        others.append(_result(tid, ver, code, label, _hint(other, view, tr)))
    playable = _playable(legal)
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
    moves = [r for r in others if r is not None]
    cards = [r for r in plays if r is not None][: INLINE_MAX - len(moves)]
    results = [*cards, *moves, *(r for r in rest if r is not None)][:INLINE_MAX]
    status = _status(view, tr, names)
    button = InlineQueryResultsButton(status[:64], start_parameter=Link.HAND + tid)
    return results, button


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
# schema (``bot.settings_schema``) through ``bot.controls``; buttons name a flag by its key.


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


def kick_menu(info: TableInfo, tr: Translator, by: str) -> tuple[str, InlineKeyboardMarkup] | None:
    """``/kick`` naming nobody: who may be removed (``bot.controls.kick_menu``), a button
    each; ``None`` when nobody else is seated."""
    rows = controls.kick_menu(info, tr, by)
    if not rows:
        return None
    return rows[0].title, InlineKeyboardMarkup(keyboard(rows, tid_of(info.key), 2))
