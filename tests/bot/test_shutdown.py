"""``uno-bot run`` stops on SIGTERM within 8 seconds (Docker's ``docker stop`` waits 10 before
it kills), with everything committed, even while Telegram holds the bot's sends back."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engine
from bot.model import Deadline
from bot.store import SqliteStore
from tests.bot.helpers import Clock, put_game
from tests.fakes.telegram_api import FakeBotAPI

BACKENDS = ("sqlite", "postgresql")

UNO_BOT = Path(sys.executable).with_name("uno-bot")
ROOT = Path(__file__).resolve().parents[2]
STOP_WITHIN = 8.0


@pytest.fixture
async def api() -> AsyncIterator[FakeBotAPI]:
    server = FakeBotAPI()
    await server.start()
    yield server
    await server.stop()


def stored_version(db: Path, key: str) -> int:
    """The table's version as committed, read as another program would (read-only)."""
    with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as c:
        row = c.execute("SELECT version FROM tables WHERE key = ?", (key,)).fetchone()
    return int(row[0])


async def until(pred: object, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not pred():  # type: ignore[operator]
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def test_sigterm_stops_within_8_seconds_with_everything_committed(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    chat = api.group("Bots only")
    key = f"tg:{chat.id}"
    db = tmp_path / "uno.sqlite3"
    store = SqliteStore(db)
    await store.open()
    bots = {f"bot:{key}:{n}": "smart" for n in range(1, 5)}
    game = engine.new_game(list(bots), engine.Rules(), seed=3)
    clock = Clock(time.time())
    await put_game(
        store, key, game, clock=clock, bots=bots, host="tg:1", scope=key,
        deadlines=(Deadline("turn", clock() + 60, 1), Deadline("bot", clock(), 1)),
    )  # fmt: skip
    await store.close()

    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env.update(
        PYTHONPATH=str(ROOT),
        UNO_DB=str(db),
        UNO_LOG_LEVEL="WARNING",
        UNO_TELEGRAM_TOKEN=api.token,
        UNO_TELEGRAM_API_URL=api.base_url,
        UNO_BOT_DELAY="0.2",
    )
    proc = await asyncio.create_subprocess_exec(
        str(UNO_BOT), "run", cwd=tmp_path, env=env,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        # the game goes on: the table message is posted and edited as the bots play
        await until(lambda: len(api.of("editMessageText")) >= 1, 30, "the bots to play")
        # then Telegram holds every send back (429, retry after 30 s): the outbox has
        # edits queued that it can not send before it is told to stop
        api.storm(1.0, retry_after=30)
        await until(
            lambda: any(c.error is not None and c.error.code == 429 for c in api.calls),
            10,
            "a 429",
        )
        await asyncio.sleep(0.5)
        before = stored_version(db, key)
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        try:
            _, err = await asyncio.wait_for(proc.communicate(), 30)
        except TimeoutError:
            raise AssertionError("uno-bot run did not stop within 30 s of SIGTERM") from None
        took = time.monotonic() - t0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, err.decode()
    assert took < STOP_WITHIN, f"took {took:.1f} s to stop"
    assert b"Traceback" not in err, err.decode()
    # closed cleanly (the journal folded into the database), and what was committed is
    # there: the table at or past where it was, and its action log rebuilds it exactly
    assert not db.with_name(db.name + "-wal").exists()
    assert stored_version(db, key) >= before > 1
    store = SqliteStore(db)
    await store.open()
    try:
        t = await store.get_table(key)
        assert t is not None and t.game is not None and t.status == "playing"
        log = await store.actions(key)
        assert [a.version for a in log] == sorted({a.version for a in log})
        assert log[-1].version == t.version
    finally:
        await store.close()
