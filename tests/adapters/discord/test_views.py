"""Components and custom ids without a network: Discord's limits hold for every hand of
many random games, and every legal play can be reached."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from pydantic import Field

from adapters.discord import ids, widgets
from adapters.discord.inbound.commands import CommandTranslator
from adapters.discord.text import command_names, option_names
from bot.model import Seat
from bot.port import TableInfo
from bot.ui import controls
from bot.ui import settings_schema as schema
from bot.ui.i18n import LANGUAGES, translator
from bot.ui.intents import Act, Press, SetFlag, VoteEnd
from engine import (
    CatchUno,
    ChooseColor,
    Game,
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
from tests.adapters.discord.harness import name_of

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
                assert c.get("disabled") or isinstance(ids.read(cid, (), select=False), Press), cid
            else:
                assert 1 <= len(c["options"]) <= 25
                assert all(len(o["value"]) <= 100 and len(o["label"]) <= 100 for o in c["options"])
                for o in c["options"]:
                    assert isinstance(ids.read(cid, (o["value"],), select=True), Press), cid
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
        cid = ids.encode(Act(play, 123456), CHANNEL)
        assert cid is not None and len(cid) <= 100
        press = ids.read(cid, (), select=False)
        assert isinstance(press, Press) and ids.resolve(press, key) == Act(play, 123456)
    forged = (
        ("a:1:2:pR5", ("x",), True),  # a button's id on a select
        ("m:1:cards", (), False),  # a select's on a button
        ("j:01", (), False),  # no leading zero in a snowflake
        ("j:1: x", (), False),
        ("j:1:x", (), False),  # no join button carries an argument
        ("a:1:2", (), False),  # and every move does
        ("j:１", (), False),  # ASCII digits only
        ("a:1:2:pQ9", (), False),  # no such card
        ("m:1:kick", ("p:1:house",), True),  # a preset is no player to remove
        ("m:1:cards", ("k:2:77",), True),  # an option of another table
    )
    for cid, values, select in forged:
        assert ids.read(cid, values, select=select) == ids.FORGED, cid
    assert isinstance(ids.read("n:1:2:0", (), select=False), Press)
    assert ids.encode(Act(Play("R5", together=("R5",) * 40), 1), CHANNEL) is None  # over 100


# custom ids as the bot drew them before the codec (issue 12): they still do what they did
RECORDED = [
    ("uno:join:{c}:7", (), "Join()"),
    ("uno:settings:{c}:7", (), "OpenSettings(page=0)"),
    ("uno:hand:{c}:7", (), "OpenHand()"),
    ("uno:draw:{c}:7", (), "Act(action=Draw(), version=7)"),
    ("uno:uno:{c}:7", (), "Act(action=CallUno(), version=7)"),
    ("uno:catch:{c}:7:b2", (), "Act(action=CatchUno(target='bot:dc:{c}:2'), version=7)"),
    ("uno:catch:{c}:7:98765", (), "Act(action=CatchUno(target='dc:98765'), version=7)"),
    ("uno:play:{c}:7:R5", (), "Act(action=Play(card=Card('R5'), color=None, target=None, "
     "together=(), uno=False), version=7)"),
    ("uno:play:{c}:7:W4~G!", (), "Act(action=Play(card=Card('W4'), color=<Color.GREEN: 'G'>, "
     "target=None, together=(), uno=True), version=7)"),
    ("uno:color:{c}:7:B", (), "Act(action=ChooseColor(color=<Color.BLUE: 'B'>), version=7)"),
    ("uno:pick:{c}:7:W", (), "Pick(choice='W', version=7)"),
    ("uno:page:{c}:7:2", (), "Page(n=2, version=7)"),
    ("uno:back:{c}:7", (), "Back(version=7)"),
    ("uno:setpage:{c}:7:3", (), "OpenSettings(page=3)"),
    ("uno:cards:{c}:7:1", ("R5!",), "Pick(choice='R5!', version=7)"),
    ("uno:preset:{c}:7", ("house",), "SetPreset(name='house')"),
    ("uno:flag:{c}:7:hand_size", ("10",), "SetFlag(flag='hand_size', value=10)"),
    ("uno:flag:{c}:7:jump_in", ("true",), "SetFlag(flag='jump_in', value=True)"),
    ("uno:kick:{c}:7", ("b1",), "Kick(target='bot:dc:{c}:1')"),
]  # fmt: skip


@pytest.mark.parametrize(("custom_id", "values", "intent"), RECORDED)
def test_old_custom_ids_still_mean_what_they_meant(
    custom_id: str, values: tuple[str, ...], intent: str
) -> None:
    cid = custom_id.format(c=CHANNEL)
    press = ids.read(cid, values, select=bool(values))
    assert isinstance(press, Press) and press.token == str(CHANNEL)
    assert repr(ids.resolve(press, f"dc:{CHANNEL}")) == intent.format(c=CHANNEL)


def test_old_custom_ids_that_were_never_drawn_are_refused() -> None:
    for cid, values in (
        ("uno:play:1:2:R5", ("x",)),  # a button's id on a select
        ("uno:cards:1:2:0", ()),  # a select's on a button
        ("uno:join:01:2", ()),
        ("uno:join:1:2:x", ()),
        ("uno:play:1:2", ()),
        ("uno:join:１:2", ()),
        ("uno:flag:1:2:no_such_flag", ("1",)),
        ("uno:preset:1:2", ("chaos",)),
    ):
        assert ids.read(cid, values, select=bool(values)) == ids.FORGED, cid
    assert ids.read("uno:refresh:1:2:0", (), select=False) == ids.OUTDATED


def _reachable(items: list[dict[str, Any]], pages: list[list[dict[str, Any]]]) -> set[str]:
    """The group keys a player can get to: card buttons, select options of every page."""
    out = set()
    for c in [*items, *(i for p in pages for i in p)]:
        name, arg = name_of(c["custom_id"])
        if c["type"] == 2 and name in ("play", "pick") and not c.get("disabled"):
            out.add((arg or "").split("~")[0].split("@")[0].rstrip("!"))
        elif c["type"] == 3 and name == "cards":
            out.update(str(name_of(o["value"])[1]).rstrip("!") for o in c["options"])
    return out


def _info(game: Game, names: dict[str, str], version: int = 999999) -> TableInfo:
    """The table of ``game`` (its public view) at ``version``."""
    seats = tuple(Seat(p, n) for p, n in names.items())
    return TableInfo(
        key=f"dc:{CHANNEL}", scope="dc:g:1", version=version, status="playing",
        host=seats[0].id, seats=seats, waiting=(), rules=game.rules, preset="official",
        lang="en", view=view(game, None), meta={}, game_no=1,
    )  # fmt: skip


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
            info = _info(game, names)
            for p in names:
                legal = legal_actions(game, p)
                hand = view(game, p)
                v, _, pagecount = widgets.hand_view(info, hand, legal, tr)
                items = _check(_rows(v))
                pages = []
                for n in range(1, pagecount):
                    page, _, _ = widgets.hand_view(info, hand, legal, tr, page=n)
                    pages.append(_check(_rows(page)))
                wanted = {ids.group_key(a) for a in legal if isinstance(a, Play)}
                assert wanted <= _reachable(items, pages)
                colors = [c for c in items if name_of(c["custom_id"])[0] == "color"]
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
    hv, info = view(g, "dc:1"), _info(g, names, 1)
    v, page, pagecount = widgets.hand_view(info, hv, legal, tr)
    assert len(hv.hand or ()) == 108 and pagecount >= 2
    items = _check(_rows(v))
    sel = [c for c in items if c["type"] == 3]
    assert len(sel) == 1 and len(sel[0]["options"]) == 25
    nav = [c for c in items if name_of(c["custom_id"])[0] == "page"]
    assert [c["label"] for c in nav] == ["◀", "▶"] and nav[0]["disabled"]
    last, page, _ = widgets.hand_view(info, hv, legal, tr, page=99)
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
        lobby = widgets.table_view(TableInfo(status="lobby", view=None, **base), tr)
        assert lobby is not None
        _check(_rows(lobby))
        pv = view(g, None)
        pv = dataclasses.replace(pv, exposed=tuple(s.id for s in seats), phase=Phase.CHALLENGE)
        playing = widgets.table_view(TableInfo(status="playing", view=pv, **base), tr)
        assert playing is not None
        _check(_rows(playing))
        info = TableInfo(status="lobby", view=None, **base)
        for page in range(12):
            content, sv, _ = widgets.settings_view(info, tr, page)
            assert len(content) <= 2000
            _check(_rows(sv))
        kick = widgets.kick_view(info, seats[0].id, tr)
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
    for rules, noted in ((Rules(), True), (Rules.preset("house"), False)):
        assert (rules.stacking == "off") is noted
        info = TableInfo(
            key=f"dc:{CHANNEL}", scope="dc:g:1", version=3, status="lobby", host="dc:1",
            seats=seats, waiting=(), rules=rules, preset="official", lang=lang, view=None,
            meta={}, game_no=0,
        )  # fmt: skip
        for flag in ("deflect", "wild_on_penalty", "jump_in"):
            content, sv, _ = widgets.settings_view(info, tr, schema.page_of(flag))
            line = next(x for x in content.splitlines() if x.startswith(tr.gettext(
                "{flag}: {value}", flag=schema.flag_name(flag, tr),
                value=schema.value_text(flag, getattr(rules, flag), tr),
            )))  # fmt: skip
            select = _flag_select(_check(_rows(sv)), flag)
            shown = [o["label"] for o in select["options"]] + [select["placeholder"]]
            inactive = noted and flag != "jump_in"
            assert (note in line) is inactive, line
            assert all((note in label) is inactive for label in shown), shown


def _flag_select(items: list[dict[str, Any]], flag: str) -> dict[str, Any]:
    return next(c for c in items if name_of(c["custom_id"]) == ("flag", schema.spec(flag).key))


def _offered(info: TableInfo, flag: str) -> list[Any]:
    """The values the Discord settings menu offers for ``flag`` at ``info``."""
    _, sv, _ = widgets.settings_view(info, translator("en"), schema.page_of(flag))
    select = _flag_select(_check(_rows(sv)), flag)
    out = []
    for o in select["options"]:
        press = ids.read(select["custom_id"], (o["value"],), select=True)
        assert isinstance(press, Press) and isinstance(press.raw, SetFlag), o
        assert press.raw.flag == flag
        out.append(press.raw.value)
    return out


def test_with_play_puts_the_call_beside_the_card() -> None:
    """uno_call=with_play (seed 001): each play that leaves one card has a "· UNO!" button
    beside it that plays it calling UNO; a wild's goes through the colour picker with the
    call kept. Without the flag the hand is as it was (UNO is its own button)."""
    tr = translator("en")
    names = {"dc:1": "A", "dc:2": "B"}
    g = scenario(
        {"dc:1": ["R5", "W"], "dc:2": ["B1", "B2"]}, ["R9"], rules=Rules(uno_call="with_play")
    )
    legal = legal_actions(g, "dc:1")
    hand, info = view(g, "dc:1"), _info(g, names, 7)
    v, _, _ = widgets.hand_view(info, hand, legal, tr)
    buttons = [c for c in _check(_rows(v)) if c["type"] == 2]
    labels = [b["label"] for b in buttons]
    assert labels[:4] == ["🟥5 · UNO!", "🌈 · UNO!", "🟥5", "🌈"], labels
    (r5,) = [b for b in buttons if b["label"] == "🟥5 · UNO!"]
    press = ids.read(r5["custom_id"], (), select=False)
    assert isinstance(press, Press) and press.raw == Act(Play("R5", uno=True), 7)
    plays = [a for a in legal if isinstance(a, Play)]
    (wild,) = widgets.uno_plays("W!", [*plays, *(Play(p.card, p.color, uno=True) for p in plays)])[
        :1
    ]
    assert wild.uno and wild.card.is_wild
    menu = widgets.menu_plays(controls.hand_menu(info, hand, legal, tr))
    choice = next(c for c in widgets.hand_choices(hand.hand or (), menu) if c.key == "W!")
    assert choice.needs() == "color"
    _, picker = widgets.picker_view(info, choice, tr)
    picks = [c for c in _check(_rows(picker)) if name_of(c["custom_id"])[0] == "play"]
    chosen = [ids.read(c["custom_id"], (), select=False) for c in picks]
    assert len(chosen) == 4
    assert all(isinstance(p, Press) and p.raw.action.uno for p in chosen)  # type: ignore[union-attr]
    # the official reading too: the cards offer what bot.ui.controls.hand_menu offers (the
    # call with a play that leaves one card, beside it), nothing more
    g0 = scenario({"dc:1": ["R5", "W"], "dc:2": ["B1", "B2"]}, ["R9"])
    legal0, hand0 = legal_actions(g0, "dc:1"), view(g0, "dc:1")
    v0, _, _ = widgets.hand_view(_info(g0, names, 7), hand0, legal0, tr)
    offered = {
        ids.group_key(p) + ("!" if p.uno else "")
        for p in widgets.menu_plays(controls.hand_menu(_info(g0, names, 7), hand0, legal0, tr))
    }
    drawn = {str(name_of(c["custom_id"])[1]).split("~")[0] for c in _check(_rows(v0))
             if name_of(c["custom_id"])[0] in ("play", "pick")}  # fmt: skip
    assert drawn == offered


def test_the_settings_menu_offers_every_value_of_the_variants() -> None:
    """Issue 14's flags are in the menu, each with all its values (a select of at most 25
    options, custom ids within 100 characters: test_table_and_settings_views_keep_the_limits)."""
    info = TableInfo(
        key=f"dc:{CHANNEL}", scope="dc:g:1", version=3, status="lobby", host="dc:1",
        seats=(Seat("dc:1", "A"),), waiting=(), rules=Rules(), preset="official", lang="en",
        view=None, meta={}, game_no=0,
    )  # fmt: skip
    for flag in ("draw_four_when", "after_penalty", "drawn_card", "uno_call", "color_timeout",
                 "places", "start_reverse"):  # fmt: skip
        assert flag in schema.flags() and _offered(info, flag)
    assert _offered(info, "partners") == [False, True, "rotate"]
    assert _offered(info, "deflect") == ["off", "draw_two", "all"]
    assert _offered(info, "places") == [False, True]
    assert schema.value_text("partners", "rotate", translator("en")) == "rotating"


class MoreRules(Rules):
    """The engine's rules with a made-up numeric house rule (this test's only)."""

    bonus_cards: int = Field(default=0, ge=0, le=9)


def test_a_made_up_numeric_flag_shows_in_the_settings_menu(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A numeric house rule declared in ``bot.ui.settings_schema`` alone (monkeypatched here)
    is in the Discord settings menu with its choices, the table's value among them, and
    setting it is a press the adapter reads back: nothing in adapters/discord knows it."""
    spec = schema.FlagSpec(
        "bonus_cards", "bx", "Bonus cards", "Cards dealt on top of the hand.", 99,
        choices=(0, 1, 3), unit="cards", zero="none",
    )  # fmt: skip
    monkeypatch.setitem(schema.SCHEMA, "bonus_cards", spec)
    tr = translator("en")
    info = TableInfo(
        key=f"dc:{CHANNEL}", scope="dc:g:1", version=3, status="lobby", host="dc:1",
        seats=(Seat("dc:1", "A"),), waiting=(), rules=MoreRules(bonus_cards=2),
        preset="official", lang="en", view=None, meta={}, game_no=0,
    )  # fmt: skip
    page = schema.page_of("bonus_cards")
    content, sv, shown = widgets.settings_view(info, tr, page)
    assert shown == page and "Bonus cards: 2 cards — Cards dealt on top of the hand." in content
    select = _flag_select(_check(_rows(sv)), "bonus_cards")
    assert select["placeholder"] == "Bonus cards: 2 cards"
    assert [o["label"] for o in select["options"]] == ["none", "1 card", "2 cards", "3 cards"]
    assert [o.get("default") for o in select["options"]] == [False, False, True, False]
    assert _offered(info, "bonus_cards") == [0, 1, 2, 3]


