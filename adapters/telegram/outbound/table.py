"""Each table's public message, and the announcements made as group messages of their own.

A table has one message, edited in place (a new game gets a new one); its edits are
queued in the chat's outbox lane and coalesced, and drawn when they run. Round and game
results (and a kick during a game) are news: a group message of their own, sent before the
table edits waiting in the lane.

What the chat has seen is reported to the service (``Service.shown``, see ``bot.port``):
once a table edit is out, and the announcements made up to its version (taken from
``TableInfo.pending``, so that none is lost or made twice), the turn, challenge and
UNO-catch windows that edit shows count from then, not from the commit seconds earlier.

Several processes on one database (a shared store): nothing a process remembers is the only
copy of what another needs: a table is drawn as stored when its edit runs, its message is
the one the table's data names (``tg_msg``), a new one is sent by the process that claims
it in the table's data (``tg_sending``), the announcements likewise (``tg_saying``;
``tg_said``: made up to that version), and an edit that landed after another process's
newer one is drawn again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from telegram.error import BadRequest

from adapters.telegram import widgets
from adapters.telegram.common import INTERACTIVE, MEMORY, Lru, Wire, gone
from adapters.telegram.ids import chat_of
from adapters.telegram.outbound.hands import Hands
from adapters.telegram.outbound.replies import Messages
from adapters.telegram.text import notice_text
from bot.model import LOBBY, Pending
from bot.port import NEWS as PORT_NEWS
from bot.port import Notice, TableInfo
from bot.ui import render
from bot.ui.i18n import N_, translator
from engine import Event

__all__ = ["NEWS", "QUIET_IN_LOBBY", "RESUMED", "Slot", "Tables"]

log = logging.getLogger(__name__)

# notices worth a new group message; the rest become lines on the table message. Beside
# what every platform announces (``bot.port.NEWS``), a player removed by the host or an
# admin: in a group the table edit may wait for the pacing, the removal is said at once
# (not in the lobby, where the seat list says it: ``QUIET_IN_LOBBY``)
NEWS = PORT_NEWS | {"info.kicked"}
QUIET_IN_LOBBY = frozenset({"info.left", "info.kicked", "info.new_host"})
# the last line of a table message shown again after a crash (until the next change)
RESUMED = N_(
    "♻️ I was restarted: every move is kept. A command that got no answer may be sent again."
)
# a send only one process may make (a table's new message, its announcements) is claimed
# in the table's data for CLAIM_SECONDS; one that finds another's claim looks again after
# CLAIM_RETRY (divided by the limits' scale)
CLAIM_SECONDS = 10.0
CLAIM_RETRY = 1.0


@dataclass(eq=False)
class Slot:
    """One table's public message (a new slot per table: a new game gets a new message)."""

    key: str
    chat: int
    thread: int | None
    n: int
    info: TableInfo
    msg_id: int | None
    final: bool = False
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)  # one send or edit at once
    # versions: of the table message on screen, of the last announcements sent, of the last
    # report to the service (``Service.shown``); the version shown again after a restart
    displayed: int = 0
    announced: int = 0
    reported: int = 0
    resumed: int | None = None
    # which table it is (``TableInfo.created``: a new table at the chat is another slot)
    created: float = 0.0
    # on a shared store: an edit of this process's landed after a newer one (it drew the
    # table before another process's change): draw it again even if shown since
    redraw: bool = False


