"""What the platform showed, and when (``Service.shown``): windows run from the moment
their buttons are seen, announcements are kept until they are, and a restart finds what
a crash kept from being shown (``Service.behind``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.model import FINISHED
from bot.port import RecordingPort
from bot.service import Service
from bot.store import SqliteStore, WriteBatch, migrations
from engine import CallUno, CatchUno, Draw, Play, Rules, scenario
from tests.bot.helpers import Clock, close_service, open_service, put_game

BACKENDS = ("sqlite", "postgresql")

KEY = "tg:-100:1"
DECK = ["G5", "B7", "Y8", "R2", "G3", "B4", "Y6", "R7", "G9", "B2", "Y1", "R9"] * 3


async def _exposing(svc: Service, store: SqliteStore, clock: Clock) -> int:
    """u1 plays down to one card without calling UNO: u2's turn, u1's catch window open."""
    g = scenario({"u1": ["R5", "R6"], "u2": ["B1", "G2", "Y3"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    res = await svc.act(KEY, "u1", Play("R5"))
    assert res.ok and res.table is not None
    return res.table.version


async def test_windows_run_from_the_moment_they_are_shown(db: Path | str) -> None:
    clock = Clock()
    svc, store, _ = await open_service(db, clock, port=RecordingPort())
    try:
        version = await _exposing(svc, store, clock)
        t0 = clock()
        armed = svc.timers.armed(KEY)
        assert armed["uno:u1"].due == t0 + 5 and armed["turn"].due == t0 + 60
        clock.advance(3.5)  # the table message went out late (paced)
        await svc.shown(KEY, version)
        armed = svc.timers.armed(KEY)
        assert armed["uno:u1"].due == t0 + 3.5 + 5
        assert armed["turn"].due == t0 + 3.5 + 60
        info = await svc.table(KEY)
        assert info is not None and info.shown == version
        assert info.deadline == t0 + 3.5 + 60
        # committed: a restart finds the windows as they were re-armed
        stored = await store.get_table(KEY)
        assert stored is not None and stored.shown == version
        assert {d.kind: d.due for d in stored.deadlines} == {
            "uno:u1": t0 + 8.5,
            "turn": t0 + 63.5,
        }
        # a catch 2 s after the button was seen: in time (7.5 s after the play)
        clock.advance(2.0)
        assert await svc.timers.run_due(clock()) == 0
        res = await svc.act(KEY, "u2", CatchUno("u1"))
        assert res.ok and res.table is not None and res.table.view is not None
        assert res.table.view.counts["u1"] == 3  # caught: drew the penalty
        # shown again (the same version, or an older one): nothing moves
        clock.advance(1.0)
        before = svc.timers.armed(KEY)
        await svc.shown(KEY, version)
        await svc.shown(KEY, version - 1)
        assert svc.timers.armed(KEY) == before
    finally:
        await close_service(svc, store)


async def test_a_window_waits_to_be_shown_before_its_clock_starts(db: Path | str) -> None:
    """Issue 19, item 7: on a port that reports what it shows, a window opened by a version
    not shown yet cannot run out before it is: a slow edit (paced, coalesced) that comes
    after the window's length still shows the window open, and then it runs its length."""
    clock = Clock()
    svc, store, _ = await open_service(db, clock, port=RecordingPort(reports=True))
    try:
        version = await _exposing(svc, store, clock)
        t0 = clock()
        wait = svc.settings.show_wait_seconds
        assert wait == 30
        armed = svc.timers.armed(KEY)
        assert armed["uno:u1"].due == t0 + 5 + wait and armed["turn"].due == t0 + 60 + wait
        info = await svc.table(KEY)
        assert info is not None and info.deadline == t0 + 60  # as it ends if shown at once
        clock.advance(8)  # past the window's length: the edit has not gone yet
        assert await svc.timers.run_due(clock()) == 0
        await svc.shown(KEY, version)
        armed = svc.timers.armed(KEY)
        assert armed["uno:u1"].due == t0 + 8 + 5 and armed["turn"].due == t0 + 8 + 60
        stored = await store.get_table(KEY)
        assert stored is not None
        assert {d.kind: d.due for d in stored.deadlines} == {"uno:u1": t0 + 13, "turn": t0 + 68}
        info = await svc.table(KEY)
        assert info is not None and info.deadline == t0 + 68
        clock.advance(4.9)
        assert await svc.timers.run_due(clock()) == 0
        clock.advance(0.1)  # the window's length after it was shown
        assert await svc.timers.run_due(clock()) == 1
        info = await svc.table(KEY)
        assert info is not None and info.view is not None and info.view.exposed == ()
    finally:
        await close_service(svc, store)


async def test_a_window_never_shown_runs_out_the_wait_later(db: Path | str) -> None:
    """A platform that never reports (down, or its message refused) holds no table for
    ever: the window runs out ``show_wait_seconds`` past its length. A restart meanwhile
    keeps it as it was (no clock gone back)."""
    clock = Clock()
    svc, store, _ = await open_service(
        db, clock, port=RecordingPort(reports=True), show_wait_seconds=10
    )
    try:
        await _exposing(svc, store, clock)
        t0 = clock()
        assert svc.timers.armed(KEY)["uno:u1"].due == t0 + 15
        await close_service(svc, store)
        clock.advance(1)
        svc, store, _ = await open_service(
            db, clock, port=RecordingPort(reports=True), show_wait_seconds=10
        )
        assert svc.timers.armed(KEY)["uno:u1"].due == t0 + 15
        clock.t = t0 + 14.9
        assert await svc.timers.run_due(clock()) == 0
        clock.t = t0 + 15
        assert await svc.timers.run_due(clock()) == 1
        info = await svc.table(KEY)
        assert info is not None and info.view is not None and info.view.exposed == ()
    finally:
        await close_service(svc, store)


