"""Plays on a pending penalty: stacking, deflecting and passing it with a Wild."""

from __future__ import annotations

from engine.actions import (
    Action,
)
from engine.game import Game
from engine.play.base import D2, REV, SKIP, W4, W, distinct_cards, play_of
from engine.play.last_card import NOT_LAST
from engine.play.matching import emit_plays, groups_for, w4_ok


def bounce_target(g: Game, s: int) -> str | None:
    """Where a Reverse deflect sends the penalty: back to whoever played the last +2, or,
    when that is the deflecting player themselves (it came back to them), to whoever sent
    it to them (seed 001: "如果此时该玩家手上刚好也有同色的反转的话，则可以反还给你")."""
    me = g.players_[s]
    for p in (g.pending_from, g.pending_by):
        if p is not None and p != me and p in g.seat and g.hands[g.seat[p]]:
            return p
    return None


def stack_plays(g: Game, s: int, out: list[Action]) -> None:
    """What the victim of a pending penalty may play on it."""
    rules = g.fl
    st = rules.stacking
    if st == "off":
        return
    hand = g.hands[s]
    kind = g.pending_kind
    not_last = NOT_LAST[rules.last_card]
    for c in distinct_cards(hand):
        r = c.rank
        if r is D2:
            if kind is D2 or (kind is W4 and st == "any" and c.color is g.play_color):
                emit_plays(g, s, hand, c, groups_for(g, hand, c), out)
        elif r is W4:
            if st in ("draw_four_on_two", "any") and w4_ok(g, hand):
                emit_plays(g, s, hand, c, groups_for(g, hand, c), out)
        elif r is W:
            if rules.wild_on_penalty and not (len(hand) == 1 and W in not_last):
                emit_plays(g, s, hand, c, ((),), out)
        elif (
            (r is SKIP or r is REV)
            and (
                (kind is D2 and rules.deflect != "off")
                or (kind is W4 and rules.deflect == "all")  # seed 001: "或同色反转牌"
            )
            and c.color is g.play_color
            and len(hand) > 1
            and (r is SKIP or bounce_target(g, s) is not None)
        ):
            out.append(play_of(c, None, None, ()))
