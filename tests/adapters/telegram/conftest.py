"""The Telegram adapter against the fake Bot API: the real PTB, service and SQLite store."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from adapters.telegram import Adapter, Limits
from bot.model import PLAYING, Seat, Table
from bot.ops.config import Settings
from bot.port import RoutingPort, TableInfo
from bot.service import Service
from bot.store import SqliteStore, WriteBatch
from bot.ui import render
from bot.ui.i18n import translator
from engine import Phase, Rules, scenario
from tests.fakes.telegram_api import FakeBotAPI, FakeChat, FakeMessage, FakeUser, InlineAnswer

FAST = Limits.unlimited()


@dataclass
class Harness:
    """One bot process: store, service and adapter, on a database that outlives it."""

    api: FakeBotAPI
    db: Path
    limits: Limits = FAST
    seed: int = 7
    overrides: dict[str, Any] = field(default_factory=dict)
    settings: Settings = field(init=False)
    store: SqliteStore = field(init=False)
    service: Service = field(init=False)
    adapter: Adapter = field(init=False)
    running: bool = False

    def __post_init__(self) -> None:
        self.settings = Settings(
            db=self.db,
            telegram_token=self.api.token,
            telegram_api_url=self.api.base_url,
            **{
                "telegram_webhook_url": None,  # polling, whatever the environment says
                "round_pause_seconds": 0.05,
                "bot_delay": 0,
                "lobby_seconds": 600,
                **self.overrides,
            },
        )

    async def start(self) -> None:
        self.store = SqliteStore(self.db)
        await self.store.open()
        router = RoutingPort()
        self.service = Service(self.store, router, self.settings, seed=self.seed, bot_delay=0)
        self.adapter = Adapter(self.settings, self.service, limits=self.limits, poll_timeout=1.0)
        router.add(self.adapter.prefix, self.adapter)
        # as `uno-bot run` does: tables first, the platform, then the timers
        await self.service.start(run_timers=False)
        await self.adapter.start()
        self.service.timers.start()
        self.running = True

    async def stop(self) -> None:
        if not self.running:
            return
        self.running = False
        await self.service.stop()
        await self.adapter.stop()
        await self.store.close()

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    # -- looking at the game --------------------------------------------------------------

    async def info(self, chat: FakeChat, thread: int | None = None) -> TableInfo:
        info = await self.service.table(key(chat, thread))
        assert info is not None
        return info

    def table_message(self, chat: FakeChat, thread: int | None = None) -> FakeMessage:
        """The bot's table message in ``chat`` (the one whose id the table keeps)."""
        k = key(chat, thread)
        t = self.service.cached(k)
        mid = t.meta.get("tg_msg") if t is not None else None
        mid = self.adapter.table_message(k) or mid
        assert mid is not None, "no table message"
        return self.api.messages[(chat.id, mid)]

    async def settle(self, timeout: float = 5.0) -> None:
        """Wait until the adapter has sent everything it queued."""
        outbox = self.adapter.outbox
        assert outbox is not None
        for _ in range(3):
            await asyncio.sleep(0.02)
            assert await outbox.flush(timeout)

    async def play_query(self, chat: FakeChat, thread: int | None = None) -> str:
        """The Play button's query, once the table message has one: the service may have
        dealt a round whose table edit is still on its way (the message shows "Next
        round")."""

        def ready() -> str | None:
            try:
                return play_query(self.table_message(chat, thread))
            except (LookupError, AssertionError):
                return None

        found: str = await self.until(ready)
        return found

    async def until(self, pred: Callable[[], Any], timeout: float = 5.0) -> Any:
        return await self.api.wait_for(pred, timeout)

    async def current(self, chat: FakeChat, thread: int | None = None) -> str | None:
        info = await self.info(chat, thread)
        return info.view.current if info.view is not None else None

    async def wait_turn(
        self, chat: FakeChat, users: list[FakeUser], thread: int | None = None, timeout: float = 5
    ) -> FakeUser | None:
        """Wait until a person (one of ``users``) must act, or the game is over (None)."""
        k = key(chat, thread)
        by_pid = {u.pid: u for u in users}

        def ready() -> Any:
            t = self.service.cached(k)
            if t is None or t.status != "playing":
                return "over"
            g = t.game
            if g is None:
                return None
            if g.phase is Phase.ROUND_OVER:
                return None
            if g.current in by_pid and not self.service.timers.armed(k).get("bot"):
                return by_pid[g.current]
            return None

        found = await self.until(ready, timeout)
        return None if found == "over" else found


def key(chat: FakeChat, thread: int | None = None) -> str:
    return f"tg:{chat.id}" if thread is None else f"tg:{chat.id}:{thread}"


def moved(tg: Harness, chat: FakeChat, version: int, thread: int | None = None) -> Any:
    """A predicate: the table went past ``version`` (or ended)."""
    k = key(chat, thread)

    def check() -> bool:
        t = tg.service.cached(k)
        return t is None or t.version > version

    return check


def play_query(table: FakeMessage) -> str:
    """What the Play button puts in the input field (``switch_inline_query_current_chat``)."""
    for b in table.buttons():
        if "switch_inline_query_current_chat" in b:
            return str(b["switch_inline_query_current_chat"])
    raise LookupError(f"no Play button: {table.labels()}")


def pick(answer: InlineAnswer, *, uno: bool = True) -> Any:
    """A sensible move from personal results: a playable card (with UNO when it leaves one
    card, if ``uno``), else take the penalty, draw or pass."""
    rs = answer.results
    playable = [r for r in rs if r.code.startswith("p")]
    if uno:
        with_uno = [r for r in playable if r.code.endswith("!")]
        if with_uno:
            return with_uno[0]
    plain = [r for r in playable if not r.code.endswith("!")]
    if plain:
        return plain[0]
    for code in ("k", "a", "d", "s"):
        found = [r for r in rs if r.code.startswith(code)]
        if found:
            return found[0]
    raise AssertionError(f"nothing to play in {[r.id for r in rs]}")


