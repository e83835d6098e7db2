"""docs/rules.md section 1, the official rules, checked one rule at a time on hand-built games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine import (
    Accept,
    CallUno,
    CardPlayed,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    ChooseColor,
    Code,
    Color,
    ColorChosen,
    DeckReshuffled,
    DirectionReversed,
    Draw,
    Game,
    GameWon,
    IllegalAction,
    NextRound,
    Pass,
    Passed,
    Phase,
    Play,
    Rank,
    RoundStarted,
    RoundWon,
    Rules,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    apply,
    full_deck,
    game_from_json,
    game_to_json,
    legal_actions,
    new_game,
    new_game_events,
    redact,
    scenario,
    view,
)
from engine.cards import Card

FOUR = ["A", "B", "C", "D"]
ALL_CODES = [f"{c}{r}" for c in "RYGB" for r in [*"0123456789", "S", "R", "D2"]] + ["W", "W4"]
POINTS = {"S": 20, "R": 20, "D2": 20, "W": 50, "W4": 50}


def cards(text: str) -> tuple[Card, ...]:
    """``"R5 G1"`` -> the cards."""
    return tuple(Card.parse(c) for c in text.split())


def hand(game, player: str) -> list[str]:
    return [str(c) for c in game.hand(player)]


def refuse(game, player: str, action) -> Code:
    """Apply an action that must be refused; check the game is unchanged; return the code."""
    before = game_to_json(game)
    with pytest.raises(IllegalAction) as info:
        apply(game, player, action)
    assert game_to_json(game) == before
    return info.value.code


def total_cards(game) -> int:
    return (
        sum(len(game.hand(p)) for p in game.players) + game.draw_pile_size + game.discard_pile_size
    )


def find_seed(pred, players=FOUR, rules=None) -> int:
    return next(s for s in range(2000) if pred(new_game(players, rules, seed=s)))


def three(a: str, b: str, c: str, discard: str = "R5", draw: str = "", **kw):
    """A three-player round: A, B, C in seat order, A to play."""
    return scenario(
        {"A": a.split(), "B": b.split(), "C": c.split()},
        discard.split(),
        draw_pile=draw.split(),
        **kw,
    )


def three_exact(*args: Any, **kw: Any) -> Game:
    """``three`` whose given draw pile is the whole pile (to test running out)."""
    return three(*args, fill=False, **kw)


# --------------------------------------------------------------------------- deck


def test_deck_has_108_cards():
    """Deck: 108 cards."""
    assert len(full_deck()) == 108


def test_deck_counts_per_kind():
    """Per colour one 0, two each of 1-9, S, R, D2 (25 x 4), plus 4 W and 4 W4."""
    counts = Counter(str(c) for c in full_deck())
    assert set(counts) == set(ALL_CODES)
    for col in "RYGB":
        assert counts[f"{col}0"] == 1
        for rank in [*"123456789", "S", "R", "D2"]:
            assert counts[f"{col}{rank}"] == 2, f"{col}{rank}"
        assert sum(n for code, n in counts.items() if code[0] == col) == 25
    assert counts["W"] == 4
    assert counts["W4"] == 4


def test_two_decks_have_216_cards():
    """More than 10 seats may use two decks (flag decks): 216 cards, every kind doubled."""
    one = Counter(full_deck())
    two = Counter(full_deck(2))
    assert len(full_deck(2)) == 216
    assert two == Counter({c: 2 * n for c, n in one.items()})


def test_card_codes_round_trip():
    """Card codes: colour letter + rank, wilds W and W4; parse and str round-trip."""
    for code in ALL_CODES:
        card = Card.parse(code)
        assert str(card) == code
        assert Card.parse(str(card)) == card
        assert hash(Card.parse(code)) == hash(card)
    assert len({Card.parse(c) for c in ALL_CODES}) == 54


def test_card_codes_name_colour_and_rank():
    """R5 red five, GS green skip, BR blue reverse, YD2 yellow draw two, W / W4 wilds."""
    expected = {
        "R5": (Color.RED, Rank.FIVE),
        "GS": (Color.GREEN, Rank.SKIP),
        "BR": (Color.BLUE, Rank.REVERSE),
        "YD2": (Color.YELLOW, Rank.DRAW_TWO),
        "W": (None, Rank.WILD),
        "W4": (None, Rank.WILD_DRAW_FOUR),
    }
    for code, (color, rank) in expected.items():
        card = Card.parse(code)
        assert (card.color, card.rank) == (color, rank), code


@pytest.mark.parametrize(
    "bad",
    ["", "R10", "X5", "RW", "RW4", "W2", "R", "5", "D2", "S", "GD4", "B-1", "WW", "R55", 5, None],
)
def test_card_parse_rejects_anything_else(bad):
    """Card.parse raises ValueError on anything but the codes of docs/rules.md."""
    with pytest.raises(ValueError):
        Card.parse(bad)


def test_two_to_ten_players():
    """2-10 players (more than 10 only with two decks)."""
    for n in (2, 10):
        assert len(new_game([f"p{i}" for i in range(n)]).players) == n
    with pytest.raises(ValueError):
        new_game(["p0"])
    with pytest.raises(ValueError):
        new_game([f"p{i}" for i in range(11)])
    g = new_game([f"p{i}" for i in range(11)], Rules(decks=2))
    assert total_cards(g) == 216


# --------------------------------------------------------------------------- dealer and deal


def test_dealer_draw_high_highest_number_deals():
    """Every player draws a card; the highest number deals (actions and wilds count 0, ties
    redraw)."""
    for seed in range(40):
        g, ev = new_game_events(FOUR, seed=seed)
        started = ev[0]
        assert isinstance(started, RoundStarted)
        draws = list(started.dealer_draws)
        candidates = set(FOUR)
        while True:
            batch, draws = draws[: len(candidates)], draws[len(candidates) :]
            assert {p for p, _ in batch} == candidates
            value = {p: (c.number if c.is_number else 0) for p, c in batch}
            best = max(value.values())
            top = {p for p, v in value.items() if v == best}
            if len(top) == 1:
                break
            candidates = top
        assert draws == []
        assert g.dealer == started.dealer == top.pop()


def test_dealer_creator_seats_creator_as_first_dealer():
    """Flag dealer=creator: the game's creator (first seat) is the first dealer."""
    for seed in range(5):
        g, ev = new_game_events(FOUR, Rules(dealer="creator"), seed=seed)
        assert g.dealer == "A"
        assert ev[0].dealer_draws == ()


