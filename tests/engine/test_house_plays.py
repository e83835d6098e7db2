"""House rules that change what may be played (docs/rules.md section 2): jump_in, multi_play,
swap, draw=until_playable, force_play, last_card, first_play_number.

Every scenario is set up by hand with ``engine.scenario`` and checked against the rule text.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    COLORS,
    Accept,
    CallUno,
    Card,
    CardPlayed,
    CardsDrawn,
    CatchUno,
    ChooseColor,
    Code,
    DeckReshuffled,
    DirectionReversed,
    Draw,
    Game,
    HandsRotated,
    HandsSwapped,
    IllegalAction,
    Pass,
    Passed,
    PenaltyStacked,
    Phase,
    Play,
    RoundWon,
    Rules,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    apply,
    game_to_json,
    legal_actions,
    scenario,
)

PILE = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "B1", "B2", "B5", "B6", "B7"]


def exact_scenario(*args: Any, **kwargs: Any) -> Game:
    """``scenario`` whose given draw pile is the whole pile (to test running out)."""
    return scenario(*args, fill=False, **kwargs)


def cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def of(events: list[object], kind: type) -> list[object]:
    return [e for e in events if isinstance(e, kind)]


def hand(g: Game, p: str) -> list[str]:
    return sorted(str(c) for c in g.hand(p))


def plays(g: Game, p: str) -> list[Play]:
    return [a for a in legal_actions(g, p) if isinstance(a, Play)]


def refuse(g: Game, player: str, action: object) -> Code:
    """Apply must refuse ``action`` and leave the game as it was; the refusal's code."""
    before = game_to_json(g)
    with pytest.raises(IllegalAction) as exc:
        apply(g, player, action)  # type: ignore[arg-type]
    assert game_to_json(g) == before
    return exc.value.code


# ------------------------------------------------------------------------------- jump_in

JUMP = Rules(jump_in=True)


def test_jump_in_number_players_between_lose_their_turn() -> None:
    """docs/rules.md s2 jump_in: identical card out of turn; play continues from the jumper."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["B1", "B2"], "c": ["R5", "G3", "G4"], "d": ["Y1", "Y2"]},
        ["R5"],
        rules=JUMP,
    )
    assert Play("R5") in legal_actions(g, "c")
    g, ev = apply(g, "c", Play("R5"))
    (played,) = of(ev, CardPlayed)
    assert (played.player, played.card, played.jump_in) == ("c", Card.parse("R5"), True)
    assert g.current == "d"
    assert hand(g, "c") == ["G3", "G4"]
    assert hand(g, "a") == ["G1", "G2"]
    assert hand(g, "b") == ["B1", "B2"]


def test_jump_in_on_skip_skips_from_the_jumper() -> None:
    """docs/rules.md s2 jump_in: a jump-in on an S skips from the jumper."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["B1", "B2"], "c": ["RS", "G3", "G4"], "d": ["Y1", "Y2"]},
        ["RS"],
        rules=JUMP,
    )
    g, ev = apply(g, "c", Play("RS"))
    assert of(ev, TurnSkipped) == [TurnSkipped("d")]
    assert g.current == "a"


def test_jump_in_on_reverse_reverses_again() -> None:
    """docs/rules.md s2 jump_in: a jump-in on an R reverses again, from the jumper."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["B1", "B2"], "c": ["RR", "G3", "G4"], "d": ["Y1", "Y2"]},
        ["RR"],
        direction=-1,
        rules=JUMP,
    )
    g, ev = apply(g, "c", Play("RR"))
    assert DirectionReversed(1) in ev
    assert (g.direction, g.current) == (1, "d")


def test_jump_in_on_draw_two_with_stack_pending_adds_to_it() -> None:
    """docs/rules.md s2 jump_in: on a pending penalty an identical +2 adds to it."""
    g = scenario(
        {
            "a": ["RD2", "G1"],
            "b": ["B1", "B2"],
            "c": ["RD2", "G3", "G4"],
            "d": ["Y1", "Y2"],
        },
        ["R5"],
        draw_pile=PILE,
        rules=Rules(jump_in=True, stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert (g.current, g.pending_draw) == ("b", 2)
    assert Play("RD2") in legal_actions(g, "c")
    g, ev = apply(g, "c", Play("RD2"))
    assert of(ev, PenaltyStacked) == [PenaltyStacked("c", 4)]
    assert (g.current, g.pending_draw) == ("d", 4)
    assert hand(g, "b") == ["B1", "B2"]
    g, ev = apply(g, "d", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("d", 4, cards(PILE[:4]), "penalty")]
    assert g.current == "a"


def test_jump_in_on_pending_draw_two_needs_the_identical_card() -> None:
    """docs/rules.md s2 jump_in: only the identical +2 may jump in on a pending +2."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["B1", "B2"], "c": ["BD2", "G3"], "d": ["Y1"]},
        ["R5"],
        rules=Rules(jump_in=True, stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert plays(g, "c") == []
    refuse(g, "c", Play("BD2"))


def test_jump_in_on_draw_two_without_stacking() -> None:
    """docs/rules.md s2 jump_in: an identical +2 after the +2 was drawn gives the next
    player +2."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["B1", "B2"], "c": ["G3", "G4"], "d": ["RD2", "Y1"]},
        ["R5"],
        draw_pile=PILE,
        rules=JUMP,
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert g.current == "c"
    g, ev = apply(g, "d", Play("RD2"))
    assert of(ev, CardsDrawn) == [CardsDrawn("a", 2, cards(PILE[2:4]), "penalty")]
    assert TurnSkipped("a") in ev
    assert g.current == "b"


def test_jump_in_on_wild_the_jumper_names_the_colour() -> None:
    """docs/rules.md s2 jump_in: on a wild (same kind), the jumper names the colour."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["B1", "B2"], "c": ["W", "R3", "R4"], "d": ["Y1", "Y2"]},
        ["W"],
        color="G",
        rules=JUMP,
    )
    assert {p.color for p in plays(g, "c") if p.card == Card.parse("W")} == set(COLORS)
    g, ev = apply(g, "c", Play("W", color="B"))
    assert of(ev, CardPlayed)[0].jump_in
    assert (str(g.color), g.current) == ("B", "d")


