"""The rest of ``/uno``: start, addbot, leave, stop, rules, help; and the outbox."""

from __future__ import annotations

import asyncio

from adapters.discord.outbox import Outbox
from tests.adapters.discord.harness import World
from tests.adapters.discord.test_refusals import NOT_HOST


async def test_a_table_from_commands_only(world: World) -> None:
    alice, bob, carol = world.users
    fake = world.fake
    rec = await world.slash(alice, "new", preset="house")
    assert "“Join”" in fake.texts_for(rec)[0]
    rec = await world.slash(bob, "new")
    assert fake.texts_for(rec) == ["A table is already open here."]
    rec = await world.slash(bob, "rules")
    assert fake.texts_for(rec)[0].startswith("📜 House rules")
    await world.slash(bob, "join")
    rec = await world.slash(alice, "addbot", strategy="basic")
    assert fake.texts_for(rec) == ["✅"]
    info = await world.info()
    assert [(s.name, s.bot) for s in info.seats] == [
        ("Alice", None),
        ("Bob", None),
        ("Bot 1", "basic"),
    ]
    rec = await world.slash(bob, "stop")
    assert fake.texts_for(rec) == [NOT_HOST]
    await world.slash(alice, "start")
    assert (await world.info()).status == "playing"
    rec = await world.slash(carol, "join")  # mid-game: dealt in at the next round
    assert fake.texts_for(rec) == ["You are in: you will be dealt in at the next round."]
    table = await world.table_message()
    assert "Joining next round: Carol" in table.content
    await world.slash(bob, "leave")
    assert "Bob left the table." in table.content
    await world.slash(alice, "stop")
    assert table.components == []
    assert "⏹ The game was stopped." in table.content
    assert "Alice stopped the game." in table.content
    # no table now: the rules are this server's defaults, the hand is nowhere
    rec = await world.slash(bob, "rules")
    assert fake.texts_for(rec)[0].startswith("📜 Official rules")  # settings were not changed
    rec = await world.slash(bob, "hand")
    assert fake.texts_for(rec) == ["There is no open table here."]
    rec = await world.slash(bob, "stats")
    assert fake.texts_for(rec) == ["No statistics yet: finish a game first."]
    rec = await world.slash(carol, "help")
    assert "/uno leaderboard" in fake.texts_for(rec)[0]
    assert all(m.audience is not None for m in fake.private(carol))
    assert fake.errors == []


async def test_the_outbox_sends_the_latest_and_one_at_a_time() -> None:
    box = Outbox()
    sent: list[int] = []
    running = 0
    most = 0

    def job(n: int):  # type: ignore[no-untyped-def]
        async def run() -> None:
            nonlocal running, most
            running += 1
            most = max(most, running)
            await asyncio.sleep(0.01)
            sent.append(n)
            running -= 1

        return run

    futures = [box.put("t:1", "table", job(n)) for n in range(5)]
    await asyncio.sleep(0.001)
    futures += [box.put("t:1", "table", job(n)) for n in range(5, 9)]
    box.put("t:1", None, job(100))
    await asyncio.gather(*futures)
    await box.drain()
    assert sent == [4, 8, 100]  # the first burst, then the second, each as its latest
    assert most == 1
    assert box.coalesced == 7


async def test_addbot_offers_the_expert_in_every_language(world: World) -> None:
    alice = world.users[0]
    await world.slash(alice, "new")
    rec = await world.slash(alice, "addbot", strategy="expert")  # a registered choice
    assert world.fake.texts_for(rec) == ["✅"]
    info = await world.info()
    assert [(s.name, s.bot) for s in info.seats] == [("Alice", None), ("Bot 1", "expert")]
    cmds = [
        *world.fake.global_commands,
        *(c for cs in world.fake.guild_commands.values() for c in cs),
    ]
    uno = next(c for c in cmds if c["name"] == "uno")
    addbot = next(o for o in uno["options"] if o["name"] == "addbot")
    strategy = next(o for o in addbot["options"] if o["name"] == "strategy")
    expert = next(c for c in strategy["choices"] if c["value"] == "expert")
    assert expert["name"] == "Expert"
    assert expert["name_localizations"] == {"zh-CN": "高手", "zh-TW": "高手"}
