"""Leaving the game (``Leave``, docs/rules.md section 4): listed for every seated player until
the game is over (never refused but by the checks every action has: ``core``). The hand
goes under the draw pile; a colour still to be named is chosen; a challenge open on the
leaver's +4 is drawn by its victim; their turn passes on and a penalty aimed at them is
cancelled. One player (or one team) left wins the round and the game.
"""

from __future__ import annotations

from engine.actions import Action
from engine.events import (
    Event,
    GameWon,
    PlayerLeft,
    TurnSkipped,
)
from engine.game import ACTIVE, Game
from engine.play.base import (
    CHALLENGE,
    CHOOSING,
    GAME_OVER,
    LEAVE,
    Refusal,
    check,
    clear_penalty,
    give,
    nxt,
    own,
    own_hands,
    without,
)
from engine.play.color import after_color, name_missing_color
from engine.play.scoring import end_round


def leave_refusal(g: Game, s: int) -> Refusal | None:
    """Nothing of its own: a seated player may leave until the game is over (``core``'s
    checks, which every action has)."""
    return None


def verify_leave(g: Game, s: int) -> None:
    check(leave_refusal(g, s))


def can_leave(g: Game, s: int) -> bool:
    return leave_refusal(g, s) is None


def list_leave(out: list[Action]) -> None:
    out.append(LEAVE)


def do_leave(g: Game, s: int, ev: list[Event]) -> None:
    """docs/rules.md section 4: cards under the draw pile, turn passes, aimed penalty cancelled."""
    pid = g.players_[s]
    ev.append(PlayerLeft(pid))
    own(g)
    own_hands(g)
    g.draw_pile[0:0] = g.hands[s]
    g.hands[s] = []
    g.exposed = without(g.exposed, pid)
    g.called = without(g.called, pid)
    g.silent = without(g.silent, pid)
    next_id: str | None = None
    if g.phase_ in ACTIVE and g.phase_ is CHOOSING and s == g.cur:
        # a colour still to be named is chosen at random (or kept), the card takes effect
        # (places: if it was their last card, they leave without a place)
        name_missing_color(g, pid, ev)
        after_color(g, ev, settle=False)
    if g.phase_ in ACTIVE:
        if g.phase_ is CHALLENGE and g.challenge is not None and g.challenge[0] == pid:
            # they played the Wild Draw Four being challenged: the victim draws it
            v = g.cur
            total = g.pending
            clear_penalty(g)
            give(g, v, total, "penalty", ev)
            ev.append(TurnSkipped(g.players_[v]))
            g.cur = nxt(g, v)
        if g.pending_from == pid:
            g.pending_from = None
        if g.pending_by == pid:
            g.pending_by = None
        if g.cur == s:  # their turn passes on; a penalty aimed at them is cancelled
            if g.pending:
                clear_penalty(g)
            g.drawn = None
            g.follow = False
            g.cur = nxt(g, s)
        next_id = g.players_[g.cur]
    players = [p for p in g.players_ if p != pid]
    del g.hands[s]
    g.players_ = players
    g.seat = {p: i for i, p in enumerate(players)}
    g.cur = g.seat[next_id] if next_id is not None else 0
    if pid in g.out:  # places: the others move up
        g.out = without(g.out, pid)
    # a game left with one player (or one team) ends: they win the round and the game
    alone = len(players) == 1 or (g.teams is not None and len({g.teams[p] for p in players}) == 1)
    if alone and g.phase_ is not GAME_OVER:
        if g.phase_ in ACTIVE:
            end_round(g, g.cur, "last_player", ev, final=True)
        else:
            g.winner_ = players[0]
            g.phase_ = GAME_OVER
            ev.append(GameWon(players[0], dict(g.scores_)))
    elif g.rules.places and g.phase_ in ACTIVE and sum(1 for h in g.hands if h) <= 1:
        end_round(g, g.cur, "last_player", ev)  # places: one player is left holding cards
