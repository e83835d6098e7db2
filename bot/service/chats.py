"""Chats: their languages (a chat's applied to its open tables), moving a chat that became
another (a Telegram group upgraded to a supergroup), and the adapter data kept with a
table (``change_meta``: a compare-and-set among processes)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from bot import policy
from bot.model import OPEN_STATUSES, Table
from bot.port import TableInfo
from bot.service.cache import scope_lock
from bot.service.runner import Runner
from bot.service.steps import STALE_TRIES, Result, Step, touch
from bot.store import ChatUpdate, ScopeMove, Stale, WriteBatch

log = logging.getLogger("bot.service")


async def set_chat_language(core: Runner, key: str, scope: str, lang: str | None) -> Result:
    """See ``Service.set_chat_language``."""
    cache = core.cache
    # the chat's lock: a move of the chat (``move_scope``) waits, or is waited for, so the
    # setting is never written to a chat whose settings just moved away
    async with cache.lock(scope_lock(scope)):
        scope = cache.moved_scopes.get(scope, scope)  # the chat moved meanwhile
        if core.shared:  # tables another process has open count too
            others = [k for k in await cache.keys_of(scope) if k != key]
        else:
            others = [k for k, t in cache.tables.items() if t.scope == scope and k != key]
        first = Result(True)
        for k in [key, *others]:

            def build(t: Table | None, k: str = k) -> Step | None:
                if t is None or not policy.is_open(t) or t.scope != scope:
                    return None
                return Step(touch(t, core.ctx(k), lang=lang))

            res = await core._run(k, None, build)
            if k == key:
                first = res
        await core.store.write(WriteBatch(chat_settings=[ChatUpdate(scope, lang=lang or None)]))
        return first


async def change_meta(
    core: Runner, key: str, decide: Callable[[TableInfo], dict[str, Any] | None]
) -> TableInfo | None:
    """See ``Service.change_meta``."""
    cache = core.cache
    async with cache.lock(key):
        t = await cache.get(key)
        tries = core.tries(key, t, fresh=not core.shared)
        for t in tries:
            if t is None:
                return None
            changes = decide(core.info(t))
            if not changes:
                if await tries.newer():  # decided on the stored table, not an old copy
                    continue
                t = tries.table
                return core.info(t) if t is not None else None
            meta = {**t.meta, **changes}
            nt = t.evolve(meta={k: v for k, v in meta.items() if v is not None})
            try:
                await core.store.write(WriteBatch(tables=[nt], expect={key: t.rev}))
            except Stale:
                await tries.stale()
                continue
            nt.rev = t.rev + 1
            if policy.is_open(nt):
                cache.tables[key] = nt
            return core.info(nt)
        raise tries.exhausted("its data not kept")


async def move_scope(
    core: Runner,
    old_scope: str,
    new_scope: str,
    rekey: Callable[[str], str],
    meta: Callable[[dict[str, Any]], dict[str, Any]] | None,
) -> dict[str, TableInfo]:
    """See ``Service.move_scope``."""
    if old_scope == new_scope:
        return {}
    async with contextlib.AsyncExitStack() as chats:
        for scope in sorted((old_scope, new_scope)):  # see set_chat_language
            await chats.enter_async_context(core.cache.lock(scope_lock(scope)))
        moved = await _move_locked(core, old_scope, new_scope, rekey, meta)
        core.cache.moved_scopes[old_scope] = new_scope
        return moved


async def _move_locked(
    core: Runner,
    old_scope: str,
    new_scope: str,
    rekey: Callable[[str], str],
    meta: Callable[[dict[str, Any]], dict[str, Any]] | None,
) -> dict[str, TableInfo]:
    cache = core.cache
    tries = core.tries(old_scope, None, fresh=True)
    for _ in tries:
        keys = await cache.keys_of(old_scope)
        pairs = {k: rekey(k) for k in keys}
        async with contextlib.AsyncExitStack() as stack:
            # always in the same order: two moves never wait on each other's locks
            for k in sorted({*pairs, *pairs.values()}):
                await stack.enter_async_context(cache.lock(k))
            if not set(await cache.keys_of(old_scope)) <= set(pairs):
                continue  # a table opened in the old chat meanwhile: lock it too
            try:
                return await asyncio.shield(_move(core, old_scope, new_scope, pairs, meta))
            except Stale as e:  # another process changed one: read them all again
                await tries.stale(e.keys)
    raise RuntimeError(f"tables of {old_scope} kept changing: not moved after {STALE_TRIES} tries")


async def _move(
    core: Runner,
    old_scope: str,
    new_scope: str,
    pairs: dict[str, str],
    meta: Callable[[dict[str, Any]], dict[str, Any]] | None,
) -> dict[str, TableInfo]:
    cache = core.cache
    moved: list[tuple[str, Table]] = []
    expect: dict[str, int] = {}
    for old, new in sorted(pairs.items()):
        t = await cache.get(old)
        if t is None or t.scope != old_scope:
            continue
        there = await cache.get(new) if new != old else None
        # the new chat's own open table is never lost; a closed one (a game over, a lobby
        # stopped) gives way to an open table moving in, whose write replaces its row and
        # deadlines (its action log stays, under its own game numbers)
        if there is not None and (there.status in OPEN_STATUSES or t.status not in OPEN_STATUSES):
            log.warning("table %s not moved to %s: a table is there already", old, new)
            continue
        data = dict(t.meta)
        nt = t.evolve(key=new, scope=new_scope, meta=meta(data) if meta else data)
        moved.append((old, nt))
        # both rows as read: the old one is deleted, the new one written, on them
        expect[new] = there.rev if there is not None else 0
        expect[old] = t.rev
    batch = WriteBatch(
        tables=[nt for _, nt in moved],
        moves=[ScopeMove(old_scope, new_scope, tuple((o, nt.key) for o, nt in moved))],
        expect=expect,
    )
    await core.store.write(batch)
    out: dict[str, TableInfo] = {}
    for old, nt in moved:
        # a row re-keyed is a new row on the new key's revision; kept where it was, on its
        # own
        nt.rev = (expect[nt.key] if nt.key != old else nt.rev) + 1
        cache.forget(old)
        core.timers.set(old, ())
        if policy.is_open(nt):
            cache.tables[nt.key] = nt
        core.timers.set(nt.key, nt.deadlines)
        out[old] = core.info(nt)
    if moved:
        log.info("moved %d tables from %s to %s", len(moved), old_scope, new_scope)
    return out
