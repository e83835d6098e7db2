"""A real PostgreSQL server for the tests (never a mock).

``UNO_TEST_POSTGRES`` names a server (default ``postgresql://postgres@127.0.0.1:5432/postgres``,
trust auth, as on the development and CI machines). A fresh database is created for each
test session and dropped after it. Where no server answers, a private one is started from
the installed PostgreSQL binaries (``initdb`` + ``postgres`` in a temporary directory, as an
unprivileged user when run as root, on a free port) and stopped at the end. Only when that
is impossible are the PostgreSQL tests skipped, with one loud line; but with ``CI=true`` a
missing server fails the run instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

__all__ = ["DEFAULT", "Server", "server"]

DEFAULT = "postgresql://postgres@127.0.0.1:5432/postgres"


@dataclass
class Server:
    """A server the tests may use: ``admin`` connects to a database that exists already;
    ``url(name)`` is the same server with another database."""

    admin: str
    private: bool = False

    def url(self, database: str) -> str:
        parts = urlsplit(self.admin)
        return urlunsplit(parts._replace(path="/" + database))


def _answers(url: str, timeout: float = 3.0) -> str | None:
    """``None`` if the server at ``url`` answers a query, else why not."""
    import asyncpg

    async def probe() -> None:
        conn = await asyncpg.connect(url, timeout=timeout)
        try:
            await conn.fetchval("SELECT 1")
        finally:
            await conn.close()

    try:
        asyncio.run(probe())
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return None


def _binaries() -> Path | None:
    for pattern in ("/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin"):
        for d in sorted(glob.glob(pattern), reverse=True):
            if (Path(d) / "initdb").is_file() and (Path(d) / "postgres").is_file():
                return Path(d)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def _private_server() -> Iterator[Server]:
    """A throwaway server from the installed binaries (raises if it cannot be started)."""
    bindir = _binaries()
    if bindir is None:
        raise RuntimeError("no PostgreSQL binaries (initdb, postgres) installed")
    root = Path(tempfile.mkdtemp(prefix="uno-pg-"))
    data = root / "data"
    port = _free_port()
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb and postgres refuse to run as root
        user = "postgres" if _user_exists("postgres") else "nobody"
        as_user = ["runuser", "-u", user, "--"]
        shutil.chown(root, user)
    try:
        subprocess.run(
            [*as_user, str(bindir / "initdb"), "-D", str(data), "-U", "postgres",
             "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True, capture_output=True, timeout=120,
        )  # fmt: skip
        proc = subprocess.Popen(
            [*as_user, str(bindir / "postgres"), "-D", str(data), "-p", str(port),
             "-h", "127.0.0.1", "-k", str(root), "-c", "fsync=off"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 30
        while _answers(url, timeout=1.0) is not None:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the private PostgreSQL server did not start")
            time.sleep(0.2)
        try:
            yield Server(url, private=True)
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _user_exists(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


@contextlib.contextmanager
def server() -> Iterator[Server | str]:
    """The server for this test session, or (when there is none and none can be started,
    outside CI) the reason, as a string. With ``CI=true`` that raises instead."""
    url = os.environ.get("UNO_TEST_POSTGRES", DEFAULT)
    why = _answers(url)
    if why is None:
        yield Server(url)
        return
    try:
        with _private_server() as s:
            yield s
            return
    except Exception as e:
        reason = f"no PostgreSQL at {url} ({why}), and none could be started: {e}"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        raise RuntimeError(reason + " (CI=true: PostgreSQL is required)")
    yield reason


def fresh_database(s: Server) -> str:
    """A new, empty database on ``s``; returns its URL."""
    import asyncpg

    name = "uno_test_" + uuid.uuid4().hex[:12]

    async def create() -> None:
        conn = await asyncpg.connect(s.admin)
        try:
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    asyncio.run(create())
    return s.url(name)


def drop_database(s: Server, url: str) -> None:
    import asyncpg

    name = urlsplit(url).path.lstrip("/")

    async def drop() -> None:
        conn = await asyncpg.connect(s.admin)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    asyncio.run(drop())
