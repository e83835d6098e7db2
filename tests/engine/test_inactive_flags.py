"""Issue 9 item 2: ``deflect`` and ``wild_on_penalty`` are accepted without stacking, and
then have nothing to act on: the engine never lists or accepts a deflect or a wild pass.

A +2 (or an unchallengeable +4) is drawn at once; a challengeable +4 leaves the victim a
``Challenge`` or an ``Accept`` only. Random playouts under such rules never pass a penalty.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    Accept,
    CardsDrawn,
    Challenge,
    Code,
    IllegalAction,
    PenaltyPassed,
    PenaltyStacked,
    Phase,
    Play,
    Rules,
    TurnSkipped,
    apply,
    legal_actions,
    new_game,
    scenario,
)
from tests.engine.strategies import choose_step

INACTIVE = [
    Rules(deflect=True),
    Rules(wild_on_penalty=True),
    Rules.preset("house", stacking="off"),
    Rules.preset("party", stacking="off", wild_on_penalty=True),
]
IDS = ["deflect", "wild_on_penalty", "house-stacking-off", "party-stacking-off-wild"]


@pytest.mark.parametrize("rules", INACTIVE, ids=IDS)
def test_a_draw_two_is_drawn_at_once_whatever_the_victim_holds(rules: Rules) -> None:
    """B holds a red Skip, a red Reverse and a Wild: none of them goes on A's red +2."""
    g = scenario(
        {"A": ["RD2", "G1"], "B": ["RS", "RR", "W", "Y4"], "C": ["Y1", "Y2"]},
        ["R9"],
        ["B1", "B2", "B3"],
        rules=rules,
    )
    g, ev = apply(g, "A", Play("RD2"))
    assert [e for e in ev if isinstance(e, CardsDrawn)] == [
        CardsDrawn("B", 2, (g.hand("B")[-2], g.hand("B")[-1]), "penalty")
    ]
    assert TurnSkipped("B") in ev
    assert not any(isinstance(e, PenaltyPassed | PenaltyStacked) for e in ev)
    assert (g.current, g.pending_draw) == ("C", 0)


@pytest.mark.parametrize("rules", INACTIVE, ids=IDS)
def test_a_challengeable_wild_draw_four_offers_challenge_or_accept_only(rules: Rules) -> None:
    """Under ``wild_draw_four=challenge`` the victim of a +4 is current with 4 pending:
    they may challenge or accept, never deflect (a Skip/Reverse of the named colour) or pass
    it on with a Wild, and such a play is refused."""
    g = scenario(
        {"A": ["W4", "G1"], "B": ["RS", "RR", "W", "RD2", "W4", "Y4"], "C": ["Y1", "Y2"]},
        ["B9"],
        rules=rules,
    )
    g, _ = apply(g, "A", Play("W4", "R"))
    assert (g.phase, g.current, g.pending_draw) == (Phase.CHALLENGE, "B", 4)
    acts = legal_actions(g, "B")
    assert not [a for a in acts if isinstance(a, Play)]
    assert Challenge() in acts and Accept() in acts
    for play in (Play("RS"), Play("RR"), Play("W", "G"), Play("RD2"), Play("W4", "G")):
        with pytest.raises(IllegalAction) as info:
            apply(g, "B", play)
        assert info.value.code in (Code.CHALLENGE_OPEN, Code.CANNOT_STACK)
    g, ev = apply(g, "B", Accept())
    assert (g.current, len(g.hand("B"))) == ("C", 10)
    assert not any(isinstance(e, PenaltyPassed) for e in ev)


@pytest.mark.parametrize("rules", INACTIVE, ids=IDS)
def test_random_games_never_pass_or_stack_a_penalty(rules: Rules) -> None:
    """Whole games of random play: no listing ever holds a play on a pending penalty, and
    no penalty is ever passed on or stacked."""
    rnd = random.Random(9)
    for seed in range(3):
        g = new_game(["A", "B", "C", "D"], rules.model_copy(update={"target": 0}), seed)
        for _ in range(3000):
            if g.winner is not None:
                break
            cur = g.current
            if cur is not None and g.pending_draw:
                assert not [a for a in legal_actions(g, cur) if isinstance(a, Play)]
            player, action = choose_step(rnd, g)
            try:
                g, ev = apply(g, player, action)
            except IllegalAction:
                continue
            assert not any(isinstance(e, PenaltyPassed | PenaltyStacked) for e in ev)
        assert g.winner is not None