def test_round_winner_deals_next_round():
    """The winner of a round deals the next one."""
    g = three("R1 R2", "R3", "G4 G5", current="B")
    assert g.dealer == "A"
    g, ev = apply(g, "B", Play("R3"))
    assert g.round_winner == "B"
    g, ev = apply(g, "A", NextRound())
    assert g.dealer == "B"
    assert ev[0].dealer == "B"
    assert g.round == 2
    # play starts left of the new dealer, after the start card's effect
    expected = {Rank.SKIP: "A", Rank.REVERSE: "B", Rank.DRAW_TWO: "A"}.get(g.top.rank, "C")
    assert g.current == expected


def test_deal_seven_cards_each_next_card_starts_discard():
    """Deal 7 cards each; the next card starts the discard pile."""
    seed = find_seed(lambda g: g.top.is_number)
    g = new_game(FOUR, seed=seed)
    assert all(len(g.hand(p)) == 7 for p in FOUR)
    assert g.discard_pile_size == 1
    assert g.draw_pile_size == 108 - 4 * 7 - 1


def test_hand_size_flag_deals_that_many():
    """Flag hand_size (3-15): cards dealt to each player."""
    rules = Rules(hand_size=5)
    g = new_game(FOUR, rules, seed=find_seed(lambda g: g.top.is_number, rules=rules))
    assert all(len(g.hand(p)) == 5 for p in FOUR)
    assert g.draw_pile_size == 108 - 4 * 5 - 1
    for bad in (2, 16):
        with pytest.raises(ValueError):
            Rules(hand_size=bad)


def test_play_starts_left_of_dealer_and_goes_clockwise():
    """Play starts left of the dealer and goes clockwise (seat order)."""
    checked = 0
    for seed in range(30):
        g = new_game(FOUR, seed=seed)
        if not g.top.is_number:
            continue
        checked += 1
        d = FOUR.index(g.dealer)
        first = FOUR[(d + 1) % 4]
        assert g.current == first
        assert g.direction == 1
        g, _ = apply(g, first, Draw())
        if g.current == first:  # the drawn card was playable: keep it
            g, _ = apply(g, first, Pass())
        assert g.current == FOUR[(d + 2) % 4]
    assert checked > 10


def test_creator_dealer_first_player_is_second_seat():
    """With dealer=creator, the first seat deals and the second seat plays first."""
    rules = Rules(dealer="creator")
    g = new_game(FOUR, rules, seed=find_seed(lambda g: g.top.is_number, rules=rules))
    assert g.current == "B"


# --------------------------------------------------------------------------- matching


def test_match_by_colour():
    """Play one card that matches the top card by colour."""
    g = three("R9 G1", "B1", "Y1")
    g, ev = apply(g, "A", Play("R9"))
    assert ev == [CardPlayed("A", Card.parse("R9"), (), Color.RED, None, False, 1)]
    assert (str(g.top), g.color, g.current) == ("R9", Color.RED, "B")
    assert hand(g, "A") == ["G1"]


def test_match_by_number():
    """A card of another colour with the same number matches; its colour is now in play."""
    g = three("G5 Y1", "B1", "Y2")
    g, _ = apply(g, "A", Play("G5"))
    assert (str(g.top), g.color, g.current) == ("G5", Color.GREEN, "B")


def test_match_by_symbol():
    """A card of another colour with the same symbol matches (GS on RS)."""
    g = three("GS Y1", "B1 B2", "Y2 Y3", discard="RS")
    g, ev = apply(g, "A", Play("GS"))
    assert (str(g.top), g.color) == ("GS", Color.GREEN)
    assert TurnSkipped("B") in ev
    assert g.current == "C"


def test_wild_matches_anything():
    """Any W may be played."""
    g = three("W G1", "B1", "Y1")
    g, _ = apply(g, "A", Play("W", color=Color.YELLOW))
    assert (str(g.top), g.color, g.current) == ("W", Color.YELLOW, "B")


