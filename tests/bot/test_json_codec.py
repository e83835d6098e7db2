"""Actions as JSON (the action log, and what adapters decode from buttons): every action the
engine lists survives the round trip; anything malformed is a ``ValueError``/``KeyError``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bot.json_codec import action_from_dict, action_to_dict
from engine import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    Leave,
    NextRound,
    Pass,
    Phase,
    Play,
    Rules,
    Timeout,
    apply,
    legal_actions,
    new_game,
)

SIMPLE = [Draw(), Pass(), Accept(), Challenge(), CallUno(), Leave(), NextRound()]
OTHERS = [
    ChooseColor("G"),
    CatchUno("u2"),
    Timeout(),
    Timeout(window="uno"),
    Play("R5"),
    Play("W", color="B"),
    Play("W4", uno=True),
    Play("R7", target="u3"),
    Play("Y2", together=("Y2",)),
    Play("G3", color="R", together=("R3", "B3"), uno=True),
]


@pytest.mark.parametrize("action", SIMPLE + OTHERS, ids=repr)
def test_round_trip(action: Any) -> None:
    d = action_to_dict(action)
    assert json.loads(json.dumps(d)) == d  # plain JSON
    assert action_from_dict(json.loads(json.dumps(d))) == action


@pytest.mark.parametrize("preset", ["official", "house", "party"])
def test_every_listed_action_of_whole_games_round_trips(preset: str) -> None:
    rng = random.Random(preset)
    rules = Rules.preset(preset, target=0)
    seen: set[str] = set()
    for seed in range(6):
        g = new_game([f"p{i}" for i in range(rng.randint(2, 8))], rules, seed=seed)
        for step in range(400):  # a uniform random seat draws a lot: enough of a game
            if g.phase is Phase.GAME_OVER:
                break
            who = g.players if step % 4 == 0 else [g.current]
            for a in (a for p in who if p is not None for a in legal_actions(g, p)):
                seen.add(type(a).__name__)
                assert action_from_dict(json.loads(json.dumps(action_to_dict(a)))) == a
            cur = g.current
            assert cur is not None
            acts = [a for a in legal_actions(g, cur) if not isinstance(a, Leave)]
            plays = [a for a in acts if isinstance(a, Play)]
            g, _ = apply(g, cur, rng.choice(plays or acts))
    assert {"Play", "Draw", "Leave"} <= seen


GARBAGE: list[Any] = [
    None,
    "Draw",
    42,
    ["Draw"],
    {},
    {"type": None},
    {"type": ["Draw"]},
    {"type": "Nope"},
    {"type": "draw"},
    {"type": "Play"},
    {"type": "Play", "card": "Z9"},
    {"type": "Play", "card": "r5"},
    {"type": "Play", "card": 5},
    {"type": "Play", "card": None},
    {"type": "Play", "card": "W", "color": "purple"},
    {"type": "Play", "card": "R7", "target": 7},
    {"type": "Play", "card": "R5", "together": 5},
    {"type": "Play", "card": "R5", "together": "R5"},
    {"type": "Play", "card": "R5", "together": [None]},
    {"type": "Play", "card": "R5", "together": ["X1"]},
    {"type": "ChooseColor"},
    {"type": "ChooseColor", "color": "W"},
    {"type": "ChooseColor", "color": None},
    {"type": "CatchUno"},
    {"type": "CatchUno", "target": None},
    {"type": "CatchUno", "target": {"id": 1}},
    {"type": "Timeout", "window": "forever"},
]


@pytest.mark.parametrize("data", GARBAGE, ids=repr)
def test_garbage_is_refused(data: Any) -> None:
    with pytest.raises((ValueError, KeyError)):
        action_from_dict(data)
