"""Discord's widgets for ``bot.controls``: one :class:`discord.ui.DynamicItem` per kind of
control (an intent type of ``bot.intents``), as in discord.py's
``examples/views/dynamic_counter.py``: its ``template`` matches the custom ids of that kind,
so any of them still works after a restart (``UnoClient.setup_hook`` registers them all),
and its callback hands the press to the client's ``components`` (the adapter's). The ids
posted before the codec (``uno:...``) have items of their own (``ids.read_legacy``).

``layout`` maps rows of controls to Discord's components under its limits: at most 5 rows
of 5 buttons, a select alone on its row with at most 25 options, labels of 80 characters,
custom ids of 100 and each one once on a message.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, cast

import discord

from adapters.discord import ids
from adapters.discord.protocols import ComponentsClient
from bot.controls import Control, Row, Style
from bot.intents import (
    Act,
    AddBot,
    Autopilot,
    Back,
    Choose,
    CloseSettings,
    Join,
    Leave,
    OpenHand,
    OpenSettings,
    Page,
    Pick,
    Refresh,
    Start,
    VoteEnd,
)

__all__ = [
    "DYNAMIC_ITEMS",
    "LABEL_MAX",
    "OPTION_MAX",
    "PAGE_SIZE",
    "PER_ROW",
    "ROWS",
    "IntentButton",
    "IntentSelect",
    "button",
    "layout",
    "message_components",
    "select",
    "select_values",
]

ROWS = 5  # action rows in a message
PER_ROW = 5  # buttons in a row
PAGE_SIZE = 25  # options in a select menu
LABEL_MAX = 80
OPTION_MAX = 100
PLACEHOLDER_MAX = 150

STYLES: dict[Style, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

_T = r"[1-9][0-9]{0,19}"  # the table token: its channel id
_V = r"[0-9]{1,11}"  # a table version, a page
_NEVER = r"(?!)"


def cut(label: str, limit: int = LABEL_MAX) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


def _component_type(interaction: discord.Interaction[Any]) -> int | None:
    data: Mapping[str, Any] = interaction.data or {}
    kind = data.get("component_type")
    return kind if isinstance(kind, int) else None


def select_values(interaction: discord.Interaction[Any]) -> tuple[str, ...]:
    """The values chosen in a select menu (as Discord sent them: still to be checked)."""
    data: Mapping[str, Any] = interaction.data or {}
    values = data.get("values")
    if not isinstance(values, list | tuple):
        return ()
    return tuple(str(v) for v in values)


def message_components(msg: discord.Message) -> list[discord.ui.Item[Any]]:
    """Every component of ``msg`` as discord.py's view store reads it back to dispatch an
    interaction (``View.from_message``)."""
    cls = discord.ui.LayoutView if msg.flags.components_v2 else discord.ui.View
    return list(cls.from_message(msg, timeout=None).walk_children())


async def _hand_over(interaction: discord.Interaction[Any], custom_id: str) -> None:
    client = cast(ComponentsClient, interaction.client)
    # a select whose id looks like a button's is still a select (and refused as such)
    select = _component_type(interaction) != discord.ComponentType.button.value
    values = select_values(interaction) if select else ()
    await client.components.on_component(interaction, custom_id, values, select=select)


# -- the dynamic items: one per kind of control -------------------------------------------------


class IntentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_NEVER):
    """A button carrying one intent of the kind ``intent`` (its subclasses: one per kind)."""

    intent: ClassVar[type | None] = None

    def __init__(
        self,
        custom_id: str,
        label: str | None,
        *,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
        emoji: discord.PartialEmoji | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=cut(label) if label else None,
                style=style,
                custom_id=custom_id,
                disabled=disabled,
                emoji=emoji,
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: typing.Match[str],
        /,
    ) -> IntentButton:
        return cls(match.group(0), getattr(item, "label", None) or "?")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _hand_over(interaction, self.custom_id)


class ActButton(IntentButton, template=rf"a:{_T}:{_V}:[^:\s]{{1,80}}"):
    """A move (``Act``): a card, a colour, Draw, UNO!, a catch..."""

    intent = Act


class JoinButton(IntentButton, template=rf"j:{_T}"):
    intent = Join


class LeaveButton(IntentButton, template=rf"l:{_T}"):
    intent = Leave


class AddBotButton(IntentButton, template=rf"b:{_T}"):
    intent = AddBot


class StartButton(IntentButton, template=rf"g:{_T}"):
    intent = Start


class HandButton(IntentButton, template=rf"h:{_T}"):
    intent = OpenHand


class RefreshButton(IntentButton, template=rf"r:{_T}"):
    intent = Refresh


class SettingsButton(IntentButton, template=rf"s:{_T}:{_V}"):
    """The settings menu (at a page)."""

    intent = OpenSettings


class DoneButton(IntentButton, template=rf"x:{_T}"):
    intent = CloseSettings


class PickButton(IntentButton, template=rf"i:{_T}:{_V}:[A-Z0-9+!]{{1,90}}"):
    """A card whose plays still differ in the colour or the player: its picker."""

    intent = Pick


class PageButton(IntentButton, template=rf"n:{_T}:{_V}:{_V}"):
    intent = Page


class BackButton(IntentButton, template=rf"c:{_T}:{_V}"):
    intent = Back


class AutopilotButton(IntentButton, template=rf"P:{_T}:[01]"):
    """A hand's "Play for me" (``1``) or "Take my seat back" (``0``)."""

    intent = Autopilot


