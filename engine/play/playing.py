"""Playing a card (``Play``), in turn or as a jump-in: the family that owns the listing of
plays, the reason a play is refused and the effect of a play.

The rules a play is made of live in their own modules, each with its listing predicate
and its refusal side by side: ``matching`` (matching, the +4 rule, ``multi_play`` groups,
the colour named, ``after_penalty``), ``last_card``, ``stacking`` (plays on a penalty and
what a +2/+4 does), ``jump_in`` and ``swap``. This module puts them together:

- ``list_plays`` (every play a seat may make now) and, on the hot path,
  ``list_turn_plays`` (the plays of an ordinary turn, with a fast path for the common
  table: no swaps, no ``same_rank``, no colour to follow);
- ``play_refusal`` (why a play that is not listed is refused: the families' refusals in
  a fixed order, so that the same play always gets the same reason), ``verify_play`` and
  ``can_play``;
- ``do_play`` and ``resolve`` (the effect).
"""

from __future__ import annotations

from engine.actions import Action, Play
from engine.cards import COLORS, Color, Rank
from engine.errors import Code
from engine.events import CardPlayed, DirectionReversed, Event, TurnSkipped
from engine.game import Game
from engine.play.base import (
    CHALLENGE,
    CHOOSING,
    D2,
    NAME_COLOR_FIRST,
    NUMBER_FIRST,
    PLAYING,
    REV,
    SINGLE,
    SKIP,
    W4,
    Refusal,
    W,
    clear_penalty,
    close_windows,
    distinct_cards,
    fix_uno,
    give,
    mhand,
    nxt,
    play_of,
    refused,
)
from engine.play.jump_in import (
    jump_in_open,
    jump_in_refusal,
    jump_ins,
    naming_refusal,
    turn_refusal,
)
from engine.play.last_card import NOT_LAST, do_last_card, last_card_refusal
from engine.play.matching import (
    emit_plays,
    follow_refusal,
    group_refusal,
    groups_for,
    match_refusal,
    matches,
    named_color_refusal,
    w4_is_legal,
    w4_refusal,
)
from engine.play.scoring import end_round, settle_out
from engine.play.stacking import (
    do_deflect,
    do_penalty_card,
    do_wild_pass,
    penalty_refusal,
    stack_plays,
)
from engine.play.swap import do_swap, swap_kind, target_refusal
from engine.play.uno import after_play

_ONLY_DRAWN: Refusal = (Code.MUST_PLAY_DRAWN, "only the drawn card may be played")

# ---------------------------------------------------------------------------- listing


def list_drawn_play(g: Game, s: int, out: list[Action]) -> None:
    """After a draw only the drawn card may be played, alone (re-checked: a false UNO call
    may have brought the colour since)."""
    drawn = g.drawn
    assert drawn is not None
    hand = g.hands[s]
    if matches(g, drawn, hand):
        emit_plays(g, s, hand, drawn, ((),), out)


def list_turn_plays(g: Game, s: int, out: list[Action]) -> None:
    """The plays of an ordinary turn (phase ``PLAYING``, no penalty, nothing drawn)."""
    hand = g.hands[s]
    if g.first_play:  # first_play_number: only number cards open the round
        same_rank = g.fl.multi_play == "same_rank"
        for c in distinct_cards(hand):
            if not c.is_number:
                continue
            groups = groups_for(g, hand, c)
            if g.follow:  # every card played is of the colour to follow
                if not matches(g, c, hand):
                    continue
                groups = [t for t in groups if all(x.color is c.color for x in t)]
            elif not matches(g, c, hand):
                if not same_rank:
                    continue
                groups = [t for t in groups if any(matches(g, x, hand) for x in t)]
            if groups:
                emit_plays(g, s, hand, c, groups, out)
        return
    rules = g.fl
    multi = rules.multi_play
    if rules.swap == "off" and multi != "same_rank" and not g.follow:
        # the fast path, for the common table: nothing to choose but a colour (and
        # identical pairs); the same plays emit_plays would list, without the expansion
        color = g.play_color
        top = g.discard[-1]
        trank = None if top.is_wild else top.rank
        n_hand = len(hand)
        not_last = NOT_LAST[rules.last_card]
        no_bluff = rules.wild_draw_four == "no_bluff"
        distinct = dict.fromkeys(hand)
        pairs = multi == "identical" and len(distinct) < n_hand
        for c in distinct:
            if c.color is color or c.rank is trank:
                pass
            elif c.is_wild:
                if no_bluff and c.rank is W4 and not w4_is_legal(g, hand):
                    continue
            else:
                continue
            if n_hand != 1 or c.rank not in not_last:
                out.extend(SINGLE[c])
            if pairs:
                m = hand.count(c)
                if m > 1:
                    emit_plays(g, s, hand, c, [(c,) * x for x in range(1, m)], out)
        return
    same_rank = multi == "same_rank"
    for c in distinct_cards(hand):
        groups = groups_for(g, hand, c)
        if g.follow:  # every card played is of the colour to follow
            if not matches(g, c, hand):
                continue
            if same_rank:
                groups = [t for t in groups if all(x.color is c.color for x in t)]
        elif not matches(g, c, hand):
            if not same_rank:
                continue
            # several of one rank: any of them may lead if one of them matches
            groups = [t for t in groups if any(matches(g, x, hand) for x in t)]
            if not groups:
                continue
        emit_plays(g, s, hand, c, groups, out)


