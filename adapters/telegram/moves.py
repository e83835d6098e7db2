"""A group upgraded to a supergroup gets a new chat id: told by a service message or by a
send that fails with ``ChatMigrated``, the adapter moves the chat's tables to the new id
(:meth:`Service.move_scope`) and sends each open table afresh in the new chat; the buttons
and inline results still naming the old chat follow it there (:meth:`Moves.current_key`,
also after a restart: the table's data keeps the old chat, ``tg_from``)."""

from __future__ import annotations

import logging
from typing import Any

from adapters.telegram.chats import Chats
from adapters.telegram.common import Lru, Wire
from adapters.telegram.ids import chat_of, key_of, scope_of
from adapters.telegram.outbound.hands import Hands
from adapters.telegram.outbound.table import Tables
from bot import policy

__all__ = ["Moves"]

log = logging.getLogger(__name__)


class Moves:
    """The groups that became supergroups (``moved``: old id -> new id)."""

    def __init__(
        self, wire: Wire, chats: Chats, tables: Tables, hands: Hands, moved: Lru[int, int]
    ) -> None:
        self.wire = wire
        self.chats = chats
        self.tables = tables
        self.hands = hands
        self.moved = moved

    async def remember(self, prefix: str) -> None:
        """After a restart: the groups whose open tables moved to a supergroup."""
        for key in self.wire.service.open_tables():
            if not key.startswith(prefix + ":"):
                continue
            info = await self.wire.service.table(key)
            old = info.meta.get("tg_from") if info is not None else None
            if isinstance(old, int) and not isinstance(old, bool):
                self.moved[old] = chat_of(key)[0]

    def current_key(self, key: str) -> str:
        """The table key now, for a key naming a group that became a supergroup (the
        buttons of private hands, inline results and deep links made before)."""
        try:
            chat, thread = chat_of(key)
        except ValueError:
            return key
        new = self.moved.get(chat)
        return key if new is None else key_of(new, thread)

    async def migrate(self, old: int, new: int) -> None:
        """Group ``old`` is supergroup ``new`` now: move its tables there and show each
        open one afresh (the old chat's messages cannot be edited any more). Called for
        both service messages and for every send that fails with ``ChatMigrated``: once
        moved, the next calls find nothing to do."""
        if old == new:
            return
        self.moved[old] = new
        title = self.chats.titles.get(old)
        if title is not None and new not in self.chats.titles:
            self.chats.titles[new] = title
        moved = await self.wire.service.move_scope(
            scope_of(old),
            scope_of(new),
            lambda k: key_of(new, chat_of(k)[1]),
            meta=lambda m: _fresh(m, old),
        )
        self.chats.forget_chat_lang(old, new)  # the old chat's language may have moved
        if self.wire.outbox is not None:
            self.wire.outbox.move(old, new)  # what waits for the old chat: one lane, one table
        for old_key, info in moved.items():
            slot = self.tables.slots.pop(old_key, None)
            self.hands.move(old_key, info.key)
            if not policy.is_open(info):
                continue
            if slot is not None and not slot.final:
                # the same slot, in the new chat: what it still has to say (announcements
                # not made yet, the recent lines: the table's own) goes there, on a new
                # table message
                slot.key, slot.chat, slot.msg_id, slot.info = info.key, new, None, info
                self.tables.slots[info.key] = slot
            await self.tables.show_table(info, [])
        if moved:
            log.info("telegram: group %s is supergroup %s now: %d tables moved",
                     old, new, len(moved))  # fmt: skip


def _fresh(meta: dict[str, Any], old_chat: int) -> dict[str, Any]:
    """A moved table's adapter data: its table message was in the old chat (private hand
    messages stay where they are); ``tg_from`` remembers the old chat, so that buttons,
    inline queries and deep links naming it still find the table after a restart."""
    out = {k: v for k, v in meta.items() if k != "tg_msg"}
    out["tg_from"] = old_chat
    return out
