"""Every rule flag declared once: how it is named, explained, valued and offered.

The engine's ``Rules`` owns what a flag *is*: its type, its bounds, its default, and the
refusal of values and combinations it cannot take (``engine.rules``, structured refusals).
This module owns how a flag is *shown*: its name and help (translatable message ids), the
names of its values, the numbers a menu offers, the unit of a number, the settings page it
is on, and what it ``requires`` to have an effect (a flag set while that is off is shown
inactive, never refused). Every settings screen (Telegram's, Discord's, the terminal's),
``/rules`` (``rules_summary``), the README flag table's test and the catalogues read it.

A flag is named by its field name, or in a button by its stable short ``key`` (never by its
position in ``Rules.model_fields``: a flag added anywhere changes no posted button).

Numbers a menu offers: one list per numeric flag (``choices``), the table's current value
always added. Telegram's and Discord's menus disagreed before (issue 12); the lists here
are Discord's, the finer ones, which both fit (at most 25 values: one select menu), with
Telegram's hour-long turn (3600 s) kept for slow games.

Adding a numeric house rule: its field in ``engine.rules.Rules`` and one ``FlagSpec`` here
(name, help, choices, unit, page); no adapter changes (see ``tests/bot/ui/test_settings_schema``).
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.ui.i18n import N_, Translator
from engine.rules import Rules

__all__ = [
    "FLAGS_PER_PAGE",
    "PRESET_NAMES",
    "SCHEMA",
    "UNITS",
    "FlagSpec",
    "Requirement",
    "annotation_values",
    "changed",
    "changes",
    "decode_value",
    "encode_value",
    "fixed_values",
    "flag_help",
    "flag_line",
    "flag_name",
    "flag_of_key",
    "flags",
    "inactive_note",
    "int_bounds",
    "menu_values",
    "needs",
    "page_of",
    "pages",
    "preset_name",
    "rules_summary",
    "rules_title",
    "spec",
    "value_text",
]

FLAGS_PER_PAGE = 3  # flags on one settings page (a Discord message: 5 rows, one per select)


@dataclass(frozen=True, slots=True)
class Requirement:
    """``flag`` must not be at any of ``off`` for the flag that requires it to act."""

    flag: str
    off: tuple[Any, ...]

    def met(self, rules: Rules) -> bool:
        return getattr(rules, self.flag) not in self.off


@dataclass(frozen=True, slots=True)
class FlagSpec:
    """One rule flag as the bot shows it.

    ``name``: the ``Rules`` field. ``key``: its stable short name in buttons (2 characters,
    ``[0-9a-z]``). ``title`` and ``help``: message ids. ``values``: for a flag with a fixed
    set of values, each value's message id, in menu order (off before on; ``{}`` for a
    number, or for values shown as numbers: ``decks``). ``choices``: the numbers a menu
    offers. ``unit``: a key of ``UNITS`` (how a number reads: ``7 cards``); ``zero``: how 0
    reads instead (``off``, ``one round``). ``page``: the settings page it is on.
    ``requires``: what must be on for it to act."""

    name: str
    key: str
    title: str
    help: str
    page: int
    values: Mapping[Any, str] = field(default_factory=dict)
    choices: tuple[int, ...] = ()
    unit: str | None = None
    zero: str | None = None
    requires: tuple[Requirement, ...] = ()


# how a number of each unit reads (``ngettext`` here, so that the catalogues keep the plurals)
UNITS: dict[str, Callable[[Translator, int], str]] = {
    "seconds": lambda tr, n: tr.ngettext("{n} second", "{n} seconds", n),
    "points": lambda tr, n: tr.ngettext("{n} point", "{n} points", n),
    "decks": lambda tr, n: tr.ngettext("{n} deck", "{n} decks", n),
    "timeouts": lambda tr, n: tr.ngettext("{n} timeout", "{n} timeouts", n),
    "cards": lambda tr, n: tr.ngettext("{n} card", "{n} cards", n),
}

_OFF_ON = {False: N_("off"), True: N_("on")}
_STACKED = (Requirement("stacking", ("off",)),)

_SPECS: tuple[FlagSpec, ...] = (
    FlagSpec(
        "stacking",
        "st",
        N_("Stacking"),
        N_("Answer a +2 or +4 with another instead of drawing; whoever cannot draws the total."),
        0,
        {
            "off": N_("off"),
            "draw_two": N_("+2 on +2"),
            "draw_four_on_two": N_("+2 and +4 on +2, +4 on +4"),
            "any": N_("any +2 or +4 on each other"),
        },
    ),
    FlagSpec(
        "deflect",
        "df",
        N_("Deflect a +2"),
        N_(
            "With a +2 pending, a Skip of that colour passes it on and a Reverse sends it "
            "back; or also a +4, sent back by a Reverse of the colour it named."
        ),
        0,
        # what were "off" and "on" before deflect could act on a +4 read the same
        {"off": N_("off"), "draw_two": N_("on"), "all": N_("on, a +4 too")},
        requires=_STACKED,
    ),
    FlagSpec(
        "jump_in",
        "ji",
        N_("Jump-in"),
        N_("Anyone holding the identical card may play it out of turn."),
        2,
        _OFF_ON,
    ),
    FlagSpec(
        "multi_play",
        "mp",
        N_("Several cards at once"),
        N_("Play several cards of the same kind in one go; their effects add up."),
        2,
        {
            "off": N_("off"),
            "identical": N_("identical cards"),
            "same_rank": N_("same number or symbol"),
        },
    ),
    FlagSpec(
        "swap",
        "sw",
        N_("Swapping hands"),
        N_(
            "7-0: a 7 swaps hands with a player you pick and a 0 passes every hand one seat "
            "on; or 5: a 5 swaps hands."
        ),
        2,
        {"off": N_("off"), "seven_zero": N_("7 swaps, 0 passes all hands"), "five": N_("5 swaps")},
    ),
    FlagSpec(
        "draw",
        "dr",
        N_("Drawing"),
        N_("Draw one card, or keep drawing until you get one you can play."),
        3,
        {"one": N_("one card"), "until_playable": N_("until playable")},
    ),
    FlagSpec(
        "force_play",
        "fp",
        N_("Must play a drawn card"),
        N_("A card you draw that can be played must be played at once."),
        3,
        _OFF_ON,
    ),
    FlagSpec(
        "wild_draw_four",
        "w4",
        N_("+4 and challenges"),
        N_(
            "Whether a +4 may be bluffed (played while holding the colour in play) and challenged."
        ),
        1,
        {
            "challenge": N_("bluffs can be challenged"),
            "no_bluff": N_("only without the colour in play"),
            "free": N_("always, no challenge"),
        },
    ),
    FlagSpec(
        "guilty_challenger",
        "gc",
        N_("After a successful challenge"),
        N_("Whether the challenger plays after catching a +4 bluff, or is skipped anyway."),
        1,
        {"plays": N_("challenger plays"), "skipped": N_("challenger is skipped")},
    ),
    FlagSpec(
        "wild_on_penalty",
        "wp",
        N_("Wild on a penalty"),
        N_("With stacking, a plain Wild passes the whole pending penalty to the next player."),
        0,
        _OFF_ON,
        requires=_STACKED,
    ),
    FlagSpec(
        "last_card",
        "lc",
        N_("Last card"),
        N_("Whether you may go out on an action card or a wild."),
        4,
        {
            "any": N_("any card"),
            "number_only": N_("number cards only"),
            "play_and_draw": N_("action card, then draw 1"),
            "no_skip_reverse_wild": N_("no Skip, Reverse or wild"),
        },
    ),
    FlagSpec(
        "first_play_number",
        "fn",
        N_("Open with a number"),
        N_("The first play of a round must be a number card; without one, draw 2 and be skipped."),
        4,
        _OFF_ON,
    ),
    FlagSpec(
        "uno_penalty",
        "up",
        N_("UNO penalty"),
        N_("Cards drawn when caught with one card and no UNO call."),
        5,
        choices=(0, 1, 2, 4),
        unit="cards",
        zero=N_("off"),
    ),
    FlagSpec(
        "false_uno_penalty",
        "fu",
        N_("False UNO penalty"),
        N_("Cards drawn for calling UNO or catching someone wrongly (0: none)."),
        5,
        choices=(0, 1, 2),
        unit="cards",
        zero=N_("off"),
    ),
    FlagSpec(
        "scoring",
        "sc",
        N_("Scoring"),
        N_(
            "The winner scores everyone's cards, or everyone scores their own and the lowest wins."
        ),
        6,
        {"winner_takes": N_("winner takes all"), "penalty": N_("own points, lowest wins")},
    ),
    FlagSpec(
        "card_points",
        "cp",
        N_("Card points"),
        N_("What action cards and wilds are worth when scoring."),
        6,
        {"standard": N_("standard (20 / 50)"), "low": N_("low (10 / 20 / 40)")},
    ),
    FlagSpec(
        "target",
        "tg",
        N_("Target score"),
        N_("Points that end the game (0: one round only)."),
        6,
        choices=(0, 100, 200, 300, 500, 1000),
        unit="points",
        zero=N_("one round"),
    ),
    FlagSpec(
        "partners",
        "pt",
        N_("Partners"),
        N_(
            "Teams of two, partners sitting opposite; a team wins when one goes out. "
            "Rotating: new partners every four rounds, each player scoring for themselves."
        ),
        7,
        {False: N_("off"), True: N_("on"), "rotate": N_("rotating")},
    ),
    FlagSpec(
        "two_player",
        "2p",
        N_("Two players"),
        N_("With two players, a Reverse acts as a Skip (official) or as a Reverse."),
        7,
        {"official": N_("Reverse acts as Skip"), "plain": N_("as with more players")},
    ),
    FlagSpec(
        "decks",
        "dk",
        N_("Decks"),
        N_("Two decks (216 cards) seat up to 20 players."),
        8,
        choices=(1, 2),
        unit="decks",
    ),
    FlagSpec(
        "hand_size",
        "hs",
        N_("Cards dealt"),
        N_("Cards dealt to each player at the start of a round."),
        8,
        choices=(5, 7, 10, 15),
        unit="cards",
    ),
    FlagSpec(
        "dealer",
        "dl",
        N_("First dealer"),
        N_(
            "The first dealer: the highest card drawn, or the table's creator; or the "
            "highest card drawn plays first."
        ),
        8,
        {
            "draw_high": N_("highest card drawn"),
            "creator": N_("table creator"),
            "high_plays_first": N_("highest card plays first"),
        },
    ),
    FlagSpec(
        "turn_seconds",
        "ts",
        N_("Turn time"),
        N_("Seconds per turn; then a card is drawn for the player and play moves on."),
        9,
        choices=(15, 30, 45, 60, 90, 120, 300, 3600),
        unit="seconds",
    ),
    FlagSpec(
        "afk_strikes",
        "af",
        N_("AFK limit"),
        N_("Timeouts in a row before a player is removed (0: never)."),
        10,
        choices=(0, 2, 3, 5),
        unit="timeouts",
        zero=N_("never"),
    ),
    FlagSpec(
        "uno_window_seconds",
        "uw",
        N_("UNO catch window"),
        N_(
            "Seconds to catch a player who did not call UNO (the next player's move also ends it)."
        ),
        10,
        choices=(0, 3, 5, 10, 20),
        unit="seconds",
    ),
    FlagSpec(
        "challenge_seconds",
        "cs",
        N_("Challenge time"),
        N_("Seconds to decide whether to challenge a +4."),
        10,
        choices=(10, 20, 30, 60),
        unit="seconds",
    ),
    FlagSpec(
        "draw_four_when",
        "4w",
        N_("When a +4 is legal"),
        N_(
            "A +4 is legal when you hold no card of the colour in play, or only when nothing "
            "else in your hand can be played. A challenge checks the rule chosen here."
        ),
        1,
        {"no_color": N_("without the colour in play"), "no_play": N_("with nothing else to play")},
    ),
    FlagSpec(
        "after_penalty",
        "ap",
        N_("After a +2 is taken"),
        N_(
            "After a +2 is drawn, the next card matches as usual, or must be of the +2's "
            "colour (no other +2, no Skip or Reverse of another colour, no Wild; a +4 still "
            "may)."
        ),
        4,
        {"any": N_("match as usual"), "same_color": N_("follow its colour")},
    ),
    FlagSpec(
        "drawn_card",
        "dc",
        N_("Playing a drawn card"),
        N_("A card you draw may be played at once if it fits, or only if it is a number card."),
        3,
        {"any": N_("any card that fits"), "number_only": N_("number cards only")},
    ),
    FlagSpec(
        "uno_call",
        "uc",
        N_("When to call UNO"),
        N_(
            "UNO may be called after your play, until someone catches you; or only with the "
            "card that leaves you one."
        ),
        5,
        {"after_play": N_("until caught"), "with_play": N_("with the play")},
    ),
    FlagSpec(
        "color_timeout",
        "ct",
        N_("Colour not named"),
        N_(
            "When a wild's colour is not named in time: a colour is picked at random, or the "
            "colour before the wild stays."
        ),
        9,
        {"random": N_("random colour"), "keep": N_("colour stays")},
    ),
    FlagSpec(
        "places",
        "pl",
        N_("Play on for places"),
        N_(
            "After the first player goes out, the others play on for places until one is "
            "left. The round's points are counted when the first goes out."
        ),
        7,
        _OFF_ON,
    ),
    FlagSpec(
        "start_reverse",
        "sr",
        N_("Reverse start card"),
        N_(
            "After a Reverse start card, the dealer plays first, or the player to the "
            "dealer's right."
        ),
        9,
        {"dealer": N_("dealer plays first"), "right_of_dealer": N_("dealer's right plays first")},
    ),
    FlagSpec(
        "absent",
        "ab",
        N_("Absent players"),
        N_(
            "A player whose turn times out: removed after the AFK limit of timeouts in a "
            "row, or played for by a bot from the first timeout until they press anything."
        ),
        11,
        {"remove": N_("removed after the AFK limit"), "autopilot": N_("a bot plays for them")},
    ),
)

# the schema, in the engine's field order (``/rules`` lists changed flags in this order)
SCHEMA: dict[str, FlagSpec] = {s.name: s for s in _SPECS}


def flags() -> list[str]:
    """Every flag, in schema order."""
    return list(SCHEMA)


def spec(flag: str) -> FlagSpec:
    """The declaration of ``flag`` (``KeyError`` for a flag that does not exist)."""
    return SCHEMA[flag]


def flag_of_key(key: str) -> str | None:
    """The flag a button's short key names (``None``: no such flag)."""
    for s in SCHEMA.values():
        if s.key == key:
            return s.name
    return None


