"""docs/rules.md section 4 (leaving, timeouts) and the section 1 rules for both piles empty and
two players, on hand-built games."""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    Accept,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    Code,
    Color,
    ColorChosen,
    Draw,
    Game,
    GameWon,
    IllegalAction,
    Leave,
    NextRound,
    Pass,
    Passed,
    Phase,
    Play,
    PlayerLeft,
    RoundWon,
    Rules,
    Timeout,
    TurnSkipped,
    TurnTimedOut,
    UnoWindowClosed,
    apply,
    game_to_json,
    join,
    legal_actions,
    scenario,
)
from engine.cards import Card


def cards(text: str) -> tuple[Card, ...]:
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


def table(hands: dict[str, str], discard: str = "R5", draw: str = "", **kw):
    """A round set up by hand: ``{"A": "R1 G2", ...}`` in seat order."""
    return scenario(
        {p: h.split() for p, h in hands.items()}, discard.split(), draw_pile=draw.split(), **kw
    )


def table_exact(*args: Any, **kw: Any) -> Game:
    """``table`` whose given draw pile is the whole pile (to test running out)."""
    return table(*args, fill=False, **kw)


def total_cards(game) -> int:
    return (
        sum(len(game.hand(p)) for p in game.players) + game.draw_pile_size + game.discard_pile_size
    )


FOUR = {"A": "R1 G2", "B": "B1 B2", "C": "Y3 Y4", "D": "G7 G8"}


# --------------------------------------------------------------------------- leaving


def test_leave_cards_go_to_bottom_of_draw_pile():
    """A player who leaves: their cards go to the bottom of the draw pile."""
    g = table_exact({"A": "G1 G2", "B": "B1 B2", "C": "Y3 Y4"}, draw="G7 G8")
    g, ev = apply(g, "C", Leave())
    assert ev == [PlayerLeft("C")]
    assert g.players == ["A", "B"]
    assert g.draw_pile_size == 4
    assert total_cards(g) == 9
    drawn = []
    for p in ("A", "B", "A", "B"):
        g, ev = apply(g, p, Draw())
        drawn.append(str(ev[0].cards[0]))
        if g.current == p:
            g, _ = apply(g, p, Pass())
    assert drawn[:2] == ["G7", "G8"]
    assert sorted(drawn[2:]) == ["Y3", "Y4"]


def test_leave_on_own_turn_passes_the_turn():
    """If it was their turn, the turn passes on."""
    g = table(FOUR)
    g, ev = apply(g, "A", Leave())
    assert ev == [PlayerLeft("A")]
    assert (g.current, g.players) == ("B", ["B", "C", "D"])
    assert g.phase is Phase.PLAYING


def test_leave_on_own_turn_passes_the_turn_in_direction_of_play():
    """The turn passes on in the direction of play (counter-clockwise after a Reverse)."""
    g = table(FOUR, direction=-1)
    g, _ = apply(g, "A", Leave())
    assert g.current == "D"


def test_leave_after_drawing_passes_the_turn():
    """A player who drew a playable card and leaves: the turn passes on."""
    g = table(FOUR, draw="R7 Y1")
    g, _ = apply(g, "A", Draw())
    assert g.current == "A"
    g, _ = apply(g, "A", Leave())
    assert g.current == "B"
    assert g.drawn_card is None
    assert Draw() in legal_actions(g, "B")


def test_leave_out_of_turn_keeps_the_turn_and_seat_order():
    """A player leaving out of turn: play goes on in seat order without them."""
    g = table({"A": "R1 G2", "B": "R2 B2", "C": "Y3 Y4", "D": "R3 G8"})
    g, _ = apply(g, "C", Leave())
    assert g.current == "A"
    g, _ = apply(g, "A", Play("R1"))
    assert g.current == "B"
    g, _ = apply(g, "B", Play("R2"))
    assert g.current == "D"


