"""House-rule flags of docs/rules.md section 2: penalties, the W4 variants, UNO, scoring, seating.

Every scenario is set up by hand with ``engine.scenario`` and checked as a careful reader of
the rules would check it at a table: hands, top card, colour, whose turn, pending penalty,
scores, phase, and the events returned.
"""

from __future__ import annotations

import json

import pytest

from engine import (
    Accept,
    CallUno,
    Card,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    Code,
    DirectionReversed,
    Draw,
    Game,
    GameWon,
    IllegalAction,
    NextRound,
    PenaltyPassed,
    PenaltyStacked,
    Phase,
    Play,
    RoundStarted,
    RoundWon,
    Rules,
    TurnSkipped,
    UnoCaught,
    UnoFalseAlarm,
    apply,
    full_deck,
    game_from_json,
    game_to_json,
    legal_actions,
    new_game,
    new_game_events,
    scenario,
)

PILE = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "B1", "B2", "B5", "B6", "B7"]


def cards(codes: list[str]) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in codes)


def of(events: list[object], kind: type) -> list[object]:
    return [e for e in events if isinstance(e, kind)]


def hand(g: Game, p: str) -> list[str]:
    return sorted(str(c) for c in g.hand(p))


def refuse(g: Game, player: str, action: object) -> Code:
    """Apply must refuse ``action`` and leave the game as it was; the refusal's code."""
    before = game_to_json(g)
    with pytest.raises(IllegalAction) as exc:
        apply(g, player, action)  # type: ignore[arg-type]
    assert game_to_json(g) == before
    return exc.value.code


def with_scores(g: Game, scores: dict[str, int]) -> Game:
    """The same game with the running totals of earlier rounds (through the JSON contract)."""
    d = json.loads(game_to_json(g))
    d["scores"] = scores
    return game_from_json(json.dumps(d))


# ------------------------------------------------------------------------------ stacking


def test_stacking_off_draw_two_is_drawn_at_once() -> None:
    """docs/rules.md s2 penalties: with stacking off a D2 is drawn at once and the
    victim skipped."""
    g = scenario({"a": ["RD2", "G1"], "b": ["YD2", "B3"], "c": ["G4"]}, ["R5"], draw_pile=PILE)
    g, ev = apply(g, "a", Play("RD2"))
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 2, cards(PILE[:2]), "penalty")]
    assert TurnSkipped("b") in ev
    assert g.current == "c"
    assert g.pending_draw == 0
    assert hand(g, "b") == sorted(["YD2", "B3", *PILE[:2]])


def test_stacking_draw_two_plus_two_on_plus_two() -> None:
    """docs/rules.md s2 stacking=draw_two: +2 on +2; the sum passes on."""
    r = Rules(stacking="draw_two")
    g = scenario(
        {"a": ["RD2", "G1", "G2"], "b": ["YD2", "B3", "B4"], "c": ["G4", "G5", "G6"]},
        ["R5"],
        draw_pile=PILE,
        rules=r,
    )
    g, ev = apply(g, "a", Play("RD2"))
    assert not of(ev, CardsDrawn)
    assert (g.current, g.pending_draw) == ("b", 2)
    assert Accept() in legal_actions(g, "b")
    assert Play("YD2") in legal_actions(g, "b")
    g, ev = apply(g, "b", Play("YD2"))
    assert of(ev, PenaltyStacked) == [PenaltyStacked("b", 4)]
    assert (g.current, g.pending_draw) == ("c", 4)
    assert g.top == Card.parse("YD2")


def test_stacking_draw_two_refuses_w4_on_plus_two() -> None:
    """docs/rules.md s2 stacking=draw_two: +2 on +2 only (no +4 on a +2)."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W4", "G3", "B3"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert not [a for a in legal_actions(g, "b") if isinstance(a, Play)]
    assert refuse(g, "b", Play("W4", color="G")) == Code.CANNOT_STACK


def test_stacking_draw_two_refuses_plus_two_on_plus_four() -> None:
    """docs/rules.md s2 stacking=draw_two: +2 on +2 only (no +2 on a +4)."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["GD2", "G3"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("W4", color="G"))
    assert g.pending_draw == 4
    assert Play("GD2") not in legal_actions(g, "b")
    assert refuse(g, "b", Play("GD2")) == Code.CANNOT_STACK


