"""The web table in a real browser (issue 21 e): Debian's Chromium driven by Playwright, on a
service in this process. A Discord player's link opens their page and plays; a watcher's
page shows no hand; a link of an ended game says so. (Whole games against the real
``uno-bot run``, on Telegram and on Discord: ``test_e2e.py``.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.adapters.web.browser import launch, move, page_of, until
from tests.adapters.web.conftest import WebWorld, game, staged


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


async def test_several_cards_are_picked_then_played_together(
    world: WebWorld, browser: Any
) -> None:
    """``multi_play``: a card that may go with others is picked, not played; the cards that
    may join it are lit and the rest dimmed; "Play the chosen" lays them in one move."""
    key = "dc:300"
    me, other = await staged(
        world, key, {"dc:1": ["R5", "R5", "G2", "B7"], "dc:2": ["Y1", "Y2", "Y3"]},
        ["R9"], ["G1", "G3", "G4", "G6"], multi_play="identical",
    )  # fmt: skip
    info = await world.service.table(key)
    assert info is not None
    page = await page_of(browser)
    await page.goto(f"{world.origin}/#p={world.links.player_token(key, me, info.created)}")
    await page.wait_for_selector("#hand .card")
    fives = page.locator("#hand .card[data-code='R5']")
    assert await fives.count() == 2
    assert await page.locator("#picked").is_hidden()
    await fives.nth(0).click()
    # picked, not played: the other five may join it, the rest may not
    await until(page, "document.querySelector('#hand .card.picked') !== null")
    assert await page.locator("#hand .card.picked").count() == 1
    assert "lit" in (await fives.nth(1).get_attribute("class") or "")
    for code in ("G2", "B7"):
        assert "off" in (
            await page.locator(f"#hand .card[data-code='{code}']").get_attribute("class") or ""
        )
    assert (await world.service.table(key)).version == info.version  # type: ignore[union-attr]
    assert await page.locator("#play-picked").inner_text() == "Play the chosen (1)"
    await fives.nth(1).click()
    assert await page.locator("#hand .card.picked").count() == 2
    assert await page.locator("#play-picked").inner_text() == "Play the chosen (2)"
    # "Choose again" puts them back
    await page.locator("#clear-picked").click()
    assert await page.locator("#hand .card.picked").count() == 0
    assert await page.locator("#picked").is_hidden()
    await fives.nth(0).click()
    await fives.nth(1).click()
    await page.locator("#play-picked").click()
    await until(page, f"Number(document.body.dataset.version) > {info.version}")
    after = await world.service.table(key)
    assert after is not None and after.view is not None
    assert after.view.counts[me] == 2 and after.view.top.code == "R5"
    assert after.view.current == other
    await until(page, "document.querySelectorAll('#hand .card').length === 2")


async def test_the_host_removes_a_player_from_the_page(world: WebWorld, browser: Any) -> None:
    """The lobby: the host's page has "Remove a player" (another player's has not); it asks
    whom, and the one chosen leaves the table."""
    key = "dc:301"
    assert (await world.service.create(key, key, "dc:1", "P1")).ok
    assert (await world.service.join(key, "dc:2", "P2")).ok
    info = await world.service.table(key)
    assert info is not None
    pages = []
    for p in ("dc:1", "dc:2"):
        page = await page_of(browser)
        await page.goto(f"{world.origin}/#p={world.links.player_token(key, p, info.created)}")
        await page.wait_for_selector(".seat")
        pages.append(page)
    host, other = pages
    kick = host.get_by_role("button", name="Remove a player")
    await kick.wait_for()
    assert await other.get_by_role("button", name="Remove a player").count() == 0
    await kick.click()
    await host.locator("#kicker[open] #kick-rows button").first.wait_for()
    assert await host.locator("#kick-rows button").all_inner_texts() == ["P2"]
    await host.locator("#kick-rows button").first.click()
    await until(host, "document.querySelectorAll('.seat').length === 1")
    assert await host.locator("#kicker[open]").count() == 0
    after = await world.service.table(key)
    assert after is not None and [s.id for s in after.seats] == ["dc:1"]
