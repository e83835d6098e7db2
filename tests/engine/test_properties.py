"""Property tests (hypothesis) of the engine's public contract (docs/ENGINE.md).

- ``Card.parse`` round-trips every code and refuses everything else with ``ValueError``;
  ``Color.parse`` likewise for colour codes and names.
- ``Rules``: every valid combination of the flags of docs/rules.md section 2 constructs;
  ``Rules.preset(name, **overrides)`` with random overrides either constructs or raises
  ``ValueError`` (never another exception); contradictions are refused.
- ``apply`` on arbitrary actions, on games reached by random play: it either raises
  ``IllegalAction`` (and the game's JSON is unchanged) or the action is listed by
  ``legal_actions`` (or is one of the documented unlisted forms, or a ``Timeout``
  that is due). Never another exception type.
"""

from __future__ import annotations

import random
import string
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine import (
    Card,
    ChooseColor,
    Code,
    Color,
    Game,
    IllegalAction,
    Phase,
    Play,
    Rules,
    Timeout,
    apply,
    full_deck,
    game_to_json,
    legal_actions,
    new_game,
    scenario,
    view,
)
from tests.engine.strategies import (
    ALL_CARDS,
    ALL_FLAGS,
    CARD_CODES,
    CHOICE_FLAGS,
    COLORS,
    INT_FLAGS,
    NEEDS_STACKING,
    PRESET_NAMES,
    UNKNOWN_IDS,
    actions,
    card_codes,
    cards,
    check_cards,
    check_events,
    check_listing,
    check_outcome,
    check_state,
    check_step,
    check_views,
    choose_step,
    listed_form,
    player_counts,
    player_ids,
    rules,
)

FAST = settings(max_examples=200, deadline=None)
# random reached games: 400 in ``make test`` (derandomized), 8,000 in the soak (SOAK below)
GAMES = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ------------------------------------------------------------------------------ cards


def test_every_code_round_trips() -> None:
    """The 54 codes of docs/rules.md: colour + 0-9/S/R/D2 and W, W4."""
    expected = {c + r for c in "RYGB" for r in [*"0123456789", "S", "R", "D2"]} | {"W", "W4"}
    assert set(CARD_CODES) == expected
    for code in expected:
        card = Card.parse(code)
        assert str(card) == code
        assert Card.parse(str(card)) is card
        assert (card.color is None) == (code in ("W", "W4"))
        if card.color is not None:
            assert card.color.value == code[0]


@given(card_codes())
def test_card_parse_round_trip(code: str) -> None:
    card = Card.parse(code)
    assert str(card) == code
    assert Card.parse(card) is card
    assert Card.parse(str(card)) == card
    assert hash(Card.parse(code)) == hash(card)


@given(cards())
def test_card_str_parse_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) is card
    assert str(card) in CARD_CODES


NEAR_CODES = st.from_regex(r"\A[RYGBWXrygbw ]{0,2}[0-9SRDWsrdw]{0,3}[24 ]?\Z")


@FAST
@given(st.one_of(st.text(), NEAR_CODES, st.text(alphabet="RYGBWSD0123456789", max_size=4)))
def test_card_parse_rejects_other_text(text: str) -> None:
    """Anything that is not exactly a card code is refused with ValueError."""
    if text in CARD_CODES:
        assert str(Card.parse(text)) == text
        return
    with pytest.raises(ValueError):
        Card.parse(text)


@pytest.mark.parametrize("text", ["r5", "gs", "w4", " R5", "R5 ", "\tW\n", "yd2"])
def test_card_parse_rejects_non_canonical_codes(text: str) -> None:
    """ENGINE.md: ``Card.parse`` round-trips the codes of docs/rules.md and "raises
    ``ValueError`` on anything else" - a lower-case or padded code is something else."""
    with pytest.raises(ValueError):
        Card.parse(text)


@given(st.one_of(st.none(), st.integers(), st.floats(), st.binary(), st.lists(card_codes())))
def test_card_parse_rejects_non_text(value: Any) -> None:
    with pytest.raises(ValueError):
        Card.parse(value)


def test_full_deck() -> None:
    one = full_deck()
    assert len(one) == 108
    counts = Counter(str(c) for c in one)
    for code in CARD_CODES:
        if code in ("W", "W4"):
            assert counts[code] == 4
        elif code.endswith("0") and len(code) == 2:
            assert counts[code] == 1
        else:
            assert counts[code] == 2
    assert Counter(full_deck(2)) == Counter(one + one)
    assert set(full_deck()) == set(ALL_CARDS)


