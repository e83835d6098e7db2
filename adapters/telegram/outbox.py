"""The outbox: every message and edit the bot sends to a chat, paced per chat.

Telegram allows about 20 messages a minute in a group (edits count too), one a second in a
private chat and 30 a second in all, and answers ``429 retry_after`` past that. So:

- each chat has one lane: its items run one at a time (at most one edit in flight per
  chat), in order, each when the chat's pacing and the global one allow;
- a group's pacing is a sliding window (:class:`Window`): never more than 20 sends in any
  60 seconds, at least a second apart, so that at a human pace every move shows at once;
  once half the minute's budget is spent, sends go 3 seconds apart (an even pace under
  pressure, instead of a burst and then most of a minute of silence). Items wait, and
  coalesce, only while the window says so;
- an item may go first (``put(first=True)``): a round's or a game's result never waits
  behind table edits;
- an item has a key; putting an item whose key is already waiting replaces it in place,
  so a burst of table renders becomes one edit (items render lazily, when they run);
- the last send of a group's minute is kept for an item a person waits for (the table
  after their own move), so bot seats never leave them staring at an old table;
- ``RetryAfter`` pauses the lane for the time Telegram asks and runs the item again:
  nothing is dropped for flood control;
- several processes sending to one group (a shared database) share its budget: with
  ``pace``, each send to a group is also reserved there, among every process
  (``Store.pace``), once this process's own bucket lets it go;
- a chat that refuses the bot (blocked, kicked) drops its lane quietly;
- a group upgraded to a supergroup (``ChatMigrated``: Telegram gave it a new id) calls
  ``on_migrated(old, new)`` (the adapter moves the chat's tables), then the failed item
  and the rest of the lane go on in the new chat's lane (items that follow a table send
  where it is now; one that names the old chat itself fails there and is dropped).

Port calls arrive under the service's table lock, so they only ``put`` here: the network
is awaited by the lanes' tasks. The lanes, their order, coalescing, ``first``, the 429
retries and shutdown are ``bot.ui.outbox``'s (the core every platform shares); what is
Telegram's is here: its pacing (:class:`ChatPacing`: :class:`Window`, :class:`Bucket`,
the global bucket, the reserve, ``Store.pace``) and its errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import logging
import warnings
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TimedOut,
)

from bot.ops import metrics
from bot.ui import outbox as core

__all__ = ["Bucket", "ChatPacing", "Limits", "Outbox", "Window", "retry_seconds"]

log = logging.getLogger(__name__)

Migrated = Callable[[int, int], Awaitable[None]]
# (group chat, whether a person waits for the send) -> seconds to wait before sending it
Pace = Callable[[int, bool], Awaitable[float]]


@dataclass(frozen=True, slots=True)
class Limits:
    """Pacing. No 60 seconds ever see more than ``group_per_minute`` sends and edits in a
    group: with ``group_pacing="window"`` (:class:`Window`) they go ``group_spacing``
    seconds apart at least, 60 / ``group_per_minute`` once half the minute's budget is
    spent; ``"bucket"`` (the pacing before, kept for comparison in ``bench/telegram.py``)
    is a token bucket of ``group_burst`` tokens refilled evenly. ``scale`` runs time that
    many times faster (benchmarks): rates are multiplied, pauses divided."""

    group_per_minute: float = 20.0
    group_pacing: Literal["window", "bucket"] = "window"
    group_spacing: float = 1.0  # Telegram: about one message a second in a chat
    group_burst: int = 3  # the bucket's tokens (``group_pacing="bucket"``)
    private_per_second: float = 1.0
    private_burst: int = 3
    global_per_second: float = 30.0
    global_burst: int = 30
    group_reserve: int = 1  # tokens kept for people's own moves (see Outbox.put)
    network_retries: int = 3
    retry_pause: float = 1.0  # seconds before retrying after a network error
    scale: float = 1.0

    @classmethod
    def unlimited(cls) -> Limits:
        """No pacing at all (tests of everything but pacing)."""
        big = 10**9
        return cls(
            group_per_minute=big,
            group_spacing=0.0,
            group_burst=big,
            private_per_second=big,
            private_burst=big,
            global_per_second=big,
            global_burst=big,
            group_reserve=0,
            network_retries=2,
            retry_pause=0.01,
        )

    def scaled(self, factor: float) -> Limits:
        """The same limits with time running ``factor`` times faster."""
        return replace(self, scale=self.scale * factor)

    @property
    def group_rate(self) -> float:
        """Tokens a second: the burst plus a minute's refill make ``group_per_minute``."""
        per_minute = max(self.group_per_minute - self.group_burst, 1.0)
        return per_minute / 60.0 * self.scale


