"""Readings of docs/rules.md settled after a review: each test pins one (docs/engine.md)."""

from __future__ import annotations

from engine import (
    CallUno,
    CardsDrawn,
    DeckReshuffled,
    Draw,
    HandsSwapped,
    IllegalAction,
    Pass,
    PenaltyPassed,
    Play,
    RoundWon,
    Rules,
    Timeout,
    TurnSkipped,
    UnoCalled,
    apply,
    legal_actions,
    scenario,
)


def test_reverse_sends_a_returned_penalty_back_to_who_returned_it() -> None:
    """Seed 001: if the +2's player also holds a Reverse of that colour, they may send the
    penalty back again ("则可以反还给你抓牌")."""
    r = Rules(stacking="draw_two", deflect=True)
    g = scenario(
        {"A": ["RD2", "RR", "G1"], "B": ["RR", "Y4", "Y5"], "C": ["Y1", "Y2"]}, ["R9"], rules=r
    )
    g, _ = apply(g, "A", Play("RD2"))
    g, ev = apply(g, "B", Play("RR"))
    assert PenaltyPassed("B", "A", 2, "reverse") in ev and g.current == "A"
    assert Play("RR") in legal_actions(g, "A")
    g, ev = apply(g, "A", Play("RR"))
    assert PenaltyPassed("A", "B", 2, "reverse") in ev
    assert (g.current, g.pending_draw) == ("B", 2)


def test_force_play_forces_a_drawn_wild_draw_four_when_it_is_always_legal() -> None:
    """force_play: a drawn card that is a legal play must be played; under free a W4 is
    always legal, so it is never a bluff that escapes the rule."""
    r = Rules(force_play=True, wild_draw_four="free")
    g = scenario({"A": ["R1", "G2"], "B": ["Y3", "Y4"]}, ["R9"], draw_pile=["W4", "Y9"], rules=r)
    g, _ = apply(g, "A", Draw())
    assert Pass() not in legal_actions(g, "A")


def test_force_play_does_not_force_a_bluff_under_challenge() -> None:
    """force_play: a drawn W4 that would be a bluff (the colour is held) is not forced."""
    r = Rules(force_play=True)
    g = scenario({"A": ["R1", "G2"], "B": ["Y3", "Y4"]}, ["R9"], draw_pile=["W4", "Y9"], rules=r)
    g, _ = apply(g, "A", Draw())
    assert Pass() in legal_actions(g, "A")


def test_no_bluff_drawn_wild_draw_four_is_rechecked_after_the_hand_changed() -> None:
    """no_bluff: an illegal W4 is refused, also a drawn one after a false UNO call brought
    the colour in play into the hand."""
    r = Rules(wild_draw_four="no_bluff", false_uno_penalty=1)
    g = scenario(
        {"A": ["G1", "B2"], "B": ["Y3", "Y4", "Y5"]},
        ["R9"],
        draw_pile=["W4", "R1", "Y9", "Y8"],
        rules=r,
    )
    g, _ = apply(g, "A", Draw())
    assert Play("W4", color="G") in legal_actions(g, "A")
    g, _ = apply(g, "A", CallUno())  # a false call: A draws R1
    assert "R1" in [c.code for c in g.hand("A")]
    assert not any(isinstance(a, Play) for a in legal_actions(g, "A"))
    assert Pass() in legal_actions(g, "A")
    try:
        apply(g, "A", Play("W4", color="G"))
    except IllegalAction:
        pass
    else:
        raise AssertionError("an illegal W4 was accepted under no_bluff")


