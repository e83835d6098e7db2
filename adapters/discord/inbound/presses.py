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
from adapters.discord.outbound.replies import Answering, Replies
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

Handler = Callable[[Answering, str, Any], Awaitable[None]]


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
            a = await self.replies.answering(interaction, answered)
            old = custom_id.split(":")[1] if custom_id.startswith("uno:") else None
            await self._route(a, press, private, old=old)
        except Exception:
            await self.replies.fail(interaction)

    async def _route(self, a: Answering, press: Press, private: bool, *, old: str | None) -> None:
        """Each intent only where this bot draws it (an old id, whose action was ``old``:
        where it drew it then), to its handler."""
        key = table_key(int(press.token))
        intent = ids.resolve(press, key)
        if isinstance(intent, DecodeRefusal):
            await self.replies.forged(a)
        elif not private:
            if _public(intent) and (old is None or old in ids.OLD_TABLE_ACTIONS):
                await self._public.get(type(intent), self._press)(a, key, intent)
            else:
                await self.replies.forged(a)
        elif isinstance(intent, HAND):
            await self._hand_action(a, key, intent)
        elif type(intent) in MENUS:
            # on its own menu only: slipped into a hand message it would overwrite it
            msg = a.interaction.message
            if msg is None or widgets.menu_of(msg) != MENUS[type(intent)]:
                await self.replies.forged(a)
            else:
                await self.menus.press(a, key, intent)
        else:
            await self.replies.forged(a)

    # -- the public table message ---------------------------------------------------------

    async def _press(self, a: Answering, key: str, intent: Intent) -> None:
        """Join, leave, add a bot, start, a move: what ``bot.ui.press`` does, its
        ``Result`` said to the presser."""
        res = await press(
            self.service, key, a.player, intent, name=display_name(a.interaction),
            admin=admin(a.interaction),
        )  # fmt: skip
        if res is None:
            return
        await self.replies.follow(a, res.told, res.table.names if res.table else {})

    async def _open_settings(self, a: Answering, key: str, intent: OpenSettings) -> None:
        await self.menus.open_settings(a, key)

    async def _open_hand(self, a: Answering, key: str, intent: OpenHand) -> None:
        await self.open_hand(a, key)

    async def _table_act(self, a: Answering, key: str, intent: Act) -> None:
        """A move on the table: Draw opens the hand and draws; UNO!, a catch, a challenge,
        taking a penalty, a colour, the next round are made there."""
        if isinstance(intent.action, Draw):
            await self.open_hand(a, key, draw_version=intent.version)
        else:
            await self._press(a, key, intent)

    async def open_hand(self, a: Answering, key: str, *, draw_version: int | None = None) -> None:
        """Answer with the player's hand (a new ephemeral message: their hand message now).
        ``draw_version``: they pressed Draw on the table; draw first."""
        info = await self.service.table(key)
        if not policy.is_open(info) or info is None:
            await self.replies.answer(a, None, told=(Notice("no_table"),))
            return
        if await self.service.hand(key, a.player) is None:
            code = "not_a_player" if info.status == PLAYING else "not_started"
            await self.replies.answer(a, None, told=(Notice(code),), names=info.names)
            return
        shown = info
        told: tuple[Notice, ...] = ()

        async def draw() -> None:
            nonlocal shown, told
            res = await press(self.service, key, a.player, Act(Draw(), drawn_at))
            if res is not None:
                told = res.told
                if res.table is not None:
                    shown = res.table

        drawn_at = draw_version or 0
        before = draw if draw_version is not None else None
        await self.hands.show(info, a.player, a.interaction, a.lang, a.answer, before)
        await self.replies.follow(a, told, shown.names)

    # -- a hand message -------------------------------------------------------------------

    async def _hand_action(self, a: Answering, key: str, intent: Intent) -> None:
        """A button or select of a hand message: it becomes the live hand message. One
        of a game that is over, or an older hand message than the live one (its emptying
        failed, or this press raced it), is emptied by this press, and said to be so."""
        info = await self.service.table(key)
        if info is None or info.status != PLAYING:
            # its last edit could not reach it (the token had run out): this press can
            await a.interaction.edit_original_response(view=None)
            code = "no_table" if info is None else "game_over"
            await self.replies.follow(a, (Notice(code),))
            return
        s = await self.hands.take(info, a.player, a.interaction, a.lang, _pressed(a.interaction))
        if s is None:
            return
        action: Action | None = None
        version = getattr(intent, "version", 0)
        told: tuple[Notice, ...] = ()
        if isinstance(intent, Page):
            s.page = intent.n
        elif isinstance(intent, Back):
            s.picking = None
        elif isinstance(intent, Pick):
            plays = widgets.uno_plays(
                intent.choice, _plays(await self.service.legal(key, a.player))
            )
            if len(plays) == 1:
                action = plays[0]
            elif plays:
                s.picking = intent.choice
            else:
                told = (Notice("stale"),)
        elif isinstance(intent, Act):
            action = intent.action
        names: Mapping[str, str] = {}
        if isinstance(intent, Autopilot):  # "Play for me", or my seat back
            res = await press(self.service, key, a.player, intent)
            if res is not None:
                told, names = res.told, res.table.names if res.table else {}
        if action is not None:
            s.picking = None
            res = await press(self.service, key, a.player, Act(action, version))
            if res is not None:
                told, names = res.told, res.table.names if res.table else {}
        await self.hands.redraw(s)
        await self.replies.follow(a, told, names)


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
