"""Issue 9 item 1: a +2 start card with stacking on.

docs/rules.md "Penalties and windows": a +2 is drawn at once only when stacking is off. Seed
001: "若引牌为+2牌：第一个出牌的玩家就要用+2或+4卡跟，不然就直接罚抽2张". So with stacking on
the first player is current with 2 pending and answers it exactly as if the card had just
been played at them: stack, deflect, pass it with a Wild where the rules allow, or accept;
a timeout takes it. Real deals, found by seed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine import (
    Accept,
    CardPlayed,
    CardsDrawn,
    Color,
    DirectionReversed,
    Draw,
    Game,
    IllegalAction,
    PenaltyPassed,
    PenaltyStacked,
    Phase,
    Play,
    Rank,
    RoundStarted,
    Rules,
    Timeout,
    TurnSkipped,
    apply,
    game_from_json,
    game_to_json,
    legal_actions,
    new_game_events,
    redact,
)

FOUR = ["A", "B", "C", "D"]
TWO = ["A", "B"]
STACKING = ["draw_two", "draw_four_on_two", "any"]
D2, W4 = Rank.DRAW_TWO, Rank.WILD_DRAW_FOUR


def seat(players: list[str], dealer: str, steps: int) -> str:
    return players[(players.index(dealer) + steps) % len(players)]


def deal(
    rules: Rules,
    pred: Callable[[Game, str], bool] = lambda g, first: True,
    players: list[str] = FOUR,
) -> tuple[Game, list[object], str]:
    """The first deal among seeds 0-19999 with a +2 start card for which ``pred(game,
    first player)`` holds: (game, events, first player)."""
    for seed in range(20000):
        g, ev = new_game_events(players, rules, seed)
        if ev[0].top.rank is not D2:  # type: ignore[attr-defined]
            continue
        first = seat(players, g.dealer, 1)
        if pred(g, first):
            return g, ev, first
    raise AssertionError("no seed deals this")


def holds(rank: Rank) -> Callable[[Game, str], bool]:
    return lambda g, p: any(c.rank is rank for c in g.hand(p))


@pytest.mark.parametrize("stacking", STACKING)
def test_the_first_player_faces_the_start_card_with_every_stacking_mode(stacking: str) -> None:
    g, ev, first = deal(Rules(stacking=stacking))
    assert (g.phase, g.current, g.pending_draw) == (Phase.PLAYING, first, 2)
    assert all(len(g.hand(p)) == 7 for p in FOUR)  # nobody drew
    assert not [e for e in ev if isinstance(e, CardsDrawn | TurnSkipped)]
    started = ev[0]
    assert isinstance(started, RoundStarted)
    assert (started.current, started.pending) == (first, 2)
    acts = legal_actions(g, first)
    assert Accept() in acts and Draw() not in acts
    for a in acts:  # only what goes on a +2 under this stacking mode
        if isinstance(a, Play):
            assert a.card.rank is D2 or (a.card.rank is W4 and stacking != "draw_two"), a
    with pytest.raises(IllegalAction):
        apply(g, first, Draw())
    # the state survives a restart as it is
    assert game_from_json(game_to_json(g)) == g


@pytest.mark.parametrize("stacking", STACKING)
def test_a_draw_two_stacks_on_the_start_card(stacking: str) -> None:
    g, _, first = deal(Rules(stacking=stacking), holds(D2))
    card = next(c for c in g.hand(first) if c.rank is D2)
    assert Play(card) in legal_actions(g, first)
    g, ev = apply(g, first, Play(card))
    second = seat(FOUR, g.dealer, 2)
    assert PenaltyStacked(first, 4) in ev
    assert (g.current, g.pending_draw) == (second, 4)
    g, ev = apply(g, second, Accept())
    assert len(g.hand(second)) == 11 and TurnSkipped(second) in ev
    assert g.current == seat(FOUR, g.dealer, 3)


@pytest.mark.parametrize("stacking", ["draw_four_on_two", "any"])
def test_a_wild_draw_four_stacks_on_the_start_card_where_allowed(stacking: str) -> None:
    rules = Rules(stacking=stacking, wild_draw_four="free")
    g, _, first = deal(rules, holds(W4))
    g, ev = apply(g, first, Play("W4", Color.GREEN))
    assert PenaltyStacked(first, 6) in ev
    assert (g.current, g.pending_draw, g.color) == (seat(FOUR, g.dealer, 2), 6, Color.GREEN)


def test_a_wild_draw_four_does_not_go_on_the_start_card_with_draw_two_stacking() -> None:
    g, _, first = deal(Rules(stacking="draw_two", wild_draw_four="free"), holds(W4))
    assert not [a for a in legal_actions(g, first) if isinstance(a, Play) and a.card.rank is W4]
    with pytest.raises(IllegalAction):
        apply(g, first, Play("W4", Color.RED))


@pytest.mark.parametrize("stacking", STACKING)
def test_accepting_the_start_card_draws_two_and_skips(stacking: str) -> None:
    g, _, first = deal(Rules(stacking=stacking))
    g, ev = apply(g, first, Accept())
    drawn = [e for e in ev if isinstance(e, CardsDrawn)]
    assert [(e.player, e.count, e.reason) for e in drawn] == [(first, 2, "penalty")]
    assert TurnSkipped(first) in ev
    assert (g.current, g.pending_draw, len(g.hand(first))) == (seat(FOUR, g.dealer, 2), 0, 9)


@pytest.mark.parametrize("stacking", STACKING)
def test_a_timeout_takes_the_start_card_penalty(stacking: str) -> None:
    g, _, first = deal(Rules(stacking=stacking))
    g, ev = apply(g, first, Timeout())
    drawn = [e for e in ev if isinstance(e, CardsDrawn)]
    assert [(e.player, e.count, e.reason) for e in drawn] == [(first, 2, "penalty")]
    assert (g.current, g.pending_draw) == (seat(FOUR, g.dealer, 2), 0)


def test_without_stacking_the_start_card_is_still_drawn_at_once() -> None:
    g, ev, first = deal(Rules())
    assert ev[0].pending == 0  # type: ignore[attr-defined]
    assert TurnSkipped(first) in ev and len(g.hand(first)) == 9
    assert (g.current, g.pending_draw) == (seat(FOUR, g.dealer, 2), 0)


def test_two_players_the_start_card_faces_the_non_dealer() -> None:
    g, _, first = deal(Rules(stacking="draw_two"), players=TWO)
    assert first != g.dealer
    assert (g.current, g.pending_draw) == (first, 2)
    g, _ = apply(g, first, Accept())
    assert (g.current, len(g.hand(first))) == (g.dealer, 9)


def test_two_players_a_stack_on_the_start_card_goes_to_the_dealer() -> None:
    g, _, first = deal(Rules(stacking="draw_two"), holds(D2), players=TWO)
    card = next(c for c in g.hand(first) if c.rank is D2)
    g, _ = apply(g, first, Play(card))
    assert (g.current, g.pending_draw) == (g.dealer, 4)


def _deflector(rank: Rank) -> Callable[[Game, str], bool]:
    """The first player holds a card of ``rank`` in the start card's colour."""
    return lambda g, p: any(c.rank is rank and c.color is g.color for c in g.hand(p))


