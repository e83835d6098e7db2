"""Rules defaults, the presets of docs/rules.md section 3, and validation of the flags
(section 2)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine import Rules, new_game

OFFICIAL = {
    "stacking": "off",
    "deflect": "off",  # a yes/no before issue 14: False still reads as "off"
    "jump_in": False,
    "multi_play": "off",
    "swap": "off",
    "draw": "one",
    "force_play": False,
    "wild_draw_four": "challenge",
    "guilty_challenger": "plays",
    "wild_on_penalty": False,
    "last_card": "any",
    "first_play_number": False,
    "uno_penalty": 2,
    "false_uno_penalty": 0,
    "scoring": "winner_takes",
    "card_points": "standard",
    "target": 500,
    "partners": False,
    "two_player": "official",
    "decks": 1,
    "hand_size": 7,
    "dealer": "draw_high",
    "turn_seconds": 60,
    "afk_strikes": 3,
    "uno_window_seconds": 5,
    "challenge_seconds": 20,
    # issue 14
    "draw_four_when": "no_color",
    "after_penalty": "any",
    "drawn_card": "any",
    "uno_call": "after_play",
    "color_timeout": "random",
    "places": False,
    "start_reverse": "dealer",
    # issue 22 (the service's: what happens to a player whose turn times out)
    "absent": "remove",
}

HOUSE = {
    **OFFICIAL,
    "stacking": "draw_four_on_two",
    "deflect": "draw_two",  # True before issue 14
    "jump_in": True,
    "multi_play": "identical",
    "wild_on_penalty": False,
    "last_card": "number_only",
    "uno_penalty": 2,
}

PARTY = {**HOUSE, "swap": "seven_zero", "draw": "until_playable"}


def _dump(rules: Rules) -> dict[str, object]:
    return {k: getattr(rules, k) for k in OFFICIAL}


# ------------------------------------------------------------------- defaults and presets


def test_rules_defaults_are_the_official_rules() -> None:
    """docs/rules.md s2: every flag is off / official by default (values in brackets)."""
    assert _dump(Rules()) == OFFICIAL


def test_rules_has_exactly_the_flags_of_section_2() -> None:
    """ENGINE.md: Rules holds every flag of docs/rules.md section 2, and nothing else."""
    assert set(Rules.model_fields) == set(OFFICIAL)


def test_preset_official_equals_defaults() -> None:
    """docs/rules.md s3: official is section 1 with all flags at their defaults."""
    assert Rules.preset("official") == Rules()
    assert _dump(Rules.preset("official")) == OFFICIAL


def test_preset_without_name_is_official() -> None:
    """ENGINE.md: Rules.preset() defaults to the official rules."""
    assert Rules.preset() == Rules()


def test_preset_house_exact_values() -> None:
    """docs/rules.md s3: house = draw_four_on_two, deflect, jump_in, identical, no wild on penalty,
    number_only, uno_penalty 2; everything else official."""
    assert _dump(Rules.preset("house")) == HOUSE


def test_preset_party_exact_values() -> None:
    """docs/rules.md s3: party = house plus swap=seven_zero and draw=until_playable."""
    assert _dump(Rules.preset("party")) == PARTY


@pytest.mark.parametrize("name", ["official", "house", "party"])
def test_every_preset_deals_a_game(name: str) -> None:
    """docs/rules.md s3: each preset is a playable rule set (a game can be dealt with it)."""
    g = new_game(["a", "b", "c", "d"], Rules.preset(name), seed=3)
    assert g.rules == Rules.preset(name)
    assert all(len(g.hand(p)) >= 7 for p in g.players)


# ------------------------------------------------------------------------------ overrides


def test_preset_override_applies_on_top_of_preset() -> None:
    """docs/rules.md s3: a table's rules are the preset plus overrides."""
    r = Rules.preset("house", swap="five", uno_penalty=1)
    assert r.swap == "five"
    assert r.uno_penalty == 1
    assert _dump(r) == {**HOUSE, "swap": "five", "uno_penalty": 1}


def test_preset_override_can_turn_a_house_flag_off() -> None:
    """docs/rules.md s3: overrides may also switch a preset's flag back off."""
    r = Rules.preset("party", jump_in=False, draw="one")
    assert r.jump_in is False
    assert r.draw == "one"
    assert r.swap == "seven_zero"


def test_preset_override_is_validated() -> None:
    """ENGINE.md: invalid values are rejected, overrides included."""
    with pytest.raises(ValueError):
        Rules.preset("house", stacking="everything")


def test_preset_override_bad_type_refused() -> None:
    """ENGINE.md: invalid values are rejected with a clear error (a bool flag is a bool)."""
    with pytest.raises(ValueError):
        Rules.preset("official", jump_in="sometimes")


def test_rules_are_immutable() -> None:
    """ENGINE.md: Rules are immutable settings; the game's rules never change mid-round."""
    r = Rules()
    with pytest.raises((ValidationError, TypeError, AttributeError)):
        r.stacking = "any"  # type: ignore[misc]
    assert r.stacking == "off"


# --------------------------------------------------------------------------- contradictions


