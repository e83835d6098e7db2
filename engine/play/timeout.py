"""Deadlines (Timeout): a turn, a colour or a challenge not answered in time."""

from __future__ import annotations

from engine.actions import (
    Timeout,
)
from engine.errors import Code, IllegalAction
from engine.events import (
    Event,
    Passed,
    TurnSkipped,
    TurnTimedOut,
    UnoWindowClosed,
)
from engine.game import Game
from engine.play.base import (
    CHALLENGE,
    CHOOSING,
    DRAW,
    GAME_OVER,
    ROUND_OVER,
    close_windows,
    give,
    nxt,
    without,
)
from engine.play.color import after_color, name_missing_color
from engine.play.drawing import do_draw
from engine.play.listing import listed_actions
from engine.play.penalty import do_accept
from engine.play.scoring import stall


def do_timeout(game: Game, player: str, action: Timeout) -> tuple[Game, list[Event]]:
    window = action.window
    if player not in game.seat:
        raise IllegalAction(Code.NOT_A_PLAYER, f"{player} is not seated")
    if window == "uno":
        if player not in game.exposed:
            raise IllegalAction(Code.NO_WINDOW, f"no catch window is open on {player}")
        g = game._clone()
        g.exposed = without(g.exposed, player)
        return g, [UnoWindowClosed(player)]
    if window != "turn":
        raise IllegalAction(Code.BAD_ACTION, f"unknown timeout window {window!r}")
    if game.phase_ is GAME_OVER:
        raise IllegalAction(Code.GAME_OVER, "the game is over")
    if game.phase_ is ROUND_OVER:
        raise IllegalAction(Code.ROUND_OVER, "no turn between rounds")
    if game.current != player:
        raise IllegalAction(Code.NOT_YOUR_TURN, f"it is {game.current}'s turn")
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
    elif g.first_play and DRAW in listed_actions(game, player):
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
