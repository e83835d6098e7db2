"""Components and custom ids without a network: Discord's limits hold for every hand of
many random games, and every legal play can be reached."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from adapters.discord import ids, views
from adapters.discord.commands import CommandTranslator
from adapters.discord.text import command_names, option_names
from bot import render
from bot.i18n import LANGUAGES, translator
from bot.model import Seat
from bot.port import TableInfo
from engine import (
    CatchUno,
    ChooseColor,
    Leave,
    Phase,
    Play,
    Rules,
    apply,
    legal_actions,
    new_game,
    scenario,
    view,
)

CHANNEL = 123456789012345678901 // 10  # a 20-digit snowflake


def _rows(v: Any) -> list[dict[str, Any]]:
    return list(v.to_components())


def _check(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    assert len(rows) <= 5
    seen = set()
    items = []
    for row in rows:
        comps = row["components"]
        assert 1 <= len(comps) <= 5
        if any(c["type"] == 3 for c in comps):
            assert len(comps) == 1
        for c in comps:
            cid = c["custom_id"]
            assert len(cid) <= 100 and cid not in seen
            seen.add(cid)
            if c["type"] == 2:
                assert len(c["label"]) <= 80
                assert ids.parse(cid) is not None, cid
            else:
                assert ids.parse(cid, select=True) is not None, cid
                assert 1 <= len(c["options"]) <= 25
                assert all(len(o["value"]) <= 100 and len(o["label"]) <= 100 for o in c["options"])
            items.append(c)
    return items


def test_custom_ids_round_trip() -> None:
    key = f"dc:{CHANNEL}"
    for play in (
        Play("R5"),
        Play("W4", color="G"),
        Play("Y7", target="dc:98765432109876543"),
        Play("B7", target=f"bot:{key}:3", uno=True),
        Play("R5", together=("R5",)),
    ):
        arg = ids.encode_play(play, key)
        assert arg is not None
        cid = str(ids.CustomId("play", CHANNEL, 123456, arg))
        assert len(cid) <= 100
        parsed = ids.parse(cid)
        assert parsed is not None and ids.decode_play(parsed.arg, key) == play
    assert ids.parse("uno:play:1:2:R5", select=True) is None
    assert ids.parse("uno:cards:1:2:0") is None
    assert ids.parse("uno:join:01:2") is None  # no leading zero in a snowflake
    assert ids.parse("uno:join:1:2: x") is None
    assert ids.parse("uno:join:1:2:x") is None  # no join button carries an argument
    assert ids.parse("uno:play:1:2") is None  # and every card does
    assert ids.parse("uno:join:１:2") is None  # ASCII digits only
    assert ids.parse("uno:page:1:2:0") is not None
    assert ids.decode_play("Q9", key) is None
    assert ids.decode_player("b2", key) == f"bot:{key}:2"
    with pytest.raises(ValueError):
        str(ids.CustomId("play", CHANNEL, 1, "R5+" * 40))


def _reachable(items: list[dict[str, Any]], pages: list[list[dict[str, Any]]]) -> set[str]:
    """The group keys a player can get to: card buttons, select options of every page."""
    out = set()
    for c in [*items, *(i for p in pages for i in p)]:
        parts = c["custom_id"].split(":")
        if c["type"] == 2 and parts[1] in ("play", "pick") and not c.get("disabled"):
            arg = parts[4]
            out.add(arg.split("~")[0].split("@")[0].rstrip("!"))
        elif c["type"] == 3 and parts[1] == "cards":
            out.update(o["value"] for o in c["options"])
    return out


# issue 14's variants that change what a hand offers: the call with the play beside the card
VARIANTS = {"uno_call": "with_play", "last_card": "play_and_draw", "after_penalty": "same_color"}


@pytest.mark.parametrize("preset", ["official", "house", "party", "party+variants"])
async def test_every_hand_of_random_games_fits_and_plays(preset: str) -> None:
    rng = random.Random(preset)
    names = {f"dc:{n}": f"Player {n}" for n in range(1, 5)}
    tr = translator("en")
    steps = 0
    base, _, more = preset.partition("+")
    for seed in range(6):
        extra = VARIANTS if more else {}
        rules = Rules.preset(base, hand_size=rng.choice((7, 15)), **extra)
        game = new_game(list(names), rules, seed=seed)
        for _ in range(120):
            if game.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
                break
            steps += 1
            for p in names:
                legal = legal_actions(game, p)
                hand = view(game, p).hand or ()
                v, _, pagecount = views.hand_view(
                    f"dc:{CHANNEL}", 999999, hand, legal, tr, names, rules=rules
                )
                items = _check(_rows(v))
                pages = []
                for n in range(1, pagecount):
                    page, _, _ = views.hand_view(
                        f"dc:{CHANNEL}", 999999, hand, legal, tr, names, page=n, rules=rules
                    )
                    pages.append(_check(_rows(page)))
                wanted = {ids.group_key(a) for a in legal if isinstance(a, Play)}
                assert wanted <= _reachable(items, pages)
                colors = [c for c in items if c["custom_id"].split(":")[1] == "color"]
                assert len(colors) == sum(isinstance(a, ChooseColor) for a in legal)
            cur = game.current
            assert cur is not None
            acts = [a for a in legal_actions(game, cur) if not isinstance(a, CatchUno | Leave)]
            game, _ = apply(game, cur, rng.choice(acts))
    assert steps > 200


async def test_a_huge_hand_pages_its_select() -> None:
    tr = translator("en")
    names = {"dc:1": "A", "dc:2": "B"}
    hand = [f"{c}{r}" for c in "RYGB" for r in (*"0123456789", "S", "R", "D2")] + ["W", "W4"]
    g = scenario(
        {"dc:1": hand * 2, "dc:2": ["R1"]}, ["Y9", "BS"], rules=Rules(multi_play="identical")
    )
    legal = legal_actions(g, "dc:1")
    hv = view(g, "dc:1").hand or ()
    v, page, pagecount = views.hand_view(f"dc:{CHANNEL}", 1, hv, legal, tr, names)
    assert len(hv) == 108 and pagecount >= 2
    items = _check(_rows(v))
    sel = [c for c in items if c["type"] == 3]
    assert len(sel) == 1 and len(sel[0]["options"]) == 25
    nav = [c for c in items if c["custom_id"].split(":")[1] == "page"]
    assert [c["label"] for c in nav] == ["◀", "▶"] and nav[0]["disabled"]
    last, page, _ = views.hand_view(f"dc:{CHANNEL}", 1, hv, legal, tr, names, page=99)
    assert page == pagecount - 1
    _check(_rows(last))


async def test_table_and_settings_views_keep_the_limits() -> None:
    seats = tuple(Seat(f"dc:{n}", "N" * 40 + str(n)) for n in range(10))
    g = scenario({s.id: ["R1"] for s in seats}, ["R9"])
    for lang in LANGUAGES:
        tr = translator(lang)
        base: dict[str, Any] = {
            "key": f"dc:{CHANNEL}", "scope": "dc:g:1", "version": 99999, "host": seats[0].id,
            "seats": seats, "waiting": (), "rules": Rules(), "preset": "official",
            "lang": lang, "meta": {}, "game_no": 1,
        }  # fmt: skip
        lobby = views.table_view(TableInfo(status="lobby", view=None, **base), tr)
        assert lobby is not None
        _check(_rows(lobby))
        pv = view(g, None)
        pv = dataclasses.replace(pv, exposed=tuple(s.id for s in seats), phase=Phase.CHALLENGE)
        playing = views.table_view(TableInfo(status="playing", view=pv, **base), tr)
        assert playing is not None
        _check(_rows(playing))
        info = TableInfo(status="lobby", view=None, **base)
        for page in range(12):
            content, sv, _ = views.settings_view(info, tr, page)
            assert len(content) <= 2000
            _check(_rows(sv))
        kick = views.kick_view(info, seats[0].id, tr)
        assert kick is not None
        _check(_rows(kick))


@pytest.mark.parametrize("lang", ["zh_Hans", "zh_Hant"])
def test_command_names_are_valid_discord_names(lang: str) -> None:
    tr = translator(lang)
    for table in (command_names(tr), option_names(tr)):
        for english, name in table.items():
            assert name != english, (lang, english)
            assert 1 <= len(name) <= 32 and name == name.lower() and " " not in name
        assert len(set(table.values())) == len(table)


async def test_the_translator_leaves_english_alone() -> None:
    import discord
    from discord.app_commands import TranslationContext, TranslationContextLocation, locale_str

    t = CommandTranslator()
    ctx = TranslationContext(TranslationContextLocation.command_name, None)
    assert await t.translate(locale_str("join"), discord.Locale.american_english, ctx) is None
    assert await t.translate(locale_str("join"), discord.Locale.taiwan_chinese, ctx) == "加入"
    assert await t.translate(locale_str("join"), discord.Locale.french, ctx) is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_settings_show_a_flag_without_what_it_needs_as_inactive(lang: str) -> None:
    """Deflect and a Wild on a penalty act on a stacked penalty only: without stacking
    the settings say so (whatever their value) rather than offering them as if they
    worked; with stacking on, nothing is noted."""
    tr = translator(lang)
    note = tr.gettext(" (needs “{flag}”)", flag=tr.gettext("Stacking"))
    seats = (Seat("dc:1", "Alice"), Seat("dc:2", "Bob"))
    flags = views.settings_flags()
    for rules, noted in ((Rules(), True), (Rules.preset("house"), False)):
        assert (rules.stacking == "off") is noted
        info = TableInfo(
            key=f"dc:{CHANNEL}", scope="dc:g:1", version=3, status="lobby", host="dc:1",
            seats=seats, waiting=(), rules=rules, preset="official", lang=lang, view=None,
            meta={}, game_no=0,
        )  # fmt: skip
        for flag in ("deflect", "wild_on_penalty", "jump_in"):
            page = flags.index(flag) // views.FLAGS_PER_PAGE
            content, sv, _ = views.settings_view(info, tr, page)
            line = next(x for x in content.splitlines() if x.startswith(tr.gettext(
                "{flag}: {value}", flag=render.flag_name(flag, tr),
                value=render.flag_value(flag, getattr(rules, flag), tr),
            )))  # fmt: skip
            select = next(c for c in _check(_rows(sv)) if c["custom_id"].endswith(f":{flag}"))
            shown = [o["label"] for o in select["options"]] + [select["placeholder"]]
            inactive = noted and flag != "jump_in"
            assert (note in line) is inactive, line
            assert all((note in label) is inactive for label in shown), shown


def test_with_play_puts_the_call_beside_the_card() -> None:
    """uno_call=with_play (seed 001): each play that leaves one card has a "· UNO!" button
    beside it that plays it calling UNO; a wild's goes through the colour picker with the
    call kept. Without the flag the hand is as it was (UNO is its own button)."""
    tr = translator("en")
    names = {"dc:1": "A", "dc:2": "B"}
    key = f"dc:{CHANNEL}"
    g = scenario(
        {"dc:1": ["R5", "W"], "dc:2": ["B1", "B2"]}, ["R9"], rules=Rules(uno_call="with_play")
    )
    legal = legal_actions(g, "dc:1")
    hand = view(g, "dc:1").hand or ()
    v, _, _ = views.hand_view(key, 7, hand, legal, tr, names, rules=g.rules)
    buttons = [c for c in _check(_rows(v)) if c["type"] == 2]
    labels = [b["label"] for b in buttons]
    assert labels[:4] == ["🟥5 · UNO!", "🌈 · UNO!", "🟥5", "🌈"], labels
    (r5,) = [b for b in buttons if b["label"] == "🟥5 · UNO!"]
    parsed = ids.parse(r5["custom_id"])
    assert parsed is not None and ids.decode_play(parsed.arg, key) == Play("R5", uno=True)
    (wild,) = views.uno_plays("W!", legal)[:1]
    assert wild.uno and wild.card.is_wild
    choice = next(c for c in views.hand_choices(hand, legal, g.rules) if c.key == "W!")
    assert choice.needs() == "color"
    _, picker = views.picker_view(key, 7, choice, tr, names)
    picks = [c for c in _check(_rows(picker)) if c["custom_id"].split(":")[1] == "play"]
    plays = [ids.decode_play(c["custom_id"].split(":")[4], key) for c in picks]
    assert len(plays) == 4 and all(p is not None and p.uno for p in plays)
    # the official reading: no twins
    g0 = scenario({"dc:1": ["R5", "W"], "dc:2": ["B1", "B2"]}, ["R9"])
    v0, _, _ = views.hand_view(key, 7, hand, legal_actions(g0, "dc:1"), tr, names, rules=g0.rules)
    assert not any("UNO!" in c.get("label", "") and c["custom_id"].split(":")[1] != "uno"
                   for c in _check(_rows(v0)))  # fmt: skip


def test_the_settings_menu_offers_every_value_of_the_variants() -> None:
    """Issue 14's flags are in the menu, each with all its values (a select of at most 25
    options, custom ids within 100 characters: test_table_and_settings_views_keep_the_limits)."""
    tr = translator("en")
    flags = views.settings_flags()
    for flag in ("draw_four_when", "after_penalty", "drawn_card", "uno_call", "color_timeout",
                 "places", "start_reverse"):  # fmt: skip
        assert flag in flags
    assert views.flag_values("partners", False) == [False, True, "rotate"]
    assert views.flag_values("deflect", "off") == ["off", "draw_two", "all"]
    assert views.decode_value("partners", "rotate", Rules()) == "rotate"
    assert views.decode_value("places", "true", Rules()) is True
    assert render.flag_value("partners", "rotate", tr) == "rotating"
