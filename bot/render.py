"""Text for people: cards, actions, events, notices, tables, hands, rules, statistics.

Pure functions of their arguments and a :class:`bot.i18n.Translator`: no platform code, no
I/O, no clock. Privacy is decided before anything gets here: events arrive already redacted
for their reader (``engine.redact``) and a table is rendered from the public view, so
nothing in this module ever looks a hand up. Player ids are shown through ``names`` (id ->
display name); an id without a name is shown as it is.
"""

from __future__ import annotations

import logging
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bot.i18n import N_, Translator, translator
from bot.port import Notice, TableInfo
from engine import (
    Accept,
    Action,
    CallUno,
    Card,
    CardPlayed,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    ChooseColor,
    Color,
    ColorChosen,
    DeckReshuffled,
    DirectionReversed,
    Draw,
    Event,
    GameWon,
    HandsRotated,
    HandsSwapped,
    Leave,
    NextRound,
    Pass,
    Passed,
    PenaltyPassed,
    PenaltyStacked,
    Phase,
    Play,
    PlayerFinished,
    PlayerJoined,
    PlayerLeft,
    Rank,
    RoundStarted,
    RoundWon,
    Rules,
    Timeout,
    TurnSkipped,
    TurnTimedOut,
    UnoCalled,
    UnoCaught,
    UnoFalseAlarm,
    UnoWindowClosed,
    View,
    draw_four_legal,
)

if TYPE_CHECKING:
    from bot.store import StatLine

log = logging.getLogger(__name__)

__all__ = [
    "BUTTONS",
    "COLOR_EMOJI",
    "COMMANDS",
    "FLAG_HELP",
    "FLAG_NAMES",
    "INFOS",
    "PRESET_NAMES",
    "REFUSALS",
    "REFUSAL_FALLBACK",
    "WILD_MARK",
    "action_label",
    "button_label",
    "card_short",
    "card_text",
    "cards_text",
    "color_name",
    "color_text",
    "command_help",
    "direction_text",
    "event_line",
    "event_lines",
    "flag_help",
    "flag_name",
    "flag_value",
    "hand_text",
    "help_text",
    "leaderboard_text",
    "notice_text",
    "preset_name",
    "rules_summary",
    "scores_text",
    "seat_lines",
    "stats_text",
    "table_line",
    "table_text",
]

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
}


def button_label(key: str, tr: Translator) -> str:
    """The label of a table button (``join``, ``start``, ``hand``, ... see ``BUTTONS``)."""
    msg = BUTTONS.get(key)
    return tr.gettext(msg) if msg is not None else key


# -- events -----------------------------------------------------------------------------------


def _with_cards(line: str, cards: tuple[Card, ...] | None, tr: Translator) -> str:
    if not cards:
        return line
    line = line.rstrip(".。")
    return tr.gettext("{line}: {cards}", line=line, cards=cards_text(cards, tr))


def _you(tr: Translator, you: bool, third: str, second: str, **params: Any) -> str:
    """``second`` (addressed to the reader: "You pass.") when the reader is the one it is
    about, else ``third`` ("Ann passes.")."""
    return tr.gettext(second if you else third, **params)


def _played(
    e: CardPlayed, tr: Translator, names: Mapping[str, str], viewer: str | None = None
) -> str:
    who = _name(names, e.player)
    you = e.player == viewer
    cards = " + ".join(card_text(c, tr) for c in (e.card, *e.together))
    if e.jump_in:
        line = _you(
            tr,
            you,
            N_("{player} jumps in with {cards}!"),
            N_("You jump in with {cards}!"),
            player=who,
            cards=cards,
        )
    else:
        line = _you(
            tr,
            you,
            N_("{player} played {cards}."),
            N_("You played {cards}."),
            player=who,
            cards=cards,
        )
    parts = [line]
    if e.color is not None and (e.card.is_wild or e.color is not e.card.color):
        parts.append(tr.gettext("Colour: {color}.", color=color_text(e.color, tr)))
    if e.cards_left == 1:
        parts.append(tr.gettext("One card left!"))
    return tr.join(parts)


def _drawn(
    e: CardsDrawn, tr: Translator, names: Mapping[str, str], viewer: str | None = None
) -> str | None:
    who = _name(names, e.player)
    you = e.player == viewer
    n = e.count
    if n == 0:
        if e.reason == "draw":
            return _you(
                tr,
                you,
                N_("{player} could not draw: no cards are left."),
                N_("You could not draw: no cards are left."),
                player=who,
            )
        return None
    reason = e.reason
    if reason in ("uno", "false_uno", "challenge"):
        # the event before it (UnoCaught, UnoFalseAlarm, ChallengeResolved) said why and
        # how many; only the drawer, who sees the cards, gets a line of their own
        if not e.cards:
            return None
        return _with_cards(
            (
                tr.ngettext("You drew {n} card.", "You drew {n} cards.", n, player=who)
                if you
                else tr.ngettext(
                    "{player} drew {n} card.", "{player} drew {n} cards.", n, player=who
                )
            ),
            e.cards,
            tr,
        )
    if reason == "penalty":
        line = (
            tr.ngettext(
                "You take the penalty and draw {n} card.",
                "You take the penalty and draw {n} cards.",
                n,
                player=who,
            )
            if you
            else tr.ngettext(
                "{player} takes the penalty and draws {n} card.",
                "{player} takes the penalty and draws {n} cards.",
                n,
                player=who,
            )
        )
    elif reason == "first_play":
        line = (
            tr.ngettext(
                "You have no number card to open with and draw {n} card.",
                "You have no number card to open with and draw {n} cards.",
                n,
                player=who,
            )
            if you
            else tr.ngettext(
                "{player} has no number card to open with and draws {n} card.",
                "{player} has no number card to open with and draws {n} cards.",
                n,
                player=who,
            )
        )
    elif reason == "last_card":
        line = (
            tr.ngettext(
                "You cannot go out on an action or wild card and draw {n} card.",
                "You cannot go out on an action or wild card and draw {n} cards.",
                n,
                player=who,
            )
            if you
            else tr.ngettext(
                "{player} cannot go out on an action or wild card and draws {n} card.",
                "{player} cannot go out on an action or wild card and draws {n} cards.",
                n,
                player=who,
            )
        )
    else:
        line = (
            tr.ngettext("You drew {n} card.", "You drew {n} cards.", n, player=who)
            if you
            else tr.ngettext("{player} drew {n} card.", "{player} drew {n} cards.", n, player=who)
        )
    return _with_cards(line, e.cards, tr)