def test_deflect_without_stacking_is_accepted() -> None:
    """Issue 9 item 2: deflect without stacking is a setting with nothing to act on (a +2
    is drawn at once), not a contradiction: accepted, and inactive (tests/engine/
    test_inactive_flags.py shows the engine never deflects without stacking)."""
    r = Rules(deflect=True)
    assert (r.deflect, r.stacking) == ("draw_two", "off")


def test_house_with_stacking_off_is_accepted() -> None:
    """Issue 9 item 2: a table that takes the house preset and turns stacking off keeps
    deflect on (inactive until stacking comes back)."""
    r = Rules.preset("house", stacking="off")
    assert (r.stacking, r.deflect, r.jump_in) == ("off", "draw_two", True)
    assert r.overrides("house") == {"stacking": "off"}


def test_house_with_stacking_off_and_deflect_off_accepted() -> None:
    """docs/rules.md s3: both flags may be overridden together."""
    r = Rules.preset("house", stacking="off", deflect=False)
    assert r.stacking == "off"
    assert r.deflect == "off"


def test_wild_on_penalty_without_stacking_is_accepted() -> None:
    """Issue 9 item 2: wild_on_penalty without stacking is accepted (and inactive)."""
    r = Rules(wild_on_penalty=True)
    assert (r.wild_on_penalty, r.stacking) == (True, "off")
    assert Rules.preset("party", stacking="off", wild_on_penalty=True).wild_on_penalty


@pytest.mark.parametrize("stacking", ["draw_two", "draw_four_on_two", "any"])
def test_deflect_and_wild_on_penalty_accepted_with_any_stacking(stacking: str) -> None:
    """docs/rules.md s2: deflect and wild_on_penalty are valid with every stacking mode."""
    r = Rules(stacking=stacking, deflect=True, wild_on_penalty=True)
    assert r.deflect and r.wild_on_penalty


# ------------------------------------------------------------------ unknown names and values


def test_unknown_flag_refused() -> None:
    """ENGINE.md: Rules holds the flags of section 2; anything else is rejected."""
    with pytest.raises(ValueError):
        Rules(stack_plus_two=True)  # type: ignore[call-arg]


def test_unknown_flag_in_preset_override_refused_and_named() -> None:
    """ENGINE.md: an unknown override is rejected with a clear error naming it."""
    with pytest.raises(ValueError, match="bogus_flag"):
        Rules.preset("house", bogus_flag=1)


def test_unknown_preset_refused_and_presets_listed() -> None:
    """docs/rules.md s3: the presets are official, house and party."""
    with pytest.raises(ValueError) as exc:
        Rules.preset("tournament")
    text = str(exc.value)
    assert "tournament" in text
    for name in ("official", "house", "party"):
        assert name in text


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("uno_penalty", -1),
        ("uno_penalty", 9),
        ("hand_size", 2),
        ("hand_size", 16),
        ("decks", 0),
        ("decks", 3),
        ("target", -1),
        ("false_uno_penalty", -1),
        ("stacking", "draw_four"),
        ("multi_play", "pairs"),
        ("swap", "seven"),
        ("draw", "two"),
        ("wild_draw_four", "bluff"),
        ("guilty_challenger", "draws"),
        ("last_card", "numbers"),
        ("scoring", "lowest"),
        ("card_points", "high"),
        ("two_player", "house"),
        ("dealer", "random"),
    ],
)
def test_out_of_range_values_refused(flag: str, value: object) -> None:
    """docs/rules.md s2 gives each flag's values and ranges (uno_penalty 0-8, hand_size
    3-15, ...)."""
    with pytest.raises(ValueError):
        Rules(**{flag: value})
    with pytest.raises(ValueError):
        Rules.preset("party", **{flag: value})


@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("uno_penalty", 0),
        ("uno_penalty", 8),
        ("hand_size", 3),
        ("hand_size", 15),
        ("decks", 2),
        ("target", 0),
        ("false_uno_penalty", 2),
        ("multi_play", "same_rank"),
        ("swap", "five"),
        ("wild_draw_four", "free"),
        ("guilty_challenger", "skipped"),
        ("last_card", "play_and_draw"),
        ("scoring", "penalty"),
        ("card_points", "low"),
        ("two_player", "plain"),
        ("dealer", "creator"),
    ],
)
def test_in_range_edge_values_accepted(flag: str, value: object) -> None:
    """docs/rules.md s2: the listed values and range limits are valid."""
    assert getattr(Rules(**{flag: value}), flag) == value


@pytest.mark.parametrize("flag", ["turn_seconds", "target", "decks", "uno_penalty", "hand_size"])
@pytest.mark.parametrize("value", [True, False])
def test_a_yes_no_is_not_a_number(flag: str, value: bool) -> None:
    # pydantic would read True as 1: a table with 1-second turns from a stray checkbox.
    with pytest.raises(ValueError, match="number"):
        Rules.preset("official", **{flag: value})


def test_preset_name_by_keyword() -> None:
    assert Rules.preset(name="house") == Rules.preset("house")
    assert Rules.preset(name="party", target=0).target == 0
