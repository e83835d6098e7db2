"""Random playouts: whole games played by a biased random chooser, checked at every step.

Every step of every game (cheap checks, the bulk of the games):
- all cards are accounted for: hands + draw pile + discard == ``full_deck(decks)``;
- the chosen action (picked from the listing, or one of the documented unlisted
  forms, or a ``Timeout``) is accepted, and ``apply`` does not change the game it is given;
- a random action that is neither listed nor a documented unlisted form (near misses of
  listed plays included) is refused with ``IllegalAction`` and changes nothing;
- ``view(game, None).hand is None``; each player's view holds their own hand only (on
  tables of 5 or more: the actor's, the current player's and one more view per step);
- the public redaction of every event carries no card of a hand (``CardsDrawn.cards``,
  ``ChallengeResolved.hand`` are ``None``, ``RoundStarted.hands`` is empty), each player's
  redaction only their own; events themselves are complete;
- the state is consistent (``check_state``), scores only grow and a round's scoring is
  docs/rules.md's (``check_outcome``), the action did what it says (``check_step``);
- every 16 steps ``game_to_json`` -> ``game_from_json`` reproduces the game, the same
  next step on both gives the same JSON and events, and the game of 16 steps earlier
  was not changed by the later steps (copy-on-write).

The *deep* games do all of that at every step, compare ``game_to_json`` around every
refusal, and apply every listed action of every seated player (and the unlisted
forms of a listed play) to the same game, checking each result and the listing itself
(``check_listing``). Every game must end (``winner`` set) within a step bound.

``make test`` plays a derandomized sample of about 600 games; ``make soak`` (``-m soak``)
plays the rest of the same seeded lists (``test_soak_*_rest``) and about 8,000 more.
Failures name the rules (as overrides of ``official``), the players, the seed, the step
and the action; the choices do not depend on the checks, so
``play_game(rules, n, seed, deep=True)`` replays a failing game with every check.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import (
    CatchUno,
    Code,
    Game,
    IllegalAction,
    Leave,
    NextRound,
    Phase,
    Play,
    RoundStarted,
    Rules,
    Timeout,
    TurnTimedOut,
    apply,
    game_from_json,
    game_to_json,
    legal_actions,
    new_game,
    new_game_events,
)
from tests.engine.strategies import (
    PRESET_NAMES,
    UNKNOWN_IDS,
    check_cards,
    check_events,
    check_listing,
    check_outcome,
    check_state,
    check_step,
    check_views,
    choose_step,
    listed_form,
    player_ids,
    random_action,
    random_player_count,
    random_rules,
    valid_player_counts,
)

ROUND_TRIP_EVERY = 16  # cheap games: JSON round trip every this many steps
SINGLE_ROUND_BOUND = 6_000  # steps a one-round game (target=0) must end within
GAME_BOUND = 80_000  # steps a game to a target must end within


def bound_for(rules: Rules) -> int:
    bound = SINGLE_ROUND_BOUND if rules.target == 0 else GAME_BOUND
    # rounds in which fewer cards may be played last longer (a drawn action card kept; only
    # the +2's colour after it was taken)
    if rules.drawn_card == "number_only" or rules.after_penalty == "same_color":
        bound *= 2
    # places: a round goes on until one player is left holding cards (up to 19 go out)
    return bound * 4 if rules.places else bound


@dataclass
class Result:
    game: Game
    steps: int = 0
    rounds: int = 0
    trace: list[tuple[str, Any, list[Any], str]] = field(default_factory=list)


# ----------------------------------------------------------------------------- checks


class Where:
    """Where a check failed (formatted only when it does): the rules as overrides of
    ``official``, the players, the seed, the step and the action."""

    def __init__(self, rules: Rules, n: int, seed: int) -> None:
        self.rules, self.n, self.seed = rules, n, seed
        self.step = 0
        self.player: str | None = None
        self.action: Any = None

    def __repr__(self) -> str:
        text = (
            f"Rules.preset('official', **{self.rules.overrides()}) players={self.n} "
            f"seed={self.seed} step={self.step}"
        )
        if self.player is not None:
            text += f" {self.player!r} {self.action!r}"
        return text

    __str__ = __repr__


def refuse_unlisted(game: Game, rnd: random.Random, ctx: Any, *, compare: bool) -> None:
    """A random action that the contract does not accept is refused with IllegalAction."""
    for _ in range(30):
        action = random_action(rnd, game)
        if isinstance(action, Timeout):
            continue  # judged by its own rules, never listed
        player = rnd.choice([*game.players, rnd.choice(UNKNOWN_IDS)])
        if listed_form(game, player, action):
            continue
        before = game_to_json(game) if compare else ""
        try:
            apply(game, player, action)
        except IllegalAction as exc:
            assert isinstance(exc.code, Code), ctx
        else:
            raise AssertionError(f"unlisted {action!r} by {player!r} was accepted ({ctx})")
        if compare:
            assert game_to_json(game) == before, f"refused {action!r} changed the game ({ctx})"
        return


def check_every_listed(game: Game, rnd: random.Random, ctx: Any) -> None:
    """Every listed action of every seated player is accepted by ``apply`` (and the
    documented unlisted forms of listed plays too); the game itself never changes."""
    before = game_to_json(game)
    for p in game.players:
        listed = legal_actions(game, p)
        legal_actions(game, p).clear()  # the caller's list: changing it changes nothing
        assert legal_actions(game, p) == listed, ctx
        check_listing(game, p, listed, ctx)
        assert not any(isinstance(a, Timeout) for a in listed), ctx
        if game.phase is Phase.GAME_OVER:
            assert listed == [], ctx
        else:
            assert Leave() in listed, ctx
        if game.phase is Phase.ROUND_OVER:
            assert NextRound() in listed, ctx
        for q in game.exposed_players:
            if q != p:
                assert CatchUno(q) in listed, ctx
        for a in listed:
            try:
                new, events = apply(game, p, a)
            except IllegalAction as exc:
                raise AssertionError(f"listed {a!r} by {p!r} was refused: {exc} ({ctx})") from exc
            where = (ctx, "after listed", p, a)
            check_cards(new, where)
            check_state(new, where)
            check_outcome(game, new, events, where)
            check_step(game, p, a, new, events, where)
            check_events(events, [*game.players, *new.players], where)
        plays = [a for a in listed if isinstance(a, Play)]
        if plays:
            a = rnd.choice(plays)
            forms = [Play(a.card, a.color, a.target, a.together, uno=True)]
            if a.card.is_wild:
                forms.append(Play(a.card, None, a.target, a.together))
            elif a.color is a.card.color and any(c.color is not a.color for c in a.together):
                forms.append(Play(a.card, None, a.target, a.together))  # the lead's colour
            for form in forms:
                try:
                    apply(game, p, form)
                except IllegalAction as exc:
                    raise AssertionError(
                        f"documented unlisted {form!r} by {p!r} was refused: {exc} ({ctx})"
                    ) from exc
    assert game_to_json(game) == before, f"applying listed actions changed the game ({ctx})"


def check_round_trip(
    game: Game, text: str, player: str, action: Any, new: Game, events: list[Any], ctx: Any
) -> None:
    """The restored game is the same game and takes the same next step."""
    restored = game_from_json(text)
    assert game_to_json(restored) == text, ctx
    assert restored == game, ctx
    for p in game.players:
        assert legal_actions(restored, p) == legal_actions(game, p), (ctx, p)
    new2, events2 = apply(restored, player, action)
    assert game_to_json(new2) == game_to_json(new), f"restored game diverged ({ctx})"
    assert events2 == events, f"restored game's events differ ({ctx})"


def check_over(game: Game, ctx: Any) -> None:
    assert game.phase is Phase.GAME_OVER, ctx
    assert game.current is None, ctx
    assert game.winner is not None, ctx
    for p in game.players:
        assert legal_actions(game, p) == [], ctx
        for a in (Leave(), NextRound(), Timeout()):
            with pytest.raises(IllegalAction):
                apply(game, p, a)


# ---------------------------------------------------------------------------- playing


def play_game(
    rules: Rules,
    n: int,
    seed: int,
    *,
    deep: bool = False,
    record: bool = False,
    max_steps: int | None = None,
    leave: float = 0.001,
    timeout: float = 0.03,
) -> Result:
    """Play one game to its end with every check. ``deep``: also apply every listed
    action of every player, and round-trip JSON, at every step."""
    bound = bound_for(rules) if max_steps is None else max_steps
    players = player_ids(n)
    game, events = new_game_events(players, rules, seed)
    ctx = Where(rules, n, seed)
    assert game_to_json(new_game(players, rules, seed)) == game_to_json(game), ctx
    check_cards(game, ctx)
    check_state(game, ctx)
    check_views(game, ctx)
    check_events(events, game.players, ctx)
    result = Result(game, rounds=1)
    checkpoint = (game, game_to_json(game))
    rnd = random.Random(seed * 1_000_003 + n)  # the choices: the same game, deep or not
    aux = random.Random(seed)  # the checks' own randomness
    for step in range(1, bound + 1):
        if game.winner is not None:
            break
        ctx.step, ctx.player, ctx.action = step, None, None
        trip = deep or step % ROUND_TRIP_EVERY == 0
        # cheap games compare the state's dict (what game_to_json serialises) for speed
        before: Any = game_to_json(game) if trip else game.to_dict()
        refuse_unlisted(game, aux, ctx, compare=deep)
        player, action = choose_step(rnd, game, leave=leave, timeout=timeout)
        ctx.player, ctx.action = player, action
        if deep:
            check_every_listed(game, aux, ctx)
        try:
            new, events = apply(game, player, action)
        except IllegalAction as exc:
            raise AssertionError(f"chosen action refused: {exc} ({ctx})") from exc
        after = game_to_json(game) if trip else game.to_dict()
        assert after == before, f"apply changed its input, or a refusal did ({ctx})"
        if trip:
            check_round_trip(game, before, player, action, new, events, ctx)
            # copy-on-write: no later step may change an earlier game either
            old, old_text = checkpoint
            assert game_to_json(old) == old_text, f"a later apply changed an older game ({ctx})"
            checkpoint = (game, before)
        check_outcome(game, new, events, ctx)
        check_step(game, player, action, new, events, ctx)
        check_state(new, ctx)
        if isinstance(action, Timeout) and action.window == "turn":
            assert events[0] == TurnTimedOut(player, "turn"), ctx
        check_cards(new, ctx)
        if deep or len(new.players) <= 4:
            check_views(new, ctx)
        else:  # big tables: the actor, the current player and one more, every step
            check_views(new, ctx, [player, new.current or player, aux.choice(new.players)])
        check_events(events, [*game.players, *new.players], ctx)
        result.rounds += sum(isinstance(e, RoundStarted) for e in events)
        if record:
            result.trace.append((player, action, events, game_to_json(new)))
        game = new
        result.steps = step
    else:
        raise AssertionError(f"game did not end within {bound} steps ({ctx})")
    check_over(game, ctx)
    result.game = game
    return result


def play_many(
    cases: list[tuple[Rules, int, int]], *, deep: bool = False, **chooser: float
) -> list[Result]:
    return [play_game(r, n, seed, deep=deep, **chooser) for r, n, seed in cases]


def preset_cases(preset: str, games: int, full: int, base: int) -> list[tuple[Rules, int, int]]:
    """``games`` one-round games (target=0) and ``full`` games to the preset's target,
    with 2-10 players in turn."""
    one = Rules.preset(preset, target=0)
    whole = Rules.preset(preset)
    cases = [(one, 2 + i % 9, base + i) for i in range(games)]
    cases += [(whole, 2 + i % 9, base + games + i) for i in range(full)]
    return cases


def random_cases(games: int, base: int, most: int = 10) -> list[tuple[Rules, int, int]]:
    """Random flag combinations; small targets so that games stay short."""
    cases = []
    for i in range(games):
        seed = base + i
        rnd = random.Random(seed)
        r = random_rules(rnd, target=[0, 0, 0, 0, 30, 100])
        cases.append((r, random_player_count(rnd, r, most), seed))
    return cases


# ----------------------------------------------------------------------------- tests


# ``make test`` plays a derandomized sample of each family below (the first games of each
# seeded list); ``make soak`` plays the rest of the same lists (``test_soak_*_rest``), so the
# two together play every game ``make test`` used to play, and the soak's own depth besides.
PRESET_ONE, PRESET_FULL = 220, 4  # per preset: one-round games, games to the target
PRESET_SAMPLE = (40, 2)
FLAG_CHUNKS, FLAG_GAMES, FLAG_SAMPLE = 4, 260, 60
DEEP_PRESET, DEEP_FLAGS, DEEP_FLAGS_SAMPLE = (6, 1), 10, 4
CHAOTIC, CHAOTIC_SAMPLE, CHAOTIC_DEEP = 60, 20, 2


def preset_split(preset: str) -> tuple[list[tuple[Rules, int, int]], list[tuple[Rules, int, int]]]:
    """The preset's seeded games: the sample ``make test`` plays and the rest."""
    cases = preset_cases(preset, PRESET_ONE, PRESET_FULL, base=10_000)
    one, full = PRESET_SAMPLE
    sample = cases[:one] + cases[PRESET_ONE : PRESET_ONE + full]
    rest = cases[one:PRESET_ONE] + cases[PRESET_ONE + full :]
    return sample, rest


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_playouts(preset: str) -> None:
    """Per preset: 40 one-round games and 2 games to 500, cheap checks every step."""
    results = play_many(preset_split(preset)[0])
    assert all(r.game.winner is not None for r in results)
    assert any(r.rounds > 1 for r in results)  # the full game really played rounds


