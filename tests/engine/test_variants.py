"""Issue 14: the variants the four seed texts state that no flag covered before.

Each flag's default is what the engine did before (the official reading); each test quotes
the seed sentence it implements, and the interactions with stacking, deflect, jump-in,
multi_play and partners are tested where a flag meets them.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine import (
    Accept,
    CallUno,
    Card,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    ChooseColor,
    Code,
    Color,
    ColorChosen,
    DirectionReversed,
    Draw,
    Game,
    GameWon,
    HandsRotated,
    IllegalAction,
    Leave,
    NextRound,
    Pass,
    Passed,
    PenaltyPassed,
    Phase,
    Play,
    PlayerFinished,
    Rank,
    RoundStarted,
    RoundWon,
    Rules,
    Timeout,
    TurnSkipped,
    UnoCalled,
    UnoCaught,
    apply,
    draw_four_legal,
    game_from_json,
    game_to_json,
    legal_actions,
    new_game,
    new_game_events,
    scenario,
    set_rules,
)
from engine.rules import plain

PILE = ["Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "B1", "B2", "B5", "B6", "B7"]


def of(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def hand(g: Game, p: str) -> list[str]:
    return sorted(str(c) for c in g.hand(p))


def plays(g: Game, p: str) -> set[str]:
    """The cards of ``p``'s listed plays (codes, ``+`` joining a group)."""
    return {"+".join(str(c) for c in a.cards) for a in legal_actions(g, p) if isinstance(a, Play)}


def refuse(g: Game, player: str, action: object) -> Code:
    """Apply must refuse ``action`` and leave the game as it was; the refusal's code."""
    before = game_to_json(g)
    with pytest.raises(IllegalAction) as exc:
        apply(g, player, action)  # type: ignore[arg-type]
    assert game_to_json(g) == before
    return exc.value.code


def round_trip(g: Game) -> Game:
    """Through the JSON the store keeps: the game goes on identically from there."""
    back = game_from_json(game_to_json(g))
    assert back == g
    return back


# ---------------------------------------------------------------------- 1. draw_four_when

NO_PLAY = Rules(draw_four_when="no_play")


def test_draw_four_when_official_a_matching_number_does_not_make_it_a_bluff() -> None:
    """docs/rules.md (official, the default): a W4 is legal holding no card of the colour in play;
    "matching numbers/symbols in other colours ... do not count"."""
    g = scenario({"a": ["W4", "G5"], "b": ["B1", "B2"]}, ["R5"], draw_pile=PILE)
    assert draw_four_legal(g, "a")
    g, _ = apply(g, "a", Play("W4", Color.BLUE))
    g, ev = apply(g, "b", Challenge())
    (res,) = of(ev, ChallengeResolved)
    assert (res.guilty, res.loser, res.penalty) == (False, "b", 6)


def test_draw_four_when_no_play_a_matching_number_makes_it_a_bluff() -> None:
    """Seed 003: "Wild Draw 4只能在无牌可出的情况下发出 ... 若验出是出牌者真的无其他符合颜色和
    数字的牌（黑色牌不算）可出，则提出验牌的下家需罚抽牌6张": the challenge checks colour
    and number. So a G5 on a R5 makes the W4 a bluff."""
    g = scenario({"a": ["W4", "G5"], "b": ["B1", "B2"]}, ["R5"], draw_pile=PILE, rules=NO_PLAY)
    assert not draw_four_legal(g, "a")
    assert "W4" in plays(g, "a")  # still playable: a bluff, as the official rule allows
    g, _ = apply(g, "a", Play("W4", Color.BLUE))
    g, ev = apply(g, "b", Challenge())
    (res,) = of(ev, ChallengeResolved)
    assert (res.guilty, res.loser, res.penalty) == (True, "a", 4)
    assert g.current == "b"  # guilty_challenger=plays


def test_draw_four_when_no_play_wilds_do_not_count() -> None:
    """Seed 003: "（黑色牌不算）" — black cards do not count: a W4 held with a W and
    nothing playable is legal; the challenger draws 6."""
    g = scenario(
        {"a": ["W4", "W", "G6"], "b": ["B1", "B2"]}, ["R5"], draw_pile=PILE, rules=NO_PLAY
    )
    assert draw_four_legal(g, "a")
    g, _ = apply(g, "a", Play("W4", Color.BLUE))
    g, ev = apply(g, "b", Challenge())
    assert of(ev, ChallengeResolved)[0].guilty is False
    assert len(g.hand("b")) == 8


def test_draw_four_when_no_play_with_no_bluff_is_refused_while_something_fits() -> None:
    """Seed 000 (Optional): "+4 牌必須是手上其他牌都沒法出時再出"; with no_bluff an illegal
    W4 is refused, with its own reason."""
    r = Rules(draw_four_when="no_play", wild_draw_four="no_bluff")
    g = scenario({"a": ["W4", "G5"], "b": ["B1", "B2"]}, ["R5"], rules=r)
    assert plays(g, "a") == {"G5"}
    assert refuse(g, "a", Play("W4", Color.BLUE)) is Code.WILD_DRAW_FOUR_PLAYABLE
    # the official reading, under no_bluff, keeps its own reason
    g = scenario({"a": ["W4", "R7"], "b": ["B1"]}, ["R5"], rules=Rules(wild_draw_four="no_bluff"))
    assert refuse(g, "a", Play("W4", Color.BLUE)) is Code.WILD_DRAW_FOUR_ILLEGAL