def test_uno_with_a_swap_is_called_once_for_the_hand_kept() -> None:
    """A UNO call with a 7 is settled after the swap: one UnoCalled, for the player only if
    they end with one card."""
    g = scenario({"A": ["R7", "G1"], "B": ["Y3"], "C": ["Y4", "Y5"]}, ["R9"],
                 rules=Rules(swap="seven_zero"))  # fmt: skip
    _, ev = apply(g, "A", Play("R7", target="B", uno=True))
    assert ev.count(UnoCalled("A")) == 1 and any(isinstance(e, HandsSwapped) for e in ev)
    g = scenario({"A": ["R7", "G1"], "B": ["Y3", "Y6", "Y7"], "C": ["Y4"]}, ["R9"],
                 rules=Rules(swap="seven_zero"))  # fmt: skip
    g2, ev = apply(g, "A", Play("R7", target="B", uno=True))
    assert not any(isinstance(e, UnoCalled) for e in ev)  # A holds three cards now
    assert "B" in g2.exposed_players  # B came down to one card by the swap


def test_two_skips_with_two_players_mean_play_again() -> None:
    """Two players: a Skip means "play again"; two of them never skip the player who
    played them."""
    r = Rules(multi_play="identical")
    g = scenario({"A": ["RS", "RS", "G1"], "B": ["Y3", "Y4"]}, ["R9"], rules=r)
    g, ev = apply(g, "A", Play("RS", together=("RS",)))
    assert g.current == "A"
    assert [e for e in ev if isinstance(e, TurnSkipped)] == [TurnSkipped("B")]


def test_three_skips_with_three_players_never_skip_the_player() -> None:
    """Several Skips skip as many players, at most everyone else."""
    r = Rules(multi_play="identical")
    g = scenario(
        {"A": ["RS", "RS", "RS", "G1"], "B": ["Y3", "Y4"], "C": ["B1", "B2"]}, ["R9"], rules=r
    )
    g, ev = apply(g, "A", Play("RS", together=("RS", "RS")))
    assert g.current == "A"
    assert [e for e in ev if isinstance(e, TurnSkipped)] == [TurnSkipped("B"), TurnSkipped("C")]


def test_first_play_number_lasts_until_a_card_is_played_or_the_penalty_taken() -> None:
    """first_play_number: a turn timeout (draw one, pass) does not open the round; the
    next player must still open with a number."""
    r = Rules(first_play_number=True)
    g = scenario(
        {"A": ["R1", "G2"], "B": ["RS", "R3"], "C": ["Y1"]}, ["R9"], draw_pile=["B5"], rules=r
    )
    g, _ = apply(g, "A", Timeout())
    assert g.current == "B"
    assert Play("RS") not in legal_actions(g, "B")
    assert Play("R3") in legal_actions(g, "B")


def test_scenario_draw_pile_is_the_given_pile() -> None:
    """ENGINE.md: ``draw_pile`` lists the cards to be drawn; nothing else is added to it."""
    g = scenario({"A": ["R1", "G2"], "B": ["Y3"]}, ["B1", "B2", "R5"], draw_pile=["G7", "Y8"])
    assert (g.draw_pile_size, g.discard_pile_size) == (2, 3)
    g, _ = apply(g, "A", Draw())
    assert [str(c) for c in g.hand("A")] == ["R1", "G2", "G7"]
    assert g.draw_pile_size == 1


def test_scenario_empty_pile_reshuffles_the_discard_under_its_top() -> None:
    """docs/rules.md 1, empty draw pile: the discard pile except its top card becomes the pile."""
    g = scenario({"A": ["G2"], "B": ["Y3"]}, ["B1", "B2", "B3", "R5"])
    assert g.draw_pile_size == 0
    g, ev = apply(g, "A", Draw())
    assert DeckReshuffled(3) in ev
    assert len(g.hand("A")) == 2 and str(g.top) == "R5"
    assert (g.draw_pile_size, g.discard_pile_size) == (2, 1)