def test_stacking_draw_four_on_two_w4_on_plus_two() -> None:
    """docs/rules.md s2 stacking=draw_four_on_two: +4 on +2; the sum passes on."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W4", "G3", "B3"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert Play("W4", color="G") in legal_actions(g, "b")
    g, ev = apply(g, "b", Play("W4", color="G"))
    assert of(ev, PenaltyStacked) == [PenaltyStacked("b", 6)]
    assert (g.current, g.pending_draw, g.color) == ("c", 6, Card.parse("G1").color)
    g, ev = apply(g, "c", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("c", 6, cards(PILE[:6]), "penalty")]
    assert g.current == "a"


def test_stacking_draw_four_on_two_w4_on_w4() -> None:
    """docs/rules.md s2 stacking=draw_four_on_two: +4 on +4."""
    g = scenario(
        {"a": ["W4", "R1"], "b": ["W4", "Y3", "B3"], "c": ["G4", "G5"]},
        ["R5"],
        rules=Rules(stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("W4", color="G"))
    assert (g.current, g.pending_draw) == ("b", 4)
    g, ev = apply(g, "b", Play("W4", color="Y"))
    assert of(ev, PenaltyStacked) == [PenaltyStacked("b", 8)]
    assert (g.current, g.pending_draw) == ("c", 8)


def test_stacking_draw_four_on_two_never_plus_two_on_plus_four() -> None:
    """docs/rules.md s2 stacking=draw_four_on_two: never +2 on +4 (not even of
    the named colour)."""
    g = scenario(
        {"a": ["W4", "R1"], "b": ["GD2", "RD2", "B3"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("W4", color="G"))
    listed = legal_actions(g, "b")
    assert Play("GD2") not in listed
    assert Play("RD2") not in listed
    assert refuse(g, "b", Play("GD2")) == Code.CANNOT_STACK


def test_stacking_any_plus_two_on_plus_four_of_named_colour() -> None:
    """docs/rules.md s2 stacking=any: also +2 on +4 of the named colour."""
    g = scenario(
        {"a": ["W4", "R1"], "b": ["GD2", "RD2", "B3"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="any"),
    )
    g, _ = apply(g, "a", Play("W4", color="G"))
    assert Play("GD2") in legal_actions(g, "b")
    g, ev = apply(g, "b", Play("GD2"))
    assert of(ev, PenaltyStacked) == [PenaltyStacked("b", 6)]
    assert (g.current, g.pending_draw, g.top) == ("c", 6, Card.parse("GD2"))
    g, ev = apply(g, "c", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("c", 6, cards(PILE[:6]), "penalty")]


def test_stacking_any_refuses_plus_two_of_another_colour_on_plus_four() -> None:
    """docs/rules.md s2 stacking=any: +2 on +4 only of the named colour."""
    g = scenario(
        {"a": ["W4", "R1"], "b": ["GD2", "RD2", "B3"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="any"),
    )
    g, _ = apply(g, "a", Play("W4", color="G"))
    assert Play("RD2") not in legal_actions(g, "b")
    assert refuse(g, "b", Play("RD2")) == Code.CANNOT_STACK


def test_stacking_any_plus_two_on_plus_two_and_plus_four_on_plus_two() -> None:
    """docs/rules.md s2 stacking=any: includes everything draw_four_on_two allows."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["BD2", "W4", "G3"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="any"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    listed = legal_actions(g, "b")
    assert Play("BD2") in listed
    assert Play("W4", color="Y") in listed