def test_draw_four_when_no_play_stacked_on_a_plus_two_counts_a_plus_two_held() -> None:
    """Stacking: a W4 stacked on a +2 is judged like any W4; under no_play a +2 held (it
    matches the top +2's symbol) makes it a bluff (here refused under no_bluff)."""
    r = Rules(stacking="draw_four_on_two", draw_four_when="no_play", wild_draw_four="no_bluff")
    g = scenario(
        {"a": ["RD2", "B1"], "b": ["W4", "GD2", "Y3"], "c": ["B5", "B6"]}, ["R5"], rules=r
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert plays(g, "b") == {"GD2"}
    assert refuse(g, "b", Play("W4", Color.BLUE)) is Code.WILD_DRAW_FOUR_PLAYABLE


def test_draw_four_when_no_play_force_play_does_not_force_a_bluff() -> None:
    """force_play: a drawn W4 that would be a bluff is not forced; under no_play a matching
    number held makes it one."""
    r = Rules(force_play=True, draw_four_when="no_play")
    g = scenario({"a": ["G5", "B2"], "b": ["Y3", "Y4"]}, ["R5"], draw_pile=["W4"], rules=r)
    g, _ = apply(g, "a", Draw())
    assert Pass() in legal_actions(g, "a")
    g = scenario({"a": ["G6", "B2"], "b": ["Y3", "Y4"]}, ["R5"], draw_pile=["W4"], rules=r)
    g, _ = apply(g, "a", Draw())
    assert Pass() not in legal_actions(g, "a")


# ------------------------------------------------------------------------------ 2. deflect

DEFLECT_ALL = Rules(stacking="draw_four_on_two", deflect="all")


def test_deflect_all_a_reverse_of_the_named_colour_sends_a_plus_four_back() -> None:
    """Seed 001: "+4 ... 下家将罚摸4张，并且不能出牌（除非有“+”牌或同色反转牌）" — a Reverse of
    the colour the +4 named sends it back to the player who played it."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["BR", "Y4"], "c": ["G4", "G5"]},
        ["R5"],
        draw_pile=PILE,
        rules=DEFLECT_ALL,
    )
    g, _ = apply(g, "a", Play("W4", Color.BLUE))
    assert g.phase is Phase.CHALLENGE
    listed = legal_actions(g, "b")
    assert {Challenge(), Accept(), Play("BR")} <= set(listed)
    g, ev = apply(g, "b", Play("BR"))
    assert DirectionReversed(-1) in ev
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "a", 4, "reverse")]
    assert (g.current, g.pending_draw, g.phase) == ("a", 4, Phase.PLAYING)
    assert Challenge() not in legal_actions(g, "a")  # only the +4's own victim challenges
    g, ev = apply(g, "a", Accept())
    assert of(ev, CardsDrawn)[0].count == 4


def test_deflect_all_a_skip_does_not_pass_a_plus_four_on() -> None:
    """Issue 19 item 1: seed 001 names what may answer a +4, "除非有“+”牌或同色反转牌" (a +
    card, or a Reverse of the named colour); seeds 000 and 003 allow only a +4. A Skip of
    the named colour is neither listed nor accepted; a Reverse of it is."""
    r = Rules(stacking="draw_four_on_two", deflect="all", wild_draw_four="free")
    g = scenario({"a": ["W4", "G1"], "b": ["BS", "Y4"], "c": ["G4", "G5"]}, ["R5"], rules=r)
    g, _ = apply(g, "a", Play("W4", Color.BLUE))
    assert (g.current, g.pending_draw) == ("b", 4)
    assert Play("BS") not in legal_actions(g, "b")
    assert refuse(g, "b", Play("BS")) is Code.CANNOT_STACK
    g2 = scenario({"a": ["W4", "G1"], "b": ["BR", "Y4"], "c": ["G4", "G5"]}, ["R5"], rules=r)
    g2, _ = apply(g2, "a", Play("W4", Color.BLUE))
    assert Play("BR") in legal_actions(g2, "b")
    g2, ev = apply(g2, "b", Play("BR"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "a", 4, "reverse")]


def test_deflect_all_a_skip_does_not_answer_a_challengeable_plus_four() -> None:
    """Under the official challenge the same: during the +4's challenge a Skip of the named
    colour is refused as any other card is (the challenge is open)."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["BS", "Y4"], "c": ["G4", "G5"]}, ["R5"], rules=DEFLECT_ALL
    )
    g, _ = apply(g, "a", Play("W4", Color.BLUE))
    assert g.phase is Phase.CHALLENGE
    assert Play("BS") not in legal_actions(g, "b")
    assert refuse(g, "b", Play("BS")) is Code.CHALLENGE_OPEN


