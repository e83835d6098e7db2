"""The web table against the REAL ``uno-bot run`` (an OS process), in Debian's Chromium driven
by Playwright, one browser for the module.

- Telegram (the fake Bot API): a group opens a table with ``/new``, ``/join``, ``/start``; its
  table message's Mini App link (``t.me/<bot>/<app>?startapp=<table token>``) gives the start
  parameter; four pages load ``/tg/`` with a stand-in for telegram-web-app.js handing them
  initData signed here with the bot's token.
- Discord (the fake Discord): ``/uno new``, Join, Start pressed; each player's hand message
  (Show hand) carries the link to their page, opened as it is.

In each, four pages play a whole game by tapping their cards and moves; a move made in the
chat (an inline result on Telegram, a hand's button on Discord) shows in every page; the
moves made on the pages reach the chat's table message, which ends on the game's result;
and a page reloaded mid-game carries on. Whose turn it is comes from a spectator's socket
(the table's public link), a plain aiohttp client.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest
import pytest_asyncio

from adapters.telegram.ids import tid_of
from bot.weblinks import Links
from tests.adapters.discord.harness import World as DiscordWorld
from tests.adapters.telegram.conftest import pick
from tests.adapters.web.browser import launch, move, page_of, until
from tests.adapters.web.conftest import SECRET, Page, init_data
from tests.adapters.web.run import BotRun, chat_rules, start_run
from tests.fakes.discord_api import FakeDiscord, Message
from tests.fakes.telegram_api import FakeBotAPI, FakeMessage, FakeUser

pytestmark = pytest.mark.asyncio(loop_scope="module")

STEP_MS = 8000
RULES = {"target": 0, "hand_size": 3}  # one short round
PLAYING = ("playing", "choosing_color", "challenge")
CHAT_MOVE_AT, RELOAD_AT = 3, 6  # the steps at which the chat moves, a page is reloaded


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Any]:
    async for b in launch():
        yield b


async def watch(session: aiohttp.ClientSession, run: BotRun, table: str) -> Page:
    """A spectator's socket on the table's public token: whose turn, which version."""
    ws = await session.ws_connect(f"{run.url}/ws", origin=run.url)
    page = Page(ws)
    page.task = asyncio.create_task(page._read())
    await page.send({"type": "hello", "table": table})
    await page.until(lambda: page.of("table"), timeout=10)
    return page


async def play_on_pages(
    pages: dict[str, Any],
    watcher: Page,
    chat_move: Callable[[str, int], Awaitable[None]],
) -> None:
    """Play the table to its end: the page of whoever's turn it is moves, but at step
    ``CHAT_MOVE_AT``, where the chat does (every page must show it), and at ``RELOAD_AT``
    that page is reloaded first."""
    reloaded = chat_moved = False
    for step in range(300):
        t = watcher.last("table")
        assert t is not None
        if t["status"] != "playing":
            break
        version, current = t["version"], t.get("current")
        if t.get("phase") not in PLAYING or current not in pages:
            await watcher.until(lambda v=version: watcher.last("table")["version"] > v, 10)
            continue
        if step >= CHAT_MOVE_AT and not chat_moved:
            chat_moved = True
            await chat_move(current, version)
            await watcher.until(lambda v=version: watcher.last("table")["version"] > v, 10)
            for page in pages.values():
                await until(page, f"Number(document.body.dataset.version) > {version}")
            continue
        page = pages[current]
        if step >= RELOAD_AT and not reloaded:
            reloaded = True
            await page.reload()
            await page.wait_for_selector("#hand .card", timeout=STEP_MS)
        await until(page, f"Number(document.body.dataset.version) >= {version}", STEP_MS)
        await move(page)
        await watcher.until(lambda v=version: watcher.last("table")["version"] > v, 10)
    assert reloaded and chat_moved, (reloaded, chat_moved)
    final = watcher.last("table")
    assert final is not None and final["status"] == "finished", final
    for page in pages.values():  # every page ends on the final table, the scores shown
        await until(page, "document.body.dataset.status === 'finished'", STEP_MS)
        assert await page.locator("#scores").is_visible()


async def wait(pred: Callable[[], Any], timeout: float = 10.0, why: str = "") -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = pred()
        if found:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"timed out: {why}")


# -- Telegram ------------------------------------------------------------------------------------


async def test_telegram_mini_app_pages_play_a_whole_game_with_the_real_bot(
    browser: Any, tmp_path: Path
) -> None:
    api = FakeBotAPI()
    await api.start()
    g = api.group("Friends")
    key = f"tg:{g.id}"
    users = [api.user(f"P{i}", started=True) for i in range(1, 5)]
    db = str(tmp_path / "uno.sqlite3")
    await chat_rules(db, key, **RULES)
    run = await start_run(
        db, tmp_path, scale=10.0,
        UNO_TELEGRAM_TOKEN=api.token, UNO_TELEGRAM_API_URL=api.base_url,
        UNO_TELEGRAM_WEBAPP="table",
    )  # fmt: skip
    session = aiohttp.ClientSession()
    try:
        host, *others = users
        await host.send(g, "/new")

        def table_message() -> FakeMessage | None:
            found = [m for m in api.bot_messages(g) if any(
                "startapp=" in b.get("url", "") for b in m.buttons())]  # fmt: skip
            return found[0] if found else None

        msg = await wait(table_message, why=f"the table message\n{run.tail()}")
        link = next(b["url"] for b in msg.buttons() if "startapp=" in b.get("url", ""))
        token = parse_qs(urlsplit(link).query)["startapp"][0]
        watcher = await watch(session, run, token)
        for u in others:
            await u.send(g, "/join")
        await watcher.until(lambda: len(watcher.last("table")["seats"]) == 4, 10)
        await host.send(g, "/start")
        await watcher.until(lambda: watcher.last("table")["status"] == "playing", 10)

        async def mini_app(u: FakeUser) -> Any:
            page = await page_of(browser, init_data=init_data(
                u.id, name=u.first_name, start=token, token=api.token))  # fmt: skip
            await page.goto(f"{run.url}/tg/")
            await page.wait_for_selector("#hand .card", timeout=STEP_MS)
            return page

        opened = await asyncio.gather(*(mini_app(u) for u in users))
        pages = {u.pid: page for u, page in zip(users, opened, strict=True)}

        async def chat_move(current: str, version: int) -> None:
            """The player whose turn it is moves in the chat (an inline result)."""
            user = next(u for u in users if u.pid == current)
            answer = await user.inline(tid_of(key), timeout=10)
            await user.choose(answer, pick(answer), g)

        await play_on_pages(pages, watcher, chat_move)
        # the chat's table message ends on the game's result: the pages' moves reached it
        final = watcher.last("table")
        assert final is not None
        winner = next(s["name"] for s in final["seats"] if s.get("cards") == 0)
        await wait(lambda: "🏆" in msg.text and winner in msg.text, 15,
                   f"the chat's table message ends on the result: {msg.text!r}")  # fmt: skip
        assert len({text for text, _ in msg.history}) > 5  # edited along the game
        for page in pages.values():
            await page.context.close()
    finally:
        await session.close()
        code = await run.stop()
        await api.stop()
    assert code == 0, run.tail()
    assert not [line for line in run.lines if "Traceback" in line], run.tail()


# -- Discord -------------------------------------------------------------------------------------


async def test_discord_hand_links_play_a_whole_game_with_the_real_bot(
    browser: Any, tmp_path: Path
) -> None:
    fake = FakeDiscord()
    guild = fake.add_guild("UNO Club")
    channel = fake.add_channel(guild, "uno")
    users = [fake.add_user(guild, n) for n in ("Ann", "Ben", "Cat", "Dan")]
    await fake.start()
    db = str(tmp_path / "uno.sqlite3")
    await chat_rules(db, f"dc:g:{guild.id}", **RULES)
    run = await start_run(db, tmp_path, UNO_DISCORD_TOKEN=fake.token,
                          UNO_DISCORD_API_URL=fake.api_url)  # fmt: skip
    session = aiohttp.ClientSession()
    key = f"dc:{channel.id}"
    try:

        def table_message() -> Message | None:
            found = [m for m in fake.public(channel) if not m.deleted and any(
                DiscordWorld.button(m, a) for a in ("join", "start", "hand"))]  # fmt: skip
            return found[-1] if found else None

        async def press(user: Any, msg: Message, cid: str) -> Any:
            rec = await fake.press(user, msg, cid)
            await asyncio.wait_for(rec.done.wait(), 10)
            return rec

        host, *others = users
        rec = await fake.slash(host, channel, "new")
        await asyncio.wait_for(rec.done.wait(), 10)
        await wait(table_message, why=f"the table message\n{run.tail()}")
        watcher = await watch(session, run, Links(SECRET).table_token(key))
        for n, u in enumerate(others, 2):
            msg = await wait(table_message, why=f"the table message\n{run.tail()}")
            await press(u, msg, await wait(lambda m=msg: DiscordWorld.button(m, "join")))
            await watcher.until(lambda n=n: len(watcher.last("table")["seats"]) == n, 10)
        board = await wait(table_message)
        await press(host, board, await wait(lambda: DiscordWorld.button(board, "start")))
        await watcher.until(lambda: watcher.last("table")["status"] == "playing", 10)

        async def hand(user: Any) -> Message:
            msg = await wait(table_message)
            cid = await wait(lambda: DiscordWorld.button(msg, "hand"), why="Show hand")
            rec = await press(user, msg, cid)
            mid = await wait(lambda: rec.original, why="the hand message")
            shown = fake.messages[mid]
            await wait(lambda: not shown.loading and shown.buttons(), why="the hand drawn")
            return shown

        links = {}
        for u in users:
            shown = await hand(u)
            urls = [b["url"] for b in shown.buttons() if b.get("style") == 5]
            assert len(urls) == 1 and urls[0].startswith(f"{run.url}/#p="), urls
            links[f"dc:{u.id}"] = urls[0]

        async def linked(url: str) -> Any:
            page = await page_of(browser)
            await page.goto(url)
            await page.wait_for_selector("#hand .card", timeout=STEP_MS)
            return page

        opened = await asyncio.gather(*(linked(url) for url in links.values()))
        pages = dict(zip(links, opened, strict=True))

        async def chat_move(current: str, version: int) -> None:
            """The player whose turn it is moves from their hand message."""
            user = next(u for u in users if f"dc:{u.id}" == current)
            shown = await hand(user)
            for action in ("color", "play", "draw", "pass", "accept"):
                cid = DiscordWorld.button(shown, action)
                if cid is not None:
                    await press(user, shown, cid)
                    return
            sel = DiscordWorld.select(shown, "cards")
            assert sel is not None, shown.components
            rec = await fake.press(user, shown, sel["custom_id"],
                                   value=sel["options"][0]["value"])  # fmt: skip
            await asyncio.wait_for(rec.done.wait(), 10)

        await play_on_pages(pages, watcher, chat_move)
        final = watcher.last("table")
        assert final is not None
        winner = next(s["name"] for s in final["seats"] if s.get("cards") == 0)
        await wait(lambda: winner in board.content and "🏆" in board.content, 15,
                   f"the chat's table message ends on the result: {board.content!r}")  # fmt: skip
        assert len({text for text, _ in board.history}) > 5
        for page in pages.values():
            await page.context.close()
    finally:
        await session.close()
        code = await run.stop()
        await fake.close()
    assert code == 0, run.tail()
    assert not [line for line in run.lines if "Traceback" in line], run.tail()