def _round_started(
    e: RoundStarted, tr: Translator, names: Mapping[str, str], viewer: str | None = None
) -> str:
    def named(p: str) -> str:
        return tr.gettext("You") if p == viewer else _name(names, p)

    parts = []
    if e.dealer_draws:
        draws = _sep(tr).join(f"{named(p)} {card_text(c, tr)}" for p, c in e.dealer_draws)
        if e.draws_for == "first":  # dealer=high_plays_first: action cards drawn again
            parts.append(tr.gettext("Drawing for who plays first: {draws}.", draws=draws))
        else:
            parts.append(tr.gettext("Drawing for dealer: {draws}.", draws=draws))
    parts.append(
        tr.ngettext(
            "Round {round}: you deal {n} card each.",
            "Round {round}: you deal {n} cards each.",
            e.hand_size,
            round=e.round,
            dealer=_name(names, e.dealer),
        )
        if e.dealer == viewer
        else tr.ngettext(
            "Round {round}: {dealer} deals {n} card each.",
            "Round {round}: {dealer} deals {n} cards each.",
            e.hand_size,
            round=e.round,
            dealer=_name(names, e.dealer),
        )
    )
    parts.append(tr.gettext("Start card: {card}.", card=card_text(e.top, tr)))
    # a Reverse start card: the DirectionReversed event right after it says so
    you = e.current == viewer
    who = _name(names, e.current)
    if e.top.is_wild and e.color is None:
        parts.append(
            _you(tr, you, N_("{player} names the colour."), N_("You name the colour."), player=who)
        )
    elif e.pending:  # a +2 start card with stacking: answered as if played at them
        parts.append(
            _you(
                tr,
                you,
                N_("{player} faces +{total}: stack on it or take the cards."),
                N_("You face +{total}: stack on it or take the cards."),
                player=who,
                total=e.pending,
            )
        )
    else:
        parts.append(_you(tr, you, N_("{player} plays first."), N_("You play first."), player=who))
    return "🃏 " + tr.join(parts)


_PASSED: dict[str, tuple[str, str, str]] = {
    # how: (third person, the reader passed it, the reader was passed it)
    "reverse": (
        N_("{player} reverses the +{total} back to {to}!"),
        N_("You reverse the +{total} back to {to}!"),
        N_("{player} reverses the +{total} back to you!"),
    ),
    "wild": (
        N_("{player} passes the +{total} on to {to} with a Wild!"),
        N_("You pass the +{total} on to {to} with a Wild!"),
        N_("{player} passes the +{total} on to you with a Wild!"),
    ),
    "skip": (
        N_("{player} passes the +{total} on to {to} with a Skip!"),
        N_("You pass the +{total} on to {to} with a Skip!"),
        N_("{player} passes the +{total} on to you with a Skip!"),
    ),
}


def _challenge_line(
    e: ChallengeResolved, tr: Translator, names: Mapping[str, str], viewer: str | None
) -> str:
    params = {"challenger": _name(names, e.challenger), "offender": _name(names, e.offender)}
    n = e.penalty
    by_you = viewer is not None and e.challenger == viewer
    on_you = viewer is not None and e.offender == viewer
    if e.guilty and by_you:
        line = tr.ngettext(
            "You challenged {offender}'s +4: caught bluffing! {offender} draws {n} card.",
            "You challenged {offender}'s +4: caught bluffing! {offender} draws {n} cards.",
            n,
            **params,
        )
    elif e.guilty and on_you:
        line = tr.ngettext(
            "{challenger} challenged your +4: caught bluffing! You draw {n} card.",
            "{challenger} challenged your +4: caught bluffing! You draw {n} cards.",
            n,
            **params,
        )
    elif e.guilty:
        line = tr.ngettext(
            "{challenger} challenged {offender}'s +4: caught bluffing! {offender} draws {n} card.",
            "{challenger} challenged {offender}'s +4: caught bluffing! "
            "{offender} draws {n} cards.",
            n,
            **params,
        )
    elif by_you:
        line = tr.ngettext(
            "You challenged {offender}'s +4: it was legal. You draw {n} card.",
            "You challenged {offender}'s +4: it was legal. You draw {n} cards.",
            n,
            **params,
        )
    elif on_you:
        line = tr.ngettext(
            "{challenger} challenged your +4: it was legal. {challenger} draws {n} card.",
            "{challenger} challenged your +4: it was legal. {challenger} draws {n} cards.",
            n,
            **params,
        )
    else:
        line = tr.ngettext(
            "{challenger} challenged {offender}'s +4: it was legal. {challenger} draws {n} card.",
            "{challenger} challenged {offender}'s +4: it was legal. {challenger} draws {n} cards.",
            n,
            **params,
        )
    if e.hand is not None:
        shown = cards_text(sorted(e.hand, key=lambda c: c.order), tr) or "—"
        if on_you:
            hand = tr.gettext("Your hand: {cards}.", cards=shown)
        else:
            hand = tr.gettext("Hand of {player}: {cards}.", player=params["offender"], cards=shown)
        line = tr.join([line, hand])
    return line


