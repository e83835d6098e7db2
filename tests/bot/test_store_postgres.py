"""Opening a PostgreSQL database an operator got wrong, and several processes opening a new
one at once. Each refusal is one line naming the server and database (never the password),
what is wrong and what to do."""

from __future__ import annotations

import asyncio
import socket
import uuid
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.pgstore import PostgresStore
from bot.store import StoreError, WriteBatch, migrations, store_for
from tests.bot.test_store import table


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def on(url: str, *, user: str | None = None, password: str | None = None, db: str = "") -> str:
    parts = urlsplit(url)
    netloc = f"{user or parts.username}{':' + password if password else ''}@{parts.hostname}"
    netloc += f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=netloc, path="/" + (db or parts.path.lstrip("/"))))


async def refused(url: str, *says: str) -> str:
    with pytest.raises(StoreError) as caught:
        await PostgresStore(url, timeout=5).open()
    text = str(caught.value)
    assert "\n" not in text, text
    for s in says:
        assert s in text, text
    return text


async def test_a_server_that_does_not_answer_is_refused() -> None:
    port = free_port()
    text = await refused(
        f"postgresql://uno:s3cret@127.0.0.1:{port}/uno",
        f"cannot reach the PostgreSQL server at postgresql://uno@127.0.0.1:{port}/uno",
        "is it running",
    )
    assert "s3cret" not in text


async def test_a_database_that_does_not_exist_is_refused(postgres_url: str) -> None:
    name = "uno_missing_" + uuid.uuid4().hex[:8]
    await refused(on(postgres_url, db=name), f"database {name!r} does not exist", "createdb")


async def test_a_login_refused_is_said_so(postgres_url: str) -> None:
    user = "nobody_" + uuid.uuid4().hex[:8]
    text = await refused(
        on(postgres_url, user=user, password="hunter2"), f"login of user {user!r}", "UNO_DB"
    )
    assert "hunter2" not in text


async def test_processes_starting_together_on_a_new_database_migrate_it_once(
    postgres_url: str,
) -> None:
    stores = [store_for(postgres_url) for _ in range(4)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        conn = await asyncpg.connect(postgres_url)
        try:
            applied = [r[0] for r in await conn.fetch("SELECT version FROM schema_version")]
        finally:
            await conn.close()
        assert sorted(applied) == list(range(1, len(migrations("postgresql")) + 1))
        # and they share it: no lock keeps a second process out
        await stores[0].write(WriteBatch(tables=[table("t")]))
        assert await stores[3].get_table("t") is not None
    finally:
        await asyncio.gather(*(s.close() for s in stores))


async def test_a_failed_migration_leaves_the_database_as_it_was(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.pgstore

    good = migrations("postgresql")
    broken = [*good, (len(good) + 1, "CREATE TABLE extra (x int);\nTHIS IS NOT SQL;\n")]
    monkeypatch.setattr(bot.pgstore, "migrations", lambda dialect: broken)
    await refused(postgres_url, "syntax error")
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT max(version) FROM schema_version") == len(good)
        assert await conn.fetchval("SELECT to_regclass('extra')") is None
        assert await conn.fetchval("SELECT to_regclass('tables')") is not None
    finally:
        await conn.close()
