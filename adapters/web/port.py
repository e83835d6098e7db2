"""The web table's port: it tees the chat platforms' port. Every call goes to the chat's
port as before; after it, the web table's pages hear of it: each committed version of a
table reaches its pages (``Hub.changed``: the pages read the table as it is then), news
reaches them too, and the other processes are told (PostgreSQL ``NOTIFY``). A refusal of a
press made on a page is told to that page only, never to the chat."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from adapters.web.hub import Hub
from bot.port import Notice, Port, TableInfo
from engine import Event, View

__all__ = ["WebPort"]

# notices the chat gets and the player's pages too, wherever the move was made from
_ALSO_ON_PAGES = frozenset({"info.revealed"})


class WebPort(Port):
    """A ``Port`` that shows everything through ``inner`` (the chats) and to the pages."""

    def __init__(self, inner: Port, hub: Hub | None = None) -> None:
        self.inner = inner
        self.hub = hub
        self._tasks: set[asyncio.Task[None]] = set()

    def _later(self, job: Any) -> None:
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _changed(self, key: str, notice: Notice | None = None, version: int | None = None) -> None:
        hub = self.hub
        if hub is None:
            return
        if hub.shared:
            self._later(hub.tell_others(key, notice, version))

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        # the pages first (committed already): the other processes are told and this one's
        # pages start their fan-out before the chats' (slower) show
        if self.hub is not None:
            self.hub.changed(table.key)
            self._changed(table.key, version=table.version)
        await self.inner.show_table(table, events)

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        # the pages' hands are drawn with their table (``show_table`` comes first)
        await self.inner.show_hand(table, player, view, events)

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        try:
            await self.inner.announce(table, notice)
        finally:
            if self.hub is not None:
                self.hub.announce(table, notice)
                self._changed(table.key, notice)

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        await self.inner.tell(table_key, user, notice)
        if notice.code in _ALSO_ON_PAGES and self.hub is not None:
            self.hub.tell(table_key, user, notice, await self._names(table_key))

    async def _names(self, key: str) -> dict[str, str]:
        info = await self.hub.service.table(key) if self.hub is not None else None
        return info.names if info is not None else {}

    async def closed(self, table: TableInfo) -> None:
        try:
            await self.inner.closed(table)
        finally:
            if self.hub is not None:
                self.hub.changed(table.key)

    def on_table(self, key: str, status: str, notice: Notice) -> bool:
        return self.inner.on_table(key, status, notice)

    def reports_shown(self, key: str) -> bool:
        return self.inner.reports_shown(key)
