"""Shards: the fake Discord shards as the gateway does, and the bot runs the shards
``UNO_DISCORD_SHARDS`` names, in one process or spread over several (here: "processes" in
this test process, each with a store of its own on one PostgreSQL database)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import yarl
from pydantic import SecretStr

from adapters.discord import Adapter
from bot.model import Seat
from bot.ops.config import Settings
from bot.port import RoutingPort
from bot.service import Service
from bot.store import SqliteStore
from engine import scenario
from tests.adapters.discord.harness import Cluster, World, scenario_table
from tests.fakes.discord_api import FakeDiscord, Guild, User

SERVER_ONLY = "UNO is played in server channels."


@pytest.fixture
async def make_cluster(postgres_url: str) -> AsyncIterator[Callable[..., Awaitable[Cluster]]]:
    made: list[Cluster] = []

    async def make(shards: list[str], **kwargs: Any) -> Cluster:
        c = Cluster(postgres_url, shards, **kwargs)
        made.append(c)
        await c.fake.start()
        return c

    yield make
    for c in made:
        await c.close()


async def _identify(fake: FakeDiscord, shard: Any) -> int | None:
    """IDENTIFY on a raw connection to the fake's gateway; the close code it answers."""
    async with aiohttp.ClientSession() as http, http.ws_connect(fake.gateway_url) as ws:
        hello = json.loads((await ws.receive()).data)
        assert hello["op"] == 10
        d: dict[str, Any] = {"token": fake.token, "intents": 1, "properties": {}}
        if shard is not None:
            d["shard"] = shard
        await ws.send_str(json.dumps({"op": 2, "d": d}))
        msg = await ws.receive()
        if msg.type is aiohttp.WSMsgType.TEXT:
            assert json.loads(msg.data)["t"] == "READY"
            return None
        return ws.close_code


async def test_the_fake_gateway_refuses_what_discord_refuses() -> None:
    """A shard id out of its count: 4010; a session that would carry 2,500 servers or
    more: 4011 (sharding required), unsharded or not; a smaller share is welcome."""
    fake = FakeDiscord()
    await fake.start()
    try:
        fake.add_guilds(2500)
        assert await _identify(fake, [4, 4]) == 4010
        assert await _identify(fake, [0, 0]) == 4010
        assert await _identify(fake, "0,1") == 4010
        assert await _identify(fake, None) == 4011
        assert await _identify(fake, [0, 1]) == 4011
        assert await _identify(fake, [1, 3]) is None
        assert fake.recommended_shards == 3
    finally:
        await fake.close()


async def test_an_unsharded_bot_in_2500_servers_is_refused_and_auto_shards(
    tmp_path: Path,
) -> None:
    """In 2,500 servers a bot must shard: an unsharded client is closed with 4011, and so
    is ``UNO_DISCORD_SHARDS=0/1``; ``auto`` runs the shards Discord recommends (3 here),
    each carrying its share of the servers, and the bot plays in them."""
    world = World(tmp_path / "uno.sqlite3")
    world.fake.max_concurrency = 16
    world.fake.add_guilds(2499)  # and the world's own
    await world.fake.start()
    try:
        plain = discord.Client(intents=discord.Intents.none())
        discord.http.Route.BASE = world.fake.api_url
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(world.fake.gateway_url)
        with pytest.raises(discord.ConnectionClosed) as closed:
            await plain.start(world.fake.token)
        assert closed.value.code == 4011
        await plain.close()

        one = Settings(
            _env_file=None,
            db=str(tmp_path / "one.sqlite3"),
            discord_token=SecretStr(world.fake.token),
            discord_api_url=world.fake.api_url,
            discord_shards="0/1",
        )
        store = SqliteStore(tmp_path / "one.sqlite3")
        await store.open()
        try:
            adapter = Adapter(one, Service(store, RoutingPort(), one), guild_ready_timeout=0.05)
            with pytest.raises(discord.ConnectionClosed) as closed:
                await adapter.start(timeout=10)
            assert closed.value.code == 4011
        finally:
            await store.close()
        assert [c for *_, c in world.fake.identify_log] == [4011, 4011]

        await world.boot()  # UNO_DISCORD_SHARDS=auto (the default)
        assert world.bot.client is not None
        assert world.fake.shards_connected == {0, 1, 2}
        sessions = [(k, n) for _, k, n, code in world.fake.identify_log if code is None]
        assert sorted(sessions) == [(0, 3), (1, 3), (2, 3)]
        assert len(world.bot.client.guilds) == 2500
        alice = world.users[0]
        rec = await world.slash(alice, "new")
        assert rec.acked_at is not None
        assert "Alice" in (await world.table_message()).content
    finally:
        await world.close()


