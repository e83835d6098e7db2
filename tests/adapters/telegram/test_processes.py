"""Telegram with several bot processes on one PostgreSQL database (issue 10 item 5): real
``uno-bot run`` processes (the command line's ``main``, the pacing's time scaled) against the
fake Bot API, which records every call with the process that made it.

Webhook: every process serves it behind a load balancer (the fake posts each update to one
of them at random, and to another when that one does not answer). Scripted people play whole
games (buttons, inline results); one process is killed with SIGKILL mid-game and another
started. Every game finishes; every table's log holds each version once and replays to its
stored game; what was committed before the kill is kept; every press and inline query a live
process got was answered; each table has one message and one announcement of its result,
its message ends on the final version; and no group ever got more than 20 messages (sends
and edits) in a minute, whichever process sent them.

Polling: one update stream per token. The processes elect one poller through the database;
the others stand by (none of their ``getUpdates`` ever overlaps the poller's: the fake would
end one with 409) and one takes over within 10 s of the poller's death.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from adapters.telegram.ids import tid_of
from bot.model import PLAYING, Table
from bot.store import ActionRecord, ChatUpdate, Store, WriteBatch, store_for
from bot.ui import render
from bot.ui.i18n import translator
from engine import Phase
from tests.adapters.telegram.conftest import pick
from tests.bot.helpers import game_json, replay
from tests.fakes.telegram_api import FakeBotAPI, FakeChat, FakeMessage, FakeUser

ROOT = Path(__file__).resolve().parents[3]
SCALE = 5.0  # the pacing's time runs this much faster: a group's minute is 12 s
WINDOW = 60.0 / SCALE
ACTIVE = (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE)
EN = translator("en")
GAME_WON = "🏆"  # the start of the game's result (``info.game_won``)
NEWS = ("🏁", GAME_WON)  # how a round's and a game's results start
HOOK = "https://uno.example/tg-hook"  # the public webhook URL: the load balancer's

# `uno-bot run`, its Telegram pacing SCALE times faster (the only difference)
RUN = """
import sys
from adapters.telegram import Adapter, Limits
Adapter.default_limits = Limits().scaled(float(sys.argv[1]))
from bot.cli import main
sys.exit(main(["run"]))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class BotProcess:
    """One `uno-bot run` process; its calls reach the fake through a base URL of its own
    (``tag``), its webhook (if any) listens on ``port``; its log is ``log``."""

    tag: str
    port: int | None
    log: Path
    proc: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/tg-hook"

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)  # no chance to release anything
        self.proc.wait(10)

    async def stop(self, timeout: float = 15.0) -> int | None:
        """SIGTERM, and its exit status (``None``: killed after ``timeout`` seconds). Waited
        for without blocking the loop: the fake Telegram runs in it."""
        if self.alive():
            self.proc.send_signal(signal.SIGTERM)
            end = time.monotonic() + timeout
            while self.alive() and time.monotonic() < end:
                await asyncio.sleep(0.05)
            if self.alive():
                self.proc.kill()
                self.proc.wait(10)
                return None
        return self.proc.returncode

    def tail(self) -> str:
        return self.log.read_text(errors="replace")[-3000:]