def test_deflect_all_a_skip_still_passes_a_plus_two_on() -> None:
    """The Skip deflect stays a +2 thing under deflect=all."""
    g = scenario(
        {"a": ["BD2", "G1"], "b": ["BS", "Y4"], "c": ["G4", "G5"]}, ["B5"], rules=DEFLECT_ALL
    )
    g, _ = apply(g, "a", Play("BD2"))
    g, ev = apply(g, "b", Play("BS"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("b", "c", 2, "skip")]
    assert (g.current, g.pending_draw) == ("c", 2)


def test_deflect_draw_two_does_not_act_on_a_plus_four() -> None:
    """deflect=draw_two (what true meant): only a +2 is deflected."""
    r = Rules(stacking="draw_four_on_two", deflect="draw_two")
    g = scenario({"a": ["W4", "G1"], "b": ["BR", "Y4"], "c": ["G4"]}, ["R5"], rules=r)
    g, _ = apply(g, "a", Play("W4", Color.BLUE))
    assert Play("BR") not in legal_actions(g, "b")
    assert refuse(g, "b", Play("BR")) is Code.CHALLENGE_OPEN


def test_deflect_all_reverse_after_a_plus_four_on_a_plus_two_goes_to_the_plus_four() -> None:
    """Stacking + deflect=all: the Reverse sends the penalty back to whoever played the last
    penalty card, here the +4 stacked on the +2."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W4", "Y4"], "c": ["GR", "G5"], "d": ["B1", "B2"]},
        ["R5"],
        rules=DEFLECT_ALL,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, _ = apply(g, "b", Play("W4", Color.GREEN))
    g, ev = apply(g, "c", Play("GR"))
    assert of(ev, PenaltyPassed) == [PenaltyPassed("c", "b", 6, "reverse")]


def test_deflect_all_is_one_card_and_not_a_jump_in() -> None:
    """multi_play and jump_in: a deflect is one card, and nobody jumps in on it."""
    r = Rules(stacking="draw_four_on_two", deflect="all", multi_play="identical", jump_in=True)
    g = scenario({"a": ["W4", "G1"], "b": ["BR", "BR", "Y4"], "c": ["BR", "G5"]}, ["R5"], rules=r)
    g, _ = apply(g, "a", Play("W4", Color.BLUE))
    assert Play("BR") in legal_actions(g, "b")
    assert Play("BR", together=("BR",)) not in legal_actions(g, "b")
    g, _ = apply(g, "b", Play("BR"))
    assert not [a for a in legal_actions(g, "c") if isinstance(a, Play)]


def test_deflect_yes_no_of_stored_rules_still_reads() -> None:
    """Rules stored before issue 14 said deflect true/false: they mean draw_two/off."""
    assert Rules(deflect=True).deflect == "draw_two"
    assert Rules(deflect=False).deflect == "off"
    assert Rules.model_validate({"deflect": True}) == Rules(deflect="draw_two")
    assert Rules.preset("official", deflect="true").deflect == "draw_two"
    assert Rules.preset("official", deflect="false").deflect == "off"
    assert Rules.preset("house").deflect == "draw_two"
    with pytest.raises(ValueError):
        Rules(deflect="sometimes")


def test_a_game_stored_before_issue_14_loads_and_plays_the_same() -> None:
    """A game's JSON from before (deflect and partners as true/false, none of the new
    keys) loads, reads its flags as they were meant, and plays on."""
    g = new_game(["a", "b", "c", "d"], Rules.preset("house", partners=True), seed=4)
    d = json.loads(game_to_json(g))
    for flag in (
        "draw_four_when",
        "after_penalty",
        "drawn_card",
        "uno_call",
        "color_timeout",
        "places",
        "start_reverse",
    ):
        del d["rules"][flag]
    d["rules"]["deflect"] = True
    d["rules"]["partners"] = True
    old = game_from_json(json.dumps(d))
    assert old.rules == Rules.preset("house", partners=True)
    assert old == g
    p = g.current
    assert p is not None
    for a in legal_actions(g, p):
        assert apply(old, p, a)[0] == apply(g, p, a)[0]


# -------------------------------------------------------------------------- 3. after_penalty

FOLLOW = Rules(after_penalty="same_color")


def test_after_penalty_same_color_the_next_player_follows_the_plus_two() -> None:
    """Seed 000: "+2 的力量在有玩家罰摸後消失， 罰摸者的下家繼續出同最後一個 +2 顏色相同的牌。
    不能出其他顏色的 +2 或 Skip/Reverse" and "Wild ：可以再 +2,+4 以外任何牌後出" — after the
    +2 is drawn, the next player plays its colour: no +2 of another colour, no Wild; a +4
    still may ("+4：可以在任何時候出")."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["B3", "B4"], "c": ["GD2", "W", "W4", "R7", "B9"]},
        ["R5"],
        draw_pile=PILE,
        rules=FOLLOW,
    )
    g, ev = apply(g, "a", Play("RD2"))
    assert TurnSkipped("b") in ev and g.current == "c"
    assert plays(g, "c") == {"R7", "W4"}
    assert refuse(g, "c", Play("GD2")) is Code.FOLLOW_COLOR
    assert refuse(g, "c", Play("W", Color.RED)) is Code.FOLLOW_COLOR
    assert refuse(g, "c", Play("B9")) is Code.DOES_NOT_MATCH
    g = round_trip(g)
    g, _ = apply(g, "c", Play("R7"))
    assert not g.follow  # only the next play: the one after it matches as usual