def retry_seconds(err: RetryAfter) -> float:
    """``retry_after`` in seconds (PTB warns about the attribute's future type)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = err.retry_after
    if isinstance(value, dtm.timedelta):
        return value.total_seconds()
    return float(value)


class Pacer(Protocol):
    """When a chat may be sent to next."""

    def wait_time(self, need: float = 1.0) -> float:
        """Seconds until a send that needs ``need`` free sends may go (0: now)."""

    def full(self) -> bool:
        """Nothing of the budget is in use (the pacer can be forgotten)."""

    def take(self) -> None:
        """A send goes now."""

    def done(self) -> None:
        """The send that went last is over (answered or failed)."""


class Window:
    """At most ``limit`` sends in any ``period`` seconds, ``spacing`` seconds apart at
    least. A sliding window lets every send of a human pace through at once (a move every
    few seconds never fills it). Once half of it is used, what is left of the budget is
    spread over the time until the oldest send leaves the window: a busy chat goes on at
    an even pace (about ``period / limit`` apart) instead of spending the whole minute in
    a burst and then showing nothing for the rest of it."""

    def __init__(
        self, limit: float, period: float, spacing: float, clock: Callable[[], float]
    ) -> None:
        self.limit = max(1, int(min(limit, 1 << 30)))
        self.period = period
        self.spacing = spacing
        self.clock = clock
        self.sent: deque[float] = deque()

    def _prune(self, now: float) -> None:
        while self.sent and self.sent[0] <= now - self.period:
            self.sent.popleft()

    def wait_time(self, need: float = 1.0) -> float:
        now = self.clock()
        self._prune(now)
        if not self.sent:
            return 0.0
        n = len(self.sent)
        gap = self.spacing
        if 2 * n >= self.limit:
            gap = max(gap, (self.sent[0] + self.period - now) / max(1, self.limit - n))
        at = self.sent[-1] + gap
        over = n + min(max(int(need), 1), self.limit) - self.limit
        if over > 0:  # the oldest ``over`` sends must leave the window first
            at = max(at, self.sent[over - 1] + self.period)
        return max(0.0, at - now)

    def full(self) -> bool:
        self._prune(self.clock())
        return not self.sent

    def take(self) -> None:
        self.sent.append(self.clock())

    def done(self) -> None:
        # Telegram counts a send when it arrives, some time between its start and its
        # answer: counted from the answer, no window of Telegram's can hold one too many
        if self.sent:
            self.sent[-1] = max(self.sent[-1], self.clock())


class Bucket:
    """A token bucket: ``capacity`` tokens, refilled at ``rate`` a second."""

    def __init__(self, rate: float, capacity: int, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.capacity = max(1, capacity)
        self.clock = clock
        self.tokens = float(self.capacity)
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait_time(self, need: float = 1.0) -> float:
        """Seconds until ``need`` tokens are there (``need`` at most the capacity)."""
        self._refill()
        need = min(need, self.capacity)
        if self.tokens >= need - 1e-9:  # float dust must not leave it waiting forever
            return 0.0
        return (need - self.tokens) / self.rate

    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.capacity

    def take(self) -> None:
        self._refill()
        self.tokens -= 1

    def done(self) -> None:
        return None


class ChatPacing:
    """Telegram's pacing (``bot.ui.outbox.Pacing``): each chat's pacer (a group's
    :class:`Window` or bucket, a private chat's bucket), the global bucket, the reserve
    kept for people's own moves, and with ``pace`` a group's send reserved among every
    process (``Store.pace``). ``active(chat)``: whether the chat has a lane now."""

    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float],
        pace: Pace | None,
        active: Callable[[int], bool],
    ) -> None:
        self.limits = limits
        self.clock = clock
        self.pace = pace
        self.active = active
        self._buckets: dict[int, Pacer] = {}
        self._global = Bucket(
            limits.global_per_second * limits.scale, limits.global_burst, self.clock
        )

    def pacer(self, chat_id: int) -> Pacer:
        """The chat's pacer: it outlives the lane, which ends whenever the chat is idle."""
        found = self._buckets.get(chat_id)
        if found is not None:
            return found
        if len(self._buckets) > 10_000:  # forget the chats whose buckets are full again
            for cid, b in list(self._buckets.items()):
                if b.full() and not self.active(cid):
                    del self._buckets[cid]
        lim = self.limits
        bucket: Pacer
        if chat_id < 0 and lim.group_pacing == "window":  # groups, supergroups, channels
            minute = 60.0 / lim.scale
            spacing = lim.group_spacing / lim.scale
            bucket = Window(lim.group_per_minute, minute, spacing, self.clock)
        elif chat_id < 0:
            bucket = Bucket(lim.group_rate, lim.group_burst, self.clock)
        else:
            bucket = Bucket(lim.private_per_second * lim.scale, lim.private_burst, self.clock)
        self._buckets[chat_id] = bucket
        return bucket

    def open(self, lane: core.Lane[Any]) -> None:
        lane.state = self.pacer(lane.key)

    def _need(self, lane: core.Lane[Any]) -> float:
        first = next(iter(lane.items), None)
        if first is None or first in lane.urgent or lane.key >= 0:
            return 1.0
        return 1.0 + self.limits.group_reserve

    async def ready(self, lane: core.Lane[Any]) -> None:
        """Wait for a token (and the reserve, for an item nobody waits for); with ``pace``,
        then for a group's send reserved among every process."""
        bucket: Pacer = lane.state
        while True:
            wait = max(bucket.wait_time(self._need(lane)), self._global.wait_time())
            if wait <= 0 or not lane.items:  # (emptied meanwhile: nothing to wait for)
                break
            lane.poke.clear()
            # woken early when an item becomes urgent
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(lane.poke.wait(), wait)
        if self.pace is None or lane.key >= 0 or not lane.items:
            return
        urgent = next(iter(lane.items)) in lane.urgent
        try:
            wait = await self.pace(lane.key, urgent)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # the database out of reach: this process's bucket alone
            log.warning("chat %s: the shared pacing failed: %s", lane.key, err)
            return
        if wait > 0:
            await asyncio.sleep(wait)

    def start(self, lane: core.Lane[Any]) -> None:
        lane.state.take()
        self._global.take()

    def end(self, lane: core.Lane[Any]) -> None:
        lane.state.done()


class Outbox(core.Outbox[int]):
    """Per-chat lanes of paced, coalesced sends (see the module docstring): the core's,
    with Telegram's pacing and errors."""

    def __init__(
        self,
        limits: Limits,
        clock: Callable[[], float] | None = None,
        *,
        on_migrated: Migrated | None = None,
        pace: Pace | None = None,
    ) -> None:
        self.limits = limits
        self.on_migrated = on_migrated
        self.clock = clock or asyncio.get_running_loop().time
        self.chat_pacing = ChatPacing(limits, self.clock, pace, self._has_lane)
        super().__init__(self.chat_pacing, name="tg-outbox")

    def _has_lane(self, chat_id: int) -> bool:
        return chat_id in self._lanes

    def _bucket(self, chat_id: int) -> Pacer:
        """The chat's pacer (:meth:`ChatPacing.pacer`)."""
        return self.chat_pacing.pacer(chat_id)

    def retry_after(self, lane: core.Lane[int], err: Exception) -> float | None:
        """Telegram refused for flood control: wait as asked, then run it again (first in
        the lane, or its newer replacement if one came meanwhile)."""
        if not isinstance(err, RetryAfter):
            return None
        metrics.rate_limited("tg")
        pause = retry_seconds(err) / self.limits.scale
        log.info("chat %s: 429, retrying in %.1fs", lane.key, pause)
        return pause

    async def failed(
        self, lane: core.Lane[int], key: Hashable, item: core.Item, err: Exception, failures: int
    ) -> float | None:
        if isinstance(err, ChatMigrated):
            await self._migrated(lane, key, item, int(err.new_chat_id))
            return None
        if isinstance(err, Forbidden):
            log.info("chat %s refuses the bot (%s): dropping its queue", lane.key, err)
            for _, dropped, _ in self.take(lane.key):
                if not dropped.fut.done():
                    dropped.fut.set_result(None)
            return None
        if isinstance(err, BadRequest):
            log.warning("chat %s: %s", lane.key, err)
            return None
        if isinstance(err, (TimedOut, NetworkError)):
            if failures > self.limits.network_retries:
                log.warning("chat %s: giving up after %s", lane.key, err)
                return None
            return self.limits.retry_pause * failures / self.limits.scale
        log.error("chat %s: a send failed", lane.key, exc_info=err)
        return None

    async def _migrated(
        self, lane: core.Lane[int], key: Hashable, item: core.Item, new: int
    ) -> None:
        """The lane's chat became ``new``: tell the adapter, then move what is queued."""
        if new == lane.key or self.on_migrated is None:
            # an item of the new chat's lane that names the old chat itself: nothing to
            # follow it with
            log.info("chat %s: a send to the chat it was before failed: dropped", new)
            return
        log.info("chat %s is now chat %s: its queue follows", lane.key, new)
        # the failed item goes on (its waiters with it) in the new lane
        moved = core.Item(item.job, item.fut)
        item.fut = asyncio.get_running_loop().create_future()
        # held back until the adapter has followed the chat, the failed item first
        held = [(key, moved, False), *self.take(lane.key)]
        try:
            await self.on_migrated(lane.key, new)
        except Exception:
            log.exception("chat %s: following it to chat %s failed", lane.key, new)
        self.give(new, held)