def test_leave_cancels_penalty_aimed_at_leaver():
    """A W4 aimed at the player who leaves is cancelled; the turn passes on."""
    g = table({"A": "W4 G2", "B": "B1 B2", "C": "Y3 Y4", "D": "G7 G8"}, draw="Y5 Y6 Y7 Y8 Y9")
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    assert (g.current, g.pending_draw) == ("B", 4)
    g, ev = apply(g, "B", Leave())
    assert ev == [PlayerLeft("B")]
    assert (g.current, g.pending_draw, g.phase, g.color) == ("C", 0, Phase.PLAYING, Color.GREEN)
    assert hand(g, "C") == ["Y3", "Y4"]
    assert hand(g, "A") == ["G2"]


def test_leave_cancels_stacked_penalty_aimed_at_leaver():
    """A pending +2 (stacking on) aimed at the player who leaves is cancelled."""
    g = table(
        {"A": "RD2 G2", "B": "B1 B2", "C": "Y3 Y4", "D": "G7 G8"},
        draw="Y5 Y6",
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "A", Play("RD2"))
    assert (g.current, g.pending_draw) == ("B", 2)
    g, _ = apply(g, "B", Leave())
    assert (g.current, g.pending_draw) == ("C", 0)
    assert len(g.hand("C")) == 2
    assert Draw() in legal_actions(g, "C")


def test_leave_w4_offender_with_challenge_open_victim_draws():
    """The player of a W4 whose challenge is open leaves: the victim draws it, play goes on."""
    g = table({"A": "W4 R2", "B": "B1 B2", "C": "Y3 Y4", "D": "G7 G8"}, draw="Y5 Y6 Y7 Y8 Y9")
    g, _ = apply(g, "A", Play("W4", color="BLUE"))
    g, ev = apply(g, "A", Leave())
    assert ev[0] == PlayerLeft("A")
    assert CardsDrawn("B", 4, cards("Y5 Y6 Y7 Y8"), "penalty") in ev
    assert hand(g, "B") == ["B1", "B2", "Y5", "Y6", "Y7", "Y8"]
    assert g.players == ["B", "C", "D"]
    assert (g.phase, g.pending_draw, g.color) == (Phase.PLAYING, 0, Color.BLUE)
    assert g.current == "C"
    assert Challenge() not in legal_actions(g, "B")


def test_leave_of_bystander_keeps_challenge_open():
    """A third player leaving does not disturb an open challenge."""
    g = table({"A": "W4 R2", "B": "B1 B2", "C": "Y3 Y4", "D": "G7 G8"}, draw="Y5 Y6 Y7 Y8 Y9")
    g, _ = apply(g, "A", Play("W4", color="BLUE"))
    g, _ = apply(g, "D", Leave())
    assert (g.current, g.phase, g.pending_draw) == ("B", Phase.CHALLENGE, 4)
    g, ev = apply(g, "B", Challenge())
    assert ev[0] == ChallengeResolved("B", "A", True, 4, "A", cards("R2"))
    assert len(g.hand("A")) == 5
    assert g.current == "B"


def test_leave_while_naming_colour_gets_random_colour():
    """A player who leaves while their wild's colour is still to be named: a random colour."""
    g = table({"A": "W G2", "B": "B1 B2", "C": "Y3 Y4"})
    g, _ = apply(g, "A", Play("W"))
    assert g.phase is Phase.CHOOSING_COLOR
    g, ev = apply(g, "A", Leave())
    chosen = [e for e in ev if isinstance(e, ColorChosen)]
    assert len(chosen) == 1
    assert chosen[0].random is True
    assert g.color is chosen[0].color
    assert (g.phase, g.current) == (Phase.PLAYING, "B")


