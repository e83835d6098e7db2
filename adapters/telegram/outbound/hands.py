"""Private hands: a player's hand message in their private chat, with a button for every
legal move, edited in place as the game goes on (the players who play from inline mode
only have none). Its id is kept in the table's data (``dm<user>``), so that another
process, or this one after a restart, edits the same message."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from telegram import InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden

from adapters.telegram import widgets
from adapters.telegram.chats import Chats
from adapters.telegram.common import Wire, gone
from adapters.telegram.ids import chat_of, player_id, user_of
from adapters.telegram.outbound.replies import Messages
from adapters.telegram.text import notice_text
from bot import policy
from bot.port import Notice, TableInfo
from bot.ui import render
from bot.ui.i18n import Translator
from engine import CardsDrawn, ChallengeResolved, Event, HandsRotated, HandsSwapped, View

__all__ = ["Hands"]

log = logging.getLogger(__name__)

PRIVATE_RECENT = 3  # the player's own events kept as lines on their hand message


class Hands:
    """The private hand messages of one adapter."""

    def __init__(self, wire: Wire, chats: Chats, messages: Messages) -> None:
        self.wire = wire
        self.chats = chats
        self.messages = messages
        # (table, user) -> private hand message; entries go when the table closes
        self.dm: dict[tuple[str, int], int] = {}
        self.private: dict[tuple[str, int], deque[Event]] = {}

    def adopt(self, key: str, meta: Mapping[str, Any], *, newer: bool = False) -> None:
        """The hand messages a table's data names (after a restart; ``newer``: on a shared
        store, where another process may have sent a new one)."""
        for name, value in meta.items():
            if name.startswith("dm") and name[2:].isdigit() and isinstance(value, int):
                if newer:
                    self.dm[(key, int(name[2:]))] = value
                else:
                    self.dm.setdefault((key, int(name[2:])), value)

    def refresh(self, key: str) -> None:
        """Every hand message at table ``key`` again (they show whose turn it is, and their
        buttons carry the version)."""
        for k, uid in [k for k in self.dm if k[0] == key]:
            self.queue_hand(k, uid)

    def closed(self, table: TableInfo) -> None:
        """The table ended: the hands of its players lose their buttons; the hands of
        players who left before are forgotten."""
        seated = set()
        for s in table.seats:
            uid = user_of(s.id)
            if uid is not None and self.dm_message(table, uid) is not None:
                seated.add(uid)
                self.queue_hand(table.key, uid)
        for k in [k for k in self.dm if k[0] == table.key and k[1] not in seated]:
            del self.dm[k]
        for k in [k for k in self.private if k[0] == table.key and k[1] not in seated]:
            del self.private[k]

    def move(self, old_key: str, new_key: str) -> None:
        """A table moved to another key (a group became a supergroup)."""
        for k in [k for k in self.dm if k[0] == old_key]:
            self.dm[(new_key, k[1])] = self.dm.pop(k)
        for k in [k for k in self.private if k[0] == old_key]:
            self.private[(new_key, k[1])] = self.private.pop(k)

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        """Refresh the private-chat hand of a player who plays from there."""
        uid = user_of(player)
        if uid is None:
            return
        mid = self.dm_message(table, uid)
        if mid is None:
            return  # plays through inline mode only
        mine = [e for e in events if _private_interest(e, player)]
        if mine:
            self.private.setdefault((table.key, uid), deque(maxlen=PRIVATE_RECENT)).extend(mine)
        self.queue_hand(table.key, uid)

    def dm_message(self, table: TableInfo, uid: int) -> int | None:
        mid = self.dm.get((table.key, uid))
        if mid is None:
            stored = table.meta.get(f"dm{uid}")
            if isinstance(stored, int):
                mid = self.dm[(table.key, uid)] = stored
        return mid

    def queue_hand(self, key: str, uid: int) -> None:
        if self.wire.outbox is None or not self.chats.can_message(uid):
            return

        async def job() -> None:
            try:
                await self.send_hand(key, uid)
            except Forbidden as err:  # blocked the bot since: their hand waits for /hand
                self.chats.cannot_message(uid, err)

        self.wire.outbox.put(uid, ("hand", key), job)

    async def _hand_view(
        self, info: TableInfo, uid: int, tr: Translator
    ) -> tuple[str, InlineKeyboardMarkup | None, bool]:
        key = info.key
        player = player_id(uid)
        view = await self.wire.service.hand(key, player)
        legal = await self.wire.service.legal(key, player)
        events = self.private.get((key, uid), ())
        lines = render.event_lines(events, tr, info.names)
        title = self.chats.titles.get(chat_of(key)[0])
        web = self.wire.web_app(key) if view is not None and info.status == "playing" else None
        text, markup = widgets.hand_message(info, view, legal, tr, lines, title, web=web)
        return text, markup, view is not None

    def remember_dm(self, key: str, uid: int, message_id: int) -> None:
        self.dm[(key, uid)] = message_id

    async def send_hand(self, key: str, uid: int, *, new: bool = False) -> int | None:
        """Edit ``uid``'s private hand message for table ``key`` (``new``: send one and
        follow the game there from now on)."""
        info = await self.wire.service.table(key)
        tr = await self.chats.user_tr(uid)
        if info is None:
            if new:
                await self.wire.bot.send_message(uid, notice_text(Notice("no_table"), tr))
            return None
        text, markup, seated = await self._hand_view(info, uid, tr)
        if not seated:
            if new:
                await self.wire.bot.send_message(uid, text)
            if not policy.is_open(info):  # left before the end: nothing more to show
                self.dm.pop((key, uid), None)
                self.private.pop((key, uid), None)
            return None
        mid = None if new else self.dm.get((key, uid))
        if self.wire.shared and not new:
            stored = info.meta.get(f"dm{uid}")  # (another process may have sent a new one)
            if isinstance(stored, int) and not isinstance(stored, bool):
                mid = self.dm[(key, uid)] = stored
        if mid is not None:
            try:
                await self.messages.edit_text(uid, mid, text, markup, force=self.wire.shared)
            except BadRequest as err:
                if not gone(err):
                    raise
                mid = None
            else:
                if self.wire.shared:  # a newer version meanwhile: another process's edit of it
                    now = await self.wire.service.table(key)  # may have landed before this one
                    if now is not None and now.version > info.version:
                        self.queue_hand(key, uid)
        if mid is None:
            msg = await self.wire.bot.send_message(uid, text, reply_markup=markup)
            mid = int(msg.message_id)
            self.messages.sent(uid, mid, text, markup)
            self.dm[(key, uid)] = mid
            if policy.is_open(info):
                await self.wire.service.set_meta(key, **{f"dm{uid}": mid})
        if not policy.is_open(info) and self.dm.get((key, uid)) == mid:
            del self.dm[(key, uid)]  # the table ended: this message is final
            self.private.pop((key, uid), None)
        return mid


def _private_interest(e: Event, player: str) -> bool:
    """Events worth a line on a private hand: the player's own draws (with the cards),
    swaps, and a challenged hand they were shown."""
    if isinstance(e, CardsDrawn):
        return e.player == player and bool(e.cards)
    if isinstance(e, HandsSwapped):
        return player in (e.player, e.target)
    if isinstance(e, HandsRotated):
        return True
    if isinstance(e, ChallengeResolved):
        return e.hand is not None
    return False
