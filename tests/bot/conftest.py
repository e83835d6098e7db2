"""Fixtures for the service tests (see ``helpers``).

``db`` is where a test's database is: an SQLite file, or (in a module that sets
``BACKENDS = ("sqlite", "postgresql")``) also a PostgreSQL schema of its own on the test
server; every test of such a module runs on both. ``@pytest.mark.sqlite_only`` keeps one
test on SQLite (it looks at the file itself)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.port import RecordingPort
from bot.service import Service
from bot.store import Store, store_for
from tests.bot.helpers import Clock, close_service, open_service


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        names = getattr(metafunc.module, "BACKENDS", ("sqlite",))
        if metafunc.definition.get_closest_marker("sqlite_only"):
            names = ("sqlite",)
        metafunc.parametrize("backend", names)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    if backend == "sqlite":
        return tmp_path / "uno.sqlite3"
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture
async def store(db: Path | str) -> AsyncIterator[Store]:
    s = store_for(db)
    await s.open()
    yield s
    await s.close()


@pytest.fixture
async def env(
    db: Path | str, clock: Clock, store: Store
) -> AsyncIterator[tuple[Service, Store, RecordingPort]]:
    """A service on a temporary database with a fake clock (timers fired by hand), on the
    ``store`` fixture's store (one process has the database at a time)."""
    svc, store, port = await open_service(db, clock, store=store)
    yield svc, store, port
    await close_service(svc, store)
