"""The real ``uno-bot run`` as an OS process with the web table on, for the end-to-end tests
(the browser against the fake Telegram and Discord, two processes on PostgreSQL): its
environment, its start (until its web table listens) and its stop."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.store import ChatUpdate, WriteBatch, store_for
from tests.adapters.web.conftest import SECRET, free_port

ROOT = Path(__file__).resolve().parents[3]

# ``uno-bot run`` (``bot.cli.main``); the Telegram pacing's time scaled when ``argv[1]`` says
# so (a group's 20 messages a minute in 60/scale seconds), as tests/adapters/telegram's do
RUN = """
import sys
scale = float(sys.argv[1])
if scale != 1.0:
    from adapters.telegram import Adapter, Limits
    Adapter.default_limits = Limits().scaled(scale)
from bot.cli import main
sys.exit(main(["run"]))
"""


@dataclass
class BotRun:
    """One ``uno-bot run`` process: its web table at ``url``, what it wrote (stderr)."""

    port: int
    proc: asyncio.subprocess.Process
    lines: list[str] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        async for raw in self.proc.stderr:
            self.lines.append(raw.decode(errors="replace").rstrip())

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def tail(self, n: int = 30) -> str:
        return "\n".join(self.lines[-n:])

    async def stop(self) -> int | None:
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 20)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self.reader is not None:
            await self.reader
        return self.proc.returncode


def web_env(db: str, port: int, **extra: str) -> dict[str, str]:
    """The environment of a ``uno-bot run`` with the web table on ``port`` (and the
    platform's variables in ``extra``); none of the caller's ``UNO_*``."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env.update(
        PYTHONPATH=str(ROOT),
        UNO_DB=db,
        UNO_WEB_URL=f"http://127.0.0.1:{port}",
        UNO_WEB_LISTEN="127.0.0.1",
        UNO_WEB_PORT=str(port),
        UNO_WEB_SECRET=SECRET,
        UNO_LOG_LEVEL="INFO",
        UNO_BOT_DELAY="0.05",
        UNO_ROUND_PAUSE_SECONDS="0.2",
        UNO_CARD_IMAGES="false",
    )
    env.update(extra)
    return env


async def start_run(db: str, cwd: Path, *, scale: float = 1.0, **extra: str) -> BotRun:
    """``uno-bot run`` on ``db`` with the web table on a free port; returned once it
    serves the web table (every platform started before it)."""
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", RUN, str(scale),
        cwd=cwd, env=web_env(db, port, **extra),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    run = BotRun(port, proc)
    run.reader = asyncio.create_task(run._read())
    for _ in range(600):
        if run.said("web table: listening"):
            return run
        if proc.returncode is not None:
            break
        await asyncio.sleep(0.05)
    await run.stop()
    raise AssertionError(f"uno-bot run did not start:\n{run.tail()}")


async def chat_rules(db: str, key: str, **overrides: Any) -> None:
    """The chat's own rules (as its settings menu would keep them), written before the
    process opens the database."""
    store = store_for(db)
    await store.open()
    try:
        await store.write(WriteBatch(chat_settings=[ChatUpdate(key, overrides=overrides)]))
    finally:
        await store.close()
