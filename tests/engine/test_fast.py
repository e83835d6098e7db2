"""``engine.fast.FastRound`` against ``legal_actions`` and ``apply``, step for step.

Random rounds under random flags (those ``fast.supported`` takes), every seat's plays
listed by both at every step, then one action picked among everyone's (jump-ins, stacks,
challenges, draws, passes, colours) and applied to both: the two states must be the
same (every hand in its order, both piles in their order, the colour, turn, direction,
phase, penalty, challenge, drawn card, the RNG). UNO calls and catches are not modelled
by the fast path: the plays leaving one card are made with the call.
"""

from __future__ import annotations

import random

import pytest

from engine import (
    COLORS,
    Accept,
    Action,
    Challenge,
    ChooseColor,
    Draw,
    Game,
    Pass,
    Phase,
    Play,
    Rules,
    apply,
    leaves_one_card,
    legal_actions,
    new_game,
    scenario,
)
from engine.cards import ALL_CARDS
from engine.fast import CHALLENGE, CHOOSING, OVER, PLAYING, FastRound, Move, supported
from tests.engine.strategies import random_rules, valid_player_counts

_UNSUPPORTED = {"swap": "off", "after_penalty": "any", "places": False}


def _rules(rnd: random.Random) -> Rules:
    r = random_rules(
        rnd, **_UNSUPPORTED, multi_play=["off", "identical"], hand_size=rnd.randint(3, 8)
    )
    assert supported(r)
    return r


def _play(m: Move) -> Play:
    card, extra, color = m
    c = ALL_CARDS[card]
    return Play(c, COLORS[color] if color >= 0 else None, None, (c,) * extra)


def _engine_plays(g: Game, p: str) -> set[Play]:
    return {a for a in legal_actions(g, p) if isinstance(a, Play)}


def _same(g: Game, f: FastRound, ctx: str) -> None:
    assert [[c.order for c in h] for h in g.hands] == f.hands, ctx
    assert [c.order for c in g.draw_pile] == f.draw, ctx
    assert [c.order for c in g.discard] == f.discard, ctx
    assert g.rng.state == f.rng.state, ctx
    if g.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        assert f.phase == OVER, ctx
        assert g.round_winner is not None
        assert f.winner == g.seat[g.round_winner], ctx
        return
    phase = {Phase.PLAYING: PLAYING, Phase.CHOOSING_COLOR: CHOOSING, Phase.CHALLENGE: CHALLENGE}
    assert phase[g.phase] == f.phase, ctx
    assert f.winner == -1, ctx
    color = COLORS.index(g.color) if g.color is not None else -1
    assert (g.cur, g.direction, color) == (f.cur, f.direction, f.color), ctx
    assert g.pending == f.pending, ctx
    kind = {None: -1, "D2": 12, "W4": 14}[g.pending_kind.value if g.pending_kind else None]
    assert kind == f.pkind, ctx
    seat = g.seat
    assert (seat[g.pending_from] if g.pending_from else -1) == f.pfrom, ctx
    assert (seat[g.pending_by] if g.pending_by else -1) == f.pby, ctx
    if g.phase is Phase.CHALLENGE:
        assert g.challenge is not None
        assert (seat[g.challenge[0]], g.challenge[1]) == (f.chal_off, f.chal_legal), ctx
    assert (g.drawn.order if g.drawn else -1) == f.drawn, ctx
    assert (g.first_play, g.stalled) == (f.first_play, f.stalled), ctx


def _moves(g: Game, f: FastRound, ctx: str) -> list[tuple[int, Action, object]]:
    """Every seat's plays (and the current player's other actions), checked against the
    engine's listing; each with the fast path's twin."""
    out: list[tuple[int, Action, object]] = []
    for s, p in enumerate(g.players):
        plays = f.plays(s)
        assert {_play(m) for m in plays} == _engine_plays(g, p), (ctx, p)
        assert len(set(plays)) == len(plays), (ctx, p)
        out.extend((s, _play(m), m) for m in plays)
    cur = f.cur
    acts = legal_actions(g, g.players[cur])
    assert (Draw() in acts) == f.may_draw(), ctx
    assert (Pass() in acts) == f.may_pass(), ctx
    assert (Accept() in acts) == (f.phase == CHALLENGE or (f.phase == PLAYING and f.pending > 0))
    assert (Challenge() in acts) == (f.phase == CHALLENGE), ctx
    assert (ChooseColor(COLORS[0]) in acts) == (f.phase == CHOOSING), ctx
    for a in acts:
        if isinstance(a, Draw | Pass | Accept | Challenge | ChooseColor):
            out.append((cur, a, a))
    return out