@dataclass
class World:
    """The fake Telegram, the database, and the bot processes on both."""

    api: FakeBotAPI
    db: str
    store: Store
    tmp: Path
    webhook: bool
    procs: list[BotProcess] = field(default_factory=list)

    def start(self) -> BotProcess:
        tag = f"p{len(self.procs) + 1}"
        env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
        env.update(
            PYTHONPATH=str(ROOT),
            UNO_TELEGRAM_TOKEN=self.api.token,
            UNO_TELEGRAM_API_URL=self.api.base_url_for(tag),
            UNO_DB=self.db,
            UNO_LOG_LEVEL="INFO",
            UNO_BOT_DELAY="0.2",
            UNO_ROUND_PAUSE_SECONDS="0.5",
        )
        port = None
        if self.webhook:
            port = free_port()
            env.update(
                UNO_TELEGRAM_WEBHOOK_URL=HOOK,
                UNO_TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
                UNO_TELEGRAM_WEBHOOK_PORT=str(port),
                UNO_TELEGRAM_WEBHOOK_SECRET="hook-secret",
            )
        log = self.tmp / f"{tag}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [sys.executable, "-c", RUN, str(SCALE)],
                env=env,
                cwd=self.tmp,  # (no .env file there)
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        p = BotProcess(tag, port, log, proc)
        self.procs.append(p)
        if port is not None:
            assert self.api.backends is not None
            self.api.backends.append(p.url)
        return p

    async def up(self, p: BotProcess, timeout: float = 30.0) -> None:
        """Wait until ``p`` is up: its webhook set (webhook), its commands set (polling)."""
        method = "setWebhook" if self.webhook else "setMyCommands"

        def ready() -> bool:
            assert p.alive(), p.tail()
            return any(c.method == method and c.via == p.tag for c in self.api.calls)

        await self.api.wait_for(ready, timeout)
        if p.port is not None:  # and its server listening
            end = time.monotonic() + timeout
            while True:
                try:
                    _, w = await asyncio.open_connection("127.0.0.1", p.port)
                    w.close()
                    break
                except OSError:
                    assert time.monotonic() < end, p.tail()
                    await asyncio.sleep(0.05)

    async def stop_all(self) -> list[int | None]:
        return list(await asyncio.gather(*(p.stop() for p in self.procs)))


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI()
    server.time_scale = SCALE
    await server.start()
    yield server
    await server.stop()
    unknown = {c.method for c in server.calls if c.error is not None and c.error.code == 404}
    assert unknown == set(), f"the fake lacks methods the bot called: {unknown}"
    invalid = [c for c in server.calls if c.error is not None and "INVALID" in str(c.error)]
    assert invalid == [], [(c.method, c.error.description) for c in invalid if c.error]


async def world(api: FakeBotAPI, db: str, tmp: Path, *, webhook: bool) -> World:
    store = store_for(db)
    await store.open()  # (migrates the new database before the processes come)
    if webhook:
        api.backends = []
    return World(api, db, store, tmp, webhook)


# -- scripted people -----------------------------------------------------------------------


@dataclass
class Run:
    """One table: its group, its host and the others who sit down, and a bot seat."""

    chat: FakeChat
    host: FakeUser
    others: list[FakeUser]

    @property
    def key(self) -> str:
        return f"tg:{self.chat.id}"

    @property
    def users(self) -> list[FakeUser]:
        return [self.host, *self.others]


class Player:
    """Drives one table through the fake as its people would, looking at the database for
    whose turn it is. Whatever got no answer (its process died) is done again after a
    while, as a person presses again."""

    def __init__(self, w: World, run: Run, rng: random.Random) -> None:
        self.w, self.run, self.rng = w, run, rng
        self._tried: dict[str, float] = {}

    def _due(self, what: str, every: float = 2.0) -> bool:
        now = time.monotonic()
        if now - self._tried.get(what, -every) < every:
            return False
        self._tried[what] = now
        return True

    def _table_message(self, t: Table) -> FakeMessage | None:
        mid = t.meta.get("tg_msg")
        return self.w.api.messages.get((self.run.chat.id, mid)) if isinstance(mid, int) else None

    async def play(self, timeout: float) -> None:
        run, w = self.run, self.w
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            t = await w.store.get_table(run.key)
            if t is None:
                if self._due("new"):
                    await run.host.send(run.chat, "/new")
                    await self._lobby(None)  # (at once: several processes at it)
            elif t.status == "lobby":
                await self._lobby(t)
            elif t.status == PLAYING:
                g = t.game
                assert g is not None
                user = next((u for u in run.users if u.pid == g.current), None)
                if user is not None and g.phase in ACTIVE:
                    await self._move(user, t.version)
                    continue
            else:
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"table {run.key} did not finish")

    async def _lobby(self, t: Table | None) -> None:
        """Everybody sits down as soon as the table is there (or at once: a command that
        came before /new is refused, and sent again): typed, or pressed on the table
        message once it is there; the host adds a bot seat and presses Start."""
        run = self.run
        msg = self._table_message(t) if t is not None else None
        seated = {s.id for s in t.seats} if t is not None else set()
        for i, u in enumerate(run.others):
            if u.pid not in seated and self._due("join" + u.pid):
                if i % 2 and msg is not None:
                    await u.press(msg, render.button_label("join", EN))
                else:
                    await u.send(run.chat, "/join")
        bots = sum(s.bot is not None for s in t.seats) if t is not None else 0
        if bots == 0 and self._due("bot", every=5.0):  # (slow to come, not to be doubled)
            await run.host.send(run.chat, "/addbot")
        if len(seated) >= 4 and msg is not None and self._due("start"):
            await run.host.press(msg, render.button_label("start", EN))

    async def _move(self, user: FakeUser, version: int) -> None:
        """``user`` presses Play (inline mode), chooses a move; the table moves on (else,
        after a while, they try again)."""
        try:
            ans = await user.inline(tid_of(self.run.key), timeout=1.5)
        except TimeoutError:
            return  # its process died before answering: asked again
        try:
            choice = pick(ans)
        except AssertionError:
            return  # (results of a version gone by: nothing to play in them)
        await user.choose(ans, choice, self.run.chat)
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            t = await self.w.store.get_table(self.run.key)
            if t is None or t.version > version:
                return
            await asyncio.sleep(0.05)