def event_line(
    event: Event, tr: Translator, names: Mapping[str, str], viewer: str | None = None
) -> str | None:
    """One line for one event, or ``None`` for an event nobody needs to read.

    Cards an event carries are shown (a drawer's own draw, a challenged hand): the caller
    passes events already redacted for the reader. ``viewer``: the reader's id, for a
    screen that is theirs alone (the terminal); the lines about them address them ("You
    pass.", "Bob caught you without UNO!"). The chat tables leave it out: their lines are
    public, in the third person."""
    e = event
    me = viewer

    def who(p: str | None) -> str:
        return _name(names, p)

    if isinstance(e, CardPlayed):
        return _played(e, tr, names, me)
    if isinstance(e, CardsDrawn):
        return _drawn(e, tr, names, me)
    if isinstance(e, TurnSkipped):
        return _you(
            tr,
            e.player == me,
            N_("{player} is skipped."),
            N_("You are skipped."),
            player=who(e.player),
        )
    if isinstance(e, DirectionReversed):
        return tr.gettext(
            "Direction reversed: play now goes {direction}.",
            direction=direction_text(e.direction, tr),
        )
    if isinstance(e, ColorChosen):
        color = color_text(e.color, tr)
        you = e.player == me
        if e.random:
            return _you(
                tr,
                you,
                N_("{color} was picked at random for {player}."),
                N_("{color} was picked at random for you."),
                color=color,
                player=who(e.player),
            )
        if e.kept:  # color_timeout=keep: no colour named, the one before stays
            return _you(
                tr,
                you,
                N_("{player} named no colour: {color} stays."),
                N_("You named no colour: {color} stays."),
                color=color,
                player=who(e.player),
            )
        return _you(
            tr,
            you,
            N_("{player} chose {color}."),
            N_("You chose {color}."),
            player=who(e.player),
            color=color,
        )
    if isinstance(e, PenaltyStacked):
        return _you(
            tr,
            e.player == me,
            N_("{player} stacks! The penalty is now +{total}."),
            N_("You stack! The penalty is now +{total}."),
            player=who(e.player),
            total=e.total,
        )
    if isinstance(e, PenaltyPassed):
        third, by_you, to_you = _PASSED.get(e.how, _PASSED["skip"])
        msg = by_you if e.player == me else to_you if e.to == me else third
        return tr.gettext(msg, player=who(e.player), to=who(e.to), total=e.total)
    if isinstance(e, Passed):
        return _you(
            tr, e.player == me, N_("{player} passes."), N_("You pass."), player=who(e.player)
        )
    if isinstance(e, UnoCalled):
        return _you(
            tr,
            e.player == me,
            N_("{player} calls UNO!"),
            N_("You call UNO!"),
            player=who(e.player),
        )
    if isinstance(e, UnoCaught):
        if me is not None and e.target == me:
            return tr.ngettext(
                "{by} caught you without UNO! You draw {n} card.",
                "{by} caught you without UNO! You draw {n} cards.",
                e.penalty,
                by=who(e.by),
            )
        return (
            tr.ngettext(
                "You caught {player} without UNO! {player} draws {n} card.",
                "You caught {player} without UNO! {player} draws {n} cards.",
                e.penalty,
                by=who(e.by),
                player=who(e.target),
            )
            if e.by == me
            else tr.ngettext(
                "{by} caught {player} without UNO! {player} draws {n} card.",
                "{by} caught {player} without UNO! {player} draws {n} cards.",
                e.penalty,
                by=who(e.by),
                player=who(e.target),
            )
        )
    if isinstance(e, UnoFalseAlarm):
        you = e.player == me
        if e.target is None:
            return (
                tr.ngettext(
                    "You called UNO without one card and draw {n} card.",
                    "You called UNO without one card and draw {n} cards.",
                    e.penalty,
                    player=who(e.player),
                )
                if you
                else tr.ngettext(
                    "{player} called UNO without one card and draws {n} card.",
                    "{player} called UNO without one card and draws {n} cards.",
                    e.penalty,
                    player=who(e.player),
                )
            )
        if me is not None and e.target == me:
            return tr.ngettext(
                "{player} tried to catch you while you were safe, and draws {n} card.",
                "{player} tried to catch you while you were safe, and draws {n} cards.",
                e.penalty,
                player=who(e.player),
            )
        return (
            tr.ngettext(
                "You tried to catch {target}, who was safe, and draw {n} card.",
                "You tried to catch {target}, who was safe, and draw {n} cards.",
                e.penalty,
                player=who(e.player),
                target=who(e.target),
            )
            if you
            else tr.ngettext(
                "{player} tried to catch {target}, who was safe, and draws {n} card.",
                "{player} tried to catch {target}, who was safe, and draws {n} cards.",
                e.penalty,
                player=who(e.player),
                target=who(e.target),
            )
        )
    if isinstance(e, UnoWindowClosed):
        return None
    if isinstance(e, ChallengeResolved):
        return _challenge_line(e, tr, names, me)
    if isinstance(e, HandsSwapped):
        if me is not None and e.target == me:
            return tr.gettext("{player} swaps hands with you!", player=who(e.player))
        return _you(
            tr,
            e.player == me,
            N_("{player} swaps hands with {target}!"),
            N_("You swap hands with {target}!"),
            player=who(e.player),
            target=who(e.target),
        )
    if isinstance(e, HandsRotated):
        return tr.gettext(
            "Every hand passes one seat on ({direction}).",
            direction=direction_text(e.direction, tr),
        )
    if isinstance(e, DeckReshuffled):
        if e.reason == "start":
            return tr.gettext(
                "A +4 turned up first: it cannot start a round, so it was shuffled back "
                "into the deck."
            )
        return tr.ngettext(
            "The discard pile is shuffled into a new draw pile of {n} card.",
            "The discard pile is shuffled into a new draw pile of {n} cards.",
            e.size,
        )
    if isinstance(e, PlayerLeft):
        return _you(
            tr,
            e.player == me,
            N_("{player} left the game."),
            N_("You left the game."),
            player=who(e.player),
        )
    if isinstance(e, PlayerJoined):
        return _you(
            tr,
            e.player == me,
            N_("{player} joins the game."),
            N_("You join the game."),
            player=who(e.player),
        )
    if isinstance(e, TurnTimedOut):
        return _you(
            tr,
            e.player == me,
            N_("{player} ran out of time."),
            N_("You ran out of time."),
            player=who(e.player),
        )
    if isinstance(e, PlayerFinished):
        return _you(
            tr,
            e.player == me,
            N_("🏅 {player} is out of cards: place {place}! The others play on."),
            N_("🏅 You are out of cards: place {place}! The others play on."),
            player=who(e.player),
            place=e.place,
        )
    if isinstance(e, RoundWon):
        return _round_won(
            who(e.player),
            e.round,
            e.points,
            e.reason,
            tr,
            you=e.player == me,
            places=[tr.gettext("You") if p == me else who(p) for p in e.places],
        )
    if isinstance(e, GameWon):
        return _you(
            tr,
            e.player == me,
            N_("🏆 {player} wins the game!"),
            N_("🏆 You win the game!"),
            player=who(e.player),
        )
    if isinstance(e, RoundStarted):
        return _round_started(e, tr, names, me)
    return None