def test_stack_ending_in_accept_draws_the_total() -> None:
    """docs/rules.md s2 stacking: whoever will not add draws the total and loses the turn."""
    g = scenario(
        {
            "a": ["RD2", "G1"],
            "b": ["BD2", "G2"],
            "c": ["GD2", "G3"],
            "d": ["YD2", "G4"],
        },
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, _ = apply(g, "b", Play("BD2"))
    g, _ = apply(g, "c", Play("GD2"))
    assert (g.current, g.pending_draw) == ("d", 6)
    g, ev = apply(g, "d", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("d", 6, cards(PILE[:6]), "penalty")]
    assert TurnSkipped("d") in ev
    assert g.current == "a"
    assert g.pending_draw == 0
    assert hand(g, "d") == sorted(["YD2", "G4", *PILE[:6]])
    assert refuse(g, "a", Accept()) == Code.NOTHING_PENDING


def test_stacking_with_two_players() -> None:
    """docs/rules.md s2 stacking, two players: the sum comes back to the first; accept
    ends turn."""
    g = scenario(
        {"a": ["RD2", "G1", "G2"], "b": ["BD2", "B3", "B4"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert (g.current, g.pending_draw) == ("b", 2)
    g, ev = apply(g, "b", Play("BD2"))
    assert of(ev, PenaltyStacked) == [PenaltyStacked("b", 4)]
    assert (g.current, g.pending_draw) == ("a", 4)
    g, ev = apply(g, "a", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("a", 4, cards(PILE[:4]), "penalty")]
    assert g.current == "b"
    assert len(g.hand("a")) == 6


def test_stacking_last_card_draw_two_cannot_be_stacked_on() -> None:
    """docs/rules.md s2: a D2 as a player's last card is drawn (plus the pending total) at once."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["BD2"], "c": ["GD2", "G4"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, ev = apply(g, "b", Play("BD2"))
    assert of(ev, CardsDrawn) == [CardsDrawn("c", 4, cards(PILE[:4]), "penalty")]
    (won,) = of(ev, RoundWon)
    assert won.player == "b"
    assert won.hand_points["c"] == 20 + 4 + 1 + 2 + 3 + 4
    assert g.phase is Phase.ROUND_OVER
    assert g.pending_draw == 0


def test_last_card_w4_cannot_be_challenged() -> None:
    """docs/rules.md s2: a W4 played as the last card cannot be challenged; it is drawn at once."""
    g = scenario(
        {"a": ["W4"], "b": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_four_on_two"),
    )
    g, ev = apply(g, "a", Play("W4", color="G"))
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 4, cards(PILE[:4]), "penalty")]
    assert not of(ev, ChallengeResolved)
    assert (g.phase, g.round_winner) == (Phase.ROUND_OVER, "a")
    assert g.scores["a"] == 4 + 5 + 1 + 2 + 3 + 4


def test_wild_on_penalty_as_last_card_next_player_draws() -> None:
    """docs/engine.md / docs/rules.md s2: a wild pass as the last card, the next draws at once."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W"], "c": ["G4"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_two", wild_on_penalty=True),
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, ev = apply(g, "b", Play("W", color="G"))
    assert of(ev, CardsDrawn) == [CardsDrawn("c", 2, cards(PILE[:2]), "penalty")]
    assert (g.phase, g.round_winner) == (Phase.ROUND_OVER, "b")


def test_draw_refused_while_penalty_pending() -> None:
    """ENGINE.md Draw: refused while a penalty is pending (stack or accept)."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["B3", "B4"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert Draw() not in legal_actions(g, "b")
    assert refuse(g, "b", Draw()) == Code.PENALTY_PENDING


# --------------------------------------------------------- a W4 stacked under challenge


def test_stacked_w4_on_plus_two_guilty_offender_draws_whole_stack() -> None:
    """docs/rules.md s2: a challenge concerns the last W4; guilty, its player draws the
    whole total."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W4", "R1", "G2"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, _ = apply(g, "b", Play("W4", color="G"))  # a bluff: b holds red, the colour in play
    assert (g.phase, g.current, g.pending_draw) == (Phase.CHALLENGE, "c", 6)
    assert Challenge() in legal_actions(g, "c")
    g, ev = apply(g, "c", Challenge())
    (res,) = of(ev, ChallengeResolved)
    assert (res.challenger, res.offender, res.guilty, res.penalty, res.loser) == (
        "c",
        "b",
        True,
        6,
        "b",
    )
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 6, cards(PILE[:6]), "challenge")]
    assert hand(g, "b") == sorted(["R1", "G2", *PILE[:6]])
    assert hand(g, "c") == ["G4", "G5"]
    assert (g.phase, g.current, g.pending_draw) == (Phase.PLAYING, "c", 0)


def test_stacked_w4_on_plus_two_innocent_challenger_draws_total_plus_two() -> None:
    """docs/rules.md s2: innocent, the challenger draws the (stacked) total + 2 and is skipped."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W4", "Y1", "G2"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, _ = apply(g, "b", Play("W4", color="G"))  # legal: b holds no red
    g, ev = apply(g, "c", Challenge())
    (res,) = of(ev, ChallengeResolved)
    assert (res.guilty, res.penalty, res.loser) == (False, 8, "c")
    assert of(ev, CardsDrawn) == [CardsDrawn("c", 8, cards(PILE[:8]), "challenge")]
    assert TurnSkipped("c") in ev
    assert hand(g, "b") == ["G2", "Y1"]
    assert (g.current, g.pending_draw) == ("a", 0)


def test_stacked_w4_challenge_concerns_only_the_last_w4() -> None:
    """docs/rules.md s2: a challenge concerns the last W4 played (an earlier bluff is
    not judged)."""
    g = scenario(
        {"a": ["W4", "R1", "R2"], "b": ["W4", "Y1", "B2"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("W4", color="G"))  # a bluff (a holds red)
    assert g.phase is Phase.CHALLENGE
    g, _ = apply(g, "b", Play("W4", color="Y"))  # legal (b holds no green)
    assert (g.phase, g.current, g.pending_draw) == (Phase.CHALLENGE, "c", 8)
    g, ev = apply(g, "c", Challenge())
    (res,) = of(ev, ChallengeResolved)
    assert (res.offender, res.guilty, res.penalty, res.loser) == ("b", False, 10, "c")
    assert len(g.hand("c")) == 12
    assert hand(g, "a") == ["R1", "R2"]


# ------------------------------------------------------------------------------- deflect

DEFLECT = Rules(stacking="draw_two", deflect=True)


def test_deflect_skip_passes_penalty_to_next_player_three_players() -> None:
    """docs/rules.md s2 deflect: an S of the colour in play passes the whole penalty to
    the next."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RS", "G7"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert Play("RS") in legal_actions(g, "b")
    g, ev = apply(g, "b", Play("RS"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "c", 2, "skip")]
    assert (g.current, g.pending_draw, g.top) == ("c", 2, Card.parse("RS"))
    assert hand(g, "b") == ["G7"]
    g, ev = apply(g, "c", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("c", 2, cards(PILE[:2]), "penalty")]
    assert g.current == "a"


def test_deflect_reverse_sends_penalty_back_three_players() -> None:
    """docs/rules.md s2 deflect: an R of the colour in play sends it back to the last
    +2's player."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RR", "G7"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, ev = apply(g, "b", Play("RR"))
    assert DirectionReversed(-1) in ev
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "a", 2, "reverse")]
    assert (g.current, g.pending_draw, g.direction) == ("a", 2, -1)
    g, ev = apply(g, "a", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("a", 2, cards(PILE[:2]), "penalty")]
    assert g.current == "c"  # next from a the other way round


def test_deflect_skip_four_players() -> None:
    """docs/rules.md s2 deflect: the Skip passes the penalty to the next player only."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RS", "G7"], "c": ["G4", "G5"], "d": ["B1", "B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, _ = apply(g, "b", Play("RS"))
    assert (g.current, g.pending_draw) == ("c", 2)
    g, _ = apply(g, "c", Accept())
    assert g.current == "d"
    assert hand(g, "d") == ["B1", "B2"]
    assert len(g.hand("c")) == 4


def test_deflect_reverse_four_players() -> None:
    """docs/rules.md s2 deflect: the Reverse sends it back and play then goes the other way."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RR", "G7"], "c": ["G4", "G5"], "d": ["B1", "B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, ev = apply(g, "b", Play("RR"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "a", 2, "reverse")]
    assert (g.current, g.direction) == ("a", -1)
    g, _ = apply(g, "a", Accept())
    assert g.current == "d"


def test_deflect_reverse_after_a_skip_goes_to_who_played_the_plus_two() -> None:
    """docs/rules.md s2 deflect: R sends the penalty to the player who played the last +2."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RS", "G7"], "c": ["RR", "G5"], "d": ["B1", "B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, _ = apply(g, "b", Play("RS"))
    g, ev = apply(g, "c", Play("RR"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("c", "a", 2, "reverse")]
    assert (g.current, g.pending_draw, g.direction) == ("a", 2, -1)
    assert hand(g, "b") == ["G7"]


def test_deflect_skip_two_players_returns_penalty() -> None:
    """docs/rules.md s2 deflect with two players: the next player after the Skip is the
    +2's player."""
    g = scenario(
        {"a": ["RD2", "G1", "G2"], "b": ["RS", "G7"]},
        ["R5"],
        draw_pile=PILE,
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, ev = apply(g, "b", Play("RS"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "a", 2, "skip")]
    assert (g.current, g.pending_draw) == ("a", 2)
    g, _ = apply(g, "a", Accept())
    assert g.current == "b"
    assert len(g.hand("a")) == 4


def test_deflect_reverse_two_players_sends_back() -> None:
    """docs/rules.md s2 deflect with two players: the Reverse sends the +2 back to its player."""
    g = scenario(
        {"a": ["RD2", "G1", "G2"], "b": ["RR", "G7"]},
        ["R5"],
        draw_pile=PILE,
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, ev = apply(g, "b", Play("RR"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "a", 2, "reverse")]
    assert (g.current, g.pending_draw) == ("a", 2)
    g, _ = apply(g, "a", Accept())
    assert g.current == "b"


def test_deflect_not_as_the_last_card() -> None:
    """docs/rules.md s2 deflect: one card, not as the player's last card."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RS"], "c": ["G4"]},
        ["R5"],
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert Play("RS") not in legal_actions(g, "b")
    assert refuse(g, "b", Play("RS")) == Code.NOT_AS_LAST_CARD
    assert Accept() in legal_actions(g, "b")


def test_deflect_needs_the_colour_in_play() -> None:
    """docs/rules.md s2 deflect: only an S or R of the colour in play."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["GS", "GR", "Y7"], "c": ["G4"]},
        ["R5"],
        rules=DEFLECT,
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert Play("GS") not in legal_actions(g, "b")
    assert Play("GR") not in legal_actions(g, "b")
    refuse(g, "b", Play("GS"))


def test_deflect_off_skip_cannot_go_on_a_penalty() -> None:
    """docs/rules.md s2: without deflect only stacking cards answer a pending +2."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RS", "RR", "Y7"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert not [a for a in legal_actions(g, "b") if isinstance(a, Play)]
    refuse(g, "b", Play("RS"))
    refuse(g, "b", Play("RR"))


def test_deflect_only_on_a_plus_two_not_a_plus_four() -> None:
    """docs/rules.md s2 deflect: 'with stacking on and a +2 pending'."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["RS", "Y7"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="draw_four_on_two", deflect=True, wild_draw_four="free"),
    )
    g, _ = apply(g, "a", Play("W4", color="R"))
    assert g.pending_draw == 4
    assert Play("RS") not in legal_actions(g, "b")
    refuse(g, "b", Play("RS"))


def test_deflect_is_one_card_even_with_multi_play() -> None:
    """docs/rules.md s2 multi_play: not for deflects (one card)."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RS", "RS", "Y7"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="draw_two", deflect=True, multi_play="identical"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert Play("RS") in legal_actions(g, "b")
    assert Play("RS", together=("RS",)) not in legal_actions(g, "b")
    refuse(g, "b", Play("RS", together=("RS",)))


# ------------------------------------------------------------------------ wild_on_penalty


def test_wild_on_penalty_passes_total_to_next_in_named_colour() -> None:
    """docs/rules.md s2 wild_on_penalty: the W adds nothing; the total passes on in its colour."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W", "G7"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(stacking="draw_two", wild_on_penalty=True),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert Play("W", color="B") in legal_actions(g, "b")
    g, ev = apply(g, "b", Play("W", color="B"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "c", 2, "wild")]
    assert not of(ev, PenaltyStacked)
    assert (g.current, g.pending_draw, g.top, str(g.color)) == ("c", 2, Card.parse("W"), "B")
    g, ev = apply(g, "c", Accept())
    assert of(ev, CardsDrawn) == [CardsDrawn("c", 2, cards(PILE[:2]), "penalty")]
    assert g.current == "a"


def test_wild_on_penalty_off_refuses_wild_on_a_penalty() -> None:
    """docs/rules.md s2 wild_on_penalty=false (seeds: not allowed): no plain W on a penalty."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W", "G7"], "c": ["G4"]},
        ["R5"],
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert not [a for a in legal_actions(g, "b") if isinstance(a, Play)]
    refuse(g, "b", Play("W", color="B"))
    refuse(g, "b", Play("W"))


# -------------------------------------------------------------------- wild_draw_four rule


def test_w4_challenge_official_bluff_listed_and_challengeable() -> None:
    """docs/rules.md s1/s2 wild_draw_four=challenge: a bluff may be played and challenged."""
    g = scenario(
        {"a": ["W4", "R1"], "b": ["G4", "G5"], "c": ["B1"]},
        ["R5"],
        draw_pile=PILE,
    )
    assert Play("W4", color="G") in legal_actions(g, "a")
    g, _ = apply(g, "a", Play("W4", color="G"))
    assert (g.phase, g.current, g.pending_draw) == (Phase.CHALLENGE, "b", 4)
    assert Challenge() in legal_actions(g, "b")
    assert Challenge() not in legal_actions(g, "c")


def test_w4_no_bluff_illegal_w4_not_listed_and_refused() -> None:
    """docs/rules.md s2 wild_draw_four=no_bluff: an illegal W4 is refused."""
    g = scenario(
        {"a": ["W4", "R1"], "b": ["G4"], "c": ["B1"]},
        ["R5"],
        rules=Rules(wild_draw_four="no_bluff"),
    )
    assert not [a for a in legal_actions(g, "a") if isinstance(a, Play) and a.card.is_wild]
    assert refuse(g, "a", Play("W4", color="G")) == Code.WILD_DRAW_FOUR_ILLEGAL
    assert refuse(g, "a", Play("W4")) == Code.WILD_DRAW_FOUR_ILLEGAL


def test_w4_no_bluff_legal_w4_drawn_at_once_no_challenge() -> None:
    """docs/rules.md s2 no_bluff: nobody may challenge; with stacking off the +4 is
    drawn at once."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["G4", "G5"], "c": ["B1", "B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(wild_draw_four="no_bluff"),
    )
    g, ev = apply(g, "a", Play("W4", color="B"))
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 4, cards(PILE[:4]), "penalty")]
    assert TurnSkipped("b") in ev
    assert (g.phase, g.current, g.pending_draw, str(g.color)) == (Phase.PLAYING, "c", 0, "B")
    for p in ("a", "b", "c"):
        assert Challenge() not in legal_actions(g, p)


def test_w4_no_bluff_with_stacking_victim_cannot_challenge() -> None:
    """docs/rules.md s2 no_bluff: nobody may challenge, even when the victim decides (stacking)."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["G4", "G5"], "c": ["B1"]},
        ["R5"],
        rules=Rules(wild_draw_four="no_bluff", stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("W4", color="B"))
    assert (g.phase, g.current, g.pending_draw) == (Phase.PLAYING, "b", 4)
    assert Challenge() not in legal_actions(g, "b")
    assert refuse(g, "b", Challenge()) == Code.NOTHING_TO_CHALLENGE


def test_w4_no_bluff_stacked_w4_must_be_legal_too() -> None:
    """docs/engine.md: a stacked W4 under no_bluff needs no card of the colour in play."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["W4", "B4", "G5"], "c": ["B1"]},
        ["R5"],
        rules=Rules(wild_draw_four="no_bluff", stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("W4", color="B"))
    assert not [a for a in legal_actions(g, "b") if isinstance(a, Play)]
    assert refuse(g, "b", Play("W4", color="R")) in (
        Code.WILD_DRAW_FOUR_ILLEGAL,
        Code.CANNOT_STACK,
    )


def test_w4_free_always_legal_and_drawn_at_once() -> None:
    """docs/rules.md s2 wild_draw_four=free: W4 always legal, no challenge; drawn at once."""
    g = scenario(
        {"a": ["W4", "R1"], "b": ["G4", "G5"], "c": ["B1", "B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(wild_draw_four="free"),
    )
    assert Play("W4", color="G") in legal_actions(g, "a")
    g, ev = apply(g, "a", Play("W4", color="G"))
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 4, cards(PILE[:4]), "penalty")]
    assert TurnSkipped("b") in ev
    assert (g.phase, g.current, g.pending_draw) == (Phase.PLAYING, "c", 0)
    assert not of(ev, ChallengeResolved)
    assert Challenge() not in legal_actions(g, "b")


def test_w4_free_with_stacking_victim_cannot_challenge() -> None:
    """docs/rules.md s2 free: nobody may challenge; with stacking on the victim stacks
    or accepts."""
    g = scenario(
        {"a": ["W4", "R1"], "b": ["G4", "G5"], "c": ["B1"]},
        ["R5"],
        rules=Rules(wild_draw_four="free", stacking="draw_four_on_two"),
    )
    g, _ = apply(g, "a", Play("W4", color="G"))
    assert (g.phase, g.current, g.pending_draw) == (Phase.PLAYING, "b", 4)
    assert Challenge() not in legal_actions(g, "b")
    assert Accept() in legal_actions(g, "b")
    assert refuse(g, "b", Challenge()) == Code.NOTHING_TO_CHALLENGE


# -------------------------------------------------------------------- guilty_challenger


def _bluffed(rules: Rules) -> Game:
    g = scenario(
        {"a": ["W4", "R1", "R2"], "b": ["G4", "G5"], "c": ["B1", "B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=rules,
    )
    g, _ = apply(g, "a", Play("W4", color="G"))
    return g


def test_guilty_challenger_plays_by_default() -> None:
    """docs/rules.md s1/s2 guilty_challenger=plays: offender draws 4, the challenger plays."""
    g, ev = apply(_bluffed(Rules()), "b", Challenge())
    (res,) = of(ev, ChallengeResolved)
    assert (res.guilty, res.loser, res.penalty) == (True, "a", 4)
    assert hand(g, "a") == sorted(["R1", "R2", *PILE[:4]])
    assert TurnSkipped("b") not in ev
    assert (g.current, g.phase, str(g.color)) == ("b", Phase.PLAYING, "G")
    assert Play("G4") in legal_actions(g, "b")


def test_guilty_challenger_skipped() -> None:
    """docs/rules.md s2 guilty_challenger=skipped: a guilty challenge still skips the
    challenger."""
    g, ev = apply(_bluffed(Rules(guilty_challenger="skipped")), "b", Challenge())
    (res,) = of(ev, ChallengeResolved)
    assert (res.guilty, res.loser, res.penalty) == (True, "a", 4)
    assert len(g.hand("a")) == 6
    assert hand(g, "b") == ["G4", "G5"]
    assert TurnSkipped("b") in ev
    assert g.current == "c"


def test_guilty_challenger_skipped_innocent_still_draws_six() -> None:
    """docs/rules.md s1: innocent, the challenger draws 6 and loses the turn (whatever
    the flag)."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["G4", "G5"], "c": ["B1", "B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=Rules(guilty_challenger="skipped"),
    )
    g, _ = apply(g, "a", Play("W4", color="B"))
    g, ev = apply(g, "b", Challenge())
    (res,) = of(ev, ChallengeResolved)
    assert (res.guilty, res.loser, res.penalty) == (False, "b", 6)
    assert len(g.hand("b")) == 8
    assert g.current == "c"


# ----------------------------------------------------------------------------- UNO values


def _exposed(rules: Rules) -> Game:
    g = scenario(
        {"a": ["R5", "G3"], "b": ["B1", "B2"], "c": ["Y1", "Y2"]},
        ["R2"],
        draw_pile=PILE,
        rules=rules,
    )
    g, _ = apply(g, "a", Play("R5"))
    assert g.exposed_players == ["a"]
    return g


def test_uno_penalty_default_two() -> None:
    """docs/rules.md s1 UNO: a caught player draws 2."""
    g, ev = apply(_exposed(Rules()), "b", CatchUno("a"))
    assert of(ev, UnoCaught) == [UnoCaught("b", "a", 2)]
    assert hand(g, "a") == sorted(["G3", *PILE[:2]])


def test_uno_penalty_one() -> None:
    """docs/rules.md s2 uno_penalty=1 (seed 001): a caught player draws 1."""
    g, ev = apply(_exposed(Rules(uno_penalty=1)), "c", CatchUno("a"))
    assert of(ev, UnoCaught) == [UnoCaught("c", "a", 1)]
    assert hand(g, "a") == sorted(["G3", PILE[0]])
    assert g.exposed_players == []


def test_uno_penalty_zero() -> None:
    """docs/rules.md s2 uno_penalty=0: being caught costs nothing."""
    g0 = _exposed(Rules(uno_penalty=0))
    g, ev = apply(g0, "b", CatchUno("a"))
    assert of(ev, UnoCaught) == [UnoCaught("b", "a", 0)]
    assert hand(g, "a") == ["G3"]
    assert g.draw_pile_size == g0.draw_pile_size


def test_false_uno_off_false_call_and_catch_refused() -> None:
    """docs/rules.md s2 false_uno_penalty=0: no false calls or catches are accepted."""
    g = scenario({"a": ["R5", "G3", "G4"], "b": ["B1", "B2"]}, ["R2"], draw_pile=PILE)
    assert CallUno() not in legal_actions(g, "a")
    assert CatchUno("b") not in legal_actions(g, "a")
    assert refuse(g, "a", CallUno()) == Code.NOT_ONE_CARD
    assert refuse(g, "a", CatchUno("b")) == Code.NOT_CATCHABLE


def test_false_uno_call_listed_and_costs_the_caller() -> None:
    """docs/rules.md s2 false_uno_penalty: a call while not holding one card costs the caller."""
    g = scenario(
        {"a": ["R5", "G3", "G4"], "b": ["B1", "B2"]},
        ["R2"],
        draw_pile=PILE,
        rules=Rules(false_uno_penalty=2),
    )
    assert CallUno() in legal_actions(g, "a")
    g, ev = apply(g, "a", CallUno())
    assert of(ev, UnoFalseAlarm) == [UnoFalseAlarm("a", 2, None)]
    assert hand(g, "a") == sorted(["R5", "G3", "G4", *PILE[:2]])


def test_false_catch_listed_and_costs_the_catcher() -> None:
    """docs/rules.md s2 false_uno_penalty: a catch of a non-exposed player costs the catcher."""
    g = scenario(
        {"a": ["R5", "G3", "G4"], "b": ["B1", "B2"], "c": ["Y1", "Y2"]},
        ["R2"],
        draw_pile=PILE,
        rules=Rules(false_uno_penalty=1),
    )
    assert CatchUno("b") in legal_actions(g, "c")
    g, ev = apply(g, "c", CatchUno("b"))
    assert of(ev, UnoFalseAlarm) == [UnoFalseAlarm("c", 1, "b")]
    assert hand(g, "c") == sorted(["Y1", "Y2", PILE[0]])
    assert hand(g, "b") == ["B1", "B2"]


def test_false_catch_of_a_player_who_called_costs_the_catcher() -> None:
    """docs/rules.md s2: a player who called UNO is not exposed; catching them is a false catch."""
    g = scenario(
        {"a": ["R5", "G3"], "b": ["B1", "B2"], "c": ["Y1", "Y2"]},
        ["R2"],
        draw_pile=PILE,
        rules=Rules(false_uno_penalty=2),
    )
    g, _ = apply(g, "a", Play("R5", uno=True))
    assert g.exposed_players == []
    g, ev = apply(g, "b", CatchUno("a"))
    assert of(ev, UnoFalseAlarm) == [UnoFalseAlarm("b", 2, "a")]
    assert not of(ev, UnoCaught)
    assert hand(g, "a") == ["G3"]
    assert len(g.hand("b")) == 4


# ------------------------------------------------------------------------------- scoring


def _out(rules: Rules, others: dict[str, list[str]]) -> tuple[Game, list[object]]:
    """``a`` goes out with R5 on R2; the others hold ``others``."""
    g = scenario({"a": ["R5"], **others}, ["R2"], draw_pile=PILE, rules=rules)
    return apply(g, "a", Play("R5"))


def test_winner_takes_scores_other_hands() -> None:
    """docs/rules.md s1 scoring: the winner scores all cards left in the other hands."""
    g, ev = _out(Rules(), {"b": ["G5", "GS"], "c": ["W"]})
    (won,) = of(ev, RoundWon)
    assert (won.player, won.points) == ("a", 75)
    assert g.scores == {"a": 75, "b": 0, "c": 0}
    assert (g.phase, g.round_winner, g.winner) == (Phase.ROUND_OVER, "a", None)


def test_penalty_scoring_each_loser_adds_own_hand() -> None:
    """docs/rules.md s2 scoring=penalty: every other player adds their own hand's points."""
    g, ev = _out(Rules(scoring="penalty"), {"b": ["G5", "GS"], "c": ["W"]})
    (won,) = of(ev, RoundWon)
    assert won.player == "a"
    assert won.hand_points == {"a": 0, "b": 25, "c": 50}
    assert g.scores == {"a": 0, "b": 25, "c": 50}
    assert (g.phase, g.winner) == (Phase.ROUND_OVER, None)


def test_penalty_scoring_bust_lowest_total_wins() -> None:
    """docs/rules.md s2 scoring=penalty: whoever reaches the target busts; the lowest
    total wins."""
    g = scenario(
        {"a": ["R5"], "b": ["G5"], "c": ["W", "G9"]},
        ["R2"],
        rules=Rules(scoring="penalty"),
    )
    g = with_scores(g, {"a": 100, "b": 10, "c": 450})
    g, ev = apply(g, "a", Play("R5"))
    assert g.scores == {"a": 100, "b": 15, "c": 509}
    assert (g.phase, g.winner) == (Phase.GAME_OVER, "b")
    assert of(ev, GameWon) == [GameWon("b", {"a": 100, "b": 15, "c": 509})]
    assert g.current is None


def test_penalty_scoring_bust_tie_goes_first_in_turn_order() -> None:
    """docs/rules.md s2: ties for the lowest total go to the first tied player in turn order."""
    g = scenario(
        {"a": ["R5"], "b": ["GS"], "c": ["W", "G9"]},
        ["R2"],
        rules=Rules(scoring="penalty", target=100),
    )
    g = with_scores(g, {"a": 20, "b": 0, "c": 60})
    g, _ = apply(g, "a", Play("R5"))
    assert g.scores == {"a": 20, "b": 20, "c": 119}
    assert g.winner == "a"


def test_penalty_scoring_below_target_goes_on() -> None:
    """docs/rules.md s2 scoring=penalty: nobody at the target, the game goes on."""
    g = scenario(
        {"a": ["R5"], "b": ["G5"], "c": ["W", "G9"]},
        ["R2"],
        rules=Rules(scoring="penalty"),
    )
    g = with_scores(g, {"a": 100, "b": 10, "c": 400})
    g, ev = apply(g, "a", Play("R5"))
    assert g.scores == {"a": 100, "b": 15, "c": 459}
    assert (g.phase, g.winner) == (Phase.ROUND_OVER, None)
    assert not of(ev, GameWon)


def test_card_points_standard() -> None:
    """docs/rules.md s1 scoring: numbers at face value, S R D2 20, W W4 50."""
    g, ev = _out(Rules(), {"b": ["RS", "GR", "BD2", "W", "W4", "Y7"]})
    (won,) = of(ev, RoundWon)
    assert won.points == 20 * 3 + 50 * 2 + 7
    assert g.scores["a"] == 167


def test_card_points_low() -> None:
    """docs/rules.md s2 card_points=low: S R D2 10, W 20, W4 40."""
    g, ev = _out(Rules(card_points="low"), {"b": ["RS", "GR", "BD2", "W", "W4", "Y7"]})
    (won,) = of(ev, RoundWon)
    assert won.points == 10 * 3 + 20 + 40 + 7
    assert won.hand_points["b"] == 97
    assert g.scores == {"a": 97, "b": 0}


def test_card_points_low_with_penalty_scoring() -> None:
    """docs/rules.md s2: card_points values apply to penalty scoring too."""
    g, _ = _out(Rules(card_points="low", scoring="penalty"), {"b": ["W4", "BD2"], "c": ["W"]})
    assert g.scores == {"a": 0, "b": 50, "c": 20}


def test_target_zero_single_round_ends_the_game() -> None:
    """docs/rules.md s2 target=0: a single round is played."""
    g, ev = _out(Rules(target=0), {"b": ["G5"], "c": ["B1"]})
    assert (g.phase, g.winner, g.current) == (Phase.GAME_OVER, "a", None)
    assert of(ev, GameWon) == [GameWon("a", {"a": 6, "b": 0, "c": 0})]
    assert NextRound() not in legal_actions(g, "b")


def test_target_reached_ends_the_game() -> None:
    """docs/rules.md s1/s2 target: the first to reach the target wins the game."""
    g, _ = _out(Rules(target=20), {"b": ["GS"]})
    assert (g.phase, g.winner) == (Phase.GAME_OVER, "a")


def test_target_not_reached_next_round() -> None:
    """docs/rules.md s1 target: below the target another round is dealt."""
    g, _ = _out(Rules(target=21), {"b": ["GS"]})
    assert (g.phase, g.winner) == (Phase.ROUND_OVER, None)
    assert NextRound() in legal_actions(g, "b")


# ------------------------------------------------------------------------------ partners


def test_partners_four_players_sit_opposite() -> None:
    """docs/rules.md s2 partners: teams of two, partners sitting opposite."""
    g = scenario({p: ["G1"] for p in "abcd"}, ["R2"], rules=Rules(partners=True))
    assert g.partner_of("a") == "c"
    assert g.partner_of("b") == "d"
    assert g.team_of("a") == g.team_of("c") != g.team_of("b")


def test_partners_four_players_team_scores_opponents_hands() -> None:
    """docs/rules.md s2 partners: the team scores every opponent's hand; both show the total."""
    g, ev = _out(Rules(partners=True), {"b": ["G5"], "c": ["W"], "d": ["B9"]})
    (won,) = of(ev, RoundWon)
    assert (won.player, won.points) == ("a", 14)
    assert g.scores == {"a": 14, "b": 0, "c": 14, "d": 0}
    assert g.phase is Phase.ROUND_OVER


def test_partners_six_players_team_scores_opponents_hands() -> None:
    """docs/rules.md s2 partners: 6 players, 3 teams of partners sitting opposite."""
    g, ev = _out(
        Rules(partners=True),
        {"b": ["G5"], "c": ["B9"], "d": ["W"], "e": ["Y7"], "f": ["RS"]},
    )
    assert g.partner_of("a") == "d"
    assert g.partner_of("b") == "e"
    assert g.partner_of("c") == "f"
    (won,) = of(ev, RoundWon)
    assert won.points == 5 + 9 + 7 + 20
    assert g.scores == {"a": 41, "b": 0, "c": 0, "d": 41, "e": 0, "f": 0}


def test_partners_partner_going_out_wins_the_round_for_the_team() -> None:
    """docs/rules.md s2 partners: when one partner goes out the team wins the round."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["G5"], "c": ["R5"], "d": ["B9"]},
        ["R2"],
        current="c",
        rules=Rules(partners=True, target=10),
    )
    g, ev = apply(g, "c", Play("R5"))
    (won,) = of(ev, RoundWon)
    assert (won.player, won.points) == ("c", 14)
    assert g.scores == {"a": 14, "b": 0, "c": 14, "d": 0}
    assert g.round_winner == "c"
    assert (g.phase, g.winner) == (Phase.GAME_OVER, "c")


def test_partners_need_four_or_six_players() -> None:
    """docs/rules.md s2 partners: 4 or 6 players."""
    for n in (2, 3, 5, 7):
        with pytest.raises(ValueError):
            new_game([f"p{i}" for i in range(n)], Rules(partners=True))
    for n in (4, 6):
        assert len(new_game([f"p{i}" for i in range(n)], Rules(partners=True)).players) == n


# ---------------------------------------------------------------------------- two_player


def test_two_player_official_reverse_acts_as_skip() -> None:
    """docs/rules.md s1 two players: R acts as S, the player who played it plays again."""
    g = scenario({"a": ["RR", "G1"], "b": ["B1", "B2"]}, ["R5"])
    g, ev = apply(g, "a", Play("RR"))
    assert TurnSkipped("b") in ev
    assert not of(ev, DirectionReversed)
    assert (g.current, g.direction) == ("a", 1)


def test_two_player_official_skip_plays_again() -> None:
    """docs/rules.md s1 two players: S, play again."""
    g = scenario({"a": ["RS", "G1"], "b": ["B1", "B2"]}, ["R5"])
    g, _ = apply(g, "a", Play("RS"))
    assert g.current == "a"


def test_two_player_official_draw_two_returns_to_player() -> None:
    """docs/rules.md s1 two players: after your D2 the opponent draws and play returns to you."""
    g = scenario({"a": ["RD2", "G1"], "b": ["B1", "B2"]}, ["R5"], draw_pile=PILE)
    g, ev = apply(g, "a", Play("RD2"))
    assert of(ev, CardsDrawn) == [CardsDrawn("b", 2, cards(PILE[:2]), "penalty")]
    assert g.current == "a"


def test_two_player_plain_reverse_reverses() -> None:
    """docs/rules.md s2 two_player=plain: no special two-player rules, R reverses the direction."""
    g = scenario({"a": ["RR", "G1"], "b": ["B1", "B2"]}, ["R5"], rules=Rules(two_player="plain"))
    g, ev = apply(g, "a", Play("RR"))
    assert DirectionReversed(-1) in ev
    assert not of(ev, TurnSkipped)
    assert (g.current, g.direction) == ("b", -1)


# ------------------------------------------------------------------ decks, hands, dealer


def _all_cards(g: Game) -> int:
    return sum(len(g.hand(p)) for p in g.players) + g.draw_pile_size + g.discard_pile_size


def test_decks_one_is_108_cards() -> None:
    """docs/rules.md s1 deck: 108 cards; 2-10 players."""
    assert _all_cards(new_game([f"p{i}" for i in range(10)], Rules())) == 108
    with pytest.raises(ValueError):
        new_game([f"p{i}" for i in range(11)], Rules())


def test_decks_two_is_216_cards_for_eleven_to_twenty_players() -> None:
    """docs/rules.md s2 decks=2: two decks (216 cards) for 11-20 players."""
    assert len(full_deck(2)) == 216
    g = new_game([f"p{i}" for i in range(11)], Rules(decks=2), seed=5)
    assert _all_cards(g) == 216
    assert len(new_game([f"p{i}" for i in range(20)], Rules(decks=2)).players) == 20
    with pytest.raises(ValueError):
        new_game([f"p{i}" for i in range(21)], Rules(decks=2))


@pytest.mark.parametrize("size", [3, 15])
def test_hand_size_deals_that_many_cards(size: int) -> None:
    """docs/rules.md s2 hand_size: cards dealt to each player."""
    g, ev = new_game_events(["a", "b", "c", "d"], Rules(hand_size=size), seed=1)
    (started,) = of(ev, RoundStarted)
    assert started.hand_size == size
    assert {p: len(h) for p, h in started.hands.items()} == dict.fromkeys("abcd", size)
    assert _all_cards(g) == 108


def test_hand_size_that_does_not_fit_the_deck_refused() -> None:
    """docs/rules.md s2 hand_size: ten hands of 15 do not fit in 108 cards."""
    with pytest.raises(ValueError):
        new_game([f"p{i}" for i in range(10)], Rules(hand_size=15))


def test_dealer_creator_seats_first_player_as_dealer() -> None:
    """docs/rules.md s2 dealer=creator: the table's creator (first seat) deals first."""
    for seed in range(5):
        g, ev = new_game_events(["x", "y", "z"], Rules(dealer="creator"), seed=seed)
        assert g.dealer == "x"
        assert of(ev, RoundStarted)[0].dealer_draws == ()


def test_dealer_draw_high_highest_card_deals() -> None:
    """docs/rules.md s1 dealer: the highest number drawn deals (actions count 0, ties redraw)."""
    players = ["a", "b", "c", "d"]
    for seed in range(10):
        g, ev = new_game_events(players, Rules(), seed=seed)
        draws = list(of(ev, RoundStarted)[0].dealer_draws)
        cands = players
        while True:
            rnd, draws = draws[: len(cands)], draws[len(cands) :]
            assert [p for p, _ in rnd] == cands
            value = {p: (c.number if c.is_number else 0) for p, c in rnd}
            best = max(value.values())
            cands = [p for p in cands if value[p] == best]
            if len(cands) == 1:
                break
        assert draws == []
        assert g.dealer == cands[0]


def test_round_winner_deals_the_next_round() -> None:
    """docs/rules.md s1 dealer: the winner of a round deals the next one."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["R5"], "c": ["B1"]},
        ["R2"],
        current="b",
        rules=Rules(dealer="creator"),
    )
    g, _ = apply(g, "b", Play("R5"))
    g, ev = apply(g, "c", NextRound())
    (started,) = of(ev, RoundStarted)
    assert started.dealer == "b"
    assert g.dealer == "b"
    assert g.round == 2
