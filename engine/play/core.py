"""``apply``: the one way a game changes.

An action is accepted iff ``legal_actions`` lists it (identity first, then equality), or
it is an accepted form of a listed play (``playing.accepted_unlisted``): one legality
source, which each family feeds through its ``can_*``. A refused action gets its
family's reason (``refusal``: the checks every action has, then the family's
``*_refusal``); an accepted one its family's ``do_*``, on a copy of the game.
"""

from __future__ import annotations

from engine.actions import (
    ACTION_TYPES,
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
    Play,
    Timeout,
)
from engine.errors import Code, IllegalAction
from engine.events import Event
from engine.game import Game
from engine.play.base import GAME_OVER, ROUND_OVER, Refusal, refused
from engine.play.color import choose_color_refusal, do_choose_color
from engine.play.dealing import do_next_round, next_round_refusal
from engine.play.drawing import do_draw, do_pass, draw_refusal, pass_refusal
from engine.play.leaving import do_leave, leave_refusal
from engine.play.listing import listed_actions
from engine.play.penalty import accept_refusal, challenge_refusal, do_accept, do_challenge
from engine.play.playing import accepted_unlisted, do_play, play_refusal
from engine.play.timeout import can_timeout, do_timeout, verify_timeout
from engine.play.uno import call_refusal, catch_refusal, do_call_uno, do_catch_uno

_ACTION_SET = frozenset(ACTION_TYPES)
_GAME_OVER: Refusal = (Code.GAME_OVER, "the game is over")
_ROUND_OVER: Refusal = (Code.ROUND_OVER, "the round is over; deal the next one")
_NOT_POSSIBLE: Refusal = (Code.BAD_ACTION, "not possible now")


def apply(game: Game, player: str, action: Action) -> tuple[Game, list[Event]]:
    """Apply ``player``'s ``action``: the new game and what happened, in order.

    Raises ``IllegalAction`` (and leaves ``game`` untouched) for anything not legal now.
    """
    kind = type(action)
    if kind not in _ACTION_SET and not isinstance(action, ACTION_TYPES):
        raise IllegalAction(Code.BAD_ACTION, f"not an action: {kind.__name__}")
    if kind is Timeout:
        return do_timeout(game, player, action)  # type: ignore[arg-type]
    acts = listed_actions(game, player)
    for listed in acts:  # identity first: callers usually pass an object we listed
        if listed is action:
            break
    else:
        if action not in acts:
            unlisted = accepted_unlisted(action, acts)
            if unlisted is None:
                raise refused(refusal(game, player, action))
            action = unlisted
    g = game._clone()
    ev: list[Event] = []
    s = g.seat[player]
    if type(action) is Play:
        do_play(g, s, action, ev)
    elif isinstance(action, Draw):
        do_draw(g, s, ev)
    elif isinstance(action, Pass):
        do_pass(g, s, ev)
    elif isinstance(action, Accept):
        do_accept(g, s, ev)
    elif isinstance(action, Challenge):
        do_challenge(g, s, ev)
    elif isinstance(action, ChooseColor):
        do_choose_color(g, s, action, ev)
    elif isinstance(action, CallUno):
        do_call_uno(g, s, ev)
    elif isinstance(action, CatchUno):
        do_catch_uno(g, s, action, ev)
    elif isinstance(action, Leave):
        do_leave(g, s, ev)
    elif isinstance(action, NextRound):
        do_next_round(g, ev)
    return g, ev


def refusal(g: Game, player: str, a: Action) -> Refusal:
    """Why ``a`` (not accepted) is refused: a stable code for the user, a sentence for the
    log. The checks every action has (seated; the game not over; between rounds only
    ``NextRound`` and ``Leave``), then the family's own."""
    s = g.seat.get(player)
    if s is None:
        return (Code.NOT_A_PLAYER, f"{player} is not seated")
    if g.phase_ is GAME_OVER:
        return _GAME_OVER
    why: Refusal | None
    if isinstance(a, NextRound):
        why = next_round_refusal(g)
    elif g.phase_ is ROUND_OVER:
        return _ROUND_OVER
    elif isinstance(a, Play):
        why = play_refusal(g, s, a)
    elif isinstance(a, CallUno):
        why = call_refusal(g, s)
    elif isinstance(a, CatchUno):
        why = catch_refusal(g, s, a.target)
    elif isinstance(a, ChooseColor):
        why = choose_color_refusal(g, s, a.color)
    elif isinstance(a, Challenge):
        why = challenge_refusal(g, s)
    elif isinstance(a, Accept):
        why = accept_refusal(g, s)
    elif isinstance(a, Pass):
        why = pass_refusal(g, s)
    elif isinstance(a, Draw):
        why = draw_refusal(g, s)
    elif isinstance(a, Leave):
        why = leave_refusal(g, s)
    else:
        why = None
    return why or _NOT_POSSIBLE


def verify(game: Game, player: str, action: Action) -> None:
    """Raise the ``IllegalAction`` ``apply`` would raise for ``action``, if any."""
    if not can(game, player, action):
        kind = type(action)
        if kind not in _ACTION_SET and not isinstance(action, ACTION_TYPES):
            raise IllegalAction(Code.BAD_ACTION, f"not an action: {kind.__name__}")
        if isinstance(action, Timeout):
            verify_timeout(game, player, action)
        raise refused(refusal(game, player, action))


def can(game: Game, player: str, action: Action) -> bool:
    """Whether ``apply`` accepts ``action`` from ``player`` now."""
    if isinstance(action, Timeout):
        return can_timeout(game, player, action)
    if type(action) not in _ACTION_SET and not isinstance(action, ACTION_TYPES):
        return False
    acts = listed_actions(game, player)
    return action in acts or accepted_unlisted(action, acts) is not None
