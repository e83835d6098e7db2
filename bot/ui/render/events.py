"""One line per engine event, in the reader's language (addressed to them when ``viewer``
is theirs): ``event_line`` and the families of events it reads."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from bot.ui.i18n import N_, Translator, translator
from bot.ui.render.card_text import _name, _sep, card_text, cards_text, color_text, direction_text
from engine import (
    Card,
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    ColorChosen,
    DeckReshuffled,
    DirectionReversed,
    Event,
    GameWon,
    HandsRotated,
    HandsSwapped,
    Passed,
    PenaltyPassed,
    PenaltyStacked,
    PlayerFinished,
    PlayerJoined,
    PlayerLeft,
    RoundStarted,
    RoundWon,
    TurnSkipped,
    TurnTimedOut,
    UnoCalled,
    UnoCaught,
    UnoFalseAlarm,
    UnoWindowClosed,
)

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
    return _with_cards(_draw_line(reason, n, you, who, tr), e.cards, tr)


def _draw_line(reason: str, n: int, you: bool, who: str, tr: Translator) -> str:
    """Why ``who`` draws ``n`` cards (a penalty taken, no number to open with, an action
    card as the last card) or just that they drew."""
    if reason == "penalty":
        return (
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
    if reason == "first_play":
        return (
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
    if reason == "last_card":
        return (
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
    return (
        tr.ngettext("You drew {n} card.", "You drew {n} cards.", n, player=who)
        if you
        else tr.ngettext("{player} drew {n} card.", "{player} drew {n} cards.", n, player=who)
    )


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


def _turn_line(
    e: TurnSkipped | DirectionReversed | Passed | TurnTimedOut,
    tr: Translator,
    names: Mapping[str, str],
    me: str | None,
) -> str:
    """Who plays next: a turn skipped, the direction reversed, a pass, a timeout."""
    if isinstance(e, DirectionReversed):
        return tr.gettext(
            "Direction reversed: play now goes {direction}.",
            direction=direction_text(e.direction, tr),
        )
    who = _name(names, e.player)
    if isinstance(e, TurnSkipped):
        return _you(
            tr, e.player == me, N_("{player} is skipped."), N_("You are skipped."), player=who
        )
    if isinstance(e, Passed):
        return _you(tr, e.player == me, N_("{player} passes."), N_("You pass."), player=who)
    return _you(
        tr,
        e.player == me,
        N_("{player} ran out of time."),
        N_("You ran out of time."),
        player=who,
    )


def _color_line(e: ColorChosen, tr: Translator, names: Mapping[str, str], me: str | None) -> str:
    """A wild's colour: named, picked at random, or kept."""
    color = color_text(e.color, tr)
    you = e.player == me
    who = _name(names, e.player)
    if e.random:
        return _you(
            tr,
            you,
            N_("{color} was picked at random for {player}."),
            N_("{color} was picked at random for you."),
            color=color,
            player=who,
        )
    if e.kept:  # color_timeout=keep: no colour named, the one before stays
        return _you(
            tr,
            you,
            N_("{player} named no colour: {color} stays."),
            N_("You named no colour: {color} stays."),
            color=color,
            player=who,
        )
    return _you(
        tr, you, N_("{player} chose {color}."), N_("You chose {color}."), player=who, color=color
    )


def _penalty_line(
    e: PenaltyStacked | PenaltyPassed, tr: Translator, names: Mapping[str, str], me: str | None
) -> str:
    """A pending penalty grows (stacked) or moves on (deflected, passed with a Wild)."""
    if isinstance(e, PenaltyStacked):
        return _you(
            tr,
            e.player == me,
            N_("{player} stacks! The penalty is now +{total}."),
            N_("You stack! The penalty is now +{total}."),
            player=_name(names, e.player),
            total=e.total,
        )
    third, by_you, to_you = _PASSED.get(e.how, _PASSED["skip"])
    msg = by_you if e.player == me else to_you if e.to == me else third
    return tr.gettext(msg, player=_name(names, e.player), to=_name(names, e.to), total=e.total)


def _uno_line(
    e: UnoCalled | UnoCaught | UnoWindowClosed,
    tr: Translator,
    names: Mapping[str, str],
    me: str | None,
) -> str | None:
    """UNO called, or a player caught without it (a closed catch window says nothing)."""
    if isinstance(e, UnoCalled):
        return _you(
            tr,
            e.player == me,
            N_("{player} calls UNO!"),
            N_("You call UNO!"),
            player=_name(names, e.player),
        )
    if not isinstance(e, UnoCaught):
        return None
    by, player = _name(names, e.by), _name(names, e.target)
    if me is not None and e.target == me:
        return tr.ngettext(
            "{by} caught you without UNO! You draw {n} card.",
            "{by} caught you without UNO! You draw {n} cards.",
            e.penalty,
            by=by,
        )
    if e.by == me:
        return tr.ngettext(
            "You caught {player} without UNO! {player} draws {n} card.",
            "You caught {player} without UNO! {player} draws {n} cards.",
            e.penalty,
            by=by,
            player=player,
        )
    return tr.ngettext(
        "{by} caught {player} without UNO! {player} draws {n} card.",
        "{by} caught {player} without UNO! {player} draws {n} cards.",
        e.penalty,
        by=by,
        player=player,
    )