async def open_tables(w: World, n: int, rng: random.Random, hand_size: int) -> list[Run]:
    runs = []
    for i in range(n):
        chat = w.api.group(f"Table {i}")
        users = [w.api.user(f"P{i}x{j}", started=True) for j in range(3)]
        # the chat's rules (as its /settings would keep them): one round, small hands
        over = {"target": 0, "hand_size": hand_size}
        await w.store.write(
            WriteBatch(chat_settings=[ChatUpdate(f"tg:{chat.id}", overrides=over)])
        )
        runs.append(Run(chat, users[0], users[1:]))
    return runs


# -- what the chats saw ------------------------------------------------------------------------


def is_news(m: FakeMessage) -> bool:
    """An announcement: a round's or a game's results (``info.round_won``, ``game_won``),
    nothing else (the final table message starts with the game's result too)."""
    return all(line.startswith(NEWS) for line in m.history[0][0].splitlines())


def most_in_a_window(times: Iterable[float], window: float) -> int:
    ts = sorted(times)
    best, lo = 0, 0
    for hi, t in enumerate(ts):
        while t - ts[lo] >= window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def group_sends(api: FakeBotAPI, chat: FakeChat) -> list[float]:
    """When each message the bot sent to ``chat`` (or edit it made there) arrived."""
    counted = ("sendMessage", "editMessageText", "editMessageReplyMarkup")
    return [
        c.t
        for c in api.calls
        if c.method in counted and c.ok and c.params.get("chat_id") == chat.id
    ]


def check_log(log: list[ActionRecord], t: Table) -> None:
    """Each version once, in order, and the log replays to the stored game: every action
    (a person's, a bot seat's, a deadline's) applied exactly once. (A deadline that fired
    twice would be two records of one deadline: the second would have a version of its
    own, and the replay would differ, or the service would have refused it as stale.)"""
    versions = [r.version for r in log]
    assert versions == sorted(set(versions)), versions
    assert t.game is not None and game_json(replay(log, t.game_no)) == game_json(t.game)


async def finished_and_shown(w: World, runs: list[Run], timeout: float) -> dict[str, Table]:
    """Wait until every table is over and its last version was shown (its message edited,
    its result announced: reported to the database by whichever process did it)."""
    end = time.monotonic() + timeout
    while True:
        tables = {r.key: await w.store.get_table(r.key) for r in runs}
        if all(t is not None and t.status == "finished" and t.shown == t.version
               for t in tables.values()):  # fmt: skip
            return {k: t for k, t in tables.items() if t is not None}
        if time.monotonic() > end:
            late = {k: (t.status, t.version, t.shown) for k, t in tables.items() if t}
            logs = "\n".join(p.tail() for p in w.procs)
            raise AssertionError(f"not finished and shown: {late}\n{logs}")
        await asyncio.sleep(0.1)


