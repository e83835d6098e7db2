"""What each message of the bot shows as components, from ``bot.ui.controls``: the public
table's (``table_controls``), a player's hand (``hand_menu``: the card buttons, a picker for
a card whose plays still differ in colour or player, a select for the cards that find no
button), the settings (``settings_menu``) and the kick menu (``kick_menu``). Deciding what
to offer is ``bot.ui.controls``'; here it is only laid out as Discord allows: at most 5
rows of 5 buttons, a select alone on its row with at most 25 options, labels of 80
characters, custom ids of 100 (``ids``) and each one once on a message.

The components are discord.py's plain ``Button`` and ``Select``: a press comes back through
the client's one ``on_interaction`` (``inbound.presses``), never through an item's callback.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from adapters.discord import ids, text
from adapters.discord.markup import channel_of
from bot.port import TableInfo
from bot.ui import controls, render
from bot.ui import settings_schema as schema
from bot.ui.controls import Control, Row, Style
from bot.ui.i18n import LANGUAGES, Translator, translator
from bot.ui.intents import (
    Act,
    AddBot,
    Autopilot,
    Back,
    Choose,
    CloseSettings,
    Join,
    Kick,
    LeaveTable,
    OpenHand,
    OpenSettings,
    Page,
    Pick,
    Refresh,
    SetFlag,
    SetPreset,
    Start,
    VoteEnd,
)
from engine import COLORS, Action, Card, ChooseColor, Draw, Play, View

if TYPE_CHECKING:
    from adapters.discord.emojis import CardEmojis

__all__ = [
    "CARD_ROWS",
    "LABEL_MAX",
    "OPTION_MAX",
    "PAGE_SIZE",
    "PER_ROW",
    "ROWS",
    "Choice",
    "button",
    "hand_choices",
    "hand_view",
    "kick_view",
    "layout",
    "menu_of",
    "message_components",
    "picker_view",
    "select",
    "select_values",
    "settings_view",
    "table_view",
    "uno_plays",
]

CARD_ROWS = 4  # rows of card buttons when the hand needs no select
UNO_MARK = "!"  # a choice's key: its plays call UNO with the card (the codec's too)
_COLOR_STYLE: dict[object, Style] = dict(
    zip(COLORS, ("danger", "secondary", "success", "primary"), strict=True)
)


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
# the intents a button carries (the rest are a select's: ``Choose`` and its options)
BUTTON_INTENTS = (
    Act, Join, LeaveTable, AddBot, Start, OpenHand, Refresh, OpenSettings, CloseSettings,
    Pick, Page, Back, Autopilot, VoteEnd,
)  # fmt: skip


def cut(label: str, limit: int = LABEL_MAX) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"


def select_values(interaction: discord.Interaction[Any]) -> tuple[str, ...]:
    """The values chosen in a select menu (as Discord sent them: still to be checked)."""
    data: Mapping[str, Any] = interaction.data or {}
    values = data.get("values")
    if not isinstance(values, list | tuple):
        return ()
    return tuple(str(v) for v in values)


def message_components(msg: discord.Message) -> list[discord.ui.Item[Any]]:
    """Every component of ``msg`` as discord.py reads it back (``View.from_message``)."""
    cls = discord.ui.LayoutView if msg.flags.components_v2 else discord.ui.View
    return list(cls.from_message(msg, timeout=None).walk_children())


# -- controls to components -------------------------------------------------------------------


def button(
    control: Control,
    channel: int,
    *,
    row: int | None = None,
    emoji: discord.PartialEmoji | None = None,
    label: str | None = None,
    style: discord.ButtonStyle | None = None,
) -> discord.ui.Button[Any] | None:
    """The button of ``control`` (``None``: its intent cannot be a custom id here)."""
    custom_id = ids.encode(control.intent, channel)
    if custom_id is None or not isinstance(control.intent, BUTTON_INTENTS):
        return None
    text_ = control.label if label is None else label
    return discord.ui.Button(
        label=cut(text_) if text_ else None,
        style=STYLES[control.style] if style is None else style,
        custom_id=custom_id,
        disabled=not control.enabled,
        emoji=emoji,
        row=row,
    )


def select(
    row: Row,
    channel: int,
    *,
    at: int | None = None,
    emojis: Iterable[discord.PartialEmoji | None] = (),
) -> discord.ui.Select[Any] | None:
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
    placeholder = cut(row.title, PLACEHOLDER_MAX) if row.title else None
    return discord.ui.Select(
        custom_id=custom_id, options=options, placeholder=placeholder,
        min_values=1, max_values=1, row=at,
    )  # fmt: skip


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
    if b.custom_id not in taken:
        return b
    if c.enabled:
        return None  # the same press twice: once is enough
    n = sum(1 for x in taken if isinstance(x, str) and x.startswith("inert:"))
    return discord.ui.Button(
        label=cut(c.label), style=STYLES[c.style], custom_id=f"inert:{n}", disabled=True, row=at
    )


# -- the public table -------------------------------------------------------------------------

# What Discord declares of the table's controls: UNO! always there (a press by someone who
# may not call is refused), the colours chosen in the chooser's own hand, not on the table.
TABLE_OPTIONS: dict[str, Any] = {"uno": "always", "colors": False}


def table_view(info: TableInfo, tr: Translator, web: str | None = None) -> discord.ui.View | None:
    """The table message's buttons (``bot.ui.controls.table_controls``); ``None`` when the
    table is over. ``web``: the public link to the web table (anyone may watch there), a
    link button after the rest while the table is open, where the rows have room."""
    rows = controls.table_controls(info, tr, **TABLE_OPTIONS)
    if not rows:
        return None
    view = layout(rows, channel_of(info.key))
    if web is not None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            style=discord.ButtonStyle.link, url=web, label=tr.gettext(text.WATCH_TABLE), emoji="🎴"
        )
        with contextlib.suppress(ValueError):  # five full rows: the game's buttons come first
            view.add_item(button)
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


def hand_choices(hand: Sequence[Card], plays: Sequence[Play]) -> list[Choice]:
    """One choice per distinct card in the hand (in card order, unplayable ones too), then
    the plays of several cards together; before them, the plays that call UNO with the
    card (key ending ``!``: ``bot.ui.controls.with_uno_twins`` offers one beside each play
    that leaves one card)."""
    n_of: dict[Card, int] = {}
    for c in sorted(hand, key=lambda c: c.order):
        n_of[c] = n_of.get(c, 0) + 1
    groups: dict[str, list[Play]] = {}
    twins: dict[str, list[Play]] = {}
    for p in plays:
        key = ids.group_key(p)
        (twins if p.uno else groups).setdefault(key, []).append(p)
    out = [
        Choice(key + UNO_MARK, calls[0].cards, calls) for key, calls in twins.items()
    ]  # fmt: skip
    out += [Choice(c.code, (c,), groups.pop(c.code, []), n) for c, n in n_of.items()]
    out += [Choice(key, group[0].cards, group) for key, group in groups.items()]
    return out


def uno_plays(group: str, plays: Sequence[Play]) -> list[Play]:
    """The plays of a choice's key (``R5``; ``R5!``: those calling UNO with the card)."""
    uno = group.endswith(UNO_MARK)
    base = group.removesuffix(UNO_MARK)
    return [p for p in plays if p.uno is uno and ids.group_key(p) == base]


