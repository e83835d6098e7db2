"""One user's updates one after the other; different users' at the same time.

PTB handles updates concurrently (``concurrent_updates``). Two updates of one user would
then race: an inline query typed right after a choice could be answered from the table as
it was before that choice was applied, and the player would see a menu that is already
out of date. :class:`PerUser` keeps each user's updates in the order Telegram sent them:
an update of a user whose previous one is still being handled waits for it (queued here,
without taking one of the ``max_concurrent_updates`` slots, so one user's flood never
holds the others up); updates of other users, and those with no user, go on concurrently.
At most ``backlog`` updates of one user wait; past that the newest are dropped (a flood of
presses: what they asked for is answered when the buttons are pressed again).
"""

from __future__ import annotations

import inspect
import logging
from collections import deque
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

__all__ = ["PerUser"]

log = logging.getLogger(__name__)

BACKLOG = 32


class PerUser(BaseUpdateProcessor):
    """An update processor that serialises each user's updates (see the module)."""

    def __init__(self, max_concurrent_updates: int, backlog: int = BACKLOG) -> None:
        super().__init__(max_concurrent_updates)
        self.backlog = backlog
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
                log.info("user %s: %d updates waiting, one dropped", user.id, self.backlog)
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

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None


def _discard(awaitable: Awaitable[Any]) -> None:
    """An update that will not be handled: its coroutine is closed (never awaited)."""
    if inspect.iscoroutine(awaitable):
        awaitable.close()
