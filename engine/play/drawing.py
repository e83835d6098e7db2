"""Drawing a card (Draw) and passing after a draw (Pass)."""

from __future__ import annotations

from engine.cards import Card
from engine.events import (
    CardsDrawn,
    Event,
    Passed,
    TurnSkipped,
)
from engine.game import Game
from engine.play.base import close_windows, fix_uno, give, mhand, nxt, take
from engine.play.matching import matches
from engine.play.scoring import stall


def do_draw(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    close_windows(g, pid)
    if g.first_play:  # first_play_number: no number card to open with
        g.first_play = False
        g.follow = False
        give(g, s, 2, "first_play", ev)
        ev.append(TurnSkipped(pid))
        g.cur = nxt(g, s)
        return
    hand = mhand(g, s)
    got: list[Card] = []
    playable = False
    rules = g.fl
    until = rules.draw == "until_playable"
    while True:
        c = take(g, ev)
        if c is None:
            break
        got.append(c)
        hand.append(c)
        playable = matches(g, c, hand)
        if playable and not c.is_number and rules.drawn_card == "number_only":
            playable = False  # seed 000: played at once only "可以出牌且不是功能牌"
        if playable or not until:
            break
    fix_uno(g, pid, len(hand))
    ev.append(CardsDrawn(pid, len(got), tuple(got), "draw"))
    if not got:
        if stall(g, s, ev):
            return
    else:
        g.stalled = 0
        if playable:
            g.drawn = got[-1]
            return
    g.follow = False
    ev.append(Passed(pid))
    g.cur = nxt(g, s)