def menu_plays(rows: Sequence[Row]) -> list[Play]:
    """The plays a hand menu offers (its ``cards`` row)."""
    return [
        c.intent.action
        for r in rows
        if r.menu == "cards"
        for c in r
        if isinstance(c.intent, Act) and isinstance(c.intent.action, Play)
    ]


def _choice_button(
    ch: Choice, channel: int, version: int, *, row: int, art: CardEmojis | None, dim: bool
) -> discord.ui.Item[Any] | None:
    """A card's button: its play, or its picker when its plays still differ (disabled when
    it has none). ``dim``: the player has a move to make, and this card is not part of it."""
    style: Style = "primary" if ch.playable else "secondary"
    label, emoji = ch.pictured(art, dim=dim and not ch.playable)
    if len(ch.plays) == 1:
        b = button(Control(Act(ch.plays[0], version), "", style), channel, row=row,
                         label=label or "", emoji=emoji)  # fmt: skip
        if b is not None:
            return b
    pick = Control(Pick(ch.key, version), "", style, enabled=ch.playable)
    return button(pick, channel, row=row, label=label or "", emoji=emoji)


def hand_view(
    info: TableInfo,
    hand: View,
    legal: Sequence[Action],
    tr: Translator,
    *,
    page: int = 0,
    art: CardEmojis | None = None,
) -> tuple[discord.ui.View, int, int]:
    """The hand's components (``bot.ui.controls.hand_menu``): ``(view, page, pages)``.

    Each card of the hand is a button (unplayable ones disabled; with card emojis, its
    picture, dimmed when the player has a move to make and the card is not part of it);
    when they do not all fit in the rows the colours and the other moves leave, the rest
    of the playable ones go in a select paged at 25. Plays that call UNO come first, as
    "card · UNO!" buttons. The last row ends with "Play for me" (or "Take my seat back")."""
    channel, version = channel_of(info.key), info.version
    rows = controls.hand_menu(info, hand, legal, tr)
    others = [(c, c.intent.action) for r in rows if r.menu != "cards" for c in r
              if isinstance(c.intent, Act)]  # fmt: skip
    colors = [c for c, a in others if isinstance(a, ChooseColor)]
    pilot = [c for r in rows for c in r if isinstance(c.intent, Autopilot)][:1]
    moves = [c for c, a in others if not isinstance(a, ChooseColor)][: PER_ROW - len(pilot)]
    choices = hand_choices(hand.hand or (), menu_plays(rows))
    view = discord.ui.View(timeout=None)
    row = 0
    if colors:
        layout([Row(tuple(colors))], channel, view)
        row = 1
    rows_left = ROWS - row - (1 if moves or pilot else 0)
    if len(choices) <= min(rows_left, CARD_ROWS) * PER_ROW:
        shown, rest = choices, []
    else:  # the rows left once a select and a bottom row (moves, pages) are kept free
        shown = choices[: (ROWS - row - 2) * PER_ROW]
        rest = [c for c in choices[len(shown) :] if c.playable]
    moving = any(isinstance(a, Play | Draw) for a in legal)
    for i, ch in enumerate(shown):
        b = _choice_button(ch, channel, version, row=row + i // PER_ROW, art=art, dim=moving)
        if b is not None:
            view.add_item(b)
    row += (len(shown) + PER_ROW - 1) // PER_ROW
    bottom: list[discord.ui.Item[Any]] = []
    pages = 1
    if rest:
        pages = (len(rest) + PAGE_SIZE - 1) // PAGE_SIZE
        page = max(0, min(page, pages - 1))
        view.add_item(_more_cards(rest[page * PAGE_SIZE :], channel, version, tr, page, pages,
                                  art, row))  # fmt: skip
        row += 1
        if pages > 1:
            bottom = _page_buttons(channel, version, page, pages, row)
    for c in moves[: PER_ROW - len(bottom) - len(pilot)]:
        emoji = art.back() if art is not None and isinstance(c.intent, Act) and isinstance(
            c.intent.action, Draw) else None  # fmt: skip
        b = button(c, channel, row=row, emoji=emoji)
        if b is not None:
            bottom.append(b)
    for c in pilot:
        b = button(c, channel, row=row)
        if b is not None:
            bottom.append(b)
    for b in bottom:
        b.row = row
        view.add_item(b)
    return view, page, pages


def _page_buttons(
    channel: int, version: int, page: int, pages: int, row: int
) -> list[discord.ui.Item[Any]]:
    nav = [
        Control(Page(max(page - 1, 0), version), "◀", enabled=page > 0),
        Control(Page(min(page + 1, pages - 1), version), "▶", enabled=page < pages - 1),
    ]
    return [b for c in nav if (b := button(c, channel, row=row)) is not None]


def _more_cards(
    rest: Sequence[Choice],
    channel: int,
    version: int,
    tr: Translator,
    page: int,
    pages: int,
    art: CardEmojis | None,
    row: int,
) -> discord.ui.Item[Any]:
    """The playable cards that found no button, in a select (this page's 25)."""
    options = []
    for ch in rest[:PAGE_SIZE]:
        need = ch.needs()
        desc = ""
        if need == "color":
            desc = tr.gettext(text.THEN_COLOR)
        elif need == "target":
            desc = tr.gettext(text.THEN_TARGET)
        options.append(Control(Pick(ch.key, version), ch.long(tr), detail=desc))
    emojis = [art.emoji(ch.cards[0]) if art is not None else None for ch in rest[:PAGE_SIZE]]
    title = tr.gettext(text.MORE_CARDS, page=page + 1, pages=pages)
    found = select(Row(tuple(options), True, "cards", title), channel, at=row,
                         emojis=emojis)  # fmt: skip
    assert found is not None
    return found


def picker_view(
    info: TableInfo,
    choice: Choice,
    tr: Translator,
    art: CardEmojis | None = None,
) -> tuple[str, discord.ui.View]:
    """After choosing a card that still needs a colour or a player: one button each (with
    card emojis, a wild's colours are the wild in each), and Back."""
    channel, version, names = channel_of(info.key), info.version, info.names
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
        if n >= (ROWS - 1) * PER_ROW:
            break
        emoji = None
        style: Style = "primary"
        if need == "color" and p.color is not None:
            style = _COLOR_STYLE[p.color]
            label = render.color_text(p.color, tr)
            if art is not None:
                label, emoji = render.color_name(p.color, tr), art.emoji(p.card, p.color)
        elif need == "target" and p.target is not None:
            label = names.get(p.target, p.target)
        else:
            label = render.action_label(p, tr, names)
        b = button(Control(Act(p, version), label, style), channel, row=n // PER_ROW,
                         emoji=emoji)  # fmt: skip
        if b is not None:
            view.add_item(b)
            n += 1
    back = button(Control(Back(version), tr.gettext(text.BACK)), channel, row=ROWS - 1)
    if back is not None:
        view.add_item(back)
    return prompt, view


# -- settings and kicking ---------------------------------------------------------------------


def settings_view(info: TableInfo, tr: Translator, page: int) -> tuple[str, discord.ui.View, int]:
    """The settings message (``bot.ui.controls.settings_menu``): the rules, then a preset
    select, a select per flag of the page, the pages and Done."""
    page = max(0, min(page, len(schema.pages()) - 1))
    lines = [
        tr.gettext(text.SETTINGS_TITLE),
        schema.rules_summary(info.rules, tr, info.preset),
        "",
        *controls.settings_lines(info, page, tr),
        "",
        tr.gettext(text.SETTINGS_HINT),
    ]
    view = layout(controls.settings_menu(info, page, tr), channel_of(info.key))
    return "\n".join(lines), view, page


def kick_view(info: TableInfo, by: str, tr: Translator) -> discord.ui.View | None:
    """A select of everyone at the table but ``by`` (bots too)."""
    rows = controls.kick_menu(info, tr, by)
    if not rows:
        return None
    view = layout(rows, channel_of(info.key))
    return view if view.children else None


# -- which private message a press is on --------------------------------------------------------


def menu_of(msg: discord.Message) -> str | None:
    """Which private menu ``msg`` is (``settings``, ``kick``), judged by what this bot draws
    on each: a settings menu has its preset and flag selects and nothing but its page
    buttons and Done besides; a kick menu is its one select under its prompt. A hand
    message is neither, whatever was slipped into it. (Menus drawn before the codec are
    judged by their old ids.)"""
    kinds: list[str] = []
    try:
        found = message_components(msg)
    except Exception:  # a message discord.py cannot read back is none of ours
        return None
    for item in found:
        kind = _kind(item)
        if kind is None:
            return None
        kinds.append(kind)
    if {"preset", "flag"} <= set(kinds) <= {"preset", "flag", "page", "done", "inert"}:
        return "settings"
    if kinds == ["kick"] and msg.content in _kick_prompts():
        return "kick"
    return None


def _kind(item: discord.ui.Item[Any]) -> str | None:
    custom_id = getattr(item, "custom_id", None)
    if not isinstance(custom_id, str):
        return None
    if custom_id.startswith("inert:"):
        return "inert"
    if custom_id.startswith("uno:"):  # drawn before the codec
        old = custom_id.split(":")[1]
        return {"setpage": "page", "refresh": "inert"}.get(old, old)
    if isinstance(item, discord.ui.Select):
        options = [o.value for o in item.options]
        press = ids.read(custom_id, options[:1], select=True) if options else None
        intent = getattr(press, "raw", None)
        if isinstance(intent, SetPreset):
            return "preset"
        if isinstance(intent, SetFlag):
            return "flag"
        return "kick" if isinstance(intent, Kick) else None
    press = ids.read(custom_id, (), select=False)
    intent = getattr(press, "raw", None)
    if isinstance(intent, OpenSettings):
        return "page"
    return "done" if isinstance(intent, CloseSettings) else None


@functools.cache
def _kick_prompts() -> frozenset[str]:
    return frozenset(translator(lang).gettext(controls.KICK_PROMPT) for lang in LANGUAGES)
