"""The victim's answers to a pending penalty other than a play: taking it (``Accept``:
draw the total, lose the turn) and challenging the Wild Draw Four just played on them
(``Challenge``, phase ``CHALLENGE``, under ``wild_draw_four=challenge``). The plays on a
penalty (stacking, deflect, a Wild passing it) are ``engine.play.stacking``.
"""

from __future__ import annotations

from engine.actions import Action
from engine.errors import Code
from engine.events import ChallengeResolved, Event, TurnSkipped
from engine.game import Game
from engine.play.base import (
    ACCEPT,
    CHALLENGE,
    CHALLENGE_A,
    CHOOSING,
    D2,
    Refusal,
    check,
    clear_penalty,
    close_windows,
    give,
    not_your_turn,
    nxt,
)

_NOTHING_PENDING: Refusal = (Code.NOTHING_PENDING, "no penalty to accept")
_NOTHING_TO_CHALLENGE: Refusal = (Code.NOTHING_TO_CHALLENGE, "no Wild Draw Four to challenge")
_NOT_THE_VICTIM: Refusal = (Code.NOT_YOUR_TURN, "only the player facing the +4 challenges")


def accept_refusal(g: Game, s: int) -> Refusal | None:
    """The current player facing a penalty (or a challengeable +4) may take it; not
    while a colour is still to be named."""
    if s != g.cur:
        return not_your_turn(g)
    ph = g.phase_
    if ph is CHOOSING or not (ph is CHALLENGE or g.pending):
        return _NOTHING_PENDING
    return None


def verify_accept(g: Game, s: int) -> None:
    check(accept_refusal(g, s))


def can_accept(g: Game, s: int) -> bool:
    return accept_refusal(g, s) is None


def challenge_refusal(g: Game, s: int) -> Refusal | None:
    """Only in phase ``CHALLENGE``, only the player the +4 was played on."""
    if g.phase_ is not CHALLENGE:
        return _NOTHING_TO_CHALLENGE
    if s != g.cur:
        return _NOT_THE_VICTIM
    return None


def verify_challenge(g: Game, s: int) -> None:
    check(challenge_refusal(g, s))


def can_challenge(g: Game, s: int) -> bool:
    return challenge_refusal(g, s) is None


def list_answers(g: Game, s: int, out: list[Action]) -> None:
    """``Challenge`` and ``Accept``, when seat ``s`` may."""
    if challenge_refusal(g, s) is None:
        out.append(CHALLENGE_A)
    if accept_refusal(g, s) is None:
        out.append(ACCEPT)


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
