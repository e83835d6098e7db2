"""Hypothesis profiles, and the PostgreSQL server of the tests.

``make test`` (CI) runs the property tests derandomized: the same examples on every run, so a
red run always means a change broke something, never that a new random draw found an old
corner. Exploring new examples is the soak's job: ``make soak`` sets
``HYPOTHESIS_PROFILE=explore`` (fresh random examples each run, as Hypothesis does by
default); a failure found there is kept in ``.hypothesis/`` and replayed first next time.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest
from hypothesis import settings

from tests import pg

settings.register_profile("ci", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# -- PostgreSQL: a real server (tests/pg.py), a fresh database per session -------------------


@pytest.fixture(scope="session")
def postgres_database(request: pytest.FixtureRequest) -> Iterator[str | None]:
    """This session's own database on the test server (created now, dropped at the end),
    or ``None`` when there is no server and none could be started: then the PostgreSQL
    tests are skipped, and one loud line says why (with ``CI=true`` the run fails)."""
    with pg.server() as s:
        if isinstance(s, str):
            reporter = request.config.pluginmanager.get_plugin("terminalreporter")
            line = f"!!! PostgreSQL tests SKIPPED: {s}"
            if reporter is not None:
                reporter.write_line(line, red=True, bold=True)
            else:
                print(line)
            yield None
            return
        url = pg.fresh_database(s)
        _no_flush_wait(url)
        try:
            yield url
        finally:
            pg.drop_database(s, url)


def _no_flush_wait(url: str) -> None:
    """Commits on the test database do not wait for the server's WAL flush: what the tests
    look at (a commit whole or not at all, seen at once by every other session, kept when
    a client dies) is the same; only a crash of the server itself could lose the last
    ones, which no test does. The suite's many small sequential commits go several times
    faster."""
    import asyncio

    import asyncpg

    async def alter() -> None:
        conn = await asyncpg.connect(url)
        try:
            name = await conn.fetchval("SELECT current_database()")
            await conn.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
        finally:
            await conn.close()

    asyncio.run(alter())


def with_search_path(url: str, schema: str) -> str:
    """``url`` with its tables in ``schema`` (asyncpg passes unknown query parameters on
    as server settings)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"]
    query.append(("search_path", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))


@pytest.fixture
async def postgres_url(postgres_database: str | None) -> AsyncIterator[str]:
    """A URL of the session's database with an empty schema of this test's own (dropped
    after it): each test starts from nothing, as on a new database."""
    import asyncpg

    if postgres_database is None:
        pytest.skip("no PostgreSQL server (see the line at the start of the run)")
    schema = "t_" + uuid.uuid4().hex[:12]
    conn = await asyncpg.connect(postgres_database)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    yield with_search_path(postgres_database, schema)
    conn = await asyncpg.connect(postgres_database)
    try:
        # connections a test left behind (a killed process's) must not hold it up
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND state = 'idle in transaction'"
        )
        await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    finally:
        await conn.close()