def test_jump_in_on_wild_without_colour_asks_the_jumper() -> None:
    """docs/rules.md s2 jump_in: on a wild the jumper (not the skipped player) names the colour."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["B1", "B2"], "c": ["W", "R3", "R4"], "d": ["Y1", "Y2"]},
        ["W"],
        color="G",
        rules=JUMP,
    )
    g, _ = apply(g, "c", Play("W"))
    assert (g.phase, g.current, g.color) == (Phase.CHOOSING_COLOR, "c", None)
    g, _ = apply(g, "c", ChooseColor("Y"))
    assert (str(g.color), g.current) == ("Y", "d")


def test_jump_in_w4_on_w4_adds_to_the_penalty() -> None:
    """docs/rules.md s2 jump_in: a W4 on a W4 adds to the penalty (+4s stack, no challenge)."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["B1", "B2"], "c": ["W4", "G3"], "d": ["Y1", "Y2"]},
        ["R5"],
        rules=Rules(jump_in=True, stacking="draw_four_on_two", wild_draw_four="free"),
    )
    g, _ = apply(g, "a", Play("W4", color="G"))
    assert (g.current, g.pending_draw) == ("b", 4)
    g, ev = apply(g, "c", Play("W4", color="Y"))
    assert of(ev, PenaltyStacked) == [PenaltyStacked("c", 8)]
    assert (g.current, g.pending_draw, str(g.color)) == ("d", 8, "Y")


def test_no_jump_in_while_a_colour_is_being_named() -> None:
    """docs/rules.md s2 jump_in: not while a colour is being named."""
    g = scenario(
        {"a": ["W", "G1"], "b": ["B1", "B2"], "c": ["W", "G3"], "d": ["Y1"]},
        ["R5"],
        rules=JUMP,
    )
    g, _ = apply(g, "a", Play("W"))
    assert g.phase is Phase.CHOOSING_COLOR
    assert plays(g, "c") == []
    assert refuse(g, "c", Play("W", color="R")) in (Code.NO_JUMP_IN, Code.NOT_YOUR_TURN)


