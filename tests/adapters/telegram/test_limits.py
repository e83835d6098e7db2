"""Telegram's limits and failures: 429s, flood control, deleted messages, blocked users,
and the webhook mode."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.telegram import Limits
from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import (
    Harness,
    assert_no_hand_in_group,
    human_turn,
    key,
    open_table,
    play_out,
    play_query,
)
from tests.fakes.telegram_api import FakeBotAPI

EN = translator("en")


async def test_429_on_the_table_edit_is_honoured_and_nothing_is_lost(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob, carol = api.user("Alice"), api.user("Bob"), api.user("Carol")
    table = await open_table(tg, g, alice, [], start=False)
    api.fail("editMessageText", times=1, retry_after=1, chat_id=g.id)
    loop = asyncio.get_running_loop()
    t0 = loop.time()
    await bob.click(table, "Join")
    await carol.click(table, "Join")  # while the first edit waits: coalesced into one
    await tg.settle()
    assert loop.time() - t0 >= 0.95
    assert "Bob" in table.text and "Carol" in table.text
    edits = [c for c in api.of("editMessageText") if c.params["chat_id"] == g.id]
    assert [c.ok for c in edits] == [False, True]  # refused once, then one edit for both
    assert edits[0].error is not None and edits[0].error.retry_after == 1


async def test_announcements_survive_429(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await open_table(tg, g, alice, [bob], bots=1, hand_size=3, target=0)
    api.fail("sendMessage", times=1, retry_after=1, chat_id=g.id)
    await play_out(tg, g, [alice, bob])
    await tg.settle()
    news = [m for m in api.bot_messages(g) if "wins the game" in m.text and m.markup is None]
    assert len(news) == 2  # the announcement, and the table's last edit
    assert api.refused_429 == 1


async def test_a_deleted_table_message_is_sent_again(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    table = await open_table(tg, g, alice, [], start=False)
    table.deleted = True  # someone deleted it; Bob pressed Join before his client knew
    await bob.click(table, "Join")
    await tg.settle()
    again = tg.table_message(g)
    assert again.message_id != table.message_id and "Bob" in again.text
    t = await tg.store.get_table(key(g))
    assert t is not None and t.meta["tg_msg"] == again.message_id  # remembered for restarts


async def test_a_user_who_blocked_the_bot_is_skipped_quietly(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob", started=True)
    table = await open_table(tg, g, alice, [bob], hand_size=5, target=0)
    if await tg.wait_turn(g, [alice, bob]) is bob:
        await human_turn(tg, g, bob)
    bob.blocked = True
    # not his turn: choosing a card is refused in the private chat, which Bob blocked
    answer = await bob.inline(play_query(table))
    bad = answer.find(lambda r: r.code.startswith("-"))
    assert bad is not None
    n = len(api.of("sendMessage"))
    await bob.choose(answer, bad, g)
    await tg.until(lambda: len(api.of("sendMessage")) > n)
    refused = api.of("sendMessage")[-1]
    assert refused.params["chat_id"] == bob.id and refused.error is not None
    assert refused.error.code == 403
    bob.blocked = False
    await play_out(tg, g, [alice, bob])  # the game goes on
    assert_no_hand_in_group(api, g)


async def test_a_fast_game_stays_under_the_group_limit() -> None:
    """Bot seats move at once; Telegram (the fake) refuses past 20 sends or edits a minute
    per group. With time running 60 times faster, a "minute" is one second."""
    scale = 60.0
    api = FakeBotAPI()
    api.group_limit = (20, 60)
    api.time_scale = scale
    await api.start()
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        tg = Harness(api, Path(tmp) / "uno.sqlite3", limits=Limits().scaled(scale))
        await tg.start()
        try:
            g = api.group()
            alice = api.user("Alice")
            await open_table(tg, g, alice, [], bots=3, hand_size=5, target=0)
            await play_out(tg, g, [alice])
            await tg.settle(timeout=20)
            final = tg.table_message(g)
            assert "wins the game" in final.text and final.markup is None
        finally:
            await tg.stop()
            await api.stop()
    assert api.refused_429 == 0  # the bot never went over
    stamps = [
        c.t
        for c in api.calls
        if c.method in ("sendMessage", "editMessageText") and c.params.get("chat_id") == g.id
    ]
    for i, t in enumerate(stamps):
        assert len([s for s in stamps[i:] if s < t + 60 / scale]) <= 20


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def webhook_tg(api: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Harness]:
    port = _free_port()
    hook = {
        "telegram_webhook_url": f"http://127.0.0.1:{port}/uno-hook",
        "telegram_webhook_listen": "127.0.0.1",
        "telegram_webhook_port": port,
        "telegram_webhook_secret": "s3cret",
    }
    h = Harness(api, tmp_path / "uno.sqlite3", overrides=hook)
    await h.start()
    yield h
    await h.stop()


async def test_webhook_mode(webhook_tg: Harness) -> None:
    tg = webhook_tg
    api = tg.api
    assert api.webhook is not None
    assert api.webhook["url"].endswith("/uno-hook") and api.webhook["secret_token"] == "s3cret"
    assert api.of("getUpdates") == []
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    table = await open_table(tg, g, alice, [bob], bots=1, hand_size=5, target=0)
    assert table.has_button("Play")
    await play_out(tg, g, [alice, bob])
    await tg.settle()
    assert "wins the game" in tg.table_message(g).text
