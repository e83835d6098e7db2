"""Components pressed: a button or select of the public table message or of a player's
private messages (hand, settings, kick), acknowledged at once, checked (its id, where it
is, the table's version) and turned into a service call."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from adapters.discord import ids, text, views
from adapters.discord.context import Context
from adapters.discord.hands import Hands
from adapters.discord.markup import admin, as_int, display_name, table_key
from adapters.discord.menus import MENU_ACTIONS, Menus
from adapters.discord.replies import Origin, Replies
from bot import render
from bot.model import OPEN_STATUSES, PLAYING
from bot.port import Notice
from bot.service import Result
from engine import Accept, Action, Challenge, Draw, NextRound, Pass

__all__ = ["HAND_ACTIONS", "Presses"]

# private actions on a hand message
HAND_ACTIONS = frozenset(
    {"play", "pick", "color", "pass", "page", "back", "draw", "uno", "catch", "challenge",
     "accept", "next", "cards"}
)  # fmt: skip


class Presses:
    """Every component interaction goes through :meth:`on_component`."""

    def __init__(self, ctx: Context, replies: Replies, hands: Hands, menus: Menus) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.replies = replies
        self.hands = hands
        self.menus = menus

    async def refuse_unknown(self, interaction: discord.Interaction[Any]) -> None:
        """A component id this bot never made."""
        self.ctx.gate.track()
        await self.replies.refuse_unknown(interaction)

    async def on_component(
        self,
        interaction: discord.Interaction[Any],
        custom_id: str,
        values: Sequence[str],
        *,
        select: bool,
    ) -> None:
        """A button press or a select choice on any of this bot's messages."""
        started = time.monotonic()
        gate = self.ctx.gate
        gate.track()
        if gate.closing:
            await self.replies.restarting(interaction)
            return
        cid = ids.parse(custom_id, select=select)
        if (
            cid is None
            or interaction.guild_id is None
            or interaction.channel_id != cid.table
            or (select and not values)
        ):
            await self.replies.refuse_unknown(interaction)
            return
        private = interaction.message is not None and interaction.message.flags.ephemeral
        try:
            # acknowledge within 3 s, before anything that may wait on the database
            if cid.action in ("hand", "settings") or (cid.action == "draw" and not private):
                answered = await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                answered = await interaction.response.defer()
            gate.acked(started)
            o = await self.replies.origin(interaction, answered)
            await self._route(o, cid, values, private)
        except Exception:
            await self.replies.fail(interaction)

    async def _route(
        self, o: Origin, cid: ids.CustomId, values: Sequence[str], private: bool
    ) -> None:
        """Each action only where this bot draws it: a table button on a private message,
        or a card on the public one, is forged."""
        key = table_key(cid.table)
        if private and cid.action in HAND_ACTIONS:
            await self._hand_action(o, key, cid, values)
        elif private and cid.action in MENU_ACTIONS:
            # on its own menu only: slipped into a hand message it would overwrite it
            menu = "kick" if cid.action == "kick" else "settings"
            if o.interaction.message is None or views.menu_of(o.interaction.message) != menu:
                await self.replies.forged(o)
            else:
                await self.menus.press(o, key, cid, values)
        elif not private and cid.action in ids.TABLE_ACTIONS:
            await self._table_action(o, key, cid)
        else:
            await self.replies.forged(o)

    async def _table_action(self, o: Origin, key: str, cid: ids.CustomId) -> None:
        """A button of the public table message."""
        svc, user, is_admin = self.service, o.player, admin(o.interaction)
        a = cid.action
        res: Result
        if a == "join":
            res = await svc.join(key, user, display_name(o.interaction), origin=o)
        elif a == "leave":
            res = await svc.leave(key, user, origin=o)
        elif a == "addbot":
            res = await svc.add_bot(key, user, "smart", admin=is_admin, origin=o)
        elif a == "start":
            res = await svc.start_game(key, user, admin=is_admin, origin=o)
        elif a == "settings":
            await self.menus.open_settings(o, key)
            return
        elif a in ("hand", "draw"):
            await self.open_hand(o, key, draw_version=cid.version if a == "draw" else None)
            return
        else:
            action = _table_button_action(cid, key)
            if action is None:
                await self.replies.forged(o)
                return
            res = await svc.act(key, user, action, seen_version=cid.version, origin=o)
        names: Mapping[str, str] = res.table.names if res.table is not None else {}
        await self.replies.follow(o, names)

    async def open_hand(self, o: Origin, key: str, *, draw_version: int | None = None) -> None:
        """Answer with the player's hand (a new ephemeral message: their hand message now).
        ``draw_version``: they pressed Draw on the table; draw first."""
        info = await self.service.table(key)
        if info is None or info.status not in OPEN_STATUSES:
            o.notices.append(Notice("no_table"))
            await self.replies.answer(o, None)
            return
        if await self.service.hand(key, o.player) is None:
            o.notices.append(Notice("not_a_player" if info.status == PLAYING else "not_started"))
            await self.replies.answer(o, None, names=info.names)
            return
        self.hands.sessions.adopt(info)  # the hand another process (or before a restart) drew
        s = self.hands.open(key, o.player, o.interaction, o.lang, o.answer)
        s.picking = None
        if draw_version is not None:
            res = await self.service.act(
                key, o.player, Draw(), seen_version=draw_version, origin=o
            )
            if res.table is not None:
                info = res.table
        await asyncio.wait({self.hands.queue(s, force=True)})  # (cancelled when stopping)
        token = o.interaction.token
        if token not in (s.drawn, s.token):
            # another press took the hand message over meanwhile (a double click, Show hand
            # and Draw at once): this answer, deferred as "thinking", says where it went, or
            # it would think forever
            await self.hands.edits.empty(o.interaction, o.tr.gettext(text.REPLACED))
        elif s.drawn != token:
            # the drawing failed: this answer still gets the hand
            await self.hands.answer(o.interaction, s)
        await self.replies.follow(o, info.names)

    async def _hand_action(
        self, o: Origin, key: str, cid: ids.CustomId, values: Sequence[str]
    ) -> None:
        """A button or select of a hand message: it becomes the live hand message. One
        of a game that is over, or an older hand message than the live one (its emptying
        failed, or this press raced it), is emptied by this press, and said to be so."""
        info = await self.service.table(key)
        if info is None or info.status != PLAYING:
            # its last edit could not reach it (the token had run out): this press can
            await o.interaction.edit_original_response(view=None)
            o.notices.append(Notice("no_table" if info is None else "game_over"))
            await self.replies.follow(o)
            return
        self.hands.sessions.adopt(info)  # the hand another process (or before a restart) drew
        pressed = _pressed(o.interaction)
        live = self.hands.sessions.get(key, o.player)
        if live is not None and live.message not in (None, pressed):
            line = o.tr.gettext(text.EXPIRED, hand=render.button_label("hand", o.tr))
            await self.hands.edits.empty(o.interaction, line)
            return
        s = self.hands.open(key, o.player, o.interaction, o.lang, pressed)
        action: Action | None = None
        a = cid.action
        if a == "page":
            s.page = as_int(cid.arg) or 0
        elif a == "back":
            s.picking = None
        elif a in ("pick", "cards"):
            group = values[0] if a == "cards" else cid.arg
            legal = await self.service.legal(key, o.player)
            plays = views.uno_plays(group, legal)  # "R5!": R5 calling UNO with it
            if len(plays) == 1:
                action = plays[0]
            elif plays:
                s.picking = group
            else:
                o.notices.append(Notice("stale"))
        else:
            action = _hand_button_action(cid, key)
            if action is None:
                await self.replies.forged(o)
                return
        names: Mapping[str, str] = {}
        if action is not None:
            s.picking = None
            res = await self.service.act(key, o.player, action, seen_version=cid.version, origin=o)
            if res.table is not None:
                names = res.table.names
        await self.hands.queue(s, force=True)
        await self.replies.follow(o, names)


def _table_button_action(cid: ids.CustomId, key: str) -> Action | None:
    if cid.action == "challenge":
        return Challenge()
    if cid.action == "accept":
        return Accept()
    if cid.action == "next":
        return NextRound()
    return ids.decode_action(cid, key)


def _hand_button_action(cid: ids.CustomId, key: str) -> Action | None:
    if cid.action == "draw":
        return Draw()
    if cid.action == "pass":
        return Pass()
    return _table_button_action(cid, key)


def _pressed(interaction: discord.Interaction[Any]) -> int | None:
    """The private message whose component ``interaction`` is (its original response
    edits that message), else ``None`` (its answer is a new message)."""
    msg = interaction.message
    if (
        interaction.type is discord.InteractionType.component
        and msg is not None
        and msg.flags.ephemeral
    ):
        return msg.id
    return None
