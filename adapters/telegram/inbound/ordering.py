"""One user's updates one after the other; different users' at the same time.

PTB handles updates concurrently (``concurrent_updates``). Two updates of one user would
then race: an inline query typed right after a choice could be answered from the table as
it was before that choice was applied, and the player would see a menu that is already
out of date. :class:`PerUser` keeps each user's updates in the order Telegram sent them:
an update of a user whose previous one is still being handled waits for it (queued here,
without taking one of the ``max_concurrent_updates`` slots, so one user's flood never
holds the others up); updates of other users, and those with no user, go on concurrently.
At most ``backlog`` updates of one user wait; past that the newest are not handled (a
flood of presses), but ``overflow`` is called with each at once: it answers what a person
waits on (a pressed button's spinner, an inline query) without waiting in the queue
(``Handlers.overflow`` says what each kind of update gets).
"""

from __future__ import annotations

import inspect
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

__all__ = ["PerUser"]

log = logging.getLogger(__name__)

BACKLOG = 32
Overflow = Callable[[Update], Awaitable[None]]


class PerUser(BaseUpdateProcessor):
    """An update processor that serialises each user's updates (see the module)."""

    def __init__(
        self,
        max_concurrent_updates: int,
        backlog: int = BACKLOG,
        overflow: Overflow | None = None,
    ) -> None:
        super().__init__(max_concurrent_updates)
        self.backlog = backlog
        self.overflow = overflow
        self._waiting: dict[int, deque[Awaitable[Any]]] = {}
        self.dropped = 0

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        user = update.effective_user if isinstance(update, Update) else None
        if user is None:
            await coroutine
            return
        waiting = self._waiting.get(user.id)
        if waiting is not None:  # theirs is being handled: this one follows it
            if len(waiting) > self.backlog:  # (the first is the one being handled)
                self.dropped += 1
                _discard(coroutine)
                log.info("user %s: %d updates waiting, one not handled", user.id, self.backlog)
                await self._overflow(update)
                return
            waiting.append(coroutine)
            return
        waiting = self._waiting[user.id] = deque([coroutine])
        try:
            while waiting:
                try:
                    await waiting[0]
                except Exception:  # PTB handles handlers' errors; this is a last resort
                    log.exception("an update of user %s failed", user.id)
                waiting.popleft()
        finally:
            del self._waiting[user.id]
            for left in waiting:  # cancelled while handling: the rest is not run
                _discard(left)

    async def _overflow(self, update: object) -> None:
        if self.overflow is None or not isinstance(update, Update):
            return
        try:
            await self.overflow(update)
        except Exception:  # a courtesy: never the reason the processor fails
            log.exception("answering an update past the backlog failed")

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None


def _discard(awaitable: Awaitable[Any]) -> None:
    """An update that will not be handled: its coroutine is closed (never awaited)."""
    if inspect.iscoroutine(awaitable):
        awaitable.close()
