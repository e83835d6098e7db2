"""Swapping hands (``swap``: a 7 with a chosen player, a 0 rotates every hand)."""

from __future__ import annotations

from engine.actions import (
    Play,
)
from engine.cards import Card, Rank
from engine.events import (
    Event,
    HandsRotated,
    HandsSwapped,
    UnoCalled,
)
from engine.game import Game
from engine.play.base import nxt, own_hands, without
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