# -- webhook -------------------------------------------------------------------------------------


async def games_with_a_process_killed(
    api: FakeBotAPI, db: str, tmp: Path, processes: int, tables: int, hand_size: int
) -> dict[str, Any]:
    rng = random.Random(processes * 1000 + tables)
    w = await world(api, db, tmp, webhook=True)
    try:
        first = [w.start() for _ in range(processes)]
        for p in first:
            await w.up(p)
        runs = await open_tables(w, tables, rng, hand_size)
        players = [Player(w, r, rng) for r in runs]
        games = [asyncio.create_task(p.play(timeout=150 + 4 * tables)) for p in players]

        # mid-game: every table has moved a few times, none is over
        end = time.monotonic() + 60 + 2 * tables
        while True:
            logs = [await w.store.actions(r.key) for r in runs]
            if min(len(log) for log in logs) >= 4:
                break
            if time.monotonic() > end:
                slow = [(r.key, await w.store.get_table(r.key)) for r, log in
                        zip(runs, logs, strict=True) if len(log) < 4]  # fmt: skip
                raise AssertionError([
                    (k, t and (t.status, len(t.seats), t.version, t.shown, sorted(t.meta),
                               t.game and (t.game.current, t.game.phase.name),
                               [(d.kind, round(d.due - time.time(), 1), d.version)
                                for d in t.deadlines]))
                    for k, t in slow
                ])  # fmt: skip
            await asyncio.sleep(0.05)
        victim = rng.choice(first)
        victim.kill()
        killed = api.now()
        before = {r.key: await w.store.actions(r.key) for r in runs}
        playing = [k for k in before if (await w.store.get_table(k)).status == PLAYING]  # type: ignore[union-attr]
        assert playing, "every game ended before the kill"
        late = w.start()
        await w.up(late)
        seen = len(api.delivered)  # updates delivered before the late process was up

        await asyncio.gather(*games)
        final = await finished_and_shown(w, runs, timeout=60)
        took = max(api.now() - killed, 0.0)
        for r in runs:
            t = final[r.key]
            log = await w.store.actions(r.key)
            check_log(log, t)
            # what was committed before the kill is all there, in its place
            assert log[: len(before[r.key])] == before[r.key]
            msgs = api.bot_messages(r.chat)
            # one table message, whichever process sent it, ending on the final version
            boards = [m for m in msgs if not is_news(m)]
            assert len(boards) == 1, [m.history[0][0][:40] for m in msgs]
            assert boards[0].markup is None and boards[0].message_id == t.meta["tg_msg"]
            # the result announced once, whichever process announced it
            news = [m for m in msgs if is_news(m)]
            assert len(news) == 1 and GAME_WON in news[0].text, [m.text for m in news]
            # no group ever over 20 messages in a minute, whichever process sent them
            assert most_in_a_window(group_sends(api, r.chat), WINDOW) <= 20
        # the updates went everywhere, and whichever process got one answered it (but the
        # one killed, which may have got some it never answered)
        took_by = {p.tag: 0 for p in w.procs}
        for url, update in api.delivered.values():
            p = next(p for p in w.procs if p.url == url)
            took_by[p.tag] += 1
            q = update.get("callback_query") or update.get("inline_query")
            if q is not None and p is not victim:
                answers = api.callbacks if "callback_query" in update else api.inline_answers
                assert answers[q["id"]].answered.is_set(), (p.tag, update)
        # every process got some; the late one only if enough came after it was up (a loaded
        # machine may start it when the games are nearly over; each update goes to one of
        # `processes` at random, so 20 after it missing it all is a chance under 1 in 1,000)
        after = list(api.delivered.values())[seen:]
        assert all(n > 0 for tag, n in took_by.items() if tag != late.tag), took_by
        if len(after) >= 20:
            assert any(url == late.url for url, _ in after), (took_by, len(after))
        codes = await w.stop_all()
        assert [c for p, c in zip(w.procs, codes, strict=True) if p is not victim] == [0] * (
            len(w.procs) - 1
        ), [p.tail() for p in w.procs]
        busiest = max(most_in_a_window(group_sends(api, r.chat), WINDOW) for r in runs)
        return {"updates": took_by, "busiest": busiest, "took": took, "playing": len(playing)}
    finally:
        for p in w.procs:
            if p.alive():
                p.proc.kill()
                p.proc.wait(10)
        await w.store.close()