def test_no_jump_in_while_a_challenge_is_open() -> None:
    """docs/rules.md s2 jump_in: not while a challenge is open."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["B1", "B2"], "c": ["W4", "G3"], "d": ["Y1"]},
        ["R5"],
        rules=Rules(jump_in=True, stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("W4", color="B"))
    assert g.phase is Phase.CHALLENGE
    assert plays(g, "c") == []
    assert refuse(g, "c", Play("W4", color="R")) == Code.NO_JUMP_IN


def test_jump_in_closes_the_catch_window_of_an_exposed_player() -> None:
    """docs/rules.md s2: a catch is possible until another player takes a turn action (a
    jump-in)."""
    g = scenario(
        {"a": ["R5", "G3"], "b": ["B1", "B2"], "c": ["R5", "G4", "G6"], "d": ["Y1", "Y2"]},
        ["R2"],
        draw_pile=PILE,
        rules=JUMP,
    )
    g, _ = apply(g, "a", Play("R5"))
    assert g.exposed_players == ["a"]
    g, _ = apply(g, "c", Play("R5"))
    assert g.exposed_players == []
    for p in ("b", "c", "d"):
        assert CatchUno("a") not in legal_actions(g, p)
    assert refuse(g, "b", CatchUno("a")) == Code.NOT_CATCHABLE
    assert hand(g, "a") == ["G3"]


def test_current_player_identical_card_is_a_normal_play() -> None:
    """docs/rules.md s2 jump_in: for the current player an identical card is a normal play."""
    g = scenario(
        {"a": ["R5", "G1"], "b": ["B1", "B2"], "c": ["G3", "G4"]},
        ["R5"],
        rules=JUMP,
    )
    g, ev = apply(g, "a", Play("R5"))
    (played,) = of(ev, CardPlayed)
    assert played.jump_in is False
    assert g.current == "b"


def test_jump_in_needs_the_identical_card() -> None:
    """docs/rules.md s2 jump_in: same colour and same number/symbol."""
    g = scenario(
        {"a": ["G1"], "b": ["B1"], "c": ["B5", "R6", "GS"], "d": ["Y1"]},
        ["R5"],
        rules=JUMP,
    )
    assert plays(g, "c") == []
    assert refuse(g, "c", Play("B5")) == Code.NOT_IDENTICAL
    assert refuse(g, "c", Play("R6")) == Code.NOT_IDENTICAL


def test_no_jump_in_when_the_flag_is_off() -> None:
    """docs/rules.md s2: jump_in is off by default; playing out of turn is refused."""
    g = scenario({"a": ["G1"], "b": ["B1"], "c": ["R5", "G3"]}, ["R5"])
    assert plays(g, "c") == []
    assert refuse(g, "c", Play("R5")) == Code.NOT_YOUR_TURN


# ---------------------------------------------------------------------------- multi_play

PAIRS = Rules(multi_play="identical")
RANKS = Rules(multi_play="same_rank")


def test_multi_play_two_skips_skip_two_players() -> None:
    """docs/rules.md s2 multi_play: two S skip two players."""
    g = scenario(
        {"a": ["RS", "RS", "G1"], "b": ["B1"], "c": ["B2"], "d": ["Y1"]}, ["R5"], rules=PAIRS
    )
    assert Play("RS", together=("RS",)) in legal_actions(g, "a")
    g, ev = apply(g, "a", Play("RS", together=("RS",)))
    assert of(ev, TurnSkipped) == [TurnSkipped("b"), TurnSkipped("c")]
    assert g.current == "d"
    assert hand(g, "a") == ["G1"]


def test_multi_play_two_reverses_leave_the_direction() -> None:
    """docs/rules.md s2 multi_play: an even number of R leaves the direction as it was."""
    g = scenario(
        {"a": ["RR", "RR", "G1"], "b": ["B1"], "c": ["B2"], "d": ["Y1"]}, ["R5"], rules=PAIRS
    )
    g, ev = apply(g, "a", Play("RR", together=("RR",)))
    assert not of(ev, DirectionReversed)
    assert (g.direction, g.current) == (1, "b")


def test_multi_play_two_draw_twos_without_stacking_draw_four() -> None:
    """docs/rules.md s2 multi_play: two D2 are +4 (stacking off: drawn at once, victim skipped)."""
    g = scenario(
        {"a": ["RD2", "RD2", "G1"], "b": ["B1"], "c": ["B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=PAIRS,
    )
    g, ev = apply(g, "a", Play("RD2", together=("RD2",)))
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 4, cards(PILE[:4]), "penalty")]
    assert TurnSkipped("b") in ev
    assert (g.current, g.pending_draw) == ("c", 0)


def test_multi_play_two_draw_twos_with_stacking_pending_four() -> None:
    """docs/rules.md s2 multi_play + stacking: two D2 put +4 on the next player, who may stack."""
    g = scenario(
        {"a": ["RD2", "RD2", "G1"], "b": ["BD2", "B1"], "c": ["B2"]},
        ["R5"],
        rules=Rules(multi_play="identical", stacking="draw_two"),
    )
    g, ev = apply(g, "a", Play("RD2", together=("RD2",)))
    assert not of(ev, CardsDrawn)
    assert (g.current, g.pending_draw) == ("b", 4)
    g, ev = apply(g, "b", Play("BD2"))
    assert of(ev, PenaltyStacked) == [PenaltyStacked("b", 6)]


def test_multi_play_two_wild_draw_fours_are_plus_eight() -> None:
    """docs/rules.md s2 multi_play: two W4 are +8."""
    g = scenario(
        {"a": ["W4", "W4", "G1"], "b": ["B1"], "c": ["B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(multi_play="identical", wild_draw_four="free"),
    )
    assert Play("W4", color="B", together=("W4",)) in legal_actions(g, "a")
    g, ev = apply(g, "a", Play("W4", color="B", together=("W4",)))
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 8, cards(PILE[:8]), "penalty")]
    assert (g.current, str(g.color)) == ("c", "B")


def test_multi_play_two_wild_draw_fours_challenged_pending_eight() -> None:
    """docs/rules.md s2 multi_play: two W4 are +8, the victim may challenge or accept all 8."""
    g = scenario(
        {"a": ["W4", "W4", "G1"], "b": ["B1"], "c": ["B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=PAIRS,
    )
    g, _ = apply(g, "a", Play("W4", color="B", together=("W4",)))
    assert (g.phase, g.current, g.pending_draw) == (Phase.CHALLENGE, "b", 8)
    g, ev = apply(g, "b", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 8, cards(PILE[:8]), "penalty")]


def test_multi_play_same_rank_one_entry_per_played_colour() -> None:
    """docs/rules.md s2 same_rank: the player chooses which of their colours stays (one
    entry each)."""
    g = scenario({"a": ["R5", "G5", "B7"], "b": ["B1"], "c": ["B2"]}, ["R2"], rules=RANKS)
    combos = [p for p in plays(g, "a") if p.together]
    # either card may lead the pair (one of them matches): one entry per lead and colour
    assert sorted((str(p.card), *map(str, p.together), str(p.color)) for p in combos) == [
        ("G5", "R5", "G"),
        ("G5", "R5", "R"),
        ("R5", "G5", "G"),
        ("R5", "G5", "R"),
    ]


def test_multi_play_same_rank_chosen_colour_stays() -> None:
    """docs/rules.md s2 same_rank: the chosen played colour stays in play."""
    g = scenario({"a": ["R5", "G5", "B7"], "b": ["B1"], "c": ["B2"]}, ["R2"], rules=RANKS)
    g2, _ = apply(g, "a", Play("R5", color="G", together=("G5",)))
    assert (str(g2.color), g2.top, g2.current) == ("G", Card.parse("G5"), "b")
    assert g2.discard_pile_size == 3
    g3, _ = apply(g, "a", Play("R5", color="R", together=("G5",)))
    assert (str(g3.color), g3.top) == ("R", Card.parse("R5"))


def test_multi_play_same_rank_colour_must_be_one_played() -> None:
    """docs/rules.md s2 same_rank: the colour that stays is one of the played colours."""
    g = scenario({"a": ["R5", "G5", "B7"], "b": ["B1"]}, ["R2"], rules=RANKS)
    assert refuse(g, "a", Play("R5", color="B", together=("G5",))) == Code.CHOOSE_COLOR


def test_multi_play_same_rank_without_a_colour_keeps_the_lead_colour() -> None:
    """docs/rules.md s2 same_rank: the player chooses the colour; with none named, leading with
    a card chooses it (it goes on top), like laying the pair down by hand."""
    g = scenario({"a": ["R5", "G5", "B7"], "b": ["B1"], "c": ["B2"]}, ["R2"], rules=RANKS)
    g2, _ = apply(g, "a", Play("G5", together=("R5",)))
    assert (str(g2.color), str(g2.top), g2.current) == ("G", "G5", "b")
    assert hand(g2, "a") == ["B7"]
    g3, _ = apply(g, "a", Play("R5", together=("G5",)))
    assert (str(g3.color), str(g3.top)) == ("R", "R5")


def test_multi_play_same_rank_three_colours() -> None:
    """docs/rules.md s2 same_rank: several cards of one number in any colours."""
    g = scenario({"a": ["R5", "G5", "B5", "Y1"], "b": ["B1"]}, ["R2"], rules=RANKS)
    three = [p for p in plays(g, "a") if len(p.together) == 2]
    led_by_red = [p for p in three if str(p.card) == "R5"]
    assert sorted(str(p.color) for p in led_by_red) == ["B", "G", "R"]
    assert {str(p.card) for p in three} == {"R5", "G5", "B5"}  # any of them may lead
    g, _ = apply(g, "a", Play("R5", color="B", together=("G5", "B5")))
    assert (hand(g, "a"), str(g.color)) == (["Y1"], "B")


def test_multi_play_identical_refuses_same_rank_of_other_colours() -> None:
    """docs/rules.md s2 multi_play=identical: only identical cards go together."""
    g = scenario({"a": ["R5", "G5", "B7"], "b": ["B1"]}, ["R2"], rules=PAIRS)
    assert not [p for p in plays(g, "a") if p.together]
    assert refuse(g, "a", Play("R5", together=("G5",))) == Code.BAD_COMBINATION


def test_multi_play_pair_as_the_last_cards_goes_out() -> None:
    """docs/rules.md s2 multi_play: a pair may be the player's last cards."""
    g = scenario({"a": ["R5", "R5"], "b": ["B1"], "c": ["G3"]}, ["R2"], rules=PAIRS)
    g, ev = apply(g, "a", Play("R5", together=("R5",)))
    (won,) = of(ev, RoundWon)
    assert (won.player, won.points) == ("a", 4)
    assert g.phase is Phase.ROUND_OVER
    assert g.hand("a") == []


