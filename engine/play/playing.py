"""Playing a card (Play): the turn's plays, their refusals and their effect."""

from __future__ import annotations

from engine.actions import (
    Action,
    Play,
)
from engine.cards import Color, Rank
from engine.errors import Code, IllegalAction
from engine.events import (
    CardPlayed,
    DirectionReversed,
    Event,
    PenaltyPassed,
    PenaltyStacked,
    TurnSkipped,
    UnoCalled,
)
from engine.game import Game
from engine.play.base import (
    ACCEPT,
    CHALLENGE,
    CHALLENGE_A,
    CHOOSE,
    CHOOSING,
    D2,
    DRAW,
    PASS,
    PLAYING,
    REV,
    SINGLE,
    SKIP,
    W4,
    W,
    clear_penalty,
    close_windows,
    distinct_cards,
    fix_uno,
    give,
    mhand,
    nxt,
    without,
)
from engine.play.last_card import NOT_LAST
from engine.play.matching import emit_plays, groups_for, matches, w4_is_legal, w4_ok, w4_refusal
from engine.play.penalty import draw_at_once
from engine.play.scoring import end_round, settle_out
from engine.play.stacking import bounce_target, stack_plays
from engine.play.swap import do_swap, swap_kind


def turn_actions(g: Game, s: int, out: list[Action]) -> None:
    ph = g.phase_
    if ph is CHOOSING:
        out.extend(CHOOSE)
        return
    if ph is CHALLENGE:
        out.append(CHALLENGE_A)
        out.append(ACCEPT)
        stack_plays(g, s, out)
        return
    if g.pending:
        out.append(ACCEPT)
        stack_plays(g, s, out)
        return
    hand = g.hands[s]
    drawn = g.drawn
    if drawn is not None:
        n0 = len(out)
        if matches(g, drawn, hand):  # still: a false UNO call may have brought the colour
            emit_plays(g, s, hand, drawn, ((),), out)
        rules = g.fl
        bluff = (
            drawn.rank is W4 and rules.wild_draw_four == "challenge" and not w4_is_legal(g, hand)
        )
        if not (rules.force_play and len(out) > n0 and not bluff):
            out.append(PASS)  # force_play: a playable drawn card must be played (not a bluff)
        return
    if g.first_play:
        n0 = len(out)
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
        if len(out) == n0:
            out.append(DRAW)  # no number to open with: draw 2 and lose the turn
        return
    rules = g.fl
    multi = rules.multi_play
    if rules.swap == "off" and multi != "same_rank" and not g.follow:
        # the common case, kept fast: nothing to choose but a colour (and identical pairs)
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
    else:
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
    out.append(DRAW)


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
    ev.append(
        CardPlayed(
            pid,
            lead,
            together,
            new_color,
            a.target,
            jump,
            len(hand),
        )
    )
    out = not hand
    if out:
        if rules.last_card == "play_and_draw" and not lead.is_number:
            give(g, s, 1, "last_card", ev)
            out = not hand
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
        g.called = without(g.called, pid)
        if a.uno:
            g.called = (*g.called, pid)
            g.exposed = without(g.exposed, pid)
            g.silent = without(g.silent, pid)
            ev.append(UnoCalled(pid))
        else:
            if pid not in g.exposed:
                g.exposed = (*g.exposed, pid)
            if rules.uno_call == "with_play" and pid not in g.silent:
                g.silent = (*g.silent, pid)  # seed 001: "必须在倒数第2张牌落地的时候喊出"
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
    """The effect of the card(s) just played from seat ``s``; sets whose turn it is."""
    rules = g.fl
    n = len(g.players_)
    pid = g.players_[s]
    two = n == 2 and rules.two_player == "official"
    if kind == "deflect":
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
        return
    if kind == "pass":
        to = nxt(g, s)
        g.cur = to
        g.pending_by = pid
        ev.append(PenaltyPassed(pid, g.players_[to], g.pending, "wild"))
        if not g.hands[s]:  # places: a last card is never stacked on; drawn at once
            draw_at_once(g, to, g.pending_kind is D2, ev)
        return
    if rank is D2 or rank is W4:
        per = 2 if rank is D2 else 4
        g.pending += k * per
        g.pending_kind = rank
        if rank is D2 or rules.deflect == "all":  # where a Reverse deflect sends it back
            g.pending_from = pid
        if kind == "stack":
            ev.append(PenaltyStacked(pid, g.pending))
        challengeable = rank is W4 and rules.wild_draw_four == "challenge"
        v = nxt(g, s)
        # drawn at once, victim skipped (places: also a last card, never stacked on)
        if (rules.stacking == "off" and not challengeable) or not g.hands[s]:
            draw_at_once(g, v, rank is D2, ev)
        else:  # the victim decides: stack, challenge or accept
            g.cur = v
            g.pending_by = pid
            if challengeable:
                g.phase_ = CHALLENGE
                g.challenge = (pid, w4_legal)
        return
    if rank is SKIP or (rank is REV and two):
        # several Skips skip as many players, but never the one who played them: with two
        # players any number of them means "play again" (RULES.md, two players)
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