def _round_won(
    who: str,
    round_no: int,
    points: int,
    reason: str | None,
    tr: Translator,
    *,
    you: bool = False,
    places: Sequence[str] = (),
) -> str:
    """The result of a round: one wording, as an event line and as the news of it (``you``:
    addressed to its winner, on a screen that is theirs; ``places``: the names in finishing
    order, under the ``places`` rule)."""
    if reason == "blocked":
        head = _you(
            tr,
            you,
            N_("Both piles are empty: {player} has the lowest hand."),
            N_("Both piles are empty: you have the lowest hand."),
            player=who,
        )
    elif reason == "last_player":
        head = tr.gettext("Everyone else has left.")
    else:
        head = ""
    if points:
        won = (
            tr.ngettext(
                "🏁 You win round {round} and score {n} point!",
                "🏁 You win round {round} and score {n} points!",
                points,
                player=who,
                round=round_no,
            )
            if you
            else tr.ngettext(
                "🏁 {player} wins round {round} and scores {n} point!",
                "🏁 {player} wins round {round} and scores {n} points!",
                points,
                player=who,
                round=round_no,
            )
        )
    else:  # penalty scoring (the others add their own cards), or nothing to score
        won = _you(
            tr,
            you,
            N_("🏁 {player} wins round {round}!"),
            N_("🏁 You win round {round}!"),
            player=who,
            round=round_no,
        )
    if places:
        ranks = _sep(tr).join(f"{i}. {name}" for i, name in enumerate(places, 1))
        return tr.join([head, won, tr.gettext("Places: {places}.", places=ranks)])
    return tr.join([head, won])


# results that a notice of their own says (``info.round_won``, ``info.game_won``) and the
# table message states in its heading: never among its recent lines too
_SAID_ELSEWHERE = (RoundWon, GameWon)


def table_line(event: Event) -> bool:
    """Whether ``event`` (public) is one of a table message's recent lines: it has a line,
    and is not a result its notice and the table's heading say already."""
    return not isinstance(event, _SAID_ELSEWHERE) and has_line(event)


def has_line(event: Event) -> bool:
    """Whether ``event`` (as redacted for its reader) makes a line: in any language, with
    any names, it does or it does not. Only a ``CardsDrawn`` depends on more than its type
    (``event_line`` returns ``None`` for nothing else but a type it leaves out)."""
    if isinstance(event, CardsDrawn):
        return bool(_drawn(event, translator(None), {}))
    kind = type(event)
    found = _HAS_LINE.get(kind)
    if found is None:
        found = _HAS_LINE[kind] = bool(event_line(event, translator(None), {}))
    return found


_HAS_LINE: dict[type, bool] = {}


def recent_lines(
    info: TableInfo,
    tr: Translator,
    names: Mapping[str, str] | None = None,
    *,
    this_status: bool = False,
) -> list[str]:
    """The table's recent public lines (``info.recent``), oldest first, in ``tr``'s
    language, players named by ``names`` (the seats' names by default; a notice names
    who has left). ``this_status``: only those since the table's status last changed
    (the lobby's news is old news once dealt)."""
    names = info.names if names is None else names
    items = list(info.recent)
    if this_status:
        i = len(items)
        while i and items[i - 1].status == info.status:
            i -= 1
        items = items[i:]
    out = []
    for r in items:
        try:
            if isinstance(r.event, _SAID_ELSEWHERE):  # stored by an earlier version
                continue
            if r.event is not None:
                line = event_line(r.event, tr, names)
            elif r.code:
                line = notice_text(Notice(r.code, dict(r.params)), tr, names)
            else:  # stored by another version, unreadable here
                continue
        except (TypeError, ValueError, KeyError, AttributeError):
            # a line stored by another version that reads but does not render: the
            # table message must still show, without it
            log.warning("a recent line of table %s cannot be shown: %s", info.key, r.text)
            continue
        if line:
            out.append(line)
    return out


def event_lines(
    events: Iterable[Event], tr: Translator, names: Mapping[str, str], viewer: str | None = None
) -> list[str]:
    """The lines of several events, skipping those without one (``viewer``: see
    ``event_line``)."""
    out = []
    for e in events:
        line = event_line(e, tr, names, viewer)
        if line:
            out.append(line)
    return out


# -- notices: refusals and information ---------------------------------------------------------

REFUSAL_FALLBACK = N_("That is not possible right now.")

REFUSALS: dict[str, str] = {
    # engine.Code
    "bad_action": N_("That action is not possible."),
    "not_a_player": N_("You are not playing in this game."),
    "game_over": N_("The game is over."),
    "round_over": N_("The round is over: wait for the next one."),
    "round_in_progress": N_("A round is being played: wait until it ends."),
    "not_your_turn": N_("It is not your turn."),
    "card_not_in_hand": N_("You do not have that card."),
    "does_not_match": N_(
        "That card does not match: play the same colour, the same number or symbol, or a wild."
    ),
    "choose_color": N_("Choose a colour first."),
    "no_color_needed": N_("That card needs no colour."),
    "choose_target": N_("Choose the player to swap hands with."),
    "no_target_needed": N_("That card swaps with nobody."),
    "penalty_pending": N_("A penalty is waiting for you: stack on it or take the cards first."),
    "cannot_stack": N_("That card cannot be stacked on this penalty."),
    "nothing_pending": N_("There is no penalty to take."),
    "nothing_to_challenge": N_("There is no +4 to challenge."),
    "challenge_open": N_("Decide first: challenge the +4 or take the cards."),
    "must_play_drawn": N_("After drawing you may only play the card you drew."),
    "already_drawn": N_("You have drawn already: play that card or pass."),
    "must_play": N_("The card you drew can be played, so you must play it."),
    "nothing_to_pass": N_("You can only pass after drawing a card."),
    "wild_draw_four_illegal": N_(
        "You hold a card of the colour in play, so you may not play a +4."
    ),
    "not_as_last_card": N_("That card cannot be your last card."),
    "wild_draw_four_playable": N_("You hold a card you could play, so you may not play a +4."),
    "follow_color": N_("After a +2 was taken, the next card must be of its colour (or a +4)."),
    "uno_too_late": N_("Too late: at this table UNO is called with the card that leaves you one."),
    "first_play_number": N_("The first play of a round must be a number card."),
    "multi_play_off": N_("One card at a time at this table."),
    "bad_combination": N_("Those cards cannot be played together."),
    "no_jump_in": N_("You cannot jump in now."),
    "not_identical": N_(
        "Jumping in needs the identical card: same colour, same number or symbol."
    ),
    "not_one_card": N_("Call UNO when you are down to one card."),
    "already_called": N_("You have called UNO already."),
    "not_catchable": N_("Nobody to catch: they called UNO, or it is too late."),
    "cannot_catch_self": N_("You cannot catch yourself: call UNO instead!"),
    "no_window": N_("There is no UNO to catch now."),
    "game_full": N_("The game is full."),
    "already_seated": N_("You are already seated."),
    # bot.service
    "stale": N_("That button is out of date: the game has moved on."),
    "no_table": N_("There is no open table here."),
    "table_exists": N_("A table is already open here."),
    "already_joined": N_("You have joined already."),
    "table_full": N_("The table is full."),
    "teams_fixed": N_("Teams are fixed in a partners game: nobody can join until it ends."),
    "not_host": N_("Only the host can do that."),
    "not_seated": N_("That player is not at the table."),
    "not_mid_round": N_("Rules can only change before the game or between rounds."),
    "bad_setting": N_("That setting is not possible: {detail}"),
    "already_started": N_("The game has started already."),
    "not_enough_players": N_("At least two players are needed to start."),
    "not_started": N_("The game has not started yet."),
    "no_next_round": N_(
        "This game is a single round: nobody can join until it ends. Join the next game!"
    ),
}