def _literal(template: str) -> str:
    """The longest fixed part of a message template (what every filled-in text contains)."""
    parts = re.split(r"\{\w*\}", template)
    return max((p.strip() for p in parts), key=len)


HAND_MARKERS = frozenset(
    _literal(translator(lang).gettext(msg))
    for lang in ("en", "zh_Hans", "zh_Hant")
    for msg in ("🃏 Your cards ({n}):", "Hand of {player}: {cards}")
)


def assert_no_hand_in_group(api: FakeBotAPI, chat: FakeChat) -> None:
    """No text the bot ever put in the group is a hand (a private view or a revealed hand),
    and neither is anything a player posted there by choosing an inline result."""
    assert all(len(m) >= 3 for m in HAND_MARKERS), HAND_MARKERS
    for text in api.group_texts(chat):
        for marker in HAND_MARKERS:
            assert marker not in text, f"a hand in the group: {text!r}"
    for msg in api.user_messages(chat):
        for marker in HAND_MARKERS:
            assert marker not in msg.text, f"a hand posted to the group: {msg.text!r}"


async def open_table(
    tg: Harness,
    chat: FakeChat,
    host: FakeUser,
    others: list[FakeUser],
    *,
    bots: int = 0,
    thread: int | None = None,
    start: bool = True,
    lang: str = "en",
    **rules: Any,
) -> FakeMessage:
    """``host`` sends /new, the others press Join, the host adds bots and presses Start
    (rules set through the service: test setup, the settings menu has its own test)."""
    api = tg.api
    k = key(chat, thread)
    await host.send(chat, "/new", thread=thread)
    await tg.until(lambda: tg.service.cached(k) is not None)
    await tg.settle()
    table = tg.table_message(chat, thread)
    tr = translator(lang)
    for u in others:
        ans = await u.click(table, render.button_label("join", tr))
        assert not ans.show_alert, ans.text
    for _ in range(bots):
        ans = await host.click(table, render.button_label("add_bot", tr))
        assert not ans.show_alert, ans.text
    if rules:
        res = await tg.service.configure(k, host.pid, overrides=rules)
        assert res.ok, res
    if start:
        ans = await host.click(table, render.button_label("start", tr))
        assert not ans.show_alert, ans.text
    await tg.settle()
    assert api.unanswered() == []
    return tg.table_message(chat, thread)


async def human_turn(
    tg: Harness,
    chat: FakeChat,
    user: FakeUser,
    *,
    thread: int | None = None,
    uno: bool = True,
    chooser: Callable[[InlineAnswer], Any] | None = None,
) -> InlineAnswer:
    """``user`` presses Play (inline mode with the button's query), chooses a move, and
    the table moves on."""
    k = key(chat, thread)
    held = tg.service.cached(k)
    assert held is not None
    before = held.version
    query = await tg.play_query(chat, thread)
    ans = await user.inline(query)
    assert ans.is_personal and ans.cache_time == 0
    choice = (chooser or (lambda a: pick(a, uno=uno)))(ans)
    await user.choose(ans, choice, chat, thread=thread)
    await tg.until(moved(tg, chat, before, thread))
    return ans


async def play_out(
    tg: Harness,
    chat: FakeChat,
    users: list[FakeUser],
    *,
    thread: int | None = None,
    max_turns: int = 400,
) -> int:
    """Play every person's turn until the game ends; the number of turns played."""
    for n in range(max_turns):
        user = await tg.wait_turn(chat, users, thread)
        if user is None:
            return n
        await human_turn(tg, chat, user, thread=thread)
    raise AssertionError("the game did not end")


async def scenario_table(
    tg: Harness,
    chat: FakeChat,
    hands: dict[FakeUser, list[str]],
    top: str,
    *,
    rules: Rules | None = None,
    color: str | None = None,
) -> None:
    """A game set up by hand (the first user to play), written to the database as the
    service would have; the table message is sent at the first change."""
    users = list(hands)
    rules = rules or Rules()
    game = scenario(
        {u.pid: cards for u, cards in hands.items()},
        [top],
        draw_pile=["G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8", "G9", "Y1", "Y2", "Y3"],
        current=users[0].pid,
        rules=rules,
        color=color,
    )
    now = time.time()
    t = Table(
        key=key(chat),
        scope=f"tg:{chat.id}",
        host=users[0].pid,
        status=PLAYING,
        version=10,
        turn_version=10,
        game_no=1,
        seats=tuple(Seat(u.pid, u.first_name) for u in users),
        preset=rules.matching_preset() or "official",
        overrides=rules.overrides(rules.matching_preset() or "official"),
        seed=1,
        _game=game,
        created=now,
        updated=now,
    )
    await tg.store.write(WriteBatch(tables=[t]))


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()
    unknown = {c.method for c in server.calls if c.error is not None and c.error.code == 404}
    assert unknown == set(), f"the fake lacks methods the bot called: {unknown}"
    invalid = [
        c
        for c in server.calls
        if c.error is not None
        and "INVALID" in str(c.error)
        # asking whether a sticker set is made yet: its documented "no"
        and not (c.method == "getStickerSet" and "STICKERSET_INVALID" in str(c.error))
    ]
    assert invalid == [], [(c.method, c.error.description) for c in invalid if c.error]


@pytest.fixture
async def tg(api: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Harness]:
    h = Harness(api, tmp_path / "uno.sqlite3")
    await h.start()
    yield h
    await h.stop()
    assert api.unanswered() == [], "every callback query must be answered"