@pytest.mark.parametrize("chunk", range(FLAG_CHUNKS))
def test_random_flag_playouts(chunk: int) -> None:
    """Random flag combinations: 4 x 60 games, cheap checks every step."""
    cases = random_cases(FLAG_GAMES, base=100_000 + 1_000 * chunk)
    results = play_many(cases[:FLAG_SAMPLE])
    assert all(r.game.winner is not None for r in results)


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_preset_playouts_deep(preset: str) -> None:
    """Per preset: 6 one-round games and 1 game to 500 with every check at every step."""
    play_many(preset_cases(preset, *DEEP_PRESET, base=20_000), deep=True)


@pytest.mark.parametrize("chunk", range(2))
def test_random_flag_playouts_deep(chunk: int) -> None:
    """Random flag combinations, every check at every step: 2 x 4 games."""
    cases = random_cases(DEEP_FLAGS, base=200_000 + 1_000 * chunk)
    play_many(cases[:DEEP_FLAGS_SAMPLE], deep=True)


SAME_SEED_CASES = [
    (Rules(), 4, 42),
    (Rules.preset("house", target=100), 7, 43),
    (Rules.preset("party", target=100), 10, 44),
    *random_cases(8, base=300_000),
]


def test_chaotic_playouts() -> None:
    """Leaves (1% of steps) and timeouts (20%) far more often: 20 games, 2 of them deep."""
    cases = random_cases(CHAOTIC, base=250_000)
    play_many(cases[:CHAOTIC_SAMPLE], leave=0.01, timeout=0.2)
    play_many(cases[:CHAOTIC_DEEP], deep=True, leave=0.01, timeout=0.2)