def test_after_penalty_any_is_the_official_reading() -> None:
    """The default: after a +2 is drawn the next player matches it as usual (a +2 of
    another colour by its symbol, a Wild)."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["B3", "B4"], "c": ["GD2", "W", "R7", "B9"]},
        ["R5"],
        rules=Rules(),
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert plays(g, "c") == {"GD2", "W", "R7"}


def test_after_penalty_same_color_after_a_stack_is_accepted() -> None:
    """Stacking + deflect: the +2 "过程中可能有人出Skip/Reverse"; once the total is drawn,
    the next player follows the colour, and a Skip matched by symbol is refused."""
    r = Rules(stacking="draw_two", deflect="draw_two", after_penalty="same_color")
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["RS", "B4"], "c": ["Y3", "Y4"], "d": ["GS", "R8", "B1"]},
        ["R5"],
        draw_pile=PILE,
        rules=r,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, _ = apply(g, "b", Play("RS"))  # deflected to c
    g, _ = apply(g, "c", Accept())
    assert g.current == "d"
    assert plays(g, "d") == {"R8"}
    assert refuse(g, "d", Play("GS")) is Code.FOLLOW_COLOR


def test_after_penalty_same_color_a_drawn_card_must_follow_too() -> None:
    """A card drawn by the player who must follow is playable only in that colour."""
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["B3", "B4"], "c": ["B9", "B8"]},
        ["R5"],
        draw_pile=["Y1", "Y2", "GD2", "R3"],
        rules=FOLLOW,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, ev = apply(g, "c", Draw())
    assert of(ev, CardsDrawn)[0].cards == (Card.parse("GD2"),)
    assert Passed("c") in ev and g.current == "a"


def test_after_penalty_same_color_jump_in_is_the_identical_card_or_nothing() -> None:
    """jump_in: the identical +2 is of the colour to follow; a Wild passed on a penalty
    (wild_on_penalty) is not followed by a jumped-in Wild."""
    r = Rules(stacking="draw_two", wild_on_penalty=True, jump_in=True, after_penalty="same_color")
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["W", "W", "B4"], "c": ["Y3", "Y4"], "d": ["W", "B1"]},
        ["R5"],
        draw_pile=PILE,
        rules=r,
    )
    g, _ = apply(g, "a", Play("RD2"))
    g, _ = apply(g, "b", Play("W", Color.BLUE))  # passes the +2 on, names blue
    g, _ = apply(g, "c", Accept())
    assert g.current == "d"
    assert plays(g, "d") == {"B1"}
    assert not plays(g, "b")  # b's own W would be a jump-in on the W: not now
    assert refuse(g, "b", Play("W", Color.RED)) is Code.FOLLOW_COLOR


def test_after_penalty_same_color_same_rank_plays_stay_in_the_colour() -> None:
    """multi_play=same_rank: every card played must be of the colour to follow."""
    r = Rules(multi_play="same_rank", after_penalty="same_color")
    g = scenario(
        {"a": ["RD2", "G1"], "b": ["B3", "B4"], "c": ["R7", "G7", "R7", "B9"]},
        ["R5"],
        rules=r,
    )
    g, _ = apply(g, "a", Play("RD2"))
    assert plays(g, "c") == {"R7", "R7+R7"}
    assert refuse(g, "c", Play("R7", together=("G7",))) is Code.FOLLOW_COLOR


# ---------------------------------------------------------------------------- 4. drawn_card

DRAWN_NUMBER = Rules(drawn_card="number_only")


def test_drawn_card_number_only_an_action_card_drawn_is_kept() -> None:
    """Seed 000: "如果摸進的牌可以出牌且不是功能牌，則可以在下家出牌前搶先出牌" — a drawn card
    is played at once only if it is not an action card (its list of 功能牌 holds the wilds)."""
    for drawn in ("RS", "RD2", "W", "W4"):
        g = scenario(
            {"a": ["G1", "B2"], "b": ["Y3"]}, ["R5"], draw_pile=[drawn], rules=DRAWN_NUMBER
        )
        g, ev = apply(g, "a", Draw())
        assert Passed("a") in ev, drawn
        assert g.current == "b" and drawn in hand(g, "a")


def test_drawn_card_number_only_a_number_drawn_may_be_played() -> None:
    g = scenario({"a": ["G1", "B2"], "b": ["Y3"]}, ["R5"], draw_pile=["R8"], rules=DRAWN_NUMBER)
    g, _ = apply(g, "a", Draw())
    assert set(legal_actions(g, "a")) >= {Play("R8"), Pass()}


def test_drawn_card_number_only_until_playable_draws_past_action_cards() -> None:
    """draw=until_playable: drawing goes on until a card that may be played now comes."""
    r = Rules(draw="until_playable", drawn_card="number_only")
    g = scenario({"a": ["G1", "B2"], "b": ["Y3"]}, ["R5"], draw_pile=["RS", "W", "R9"], rules=r)
    g, ev = apply(g, "a", Draw())
    assert of(ev, CardsDrawn)[0].count == 3
    assert g.drawn_card == Card.parse("R9")


def test_drawn_card_number_only_force_play_forces_only_a_number() -> None:
    r = Rules(force_play=True, drawn_card="number_only")
    g = scenario({"a": ["G1", "B2"], "b": ["Y3"]}, ["R5"], draw_pile=["RS"], rules=r)
    g, ev = apply(g, "a", Draw())
    assert Passed("a") in ev
    g = scenario({"a": ["G1", "B2"], "b": ["Y3"]}, ["R5"], draw_pile=["R3"], rules=r)
    g, _ = apply(g, "a", Draw())
    assert Pass() not in legal_actions(g, "a")


# ------------------------------------------------------------------------------ 5. uno_call

WITH_PLAY = Rules(uno_call="with_play")


def test_uno_call_with_play_a_call_after_the_play_does_not_protect() -> None:
    """Seed 001: "必须在倒数第2张牌落地的时候喊出。否则都视为忘记喊uno而被罚牌" — the call comes
    as the card lands; one made after it counts as forgotten."""
    g = scenario(
        {"a": ["R1", "R2"], "b": ["B3", "B4"], "c": ["G1", "G2"]}, ["R5"], rules=WITH_PLAY
    )
    g, _ = apply(g, "a", Play("R1"))
    assert g.exposed_players == ["a"]
    assert CallUno() not in legal_actions(g, "a")
    assert refuse(g, "a", CallUno()) is Code.UNO_TOO_LATE
    g = round_trip(g)
    g, ev = apply(g, "c", CatchUno("a"))
    assert UnoCaught("c", "a", 2) in ev
    # after the catch window closes too, a late call is still no call
    g = scenario({"a": ["R1", "R2"], "b": ["B3", "B4"]}, ["R5"], rules=WITH_PLAY)
    g, _ = apply(g, "a", Play("R1"))
    g, _ = apply(g, "a", Timeout(window="uno"))
    assert CallUno() not in legal_actions(g, "a")


def test_uno_call_with_play_the_call_with_the_card_protects() -> None:
    g = scenario({"a": ["R1", "R2"], "b": ["B3", "B4"], "c": ["G1"]}, ["R5"], rules=WITH_PLAY)
    g, ev = apply(g, "a", Play("R1", uno=True))
    assert UnoCalled("a") in ev and g.exposed_players == []
    assert refuse(g, "c", CatchUno("a")) is Code.NOT_CATCHABLE


def test_uno_call_after_play_official_a_late_call_protects() -> None:
    """The default (docs/rules.md: "Calling before being caught (also after the play)")."""
    g = scenario({"a": ["R1", "R2"], "b": ["B3", "B4"]}, ["R5"])
    g, _ = apply(g, "a", Play("R1"))
    g, ev = apply(g, "a", CallUno())
    assert UnoCalled("a") in ev


def test_uno_call_with_play_a_swap_target_may_still_call() -> None:
    """swap: the target of a 7 did not play; left with one card, they may call after."""
    r = Rules(swap="seven_zero", uno_call="with_play")
    g = scenario({"a": ["R7", "G1"], "b": ["B3", "B4", "B5"], "c": ["Y1", "Y2"]}, ["R5"], rules=r)
    g, _ = apply(g, "a", Play("R7", target="b"))
    assert hand(g, "b") == ["G1"]
    assert CallUno() in legal_actions(g, "b")


def test_uno_call_with_play_a_pair_and_play_and_draw_call_with_the_play() -> None:
    """multi_play and last_card=play_and_draw: the play that leaves one card carries the
    call; play_and_draw's last action card leaves one card after its draw."""
    r = Rules(multi_play="identical", uno_call="with_play")
    g = scenario({"a": ["R1", "R1", "G2"], "b": ["B3", "B4"]}, ["R5"], rules=r)
    g, ev = apply(g, "a", Play("R1", together=("R1",), uno=True))
    assert UnoCalled("a") in ev
    r = Rules(last_card="play_and_draw", uno_call="with_play")
    g = scenario({"a": ["RS"], "b": ["B3", "B4"], "c": ["B1"]}, ["R5"], draw_pile=["Y9"], rules=r)
    g, ev = apply(g, "a", Play("RS", uno=True))
    assert UnoCalled("a") in ev and hand(g, "a") == ["Y9"]
    g = scenario({"a": ["RS"], "b": ["B3", "B4"], "c": ["B1"]}, ["R5"], draw_pile=["Y9"], rules=r)
    g, _ = apply(g, "a", Play("RS"))
    assert CallUno() not in legal_actions(g, "a") and g.exposed_players == ["a"]


