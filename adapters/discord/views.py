"""Components: the public table's buttons, a player's private hand, pickers and settings.

Every button and select is a :class:`discord.ui.DynamicItem` whose ``custom_id`` carries
the table id and version only (``adapters.discord.ids``), so any of them still works after
a restart: ``UnoClient.setup_hook`` registers the two templates. Discord's limits are kept
here: at most 5 rows of 5 buttons, a select alone on its row with at most 25 options,
labels of 80 characters and ids of 100.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import discord

from adapters.discord import ids, text
from adapters.discord.markup import channel_of
from adapters.discord.protocols import ComponentsClient
from bot import render
from bot.i18n import LANGUAGES, Translator, translator
from bot.model import LOBBY, PLAYING
from bot.port import TableInfo
from engine import (
    Accept,
    Action,
    CallUno,
    Card,
    CatchUno,
    Challenge,
    ChooseColor,
    Color,
    Draw,
    NextRound,
    Pass,
    Phase,
    Play,
    Rules,
    leaves_one_card,
)

if TYPE_CHECKING:
    from adapters.discord.emojis import CardEmojis

__all__ = [
    "CARD_ROWS",
    "PAGE_SIZE",
    "Choice",
    "UnoButton",
    "UnoSelect",
    "hand_choices",
    "hand_view",
    "kick_view",
    "menu_of",
    "message_components",
    "picker_view",
    "select_values",
    "settings_flags",
    "settings_view",
    "table_view",
    "uno_plays",
]

ROWS = 5  # action rows in a message
PER_ROW = 5  # buttons in a row
PAGE_SIZE = 25  # options in a select menu
CARD_ROWS = 4  # rows of card buttons when the hand needs no select
LABEL_MAX = 80
OPTION_MAX = 100

_COLOR_STYLE = {
    Color.RED: discord.ButtonStyle.danger,
    Color.YELLOW: discord.ButtonStyle.secondary,
    Color.GREEN: discord.ButtonStyle.success,
    Color.BLUE: discord.ButtonStyle.primary,
}


def _cut(label: str, limit: int = LABEL_MAX) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


# -- the dynamic items ------------------------------------------------------------------------


class UnoButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"uno:(?!(?:cards|preset|flag|kick):)\S{1,96}",
):
    """Any button this bot draws; it hands the press to the client's ``components`` (the
    adapter's), which parses the id (and refuses one it did not make)."""

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
                label=_cut(label) if label else None,
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
    ) -> UnoButton:
        label = getattr(item, "label", None) or "?"
        return cls(match.group(0), label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = cast(ComponentsClient, interaction.client)
        # a select whose id looks like a button's is still a select (and refused as such)
        select = _component_type(interaction) != discord.ComponentType.button.value
        values = select_values(interaction) if select else ()
        await client.components.on_component(interaction, self.custom_id, values, select=select)


class UnoSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"uno:(?:cards|preset|flag|kick):\S{1,90}",
):
    """Any select menu this bot draws (cards, settings, kick)."""

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
                placeholder=_cut(placeholder, 150) if placeholder else None,
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
    ) -> UnoSelect:
        options = getattr(item, "options", None) or [discord.SelectOption(label="?")]
        return cls(match.group(0), options)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = cast(ComponentsClient, interaction.client)
        values = select_values(interaction)
        await client.components.on_component(interaction, self.custom_id, values, select=True)


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


# what a settings menu is made of (a kick menu: one ``kick`` select, under its prompt)
SETTINGS_ACTIONS = frozenset({"preset", "flag", "setpage", "refresh"})


def menu_of(msg: discord.Message) -> str | None:
    """Which private menu ``msg`` is (``settings``, ``kick``), judged by what this bot draws
    on each: a settings menu has its preset select and flag selects and nothing but its
    page buttons besides; a kick menu is its one select under its prompt. A hand message
    is neither, whatever was slipped into it."""
    actions = []
    try:
        items = message_components(msg)
    except Exception:  # a message discord.py cannot read back is none of ours
        return None
    for item in items:
        custom_id = getattr(item, "custom_id", None)
        select = isinstance(item, discord.ui.Select)
        cid = ids.parse(custom_id, select=select) if isinstance(custom_id, str) else None
        if cid is None:
            return None
        actions.append(cid.action)
    if {"preset", "flag"} <= set(actions) <= SETTINGS_ACTIONS:
        return "settings"
    if actions == ["kick"] and msg.content in _kick_prompts():
        return "kick"
    return None


