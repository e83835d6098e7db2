"""The rules: presets, flags, their values and help, and a table's rules in short."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from typing import Any

from bot.i18n import N_, Translator
from engine import Rules

# -- rules ------------------------------------------------------------------------------------

PRESET_NAMES: dict[str, str] = {
    "official": N_("Official rules"),
    "house": N_("House rules"),
    "party": N_("Party rules"),
}

FLAG_NAMES: dict[str, str] = {
    "stacking": N_("Stacking"),
    "deflect": N_("Deflect a +2"),
    "jump_in": N_("Jump-in"),
    "multi_play": N_("Several cards at once"),
    "swap": N_("Swapping hands"),
    "draw": N_("Drawing"),
    "force_play": N_("Must play a drawn card"),
    "wild_draw_four": N_("+4 and challenges"),
    "guilty_challenger": N_("After a successful challenge"),
    "wild_on_penalty": N_("Wild on a penalty"),
    "last_card": N_("Last card"),
    "first_play_number": N_("Open with a number"),
    "uno_penalty": N_("UNO penalty"),
    "false_uno_penalty": N_("False UNO penalty"),
    "scoring": N_("Scoring"),
    "card_points": N_("Card points"),
    "target": N_("Target score"),
    "partners": N_("Partners"),
    "two_player": N_("Two players"),
    "decks": N_("Decks"),
    "hand_size": N_("Cards dealt"),
    "dealer": N_("First dealer"),
    "turn_seconds": N_("Turn time"),
    "afk_strikes": N_("AFK limit"),
    "uno_window_seconds": N_("UNO catch window"),
    "challenge_seconds": N_("Challenge time"),
    "draw_four_when": N_("When a +4 is legal"),
    "after_penalty": N_("After a +2 is taken"),
    "drawn_card": N_("Playing a drawn card"),
    "uno_call": N_("When to call UNO"),
    "color_timeout": N_("Colour not named"),
    "places": N_("Play on for places"),
    "start_reverse": N_("Reverse start card"),
}

FLAG_HELP: dict[str, str] = {
    "stacking": N_(
        "Answer a +2 or +4 with another instead of drawing; whoever cannot draws the total."
    ),
    "deflect": N_(
        "With a +2 pending, a Skip of that colour passes it on and a Reverse sends it back; "
        "or a +4 too, in the colour it named."
    ),
    "jump_in": N_("Anyone holding the identical card may play it out of turn."),
    "multi_play": N_("Play several cards of the same kind in one go; their effects add up."),
    "swap": N_(
        "7-0: a 7 swaps hands with a player you pick and a 0 passes every hand one seat on; "
        "or 5: a 5 swaps hands."
    ),
    "draw": N_("Draw one card, or keep drawing until you get one you can play."),
    "force_play": N_("A card you draw that can be played must be played at once."),
    "wild_draw_four": N_(
        "Whether a +4 may be bluffed (played while holding the colour in play) and challenged."
    ),
    "guilty_challenger": N_(
        "Whether the challenger plays after catching a +4 bluff, or is skipped anyway."
    ),
    "wild_on_penalty": N_(
        "With stacking, a plain Wild passes the whole pending penalty to the next player."
    ),
    "last_card": N_("Whether you may go out on an action card or a wild."),
    "first_play_number": N_(
        "The first play of a round must be a number card; without one, draw 2 and be skipped."
    ),
    "uno_penalty": N_("Cards drawn when caught with one card and no UNO call."),
    "false_uno_penalty": N_("Cards drawn for calling UNO or catching someone wrongly (0: none)."),
    "scoring": N_(
        "The winner scores everyone's cards, or everyone scores their own and the lowest wins."
    ),
    "card_points": N_("What action cards and wilds are worth when scoring."),
    "target": N_("Points that end the game (0: one round only)."),
    "partners": N_(
        "Teams of two, partners sitting opposite; a team wins when one goes out. Rotating: "
        "new partners every four rounds, each player scoring for themselves."
    ),
    "two_player": N_("With two players, a Reverse acts as a Skip (official) or as a Reverse."),
    "decks": N_("Two decks (216 cards) seat up to 20 players."),
    "hand_size": N_("Cards dealt to each player at the start of a round."),
    "dealer": N_(
        "The first dealer: the highest card drawn, or the table's creator; or the highest "
        "card drawn plays first."
    ),
    "turn_seconds": N_("Seconds per turn; then a card is drawn for the player and play moves on."),
    "afk_strikes": N_("Timeouts in a row before a player is removed (0: never)."),
    "uno_window_seconds": N_(
        "Seconds to catch a player who did not call UNO (the next player's move also ends it)."
    ),
    "challenge_seconds": N_("Seconds to decide whether to challenge a +4."),
    "draw_four_when": N_(
        "A +4 is legal when you hold no card of the colour in play, or only when nothing "
        "else in your hand can be played. A challenge checks the rule chosen here."
    ),
    "after_penalty": N_(
        "After a +2 is drawn, the next card matches as usual, or must be of the +2's colour "
        "(no other +2, no Skip or Reverse of another colour, no Wild; a +4 still may)."
    ),
    "drawn_card": N_(
        "A card you draw may be played at once if it fits, or only if it is a number card."
    ),
    "uno_call": N_(
        "UNO may be called after your play, until someone catches you; or only with the "
        "card that leaves you one."
    ),
    "color_timeout": N_(
        "When a wild's colour is not named in time: a colour is picked at random, or the "
        "colour before the wild stays."
    ),
    "places": N_(
        "After the first player goes out, the others play on for places until one is left. "
        "The round's points are counted when the first goes out."
    ),
    "start_reverse": N_(
        "After a Reverse start card, the dealer plays first, or the player to the dealer's right."
    ),
}

_VALUE_NAMES: dict[tuple[str, str], str] = {
    ("stacking", "off"): N_("off"),
    ("stacking", "draw_two"): N_("+2 on +2"),
    ("stacking", "draw_four_on_two"): N_("+2 and +4 on +2, +4 on +4"),
    ("stacking", "any"): N_("any +2 or +4 on each other"),
    ("multi_play", "off"): N_("off"),
    ("multi_play", "identical"): N_("identical cards"),
    ("multi_play", "same_rank"): N_("same number or symbol"),
    ("swap", "off"): N_("off"),
    ("swap", "seven_zero"): N_("7 swaps, 0 passes all hands"),
    ("swap", "five"): N_("5 swaps"),
    ("draw", "one"): N_("one card"),
    ("draw", "until_playable"): N_("until playable"),
    ("wild_draw_four", "challenge"): N_("bluffs can be challenged"),
    ("wild_draw_four", "no_bluff"): N_("only without the colour in play"),
    ("wild_draw_four", "free"): N_("always, no challenge"),
    ("guilty_challenger", "plays"): N_("challenger plays"),
    ("guilty_challenger", "skipped"): N_("challenger is skipped"),
    ("last_card", "any"): N_("any card"),
    ("last_card", "number_only"): N_("number cards only"),
    ("last_card", "play_and_draw"): N_("action card, then draw 1"),
    ("scoring", "winner_takes"): N_("winner takes all"),
    ("scoring", "penalty"): N_("own points, lowest wins"),
    ("card_points", "standard"): N_("standard (20 / 50)"),
    ("card_points", "low"): N_("low (10 / 20 / 40)"),
    ("two_player", "official"): N_("Reverse acts as Skip"),
    ("two_player", "plain"): N_("as with more players"),
    ("dealer", "draw_high"): N_("highest card drawn"),
    ("dealer", "creator"): N_("table creator"),
    ("dealer", "high_plays_first"): N_("highest card plays first"),
    # what were "off" and "on" before deflect could act on a +4 read the same
    ("deflect", "off"): N_("off"),
    ("deflect", "draw_two"): N_("on"),
    ("deflect", "all"): N_("on, a +4 too"),
    ("last_card", "no_skip_reverse_wild"): N_("no Skip, Reverse or wild"),
    ("partners", "rotate"): N_("rotating"),
    ("draw_four_when", "no_color"): N_("without the colour in play"),
    ("draw_four_when", "no_play"): N_("with nothing else to play"),
    ("after_penalty", "any"): N_("match as usual"),
    ("after_penalty", "same_color"): N_("follow its colour"),
    ("drawn_card", "any"): N_("any card that fits"),
    ("drawn_card", "number_only"): N_("number cards only"),
    ("uno_call", "after_play"): N_("until caught"),
    ("uno_call", "with_play"): N_("with the play"),
    ("color_timeout", "random"): N_("random colour"),
    ("color_timeout", "keep"): N_("colour stays"),
    ("start_reverse", "dealer"): N_("dealer plays first"),
    ("start_reverse", "right_of_dealer"): N_("dealer's right plays first"),
}

_SECONDS_FLAGS = ("turn_seconds", "uno_window_seconds", "challenge_seconds")


def _int_bounds(flag: str) -> tuple[int, int] | None:
    """The smallest and largest value of a numeric rule, from the model's constraints."""
    field = Rules.model_fields.get(flag)
    if field is None or field.annotation is not int:
        return None
    low = next((m.ge for m in field.metadata if hasattr(m, "ge")), None)
    high = next((m.le for m in field.metadata if hasattr(m, "le")), None)
    if low is None or high is None:
        return None
    return int(low), int(high)


