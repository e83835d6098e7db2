"""What Telegram users see: message texts, inline keyboards and inline-mode results.

Pure functions of public state, one player's own view and a translator: no I/O. The table
message is made from ``TableInfo`` (the public view) only, so no group message can hold a
hand; a hand is rendered only for its owner (private chat, personal inline results). What
choosing an inline result posts to the group is the same neutral :data:`POSTED` for every
result: a choice may be refused (stale, not playable), and its card must not show before
the table message does. (With the card stickers made, ``pictures`` answers the Play query
instead, and a playable card posts its sticker.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
)

from adapters.telegram.codec import MAX_DATA, Link, Op, encode_action, pack, tid_of
from bot import render
from bot.i18n import LANGUAGE_NAMES, LANGUAGES, N_, Translator, translator
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
    Rules,
    Timeout,
    View,
    leaves_one_card,
)
from engine.game import ACTIVE  # the phases of a round being played

__all__ = [
    "FLAGS",
    "flag_choices",
    "hand_message",
    "inline_answer",
    "language_menu",
    "settings_flag",
    "settings_main",
    "table_message",
]

FLAGS: tuple[str, ...] = tuple(Rules.model_fields)
# values offered for the numeric flags (a table's current value is always added)
_NUMBERS: dict[str, tuple[int, ...]] = {
    "uno_penalty": (0, 1, 2, 4),
    "false_uno_penalty": (0, 1, 2),
    "target": (0, 100, 200, 300, 500, 1000),
    "hand_size": (5, 7, 10),
    "turn_seconds": (15, 30, 60, 120, 300, 3600),
    "afk_strikes": (0, 2, 3, 5),
    "uno_window_seconds": (0, 3, 5, 10, 30),
    "challenge_seconds": (10, 20, 30, 60),
}
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


def _button(text: str, op: str, tid: str, *args: object) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=pack(op, tid, *args))


def _rows(buttons: Sequence[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [list(buttons[i : i + width]) for i in range(0, len(buttons), width)]


def _seats(info: TableInfo) -> list[str]:
    return [s.id for s in info.seats]


def _act(text: str, info: TableInfo, action: Action) -> InlineKeyboardButton | None:
    code = encode_action(action, _seats(info))
    if code is None:
        return None
    try:
        return _button(text, Op.ACT, tid_of(info.key), info.version, code)
    except ValueError:  # over 64 bytes: leave the button out rather than fail the message
        return None


def short_label(action: Action, tr: Translator, names: dict[str, str]) -> str:
    """A button-sized label: ``🟥5``, ``🌈+4→🟦``, ``🟥7 ⇄ Bob``, ``Draw a card``."""
    if isinstance(action, Play):
        text = "+".join(render.card_short(c) for c in action.cards)
        if action.color is not None and (
            action.card.is_wild or any(c.color is not action.color for c in action.cards)
        ):
            text += "→" + render.COLOR_EMOJI[action.color]
        if action.target is not None:
            text += " ⇄ " + names.get(action.target, action.target)
        if action.uno:
            text += " · UNO!"
        return text
    if isinstance(action, ChooseColor):
        return render.color_text(action.color, tr)
    return render.action_label(action, tr, names)


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
    tid = tid_of(info.key)
    b = render.button_label
    if info.status == LOBBY:
        return InlineKeyboardMarkup(
            [
                [
                    _button("✋ " + b("join", tr), Op.JOIN, tid),
                    _button(b("leave", tr), Op.LEAVE, tid),
                ],
                [
                    _button("🤖 " + b("add_bot", tr), Op.ADD_BOT, tid),
                    _button("⚙️ " + tr.gettext(SETTINGS), Op.SETTINGS, tid),
                ],
                [_button("▶️ " + b("start", tr), Op.START, tid)],
            ]
        )
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


def _uno_variants(view: View, legal: Sequence[Action]) -> list[tuple[Play, Play | None]]:
    """Each listed play, with its ``uno=True`` twin when it leaves exactly one card."""
    held = len(view.hand or ())
    out: list[tuple[Play, Play | None]] = []
    for a in legal:
        if not isinstance(a, Play):
            continue
        twin = None
        target = view.counts.get(a.target) if a.target is not None else None
        if not a.uno and leaves_one_card(view.rules, held, a, target):
            twin = Play(a.card, a.color, a.target, a.together, uno=True)
        out.append((a, twin))
    out.sort(key=lambda pair: (pair[0].card.order, len(pair[0].together)))
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
    for play, twin in _uno_variants(view, legal):
        for a in (twin, play) if twin is not None else (play,):
            btn = _act(short_label(a, tr, names), info, a)
            if btn is not None:
                buttons.append(btn)
    rows = _rows(buttons[:HAND_BUTTONS], 4)
    others = [_act(short_label(a, tr, names), info, a) for a in _others(legal)]
    rows.extend(_rows([x for x in others if x is not None], 2))
    if info.status == PLAYING:
        rows.append([_button("🔄", Op.HAND, tid)])
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
    for play, twin in _uno_variants(view, legal):
        for a in (twin, play) if twin is not None else (play,):
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


def flag_choices(flag: str, current: Any) -> list[Any]:
    """The values offered for ``flag`` in the menu."""
    values: list[Any] = render.flag_menu_values(flag) or list(_NUMBERS.get(flag, ()))
    if current not in values:
        values.append(current)
        if all(isinstance(v, int) for v in values):
            values.sort()
    return values


def _flag_line(flag: str, value: Any, rules: Rules, tr: Translator) -> str:
    """``Stacking: off`` / ``叠加：关``, with a note when the flag cannot act under
    ``rules`` (``Deflect a +2: on (needs “Stacking”)``)."""
    line = tr.gettext(
        "{flag}: {value}",
        flag=render.flag_name(flag, tr),
        value=render.flag_value(flag, value, tr),
    )
    return line + render.inactive_note(flag, rules, tr)


def settings_main(info: TableInfo, tr: Translator) -> tuple[str, InlineKeyboardMarkup]:
    """The host's settings menu: a preset, or a flag to open."""
    tid = tid_of(info.key)
    rules = info.rules
    text = "\n".join(
        [
            "⚙️ " + tr.gettext(SETTINGS),
            render.rules_summary(rules, tr, info.preset),
            "",
            tr.gettext("Pick a preset, or a rule to change it."),
        ]
    )
    presets = [
        _button(
            ("✓ " if name == info.preset else "") + render.preset_name(name, tr),
            Op.SETTINGS_PRESET,
            tid,
            name,
        )
        for name in Rules.PRESET_NAMES
    ]
    flags = [
        _button(_flag_line(f, getattr(rules, f), rules, tr), Op.SETTINGS_FLAG, tid, i)
        for i, f in enumerate(FLAGS)
    ]
    done = _button("✅ " + tr.gettext("Done"), Op.SETTINGS_DONE, tid)
    rows = [presets, *_rows(flags, 2), [done]]
    return text, InlineKeyboardMarkup(rows)


