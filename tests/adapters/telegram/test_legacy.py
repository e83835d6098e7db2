"""Buttons posted before the intent codec (issue 12) keep working: their ``callback_data``
(recorded from the views as they were) reads into the intents the new buttons carry."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.telegram.inbound import legacy
from adapters.telegram.inbound.presses import read
from bot.ui import intents as it
from bot.ui import settings_schema as schema
from bot.ui.i18n import translator
from engine import Card, CatchUno, Color, Draw, Play
from tests.adapters.telegram.conftest import Harness, key, open_table

EN = translator("en")

TID = "-1001234567890_2147483647"

# what the views made on the last day of the old form (a lobby, a table, a hand, the
# settings and language menus), and what each means now
RECORDED: list[tuple[str, Any]] = [
    (f"j|{TID}", it.Join()),
    (f"l|{TID}", it.LeaveTable()),
    (f"b|{TID}", it.AddBot()),
    (f"S|{TID}", it.OpenSettings(0)),
    (f"g|{TID}", it.Start()),
    (f"a|{TID}|123456|d", it.Act(Draw(), 123456)),
    (f"a|{TID}|123456|pW4/R", it.Act(Play(Card.parse("W4"), Color.RED), 123456)),
    (f"a|{TID}|123456|pR1", it.Act(Play(Card.parse("R1")), 123456)),
    (f"h|{TID}", it.OpenHand()),
    (f"sp|{TID}|house", it.SetPreset("house")),
    (f"sf|{TID}|0", it.OpenFlag("stacking")),
    (f"sf|{TID}|12", it.OpenFlag("uno_penalty")),
    (f"sf|{TID}|32", it.OpenFlag("start_reverse")),
    (f"sm|{TID}", it.OpenSettings(0)),
    (f"sx|{TID}", it.CloseSettings()),
    (f"L|{TID}|c|zh_Hans", it.Language("chat", "zh_Hans")),
    (f"L|{TID}|u|-", it.Language("user", None)),
]


@pytest.mark.parametrize(("data", "intent"), RECORDED, ids=[d for d, _ in RECORDED])
def test_an_old_button_reads_as_the_intent_it_meant(data: str, intent: Any) -> None:
    press = read(data)
    assert isinstance(press, it.Press) and press.token == TID
    assert press.resolve([]) == intent


def test_an_old_catch_names_the_player_by_the_same_short_form() -> None:
    press = read(f"a|{TID}|7|x1000000002")
    assert isinstance(press, it.Press)
    seats = ["tg:1000000001", "tg:1000000002"]
    assert press.resolve(seats) == it.Act(CatchUno(seats[1]), 7)
    assert press.resolve(["tg:1000000001"]) == it.FORGED


def test_an_old_value_button_sets_what_its_menu_offered() -> None:
    """``sv|<tid>|<flag index>|<choice index>``: the flag by its place in the rules as they
    were, the value among the values its menu offered, the table's own value added."""
    found = read(f"sv|{TID}|12|3")  # uno_penalty, (0, 1, 2, 4)
    assert isinstance(found, legacy.OldChoice) and found.flag == "uno_penalty"
    assert legacy.old_choice(found, 2) == it.SetFlag("uno_penalty", 4)
    assert legacy.old_choice(found, 3) == it.SetFlag("uno_penalty", 3)  # 0 1 2 3 4
    turn = read(f"sv|{TID}|22|5")  # turn_seconds: 15 30 60 120 300 3600
    assert isinstance(turn, legacy.OldChoice)
    assert legacy.old_choice(turn, 30) == it.SetFlag("turn_seconds", 3600)
    jump = read(f"sv|{TID}|2|1")  # jump_in: off, on
    assert isinstance(jump, legacy.OldChoice)
    assert legacy.old_choice(jump, False) == it.SetFlag("jump_in", True)
    assert legacy.old_choice(legacy.OldChoice(TID, "uno_penalty", 9), 2) == it.FORGED


def test_every_recorded_flag_is_still_in_the_schema() -> None:
    assert set(legacy.FLAGS_V1) <= set(schema.SCHEMA)
    assert set(legacy.CHOICES_V1) == set(legacy.FLAGS_V1)


@pytest.mark.parametrize(
    "data",
    [
        f"a|{TID}",
        f"a|{TID}|1|pXX",
        f"sf|{TID}|99",
        f"sf|{TID}|x",
        f"sv|{TID}|12",
        f"j|{TID}|extra",
        f"S|{TID}|2",
        f"L|{TID}|c",
        "a|notachat|1|d",
    ],
)
def test_a_malformed_old_form_is_refused_as_forged(data: str) -> None:
    assert read(data) == it.FORGED


def test_what_is_no_old_form_goes_to_the_codec() -> None:
    assert legacy.read("hello") is None and legacy.read("zz|1") is None
    assert read("hello") == it.FORGED
    assert read(it.encode(it.Join(), TID, limit=it.TELEGRAM_LIMIT)) == it.Press(TID, it.Join())


# -- pressed in a chat -------------------------------------------------------------------------


async def test_old_buttons_still_posted_do_what_they_did(tg: Harness) -> None:
    """A lobby and a settings menu posted before the intent codec: their buttons (the
    recorded forms) join, open a flag, set a value by its old index, pick a preset, close
    the menu; an old form naming another chat's table is not valid."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice", started=True), api.user("Bob", started=True)
    table = await open_table(tg, g, alice, [], start=False)
    tid = str(g.id)
    ans = await bob.click(table, data=f"j|{tid}")
    assert not ans.show_alert
    await tg.until(lambda: len(tg.service.cached(key(g)).seats) == 2)
    await alice.click(table, "Settings")
    menu = (await tg.until(lambda: api.bot_messages(alice.chat)))[0]
    await alice.click(menu, data=f"sf|{tid}|12")  # uno_penalty, by its old index
    await tg.settle()
    assert menu.text.startswith("⚙️ " + schema.flag_name("uno_penalty", EN))
    ans = await alice.click(menu, data=f"sv|{tid}|12|3")  # its fourth value then: 4
    assert not ans.show_alert, ans.text
    await tg.until(lambda: tg.service.cached(key(g)).rules.uno_penalty == 4)
    await alice.click(menu, data=f"sp|{tid}|house")
    await tg.until(lambda: tg.service.cached(key(g)).preset == "house")
    await alice.click(menu, data=f"sx|{tid}")
    await tg.settle()
    assert not menu.buttons()
    no = await bob.click(table, data="j|-100999")  # another chat's table
    assert no.show_alert and no.text == EN.gettext("This button is not valid.")