def _false_uno_line(
    e: UnoFalseAlarm, tr: Translator, names: Mapping[str, str], me: str | None
) -> str:
    """A wrong UNO: called without one card, or a catch of a player who was safe."""
    you = e.player == me
    who = _name(names, e.player)
    if e.target is None:
        if you:
            return tr.ngettext(
                "You called UNO without one card and draw {n} card.",
                "You called UNO without one card and draw {n} cards.",
                e.penalty,
                player=who,
            )
        return tr.ngettext(
            "{player} called UNO without one card and draws {n} card.",
            "{player} called UNO without one card and draws {n} cards.",
            e.penalty,
            player=who,
        )
    if me is not None and e.target == me:
        return tr.ngettext(
            "{player} tried to catch you while you were safe, and draws {n} card.",
            "{player} tried to catch you while you were safe, and draws {n} cards.",
            e.penalty,
            player=who,
        )
    if you:
        return tr.ngettext(
            "You tried to catch {target}, who was safe, and draw {n} card.",
            "You tried to catch {target}, who was safe, and draw {n} cards.",
            e.penalty,
            player=who,
            target=_name(names, e.target),
        )
    return tr.ngettext(
        "{player} tried to catch {target}, who was safe, and draws {n} card.",
        "{player} tried to catch {target}, who was safe, and draws {n} cards.",
        e.penalty,
        player=who,
        target=_name(names, e.target),
    )


def _hands_line(
    e: HandsSwapped | HandsRotated, tr: Translator, names: Mapping[str, str], me: str | None
) -> str:
    """Hands change owners: two swapped (7-0, 5), or every hand passed one seat on."""
    if isinstance(e, HandsRotated):
        return tr.gettext(
            "Every hand passes one seat on ({direction}).",
            direction=direction_text(e.direction, tr),
        )
    if me is not None and e.target == me:
        return tr.gettext("{player} swaps hands with you!", player=_name(names, e.player))
    return _you(
        tr,
        e.player == me,
        N_("{player} swaps hands with {target}!"),
        N_("You swap hands with {target}!"),
        player=_name(names, e.player),
        target=_name(names, e.target),
    )


def _deck_line(e: DeckReshuffled, tr: Translator, names: Mapping[str, str], me: str | None) -> str:
    """The deck is shuffled: a +4 start card back in, or the discards into a new pile."""
    if e.reason == "start":
        return tr.gettext(
            "A +4 turned up first: it cannot start a round, so it was shuffled back into the deck."
        )
    return tr.ngettext(
        "The discard pile is shuffled into a new draw pile of {n} card.",
        "The discard pile is shuffled into a new draw pile of {n} cards.",
        e.size,
    )


def _seat_line(
    e: PlayerLeft | PlayerJoined, tr: Translator, names: Mapping[str, str], me: str | None
) -> str:
    """A player joins or leaves the game."""
    if isinstance(e, PlayerJoined):
        return _you(
            tr,
            e.player == me,
            N_("{player} joins the game."),
            N_("You join the game."),
            player=_name(names, e.player),
        )
    return _you(
        tr,
        e.player == me,
        N_("{player} left the game."),
        N_("You left the game."),
        player=_name(names, e.player),
    )


def _result_line(
    e: PlayerFinished | RoundWon | GameWon,
    tr: Translator,
    names: Mapping[str, str],
    me: str | None,
) -> str:
    """A player out for a place, a round won, the game won."""
    who = _name(names, e.player)
    if isinstance(e, PlayerFinished):
        return _you(
            tr,
            e.player == me,
            N_("🏅 {player} is out of cards: place {place}! The others play on."),
            N_("🏅 You are out of cards: place {place}! The others play on."),
            player=who,
            place=e.place,
        )
    if isinstance(e, RoundWon):
        return _round_won(
            who,
            e.round,
            e.points,
            e.reason,
            tr,
            you=e.player == me,
            places=[tr.gettext("You") if p == me else _name(names, p) for p in e.places],
        )
    return _you(
        tr,
        e.player == me,
        N_("🏆 {player} wins the game!"),
        N_("🏆 You win the game!"),
        player=who,
    )


# each kind of event, and the function of its family that writes its line
_LINES: dict[type, Callable[[Any, Translator, Mapping[str, str], str | None], str | None]] = {
    CardPlayed: _played,
    CardsDrawn: _drawn,
    TurnSkipped: _turn_line,
    DirectionReversed: _turn_line,
    Passed: _turn_line,
    TurnTimedOut: _turn_line,
    ColorChosen: _color_line,
    PenaltyStacked: _penalty_line,
    PenaltyPassed: _penalty_line,
    UnoCalled: _uno_line,
    UnoCaught: _uno_line,
    UnoWindowClosed: _uno_line,
    UnoFalseAlarm: _false_uno_line,
    ChallengeResolved: _challenge_line,
    HandsSwapped: _hands_line,
    HandsRotated: _hands_line,
    DeckReshuffled: _deck_line,
    PlayerLeft: _seat_line,
    PlayerJoined: _seat_line,
    PlayerFinished: _result_line,
    RoundWon: _result_line,
    GameWon: _result_line,
    RoundStarted: _round_started,
}


def event_line(
    event: Event, tr: Translator, names: Mapping[str, str], viewer: str | None = None
) -> str | None:
    """One line for one event, or ``None`` for an event nobody needs to read.

    Cards an event carries are shown (a drawer's own draw, a challenged hand): the caller
    passes events already redacted for the reader. ``viewer``: the reader's id, for a
    screen that is theirs alone (the terminal); the lines about them address them ("You
    pass.", "Bob caught you without UNO!"). The chat tables leave it out: their lines are
    public, in the third person."""
    for kind in type(event).__mro__:  # a subclass of an event reads as that event
        line = _LINES.get(kind)
        if line is not None:
            return line(event, tr, names, viewer)
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
    and is not a result its notice and the table's heading say already. The service keeps
    a table's recent lines deciding the same on the events alone
    (``bot.service.runner.recent_event``; a test checks that the two agree)."""
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
