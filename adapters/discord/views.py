"""What each message of the bot shows as components, from ``bot.controls``: the public
table's (``table_controls``), a player's hand (``hand_menu``: the card buttons, a picker for
a card whose plays still differ in colour or player, a select for the cards that find no
button), the settings (``settings_menu``) and the kick menu (``kick_menu``). Deciding what
to offer is ``bot.controls``'; here it is only laid out as Discord allows (``items``).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from adapters.discord import ids, items, text
from adapters.discord.items import PAGE_SIZE, PER_ROW, ROWS, layout
from adapters.discord.markup import channel_of
from bot import controls, render
from bot import settings_schema as schema
from bot.controls import Control, Row, Style
from bot.i18n import LANGUAGES, Translator, translator
from bot.intents import (
    Act,
    Autopilot,
    Back,
    CloseSettings,
    Kick,
    OpenSettings,
    Page,
    Pick,
    SetFlag,
    SetPreset,
)
from bot.port import TableInfo
from engine import COLORS, Action, Card, ChooseColor, Draw, Play, View

if TYPE_CHECKING:
    from adapters.discord.emojis import CardEmojis

__all__ = [
    "CARD_ROWS",
    "Choice",
    "hand_choices",
    "hand_view",
    "kick_view",
    "menu_of",
    "picker_view",
    "settings_view",
    "table_view",
    "uno_plays",
]

CARD_ROWS = 4  # rows of card buttons when the hand needs no select
UNO_MARK = "!"  # a choice's key: its plays call UNO with the card (the codec's too)
_COLOR_STYLE: dict[object, Style] = dict(
    zip(COLORS, ("danger", "secondary", "success", "primary"), strict=True)
)


# -- the public table -------------------------------------------------------------------------

# What Discord declares of the table's controls: UNO! always there (a press by someone who
# may not call is refused), the colours chosen in the chooser's own hand, not on the table.
TABLE_OPTIONS: dict[str, Any] = {"uno": "always", "colors": False}


def table_view(info: TableInfo, tr: Translator) -> discord.ui.View | None:
    """The table message's buttons (``bot.controls.table_controls``); ``None`` when the
    table is over."""
    rows = controls.table_controls(info, tr, **TABLE_OPTIONS)
    return layout(rows, channel_of(info.key)) if rows else None


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
    card (key ending ``!``: ``bot.controls.with_uno_twins`` offers one beside each play
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
        b = items.button(Control(Act(ch.plays[0], version), "", style), channel, row=row,
                         label=label or "", emoji=emoji)  # fmt: skip
        if b is not None:
            return b
    pick = Control(Pick(ch.key, version), "", style, enabled=ch.playable)
    return items.button(pick, channel, row=row, label=label or "", emoji=emoji)


def hand_view(
    info: TableInfo,
    hand: View,
    legal: Sequence[Action],
    tr: Translator,
    *,
    page: int = 0,
    art: CardEmojis | None = None,
) -> tuple[discord.ui.View, int, int]:
    """The hand's components (``bot.controls.hand_menu``): ``(view, page, pages)``.

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
        b = items.button(c, channel, row=row, emoji=emoji)
        if b is not None:
            bottom.append(b)
    for c in pilot:
        b = items.button(c, channel, row=row)
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
    return [b for c in nav if (b := items.button(c, channel, row=row)) is not None]


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
    found = items.select(Row(tuple(options), True, "cards", title), channel, at=row,
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
        b = items.button(Control(Act(p, version), label, style), channel, row=n // PER_ROW,
                         emoji=emoji)  # fmt: skip
        if b is not None:
            view.add_item(b)
            n += 1
    back = items.button(Control(Back(version), tr.gettext(text.BACK)), channel, row=ROWS - 1)
    if back is not None:
        view.add_item(back)
    return prompt, view


# -- settings and kicking ---------------------------------------------------------------------


def settings_view(info: TableInfo, tr: Translator, page: int) -> tuple[str, discord.ui.View, int]:
    """The settings message (``bot.controls.settings_menu``): the rules, then a preset
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
        found = items.message_components(msg)
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
