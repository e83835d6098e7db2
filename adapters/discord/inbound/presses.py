"""Components pressed: a button or select of the public table message or of a player's
private messages (hand, settings, kick). Each is read into one intent (``ids.read``: the
codec, or an id posted before it), acknowledged at once, checked (its table, the message
it is on) and handed to the one handler of its intent type, which calls the service."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import discord

from adapters.discord import ids, text, widgets
from adapters.discord.context import Context
from adapters.discord.markup import admin, as_int, display_name, table_key
from adapters.discord.outbound.hands import Hands
from adapters.discord.outbound.menus import Menus
from adapters.discord.outbound.replies import Origin, Replies
from bot import policy
from bot.model import PLAYING
from bot.port import Notice
from bot.ui.intents import (
    Act,
    AddBot,
    Autopilot,
    Back,
    CloseSettings,
    DecodeRefusal,
    Intent,
    Join,
    Kick,
    LeaveTable,
    OpenHand,
    OpenSettings,
    Page,
    Pick,
    Press,
    Refresh,
    SetFlag,
    SetPreset,
    Start,
    VoteEnd,
)
from bot.ui.press import press
from engine import Action, Draw, Pass, Play

__all__ = ["Presses"]

_BUTTON = discord.ComponentType.button.value

# the intents of each kind of message: anything else there is forged (a table button
# slipped into a hand message, a card on the public table, a menu pick on a hand)
PUBLIC = (Join, LeaveTable, AddBot, Start, OpenSettings, OpenHand, Act, VoteEnd)
HAND = (Act, Pick, Page, Back, Refresh, Autopilot)
MENUS: dict[type, str] = {
    OpenSettings: "settings",
    SetPreset: "settings",
    SetFlag: "settings",
    CloseSettings: "settings",
    Kick: "kick",
}

Handler = Callable[[Origin, str, Any], Awaitable[None]]


class Presses:
    """Every component interaction goes through :meth:`on_component`."""

    def __init__(self, ctx: Context, replies: Replies, hands: Hands, menus: Menus) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.replies = replies
        self.hands = hands
        self.menus = menus
        # what the public table message's intents do beyond the service's own (the rest:
        # ``bot.ui.press``)
        self._public: dict[type, Handler] = {
            OpenSettings: self._open_settings,
            OpenHand: self._open_hand,
            Act: self._table_act,
        }

    async def on_component(self, interaction: discord.Interaction[Any]) -> None:
        """Every component interaction (the client's ``on_interaction``): a button press or
        a select choice on any message, read once into one intent (``ids.read``: the codec,
        or an id posted before it), acknowledged at once, then handed to its handler. An
        id this bot never made, or one that decodes to nothing, is refused at once."""
        if interaction.type is not discord.InteractionType.component:
            return
        started = time.monotonic()
        gate = self.ctx.gate
        gate.track()
        if gate.closing:
            await self.replies.restarting(interaction)
            return
        data: Mapping[str, Any] = interaction.data or {}
        custom_id = str(data.get("custom_id", ""))
        select = as_int(data.get("component_type")) not in (None, _BUTTON)
        press = ids.read(custom_id, widgets.select_values(interaction) if select else (),
                         select=select)  # fmt: skip
        if isinstance(press, DecodeRefusal) and press.reason == "outdated":
            await self.replies.now(interaction, text.OUTDATED)
            return
        if (
            isinstance(press, DecodeRefusal)
            or interaction.guild_id is None
            or str(interaction.channel_id) != press.token
        ):
            await self.replies.refuse_unknown(interaction)
            return
        private = interaction.message is not None and interaction.message.flags.ephemeral
        try:
            # acknowledge within 3 s, before anything that may wait on the database
            if not private and _opens_private(press.raw):
                answered = await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                answered = await interaction.response.defer()
            gate.acked(started)
            o = await self.replies.origin(interaction, answered)
            old = custom_id.split(":")[1] if custom_id.startswith("uno:") else None
            await self._route(o, press, private, old=old)
        except Exception:
            await self.replies.fail(interaction)

    async def _route(self, o: Origin, press: Press, private: bool, *, old: str | None) -> None:
        """Each intent only where this bot draws it (an old id, whose action was ``old``:
        where it drew it then), to its handler."""
        key = table_key(int(press.token))
        intent = ids.resolve(press, key)
        if isinstance(intent, DecodeRefusal):
            await self.replies.forged(o)
        elif not private:
            if _public(intent) and (old is None or old in ids.OLD_TABLE_ACTIONS):
                await self._public.get(type(intent), self._press)(o, key, intent)
            else:
                await self.replies.forged(o)
        elif isinstance(intent, HAND):
            await self._hand_action(o, key, intent)
        elif type(intent) in MENUS:
            # on its own menu only: slipped into a hand message it would overwrite it
            msg = o.interaction.message
            if msg is None or widgets.menu_of(msg) != MENUS[type(intent)]:
                await self.replies.forged(o)
            else:
                await self.menus.press(o, key, intent)
        else:
            await self.replies.forged(o)

    # -- the public table message ---------------------------------------------------------

    async def _press(self, o: Origin, key: str, intent: Intent) -> None:
        """Join, leave, add a bot, start, a move: what ``bot.ui.press`` does."""
        res = await press(
            self.service, key, o.player, intent, name=display_name(o.interaction),
            admin=admin(o.interaction), origin=o,
        )  # fmt: skip
        names: Mapping[str, str] = res.table.names if res is not None and res.table else {}
        await self.replies.follow(o, names)

    async def _open_settings(self, o: Origin, key: str, intent: OpenSettings) -> None:
        await self.menus.open_settings(o, key)

    async def _open_hand(self, o: Origin, key: str, intent: OpenHand) -> None:
        await self.open_hand(o, key)

    async def _table_act(self, o: Origin, key: str, intent: Act) -> None:
        """A move on the table: Draw opens the hand and draws; UNO!, a catch, a challenge,
        taking a penalty, a colour, the next round are made there."""
        if isinstance(intent.action, Draw):
            await self.open_hand(o, key, draw_version=intent.version)
        else:
            await self._press(o, key, intent)

    async def open_hand(self, o: Origin, key: str, *, draw_version: int | None = None) -> None:
        """Answer with the player's hand (a new ephemeral message: their hand message now).
        ``draw_version``: they pressed Draw on the table; draw first."""
        info = await self.service.table(key)
        if not policy.is_open(info) or info is None:
            o.notices.append(Notice("no_table"))
            await self.replies.answer(o, None)
            return
        if await self.service.hand(key, o.player) is None:
            o.notices.append(Notice("not_a_player" if info.status == PLAYING else "not_started"))
            await self.replies.answer(o, None, names=info.names)
            return
        shown = info

        async def draw() -> None:
            nonlocal shown
            res = await press(self.service, key, o.player, Act(Draw(), drawn_at), origin=o)
            if res is not None and res.table is not None:
                shown = res.table

        drawn_at = draw_version or 0
        before = draw if draw_version is not None else None
        await self.hands.show(info, o.player, o.interaction, o.lang, o.answer, before)
        info = shown
        await self.replies.follow(o, info.names)

    # -- a hand message -------------------------------------------------------------------

    async def _hand_action(self, o: Origin, key: str, intent: Intent) -> None:
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
        s = await self.hands.take(info, o.player, o.interaction, o.lang, _pressed(o.interaction))
        if s is None:
            return
        action: Action | None = None
        version = getattr(intent, "version", 0)
        if isinstance(intent, Page):
            s.page = intent.n
        elif isinstance(intent, Back):
            s.picking = None
        elif isinstance(intent, Pick):
            plays = widgets.uno_plays(
                intent.choice, _plays(await self.service.legal(key, o.player))
            )
            if len(plays) == 1:
                action = plays[0]
            elif plays:
                s.picking = intent.choice
            else:
                o.notices.append(Notice("stale"))
        elif isinstance(intent, Act):
            action = intent.action
        names: Mapping[str, str] = {}
        if isinstance(intent, Autopilot):  # "Play for me", or my seat back
            res = await press(self.service, key, o.player, intent, origin=o)
            if res is not None and res.table is not None:
                names = res.table.names
        if action is not None:
            s.picking = None
            res = await press(self.service, key, o.player, Act(action, version), origin=o)
            if res is not None and res.table is not None:
                names = res.table.names
        await self.hands.redraw(s)
        await self.replies.follow(o, names)


def _public(intent: Intent) -> bool:
    """Whether the public table message draws ``intent`` (a card or Pass never)."""
    if isinstance(intent, Act):
        return not isinstance(intent.action, Play | Pass)
    return isinstance(intent, PUBLIC)


def _opens_private(intent: Intent) -> bool:
    """A press on the table answered by a new private message: the hand, the settings."""
    return isinstance(intent, OpenHand | OpenSettings) or (
        isinstance(intent, Act) and isinstance(intent.action, Draw)
    )


def _plays(legal: Sequence[Action]) -> list[Play]:
    """The plays among ``legal``, each one that calls UNO with it too (a ``!`` choice
    names those; the engine takes the call with the play wherever it is legal)."""
    plays = [a for a in legal if isinstance(a, Play)]
    return plays + [Play(p.card, p.color, p.target, p.together, uno=True) for p in plays]


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
