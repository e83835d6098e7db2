"""What operators see of the Discord adapter: its connection in ``/healthz`` (per shard
where it has shards), and the 429s of its HTTP client counted in the metrics."""

from __future__ import annotations

from types import SimpleNamespace

from adapters.discord.adapter import _shards
from bot.metrics import Metrics
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