@functools.cache
def _kick_prompts() -> frozenset[str]:
    return frozenset(translator(lang).gettext(text.KICK_PLACEHOLDER) for lang in LANGUAGES)


def _id(action: str, table: int, version: int, arg: str = "") -> str:
    return str(ids.CustomId(action, table, version, arg))


def _button(
    action: str,
    table: int,
    version: int,
    label: str | None,
    *,
    arg: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    row: int | None = None,
    emoji: discord.PartialEmoji | None = None,
) -> UnoButton:
    return UnoButton(
        _id(action, table, version, arg), label, style=style, disabled=disabled, row=row,
        emoji=emoji,
    )  # fmt: skip


# -- the public table -------------------------------------------------------------------------


def table_view(info: TableInfo, tr: Translator) -> discord.ui.View | None:
    """The table message's buttons; ``None`` when the table is over."""
    t, v = channel_of(info.key), info.version
    label = render.button_label
    view = discord.ui.View(timeout=None)
    if info.status == LOBBY:
        view.add_item(
            _button("join", t, v, label("join", tr), style=discord.ButtonStyle.success, row=0)
        )
        view.add_item(_button("leave", t, v, label("leave", tr), row=0))
        view.add_item(_button("addbot", t, v, label("add_bot", tr), row=0))
        view.add_item(_button("settings", t, v, tr.gettext(text.SETTINGS), row=0))
        view.add_item(
            _button("start", t, v, label("start", tr), style=discord.ButtonStyle.primary, row=0)
        )
        return view
    pv = info.view
    if info.status != PLAYING or pv is None or pv.phase is Phase.GAME_OVER:
        return None
    if pv.phase is Phase.ROUND_OVER:
        view.add_item(
            _button(
                "next", t, v, label("next_round", tr), style=discord.ButtonStyle.primary, row=0
            )
        )
        view.add_item(_button("hand", t, v, label("hand", tr), row=0))
        return view
    view.add_item(
        _button("hand", t, v, label("hand", tr), style=discord.ButtonStyle.primary, row=0)
    )
    view.add_item(_button("draw", t, v, label("draw", tr), row=0))
    view.add_item(_button("uno", t, v, label("uno", tr), style=discord.ButtonStyle.danger, row=0))
    if pv.phase is Phase.CHALLENGE:
        view.add_item(
            _button(
                "challenge", t, v, label("challenge", tr), style=discord.ButtonStyle.danger, row=1
            )
        )
        view.add_item(_button("accept", t, v, label("accept", tr), row=1))
    names = info.names
    for target in pv.exposed[:PER_ROW]:
        arg = ids.encode_player(target, info.key)
        if arg is None:
            continue
        view.add_item(
            _button(
                "catch", t, v, render.action_label(CatchUno(target), tr, names),
                arg=arg, style=discord.ButtonStyle.danger, row=2,
            )
        )  # fmt: skip
    return view


# -- a player's hand --------------------------------------------------------------------------


