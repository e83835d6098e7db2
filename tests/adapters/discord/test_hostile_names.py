"""Display names are the players' own text: in the bot's messages they show as typed (no
bold, no masked link) and never ping anyone; labels and menu options show them as they are."""

from __future__ import annotations

import discord

from adapters.discord.adapter import md
from tests.adapters.discord.harness import World
from tests.fakes.discord_api import MENTION_EVERYONE

# (the name, with a shorter link text: names are capped at 32 characters)
BOSS = "**Boss** [nitro](https://x/y)"
BOSS_SHOWN = r"\*\*Boss\*\* \[nitro\](https://x/y)"


def test_names_are_escaped_for_message_text() -> None:
    assert md(BOSS) == BOSS_SHOWN
    assert md("@everyone") == "@\u200beveryone"
    assert md("@here") == "@\u200bhere"
    assert md("<@123456789012345678>") == "<@\u200b123456789012345678>"
    assert md("# Big") == r"\# Big" and md("-# small") == r"\-# small"
    assert md("> quote") == r"\> quote" and md("a_b|c~d`e\\") == r"a\_b\|c\~d\`e\\"
    # half a link in one name, the rest in the next: no masked link between them
    assert md("[click") + ", " + md("me](https://x/y)") == r"[click, me\](https://x/y)"
    assert md("Alice") == "Alice" and md("小明") == "小明"


async def test_hostile_names_show_as_typed_and_ping_nobody(make_world) -> None:  # type: ignore[no-untyped-def]
    world: World = await make_world(users=(BOSS, "@everyone", "Carol"))
    boss, everyone, carol = world.users
    world.channel.bot_permissions |= MENTION_EVERYONE  # it could ping, if it said so
    await world.slash(boss, "new")
    table = await world.table_message()
    await world.press(everyone, table, world.button(table, "join"))
    await world.press(carol, table, world.button(table, "join"))
    assert BOSS_SHOWN in table.content and "@\u200beveryone" in table.content
    assert BOSS not in table.content and "[nitro](" not in table.content
    assert "@everyone" not in table.content

    # the host's kick menu: options are plain text, so the names are as typed
    rec = await world.slash(boss, "kick")
    menu = world.fake.replies(rec)[0]
    kick = world.select(menu, "kick")
    assert kick is not None and [o["label"] for o in kick["options"]] == ["@everyone", "Carol"]
    await world.press(boss, menu, kick["custom_id"], value=kick["options"][1]["value"])
    assert "Carol was removed from the table." in table.content

    await world.press(boss, table, world.button(table, "start"))
    info = await world.info()
    assert info.view is not None
    waiting = everyone if info.view.current == f"dc:{boss.id}" else boss
    hand = await world.show_hand(waiting)
    shown = BOSS_SHOWN if waiting is everyone else "@\u200beveryone"
    assert f"Waiting for {shown}." in hand.content
    # someone who left is still named, escaped, in the table's recent lines
    await world.press(everyone, table, world.button(table, "hand"))
    await world.slash(everyone, "leave")
    assert "@\u200beveryone left the table." in table.content

    # a game won: the news, the leaderboard and the statistics name the winner escaped
    await world.load_scenario(
        {boss: ["R5"], everyone: ["B1", "B2"]}, ["R9"], ["G1"] * 10, current=boss, target=0
    )
    rec = await world.slash(boss, "hand")
    hand = world.fake.messages[rec.original]  # type: ignore[index]
    await world.press(boss, hand, world.button(hand, "play", "R5"))
    assert (await world.info()).status == "finished"
    news = f"🏁 {BOSS_SHOWN} wins round 1 and scores 3 points!\n🏆 {BOSS_SHOWN} wins the game!"
    assert news in [m.content for m in world.fake.public()]
    rec = await world.slash(carol, "leaderboard")
    assert BOSS_SHOWN in world.fake.texts_for(rec)[0]
    rec = await world.slash(carol, "stats", whose=boss)
    assert world.fake.texts_for(rec)[0].startswith(f"📊 {BOSS_SHOWN}")
    assert world.fake.errors == []
    for seen in world.fake.shown:
        assert seen.pings == (), (seen.content, seen.pings)
        assert BOSS not in seen.content and "@everyone" not in seen.content
    # every message that may carry a name says that nothing in it may ping
    for call in world.fake.calls:
        body = call.body if isinstance(call.body, dict) else {}
        data = body.get("data", body) if "type" in body else body
        if isinstance(data, dict) and data.get("content"):
            assert data.get("allowed_mentions") == {"parse": []}, call.path


async def test_the_fake_pings_as_discord_does(world: World) -> None:
    """What the check above relies on: a message allowed to mention pings whom it names."""
    client = world.bot.client
    assert client is not None
    alice = world.users[0]
    channel = client.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    text = f"@everyone <@{alice.id}>"
    every = discord.AllowedMentions.all()
    sent = [await channel.send(text), await channel.send(text, allowed_mentions=every)]
    world.channel.bot_permissions |= MENTION_EVERYONE
    sent.append(await channel.send(text, allowed_mentions=every))
    pings = [world.fake.messages[m.id].pings for m in sent]
    assert pings == [(), (f"user:{alice.id}",), ("everyone", f"user:{alice.id}")]