def list_plays(g: Game, s: int, out: list[Action]) -> None:
    """Every play seat ``s`` may make now (``legal_actions`` lists the same plays, in the
    same order, among the other actions)."""
    if s != g.cur:
        if jump_in_open(g):
            jump_ins(g, s, out)
        return
    ph = g.phase_
    if ph is CHOOSING:
        return
    if ph is CHALLENGE or g.pending:
        stack_plays(g, s, out)
    elif g.drawn is not None:
        list_drawn_play(g, s, out)
    else:
        list_turn_plays(g, s, out)


def accepted_unlisted(action: Action, acts: list[Action]) -> Action | None:
    """The accepted forms never listed, as the action to apply (``None``: not accepted):
    ``uno=True``; a wild with no colour yet (asked for next); and a ``same_rank`` play of
    several colours with no colour, where the lead card's colour stays in play (the player
    chose it by leading with it; it is laid on top)."""
    if not isinstance(action, Play):
        return None
    card, together, target, color = action.card, action.together, action.target, action.color
    mixed = bool(together) and not card.is_wild
    mixed = mixed and any(c.color is not card.color for c in together)
    if color is None and mixed:
        if play_of(card, card.color, target, together) not in acts:
            return None
        return Play(card, card.color, target, together, action.uno)
    if action.uno and play_of(card, color, target, together) in acts:
        return action
    if (
        color is None
        and card.is_wild
        and any(play_of(card, c, target, together) in acts for c in COLORS)
    ):
        return action
    return None


# ---------------------------------------------------------------------------- refusal


def play_refusal(g: Game, s: int, a: Play) -> Refusal:
    """Why ``a`` (not listed) is refused: each family's refusal in a fixed order, the first
    that objects (the colour being named; the turn; the cards held; out of turn the jump-in,
    in turn the last card; the +4 rule; in turn the penalty faced and the drawn card; the
    group; the first play; out of turn the last card; the colour to follow; matching; the
    colour named; the swap target). Only asked for a play that is not listed: the order
    is what makes the same play always get the same reason."""
    mine = s == g.cur
    if g.phase_ is CHOOSING:
        return NAME_COLOR_FIRST if mine else naming_refusal(g)
    if not mine:  # the turn first: whatever the card, not now
        why = turn_refusal(g)
        if why is not None:
            return why
    hand = g.hands[s]
    cards = a.cards
    for c in dict.fromkeys(cards):  # in play order: the same message in every process
        if hand.count(c) < cards.count(c):
            return (Code.CARD_NOT_IN_HAND, f"{c.code} is not in the hand")
    why = jump_in_refusal(g, a) if not mine else last_card_refusal(g, a, hand)
    if why is None:
        why = w4_refusal(g, a, hand)
    if why is None and mine:
        why = penalty_refusal(g, a)
        if why is None and g.drawn is not None and a.card is not g.drawn:
            why = _ONLY_DRAWN
    if why is None:
        why = group_refusal(g, a)
    if why is None and mine and g.first_play and not a.card.is_number:
        why = NUMBER_FIRST
    if why is None and not mine:
        why = last_card_refusal(g, a, hand)
    if why is None:
        why = follow_refusal(g, a) or match_refusal(g, a, hand) or named_color_refusal(a)
    if why is None:
        why = target_refusal(g, s, a)
    if why is None:  # nothing above says why: the play is simply not among the listed
        why = (Code.DOES_NOT_MATCH, f"{a.card.code} cannot be played now")
    return why


def can_play(g: Game, s: int, a: Play) -> bool:
    """Whether seat ``s`` may make play ``a`` now: listed, or an accepted form of a listed
    play (``accepted_unlisted``)."""
    plays: list[Action] = []
    list_plays(g, s, plays)
    return a in plays or accepted_unlisted(a, plays) is not None


def verify_play(g: Game, s: int, a: Play) -> None:
    if not can_play(g, s, a):
        raise refused(play_refusal(g, s, a))


