"""Sending, off the table lock: one lane per channel (and per player's hand), one request
in flight per lane, and the latest render of a message replaces one still waiting.

The service calls the port under its per-table lock (``bot.port.Port``), so the port only
queues work here; the lanes send it. The lanes, coalescing and shutdown are
``bot.ui.outbox``'s, the core every platform shares. Rate limits are discord.py's business
(it waits out a 429 on its own): no pacing here, and a send that fails is logged and
given up, the lane going on.
"""

from __future__ import annotations

import logging
from collections.abc import Hashable

from bot.ui import outbox as core

__all__ = ["Outbox"]

log = logging.getLogger(__name__)


class Outbox(core.Outbox[str]):
    """Lanes of jobs. ``put(lane, slot, job)``: a job in a ``slot`` that is still waiting is
    replaced (coalescing); ``slot=None`` always queues. The future ``put`` returns is done
    when the job (or the one that replaced it) ran; after ``close()`` it is cancelled."""

    def __init__(self) -> None:
        super().__init__(name="uno-discord")

    async def failed(
        self, lane: core.Lane[str], key: Hashable, item: core.Item, err: Exception, failures: int
    ) -> float | None:
        log.error("sending %s/%s failed", lane.key, key, exc_info=err)
        return None