async def test_identifies_take_turns_per_bucket(make_cluster: Any) -> None:
    """Discord lets ``max_concurrency`` shards identify per 5 seconds, one per bucket
    (``shard_id % max_concurrency``), for the whole bot: two processes with a shard each
    in the one bucket take turns (a lease in the database); with two buckets they do not
    wait for each other."""
    cluster: Cluster = await make_cluster(["0/2", "1/2"], max_concurrency=1, identify_seconds=0.5)
    await cluster.boot()
    a, b = (t for t, *_ in cluster.fake.identify_log)
    assert b - a >= 0.45
    await cluster.halt()
    cluster.fake.max_concurrency = 2
    cluster.fake.identify_log.clear()
    cluster.shards = ["0/2"]
    await cluster.boot()
    await cluster.start_node("1/2")
    a, b = (t for t, *_ in cluster.fake.identify_log)
    assert b - a < 0.45
    assert cluster.fake.shards_connected == {0, 1}


def _guilds(cluster: Cluster, count: int) -> list[tuple[Guild, User]]:
    """A server on each shard ``0..count-1`` (of ``count``), with a channel and a member."""
    out = []
    for k in range(count):
        g = cluster.fake.add_guild(f"server {k}", shard=(k, count))
        cluster.fake.add_channel(g, "uno")
        out.append((g, cluster.fake.add_user(g, f"Player {k}")))
    return out


async def test_each_interaction_is_answered_by_the_process_running_its_shard(
    make_cluster: Any,
) -> None:
    """Four shards over two processes: a server's interactions go to the process running
    its shard (``(guild_id >> 22) % 4``), direct messages to shard 0's; the commands are
    registered once, by the process running shard 0."""
    cluster: Cluster = await make_cluster(["0-1/4", "2-3/4"])
    servers = _guilds(cluster, 4)
    await cluster.boot()
    first, second = cluster.nodes
    assert cluster.fake.shards_connected == {0, 1, 2, 3}
    assert cluster.fake.command_puts == 1
    assert len(cluster.fake.calls_to("/commands$", "GET")) == 1
    for k, (guild, user) in enumerate(servers):
        node = cluster.node_of(guild)
        assert node is (first if k < 2 else second)
        other = second if node is first else first
        assert node.adapter.client is not None and other.adapter.client is not None
        assert node.adapter.client.get_guild(guild.id) is not None
        assert other.adapter.client.get_guild(guild.id) is None
        answered = (len(first.adapter.ack_latencies), len(second.adapter.ack_latencies))
        channel = next(iter(guild.channels.values()))
        rec = await cluster.slash(user, "new", channel)
        assert rec.acked_at is not None
        after = (len(first.adapter.ack_latencies), len(second.adapter.ack_latencies))
        assert after[0] - answered[0] == (1 if node is first else 0)
        assert after[1] - answered[1] == (1 if node is second else 0)
        assert user.name in (await cluster.table_message(channel)).content

    answered = (len(first.adapter.ack_latencies), len(second.adapter.ack_latencies))
    dm = await cluster.fake.dm_slash(servers[3][1], "help")
    await cluster.settle()
    assert dm.acked_at is not None and cluster.fake.texts_for(dm) == [SERVER_ONLY]
    after = (len(first.adapter.ack_latencies), len(second.adapter.ack_latencies))
    assert after == (answered[0] + 1, answered[1])  # answered by shard 0's process only
    assert cluster.fake.errors == []


