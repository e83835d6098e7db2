"""Sending, off the table lock: one lane per channel (and per player's hand), one request
in flight per lane, and the latest render of a message replaces one still waiting.

The service calls the port under its per-table lock (``bot.port.Port``), so the port only
queues work here; the lanes send it. Rate limits are discord.py's business.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Outbox"]

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[Any]]


@dataclass
class _Lane:
    jobs: dict[str, tuple[Job, asyncio.Future[None]]] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None


class Outbox:
    """Lanes of jobs. ``put(lane, slot, job)``: a job in a ``slot`` that is still waiting is
    replaced (coalescing); ``slot=None`` always queues."""

    def __init__(self) -> None:
        self._lanes: dict[str, _Lane] = {}
        self._n = itertools.count()
        self.sent = 0  # jobs run
        self.coalesced = 0  # jobs replaced before they ran
        self.closed = False

    def put(self, lane: str, slot: str | None, job: Job) -> asyncio.Future[None]:
        """Queue ``job``; the future is done when it (or the job that replaced it) ran.
        After ``close()`` nothing runs any more: the future is already cancelled."""
        if self.closed:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            fut.cancel()
            return fut
        ln = self._lanes.get(lane)
        if ln is None:
            ln = self._lanes[lane] = _Lane()
        if slot is not None and slot in ln.jobs:
            _, fut = ln.jobs[slot]
            ln.jobs[slot] = (job, fut)
            self.coalesced += 1
        else:
            fut = asyncio.get_running_loop().create_future()
            ln.jobs[slot if slot is not None else f"#{next(self._n)}"] = (job, fut)
        if ln.task is None:
            ln.task = asyncio.create_task(self._run(lane, ln), name=f"uno-discord-{lane}")
        return fut

    def discard(self, lane: str, slot: str) -> None:
        """Drop a waiting job (its waiters are released)."""
        ln = self._lanes.get(lane)
        if ln is not None and slot in ln.jobs:
            _, fut = ln.jobs.pop(slot)
            if not fut.done():
                fut.set_result(None)

    def pending(self, lane: str) -> int:
        ln = self._lanes.get(lane)
        return 0 if ln is None else len(ln.jobs) + (1 if ln.task is not None else 0)

    async def _run(self, name: str, ln: _Lane) -> None:
        try:
            while ln.jobs:
                slot = next(iter(ln.jobs))
                job, fut = ln.jobs.pop(slot)
                try:
                    await job()
                    self.sent += 1
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("sending %s/%s failed", name, slot)
                finally:
                    if not fut.done():
                        fut.set_result(None)
        finally:
            ln.task = None
            if not ln.jobs and self._lanes.get(name) is ln:
                del self._lanes[name]

    @property
    def busy(self) -> bool:
        return any(ln.task is not None or ln.jobs for ln in self._lanes.values())

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every lane is empty (new jobs queued meanwhile included)."""

        async def _wait() -> None:
            while True:
                tasks = [ln.task for ln in self._lanes.values() if ln.task is not None]
                if not tasks:
                    return
                await asyncio.gather(*tasks, return_exceptions=True)

        await asyncio.wait_for(_wait(), timeout)

    async def close(self) -> None:
        self.closed = True
        lanes, self._lanes = self._lanes, {}
        for ln in lanes.values():
            for _, fut in ln.jobs.values():
                if not fut.done():
                    fut.cancel()
            if ln.task is not None:
                ln.task.cancel()
        for ln in lanes.values():
            if ln.task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await ln.task