def _step(f: FastRound, s: int, twin: object) -> None:
    if isinstance(twin, tuple):
        card, extra, color = twin
        f.play(s, card, extra, color)
    elif isinstance(twin, Draw):
        f.do_draw(s)
    elif isinstance(twin, Pass):
        f.do_pass(s)
    elif isinstance(twin, Accept):
        f.accept(s)
    elif isinstance(twin, Challenge):
        f.do_challenge(s)
    elif isinstance(twin, ChooseColor):
        f.choose_color(COLORS.index(twin.color))
    else:  # pragma: no cover
        raise AssertionError(twin)


def play_round(rules: Rules, n: int, seed: int, rnd: random.Random) -> int:
    """One round, checked at every step; the steps played."""
    ids = [f"p{i}" for i in range(n)]
    g = new_game(ids, rules, seed=seed)
    f = FastRound.from_game(g)
    steps = 0
    while True:
        ctx = f"{rules.overrides()} n={n} seed={seed} step={steps}"
        _same(g, f, ctx)
        if f.phase == OVER:
            return steps
        moves = _moves(g, f, ctx)
        # mostly the current player (a jump-in now and then), plays preferred to draws
        mine = [m for m in moves if m[0] == f.cur]
        pool = moves if rnd.random() < 0.3 else mine
        plays = [m for m in pool if isinstance(m[1], Play)]
        s, action, twin = rnd.choice(plays if plays and rnd.random() < 0.8 else pool)
        p = g.players[s]
        if isinstance(action, Play) and leaves_one_card(rules, g.hand_size(p), action):
            action = Play(action.card, action.color, None, action.together, uno=True)
        g, _ = apply(g, p, action)
        _step(f, s, twin)
        steps += 1
        if steps >= 1500:  # random choices may draw for long: enough checked
            _same(g, f, ctx)
            return steps


@pytest.mark.parametrize("chunk", range(2))
def test_fast_round_is_apply_step_for_step(chunk: int) -> None:
    rnd = random.Random(f"fast{chunk}")
    steps = 0
    for seed in range(60):
        rules = _rules(rnd)
        n = rnd.choice(valid_player_counts(rules, 7))
        steps += play_round(rules, n, seed, rnd)
    assert steps > 2000


@pytest.mark.parametrize("preset", ["official", "house"])
def test_fast_round_under_the_presets(preset: str) -> None:
    rnd = random.Random(preset)
    for seed in range(40):
        play_round(Rules.preset(preset, target=0), rnd.choice((2, 3, 4, 6)), seed, rnd)


@pytest.mark.soak
def test_fast_round_soak() -> None:
    rnd = random.Random("fast-soak")
    for seed in range(3000):
        rules = _rules(rnd)
        play_round(rules, rnd.choice(valid_player_counts(rules, 10)), seed, rnd)


def test_empty_piles_block_the_round_as_apply_does() -> None:
    g = scenario({"a": ["R5", "G7", "B2"], "b": ["Y6", "B1"]}, ["G1", "R1"], fill=False)
    f = FastRound.from_game(g)
    rnd = random.Random(0)
    steps = 0
    while f.phase != OVER:
        moves = _moves(g, f, "blocked")
        s, action, twin = rnd.choice([m for m in moves if isinstance(m[1], Draw)] or moves)
        g, _ = apply(g, g.players[s], action)
        _step(f, s, twin)
        _same(g, f, "blocked")
        steps += 1
        assert steps < 50
    assert g.phase is Phase.ROUND_OVER and f.stalled == 2  # both found the piles empty


def test_unsupported_rules_are_refused() -> None:
    g = new_game(["a", "b"], Rules(swap="seven_zero"))
    assert not supported(g.rules)
    with pytest.raises(ValueError):
        FastRound.from_game(g)
