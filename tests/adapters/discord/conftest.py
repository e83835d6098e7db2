"""Fixtures: a world with the fake Discord and the bot connected to it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.adapters.discord.harness import World


@pytest.fixture(autouse=True)
def _restore_discord_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter points discord.py's class-level defaults at the fake; whatever happens,
    they are put back after each test."""
    monkeypatch.setattr(Route, "BASE", Route.BASE)
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", DiscordWebSocket.DEFAULT_GATEWAY)


@pytest.fixture
async def make_world(tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[World]]]:
    worlds: list[World] = []

    async def make(**kwargs: Any) -> World:
        w = World(tmp_path / f"uno{len(worlds)}.sqlite3", **kwargs)
        worlds.append(w)
        return await w.start()

    yield make
    for w in worlds:
        await w.close()


@pytest.fixture
async def world(make_world: Callable[..., Awaitable[World]]) -> World:
    return await make_world()
