"""Jumping in (``jump_in``): out of turn, a player holding the card identical to the top
card (interned cards: the same object) plays it; the players in between lose their turn.
Never while a colour is named or before the first play of ``first_play_number``; with a
penalty pending only an identical +2 on a +2 stack, or a +4 on a +4 stack where +4s
stack. One card only. Listing (``jump_ins``) and refusal (``jump_in_refusal``) here; the
effect is a play's (``playing.do_play``).
"""

from __future__ import annotations

from engine.actions import Action, Play
from engine.cards import Card
from engine.errors import Code
from engine.game import Game
from engine.play.base import D2, PLAYING, W4, Refusal, not_your_turn
from engine.play.matching import emit_plays, matches, w4_ok
from engine.play.stacking import fours_stack

_ONE_CARD: Refusal = (Code.BAD_COMBINATION, "jump in with one card")
_NOT_IDENTICAL: Refusal = (Code.NOT_IDENTICAL, "jumping in needs the identical card")
_NOT_NOW: Refusal = (Code.NO_JUMP_IN, "no jumping in right now")
_NAMING: Refusal = (Code.NO_JUMP_IN, "no jumping in while a colour is named")


def jump_in_open(g: Game) -> bool:
    """Whether anyone may jump in now (the table allows it, the round has opened)."""
    return g.phase_ is PLAYING and g.fl.jump_in and not g.first_play


def _adds_to_penalty(g: Game, top: Card) -> bool:
    """With a penalty pending: only an identical +2 on a +2 stack, or a +4 on a +4 stack
    where +4s stack, adds to it."""
    return (top.rank is D2 and g.pending_kind is D2) or (
        top.rank is W4 and g.pending_kind is W4 and fours_stack(g.fl)
    )


def jump_ins(g: Game, s: int, out: list[Action]) -> None:
    """The jump-in seat ``s`` may make now (``jump_in_open`` is the caller's check)."""
    hand = g.hands[s]
    top = g.discard[-1]
    if top not in hand:
        return
    if g.pending and not _adds_to_penalty(g, top):
        return
    if top.rank is W4 and not w4_ok(g, hand):
        return
    if g.follow and not matches(g, top, hand):  # the next play follows the +2's colour
        return
    emit_plays(g, s, hand, top, ((),), out)


def turn_refusal(g: Game) -> Refusal | None:
    """A play out of turn, before its cards are looked at: only as a jump-in."""
    if not g.fl.jump_in:
        return not_your_turn(g)
    return None


def jump_in_refusal(g: Game, a: Play) -> Refusal | None:
    """Why ``a`` is no jump-in: more than one card, not the identical card, or not now.
    With a penalty pending every jump-in that reaches here is "not now", even an identical
    card that could add to it (then it was refused by the +4 rule, the last card or the
    colour to follow, which ``play_refusal`` does not look for: the code stays the one
    this refusal has always given)."""
    if a.together:
        return _ONE_CARD
    if a.card is not g.discard[-1]:
        return _NOT_IDENTICAL
    if g.phase_ is not PLAYING or g.first_play or g.pending:
        return _NOT_NOW
    return None


def naming_refusal(g: Game) -> Refusal:
    """A play out of turn while a colour is being named."""
    if g.fl.jump_in:
        return _NAMING
    return (Code.NOT_YOUR_TURN, "a colour is being named")
