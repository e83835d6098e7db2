"""The bot process restarted mid-game on the same database: the game goes on, old buttons
and inline results work while their version is current."""

from __future__ import annotations

from bot import render
from bot.i18n import translator
from bot.service import RECENT
from tests.adapters.telegram.conftest import (
    Harness,
    assert_no_hand_in_group,
    human_turn,
    moved,
    open_table,
    pick,
    play_out,
    play_query,
)

EN = translator("en")


async def test_restart_mid_game(tg: Harness) -> None:
    api = tg.api
    g = api.group("Restart")
    alice, bob, carol = api.user("Alice"), api.user("Bob"), api.user("Carol")
    people = [alice, bob, carol]
    await open_table(tg, g, alice, [bob, carol], bots=1, hand_size=6, target=0)
    for _ in range(3):
        user = await tg.wait_turn(g, people)
        assert user is not None
        await human_turn(tg, g, user)
    await tg.settle()
    table = tg.table_message(g)
    stale_draw = next(
        b["callback_data"]
        for _, markup in table.history
        for row in (markup or {}).get("inline_keyboard", [])
        for b in row
        if "Draw" in b["text"]
    )  # the first Draw button the table had
    user = await tg.wait_turn(g, people)
    assert user is not None
    results = await user.inline(play_query(table))  # shown before the restart
    before = await tg.info(g)
    version = before.version
    shown = tg.table_message(g).text
    recent = render.recent_lines(before, EN)
    assert len(recent) == RECENT and shown.endswith("\n".join(recent))

    await tg.restart()  # a new service, store and adapter on the same database

    info = await tg.info(g)
    assert info.version == version and info.status == "playing"
    # the table message drawn afresh has the lines it had: they are the table's state
    assert info.recent == before.recent
    await tg.adapter.show_table(info, [])
    await tg.settle()
    assert tg.table_message(g).text == shown
    assert tg.table_message(g).message_id == table.message_id  # kept in the table's meta
    # an old button from turns ago is refused; the result shown before the restart works
    old = await user.click(table, data=stale_draw)
    assert old.show_alert
    assert old.text == EN.gettext("That button is out of date: the game has moved on.")
    await user.choose(results, pick(results), g)
    await tg.until(moved(tg, g, version))
    await tg.settle()
    assert tg.table_message(g).message_id == table.message_id
    assert len(tg.table_message(g).history) > len(table.history) - 1

    await play_out(tg, g, people)
    await tg.settle()
    final = tg.table_message(g)
    assert final.message_id == table.message_id and final.markup is None
    assert "wins the game" in final.text
    tables = [m for m in api.bot_messages(g) if m.history[0][1] is not None]
    assert len(tables) == 1  # never a second table message
    assert_no_hand_in_group(api, g)
