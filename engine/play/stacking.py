"""Penalty cards and the plays on a pending penalty: what a +2 or +4 does (drawn at once,
or left to its victim: stack, challenge, accept), stacking (``stacking``), deflecting it
with a Skip or Reverse of the colour in play (``deflect``) and passing it with a Wild
(``wild_on_penalty``). Their listing (``stack_plays``), refusal (``penalty_refusal``) and
effects (``do_*``) side by side; the victim's other answers are ``engine.play.penalty``.
"""

from __future__ import annotations

from engine.actions import Action, Play
from engine.cards import Card, Rank
from engine.errors import Code
from engine.events import DirectionReversed, Event, PenaltyPassed, PenaltyStacked
from engine.game import Game
from engine.play.base import (
    CHALLENGE,
    CHALLENGE_OPEN,
    D2,
    PENALTY_PENDING,
    REV,
    SKIP,
    W4,
    Refusal,
    W,
    distinct_cards,
    nxt,
    play_of,
)
from engine.play.last_card import may_go_out_with
from engine.play.matching import emit_plays, groups_for, w4_ok
from engine.play.penalty import draw_at_once
from engine.rules import Rules

_ON_PENALTY = frozenset((D2, W4, W, SKIP, REV))  # the ranks that may ever go on a penalty


def fours_stack(rules: Rules) -> bool:
    """Whether a +4 may go on a pending penalty (``stacking``)."""
    return rules.stacking in ("draw_four_on_two", "any")


def bounce_target(g: Game, s: int) -> str | None:
    """Where a Reverse deflect sends the penalty: back to whoever played the last +2, or,
    when that is the deflecting player themselves (it came back to them), to whoever sent
    it to them (seed 001: "如果此时该玩家手上刚好也有同色的反转的话，则可以反还给你")."""
    me = g.players_[s]
    for p in (g.pending_from, g.pending_by):
        if p is not None and p != me and p in g.seat and g.hands[g.seat[p]]:
            return p
    return None


def deflect_open(g: Game) -> bool:
    """Whether the pending penalty may be deflected: a +2 under ``deflect``, a +4 too under
    ``deflect=all`` (seed 001: "或同色反转牌")."""
    kind = g.pending_kind
    deflect = g.fl.deflect
    return (kind is D2 and deflect != "off") or (kind is W4 and deflect == "all")


def _deflects(g: Game, s: int, c: Card, hand: list[Card]) -> bool:
    """With ``deflect_open``: a Skip or Reverse of the colour in play, never as the last
    card; a Reverse needs someone to send the penalty back to. A +4 only by a Reverse: seed
    001 names what may answer one, "“+”牌或同色反转牌" (a + card or a Reverse of its
    colour), and seeds 000 and 003 only a +4; the Skip deflect stays a +2 thing."""
    return (
        (c.rank is REV or g.pending_kind is D2)
        and c.color is g.play_color
        and (len(hand) > 1 or may_go_out_with(g.fl, c.rank, deflect=True))
        and (c.rank is SKIP or bounce_target(g, s) is not None)
    )


def stack_plays(g: Game, s: int, out: list[Action]) -> None:
    """What the victim of a pending penalty may play on it."""
    rules = g.fl
    st = rules.stacking
    if st == "off":
        return
    hand = g.hands[s]
    kind = g.pending_kind
    deflects = deflect_open(g)
    for c in distinct_cards(hand):
        r = c.rank
        if r is D2:
            if kind is D2 or (kind is W4 and st == "any" and c.color is g.play_color):
                emit_plays(g, s, hand, c, groups_for(g, hand, c), out)
        elif r is W4:
            if fours_stack(rules) and w4_ok(g, hand):
                emit_plays(g, s, hand, c, groups_for(g, hand, c), out)
        elif r is W:
            if rules.wild_on_penalty and (len(hand) > 1 or may_go_out_with(rules, W)):
                emit_plays(g, s, hand, c, ((),), out)
        elif deflects and (r is SKIP or r is REV) and _deflects(g, s, c, hand):
            out.append(play_of(c, None, None, ()))


def penalty_refusal(g: Game, a: Play) -> Refusal | None:
    """Why the current player may not play ``a`` on the penalty they face (``None``: no
    penalty, or the card is of a kind that may go on it: the rest is checked after)."""
    rank = a.card.rank
    if (
        g.phase_ is CHALLENGE
        and rank not in (D2, W4, W)
        and not (g.fl.deflect == "all" and rank is REV)  # a +4's only deflect
    ):
        return CHALLENGE_OPEN
    if not g.pending:
        return None
    if rank not in _ON_PENALTY:
        return PENALTY_PENDING
    return (Code.CANNOT_STACK, f"{a.card.code} cannot go on this penalty")


def do_deflect(g: Game, s: int, rank: Rank, two: bool, ev: list[Event]) -> None:
    """A Skip passes the pending total to the next player; a Reverse turns play round
    (not with two players) and sends it back (``bounce_target``)."""
    pid = g.players_[s]
    total = g.pending
    if rank is SKIP:
        to = nxt(g, s)
        how = "skip"
    else:
        if not two:
            g.direction_ = -g.direction_
            ev.append(DirectionReversed(g.direction_))
        back = bounce_target(g, s)
        assert back is not None
        to = g.seat[back]
        how = "reverse"
    g.cur = to
    g.pending_by = pid
    ev.append(PenaltyPassed(pid, g.players_[to], total, how))


def do_wild_pass(g: Game, s: int, ev: list[Event]) -> None:
    """``wild_on_penalty``: a Wild passes the total to the next player."""
    to = nxt(g, s)
    g.cur = to
    g.pending_by = g.players_[s]
    ev.append(PenaltyPassed(g.players_[s], g.players_[to], g.pending, "wild"))
    if not g.hands[s]:  # places: a last card is never stacked on; drawn at once
        draw_at_once(g, to, g.pending_kind is D2, ev)


def do_penalty_card(
    g: Game, s: int, rank: Rank, k: int, stacked: bool, w4_legal: bool, ev: list[Event]
) -> None:
    """``k`` +2s or +4s from seat ``s`` add to the pending total. Drawn at once by the next
    player (who loses the turn) without stacking unless a +4 may be challenged, and always
    after a last card (``places``); else the victim decides: stack, challenge or accept."""
    rules = g.fl
    pid = g.players_[s]
    g.pending += k * (2 if rank is D2 else 4)
    g.pending_kind = rank
    if rank is D2 or rules.deflect == "all":  # where a Reverse deflect sends it back
        g.pending_from = pid
    if stacked:
        ev.append(PenaltyStacked(pid, g.pending))
    challengeable = rank is W4 and rules.wild_draw_four == "challenge"
    v = nxt(g, s)
    if (rules.stacking == "off" and not challengeable) or not g.hands[s]:
        draw_at_once(g, v, rank is D2, ev)
    else:
        g.cur = v
        g.pending_by = pid
        if challengeable:
            g.phase_ = CHALLENGE
            g.challenge = (pid, w4_legal)
