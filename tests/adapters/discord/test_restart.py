"""Restarts and reconnects: the same database, the old buttons, the commands synced once."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters.discord.adapter import DEFAULT_API
from bot.ops.config import Settings
from bot.port import NullPort
from bot.service import Service
from bot.store import SqliteStore
from bot.ui import render
from bot.ui.i18n import translator
from engine import Card, Play
from tests.adapters.discord.harness import World


async def test_old_buttons_work_after_a_restart(world: World) -> None:
    alice, bob, _ = world.users
    await world.load_scenario(
        {alice: ["R1", "R2", "G5", "B7"], bob: ["Y3", "Y4", "Y5"]}, ["R9"], ["G6", "G2", "G3"]
    )
    rec = await world.slash(alice, "hand")
    old_hand = world.fake.messages[rec.original]  # type: ignore[index]
    await world.press(alice, old_hand, world.button(old_hand, "play", "R1"))
    await world.act(bob)  # Bob has no red: he draws (and passes)
    table = await world.table_message()
    info = await world.info()
    assert info.view is not None and info.view.current == f"dc:{alice.id}"
    play = world.button(old_hand, "play", "R2")
    assert play is not None

    shown = table.content
    recent = render.recent_lines(info, translator("en"))
    assert "Alice played 🟥 1." in recent and all(line in shown for line in recent)

    before = world.fake.identifies
    await world.restart()  # a new process on the same database
    assert world.fake.identifies == before + 1
    after = await world.info()
    assert after.version == info.version and after.recent == info.recent
    # the table message drawn afresh has the lines it had: they are the table's state
    await world.bot.show_table(after, [])
    await world.settle()
    # the same, but for the turn's relative timestamp: the turn clock starts when the table
    # is first shown (re-armed then), so under load the second drawing may name a second
    # later than the estimate drawn before it was reported shown
    assert _untimed(table.content) == _untimed(shown)
    assert abs(_when(table.content) - _when(shown)) <= 2

    # the hand message from before the restart still plays
    await world.press(alice, old_hand, play)
    assert "Alice played 🟥 2." in table.content
    assert "Alice played 🟥 1." in table.content  # the line from before the restart
    assert "Waiting for Bob" in old_hand.content  # refreshed through the new interaction
    # and so does the table message: Bob asks for his hand with its old button
    rec = await world.press(bob, table, world.button(table, "hand"))
    assert "🃏 Your cards (4):" in world.fake.texts_for(rec)[0]
    assert len(world.fake.public(world.channel)) == 1  # still one table message
    assert world.fake.errors == []


async def test_commands_are_synced_once_and_defaults_restored(world: World) -> None:
    fake = world.fake
    assert fake.command_puts == 1
    uno = next(c for c in fake.global_commands if c["name"] == "uno")
    subs = {o["name"] for o in uno["options"]}
    assert subs == {
        "new", "join", "start", "leave", "kick", "stop", "hand", "rules", "settings",
        "stats", "leaderboard", "rank", "top", "language", "addbot", "help",
    }  # fmt: skip
    assert uno["contexts"] == [0]  # servers only
    assert fake.api_url == Route.BASE
    await world.restart()
    assert fake.command_puts == 1  # unchanged commands are not registered again
    await world.halt()
    assert Route.BASE == DEFAULT_API
    assert str(DiscordWebSocket.DEFAULT_GATEWAY) == "wss://gateway.discord.gg/"


async def test_the_gateway_reconnects_and_resumes(world: World) -> None:
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    await world.fake.drop_connections(4000)
    for _ in range(200):
        await world.settle()
        if world.fake.connected:
            break
    assert world.fake.resumes == 1 and world.fake.identifies == 1
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    assert "Bob" in table.content


async def test_a_press_while_stopping_is_answered_and_changes_nothing(make_world) -> None:  # type: ignore[no-untyped-def]
    """A press that arrives once the bot is shutting down is answered at once: its work
    could be cut off halfway and its answer lost with the connection."""
    world: World = await make_world(write_delay=0.3)
    alice, bob, carol = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    slow = await world.fake.press(bob, table, world.button(table, "join"))  # 0.3 s to store
    await asyncio.sleep(0.05)
    stopping = asyncio.create_task(world.bot.stop())
    await asyncio.sleep(0.05)
    late = await world.fake.press(carol, table, world.button(table, "join"))
    await stopping
    assert slow.acked_at is not None and late.acked_at is not None
    assert world.fake.texts_for(late) == [
        "The bot is restarting: nothing was done. Try again in a moment."
    ]
    info = await world.info()
    assert [s.name for s in info.seats] == ["Alice", "Bob"]  # Bob's press was finished
    assert "Bob" in table.content


async def test_commands_registered_in_the_configured_servers_only(make_world: Any) -> None:
    """UNO_DISCORD_GUILDS: /uno is registered in those servers (where a change shows at
    once), not globally, and works there; a restart does not register it again."""
    world = await make_world(guild_commands=True)
    fake = world.fake
    assert fake.global_commands == []
    uno = next(c for c in fake.guild_commands[world.guild.id] if c["name"] == "uno")
    assert uno["guild_id"] == str(world.guild.id)
    assert "zh-TW" in uno["name_localizations"] or "zh-TW" in uno["description_localizations"]
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    await world.slash(bob, "join")
    assert [s.id for s in (await world.info()).seats] == [f"dc:{alice.id}", f"dc:{bob.id}"]
    puts = fake.command_puts
    await world.restart()
    assert fake.command_puts == puts


def test_guild_ids_setting_is_checked() -> None:
    assert Settings(discord_guilds=" 12, 34 ").discord_guild_ids == (12, 34)
    assert Settings().discord_guild_ids == ()
    with pytest.raises(ValueError):
        Settings(discord_guilds="12,abc")


async def test_hands_opened_before_a_restart_are_kept_up_after_it(world: World) -> None:
    """A hand message is kept with the table (its token, for its 15 minutes): the bot,
    restarted, shows a player's turn in the hand message they opened before, without a
    press of theirs, and a newer "Show hand" empties it as it would have."""
    alice, bob, _ = world.users
    await world.load_scenario(
        {alice: ["R1", "R2", "G5"], bob: ["R3", "Y4", "Y5"]}, ["R9"], ["G6", "G2"], current=bob
    )
    rec = await world.slash(alice, "hand")
    alice_hand = world.fake.messages[rec.original]  # type: ignore[index]
    rec = await world.slash(bob, "hand")
    bob_hand = world.fake.messages[rec.original]  # type: ignore[index]
    assert "Waiting for Bob" in alice_hand.content
    await world.restart()
    await world.settle()  # (the tables changed lately are drawn again, hands with them)
    edits = len(world.fake.shown)
    await world.press(bob, bob_hand, world.button(bob_hand, "play", "R3"))
    assert "Your turn" in alice_hand.content
    info = await world.info()
    assert f":{info.version}:" in str(world.button(alice_hand, "play", "R1"))
    assert [s.via for s in world.fake.shown[edits:] if s.message_id == alice_hand.id] == [
        "webhook"
    ]
    await world.restart()
    newer = await world.slash(alice, "hand")
    assert alice_hand.content == "Your hand has moved to a newer message."
    assert alice_hand.components == [] and alice_hand.attachments == []
    assert "Your turn" in world.fake.messages[newer.original].content  # type: ignore[index]
    assert world.fake.errors == []


async def test_a_change_committed_but_never_shown_is_shown_at_the_start(world: World) -> None:
    """A process killed between a commit and its edits left the table message and the
    hands behind: the next one to start draws the tables of its servers changed lately
    again, hands with them, so a player whose turn it now is sees it."""
    alice, bob, _ = world.users
    await world.load_scenario(
        {alice: ["R1", "R2", "G5"], bob: ["R3", "Y4", "Y5"]}, ["R9"], ["G6", "G2"], current=alice
    )
    rec = await world.slash(bob, "hand")
    bob_hand = world.fake.messages[rec.original]  # type: ignore[index]
    await world.bot.show_table(await world.info(), [])
    await world.settle()
    table = await world.table_message()
    assert "Waiting for Alice" in bob_hand.content
    await world.halt()
    store = SqliteStore(world.db)  # the change committed by a process that died then
    await store.open()
    svc = Service(store, NullPort(), world.settings, bot_delay=0)
    await svc.start(run_timers=False)
    done = await svc.act(world.key(), f"dc:{alice.id}", Play(Card.parse("R1")))
    assert done.ok
    await svc.stop()
    await store.close()
    await world.boot()
    await world.settle()
    assert "Your turn" in bob_hand.content and world.button(bob_hand, "play", "R3")
    assert "played 🟥 1" in table.content
    assert world.fake.errors == []


def _untimed(content: str) -> str:
    return re.sub(r"<t:\d+:R>", "<t:…:R>", content)


def _when(content: str) -> int:
    found = re.search(r"<t:(\d+):R>", content)
    assert found is not None, content
    return int(found.group(1))
