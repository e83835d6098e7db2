"""This process's tables and their locks. On a store of its own the copies are the
tables; on a shared store (several processes on one PostgreSQL database) they are a cache
that each change checks against the stored revision (``runner.Tries``)."""

from __future__ import annotations

import asyncio
import weakref

from bot import policy
from bot.model import Table
from bot.store import Store
from bot.timers import Timers


def scope_lock(scope: str) -> str:
    """The lock name of a chat as a whole (never a table key: those hold no NUL)."""
    return "\0scope:" + scope


class Tables:
    """The open tables this process holds (``tables``: key -> table), one lock a key
    (a table's, or a chat's: ``scope_lock``), and the chats that became others."""

    def __init__(self, store: Store, timers: Timers, *, shared: bool) -> None:
        self.store = store
        self.timers = timers
        self.shared = shared
        self.tables: dict[str, Table] = {}
        self.moved_scopes: dict[str, str] = {}  # chats that became others (move_scope)
        # a table's lock lives while someone holds or awaits it (weak values): no lock is
        # kept for each of the many tables a long-running bot has seen
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def keep(self, t: Table) -> None:
        """``t`` is the table at its key now: kept while it is open."""
        if policy.is_open(t):
            self.tables[t.key] = t
        else:
            self.tables.pop(t.key, None)

    def forget(self, key: str) -> None:
        self.tables.pop(key, None)

    async def get(self, key: str) -> Table | None:
        """This process's copy of the table at ``key``, else the stored one. On a shared
        store the copy may be older than the stored table: the commit finds out."""
        t = self.tables.get(key)
        if t is None:
            t = await self.load(key)
        return t

    async def load(self, key: str) -> Table | None:
        """The stored table at ``key``, kept as this process's copy while it is open. Where
        this process times the table, its timers follow the stored deadlines."""
        t = await self.store.get_table(key)
        if t is not None:
            self.keep(t)
        else:
            self.tables.pop(key, None)
        if self.timers.armed(key):
            self.timers.set(key, t.deadlines if t is not None else ())
        return t

    async def current(self, key: str) -> Table | None:
        """The table at ``key`` as stored now: this process's copy if no other process has
        changed it since (one revision lookup, on a shared store), else reloaded."""
        t = self.tables.get(key)
        if t is None:
            return await self.load(key)
        if self.shared and await self.store.table_rev(key) != t.rev:
            return await self.load(key)
        return t

    async def newer(self, key: str, t: Table | None) -> tuple[bool, Table | None]:
        """Whether the stored table at ``key`` is not ``t`` (another process changed it),
        and the stored one."""
        rev = await self.store.table_rev(key)
        if rev == (t.rev if t is not None else None):
            return False, t
        return True, await self.load(key)

    async def keys_of(self, scope: str) -> list[str]:
        """The keys of every table of chat ``scope``: stored, or held here."""
        keys = set(await self.store.table_keys(scope))
        keys.update(k for k, t in self.tables.items() if t.scope == scope)
        return sorted(keys)

    def open_keys(self) -> list[str]:
        return [k for k, t in self.tables.items() if policy.is_open(t)]