def test_scenario_both_piles_empty_blocks_the_round() -> None:
    """docs/rules.md 1: with both piles empty a draw gives nothing and the turn passes; when every
    player passes so, the round ends and the lowest hand wins it. ``fill=False``: no reserve
    of unplaced cards behind the two piles."""
    g = scenario({"A": ["G2", "G9"], "B": ["Y3"]}, ["R5"], fill=False)
    g, ev = apply(g, "A", Draw())
    assert CardsDrawn("A", 0, ()) in ev and g.current == "B"
    assert not any(isinstance(e, RoundWon) for e in ev)
    g, ev = apply(g, "B", Draw())
    won = [e for e in ev if isinstance(e, RoundWon)]
    assert len(won) == 1 and (won[0].player, won[0].reason) == ("B", "blocked")


def test_scenario_unplaced_cards_come_only_when_both_piles_are_used_up() -> None:
    """A test that lists no draw pile still draws real cards: after the discard pile's
    reshuffle, the cards placed nowhere (the rest of one deck) are drawn."""
    hands = {"A": ["RD2", "B3"], "B": ["G1", "G2"], "C": ["Y1"]}
    g = scenario(hands, ["R1"])
    assert (g.draw_pile_size, g.discard_pile_size) == (0, 1)
    g, ev = apply(g, "A", Play("RD2"))
    assert len(g.hand("B")) == 4 and g.current == "C"
    drawn = next(e for e in ev if isinstance(e, CardsDrawn))
    assert drawn.player == "B" and drawn.count == 2 and drawn.cards is not None
    assert drawn.cards[0] == "R1" and DeckReshuffled(1) in ev  # the discard pile first
    sizes = sum(len(g.hand(p)) for p in g.players) + g.draw_pile_size + g.discard_pile_size
    assert sizes == 108  # the rest of one deck came into play, nothing more


def test_scenario_fill_appends_the_rest_of_the_deck() -> None:
    """The extra keyword ``fill=True``: the given cards first, then the rest of the deck."""
    hands = {"A": ["R1", "G2"], "B": ["Y3"]}
    g = scenario(hands, ["R5"], draw_pile=["G7"], fill=True)
    assert g.draw_pile_size == 108 - 3 - 1 - 1 + 1
    g, _ = apply(g, "A", Draw())
    assert str(g.hand("A")[-1]) == "G7"


def test_out_of_turn_is_refused_as_out_of_turn_whatever_the_card() -> None:
    """Without jump-in the turn is checked first; with it, the card (one might jump in)."""
    hands = {"A": ["R1", "G2"], "B": ["Y3", "Y4"]}
    for card in ("Y3", "R9"):
        try:
            apply(scenario(hands, ["R5"]), "B", Play(card))
        except IllegalAction as e:
            assert e.code == "not_your_turn"
        else:
            raise AssertionError("played out of turn")
    try:
        apply(scenario(hands, ["R5"], rules=Rules(jump_in=True)), "B", Play("R9"))
    except IllegalAction as e:
        assert e.code == "card_not_in_hand"
    else:
        raise AssertionError("played a card not held")


def test_a_card_is_also_its_code() -> None:
    """Like ``Color`` and ``Rank`` (str enums), a card equals and hashes as its code, so a
    hand compares with the codes a reader of docs/rules.md writes; order stays the deck's."""
    import json

    from engine import Card

    g = scenario({"A": ["R1", "W4", "GS"], "B": ["Y3"]}, ["R5"])
    assert g.hand("A") == ["R1", "W4", "GS"] and "W4" in g.hand("A")
    assert g.top == "R5" and Card.parse("YD2") == "YD2" != Card.parse("YR")
    assert {Card.parse("W"): 1}["W"] == 1
    assert json.dumps(g.hand("A")) == '["R1", "W4", "GS"]'
    assert sorted(Card.parse(c) for c in ("W", "B0", "R9")) == ["R9", "B0", "W"]
    r9, b0 = Card.parse("R9"), Card.parse("B0")
    assert r9 < b0 and r9 <= b0 and b0 > r9 and b0 >= r9 and max(r9, b0) is b0
    assert Card.parse("R1") is Card.parse(Card.parse("R1"))
