"""Chats owed replies: what a kill would leave unanswered, said after the restart.

A reply to a command (``/rules``, ``/stats``...) waits in its chat's outbox lane, paced (a
group gets 20 messages a minute); the outbox is memory, so a kill loses what waits there,
and a command that changes nothing leaves no other trace: nobody would learn that it went
unanswered. So while a chat has replies queued and not sent, the database says so
(``Store.unsent``: a row per chat, held by this process, its time moved on as they go out
on a shared store); the last one sent clears it. After a restart, each chat still marked
by a process that is gone is told once that a command may need sending again
(:data:`NOTICE`, itself a reply owed until it is sent), unless its table message says it
already (``tables.RESUMED``, on a table shown again). On a shared store the processes
alive keep their marks moving; one unmoved for :data:`STALE_SECONDS` is a dead process's,
and the sweep that looks for unshown tables takes it (one process only).

A mark not written (the database down) costs that notice; a clear not written, one
notice too many after a restart: neither is the reason a reply fails.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from adapters.telegram.common import Wire
from bot.store import Unsent
from bot.ui.i18n import N_

__all__ = ["NOTICE", "STALE_SECONDS", "Owed"]

log = logging.getLogger(__name__)

NOTICE = N_("♻️ I was restarted: a command that got no answer may be sent again.")
# on a shared store: a chat's mark that has not moved for this long is a dead process's
# (a live one moves it with every reply sent; a group's replies go seconds apart)
STALE_SECONDS = 120.0


class Owed:
    """The chats this process owes replies (chat keys: ``tg:<chat>[:<topic>]``), and their
    marks in the database (written one batch at a time, in order, by one task)."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self._owed: dict[str, int] = {}  # chat -> replies queued and not sent
        self._marked: set[str] = set()  # chats marked in the database as this process's
        self._moved: set[str] = set()  # marks to move on (a reply of several sent)
        self._dirty: set[str] = set()  # chats whose mark may differ from what they owe
        self._writer: asyncio.Task[None] | None = None

    def owe(self, chat: str) -> None:
        """A reply to ``chat`` is queued."""
        self._owed[chat] = self._owed.get(chat, 0) + 1
        self._sync(chat)

    def paid(self, chat: str) -> None:
        """A reply to ``chat`` went out (or failed for good: nothing to owe then)."""
        left = self._owed.get(chat, 0) - 1
        if left > 0:
            self._owed[chat] = left
            if self.wire.shared:  # alive: the mark moves on (see ``STALE_SECONDS``)
                self._moved.add(chat)
        else:
            self._owed.pop(chat, None)
        self._sync(chat)

    def release(self, chat: str) -> None:
        """Nothing more to say to ``chat`` (a mark taken, its chat told otherwise): its mark
        goes unless a reply is owed there again."""
        self._sync(chat)

    def _sync(self, chat: str) -> None:
        if (chat in self._owed) == (chat in self._marked) and chat not in self._moved:
            return
        self._dirty.add(chat)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write(), name="tg-unsent")

    async def _write(self) -> None:
        service = self.wire.service
        while self._dirty:
            chats, self._dirty = sorted(self._dirty), set()
            now = time.time()
            marks: list[Unsent] = []
            for chat in chats:
                owed = chat in self._owed
                if owed and (chat not in self._marked or chat in self._moved):
                    marks.append(Unsent(chat, service.worker, now))
                    self._marked.add(chat)
                elif not owed and chat in self._marked:
                    marks.append(Unsent(chat, service.worker, None))
                    self._marked.discard(chat)
                self._moved.discard(chat)
            if not marks:
                continue
            try:
                await service.mark_unsent(marks)
            except Exception as err:  # a courtesy: the replies go out all the same
                log.warning("telegram: chats owed replies not noted: %s", err)

    async def noted(self) -> None:
        """Wait until the marks asked for so far are written: a reply goes once its chat is
        noted as owed, so that a kill just after it finds the chat marked."""
        writer = self._writer
        if writer is not None and not writer.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(writer)

    async def settle(self, timeout: float = 5.0) -> None:
        """Wait until the marks are written (a stop: before the database closes)."""
        writer = self._writer
        if writer is not None and not writer.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(writer), timeout)

    async def take(self, prefix: str, *, scale: float = 1.0) -> list[str]:
        """The chats another process owed replies when it died: taken (marked this
        process's, until told), each by one process. On a store of its own, every one
        (this process has just started); on a shared store, those whose mark has not
        moved for ``STALE_SECONDS``."""
        service = self.wire.service
        now = time.time()
        before = now - STALE_SECONDS / scale if self.wire.shared else now
        try:
            taken = await service.take_unsent(prefix, before, now)
        except Exception as err:
            log.warning("telegram: chats owed replies not read: %s", err)
            return []
        for u in taken:
            self._marked.add(u.chat)
        return [u.chat for u in taken]