async def test_a_process_fires_another_s_deadline_and_shows_the_hand(
    make_cluster: Any,
) -> None:
    """A process that never received a table's interactions fires its deadline (the
    table's own process stopped firing: stuck, or dead) and shows the change: the table
    message, and the hand message a player opened and pressed through the other process,
    edited through the token kept with the table."""
    cluster: Cluster = await make_cluster(["0/2", "1/2"])
    (_, _), (guild, alice) = _guilds(cluster, 2)
    channel = next(iter(guild.channels.values()))
    key = cluster.key(channel)
    bot = f"bot:{key}:1"
    game = scenario(
        {f"dc:{alice.id}": ["R1", "R2", "G5"], bot: ["R3", "Y4", "Y5"]},
        ["R9"],
        ["G6", "G2", "G3", "G7"],
        current=f"dc:{alice.id}",
    )
    seats = [Seat(f"dc:{alice.id}", "Player 1"), Seat(bot, "Bot 1", "smart")]
    await cluster.boot(tables=[scenario_table(key, f"dc:g:{guild.id}", game, seats)])
    owner = cluster.node_of(guild)
    opened = await cluster.slash(alice, "hand", channel)
    assert opened.original is not None
    hand = cluster.fake.messages[opened.original]
    await owner.service.timers.stop()  # from now on its deadlines fire nowhere but there
    edits = len([s for s in cluster.fake.shown if s.message_id == hand.id])
    start = (await cluster.info(channel)).version
    await cluster.fake.press(alice, hand, cluster.button(hand, "play", "R1"))
    for _ in range(100):  # her move, then the bot's, overdue: taken over within seconds
        await asyncio.sleep(0.1)
        now = await cluster.info(channel)
        if now.version >= start + 2:
            break
    await cluster.settle()
    info = await cluster.info(channel)
    assert info.version == start + 2 and info.view is not None
    assert info.view.current == f"dc:{alice.id}"
    # drawn by the other process (the owner fires nothing now), through the token it took
    # up from the table: the hand shows the version only that process committed
    later = [s for s in cluster.fake.shown if s.message_id == hand.id][edits:]
    assert later[-1].via == "webhook"
    assert "Your turn" in hand.content, hand.content
    assert f":{info.version}:" in str(cluster.button(hand, "play", "R2"))
    table = await cluster.table_message(channel)
    assert "Bot 1" in table.content and f":{info.version}" in str(table.components)
    assert cluster.fake.errors == []


def _hand_part(content: str) -> str:
    """A hand message's cards and whose turn it is, without the lines under them."""
    return "\n\n".join(content.split("\n\n")[:2])


async def test_edits_from_two_processes_end_on_the_newest_version(
    make_cluster: Any,
) -> None:
    """One process's edit of a hand message lands late, after another process drew a newer
    version into it: it is drawn again, so the message ends on the newest version."""
    cluster: Cluster = await make_cluster(["0/2", "1/2"])
    (_, _), (guild, alice) = _guilds(cluster, 2)
    channel = next(iter(guild.channels.values()))
    bob = cluster.fake.add_user(guild, "Bob")
    game = scenario(
        {f"dc:{alice.id}": ["R1", "R2", "G5"], f"dc:{bob.id}": ["R3", "Y4", "Y5"]},
        ["R9"],
        ["G6", "G2", "G3", "G7"],
        current=f"dc:{alice.id}",
    )
    seats = [Seat(f"dc:{alice.id}", "Player 1"), Seat(f"dc:{bob.id}", "Bob")]
    table = scenario_table(cluster.key(channel), f"dc:g:{guild.id}", game, seats)
    await cluster.boot(tables=[table])
    owner = cluster.node_of(guild)
    other = next(n for n in cluster.nodes if n is not owner)
    opened = await cluster.slash(alice, "hand", channel)
    hand = cluster.fake.messages[opened.original or 0]
    before = await cluster.info(channel)
    stale = hand.content  # her turn, at this version
    assert "Your turn" in stale
    # the other process draws Alice's hand for this version (through the token kept with
    # the table); its edit is held up on the way
    held = cluster.fake.hold("PATCH", f"/messages/{hand.id}$")
    try:
        await other.adapter.show_table(before, [])
        await asyncio.wait_for(held.arrived.wait(), 5)
        # meanwhile Alice plays (through the table's own process, which draws her hand
        # through her press's token): Bob's turn
        await cluster.fake.press(alice, hand, cluster.button(hand, "play", "R1"))
        for _ in range(100):
            await asyncio.sleep(0.05)
            if "Your turn" not in hand.content:
                break
        fresh = hand.content
        after = await cluster.info(channel)
        assert after.version > before.version and "Your turn" not in fresh
    finally:
        held.release()  # the stale edit lands: her hand shows her turn again ...
    await cluster.settle()
    # ... until the process that sent it sees the newer version and draws that (the few
    # private lines under a hand are the drawing process's own: the hand is what counts)
    edits = [_hand_part(s.content) for s in cluster.fake.shown if s.message_id == hand.id]
    assert edits[-3:] == [_hand_part(fresh), _hand_part(stale), _hand_part(fresh)], edits
    assert cluster.button(hand, "play") is None
    assert cluster.fake.errors == []
