"""What operators see of the Discord adapter: its connection in ``/healthz`` (per shard
where it has shards), and the 429s of its HTTP client counted in the metrics."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Any
from unittest.mock import MagicMock
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from adapters.discord import markup
from adapters.discord.adapter import _shards
from bot.ops.metrics import Metrics
from tests.adapters.discord.harness import World


def up(state: object) -> bool:
    return state is True or (isinstance(state, dict) and bool(state) and all(state.values()))


async def test_connected_while_the_gateway_is(world: World) -> None:
    assert up(world.bot.connected())
    adapter = world.bot
    await world.halt()
    assert adapter.connected() is False


async def test_the_http_client_counts_429s(world: World) -> None:
    client = world.bot.client
    assert client is not None
    trace = client.http.http_trace
    assert trace is not None
    label = _shards(client)
    m = Metrics("p")
    before = m.value("uno_platform_rate_limited_total", platform="dc", shard=label)
    for status in (429, 200, 429):
        params = SimpleNamespace(response=SimpleNamespace(status=status))
        for handler in trace.on_request_end:
            await handler(None, SimpleNamespace(), params)
    after = m.value("uno_platform_rate_limited_total", platform="dc", shard=label)
    assert after == before + 2


def test_shard_labels() -> None:
    plain = SimpleNamespace(shard_id=None, shard_count=None)
    assert _shards(plain) == ""  # type: ignore[arg-type]
    one = SimpleNamespace(shard_id=0, shard_count=2)
    assert _shards(one) == "0/2"  # type: ignore[arg-type]
    many = SimpleNamespace(shard_ids=[2, 3], shard_id=None, shard_count=4)
    assert _shards(many) == "2-3/4"  # type: ignore[arg-type]


async def test_the_bot_logs_its_own_invite_url_at_start(
    make_world: Callable[..., Awaitable[World]], caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 19 item 22: the operator is given the link that adds the bot to a server, with
    both scopes and the permissions the bot checks before it posts (``markup.POSTING``)."""
    with caplog.at_level(logging.INFO):
        world = await make_world()
    (url,) = [
        word
        for r in caplog.records
        for word in r.getMessage().split()
        if word.startswith("https://discord.com/oauth2/authorize?")
    ]
    query = parse_qs(urlsplit(url).query)
    assert query["client_id"] == [str(world.fake.app_id)]
    assert query["scope"] == ["bot applications.commands"]
    (value,) = query["permissions"]
    assert discord.Permissions(int(value)) == markup.POSTING
    assert (
        discord.Permissions(view_channel=True, send_messages=True, send_messages_in_threads=True)
        == markup.POSTING
    )


@pytest.mark.parametrize("thread", [False, True])
def test_what_the_invite_asks_for_is_what_posting_needs(thread: bool) -> None:
    """The invite's permissions and ``can_post``'s check are one declaration: each of them
    is needed (in a channel or in a thread), and they are enough."""

    def interaction(perms: discord.Permissions) -> Any:
        channel = MagicMock(spec=discord.Thread) if thread else object()
        return SimpleNamespace(app_permissions=perms, channel=channel)

    assert markup.can_post(interaction(markup.POSTING))
    used = ["view_channel", "send_messages_in_threads" if thread else "send_messages"]
    for name in used:
        perms = discord.Permissions(markup.POSTING.value)
        setattr(perms, name, False)
        assert not markup.can_post(interaction(perms)), name


async def test_no_voice_warnings_at_start(
    make_world: Callable[..., Awaitable[World]],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 19 item 22: a bot that never speaks is not warned that voice needs PyNaCl and
    davey (discord.py warns once a process, at its first client: as if it were this one);
    discord.py's other warnings still reach the log."""
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True, raising=False)
    with caplog.at_level(logging.WARNING):
        await make_world()
        logging.getLogger("discord.client").warning("another warning")
    texts = [r.getMessage() for r in caplog.records]
    assert not [t for t in texts if "voice" in t], texts
    assert "another warning" in texts