@dataclass
class Choice:
    """Something to play: one card (or several together) with its legal plays, which may
    still differ in the colour named or the player swapped with."""

    key: str
    cards: tuple[Card, ...]
    plays: list[Play] = field(default_factory=list)
    count: int = 1

    @property
    def playable(self) -> bool:
        return bool(self.plays)

    @property
    def calls_uno(self) -> bool:
        return bool(self.plays) and all(p.uno for p in self.plays)

    def short(self) -> str:
        label = "+".join(render.card_short(c) for c in self.cards)
        if self.calls_uno:
            return label + " · UNO!"
        return f"{label} ×{self.count}" if self.count > 1 else label

    def long(self, tr: Translator) -> str:
        label = " + ".join(render.card_text(c, tr) for c in self.cards)
        if self.calls_uno:
            return label + " · UNO!"
        return f"{label} ×{self.count}" if self.count > 1 else label

    def pictured(
        self, art: CardEmojis | None, *, dim: bool = False
    ) -> tuple[str | None, discord.PartialEmoji | None]:
        """A button's label and emoji: with card emojis, the first card's emoji and the
        rest as text (``×2`` for two alike), else the text alone."""
        if art is None:
            return self.short(), None
        label = "+".join(render.card_short(c) for c in self.cards[1:])
        if label:
            label = "+" + label
        if self.count > 1:
            label += f" ×{self.count}"
        return label.strip() or None, art.emoji(self.cards[0], dim=dim)

    def needs(self) -> str | None:
        """``color`` or ``target`` when one more choice follows, else ``None``."""
        if len(self.plays) < 2:
            return None
        if len({p.target for p in self.plays}) > 1:
            return "target"
        if len({p.color for p in self.plays}) > 1:
            return "color"
        return "play"


UNO_MARK = "!"  # a choice's key: its plays call UNO with the card (ids.encode_play too)


def hand_choices(
    hand: Sequence[Card],
    legal: Sequence[Action],
    rules: Rules | None = None,
    counts: Mapping[str, int] | None = None,
) -> list[Choice]:
    """One choice per distinct card in the hand (in card order, unplayable ones too), then
    the legal plays of several cards together. Under ``uno_call=with_play`` (``rules``) a
    play that leaves one card has a twin that calls UNO with it (key ending ``!``): the call
    is part of the play there, a press of UNO afterwards too late. ``counts``: the hand
    sizes of the others (a swap with one holding one card leaves one)."""
    n_of: dict[Card, int] = {}
    for c in sorted(hand, key=lambda c: c.order):
        n_of[c] = n_of.get(c, 0) + 1
    groups: dict[str, list[Play]] = {}
    for a in legal:
        if isinstance(a, Play):
            groups.setdefault(ids.group_key(a), []).append(a)
    out = [Choice(c.code, (c,), groups.pop(c.code, []), n) for c, n in n_of.items()]
    for key, plays in groups.items():
        out.append(Choice(key, plays[0].cards, plays))
    if rules is None or rules.uno_call != "with_play":
        return out
    twins: list[Choice] = []
    for ch in out:
        calls = [
            Play(p.card, p.color, p.target, p.together, uno=True)
            for p in ch.plays
            if leaves_one_card(rules, len(hand), p, (counts or {}).get(p.target or ""))
        ]
        if calls:
            twins.append(Choice(ch.key + UNO_MARK, ch.cards, calls))
    return [*twins, *out]


def uno_plays(group: str, legal: Sequence[Action]) -> list[Play]:
    """The listed plays of a choice's key (``R5``; ``R5!``: those plays calling UNO)."""
    base = group.removesuffix(UNO_MARK)
    uno = base != group
    return [
        Play(p.card, p.color, p.target, p.together, uno=True) if uno else p
        for p in legal
        if isinstance(p, Play) and ids.group_key(p) == base
    ]


def _choice_button(
    ch: Choice,
    key: str,
    t: int,
    v: int,
    *,
    row: int | None = None,
    art: CardEmojis | None = None,
    dim: bool = False,
) -> UnoButton | None:
    """``dim``: the player has a move to make, and this card is not part of it."""
    style = discord.ButtonStyle.primary if ch.playable else discord.ButtonStyle.secondary
    label, emoji = ch.pictured(art, dim=dim and not ch.playable)
    if len(ch.plays) == 1:
        arg = ids.encode_play(ch.plays[0], key)
        if arg is not None and len(_id("play", t, v, "")) + len(arg) + 1 <= ids.MAX_CUSTOM_ID:
            return _button("play", t, v, label, arg=arg, style=style, row=row, emoji=emoji)
    if len(_id("pick", t, v, ch.key)) > ids.MAX_CUSTOM_ID:
        return None
    if not ch.playable:
        return _button("pick", t, v, label, arg=ch.key, disabled=True, row=row, emoji=emoji)
    return _button("pick", t, v, label, arg=ch.key, style=style, row=row, emoji=emoji)


