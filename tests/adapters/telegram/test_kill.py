"""A real ``uno-bot run`` on SQLite, killed with SIGKILL while replies wait in its outbox
(issue 19 item 11): after the restart, a chat whose replies were lost with the process is
told once that a command may need sending again; one whose replies all went is told
nothing."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from adapters.telegram.outbound.unsent import NOTICE
from bot.store import store_for
from bot.ui.i18n import translator
from tests.fakes.telegram_api import FakeBotAPI, FakeChat

ROOT = Path(__file__).resolve().parents[3]
EN = translator("en")
# `uno-bot run`, its Telegram pacing this many times slower: a group's replies go 4 s apart
RUN = """
import sys
from adapters.telegram import Adapter, Limits
Adapter.default_limits = Limits().scaled(float(sys.argv[1]))
from bot.cli import main
sys.exit(main(["run"]))
"""
SLOW = 0.25


def _start(api: FakeBotAPI, db: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env.update(
        PYTHONPATH=str(ROOT),
        UNO_TELEGRAM_TOKEN=api.token,
        UNO_TELEGRAM_API_URL=api.base_url,
        UNO_DB=str(db),
        UNO_LOG_LEVEL="INFO",
    )
    with log.open("ab") as out:
        return subprocess.Popen(
            [sys.executable, "-c", RUN, str(SLOW)],
            env=env,
            cwd=db.parent,  # (no .env file there)
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


async def _up(api: FakeBotAPI, proc: subprocess.Popen[bytes], log: Path, since: int) -> None:
    """Wait until the process has set its commands (its start nearly done: updates sent
    meanwhile wait for it at the fake)."""

    def ready() -> bool:
        assert proc.poll() is None, log.read_text(errors="replace")[-3000:]
        return any(c.method == "setMyCommands" for c in api.calls[since:])

    try:
        await api.wait_for(ready, 60)
    except TimeoutError:
        raise AssertionError(log.read_text(errors="replace")[-3000:]) from None


async def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        end = time.monotonic() + 15
        while proc.poll() is None and time.monotonic() < end:
            await asyncio.sleep(0.05)
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _replies(api: FakeBotAPI, chat: FakeChat) -> list[str]:
    return [m.text for m in api.bot_messages(chat)]


async def test_replies_lost_to_a_kill_are_owned_up_to_after_the_restart(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    db, log = tmp_path / "uno.sqlite3", tmp_path / "bot.log"
    g, quiet = api.group("No table"), api.group("Answered")
    alice = api.user("Alice")
    proc = _start(api, db, log)
    try:
        await _up(api, proc, log, 0)
        await alice.send(quiet, "/rules")
        await api.wait_for(lambda: _replies(api, quiet), 20)
        for _ in range(5):
            await alice.send(g, "/rules")
        await api.wait_for(lambda: _replies(api, g), 20)
        proc.send_signal(signal.SIGKILL)  # the four other replies wait 4 s apart: lost
        proc.wait(10)
        assert len(_replies(api, g)) < 5
        await asyncio.sleep(0.2)
        calls = len(api.calls)
        proc = _start(api, db, log)
        await _up(api, proc, log, calls)
        notice = EN.gettext(NOTICE)
        await api.wait_for(lambda: notice in _replies(api, g), 20)
        await asyncio.sleep(1.0)  # (nothing more comes)
        assert _replies(api, g).count(notice) == 1
        assert notice not in _replies(api, quiet)
        await _stop(proc)
        assert proc.returncode == 0, log.read_text(errors="replace")[-3000:]
        # said once: the chat owes nothing now, and a start after a clean stop says nothing
        store = store_for(db)
        await store.open()
        try:
            assert await store.unsent("tg", time.time() + 1) == []
        finally:
            await store.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