def report(processes: int, tables: int, found: dict[str, Any], seconds: float) -> None:
    print(
        f"\n{processes} processes, {tables} tables ({found['playing']} in play at the kill): "
        f"updates taken {found['updates']}; every game over and shown {found['took']:.1f} s "
        f"after the kill; busiest group {found['busiest']} messages in {WINDOW:g} s (a "
        f"minute, scaled); {seconds:.1f} s"
    )


@pytest.mark.parametrize(("processes", "tables"), [(2, 3), (3, 3)])
async def test_games_across_webhook_processes_survive_a_kill(
    api: FakeBotAPI, postgres_url: str, tmp_path: Path, processes: int, tables: int
) -> None:
    started = time.monotonic()
    found = await games_with_a_process_killed(
        api, postgres_url, tmp_path, processes, tables, hand_size=4
    )
    report(processes, tables, found, time.monotonic() - started)


@pytest.mark.soak
@pytest.mark.parametrize("processes", [2, 3])
async def test_fifty_tables_across_webhook_processes_survive_a_kill(
    api: FakeBotAPI, postgres_url: str, tmp_path: Path, processes: int
) -> None:
    started = time.monotonic()
    found = await games_with_a_process_killed(
        api, postgres_url, tmp_path, processes, 50, hand_size=7
    )
    report(processes, 50, found, time.monotonic() - started)


# -- polling ---------------------------------------------------------------------------------


async def test_one_process_polls_and_a_standby_takes_over_within_ten_seconds(
    api: FakeBotAPI, postgres_url: str, tmp_path: Path
) -> None:
    w = await world(api, postgres_url, tmp_path, webhook=False)
    try:
        procs = [w.start(), w.start()]
        for p in procs:
            await w.up(p)
        await api.wait_for(api.pollers, 10)
        [poller_tag] = api.pollers()
        poller = next(p for p in procs if p.tag == poller_tag)
        standby = next(p for p in procs if p is not poller)
        # the standby serves everything but the updates: it never polls meanwhile
        chat = api.group()
        host, guest = api.user("Ann", started=True), api.user("Bob", started=True)
        await host.send(chat, "/new")
        key = f"tg:{chat.id}"

        async def table() -> Table | None:
            return await w.store.get_table(key)

        end = time.monotonic() + 10
        while (t := await table()) is None or "tg_msg" not in t.meta:
            assert time.monotonic() < end
            await asyncio.sleep(0.05)
        await asyncio.sleep(2 * 2.0)  # two renewals of the lease
        assert api.pollers() == [poller_tag]
        assert api.conflicts == 0

        poller.kill()
        killed = api.now()
        await api.wait_for(lambda: standby.tag in api.pollers(killed), 15)
        took = min(p.start for p in api.polls if p.via == standby.tag) - killed
        print(f"the standby polled {took:.1f} s after the poller was killed")
        assert took < 10
        # and the updates are its now: a press is answered, the table changes
        msg = api.messages[(chat.id, t.meta["tg_msg"])]
        ans = await guest.click(msg, render.button_label("join", EN))
        assert not ans.show_alert, ans.text
        t = await table()
        assert t is not None and [s.name for s in t.seats] == ["Ann", "Bob"]
        assert api.conflicts == 0  # no two processes ever polled at once
        assert await standby.stop() == 0, standby.tail()
    finally:
        for p in w.procs:
            if p.alive():
                p.proc.kill()
                p.proc.wait(10)
        await w.store.close()