@pytest.mark.parametrize(("rules", "n", "seed"), SAME_SEED_CASES)
def test_same_seed_same_game(rules: Rules, n: int, seed: int) -> None:
    """Same players + rules + seed: the identical game; the same choices: the identical
    sequence of events and states."""
    players = player_ids(n)
    assert game_to_json(new_game(players, rules, seed)) == game_to_json(
        new_game(players, rules, seed)
    )
    first = play_game(rules, n, seed, record=True)
    second = play_game(rules, n, seed, record=True)
    assert first.steps == second.steps
    assert first.trace == second.trace
    assert game_to_json(first.game) == game_to_json(second.game)
    # replaying the recorded choices on a fresh game gives the same events and states
    game = new_game(players, rules, seed)
    for player, action, events, text in first.trace:
        game, replayed = apply(game, player, action)
        assert replayed == events
        assert game_to_json(game) == text


def test_deep_mode_replays_the_same_game() -> None:
    """A failing cheap game can be replayed with ``deep=True``: the checks have their own
    randomness, so the choices (and the game) are the same."""
    for r, n, seed in random_cases(3, base=310_000):
        cheap = play_game(r, n, seed, record=True)
        deep = play_game(r, n, seed, record=True, deep=True)
        assert cheap.trace == deep.trace


