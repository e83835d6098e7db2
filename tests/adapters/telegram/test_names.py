"""Issue 9 item 22 on Telegram: a person with a hostile name joins through the Join button;
the table message and the group's announcements show the cleaned name, and none of the
hostile characters ever reaches the group. One test per character class."""

from __future__ import annotations

import pytest

from bot.names import MAX_LENGTH
from bot.ui import render
from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import Harness, key, open_table

EN = translator("en")

CASES = {
    # the tester's case: "U+202E + ecilA" followed by " won" displayed as "now Alice"
    "bidi_override": ("\u202eecilA", None, "ecilA", ["\u202e"]),
    "bidi_isolate": ("\u2067Eve\u2069\u200f", None, "Eve", ["\u2067", "\u2069", "\u200f"]),
    "zero_width": ("Z\u200be\u200dd\ufeff\u2060", None, "Zed", ["\u200b", "\u200d", "\ufeff"]),
    "control_newline": (
        "Mal\tlory",
        "\n\r🏆\x07 wins",
        "Mal lory 🏆 wins",
        ["\t", "\r", "\x07", "lory \n"],
    ),
    "over_long": ("W" * 60, "W" * 60, "W" * (MAX_LENGTH - 1) + "…", ["W" * MAX_LENGTH]),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_a_hostile_name_is_shown_cleaned(tg: Harness, case: str) -> None:
    first, last, clean, never = CASES[case]
    api = tg.api
    g = api.group("Friends")
    alice = api.user("Alice")
    hostile = api.user(first, last)
    table = await open_table(tg, g, alice, [hostile], start=False)
    info = await tg.info(g)
    assert info.names[hostile.pid] == clean
    assert clean in table.text
    # the game: Alice leaves, and the hostile player wins it (an announcement)
    ans = await alice.click(table, render.button_label("start", EN))
    assert not ans.show_alert
    await tg.settle()
    await alice.send(g, "/leave")
    won = EN.gettext("🏆 {player} wins the game!", player=clean)
    await tg.until(lambda: any(won in t for t in api.group_texts(g)))
    await tg.settle()
    texts = api.group_texts(g)
    assert any(won in t for t in texts)
    assert clean in tg.table_message(g).text
    for text in texts:
        for bad in never:
            assert bad not in text, (case, text)
    t = await tg.store.get_table(key(g))
    assert t is not None and t.names[hostile.pid] == clean