def test_leave_on_wild_start_card_random_colour_next_player_plays():
    """The first player leaves while the wild start card's colour is to be named: a random
    colour is named for them and the turn passes on."""
    g = table({"A": "G1 G2", "B": "B1", "C": "Y1"}, discard="W")
    assert (g.phase, g.current) == (Phase.CHOOSING_COLOR, "A")
    g, ev = apply(g, "A", Leave())
    assert ev[0] == PlayerLeft("A")
    assert ev[1] == ColorChosen("A", g.color, random=True)
    assert g.color is not None
    assert (g.phase, g.current) == (Phase.PLAYING, "B")


def test_last_player_left_wins_round_and_game():
    """A game left with one player ends: that player wins the round and the game."""
    g = table({"A": "R1 G2", "B": "B1 B2"})
    g, ev = apply(g, "B", Leave())
    assert ev[0] == PlayerLeft("B")
    won = [e for e in ev if isinstance(e, RoundWon)]
    assert len(won) == 1
    assert (won[0].player, won[0].reason) == ("A", "last_player")
    assert isinstance(ev[-1], GameWon)
    assert ev[-1].player == "A"
    assert (g.phase, g.winner, g.round_winner, g.current) == (Phase.GAME_OVER, "A", "A", None)


def test_last_player_after_several_leave():
    """Three players, two leave in turn: the one left wins, even when it was not their turn."""
    g = table({"A": "R1 G2", "B": "B1 B2", "C": "Y3 Y4"}, current="B")
    g, _ = apply(g, "A", Leave())
    assert (g.phase, g.current) == (Phase.PLAYING, "B")
    g, ev = apply(g, "B", Leave())
    assert (g.phase, g.winner) == (Phase.GAME_OVER, "C")
    assert isinstance(ev[-1], GameWon)
    assert refuse(g, "C", Draw()) is Code.GAME_OVER


def test_two_players_left_then_two_player_rules_apply():
    """When a leave leaves two players, the two-player rules apply: R acts as S."""
    g = table({"A": "RR G2", "B": "B1 B2", "C": "Y3 Y4"})
    g, _ = apply(g, "C", Leave())
    g, ev = apply(g, "A", Play("RR"))
    assert g.current == "A"
    assert TurnSkipped("B") in ev


def test_nobody_joins_mid_round():
    """Nobody joins mid-round."""
    g = table({"A": "R1 G2", "B": "B1 B2"})
    with pytest.raises(IllegalAction) as info:
        join(g, "C")
    assert info.value.code is Code.ROUND_IN_PROGRESS


def test_leaver_may_sit_down_again_for_next_round_fresh_hand():
    """A player who left may sit down again for the next round, which deals fresh hands."""
    g = table({"A": "R9 G2", "B": "B1 B2", "C": "R1"}, current="C", rules=Rules(target=100))
    g, _ = apply(g, "C", Play("R1"))
    assert g.scores["C"] == 9 + 2 + 1 + 2
    g, ev = apply(g, "C", Leave())
    assert ev[0] == PlayerLeft("C")
    assert g.phase is Phase.ROUND_OVER
    g, _ = join(g, "C")
    assert g.players == ["A", "B", "C"]
    assert g.scores["C"] == 14
    g, _ = apply(g, "A", NextRound())
    assert len(g.hand("C")) == 7
    assert total_cards(g) == 108


# --------------------------------------------------------------------------- timeouts


def test_turn_timeout_draws_one_and_passes():
    """A turn timeout draws one card for the player and passes (even a playable card)."""
    g = table({"A": "G1", "B": "B1", "C": "Y1"}, draw="R7 Y9")
    g, ev = apply(g, "A", Timeout())
    assert ev == [
        TurnTimedOut("A", "turn"),
        CardsDrawn("A", 1, cards("R7"), "draw"),
        Passed("A"),
    ]
    assert g.current == "B"
    assert hand(g, "A") == ["G1", "R7"]
    assert str(g.top) == "R5"


