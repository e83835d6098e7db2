"""Two bot processes on one PostgreSQL database, one killed with SIGKILL mid-game: the
other, which never saw those tables, fires their deadlines within seconds and plays every
game to its end; every table's log holds each version once and replays to its game."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.store import store_for
from tests.bot.helpers import game_json, replay

BACKENDS = ("postgresql",)
ROOT = Path(__file__).resolve().parents[2]
TABLES = 6

# one process: a service on the database, its timers running; "maker" also opens tables
WORKER = """
import asyncio, sys
from bot.ops.config import Settings
from bot.port import RecordingPort
from bot.service import Service
from bot.store import store_for

async def main(url, role, tables):
    store = store_for(url)
    await store.open()
    settings = Settings(_env_file=None, bot_delay=0.05, round_pause_seconds=0.2)
    svc = Service(store, RecordingPort(keep=False), settings)
    await svc.start()
    print("worker", svc.worker, flush=True)
    if role == "maker":
        for i in range(tables):
            key = f"t:kill:{i}"
            over = {"target": 0, "hand_size": 6}
            assert (await svc.create(key, "c", "h", "Host", seat_host=False, overrides=over)).ok
            for _ in range(4):
                assert (await svc.add_bot(key, "h", "smart")).ok
            assert (await svc.start_game(key, "h")).ok
        print("made", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
"""


def start(url: str, role: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env["PYTHONPATH"] = str(ROOT)
    env["UNO_LOG_LEVEL"] = "WARNING"
    proc = subprocess.Popen(
        [sys.executable, "-c", WORKER, url, role, str(TABLES)],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("worker "), (line, proc.stderr.read() if proc.stderr else "")
    return proc


async def test_a_killed_process_s_games_are_finished_by_the_other(db: str) -> None:
    store = store_for(db)
    await store.open()
    survivor = start(db, "idle")  # before the tables exist: it knows none of them
    maker = start(db, "maker")
    try:
        assert maker.stdout is not None and maker.stdout.readline() == "made\n"
        keys = [f"t:kill:{i}" for i in range(TABLES)]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # every game going, none over
            logs = [await store.actions(k) for k in keys]
            if min(len(log) for log in logs) >= 8:
                break
            await asyncio.sleep(0.05)
        maker.send_signal(signal.SIGKILL)  # no chance to release anything
        maker.wait(10)
        killed = time.time()
        before = {k: len(await store.actions(k)) for k in keys}
        playing = [k for k in keys if (await store.get_table(k)).status == "playing"]  # type: ignore[union-attr]
        assert playing, "every game ended before the kill: nothing to take over"

        # the survivor takes each one up within seconds, and finishes it
        first: dict[str, float] = {}
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            done = True
            for k in playing:
                log = await store.actions(k)
                if k not in first and len(log) > before[k]:
                    first[k] = log[before[k]].at
                t = await store.get_table(k)
                assert t is not None
                done = done and t.status != "playing"
            if done:
                break
            await asyncio.sleep(0.1)
        assert survivor.poll() is None, survivor.stderr.read() if survivor.stderr else ""
        for k in keys:
            t = await store.get_table(k)
            assert t is not None and t.status == "finished", (k, t and t.status)
            log = await store.actions(k)
            versions = [r.version for r in log]
            assert versions == sorted(set(versions))  # no change applied twice
            assert t.game is not None and game_json(replay(log, t.game_no)) == game_json(t.game)
        taken = {k: first[k] - killed for k in playing}
        # a claim the dead process held runs out after 5 s; a free deadline is taken once
        # 2 s overdue, looked for every second
        assert max(taken.values()) < 12, taken
        print(f"taken over after {min(taken.values()):.1f}-{max(taken.values()):.1f} s")
    finally:
        for p in (maker, survivor):
            if p.poll() is None:
                p.kill()
            p.wait(10)
        await store.close()
