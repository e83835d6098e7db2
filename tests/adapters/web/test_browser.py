"""The web table in a real browser (issue 21 e): Debian's Chromium driven by Playwright, on a
service in this process. A Discord player's link opens their page and plays; a watcher's
page shows no hand; a link of an ended game says so. (Whole games against the real
``uno-bot run``, on Telegram and on Discord: ``test_e2e.py``.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.adapters.web.browser import launch, move, page_of, until
from tests.adapters.web.conftest import WebWorld, game


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async for b in launch():
        yield b


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
    await move(page)
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