COLOR_WORDS = {c: (c.value, c.name) for c in COLORS}


@given(st.sampled_from(COLORS), st.sampled_from(["code", "name", "lower", "member"]))
def test_color_parse(color: Color, form: str) -> None:
    text: Any = {
        "code": color.value,
        "name": color.name,
        "lower": color.name.lower(),
        "member": color,
    }[form]
    assert Color.parse(text) is color
    assert str(color) == color.value


@FAST
@given(st.one_of(st.text(), st.text(alphabet="RYGBredyllowgnbuRED", max_size=7)))
def test_color_parse_rejects_other_text(text: str) -> None:
    accepted = {w.upper() for c in COLORS for w in COLOR_WORDS[c]}
    if text.strip().upper() in accepted:
        assert Color.parse(text) in COLORS
        return
    with pytest.raises(ValueError):
        Color.parse(text)


@given(st.one_of(st.none(), st.integers(), st.binary(), cards()))
def test_color_parse_rejects_non_text(value: Any) -> None:
    with pytest.raises(ValueError):
        Color.parse(value)


# ------------------------------------------------------------------------------ rules


@FAST
@given(rules())
def test_valid_rules_construct(r: Rules) -> None:
    dumped = r.model_dump()
    assert set(dumped) == set(ALL_FLAGS)  # every flag of docs/rules.md section 2, no other
    assert Rules(**dumped) == r
    assert Rules.model_validate(r.to_json_dict()) == r
    for name in PRESET_NAMES:
        assert Rules.preset(name, **r.overrides(name)) == r
    with pytest.raises(ValueError):  # immutable
        r.stacking = "any"  # type: ignore[misc]


def test_presets_and_defaults() -> None:
    assert Rules() == Rules.preset("official")
    assert Rules.preset("official").matching_preset() == "official"
    house = Rules.preset("house")
    assert (house.stacking, house.deflect, house.jump_in, house.multi_play) == (
        "draw_four_on_two",
        "draw_two",  # True before issue 14, which made deflect off / draw_two / all
        True,
        "identical",
    )
    assert (house.wild_on_penalty, house.last_card, house.uno_penalty) == (
        False,
        "number_only",
        2,
    )
    party = Rules.preset("party")
    assert party.overrides("house") == {"swap": "seven_zero", "draw": "until_playable"}