# ---------------------------------------------------------------------------- effect


def do_play(g: Game, s: int, a: Play, ev: list[Event]) -> None:
    rules = g.fl
    pid = g.players_[s]
    jump = s != g.cur
    if g.exposed:
        close_windows(g, pid)
    hand = mhand(g, s)
    lead = a.card
    rank = lead.rank
    together = a.together
    k = 1 + len(together)
    hand.remove(lead)
    for c in together:
        hand.remove(c)
    w4_legal = rank is not W4 or w4_is_legal(g, hand)
    # under same_rank the card of the chosen colour goes on top
    if together and a.color is not None and not lead.is_wild:
        cards = [c for c in (lead, *together) if c.color is not a.color]
        cards += [c for c in (lead, *together) if c.color is a.color]
        g.discard = [*g.discard, *cards]
    else:
        g.discard = [*g.discard, lead, *together]
    g.cur = s  # a jump-in: the players in between lose their turn
    g.drawn = None
    if g.follow:
        g.follow = False
    g.first_play = False
    g.stalled = 0
    facing = g.pending > 0
    if facing:
        kind = "deflect" if rank is SKIP or rank is REV else "pass" if rank is W else "stack"
    else:
        kind = "normal"
    g.challenge = None
    g.phase_ = PLAYING
    if lead.is_wild:
        new_color: Color | None = a.color
    elif a.color is not None:
        new_color = a.color
    else:
        new_color = g.discard[-1].color
    ev.append(CardPlayed(pid, lead, together, new_color, a.target, jump, len(hand)))
    out = not hand
    if out:
        out = do_last_card(g, s, lead, ev)
        if out and not rules.places:  # going out: a last +2/+4 is still drawn, and scored
            if new_color is not None:
                g.play_color = new_color
            victim_draws = g.pending + (k * lead.draw if kind in ("stack", "normal") else 0)
            clear_penalty(g)
            if victim_draws:
                v = nxt(g, s)
                give(g, v, victim_draws, "penalty", ev)
            end_round(g, s, "out", ev)
            return
        # places: the player who went out plays on no more; their card takes its effect
        # (no swap with a last card), and their place is settled once it has
        if out:
            fix_uno(g, pid, 0)
    swap = swap_kind(rules, rank) if rules.swap != "off" and not out else None
    if len(hand) == 1 and swap is None:  # with a swap, UNO is settled after it
        after_play(g, pid, a.uno, ev)
    if swap is not None:
        do_swap(g, s, swap, a, ev)
    if lead.is_wild and new_color is None:  # the player names the colour next
        if rules.color_timeout == "keep":
            g.kept_color = g.play_color
        g.play_color = None
        g.phase_ = CHOOSING
        g.after_color = "effect"
        g.deferred = (pid, rank, k, kind, w4_legal)
        return
    g.play_color = new_color
    if kind == "normal" and lead.is_number and swap is None and not out and not g.out:
        g.cur = (s + g.direction_) % len(g.players_)  # the common case
        return
    resolve(g, s, rank, k, kind, w4_legal, ev)
    if out:
        settle_out(g, s, ev)


def resolve(
    g: Game, s: int, rank: Rank, k: int, kind: str, w4_legal: bool, ev: list[Event]
) -> None:
    """The effect of the card(s) just played from seat ``s`` (``kind``: ``normal``, or on
    a penalty ``stack``, ``deflect``, ``pass``); sets whose turn it is."""
    rules = g.fl
    n = len(g.players_)
    two = n == 2 and rules.two_player == "official"
    if kind == "deflect":
        do_deflect(g, s, rank, two, ev)
        return
    if kind == "pass":
        do_wild_pass(g, s, ev)
        return
    if rank is D2 or rank is W4:
        do_penalty_card(g, s, rank, k, kind == "stack", w4_legal, ev)
        return
    if rank is SKIP or (rank is REV and two):
        # several Skips skip as many players, but never the one who played them: with two
        # players any number of them means "play again" (docs/rules.md, two players)
        if g.out or not g.hands[s]:  # places: among those still playing, never back to s
            others = sum(1 for i, h in enumerate(g.hands) if h and i != s)
            k = min(k, others if g.hands[s] else others - 1)
        else:
            k = min(k, n - 1)
        for i in range(1, k + 1):
            ev.append(TurnSkipped(g.players_[nxt(g, s, i)]))
        g.cur = nxt(g, s, k + 1)
        return
    if rank is REV and k % 2 == 1:
        g.direction_ = -g.direction_
        ev.append(DirectionReversed(g.direction_))
    g.cur = nxt(g, s)
