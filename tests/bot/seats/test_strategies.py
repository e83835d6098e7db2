"""Bot seats: every choice is one the engine accepts; ``smart`` plays like a careful person
and beats ``random`` and ``basic``."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.seats import strategies as ai
from bot.seats.expert import Budget
from bot.seats.simulate import simulate
from engine import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Color,
    Draw,
    Game,
    Leave,
    NextRound,
    Phase,
    Play,
    Rank,
    Rules,
    apply,
    legal_actions,
    new_game,
    scenario,
)
from tests.engine.strategies import random_rules, valid_player_counts


@pytest.fixture(autouse=True)
def _quick_expert(monkeypatch: pytest.MonkeyPatch) -> None:
    """expert seats search little here: these tests are about legality, not strength
    (tests/bot/test_expert.py)"""
    monkeypatch.setattr("bot.seats.expert.search.BOT_BUDGET", Budget(playouts=24))


@pytest.mark.parametrize("preset", ["official", "house", "party"])
def test_every_choice_is_accepted_by_the_engine(preset: str) -> None:
    rng = random.Random(preset)
    assert _play_out(rng, lambda: Rules.preset(preset, target=0)) > 300


@pytest.mark.parametrize("chunk", range(3))
def test_every_choice_is_accepted_under_random_flags(chunk: int) -> None:
    """Every flag (issue 14's too: draw_four_when, after_penalty, drawn_card, uno_call,
    places, ...) drawn at random: a bot seat still only ever picks what the engine takes."""
    rng = random.Random(f"flags{chunk}")

    assert _play_out(rng, lambda: random_rules(rng, target=0, hand_size=rng.randint(3, 7))) > 300


def _play_out(
    rng: random.Random, make: Callable[[], Rules], players: tuple[int, int] = (2, 7)
) -> int:
    """Ten games of bot seats, each move checked against the engine: the moves checked."""
    checked = 0
    for seed in range(10):
        rules = make()
        counts = [n for n in valid_player_counts(rules, players[1]) if n >= players[0]]
        ids = [f"p{i}" for i in range(rng.choice(counts))]
        strategy = dict(zip(ids, [rng.choice(ai.STRATEGIES) for _ in ids], strict=True))
        g = new_game(ids, rules, seed=seed)
        for _ in range(600):
            if g.phase is Phase.GAME_OVER:
                break
            moves = []
            for p in g.players:
                a = ai.choose(g, p, strategy[p], rng)
                wants = ai.out_of_turn(g, p, strategy[p])
                if p != g.current:
                    assert wants == (a is not None), (p, strategy[p], a)
                    if strategy[p] not in ("smart", "expert"):
                        assert a is None  # only smart (and expert) seats act out of turn
                if a is None:
                    continue
                assert not isinstance(a, Leave | NextRound)
                apply(g, p, a)  # raises if the engine would refuse it
                checked += 1
                moves.append((p, a))
            assert g.current is not None
            assert any(p == g.current for p, _ in moves)  # the one whose turn it is moves
            p, a = rng.choice(moves)
            g, _ = apply(g, p, a)
    return checked


def test_random_moves_only_in_its_turn_and_basic_plays_when_it_can() -> None:
    g = scenario({"a": ["R5", "G7", "R8"], "b": ["R6", "B1"]}, ["R1"], draw_pile=["Y1"] * 5)
    rng = random.Random(1)
    assert ai.choose(g, "b", "random", rng) is None
    assert ai.choose(g, "b", "basic", rng) is None
    uniform = {Play("R5"), Play("R8"), Draw()}
    assert {ai.choose(g, "a", "random", rng) for _ in range(200)} == uniform
    assert {ai.choose(g, "a", "basic", rng) for _ in range(50)} == {Play("R5"), Play("R8")}


def test_basic_calls_uno_with_its_next_to_last_card() -> None:
    g = scenario({"a": ["R5", "G7"], "b": ["R6", "B1"]}, ["R1"])
    assert ai.choose(g, "a", "basic", random.Random(0)) == Play("R5", uno=True)


def test_smart_calls_uno_and_goes_out() -> None:
    rng = random.Random(0)
    g = scenario({"a": ["R5", "G7"], "b": ["R6", "B1", "B2"]}, ["R1"])
    assert ai.choose(g, "a", "smart", rng) == Play("R5", uno=True)
    g = scenario({"a": ["W4"], "b": ["R6", "B1"]}, ["R1"])
    assert ai.choose(g, "a", "smart", rng) == CallUno()  # dealt one card: safe first
    g, _ = apply(g, "a", CallUno())
    a = ai.choose(g, "a", "smart", rng)
    assert isinstance(a, Play) and a.card.rank is Rank.WILD_DRAW_FOUR


def test_smart_catches_an_exposed_player_out_of_turn() -> None:
    g = scenario({"a": ["R5", "G7"], "b": ["R6", "B1", "B2"], "c": ["Y3", "Y4"]}, ["R1"])
    g, _ = apply(g, "a", Play("R5"))  # no UNO: exposed
    assert g.current == "b"
    assert ai.out_of_turn(g, "c", "smart")
    assert ai.choose(g, "c", "smart", random.Random(0)) == CatchUno("a")
    assert ai.choose(g, "b", "smart", random.Random(0)) == CatchUno("a")  # first, then play
    assert not ai.out_of_turn(g, "c", "basic") and not ai.out_of_turn(g, "c", "random")


def test_smart_names_the_colour_it_holds_most_of() -> None:
    g = scenario({"a": ["B1", "B2", "G3", "W"], "b": ["R6", "B1"]}, ["R1"])
    a = ai.choose(g, "a", "smart", random.Random(0))
    assert isinstance(a, Play)
    if a.card.is_wild:
        assert a.color is Color.BLUE
    g = scenario({"a": ["B1", "B2", "G3"], "b": ["R6", "B1"]}, ["W"])  # a wild start card
    assert g.phase is Phase.CHOOSING_COLOR
    assert ai.choose(g, "a", "smart", random.Random(0)) == ChooseColor(Color.BLUE)


def test_smart_never_bluffs_a_wild_draw_four() -> None:
    g = scenario({"a": ["W4", "R5", "G2", "G3"], "b": ["R6", "B1"]}, ["R1"])
    assert Play("W4", color="G") in legal_actions(g, "a")  # a bluff is listed ...
    for seed in range(30):
        a = ai.choose(g, "a", "smart", random.Random(seed))
        assert isinstance(a, Play) and a.card.rank is not Rank.WILD_DRAW_FOUR  # ... not taken


def test_smart_never_bluffs_by_the_rule_in_force() -> None:
    """draw_four_when=no_play: a card of the top card's number makes the +4 a bluff too."""
    r = Rules(draw_four_when="no_play")
    g = scenario({"a": ["W4", "G1", "G5"], "b": ["R6", "B1"]}, ["R1"], rules=r)
    for seed in range(30):
        a = ai.choose(g, "a", "smart", random.Random(seed))
        assert isinstance(a, Play) and a.card.rank is not Rank.WILD_DRAW_FOUR