INFOS: dict[str, str] = {
    "info.next_round": N_("You are in: you will be dealt in at the next round."),
    "info.left": N_("{player} left the table."),
    "info.kicked": N_("{player} was removed from the table."),
    "info.closed_empty": N_("Everyone has left: the table is closed."),
    "info.new_host": N_("{player} is the new host."),
    "info.stopped": N_("{player} stopped the game."),
    "info.revealed": N_("Hand of {player}: {cards}"),
    "info.round_won": N_("🏁 {player} wins the round! +{points}"),
    "info.afk_removed": N_("{player} timed out too many times and leaves the game."),
    "info.game_won": N_("🏆 {player} wins the game!"),
    "info.lobby_expired": N_("Nobody started the game in time: the table is closed."),
    "info.resumed": N_("The game is back where it was left: carry on."),
}
# the news about the reader, addressed to them (a screen that is theirs alone: the terminal)
INFOS_YOU: dict[str, str] = {
    "info.left": N_("You left the table."),
    "info.kicked": N_("You were removed from the table."),
    "info.new_host": N_("You are the new host."),
    "info.stopped": N_("You stopped the game."),
    "info.afk_removed": N_("You timed out too many times and leave the game."),
    "info.round_won": N_("🏁 You win the round! +{points}"),
    "info.game_won": N_("🏆 You win the game!"),
}
_STOPPED_BY_NOBODY = N_("The game was stopped.")
_ROUND_WON_NO_POINTS = N_("🏁 {player} wins the round!")
_GAME_OVER_NO_WINNER = N_("🏆 The game is over.")
_BAD_SETTING_PLAIN = N_("That setting is not possible.")
# why rules were refused (bot.service._setting_error's "reason")
_BAD_SETTING: dict[str, str] = {
    "value": N_("“{flag}” cannot take that value."),
    "value_range": N_("“{flag}” must be a number from {low} to {high}."),
    "value_choice": N_("“{flag}” can only be: {choices}."),
    "unknown_flag": N_("There is no such rule."),
    "preset": N_("There is no such preset: choose official, house or party."),
    "needs": N_("“{flag}” needs “{needs}” to be on first."),
    "deal": N_("That many cards cannot be dealt to this many players."),
    "seats": N_("This number of players cannot play with these rules."),
    "partners": N_("Partners need 4 or 6 players, and cannot be switched during a game."),
    "conflict": N_("“{flag}” cannot be combined with “{other}”."),
}


# refusals whose reason differs by platform (table key prefix): who else may do what the
# host may is each platform's own check
PLATFORM_REFUSALS: dict[str, dict[str, str]] = {
    "dc": {"not_host": N_("Only the host, or someone with Manage Channels here, can do that.")},
    "tg": {"not_host": N_("Only the host or a group admin can do that.")},
}


def notice_text(
    notice: Notice,
    tr: Translator,
    names: Mapping[str, str],
    platform: str | None = None,
    viewer: str | None = None,
) -> str:
    """A service notice in the reader's language: ``info.*`` codes are news, every other
    code is a refusal (``refuse.<code>`` is accepted too); an unknown one gets a generic
    refusal. ``platform`` (``dc``, ``tg``: a table key's prefix) picks the platform's own
    wording of a refusal where it has one (:data:`PLATFORM_REFUSALS`). ``viewer``: news
    about the reader addresses them (:data:`INFOS_YOU`; see ``event_line``)."""
    code = notice.code
    params = dict(notice.params)
    if code == "info.round_won" and isinstance(params.get("round"), int):
        # worded as the round's event line is: one wording wherever it shows
        pid = params.get("player")
        points, reason = params.get("points"), params.get("reason")
        places = params.get("places")
        return _round_won(
            names.get(pid or "") or str(params.get("name") or _name(names, pid)),
            params["round"],
            points if isinstance(points, int) else 0,
            reason if isinstance(reason, str) else None,
            tr,
            you=viewer is not None and pid == viewer,
            places=[
                tr.gettext("You") if viewer is not None and p == viewer else _name(names, str(p))
                for p in places
            ]
            if isinstance(places, list)
            else (),
        )
    you = INFOS_YOU.get(code)
    if viewer is not None and you is not None and params.get("player") == viewer:
        if code == "info.round_won" and not params.get("points"):
            return tr.gettext("🏁 You win the round!")
        return tr.format(you, **params)
    if "player" in params:  # a player who already left is no longer in names: "name" says
        pid = params["player"]
        params["player"] = names.get(pid) or notice.params.get("name") or _name(names, pid)
    if "target" in params:
        params["target"] = _name(names, params["target"])
    if "cards" in params:  # a revealed hand: in card order, as a hand is shown
        cards: list[Card] = []
        unread: list[str] = []
        for c in params["cards"] or ():
            try:
                cards.append(Card.parse(c))
            except ValueError:
                unread.append(str(c))
        shown = [card_text(c, tr) for c in sorted(cards, key=lambda c: c.order)] + unread
        params["cards"] = _sep(tr).join(shown) or "—"
    if code.startswith("info."):
        if code == "info.stopped" and notice.params.get("player") is None:
            return tr.gettext(_STOPPED_BY_NOBODY)
        if code == "info.game_won" and notice.params.get("player") is None:
            return tr.gettext(_GAME_OVER_NO_WINNER)
        if code == "info.round_won" and not notice.params.get("points"):
            return tr.format(_ROUND_WON_NO_POINTS, **params)
        msg = INFOS.get(code)
        if msg is None:
            return code
        return tr.format(msg, **params)
    code = code.removeprefix("refuse.")
    msg = PLATFORM_REFUSALS.get(platform or "", {}).get(code) or REFUSALS.get(code)
    if msg is None:
        return tr.gettext(REFUSAL_FALLBACK)
    if code == "bad_setting":
        reason = str(params.get("reason"))
        if reason == "value" and params.get("flag") in Rules.model_fields:
            # say what the rule accepts, so the host can try again
            flag = str(params["flag"])
            bounds = _int_bounds(flag)
            choices = _flag_choices(flag)
            if bounds is not None:
                low, high = bounds
                return tr.format(
                    _BAD_SETTING["value_range"], flag=flag_name(flag, tr), low=low, high=high
                )
            if choices:
                return tr.format(
                    _BAD_SETTING["value_choice"],
                    flag=flag_name(flag, tr),
                    # " / ": some values have a comma of their own
                    choices=" / ".join(flag_value(flag, c, tr) for c in choices),
                )
        why = _BAD_SETTING.get(reason)
        if why is not None and not reason.startswith("value_"):
            for key in ("flag", "needs", "other"):
                if key in params:
                    params[key] = flag_name(str(params[key]), tr)
            return tr.format(why, **params)
        if not params.get("detail") or tr.lang != "en":  # the detail is English only
            return tr.gettext(_BAD_SETTING_PLAIN)
    return tr.format(msg, **params)


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