# ----------------------------------------------------------------------------- 6. last_card

NO_SRW = Rules(last_card="no_skip_reverse_wild")


@pytest.mark.parametrize(
    ("card", "play"),
    [
        ("RS", Play("RS")),
        ("RR", Play("RR")),
        ("W", Play("W", Color.RED)),
        ("W4", Play("W4", Color.RED)),
    ],
)
def test_last_card_no_skip_reverse_wild_refuses_those(card: str, play: Play) -> None:
    """Seed 004: "註：「Reverse--翻轉」「Skip--跳過」「Wild和Wild Draw 4--萬能牌」不能當最後一張牌
    使用"."""
    g = scenario({"a": [card], "b": ["B3", "B4"]}, ["R5"], rules=NO_SRW)
    assert not plays(g, "a")
    assert Draw() in legal_actions(g, "a")
    assert refuse(g, "a", play) is Code.NOT_AS_LAST_CARD


def test_last_card_no_skip_reverse_wild_allows_a_plus_two() -> None:
    """Seed 004 names no +2: going out on one is allowed, and the next player draws it."""
    g = scenario({"a": ["RD2"], "b": ["B3", "B4"]}, ["R5"], draw_pile=PILE, rules=NO_SRW)
    g, ev = apply(g, "a", Play("RD2"))
    assert of(ev, CardsDrawn) == [
        CardsDrawn("b", 2, tuple(Card.parse(c) for c in PILE[:2]), "penalty")
    ]
    assert of(ev, RoundWon)[0].player == "a"


def test_last_card_no_skip_reverse_wild_with_stacking_and_multi_play() -> None:
    """Stacking: a +2 may be the last card stacked on a penalty; a Wild passing it may not.
    multi_play: two Skips are no way out either."""
    r = Rules(last_card="no_skip_reverse_wild", stacking="draw_two", wild_on_penalty=True)
    g = scenario({"a": ["RD2", "G1"], "b": ["YD2"], "c": ["B1", "B2"]}, ["R5"], rules=r)
    g, _ = apply(g, "a", Play("RD2"))
    assert "YD2" in plays(g, "b")
    g = scenario({"a": ["RD2", "G1"], "b": ["W"], "c": ["B1", "B2"]}, ["R5"], rules=r)
    g, _ = apply(g, "a", Play("RD2"))
    assert not plays(g, "b")
    r = Rules(last_card="no_skip_reverse_wild", multi_play="identical")
    g = scenario({"a": ["RS", "RS"], "b": ["B3"]}, ["R5"], rules=r)
    assert plays(g, "a") == {"RS"}
    assert refuse(g, "a", Play("RS", together=("RS",))) is Code.NOT_AS_LAST_CARD


# ------------------------------------------------------------------------- 7. color_timeout

