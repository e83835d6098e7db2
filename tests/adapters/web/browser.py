"""Headless Chromium for the web table's tests: Debian's ``chromium`` (``/usr/bin/chromium``)
driven by Playwright for Python through ``executable_path``, never a browser Playwright
downloads. Missing, the browser tests are skipped with a loud line; with ``CI=true`` (where
``.ci/run`` installs it) they fail instead."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest

CHROMIUM = os.environ.get("UNO_TEST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# as the machine's notes say: without the background-networking flags Chromium dials out
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"


def missing() -> str | None:
    """Why the browser tests cannot run here (``None``: they can)."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "playwright is not installed (make .venv/.installed)"
    if not os.path.exists(CHROMIUM):
        return f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    return None


def need_browser() -> None:
    why = missing()
    if why is None:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser tests need Chromium and Playwright: {why}")
    print(f"\n*** SKIPPING THE BROWSER TESTS: {why} ***", file=sys.stderr)
    pytest.skip(f"browser tests: {why}")


def telegram_stub(init_data: str, scheme: str = "light") -> str:
    """A stand-in for telegram-web-app.js: hands the page its initData, as Telegram does."""
    web_app = {
        "initData": init_data,
        "colorScheme": scheme,
        "themeParams": {},
        "platform": "tdesktop",
    }
    return (
        f"window.Telegram = {{WebApp: Object.assign({json.dumps(web_app)}, "
        "{ready() {}, expand() {}, onEvent() {}})};"
    )


async def launch() -> AsyncIterator[Any]:
    need_browser()
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            await browser.close()


async def page_of(browser: Any, *, init_data: str | None = None, locale: str = "en-US",
                  scheme: str = "light", width: int = 400, height: int = 860) -> Any:  # fmt: skip
    """A new page (its own context): a phone's viewport, a language, light or dark; with
    ``init_data``, inside "Telegram" (the stub script)."""
    context = await browser.new_context(
        locale=locale, color_scheme=scheme, viewport={"width": width, "height": height},
        device_scale_factor=2,
    )  # fmt: skip
    page = await context.new_page()
    if init_data is not None:
        stub = telegram_stub(init_data, scheme)

        async def fulfill(route: Any) -> None:
            await route.fulfill(body=stub, content_type="text/javascript")

        await page.route(TELEGRAM_SCRIPT, fulfill)
    return page


async def until(page: Any, js: str, timeout: float = 5000) -> None:
    """Wait until ``js`` (an expression) is true in ``page``, polled from here: the page's
    own Content Security Policy forbids the string evaluation ``wait_for_function`` uses."""
    for _ in range(int(timeout / 25)):
        if await page.evaluate(f"() => Boolean({js})"):
            return
        await page.wait_for_timeout(25)
    raise AssertionError(f"timed out waiting for {js}")


async def move(page: Any) -> None:
    """What a person would do: a card that can be played (its UNO call too), else the first
    move offered (take the penalty, draw, pass, a colour, challenge)."""
    lit = page.locator("#hand .card.lit:not([disabled])")
    if await lit.count():
        await lit.first.click()
        picked = page.locator("#play-picked:not([disabled])")
        if await picked.count():  # ``multi_play``: the card was picked, play it alone
            await picked.click()
        chooser = page.locator("#chooser[open]")
        if await chooser.count():
            uno = page.locator("#choices button[data-intent$='!']")
            choice = uno.first if await uno.count() else page.locator("#choices button").first
            await choice.click()
        return
    await page.locator("#moves button:not([disabled])").first.click()