def test_after_wild_named_colour_must_be_matched():
    """After a wild, the named colour is what must be matched."""
    g = three("W G1", "R7 G2", "Y1")
    g, _ = apply(g, "A", Play("W", color="GREEN"))
    assert refuse(g, "B", Play("R7")) is Code.DOES_NOT_MATCH
    g, _ = apply(g, "B", Play("G2"))
    assert (str(g.top), g.color, g.current) == ("G2", Color.GREEN, "C")


def test_wild_top_from_scenario_colour_in_play():
    """A wild on top with a named colour: only that colour (or a wild) matches."""
    g = three("B7 Y7", "B1", "Y1", discard="W", color="YELLOW")
    assert refuse(g, "A", Play("B7")) is Code.DOES_NOT_MATCH
    g, _ = apply(g, "A", Play("Y7"))
    assert g.color is Color.YELLOW


def test_non_matching_card_refused():
    """A card matching neither colour, number nor symbol is refused (does_not_match)."""
    g = three("G7 Y1", "B1", "Y2")
    assert refuse(g, "A", Play("G7")) is Code.DOES_NOT_MATCH
    assert Play("G7") not in legal_actions(g, "A")


# --------------------------------------------------------------------------- refusals


def test_not_your_turn():
    """Only the player whose turn it is may play or draw."""
    g = three("R1", "R2 R3", "Y2")
    assert refuse(g, "B", Play("R2")) is Code.NOT_YOUR_TURN
    assert refuse(g, "B", Draw()) is Code.NOT_YOUR_TURN


def test_card_not_in_hand():
    """A player can only play a card they hold."""
    g = three("R1 G2", "R2", "Y2")
    assert refuse(g, "A", Play("R9")) is Code.CARD_NOT_IN_HAND


def test_choose_color_before_anything_else():
    """While a colour is to be named, the player must name it first (choose_color)."""
    g = three("R1 G2", "R2", "Y2", discard="W")
    assert g.phase is Phase.CHOOSING_COLOR
    assert g.color is None
    assert refuse(g, "A", Play("R1")) is Code.CHOOSE_COLOR
    assert refuse(g, "A", Draw()) is Code.CHOOSE_COLOR
    assert refuse(g, "B", ChooseColor("RED")) is Code.NOT_YOUR_TURN


def test_draw_refused_while_challenge_penalty_pending():
    """The victim of a W4 decides (challenge or accept) before drawing: Draw is refused."""
    g = three("W4 G1", "R2 B3", "Y2", draw="G5 G6 G7 G8 G9 Y9")
    g, _ = apply(g, "A", Play("W4", color="BLUE"))
    assert g.pending_draw == 4
    assert refuse(g, "B", Draw()) in (Code.PENALTY_PENDING, Code.CHALLENGE_OPEN)
    assert refuse(g, "B", Play("B3")) in (Code.PENALTY_PENDING, Code.CHALLENGE_OPEN)


def test_draw_refused_with_penalty_pending_under_stacking():
    """Draw() is refused while a penalty is pending (penalty_pending)."""
    g = three("RD2 G1", "R2 B3", "Y2", draw="G5 G6", rules=Rules(stacking="draw_two"))
    g, _ = apply(g, "A", Play("RD2"))
    assert (g.current, g.pending_draw) == ("B", 2)
    assert refuse(g, "B", Draw()) is Code.PENALTY_PENDING


def test_nothing_to_challenge():
    """Challenge only concerns a W4 just played on you."""
    g = three("R1 G2", "R2", "Y2")
    assert refuse(g, "A", Challenge()) is Code.NOTHING_TO_CHALLENGE


def test_refused_action_leaves_game_unchanged():
    """An illegal action raises IllegalAction and leaves the game exactly as it was."""
    g = three("R1 G2", "R2", "Y2", draw="B1 B2")
    before = game_to_json(g)
    for player, action in [
        ("A", Play("G2")),
        ("A", Pass()),
        ("B", Draw()),
        ("A", Accept()),
        ("C", CatchUno("A")),
        ("A", CallUno()),
    ]:
        with pytest.raises(IllegalAction):
            apply(g, player, action)
        assert game_to_json(g) == before
    g2, _ = apply(g, "A", Play("R1"))
    assert game_to_json(g) == before
    assert g2 != g


# --------------------------------------------------------------------------- a turn


def test_draw_playable_card_then_play_it():
    """If the drawn card is playable you may play it at once."""
    g = three("G1", "B1", "Y1", draw="R7 Y9")
    g, ev = apply(g, "A", Draw())
    assert ev == [CardsDrawn("A", 1, cards("R7"), "draw")]
    assert g.current == "A"
    assert g.drawn_card == Card.parse("R7")
    g, ev = apply(g, "A", Play("R7"))
    assert (str(g.top), g.current) == ("R7", "B")
    assert hand(g, "A") == ["G1"]


def test_after_drawing_only_the_drawn_card_may_be_played():
    """After drawing, only the drawn card may be played."""
    g = three("R2 G1", "B1", "Y1", draw="R7")
    g, _ = apply(g, "A", Draw())
    assert refuse(g, "A", Play("R2")) is Code.MUST_PLAY_DRAWN
    plays = [a for a in legal_actions(g, "A") if isinstance(a, Play)]
    assert [p.card for p in plays] == [Card.parse("R7")]
    assert refuse(g, "A", Draw()) is Code.ALREADY_DRAWN