def _buttons(v: Any) -> list[tuple[str | None, str | None, bool]]:
    """Each button's (label, custom id, disabled)."""
    return [(b.label, b.custom_id, b.disabled) for b in v.children]


def test_the_table_buttons_are_the_mapping_of_the_cores_controls(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The adapter derives nothing: the table's buttons in a round are table_controls' (with
    Discord's declared options), and a control changed in the core shows as it is."""
    names = {f"dc:{n}": f"Player {n}" for n in range(1, 4)}
    info = _info(new_game(list(names), Rules(), seed=5), names, version=42)
    tr = translator("en")
    rows = controls.table_controls(info, tr, **widgets.TABLE_OPTIONS)
    drawn = widgets.table_view(info, tr)
    assert drawn is not None
    want = [(c.label, ids.encode(c.intent, CHANNEL), not c.enabled) for r in rows for c in r]
    assert _buttons(drawn) == want

    real = controls.table_controls

    def changed(*args: Any, **kwargs: Any) -> list[controls.Row]:
        out = real(*args, **kwargs)
        first = out[0].controls
        relabelled = dataclasses.replace(first[0], label="Look at your cards")
        extra = controls.Control(Act(Leave(), 42), "Walk away", "danger")
        return [controls.Row((relabelled, *first[1:], extra)), *out[1:]]

    monkeypatch.setattr(controls, "table_controls", changed)
    again = widgets.table_view(info, tr)
    assert again is not None
    shown = _buttons(again)
    walk = ("Walk away", ids.encode(Act(Leave(), 42), CHANNEL), False)
    # the first row changed (the vote to end the game is a row of its own, after it)
    assert shown == [("Look at your cards", *want[0][1:]), *want[1:-1], walk, want[-1]]
    assert want[-1][1] == ids.encode(VoteEnd(0), CHANNEL)