async def test_a_window_shown_before_is_not_stretched_again(db: Path | str) -> None:
    clock = Clock()
    svc, store, _ = await open_service(db, clock)
    try:
        version = await _exposing(svc, store, clock)
        await svc.shown(KEY, version)
        turn = svc.timers.armed(KEY)["turn"]
        res = await svc.act(KEY, "u1", CallUno())  # keeps the turn and its deadline
        assert res.ok and res.table is not None and res.table.version == version + 1
        clock.advance(10)
        await svc.shown(KEY, version + 1)
        assert svc.timers.armed(KEY)["turn"] == turn  # seen since the first message
        # never shorter: a message seen at once leaves every window as long as it was
        clock.advance(-20)
        res = await svc.act(KEY, "u2", Draw())
        assert res.ok and res.table is not None
        due = svc.timers.armed(KEY)["turn"].due
        await svc.shown(KEY, res.table.version)
        assert svc.timers.armed(KEY)["turn"].due == due
    finally:
        await close_service(svc, store)


async def test_announcements_wait_with_the_table_until_shown(db: Path | str) -> None:
    clock = Clock()
    svc, store, _ = await open_service(db, clock)
    try:
        g = scenario(
            {"u1": ["R5"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=DECK, rules=Rules(target=0)
        )
        await put_game(store, KEY, g, clock=clock)
        await svc.start(run_timers=False)
        res = await svc.act(KEY, "u1", Play("R5"))  # the round and the game won
        assert res.ok and res.table is not None and res.table.status == FINISHED
        version = res.table.version
        assert [p.code for p in res.table.pending] == ["info.round_won", "info.game_won"]
        assert {p.version for p in res.table.pending} == {version}
        # a crash now: the table closed before it was shown, with what it had to say
        behind = await svc.behind("tg")
        assert [(i.key, i.version, i.shown) for i in behind] == [(KEY, version, 0)]
        assert [p.code for p in behind[0].pending] == ["info.round_won", "info.game_won"]
        assert await svc.behind("dc") == []
        await svc.shown(KEY, version)
        assert await svc.behind("tg") == []
        stored = await store.get_table(KEY)
        assert stored is not None and stored.shown == version
    finally:
        await close_service(svc, store)


async def test_only_a_table_left_alone_for_idle_seconds_is_behind(db: Path | str) -> None:
    """On a shared database the other processes show their tables: what waits unshown for
    ``idle`` seconds without a change is a dead one's (any process's: on PostgreSQL a
    service that never loaded the table finds it in the database)."""
    clock = Clock()
    svc, store, _ = await open_service(db, clock)
    try:
        version = await _exposing(svc, store, clock)
        assert await svc.behind("tg", idle=5) == []
        clock.advance(5)
        assert [i.version for i in await svc.behind("tg", idle=5)] == [version]
        if svc.shared:
            other, other_store, _ = await open_service(db, clock, seed=9)
            try:
                assert KEY in other.open_tables()
                other._tables.clear()  # as if it had started before the table was opened
                behind = await other.behind("tg", idle=5)
                assert [(i.key, i.version) for i in behind] == [(KEY, version)]
            finally:
                await close_service(other, other_store)
        await svc.shown(KEY, version)
        assert await svc.behind("tg", idle=5) == []
    finally:
        await close_service(svc, store)


async def test_an_open_table_not_shown_is_behind(db: Path | str) -> None:
    clock = Clock()
    svc, store, _ = await open_service(db, clock)
    try:
        version = await _exposing(svc, store, clock)
        assert [i.version for i in await svc.behind("tg")] == [version]
        await close_service(svc, store)
        svc, store, _ = await open_service(db, clock)
        assert [(i.key, i.shown) for i in await svc.behind("tg")] == [(KEY, 0)]
        await svc.shown(KEY, version)
        assert await svc.behind("tg") == []
    finally:
        await close_service(svc, store)


async def test_a_mark_never_lowers_what_was_shown(db: Path | str) -> None:
    """A table row written after a later mark (both in one group commit) keeps the mark."""
    clock = Clock()
    svc, store, _ = await open_service(db, clock)
    try:
        version = await _exposing(svc, store, clock)
        old = svc._tables[KEY]
        await svc.shown(KEY, version)
        await store.write(WriteBatch(tables=[old]))  # its shown is the older one
        stored = await store.get_table(KEY)
        assert stored is not None and stored.shown == version
    finally:
        await close_service(svc, store)


async def test_tables_of_an_older_schema_count_as_shown(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    steps = migrations()
    with sqlite3.connect(path) as db:
        for n, sql in steps[:2]:
            db.executescript(sql)
            db.execute(f"PRAGMA user_version={n}")
        db.execute(
            "INSERT INTO tables (key, scope, status, version, turn_version, game_no, host, "
            "seats, waiting, preset, overrides, lang, seed, game, meta, strikes, played, "
            "created, updated) VALUES ('k', 'chat', 'lobby', 3, 3, 0, 'u1', "
            '\'[{"id": "u1", "name": "Ann", "bot": null}]\', \'[]\', \'official\', \'{}\', '
            "NULL, 5, NULL, '{}', '{}', '{}', 1.0, 1.0)"
        )
    store = SqliteStore(path)
    await store.open()
    try:
        assert await store.schema_version() == len(steps) >= 3
        t = await store.get_table("k")
        assert t is not None and t.shown == 3 and t.pending == ()
    finally:
        await store.close()
