"""The web table on a real service and store, its server on a free loopback port, pages as
plain aiohttp WebSocket clients recording every frame they get."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.web import Web
from adapters.web.identity import sign_init_data
from bot.model import PLAYING, Seat, Table
from bot.ops.config import Settings
from bot.port import RecordingPort
from bot.service import Service
from bot.store import Store, WriteBatch, store_for
from bot.weblinks import Links
from engine import Rules, scenario

SECRET = "a-test-secret-of-the-web-table"
BOT_TOKEN = "123456:TEST-token-of-the-bot"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web_settings(port: int, db: str, **kw: Any) -> Settings:
    base: dict[str, Any] = {
        "db": db,
        "web_url": f"http://127.0.0.1:{port}",
        "web_listen": "127.0.0.1",
        "web_port": port,
        "web_secret": SECRET,
        "telegram_token": BOT_TOKEN,
        "lobby_seconds": 600,
        "round_pause_seconds": 0.05,
        "bot_delay": 0.0,
    }
    base.update(kw)
    return Settings(_env_file=None, **base)


def init_data(uid: int, *, name: str = "Ann", start: str | None = None,
              auth_date: float | None = None, lang: str = "en",
              token: str = BOT_TOKEN) -> str:  # fmt: skip
    fields = {
        "auth_date": str(int(auth_date if auth_date is not None else time.time())),
        "query_id": "AAE-query",
        "user": json.dumps({"id": uid, "first_name": name, "language_code": lang}),
    }
    if start is not None:
        fields["start_param"] = start
    return sign_init_data(fields, token)


@dataclass
class Page:
    """One page: its socket and every frame it got (parsed)."""

    ws: aiohttp.ClientWebSocketResponse
    frames: list[dict[str, Any]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    closed_code: int | None = None

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))
        self.closed_code = self.ws.close_code

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") == kind]

    def last(self, kind: str) -> dict[str, Any] | None:
        found = self.of(kind)
        return dict(found[-1]) if found else None

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(message))

    async def press(self, intent: str) -> None:
        await self.send({"type": "press", "intent": intent})

    async def until(self, pred: Callable[[], Any], timeout: float = 5.0) -> Any:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            found = pred()
            if found:
                return found
            await asyncio.sleep(0.01)
        raise AssertionError(f"timed out; last frames: {self.frames[-3:]}")

    async def version(self, v: int, timeout: float = 5.0) -> dict[str, Any]:
        """The first table frame at version ``v`` or later."""
        found: dict[str, Any] = await self.until(
            lambda: next((f for f in self.of("table") if f["version"] >= v), None), timeout
        )
        return found


@dataclass
class WebWorld:
    service: Service
    store: Store
    chat: RecordingPort
    web: Web
    port: int
    links: Links
    session: aiohttp.ClientSession
    pages: list[Page] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def open(self, hello: dict[str, Any], *, path: str = "/ws",
                   origin: str | None = None) -> Page:  # fmt: skip
        ws = await self.session.ws_connect(f"{self.origin}{path}", origin=origin or self.origin)
        page = Page(ws)
        page.task = asyncio.create_task(page._read())
        await page.send({"type": "hello", **hello})
        self.pages.append(page)
        return page

    async def player(self, key: str, player: str) -> Page:
        info = await self.service.table(key)
        assert info is not None
        token = self.links.player_token(key, player, info.created)
        page = await self.open({"link": token})
        await page.until(lambda: page.of("table"))
        return page

    async def spectator(self, key: str) -> Page:
        page = await self.open({"table": self.links.table_token(key)})
        await page.until(lambda: page.of("table"))
        return page


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[WebWorld]:
    port = free_port()
    s = web_settings(port, str(tmp_path / "uno.sqlite3"))
    store = store_for(s.db)
    await store.open()
    chat = RecordingPort()
    web = Web(s)
    service = Service(store, web.port(chat), s, seed=3, bot_delay=0.0)
    web.attach(service)
    await service.start(run_timers=False)
    await web.start()
    session = aiohttp.ClientSession()
    w = WebWorld(service, store, chat, web, port, web.links, session)
    try:
        yield w
    finally:
        for p in w.pages:
            await p.ws.close()
            if p.task is not None:
                await asyncio.gather(p.task, return_exceptions=True)
        await session.close()
        await web.stop()
        await service.stop()
        await store.close()


async def game(service: Service, key: str = "dc:100", players: int = 2, bots: int = 0,
               **overrides: Any) -> list[str]:  # fmt: skip
    """A table at ``key`` with ``players`` people (``dc:1``…) and ``bots`` bot seats, dealt."""
    people = [f"{key.split(':', maxsplit=1)[0]}:{i}" for i in range(1, players + 1)]
    r = await service.create(key, key, people[0], "P1", overrides=overrides or None)
    assert r.ok, r
    for i, p in enumerate(people[1:], 2):
        assert (await service.join(key, p, f"P{i}")).ok
    for _ in range(bots):
        assert (await service.add_bot(key, people[0])).ok
    assert (await service.start_game(key, people[0])).ok
    return people


async def staged(world: WebWorld, key: str, hands: dict[str, list[str]], discard: list[str],
                 draw_pile: Sequence[str] = (), **overrides: Any) -> list[str]:  # fmt: skip
    """A table at ``key`` in play with a hand-made round (``engine.scenario``: ``hands`` in
    seat order, the first to play; the discard pile, top last), written into the store as
    the service finds a table it never held: the players' ids."""
    rules = Rules.preset("official", **overrides)
    game_ = scenario(hands, discard, draw_pile, rules=rules)
    seats = tuple(Seat(p, f"P{i}") for i, p in enumerate(hands, 1))
    now = time.time()
    t = Table(key=key, scope=key, host=seats[0].id, status=PLAYING, version=5, turn_version=5,
              game_no=1, seats=seats, preset="official", overrides=dict(overrides),
              created=now, updated=now)  # fmt: skip
    await world.store.write(WriteBatch(tables=[t.evolve(game=game_)]))
    return list(hands)
