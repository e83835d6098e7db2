"""The settings schema: one declaration per rule flag, read by every settings screen."""

from __future__ import annotations

import pytest

from bot.ui import render
from bot.ui import settings_schema as schema
from bot.ui.i18n import LANGUAGES, translator
from engine import Rules
from engine.rules import RulesRefused, check_seating, refusal

EN = translator("en")


def test_every_rules_field_has_exactly_one_entry_and_back() -> None:
    assert list(schema.SCHEMA) == list(Rules.model_fields)
    assert all(name == s.name for name, s in schema.SCHEMA.items())


def test_keys_are_short_stable_and_unique() -> None:
    keys = [s.key for s in schema.SCHEMA.values()]
    assert len(set(keys)) == len(keys)
    assert all(len(k) == 2 and k.isalnum() and k.lower() == k for k in keys)
    for s in schema.SCHEMA.values():
        assert schema.flag_of_key(s.key) == s.name
    assert schema.flag_of_key("zz") is None


def test_values_named_are_the_engines_values() -> None:
    for flag, s in schema.SCHEMA.items():
        fixed = schema.fixed_values(flag)
        if s.values:
            assert set(s.values) == set(fixed), flag
            for value in fixed:
                Rules.preset("official", **{flag: value})
        else:
            assert s.choices, flag  # a number: the menu offers some
            bounds = schema.int_bounds(flag)
            for n in s.choices:
                assert bounds is None or bounds[0] <= n <= bounds[1], (flag, n)
                Rules.preset("official", **{flag: n})
            assert s.unit in schema.UNITS, flag


def test_menu_values_keep_the_current_value() -> None:
    assert schema.menu_values("hand_size") == [5, 7, 10, 15]
    assert schema.menu_values("hand_size", 8) == [5, 7, 8, 10, 15]
    assert schema.menu_values("jump_in", True) == [False, True]
    assert schema.menu_values("partners") == [False, True, "rotate"]
    assert schema.menu_values("turn_seconds", 3600)[-1] == 3600
    # a select menu holds 25 options
    assert all(len(schema.menu_values(f)) < 25 for f in schema.SCHEMA)


def test_values_encode_and_decode() -> None:
    for flag in schema.SCHEMA:
        for value in schema.menu_values(flag):
            back = schema.decode_value(flag, schema.encode_value(value))
            assert back == value and type(back) is type(value)
    with pytest.raises(ValueError):
        schema.decode_value("stacking", "sideways")
    with pytest.raises(ValueError):
        schema.decode_value("jump_in", "7")
    with pytest.raises(ValueError):
        schema.decode_value("nope", "1")
    # digits of other scripts are digits to str.isdigit and int(), never in a button we drew
    assert schema.decode_value("hand_size", "12") == 12
    for forged in ("١٢", "１２", "-7", " 7", "7.0"):
        with pytest.raises(ValueError):
            schema.decode_value("hand_size", forged)


def test_pages_fit_a_discord_message_and_hold_every_flag_once() -> None:
    pages = schema.pages()
    assert all(0 < len(p) <= schema.FLAGS_PER_PAGE for p in pages)
    assert sorted(f for p in pages for f in p) == sorted(schema.SCHEMA)
    assert schema.page_of("stacking") == 0 and "deflect" in pages[0]


def test_words_match_render() -> None:
    for lang in LANGUAGES:
        tr = translator(lang)
        for flag in schema.SCHEMA:
            assert schema.flag_name(flag, tr) == render.flag_name(flag, tr)
            assert schema.flag_help(flag, tr) == render.flag_help(flag, tr)
            for value in schema.menu_values(flag):
                assert schema.value_text(flag, value, tr) == render.flag_value(flag, value, tr)
    rules = Rules.preset("party", deflect="all", stacking="off", places=True)
    assert schema.rules_summary(rules, EN) == render.rules_summary(rules, EN)
    assert schema.needs("deflect", rules) == "stacking"
    assert schema.inactive_note("deflect", rules, EN) == " (needs “Stacking”)"
    assert (
        schema.flag_line("deflect", rules, EN) == "Deflect a +2: on, a +4 too (needs “Stacking”)"
    )
    assert schema.needs("deflect", Rules(stacking="any")) is None


def test_refusals_are_data() -> None:
    with pytest.raises(ValueError) as e:
        Rules.preset("official", places=True, partners="rotate")
    r = refusal(e.value)
    assert (r.reason, r.flag, r.params) == ("conflict", "places", {"other": "partners"})
    with pytest.raises(ValueError) as e:
        Rules.preset("official", hand_size=99)
    r = refusal(e.value)
    assert (r.reason, r.flag) == ("value", "hand_size")
    with pytest.raises(ValueError) as e:
        Rules.preset("official", hand_size=True)
    assert (refusal(e.value).reason, refusal(e.value).flag) == ("value", "hand_size")
    with pytest.raises(ValueError) as e:
        Rules.preset("official", sideways=1)
    assert (refusal(e.value).reason, refusal(e.value).flag) == ("unknown_flag", "sideways")
    with pytest.raises(RulesRefused) as e2:
        Rules.preset("chaos")
    assert e2.value.reason == "preset"
    with pytest.raises(ValueError) as e:
        Rules.model_validate({"nope": 1})
    assert refusal(e.value).reason == "unknown_flag"
    assert refusal(ValueError("what")).reason == "other"


def test_seating_refusals_are_data() -> None:
    def why(n: int, rules: Rules, before: Rules | None = None) -> tuple[str, str | None]:
        with pytest.raises(RulesRefused) as e:
            check_seating(n, rules, before=before)
        return e.value.reason, e.value.flag

    assert why(1, Rules()) == ("seats", None)
    assert why(11, Rules()) == ("seats", None)
    check_seating(20, Rules(decks=2))
    assert why(5, Rules(partners=True)) == ("partners", "partners")
    assert why(4, Rules(partners=True), before=Rules()) == ("partners", "partners")
    assert why(10, Rules(hand_size=15)) == ("deal", "hand_size")
    check_seating(4, Rules(partners=True))


@pytest.mark.parametrize(
    ("lang", "custom"),
    [
        ("en", "Custom: Official rules + 2 changes"),
        ("zh_Hans", "自定义：官方规则 + 2 项改动"),
        ("zh_Hant", "自訂：官方規則 + 2 項改動"),
    ],
)
def test_rules_changed_from_their_preset_are_named_custom_wherever_named(
    lang: str, custom: str
) -> None:
    """Issue 19 item 17: /rules, the table's rules line and the terminal say so."""
    from bot.model import Seat
    from bot.port import TableInfo

    tr = translator(lang)
    rules = Rules.preset("official", stacking="draw_two", jump_in=True)
    assert schema.rules_title(rules, tr, "official") == custom
    assert schema.rules_summary(rules, tr, "official").splitlines()[0] == f"📜 {custom}"
    lobby = TableInfo("tg:1", "tg:1", 2, "lobby", "u1", (Seat("u1", "Ann"),), (), rules,
                      "official", lang, None, {}, 0)  # fmt: skip
    assert custom in render.table_text(lobby, tr)
    plain = Rules.preset("house")
    assert schema.rules_title(plain, tr, "house") == tr.gettext("House rules")
