"""Fixtures for the service tests (see ``helpers``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.port import RecordingPort
from bot.service import Service
from bot.store import SqliteStore
from tests.bot.helpers import Clock, close_service, open_service


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "uno.sqlite3"


@pytest.fixture
async def store(db: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db)
    await s.open()
    yield s
    await s.close()


@pytest.fixture
async def env(
    db: Path, clock: Clock, store: SqliteStore
) -> AsyncIterator[tuple[Service, SqliteStore, RecordingPort]]:
    """A service on a temporary database with a fake clock (timers fired by hand), on the
    ``store`` fixture's store (one process has the database at a time)."""
    svc, store, port = await open_service(db, clock, store=store)
    yield svc, store, port
    await close_service(svc, store)
