"""Buttons posted before the intents codec (issue 12) keep working: an old table message's
``uno:<action>:<channel>:<version>`` ids do what they did; and what the settings menu's new
Done does."""

from __future__ import annotations

from tests.adapters.discord.harness import World

OUTDATED = (
    "This button is from an older version of the bot: use the table's buttons, or /uno, again."
)


async def test_old_table_buttons_still_work(world: World) -> None:
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    chan = world.channel.id
    # the table message as it was posted before the update: its buttons carry the old ids
    ver = (await world.info()).version
    await world.press(bob, table, f"uno:join:{chan}:{ver}", forge=True)
    assert f"dc:{bob.id}" in [s.id for s in (await world.info()).seats]
    ver = (await world.info()).version
    await world.press(alice, table, f"uno:start:{chan}:{ver}", forge=True)
    info = await world.info()
    assert info.status == "playing" and info.view is not None
    current = alice if info.view.current == f"dc:{alice.id}" else bob
    rec = await world.press(current, table, f"uno:draw:{chan}:{info.version}", forge=True)
    hand = world.fake.replies(rec)[0]
    assert hand.audience == current.id and hand.content.startswith("🃏 Your cards")
    assert (await world.info()).version > info.version  # drawn
    assert world.fake.errors == []


async def test_an_old_page_label_is_outdated(world: World) -> None:
    alice, _, _ = world.users
    await world.slash(alice, "new")
    menu = world.fake.replies(await world.slash(alice, "settings"))[0]
    ver = (await world.info()).version
    rec = await world.press(alice, menu, f"uno:refresh:{world.channel.id}:{ver}:0", forge=True)
    assert world.fake.texts_for(rec) == [OUTDATED]
    assert world.fake.replies(rec)[0].audience == alice.id


async def test_done_closes_the_settings_menu(world: World) -> None:
    alice, _, _ = world.users
    await world.slash(alice, "new")
    menu = world.fake.replies(await world.slash(alice, "settings"))[0]
    assert world.button(menu, "done") is not None
    await world.press(alice, menu, world.button(menu, "done"))
    assert menu.components == [] and menu.content.startswith("📜 Official rules")
    assert world.fake.errors == []
