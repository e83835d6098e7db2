"""Deadlines (``Timeout``, sent by the service, never listed): ``window="turn"`` from the
current player ends their turn, colour choice or challenge decision by docs/rules.md section
4 (a random colour, the penalty taken, a pass after a draw, the first-play draw, else a
card drawn and a pass); ``window="uno"`` closes the catch window on an exposed player.
"""

from __future__ import annotations

from engine.actions import Timeout
from engine.errors import Code
from engine.events import Event, Passed, TurnSkipped, TurnTimedOut, UnoWindowClosed
from engine.game import Game
from engine.play.base import (
    CHALLENGE,
    CHOOSING,
    GAME_OVER,
    ROUND_OVER,
    Refusal,
    check,
    close_windows,
    give,
    nxt,
    without,
)
from engine.play.color import after_color, name_missing_color
from engine.play.drawing import can_draw, do_draw
from engine.play.penalty import do_accept
from engine.play.scoring import stall

_GAME_OVER: Refusal = (Code.GAME_OVER, "the game is over")
_ROUND_OVER: Refusal = (Code.ROUND_OVER, "no turn between rounds")


def timeout_refusal(game: Game, player: str, window: str) -> Refusal | None:
    """A turn's deadline is the current player's; a catch window is an exposed player's."""
    if player not in game.seat:
        return (Code.NOT_A_PLAYER, f"{player} is not seated")
    if window == "uno":
        if player not in game.exposed:
            return (Code.NO_WINDOW, f"no catch window is open on {player}")
        return None
    if window != "turn":
        return (Code.BAD_ACTION, f"unknown timeout window {window!r}")
    if game.phase_ is GAME_OVER:
        return _GAME_OVER
    if game.phase_ is ROUND_OVER:
        return _ROUND_OVER
    if game.current != player:
        return (Code.NOT_YOUR_TURN, f"it is {game.current}'s turn")
    return None


def verify_timeout(game: Game, player: str, action: Timeout) -> None:
    check(timeout_refusal(game, player, action.window))


def can_timeout(game: Game, player: str, action: Timeout) -> bool:
    return timeout_refusal(game, player, action.window) is None


def do_timeout(game: Game, player: str, action: Timeout) -> tuple[Game, list[Event]]:
    """Verify and apply (a timeout is never listed: ``apply`` hands it over whole)."""
    verify_timeout(game, player, action)
    if action.window == "uno":
        g = game._clone()
        g.exposed = without(g.exposed, player)
        return g, [UnoWindowClosed(player)]
    g = game._clone()
    s = g.cur
    g.follow = False  # whatever happens, this turn ends
    ev: list[Event] = [TurnTimedOut(player, "turn")]
    ph = g.phase_
    if ph is CHOOSING:  # a colour not named in time is chosen at random (or kept)
        name_missing_color(g, player, ev)
        start = g.after_color == "start"
        after_color(g, ev)
        if start:  # the first player, who was to name it and then play, is skipped
            g.first_play = g.rules.first_play_number
            ev.append(TurnSkipped(player))
            g.cur = nxt(g, s)
    elif ph is CHALLENGE or g.pending:  # take the penalty
        do_accept(g, s, ev)
    elif g.drawn is not None:
        g.drawn = None
        ev.append(Passed(player))
        g.cur = nxt(g, s)
    elif g.first_play and can_draw(game, s):
        do_draw(g, s, ev)  # no number card to open with: the first-play penalty
    else:  # draw one card for the player, then pass (the first play is still to come)
        close_windows(g, player)
        got = give(g, s, 1, "draw", ev)
        if got:
            g.stalled = 0
        elif stall(g, s, ev):
            return g, ev
        ev.append(Passed(player))
        g.cur = nxt(g, s)
    return g, ev