class VoteButton(IntentButton, template=rf"e:{_T}:{_V}"):
    """The table's vote to end the game (the vote's version, or 0: none open)."""

    intent = VoteEnd


class LegacyButton(IntentButton, template=r"uno:(?!(?:cards|preset|flag|kick):)\S{1,96}"):
    """A button posted before the codec (``uno:<action>:...``): read by ``ids.read_legacy``."""


class IntentSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=rf"m:{_T}:\w{{1,16}}"):
    """A select menu (``Choose``): cards, presets, a flag's values, players to remove; each
    option's value is an intent of its own."""

    intent: ClassVar[type | None] = Choose

    def __init__(
        self,
        custom_id: str,
        options: Sequence[discord.SelectOption],
        *,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=list(options),
                placeholder=cut(placeholder, PLACEHOLDER_MAX) if placeholder else None,
                min_values=1,
                max_values=1,
            ),
            row=row,
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: typing.Match[str],
        /,
    ) -> IntentSelect:
        options = getattr(item, "options", None) or [discord.SelectOption(label="?")]
        return cls(match.group(0), options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _hand_over(interaction, self.custom_id)


class LegacySelect(IntentSelect, template=r"uno:(?:cards|preset|flag|kick):\S{1,90}"):
    """A select posted before the codec."""

    intent = None


BUTTONS: tuple[type[IntentButton], ...] = (
    ActButton, JoinButton, LeaveButton, AddBotButton, StartButton, HandButton, RefreshButton,
    SettingsButton, DoneButton, PickButton, PageButton, BackButton, AutopilotButton, VoteButton,
)  # fmt: skip
DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    *BUTTONS, IntentSelect, LegacyButton, LegacySelect,
)  # fmt: skip
_BUTTON_OF: dict[type, type[IntentButton]] = {
    cls.intent: cls for cls in BUTTONS if cls.intent is not None
}


def claimed(custom_id: str) -> bool:
    """Whether a dynamic item's template claims ``custom_id`` (else it is none of ours)."""
    return any(t.__discord_ui_compiled_template__.fullmatch(custom_id) for t in DYNAMIC_ITEMS)


# -- controls to widgets ----------------------------------------------------------------------


def button(
    control: Control,
    channel: int,
    *,
    row: int | None = None,
    emoji: discord.PartialEmoji | None = None,
    label: str | None = None,
    style: discord.ButtonStyle | None = None,
) -> discord.ui.Item[Any] | None:
    """The button of ``control`` (``None``: its intent cannot be a custom id here)."""
    custom_id = ids.encode(control.intent, channel)
    cls = _BUTTON_OF.get(type(control.intent))
    if custom_id is None or cls is None:
        return None
    return cls(
        custom_id,
        control.label if label is None else label,
        style=STYLES[control.style] if style is None else style,
        disabled=not control.enabled,
        row=row,
        emoji=emoji,
    )


def select(
    row: Row,
    channel: int,
    *,
    at: int | None = None,
    emojis: Iterable[discord.PartialEmoji | None] = (),
) -> IntentSelect | None:
    """The select of a choice ``row`` (its first 25 controls that can be an option)."""
    custom_id = ids.encode(Choose(row.menu), channel)
    if custom_id is None:
        return None
    options = []
    marks = list(emojis)
    for i, c in enumerate(row.controls):
        value = ids.encode(c.intent, channel)
        if value is None or not c.enabled:
            continue
        options.append(
            discord.SelectOption(
                label=cut(c.label, OPTION_MAX), value=value, default=c.selected,
                description=cut(c.detail, OPTION_MAX) if c.detail else None,
                emoji=marks[i] if i < len(marks) else None,
            )
        )  # fmt: skip
        if len(options) == PAGE_SIZE:
            break
    if not options:
        return None
    return IntentSelect(custom_id, options, placeholder=row.title or None, row=at)


def layout(
    rows: Sequence[Row], channel: int, view: discord.ui.View | None = None
) -> discord.ui.View:
    """``rows`` as a message's components: a choice row as a select, a row of buttons cut
    at 5; what does not fit in 5 rows is left out. A custom id already on the message (a
    disabled page label that names the page it is on) is drawn inert."""
    view = view or discord.ui.View(timeout=None)
    at = 0
    for r in rows:
        if at >= ROWS:
            break
        if r.choice:
            item = select(r, channel, at=at)
            if item is not None:
                view.add_item(item)
                at += 1
            continue
        for i in range(0, len(r.controls), PER_ROW):
            if at >= ROWS:
                break
            placed = False
            for c in r.controls[i : i + PER_ROW]:
                b = _unique(view, c, channel, at)
                if b is not None:
                    view.add_item(b)
                    placed = True
            at += 1 if placed else 0
    return view


def _unique(
    view: discord.ui.View, c: Control, channel: int, at: int
) -> discord.ui.Item[Any] | None:
    b = button(c, channel, row=at)
    if b is None:
        return None
    taken = {getattr(i, "custom_id", None) for i in view.children}
    custom_id = getattr(b, "custom_id", None)
    if custom_id not in taken:
        return b
    if c.enabled:
        return None  # the same press twice: once is enough
    n = sum(1 for x in taken if isinstance(x, str) and x.startswith("inert:"))
    return discord.ui.Button(
        label=cut(c.label), style=STYLES[c.style], custom_id=f"inert:{n}", disabled=True, row=at
    )
