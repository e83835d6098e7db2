"""Draw the web table's screenshots for the README: ``docs/web-<lang>-<light|dark>.png``, a
game in play seen by one of its players on a phone, in each language, light and dark
(``make web-screens``). Run: ``python -m tests.adapters.web.screens``."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from adapters.web import Web
from bot.port import RecordingPort
from bot.service import Service
from bot.store import store_for
from engine import Draw
from tests.adapters.web.browser import launch, page_of
from tests.adapters.web.conftest import free_port, web_settings

ROOT = Path(__file__).resolve().parents[3]
LOCALES = {"en": "en-US", "zh_Hans": "zh-CN", "zh_Hant": "zh-TW"}
NAMES = ("Ann", "Bao", "Chen", "Dana")


async def main(out: Path = ROOT / "docs") -> list[Path]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        s = web_settings(port, str(Path(tmp) / "uno.sqlite3"))
        store = store_for(s.db)
        await store.open()
        web = Web(s)
        service = Service(store, web.port(RecordingPort()), s, seed=11, bot_delay=0.0)
        web.attach(service)
        await service.start(run_timers=False)
        await web.start()
        key = "dc:100"
        people = [f"dc:{i}" for i in range(1, 5)]
        await service.create(key, key, people[0], NAMES[0], preset="house")
        for p, name in zip(people[1:], NAMES[1:], strict=True):
            await service.join(key, p, name)
        await service.start_game(key, people[0])
        for _ in range(5):  # a few moves: a table with a past
            info = await service.table(key)
            assert info is not None and info.view is not None and info.view.current
            legal = await service.legal(key, info.view.current)
            plays = [a for a in legal if type(a).__name__ == "Play" and not getattr(a, "uno", 0)]
            action = plays[0] if plays else Draw()
            await service.act(key, info.view.current, action, seen_version=info.version)
        info = await service.table(key)
        assert info is not None and info.view is not None
        me = info.view.current or people[0]
        token = web.links.player_token(key, me, info.created)
        written = []
        try:
            async for browser in launch():
                for lang, locale in LOCALES.items():
                    for scheme in ("light", "dark"):
                        page = await page_of(browser, locale=locale, scheme=scheme)
                        await page.goto(f"http://127.0.0.1:{port}/#p={token}")
                        await page.wait_for_selector("#hand .card")
                        await page.wait_for_timeout(300)  # the pictures
                        path = out / f"web-{lang}-{scheme}.png"
                        await page.screenshot(path=str(path), full_page=True)
                        written.append(path)
                        await page.context.close()
        finally:
            await web.stop()
            await service.stop()
            await store.close()
        return written


if __name__ == "__main__":
    for p in asyncio.run(main()):
        print(p)