def settings_flag(info: TableInfo, index: int, tr: Translator) -> tuple[str, InlineKeyboardMarkup]:
    """One flag: its meaning and a button per value."""
    tid = tid_of(info.key)
    flag = FLAGS[index]
    current = getattr(info.rules, flag)
    lines = ["⚙️ " + _flag_line(flag, current, info.rules, tr), render.flag_help(flag, tr)]
    need = render.flag_needs(flag, info.rules)
    if need is not None:  # set or not, it has nothing to act on until ``need`` is on
        lines.append(
            tr.gettext("Inactive while “{needs}” is off.", needs=render.flag_name(need, tr))
        )
    text = "\n".join(lines)
    buttons = [
        _button(
            ("✓ " if value == current else "") + render.flag_value(flag, value, tr),
            Op.SETTINGS_VALUE,
            tid,
            index,
            j,
        )
        for j, value in enumerate(flag_choices(flag, current))
    ]
    rows = [*_rows(buttons, 2), [_button("⬅️ " + tr.gettext("Back"), Op.SETTINGS_MAIN, tid)]]
    return text, InlineKeyboardMarkup(rows)


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
    buttons = [
        _button(("✓ " if code == current else "") + name, Op.LANGUAGE, tid, kind, code)
        for code, name in LANGUAGE_NAMES.items()
    ]
    rows = [buttons]
    if kind == "u":
        mark = "✓ " if current is None else ""
        rows.append([_button(mark + tr.gettext("As in Telegram"), Op.LANGUAGE, tid, kind, "-")])
    return text, InlineKeyboardMarkup(rows)
