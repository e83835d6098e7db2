"""Opening a database an operator got wrong: one process at a time, read-only files and
directories, files that are no database or a damaged one. Each is refused by the store
with a ``StoreError`` naming the file, and by the command line with that one line on
stderr and a non-zero exit (never a traceback)."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot.store
from bot.store import SqliteStore, StoreError, WriteBatch
from tests.bot.store.test_store import table

UNO_BOT = Path(sys.executable).with_name("uno-bot")
ROOT = Path(__file__).resolve().parents[3]

# holds the database open, as a running bot does, until killed
HOLDER = """
import asyncio, sys
from bot.store import SqliteStore

async def main():
    store = SqliteStore(sys.argv[1])
    await store.open()
    print("open", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env.update({"UNO_DB": str(tmp_path / "default.sqlite3"), "UNO_LOG_LEVEL": "WARNING"})
    env["PYTHONPATH"] = str(ROOT)
    env.update(extra)
    return env


def uno_bot(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(UNO_BOT), *args],
        cwd=tmp_path,
        env=clean_env(tmp_path, **env),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def refused(res: subprocess.CompletedProcess[str], *says: str) -> str:
    """The command failed with exactly one line on stderr, saying ``says``."""
    assert res.returncode != 0, res.stdout
    err = res.stderr.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    for s in says:
        assert s in err, err
    return err


def play(tmp_path: Path, db: Path) -> subprocess.CompletedProcess[str]:
    return uno_bot(tmp_path, "play", "--bots", "4", "--delay", "0", "--db", str(db))


def run_bot(tmp_path: Path, db: Path) -> subprocess.CompletedProcess[str]:
    """``uno-bot run`` with a platform configured (the store opens before it is reached)."""
    return run_bot_on(tmp_path, str(db))


def run_bot_on(tmp_path: Path, db: str) -> subprocess.CompletedProcess[str]:
    return uno_bot(
        tmp_path,
        "run",
        UNO_DB=db,
        UNO_TELEGRAM_TOKEN="123456:" + "x" * 30,
        UNO_TELEGRAM_API_URL="http://127.0.0.1:9/bot",
    )


async def make_db(path: Path) -> None:
    store = SqliteStore(path)
    await store.open()
    await store.write(WriteBatch(tables=[table(f"t:{i}") for i in range(300)]))
    await store.close()


# -- one process at a time ------------------------------------------------------------------


async def test_a_second_process_is_refused_and_a_killed_holder_blocks_nothing(
    tmp_path: Path,
) -> None:
    db = tmp_path / "uno.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        cwd=tmp_path,
        env=clean_env(tmp_path),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "open\n"
        with pytest.raises(StoreError) as err:
            await SqliteStore(db).open()
        msg = str(err.value)
        assert str(db) in msg and "another uno-bot process" in msg
        assert f"pid {holder.pid}" in msg
        # the terminal table and the bot itself: refused the same way, before anything
        refused(play(tmp_path, db), str(db), f"pid {holder.pid}", "in use")
        refused(run_bot(tmp_path, db), str(db), f"pid {holder.pid}", "in use")
        holder.send_signal(signal.SIGKILL)  # no chance to clean up: the OS drops the lock
        holder.wait(10)
    finally:
        if holder.poll() is None:
            holder.kill()
    store = SqliteStore(db)
    await store.open()  # the lock file is still there, and blocks nothing
    try:
        assert store.lock_path.exists()
        assert (store.lock_path.read_text().strip()) == str(os.getpid())
        with pytest.raises(StoreError, match=f"pid {os.getpid()}"):
            await SqliteStore(db).open()  # a second store in this process too
    finally:
        await store.close()
    await store.open()  # closing released it
    await store.close()


async def test_an_in_memory_database_takes_no_lock() -> None:
    a, b = SqliteStore(":memory:"), SqliteStore(":memory:")
    await a.open()
    await b.open()  # each is a database of its own
    try:
        assert a._lock_fd is None and b._lock_fd is None
    finally:
        await a.close()
        await b.close()


# -- read-only ------------------------------------------------------------------------------


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[None]:
    """``path`` read-only for this process. chmod does not stop root (as tests here may
    run): then the file is made immutable (``chattr +i``), which stops root too."""
    if os.geteuid() != 0:
        mode = path.stat().st_mode
        path.chmod(0o555 if path.is_dir() else 0o444)
        try:
            yield
        finally:
            path.chmod(mode)
        return
    res = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if res.returncode != 0:  # no CAP_LINUX_IMMUTABLE: see the tests with access() patched
        pytest.skip(f"cannot make {path} read-only for root here: {res.stderr!r}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


async def test_a_read_only_database_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "ro.sqlite3"
    await make_db(db)
    with read_only(db):
        with pytest.raises(StoreError) as err:
            await SqliteStore(db).open()
        assert str(db) in str(err.value) and "read-only" in str(err.value)
        refused(play(tmp_path, db), str(db), "read-only")
        refused(run_bot(tmp_path, db), str(db), "read-only")


async def test_a_read_only_directory_is_refused(tmp_path: Path) -> None:
    d = tmp_path / "data"
    d.mkdir()
    db = d / "uno.sqlite3"
    await make_db(db)  # its lock file is there already
    new = d / "new.sqlite3"
    with read_only(d):
        for path in (db, new):
            with pytest.raises(StoreError) as err:
                await SqliteStore(path).open()
            assert str(d) in str(err.value) and "read-only" in str(err.value)
            refused(play(tmp_path, path), str(d), "read-only")
        refused(run_bot(tmp_path, db), str(d), "read-only")
    assert not new.exists()


async def test_sqlite_itself_finds_what_access_misses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where ``access()`` says yes but writing fails all the same (a read-only mount seen
    through some layer, an ACL), the write SQLite tries at opening still refuses."""
    dirs = [tmp_path / "file", tmp_path / "dir"]
    for d in dirs:
        d.mkdir()
        await make_db(d / "uno.sqlite3")
    monkeypatch.setattr(bot.store.sqlite.os, "access", lambda *a, **k: True)
    db = dirs[0] / "uno.sqlite3"
    with read_only(db):
        with pytest.raises(StoreError, match="read-only") as err:
            await SqliteStore(db).open()
        assert str(db) in str(err.value)
    db = dirs[1] / "uno.sqlite3"
    with read_only(dirs[1]):  # no journal can be made beside it
        with pytest.raises(StoreError, match="cannot open") as err:
            await SqliteStore(db).open()
        assert str(dirs[1]) in str(err.value) and "writable" in str(err.value)


async def test_every_failure_to_write_at_opening_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The probe's errors, whatever SQLite says (here forced), become a ``StoreError``; the
    lock is released and no connection is left open."""
    db = tmp_path / "uno.sqlite3"
    await make_db(db)

    async def full(self: SqliteStore, w: object) -> None:
        err = sqlite3.OperationalError("database or disk is full")
        err.sqlite_errorname = "SQLITE_FULL"  # type: ignore[attr-defined]
        raise err

    monkeypatch.setattr(SqliteStore, "_check_database", full)
    store = SqliteStore(db)
    with pytest.raises(StoreError, match="full") as err:
        await store.open()
    assert str(db) in str(err.value)
    assert store._w is None and store._r is None and store._lock_fd is None
    monkeypatch.undo()
    await store.open()
    await store.close()


# -- not a database, or a damaged one -------------------------------------------------------


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "notes.txt"
    db.write_text("shopping list: milk, eggs\n" * 200, encoding="utf-8")
    with pytest.raises(StoreError) as err:
        await SqliteStore(db).open()
    assert str(db) in str(err.value) and "not an SQLite database" in str(err.value)
    refused(play(tmp_path, db), str(db), "not an SQLite database")
    assert db.read_text(encoding="utf-8").startswith("shopping list")  # left as it was


async def test_a_directory_or_an_impossible_path_is_refused(tmp_path: Path) -> None:
    d = tmp_path / "data"
    d.mkdir()
    with pytest.raises(StoreError, match="is a directory") as err:
        await SqliteStore(d).open()
    assert str(d) in str(err.value)
    refused(play(tmp_path, d), str(d), "is a directory")
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    for path in (afile / "uno.sqlite3", afile / "deeper" / "uno.sqlite3"):
        with pytest.raises(StoreError) as err:
            await SqliteStore(path).open()
        assert str(path) in str(err.value)
        refused(play(tmp_path, path), str(path))
    refused(run_bot(tmp_path, afile / "uno.sqlite3"), "afile")


def damage(db: Path) -> None:
    """Scribble over pages in the middle of the file (the header stays intact)."""
    size = db.stat().st_size
    assert size > 8 * 4096
    with db.open("r+b") as f:
        for page in (2, 3, 4, 5):
            f.seek(page * 4096 + 100)
            f.write(b"\xa5" * 2000)


async def test_a_damaged_database_is_refused_with_how_to_restore(tmp_path: Path) -> None:
    db = tmp_path / "uno.sqlite3"
    await make_db(db)
    damage(db)
    with pytest.raises(StoreError) as err:
        await SqliteStore(db).open()
    msg = str(err.value)
    assert str(db) in msg and "damaged" in msg and "backup" in msg and "-wal" in msg
    assert "\n" not in msg
    err_line = refused(play(tmp_path, db), str(db), "damaged", "backup")
    assert err_line == msg


async def test_a_database_locked_by_another_program_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "uno.sqlite3"
    await make_db(db)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # a sqlite3 shell in the middle of a change
    try:
        t0 = time.monotonic()
        with pytest.raises(StoreError, match="locked by another program") as err:
            await SqliteStore(db).open()
        assert str(db) in str(err.value)
        assert time.monotonic() - t0 < 20  # the busy timeout, then a clear answer
    finally:
        other.execute("ROLLBACK")
        other.close()


# -- UNO_DB: a file, an sqlite:/// URL, or a PostgreSQL server ------------------------------


def test_an_sqlite_url_is_a_file(tmp_path: Path) -> None:
    res = uno_bot(tmp_path, "play", "--bots", "4", "--delay", "0", UNO_DB="sqlite:///in/url.db")
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "in" / "url.db").is_file()


def test_an_unknown_kind_of_database_is_refused(tmp_path: Path) -> None:
    refused(run_bot_on(tmp_path, "mysql://uno@db/uno"), "unknown database kind 'mysql'")


def test_the_terminal_table_is_not_put_on_a_server(tmp_path: Path) -> None:
    res = uno_bot(tmp_path, "play", "--bots", "4", UNO_DB="postgresql://uno@127.0.0.1/uno")
    refused(res, "an SQLite file", "--db PATH")


def test_a_postgresql_server_that_does_not_answer_is_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    err = refused(
        run_bot_on(tmp_path, f"postgresql://uno:s3cret@127.0.0.1:{port}/uno"),
        f"cannot reach the PostgreSQL server at postgresql://uno@127.0.0.1:{port}/uno",
    )
    assert "s3cret" not in err


async def test_run_opens_a_postgresql_database(tmp_path: Path, postgres_url: str) -> None:
    """``uno-bot run`` on a server: the store opens (and creates its tables) before the
    platforms start; here none can (its API does not answer), which is the one line."""
    import asyncpg

    res = run_bot_on(tmp_path, postgres_url)
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    assert res.stderr.strip().splitlines()[-1].startswith("no platform adapter could start")
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT max(version) FROM schema_version") >= 4
        assert await conn.fetchval("SELECT count(*) FROM tables") == 0
    finally:
        await conn.close()
