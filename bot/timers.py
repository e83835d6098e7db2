"""Deadlines: one scheduler task for every table's timers.

Deadlines are stored with the table (SQLite, in the same transaction as the change that
armed them) and re-armed on start-up; one that passed while the bot was down fires at
once. The scheduler only wakes the service: ``fire(key, deadline)`` re-checks everything
under the table's lock, so a timer that lost a race simply does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections.abc import Awaitable, Callable

from bot.model import Deadline

__all__ = ["Timers"]

log = logging.getLogger(__name__)

Fire = Callable[[str, Deadline], Awaitable[None]]


class Timers:
    """A heap of ``(due, key, kind)``; the table's current deadlines are the truth."""

    def __init__(self, fire: Fire, clock: Callable[[], float] = time.time) -> None:
        self._fire = fire
        self.clock = clock
        self._heap: list[tuple[float, str, str]] = []
        self._armed: dict[str, dict[str, Deadline]] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()

    def set(self, key: str, deadlines: tuple[Deadline, ...]) -> None:
        """Replace table ``key``'s deadlines."""
        old = self._armed.get(key, {})
        new = {d.kind: d for d in deadlines}
        if not new:
            self._armed.pop(key, None)
        else:
            self._armed[key] = new
        earliest = self._heap[0][0] if self._heap else None
        for kind, d in new.items():
            if old.get(kind) != d:
                heapq.heappush(self._heap, (d.due, key, kind))
                if earliest is None or d.due < earliest:
                    self._wake.set()

    def armed(self, key: str) -> dict[str, Deadline]:
        return dict(self._armed.get(key, {}))

    def __len__(self) -> int:
        return sum(len(v) for v in self._armed.values())

    def next_due(self) -> float | None:
        self._prune()
        return self._heap[0][0] if self._heap else None

    def _prune(self) -> None:
        heap = self._heap
        while heap:
            due, key, kind = heap[0]
            d = self._armed.get(key, {}).get(kind)
            if d is not None and d.due == due:
                return
            heapq.heappop(heap)

    def due(self, now: float | None = None) -> list[tuple[str, Deadline]]:
        """Pop every deadline due at ``now`` (they stay armed until the table changes)."""
        now = self.clock() if now is None else now
        out: list[tuple[str, Deadline]] = []
        heap = self._heap
        while heap and heap[0][0] <= now:
            due, key, kind = heapq.heappop(heap)
            d = self._armed.get(key, {}).get(kind)
            if d is not None and d.due == due:
                out.append((key, d))
        return out

    async def run_due(self, now: float | None = None) -> int:
        """Fire every deadline due at ``now`` and wait for them (tests drive time this way)."""
        fired = self.due(now)
        for key, d in fired:
            await self._call(key, d)
        return len(fired)

    async def _call(self, key: str, d: Deadline) -> None:
        try:
            await self._fire(key, d)
        except Exception:
            log.exception("deadline %s of table %s failed", d.kind, key)

    # -- background task ----------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._loop(), name="uno-timers")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for t in list(self._running):
            t.cancel()
        for t in list(self._running):
            with contextlib.suppress(asyncio.CancelledError):
                await t

    async def _loop(self) -> None:
        while True:
            self._wake.clear()
            nxt = self.next_due()
            delay = None if nxt is None else max(0.0, nxt - self.clock())
            if delay is None or delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=delay)
                continue
            for key, d in self.due():
                # each table's deadline runs as its own task: a slow table never holds up
                # another (the service serialises per table anyway)
                t = asyncio.create_task(self._call(key, d))
                self._running.add(t)
                t.add_done_callback(self._running.discard)
            await asyncio.sleep(0)