def diagnose_play(g: Game, s: int, a: Play) -> IllegalAction:
    rules = g.rules
    hand = g.hands[s]
    mine = s == g.cur
    cards = a.cards
    if not mine and not rules.jump_in:  # the turn first: whatever the card, not now
        return IllegalAction(Code.NOT_YOUR_TURN, f"it is {g.players_[g.cur]}'s turn")
    for c in dict.fromkeys(cards):  # in play order: the same message in every process
        if hand.count(c) < cards.count(c):
            return IllegalAction(Code.CARD_NOT_IN_HAND, f"{c.code} is not in the hand")
    top = g.discard[-1]
    if not mine:
        if a.together:
            return IllegalAction(Code.BAD_COMBINATION, "jump in with one card")
        if a.card is not top:
            return IllegalAction(Code.NOT_IDENTICAL, "jumping in needs the identical card")
        if g.phase_ is not PLAYING or g.first_play or g.pending:
            return IllegalAction(Code.NO_JUMP_IN, "no jumping in right now")
    last = len(cards) == len(hand)
    if mine and last and a.card.rank in NOT_LAST[rules.last_card]:
        return IllegalAction(Code.NOT_AS_LAST_CARD, f"{a.card.code} may not be the last card")
    if mine and last and g.pending and a.card.rank in (SKIP, REV):
        return IllegalAction(Code.NOT_AS_LAST_CARD, "a deflect is never the last card")
    if a.card.rank is W4 and not w4_ok(g, hand):
        return w4_refusal(g)
    if (
        mine
        and g.phase_ is CHALLENGE
        and a.card.rank not in (D2, W4, W)
        and not (rules.deflect == "all" and a.card.rank in (SKIP, REV))
    ):
        return IllegalAction(Code.CHALLENGE_OPEN, "challenge or accept the Wild Draw Four")
    if mine and g.pending and a.card.rank not in (D2, W4, W, SKIP, REV):
        return IllegalAction(Code.PENALTY_PENDING, "stack or accept the pending penalty")
    if mine and g.pending:
        return IllegalAction(Code.CANNOT_STACK, f"{a.card.code} cannot go on this penalty")
    if mine and g.drawn is not None and a.card is not g.drawn:
        return IllegalAction(Code.MUST_PLAY_DRAWN, "only the drawn card may be played")
    if a.together:
        if rules.multi_play == "off":
            return IllegalAction(Code.MULTI_PLAY_OFF, "one card at a time")
        if (
            g.drawn is not None
            or any(c.rank is not a.card.rank for c in a.together)
            or (rules.multi_play == "identical" and any(c is not a.card for c in a.together))
        ):
            return IllegalAction(Code.BAD_COMBINATION, "these cards cannot be played together")
    if mine and g.first_play and not a.card.is_number:
        return IllegalAction(Code.FIRST_PLAY_NUMBER, "open the round with a number card")
    if a.card.rank is W4 and not w4_ok(g, hand):
        return w4_refusal(g)
    if len(cards) == len(hand) and a.card.rank in NOT_LAST[rules.last_card]:
        return IllegalAction(Code.NOT_AS_LAST_CARD, f"{a.card.code} may not be the last card")
    if g.follow:
        color = g.play_color
        trank = None if top.is_wild else top.rank
        off = any(c.color is not color for c in cards if not c.is_wild) or a.card.rank is W
        if off and any(c.is_wild or c.color is color or c.rank is trank for c in cards):
            return IllegalAction(
                Code.FOLLOW_COLOR, "after a taken +2 the next play follows its colour"
            )
    if not matches(g, a.card, hand) and not (
        a.together and any(matches(g, c, hand) for c in a.together)
    ):
        return IllegalAction(Code.DOES_NOT_MATCH, f"{a.card.code} does not match")
    if a.card.is_wild:
        return IllegalAction(Code.CHOOSE_COLOR, "name a colour for the wild card")
    if a.color is not None:
        colors = {c.color for c in cards}
        if len(colors) < 2:
            return IllegalAction(Code.NO_COLOR_NEEDED, "this play takes no colour")
        if a.color not in colors:
            return IllegalAction(Code.CHOOSE_COLOR, "choose one of the played colours")
    elif a.together and len({c.color for c in cards}) > 1:
        return IllegalAction(Code.CHOOSE_COLOR, "choose which played colour stays")
    swap = swap_kind(rules, a.card.rank)
    if swap == "target" and len(cards) < len(hand):
        if (
            a.target is None
            or a.target not in g.seat
            or a.target == g.players_[s]
            or not g.hands[g.seat[a.target]]  # places: out of the round
        ):
            return IllegalAction(Code.CHOOSE_TARGET, "choose a player to swap hands with")
    elif a.target is not None:
        return IllegalAction(Code.NO_TARGET_NEEDED, "this play swaps with nobody")
    return IllegalAction(Code.DOES_NOT_MATCH, f"{a.card.code} cannot be played now")
