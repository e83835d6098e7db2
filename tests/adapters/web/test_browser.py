"""The web table in a real browser (issue 21 e): Debian's Chromium driven by Playwright.

Four Telegram Mini App pages (initData signed here with the bot's token, handed over by a
stand-in for telegram-web-app.js) play a whole game by tapping their cards and moves, a
move made in the chat shows in them, and a page reloaded mid-game carries on. A Discord
player's link opens their page and plays."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from engine import Draw
from tests.adapters.web.browser import launch, page_of
from tests.adapters.web.conftest import WebWorld, game, init_data

STEP_MS = 5000


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async for b in launch():
        yield b


async def until(page: Any, js: str, timeout: float = STEP_MS) -> None:
    """Wait until ``js`` (an expression) is true in ``page``, polled from here: the page's
    own Content Security Policy forbids the string evaluation ``wait_for_function`` uses."""
    for _ in range(int(timeout / 25)):
        if await page.evaluate(f"() => Boolean({js})"):
            return
        await page.wait_for_timeout(25)
    raise AssertionError(f"timed out waiting for {js}")


async def _move(page: Any) -> None:
    """What a person would do: a card that can be played (its UNO call too), else the first
    move offered (take the penalty, draw, pass, a colour, challenge)."""
    lit = page.locator("#hand .card.lit:not([disabled])")
    if await lit.count():
        await lit.first.click()
        chooser = page.locator("#chooser[open]")
        if await chooser.count():
            uno = page.locator("#choices button[data-intent$='!']")
            choice = uno.first if await uno.count() else page.locator("#choices button").first
            await choice.click()
        return
    await page.locator("#moves button:not([disabled])").first.click()


async def test_four_mini_app_pages_play_a_whole_game(world: WebWorld, browser: Any) -> None:
    key = "tg:-100"
    people = await game(world.service, key=key, players=4, hand_size=3, target=0)
    table = world.links.table_token(key)
    pages = {}
    for i, p in enumerate(people, 1):
        page = await page_of(browser, init_data=init_data(i, name=f"P{i}", start=table))
        await page.goto(f"{world.origin}/tg/")
        pages[p] = page
    for page in pages.values():
        await page.wait_for_selector("#hand .card", timeout=STEP_MS)
    reloaded = chat_moved = False
    for step in range(400):
        info = await world.service.table(key)
        assert info is not None and info.view is not None
        if info.status != "playing":
            break
        current = info.view.current
        assert current is not None
        if step == 3 and not chat_moved:
            # a move in the chat: every page shows it
            chat_moved = True
            await world.service.act(key, current, Draw(), seen_version=info.version)
            for page in pages.values():
                await until(page, f"Number(document.body.dataset.version) > {info.version}")
            continue
        page = pages[current]
        if step == 6 and not reloaded:
            reloaded = True
            await page.reload()
            await page.wait_for_selector("#hand .card", timeout=STEP_MS)
        await until(page, f"Number(document.body.dataset.version) >= {info.version}")
        await _move(page)
        await until(page, f"Number(document.body.dataset.version) > {info.version}")
    info = await world.service.table(key)
    assert info is not None and info.status == "finished", info.status
    assert reloaded and chat_moved
    for page in pages.values():  # every page ends on the final table, the scores shown
        await until(page, "document.body.dataset.status === 'finished'")
        assert await page.locator("#scores").is_visible()
    # every page of the chat's table was shown to the chat too (moves from the pages)
    assert len(world.chat.of("table")) > 10


async def test_a_discord_link_opens_the_players_page(world: WebWorld, browser: Any) -> None:
    key = "dc:100"
    p1, _p2 = await game(world.service, key=key, players=2)
    info = await world.service.table(key)
    assert info is not None and info.view is not None
    me = info.view.current or p1
    token = world.links.player_token(key, me, info.created)
    page = await page_of(browser)
    await page.goto(f"{world.origin}/#p={token}")
    await page.wait_for_selector("#hand .card")
    names = await page.locator(".seat .name").all_inner_texts()
    assert names == ["P1", "P2"] or sorted(names) == ["P1", "P2"]
    await _move(page)
    await until(page, f"Number(document.body.dataset.version) > {info.version}")
    # a watcher's page (the public link) shows the table, never a hand
    watcher = await page_of(browser, scheme="dark")
    await watcher.goto(f"{world.origin}/#t={world.links.table_token(key)}")
    await watcher.wait_for_selector(".seat")
    assert await watcher.locator("#hand .card").count() == 0
    assert await watcher.locator("#banner").is_visible()
    # a link of the game once it ended: the page says so
    assert (await world.service.stop_game(key, p1)).ok
    dead = await page_of(browser)
    await dead.goto(f"{world.origin}/#p={token}")
    await until(dead, "document.body.dataset.gone === 'true'")
    assert "no longer valid" in await dead.locator("#banner").inner_text()
