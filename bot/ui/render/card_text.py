"""Cards, colours, directions and actions in words (and the table's button labels)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.ui.i18n import N_, Translator
from engine import (
    Accept,
    Action,
    CallUno,
    Card,
    CatchUno,
    Challenge,
    ChooseColor,
    Color,
    Draw,
    Leave,
    NextRound,
    Pass,
    Play,
    Rank,
    Timeout,
)

# -- cards and colours ------------------------------------------------------------------------

COLOR_EMOJI: dict[Color, str] = {
    Color.RED: "🟥",
    Color.YELLOW: "🟨",
    Color.GREEN: "🟩",
    Color.BLUE: "🟦",
}
WILD_MARK = "🌈"

COLOR_NAMES: dict[Color, str] = {
    Color.RED: N_("Red"),
    Color.YELLOW: N_("Yellow"),
    Color.GREEN: N_("Green"),
    Color.BLUE: N_("Blue"),
}

# card names that need words; numbers, +2 and +4 read the same in every language
_RANK_WORDS: dict[Rank, str] = {
    Rank.SKIP: N_("Skip"),
    Rank.REVERSE: N_("Reverse"),
    Rank.WILD: N_("Wild"),
}
_RANK_SIGNS: dict[Rank, str] = {Rank.DRAW_TWO: "+2", Rank.WILD_DRAW_FOUR: "+4"}
_SHORT_SIGNS: dict[Rank, str] = {
    Rank.SKIP: "⊘",
    Rank.REVERSE: "⇄",
    Rank.DRAW_TWO: "+2",
    Rank.WILD: "",
    Rank.WILD_DRAW_FOUR: "+4",
}


def color_name(color: Color, tr: Translator) -> str:
    """``Red`` / ``红色``."""
    return tr.gettext(COLOR_NAMES[color])


def color_text(color: Color, tr: Translator) -> str:
    """``🟥 Red`` / ``🟥 红色``."""
    return f"{COLOR_EMOJI[color]} {color_name(color, tr)}"


def _mark(card: Card) -> str:
    return WILD_MARK if card.color is None else COLOR_EMOJI[card.color]


def _rank_text(card: Card, tr: Translator) -> str:
    if card.is_number:
        return card.rank.value
    sign = _RANK_SIGNS.get(card.rank)
    if sign is not None:
        return sign
    return tr.gettext(_RANK_WORDS[card.rank])


def card_text(card: Card, tr: Translator) -> str:
    """``🟥 5``, ``🟩 Skip`` / ``🟩 跳过``, ``🟦 +2``, ``🌈 Wild`` / ``🌈 变色``, ``🌈 +4``."""
    return f"{_mark(card)} {_rank_text(card, tr)}"


def card_short(card: Card) -> str:
    """Language-free and short, for buttons: ``🟥5``, ``🟩⊘``, ``🟦⇄``, ``🟨+2``, ``🌈``,
    ``🌈+4``."""
    if card.is_number:
        return f"{_mark(card)}{card.rank.value}"
    return f"{_mark(card)}{_SHORT_SIGNS[card.rank]}"


def _sep(tr: Translator) -> str:
    """Between the items of a list."""
    return "、" if tr.is_chinese else ", "


def cards_text(cards: Iterable[Card], tr: Translator) -> str:
    """Cards in the given order: ``🟥 5, 🟦 Skip`` / ``🟥 5、🟦 跳过``."""
    return _sep(tr).join(card_text(c, tr) for c in cards)


def direction_text(direction: int, tr: Translator) -> str:
    """``↻ clockwise`` (seat order) or ``↺ counter-clockwise``."""
    if direction >= 0:
        return "↻ " + tr.gettext("clockwise")
    return "↺ " + tr.gettext("counter-clockwise")


def _name(names: Mapping[str, str], player: str | None) -> str:
    if player is None:
        return "?"
    return names.get(player, player)


# -- actions ----------------------------------------------------------------------------------


def action_label(action: Action, tr: Translator, names: Mapping[str, str]) -> str:
    """A short label for an engine action (a button, a menu entry, a log line)."""
    if isinstance(action, Play):
        text = " + ".join(card_text(c, tr) for c in action.cards)
        if action.color is not None:
            text = tr.gettext("{cards} → {color}", cards=text, color=color_text(action.color, tr))
        if action.target is not None:
            text = tr.gettext(
                "{cards} ⇄ swap with {player}", cards=text, player=_name(names, action.target)
            )
        if action.uno:
            text += " · UNO!"
        return text
    if isinstance(action, Draw):
        return tr.gettext("Draw a card")
    if isinstance(action, Pass):
        return tr.gettext("Pass")
    if isinstance(action, Accept):
        return tr.gettext("Take the cards")
    if isinstance(action, Challenge):
        return tr.gettext("Challenge")
    if isinstance(action, ChooseColor):
        return color_text(action.color, tr)
    if isinstance(action, CallUno):
        return "UNO!"
    if isinstance(action, CatchUno):
        return tr.gettext("Catch {player}", player=_name(names, action.target))
    if isinstance(action, Leave):
        return tr.gettext("Leave the game")
    if isinstance(action, NextRound):
        return tr.gettext("Next round")
    if isinstance(action, Timeout):
        return tr.gettext("Time is up")
    return str(action)


BUTTONS: dict[str, str] = {
    "join": N_("Join"),
    "start": N_("Start"),
    "hand": N_("Show hand"),
    "play": N_("Play"),
    "draw": N_("Draw"),
    "pass": N_("Pass"),
    "uno": "UNO!",
    "catch": N_("Catch"),
    "challenge": N_("Challenge"),
    "accept": N_("Take the cards"),
    "leave": N_("Leave"),
    "next_round": N_("Next round"),
    "add_bot": N_("Add a bot"),
    "stop": N_("Stop"),
    "rules": N_("Rules"),
    # issue 22 (bot.presence)
    "vote_end": N_("End the game"),
    "autopilot_on": N_("Play for me"),
    "autopilot_off": N_("Take my seat back"),
}


def button_label(key: str, tr: Translator) -> str:
    """The label of a table button (``join``, ``start``, ``hand``, ... see ``BUTTONS``)."""
    msg = BUTTONS.get(key)
    return tr.gettext(msg) if msg is not None else key