KEEP = Rules(color_timeout="keep")


def test_color_timeout_keep_a_wild_not_named_keeps_the_colour() -> None:
    """Seed 001: "所有出此牌的玩家在出完此牌后必须说出变换颜色，如果忘记说颜色，
    则以之前颜色为准"."""
    g = scenario(
        {"a": ["W4", "G1"], "b": ["B3", "B4"], "c": ["G2"]}, ["R5"], draw_pile=PILE, rules=KEEP
    )
    g, _ = apply(g, "a", Play("W4"))
    assert g.phase is Phase.CHOOSING_COLOR
    g = round_trip(g)
    g, ev = apply(g, "a", Timeout())
    assert ColorChosen("a", Color.RED, kept=True) in ev
    assert (g.color, g.current, g.phase) == (Color.RED, "b", Phase.CHALLENGE)


def test_color_timeout_random_is_the_official_reading() -> None:
    g = scenario({"a": ["W", "G1"], "b": ["B3", "B4"]}, ["R5"])
    g, _ = apply(g, "a", Play("W"))
    g, ev = apply(g, "a", Timeout())
    (chosen,) = of(ev, ColorChosen)
    assert chosen.random and not chosen.kept


def test_color_timeout_keep_on_leaving_and_on_a_jump_in() -> None:
    """A player who leaves while naming keeps the colour too; a wild jumped in on a wild keeps
    the colour the first one named (jump_in)."""
    g = scenario({"a": ["W", "G1"], "b": ["B3", "B4"], "c": ["G2"]}, ["R5"], rules=KEEP)
    g, _ = apply(g, "a", Play("W"))
    g, ev = apply(g, "a", Leave())
    assert ColorChosen("a", Color.RED, kept=True) in ev and g.color is Color.RED
    r = Rules(color_timeout="keep", jump_in=True)
    g = scenario({"a": ["W", "G1"], "b": ["B3", "B4"], "c": ["W", "G2"]}, ["R5"], rules=r)
    g, _ = apply(g, "a", Play("W", Color.BLUE))
    g, _ = apply(g, "c", Play("W"))
    g, ev = apply(g, "c", Timeout())
    assert ColorChosen("c", Color.BLUE, kept=True) in ev


def test_color_timeout_keep_a_wild_start_card_has_nothing_to_keep() -> None:
    """No colour was in play before a wild start card: the colour is random then."""
    for seed in range(2000):
        g, ev = new_game_events(["a", "b", "c"], KEEP, seed)
        if g.phase is Phase.CHOOSING_COLOR:
            break
    p = g.current
    assert p is not None
    g, ev = apply(g, p, Timeout())
    (chosen,) = of(ev, ColorChosen)
    assert chosen.random and not chosen.kept


# -------------------------------------------------------------------------------- 8. places

PLACES = Rules(places=True, target=0)


def test_places_the_others_play_on_until_one_is_left() -> None:
    """Seed 004: "如其中有一人勝出，其餘人可繼續遊戲" — after the first goes out, the others
    play on; the round ends when one player is left holding cards, and records the places.
    The round's points are counted when the first player goes out, as without places (the
    seed calls scoring "記分制較繁瑣，不推薦" and scores only that moment)."""
    g = scenario(
        {"a": ["R1"], "b": ["R2", "R3"], "c": ["R4", "B9", "B8"]},
        ["R5"],
        draw_pile=PILE,
        rules=PLACES,
    )
    g, ev = apply(g, "a", Play("R1"))
    assert of(ev, PlayerFinished) == [PlayerFinished("a", 1)]
    assert not of(ev, RoundWon)
    assert (g.phase, g.current, g.places) == (Phase.PLAYING, "b", ["a"])
    assert g.scores == {"a": 0, "b": 0, "c": 0}
    g = round_trip(g)
    g, _ = apply(g, "b", Play("R2"))
    assert g.current == "c"  # a, who went out, has no turn
    g, _ = apply(g, "c", Play("R4"))
    assert g.current == "b"
    g, ev = apply(g, "b", Play("R3"))
    assert of(ev, PlayerFinished) == [PlayerFinished("b", 2)]
    (won,) = of(ev, RoundWon)
    assert won.places == ("a", "b", "c")
    # the points as they stood when a went out: b held R2 R3, c held R4 B9 B8
    assert (won.player, won.points) == ("a", 26)
    assert won.hand_points == {"a": 0, "b": 5, "c": 21}
    assert g.scores == {"a": 26, "b": 0, "c": 0}
    assert (g.phase, g.winner) == (Phase.GAME_OVER, "a")


def test_places_off_the_first_out_ends_the_round() -> None:
    g = scenario({"a": ["R1"], "b": ["R2", "G3"], "c": ["R4"]}, ["R5"], rules=Rules(target=0))
    g, ev = apply(g, "a", Play("R1"))
    assert of(ev, RoundWon)[0].places == ()
    assert not of(ev, PlayerFinished)


def test_places_a_last_plus_two_is_drawn_at_once_and_the_victim_skipped() -> None:
    """Stacking: a +2 as the last card is never stacked on (docs/rules.md); with places the next
    player draws it, loses the turn, and play goes on."""
    r = Rules(places=True, stacking="draw_two", target=0)
    g = scenario(
        {"a": ["RD2"], "b": ["YD2", "G3"], "c": ["R4", "B9"], "d": ["B1", "B2"]},
        ["R5"],
        draw_pile=PILE,
        rules=r,
    )
    g, ev = apply(g, "a", Play("RD2"))
    assert CardsDrawn("b", 2, (Card.parse("Y1"), Card.parse("Y2")), "penalty") in ev
    assert TurnSkipped("b") in ev
    assert (g.current, g.pending_draw) == ("c", 0)