def test_a_skip_deflects_the_start_card_to_the_next_player() -> None:
    rules = Rules(stacking="draw_two", deflect=True)
    g, _, first = deal(rules, _deflector(Rank.SKIP))
    skip = next(c for c in g.hand(first) if c.rank is Rank.SKIP and c.color is g.color)
    g, ev = apply(g, first, Play(skip))
    second = seat(FOUR, g.dealer, 2)
    assert PenaltyPassed(first, second, 2, "skip") in ev
    assert (g.current, g.pending_draw) == (second, 2)


def test_a_reverse_deflects_the_start_card_back_to_the_dealer() -> None:
    """Nobody played the start +2: the dealer turned it up, so a Reverse of its colour
    turns play round and sends it to the dealer (the next player the other way)."""
    rules = Rules(stacking="draw_two", deflect=True)
    g, _, first = deal(rules, _deflector(Rank.REVERSE))
    dealer = g.dealer
    rev = next(c for c in g.hand(first) if c.rank is Rank.REVERSE and c.color is g.color)
    g, ev = apply(g, first, Play(rev))
    assert DirectionReversed(-1) in ev
    assert PenaltyPassed(first, dealer, 2, "reverse") in ev
    assert (g.current, g.pending_draw, g.direction) == (dealer, 2, -1)
    g, _ = apply(g, dealer, Accept())
    assert g.current == seat(FOUR, dealer, -1)


