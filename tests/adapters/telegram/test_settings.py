"""The settings menu comes from the settings schema: a flag declared there (here a made-up
numeric one, in this test alone) shows in the Telegram menu with its choices, its buttons
naming it by its key, with no change to the adapter; every button the views make is read
back into an intent that a handler is registered for."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import Field

from adapters.telegram import widgets
from adapters.telegram.inbound.presses import ROUTES, read
from bot.model import Seat
from bot.port import TableInfo
from bot.ui import intents as it
from bot.ui import settings_schema as schema
from bot.ui.i18n import translator
from engine import Rules

EN = translator("en")
KEY = "tg:-1001234567890:2147483647"


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


def _info(rules: Rules, status: str = "lobby") -> TableInfo:
    return TableInfo(
        key=KEY,
        scope="tg:-1001234567890",
        version=7,
        status=status,
        host="tg:1",
        seats=(Seat("tg:1", "Ann"), Seat("tg:2", "Bob")),
        waiting=(),
        rules=rules,
        preset="official",
        lang=None,
        view=None,
        meta={},
        game_no=1,
    )


def _buttons(markup: Any) -> list[Any]:
    return [b for row in markup.inline_keyboard for b in row]


def test_a_made_up_numeric_flag_shows_in_the_menu_with_its_choices(bonus: str) -> None:
    info = _info(MoreRules(bonus_cards=2))
    _, main = widgets.settings_main(info, EN)
    opener = next(b for b in _buttons(main) if b.text.startswith("Bonus cards"))
    assert opener.text == "Bonus cards: 2 cards"
    press = read(opener.callback_data)
    assert isinstance(press, it.Press) and press.raw == it.OpenFlag(bonus)
    text, menu = widgets.settings_flag(info, bonus, EN)
    assert text.splitlines()[:2] == ["⚙️ Bonus cards: 2 cards", "Cards dealt on top of the hand."]
    values = _buttons(menu)[:-1]
    assert [b.text for b in values] == ["none", "1 card", "✓ 2 cards", "3 cards"]
    intents = [read(b.callback_data) for b in values]
    assert [p.raw for p in intents if isinstance(p, it.Press)] == [
        it.SetFlag(bonus, n) for n in (0, 1, 2, 3)
    ]
    assert all(len(b.callback_data.encode()) <= 64 for b in _buttons(menu))


def test_every_button_of_the_menus_has_its_handler() -> None:
    """What the views put in ``callback_data`` is read back into an intent whose kind has a
    handler of its own (registered by pattern)."""
    routed = {kind for kind, _route in ROUTES}
    info = _info(Rules())
    markups = [widgets.settings_main(info, EN)[1], widgets.table_keyboard(info, EN)]
    markups += [widgets.settings_flag(info, flag, EN)[1] for flag in schema.flags()]
    markups += [widgets.language_menu("-100123", kind, None, EN)[1] for kind in ("c", "u")]
    kick = widgets.kick_menu(info, EN, "tg:1")
    assert kick is not None and kick[0] == EN.gettext("Choose who leaves the table")
    markups.append(kick[1])
    for markup in markups:
        assert markup is not None
        for b in _buttons(markup):
            press = read(b.callback_data)
            assert isinstance(press, it.Press), b.callback_data
            assert type(press.raw) in routed, b.callback_data
