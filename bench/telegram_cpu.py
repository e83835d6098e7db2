"""Telegram: CPU seconds per turn of the bot process, beside the floor (issue 11 item 4).

The bot runs as a process of its own against the local fake Bot API
(``tests/fakes/telegram_api.py``, served here), so what is measured is its CPU alone
(``/proc/<pid>/stat``: user + system time, during the games only), not the fake's or the
scripted players'. Four people per group play as fast as they can through inline mode
(ask, choose, wait for the move to be committed); the scripted players learn whose turn it
is from the bot's SQLite database (read-only), so the bot gets no update it would not get
from real players.

Measured side by side in one run:

- ``floor``: a minimal bot on the same library (python-telegram-bot, same fake) that
  answers a press and edits one message per turn: what any bot on this library pays;
  beside it the same floor on the HTTP client the adapter uses (aiohttp, see
  ``adapters/telegram/http.py``; PTB's own is httpx);
- ``uno-bot run``: the production path (``bot.cli.run_platforms``), paced as on Telegram
  (20 edits a minute per group: at full speed moves are coalesced into fewer edits);
- ``uno-bot, an edit per move``: the same adapter with pacing off, so that it edits the
  table after every move as the floor does.

A turn is a move (a card played, a draw, a pass, a penalty taken, a colour...), as in
``bench/telegram.py``; the floor's turn is one press.

    python -m bench.telegram_cpu [--turns N] [--groups G]
    python -m bench.telegram_cpu --profile   # where our CPU goes (cProfile, in-process)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from bench.telegram import _is_move
from tests.fakes.telegram_api import FakeBotAPI, FakeChat, FakeUser

__all__ = ["main"]

TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Figure:
    name: str
    turns: int
    cpu: float  # seconds
    wall: float
    calls: int

    @property
    def per_100(self) -> float:
        return self.cpu / self.turns * 100 if self.turns else float("nan")


def cpu_of(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


# -- the processes under test -------------------------------------------------------------


def _spawn(kind: str, api: FakeBotAPI, db: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.update(
        UNO_TELEGRAM_TOKEN=api.token,
        UNO_TELEGRAM_API_URL=api.base_url,
        UNO_DB=str(db),
        UNO_BOT_DELAY="0",
        UNO_ROUND_PAUSE_SECONDS="0.2",
        UNO_LOG_LEVEL="WARNING",
        PYTHONPATH=str(Path(__file__).resolve().parent.parent),
    )
    env.pop("UNO_DISCORD_TOKEN", None)
    return subprocess.Popen([sys.executable, "-m", "bench.telegram_cpu", "--serve", kind], env=env)


def serve(kind: str) -> None:
    """The process under test (``--serve``): ``floor``, ``ours`` or ``ours-unpaced``."""
    logging.basicConfig(level=logging.WARNING)
    if kind.startswith("floor"):
        asyncio.run(_floor(aiohttp=kind == "floor-aiohttp"))
        return
    from bot.cli import run_platforms
    from bot.ops.config import load_settings

    settings = load_settings()
    if kind == "ours":
        asyncio.run(run_platforms(settings))
    else:
        asyncio.run(_unpaced(settings))


async def _unpaced(settings: Any) -> None:
    """``uno-bot run``'s wiring with the Telegram adapter's pacing off."""
    from adapters.telegram import Adapter, Limits
    from bot.cli import settle_gc
    from bot.port import RoutingPort
    from bot.service import Service
    from bot.store import store_for

    store = store_for(settings.db)
    await store.open()
    router = RoutingPort()
    service = Service(store, router, settings)
    adapter = Adapter(settings, service, limits=Limits.unlimited())
    router.add(adapter.prefix, adapter)
    await service.start(run_timers=False)
    await adapter.start()
    service.timers.start()
    settle_gc()
    await _until_signal()
    await service.stop()
    await adapter.stop()
    await store.close()


async def _floor(*, aiohttp: bool = False) -> None:
    """The floor: answer a press, edit one message (on PTB's own HTTP client, httpx, or
    with ``aiohttp`` on the one the adapter uses)."""
    from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
    from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

    token, url = os.environ["UNO_TELEGRAM_TOKEN"], os.environ["UNO_TELEGRAM_API_URL"]
    builder = Application.builder().token(token).base_url(url).concurrent_updates(64)
    if aiohttp:
        from adapters.telegram.http import AiohttpRequest

        builder = builder.request(AiohttpRequest())
        builder = builder.get_updates_request(AiohttpRequest(connection_pool_size=1))
    app = builder.build()
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Play", callback_data="play")]])
    turns: dict[int, int] = {}

    async def new(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        assert update.effective_chat is not None
        await context.bot.send_message(update.effective_chat.id, "turn 0", reply_markup=keyboard)

    async def press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        q = update.callback_query
        assert q is not None and q.message is not None
        n = turns[q.message.chat.id] = turns.get(q.message.chat.id, 0) + 1
        await q.answer()
        await q.edit_message_text(f"turn {n}", reply_markup=keyboard)

    app.add_handler(CommandHandler("new", new))
    app.add_handler(CallbackQueryHandler(press))
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.0, timeout=10)
    await _until_signal()
    await app.updater.stop()
    await app.stop()
    await app.shutdown()


async def _until_signal() -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()


# -- the players --------------------------------------------------------------------------


class Players:
    """Scripted people at full speed, through the fake."""

    def __init__(self, api: FakeBotAPI, db: Path | None) -> None:
        self.api = api
        self.db = db
        self._conn: sqlite3.Connection | None = None

    def _table(self, key: str) -> Any:
        from bot.model import Table

        if self._conn is None:
            assert self.db is not None
            self._conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
            self._conn.row_factory = sqlite3.Row
        row = self._conn.execute("SELECT * FROM tables WHERE key = ?", (key,)).fetchone()
        return None if row is None else Table.from_row(row, ())

    def moves(self, keys: list[str]) -> int:
        assert self._conn is not None
        n = 0
        sql = "SELECT action FROM actions WHERE table_key = ?"
        for key in keys:
            n += sum(_is_move(json.loads(text)) for (text,) in self._conn.execute(sql, (key,)))
        return n

    async def open(self, n: int) -> tuple[FakeChat, list[FakeUser]]:
        chat = self.api.group(f"cpu {n}")
        people = [self.api.user(f"P{n}-{i}") for i in range(4)]
        await people[0].send(chat, "/new")
        msg = (await self.api.wait_for(lambda: self.api.bot_messages(chat), 30))[0]
        for u in people[1:]:
            await u.click(msg, "Join")
        return chat, people

    async def start(self, chat: FakeChat, people: list[FakeUser]) -> None:
        msg = self.api.bot_messages(chat)[0]
        await people[0].click(msg, "Start")

    async def play(self, chat: FakeChat, people: list[FakeUser], stop_at: float) -> None:
        key = f"tg:{chat.id}"
        by_pid = {u.pid: u for u in people}
        loop = asyncio.get_running_loop()
        while loop.time() < stop_at:
            t = self._table(key)
            if t is None or t.status != "playing" or t.game is None or t.game.current is None:
                if t is not None and t.status not in ("lobby", "playing"):
                    return
                await asyncio.sleep(0.005)
                continue
            user = by_pid.get(t.game.current)
            if user is None:
                await asyncio.sleep(0.005)
                continue
            answer = await user.inline(str(chat.id), timeout=30)
            choice = _pick(answer)
            if choice is None:
                await asyncio.sleep(0.005)
                continue
            await user.choose(answer, choice, chat)
            while loop.time() < stop_at:
                now = self._table(key)
                if now is None or now.version > t.version:
                    break
                await asyncio.sleep(0.002)

    async def floor(self, chat: FakeChat, user: FakeUser, stop_at: float) -> int:
        await user.send(chat, "/new")
        msg = (await self.api.wait_for(lambda: self.api.bot_messages(chat), 30))[0]
        loop = asyncio.get_running_loop()
        n = 0
        while loop.time() < stop_at:
            await user.click(msg, "Play")
            n += 1
            await self.api.wait_for(partial(_shows, msg, f"turn {n}"), 30)
        return n


def _shows(msg: Any, text: str) -> bool:
    return bool(msg.text == text)


def _pick(answer: Any) -> Any:
    from bench.telegram import _pick as pick

    return pick(answer)


# -- one measurement ----------------------------------------------------------------------


async def measure(kind: str, name: str, groups: int, seconds: float) -> Figure:
    api = FakeBotAPI()
    await api.start()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cpu.sqlite3"
        proc = _spawn(kind, api, db)
        try:
            await api.wait_for(lambda: api.of("getMe"), 60)
            await asyncio.sleep(1.0)  # polling starts
            players = Players(api, None if kind.startswith("floor") else db)
            loop = asyncio.get_running_loop()
            if kind.startswith("floor"):
                chats = [api.group(f"floor {n}") for n in range(groups)]
                users = [api.user(f"F{n}") for n in range(groups)]
                calls0, cpu0, wall0 = len(api.calls), cpu_of(proc.pid), loop.time()
                stop_at = wall0 + seconds
                counts = await asyncio.gather(
                    *(players.floor(c, u, stop_at) for c, u in zip(chats, users, strict=True))
                )
                turns = sum(counts)
            else:
                tables = [await players.open(n) for n in range(groups)]
                calls0, cpu0, wall0 = len(api.calls), cpu_of(proc.pid), loop.time()
                stop_at = wall0 + seconds
                await asyncio.gather(*(players.start(c, p) for c, p in tables))
                await asyncio.gather(*(players.play(c, p, stop_at) for c, p in tables))
                turns = players.moves([f"tg:{c.id}" for c, _ in tables])
            cpu, wall = cpu_of(proc.pid) - cpu0, loop.time() - wall0
            calls = len([c for c in api.calls[calls0:] if c.method != "getUpdates"])
        finally:
            proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(15)
            if proc.poll() is None:
                proc.kill()
            await api.stop()
    return Figure(name, turns, cpu, wall, calls)


def report(figs: list[Figure]) -> str:
    floor = next((f for f in figs if f.name.startswith("floor")), None)
    lines = [
        "Telegram: CPU of the bot process per 100 turns, four people a group at full speed",
        "",
        f"{'process':<40}{'turns':>7}{'CPU s':>8}{'s/100 turns':>13}{'x floor':>9}"
        f"{'calls/turn':>12}{'turns/s':>9}",
    ]
    for f in figs:
        ratio = f.per_100 / floor.per_100 if floor is not None and floor.turns else float("nan")
        lines.append(
            f"{f.name:<40}{f.turns:>7}{f.cpu:>8.2f}{f.per_100:>13.3f}{ratio:>9.2f}"
            f"{f.calls / max(1, f.turns):>12.2f}{f.turns / f.wall:>9.1f}"
        )
    return "\n".join(lines)


async def profile(seconds: float) -> None:
    """Where the bot's CPU goes: the production wiring in this process, the fake and the
    players too (their share is listed apart), under cProfile."""
    import cProfile
    import pstats

    from bot.cli import settle_gc
    from bot.ops.config import Settings

    api = FakeBotAPI()
    await api.start()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "cpu.sqlite3"
        settings = Settings(
            db=db,
            telegram_token=api.token,
            telegram_api_url=api.base_url,
            bot_delay=0.0,
            round_pause_seconds=0.2,
        )
        from adapters.telegram import Adapter
        from bot.port import RoutingPort
        from bot.service import Service
        from bot.store import store_for

        store = store_for(settings.db)
        await store.open()
        router = RoutingPort()
        service = Service(store, router, settings)
        adapter = Adapter(settings, service)
        router.add(adapter.prefix, adapter)
        await service.start(run_timers=False)
        await adapter.start()
        service.timers.start()
        settle_gc()
        players = Players(api, db)
        table = await players.open(0)
        prof = cProfile.Profile(time.process_time)
        prof.enable()
        await players.start(*table)
        await players.play(*table, asyncio.get_running_loop().time() + seconds)
        prof.disable()
        await service.stop()
        await adapter.stop()
        await store.close()
    await api.stop()
    prof.dump_stats(out := "telegram_cpu.prof")
    stats = pstats.Stats(prof)
    stats.sort_stats("cumulative").print_stats(40)
    print(f"(the whole profile: {out})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.telegram_cpu", description=__doc__)
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds of play per process")
    ap.add_argument("--groups", type=int, default=1, help="groups playing at once")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each, interleaved (median)")
    ap.add_argument("--serve", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--profile", action="store_true", help="profile our bot in-process")
    args = ap.parse_args(argv)
    if args.serve:
        serve(args.serve)
        return 0
    logging.basicConfig(level=logging.WARNING)
    if args.profile:
        asyncio.run(profile(args.seconds))
        return 0
    kinds = (
        ("floor", "floor (press + one edit)"),
        ("floor-aiohttp", "floor on aiohttp"),
        ("ours", "uno-bot run (paced)"),
        ("ours-unpaced", "uno-bot, an edit per move"),
    )
    runs: dict[str, list[Figure]] = {name: [] for _, name in kinds}
    for _ in range(max(1, args.repeat)):  # interleaved: a busy machine slows all alike
        for kind, name in kinds:
            runs[name].append(asyncio.run(measure(kind, name, args.groups, args.seconds)))
    figs = [sorted(rs, key=lambda f: f.per_100)[len(rs) // 2] for rs in runs.values()]
    print(report(figs))
    print(
        "(the median of "
        + f"{args.repeat} runs each; all runs, s/100 turns: "
        + "; ".join(f"{n}: " + " ".join(f"{f.per_100:.3f}" for f in rs) for n, rs in runs.items())
        + ")"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