class Tables:
    """The table messages and announcements of one adapter (a :class:`Slot` per table)."""

    def __init__(self, wire: Wire, messages: Messages, hands: Hands) -> None:
        self.wire = wire
        self.messages = messages
        self.hands = hands
        # bounded: an evicted table slot is made again from the table's meta (``tg_msg``)
        self.slots: Lru[str, Slot] = Lru(MEMORY)
        self._slot_no = 0

    def names(self, key: str) -> dict[str, str]:
        """The names at table ``key`` as last shown (for a notice naming a player)."""
        slot = self.slots.get(key)
        return slot.info.names if slot is not None else {}

    def slot(self, info: TableInfo) -> Slot:
        slot = self.slots.get(info.key)
        if slot is None or slot.final or slot.created != info.created:
            chat, thread = chat_of(info.key)
            self._slot_no += 1
            msg = info.meta.get("tg_msg")
            slot = Slot(
                info.key,
                chat,
                thread,
                self._slot_no,
                info,
                msg if isinstance(msg, int) else None,
                created=info.created,
            )
            # what the service knows was shown: its announcements up to there are made
            slot.displayed = slot.announced = slot.reported = info.shown
            self.slots[info.key] = slot
            self.hands.adopt(info.key, info.meta)  # private hands, after a restart
        if self.wire.shared:
            self._learn(slot, info)
        return slot

    def _learn(self, slot: Slot, info: TableInfo) -> None:
        """On a shared store: what the table's data says, another process may have written
        it (the table message, the announcements made, the private hand messages)."""
        if info.created != slot.created:
            return
        meta = info.meta
        msg = meta.get("tg_msg")
        if isinstance(msg, int) and not isinstance(msg, bool):
            slot.msg_id = msg
        slot.announced = max(slot.announced, _said(info))
        self.hands.adopt(info.key, meta, newer=True)

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        """Queue one coalesced edit of the table message."""
        slot = self.slot(table)
        if not self.wire.shared or table.version >= slot.info.version:
            slot.info = table  # its recent lines included (kept with the table)
        self._queue_table(slot)
        # private hands show whose turn it is and carry the version: refresh them all
        self.hands.refresh(table.key)
        if self.wire.shared and self._unannounced(slot):
            # announcements another process made, or died before making: claimed, so
            # they are made once
            self.queue_news(slot)

    def _queue_table(self, slot: Slot) -> None:
        if self.wire.outbox is None:
            return

        async def job() -> None:
            await self._send_table(slot)

        self.wire.outbox.put(slot.chat, ("table", slot.n), job, urgent=INTERACTIVE.get())

    async def _send_table(self, slot: Slot) -> None:
        # one at a time: after a chat moved, its old lane and its new one may both hold
        # this table's edit, and only one may send the new table message
        async with slot.sending:
            if self.wire.shared:
                await self._send_table_shared(slot)
            else:
                await self._send_table_now(slot)

    async def _send_table_now(self, slot: Slot) -> None:
        info = slot.info
        tr = translator(info.lang)
        recent = render.recent_lines(info, tr)
        if slot.resumed == info.version:
            recent.append(tr.gettext(RESUMED))
        text, markup = widgets.table_message(
            info, tr, recent, self.wire.username, web=self.wire.web_link(info.key)
        )
        if slot.msg_id is not None:
            try:
                await self.messages.edit_text(slot.chat, slot.msg_id, text, markup)
                await self._displayed(slot, info)
                return
            except BadRequest as err:
                if not gone(err):
                    raise
                log.info("table message of %s is gone (%s): sending it again", slot.key, err)
        msg = await self.wire.bot.send_message(
            slot.chat, text, reply_markup=markup, message_thread_id=slot.thread
        )
        self.messages.sent(slot.chat, msg.message_id, text, markup)
        slot.msg_id = msg.message_id
        if not slot.final:
            await self.wire.service.set_meta(slot.key, tg_msg=msg.message_id)
        await self._displayed(slot, info)

    async def _displayed(self, slot: Slot, info: TableInfo) -> None:
        slot.displayed = max(slot.displayed, info.version)
        await self._report(slot)

    # -- several processes on one database: the shared path -------------------------------

    async def _send_table_shared(self, slot: Slot) -> None:
        """The table message when other processes show the same tables: any of them may
        have changed the table since this edit was queued, sent its message, or edited
        it. So the table is drawn as stored now; its message is the one its data names
        (``tg_msg``), and a new one is sent by one process only (claimed in the table's
        data); and an edit that lands after another process's newer one is drawn again:
        the message ends on the newest version, whoever edited last."""
        info = await self._newest(slot)
        if info is None:
            return  # another table at the chat now: this one's last edit is not ours
        if info.shown >= info.version and not slot.redraw:
            slot.displayed = max(slot.displayed, info.shown)
            return  # on screen already (another process showed it)
        slot.redraw = False
        tr = translator(info.lang)
        recent = render.recent_lines(info, tr)
        if slot.resumed == info.version:
            recent.append(tr.gettext(RESUMED))
        text, markup = widgets.table_message(
            info, tr, recent, self.wire.username, web=self.wire.web_link(info.key)
        )
        mid = slot.msg_id
        if mid is not None:
            try:
                # whatever this process last sent there, another may have edited it since
                await self.messages.edit_text(slot.chat, mid, text, markup, force=True)
            except BadRequest as err:
                if not gone(err):
                    raise
                log.info("table message of %s is gone (%s): sending it again", slot.key, err)
                created = slot.created
                await self.wire.service.change_meta(
                    slot.key,
                    lambda i: (
                        {"tg_msg": None}
                        if i.created == created and i.meta.get("tg_msg") == mid
                        else None
                    ),
                )
                slot.msg_id = None
            else:
                await self._displayed(slot, info)
                await self._recheck(slot, info)
                return
        granted, stored = await self._claim(slot, "tg_sending", _has_message)
        if not granted:
            if stored is not None and stored.created == slot.created and _has_message(stored):
                self._learn(slot, stored)
                self._queue_table(slot)  # sent by another process meanwhile: edit it
            elif stored is not None and stored.created == slot.created:
                self._later(self._queue_table, slot)  # another process is sending it
            return
        msg = await self.wire.bot.send_message(
            slot.chat, text, reply_markup=markup, message_thread_id=slot.thread
        )
        self.messages.sent(slot.chat, msg.message_id, text, markup)
        slot.msg_id = mid = msg.message_id
        created = slot.created
        await self.wire.service.change_meta(
            slot.key,
            lambda i: {"tg_msg": mid, "tg_sending": None} if i.created == created else None,
        )
        await self._displayed(slot, info)
        await self._recheck(slot, info)

    async def _newest(self, slot: Slot) -> TableInfo | None:
        """Slot's table as stored now (``None``: another table took its chat, and this
        process did not close this one: another did, and showed it closed)."""
        info = await self.wire.service.table(slot.key)
        if info is None or info.created != slot.created:
            return slot.info if slot.final else None
        if info.version >= slot.info.version:
            slot.info = info
        self._learn(slot, info)
        return slot.info

    async def _recheck(self, slot: Slot, drawn: TableInfo) -> None:
        """After an edit: a newer version stored meanwhile (another process's change, whose
        own edit may have landed first) is drawn again."""
        info = await self.wire.service.table(slot.key)
        if info is not None and info.created == slot.created and info.version > drawn.version:
            slot.redraw = True
            self._queue_table(slot)

    async def _claim(
        self, slot: Slot, name: str, done: Callable[[TableInfo], bool]
    ) -> tuple[bool, TableInfo | None]:
        """Claim, in the table's data (entry ``name``), a send only one process may make,
        unless ``done`` says it is made: granted unless another process's claim holds
        (for ``CLAIM_SECONDS``: one that died is taken over then). Returns whether it was
        granted, and the table as stored."""
        me = self.wire.service.worker
        granted = False

        def decide(info: TableInfo) -> dict[str, Any] | None:
            nonlocal granted
            granted = False
            if info.created != slot.created or done(info):
                return None
            held = info.meta.get(name)
            now = time.time()
            if (
                isinstance(held, list)
                and len(held) == 2
                and held[0] != me
                and isinstance(held[1], int | float)
                and held[1] > now
            ):
                return None
            granted = True
            return {name: [me, now + CLAIM_SECONDS]}

        stored = await self.wire.service.change_meta(slot.key, decide)
        return granted, stored

    def _later(self, queue: Callable[[Slot], None], slot: Slot) -> None:
        """``queue(slot)`` again in a moment (another process holds what it needs)."""
        loop = asyncio.get_running_loop()
        loop.call_later(CLAIM_RETRY / self.wire.limits.scale, queue, slot)

    async def _send_news_shared(self, slot: Slot) -> None:
        """The announcements not made yet, when other processes show the same tables: made
        by the process that claims them (``tg_saying``), noted made in the table's data
        (``tg_said``: the version they were made up to), so that each is made once."""
        info = await self._newest(slot)
        if info is None:
            return
        news = self._unannounced(slot)
        if not news:
            return
        top = max(p.version for p in news)
        granted, stored = await self._claim(slot, "tg_saying", lambda i: _said(i) >= top)
        if not granted:
            if stored is None or stored.created != slot.created:
                if not slot.final:
                    return  # (another table at the chat: this one was another's to close)
                # this process closed it and another table came at once: no claim to make
            elif _said(stored) >= top:  # made by another process
                self._learn(slot, stored)
                await self._report(slot)
                return
            else:
                self._later(self.queue_news, slot)  # being made by another process
                return
        elif stored is not None and stored.version >= slot.info.version:
            slot.info = stored  # (newer announcements may have come meanwhile)
        news = self._unannounced(slot)
        if not news:
            return
        top = max(p.version for p in news)
        tr = translator(slot.info.lang)
        names = slot.info.names
        body = "\n".join(notice_text(Notice(p.code, p.params), tr, names) for p in news)
        await self.wire.bot.send_message(slot.chat, body, message_thread_id=slot.thread)
        slot.announced = max(slot.announced, top)
        created = slot.created
        await self.wire.service.change_meta(
            slot.key,
            lambda i: (
                {"tg_said": max(_said(i), top), "tg_saying": None}
                if i.created == created
                else None
            ),
        )
        await self._report(slot)

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        """Round and game results as a new group message; the rest on the table message."""
        slot = self.slot(table)
        if table.status == LOBBY and notice.code in QUIET_IN_LOBBY:
            self._queue_table(slot)  # the seat list says it
            return
        if notice.code not in NEWS:
            self._queue_table(slot)  # one of its recent lines (``on_table``)
            return
        if table.version >= slot.info.version:
            slot.info = table  # its pending announcements include this one
        self.queue_news(slot)

    def _is_news(self, p: Pending) -> bool:
        """A pending announcement this adapter makes as a group message of its own."""
        return p.code in NEWS and not (p.status == LOBBY and p.code in QUIET_IN_LOBBY)

    def _unannounced(self, slot: Slot) -> list[Pending]:
        return [p for p in slot.info.pending if p.version > slot.announced and self._is_news(p)]

    def queue_news(self, slot: Slot) -> None:
        """One group message for the announcements not made yet (the table's ``pending``:
        also those a crash kept from being made)."""
        if self.wire.outbox is None:
            return

        async def job() -> None:
            if self.wire.shared:
                await self._send_news_shared(slot)
                return
            news = self._unannounced(slot)
            if not news:
                return
            info = slot.info
            tr = translator(info.lang)
            body = "\n".join(notice_text(Notice(p.code, p.params), tr, info.names) for p in news)
            await self.wire.bot.send_message(slot.chat, body, message_thread_id=slot.thread)
            slot.announced = max(slot.announced, *(p.version for p in news))
            await self._report(slot)

        # a result goes before the table edits waiting in the chat's lane (issue 11)
        self.wire.outbox.put(slot.chat, ("news", slot.n), job, first=True)

    async def _report(self, slot: Slot) -> None:
        """Tell the service what the chat has seen of the table: the message on screen,
        the announcements up to it made (``Service.shown``: its windows count from now)."""
        upto = slot.displayed
        waiting = self._unannounced(slot)
        if waiting:
            upto = min(upto, min(p.version for p in waiting) - 1)
        if upto <= slot.reported:
            return
        slot.reported = upto
        try:
            await self.wire.service.shown(slot.key, upto)
        except Exception as err:  # a courtesy to the timers: never the reason a send fails
            log.warning("table %s: could not note version %d shown: %s", slot.key, upto, err)

    def on_table(self, key: str, status: str, notice: Notice) -> bool:
        """A notice the table message shows among its recent lines (kept with the table):
        not news of its own, and not what the lobby's seat list says already."""
        return notice.code not in NEWS and not (status == LOBBY and notice.code in QUIET_IN_LOBBY)

    async def closed(self, table: TableInfo) -> None:
        """The table ended: a last edit without buttons; private hands lose theirs. The
        hands of players who left before are forgotten."""
        slot = self.slot(table)
        slot.info = table
        slot.final = True
        self._queue_table(slot)
        self.hands.closed(table)


def _said(info: TableInfo) -> int:
    """The version a table's announcements were made up to (in its data, on a shared store;
    those up to the version shown are made too)."""
    said = info.meta.get("tg_said")
    if isinstance(said, int) and not isinstance(said, bool):
        return max(info.shown, said)
    return info.shown


def _has_message(info: TableInfo) -> bool:
    """The table's message was sent (its id is in the table's data)."""
    msg = info.meta.get("tg_msg")
    return isinstance(msg, int) and not isinstance(msg, bool)