def test_multi_play_together_order_does_not_matter() -> None:
    """ENGINE.md Play.together: the order of the extra cards does not matter."""
    g = scenario({"a": ["R5", "G5", "B5", "Y1"], "b": ["B1"]}, ["R2"], rules=RANKS)
    one = Play("R5", color="G", together=("G5", "B5"))
    two = Play("R5", color="G", together=("B5", "G5"))
    assert one == two
    g1, ev1 = apply(g, "a", one)
    g2, ev2 = apply(g, "a", two)
    assert ev1 == ev2
    assert game_to_json(g1) == game_to_json(g2)


def test_multi_play_off_refuses_two_cards() -> None:
    """docs/rules.md s2 multi_play=off (official): one card at a time."""
    g = scenario({"a": ["R5", "R5", "G1"], "b": ["B1"]}, ["R2"])
    assert not [p for p in plays(g, "a") if p.together]
    assert refuse(g, "a", Play("R5", together=("R5",))) == Code.MULTI_PLAY_OFF


def test_multi_play_not_for_jump_ins() -> None:
    """docs/rules.md s2 multi_play: not for jump-ins (one card at a time)."""
    g = scenario(
        {"a": ["G1"], "b": ["B1"], "c": ["R5", "R5", "G3"]},
        ["R5"],
        rules=Rules(multi_play="identical", jump_in=True),
    )
    assert Play("R5") in legal_actions(g, "c")
    assert Play("R5", together=("R5",)) not in legal_actions(g, "c")
    refuse(g, "c", Play("R5", together=("R5",)))


# ---------------------------------------------------------------------------------- swap

SEVEN_ZERO = Rules(swap="seven_zero")


def test_seven_lists_one_entry_per_other_player() -> None:
    """docs/rules.md s2 swap=seven_zero: a 7 swaps hands with a player of your choice."""
    g = scenario(
        {"a": ["R7", "G1", "B2"], "b": ["B1"], "c": ["Y1"], "d": ["Y2"]},
        ["R3"],
        rules=SEVEN_ZERO,
    )
    sevens = [p for p in plays(g, "a") if p.card == Card.parse("R7")]
    assert sorted(p.target for p in sevens) == ["b", "c", "d"]


def test_seven_swaps_hands_with_the_target() -> None:
    """docs/rules.md s2 swap=seven_zero: playing a 7 swaps hands with the chosen player."""
    g = scenario(
        {"a": ["R7", "G1", "B2"], "b": ["B1", "B3"], "c": ["Y1", "Y2", "Y3"], "d": ["Y4"]},
        ["R3"],
        rules=SEVEN_ZERO,
    )
    g, ev = apply(g, "a", Play("R7", target="c"))
    assert of(ev, HandsSwapped) == [HandsSwapped("a", "c")]
    assert hand(g, "a") == ["Y1", "Y2", "Y3"]
    assert hand(g, "c") == ["B2", "G1"]
    assert hand(g, "b") == ["B1", "B3"]
    assert (g.top, g.current) == (Card.parse("R7"), "b")


def test_seven_needs_a_target() -> None:
    """docs/rules.md s2 swap: the 7's player chooses another player."""
    g = scenario({"a": ["R7", "G1", "B2"], "b": ["B1"], "c": ["Y1"]}, ["R3"], rules=SEVEN_ZERO)
    assert refuse(g, "a", Play("R7")) == Code.CHOOSE_TARGET
    assert refuse(g, "a", Play("R7", target="a")) == Code.CHOOSE_TARGET
    assert refuse(g, "a", Play("R7", target="zed")) == Code.CHOOSE_TARGET


def test_zero_rotates_hands_in_the_direction_of_play() -> None:
    """docs/rules.md s2 swap=seven_zero: a 0 passes every hand one seat in the
    direction of play."""
    g = scenario(
        {"a": ["R0", "G1", "B2"], "b": ["Y1", "Y2"], "c": ["B5", "B6"]},
        ["R3"],
        rules=SEVEN_ZERO,
    )
    assert [p.target for p in plays(g, "a") if p.card == Card.parse("R0")] == [None]
    g, ev = apply(g, "a", Play("R0"))
    assert of(ev, HandsRotated) == [HandsRotated("a", 1)]
    assert hand(g, "b") == ["B2", "G1"]
    assert hand(g, "c") == ["Y1", "Y2"]
    assert hand(g, "a") == ["B5", "B6"]
    assert g.current == "b"


def test_zero_rotates_hands_counterclockwise_when_reversed() -> None:
    """docs/rules.md s2 swap=seven_zero: 'in the direction of play' (reversed: the other way)."""
    g = scenario(
        {"a": ["R0", "G1", "B2"], "b": ["Y1", "Y2"], "c": ["B5", "B6"]},
        ["R3"],
        direction=-1,
        rules=SEVEN_ZERO,
    )
    g, ev = apply(g, "a", Play("R0"))
    assert of(ev, HandsRotated) == [HandsRotated("a", -1)]
    assert hand(g, "c") == ["B2", "G1"]
    assert hand(g, "b") == ["B5", "B6"]
    assert hand(g, "a") == ["Y1", "Y2"]
    assert g.current == "c"


