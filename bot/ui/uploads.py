"""The life of a platform's card set (Discord's application emojis, Telegram's sticker
sets), written once: at start the set recorded in the database (``bot.ui.card_set``'s
``Uploads``) is used if the platform confirms it; else it is made in the background while
the cards are text, the platform's own list asked first, only what is missing uploaded,
each picture recorded as it is made. Processes sharing a database take turns (a lease,
taken through the service like the records: :class:`UploadService`):
one makes the set, the others wait for its record (checked against the platform, every
``poll`` seconds). A failure is retried every ``retry`` seconds, doubling up to six hours.

A platform says how (:class:`CardUploads`' hooks): ``make`` (holding the lease: list what
the platform has, upload what is missing, record), ``confirm`` (another process's record,
as the platform shows it), ``accept`` (a set still good to use), ``failed`` (say why).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import ClassVar, Protocol

from bot.ui.card_set import AssetRecords, Pictures, Uploads

__all__ = ["MAX_RETRY", "CardUploads", "UploadService"]

log = logging.getLogger(__name__)

MAX_RETRY = 6 * 3600.0  # the longest wait between two attempts
LEASE_SECONDS = 3600.0  # how long one process may hold the making of a set


class UploadService(AssetRecords, Protocol):
    """What a card set's making is given: the service (``Service.lease``,
    ``Service.release``, and the records of :class:`AssetRecords`), never the store."""

    async def lease(self, name: str, seconds: float, *, owner: str | None = None) -> bool:
        """Take or renew the lease ``name`` for ``owner`` (the service's process unless
        told) for ``seconds``; ``False`` if another holds it."""

    async def release(self, name: str, *, owner: str | None = None) -> None:
        """Give up the lease ``name`` if ``owner`` holds it."""


class CardUploads:
    """A platform's card set: ``pictures`` once complete (``None``: the cards are text),
    ``error`` why the last attempt failed. ``begin`` starts making it in the background,
    ``wait`` until it is made or failed once, ``stop`` cancels."""

    LEASE: ClassVar[str] = ""  # the lease processes take turns on
    NAME: ClassVar[str] = "uno-cards"  # the background task's
    # what a failed attempt may raise (retried later); anything else is a bug and ends it
    FAILURES: ClassVar[tuple[type[BaseException], ...]] = (Exception,)

    def __init__(
        self,
        service: UploadService,
        *,
        enabled: bool = True,
        worker: str | None = None,
        retry: float = 600.0,
        poll: float = 30.0,
    ) -> None:
        self.service = service
        self.enabled = enabled
        self.worker = worker  # who holds the lease (``None``: the service's process)
        self.retry = retry
        self.poll = poll
        self.pictures: Pictures | None = None
        self.error: str | None = None
        self._task: asyncio.Task[None] | None = None
        self._done = asyncio.Event()

    # -- the platform's part -----------------------------------------------------------------

    async def make(self, uploads: Uploads) -> Pictures:
        """Holding the lease: the set made complete on the platform, as recorded."""
        raise NotImplementedError

    async def confirm(self, uploads: Uploads) -> Pictures | None:
        """Another process's record, if complete and there (``None``: not yet)."""
        return uploads.pictures()

    def accept(self, pictures: Pictures) -> bool:
        """Whether ``pictures`` may be used now (``False``: attempted again at once)."""
        return True

    def failed(self, err: BaseException, delay: float) -> None:
        """Say why an attempt failed (tried again in ``delay`` seconds)."""
        log.warning("card set: not made (%s): trying again in %.0f s", err, delay)

    def ready(self, pictures: Pictures) -> None:
        """The set is complete and used from now on."""

    # -- the life cycle ----------------------------------------------------------------------

    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def done(self) -> None:
        """Nothing to make (disabled, or the set is complete): ``wait`` returns at once."""
        self._done.set()

    def begin(self, uploads: Uploads) -> None:
        """Make the set in the background (unless it is being made already)."""
        if self.running():
            return
        self._done.clear()
        self._task = asyncio.create_task(self._run(uploads), name=self.NAME)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def wait(self, timeout: float | None = None) -> Pictures | None:
        """Until the set is checked or made, or its making failed once."""
        await asyncio.wait_for(self._done.wait(), timeout)
        return self.pictures

    async def _run(self, uploads: Uploads) -> None:
        delay = self.retry
        try:
            while True:
                try:
                    pictures = await self._attempt(uploads)
                except self.FAILURES as err:
                    self.error = f"{type(err).__name__}: {err}"
                    self.failed(err, delay)  # (a set in use before stays in use)
                    self._done.set()
                    await asyncio.sleep(delay)
                    delay = min(delay * 2, MAX_RETRY)
                    continue
                if pictures is None:  # another process is making them: its record, later
                    await asyncio.sleep(self.poll)
                elif self.accept(pictures):
                    self.pictures = pictures
                    self.error = None
                    self.ready(pictures)
                    self._done.set()
                    return
                # (else not to be used as it is: attempted again at once)
        finally:
            self._done.set()

    async def _attempt(self, uploads: Uploads) -> Pictures | None:
        """The set as the platform confirms it: made complete here (holding the lease),
        else another process's record (``None``: not yet)."""
        leased = await self.service.lease(self.LEASE, LEASE_SECONDS, owner=self.worker)
        try:
            await uploads.load()  # (once leased: as the last process holding it left it)
            if leased:
                return await self.make(uploads)
            return await self.confirm(uploads)
        finally:
            if leased:
                with contextlib.suppress(Exception):
                    await self.service.release(self.LEASE, owner=self.worker)