def _controls(
    legal: Sequence[Action],
    key: str,
    t: int,
    v: int,
    tr: Translator,
    names: Mapping[str, str],
    art: CardEmojis | None = None,
) -> list[UnoButton]:
    label = render.button_label
    out: list[UnoButton] = []
    kinds = {type(a) for a in legal}
    if Draw in kinds:  # with card emojis, the back of a card: the pile
        back = art.back() if art is not None else None
        out.append(_button("draw", t, v, label("draw", tr), emoji=back))
    if Pass in kinds:
        out.append(_button("pass", t, v, label("pass", tr)))
    if Accept in kinds:
        out.append(_button("accept", t, v, label("accept", tr)))
    if Challenge in kinds:
        out.append(
            _button("challenge", t, v, label("challenge", tr), style=discord.ButtonStyle.danger)
        )
    if CallUno in kinds:
        out.append(_button("uno", t, v, label("uno", tr), style=discord.ButtonStyle.danger))
    if NextRound in kinds:
        out.append(
            _button("next", t, v, label("next_round", tr), style=discord.ButtonStyle.primary)
        )
    for a in legal:
        if isinstance(a, CatchUno) and len(out) < PER_ROW:
            arg = ids.encode_player(a.target, key)
            if arg is not None:
                out.append(
                    _button("catch", t, v, render.action_label(a, tr, names), arg=arg,
                            style=discord.ButtonStyle.danger)
                )  # fmt: skip
    return out[:PER_ROW]