def test_a_wild_passes_the_start_card_on_with_wild_on_penalty() -> None:
    rules = Rules(stacking="draw_two", wild_on_penalty=True)
    g, _, first = deal(rules, holds(Rank.WILD))
    g, ev = apply(g, first, Play("W", Color.BLUE))
    second = seat(FOUR, g.dealer, 2)
    assert PenaltyPassed(first, second, 2, "wild") in ev
    assert (g.current, g.pending_draw, g.color) == (second, 2, Color.BLUE)


def _jumper(g: Game, first: str) -> bool:
    """Someone but the first player holds the start card's identical twin."""
    return any(g.top in g.hand(p) for p in FOUR if p != first)


def test_a_jump_in_with_the_identical_draw_two_adds_to_the_start_card() -> None:
    rules = Rules(stacking="draw_two", jump_in=True)
    g, _, first = deal(rules, _jumper)
    jumper = next(p for p in FOUR if p != first and g.top in g.hand(p))
    twin = g.top
    assert Play(twin) in legal_actions(g, jumper)
    g, ev = apply(g, jumper, Play(twin))
    assert CardPlayed(jumper, twin, jump_in=True, color=twin.color, cards_left=6) in ev
    assert PenaltyStacked(jumper, 4) in ev
    victim = seat(FOUR, jumper, 1)
    assert (g.current, g.pending_draw) == (victim, 4)


def test_no_jump_in_on_the_start_card_while_the_first_play_must_be_a_number() -> None:
    rules = Rules(stacking="draw_two", jump_in=True, first_play_number=True)
    g, _, first = deal(rules, _jumper)
    jumper = next(p for p in FOUR if p != first and g.top in g.hand(p))
    assert not [a for a in legal_actions(g, jumper) if isinstance(a, Play)]


def test_first_play_number_the_penalty_comes_first_then_the_next_opens_with_a_number() -> None:
    """``first_play_number``: the start +2 is answered first (a stack, or the two cards);
    accepting it leaves the round's first play, a number, to the next player."""
    rules = Rules(stacking="draw_two", first_play_number=True)
    g, _, first = deal(rules)
    assert (g.current, g.pending_draw) == (first, 2)
    g, _ = apply(g, first, Accept())
    second = g.current
    assert second == seat(FOUR, g.dealer, 2)
    for a in legal_actions(g, second):
        if isinstance(a, Play):
            assert a.card.is_number, a


def test_first_play_number_a_stack_on_the_start_card_is_the_first_play() -> None:
    rules = Rules(stacking="draw_two", first_play_number=True)
    g, _, first = deal(rules, holds(D2))
    card = next(c for c in g.hand(first) if c.rank is D2)
    assert Play(card) in legal_actions(g, first)
    g, _ = apply(g, first, Play(card))
    second = g.current
    g, _ = apply(g, second, Accept())
    assert g.first_play is False  # the round has been opened: anything matching goes


def test_the_start_card_event_is_the_same_for_every_viewer_but_the_hands() -> None:
    g, ev, first = deal(Rules(stacking="any"))
    started = ev[0]
    for viewer in (None, *FOUR):
        seen = redact(started, viewer)
        assert (seen.current, seen.pending, seen.top) == (first, 2, g.top)  # type: ignore[attr-defined]
