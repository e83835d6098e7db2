"""Drawing (``Draw``) and passing after a draw (``Pass``).

``Draw`` draws one card (``draw=until_playable``: until a playable one; ``drawn_card=
number_only``: only a number card is playable at once). A playable drawn card waits: it
may be played alone (``playing.list_drawn_play``) or kept with ``Pass`` (``force_play``:
not kept, unless it is a +4 that would be a bluff). Under ``first_play_number`` a player
with no number card to open with draws 2 and is skipped. Refused while a penalty is
pending, a +4 challenge is open or a colour is to be named.
"""

from __future__ import annotations

from engine.actions import Action
from engine.cards import Card
from engine.errors import Code
from engine.events import CardsDrawn, Event, Passed, TurnSkipped
from engine.game import Game
from engine.play.base import (
    CHALLENGE,
    CHALLENGE_OPEN,
    CHOOSING,
    DRAW,
    NAME_COLOR_FIRST,
    NUMBER_FIRST,
    PASS,
    PENALTY_PENDING,
    W4,
    Refusal,
    check,
    close_windows,
    fix_uno,
    give,
    mhand,
    not_your_turn,
    nxt,
    take,
)
from engine.play.matching import matches, w4_is_legal
from engine.play.playing import list_plays
from engine.play.scoring import stall

_ALREADY_DRAWN: Refusal = (Code.ALREADY_DRAWN, "play the drawn card or pass")
_NOTHING_TO_PASS: Refusal = (Code.NOTHING_TO_PASS, "draw before passing")
_MUST_PLAY: Refusal = (Code.MUST_PLAY, "the drawn card must be played")


def _has_play(g: Game, s: int) -> bool:
    plays: list[Action] = []
    list_plays(g, s, plays)
    return bool(plays)


def draw_refusal(g: Game, s: int, played: bool | None = None) -> Refusal | None:
    """Why seat ``s`` may not draw now (``None``: it may). ``played``: whether a play is
    listed for them now, when the caller knows (else it is found out)."""
    if s != g.cur:
        return not_your_turn(g)
    ph = g.phase_
    if ph is CHOOSING:
        return NAME_COLOR_FIRST
    if ph is CHALLENGE:
        return CHALLENGE_OPEN
    if g.pending:
        return PENALTY_PENDING
    if g.drawn is not None:
        return _ALREADY_DRAWN
    if g.first_play:  # first_play_number: the draw (2, skipped) only with no number to play
        if played is None:
            played = _has_play(g, s)
        if played:
            return NUMBER_FIRST
    return None


def verify_draw(g: Game, s: int) -> None:
    check(draw_refusal(g, s))


def can_draw(g: Game, s: int) -> bool:
    return draw_refusal(g, s) is None


def pass_refusal(g: Game, s: int, played: bool | None = None) -> Refusal | None:
    """Why seat ``s`` may not pass now: only after drawing a playable card, and under
    ``force_play`` only when it cannot be played or would be a +4 bluff (``wild_draw_four=
    challenge``). ``played`` as for ``draw_refusal``."""
    if s != g.cur:
        return not_your_turn(g)
    ph = g.phase_
    if ph is CHOOSING:
        return NAME_COLOR_FIRST
    drawn = g.drawn
    if drawn is None:
        return _NOTHING_TO_PASS
    if ph is CHALLENGE or g.pending:
        return _MUST_PLAY
    rules = g.fl
    if rules.force_play:
        if played is None:
            played = _has_play(g, s)
        bluff = (
            drawn.rank is W4
            and rules.wild_draw_four == "challenge"
            and not w4_is_legal(g, g.hands[s])
        )
        if played and not bluff:
            return _MUST_PLAY
    return None


def verify_pass(g: Game, s: int) -> None:
    check(pass_refusal(g, s))


def can_pass(g: Game, s: int) -> bool:
    return pass_refusal(g, s) is None


def list_draw_pass(g: Game, s: int, played: bool, out: list[Action]) -> None:
    """``Pass`` or ``Draw`` when seat ``s`` may (``played``: whether plays were listed)."""
    if pass_refusal(g, s, played) is None:
        out.append(PASS)
    if draw_refusal(g, s, played) is None:
        out.append(DRAW)


def do_pass(g: Game, s: int, ev: list[Event]) -> None:
    g.drawn = None
    g.follow = False
    ev.append(Passed(g.players_[s]))
    g.cur = nxt(g, s)


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
