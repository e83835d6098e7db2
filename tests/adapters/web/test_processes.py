"""Two processes on one PostgreSQL database (issue 21 c): a commit in one reaches the pages
held by the other (``NOTIFY``), news too, and a page on either plays: two services with
their web tables in this process, then two real ``uno-bot run`` OS processes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from adapters.web import Web
from bot.port import RecordingPort
from bot.service import Service
from bot.store import store_for
from engine import Draw
from tests.adapters.web.conftest import (
    Page,
    WebWorld,
    free_port,
    game,
    init_data,
    web_settings,
)
from tests.adapters.web.run import BotRun, chat_rules, start_run
from tests.fakes.telegram_api import FakeBotAPI


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


@pytest.mark.soak  # ~20 s: two processes started and stopped (the short version is above)
async def test_two_real_processes_on_postgresql_with_pages_on_both(
    postgres_url: str, tmp_path: Path
) -> None:
    """Two ``uno-bot run`` OS processes (the fake Telegram, polling: one polls, the other
    stands by) on one PostgreSQL database, each serving the web table: three players'
    pages and a watcher's spread over both. Every move made on a page of either process
    reaches every page of both (``NOTIFY``), each hand only its owner's pages."""
    api = FakeBotAPI()
    await api.start()
    g = api.group("Friends")
    key = f"tg:{g.id}"
    users = [api.user(f"P{i}", started=True) for i in range(1, 4)]
    await chat_rules(postgres_url, key, hand_size=4, target=0)
    runs: list[BotRun] = []
    session = aiohttp.ClientSession()
    try:
        for tag in ("p1", "p2"):
            tg = {"UNO_TELEGRAM_TOKEN": api.token, "UNO_TELEGRAM_WEBAPP": "table",
                  "UNO_TELEGRAM_API_URL": api.base_url_for(tag)}  # fmt: skip
            runs.append(await start_run(postgres_url, tmp_path, **tg))
        a, b = runs
        host, *others = users
        await host.send(g, "/new")

        def startapp() -> str | None:
            for m in api.bot_messages(g):
                for button in m.buttons():
                    if "startapp=" in button.get("url", ""):
                        return str(parse_qs(urlsplit(button["url"]).query)["startapp"][0])
            return None

        table = await api.wait_for(startapp, 10)

        async def page(run: BotRun, hello: dict[str, Any]) -> Page:
            ws = await session.ws_connect(f"{run.url}/ws", origin=run.url)
            p = Page(ws)
            p.task = asyncio.create_task(p._read())
            await p.send({"type": "hello", **hello})
            await p.until(lambda: p.of("table"), 10)
            return p

        watchers = [await page(a, {"table": table}), await page(b, {"table": table})]
        for u in others:
            await u.send(g, "/join")
        await watchers[1].until(lambda: len(watchers[1].frames[-1].get("seats", ())) == 3, 10)
        await host.send(g, "/start")
        await watchers[0].until(lambda: watchers[0].last("table")["status"] == "playing", 10)
        where = {users[0].pid: a, users[1].pid: b, users[2].pid: a}
        players: dict[str, Page] = {}
        for u in users:
            players[u.pid] = await page(
                where[u.pid], {"initData": init_data(u.id, name=u.first_name, start=table,
                                                     token=api.token)})  # fmt: skip
        everyone = [*watchers, *players.values()]
        moved = {a.port: 0, b.port: 0}
        for _ in range(8):
            t = watchers[0].last("table")
            assert t is not None
            if t["status"] != "playing":
                break
            v, current = t["version"], t["current"]
            mover = players[current]
            hand = await mover.until(
                lambda m=mover, v=v: next(
                    (h for h in m.of("hand") if h["version"] >= v and h.get("cards")), None
                )
            )
            intents = [p["intent"] for p in hand["plays"]] + [
                c["intent"] for row in hand["moves"] for c in row["controls"]
            ]
            await mover.press(intents[0])
            moved[where[current].port] += 1
            for p in everyone:  # the pages of both processes have the move
                await p.version(v + 1, timeout=10)
        assert moved[a.port] and moved[b.port], moved  # moves made on each process's pages
        for pid, p in players.items():  # each hand to its owner's page only
            assert {h["player"] for h in p.of("hand") if "player" in h} == {pid}
        for w in watchers:
            assert w.of("hand") == []
    finally:
        await session.close()
        codes = [await r.stop() for r in runs]
        await api.stop()
    assert codes == [0, 0], [r.tail() for r in runs]
