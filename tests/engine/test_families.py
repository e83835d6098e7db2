"""The rule families of ``engine/play/`` (docs/engine.md, "Layout") agree with the listing.

Each family's ``can_*`` (``*_refusal is None``) is the one encoding of when its action is
allowed; ``legal_actions`` lists through it, with fast paths that must stay exact. Random
games under random flags check, at every step and for every seated player, that each
family's ``can_*`` says "yes" exactly for what is listed, that ``verify_*`` raises the
code ``apply`` raises, and that ``engine.play.core.verify``/``can`` agree with ``apply``.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Color,
    Draw,
    Game,
    IllegalAction,
    NextRound,
    Pass,
    Phase,
    Play,
    Rules,
    apply,
    legal_actions,
    new_game,
    scenario,
)
from engine.play import color, core, dealing, drawing, penalty, playing, uno
from tests.engine.strategies import (
    COLORS,
    choose_step,
    player_ids,
    random_action,
    random_player_count,
    random_rules,
)


def _code(fn: Any, *args: Any) -> str | None:
    try:
        fn(*args)
    except IllegalAction as exc:
        return exc.code.value
    return None


def _apply_code(game: Game, player: str, action: Any) -> str | None:
    try:
        apply(game, player, action)
    except IllegalAction as exc:
        return exc.code.value
    return None


def _check_families(game: Game, rnd: random.Random, where: str) -> None:
    for p in game.players:
        s = game.seat[p]
        listed = legal_actions(game, p)
        active = game.current is not None  # between rounds: only NextRound and Leave
        ctx = f"{where} player={p}"
        if active:
            assert drawing.can_draw(game, s) == (Draw() in listed), ctx
            assert drawing.can_pass(game, s) == (Pass() in listed), ctx
            assert penalty.can_accept(game, s) == (Accept() in listed), ctx
            assert penalty.can_challenge(game, s) == (Challenge() in listed), ctx
            assert uno.can_call_uno(game, s) == (CallUno() in listed), ctx
            for t in game.players:
                assert uno.can_catch_uno(game, s, t) == (CatchUno(t) in listed), ctx
            for c in COLORS:
                assert color.can_choose_color(game, s, c) == (ChooseColor(c) in listed), ctx
            plays = [a for a in listed if isinstance(a, Play)]
            found: list[Any] = []
            playing.list_plays(game, s, found)
            assert found == plays, ctx  # the plays, in listing order
            for a in plays:
                assert playing.can_play(game, s, a), ctx
            if game.phase is not Phase.CHOOSING_COLOR:
                turn: list[Any] = []
                drawing.list_draw_pass(game, s, bool(plays), turn)
                assert turn == [a for a in listed if isinstance(a, (Draw, Pass))], ctx
        else:
            assert dealing.can_next_round(game) == (NextRound() in listed), ctx
        # the verify of each family raises what apply raises
        for verify, action in (
            (drawing.verify_draw, Draw()),
            (drawing.verify_pass, Pass()),
            (penalty.verify_accept, Accept()),
            (penalty.verify_challenge, Challenge()),
            (uno.verify_call_uno, CallUno()),
        ):
            if active:
                assert _code(verify, game, s) == _apply_code(game, p, action), ctx
    for _ in range(12):  # any action, any player (or none seated): core agrees with apply
        action = random_action(rnd, game)
        p = rnd.choice([*game.players, "nobody"])
        code = _apply_code(game, p, action)
        assert core.can(game, p, action) == (code is None), f"{where} {p} {action!r}"
        assert _code(core.verify, game, p, action) == code, f"{where} {p} {action!r}"
        if isinstance(action, Play) and p in game.seat and game.current is not None:
            s = game.seat[p]
            assert _code(playing.verify_play, game, s, action) == code, f"{where} {action!r}"


def _play(rules: Rules, n: int, seed: int, steps: int = 250) -> None:
    game = new_game(player_ids(n), rules, seed)
    rnd = random.Random(seed)
    aux = random.Random(seed + 1)
    for step in range(steps):
        if game.winner is not None:
            return
        _check_families(game, aux, f"{rules.overrides()} n={n} seed={seed} step={step}")
        player, action = choose_step(rnd, game, leave=0.002, timeout=0.03)
        game, _ = apply(game, player, action)


@pytest.mark.parametrize("preset", ["official", "house", "party"])
def test_families_agree_with_the_listing_under_the_presets(preset: str) -> None:
    for seed in range(3):
        _play(Rules.preset(preset, target=0), 4, 300 + seed)


@pytest.mark.parametrize("chunk", range(4))
def test_families_agree_with_the_listing_under_random_flags(chunk: int) -> None:
    for i in range(6):
        seed = 1000 + chunk * 6 + i
        rnd = random.Random(seed)
        rules = random_rules(rnd, target=0)
        _play(rules, random_player_count(rnd, rules, 6), seed)


@pytest.mark.parametrize("w4", ["free", "challenge"])
def test_families_agree_on_a_plus_four_facing_a_skip_under_deflect_all(w4: str) -> None:
    """Issue 19 item 1: a +4 pending under deflect=all, its victim holding a Skip and a
    Reverse of the named colour: the listing, the families and apply agree (the Reverse
    sends it back, the Skip is no answer to a +4)."""
    rules = Rules(stacking="draw_four_on_two", deflect="all", wild_draw_four=w4)
    game = scenario(
        {"a": ["W4", "G1"], "b": ["BS", "BR", "Y4"], "c": ["G4", "G5"]}, ["R5"], rules=rules
    )
    game, _ = apply(game, "a", Play("W4", Color.BLUE))
    listed = legal_actions(game, "b")
    assert Play("BR") in listed and Play("BS") not in listed
    assert _apply_code(game, "b", Play("BS")) is not None
    assert not playing.can_play(game, game.seat["b"], Play("BS"))
    _check_families(game, random.Random(19), f"deflect=all wild_draw_four={w4}")
