"""What the bot refuses, always privately: stale and forged buttons, the host's powers in
the hands of others."""

from __future__ import annotations

import pytest

from tests.adapters.discord.harness import World
from tests.fakes.discord_api import User

BAD = "That button is not valid here."


async def _two_player_game(world: World) -> tuple[User, User, User]:
    alice, bob, carol = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "start"))
    return alice, bob, carol


async def test_a_stale_button_is_refused_privately(world: World) -> None:
    alice, bob, _ = await _two_player_game(world)
    table = await world.table_message()
    info = await world.info()
    assert info.view is not None
    current = alice if info.view.current == f"dc:{alice.id}" else bob
    old_draw = world.button(table, "draw")
    assert old_draw is not None
    await world.act(current, call_uno=False)  # the turn moves on
    version = (await world.info()).version
    rec = await world.press(current, table, old_draw, forge=True)  # a double click
    assert world.fake.texts_for(rec)[-1] == "That button is out of date: the game has moved on."
    assert all(m.audience == current.id for m in world.fake.replies(rec))
    assert (await world.info()).version == version
    assert world.fake.errors == []


@pytest.mark.parametrize(
    "forged",
    [
        "uno:play:{chan}:{ver}:ZZ9",  # no such card
        "uno:catch:{chan}:{ver}:nobody",  # no such player
        "uno:explode:{chan}:{ver}",  # no such action
        "uno:join:{other}:{ver}",  # another channel's table
        "uno:play:{chan}:abc",  # no version
        "uno:" + "x" * 90,
        "uno:cards:{chan}:{ver}:0",  # a select id on a button
        "not-ours",  # some other bot's component
    ],
)
async def test_a_forged_custom_id_is_refused_privately(world: World, forged: str) -> None:
    _, _, carol = await _two_player_game(world)
    table = await world.table_message()
    info = await world.info()
    custom_id = forged.format(chan=world.channel.id, ver=info.version, other=world.channel.id + 1)
    rec = await world.press(carol, table, custom_id, forge=True)
    assert world.fake.texts_for(rec) == [BAD]
    assert world.fake.replies(rec)[0].audience == carol.id
    assert (await world.info()).version == info.version
    assert world.fake.errors == []


async def test_a_forged_select_value_is_refused(world: World) -> None:
    alice, _, _ = await _two_player_game(world)
    hand = await world.show_hand(alice)
    custom_id = f"uno:cards:{world.channel.id}:{(await world.info()).version}:0"
    rec = await world.press(alice, hand, custom_id, value="NOPE", forge=True)
    assert world.fake.texts_for(rec) == ["That button is out of date: the game has moved on."]


async def test_only_the_host_or_a_channel_manager_kicks(make_world) -> None:  # type: ignore[no-untyped-def]
    world: World = await make_world(admin=("Carol",))
    alice, bob, carol = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.press(carol, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "addbot"))

    rec = await world.slash(bob, "kick", player=alice)
    assert world.fake.texts_for(rec) == ["Only the host (or a chat admin) can do that."]
    assert world.fake.replies(rec)[0].audience == bob.id
    rec = await world.press(bob, table, world.button(table, "settings"))
    assert world.fake.texts_for(rec) == ["Only the host (or a chat admin) can do that."]
    rec = await world.press(bob, table, world.button(table, "start"))
    assert world.fake.texts_for(rec) == ["Only the host (or a chat admin) can do that."]
    assert "Alice" in table.content

    # a member with Manage Channels may
    await world.slash(carol, "kick", player=bob)
    seats = table.content.split("Players")[1].split("\n\n")[0]
    assert "Bob" not in seats and "Bob was removed from the table." in table.content
    # the host picks from the seats, bots included
    rec = await world.slash(alice, "kick")
    menu = world.fake.replies(rec)[0]
    kick = world.select(menu, "kick")
    assert kick is not None
    assert [o["label"] for o in kick["options"]] == ["Carol", "Bot 1 🤖"]
    await world.press(alice, menu, kick["custom_id"], value=kick["options"][1]["value"])
    assert "Bot 1" not in table.content.split("Players")[1].split("\n\n")[0]
    assert menu.components == []


async def test_settings_presets_and_flags(world: World) -> None:
    alice, _, _ = world.users
    await world.slash(alice, "new")
    rec = await world.slash(alice, "settings")
    menu = world.fake.replies(rec)[0]
    assert menu.audience == alice.id and "⚙️" in menu.content
    preset = world.select(menu, "preset")
    assert preset is not None
    await world.press(alice, menu, preset["custom_id"], value="house")
    info = await world.info()
    assert info.preset == "house" and info.rules.jump_in
    flag = next(s for s in menu.selects() if s["custom_id"].endswith(":jump_in"))
    await world.press(alice, menu, flag["custom_id"], value="false")
    info = await world.info()
    assert info.preset == "house" and not info.rules.jump_in
    table = await world.table_message()
    assert "House rules + 1 change" in table.content
    # every page of the menu keeps Discord's limits
    for _ in range(12):
        nxt = [b for b in menu.buttons() if b["label"] == "▶" and not b.get("disabled")]
        if not nxt:
            break
        await world.press(alice, menu, nxt[0]["custom_id"])
        assert len(menu.components) <= 5
    assert world.fake.errors == []
    # a rule that contradicts another is refused with the reason
    stacking = None
    while stacking is None:
        prev = [b for b in menu.buttons() if b["label"] == "◀" and not b.get("disabled")]
        await world.press(alice, menu, prev[0]["custom_id"])
        stacking = next((s for s in menu.selects() if s["custom_id"].endswith(":stacking")), None)
    rec = await world.press(alice, menu, stacking["custom_id"], value="off")
    assert world.fake.texts_for(rec)[0] == "“Deflect a +2” needs “Stacking” to be on first."