# -- scores and the table ---------------------------------------------------------------------


def scores_text(
    scores: Mapping[str, int],
    tr: Translator,
    names: Mapping[str, str],
    *,
    low_wins: bool = False,
) -> str:
    """One line per player, best first (``low_wins`` for penalty scoring)."""
    return _scores(scores, tr, names, low_wins=low_wins)


def _scores(
    scores: Mapping[str, int],
    tr: Translator,
    names: Mapping[str, str],
    *,
    low_wins: bool = False,
    teams: Mapping[str, int] | None = None,
) -> str:
    """``scores_text``; with ``teams`` (partners) one line per team, since both partners'
    entries hold the team's total."""
    entries: list[tuple[str, int]] = []
    if teams:
        members: dict[int, list[str]] = {}
        for p in scores:
            members.setdefault(teams.get(p, -1 - len(members)), []).append(p)
        for group in members.values():
            label = " & ".join(_name(names, p) for p in group)
            entries.append((label, max(scores[p] for p in group)))
    else:
        entries = [(_name(names, p), points) for p, points in scores.items()]
    entries.sort(key=lambda kv: kv[1] if low_wins else -kv[1])
    lines = []
    for i, (who, points) in enumerate(entries):
        # a medal is for points scored; under penalty scoring few points are the merit
        earned = points > 0 or low_wins
        medal = ("🥇", "🥈", "🥉")[i] if i < 3 and earned else f"{i + 1}."
        lines.append(
            tr.ngettext(
                "{rank} {player}: {n} point", "{rank} {player}: {n} points", points,
                rank=medal, player=who,
            )
        )  # fmt: skip
    return "\n".join(lines)


def _top_line(top: Card, color: Color | None, tr: Translator, picture: str | None = None) -> str:
    card = card_text(top, tr) if picture is None else f"{picture} {card_text(top, tr)}"
    if color is None:
        return tr.gettext("Top card: {card} (colour to be named)", card=card)
    if top.is_wild or color is not top.color:
        return tr.gettext("Top card: {card} → {color}", card=card, color=color_text(color, tr))
    return tr.gettext("Top card: {card}", card=card)


def _follow_line(color: Color, tr: Translator) -> str:
    """after_penalty=same_color, after a taken +2."""
    return tr.gettext(
        "After the +2: the next card must be {color} (or a +4).", color=color_text(color, tr)
    )


def _turn_line(v: View, tr: Translator, names: Mapping[str, str]) -> str | None:
    if v.current is None:
        return None
    who = _name(names, v.current)
    if v.phase is Phase.CHOOSING_COLOR:
        return tr.gettext("▶ {player} is choosing a colour.", player=who)
    if v.phase is Phase.CHALLENGE:
        return tr.gettext(
            "▶ {player} faces +{total}: challenge {offender}'s +4 within {seconds} s, "
            "or take the cards.",
            player=who,
            total=v.pending_draw,
            offender=_name(names, v.challenge_from),
            seconds=v.rules.challenge_seconds,
        )
    if v.pending_draw:
        return tr.gettext(
            "▶ {player} faces +{total}: stack on it or take the cards.",
            player=who,
            total=v.pending_draw,
        )
    return tr.gettext("▶ Turn: {player}", player=who)


def _player_line(info: TableInfo, v: View, p: str, tr: Translator) -> str:
    names = info.names
    mark = "▶" if p == v.current else "•"
    n = v.counts.get(p, 0)
    line = f"{mark} " + tr.ngettext(
        "{player}: {n} card", "{player}: {n} cards", n, player=_name(names, p)
    )
    tags = []
    if info.is_bot(p):
        tags.append("🤖")
    if p == v.dealer:
        tags.append(tr.gettext("(dealer)"))
    if v.teams is not None and p in v.teams:
        tags.append(tr.gettext("(team {team})", team=v.teams[p] + 1))
    if p in v.places:
        tags.append(tr.gettext("🏅 place {place}", place=v.places.index(p) + 1))
    if p in v.exposed:
        tags.append(tr.gettext("❗ no UNO!"))
    elif p in v.called and n == 1:
        tags.append("📢 UNO")
    text = " ".join([line, *tags])
    return text.replace(" （", "（") if tr.is_chinese else text


def seat_lines(info: TableInfo, tr: Translator) -> list[str]:
    """The seats of the round in play, one line each, as the table message shows them:
    whose turn, how many cards, bot, dealer, team, UNO (``[]`` between games)."""
    v = info.view
    if v is None or v.phase not in (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE):
        return []
    return [_player_line(info, v, p, tr) for p in v.players]


