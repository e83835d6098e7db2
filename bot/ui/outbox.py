"""The outbox: what a platform adapter sends, off the table lock, in lanes.

The service calls a port under its per-table lock (``bot.port.Port``), so an adapter only
queues work here; the lanes' tasks await the network. One core for every platform:

- a lane per key (a chat, a channel, a player's hand): its items run one at a time (one
  request in flight per lane), in order;
- an item has a key: putting one whose key is still waiting replaces it in place (a burst
  of renders of one message becomes one edit: items render when they run); ``key=None``
  always queues a new item (messages, never merged);
- ``first=True``: the item goes before everything waiting in its lane (a result never
  waits behind table edits); ``urgent=True``: a person waits for it (the pacing may let
  it use what it keeps back for people);
- ``put`` returns a future, done when the item (or the newer one that replaced it) ran,
  ok or not; cancelled if the outbox closes first;
- pacing is the platform's: a :class:`Pacing` object says when a lane's next item may go
  (:data:`UNPACED`: at once, when the platform's library paces on its own);
- a failed send: :meth:`Outbox.retry_after` reads a flood-control answer (the lane
  pauses as asked, then sends the newest version of the item: nothing is dropped), and
  :meth:`Outbox.failed` decides about any other error (retry after a pause, or give up);
  a platform subclasses :class:`Outbox` for its errors;
- :meth:`Outbox.move` sends what waits in one lane in another (merged by key);
  :meth:`Outbox.flush` / :meth:`Outbox.drain` wait until every lane is empty,
  :meth:`Outbox.close` stops them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

__all__ = ["UNPACED", "Item", "Job", "Lane", "Outbox", "Pacing"]

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[Any]]
K = TypeVar("K", bound=Hashable)


class Item:
    """A job waiting in a lane, and the future its ``put`` returned."""

    __slots__ = ("fut", "job")

    def __init__(self, job: Job, fut: asyncio.Future[None]) -> None:
        self.job = job
        self.fut = fut

    def absorb(self, other: Item) -> None:
        """``other`` (newer, same key) replaces this one's job; its waiters are released
        when this one is done."""
        self.job = other.job
        _chain(self.fut, other.fut)


def _chain(src: asyncio.Future[None], dst: asyncio.Future[None]) -> None:
    """``dst`` ends as ``src`` does (done or cancelled)."""
    if src is dst or dst.done():
        return

    def copy(f: asyncio.Future[None]) -> None:
        if dst.done():
            return
        if f.cancelled():
            dst.cancel()
        else:
            dst.set_result(None)

    src.add_done_callback(copy)


@dataclass(eq=False)
class Lane(Generic[K]):
    """One lane: its waiting items in order (by key), which of them a person waits for,
    the task that runs them, whether one is in flight, an event that wakes a pacing wait
    (an item put, moved or discarded), and what the pacing keeps for it (``state``)."""

    key: K
    items: OrderedDict[Hashable, Item] = field(default_factory=OrderedDict)
    urgent: set[Hashable] = field(default_factory=set)
    task: asyncio.Task[None] | None = None
    busy: bool = False
    poke: asyncio.Event = field(default_factory=asyncio.Event)
    state: Any = None


class Pacing(Protocol):
    """When a lane's next item may go: a platform's rate limits."""

    def open(self, lane: Lane[Any]) -> None:
        """A lane starts (``lane.state`` is the pacing's to set)."""

    async def ready(self, lane: Lane[Any]) -> None:
        """Wait until the lane's first item may go; return early if the lane empties."""

    def start(self, lane: Lane[Any]) -> None:
        """A send of the lane goes now."""

    def end(self, lane: Lane[Any]) -> None:
        """That send is over (answered or failed)."""


class _Unpaced:
    """No pacing: every item goes at once (the platform's library paces on its own)."""

    def open(self, lane: Lane[Any]) -> None:
        return None

    async def ready(self, lane: Lane[Any]) -> None:
        return None

    def start(self, lane: Lane[Any]) -> None:
        return None

    def end(self, lane: Lane[Any]) -> None:
        return None


UNPACED: Pacing = _Unpaced()


class Outbox(Generic[K]):
    """Lanes of paced, coalesced sends (see the module docstring). ``name``: the prefix
    of the lanes' task names."""

    def __init__(self, pacing: Pacing = UNPACED, *, name: str = "outbox") -> None:
        self.pacing = pacing
        self.name = name
        self._lanes: dict[K, Lane[K]] = {}
        self._seq = itertools.count()
        self._idle = asyncio.Event()
        self._idle.set()
        self.sent = 0  # jobs that ran without an error
        self.coalesced = 0  # jobs replaced by a newer one before they ran
        self.retried = 0  # flood-control answers honoured
        self.closed = False

    # -- queueing ----------------------------------------------------------------------

    def put(
        self,
        lane: K,
        key: Hashable | None,
        job: Job,
        *,
        urgent: bool = False,
        first: bool = False,
    ) -> asyncio.Future[None]:
        """Queue ``job`` in ``lane``; with a ``key`` already waiting there, replace that
        one's job (keeping its place). ``key=None``: always a new item. ``urgent``: a
        person waits for it; ``first``: it goes before everything waiting (urgent too).
        After :meth:`close` nothing runs any more: the future is already cancelled."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.closed:
            fut.cancel()
            return fut
        k = key if key is not None else ("seq", next(self._seq))
        self._give(lane, k, Item(job, fut), urgent=urgent, first=first)
        return fut

    def _give(
        self, lane_key: K, key: Hashable, item: Item, *, urgent: bool, first: bool = False
    ) -> None:
        lane = self._lanes.get(lane_key)
        if lane is None:
            lane = self._lanes[lane_key] = Lane(lane_key)
            self.pacing.open(lane)
        waiting = lane.items.get(key)
        if waiting is None:
            lane.items[key] = item
        else:
            waiting.absorb(item)
            self.coalesced += 1
        if first:
            lane.items.move_to_end(key, last=False)
        if urgent or first:
            lane.urgent.add(key)
        self._idle.clear()
        lane.poke.set()
        if lane.task is None or lane.task.done():
            lane.task = asyncio.create_task(self._run(lane), name=f"{self.name}-{lane_key}")

    def discard(self, lane: K, key: Hashable) -> None:
        """Drop a waiting item (its waiters are released)."""
        ln = self._lanes.get(lane)
        if ln is None:
            return
        item = ln.items.pop(key, None)
        ln.urgent.discard(key)
        if item is not None and not item.fut.done():
            item.fut.set_result(None)
        ln.poke.set()  # a lane left empty stops waiting for its pacing

    def take(self, lane: K) -> list[tuple[Hashable, Item, bool]]:
        """Empty ``lane``: what waited there (key, item, urgent), in order."""
        ln = self._lanes.get(lane)
        if ln is None:
            return []
        items = [(k, item, k in ln.urgent) for k, item in ln.items.items()]
        ln.items.clear()
        ln.urgent.clear()
        ln.poke.set()
        return items

    def give(self, lane: K, items: list[tuple[Hashable, Item, bool]]) -> None:
        """Queue ``items`` (from :meth:`take`) in ``lane``: one whose key waits there
        already is merged into it."""
        if self.closed:
            for _, item, _ in items:
                item.fut.cancel()
            return
        for k, item, urgent in items:
            self._give(lane, k, item, urgent=urgent)

    def move(self, old: K, new: K) -> None:
        """What waits in lane ``old`` goes to lane ``new`` (merged by key)."""
        if old != new:
            self.give(new, self.take(old))

    def pending(self, lane: K | None = None) -> int:
        """Items waiting or in flight, in ``lane`` or in all."""
        lanes = self._lanes.values() if lane is None else [self._lanes.get(lane)]
        return sum(len(ln.items) + ln.busy for ln in lanes if ln is not None)

    @property
    def busy(self) -> bool:
        """Something waits or is in flight."""
        return bool(self._lanes)

    # -- sending -----------------------------------------------------------------------

    async def _run(self, lane: Lane[K]) -> None:
        try:
            while lane.items:
                await self.pacing.ready(lane)
                if not lane.items:  # moved to another lane or discarded while waiting
                    break
                key, item = lane.items.popitem(last=False)
                lane.urgent.discard(key)
                lane.busy = True
                try:
                    await self._send(lane, key, item)
                finally:
                    lane.busy = False
        finally:
            if not lane.items and self._lanes.get(lane.key) is lane:
                del self._lanes[lane.key]
            if not self._lanes:
                self._idle.set()

    async def _send(self, lane: Lane[K], key: Hashable, item: Item) -> None:
        """Run one item: after a flood-control answer, again (its newest version) once
        the pause is over; after another error, as :meth:`failed` says."""
        failures = 0
        again = False
        try:
            while True:
                if again:
                    await self.pacing.ready(lane)
                again = True
                self.pacing.start(lane)
                try:
                    try:
                        await item.job()
                    finally:
                        self.pacing.end(lane)
                    self.sent += 1
                    return
                except asyncio.CancelledError:
                    raise
                except Exception as err:
                    pause = self.retry_after(lane, err)
                    if pause is not None:
                        self.retried += 1
                        await asyncio.sleep(pause)
                        newer = lane.items.pop(key, None)  # replaced meanwhile: the newest
                        if newer is not None:
                            lane.urgent.discard(key)
                            item.absorb(newer)
                        continue
                    failures += 1
                    pause = await self.failed(lane, key, item, err, failures)
                    if pause is None:
                        return
                    await asyncio.sleep(pause)
        finally:
            if not item.fut.done():
                item.fut.set_result(None)

    def retry_after(self, lane: Lane[K], err: Exception) -> float | None:
        """Seconds to pause ``lane`` before sending the item again, if ``err`` is the
        platform's flood control (a 429 with its ``retry_after``); else ``None``."""
        return None

    async def failed(
        self, lane: Lane[K], key: Hashable, item: Item, err: Exception, failures: int
    ) -> float | None:
        """The item failed (``failures`` times so far, flood control aside): seconds to
        wait before running it again, or ``None`` to give it up. By default: logged, given
        up; the lane goes on."""
        log.error("%s %s: sending %s failed", self.name, lane.key, key, exc_info=err)
        return None

    # -- waiting and stopping ----------------------------------------------------------

    async def flush(self, timeout: float = 10.0) -> bool:
        """Wait until every lane is empty (True) or ``timeout`` passed (False)."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
            return True
        except TimeoutError:
            return False

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every lane is empty (what is queued meanwhile included); raises
        ``TimeoutError`` after ``timeout``."""
        await asyncio.wait_for(self._idle.wait(), timeout)

    async def close(self) -> None:
        """Stop every lane: what waits is cancelled (its futures too), nothing runs more."""
        self.closed = True
        lanes = list(self._lanes.values())
        self._lanes.clear()
        for ln in lanes:
            for item in ln.items.values():
                item.fut.cancel()
            if ln.task is not None:
                ln.task.cancel()
        for ln in lanes:
            if ln.task is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await ln.task
        self._idle.set()