def test_may_draw_while_holding_a_playable_card():
    """You may draw even when you hold a playable card."""
    g = three("R2", "B1", "Y1", draw="G9")
    assert Play("R2") in legal_actions(g, "A")
    g, ev = apply(g, "A", Draw())
    assert ev == [CardsDrawn("A", 1, cards("G9"), "draw"), Passed("A")]
    assert hand(g, "A") == ["R2", "G9"]


def test_drawn_card_not_playable_ends_turn():
    """If the drawn card is not playable the turn ends."""
    g = three_exact("G1", "B1", "Y1", draw="B9 R1")
    g, ev = apply(g, "A", Draw())
    assert ev == [CardsDrawn("A", 1, cards("B9"), "draw"), Passed("A")]
    assert g.current == "B"
    assert hand(g, "A") == ["G1", "B9"]
    assert g.draw_pile_size == 1


def test_pass_only_after_drawing():
    """The turn ends without a play only after drawing (or if you choose, keeping the card)."""
    g = three("R2", "B1", "Y1", draw="R7")
    assert refuse(g, "A", Pass()) is Code.NOTHING_TO_PASS
    g, _ = apply(g, "A", Draw())
    g, ev = apply(g, "A", Pass())
    assert ev == [Passed("A")]
    assert g.current == "B"
    assert hand(g, "A") == ["R2", "R7"]
    assert str(g.top) == "R5"


# --------------------------------------------------------------------------- action cards


def test_skip_next_player_loses_turn():
    """S: next player loses the turn."""
    g = three("RS G1", "R1", "R2")
    g, ev = apply(g, "A", Play("RS"))
    assert ev[1:] == [TurnSkipped("B")]
    assert g.current == "C"


def test_reverse_reverses_direction():
    """R: direction reverses (3+ players)."""
    g = scenario({"A": ["RR", "G1"], "B": ["R1"], "C": ["R2"], "D": ["R3", "R4"]}, ["R5"])
    g, ev = apply(g, "A", Play("RR"))
    assert ev[1:] == [DirectionReversed(-1)]
    assert (g.direction, g.current) == (-1, "D")
    g, _ = apply(g, "D", Play("R3"))
    assert g.current == "C"


def test_reverse_with_three_players_goes_back():
    """R with three players: play goes to the player before."""
    g = three("RR G1", "R1", "R2")
    g, _ = apply(g, "A", Play("RR"))
    assert g.current == "C"


def test_draw_two_next_player_draws_two_and_loses_turn():
    """D2: next player draws 2 and loses the turn."""
    g = three("RD2 G1", "B1", "Y1", draw="G8 G9 Y9")
    g, ev = apply(g, "A", Play("RD2"))
    assert ev[1:] == [CardsDrawn("B", 2, cards("G8 G9"), "penalty"), TurnSkipped("B")]
    assert hand(g, "B") == ["B1", "G8", "G9"]
    assert (g.current, g.pending_draw) == ("C", 0)


def test_wild_names_any_colour():
    """W: name any colour."""
    g = three("W G1", "B1", "Y1")
    g, ev = apply(g, "A", Play("W", color=Color.BLUE))
    assert ev == [CardPlayed("A", Card.parse("W"), (), Color.BLUE, None, False, 1)]
    assert (g.color, g.current) == (Color.BLUE, "B")


def test_wild_without_colour_asks_for_it():
    """A wild played without a colour: the player is asked to name it (ChooseColor)."""
    g = three("W G1", "B1", "Y1")
    g, _ = apply(g, "A", Play("W"))
    assert (g.phase, g.current, g.color) == (Phase.CHOOSING_COLOR, "A", None)
    assert refuse(g, "B", Play("B1")) is Code.NOT_YOUR_TURN
    g, ev = apply(g, "A", ChooseColor(Color.GREEN))
    assert ev == [ColorChosen("A", Color.GREEN)]
    assert (g.phase, g.color, g.current) == (Phase.PLAYING, Color.GREEN, "B")


def test_wild_draw_four_accepted_victim_draws_four_and_loses_turn():
    """W4: name a colour; next player draws 4 and loses the turn."""
    g = three("W4 G1", "B1", "Y1", draw="G5 G6 G7 G8 G9")
    g, _ = apply(g, "A", Play("W4", color="YELLOW"))
    assert (g.phase, g.current, g.pending_draw) == (Phase.CHALLENGE, "B", 4)
    g, ev = apply(g, "B", Accept())
    assert ev == [CardsDrawn("B", 4, cards("G5 G6 G7 G8"), "penalty"), TurnSkipped("B")]
    assert (g.current, g.color, g.pending_draw) == ("C", Color.YELLOW, 0)
    assert len(g.hand("B")) == 5


# --------------------------------------------------------------------------- W4 challenge