def test_turn_timeout_after_drawing_passes_keeping_the_card():
    """A timeout after a draw passes: the drawn card is kept, nothing more is drawn."""
    g = table_exact({"A": "G1", "B": "B1", "C": "Y1"}, draw="R7 Y9")
    g, _ = apply(g, "A", Draw())
    g, ev = apply(g, "A", Timeout())
    assert TurnTimedOut("A", "turn") in ev
    assert not any(isinstance(e, CardsDrawn) for e in ev)
    assert g.current == "B"
    assert hand(g, "A") == ["G1", "R7"]
    assert g.draw_pile_size == 1


def test_challenge_timeout_takes_the_penalty():
    """A challenge timeout takes the penalty: the victim draws 4 and loses the turn."""
    g = table({"A": "W4 R2", "B": "B1", "C": "Y1"}, draw="G1 G2 G3 G4 G5")
    g, _ = apply(g, "A", Play("W4", color="YELLOW"))
    g, ev = apply(g, "B", Timeout())
    assert ev == [
        TurnTimedOut("B", "turn"),
        CardsDrawn("B", 4, cards("G1 G2 G3 G4"), "penalty"),
        TurnSkipped("B"),
    ]
    assert (g.current, g.phase, g.pending_draw) == ("C", Phase.PLAYING, 0)
    assert hand(g, "A") == ["R2"]


def test_pending_penalty_timeout_is_accepted():
    """A turn timeout with a penalty pending takes the penalty."""
    g = table(
        {"A": "RD2 G2", "B": "BD2 B1", "C": "Y1"},
        draw="G1 G3 G4",
        rules=Rules(stacking="draw_two"),
    )
    g, _ = apply(g, "A", Play("RD2"))
    g, ev = apply(g, "B", Timeout())
    assert CardsDrawn("B", 2, cards("G1 G3"), "penalty") in ev
    assert TurnSkipped("B") in ev
    assert (g.current, g.pending_draw) == ("C", 0)
    assert hand(g, "B") == ["BD2", "B1", "G1", "G3"]