def _flag_choices(flag: str) -> tuple[Any, ...]:
    """Every value a rule with a fixed set of values may take (``()`` for numbers)."""
    field = Rules.model_fields.get(flag)
    if field is None:
        return ()
    return _choices_of(field.annotation)


def _choices_of(annotation: Any) -> tuple[Any, ...]:
    if annotation is bool:
        return (True, False)
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        # partners: a yes/no, or "rotate"
        return tuple(v for a in typing.get_args(annotation) for v in _choices_of(a))
    return ()


def flag_menu_values(flag: str) -> list[Any]:
    """The values a settings menu offers for a rule with a fixed set of them, in menu
    order (off before on), ``[]`` for a number: every platform's menu reads these."""
    values = list(_flag_choices(flag))
    if values[:2] == [True, False]:
        values[:2] = [False, True]
    return values


def preset_name(name: str | None, tr: Translator) -> str:
    """``Official rules`` / ``官方规则``; ``None`` or an unknown name: custom rules."""
    msg = PRESET_NAMES.get(name or "")
    if msg is None:
        return tr.gettext("Custom rules")
    return tr.gettext(msg)


def flag_name(flag: str, tr: Translator) -> str:
    msg = FLAG_NAMES.get(flag)
    return tr.gettext(msg) if msg is not None else flag


