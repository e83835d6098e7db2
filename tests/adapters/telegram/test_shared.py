"""Telegram adapters of several processes on one PostgreSQL database (here in one test
process, each with a store, a service and a PTB application of its own; they share the
database and the fake Bot API only). Any of them may show any table, so none may keep in
memory the only copy of what another needs: one table message per table whoever sends it,
each announcement made once, edits that end on the newest version whoever edited last,
private hand messages as the table's data names them, and one poller at a time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import asyncpg
import pytest
from aiohttp import ClientSession

import adapters.telegram.inbound.polling as tg_polling
from adapters.telegram import Adapter, Limits
from bot.model import PLAYING, Seat, Table
from bot.ops.config import Settings
from bot.port import RoutingPort
from bot.service import Service
from bot.store import Store, WriteBatch, store_for
from engine import Play, Rules, scenario
from tests.fakes.telegram_api import FakeBotAPI, FakeChat, FakeMessage

FAST = Limits.unlimited()
NEWS = ("🏁", "🏆")  # how a round's and a game's results start


@dataclass
class Proc:
    """One bot "process": its calls reach the fake through its own tag."""

    tag: str
    store: Store
    service: Service
    adapter: Adapter

    async def stop(self) -> None:
        await self.service.stop()
        await self.adapter.stop()
        await self.store.close()


async def start_proc(api: FakeBotAPI, db: str, tag: str, limits: Limits = FAST) -> Proc:
    settings = Settings(
        _env_file=None,  # type: ignore[call-arg]
        db=db,
        telegram_token=api.token,
        telegram_api_url=api.base_url_for(tag),
        telegram_webhook_url=None,
        round_pause_seconds=0.05,
        bot_delay=0,
        lobby_seconds=600,
    )
    store = store_for(db)
    await store.open()
    router = RoutingPort()
    service = Service(store, router, settings, bot_delay=0)
    adapter = Adapter(settings, service, limits=limits, poll_timeout=1.0)
    router.add(adapter.prefix, adapter)
    await service.start(run_timers=False)
    await adapter.start()
    service.timers.start()
    return Proc(tag, store, service, adapter)


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def two(api: FakeBotAPI, postgres_url: str) -> AsyncIterator[list[Proc]]:
    procs = [await start_proc(api, postgres_url, tag) for tag in ("a", "b")]
    yield procs
    for p in procs:
        await p.stop()


def is_news(m: FakeMessage) -> bool:
    """An announcement: a round's or a game's results (``info.round_won``, ``game_won``),
    nothing else (the final table message starts with the game's result too)."""
    return all(line.startswith(NEWS) for line in m.history[0][0].splitlines())


def boards(api: FakeBotAPI, chat: FakeChat) -> list[FakeMessage]:
    """The table messages in ``chat``."""
    return [m for m in api.bot_messages(chat) if not is_news(m)]


async def settled(procs: list[Proc], check: Callable[[], Any], timeout: float = 8.0) -> None:
    """Wait until ``check()`` holds and every outbox is empty."""
    end = time.monotonic() + timeout
    while True:
        idle = all(p.adapter.outbox is not None and p.adapter.outbox.pending() == 0 for p in procs)
        if idle and check():
            return
        assert time.monotonic() < end, "not settled"
        await asyncio.sleep(0.05)


async def test_a_new_table_gets_one_message_whichever_processes_show_it(
    api: FakeBotAPI, two: list[Proc]
) -> None:
    """a opens the table; its message is on its way (slow) when b seats a player and
    shows the table too: b finds a's claim to send it, waits, and edits a's message."""
    a, b = two
    chat = api.group()
    key, scope = f"tg:{chat.id}", f"tg:{chat.id}"
    api.slow[("a", "sendMessage")] = 0.6
    assert (await a.service.create(key, scope, "tg:1", "Ann")).ok
    await asyncio.sleep(0.2)  # a's message is being sent
    assert (await b.service.join(key, "tg:2", "Bob")).ok
    await settled(two, lambda: any("Bob" in m.text for m in boards(api, chat)))
    [board] = boards(api, chat)
    t = await a.store.get_table(key)
    assert t is not None and t.meta.get("tg_msg") == board.message_id
    assert "tg_sending" not in t.meta  # the claim is given back once sent
    sent_by = {c.via for c in api.of("sendMessage") if c.params.get("chat_id") == chat.id}
    assert sent_by == {"a"}


async def finishing_game(p: Proc, chat: FakeChat) -> str:
    """A game one play from its end (a round of a single-round game), stored."""
    key = f"tg:{chat.id}"
    rules = Rules(target=0)
    game = scenario(
        {"tg:1": ["R5"], "tg:2": ["B1", "G2"]}, ["R1"], current="tg:1", rules=rules,
        draw_pile=["G1", "G3", "G4", "G5", "Y1", "Y2", "Y3", "Y4"],
    )  # fmt: skip
    now = time.time()
    t = Table(
        key=key, scope=key, host="tg:1", status=PLAYING, version=10, turn_version=10,
        game_no=1, seats=(Seat("tg:1", "Ann"), Seat("tg:2", "Bob")), preset="official",
        overrides={"target": 0}, seed=1, _game=game, created=now, updated=now,
    )  # fmt: skip
    await p.store.write(WriteBatch(tables=[t]))
    return key


async def test_a_result_is_announced_once_by_one_of_the_processes(
    api: FakeBotAPI, two: list[Proc]
) -> None:
    """The game is won in a; before a's announcement is out (slow), b shows the table and
    finds the announcement pending: one of them makes it, once."""
    a, b = two
    chat = api.group()
    key = await finishing_game(a, chat)
    shown = await a.service.table(key)
    assert shown is not None
    await a.adapter.show_table(shown, [])  # its message is there: only the news is sent
    await settled(two, lambda: bool(boards(api, chat)))
    api.slow[("a", "sendMessage")] = 0.6
    res = await a.service.act(key, "tg:1", Play("R5"))
    assert res.ok and res.table is not None and res.table.status == "finished"
    await asyncio.sleep(0.3)  # a is making it
    info = await b.service.table(key)
    assert info is not None and [p.code for p in info.pending] == [
        "info.round_won",
        "info.game_won",
    ]
    await b.adapter.show_table(info, [])

    def done() -> bool:
        return any(is_news(m) for m in api.bot_messages(chat))

    await settled(two, done)
    await asyncio.sleep(1.5)  # (b looks again after its claim retry: nothing left to make)
    await settled(two, done)
    news = [m.text for m in api.bot_messages(chat) if is_news(m)]
    assert len(news) == 1 and "🏆" in news[0], news
    t = await a.store.get_table(key)
    assert t is not None and t.shown == t.version and t.meta.get("tg_said") == t.version


async def test_edits_from_two_processes_end_on_the_newest_version(
    api: FakeBotAPI, two: list[Proc]
) -> None:
    """a's edit of an older version lands after b's edit of a newer one (a's network is
    slow): a sees the table moved on meanwhile and draws it again."""
    a, b = two
    chat = api.group()
    key, scope = f"tg:{chat.id}", f"tg:{chat.id}"
    assert (await a.service.create(key, scope, "tg:1", "Ann")).ok
    await settled(two, lambda: bool(boards(api, chat)))
    api.slow[("a", "editMessageText")] = 0.6
    assert (await a.service.join(key, "tg:2", "Bob")).ok  # a draws this: slowly
    await asyncio.sleep(0.2)
    assert (await b.service.join(key, "tg:3", "Cid")).ok  # b draws this: at once
    [board] = boards(api, chat)
    await api.wait_for(lambda: "Cid" in board.text, 3)
    await api.wait_for(lambda: "Cid" not in board.text, 3)  # a's older edit landed
    await settled(two, lambda: "Cid" in board.text and "Bob" in board.text)
    assert [("Cid" in t, "Bob" in t) for t, _ in board.history[-3:]] == [
        (True, True),  # b's
        (False, True),  # a's, older, landing last
        (True, True),  # a's again, the newest
    ]


async def test_a_private_hand_message_is_the_one_the_tables_data_names(
    api: FakeBotAPI, two: list[Proc]
) -> None:
    """b remembers an older private hand message of a player; a sent them a new one since
    (its id in the table's data): b edits the new one."""
    a, b = two
    chat = api.group()
    key = await finishing_game(a, chat)
    ann = api.user("Ann", started=True)
    api.users.pop(ann.id)
    ann.id = 1  # the seat's user
    api.users[1] = ann
    old = await b.adapter.send_hand(key, 1, new=True)  # what b saw last
    await a.service.table(key)
    new = await a.adapter.send_hand(key, 1, new=True)
    assert old is not None and new is not None and new != old
    before = len(api.messages[(1, old)].history)
    await b.adapter.send_hand(key, 1)
    assert len(api.messages[(1, old)].history) == before  # the old one is left alone
    edits = [c for c in api.of("editMessageText") if c.via == "b"]
    assert [c.params["message_id"] for c in edits] == [new]


async def test_a_poller_that_loses_its_lease_stops_polling(
    api: FakeBotAPI, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One poller at a time: the other stands by. Its lease taken (a clock gone wrong, the
    database out of reach), a poller stops polling before another may take the lease; once
    the lease is free, one of them polls again."""
    monkeypatch.setattr(tg_polling, "POLL_LEASE", 1.5)
    monkeypatch.setattr(tg_polling, "POLL_RENEW", 0.5)
    monkeypatch.setattr(tg_polling, "STANDBY_SECONDS", 0.25)
    procs = [await start_proc(api, postgres_url, tag) for tag in ("a", "b")]
    try:
        await api.wait_for(lambda: any(p.adapter.polling for p in procs), 5)
        assert sum(p.adapter.polling for p in procs) == 1
        await asyncio.sleep(1.0)
        assert sum(p.adapter.polling for p in procs) == 1 and api.conflicts == 0
        conn = await asyncpg.connect(postgres_url)
        try:
            await conn.execute("UPDATE leases SET holder = 'thief', until = $1", time.time() + 60)
            await api.wait_for(lambda: not any(p.adapter.polling for p in procs), 3)
            stopped = api.now()
            await asyncio.sleep(1.0)
            assert api.pollers(stopped + 0.1) == []  # nobody polls while the thief holds it
            await conn.execute("DELETE FROM leases")
        finally:
            await conn.close()
        await api.wait_for(lambda: any(p.adapter.polling for p in procs), 3)
        assert sum(p.adapter.polling for p in procs) == 1
        assert api.conflicts == 0
    finally:
        for p in procs:
            await p.stop()


async def test_the_fake_ends_a_getupdates_overtaken_by_another_with_409(api: FakeBotAPI) -> None:
    """As Telegram does: one update stream per token, so a long poll still waiting when
    another comes is ended with 409 Conflict (what shows two pollers at once)."""
    async with ClientSession() as http:

        async def poll(via: str, timeout: int) -> tuple[int, dict[str, Any]]:
            url = f"{api.base_url_for(via)}{api.token}/getUpdates"
            async with http.post(url, json={"timeout": timeout}) as resp:
                return resp.status, await resp.json()

        first = asyncio.create_task(poll("a", 5))
        await api.wait_for(lambda: api.polls, 2)
        status, body = await poll("b", 0)
        assert status == 200 and body["result"] == []
        status, body = await first
        assert status == 409 and "terminated by other getUpdates request" in body["description"]
    assert api.conflicts == 1
    assert [(p.via, p.outcome) for p in api.polls] == [("a", "conflict"), ("b", "ok")]