def test_places_skips_and_swaps_among_those_still_playing() -> None:
    """A Skip skips the next player still in the round; a 7 swaps only with one of them; a 0
    passes the hands among them."""
    r = Rules(places=True, swap="seven_zero", target=0)
    g = scenario(
        {"a": ["R1"], "b": ["RS", "G3"], "c": ["R4", "B9"], "d": ["R7", "R0", "B2"]},
        ["R5"],
        rules=r,
    )
    g, _ = apply(g, "a", Play("R1"))
    g, ev = apply(g, "b", Play("RS"))
    assert TurnSkipped("c") in ev and g.current == "d"
    assert {a.target for a in legal_actions(g, "d") if isinstance(a, Play) and a.target} == {
        "b",
        "c",
    }
    g, ev = apply(g, "d", Play("R0"))
    assert HandsRotated("d", 1) in ev
    assert (hand(g, "a"), hand(g, "b"), hand(g, "c"), hand(g, "d")) == (
        [],
        ["B2", "R7"],
        ["G3"],
        ["B9", "R4"],
    )


def test_places_a_last_wild_is_named_then_the_place_taken() -> None:
    """A wild played last without a colour: its player names it, then takes the place."""
    g = scenario({"a": ["W"], "b": ["B3", "B4"], "c": ["G2", "G3"]}, ["R5"], rules=PLACES)
    g, ev = apply(g, "a", Play("W"))
    assert (g.phase, g.current) == (Phase.CHOOSING_COLOR, "a")
    g, ev = apply(g, "a", ChooseColor(Color.GREEN))
    assert PlayerFinished("a", 1) in ev and g.current == "b"


def test_places_no_false_alarm_for_who_went_out_and_leaving_ends_the_round() -> None:
    """false_uno_penalty: a player out of the round calls and catches nobody falsely (it
    would deal them back in). A leave that leaves one player holding cards ends the round."""
    r = Rules(places=True, false_uno_penalty=2, target=0)
    g = scenario({"a": ["R1"], "b": ["R2", "G3"], "c": ["R4", "B9"]}, ["R5"], rules=r)
    g, _ = apply(g, "a", Play("R1"))
    assert legal_actions(g, "a") == [Leave()]
    g, ev = apply(g, "c", Leave())
    (won,) = of(ev, RoundWon)
    assert (won.places, won.reason) == (("a", "b"), "last_player")


def test_places_a_blocked_round_places_the_rest_by_their_hands() -> None:
    """Both piles empty: the round ends; those still holding cards are placed lowest hand
    first."""
    g = scenario(
        {"a": ["R1"], "b": ["G9", "G8"], "c": ["B1"], "d": ["Y7"]},
        ["R5"],
        current="b",
        rules=PLACES,
        fill=False,
    )
    d = g.to_dict()  # a went out on an earlier turn (their R1 is under the top card)
    d["hands"][0] = ""
    d["out"] = ["a"]
    d["out_points"] = {"a": 0, "b": 17, "c": 1, "d": 7}
    g = Game.from_dict(d)
    for p in ("b", "c", "d"):
        g, ev = apply(g, p, Draw())
    (won,) = of(ev, RoundWon)
    assert (won.reason, won.places) == ("blocked", ("a", "c", "d", "b"))


def test_places_cannot_be_combined_with_partners() -> None:
    with pytest.raises(ValueError, match="partners"):
        Rules(places=True, partners=True)
    with pytest.raises(ValueError, match="partners"):
        Rules.preset("house", places=True, partners="rotate")


# ----------------------------------------------------------------------- 9. partners=rotate

ROTATE = Rules(partners="rotate", dealer="creator", target=100_000)


def _next_round(g: Game) -> tuple[Game, list[Any]]:
    """End the round in play (nobody scores) and deal the next one."""
    d = g.to_dict()
    d["phase"] = "round_over"
    g = Game.from_dict(d)
    return apply(g, g.players[0], NextRound())


