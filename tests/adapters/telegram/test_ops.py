"""What operators see of the Telegram adapter: its 429s counted in the metrics, and its
state in ``/healthz`` (``bot.ops.health``)."""

from __future__ import annotations

import json
from pathlib import Path

from aiohttp import ClientSession
from telegram.error import RetryAfter

from adapters.telegram.outbox import Limits, Outbox
from bot.ops.config import Settings
from bot.ops.health import Monitor
from bot.ops.metrics import Metrics
from tests.adapters.telegram.conftest import Harness
from tests.fakes.telegram_api import FakeBotAPI

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


async def test_the_api_url_works_with_or_without_its_bot(api: FakeBotAPI, tmp_path: Path) -> None:
    """Issue 19 item 22: ``UNO_TELEGRAM_API_URL`` is a Bot API server's address, with or
    without the ``/bot`` that python-telegram-bot's ``base_url`` must end in (it appends the
    token to it; without ``/bot`` the token ran into the port: InvalidUrlClientError)."""
    root = api.base_url.removesuffix("/bot")
    for i, url in enumerate((api.base_url, root, f"{root}/", f"{api.base_url}/")):
        h = Harness(api, tmp_path / f"{i}.sqlite3")
        h.settings = Settings(
            _env_file=None,  # type: ignore[call-arg]
            db=h.db,
            telegram_token=api.token,
            telegram_api_url=url,
            telegram_webhook_url=None,
        )
        assert h.settings.telegram_api_url == api.base_url
        before = len(api.calls)
        await h.start()
        try:
            assert h.adapter.connected()
        finally:
            await h.stop()
        assert "getMe" in {c.method for c in api.calls[before:]}
