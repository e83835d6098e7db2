"""What was shown: a port reports a table's version shown (``shown``: the windows that
version opened run from then, its announcements are done), and the tables whose last
version never was (``behind``: shown again after a crash)."""

from __future__ import annotations

import asyncio

from bot import policy
from bot.model import OPEN_STATUSES, PLAYING, Deadline
from bot.port import TableInfo
from bot.service.runner import Runner
from bot.service.steps import BEHIND_SECONDS
from bot.service.windows import window
from bot.store import ShownMark, Stale, WriteBatch


async def shown(core: Runner, key: str, version: int) -> None:
    """See ``Service.shown``."""
    if not isinstance(key, str) or not isinstance(version, int):
        return
    cache = core.cache
    async with cache.lock(key):
        # on a shared store another process may have shown or changed it since
        t = await cache.current(key) if core.shared else cache.tables.get(key)
        tries = core.tries(key, t, fresh=True)
        async for t in tries:
            if t is None or not policy.is_open(t):
                # closed: the mark alone (the store keeps it within the version)
                alone = WriteBatch(shown=[ShownMark(key, version)])
                await asyncio.shield(core.store.write(alone))
                return
            if not t.shown < version <= t.version:  # (past the version: not this table's)
                return
            ctx = core.ctx(key)
            wait = ctx.settings.show_wait_seconds if ctx.reports else 0.0
            deadlines = []
            for d in t.deadlines:
                secs = window(d.kind, t.game) if t.status == PLAYING else None
                # opened by a change this message shows, not one shown before: it runs from
                # now, never shorter than from its commit (armed ``wait`` longer)
                if secs is not None and t.shown < d.version <= version:
                    due = max(ctx.now + secs, d.due - wait)
                    if due != d.due:
                        d = Deadline(d.kind, due, d.version)
                deadlines.append(d)
            rearmed = tuple(deadlines) != t.deadlines
            nt = t.evolve(
                shown=version,
                deadlines=tuple(deadlines),
                pending=tuple(p for p in t.pending if p.version > version),
                rev=t.rev + 1,
            )
            mark = ShownMark(key, version, nt.deadlines if rearmed else None)
            try:  # on the revision read: deadlines re-armed on an old copy would undo
                batch = WriteBatch(shown=[mark], expect={key: t.rev})
                await asyncio.shield(core.store.write(batch))
            except Stale:
                await tries.stale()
                continue
            cache.tables[key] = nt
            if rearmed:
                core.timers.set(key, nt.deadlines)
            return
        raise tries.exhausted("not marked shown")


async def behind(core: Runner, prefix: str, idle: float) -> list[TableInfo]:
    """See ``Service.behind``."""
    start = prefix + ":"
    now = core.clock()
    if core.shared:
        found = await core.store.tables_unshown(prefix, now - BEHIND_SECONDS, now - idle)
        return [core.info(t) for t in found]
    out = [
        core.info(t)
        for k, t in core.cache.tables.items()
        if k.startswith(start)
        and t.status in OPEN_STATUSES
        and t.shown < t.version
        and t.updated <= now - idle
    ]
    for t in await core.store.tables_behind(prefix, now - BEHIND_SECONDS):
        if t.key not in core.cache.tables and t.updated <= now - idle:  # (an open one is newer)
            out.append(core.info(t))
    return out
