"""Calling UNO (CallUno) and catching a player who did not (CatchUno)."""

from __future__ import annotations

from engine.actions import (
    Play,
)
from engine.events import (
    Event,
    UnoCalled,
    UnoCaught,
    UnoFalseAlarm,
)
from engine.game import Game
from engine.play.base import give, without
from engine.rules import Rules


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
            return rules.last_card == "play_and_draw" and not play.card.is_number
    return left == 1


def do_call(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    if len(g.hands[s]) == 1:
        g.called = (*g.called, pid)
        g.exposed = without(g.exposed, pid)
        ev.append(UnoCalled(pid))
        return
    pen = g.rules.false_uno_penalty
    ev.append(UnoFalseAlarm(pid, pen))
    give(g, s, pen, "false_uno", ev)


def do_catch(g: Game, s: int, target: str, ev: list[Event]) -> None:
    pid = g.players_[s]
    if target in g.exposed:
        g.exposed = without(g.exposed, target)
        pen = g.rules.uno_penalty
        ev.append(UnoCaught(pid, target, pen))
        give(g, g.seat[target], pen, "uno", ev)
        return
    pen = g.rules.false_uno_penalty
    ev.append(UnoFalseAlarm(pid, pen, target))
    give(g, s, pen, "false_uno", ev)