def test_colour_not_named_in_time_chosen_at_random():
    """A colour not named in time is chosen at random; the wild takes effect."""
    seen = set()
    for seed in range(16):
        g = table({"A": "W G2", "B": "B1", "C": "Y1"}, seed=seed)
        g, _ = apply(g, "A", Play("W"))
        g, ev = apply(g, "A", Timeout())
        assert ev[0] == TurnTimedOut("A", "turn")
        assert ev[1] == ColorChosen("A", g.color, random=True)
        assert g.color in (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
        assert (g.phase, g.current) == (Phase.PLAYING, "B")
        seen.add(g.color)
    assert len(seen) > 1


def test_colour_timeout_on_wild_draw_four_then_victim_decides():
    """A W4 whose colour times out: a random colour, then the victim faces the 4."""
    g = table({"A": "W4 G2", "B": "B1", "C": "Y1"}, draw="G1 G3 G4 G5")
    g, _ = apply(g, "A", Play("W4"))
    g, ev = apply(g, "A", Timeout())
    assert isinstance(ev[1], ColorChosen)
    assert ev[1].random
    assert (g.current, g.phase, g.pending_draw) == ("B", Phase.CHALLENGE, 4)


def test_wild_start_card_colour_timeout_random():
    """A wild start card whose colour is not named in time gets a random colour."""
    g = table({"A": "G2 R1", "B": "B1", "C": "Y1"}, discard="W")
    assert g.phase is Phase.CHOOSING_COLOR
    g, ev = apply(g, "A", Timeout())
    assert ev[0] == TurnTimedOut("A", "turn")
    assert ev[1] == ColorChosen("A", g.color, random=True)
    assert g.color is not None
    assert g.phase is Phase.PLAYING


def test_uno_catch_window_timeout_closes_silently():
    """A catch window closes silently on timeout: the exposed player can no longer be caught."""
    g = table({"A": "R1 R2", "B": "B1 B3", "C": "Y1 Y3"}, draw="G1 G2")
    g, _ = apply(g, "A", Play("R1"))
    assert g.exposed_players == ["A"]
    g, ev = apply(g, "A", Timeout(window="uno"))
    assert ev == [UnoWindowClosed("A")]
    assert g.exposed_players == []
    assert refuse(g, "C", CatchUno("A")) is Code.NOT_CATCHABLE
    assert (g.current, hand(g, "A")) == ("B", ["R2"])


def test_uno_window_timeout_needs_an_exposed_player():
    """Timeout(window="uno") only closes a window that is open."""
    g = table({"A": "R1 R2", "B": "B1 B3", "C": "Y1 Y3"})
    assert refuse(g, "A", Timeout(window="uno")) is Code.NO_WINDOW


def test_turn_timeout_only_for_current_player():
    """A turn timeout ends the current player's turn, nobody else's."""
    g = table({"A": "R1 R2", "B": "B1 B3", "C": "Y1 Y3"})
    assert refuse(g, "B", Timeout()) is Code.NOT_YOUR_TURN


def test_no_turn_timeout_between_rounds():
    """Between rounds there is no turn to time out."""
    g = table({"A": "R1", "B": "B1 B3", "C": "Y1 Y3"})
    g, _ = apply(g, "A", Play("R1"))
    assert g.phase is Phase.ROUND_OVER
    assert refuse(g, "A", Timeout()) is Code.ROUND_OVER


def test_turn_timeout_with_both_piles_empty_passes():
    """A turn timeout when both piles are empty draws nothing and passes."""
    g = table_exact({"A": "G1", "B": "B1", "C": "Y1"})
    g, ev = apply(g, "A", Timeout())
    assert ev == [TurnTimedOut("A", "turn"), CardsDrawn("A", 0, (), "draw"), Passed("A")]
    assert g.current == "B"


# --------------------------------------------------------------------------- both piles empty


def test_both_piles_empty_draw_gives_nothing_and_turn_passes():
    """If both piles are empty, a draw gives nothing and the turn passes."""
    g = table_exact({"A": "G1", "B": "B1", "C": "Y1"})
    assert (g.draw_pile_size, g.discard_pile_size) == (0, 1)
    g, ev = apply(g, "A", Draw())
    assert ev == [CardsDrawn("A", 0, (), "draw"), Passed("A")]
    assert (g.current, g.phase, hand(g, "A")) == ("B", Phase.PLAYING, ["G1"])


def test_both_piles_empty_everyone_passes_lowest_hand_wins():
    """If every player passes in a row with nothing to draw, the lowest hand wins the round."""
    g = table_exact({"A": "B1 BS", "B": "G1 G2", "C": "Y9"})
    g, _ = apply(g, "A", Draw())
    g, _ = apply(g, "B", Draw())
    assert g.phase is Phase.PLAYING
    g, ev = apply(g, "C", Draw())
    won = ev[-1]
    assert isinstance(won, RoundWon)
    assert (won.player, won.reason) == ("B", "blocked")
    assert won.hand_points == {"A": 21, "B": 3, "C": 9}
    assert won.points == 30
    assert g.scores == {"A": 0, "B": 30, "C": 0}
    assert (g.phase, g.round_winner) == (Phase.ROUND_OVER, "B")


def test_both_piles_empty_tie_goes_to_first_in_turn_order():
    """Ties for the lowest hand go to the first of the tied players in turn order."""
    g = table_exact({"A": "G1 G2", "B": "Y3", "C": "B9"})
    for p in ("A", "B", "C"):
        g, ev = apply(g, p, Draw())
    assert ev[-1].player == "A"
    assert ev[-1].reason == "blocked"


def test_both_piles_empty_a_play_lets_the_next_draw_reshuffle():
    """A card played with both piles empty refills the discard pile: the next draw reshuffles."""
    g = table_exact({"A": "G1", "B": "R7 B1", "C": "Y1 Y2"})
    g, _ = apply(g, "A", Draw())
    g, _ = apply(g, "B", Play("R7"))
    g, ev = apply(g, "C", Draw())
    assert ev[1] == CardsDrawn("C", 1, cards("R5"), "draw")
    assert str(g.top) == "R7"
    assert g.phase is Phase.PLAYING


# --------------------------------------------------------------------------- two players


def two(a: str, b: str, draw: str = "", **kw):
    return table({"A": a, "B": b}, draw=draw, **kw)


def two_exact(*args: Any, **kw: Any) -> Game:
    """``two`` whose given draw pile is the whole pile (to test running out)."""
    return two(*args, fill=False, **kw)


def test_two_players_reverse_acts_as_skip():
    """Two players: R acts as S, the player who played it plays again."""
    g = two("RR G1 G2", "B1 B2", draw="Y9")
    g, ev = apply(g, "A", Play("RR"))
    assert TurnSkipped("B") in ev
    assert g.current == "A"
    g, _ = apply(g, "A", Draw())
    assert g.current == "B"


def test_two_players_skip_plays_again():
    """Two players: S, play again."""
    g = two("RS G1 R2", "B1 B2")
    g, ev = apply(g, "A", Play("RS"))
    assert ev[1:] == [TurnSkipped("B")]
    assert g.current == "A"
    g, _ = apply(g, "A", Play("R2"))
    assert g.current == "B"


def test_two_players_draw_two_returns_the_turn():
    """Two players: after your D2 the opponent draws and play returns to you."""
    g = two("RD2 G1", "B1", draw="Y1 Y2 Y3")
    g, ev = apply(g, "A", Play("RD2"))
    assert ev[1:] == [CardsDrawn("B", 2, cards("Y1 Y2"), "penalty"), TurnSkipped("B")]
    assert g.current == "A"
    assert hand(g, "B") == ["B1", "Y1", "Y2"]


def test_two_players_wild_draw_four_returns_the_turn():
    """Two players: after your W4 the opponent draws 4 and play returns to you."""
    g = two("W4 G1", "B1", draw="Y1 Y2 Y3 Y4 Y5")
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    assert (g.current, g.phase) == ("B", Phase.CHALLENGE)
    g, _ = apply(g, "B", Accept())
    assert g.current == "A"
    assert len(g.hand("B")) == 5
    assert g.color is Color.GREEN


def test_two_players_innocent_challenge_returns_the_turn():
    """Two players: an innocent W4 challenged: the challenger draws 6, play returns to you."""
    g = two("W4 G1", "B1", draw="Y1 " * 7)
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    g, ev = apply(g, "B", Challenge())
    assert ev[0].guilty is False
    assert len(g.hand("B")) == 7
    assert g.current == "A"


def test_two_players_guilty_challenge_challenger_plays():
    """Two players: a guilty W4: the offender draws 4 and the challenger plays."""
    g = two("W4 R1", "B1", draw="Y1 " * 7)
    g, _ = apply(g, "A", Play("W4", color="GREEN"))
    g, ev = apply(g, "B", Challenge())
    assert ev[0].guilty is True
    assert len(g.hand("A")) == 5
    assert g.current == "B"


def test_two_players_plain_flag_reverse_only_reverses():
    """two_player=plain: the two-player rules are off, a Reverse passes the turn."""
    g = two("RR G1", "B1 B2", rules=Rules(two_player="plain"))
    g, _ = apply(g, "A", Play("RR"))
    assert g.current == "B"


def test_two_players_both_piles_empty_round_ends_after_both_pass():
    """Two players, both piles empty: both pass with nothing to draw, the lowest hand wins."""
    g = two_exact("G1 G2", "Y9")
    g, _ = apply(g, "A", Draw())
    g, ev = apply(g, "B", Draw())
    assert ev[-1] == RoundWon("A", 1, 9, "blocked", {"A": 3, "B": 9}, {"A": 9, "B": 0})
