"""docs/rules.md section 1, "Start card": real deals found by seed, one test per start card."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine import (
    CardsDrawn,
    ChooseColor,
    Code,
    Color,
    ColorChosen,
    DeckReshuffled,
    DirectionReversed,
    Draw,
    IllegalAction,
    Pass,
    Phase,
    Play,
    Rank,
    RoundStarted,
    Rules,
    TurnSkipped,
    apply,
    full_deck,
    game_to_json,
    legal_actions,
    new_game_events,
    redact,
)

FOUR = ["A", "B", "C", "D"]
TWO = ["A", "B"]


def deal(pred, players=FOUR, rules=None):
    """The first deal (game, events) among seeds 0-1999 that satisfies ``pred``."""
    for seed in range(2000):
        g, ev = new_game_events(players, rules, seed)
        if pred(g, ev):
            return g, ev
    raise AssertionError("no seed gives this start card")


def top_is(rank):
    return lambda g, ev: ev[0].top.rank is rank


def seat(players, dealer, steps):
    return players[(players.index(dealer) + steps) % len(players)]


def all_cards(g) -> Counter:
    """Every card of the round (hands, draw pile, discard pile), from the stored state."""
    d = json.loads(game_to_json(g))
    return Counter(
        [c for h in d["hands"] for c in h.split()] + d["draw_pile"].split() + d["discard"].split()
    )


def end_turn(g, player):
    """The player draws (and keeps the card if it was playable): their turn is over."""
    g, _ = apply(g, player, Draw())
    if g.current == player:
        g, _ = apply(g, player, Pass())
    return g


def test_number_start_card_has_no_effect():
    """Start card number: no effect; play starts left of the dealer."""
    # a number turned at once (not after a Wild Draw Four went back into the deck)
    g, ev = deal(lambda g, ev: ev[0].top.is_number and len(ev) == 1)
    first = seat(FOUR, g.dealer, 1)
    assert len(ev) == 1
    assert isinstance(ev[0], RoundStarted)
    assert (g.current, ev[0].current, g.direction) == (first, first, 1)
    assert g.color is g.top.color
    assert g.phase is Phase.PLAYING
    assert all(len(g.hand(p)) == 7 for p in FOUR)


def test_skip_start_card_skips_first_player():
    """Start card S: the first player is skipped."""
    g, ev = deal(top_is(Rank.SKIP))
    first = seat(FOUR, g.dealer, 1)
    assert TurnSkipped(first) in ev
    assert g.current == seat(FOUR, g.dealer, 2)
    assert g.direction == 1
    assert len(g.hand(first)) == 7
    assert g.color is g.top.color


def test_skip_start_card_wraps_round_the_table():
    """Start card S with the last seat dealing: the first seat is skipped, the second plays."""
    g, ev = deal(lambda g, ev: top_is(Rank.SKIP)(g, ev) and g.dealer == "D")
    assert TurnSkipped("A") in ev
    assert g.current == "B"


def test_reverse_start_card_dealer_plays_first_then_other_way():
    """Start card R: direction reverses, the dealer plays first, then play goes the other way."""
    g, ev = deal(top_is(Rank.REVERSE))
    dealer = g.dealer
    assert DirectionReversed(-1) in ev
    assert (g.current, g.direction) == (dealer, -1)
    assert all(len(g.hand(p)) == 7 for p in FOUR)
    g = end_turn(g, dealer)
    assert g.current == seat(FOUR, dealer, -1)


def test_reverse_start_card_with_first_seat_dealing():
    """Start card R with the first seat dealing: after the dealer, the last seat plays."""
    g, _ = deal(lambda g, ev: top_is(Rank.REVERSE)(g, ev) and g.dealer == "A")
    assert g.current == "A"
    g = end_turn(g, "A")
    assert g.current == "D"


def test_draw_two_start_card_first_player_draws_two_and_is_skipped():
    """Start card D2: the first player draws 2 and is skipped."""
    g, ev = deal(top_is(Rank.DRAW_TWO))
    first = seat(FOUR, g.dealer, 1)
    drawn = [e for e in ev if isinstance(e, CardsDrawn)]
    assert len(drawn) == 1
    assert (drawn[0].player, drawn[0].count) == (first, 2)
    assert set(drawn[0].cards) <= set(g.hand(first))
    assert TurnSkipped(first) in ev
    assert len(g.hand(first)) == 9
    assert g.current == seat(FOUR, g.dealer, 2)
    assert g.pending_draw == 0
    assert g.draw_pile_size == 108 - 28 - 1 - 2


def test_wild_start_card_first_player_names_colour_then_plays():
    """Start card W: the first player names the colour, then plays."""
    g, ev = deal(top_is(Rank.WILD))
    first = seat(FOUR, g.dealer, 1)
    assert (g.phase, g.current, g.color) == (Phase.CHOOSING_COLOR, first, None)
    assert all(len(g.hand(p)) == 7 for p in FOUR)
    other = seat(FOUR, g.dealer, 2)
    with pytest.raises(IllegalAction) as info:
        apply(g, other, ChooseColor(Color.RED))
    assert info.value.code is Code.NOT_YOUR_TURN
    g, ev = apply(g, first, ChooseColor(Color.BLUE))
    assert ev == [ColorChosen(first, Color.BLUE)]
    assert (g.phase, g.current, g.color) == (Phase.PLAYING, first, Color.BLUE)
    for action in legal_actions(g, first):
        if isinstance(action, Play):
            assert action.card.is_wild or action.card.color is Color.BLUE


def test_wild_start_card_first_player_then_passes_on():
    """Start card W: after naming the colour and playing, play goes on clockwise."""
    g, _ = deal(top_is(Rank.WILD))
    first = seat(FOUR, g.dealer, 1)
    g, _ = apply(g, first, ChooseColor(Color.GREEN))
    g = end_turn(g, first)
    assert g.current == seat(FOUR, g.dealer, 2)


def test_wild_draw_four_start_card_returned_and_reshuffled():
    """Start card W4: returned to the deck, reshuffled, another card turned."""
    g, ev = deal(lambda g, ev: any(isinstance(e, DeckReshuffled) for e in ev))
    reshuffles = [e for e in ev if isinstance(e, DeckReshuffled)]
    assert all(e.reason == "start" for e in reshuffles)
    assert g.top.rank is not Rank.WILD_DRAW_FOUR
    assert g.discard_pile_size == 1
    assert all_cards(g) == Counter(str(c) for c in full_deck())
    assert g.draw_pile_size == 108 - 28 - 1 - (2 if g.top.rank is Rank.DRAW_TWO else 0)
    assert reshuffles[-1].size == 108 - 28


def test_wild_draw_four_never_starts():
    """No round starts on a W4 (it goes back, repeat as needed)."""
    for seed in range(300):
        g, ev = new_game_events(FOUR, seed=seed)
        assert g.top.rank is not Rank.WILD_DRAW_FOUR
        assert ev[0].top.rank is not Rank.WILD_DRAW_FOUR


def test_start_card_effects_with_creator_dealer():
    """dealer=creator: the first seat deals, so an S start card skips the second seat."""
    rules = Rules(dealer="creator")
    g, ev = deal(top_is(Rank.SKIP), rules=rules)
    assert g.dealer == "A"
    assert TurnSkipped("B") in ev
    assert g.current == "C"


def test_two_players_skip_start_card_dealer_plays():
    """Two players, start card S: the first player is skipped, so the dealer plays."""
    g, ev = deal(top_is(Rank.SKIP), players=TWO)
    other = seat(TWO, g.dealer, 1)
    assert TurnSkipped(other) in ev
    assert g.current == g.dealer


def test_two_players_reverse_start_card_acts_as_skip():
    """Two players: R acts as S, so on an R start card the dealer plays first."""
    g, _ = deal(top_is(Rank.REVERSE), players=TWO)
    dealer = g.dealer
    assert g.current == dealer
    g = end_turn(g, dealer)
    assert g.current == seat(TWO, dealer, 1)


def test_two_players_draw_two_start_card():
    """Two players, start card D2: the first player draws 2 and is skipped; the dealer plays."""
    g, _ = deal(top_is(Rank.DRAW_TWO), players=TWO)
    other = seat(TWO, g.dealer, 1)
    assert len(g.hand(other)) == 9
    assert len(g.hand(g.dealer)) == 7
    assert g.current == g.dealer


def test_start_card_is_the_card_after_the_deal():
    """The next card after the deal starts the discard pile: the event shows it on top."""
    # a number turned at once (not after a Wild Draw Four went back into the deck)
    g, ev = deal(lambda g, ev: ev[0].top.is_number and len(ev) == 1)
    assert ev[0].top == g.top
    assert ev[0].color is g.top.color
    dealt = sum(len(h) for h in ev[0].hands.values())
    assert dealt == 28
    assert all_cards(g) == Counter(str(c) for c in full_deck())


def test_dealt_hands_visible_only_to_their_owner():
    """The deal's event carries every hand; each viewer sees only their own."""
    # a number turned at once (not after a Wild Draw Four went back into the deck)
    g, ev = deal(lambda g, ev: ev[0].top.is_number and len(ev) == 1)
    started = ev[0]
    assert set(started.hands) == set(FOUR)
    for p in FOUR:
        assert redact(started, p).hands == {p: tuple(g.hand(p))}
    assert redact(started, None).hands == {}