# -- values ---------------------------------------------------------------------------------


def annotation_values(annotation: Any) -> tuple[Any, ...]:
    """Every value a field of this type may take, in the engine's order (``()``: any
    number)."""
    if annotation is bool:
        return (True, False)
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        # partners: a yes/no, or "rotate"
        return tuple(v for a in typing.get_args(annotation) for v in annotation_values(a))
    return ()


def _field(flag: str, rules: type[Rules] = Rules) -> Any:
    return rules.model_fields.get(flag)


def fixed_values(flag: str, rules: type[Rules] = Rules) -> list[Any]:
    """Every value a flag with a fixed set of them may take, in menu order (off before
    on); ``[]`` for a number. (``decks``: 1 or 2.)"""
    f = _field(flag, rules)
    values = list(annotation_values(f.annotation)) if f is not None else []
    if values[:2] == [True, False]:
        values[:2] = [False, True]
    s = SCHEMA.get(flag)
    if s is not None and s.values and set(s.values) == set(values):
        values = list(s.values)  # the schema's order
    return values


def int_bounds(flag: str, rules: type[Rules] = Rules) -> tuple[int, int] | None:
    """The smallest and largest value of a numeric flag, from the engine's constraints."""
    f = _field(flag, rules)
    if f is None or f.annotation is not int:
        return None
    low = next((m.ge for m in f.metadata if hasattr(m, "ge")), None)
    high = next((m.le for m in f.metadata if hasattr(m, "le")), None)
    if low is None or high is None:
        return None
    return int(low), int(high)