VALUES = st.one_of(
    *(st.sampled_from(v) for v in CHOICE_FLAGS.values()),
    st.booleans(),
    st.integers(-5, 20),
    st.integers(),
    st.text(max_size=12),
    st.none(),
    st.floats(allow_nan=True),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def _mostly(often: st.SearchStrategy[Any], rarely: st.SearchStrategy[Any]) -> Any:
    """``often`` nine times in ten, else ``rarely`` (``one_of`` would pick evenly)."""
    return st.integers(0, 9).flatmap(lambda i: rarely if i == 9 else often)


# "name" would clash with preset's own parameter: a TypeError of the call, not of a flag
UNKNOWN_FLAGS = st.text(string.ascii_lowercase + "_", min_size=1, max_size=12).filter(
    lambda k: k not in ALL_FLAGS and k != "name"
)
FLAG_NAMES = _mostly(st.sampled_from(ALL_FLAGS), UNKNOWN_FLAGS)
PRESET_ARG = _mostly(st.sampled_from(PRESET_NAMES), st.text(max_size=10))


def _valid_value(flag: str) -> st.SearchStrategy[Any]:
    if flag in CHOICE_FLAGS:
        return st.sampled_from(CHOICE_FLAGS[flag])
    if flag in INT_FLAGS:
        lo, hi = INT_FLAGS[flag]
        return st.integers(lo, hi)
    return st.sampled_from(NEEDS_STACKING[flag])


@st.composite
def overrides_dicts(draw: Any) -> dict[str, Any]:
    """Flag overrides: mostly known flags with values valid for them, sometimes junk."""
    out: dict[str, Any] = {}
    for _ in range(draw(st.integers(0, 6))):
        flag = draw(FLAG_NAMES)
        valid = flag in ALL_FLAGS and draw(st.integers(0, 9)) < 9
        out[flag] = draw(_valid_value(flag) if valid else VALUES)
    return out


@settings(max_examples=1000, deadline=None)
@given(PRESET_ARG, overrides_dicts())
def test_preset_with_random_overrides(name: str, overrides: dict[str, Any]) -> None:
    """Either a valid Rules, or ValueError: never another exception."""
    try:
        r = Rules.preset(name, **overrides)
    except ValueError:
        event("refused")
        return
    event("constructed")
    assert isinstance(r, Rules)
    assert name in PRESET_NAMES
    assert set(overrides) <= set(ALL_FLAGS)
    for flag, (lo, hi) in INT_FLAGS.items():
        assert lo <= getattr(r, flag) <= hi
    for flag, options in CHOICE_FLAGS.items():
        assert getattr(r, flag) in options


@FAST
@given(
    rules(stacking="off", deflect="off", wild_on_penalty=False),
    st.sampled_from([{"deflect": "draw_two"}, {"deflect": "all"}, {"wild_on_penalty": True}]),
)
def test_flags_that_need_stacking_are_accepted_without_it(r: Rules, more: dict[str, bool]) -> None:
    """deflect and wild_on_penalty act on a stacked penalty (docs/rules.md section 2); without
    stacking they are accepted and have nothing to act on (issue 9 item 2)."""
    assert Rules(**{**r.model_dump(), **more}).model_dump() == {**r.model_dump(), **more}
    assert Rules.preset("official", **{**r.overrides(), **more}) == Rules(
        **{**r.model_dump(), **more}
    )


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("official", {"hand_size": 2}),
        ("official", {"hand_size": 16}),
        ("official", {"uno_penalty": 9}),
        ("official", {"uno_penalty": -1}),
        ("official", {"decks": 3}),
        ("official", {"stacking": "sometimes"}),
        ("official", {"no_such_flag": True}),
        ("no_such_preset", {}),
    ],
)
def test_invalid_rules_rejected(preset: str, overrides: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        Rules.preset(preset, **overrides)


# ----------------------------------------------------------------------------- apply


WANTS: dict[str, Any] = {
    "any": lambda g: True,
    "challenge": lambda g: g.phase is Phase.CHALLENGE,
    "penalty": lambda g: g.pending_draw > 0,
    "choosing": lambda g: g.phase is Phase.CHOOSING_COLOR,
    "round_over": lambda g: g.phase is Phase.ROUND_OVER,
    "drawn": lambda g: g.drawn_card is not None,
    "exposed": lambda g: bool(g.exposed_players),
}


def reach(
    r: Rules, n: int, seed: int, steps: int, *, want: str = "any", finished: bool = False
) -> Game:
    """The game after ``steps`` steps of biased random play, continued (a while) until a
    state of the ``want`` kind; if the game ended first, the state just before its end
    (or, with ``finished``, the finished game)."""
    game = new_game(player_ids(n), r, seed)
    rnd = random.Random(seed)
    wanted = WANTS[want]
    for step in range(steps + 3_000):
        if step >= steps and wanted(game):
            break
        player, action = choose_step(rnd, game, leave=0.003, timeout=0.05)
        new, _ = apply(game, player, action)
        if new.winner is not None and not finished:
            break
        game = new
        if game.winner is not None:
            break
    return game


def check_apply(game: Game, player: str, action: Any) -> None:
    """Refused with IllegalAction and nothing changed, or accepted because the contract
    says so. Any other exception fails the test by propagating."""
    before = game_to_json(game)
    listed = listed_form(game, player, action)
    try:
        new, events = apply(game, player, action)
    except IllegalAction as exc:
        assert isinstance(exc.code, Code)
        assert game_to_json(game) == before, "a refused apply changed the game"
        assert not listed, f"listed {action!r} by {player!r} was refused: {exc}"
        event(f"refused: {exc.code.value}")
        return
    assert game_to_json(game) == before, "apply changed the game it was given"
    assert isinstance(events, list)
    where = (player, action)
    check_cards(new, where)
    check_state(new, where)
    check_outcome(game, new, events, where)
    check_step(game, player, action, new, events, where)
    check_views(new, where)
    check_events(events, [*game.players, *new.players], where)
    event(f"accepted: {type(action).__name__}")
    if isinstance(action, Timeout):
        # a due timeout: the current player's turn, or a catch window open on the player
        if action.window == "turn":
            assert player == game.current, f"Timeout() accepted from {player!r}"
        else:
            assert action.window == "uno", f"Timeout({action.window!r}) accepted"
            assert player in game.exposed_players, "uno timeout accepted with no window"
        return
    assert listed, f"unlisted {action!r} by {player!r} was accepted ({events})"


def apply_refuses_or_lists(data: st.DataObject) -> None:
    r = data.draw(rules(target=st.sampled_from([0, 0, 100, 500])), label="rules")
    n = data.draw(player_counts(r, most=10), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    steps = data.draw(st.integers(0, 250), label="steps")
    want = data.draw(st.sampled_from(list(WANTS)), label="want")
    finished = data.draw(st.integers(0, 19), label="finished") == 19
    game = reach(r, n, seed, steps, want=want, finished=finished)
    event(f"phase: {game.phase.value}")
    who = [*game.players, UNKNOWN_IDS[0]]
    if game.current is not None:
        who += [game.current] * len(game.players)
    for _ in range(data.draw(st.integers(1, 12), label="actions")):
        action = data.draw(actions(game), label="action")
        player = data.draw(st.sampled_from(who), label="player")
        check_apply(game, player, action)


def listed_actions_are_accepted(data: st.DataObject) -> None:
    r = data.draw(rules(target=st.sampled_from([0, 100])), label="rules")
    n = data.draw(player_counts(r, most=10), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    steps = data.draw(st.integers(0, 400), label="steps")
    want = data.draw(st.sampled_from(list(WANTS)), label="want")
    finished = data.draw(st.integers(0, 9), label="finished") == 9
    game = reach(r, n, seed, steps, want=want, finished=finished)
    event(f"phase: {game.phase.value}")
    before = game_to_json(game)
    for p in game.players:
        listed = legal_actions(game, p)
        check_listing(game, p, listed, (r, n, seed, steps, p))
        if game.phase is Phase.GAME_OVER:
            assert listed == []
        for a in listed:
            assert not isinstance(a, Timeout)
            apply(game, p, a)
    assert game_to_json(game) == before


@GAMES
@given(st.data())
def test_apply_refuses_or_lists(data: st.DataObject) -> None:
    """Arbitrary actions on random states: IllegalAction (nothing changed), or listed."""
    apply_refuses_or_lists(data)


@GAMES
@given(st.data())
def test_listed_actions_of_reached_games_are_accepted(data: st.DataObject) -> None:
    """The converse, on random states: everything listed for anyone is accepted, and a
    finished game lists nothing."""
    listed_actions_are_accepted(data)


def test_pending_draw_is_zero_while_the_stacker_names_the_colour() -> None:
    """ENGINE.md: ``game.pending_draw`` is "cards the current player must draw or stack
    on, 0 if none" (docs/engine.md: "the total the current player faces"). A player who
    stacked a W4 without naming its colour is current while naming it, and faces nothing."""
    game = scenario(
        {"a": ["YD2", "R1"], "b": ["W4", "G5", "G6"], "c": ["B1", "B2"]},
        ["GD2"],
        draw_pile=["B5", "B6", "B7", "B8", "B9", "G1", "G2", "G3"],
        rules=Rules.preset("house"),
    )
    game, _ = apply(game, "a", Play("YD2"))
    assert (game.current, game.pending_draw) == ("b", 2)
    game, _ = apply(game, "b", Play("W4"))  # stacked, the colour still to be named
    assert (game.current, game.phase) == ("b", Phase.CHOOSING_COLOR)
    assert game.pending_draw == 0
    assert view(game, None).pending_draw == 0
    game, _ = apply(game, "b", ChooseColor("G"))
    assert (game.current, game.pending_draw) == ("c", 6)


@settings(GAMES, max_examples=300)
@given(st.data())
def test_pending_draw_is_faced_by_the_current_player(data: st.DataObject) -> None:
    """The same on random states: while a colour is named nobody faces a penalty."""
    r = data.draw(rules(stacking=st.sampled_from(["draw_two", "draw_four_on_two", "any"])))
    n = data.draw(player_counts(r, most=10), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    steps = data.draw(st.integers(0, 200), label="steps")
    game = reach(r, n, seed, steps, want="choosing")
    if game.phase is Phase.CHOOSING_COLOR:
        assert game.pending_draw == 0


SOAK = settings(GAMES, max_examples=8_000)


@pytest.mark.soak
@SOAK
@given(st.data())
def test_soak_apply_refuses_or_lists(data: st.DataObject) -> None:
    apply_refuses_or_lists(data)


@pytest.mark.soak
@SOAK
@given(st.data())
def test_soak_listed_actions_of_reached_games_are_accepted(data: st.DataObject) -> None:
    listed_actions_are_accepted(data)
