"""Failures and long runs: no private text in any log line, every button answered through
network errors, a failed start that leaks nothing, menus paced, bounded memory."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import traceback
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from telegram import Update
from telegram.error import Forbidden, TimedOut

from adapters.telegram import Adapter
from adapters.telegram.adapter import BAD_TOKEN, MEMORY, Lru, answer_quietly
from adapters.telegram.ids import pack, tid_of
from bot.ops.config import Settings
from bot.service import Service
from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import (
    FAST,
    Harness,
    human_turn,
    key,
    open_table,
    pick,
)
from tests.fakes.telegram_api import FakeBotAPI

EN = translator("en")
HANT = translator("zh_Hant")
HAND = "🃏 Your cards"
NOT_SAVED = "Could not save that — please try again."


async def _none_behind(prefix: str) -> list[Any]:
    return []


# starting and stopping only ask it for the open tables and those shown late (none)
NO_SERVICE = cast(Service, SimpleNamespace(open_tables=list, behind=_none_behind))


def _logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every record's text, its traceback included."""
    out = []
    for r in caplog.records:
        text = r.getMessage()
        if r.exc_info:
            text += "".join(traceback.format_exception(*r.exc_info))
        out.append(text)
    return out


async def test_the_error_handler_logs_the_update_id_and_kind_only(
    tg: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    hand = f"{HAND} (3):\n🟥 5 · 7\n🌈 +4"
    chat = {"id": 1001, "type": "private", "first_name": "Alice"}
    data = {
        "update_id": 4242,
        "callback_query": {
            "id": "9",
            "from": {"id": 1001, "is_bot": False, "first_name": "Alice"},
            "chat_instance": "1",
            "data": "a|-1001|7|pR5",
            "message": {"message_id": 5, "date": 0, "chat": chat, "text": hand},
        },
    }
    update = Update.de_json(data, tg.adapter.bot)
    caplog.set_level(logging.DEBUG)
    context: Any = SimpleNamespace(error=RuntimeError("boom"))
    await tg.adapter.handlers.error(update, context)
    lines = _logged(caplog)
    assert len(lines) == 1
    assert "4242" in lines[0] and "callback_query" in lines[0] and "boom" in lines[0]
    for secret in (HAND, "🟥", "pR5"):
        assert secret not in lines[0]


async def test_a_button_is_answered_through_network_errors(
    tg: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """The 🔄 of a private hand, while answerCallbackQuery fails with 502s: retried, and
    when it keeps failing, a quiet log line; no log line ever holds the hand."""
    caplog.set_level(logging.INFO)
    api = tg.api
    g = api.group("Friends")
    alice, bob = api.user("Alice", started=True), api.user("Bob")
    await open_table(tg, g, alice, [bob])
    await alice.send(alice.chat, "/hand")
    hands = await tg.until(lambda: [m for m in api.bot_messages(alice.chat) if HAND in m.text])
    hand = hands[-1]

    api.fail("answerCallbackQuery", code=502, description="Bad Gateway")
    ans = await alice.click(hand, "🔄")
    assert not ans.show_alert
    calls = api.of("answerCallbackQuery")
    assert [c.ok for c in calls if c.params["callback_query_id"] == ans.query_id] == [False, True]

    api.fail("answerCallbackQuery", times=3, code=502, description="Bad Gateway")
    lost = await alice.press(hand, "🔄")
    gave_up = await tg.until(
        lambda: [r for r in caplog.records if "answerCallbackQuery failed" in r.getMessage()]
    )
    assert gave_up[0].levelno == logging.WARNING and gave_up[0].exc_info is None
    assert not lost.answered.is_set()
    lost.answered.set()  # Telegram forgets it too; the fixture checks every query was
    await tg.settle()
    lines = _logged(caplog)
    assert not [t for t in lines if HAND in t or "Your cards" in t]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_answer_quietly_retries_timeouts_and_gives_up_quietly() -> None:
    calls: list[int] = []

    async def slow() -> None:
        calls.append(1)
        if len(calls) < 3:
            raise TimedOut()

    assert await answer_quietly("answerCallbackQuery", slow, pause=0)
    assert len(calls) == 3

    async def refused() -> None:
        raise Forbidden("Forbidden: bot was blocked by the user")

    assert not await answer_quietly("answerCallbackQuery", refused, pause=0)


def _settings(api: FakeBotAPI, tmp_path: Path, token: str) -> Settings:
    return Settings(
        db=tmp_path / "uno.sqlite3",
        telegram_token=token,
        telegram_api_url=api.base_url,
        telegram_webhook_url=None,
    )


def _ptb_tasks() -> list[asyncio.Task[Any]]:
    return [t for t in asyncio.all_tasks() if "Application" in t.get_name()]


async def test_a_rejected_token_fails_cleanly_and_never_shows(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    token = "999999:SECRET-WRONG-TOKEN-abcdefghij"
    adapter = Adapter(_settings(api, tmp_path, token), NO_SERVICE, limits=FAST)
    with pytest.raises(RuntimeError) as caught:
        await adapter.start()
    err = caught.value
    assert str(err) == BAD_TOKEN
    assert err.__cause__ is None and err.__suppress_context__
    assert "SECRET" not in "".join(traceback.format_exception(err))
    assert adapter.app is None and adapter.outbox is None
    await api.wait_for(lambda: api.connections() == 0, timeout=2)


@pytest.mark.parametrize("failing", ["getMe", "deleteWebhook"])
async def test_a_start_failing_half_way_closes_what_it_opened(
    api: FakeBotAPI, tmp_path: Path, failing: str
) -> None:
    """getMe: initialize fails; deleteWebhook: polling fails after the application started."""
    api.fail(failing, times=50, code=400, description="Bad Request: something broke")
    adapter = Adapter(_settings(api, tmp_path, api.token), NO_SERVICE, limits=FAST)
    with pytest.raises(Exception, match=r"(?i)something broke"):
        await adapter.start()
    assert adapter.app is None and adapter.outbox is None
    assert _ptb_tasks() == []
    await api.wait_for(lambda: api.connections() == 0, timeout=2)
    api.calm()


async def test_the_group_language_menu_is_edited_through_the_outbox(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    admin = api.user("Admin")
    api.set_admin(g, admin)
    outbox = tg.adapter.outbox
    assert outbox is not None
    put = outbox.put
    keys: list[tuple[int, Any]] = []

    def spy(chat_id: int, key: Any, job: Any, **kw: Any) -> None:
        keys.append((chat_id, key))
        put(chat_id, key, job, **kw)

    outbox.put = spy  # type: ignore[method-assign]
    await admin.send(g, "/language")
    menus = await tg.until(lambda: [m for m in api.bot_messages(g) if m.markup])
    await admin.click(menus[0], "繁體中文")
    done = HANT.gettext("Language: {language}", language="繁體中文")
    await tg.until(lambda: menus[0].text == done)
    assert (g.id, ("menu", menus[0].message_id)) in keys


def test_an_lru_keeps_the_most_recently_used() -> None:
    lru: Lru[int, str] = Lru(3)
    for i in range(3):
        lru[i] = str(i)
    assert lru.get(0) == "0"  # read: now the most recent
    lru[3] = "3"
    assert list(lru) == [2, 0, 3] or list(lru) == [0, 3] or 1 not in lru
    assert 1 not in lru and lru.get(1) is None and len(lru) == 3


async def test_what_the_adapter_remembers_is_bounded(tg: Harness) -> None:
    a = tg.adapter.chats  # (what the adapter knows of users and chats)
    n = MEMORY + 50
    for i in range(n):
        uid = 10**9 + i
        a.seen_user(SimpleNamespace(id=uid, language_code="en", username=f"user{i}"))
        a.set_user_lang(uid, "en")
        a.set_chat_lang(-uid, "en")
        a.titles[-uid] = f"Group {i}"
    for name in ("_tg_lang", "_user_lang", "_chat_lang", "titles", "usernames"):
        assert len(getattr(a, name)) <= MEMORY, name
    assert a.usernames.get(f"user{n - 1}") == 10**9 + n - 1  # the latest are there
    assert a.usernames.get("user0") is None


async def test_a_closed_table_leaves_no_private_hands_behind(tg: Harness) -> None:
    """Bob followed the game privately, then left; when the table closes nothing of it is
    kept (his hand message included)."""
    api = tg.api
    g = api.group()
    alice = api.user("Alice", started=True)
    bob, carol = api.user("Bob", started=True), api.user("Carol")
    await open_table(tg, g, alice, [bob, carol])
    await bob.send(bob.chat, "/hand")
    await tg.until(lambda: [m for m in api.bot_messages(bob.chat) if HAND in m.text])
    assert bob.id in tg.adapter.hands_kept(key(g))
    await bob.send(g, "/leave")

    def bob_out() -> bool:
        game = tg.service.cached(key(g)).game
        return game is not None and bob.pid not in game.players

    await tg.until(bob_out)
    await alice.send(g, "/stop")
    await tg.until(lambda: (t := tg.service.cached(key(g))) is None or t.status != "playing")
    await tg.settle()
    assert not tg.adapter.hands_kept(key(g))


async def test_a_change_that_could_not_be_saved_is_answered(
    tg: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database is full: a press, a typed command and an inline choice change nothing
    and each is told so, in the reader's language, by the way they came (an alert, the
    private chat, else a reply in the group). Once it can write again, the game goes on."""
    api = tg.api
    tg.adapter.refusal_ttl = 30.0
    g = api.group()
    alice, bob = api.user("Alice", started=True), api.user("Bob")
    carol, dave = api.user("Carol", language_code="zh-hant", started=True), api.user("Dave")
    table = await open_table(tg, g, alice, [bob], start=False)
    real = tg.store.write

    async def full(batch: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(tg.store, "write", full)
    en = translator("en").gettext(NOT_SAVED)
    ans = await carol.click(table, "Join")
    assert ans.show_alert and ans.text == HANT.gettext(NOT_SAVED) != NOT_SAVED
    await carol.send(g, "/join")
    await tg.until(lambda: api.dms(carol))
    assert api.dms(carol) == [HANT.gettext(NOT_SAVED)]
    command = await dave.send(g, "/join")
    replies = await tg.until(lambda: [m for m in api.bot_messages(g) if m.reply_to is command])
    assert replies[0].text == en
    info = await tg.info(g)
    assert {s.id for s in info.seats} == {alice.pid, bob.pid}

    monkeypatch.setattr(tg.store, "write", real)
    assert not (await alice.click(table, "Start")).show_alert
    await tg.settle()
    info = await tg.info(g)
    assert info.view is not None
    player = alice if info.view.current == alice.pid else bob
    monkeypatch.setattr(tg.store, "write", full)
    results = await player.inline(await tg.play_query(g))
    posted = await player.choose(results, pick(results), g)
    if player is alice:
        await tg.until(lambda: len(api.dms(alice)) >= 1)
        assert api.dms(alice)[-1] == en
    else:
        replies = await tg.until(lambda: [m for m in api.bot_messages(g) if m.reply_to is posted])
        assert replies[0].text == en
    assert (await tg.info(g)).version == info.version  # nothing changed, nothing shown

    monkeypatch.setattr(tg.store, "write", real)
    await human_turn(tg, g, player)
    assert (await tg.info(g)).version > info.version


async def test_a_user_the_bot_cannot_message_costs_one_try(
    tg: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    """Bob and Eve never opened the private chat. A forged press in Bob's private chat is
    answered with a link to open it (no traceback); 300 forged inline choices of Eve's,
    each refused, try one private message: the refusal is remembered, and never more than
    one waits."""
    caplog.set_level(logging.INFO)
    api = tg.api
    g = api.group()
    alice, bob, eve = api.user("Alice"), api.user("Bob"), api.user("Eve")
    await open_table(tg, g, alice, [bob])
    tid = tid_of(key(g))
    # Bob plays, but never opened the private chat: a press "there" opens it
    forged = api.post(api.private(bob), api.bot_user(), "🃏")
    ans = await bob.click(forged, data=pack("h", tid))
    assert ans.url == f"https://t.me/{api.username}?start=h{tid}"
    # Eve does not play: told so
    forged = api.post(api.private(eve), api.bot_user(), "🃏")
    ans = await eve.click(forged, data=pack("h", tid))
    assert ans.show_alert and ans.text == EN.gettext("You are not playing in this game.")
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    version = (await tg.info(g)).version
    for i in range(300):
        api.push(
            {
                "chosen_inline_result": {
                    "result_id": f"{tid}|{version}|d",
                    "from": eve.to_json(),
                    "query": str(i),
                }
            }
        )
    outbox = tg.adapter.outbox
    assert outbox is not None
    most = 0
    for _ in range(100):
        await asyncio.sleep(0.01)
        most = max(most, outbox.pending(eve.id))
    await tg.settle()
    to_eve = [c for c in api.calls if c.params.get("chat_id") == eve.id]
    assert len(to_eve) == 1 and all(c.error is not None and c.error.code == 403 for c in to_eve)
    assert most <= 1
    assert (await tg.info(g)).version == version
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
    # once she opens the private chat, she is told again
    await eve.start_bot()
    bad = api.user("Mallory")
    bad_choice = {"result_id": f"{tid}|{version}|d", "from": eve.to_json(), "query": ""}
    api.push({"chosen_inline_result": bad_choice})
    await tg.until(lambda: EN.gettext("You are not playing in this game.") in api.dms(eve))
    assert bad.id not in {c.params.get("chat_id") for c in api.calls}
