"""Jumping in out of turn with the card identical to the top card (``jump_in``)."""

from __future__ import annotations

from engine.actions import (
    Action,
)
from engine.game import Game
from engine.play.base import D2, W4
from engine.play.matching import emit_plays, matches, w4_ok


def jump_ins(g: Game, s: int, out: list[Action]) -> None:
    hand = g.hands[s]
    top = g.discard[-1]
    if top not in hand:
        return
    if g.pending:  # only an identical +2, or a +4 on a +4 where +4s stack, adds to it
        stackable = (top.rank is D2 and g.pending_kind is D2) or (
            top.rank is W4
            and g.pending_kind is W4
            and g.fl.stacking in ("draw_four_on_two", "any")
        )
        if not stackable:
            return
    if top.rank is W4 and not w4_ok(g, hand):
        return
    if g.follow and not matches(g, top, hand):  # the next play follows the +2's colour
        return
    emit_plays(g, s, hand, top, ((),), out)
