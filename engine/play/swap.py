"""Swapping hands (``swap``): under ``seven_zero`` a 7 swaps with a chosen player and a 0
rotates every hand one seat in the direction of play; under ``five`` a 5 swaps. The
target is listed (one entry per other player holding cards) and checked here; no target
when the card empties the hand. Everyone left with one card by a swap is exposed.
"""

from __future__ import annotations

from engine.actions import Play
from engine.cards import Card, Rank
from engine.errors import Code
from engine.events import (
    Event,
    HandsRotated,
    HandsSwapped,
    UnoCalled,
)
from engine.game import Game
from engine.play.base import Refusal, nxt, own_hands, without
from engine.rules import Rules


def swap_kind(rules: Rules, rank: Rank) -> str | None:
    """``target`` for a card that swaps with a chosen player, ``rotate`` for a 0."""
    if rules.swap == "seven_zero":
        if rank is Rank.SEVEN:
            return "target"
        if rank is Rank.ZERO:
            return "rotate"
    elif rules.swap == "five" and rank is Rank.FIVE:
        return "target"
    return None


def swap_targets(g: Game, s: int) -> list[str]:
    """Whom seat ``s`` may swap hands with: every other player holding cards (``places``:
    not those out of the round)."""
    return [p for i, p in enumerate(g.players_) if i != s and g.hands[i]]


_CHOOSE_TARGET: Refusal = (Code.CHOOSE_TARGET, "choose a player to swap hands with")
_NO_TARGET: Refusal = (Code.NO_TARGET_NEEDED, "this play swaps with nobody")


def target_refusal(g: Game, s: int, a: Play) -> Refusal | None:
    """A swap card that does not empty the hand needs a target among ``swap_targets``;
    any other play has none."""
    if swap_kind(g.fl, a.card.rank) == "target" and len(a.together) + 1 < len(g.hands[s]):
        if a.target is None or a.target not in swap_targets(g, s):
            return _CHOOSE_TARGET
    elif a.target is not None:
        return _NO_TARGET
    return None


def do_swap(g: Game, s: int, how: str, a: Play, ev: list[Event]) -> None:
    pid = g.players_[s]
    own_hands(g)
    if how == "target":
        assert a.target is not None
        t = g.seat[a.target]
        g.hands[s], g.hands[t] = g.hands[t], g.hands[s]
        changed = [s, t]
        ev.append(HandsSwapped(pid, a.target))
    else:
        n = len(g.players_)
        new: list[list[Card]] = [[] for _ in range(n)]
        for i in range(n):
            if g.hands[i] or not g.out:  # places: hands pass among those still playing
                new[nxt(g, i)] = g.hands[i]
        g.hands = new
        changed = list(range(n))
        ev.append(HandsRotated(pid, g.direction_))
    with_play = g.fl.uno_call == "with_play"
    for i in changed:  # a player left with one card by a swap must call UNO
        q = g.players_[i]
        g.exposed = without(g.exposed, q)
        g.called = without(g.called, q)
        g.silent = without(g.silent, q)
        if len(g.hands[i]) == 1:
            if i == s and a.uno:
                g.called = (*g.called, q)
                ev.append(UnoCalled(q))
            else:
                g.exposed = (*g.exposed, q)
                if i == s and with_play:  # the one who played: the call came with it or not
                    g.silent = (*g.silent, q)