def _pairs(g: Game) -> set[frozenset[str]]:
    n = len(g.players)
    return {frozenset((g.players[i], g.players[i + n // 2])) for i in range(n // 2)}


def test_partners_rotate_every_four_rounds_each_partners_each_once() -> None:
    """Seed 003: "如果有四个玩家参与此游戏，玩牌时其他三人可以轮流坐在您的对家，每换一次对家
    就玩四局，这样玩一个轮回下来***可玩 12 局" — the partners change every four rounds, sitting
    opposite; a cycle of 12 rounds pairs everyone with everyone once."""
    g = new_game(["a", "b", "c", "d"], ROTATE)
    seen: list[set[frozenset[str]]] = []
    for rnd in range(1, 14):
        assert g.round == rnd
        for p in g.players:  # partners sit opposite and share a team
            mate = g.partner_of(p)
            assert mate is not None and g.team_of(p) == g.team_of(mate)
        assert _pairs(g) == {frozenset((p, g.partner_of(p))) for p in g.players}
        seen.append(_pairs(g))
        g, _ = _next_round(g)
    assert seen[0] == {frozenset("ac"), frozenset("bd")}  # the first seating, as for fixed
    periods = [seen[i] for i in (0, 4, 8)]
    assert all(seen[i] == seen[i // 4 * 4] for i in range(12))
    assert len({frozenset(p) for period in periods for p in period}) == 6  # every pair once
    assert seen[12] == seen[0]  # and round 13 starts the next cycle


def test_partners_rotate_six_players_everyone_partners_everyone() -> None:
    g = new_game(["a", "b", "c", "d", "e", "f"], ROTATE)
    pairs: set[frozenset[str]] = set()
    for _ in range(5):
        pairs |= _pairs(g)
        for _ in range(4):
            g, _ = _next_round(g)
    assert len(pairs) == 15


def test_partners_rotate_scores_are_each_players_own() -> None:
    """Seed 003: "要把每局的分数记录下来 ... 便可依累计分数产生冠军" — each player's total
    is what their teams scored while they were in them; the highest total wins."""
    g = scenario(
        {"a": ["G1", "G2"], "b": ["G5"], "c": ["R5"], "d": ["B9"]},
        ["R2"],
        current="c",
        rules=Rules(partners="rotate", target=10),
    )
    d = g.to_dict()
    d["scores"] = {"a": 0, "b": 30, "c": 0, "d": 0}  # b scored more in an earlier pairing
    g = Game.from_dict(d)
    g, ev = apply(g, "c", Play("R5"))
    assert of(ev, RoundWon)[0].points == 14
    assert g.scores == {"a": 14, "b": 30, "c": 14, "d": 0}
    assert of(ev, GameWon)[0].player == "b"  # the highest total, not the round's winner


def test_partners_rotate_needs_four_or_six_and_stops_when_someone_left() -> None:
    with pytest.raises(ValueError, match="partners"):
        new_game(["a", "b", "c", "d", "e"], ROTATE)
    g = new_game(["a", "b", "c", "d"], ROTATE)
    for _ in range(3):
        g, _ = _next_round(g)
    g, _ = apply(g, "d", Leave())
    before = list(g.players)
    g, _ = _next_round(g)  # round 5 would reseat: with d gone, the teams stay
    assert g.players == before


# ------------------------------------------------------------ 10. start_reverse and dealer


def _deal_with(rules: Rules, rank: Rank, players: list[str]) -> tuple[Game, list[Any]]:
    for seed in range(3000):
        g, ev = new_game_events(players, rules, seed)
        if of(ev, RoundStarted)[0].top.rank is rank:
            return g, ev
    raise AssertionError("no seed gives this start card")


def test_start_reverse_right_of_dealer() -> None:
    """Seeds 003, 004: "庄家左边玩家（若是"reverse"则为右边）根据此牌出牌" — after a Reverse
    start card the player to the dealer's right plays first (docs/rules.md: the dealer)."""
    four = ["a", "b", "c", "d"]
    g, ev = _deal_with(Rules(start_reverse="right_of_dealer"), Rank.REVERSE, four)
    right = four[(four.index(g.dealer) - 1) % 4]
    assert (g.current, g.direction) == (right, -1)
    assert DirectionReversed(-1) in ev
    g, _ = _deal_with(Rules(), Rank.REVERSE, four)
    assert (g.current, g.direction) == (g.dealer, -1)


def test_start_reverse_two_players_reverse_is_a_skip_still() -> None:
    """two_player=official: a Reverse start card skips the first player whatever
    start_reverse says (with two, the dealer's right is the first player)."""
    g, _ = _deal_with(Rules(start_reverse="right_of_dealer"), Rank.REVERSE, ["a", "b"])
    assert g.current == g.dealer and g.direction == 1


def test_dealer_high_plays_first() -> None:
    """Seed 001: "游戏开始前，每位玩家从牌堆摸一张牌，牌面数字最大的玩家为第一个出牌者，摸到
    功能牌或万能牌则重摸" — the highest card plays first (the seat before them counts as the
    dealer), action cards and wilds are drawn again."""
    players = ["a", "b", "c", "d"]
    redrawn = False
    for seed in range(40):
        g, ev = new_game_events(players, Rules(dealer="high_plays_first"), seed)
        started = of(ev, RoundStarted)[0]
        draws = list(started.dealer_draws)
        kept: dict[str, Card] = {}
        cands = players
        while True:  # each candidate draws until a number; the tied highest again
            rnd: dict[str, Card] = {}
            for p in cands:
                while True:
                    q, c = draws.pop(0)
                    assert q == p
                    if c.is_number:
                        break
                    redrawn = True
                rnd[p] = c
            best = max(c.number for c in rnd.values())
            cands = [p for p in cands if rnd[p].number == best]
            kept.update(rnd)
            if len(cands) == 1:
                break
        assert draws == []
        opener = cands[0]
        assert g.dealer == players[(players.index(opener) - 1) % 4]
        if started.top.is_number:
            assert g.current == opener
    assert redrawn


# ------------------------------------------------------------------ the rules' plain mirror


def test_the_engine_reads_every_flag_as_the_rules_say() -> None:
    """engine.rules.plain: the hot paths read the flags from a plain mirror of the Rules;
    it holds every flag with the Rules' value, cannot be changed, and follows set_rules."""
    r = Rules.preset("party", places=True, uno_call="with_play", deflect=True)
    fast = plain(r)
    assert fast is plain(r)
    assert {f: getattr(fast, f) for f in Rules.model_fields} == r.model_dump()
    with pytest.raises(AttributeError):
        fast.stacking = "off"  # type: ignore[misc]
    g = scenario({"a": ["R1"], "b": ["R2", "R3"]}, ["R5"], rules=Rules(target=1000))
    g, _ = apply(g, "a", Play("R1"))
    assert g.phase is Phase.ROUND_OVER
    g = set_rules(g, Rules(target=1000, last_card="no_skip_reverse_wild"))
    assert g.fl.last_card == "no_skip_reverse_wild"
    assert game_from_json(game_to_json(g)).fl.last_card == "no_skip_reverse_wild"