def test_w4_guilty_when_holding_colour_to_match():
    """Guilty: the offender draws 4, the challenger draws nothing and plays normally."""
    g = three("W4 R9 G1", "B2 Y3", "Y1", draw="G5 G6 G7 G8 G9")
    g, _ = apply(g, "A", Play("W4", color="BLUE"))
    g, ev = apply(g, "B", Challenge())
    assert ev == [
        ChallengeResolved("B", "A", True, 4, "A", cards("R9 G1")),
        CardsDrawn("A", 4, cards("G5 G6 G7 G8"), "challenge"),
    ]
    assert hand(g, "A") == ["R9", "G1", "G5", "G6", "G7", "G8"]
    assert hand(g, "B") == ["B2", "Y3"]
    assert (g.current, g.phase, g.pending_draw, g.color) == ("B", Phase.PLAYING, 0, Color.BLUE)
    g, _ = apply(g, "B", Play("B2"))
    assert g.current == "C"


def test_w4_innocent_challenger_draws_six_and_loses_turn():
    """Innocent: the challenger draws 6 (4 + 2) and loses the turn."""
    g = three("W4 G1", "B2", "Y1", draw="G2 G3 G4 G5 G6 G7 G8")
    g, _ = apply(g, "A", Play("W4", color="BLUE"))
    g, ev = apply(g, "B", Challenge())
    assert ev == [
        ChallengeResolved("B", "A", False, 6, "B", cards("G1")),
        CardsDrawn("B", 6, cards("G2 G3 G4 G5 G6 G7"), "challenge"),
        TurnSkipped("B"),
    ]
    assert len(g.hand("B")) == 7
    assert hand(g, "A") == ["G1"]
    assert (g.current, g.phase, g.color) == ("C", Phase.PLAYING, Color.BLUE)


@pytest.mark.parametrize(("top", "other"), [("R5", "G5"), ("RS", "BS"), ("RD2", "YD2")])
def test_w4_legal_with_matching_number_or_symbol_of_other_colour(top, other):
    """Matching numbers/symbols in other colours do not count against a W4."""
    g = three(f"W4 {other} B7", "B2", "Y1", draw="G1 " * 6, discard=top)
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    g, ev = apply(g, "B", Challenge())
    assert ev[0].guilty is False
    assert ev[0].loser == "B"
    assert len(g.hand("B")) == 7
    assert len(g.hand("A")) == 2


def test_w4_legal_with_other_wilds():
    """Other wilds do not count against a W4."""
    g = three("W4 W W4", "B2", "Y1", draw=" ".join(["G1"] * 6))
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    g, ev = apply(g, "B", Challenge())
    assert ev[0].guilty is False
    assert len(g.hand("B")) == 7


def test_w4_colour_to_match_after_wild_is_named_colour():
    """After a wild the colour to match is the named one: holding red on a green W is legal."""
    innocent = three("W4 R5", "B2", "Y1", discard="W", color="GREEN", draw="G1 " * 6)
    g, _ = apply(innocent, "A", Play("W4", color="RED"))
    g, ev = apply(g, "B", Challenge())
    assert ev[0].guilty is False
    guilty = three("W4 G5", "B2", "Y1", discard="W", color="GREEN", draw="B1 " * 6)
    g, _ = apply(guilty, "A", Play("W4", color="RED"))
    g, ev = apply(g, "B", Challenge())
    assert ev[0].guilty is True
    assert hand(g, "A") == ["G5", "B1", "B1", "B1", "B1"]


def test_w4_colour_named_later_judged_on_colour_before_it():
    """A W4 played without a colour is still judged on the colour it was played on."""
    g = three("W4 R1 G1", "B2", "Y1", draw="B1 " * 6)
    g, _ = apply(g, "A", Play("W4"))
    g, _ = apply(g, "A", ChooseColor(Color.RED))
    assert (g.current, g.phase, g.pending_draw) == ("B", Phase.CHALLENGE, 4)
    g, ev = apply(g, "B", Challenge())
    assert ev[0].guilty is True
    assert len(g.hand("A")) == 6


def test_only_the_victim_may_challenge():
    """Only the player who must draw 4 may challenge."""
    g = three("W4 R1", "B2", "Y1", draw="G1 " * 6)
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    for other in ("A", "C"):
        code = refuse(g, other, Challenge())
        assert code in (Code.NOTHING_TO_CHALLENGE, Code.NOT_YOUR_TURN)
        assert Challenge() not in legal_actions(g, other)
    assert Challenge() in legal_actions(g, "B")


def test_challenge_only_before_drawing():
    """The victim challenges before drawing: after accepting, nothing is left to challenge."""
    g = three("W4 R1", "B2", "Y1", draw="G1 " * 6)
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    g, _ = apply(g, "B", Accept())
    assert refuse(g, "B", Challenge()) is Code.NOTHING_TO_CHALLENGE
    assert refuse(g, "C", Challenge()) is Code.NOTHING_TO_CHALLENGE


def test_challenged_hand_shown_to_challenger_alone():
    """The challenged hand is shown to the challenger alone (redact hides it from others)."""
    g = three("W4 R1 G7", "B2", "Y1", draw="G1 " * 6)
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    g, ev = apply(g, "B", Challenge())
    resolved = ev[0]
    assert isinstance(resolved, ChallengeResolved)
    assert resolved.hand == cards("R1 G7")
    assert redact(resolved, "B").hand == cards("R1 G7")
    assert redact(resolved, "C").hand is None
    assert redact(resolved, None).hand is None
    assert redact(resolved, "C").guilty is True


