"""Going out (``last_card``): which cards may be a player's last one, and what a last
action card or wild does under ``play_and_draw``. The one place this rule lives: the
listings (``playing``, ``stacking``, ``jump_in``), the refusals, the effect of a play and
``leaves_one_card`` all ask here.

- ``any``: every card may be the last.
- ``number_only``: only a number card.
- ``no_skip_reverse_wild`` (seed 004: "「Reverse」「Skip」「Wild和Wild Draw 4」不能當最後一張牌
  使用"): as ``number_only``, but a +2 may.
- ``play_and_draw``: any card, but an action card or wild as the last one takes its
  effect and its player draws one card (exposed: they hold one card again).
- Whatever the flag, a deflect (Skip or Reverse on a penalty) is never the last card.
"""

from __future__ import annotations

from engine.actions import Play
from engine.cards import Card, Rank
from engine.errors import Code
from engine.events import Event
from engine.game import Game
from engine.play.base import D2, REV, SKIP, W4, Refusal, W, give
from engine.rules import Rules

# the ranks a player may not go out on, by ``last_card``: the listings read this table in
# their inner loops (a frozenset lookup per card)
NOT_LAST: dict[str, frozenset[Rank]] = {
    "any": frozenset(),
    "play_and_draw": frozenset(),
    "number_only": frozenset((SKIP, REV, D2, W, W4)),
    "no_skip_reverse_wild": frozenset((SKIP, REV, W, W4)),
}
# a deflect passes a penalty on: never as the last card
NOT_LAST_ON_PENALTY = frozenset((SKIP, REV))
_DEFLECT_LAST: Refusal = (Code.NOT_AS_LAST_CARD, "a deflect is never the last card")


def may_go_out_with(rules: Rules, rank: Rank, *, deflect: bool = False) -> bool:
    """Whether a card of ``rank`` may be its player's last card (``deflect``: played on a
    penalty as a Skip or Reverse deflect)."""
    if deflect and rank in NOT_LAST_ON_PENALTY:
        return False
    return rank not in NOT_LAST[rules.last_card]


def last_card_refusal(g: Game, a: Play, hand: list[Card]) -> Refusal | None:
    """Why ``a`` may not empty ``hand`` (``None``: it does not empty it, or it may)."""
    if len(a.together) + 1 != len(hand):
        return None
    rank = a.card.rank
    if rank in NOT_LAST[g.fl.last_card]:
        return (Code.NOT_AS_LAST_CARD, f"{a.card.code} may not be the last card")
    if g.pending and rank in NOT_LAST_ON_PENALTY:
        return _DEFLECT_LAST
    return None


def draws_on_going_out(rules: Rules, card: Card) -> bool:
    """``play_and_draw``: whether going out with ``card`` draws a card instead."""
    return rules.last_card == "play_and_draw" and not card.is_number


def do_last_card(g: Game, s: int, lead: Card, ev: list[Event]) -> bool:
    """Seat ``s`` has just played its last card, ``lead`` first: under ``play_and_draw``
    an action card or wild draws one. Whether the player is out."""
    if draws_on_going_out(g.fl, lead):
        give(g, s, 1, "last_card", ev)
    return not g.hands[s]