def table_text(
    info: TableInfo,
    tr: Translator,
    recent: Sequence[str] = (),
    *,
    top_picture: str | None = None,
) -> str:
    """The public table message: the lobby, the game in play, or its end.

    Made from the public view only, so it never shows a hand. ``top_picture``: the top
    card's picture in the platform's markup (a Discord emoji), put before its name."""
    names = info.names
    v = info.view
    lines: list[str] = []
    if info.status == "lobby" or v is None:
        lobby = info.status == "lobby"
        lines.append(tr.gettext("🎴 UNO — waiting for players") if lobby else "🎴 UNO")
        lines.append(tr.gettext("Host: {player}", player=_name(names, info.host)))
        rules_line = preset_name(info.preset, tr)
        base = info.preset if info.preset in PRESET_NAMES else "official"
        changed = len(info.rules.overrides(base))
        if changed:
            rules_line = tr.ngettext(
                "{preset} + {n} change", "{preset} + {n} changes", changed, preset=rules_line
            )
        lines.append(tr.gettext("Rules: {rules}", rules=rules_line))
        seats = info.seats
        lines.append(tr.gettext("Players ({n}/{max}):", n=len(seats), max=10 * info.rules.decks))
        if not seats:
            lines.append(tr.gettext("Nobody has joined yet."))
        # partners sit opposite: with 4 or 6 seats, seat i plays in team i mod (seats / 2)
        halves = len(seats) // 2 if info.rules.partners and len(seats) in (4, 6) else 0
        for i, s in enumerate(seats, 1):
            tags = []
            if s.id == info.host:
                tags.append("👑")
            if s.bot is not None:
                tags.append("🤖")
            if halves:
                tags.append(tr.gettext("(team {team})", team=(i - 1) % halves + 1))
            text = " ".join([f"{i}. {s.name}", *tags])
            lines.append(text.replace(" （", "（") if tr.is_chinese else text)
        if lobby:
            lines.append("")
            if info.rules.partners and not halves:
                lines.append(tr.gettext("👥 Partners: the game needs exactly 4 or 6 players."))
            lines.append(
                tr.gettext(
                    "Press “{join}” to sit down; the host presses “{start}” once two or more "
                    "have joined.",
                    join=button_label("join", tr),
                    start=button_label("start", tr),
                )
            )
        else:
            lines.append(tr.gettext("⏹ The table is closed."))
        if recent:  # lobby news too: who left, who was removed
            lines.append("")
            lines.extend(recent)
        return "\n".join(lines)

    rules = v.rules
    low_wins = rules.scoring == "penalty"
    over = info.status in ("finished", "stopped") or v.phase is Phase.GAME_OVER

    def scores() -> str:
        # fixed partners share their total; rotating ones (partners=rotate) keep their own
        teams = v.teams if rules.partners is True else None
        return _scores(v.scores, tr, names, low_wins=low_wins, teams=teams)

    if v.phase is Phase.GAME_OVER or (info.status == "finished" and v.winner is not None):
        lines.append(tr.gettext("🏆 {player} wins the game!", player=_name(names, v.winner)))
        lines.append(
            tr.gettext("Final scores (lowest wins):") if low_wins else tr.gettext("Final scores:")
        )
        lines.append(scores())
    elif info.status == "stopped":
        lines.append(tr.gettext("⏹ The game was stopped."))
        lines.append(tr.gettext("Scores:"))
        lines.append(scores())
    elif v.phase is Phase.ROUND_OVER:
        # who won it is the news of it (``info.round_won``): the table keeps the scores
        lines.append(tr.gettext("🏁 Scores after round {round}:", round=v.round))
        lines.append(scores())
        if rules.target and low_wins:
            lines.append(
                tr.ngettext(
                    "The game ends when someone reaches {n} point; the lowest total wins.",
                    "The game ends when someone reaches {n} points; the lowest total wins.",
                    rules.target,
                )
            )
        elif rules.target:
            lines.append(
                tr.ngettext("Playing to {n} point.", "Playing to {n} points.", rules.target)
            )
        lines.append(
            tr.gettext(
                "The next round starts soon, or press “{next}”.",
                next=button_label("next_round", tr),
            )
        )
    else:
        lines.append(tr.gettext("🎴 UNO — round {round}", round=v.round))
        lines.append(_top_line(v.top, v.color, tr, top_picture))
        lines.append(
            tr.ngettext(
                "Direction: {direction} · draw pile: {n} card",
                "Direction: {direction} · draw pile: {n} cards",
                v.draw_pile_size,
                direction=direction_text(v.direction, tr),
            )
        )
        turn = _turn_line(v, tr, names)
        if turn:
            lines.append(turn)
        if v.follow and v.color is not None:
            lines.append(_follow_line(v.color, tr))
        lines.append("")
        for p in v.players:
            lines.append(_player_line(info, v, p, tr))
        if any(v.scores.values()):
            lines.append("")
            if not rules.target:
                lines.append(tr.gettext("Scores:"))
            elif low_wins:
                lines.append(
                    tr.ngettext(
                        "Scores (the game ends at {n} point; lowest wins):",
                        "Scores (the game ends at {n} points; lowest wins):",
                        rules.target,
                    )
                )
            else:
                lines.append(
                    tr.ngettext("Scores (to {n} point):", "Scores (to {n} points):", rules.target)
                )
            lines.append(scores())
    waiting = () if over else info.waiting
    if waiting:
        lines.append(
            tr.gettext(
                "Joining next round: {players}",
                players=_sep(tr).join(_name(names, w) for w in waiting),
            )
        )
    if recent:
        lines.append("")
        lines.extend(recent)
    return "\n".join(lines)


# -- a player's own hand ----------------------------------------------------------------------


def _hand_lines(hand: Sequence[Card], tr: Translator) -> list[str]:
    """One line per colour (then the wilds), cards in rank order."""
    groups: dict[Color | None, list[Card]] = {}
    for c in sorted(hand, key=lambda c: c.order):
        groups.setdefault(c.color, []).append(c)
    lines = []
    for color, cards in groups.items():
        mark = WILD_MARK if color is None else COLOR_EMOJI[color]
        lines.append(f"{mark} " + " · ".join(_rank_text(c, tr) for c in cards))
    return lines


def _must_play_drawn(v: View) -> bool:
    """``force_play``: the drawn card must be played (``Pass`` is not offered), unless it
    is a +4 that would be a bluff (RULES.md section 2, ``force_play``)."""
    drawn = v.drawn
    if drawn is None or not v.rules.force_play:
        return False
    if drawn.rank is Rank.WILD_DRAW_FOUR and v.rules.wild_draw_four == "challenge":
        return draw_four_legal(v)
    return True


def _waiting_line(v: View, tr: Translator, names: Mapping[str, str]) -> str:
    """Whose move it is, and what they are deciding, seen from another player's hand."""
    who = _name(names, v.current)
    if v.phase is Phase.CHOOSING_COLOR:
        return tr.gettext("Waiting for {player} to choose a colour.", player=who)
    if v.phase is Phase.CHALLENGE:
        return tr.gettext(
            "Waiting for {player} to challenge the +4 or take {total} cards.",
            player=who,
            total=v.pending_draw,
        )
    if v.pending_draw:
        return tr.gettext(
            "Waiting for {player} to stack on the +{total} or take the cards.",
            player=who,
            total=v.pending_draw,
        )
    return tr.gettext("Waiting for {player}.", player=who)