def test_drawn_cards_hidden_from_other_players():
    """CardsDrawn: who and how many for everyone, the cards only in the drawer's view."""
    g = three("RD2 G1", "B1", "Y1", draw="G8 G9")
    _, ev = apply(g, "A", Play("RD2"))
    drawn = ev[1]
    assert redact(drawn, "B") == CardsDrawn("B", 2, cards("G8 G9"), "penalty")
    for viewer in ("A", "C", None):
        seen = redact(drawn, viewer)
        assert (seen.player, seen.count, seen.cards) == ("B", 2, None)


# --------------------------------------------------------------------------- UNO


def test_uno_called_with_the_play_is_safe():
    """Calling UNO with the next-to-last card makes the player safe."""
    g = three("R1 R2", "B1 B3", "Y1 Y3", draw="G1 G2")
    g, ev = apply(g, "A", Play("R1", uno=True))
    assert ev[-1] == UnoCalled("A")
    assert g.exposed_players == []
    assert refuse(g, "C", CatchUno("A")) is Code.NOT_CATCHABLE
    assert refuse(g, "B", CatchUno("A")) is Code.NOT_CATCHABLE


def test_uno_not_called_caught_draws_two():
    """Caught before the next player begins a turn, the player who did not call draws 2."""
    g = three("R1 R2", "B1 B3", "Y1 Y3", draw="G1 G2 G3")
    g, ev = apply(g, "A", Play("R1"))
    assert UnoCalled("A") not in ev
    assert g.exposed_players == ["A"]
    g, ev = apply(g, "C", CatchUno("A"))
    assert ev == [UnoCaught("C", "A", 2), CardsDrawn("A", 2, cards("G1 G2"), "uno")]
    assert hand(g, "A") == ["R2", "G1", "G2"]
    assert g.current == "B"
    assert refuse(g, "B", CatchUno("A")) is Code.NOT_CATCHABLE


def test_next_player_may_catch_before_acting():
    """Another player (the next one too) may catch before the next player acts."""
    g = three("R1 R2", "R7 B3", "Y1 Y3", draw="G1 G2 G3")
    g, _ = apply(g, "A", Play("R1"))
    g, ev = apply(g, "B", CatchUno("A"))
    assert ev[0] == UnoCaught("B", "A", 2)
    assert len(g.hand("A")) == 3
    assert g.current == "B"


def test_uno_call_after_the_play_makes_safe():
    """Calling before being caught (also after the play) makes them safe."""
    g = three("R1 R2", "B1 B3", "Y1 Y3", draw="G1 G2")
    g, _ = apply(g, "A", Play("R1"))
    g, ev = apply(g, "A", CallUno())
    assert ev == [UnoCalled("A")]
    assert refuse(g, "C", CatchUno("A")) is Code.NOT_CATCHABLE
    assert refuse(g, "A", CallUno()) is Code.ALREADY_CALLED


def test_uno_call_with_more_than_one_card_refused():
    """UNO is called holding one card (official: no false-call penalty, simply refused)."""
    g = three("R1 R2 R3", "B1 B3", "Y1 Y3")
    assert refuse(g, "A", CallUno()) is Code.NOT_ONE_CARD
    assert refuse(g, "B", CatchUno("A")) is Code.NOT_CATCHABLE
    g, ev = apply(g, "A", Play("R1", uno=True))
    assert UnoCalled("A") not in ev


def test_cannot_catch_yourself():
    """Another player catches them: not the exposed player themselves."""
    g = three("R1 R2", "B1 B3", "Y1 Y3", draw="G1 G2")
    g, _ = apply(g, "A", Play("R1"))
    assert refuse(g, "A", CatchUno("A")) is Code.CANNOT_CATCH_SELF


def test_catch_window_closes_when_next_player_draws():
    """The catch is possible only before the next player begins a turn (draws)."""
    g = three("R1 R2", "B1 B3", "Y1 Y3", draw="G1 G2 G3")
    g, _ = apply(g, "A", Play("R1"))
    g, _ = apply(g, "B", Draw())
    assert g.exposed_players == []
    assert refuse(g, "C", CatchUno("A")) is Code.NOT_CATCHABLE
    assert len(g.hand("A")) == 1


def test_catch_window_closes_when_next_player_plays():
    """The catch is possible only before the next player begins a turn (plays)."""
    g = three("R1 R2", "R7 B3", "Y1 Y3", draw="G1 G2 G3")
    g, _ = apply(g, "A", Play("R1"))
    g, _ = apply(g, "B", Play("R7"))
    assert refuse(g, "C", CatchUno("A")) is Code.NOT_CATCHABLE
    # and the player who was not caught can still call: safe from then on
    g, ev = apply(g, "A", CallUno())
    assert ev == [UnoCalled("A")]


def test_catch_window_closes_when_next_player_accepts_a_penalty():
    """The next player "otherwise acts" by accepting the W4 on them: the window closes."""
    g = three("W4 R2", "B1 B3", "Y1 Y3", draw="G1 G2 G3 G4 G5")
    g, _ = apply(g, "A", Play("W4", color="BLUE"))
    assert g.exposed_players == ["A"]
    g, _ = apply(g, "B", Accept())
    assert refuse(g, "C", CatchUno("A")) is Code.NOT_CATCHABLE


