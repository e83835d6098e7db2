"""The victim's answers to a pending penalty: taking it (Accept) or challenging a +4."""

from __future__ import annotations

from engine.events import (
    ChallengeResolved,
    Event,
    TurnSkipped,
)
from engine.game import Game
from engine.play.base import D2, clear_penalty, close_windows, give, nxt


def do_accept(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    close_windows(g, pid)
    total = g.pending
    g.follow = g.pending_kind is D2 and g.fl.after_penalty == "same_color"
    clear_penalty(g)
    give(g, s, total, "penalty", ev)
    ev.append(TurnSkipped(pid))
    g.cur = nxt(g, s)


def do_challenge(g: Game, s: int, ev: list[Event]) -> None:
    pid = g.players_[s]
    close_windows(g, pid)
    assert g.challenge is not None
    offender, legal = g.challenge
    total = g.pending
    clear_penalty(g)
    os = g.seat[offender]
    shown = tuple(g.hands[os])
    if not legal:  # guilty: the offender draws the whole penalty
        ev.append(ChallengeResolved(pid, offender, True, total, offender, shown))
        give(g, os, total, "challenge", ev)
        if g.rules.guilty_challenger == "plays":
            g.cur = s
        else:
            ev.append(TurnSkipped(pid))
            g.cur = nxt(g, s)
    else:  # innocent: the challenger draws the penalty + 2 and loses the turn
        ev.append(ChallengeResolved(pid, offender, False, total + 2, pid, shown))
        give(g, s, total + 2, "challenge", ev)
        ev.append(TurnSkipped(pid))
        g.cur = nxt(g, s)


def draw_at_once(g: Game, v: int, two: bool, ev: list[Event]) -> None:
    """Seat ``v`` draws the pending total and loses the turn; after a +2 under
    ``after_penalty=same_color`` the next play follows its colour."""
    total = g.pending
    clear_penalty(g)
    give(g, v, total, "penalty", ev)
    ev.append(TurnSkipped(g.players_[v]))
    g.cur = nxt(g, v)
    g.follow = two and g.fl.after_penalty == "same_color"
