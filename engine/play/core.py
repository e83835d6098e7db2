"""apply: the one way a game changes; an action not listed is refused with its family's reason."""

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
from engine.cards import COLORS
from engine.errors import Code, IllegalAction
from engine.events import (
    ColorChosen,
    Event,
    Passed,
)
from engine.game import Game
from engine.play.base import CHALLENGE, CHOOSING, GAME_OVER, ROUND_OVER, nxt, play_of
from engine.play.color import after_color
from engine.play.dealing import start_round
from engine.play.drawing import do_draw
from engine.play.leaving import do_leave
from engine.play.listing import listed_actions
from engine.play.penalty import do_accept, do_challenge
from engine.play.playing import diagnose_play, do_play
from engine.play.timeout import do_timeout
from engine.play.uno import do_call, do_catch

_ACTION_SET = frozenset(ACTION_TYPES)


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
                raise diagnose(game, player, action)
            action = unlisted
    g = game._clone()
    ev: list[Event] = []
    s = g.seat[player]
    if type(action) is Play:
        do_play(g, s, action, ev)
    elif isinstance(action, Draw):
        do_draw(g, s, ev)
    elif isinstance(action, Pass):
        g.drawn = None
        g.follow = False
        ev.append(Passed(player))
        g.cur = nxt(g, s)
    elif isinstance(action, Accept):
        do_accept(g, s, ev)
    elif isinstance(action, Challenge):
        do_challenge(g, s, ev)
    elif isinstance(action, ChooseColor):
        g.play_color = action.color
        ev.append(ColorChosen(player, action.color))
        after_color(g, ev)
    elif isinstance(action, CallUno):
        do_call(g, s, ev)
    elif isinstance(action, CatchUno):
        do_catch(g, s, action.target, ev)
    elif isinstance(action, Leave):
        do_leave(g, s, ev)
    elif isinstance(action, NextRound):
        start_round(g, ev)
    return g, ev


def accepted_unlisted(action: Action, acts: list[Action]) -> Action | None:
    """The accepted forms never listed, as the action to apply (``None``: not accepted):
    ``uno=True``; a wild with no colour yet (asked for next); and a ``same_rank`` play of
    several colours with no colour, where the lead card's colour stays in play (the player
    chose it by leading with it; it is laid on top)."""
    if not isinstance(action, Play):
        return None
    card, together, target, color = action.card, action.together, action.target, action.color
    mixed = bool(together) and not card.is_wild
    mixed = mixed and any(c.color is not card.color for c in together)
    if color is None and mixed:
        if play_of(card, card.color, target, together) not in acts:
            return None
        return Play(card, card.color, target, together, action.uno)
    if action.uno and play_of(card, color, target, together) in acts:
        return action
    if (
        color is None
        and card.is_wild
        and any(play_of(card, c, target, together) in acts for c in COLORS)
    ):
        return action
    return None


def diagnose(g: Game, player: str, a: Action) -> IllegalAction:
    """Why ``a`` is not legal: a stable code for the user, a sentence for the log."""
    s = g.seat.get(player)
    if s is None:
        return IllegalAction(Code.NOT_A_PLAYER, f"{player} is not seated")
    ph = g.phase_
    if ph is GAME_OVER:
        return IllegalAction(Code.GAME_OVER, "the game is over")
    if isinstance(a, NextRound):
        return IllegalAction(Code.ROUND_IN_PROGRESS, "the round is still being played")
    if ph is ROUND_OVER:
        return IllegalAction(Code.ROUND_OVER, "the round is over; deal the next one")
    hand = g.hands[s]
    mine = s == g.cur
    if isinstance(a, CallUno):
        if len(hand) == 1 and player in g.silent:
            return IllegalAction(Code.UNO_TOO_LATE, "UNO is called with the play at this table")
        if len(hand) == 1:
            return IllegalAction(Code.ALREADY_CALLED, "UNO was called already")
        return IllegalAction(Code.NOT_ONE_CARD, "UNO is called holding one card")
    if isinstance(a, CatchUno):
        if a.target == player:
            return IllegalAction(Code.CANNOT_CATCH_SELF, "you cannot catch yourself")
        return IllegalAction(Code.NOT_CATCHABLE, f"{a.target} cannot be caught now")
    if isinstance(a, ChooseColor):
        if mine and ph is CHOOSING:
            return IllegalAction(Code.BAD_ACTION, "not a colour")
        if ph is CHOOSING:
            return IllegalAction(Code.NOT_YOUR_TURN, "another player names the colour")
        return IllegalAction(Code.NO_COLOR_NEEDED, "no colour is asked for now")
    if isinstance(a, Challenge):
        if ph is CHALLENGE and not mine:
            return IllegalAction(Code.NOT_YOUR_TURN, "only the player facing the +4 challenges")
        return IllegalAction(Code.NOTHING_TO_CHALLENGE, "no Wild Draw Four to challenge")
    if not mine and not isinstance(a, Play):
        return IllegalAction(Code.NOT_YOUR_TURN, f"it is {g.players_[g.cur]}'s turn")
    if isinstance(a, Accept):
        return IllegalAction(Code.NOTHING_PENDING, "no penalty to accept")
    if ph is CHOOSING:
        if mine:
            return IllegalAction(Code.CHOOSE_COLOR, "name the colour first")
        if g.rules.jump_in and isinstance(a, Play):
            return IllegalAction(Code.NO_JUMP_IN, "no jumping in while a colour is named")
        return IllegalAction(Code.NOT_YOUR_TURN, "a colour is being named")
    if isinstance(a, Pass):
        if g.drawn is None:
            return IllegalAction(Code.NOTHING_TO_PASS, "draw before passing")
        return IllegalAction(Code.MUST_PLAY, "the drawn card must be played")
    if isinstance(a, Draw):
        if ph is CHALLENGE:
            return IllegalAction(Code.CHALLENGE_OPEN, "challenge or accept the Wild Draw Four")
        if g.pending:
            return IllegalAction(Code.PENALTY_PENDING, "stack or accept the pending penalty")
        if g.drawn is not None:
            return IllegalAction(Code.ALREADY_DRAWN, "play the drawn card or pass")
        if g.first_play:
            return IllegalAction(Code.FIRST_PLAY_NUMBER, "open the round with a number card")
        return IllegalAction(Code.BAD_ACTION, "drawing is not possible now")
    if not isinstance(a, Play):
        return IllegalAction(Code.BAD_ACTION, "not possible now")
    return diagnose_play(g, s, a)