def hand_text(view: View, tr: Translator, names: Mapping[str, str] | None = None) -> str:
    """A player's private view: their cards (by colour, then rank), the top card and
    colour, whose turn it is, a pending penalty, the card they just drew."""
    names = names or {}
    v = view
    if v.hand is None or v.viewer is None:
        return tr.gettext(REFUSALS["not_a_player"])
    lines = [tr.gettext("🃏 Your cards ({n}):", n=len(v.hand))]
    lines.extend(_hand_lines(v.hand, tr) or [tr.gettext("(no cards)")])
    lines.append("")
    lines.append(_top_line(v.top, v.color, tr))
    me = v.viewer
    if v.phase is Phase.GAME_OVER:
        lines.append(tr.gettext(REFUSALS["game_over"]))
    elif v.phase is Phase.ROUND_OVER:
        lines.append(tr.gettext("The round is over."))
    elif v.current == me:
        if v.phase is Phase.CHOOSING_COLOR:
            lines.append(tr.gettext("▶ Choose a colour."))
        elif v.phase is Phase.CHALLENGE:
            lines.append(
                tr.gettext(
                    "▶ {offender} played a +4 on you: take {total} cards, or challenge within "
                    "{seconds} s. If they held a card of the colour they changed from, they "
                    "draw {total}; if not, you draw {more}.",
                    offender=_name(names, v.challenge_from),
                    total=v.pending_draw,
                    more=v.pending_draw + 2,
                    seconds=v.rules.challenge_seconds,
                )
            )
        elif v.pending_draw:
            lines.append(
                tr.gettext(
                    "▶ +{total} is coming your way: stack on it, or take the cards.",
                    total=v.pending_draw,
                )
            )
        elif v.drawn is not None and _must_play_drawn(v):
            lines.append(
                tr.gettext(
                    "▶ You drew {card}: it can be played, so you must play it.",
                    card=card_text(v.drawn, tr),
                )
            )
        elif v.drawn is not None:
            lines.append(
                tr.gettext("▶ You drew {card}: play it, or pass.", card=card_text(v.drawn, tr))
            )
        else:
            lines.append(tr.gettext("▶ Your turn!"))
            if v.follow and v.color is not None:
                lines.append(_follow_line(v.color, tr))
    elif v.current is not None:
        lines.append(_waiting_line(v, tr, names))
    active = v.phase in (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE)
    if active and me in v.places:
        lines.append(tr.gettext("🏅 You are out: place {place}.", place=v.places.index(me) + 1))
    if me in v.silent:  # uno_call=with_play: the call had to come with the play
        lines.append(tr.gettext("❗ You did not call UNO with your card: too late now."))
    elif me in v.exposed or (active and len(v.hand) == 1 and me not in v.called):
        lines.append(tr.gettext("❗ One card left: call UNO!"))
    elif active and v.rules.uno_call == "with_play" and len(v.hand) == 2 and v.current == me:
        lines.append(tr.gettext("📢 UNO is called with your next-to-last card: play it with UNO!"))
    others = [p for p in v.exposed if p != me]
    if active and others:
        lines.append(
            tr.gettext(
                "🎯 {players} did not call UNO: catch them!",
                players=_sep(tr).join(_name(names, p) for p in others),
            )
        )
    return "\n".join(lines)


# -- statistics -------------------------------------------------------------------------------


def leaderboard_text(lines: Sequence[StatLine], tr: Translator) -> str:
    """The best players of a scope, one line each, as the store ranked them."""
    out = [tr.gettext("🏆 Leaderboard")]
    if not lines:
        out.append(tr.gettext("No games finished yet."))
    for i, s in enumerate(lines, 1):
        out.append(
            tr.gettext(
                "{rank}. {player}: {wins}, {games}, {points}",
                rank=i,
                player=s.name,
                wins=tr.ngettext("{n} win", "{n} wins", s.wins),
                games=tr.ngettext("{n} game", "{n} games", s.games),
                points=tr.ngettext("{n} point", "{n} points", s.points),
            )
        )
    return "\n".join(out)


def stats_text(line: StatLine | None, tr: Translator) -> str:
    """One player's statistics."""
    if line is None or not (
        line.games or line.rounds_won or line.cards_played or line.rounds_placed
    ):
        return tr.gettext("No statistics yet: finish a game first.")
    rate = round(100 * line.wins / line.games) if line.games else 0
    lines = [
        tr.gettext("📊 {player}", player=line.name),
        tr.gettext("Games played: {n}", n=line.games),
        tr.gettext("Games won: {n} ({rate}%)", n=line.wins, rate=rate),
        tr.gettext("Rounds won: {n}", n=line.rounds_won),
        tr.gettext("Points: {n}", n=line.points),
        tr.gettext("Cards played: {n}", n=line.cards_played),
    ]
    if line.rounds_placed:  # rounds played out for places (the places rule)
        lines.append(
            tr.ngettext(
                "Average place: {place} (over {n} round played for places)",
                "Average place: {place} (over {n} rounds played for places)",
                line.rounds_placed,
                place=f"{line.places_total / line.rounds_placed:.1f}",
            )
        )
    return "\n".join(lines)


# -- help ------------------------------------------------------------------------------------

COMMANDS: dict[str, str] = {
    "new": N_("open a table in this chat"),
    "join": N_("sit down at the table"),
    "start": N_("deal the cards (host)"),
    "leave": N_("leave the table"),
    "kick": N_("remove a player (host)"),
    "stop": N_("end the game (host)"),
    "hand": N_("see your cards privately"),
    "rules": N_("show this table's rules"),
    "settings": N_("change the rules (host)"),
    "stats": N_("your statistics"),
    "leaderboard": N_("the best players here"),
    "language": N_("choose your language"),
    "addbot": N_("add a bot player (host)"),
    "help": N_("how to play"),
}


def command_help(command: str, tr: Translator) -> str:
    """A command's one-line description (``setMyCommands``, slash command descriptions)."""
    msg = COMMANDS.get(command)
    return tr.gettext(msg) if msg is not None else ""


def help_text(tr: Translator, platform: str) -> str:
    """How to play and the commands, as written on ``platform`` (``discord``: ``/uno new``,
    ``telegram``: ``/new``, anything else: ``/new`` too)."""
    prefix = "/uno " if platform == "discord" else "/"
    lines = [
        tr.gettext("🎴 UNO — how to play"),
        tr.gettext(
            "Match the top card by colour, number or symbol, or play a wild. Cannot or would "
            "rather not? Draw a card. Down to one card? Call UNO! before someone catches you. "
            "Empty your hand first to win the round; the others' cards are your points."
        ),
        "",
        tr.gettext("Commands:"),
    ]
    for cmd, msg in COMMANDS.items():
        lines.append(f"{prefix}{cmd} — {tr.gettext(msg)}")
    return "\n".join(lines)
