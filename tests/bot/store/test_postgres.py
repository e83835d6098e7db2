"""Opening a PostgreSQL database an operator got wrong, and several processes opening a new
one at once. Each refusal is one line naming the server and database (never the password),
what is wrong and what to do."""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.model import Deadline
from bot.store import StoreError, WriteBatch, migrations, store_for
from bot.store.postgres import PostgresStore
from tests.bot.store.test_store import table


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
    import bot.store.postgres

    good = migrations("postgresql")
    broken = [*good, (len(good) + 1, "CREATE TABLE extra (x int);\nTHIS IS NOT SQL;\n")]
    monkeypatch.setattr(bot.store.postgres, "migrations", lambda dialect: broken)
    await refused(postgres_url, "syntax error")
    conn = await asyncpg.connect(postgres_url)
    try:
        assert await conn.fetchval("SELECT max(version) FROM schema_version") == len(good)
        assert await conn.fetchval("SELECT to_regclass('extra')") is None
        assert await conn.fetchval("SELECT to_regclass('tables')") is not None
    finally:
        await conn.close()


# -- claims and leases, among processes ------------------------------------------------------


@pytest.fixture
async def pg(postgres_url: str) -> AsyncIterator[PostgresStore]:
    s = PostgresStore(postgres_url)
    await s.open()
    yield s
    await s.close()


async def test_a_claim_is_one_process_s_until_it_runs_out(pg: PostgresStore) -> None:
    turn, uno = Deadline("turn", 10.0, 1), Deadline("uno:u1", 12.0, 1)
    await pg.write(WriteBatch(tables=[table("t", deadlines=(turn, uno))]))
    assert await pg.claim("a", [("t", turn)], 11.0, 5.0) == {("t", "turn")}
    assert await pg.claim("b", [("t", turn), ("t", uno)], 12.0, 5.0) == {("t", "uno:u1")}
    assert await pg.claim("a", [("t", turn)], 13.0, 5.0) == {("t", "turn")}  # renewed
    assert await pg.claim("b", [("t", turn)], 17.0, 5.0) == set()  # (until 18 now)
    assert await pg.claim("b", [("t", turn)], 18.5, 5.0) == {("t", "turn")}  # ran out
    # a deadline as the asker has it: one the table replaced since is not granted
    assert await pg.claim("c", [("t", Deadline("uno:u1", 99.0, 1))], 30.0, 5.0) == set()


async def test_a_commit_keeps_the_claims_of_the_deadlines_it_keeps(pg: PostgresStore) -> None:
    turn, uno = Deadline("turn", 10.0, 1), Deadline("uno:u1", 12.0, 1)
    await pg.write(WriteBatch(tables=[table("t", deadlines=(turn, uno))]))
    await pg.claim("a", [("t", turn), ("t", uno)], 13.0, 5.0)
    new_turn = Deadline("turn", 70.0, 2)
    await pg.write(WriteBatch(tables=[table("t", version=2, deadlines=(new_turn, uno))]))
    assert await pg.claim("b", [("t", uno)], 14.0, 5.0) == set()  # still a's
    assert await pg.claim("b", [("t", new_turn)], 71.0, 5.0) == {("t", "turn")}  # new: free
    back = await pg.get_table("t")
    assert back is not None and set(back.deadlines) == {new_turn, uno}


async def test_overdue_deadlines_nobody_holds_are_claimed_earliest_first(
    pg: PostgresStore,
) -> None:
    ds = {f"t{i}": Deadline("bot", float(i), 1) for i in range(5)}
    await pg.write(WriteBatch(tables=[table(k, deadlines=(d,)) for k, d in ds.items()]))
    await pg.claim("alive", [("t0", ds["t0"])], 10.0, 5.0)
    await pg.spend("alive", "t0", ds["t0"])  # fired, changed nothing: nobody's again
    await pg.claim("alive", [("t1", ds["t1"])], 10.0, 5.0)  # being fired
    got = await pg.claim_overdue("b", 3.5, 10.0, 5.0, 1)
    assert got == [("t2", ds["t2"])]  # t4 is not overdue enough, t0 spent, t1 held
    assert await pg.claim_overdue("c", 3.5, 10.0, 5.0, 10) == [("t3", ds["t3"])]
    later = await pg.claim_overdue("c", 100.0, 16.0, 5.0, 10)  # the claims ran out
    assert sorted(k for k, _ in later) == ["t1", "t2", "t3", "t4"]  # not t0: spent


async def test_a_lease_has_one_holder_until_it_runs_out(pg: PostgresStore) -> None:
    assert await pg.lease("poller", "a", 0.0, 10.0)
    assert not await pg.lease("poller", "b", 5.0, 10.0)
    assert await pg.lease("poller", "a", 9.0, 10.0)  # renewed: until 19
    assert not await pg.lease("poller", "b", 18.0, 10.0)
    assert await pg.lease("poller", "b", 19.5, 10.0)  # a's ran out
    await pg.release("poller", "a")  # not a's any more: nothing
    assert not await pg.lease("poller", "a", 20.0, 10.0)
    await pg.release("poller", "b")
    assert await pg.lease("poller", "a", 20.0, 10.0)
