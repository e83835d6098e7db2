"""Deadlines: one scheduler task for every table's timers.

Deadlines are stored with the table (SQLite, in the same transaction as the change that
armed them) and re-armed on start-up; one that passed while the bot was down fires at
once. The scheduler only wakes the service: ``fire(key, deadline)`` re-checks everything
under the table's lock, so a timer that lost a race simply does nothing.

A deadline's ``due`` is wall time (it is stored, and read again after a restart), but the
scheduler waits by a monotonic clock: each deadline is placed on it when armed, at
``mono_now + (due - wall_now)``, so a step of the system clock (NTP, an operator, a
suspended VM) neither freezes every table nor fires every deadline early. The heap is in
that monotonic time; the times ``due``/``run_due`` take and ``next_due`` gives are wall
times as the deadlines', read against the monotonic clock at the moment of the call. A
test's fake clock stands for both (unless it passes ``mono`` too).

At most ``max_running`` deadlines are being handled at a time: after a restart with
thousands of overdue deadlines, or under a load of bot seats, the rest wait in the heap
(in due order) instead of all starting at once, so each one that runs is done quickly
and the group commits stay a bounded size.

Several processes on one database (PostgreSQL): a due deadline fires only once ``claim``
grants it (the service claims it in the database, for all that are due at once); one that
is not granted is another process's, and is dropped. ``poll`` runs every
``poll_seconds`` beside the heap: the service looks there for deadlines nobody fired (a
dead process's) and arms them here (``again`` makes one handed out fire once more).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.model import Deadline

__all__ = ["Timers"]

log = logging.getLogger(__name__)

Fire = Callable[[str, Deadline], Awaitable[None]]
Claim = Callable[[list[tuple[str, Deadline]]], Awaitable[list[tuple[str, Deadline]]]]
RETRY_SECONDS = 5.0


class Timers:
    """A heap of ``(due, key, kind)``; the table's current deadlines are the truth."""

    def __init__(
        self,
        fire: Fire,
        clock: Callable[[], float] = time.time,
        *,
        mono: Callable[[], float] | None = None,
        max_running: int = 64,
        claim: Claim | None = None,
        poll: Callable[[], Awaitable[object]] | None = None,
        poll_seconds: float = 1.0,
        metrics: Any = None,
    ) -> None:
        self._fire = fire
        self.metrics = metrics  # a ``bot.ops.metrics.Metrics``: deadlines fired, how late
        self._claim = claim
        self._poll = poll
        self.poll_seconds = poll_seconds
        self._poller: asyncio.Task[None] | None = None
        self.clock = clock  # wall time: what deadlines' ``due`` are in
        self.mono = mono or (time.monotonic if clock is time.time else clock)
        self.max_running = max(1, max_running)
        self._heap: list[tuple[float, str, str]] = []
        self._armed: dict[str, dict[str, Deadline]] = {}
        self._at: dict[tuple[str, str], float] = {}  # an armed deadline's monotonic due
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()
        self._stopping = False
        self._n = 0  # deadlines armed
        self._popped: set[tuple[str, str]] = set()  # armed, and handed out by ``due``
        self._retry_at: dict[tuple[str, str], float] = {}  # failed ones: when to try again

    def set(self, key: str, deadlines: tuple[Deadline, ...]) -> None:
        """Replace table ``key``'s deadlines."""
        old = self._armed.get(key, {})
        new = {d.kind: d for d in deadlines}
        if not new:
            self._armed.pop(key, None)
        else:
            self._armed[key] = new
        self._n += len(new) - len(old)
        for kind, d in old.items():
            if new.get(kind) != d:
                self._popped.discard((key, kind))
                self._retry_at.pop((key, kind), None)
                self._at.pop((key, kind), None)
        earliest = self._heap[0][0] if self._heap else None
        offset: float | None = None
        for kind, d in new.items():
            if old.get(kind) != d:
                if offset is None:
                    # wall first: if the two reads straddle a tick, the deadline comes
                    # a hair late, never early
                    wall = self.clock()
                    offset = self.mono() - wall
                at = self._at[(key, kind)] = d.due + offset
                heapq.heappush(self._heap, (at, key, kind))
                if earliest is None or at < earliest:
                    self._wake.set()
        # replaced deadlines leave stale entries behind (dropped lazily when they reach the
        # top); a busy table re-arms on every action, so rebuild before the heap balloons
        if len(self._heap) > 1024 and len(self._heap) > 4 * self._n:
            self._compact()

    def _compact(self) -> None:
        popped = self._popped
        self._heap = [
            (self._retry_at.get((k, kind), self._at[(k, kind)]), k, kind)
            for k, ds in self._armed.items()
            for kind in ds
            if (k, kind) not in popped
        ]
        heapq.heapify(self._heap)

    def armed(self, key: str) -> dict[str, Deadline]:
        return dict(self._armed.get(key, {}))

    def __len__(self) -> int:
        return self._n

    @property
    def running(self) -> int:
        """Deadlines being handled now."""
        return len(self._running)

    def overdue(self) -> int:
        """Deadlines due and not handed out yet (waiting for a place among the
        ``max_running``, or for a retry): for the metrics, when scraped."""
        now = self.mono()
        popped = self._popped
        return sum(1 for k, at in self._at.items() if at <= now and k not in popped)

    def next_due(self) -> float | None:
        """When (wall time, by the clock as it reads now) the earliest deadline is due."""
        at = self._next_at()
        return None if at is None else self.clock() + (at - self.mono())

    def _next_at(self) -> float | None:
        """When (monotonic time) the earliest armed deadline is due."""
        self._prune()
        return self._heap[0][0] if self._heap else None

    def _at_wall(self, now: float | None) -> float:
        """The monotonic time that is wall time ``now`` (now if None)."""
        mono = self.mono()
        return mono if now is None else mono + (now - self.clock())

    def _prune(self) -> None:
        heap = self._heap
        while heap:
            due, key, kind = heap[0]
            if self._live(due, key, kind) is not None:
                return
            heapq.heappop(heap)

    def due(
        self, now: float | None = None, limit: int | None = None
    ) -> list[tuple[str, Deadline]]:
        """Pop every deadline due at wall time ``now`` (default: now), or the ``limit``
        earliest of them (they stay armed until the table changes)."""
        now = self._at_wall(now)
        out: list[tuple[str, Deadline]] = []
        heap = self._heap
        while heap and heap[0][0] <= now and (limit is None or len(out) < limit):
            due, key, kind = heapq.heappop(heap)
            # an entry left by a replaced deadline with the same due time must not fire
            # the current one a second time
            d = self._live(due, key, kind)
            if d is not None:
                out.append((key, d))
                self._popped.add((key, kind))
                self._retry_at.pop((key, kind), None)
        return out

    async def run_due(self, now: float | None = None) -> int:
        """Fire every deadline due at wall time ``now`` (those granted, with ``claim``) and
        wait for them (tests drive time this way)."""
        fired = await self._claimed(self.due(now))
        for key, d in fired:
            await self._call(key, d)
        return len(fired)

    async def _claimed(self, due: list[tuple[str, Deadline]]) -> list[tuple[str, Deadline]]:
        """The deadlines of ``due`` this process may fire (all, without ``claim``)."""
        if self._claim is None or not due:
            return due
        try:
            return await self._claim(due)
        except Exception:
            log.exception("claiming %d due deadlines failed; retrying in %ss", len(due),
                          RETRY_SECONDS)  # fmt: skip
            for key, d in due:
                self._retry(key, d)
            return []

    def again(self, key: str, d: Deadline) -> None:
        """``d``, armed for ``key`` and handed out already, fires once more (when due: at
        once if it is overdue)."""
        if self._armed.get(key, {}).get(d.kind) != d or (key, d.kind) not in self._popped:
            return
        self._popped.discard((key, d.kind))
        self._retry_at.pop((key, d.kind), None)
        at = self._at[(key, d.kind)]
        heapq.heappush(self._heap, (at, key, d.kind))
        self._wake.set()

    async def _call(self, key: str, d: Deadline) -> None:
        if self.metrics is not None:
            self.metrics.fired(d.kind, self.late(key, d))
        try:
            await self._fire(key, d)
        except Exception:
            log.exception("deadline %s of table %s failed; retrying in %ss", d.kind, key,
                          RETRY_SECONDS)  # fmt: skip
            self._retry(key, d)

    def _retry(self, key: str, d: Deadline) -> None:
        """A deadline whose handling failed (a store error...) fires again later, unless
        the table armed another one meanwhile: a table must never wait forever."""
        if self._armed.get(key, {}).get(d.kind) != d or (key, d.kind) not in self._popped:
            return
        self._popped.discard((key, d.kind))
        due = self.mono() + RETRY_SECONDS
        self._retry_at[(key, d.kind)] = due  # the deadline itself (as stored) is unchanged
        heapq.heappush(self._heap, (due, key, d.kind))
        self._wake.set()

    def _live(self, due: float, key: str, kind: str) -> Deadline | None:
        """The armed deadline a heap entry stands for, if the entry is still current."""
        d = self._armed.get(key, {}).get(kind)
        if d is None or (key, kind) in self._popped:
            return None
        if self._at.get((key, kind)) == due or self._retry_at.get((key, kind)) == due:
            return d
        return None

    def late(self, key: str, d: Deadline) -> float:
        """Seconds since ``d`` (armed for table ``key``) was due: by the monotonic clock
        while it is armed, so a clock step does not make a deadline look late."""
        at = self._at.get((key, d.kind))
        if at is None or self._armed.get(key, {}).get(d.kind) != d:
            return self.clock() - d.due
        return self.mono() - at

    # -- background task ----------------------------------------------------------------

    def start(self) -> None:
        if self._task is None:
            self._stopping = False
            self._task = asyncio.create_task(self._loop(), name="uno-timers")
            if self._poll is not None:
                self._poller = asyncio.create_task(self._poll_loop(), name="uno-timers-poll")

    async def stop(self, grace: float = 5.0) -> None:
        """Stop firing; deadlines being handled get ``grace`` seconds to finish (their
        change is committed and shown) before they are cancelled."""
        self._stopping = True
        self._wake.set()
        poller, self._poller = self._poller, None
        if poller is not None:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
        task, self._task = self._task, None
        if task is not None:
            # the flag ends the loop even if a cancellation were swallowed (3.11's
            # ``wait_for`` can lose one that races with its own completion)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        running = list(self._running)
        if running:
            _, late = await asyncio.wait(running, timeout=grace)
            for t in late:
                t.cancel()
            for t in late:
                with contextlib.suppress(asyncio.CancelledError):
                    await t

    async def _loop(self) -> None:
        while not self._stopping:
            if len(self._running) >= self.max_running:
                await asyncio.wait(list(self._running), return_when=asyncio.FIRST_COMPLETED)
                continue
            self._wake.clear()
            nxt = self._next_at()
            delay = None if nxt is None else nxt - self.mono()
            if delay is None or delay > 0:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self._wake.wait()
                continue
            due = self.due(limit=self.max_running - len(self._running))
            if self._claim is not None:  # all that are due at once: one claim
                due = await self._claimed(due)
            for key, d in due:
                # each table's deadline runs as its own task: a slow table never holds up
                # another (the service serialises per table anyway)
                t = asyncio.create_task(self._call(key, d))
                self._running.add(t)
                t.add_done_callback(self._running.discard)
            await asyncio.sleep(0)

    async def _poll_loop(self) -> None:
        """Every ``poll_seconds``; at once again while a poll comes back full (it took
        ``max_running`` deadlines: a dead process left more), so that a survivor takes up
        all of a dead one's tables in as many rounds as it takes, not one a second."""
        assert self._poll is not None
        full = False
        while not self._stopping:
            await asyncio.sleep(0 if full else self.poll_seconds)
            try:
                took = await self._poll()
            except Exception:
                log.exception("looking for overdue deadlines failed; trying again")
                took = 0
            full = isinstance(took, int) and took >= self.max_running