def test_swap_leaving_the_player_one_card_must_call_uno_and_can_be_caught() -> None:
    """docs/rules.md s2 swap: a player left with one card after a swap must call UNO."""
    g = scenario(
        {"a": ["R7", "G1", "B2"], "b": ["B1", "B3"], "c": ["Y9"]},
        ["R3"],
        draw_pile=PILE,
        rules=SEVEN_ZERO,
    )
    g, _ = apply(g, "a", Play("R7", target="c"))
    assert hand(g, "a") == ["Y9"]
    assert g.exposed_players == ["a"]
    assert CallUno() in legal_actions(g, "a")
    assert CatchUno("a") in legal_actions(g, "b")
    g, ev = apply(g, "b", CatchUno("a"))
    assert of(ev, UnoCaught) == [UnoCaught("b", "a", 2)]
    assert hand(g, "a") == sorted(["Y9", *PILE[:2]])


def test_swap_leaving_the_target_one_card_exposes_the_target() -> None:
    """docs/rules.md s2 swap: whoever is left with one card by a swap must call UNO."""
    g = scenario(
        {"a": ["R7", "G1"], "b": ["B1", "B3"], "c": ["Y1", "Y2", "Y3"]},
        ["R3"],
        draw_pile=PILE,
        rules=SEVEN_ZERO,
    )
    g, _ = apply(g, "a", Play("R7", target="c", uno=True))
    assert hand(g, "c") == ["G1"]
    assert "c" in g.exposed_players
    assert "a" not in g.exposed_players
    assert CallUno() in legal_actions(g, "c")
    g, _ = apply(g, "b", CatchUno("c"))
    assert len(g.hand("c")) == 3


def test_swap_player_calling_uno_with_the_play_is_safe() -> None:
    """docs/rules.md s2 swap / ENGINE.md Play(uno=True): the call is made and announced."""
    g = scenario(
        {"a": ["R7", "G1", "B2"], "b": ["B1", "B3"], "c": ["Y9"]},
        ["R3"],
        rules=SEVEN_ZERO,
    )
    g, ev = apply(g, "a", Play("R7", target="c", uno=True))
    assert hand(g, "a") == ["Y9"]
    assert g.exposed_players == []
    assert CatchUno("a") not in legal_actions(g, "b")
    assert UnoCalled("a") in ev


def test_swap_card_as_the_last_card_no_swap_no_target() -> None:
    """docs/rules.md s2 swap: no swap when it is the player's last card."""
    g = scenario({"a": ["R7"], "b": ["B1", "B3"], "c": ["Y9"]}, ["R3"], rules=SEVEN_ZERO)
    assert [p.target for p in plays(g, "a")] == [None]
    assert refuse(g, "a", Play("R7", target="b")) == Code.NO_TARGET_NEEDED
    g, ev = apply(g, "a", Play("R7"))
    assert not of(ev, HandsSwapped)
    assert (hand(g, "b"), hand(g, "c")) == (["B1", "B3"], ["Y9"])
    assert (g.phase, g.round_winner) == (Phase.ROUND_OVER, "a")


def test_zero_as_the_last_card_no_rotation() -> None:
    """docs/rules.md s2 swap: no swap (or rotation) when it is the player's last card."""
    g = scenario({"a": ["R0"], "b": ["B1", "B3"], "c": ["Y9"]}, ["R3"], rules=SEVEN_ZERO)
    g, ev = apply(g, "a", Play("R0"))
    assert not of(ev, HandsRotated)
    assert (hand(g, "b"), hand(g, "c")) == (["B1", "B3"], ["Y9"])
    (won,) = of(ev, RoundWon)
    assert (won.player, won.points) == ("a", 13)


def test_several_sevens_swap_once() -> None:
    """docs/rules.md s2 multi_play: several 7s swap once."""
    g = scenario(
        {"a": ["R7", "R7", "G1"], "b": ["B1", "B3"], "c": ["Y9", "Y8"]},
        ["R3"],
        rules=Rules(swap="seven_zero", multi_play="identical"),
    )
    g, ev = apply(g, "a", Play("R7", target="b", together=("R7",)))
    assert of(ev, HandsSwapped) == [HandsSwapped("a", "b")]
    assert hand(g, "a") == ["B1", "B3"]
    assert hand(g, "b") == ["G1"]
    assert hand(g, "c") == ["Y8", "Y9"]


def test_several_zeros_rotate_once() -> None:
    """docs/rules.md s2 multi_play: several 0s rotate once."""
    g = scenario(
        {"a": ["R0", "G0", "B1", "B2"], "b": ["Y1", "Y2"], "c": ["Y9", "Y8"]},
        ["R3"],
        rules=Rules(swap="seven_zero", multi_play="same_rank"),
    )
    g, ev = apply(g, "a", Play("R0", color="G", together=("G0",)))
    assert of(ev, HandsRotated) == [HandsRotated("a", 1)]
    assert hand(g, "b") == ["B1", "B2"]
    assert hand(g, "c") == ["Y1", "Y2"]
    assert hand(g, "a") == ["Y8", "Y9"]


def test_five_swaps_hands_under_swap_five() -> None:
    """docs/rules.md s2 swap=five: playing a 5 swaps hands with a player of your choice."""
    g = scenario(
        {"a": ["R5", "R7", "G1"], "b": ["B1", "B3"], "c": ["Y9", "Y8", "Y7"]},
        ["R3"],
        rules=Rules(swap="five"),
    )
    fives = [p for p in plays(g, "a") if p.card == Card.parse("R5")]
    assert sorted(p.target for p in fives) == ["b", "c"]
    assert [p.target for p in plays(g, "a") if p.card == Card.parse("R7")] == [None]
    g, ev = apply(g, "a", Play("R5", target="c"))
    assert of(ev, HandsSwapped) == [HandsSwapped("a", "c")]
    assert hand(g, "a") == ["Y7", "Y8", "Y9"]
    assert hand(g, "c") == ["G1", "R7"]


def test_zero_does_not_rotate_under_swap_five() -> None:
    """docs/rules.md s2 swap=five: only the 5 swaps."""
    g = scenario(
        {"a": ["R0", "G1"], "b": ["B1", "B3"], "c": ["Y9", "Y8"]}, ["R3"], rules=Rules(swap="five")
    )
    g, ev = apply(g, "a", Play("R0"))
    assert not of(ev, HandsRotated)
    assert hand(g, "a") == ["G1"]


