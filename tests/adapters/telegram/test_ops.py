"""What operators see of the Telegram adapter: its 429s counted in the metrics, and its
state in ``/healthz`` (``bot.monitor``)."""

from __future__ import annotations

import json

from aiohttp import ClientSession
from telegram.error import RetryAfter

from adapters.telegram.outbox import Limits, Outbox
from bot.metrics import Metrics
from bot.monitor import Monitor
from tests.adapters.telegram.conftest import Harness

GROUP = -100123


def limited(m: Metrics) -> float:
    return m.value("uno_platform_rate_limited_total", platform="tg", shard="")


async def test_429s_honoured_by_the_outbox_are_counted() -> None:
    m = Metrics("p")
    before = limited(m)
    box = Outbox(Limits.unlimited())
    tries = []

    async def job() -> None:
        tries.append(1)
        if len(tries) < 3:
            raise RetryAfter(0)

    box.put(GROUP, None, job)
    assert await box.flush(5)
    assert len(tries) == 3 and box.retried == 2
    assert limited(m) == before + 2


async def test_health_follows_the_adapter(tg: Harness) -> None:
    assert tg.adapter.connected() is True
    monitor = Monitor(tg.service, platforms=lambda: [tg.adapter])
    await monitor.start("127.0.0.1", 0)
    monitor.ready()
    try:
        async with (
            ClientSession() as http,
            http.get(f"http://127.0.0.1:{monitor.port}/healthz") as r,
        ):
            body = json.loads(await r.text())
        assert r.status == 200 and body["platforms"] == {"tg": {"connected": True}}
    finally:
        await monitor.stop()
    await tg.stop()
    assert tg.adapter.connected() is False