def menu_values(flag: str, current: Any = None) -> list[Any]:
    """The values a settings menu offers for ``flag``: its fixed values, or the numbers
    of its ``choices`` with ``current`` (the table's value) always among them."""
    s = SCHEMA[flag]
    values: list[Any] = list(s.values) if s.values else list(s.choices)
    if not values:
        values = fixed_values(flag)
    if current is not None and not any(_same(current, v) for v in values):
        values.append(current)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            values.sort()
    return values


def _same(a: Any, b: Any) -> bool:
    return a == b and type(a) is type(b)


def encode_value(value: Any) -> str:
    """A value in a button: ``true``/``false``, a number, or the value's name."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def decode_value(flag: str, text: str) -> Any:
    """A button's value back into the flag's type (``ValueError`` if it cannot be one of
    its values: a forged button). Numbers are not bounded here: ``Rules`` refuses them."""
    s = SCHEMA.get(flag)
    if s is None:
        raise ValueError(flag)
    for v in s.values or fixed_values(flag):
        if encode_value(v) == text:
            return v
    if (s.choices or s.unit) and text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    raise ValueError(text)


# -- words ----------------------------------------------------------------------------------


def flag_name(flag: str, tr: Translator) -> str:
    """``Stacking`` / ``叠加`` (an unknown flag: its name as it is)."""
    s = SCHEMA.get(flag)
    return tr.gettext(s.title) if s is not None else flag


def flag_help(flag: str, tr: Translator) -> str:
    s = SCHEMA.get(flag)
    return tr.gettext(s.help) if s is not None else ""


def value_text(flag: str, value: Any, tr: Translator) -> str:
    """A flag's value in words: ``on``, ``+2 on +2``, ``7 cards``, ``60 seconds``..."""
    s = SCHEMA.get(flag)
    if isinstance(value, bool):
        return tr.gettext("on") if value else tr.gettext("off")
    if isinstance(value, str):
        msg = s.values.get(value) if s is not None else None
        return tr.gettext(msg) if msg is not None else value
    if isinstance(value, int):
        if s is None:
            return str(value)
        if value == 0 and s.zero is not None:
            return tr.gettext(s.zero)
        unit = UNITS.get(s.unit or "")
        return unit(tr, value) if unit is not None else str(value)
    return str(value)