def test_catch_window_closes_when_next_player_challenges():
    """The next player "otherwise acts" by challenging: the window closes."""
    g = three("W4 G2", "B1 B3", "Y1 Y3", draw="G1 " * 7)
    g, _ = apply(g, "A", Play("W4", color="BLUE"))
    g, _ = apply(g, "B", Challenge())
    assert refuse(g, "C", CatchUno("A")) is Code.NOT_CATCHABLE


def test_must_call_again_after_dropping_to_one_card_again():
    """A player who drops to one card again must call again."""
    g = three("R1 R2", "R3 R4 B7", "R6 R8 Y7", draw="G9 Y1 Y2")
    g, _ = apply(g, "A", Play("R1", uno=True))
    g, _ = apply(g, "B", Play("R3"))
    g, _ = apply(g, "C", Play("R6"))
    g, ev = apply(g, "A", Draw())  # G9 does not match R6: the turn ends
    assert hand(g, "A") == ["R2", "G9"]
    g, _ = apply(g, "B", Play("R4"))
    g, _ = apply(g, "C", Play("R8"))
    g, _ = apply(g, "A", Play("R2"))
    assert g.exposed_players == ["A"]
    g, ev = apply(g, "B", CatchUno("A"))
    assert ev == [UnoCaught("B", "A", 2), CardsDrawn("A", 2, cards("Y1 Y2"), "uno")]


# --------------------------------------------------------------------------- going out


def test_going_out_wins_the_round_and_scores_other_hands():
    """Numbers at face value, S R D2 20, W W4 50: the winner scores all other hands."""
    g = three("R1", "R5 GS BR YD2", "W W4 B0 G9")
    g, ev = apply(g, "A", Play("R1"))
    won = ev[-1]
    assert isinstance(won, RoundWon)
    assert (won.player, won.reason) == ("A", "out")
    assert won.hand_points == {"A": 0, "B": 65, "C": 109}
    assert won.points == 174
    assert g.scores == {"A": 174, "B": 0, "C": 0}
    assert (g.phase, g.round_winner, g.current, g.winner) == (
        Phase.ROUND_OVER,
        "A",
        None,
        None,
    )


@pytest.mark.parametrize("code", ALL_CODES)
def test_card_points_each_code(code):
    """Scoring: numbers at face value, S R D2 20, W W4 50."""
    # play R1 on a wild top named red so that every code is a legal hand for B
    g = scenario({"A": ["R1"], "B": [code], "C": ["B1"]}, ["W"], color="RED")
    _, ev = apply(g, "A", Play("R1"))
    expected = POINTS.get(code[1:] if code[0] in "RYGB" else code)
    if expected is None:
        expected = int(code[1:])
    assert ev[-1].hand_points["B"] == expected
    assert ev[-1].points == expected + 1


def test_last_card_draw_two_still_drawn_and_scored():
    """If the last card is D2, the next player still draws those cards and they count."""
    g = three("RD2", "R5 G7", "Y3", draw="B9 G1 G2")
    g, ev = apply(g, "A", Play("RD2"))
    assert ev[1] == CardsDrawn("B", 2, cards("B9 G1"), "penalty")
    assert isinstance(ev[-1], RoundWon)
    assert ev[-1].points == 5 + 7 + 9 + 1 + 3
    assert g.scores["A"] == 25
    assert hand(g, "B") == ["R5", "G7", "B9", "G1"]


def test_last_card_w4_drawn_not_challenged_and_scored():
    """A last W4 is still drawn by the next player (no challenge) and counted."""
    g = three("W4", "R5", "Y3", draw="B9 G1 G2 G3 G4")
    g, ev = apply(g, "A", Play("W4", color="RED"))
    assert ev[1] == CardsDrawn("B", 4, cards("B9 G1 G2 G3"), "penalty")
    assert ev[-1].points == 5 + 9 + 1 + 2 + 3 + 3
    assert g.phase is Phase.ROUND_OVER
    assert Challenge() not in legal_actions(g, "B")


# --------------------------------------------------------------------------- empty draw pile


def test_empty_draw_pile_reshuffles_discard_except_top():
    """Empty draw pile: shuffle the discard pile except its top card into a new draw pile."""
    g = three_exact("B9", "B1", "Y1", discard="G1 G2 G3 R5")
    assert g.draw_pile_size == 0
    g, ev = apply(g, "A", Draw())
    assert ev[0] == DeckReshuffled(3)
    drawn = ev[1]
    assert drawn.count == 1
    assert str(drawn.cards[0]) in ("G1", "G2", "G3")
    assert str(g.top) == "R5"
    assert (g.discard_pile_size, g.draw_pile_size) == (1, 2)
    assert total_cards(g) == 7


def test_reshuffle_during_penalty_keeps_draw_two_on_top():
    """A penalty draw that empties the pile reshuffles under the top card (the D2 stays)."""
    g = three_exact("RD2 G1", "B1", "Y1", discard="Y7 Y8 R5", draw="G9")
    g, ev = apply(g, "A", Play("RD2"))
    assert DeckReshuffled(3) in ev
    penalty = next(e for e in ev if isinstance(e, CardsDrawn))
    assert penalty.count == 2
    assert penalty.cards[0] == Card.parse("G9")
    assert str(g.top) == "RD2"
    assert g.discard_pile_size == 1
    assert g.draw_pile_size == 2
    assert g.current == "C"


