"""Restarts: a game killed with SIGKILL resumes with nothing that was shown lost, and
deadlines survive a restart (one that passed meanwhile fires at once)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from adapters.terminal.table import KEY as TERMINAL_KEY
from bot.model import Deadline
from bot.port import RecordingPort
from bot.store import SqliteStore, store_for
from engine import Draw, TurnTimedOut, scenario
from tests.bot.helpers import (
    Clock,
    close_service,
    game_json,
    open_service,
    peek,
    put_game,
    replay,
)

BACKENDS = ("sqlite", "postgresql")

UNO_BOT = Path(sys.executable).with_name("uno-bot")
VERSION = re.compile(r"^#(\d+) ")


def env_for(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env["UNO_LOG_LEVEL"] = "WARNING"
    env["UNO_DB"] = str(tmp_path / "unused.sqlite3")
    return env


def stored(db: Path) -> tuple[int, str, list[int]]:
    """The table's version and status, and the versions in its action log (read as any
    other program would, after the bot is gone)."""
    with sqlite3.connect(db) as c:
        version, status = c.execute(
            "SELECT version, status FROM tables WHERE key = ?", (TERMINAL_KEY,)
        ).fetchone()
        log = [r[0] for r in c.execute("SELECT version FROM actions ORDER BY id")]
    return int(version), status, log


def test_sigkill_mid_game_loses_nothing_that_was_shown(tmp_path: Path) -> None:
    db = tmp_path / "killed.sqlite3"
    args = [str(UNO_BOT), "play", "--players", "4", "--bots", "4", "--db", str(db)]
    proc = subprocess.Popen(
        [*args, "--delay", "0.02", "--seed", "5", "--json"],
        cwd=tmp_path,
        env=env_for(tmp_path),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    shown: list[int] = []
    deadline = time.monotonic() + 60
    try:
        while len(shown) < 60 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            m = VERSION.match(line)
            if m:
                shown.append(int(m.group(1)))
        assert len(shown) >= 60, (
            f"the game did not get going: {proc.stderr.read() if proc.stderr else ''}"
        )
        proc.send_signal(signal.SIGKILL)  # no chance to flush, close or clean up
        rest, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    shown += [int(m.group(1)) for m in map(VERSION.match, rest.splitlines()) if m]
    assert not any(line.startswith("{") for line in rest.splitlines())  # it did not finish

    version, status, log = stored(db)
    assert status == "playing"
    assert max(shown) <= version  # everything shown was committed first
    assert set(shown) <= set(log) | {version}  # and each change shown is in the log
    assert log == sorted(set(log))

    # run again on the same database: the same table carries on to the end
    res = subprocess.run(
        [*args, "--delay", "0", "--json"],
        cwd=tmp_path,
        env=env_for(tmp_path),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    summary = json.loads(lines[-1])
    assert summary["resumed"] is True and summary["status"] == "finished"
    assert summary["winner"] in summary["scores"]
    assert "back where it was left" in lines[0]
    after = [int(m.group(1)) for m in map(VERSION.match, lines) if m]
    assert after and min(after) > version  # it went on from where it was killed
    final_version, final_status, final_log = stored(db)
    assert final_version > version
    assert final_status == "finished" and final_log[: len(log)] == log
    assert final_log == sorted(set(final_log))
    # and the log still rebuilds the whole game, across the kill
    asyncio.run(_replays(db))


async def _replays(db: Path) -> None:
    store = SqliteStore(db)
    await store.open()
    try:
        t = await store.get_table(TERMINAL_KEY)
        assert t is not None and t.game is not None
        assert game_json(replay(await store.actions(TERMINAL_KEY), t.game_no)) == game_json(t.game)
    finally:
        await store.close()


async def test_deadlines_survive_a_restart(db: Path | str) -> None:
    """A person's turn deadline is stored; the bot is down past it; on start-up the timeout
    fires at once, through the same path as ever."""
    clock = Clock()
    svc, store, _ = await open_service(db, clock, bot_delay=1.0)
    key = "t:chat:9"
    await svc.create(key, "chat", "u1", "Ann")
    await svc.add_bot(key, "u1", "smart")
    await svc.start_game(key, "u1")
    for _ in range(200):  # let the bot move until it is the person's turn
        info = await svc.table(key)
        assert info is not None and info.view is not None
        if info.view.current == "u1" and info.view.phase.value == "playing":
            break
        if info.view.current == "u1":
            await svc.act(key, "u1", Draw())
            continue
        clock.advance(1)
        await svc.timers.run_due(clock())
    turn = svc.timers.armed(key)["turn"]
    assert turn.due == pytest.approx(clock() + 60, abs=1)
    version = info.version
    await close_service(svc, store)

    # on disk, with the table
    rows = await peek(db, "SELECT kind, due, version FROM deadlines WHERE table_key = ?", key)
    assert ("turn", turn.due, turn.version) in rows

    clock.t = turn.due + 3600  # down for an hour
    port = RecordingPort()
    svc, store, _ = await open_service(db, clock, port)  # timers not running yet
    try:
        assert svc.timers.armed(key)["turn"] == turn  # re-armed as stored
        svc.timers.start()  # the scheduler: an overdue deadline fires at once
        for _ in range(100):
            if port.of("table"):
                break
            await asyncio.sleep(0.01)
        events = [e for _, evs in port.of("table") for e in evs]
        assert events and isinstance(events[0], TurnTimedOut) and events[0].player == "u1"
        info = await svc.table(key)
        assert info is not None and info.version > version
        log = await store.actions(key)
        assert log[-1].player == "u1" and log[-1].action == {"type": "Timeout", "window": "turn"}
        assert "turn" in svc.timers.armed(key) or "bot" in svc.timers.armed(key)
    finally:
        await close_service(svc, store)


async def test_a_lobby_deadline_survives_a_restart(db: Path | str) -> None:
    clock = Clock()
    svc, store, _ = await open_service(db, clock)
    await svc.create("t:lobby", "chat", "u1", "Ann")
    lobby_due = svc.timers.armed("t:lobby")["lobby"].due
    await close_service(svc, store)
    clock.t = lobby_due + 1
    svc, store, _ = await open_service(db, clock)
    try:
        assert await svc.timers.run_due(clock()) == 1
        info = await svc.table("t:lobby")
        assert info is not None and info.status == "stopped"
    finally:
        await close_service(svc, store)


async def test_deadlines_stored_before_the_clock_went_back_are_brought_in(
    db: Path | str,
) -> None:
    """The clock went back while the bot was down: a stored deadline further away than
    its kind can ever be (a 60 s turn due in 80 s, a 600 s lobby due in 620 s) is armed
    for that length from now; one within its length is kept as stored."""
    clock = Clock()
    store = store_for(db)
    await store.open()
    hands = {"u1": ["R5", "G7"], "u2": ["B2", "Y3"]}
    game = scenario(hands, ["R9"], draw_pile=["G1", "G2", "G3", "G4"], current="u1")
    await put_game(store, "t:far", game, clock=clock)  # its turn: due in 60 s
    near = (Deadline("turn", clock() + 30, 1),)
    await put_game(store, "t:near", game, clock=clock, deadlines=near)
    await store.close()
    svc, store, _ = await open_service(db, clock)
    await svc.create("t:lobby", "chat", "u9", "Ann")  # due in 600 s
    await close_service(svc, store)

    clock.t -= 20  # stepped back while down
    svc, store, port = await open_service(db, clock)
    try:
        assert svc.timers.armed("t:far")["turn"] == Deadline("turn", clock() + 60, 1)
        assert svc.timers.armed("t:near")["turn"] == near[0]
        assert svc.timers.armed("t:lobby")["lobby"].due == clock() + 600
        assert await svc.timers.run_due(clock.advance(50)) == 1  # t:near's, as stored
        assert await svc.timers.run_due(clock.advance(9)) == 0
        assert await svc.timers.run_due(clock.advance(1)) == 1  # t:far's, a turn from now
        timed_out = [e.player for _, evs in port.of("table") for e in evs
                     if isinstance(e, TurnTimedOut)]  # fmt: skip
        assert timed_out == ["u1", "u1"]
    finally:
        await close_service(svc, store)


async def test_a_table_whose_clocks_stop_is_given_full_windows_at_start(
    db: Path | str,
) -> None:
    """The terminal's table (issue 19 item 13): its person was away with the program, so
    every deadline starts again for its full length; a chat's table, down as long, keeps
    its own (overdue: it fires at once)."""
    clock = Clock()
    store = store_for(db)
    await store.open()
    hands = {"u1": ["R5", "G7"], "u2": ["B2", "Y3", "Y4"]}
    game = scenario(hands, ["R9"], draw_pile=["G1", "G2", "G3", "G4"], current="u1")
    uno = Deadline("uno:u2", clock() + 5, 1)
    await put_game(store, "term:table", game, clock=clock, deadlines=(
        Deadline("turn", clock() + 60, 1), uno))  # fmt: skip
    await put_game(store, "t:chat", game, clock=clock)
    await store.close()

    clock.advance(3600)  # the program was closed for an hour
    svc, store, port = await open_service(db, clock)
    try:
        await svc.restart_clocks("term:table")
        armed = svc.timers.armed("term:table")
        assert armed["turn"] == Deadline("turn", clock() + 60, 1)
        assert armed["uno:u2"] == Deadline("uno:u2", clock() + 5, 1)
        assert svc.timers.armed("t:chat")["turn"].due < clock()  # as stored: overdue
        assert await svc.timers.run_due(clock()) == 1  # the chat's alone
        assert {info.key for info, _ in port.of("table")} == {"t:chat"}
        rows = await peek(db, "SELECT kind, due FROM deadlines WHERE table_key = ?",
                          "term:table")  # fmt: skip
        assert sorted(rows) == [("turn", clock() + 60), ("uno:u2", clock() + 5)]
        assert await svc.timers.run_due(clock.advance(59)) == 1  # the UNO window only
        info = await svc.table("term:table")
        assert info is not None and info.view is not None and info.view.current == "u1"
    finally:
        await close_service(svc, store)