def needs(flag: str, rules: Rules) -> str | None:
    """The flag that ``flag`` requires and that is off under ``rules`` (``flag`` then has
    nothing to act on: settings show it inactive), or ``None`` when it can act."""
    s = SCHEMA.get(flag)
    if s is None:
        return None
    for r in s.requires:
        if not r.met(rules):
            return r.flag
    return None


def inactive_note(flag: str, rules: Rules, tr: Translator) -> str:
    """`` (needs “Stacking”)`` after a flag that cannot act under ``rules``, else ``""``."""
    need = needs(flag, rules)
    if need is None:
        return ""
    return tr.gettext(" (needs “{flag}”)", flag=flag_name(need, tr))


def flag_line(flag: str, rules: Rules, tr: Translator) -> str:
    """``Stacking: off``, with the inactive note: ``Deflect a +2: on (needs “Stacking”)``."""
    line = tr.gettext(
        "{flag}: {value}",
        flag=flag_name(flag, tr),
        value=value_text(flag, getattr(rules, flag), tr),
    )
    return line + inactive_note(flag, rules, tr)


# -- pages ----------------------------------------------------------------------------------


def pages() -> list[tuple[str, ...]]:
    """The settings pages in order, each its flags (at most ``FLAGS_PER_PAGE``) in schema
    order."""
    by_page: dict[int, list[str]] = {}
    for s in SCHEMA.values():
        by_page.setdefault(s.page, []).append(s.name)
    return [tuple(by_page[p]) for p in sorted(by_page)]