def test_smart_calls_uno_with_the_play_under_with_play() -> None:
    """uno_call=with_play: the call is part of the play, also a play_and_draw last card."""
    r = Rules(uno_call="with_play", last_card="play_and_draw")
    g = scenario({"a": ["RS"], "b": ["R6", "B1"]}, ["R1"], rules=r)
    d = g.to_dict()
    d["called"] = ["a"]  # they called when they came down to it
    g = Game.from_dict(d)
    assert ai.choose(g, "a", "smart", random.Random(0)) == Play("RS", uno=True)
    assert ai.choose(g, "a", "basic", random.Random(0)) == Play("RS", uno=True)


def test_smart_keeps_its_wilds_when_another_card_fits() -> None:
    g = scenario({"a": ["W", "R5", "G2", "G3"], "b": ["R6", "B1", "B2", "B3"]}, ["R1"])
    a = ai.choose(g, "a", "smart", random.Random(0))
    assert a == Play("R5")


def test_smart_challenges_when_the_odds_favour_it() -> None:
    many = ["R2", "G2", "Y2", "B2", "R3", "G3", "Y3", "B3"]
    g = scenario({"a": ["W4", *many], "b": ["R6", "B1"]}, ["G9"])
    g, _ = apply(g, "a", Play("W4", color="B"))  # a bluff: a holds green
    assert g.phase is Phase.CHALLENGE
    assert ai.choose(g, "b", "smart", random.Random(0)) == Challenge()
    g = scenario({"a": ["W4", "R2"], "b": ["R6", "B1"]}, ["G9"])
    g, _ = apply(g, "a", Play("W4", color="B", uno=True))  # one card left: likely honest
    assert ai.choose(g, "b", "smart", random.Random(0)) == Accept()


def test_smart_calls_uno_when_it_forgot() -> None:
    g = scenario({"a": ["R5", "G7"], "b": ["R6", "B1", "B2"]}, ["R1"])
    g, _ = apply(g, "a", Play("R5"))
    assert ai.out_of_turn(g, "a", "smart")
    assert ai.choose(g, "a", "smart", random.Random(0)) == CallUno()


def test_simulate_counts_every_game() -> None:
    res = simulate(40, 3, Rules(target=0), ("smart", "basic", "random"), seed=3)
    assert res.games == 40 and sum(res.wins.values()) == 40
    assert res.seats == ("smart", "basic", "random")
    assert res.fair_share("smart") == pytest.approx(1 / 3)
    assert res.actions > 40 * 10
    again = simulate(40, 3, Rules(target=0), ("smart", "basic", "random"), seed=3)
    assert again == res  # the same seed, the same games


def test_smart_wins_clearly_more_than_its_share() -> None:
    vs_random = simulate(200, 4, Rules(target=0), ("smart", "random"), seed=11)
    assert vs_random.share("smart") > 0.9  # a fair share would be 50 %
    vs_basic = simulate(400, 4, Rules(target=0), ("smart", "basic", "basic", "basic"), seed=11)
    assert vs_basic.share("smart") > 0.32  # a fair share would be 25 %
