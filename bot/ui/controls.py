"""What a table, a hand, the settings and the kick menu offer, as platform-free controls.

A ``Control`` is an intent (``bot.ui.intents``) with its label, its style and whether it can
be pressed now; a ``Row`` is a line of them. A ``choice`` row is "one of these" (a flag's
values, the presets, the players to remove): a platform with select menus may draw it as
one (its ``menu`` name is unique on the message and ``title`` is its placeholder), one
without draws buttons, the ``selected`` one marked. The adapters only map controls to
widgets under their own limits (Discord: 5 rows of 5 buttons, 25 options a select;
Telegram: 64 bytes of ``callback_data``; the terminal: numbered lines) and dispatch the
intents; every decision of what to offer is here.

Labels are the bot's translations (``messages`` domain); ``icon`` is an emoji a platform
may put before the label (Telegram does, Discord leaves it out); ``glyph`` the whole control
as one symbol, for a platform that draws it that small (Telegram's colour and 🔄 buttons).

Where the platforms legitimately differ in what they offer, the difference is a declared
option of the function, never an adapter's own reading of the game: ``table_controls``'
``uno`` (UNO! always, or only while someone may call it) and ``hand_between_rounds``;
``hand_menu``'s ``uno_first`` (the UNO twin before its plain play) and ``next_round``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from bot.port import TableInfo
from bot.ui import render
from bot.ui import settings_schema as schema
from bot.ui.i18n import N_, Translator
from bot.ui.intents import (
    Act,
    AddBot,
    Autopilot,
    CloseSettings,
    Intent,
    Join,
    Kick,
    LeaveTable,
    OpenFlag,
    OpenHand,
    OpenSettings,
    Refresh,
    SetFlag,
    SetPreset,
    Start,
    VoteEnd,
)
from engine import (
    COLORS,
    Accept,
    Action,
    CallUno,
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
from engine.game import ACTIVE

__all__ = [
    "Control",
    "Row",
    "Style",
    "autopilot_control",
    "flag_menu",
    "flag_openers",
    "flag_text",
    "flow",
    "hand_menu",
    "kick_menu",
    "long_label",
    "move_labels",
    "settings_lines",
    "settings_menu",
    "short_label",
    "table_controls",
    "uno_callable",
    "vote_control",
    "with_uno_twins",
]

Style = Literal["primary", "secondary", "success", "danger"]

SETTINGS = N_("Settings")
DONE = N_("Done")
BACK = N_("Back")
REFRESH = N_("Refresh")
PAGE = N_("Page {page}/{pages}")
TAKE = N_("Take +{n}")
PRESET_PROMPT = N_("Start again from a preset")
KICK_PROMPT = N_("Choose who leaves the table")
INACTIVE = N_("Inactive while “{needs}” is off.")
WITH_UNO = N_("{move} and call UNO!")


@dataclass(frozen=True, slots=True)
class Control:
    """One thing to press. ``selected``: the current value of a choice row. ``detail``:
    a longer description (an inline result's, a select option's, the terminal's line).
    ``glyph``: the control as one symbol, for a platform that draws it so (else ``""``)."""

    intent: Intent
    label: str
    style: Style = "secondary"
    enabled: bool = True
    selected: bool = False
    icon: str = ""
    detail: str = ""
    glyph: str = ""


@dataclass(frozen=True, slots=True)
class Row:
    """A line of controls; ``choice``: one of them (``menu`` names it, ``title`` asks)."""

    controls: tuple[Control, ...]
    choice: bool = False
    menu: str = ""
    title: str = ""

    def __iter__(self) -> Iterator[Control]:
        return iter(self.controls)

    def __len__(self) -> int:
        return len(self.controls)


def flow(rows: Sequence[Row], width: int) -> list[Row]:
    """Buttons rows cut to at most ``width`` controls each (choice rows as they are)."""
    out: list[Row] = []
    for row in rows:
        if row.choice or len(row) <= width:
            out.append(row)
            continue
        for i in range(0, len(row), width):
            out.append(Row(row.controls[i : i + width]))
    return out


def _row(*controls: Control | None) -> Row:
    return Row(tuple(c for c in controls if c is not None))


# -- the public table -------------------------------------------------------------------------


UnoButton = Literal["always", "callable"]


def uno_callable(view: View) -> bool:
    """Whether someone at the table may call UNO! now: a player down to one card who has
    not called it (nor, under ``uno_call=with_play``, let it pass with their play)."""
    return any(
        view.counts.get(p) == 1 and p not in view.called and p not in view.silent
        for p in view.players
    )


def table_controls(
    info: TableInfo,
    tr: Translator,
    *,
    uno: UnoButton = "always",
    hand_between_rounds: bool = True,
    colors: bool = True,
) -> list[Row]:
    """The table message's controls for its phase (``[]``: none, the table is over).

    Lobby: join, leave / add a bot, settings / start. A round: the hand, then taking a
    pending penalty (a challenge too, when a +4 may be challenged) or drawing, and UNO!;
    the colours while a wild's colour is being chosen; a catch for each player exposed
    with one card. Between rounds: the next round and the hand.

    The platform declares the rest: ``uno`` ``"always"`` offers UNO! in every turn (a
    press by someone who may not call is refused), ``"callable"`` only while someone may
    call it (:func:`uno_callable`); ``hand_between_rounds`` whether the hand is offered
    beside the next round; ``colors`` whether the colours are offered on the table (``False``:
    the chooser picks one in their own hand, ``hand_menu``)."""
    b = render.button_label
    if info.status == "lobby":
        return [
            _row(
                Control(Join(), b("join", tr), "success", icon="✋"),
                Control(LeaveTable(), b("leave", tr)),
            ),
            _row(
                Control(AddBot(), b("add_bot", tr), icon="🤖"),
                Control(OpenSettings(0), tr.gettext(SETTINGS), icon="⚙️"),
            ),
            _row(Control(Start(), b("start", tr), "primary", icon="▶️")),
        ]
    v = info.view
    if info.status != "playing" or v is None:
        return []
    ver = info.version
    if v.phase is Phase.ROUND_OVER:
        hand = Control(OpenHand(), b("hand", tr), icon="🃏") if hand_between_rounds else None
        return [
            _row(Control(Act(NextRound(), ver), b("next_round", tr), "primary", icon="⏭"), hand)
        ]
    if v.phase not in ACTIVE:
        return []
    first: list[Control] = [Control(OpenHand(), b("hand", tr), "primary", icon="🃏")]
    take = Control(Act(Accept(), ver), tr.gettext(TAKE, n=v.pending_draw))
    if v.phase is Phase.CHALLENGE:
        first.append(Control(Act(Challenge(), ver), b("challenge", tr), "danger", icon="⚖️"))
        first.append(take)
    elif v.pending_draw:
        first.append(take)
    elif v.phase is Phase.PLAYING:
        first.append(Control(Act(Draw(), ver), b("draw", tr), icon="📥"))
    if uno == "always" or uno_callable(v):
        first.append(Control(Act(CallUno(), ver), b("uno", tr), "danger", icon="📢"))
    rows = [Row(tuple(first))]
    if colors and v.phase is Phase.CHOOSING_COLOR:
        rows.append(
            Row(
                tuple(
                    Control(Act(ChooseColor(c), ver), render.color_text(c, tr), _COLOR_STYLE[c],
                            glyph=render.COLOR_EMOJI[c])
                    for c in COLORS
                )
            )
        )  # fmt: skip
    catches = [
        Control(Act(CatchUno(p), ver), render.action_label(CatchUno(p), tr, info.names), "danger",
                icon="🎯")
        for p in v.exposed
    ]  # fmt: skip
    if catches:
        rows.append(Row(tuple(catches)))
    rows.append(_row(vote_control(info, tr)))
    return rows


def vote_control(info: TableInfo, tr: Translator) -> Control:
    """The vote to end the game (``bot.presence``): it opens a vote, or (one open) counts
    in it, its count on the label."""
    label = render.button_label("vote_end", tr)
    vote = info.vote
    if vote is None:
        return Control(VoteEnd(0), label, icon="🗳")
    count = f"{label} ({len(vote.voters)}/{info.vote_needed})"
    return Control(VoteEnd(vote.version), count, "danger", icon="🗳")


def autopilot_control(info: TableInfo, player: str | None, tr: Translator) -> Control:
    """A person's own "Play for me", or (the autopilot playing their seat) "Take my seat
    back" (``bot.presence``)."""
    b = render.button_label
    if player is not None and player in info.autopilot:
        return Control(Autopilot(False), b("autopilot_off", tr), "success", icon="✋")
    return Control(Autopilot(True), b("autopilot_on", tr), icon="🤖")


_COLOR_STYLE: dict[object, Style] = dict(
    zip(COLORS, ("danger", "secondary", "success", "primary"), strict=True)
)


# -- a hand -----------------------------------------------------------------------------------

_OTHER_ORDER = (ChooseColor, Challenge, Accept, Draw, Pass, CallUno, CatchUno, NextRound)
_OTHER_STYLE: dict[type, Style] = {
    Challenge: "danger",
    CallUno: "danger",
    CatchUno: "danger",
    NextRound: "primary",
}


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


def long_label(action: Action, tr: Translator, names: dict[str, str]) -> str:
    """``Play 🟥 5``, ``Play 🟥 5 and call UNO!``: the words of a move in a list."""
    if isinstance(action, Play) and action.uno:
        plain = Play(action.card, action.color, action.target, action.together)
        return tr.gettext(WITH_UNO, move=render.action_label(plain, tr, names))
    return render.action_label(action, tr, names)


@lru_cache(maxsize=8192)
def _labels_of(action: Action, tr: Translator) -> tuple[str, str]:
    return short_label(action, tr, {}), long_label(action, tr, {})


def move_labels(action: Action, tr: Translator, names: dict[str, str]) -> tuple[str, str]:
    """``(short_label, long_label)`` of a move; remembered for a move naming no player
    (a hand is drawn again at every turn, a Play query answered many times)."""
    if getattr(action, "target", None) is None:
        return _labels_of(action, tr)
    return short_label(action, tr, names), long_label(action, tr, names)


def with_uno_twins(view: View, legal: Sequence[Action], *, uno_first: bool = False) -> list[Play]:
    """The legal plays in card order, each one that leaves one card followed by its twin
    calling UNO with it (the call is the player's: offered, never made for them);
    ``uno_first``: the twin before its plain play."""
    held = len(view.hand or ())
    plays = sorted(
        (a for a in legal if isinstance(a, Play)), key=lambda p: (p.card.order, len(p.together))
    )
    out: list[Play] = []
    for p in plays:
        target = view.counts.get(p.target) if p.target is not None else None
        if not p.uno and leaves_one_card(view.rules, held, p, target):
            twin = Play(p.card, p.color, p.target, p.together, uno=True)
            out.extend((twin, p) if uno_first else (p, twin))
        else:
            out.append(p)
    return out


def hand_menu(
    info: TableInfo,
    view: View | None,
    legal: Sequence[Action],
    tr: Translator,
    *,
    uno_first: bool = False,
    next_round: bool = True,
) -> list[Row]:
    """A player's own moves: a row of the plays (``menu`` ``cards``: each legal play, a play
    that leaves one card also with the UNO call), a row of the other moves (a colour, a
    challenge, taking the penalty, drawing, passing, UNO!, catches, the next round), and
    a refresh and the autopilot (``autopilot_control``) while the game is on.

    The platform declares: ``uno_first``, the UNO twin before its plain play (else after
    it); ``next_round``, whether the hand offers the next round too (else the table alone
    does)."""
    if view is None or view.hand is None:
        return []
    names, ver = info.names, info.version
    plays = [
        Control(Act(p, ver), label, "primary", detail=detail)
        for p in with_uno_twins(view, legal, uno_first=uno_first)
        for label, detail in (move_labels(p, tr, names),)
    ]
    skip = Play | Leave | Timeout if next_round else Play | Leave | Timeout | NextRound
    rest = sorted(
        (a for a in legal if not isinstance(a, skip)),
        key=lambda a: _OTHER_ORDER.index(type(a)),
    )
    others = [
        Control(
            Act(a, ver),
            label,
            _COLOR_STYLE[a.color]
            if isinstance(a, ChooseColor)
            else _OTHER_STYLE.get(type(a), "secondary"),
            detail=detail,
        )
        for a in rest
        for label, detail in (move_labels(a, tr, names),)
    ]
    rows: list[Row] = []
    if plays:
        rows.append(Row(tuple(plays), menu="cards"))
    if others:
        rows.append(Row(tuple(others)))
    if info.status == "playing":
        rows.append(
            _row(
                Control(Refresh(), tr.gettext(REFRESH), icon="🔄", glyph="🔄"),
                autopilot_control(info, view.viewer, tr),
            )
        )
    return rows


# -- settings ---------------------------------------------------------------------------------


def _flag_row(info: TableInfo, flag: str, tr: Translator) -> Row:
    rules = info.rules
    current = getattr(rules, flag)
    note = schema.inactive_note(flag, rules, tr)
    controls = tuple(
        Control(
            SetFlag(flag, value),
            schema.value_text(flag, value, tr) + note,
            selected=value == current and type(value) is type(current),
        )
        for value in schema.menu_values(flag, current)
    )
    return Row(controls, choice=True, menu="f" + schema.spec(flag).key,
               title=schema.flag_line(flag, rules, tr))  # fmt: skip


def settings_menu(info: TableInfo, page: int, tr: Translator) -> list[Row]:
    """The settings at ``page`` (clamped to the pages there are): the presets, each of the
    page's flags with its values (``menu`` ``f<key>``), then the pages and Done. Whether
    the reader may change anything is the service's to say (``bot.policy``)."""
    all_pages = schema.pages()
    page = max(0, min(page, len(all_pages) - 1))
    presets = Row(
        tuple(
            Control(
                SetPreset(name),
                schema.preset_name(name, tr),
                # ticked while the rules are that preset's: changed, they are custom
                selected=name == info.preset and not schema.changes(info.rules, name),
            )
            for name in Rules.PRESET_NAMES
        ),
        choice=True,
        menu="preset",
        title=tr.gettext(PRESET_PROMPT),
    )
    rows = [presets, *(_flag_row(info, flag, tr) for flag in all_pages[page])]
    last = len(all_pages) - 1
    rows.append(
        _row(
            Control(OpenSettings(max(page - 1, 0)), "◀", enabled=page > 0),
            Control(
                OpenSettings(page),
                tr.gettext(PAGE, page=page + 1, pages=last + 1),
                enabled=False,
            ),
            Control(OpenSettings(min(page + 1, last)), "▶", enabled=page < last),
            Control(CloseSettings(), tr.gettext(DONE), "success", icon="✅"),
        )
    )
    return rows


def settings_lines(info: TableInfo, page: int, tr: Translator) -> list[str]:
    """The settings page's flags in words: ``Stacking: off — Answer a +2 …``."""
    all_pages = schema.pages()
    page = max(0, min(page, len(all_pages) - 1))
    return [
        schema.flag_line(flag, info.rules, tr) + " — " + schema.flag_help(flag, tr)
        for flag in all_pages[page]
    ]


def flag_menu(info: TableInfo, flag: str, tr: Translator) -> list[Row]:
    """One flag on its own (a platform that opens a flag from a list, ``OpenFlag``): its
    values, then back to its page."""
    return [
        _flag_row(info, flag, tr),
        _row(Control(OpenSettings(schema.page_of(flag)), tr.gettext(BACK), icon="⬅️")),
    ]


def flag_text(info: TableInfo, flag: str, tr: Translator) -> str:
    """A flag's line, its help, and why it is inactive if it is."""
    lines = [schema.flag_line(flag, info.rules, tr), schema.flag_help(flag, tr)]
    need = schema.needs(flag, info.rules)
    if need is not None:
        lines.append(tr.gettext(INACTIVE, needs=schema.flag_name(need, tr)))
    return "\n".join(lines)


def flag_openers(info: TableInfo, page: int, tr: Translator) -> list[Control]:
    """A control per flag of ``page`` that opens it (``OpenFlag``), labelled with its line."""
    all_pages = schema.pages()
    page = max(0, min(page, len(all_pages) - 1))
    return [
        Control(OpenFlag(flag), schema.flag_line(flag, info.rules, tr)) for flag in all_pages[page]
    ]


# -- removing a player ------------------------------------------------------------------------


def kick_menu(info: TableInfo, tr: Translator, by: str | None = None) -> list[Row]:
    """Everyone at the table but ``by`` (bots too, marked 🤖), one to choose."""
    controls = tuple(
        Control(Kick(s.id), f"{s.name} 🤖" if s.bot is not None else s.name, "danger")
        for s in info.seats
        if s.id != by
    )
    if not controls:
        return []
    return [Row(controls, choice=True, menu="kick", title=tr.gettext(KICK_PROMPT))]