def test_chooser_uses_every_kind_of_step() -> None:
    """The playouts exercise what they claim: jump-ins, catches, timeouts, leaves, the
    unlisted forms, challenges, stacking, swaps (a guard against a silent chooser)."""
    seen: Counter[str] = Counter()
    for r, n, seed in random_cases(300, base=400_000):
        game = new_game(player_ids(n), r, seed)
        rnd = random.Random(seed)
        for _ in range(bound_for(r)):
            if game.winner is not None:
                break
            player, action = choose_step(rnd, game, leave=0.003)
            kind = type(action).__name__
            if isinstance(action, Play):
                if player != game.current:
                    kind = "jump_in"
                elif action.uno:
                    kind = "play_uno"
                elif action.card.is_wild and action.color is None:
                    kind = "wild_no_color"
                elif action.target is not None:
                    kind = "swap"
                elif action.together:
                    kind = "together"
            elif isinstance(action, Timeout):
                kind = f"timeout_{action.window}"
            seen[kind] += 1
            game, events = apply(game, player, action)
            seen.update(type(e).__name__ for e in events)
    wanted = {
        "jump_in",
        "play_uno",
        "wild_no_color",
        "swap",
        "together",
        "timeout_turn",
        "timeout_uno",
        "Leave",
        "NextRound",
        "Challenge",
        "Accept",
        "Pass",
        "CatchUno",
        "CallUno",
        "ChooseColor",
        "UnoCaught",
        "UnoFalseAlarm",
        "ChallengeResolved",
        "PenaltyStacked",
        "PenaltyPassed",
        "HandsSwapped",
        "HandsRotated",
        "DeckReshuffled",
        "GameWon",
    }
    assert wanted <= set(seen), sorted(wanted - set(seen))