def page_of(flag: str) -> int:
    """The index (in ``pages()``) of the page ``flag`` is on."""
    for i, page in enumerate(pages()):
        if flag in page:
            return i
    raise KeyError(flag)


# -- /rules -----------------------------------------------------------------------------------

PRESET_NAMES: dict[str, str] = {
    "official": N_("Official rules"),
    "house": N_("House rules"),
    "party": N_("Party rules"),
}


def preset_name(name: str | None, tr: Translator) -> str:
    """``Official rules`` / ``官方规则``; ``None`` or an unknown name: custom rules."""
    msg = PRESET_NAMES.get(name or "")
    if msg is None:
        return tr.gettext("Custom rules")
    return tr.gettext(msg)


def rules_title(rules: Rules, tr: Translator, preset: str | None = None) -> str:
    """What a table's rules are called wherever they are named (the /rules header, the
    table's rules line, the terminal): the preset's name while they are that preset's,
    ``Custom: Official rules + 2 changes`` once flags were changed from it; without a
    preset, the one they equal (else custom rules)."""
    if preset is None or preset not in PRESET_NAMES:
        return preset_name(rules.matching_preset(), tr)
    n = len(changes(rules, preset))
    if not n:
        return preset_name(preset, tr)
    return tr.ngettext(
        "Custom: {preset} + {n} change",
        "Custom: {preset} + {n} changes",
        n,
        preset=preset_name(preset, tr),
    )


def changes(rules: Rules, preset: str) -> list[str]:
    """The flags (schema order) whose value differs from preset ``preset``'s: none while
    the rules are that preset's (its tick in the settings)."""
    base = type(rules).preset(preset)
    return [flag for flag in SCHEMA if getattr(rules, flag) != getattr(base, flag)]


def changed(rules: Rules) -> Iterator[str]:
    """The flags (schema order) whose value differs from the official rules."""
    official = type(rules)()
    for flag in SCHEMA:
        if getattr(rules, flag) != getattr(official, flag):
            yield flag


def rules_summary(rules: Rules, tr: Translator, preset: str | None = None) -> str:
    """The preset's name, then every flag that differs from the official rules (a flag
    with nothing to act on marked inactive, naming the flag it needs)."""
    lines = [tr.gettext("📜 {preset}", preset=rules_title(rules, tr, preset))]
    diff = list(changed(rules))
    if not diff:
        lines.append(tr.gettext("The official rules, no house rules."))
    for flag in diff:
        lines.append(
            tr.gettext(
                "• {flag}: {value}",
                flag=flag_name(flag, tr),
                value=value_text(flag, getattr(rules, flag), tr),
            )
            + inactive_note(flag, rules, tr)
        )
    return "\n".join(lines)
