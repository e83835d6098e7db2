"""Two processes' worth of service and web table on one PostgreSQL database (issue 21 c): a
commit in one reaches the pages held by the other (``NOTIFY``), news too, and a page on
either plays."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from adapters.web import Web
from bot.port import RecordingPort
from bot.service import Service
from bot.store import store_for
from engine import Draw
from tests.adapters.web.conftest import Page, WebWorld, free_port, game, web_settings


@pytest.fixture
async def two(postgres_url: str, tmp_path: Path) -> AsyncIterator[list[WebWorld]]:
    worlds = []
    session = aiohttp.ClientSession()
    try:
        for _ in range(2):
            port = free_port()
            s = web_settings(port, postgres_url)
            store = store_for(s.db)
            await store.open()
            chat = RecordingPort()
            web = Web(s)
            service = Service(store, web.port(chat), s, seed=3, bot_delay=0.0)
            web.attach(service)
            await service.start(run_timers=False)
            await web.start()
            worlds.append(WebWorld(service, store, chat, web, port, web.links, session))
        yield worlds
    finally:
        for w in worlds:
            for p in w.pages:
                await p.ws.close()
            await w.web.stop()
            await w.service.stop()
            await w.store.close()
        await session.close()


async def test_a_commit_in_one_process_reaches_the_pages_of_the_other(
    two: list[WebWorld],
) -> None:
    a, b = two
    p1, p2 = await game(a.service, players=2)
    watcher: Page = await b.spectator("dc:100")
    player: Page = await b.player("dc:100", p2)
    info = await a.service.table("dc:100")
    assert info is not None and info.view is not None and info.view.current is not None
    # a move made in process a (its chat): process b's pages have it
    r = await a.service.act("dc:100", info.view.current, Draw(), seen_version=info.version)
    assert r.ok
    await watcher.version(info.version + 1)
    await player.until(lambda: any(f.get("version", 0) > info.version and "cards" in f
                                   for f in player.of("hand")))  # fmt: skip
    # and a move made on a page of process b reaches process a's chat and pages
    seen = await a.spectator("dc:100")
    now = await b.service.table("dc:100")
    assert now is not None and now.view is not None
    mover = await b.player("dc:100", now.view.current or p1)
    hand = await mover.until(lambda: next((h for h in mover.of("hand") if h.get("plays")
                                           or h.get("moves")), None))  # fmt: skip
    intents = [p["intent"] for p in hand["plays"]] + [
        c["intent"] for row in hand["moves"] for c in row["controls"]
    ]
    await mover.press(intents[0])
    await seen.version(now.version + 1)
    await asyncio.sleep(0)
    assert any(t.version > now.version for t, _ in a.chat.of("table")) or a.chat.of("table")
    # the game ends in a: b's pages see the end, and the news
    assert (await a.service.stop_game("dc:100", p1)).ok
    await watcher.until(lambda: watcher.last("table")["status"] == "stopped")
    await watcher.until(lambda: any(n["kind"] == "news" for n in watcher.of("notice")))
