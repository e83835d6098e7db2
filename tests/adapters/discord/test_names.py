"""Issue 9 item 22 on Discord: a member with a hostile display name joins with the Join
button; the table message and the channel's announcements show the cleaned name, and none
of the hostile characters ever reaches a public message. One test per character class.
(Markdown in names is the adapter's to escape: not tested here.)"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.names import MAX_LENGTH
from bot.ui.i18n import translator
from tests.adapters.discord.harness import World

EN = translator("en")

CASES = {
    # the tester's case: "U+202E + ecilA" followed by " won" displayed as "now Alice"
    "bidi_override": ("\u202eecilA", "ecilA", ["\u202e"]),
    "bidi_isolate": ("\u2067Eve\u2069\u200f", "Eve", ["\u2067", "\u2069", "\u200f"]),
    "zero_width": ("Z\u200be\u200dd\ufeff\u2060", "Zed", ["\u200b", "\u200d", "\ufeff"]),
    "control_newline": ("Mal\tlory\n\r🏆\x07 wins", "Mal lory 🏆 wins", ["\t", "\r", "lory\n"]),
    "over_long": ("W" * 60, "W" * (MAX_LENGTH - 1) + "…", ["W" * MAX_LENGTH]),
}


def public_texts(world: World) -> list[str]:
    return [content for m in world.fake.public() for content, _ in m.history]


@pytest.mark.parametrize("case", list(CASES))
async def test_a_hostile_name_is_shown_cleaned(
    make_world: Callable[..., Awaitable[World]], case: str
) -> None:
    raw, clean, never = CASES[case]
    world = await make_world(users=("Alice", raw))
    alice, hostile = world.users
    assert hostile.display_name == raw
    await world.slash(alice, "new")
    table = await world.table_message()
    cid = world.button(table, "join")
    assert cid is not None
    await world.press(hostile, table, cid)
    info = await world.info()
    pid = f"dc:{hostile.id}"
    assert info.names[pid] == clean
    table = await world.table_message()
    assert clean in table.content
    start = world.button(table, "start")
    assert start is not None
    await world.press(alice, table, start)
    await world.slash(alice, "leave")  # the hostile player wins the game: an announcement
    won = EN.gettext("🏆 {player} wins the game!", player=clean)
    texts = public_texts(world)
    assert any(won in t for t in texts), texts[-3:]
    for text in texts:
        for bad in never:
            assert bad not in text, (case, text)
    t: Any = await world.store.get_table(world.key())
    assert t is not None and t.names[pid] == clean