# ------------------------------------------------------------------------------ soak


@pytest.mark.soak
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_soak_preset_playouts_rest(preset: str) -> None:
    """The rest of ``test_preset_playouts``' seeded games (180 one-round, 2 to 500)."""
    results = play_many(preset_split(preset)[1])
    assert all(r.game.winner is not None for r in results)


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(FLAG_CHUNKS))
def test_soak_random_flag_playouts_rest(chunk: int) -> None:
    """The rest of ``test_random_flag_playouts``' seeded games: 4 x 200."""
    cases = random_cases(FLAG_GAMES, base=100_000 + 1_000 * chunk)
    results = play_many(cases[FLAG_SAMPLE:])
    assert all(r.game.winner is not None for r in results)


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(2))
def test_soak_random_flag_playouts_deep_rest(chunk: int) -> None:
    """The rest of ``test_random_flag_playouts_deep``' seeded games: 2 x 6, deep."""
    cases = random_cases(DEEP_FLAGS, base=200_000 + 1_000 * chunk)
    play_many(cases[DEEP_FLAGS_SAMPLE:], deep=True)


@pytest.mark.soak
def test_soak_chaotic_playouts_rest() -> None:
    """The rest of ``test_chaotic_playouts``' seeded games: 40 cheap, 2 more deep."""
    cases = random_cases(CHAOTIC, base=250_000)
    play_many(cases[CHAOTIC_SAMPLE:], leave=0.01, timeout=0.2)
    play_many(cases[CHAOTIC_DEEP:4], deep=True, leave=0.01, timeout=0.2)


@pytest.mark.soak
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_soak_preset_playouts(preset: str) -> None:
    """Per preset: 1,000 one-round games and 30 games to 500 (cheap checks), 20 + 2 deep."""
    play_many(preset_cases(preset, 1_000, 30, base=1_000_000))
    play_many(preset_cases(preset, 20, 2, base=2_000_000), deep=True)


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(6))
def test_soak_random_flag_playouts(chunk: int) -> None:
    """Random flag combinations: 6 x 550 games (cheap checks), 6 x 20 deep."""
    play_many(random_cases(550, base=3_000_000 + 10_000 * chunk))
    play_many(random_cases(20, base=4_000_000 + 10_000 * chunk), deep=True)


@pytest.mark.soak
@pytest.mark.parametrize("chunk", range(2))
def test_soak_chaotic_playouts(chunk: int) -> None:
    """Leaves and timeouts far more often: 2 x 600 games, 2 x 20 deep."""
    cases = random_cases(600, base=6_000_000 + 10_000 * chunk)
    play_many(cases, leave=0.01, timeout=0.2)
    play_many(cases[:20], deep=True, leave=0.01, timeout=0.2)


@pytest.mark.soak
def test_soak_two_decks_many_players() -> None:
    """Two decks (docs/rules.md flag ``decks``) with 11-20 players: 120 games, 6 deep."""
    cases = []
    for i in range(120):
        seed = 5_000_000 + i
        rnd = random.Random(seed)
        r = random_rules(rnd, decks=2, partners=False, target=[0, 0, 50])
        counts = [c for c in valid_player_counts(r) if c > 10] or valid_player_counts(r)
        cases.append((r, rnd.choice(counts), seed))
    play_many(cases)
    play_many(cases[:6], deep=True)
