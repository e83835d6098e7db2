"""Who polls Telegram for updates: one process per token.

A token has one update stream. With one process it simply polls; several processes on one
database (a shared store) elect the poller by a lease in the database that it renews every
POLL_RENEW seconds for POLL_LEASE; it stops polling once it could not renew for
POLL_LEASE - POLL_RENEW (before anybody else may take the lease), and a standby tries for
it every STANDBY_SECONDS: it polls within POLL_LEASE + STANDBY_SECONDS (7 s) of the
poller's death. With a webhook every process serves it, and none polls.
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging

from adapters.telegram.common import Wire

__all__ = ["POLL_LEASE", "POLL_RENEW", "STANDBY_SECONDS", "UPDATES", "Poller"]

log = logging.getLogger(__name__)

UPDATES = ["message", "callback_query", "inline_query", "chosen_inline_result"]
POLL_LEASE = 6.0
POLL_RENEW = 2.0
STANDBY_SECONDS = 1.0


class Poller:
    """Polling, for one adapter: at once (one process), or while holding the polling
    lease (:meth:`elect`, several processes; ``lease`` names it)."""

    def __init__(self, wire: Wire, *, poll_timeout: float, webhook: bool) -> None:
        self.wire = wire
        self.poll_timeout = poll_timeout
        self.webhook = webhook
        self.lease: str | None = None

    async def start_polling(self) -> None:
        assert self.wire.app is not None and self.wire.app.updater is not None
        await self.wire.app.updater.start_polling(
            poll_interval=0.0,
            timeout=dtm.timedelta(seconds=self.poll_timeout),
            allowed_updates=UPDATES,
        )

    @property
    def polling(self) -> bool:
        """Whether this process polls Telegram for updates now."""
        updater = self.wire.app.updater if self.wire.app is not None else None
        return updater is not None and updater.running and not self.webhook

    async def elect(self) -> None:
        """Poll while this process holds the polling lease (several processes, one update
        stream): take it when free, renew it, stop polling once it could not be renewed
        in time (the database out of reach) or was lost."""
        name = self.lease
        assert name is not None
        service = self.wire.service
        owner = service.worker
        loop = asyncio.get_running_loop()
        held: float | None = None  # when the lease was last granted (loop time)
        while True:
            granted: bool | None
            try:
                granted = await asyncio.wait_for(service.lease(name, POLL_LEASE), POLL_RENEW)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # (TimeoutError too) held until it runs out here
                log.warning("telegram: the polling lease could not be renewed: %s", err)
                granted = None
            now = loop.time()
            if granted:
                held = now
            elif granted is False:
                held = None
            holding = held is not None and now - held < POLL_LEASE - POLL_RENEW
            try:
                if holding and not self.polling:
                    log.info("telegram: process %s polls for updates", owner)
                    await self.start_polling()
                elif not holding and self.polling:
                    log.info("telegram: process %s no longer holds the polling lease", owner)
                    await self.wire.app.updater.stop()  # type: ignore[union-attr]
            except asyncio.CancelledError:
                raise
            except Exception as err:  # (Telegram out of reach: tried again next round)
                log.warning("telegram: starting or stopping polling failed: %s", err)
            await asyncio.sleep(POLL_RENEW if holding else STANDBY_SECONDS)

    async def release(self) -> None:
        """Give the polling lease up (once polling stopped): a standby polls at once."""
        name, self.lease = self.lease, None
        if name is None:
            return
        try:
            await self.wire.service.release(name)
        except Exception as err:  # it runs out by itself
            log.warning("telegram: the polling lease could not be released: %s", err)