# --------------------------------------------------------------------------- rounds and game


def test_game_won_at_target():
    """First to 500 (flag target) wins the game."""
    g = three("R1", "W W W W W4 W4 W4 W4", "RS RS GS GS BS")
    g, ev = apply(g, "A", Play("R1"))
    assert ev[-2].points == 500
    assert ev[-1] == GameWon("A", {"A": 500, "B": 0, "C": 0})
    assert (g.phase, g.winner, g.current) == (Phase.GAME_OVER, "A", None)
    assert refuse(g, "B", NextRound()) is Code.GAME_OVER


def test_round_below_target_continues_with_next_round():
    """Below the target the game goes on: the next round is dealt, scores kept."""
    g = three("R1", "R9 G9", "W", rules=Rules(target=100))
    g, ev = apply(g, "A", Play("R1"))
    assert g.scores == {"A": 68, "B": 0, "C": 0}
    assert (g.phase, g.winner) == (Phase.ROUND_OVER, None)
    assert not any(isinstance(e, GameWon) for e in ev)
    assert refuse(g, "B", Play("R9")) is Code.ROUND_OVER
    g, ev = apply(g, "C", NextRound())
    assert isinstance(ev[0], RoundStarted)
    assert g.round == 2
    assert g.scores == {"A": 68, "B": 0, "C": 0}
    assert g.dealer == "A"
    assert total_cards(g) == 108
    assert g.phase in (Phase.PLAYING, Phase.CHOOSING_COLOR)


def _random_turn(g, rnd: random.Random):
    """One step of a random (but legal) game: the current player acts."""
    if g.phase is Phase.ROUND_OVER:
        return g.players[0], NextRound()
    p = g.current
    acts = legal_actions(g, p)
    plays = [a for a in acts if isinstance(a, Play)]
    if plays:
        return p, rnd.choice(plays)
    others = [a for a in acts if isinstance(a, (Draw, Pass, Accept, Challenge, ChooseColor))]
    return p, rnd.choice(others)


def test_full_game_to_500_over_several_rounds():
    """A whole game: rounds are played until someone reaches 500; every card is accounted for."""
    rnd = random.Random(7)
    g = new_game(FOUR, seed=11)
    gained = Counter()
    rounds = 0
    for _ in range(20_000):
        if g.phase is Phase.GAME_OVER:
            break
        p, a = _random_turn(g, rnd)
        g, ev = apply(g, p, a)
        assert total_cards(g) == 108
        for e in ev:
            if isinstance(e, RoundWon):
                rounds += 1
                gained[e.player] += e.points
                assert e.points == sum(v for q, v in e.hand_points.items() if q != e.player)
    assert g.phase is Phase.GAME_OVER
    assert rounds > 1
    assert g.winner is not None
    assert g.scores[g.winner] >= 500
    assert all(s < 500 for q, s in g.scores.items() if q != g.winner)
    assert {q: gained[q] for q in FOUR} == g.scores


# --------------------------------------------------------------------------- view, JSON, seeds


def test_view_shows_own_hand_and_only_counts_of_others():
    """view(): own hand, the other players' card counts; None is the public view."""
    g = three("R1 R2", "B1 B3 B4", "Y1", draw="G1 G2")
    v = view(g, "B")
    assert v.hand == cards("B1 B3 B4")
    assert v.counts == {"A": 2, "B": 3, "C": 1}
    assert (v.top, v.color, v.current, v.direction) == (Card.parse("R5"), Color.RED, "A", 1)
    assert view(g, None).hand is None
    assert view(g, None).counts == v.counts
    text = repr(view(g, "C"))
    for secret in ("R1", "R2", "B1", "B3", "B4", "G1", "G2"):
        assert secret not in text


def test_view_does_not_show_anothers_drawn_card():
    """A drawn card is private: only the drawer's view shows it."""
    g = three("G1", "B1", "Y1", draw="R7")
    g, _ = apply(g, "A", Draw())
    assert Card.parse("R7") in view(g, "A").hand
    for viewer in ("B", "C", None):
        assert "R7" not in repr(view(g, viewer))


def test_json_round_trip_of_scenario_behaves_identically():
    """A game restored from JSON behaves identically from then on, draws included."""
    g = three("B9 B8", "B1", "Y1", discard="G1 G2 G3 G4 R5", seed=42)
    text = game_to_json(g)
    restored = game_from_json(text)
    assert restored == g
    assert game_to_json(restored) == text
    a, ev_a = apply(g, "A", Draw())  # reshuffles: uses the RNG
    b, ev_b = apply(restored, "A", Draw())
    assert ev_a == ev_b
    assert game_to_json(a) == game_to_json(b)


def test_new_game_deterministic_by_seed():
    """Same players + rules + seed: the identical game, every time."""
    for seed in (0, 1, 99):
        assert game_to_json(new_game(FOUR, seed=seed)) == game_to_json(new_game(FOUR, seed=seed))
    hands = {tuple(new_game(FOUR, seed=s).hand("A")) for s in range(5)}
    assert len(hands) > 1