def test_swap_off_seven_takes_no_target() -> None:
    """docs/rules.md s2 swap=off (official): a 7 is a plain number card."""
    g = scenario({"a": ["R7", "G1"], "b": ["B1", "B3"]}, ["R3"])
    assert refuse(g, "a", Play("R7", target="b")) == Code.NO_TARGET_NEEDED
    g, ev = apply(g, "a", Play("R7"))
    assert not of(ev, HandsSwapped)
    assert hand(g, "b") == ["B1", "B3"]


# ---------------------------------------------------------------------------------- draw

UNTIL = Rules(draw="until_playable")


def test_draw_one_by_default() -> None:
    """docs/rules.md s1 a turn: draw 1 card; not playable, the turn ends."""
    g = scenario({"a": ["G1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["B1", "R9"])
    g, ev = apply(g, "a", Draw())
    assert of(ev, CardsDrawn) == [CardsDrawn("a", 1, cards(["B1"]), "draw")]
    assert Passed("a") in ev
    assert g.current == "b"


def test_until_playable_keeps_drawing_until_a_playable_card() -> None:
    """docs/rules.md s2 draw=until_playable: keep drawing until a playable card comes."""
    g = exact_scenario(
        {"a": ["G1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["B1", "Y2", "R9", "Y3"], rules=UNTIL
    )
    g, ev = apply(g, "a", Draw())
    assert of(ev, CardsDrawn) == [CardsDrawn("a", 3, cards(["B1", "Y2", "R9"]), "draw")]
    assert g.current == "a"
    assert g.drawn_card == Card.parse("R9")
    assert set(legal_actions(g, "a")) >= {Play("R9"), Pass()}
    assert g.draw_pile_size == 1
    g, _ = apply(g, "a", Play("R9"))
    assert (g.top, g.current) == (Card.parse("R9"), "b")


def test_until_playable_reshuffles_the_discard_mid_draw() -> None:
    """docs/rules.md s1 empty draw pile: shuffle the discard but its top card, go on drawing."""
    g = exact_scenario(
        {"a": ["G1", "G2"], "b": ["B3"]}, ["R9", "R5"], draw_pile=["B1"], rules=UNTIL
    )
    g, ev = apply(g, "a", Draw())
    assert DeckReshuffled(1) in ev
    assert of(ev, CardsDrawn) == [CardsDrawn("a", 2, cards(["B1", "R9"]), "draw")]
    assert (g.top, g.discard_pile_size, g.draw_pile_size) == (Card.parse("R5"), 1, 0)
    assert g.drawn_card == Card.parse("R9")


def test_until_playable_both_piles_run_out_mid_draw() -> None:
    """docs/rules.md s1: both piles empty, a draw gives nothing more and the turn passes."""
    g = exact_scenario(
        {"a": ["G1", "G2"], "b": ["B3"]}, ["B4", "Y3", "R5"], draw_pile=["B1"], rules=UNTIL
    )
    g, ev = apply(g, "a", Draw())
    (drawn,) = of(ev, CardsDrawn)
    assert drawn.count == 3
    assert sorted(str(c) for c in drawn.cards or ()) == ["B1", "B4", "Y3"]
    assert DeckReshuffled(2) in ev
    assert Passed("a") in ev
    assert g.current == "b"
    assert (g.draw_pile_size, g.discard_pile_size, g.top) == (0, 1, Card.parse("R5"))
    assert len(g.hand("a")) == 5


def test_until_playable_both_piles_empty_gives_nothing() -> None:
    """docs/rules.md s1: if both piles are empty, a draw gives nothing and the turn passes."""
    g = exact_scenario({"a": ["G1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["G7"], rules=UNTIL)
    g, ev = apply(g, "a", Draw())
    assert of(ev, CardsDrawn) == [CardsDrawn("a", 1, cards(["G7"]), "draw")]
    assert g.current == "b"
    g, ev = apply(g, "b", Draw())
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 0, (), "draw")]
    assert g.current == "a"


# ----------------------------------------------------------------------------- force_play

FORCE = Rules(force_play=True)


def test_force_play_drawn_playable_card_must_be_played() -> None:
    """docs/rules.md s2 force_play: a drawn legal card must be played (Pass not listed)."""
    g = scenario({"a": ["G1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["R9"], rules=FORCE)
    g, _ = apply(g, "a", Draw())
    listed = legal_actions(g, "a")
    assert Play("R9") in listed
    assert Pass() not in listed
    assert refuse(g, "a", Pass()) == Code.MUST_PLAY


def test_force_play_off_drawn_card_may_be_kept() -> None:
    """docs/rules.md s1 a turn: a playable drawn card may be played, or the turn ends (Pass)."""
    g = scenario({"a": ["G1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["R9"])
    g, _ = apply(g, "a", Draw())
    assert Pass() in legal_actions(g, "a")
    g, ev = apply(g, "a", Pass())
    assert Passed("a") in ev
    assert (g.current, hand(g, "a")) == ("b", ["G1", "G2", "R9"])


def test_force_play_drawn_wild_lists_the_four_colours() -> None:
    """docs/rules.md s2 force_play: a drawn wild still asks for the colour."""
    g = scenario({"a": ["G1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["W"], rules=FORCE)
    g, _ = apply(g, "a", Draw())
    assert set(plays(g, "a")) == {Play("W", color=c) for c in COLORS}
    assert Pass() not in legal_actions(g, "a")


def test_force_play_drawn_seven_still_asks_for_the_target() -> None:
    """docs/rules.md s2 force_play: a drawn swap card still asks for the target."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["B3"], "c": ["B4"]},
        ["R5"],
        draw_pile=["R7"],
        rules=Rules(force_play=True, swap="seven_zero"),
    )
    g, _ = apply(g, "a", Draw())
    assert sorted(p.target for p in plays(g, "a")) == ["b", "c"]
    assert Pass() not in legal_actions(g, "a")


def test_force_play_drawn_bluff_w4_is_not_forced() -> None:
    """docs/rules.md s2 force_play: a drawn W4 that would be a bluff is not forced."""
    g = scenario({"a": ["R1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["W4"], rules=FORCE)
    g, _ = apply(g, "a", Draw())
    assert Pass() in legal_actions(g, "a")
    g, _ = apply(g, "a", Pass())
    assert (g.current, hand(g, "a")) == ("b", ["G2", "R1", "W4"])


def test_force_play_drawn_legal_w4_is_forced() -> None:
    """docs/rules.md s2 force_play: a drawn W4 that is legal is a legal play, so it must
    be played."""
    g = scenario({"a": ["G1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["W4"], rules=FORCE)
    g, _ = apply(g, "a", Draw())
    assert Pass() not in legal_actions(g, "a")
    assert set(plays(g, "a")) == {Play("W4", color=c) for c in COLORS}


def test_force_play_drawn_unplayable_card_ends_the_turn() -> None:
    """docs/rules.md s1/s2: an unplayable drawn card is kept and the turn ends."""
    g = scenario({"a": ["G1", "G2"], "b": ["B3"]}, ["R5"], draw_pile=["B9"], rules=FORCE)
    g, ev = apply(g, "a", Draw())
    assert Passed("a") in ev
    assert g.current == "b"


# ----------------------------------------------------------------------------- last_card


def test_last_card_any_action_card_goes_out() -> None:
    """docs/rules.md s2 last_card=any (official): a player may go out on an action card."""
    g = scenario({"a": ["RS"], "b": ["B3"], "c": ["G1"]}, ["R5"])
    g, ev = apply(g, "a", Play("RS"))
    assert of(ev, RoundWon)[0].player == "a"
    assert g.phase is Phase.ROUND_OVER


def test_last_card_any_wild_goes_out() -> None:
    """docs/rules.md s2 last_card=any: a player may go out on a wild."""
    g = scenario({"a": ["W"], "b": ["B3"]}, ["R5"])
    g, _ = apply(g, "a", Play("W", color="B"))
    assert (g.phase, g.round_winner) == (Phase.ROUND_OVER, "a")


def test_last_card_draw_two_is_still_drawn_and_scored() -> None:
    """docs/rules.md s1 going out: a last D2 is still drawn by the next player and counts."""
    g = scenario({"a": ["RD2"], "b": ["B3"], "c": ["G1"]}, ["R5"], draw_pile=["G9", "W"])
    g, ev = apply(g, "a", Play("RD2"))
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 2, cards(["G9", "W"]), "penalty")]
    (won,) = of(ev, RoundWon)
    assert won.points == 3 + 9 + 50 + 1
    assert g.scores["a"] == 63


NUMBER_ONLY = Rules(last_card="number_only")


@pytest.mark.parametrize(
    ("card", "play"),
    [
        ("RS", Play("RS")),
        ("RR", Play("RR")),
        ("RD2", Play("RD2")),
        ("W", Play("W", color="R")),
        ("W4", Play("W4", color="R")),
    ],
)
def test_last_card_number_only_action_or_wild_refused(card: str, play: Play) -> None:
    """docs/rules.md s2 last_card=number_only: an action/wild last card is unplayable;
    must draw."""
    g = scenario({"a": [card], "b": ["B3"]}, ["R5"], draw_pile=PILE, rules=NUMBER_ONLY)
    assert plays(g, "a") == []
    assert Draw() in legal_actions(g, "a")
    assert refuse(g, "a", play) == Code.NOT_AS_LAST_CARD
    g, ev = apply(g, "a", Draw())
    assert of(ev, CardsDrawn)[0].count == 1


def test_last_card_number_only_wild_without_colour_refused() -> None:
    """docs/rules.md s2 last_card=number_only: a wild is not playable as the last card."""
    g = scenario({"a": ["W"], "b": ["B3"]}, ["R5"], rules=NUMBER_ONLY)
    assert refuse(g, "a", Play("W")) == Code.NOT_AS_LAST_CARD


def test_last_card_number_only_number_goes_out() -> None:
    """docs/rules.md s2 last_card=number_only: a number card may be the last card."""
    g = scenario({"a": ["R7"], "b": ["B3"]}, ["R5"], rules=NUMBER_ONLY)
    g, _ = apply(g, "a", Play("R7"))
    assert (g.phase, g.round_winner) == (Phase.ROUND_OVER, "a")


def test_last_card_number_only_action_card_fine_before_the_last() -> None:
    """docs/rules.md s2 last_card=number_only: only the last card is restricted."""
    g = scenario({"a": ["RS", "G1"], "b": ["B3"], "c": ["B4"]}, ["R5"], rules=NUMBER_ONLY)
    assert Play("RS") in legal_actions(g, "a")


def test_last_card_number_only_action_pair_as_last_cards_refused() -> None:
    """docs/rules.md s2 number_only + multi_play: a pair of action cards cannot end the hand."""
    g = scenario(
        {"a": ["RS", "RS"], "b": ["B3"], "c": ["B4"]},
        ["R5"],
        rules=Rules(last_card="number_only", multi_play="identical"),
    )
    assert Play("RS", together=("RS",)) not in legal_actions(g, "a")
    assert refuse(g, "a", Play("RS", together=("RS",))) == Code.NOT_AS_LAST_CARD


def test_last_card_number_only_cannot_stack_the_last_card() -> None:
    """docs/rules.md s2 number_only: a +2 as the last card is unplayable, also on a penalty."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["BD2"], "c": ["B4"]},
        ["R5"],
        rules=Rules(last_card="number_only", stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert plays(g, "b") == []
    assert refuse(g, "b", Play("BD2")) == Code.NOT_AS_LAST_CARD
    assert Accept() in legal_actions(g, "b")


PLAY_AND_DRAW = Rules(last_card="play_and_draw")


def test_last_card_play_and_draw_effect_then_draws_one_and_is_exposed() -> None:
    """docs/rules.md s2 last_card=play_and_draw: played with effect, then draws 1, must
    call UNO."""
    g = scenario(
        {"a": ["RS"], "b": ["B3", "B4"], "c": ["G1", "G2"]},
        ["R5"],
        draw_pile=PILE,
        rules=PLAY_AND_DRAW,
    )
    assert Play("RS") in legal_actions(g, "a")
    g, ev = apply(g, "a", Play("RS"))
    assert TurnSkipped("b") in ev
    assert CardsDrawn("a", 1, cards(PILE[:1]), "last_card") in ev
    assert not of(ev, RoundWon)
    assert (g.phase, g.current, hand(g, "a")) == (Phase.PLAYING, "c", [PILE[0]])
    assert g.exposed_players == ["a"]
    assert CallUno() in legal_actions(g, "a")
    g, ev = apply(g, "b", CatchUno("a"))
    assert of(ev, UnoCaught) == [UnoCaught("b", "a", 2)]
    assert len(g.hand("a")) == 3


def test_last_card_play_and_draw_draw_two_still_hits_the_next_player() -> None:
    """docs/rules.md s2 play_and_draw: the D2 takes its effect, then its player draws 1."""
    g = scenario(
        {"a": ["RD2"], "b": ["B3", "B4"], "c": ["G1", "G2"]},
        ["R5"],
        draw_pile=PILE,
        rules=PLAY_AND_DRAW,
    )
    g, ev = apply(g, "a", Play("RD2"))
    drawn = of(ev, CardsDrawn)
    assert sorted((d.player, d.count, d.reason) for d in drawn) == [
        ("a", 1, "last_card"),
        ("b", 2, "penalty"),
    ]
    assert TurnSkipped("b") in ev
    assert (len(g.hand("a")), len(g.hand("b")), g.current) == (1, 4, "c")
    assert g.phase is Phase.PLAYING


def test_last_card_play_and_draw_wild_names_colour_and_draws() -> None:
    """docs/rules.md s2 play_and_draw: a wild last card is played (colour named), then draw 1."""
    g = scenario({"a": ["W"], "b": ["B3", "B4"]}, ["R5"], draw_pile=PILE, rules=PLAY_AND_DRAW)
    g, _ = apply(g, "a", Play("W", color="B"))
    assert (str(g.color), g.current, hand(g, "a")) == ("B", "b", [PILE[0]])
    assert g.phase is Phase.PLAYING


def test_last_card_play_and_draw_number_goes_out() -> None:
    """docs/rules.md s2 play_and_draw: only action/wild last cards draw; a number goes out."""
    g = scenario({"a": ["R7"], "b": ["B3"]}, ["R5"], draw_pile=PILE, rules=PLAY_AND_DRAW)
    g, ev = apply(g, "a", Play("R7"))
    assert not [d for d in of(ev, CardsDrawn) if d.player == "a"]
    assert (g.phase, g.round_winner) == (Phase.ROUND_OVER, "a")


def test_last_card_play_and_draw_must_call_uno_again() -> None:
    """docs/rules.md s2 play_and_draw: holding one card again, the player must call UNO again."""
    g = scenario(
        {"a": ["RS", "R1"], "b": ["R2", "B4"], "c": ["R3", "G2"]},
        ["R5"],
        draw_pile=PILE,
        rules=PLAY_AND_DRAW,
    )
    g, ev = apply(g, "a", Play("R1", uno=True))
    assert UnoCalled("a") in ev
    g, _ = apply(g, "b", Play("R2"))
    g, _ = apply(g, "c", Play("R3"))
    assert CatchUno("a") not in legal_actions(g, "b")
    g, _ = apply(g, "a", Play("RS"))
    assert len(g.hand("a")) == 1
    assert "a" in g.exposed_players
    assert CallUno() in legal_actions(g, "a")
    assert CatchUno("a") in legal_actions(g, "c")


# --------------------------------------------------------------------- first_play_number

FIRST = Rules(first_play_number=True)


def test_first_play_number_only_number_cards_listed() -> None:
    """docs/rules.md s2 first_play_number: the first player of a round must play a number card."""
    g = scenario({"a": ["R7", "RS", "RD2", "W", "W4", "G3"], "b": ["B3"]}, ["R2"], rules=FIRST)
    assert plays(g, "a") == [Play("R7")]
    assert Draw() not in legal_actions(g, "a")
    assert refuse(g, "a", Play("RS")) == Code.FIRST_PLAY_NUMBER
    assert refuse(g, "a", Play("W", color="G")) == Code.FIRST_PLAY_NUMBER
    assert refuse(g, "a", Draw()) == Code.FIRST_PLAY_NUMBER


def test_first_play_number_none_draws_two_and_is_skipped() -> None:
    """docs/rules.md s2 first_play_number: with no playable number card, draw 2 and be skipped."""
    g = scenario(
        {"a": ["RS", "W", "G9"], "b": ["RS", "B3"], "c": ["G1"]},
        ["R2"],
        draw_pile=PILE,
        rules=FIRST,
    )
    assert plays(g, "a") == []
    assert Draw() in legal_actions(g, "a")
    g, ev = apply(g, "a", Draw())
    assert of(ev, CardsDrawn) == [CardsDrawn("a", 2, cards(PILE[:2]), "first_play")]
    assert TurnSkipped("a") in ev
    assert g.current == "b"
    assert len(g.hand("a")) == 5
    assert Play("RS") in legal_actions(g, "b")  # the first play is over for everyone else


def test_first_play_number_later_turns_are_normal() -> None:
    """docs/rules.md s2 first_play_number: only the round's first play is restricted."""
    g = scenario({"a": ["R7", "G1"], "b": ["RS", "B3"], "c": ["G1"]}, ["R2"], rules=FIRST)
    g, _ = apply(g, "a", Play("R7"))
    assert Play("RS") in legal_actions(g, "b")
    assert Draw() in legal_actions(g, "b")


def test_first_play_number_no_jump_in_before_the_first_play() -> None:
    """docs/rules.md s2 first_play_number: no jump-in before the first play."""
    g = scenario(
        {"a": ["R8", "G1"], "b": ["B3", "B4"], "c": ["R3", "R8", "B1"], "d": ["Y1"]},
        ["R3"],
        rules=Rules(first_play_number=True, jump_in=True),
    )
    assert plays(g, "c") == []
    assert refuse(g, "c", Play("R3")) == Code.NO_JUMP_IN
    g, _ = apply(g, "a", Play("R8"))
    assert Play("R8") in legal_actions(g, "c")
