"""Platform-free controls: what the table, a hand, the settings and the kick menu offer,
and who may use them (``bot.policy``). A made-up numeric flag, declared in the test only,
shows in the settings menu, in /rules and in the terminal's settings with no adapter
change."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from pydantic import Field

from adapters.terminal.table import settings_screen
from bot import policy
from bot.model import Seat
from bot.port import TableInfo
from bot.ui import controls
from bot.ui import intents as it
from bot.ui import settings_schema as schema
from bot.ui.i18n import translator
from engine import (
    Accept,
    CallUno,
    CatchUno,
    Challenge,
    ChooseColor,
    Draw,
    NextRound,
    Phase,
    Play,
    Rules,
    legal_actions,
    scenario,
    view,
)
from engine import Leave as LeaveAction

EN = translator("en")
SEATS = (Seat("tg:1", "Ann"), Seat("tg:2", "Bob"), Seat("bot:tg:-5:1", "Bot 1", "smart"))


def info(
    status: str = "lobby", rules: Rules | None = None, game: Any = None, **kw: Any
) -> TableInfo:
    return TableInfo("tg:-5", "tg:-5", 7, status, "tg:1", SEATS, (), rules or Rules(),
                     kw.pop("preset", "official"), "en", view(game, None) if game else None,
                     {}, 1, **kw)  # fmt: skip


def intents_of(rows: list[controls.Row]) -> list[it.Intent]:
    return [c.intent for row in rows for c in row]


def test_the_lobby_offers_join_leave_bots_settings_and_start() -> None:
    rows = controls.table_controls(info(), EN)
    assert intents_of(rows) == [
        it.Join(),
        it.LeaveTable(),
        it.AddBot(),
        it.OpenSettings(0),
        it.Start(),
    ]
    assert [c.label for c in rows[0]] == ["Join", "Leave"]
    assert controls.table_controls(info("finished"), EN) == []


def _game(**kw: Any) -> Any:
    return scenario(
        {"tg:1": ["R5", "G7"], "tg:2": ["R7", "B1", "Y3"], "bot:tg:-5:1": ["Y1", "G2"]},
        ["R1"],
        current="tg:1",
        **kw,
    )


def test_a_round_offers_the_hand_draw_uno_and_catches() -> None:
    g = _game()
    rows = controls.table_controls(info("playing", game=g), EN)
    first = intents_of(rows[:1])
    assert first == [it.OpenHand(), it.Act(Draw(), 7), it.Act(CallUno(), 7)]
    # every control can be a Telegram button and a Discord one
    for c in (c for row in rows for c in row):
        assert it.encode(c.intent, "-5", limit=it.TELEGRAM_LIMIT)


def test_between_rounds_the_next_round() -> None:
    i = info("playing", game=_game())
    assert i.view is not None
    i = replace(i, view=replace(i.view, phase=Phase.ROUND_OVER))
    rows = controls.table_controls(i, EN)
    assert intents_of(rows) == [it.Act(NextRound(), 7), it.OpenHand()]
    assert rows[0].controls[0].style == "primary"
    assert policy.may_configure(i)


def test_a_hand_offers_each_play_with_its_uno_twin_then_the_other_moves() -> None:
    g = _game()
    v = view(g, "tg:1")
    legal = legal_actions(g, "tg:1")
    rows = controls.hand_menu(info("playing", game=g), v, legal, EN)
    plays = [c.intent for c in rows[0]]
    assert rows[0].menu == "cards"
    assert it.Act(Play("R5"), 7) in plays and it.Act(Play("R5", uno=True), 7) in plays
    assert [c.detail for c in rows[0]][1] == "🟥 5 and call UNO!"
    assert intents_of(rows[1:2]) == [it.Act(Draw(), 7)]
    assert intents_of(rows[2:]) == [it.Refresh(), it.Autopilot(True)]
    assert controls.hand_menu(info("playing", game=g), None, legal, EN) == []


def test_other_moves_are_ordered_and_styled() -> None:
    rows = controls.hand_menu(
        info("playing", game=_game()),
        view(_game(), "tg:1"),
        [CatchUno("tg:2"), Draw(), Accept(), Challenge(), ChooseColor("R"), CallUno()],
        EN,
    )
    kinds = [type(c.intent.action) for c in rows[0] if isinstance(c.intent, it.Act)]
    assert kinds == [ChooseColor, Challenge, Accept, Draw, CallUno, CatchUno]
    assert [c.style for c in rows[0]] == ["danger", "danger", "secondary", "secondary",
                                          "danger", "danger"]  # fmt: skip


def test_the_settings_menu_pages_the_schema() -> None:
    rules = Rules.preset("house", stacking="off")
    pages = schema.pages()
    house = controls.settings_menu(info(rules=Rules.preset("house"), preset="house"), 0, EN)
    assert house[0].menu == "preset" and [c.selected for c in house[0]] == [False, True, False]
    rows = controls.settings_menu(info(rules=rules, preset="house"), 0, EN)
    # changed from the house rules: custom, no preset ticked (issue 19 item 17)
    assert rows[0].menu == "preset" and [c.selected for c in rows[0]] == [False, False, False]
    flags = [r for r in rows if r.menu.startswith("f")]
    assert [schema.flag_of_key(r.menu[1:]) for r in flags] == list(pages[0])
    deflect = flags[1]
    assert deflect.title == "Deflect a +2: on (needs “Stacking”)"
    assert [c.intent for c in deflect] == [
        it.SetFlag("deflect", v) for v in ("off", "draw_two", "all")
    ]
    assert [c.selected for c in deflect] == [False, True, False]
    nav = rows[-1]
    assert [c.enabled for c in nav] == [False, False, True, True]
    assert nav.controls[1].label == f"Page 1/{len(pages)}"
    last = controls.settings_menu(info(), 99, EN)[-1]
    assert last.controls[2].intent == it.OpenSettings(len(pages) - 1)
    assert not last.controls[2].enabled
    # every control fits both platforms' limits
    for p in range(len(pages)):
        for c in (c for r in controls.settings_menu(info(rules=rules), p, EN) for c in r):
            assert it.encode(c.intent, "-1001234567890_123456", limit=it.TELEGRAM_LIMIT)


def test_one_flag_and_the_kick_menu() -> None:
    i = info(rules=Rules(stacking="off", wild_on_penalty=True))
    rows = controls.flag_menu(i, "wild_on_penalty", EN)
    assert [c.intent for c in rows[0]] == [it.SetFlag("wild_on_penalty", False),
                                          it.SetFlag("wild_on_penalty", True)]  # fmt: skip
    assert rows[1].controls[0].intent == it.OpenSettings(schema.page_of("wild_on_penalty"))
    assert "Inactive while “Stacking” is off." in controls.flag_text(i, "wild_on_penalty", EN)
    kick = controls.kick_menu(i, EN, by="tg:1")
    assert [c.intent for c in kick[0]] == [it.Kick("tg:2"), it.Kick("bot:tg:-5:1")]
    assert [c.label for c in kick[0]] == ["Bob", "Bot 1 🤖"]


def test_policy() -> None:
    lobby = info()
    assert (
        policy.is_open(lobby) and not policy.is_open(info("stopped")) and not policy.is_open(None)
    )
    assert policy.may_manage(lobby, "tg:1") and not policy.may_manage(lobby, "tg:2")
    assert policy.may_manage(lobby, "tg:2", admin=True)
    assert policy.needs_admin(lobby, "tg:2") and not policy.needs_admin(lobby, "tg:1")
    assert policy.refusal_code(lobby, "tg:2", rules=True) == "not_host"
    assert (
        policy.refusal_code(info("playing", game=_game()), "tg:1", rules=True) == "not_mid_round"
    )
    assert policy.refusal_code(lobby, "tg:1", rules=True) is None
    assert policy.refusal_code(info("finished"), "tg:1") == "no_table"


# -- a numeric house rule added in the schema alone -----------------------------------------


class MoreRules(Rules):
    bonus_cards: int = Field(default=0, ge=0, le=9)


@pytest.fixture
def bonus(monkeypatch: pytest.MonkeyPatch) -> str:
    spec = schema.FlagSpec(
        "bonus_cards", "bx", "Bonus cards", "Cards dealt on top of the hand.", 99,
        choices=(0, 1, 3), unit="cards", zero="none",
    )  # fmt: skip
    monkeypatch.setitem(schema.SCHEMA, "bonus_cards", spec)
    return "bonus_cards"


def test_a_made_up_numeric_flag_shows_everywhere(bonus: str) -> None:
    rules = MoreRules(bonus_cards=2)
    i = info(rules=rules)
    last = len(schema.pages()) - 1
    assert schema.pages()[last] == (bonus,)
    # the settings menu, with its choices and the table's own value among them
    rows = controls.settings_menu(i, last, EN)
    row = next(r for r in rows if r.menu == "fbx")
    assert row.title == "Bonus cards: 2 cards"
    assert [c.intent for c in row] == [it.SetFlag(bonus, n) for n in (0, 1, 2, 3)]
    assert [c.label for c in row] == ["none", "1 card", "2 cards", "3 cards"]
    assert [c.selected for c in row] == [False, False, True, False]
    # its buttons, on both platforms
    for c in row:
        for limit in (it.TELEGRAM_LIMIT, it.DISCORD_LIMIT):
            press = it.decode(it.encode(c.intent, "-100123", limit=limit), limit=limit)
            assert isinstance(press, it.Press) and press.resolve() == c.intent
    # /rules
    assert "• Bonus cards: 2 cards" in schema.rules_summary(rules, EN).splitlines()
    # the terminal's settings
    text, keys = settings_screen(i, last, EN)
    assert "Bonus cards: 2 cards" in text and "✓ 2 cards" in text
    assert it.SetFlag(bonus, 3) in keys.values()


# -- every control of real games fits both platforms --------------------------------------------


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {
            "swap": "seven_zero",
            "multi_play": "same_rank",
            "stacking": "any",
            "uno_call": "with_play",
        },
    ],
)
def test_every_control_of_a_played_game_encodes_and_decodes(overrides: dict[str, Any]) -> None:
    import random

    from engine import apply, new_game

    players = ["tg:1", "tg:2", "bot:tg:-5:1", "bot:tg:-5:2"]
    seats = tuple(Seat(p, p) for p in players)
    rng = random.Random(1)
    rules = Rules.preset("house", **overrides)
    g = new_game(players, rules, seed=3)
    too_long = 0
    for step in range(400):
        i = TableInfo("tg:-5", "tg:-5", step, "playing", "tg:1", seats, (), rules, "house",
                      "en", view(g, None), {}, 1)  # fmt: skip
        rows = controls.table_controls(i, EN)
        for p in players:
            rows += controls.hand_menu(i, view(g, p), legal_actions(g, p), EN)
        for c in (c for row in rows for c in row):
            for limit in (it.TELEGRAM_LIMIT, it.DISCORD_LIMIT):
                text = it.try_encode(c.intent, "-1001234567890_1234", limit=limit)
                if text is None:
                    assert limit == it.TELEGRAM_LIMIT, c.intent  # Discord fits every one
                    too_long += 1
                    continue
                press = it.decode(text, limit=limit)
                assert isinstance(press, it.Press) and press.resolve(players) == c.intent
        if g.phase is Phase.GAME_OVER or g.phase is Phase.ROUND_OVER:
            break
        moves = [
            (p, a) for p in players for a in legal_actions(g, p) if not isinstance(a, LeaveAction)
        ]
        who, action = rng.choice(moves)
        g, _ = apply(g, who, action)
    assert step > 20
    assert too_long <= 5  # only plays of many cards at once are too long for Telegram


# -- what a platform declares (issue 12 item 3: Telegram's table and hand) -----------------------


def test_uno_is_offered_always_or_only_while_someone_may_call() -> None:
    g = _game()
    i = info("playing", game=g)
    assert i.view is not None and not controls.uno_callable(i.view)
    callable_ = controls.table_controls(i, EN, uno="callable")
    assert intents_of(callable_) == [it.OpenHand(), it.Act(Draw(), 7), it.VoteEnd(0)]
    # down to one card and no call yet: offered
    one = replace(i, view=replace(i.view, counts={**i.view.counts, "tg:1": 1}))
    assert one.view is not None and controls.uno_callable(one.view)
    assert it.Act(CallUno(), 7) in intents_of(controls.table_controls(one, EN, uno="callable"))
    # called already, or let pass with the play (uno_call=with_play): not offered
    for seen in ({"called": ("tg:1",)}, {"silent": ("tg:1",)}):
        late = replace(one, view=replace(one.view, **seen))
        assert late.view is not None and not controls.uno_callable(late.view)
        assert it.Act(CallUno(), 7) not in intents_of(
            controls.table_controls(late, EN, uno="callable")
        )


def test_between_rounds_the_hand_may_be_left_to_the_round() -> None:
    i = info("playing", game=_game())
    assert i.view is not None
    i = replace(i, view=replace(i.view, phase=Phase.ROUND_OVER))
    rows = controls.table_controls(i, EN, hand_between_rounds=False)
    assert intents_of(rows) == [it.Act(NextRound(), 7)]


def test_colours_and_refresh_have_a_glyph_and_take_no_icon() -> None:
    g = _game()
    i = info("playing", game=g)
    assert i.view is not None
    choosing = replace(i, view=replace(i.view, phase=Phase.CHOOSING_COLOR))
    colours = controls.table_controls(choosing, EN)[1]
    assert [c.glyph for c in colours] == ["🟥", "🟨", "🟩", "🟦"]
    assert colours.controls[0].label == "🟥 Red"
    # a platform whose chooser picks the colour in their own hand leaves them off the table
    on_table = intents_of(controls.table_controls(choosing, EN, colors=False))
    assert on_table and not any(isinstance(x, it.Act) and isinstance(x.action, ChooseColor)
                                for x in on_table)  # fmt: skip
    penalty = replace(i, view=replace(i.view, pending_draw=2))
    take = controls.table_controls(penalty, EN)[0].controls[1]
    assert take.intent == it.Act(Accept(), 7) and (take.label, take.icon) == ("Take +2", "")
    refresh = controls.hand_menu(i, view(g, "tg:1"), legal_actions(g, "tg:1"), EN)[-1]
    assert refresh.controls[0].glyph == "🔄" and refresh.controls[0].label == "Refresh"


def test_the_uno_twin_may_come_first_and_the_next_round_stay_on_the_table() -> None:
    g = _game()
    v = view(g, "tg:1")
    i = info("playing", game=g)
    rows = controls.hand_menu(i, v, legal_actions(g, "tg:1"), EN, uno_first=True)
    plays = [c.intent for c in rows[0]]
    assert plays.index(it.Act(Play("R5", uno=True), 7)) + 1 == plays.index(it.Act(Play("R5"), 7))
    assert rows[0].controls[0].label.endswith(" · UNO!")
    legal = [NextRound(), LeaveAction()]
    assert it.Act(NextRound(), 7) in intents_of(controls.hand_menu(i, v, legal, EN))
    assert intents_of(controls.hand_menu(i, v, legal, EN, next_round=False)) == [
        it.Refresh(),
        it.Autopilot(True),
    ]


def test_move_labels_are_remembered_only_for_moves_naming_nobody() -> None:
    assert controls.move_labels(Draw(), EN, {}) == ("Draw a card", "Draw a card")
    assert controls.move_labels(Play("R5", uno=True), EN, {}) == (
        "🟥5 · UNO!",
        "🟥 5 and call UNO!",
    )
    for name in ("Bob", "Robert"):
        short, long = controls.move_labels(CatchUno("tg:2"), EN, {"tg:2": name})
        assert short == long == f"Catch {name}"
        swap = controls.move_labels(Play("R7", target="tg:2"), EN, {"tg:2": name})
        assert swap[0] == f"🟥7 ⇄ {name}"
