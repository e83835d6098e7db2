"""The web table from a Telegram chat (issue 21 d): the group's table message links to the
Mini App on that table (``startapp``: the signed table token); a private hand opens it as a
``web_app`` button. Off (no ``UNO_WEB_URL``): no such button."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from bot.weblinks import Links
from tests.adapters.telegram.conftest import Harness, key, open_table
from tests.fakes.telegram_api import FakeBotAPI

SECRET = "a-test-secret-of-the-web-table"


async def test_the_table_message_and_the_private_hand_open_the_web_table(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    web = {"web_url": "https://uno.example", "web_secret": SECRET, "telegram_webapp": "table"}
    tg = Harness(api, tmp_path / "uno.sqlite3", overrides=web)
    await tg.start()
    try:
        g = api.group("Friends")
        alice, bob = api.user("Alice"), api.user("Bob")
        table = await open_table(tg, g, alice, [bob])
        await tg.settle()
        links = [b for b in tg.table_message(g).buttons() if "url" in b]
        web = [b["url"] for b in links if "startapp=" in b["url"]]
        assert len(web) == 1 and "Open the table" in table.labels()[-1]
        url = urlsplit(web[0])
        assert (url.netloc, url.path) == ("t.me", f"/{tg.adapter.username}/table")
        token = parse_qs(url.query)["startapp"][0]
        assert Links(SECRET).read_table(token) == key(g)
        # the private hand: a web_app button on the same table
        await alice.start_bot("h" + str(g.id))
        await tg.settle()
        dm = [m for m in api.bot_messages(api.private(alice)) if m.markup]
        apps = [b["web_app"]["url"] for m in dm for b in m.buttons() if "web_app" in b]
        assert apps, [m.labels() for m in dm]
        t = parse_qs(urlsplit(apps[-1]).query)["t"][0]
        assert apps[-1].startswith("https://uno.example/tg/?t=")
        assert Links(SECRET).read_table(t) == key(g)
    finally:
        await tg.stop()


async def test_no_web_table_no_link(tg: Harness) -> None:
    api = tg.api
    g = api.group("Friends")
    alice, bob = api.user("Alice"), api.user("Bob")
    await open_table(tg, g, alice, [bob])
    await tg.settle()
    assert not any("startapp=" in b.get("url", "") for b in tg.table_message(g).buttons())
