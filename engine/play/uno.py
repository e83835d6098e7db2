"""Calling UNO (``CallUno``) and catching a player who did not (``CatchUno``); what a play
leaving one card does to the calls (the call that comes with a play, ``uno_call``).

A player is *exposed* after coming down to one card without calling; every other seated
player may catch them until a turn action closes the window. ``false_uno_penalty``: a call
or a catch that is wrong costs the caller that many cards.
"""

from __future__ import annotations

from engine.actions import Action, CatchUno, Play
from engine.errors import Code
from engine.events import Event, UnoCalled, UnoCaught, UnoFalseAlarm
from engine.game import Game
from engine.play.base import (
    CALL_UNO,
    Refusal,
    catch_of,
    check,
    give,
    without,
)
from engine.play.last_card import draws_on_going_out
from engine.rules import Rules

_TOO_LATE: Refusal = (Code.UNO_TOO_LATE, "UNO is called with the play at this table")
_ALREADY_CALLED: Refusal = (Code.ALREADY_CALLED, "UNO was called already")
_NOT_ONE_CARD: Refusal = (Code.NOT_ONE_CARD, "UNO is called holding one card")
_SELF: Refusal = (Code.CANNOT_CATCH_SELF, "you cannot catch yourself")

# ---------------------------------------------------------------------------- CallUno


def call_refusal(g: Game, s: int) -> Refusal | None:
    """Why seat ``s`` may not call UNO now (``None``: it may). Holding one card and not
    called since coming down to it; under ``uno_call=with_play`` not after a play that
    left one card without the call (seed 001: "必须在倒数第2张牌落地的时候喊出"). With
    ``false_uno_penalty`` any player holding cards may call, at that cost."""
    pid = g.players_[s]
    n = len(g.hands[s])
    if n == 1:
        if pid in g.silent:
            return _TOO_LATE
        if pid in g.called:
            return _ALREADY_CALLED
        return None
    # a player out of the round (places) holds nothing: no false alarm brings cards back
    if n and g.fl.false_uno_penalty:
        return None
    return _NOT_ONE_CARD


def verify_call_uno(g: Game, s: int) -> None:
    check(call_refusal(g, s))


def can_call_uno(g: Game, s: int) -> bool:
    return call_refusal(g, s) is None


def do_call_uno(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    if len(g.hands[s]) == 1:
        g.called = (*g.called, pid)
        g.exposed = without(g.exposed, pid)
        ev.append(UnoCalled(pid))
        return
    pen = g.rules.false_uno_penalty
    ev.append(UnoFalseAlarm(pid, pen))
    give(g, s, pen, "false_uno", ev)


# ---------------------------------------------------------------------------- CatchUno


def catch_targets(g: Game, s: int) -> list[str]:
    """Whom seat ``s`` may catch, in listing order: every exposed player but themselves;
    with ``false_uno_penalty`` (and cards in hand) also every other player holding cards."""
    pid = g.players_[s]
    out = [t for t in g.exposed if t != pid]
    if g.fl.false_uno_penalty and g.hands[s]:
        hands = g.hands
        exposed = g.exposed
        out.extend(
            t for i, t in enumerate(g.players_) if t != pid and t not in exposed and hands[i]
        )
    return out


def catch_refusal(g: Game, s: int, target: str) -> Refusal | None:
    if target == g.players_[s]:
        return _SELF
    if target not in catch_targets(g, s):
        return (Code.NOT_CATCHABLE, f"{target} cannot be caught now")
    return None


def verify_catch_uno(g: Game, s: int, target: str) -> None:
    check(catch_refusal(g, s, target))


def can_catch_uno(g: Game, s: int, target: str) -> bool:
    return catch_refusal(g, s, target) is None


def do_catch_uno(g: Game, s: int, a: CatchUno, ev: list[Event]) -> None:
    pid = g.players_[s]
    target = a.target
    if target in g.exposed:
        g.exposed = without(g.exposed, target)
        pen = g.rules.uno_penalty
        ev.append(UnoCaught(pid, target, pen))
        give(g, g.seat[target], pen, "uno", ev)
        return
    pen = g.rules.false_uno_penalty
    ev.append(UnoFalseAlarm(pid, pen, target))
    give(g, s, pen, "false_uno", ev)


# ---------------------------------------------------------------------------- listing


def list_uno(g: Game, s: int, out: list[Action]) -> None:
    """The calls and catches seat ``s`` may make now (any player, in turn or not)."""
    if call_refusal(g, s) is None:
        out.append(CALL_UNO)
    if g.exposed or g.fl.false_uno_penalty:  # else nobody to catch: skip building the list
        for t in catch_targets(g, s):
            out.append(catch_of(t))


# ---------------------------------------------------------------------------- with a play


def leaves_one_card(rules: Rules, held: int, play: Play, target_held: int | None = None) -> bool:
    """Whether ``play``, from a hand of ``held`` cards, leaves its player holding one card:
    the play UNO is called with (``Play(..., uno=True)``). One card left over; and under
    ``uno_call=with_play``, where a call after the play is too late, also a last action
    card or wild under ``last_card=play_and_draw`` (its draw leaves one) and a swap with a
    player holding one card (``target_held``)."""
    left = held - 1 - len(play.together)
    if rules.uno_call == "with_play":
        if play.target is not None and left > 0:
            return target_held == 1
        if left == 0:
            return draws_on_going_out(rules, play.card)
    return left == 1


def after_play(g: Game, pid: str, uno: bool, ev: list[Event]) -> None:
    """Player ``pid`` has just come down to one card by a play (no swap): called with the
    play (``uno=True``) or exposed; under ``uno_call=with_play`` a later call is too late."""
    g.called = without(g.called, pid)
    if uno:
        g.called = (*g.called, pid)
        g.exposed = without(g.exposed, pid)
        g.silent = without(g.silent, pid)
        ev.append(UnoCalled(pid))
    else:
        if pid not in g.exposed:
            g.exposed = (*g.exposed, pid)
        if g.fl.uno_call == "with_play" and pid not in g.silent:
            g.silent = (*g.silent, pid)  # seed 001: "必须在倒数第2张牌落地的时候喊出"