def flag_help(flag: str, tr: Translator) -> str:
    msg = FLAG_HELP.get(flag)
    return tr.gettext(msg) if msg is not None else ""


def flag_value(flag: str, value: Any, tr: Translator) -> str:
    """A flag's value in words: ``on``, ``+2 on +2``, ``7 cards``, ``60 seconds``..."""
    if isinstance(value, bool):
        return tr.gettext("on") if value else tr.gettext("off")
    if isinstance(value, str):
        msg = _VALUE_NAMES.get((flag, value))
        return tr.gettext(msg) if msg is not None else value
    if isinstance(value, int):
        n = value
        if flag in _SECONDS_FLAGS:
            return tr.ngettext("{n} second", "{n} seconds", n)
        if flag == "target":
            return tr.ngettext("{n} point", "{n} points", n) if n else tr.gettext("one round")
        if flag == "decks":
            return tr.ngettext("{n} deck", "{n} decks", n)
        if flag == "afk_strikes":
            return tr.ngettext("{n} timeout", "{n} timeouts", n) if n else tr.gettext("never")
        if flag in ("uno_penalty", "false_uno_penalty") and n == 0:
            return tr.gettext("off")
        if flag in ("uno_penalty", "false_uno_penalty", "hand_size"):
            return tr.ngettext("{n} card", "{n} cards", n)
        return str(n)
    return str(value)


# flags that act only while another one is on (RULES.md: deflect and a Wild on a penalty
# act on a stacked penalty): the flag they need, and whether it is on
_NEEDS: dict[str, tuple[str, Callable[[Rules], bool]]] = {
    "deflect": ("stacking", lambda r: r.stacking != "off"),
    "wild_on_penalty": ("stacking", lambda r: r.stacking != "off"),
}


def flag_needs(flag: str, rules: Rules) -> str | None:
    """The flag that ``flag`` needs and that is off under ``rules`` (``flag`` is set but has
    nothing to act on: settings show it inactive), or ``None`` when it can act."""
    need = _NEEDS.get(flag)
    if need is None or need[1](rules):
        return None
    return need[0]


def inactive_note(flag: str, rules: Rules, tr: Translator) -> str:
    """`` (needs “Stacking”)`` after a flag that cannot act under ``rules``, else ``""``."""
    need = flag_needs(flag, rules)
    if need is None:
        return ""
    return tr.gettext(" (needs “{flag}”)", flag=flag_name(need, tr))


def rules_summary(rules: Rules, tr: Translator, preset: str | None = None) -> str:
    """The preset's name, then every flag that differs from the official rules (a flag
    with nothing to act on marked inactive, naming the flag it needs)."""
    name = preset_name(preset if preset is not None else rules.matching_preset(), tr)
    lines = [tr.gettext("📜 {preset}", preset=name)]
    changed = rules.overrides("official")
    if not changed:
        lines.append(tr.gettext("The official rules, no house rules."))
    for flag in Rules.model_fields:
        if flag in changed:
            lines.append(
                tr.gettext(
                    "• {flag}: {value}",
                    flag=flag_name(flag, tr),
                    value=flag_value(flag, getattr(rules, flag), tr),
                )
                + inactive_note(flag, rules, tr)
            )
    return "\n".join(lines)