def hand_view(
    key: str,
    version: int,
    hand: Sequence[Card],
    legal: Sequence[Action],
    tr: Translator,
    names: Mapping[str, str],
    *,
    page: int = 0,
    art: CardEmojis | None = None,
    rules: Rules | None = None,
    counts: Mapping[str, int] | None = None,
) -> tuple[discord.ui.View, int, int]:
    """The hand's components: ``(view, page, pages)``.

    Cards are buttons (unplayable ones disabled); when they do not all fit in the rows left
    by the controls, the rest of the playable ones go in a select menu paged at 25. With
    card emojis (``art``), each card is its picture, dimmed when the player has a move to
    make and the card is not part of it. Under ``uno_call=with_play`` (``rules``) the plays
    that leave one card come first, as "card · UNO!" buttons beside the card
    (``hand_choices``)."""
    t, v = channel_of(key), version
    view = discord.ui.View(timeout=None)
    colors = [a for a in legal if isinstance(a, ChooseColor)]
    controls = _controls(legal, key, t, v, tr, names, art)
    choices = hand_choices(hand, legal, rules, counts)
    rows_left = ROWS - (1 if controls else 0) - (1 if colors else 0)
    row = 0
    if colors:
        for a in colors:
            view.add_item(
                _button("color", t, v, render.color_text(a.color, tr), arg=a.color.value,
                        style=_COLOR_STYLE[a.color], row=row)
            )  # fmt: skip
        row += 1
    capacity = min(rows_left, CARD_ROWS) * PER_ROW
    page_count = 1
    if len(choices) <= capacity:
        shown, rest = choices, []
    else:
        # the rows left once a select and a bottom row (controls, pages) are kept free
        card_rows = ROWS - row - 2
        shown = choices[: card_rows * PER_ROW]
        rest = [c for c in choices[len(shown) :] if c.playable]
    moving = any(isinstance(a, Play | Draw) for a in legal)
    for i, ch in enumerate(shown):
        b = _choice_button(ch, key, t, v, row=row + i // PER_ROW, art=art, dim=moving)
        if b is not None:
            view.add_item(b)
    row += (len(shown) + PER_ROW - 1) // PER_ROW
    if rest:
        select, page, page_count = _more_cards(rest, t, v, tr, page, art)
        select.row = row
        view.add_item(select)
        row += 1
        if page_count > 1:
            nav = [
                _button("page", t, v, "◀", arg=str(max(page - 1, 0)), disabled=page == 0),
                _button("page", t, v, "▶", arg=str(min(page + 1, page_count - 1)),
                        disabled=page >= page_count - 1),
            ]  # fmt: skip
            if len(controls) + len(nav) > PER_ROW:
                controls = controls[: PER_ROW - len(nav)]
            controls = [*nav, *controls]
    for b in controls:
        b.row = row
        view.add_item(b)
    return view, page, page_count


def _more_cards(
    rest: Sequence[Choice],
    t: int,
    v: int,
    tr: Translator,
    page: int,
    art: CardEmojis | None,
) -> tuple[UnoSelect, int, int]:
    """The playable cards that found no button, in a select paged at 25: ``(select, page,
    pages)``."""
    page_count = (len(rest) + PAGE_SIZE - 1) // PAGE_SIZE
    page = max(0, min(page, page_count - 1))
    options = []
    for ch in rest[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]:
        need = ch.needs()
        desc = None
        if need == "color":
            desc = tr.gettext(text.THEN_COLOR)
        elif need == "target":
            desc = tr.gettext(text.THEN_TARGET)
        options.append(
            discord.SelectOption(
                label=_cut(ch.long(tr), OPTION_MAX), value=ch.key, description=desc,
                emoji=art.emoji(ch.cards[0]) if art is not None else None,
            )
        )  # fmt: skip
    placeholder = tr.gettext(text.MORE_CARDS, page=page + 1, pages=page_count)
    select = UnoSelect(_id("cards", t, v, str(page)), options, placeholder=placeholder)
    return select, page, page_count


def picker_view(
    key: str,
    version: int,
    choice: Choice,
    tr: Translator,
    names: Mapping[str, str],
    art: CardEmojis | None = None,
) -> tuple[str, discord.ui.View]:
    """After choosing a card that still needs a colour or a player: one button each (with
    card emojis, a wild's colours are the wild in each)."""
    t, v = channel_of(key), version
    view = discord.ui.View(timeout=None)
    need = choice.needs()
    cards = choice.long(tr)
    if need == "color":
        prompt = tr.gettext(text.CHOOSE_COLOR, cards=cards)
    elif need == "target":
        prompt = tr.gettext(text.CHOOSE_TARGET, cards=cards)
    else:
        prompt = tr.gettext(text.CHOOSE_PLAY, cards=cards)
    n = 0
    for p in choice.plays:
        arg = ids.encode_play(p, key)
        if arg is None or n >= (ROWS - 1) * PER_ROW:
            continue
        emoji = None
        if need == "color" and p.color is not None and art is not None:
            label, style = render.color_name(p.color, tr), _COLOR_STYLE[p.color]
            emoji = art.emoji(p.card, p.color)
        elif need == "color" and p.color is not None:
            label, style = render.color_text(p.color, tr), _COLOR_STYLE[p.color]
        elif need == "target" and p.target is not None:
            label, style = names.get(p.target, p.target), discord.ButtonStyle.primary
        else:
            label, style = render.action_label(p, tr, names), discord.ButtonStyle.primary
        view.add_item(
            _button("play", t, v, label, arg=arg, style=style, row=n // PER_ROW, emoji=emoji)
        )
        n += 1
    view.add_item(_button("back", t, v, tr.gettext(text.BACK), row=ROWS - 1))
    return prompt, view


# -- settings and kicking ---------------------------------------------------------------------

_INT_CHOICES: dict[str, tuple[int, ...]] = {
    "uno_penalty": (0, 1, 2, 4),
    "false_uno_penalty": (0, 1, 2),
    "target": (0, 100, 200, 300, 500, 1000),
    "hand_size": (5, 7, 10, 15),
    "turn_seconds": (15, 30, 45, 60, 90, 120, 300),
    "afk_strikes": (0, 2, 3, 5),
    "uno_window_seconds": (0, 3, 5, 10, 20),
    "challenge_seconds": (10, 20, 30, 60),
}
FLAGS_PER_PAGE = 3


def settings_flags() -> list[str]:
    return list(Rules.model_fields)


def flag_values(flag: str, current: Any) -> list[Any]:
    """The values offered for ``flag`` (its current one always among them)."""
    values: list[Any] = render.flag_menu_values(flag) or list(_INT_CHOICES.get(flag, ()))
    if current not in values:
        values.append(current)
        if all(isinstance(x, int) and not isinstance(x, bool) for x in values):
            values.sort()
    return values[:PAGE_SIZE]


def encode_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def decode_value(flag: str, raw: str, rules: Rules) -> Any:
    """A select's value back into the flag's type: one of the values the menu offers at
    a table with ``rules`` (``ValueError`` for anything else, a forged value)."""
    if flag not in Rules.model_fields:
        raise ValueError(flag)
    for value in flag_values(flag, getattr(rules, flag)):
        if encode_value(value) == raw:
            return value
    raise ValueError(raw)


def settings_view(info: TableInfo, tr: Translator, page: int) -> tuple[str, discord.ui.View, int]:
    """The settings message: the rules, a preset select, a select per flag (3 a page)."""
    t, v = channel_of(info.key), info.version
    flags = settings_flags()
    pages = (len(flags) + FLAGS_PER_PAGE - 1) // FLAGS_PER_PAGE
    page = max(0, min(page, pages - 1))
    rules = info.rules
    shown = flags[page * FLAGS_PER_PAGE : (page + 1) * FLAGS_PER_PAGE]
    lines = [tr.gettext(text.SETTINGS_TITLE), render.rules_summary(rules, tr, info.preset), ""]
    # a flag with nothing to act on (deflect without stacking) may still be set, for when
    # what it needs is on: every mention of its value says it is inactive, on or off
    notes = {flag: render.inactive_note(flag, rules, tr) for flag in shown}
    for flag in shown:
        lines.append(
            tr.gettext(text.FLAG_CHOICE, flag=render.flag_name(flag, tr),
                       value=render.flag_value(flag, getattr(rules, flag), tr))
            + notes[flag] + " — " + render.flag_help(flag, tr)
        )  # fmt: skip
    lines.append("")
    lines.append(tr.gettext(text.SETTINGS_HINT))
    view = discord.ui.View(timeout=None)
    presets = [
        discord.SelectOption(
            label=render.preset_name(name, tr), value=name, default=name == info.preset
        )
        for name in Rules.PRESET_NAMES
    ]
    view.add_item(
        UnoSelect(
            _id("preset", t, v), presets, placeholder=tr.gettext(text.PRESET_PLACEHOLDER), row=0
        )
    )
    for i, flag in enumerate(shown, 1):
        current = getattr(rules, flag)
        options = [
            discord.SelectOption(
                label=_cut(render.flag_value(flag, value, tr) + notes[flag], OPTION_MAX),
                value=encode_value(value),
                default=value == current and type(value) is type(current),
            )
            for value in flag_values(flag, current)
        ]
        placeholder = tr.gettext(
            text.FLAG_CHOICE, flag=render.flag_name(flag, tr),
            value=render.flag_value(flag, current, tr),
        ) + notes[flag]  # fmt: skip
        view.add_item(UnoSelect(_id("flag", t, v, flag), options, placeholder=placeholder, row=i))
    if pages > 1:
        view.add_item(
            _button("setpage", t, v, "◀", arg=str(max(page - 1, 0)), disabled=page == 0, row=4)
        )
        view.add_item(
            _button("refresh", t, v, tr.gettext(text.SETTINGS_PAGE, page=page + 1, pages=pages),
                    arg=str(page), disabled=True, row=4)
        )  # fmt: skip
        view.add_item(
            _button("setpage", t, v, "▶", arg=str(min(page + 1, pages - 1)),
                    disabled=page >= pages - 1, row=4)
        )  # fmt: skip
    return "\n".join(lines), view, page


def kick_view(info: TableInfo, by: str, tr: Translator) -> discord.ui.View | None:
    """A select of everyone at the table but ``by`` (bots too)."""
    t, v = channel_of(info.key), info.version
    options = []
    for s in info.seats:
        arg = ids.encode_player(s.id, info.key)
        if s.id == by or arg is None:
            continue
        label = f"{s.name} 🤖" if s.bot is not None else s.name
        options.append(discord.SelectOption(label=_cut(label, OPTION_MAX), value=arg))
    if not options:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(
        UnoSelect(
            _id("kick", t, v), options[:PAGE_SIZE], placeholder=tr.gettext(text.KICK_PLACEHOLDER)
        )
    )
    return view
