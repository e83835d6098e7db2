"""What a card may be played on, and how one play expands into listed actions.

Matching (a wild, the colour in play, the top card's number or symbol; ``after_penalty=
same_color``: only the colour), the Wild Draw Four rule (``draw_four_when``,
``wild_draw_four``), the groups of ``multi_play``, and the colour a play names. Each rule
gives the listings a fast predicate and the refusals (``playing.play_refusal``) its
reason, side by side.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from engine.actions import Action, Play
from engine.cards import COLORS, Card, Color
from engine.errors import Code
from engine.game import Game
from engine.play.base import W4, Refusal, W, play_of
from engine.play.last_card import NOT_LAST
from engine.play.swap import swap_kind, swap_targets
from engine.rules import Rules
from engine.view import View


def draw_four_legal(game: Game | View, player: str | None = None) -> bool:
    """Whether ``player`` (a view: its viewer) could play a Wild Draw Four now without
    bluffing: the rule a challenge checks (``draw_four_when``). For bot seats, which play
    one only legally, and for a hand's hints."""
    if isinstance(game, Game):
        assert player is not None
        return w4_is_legal(game, game.hands[game.seat[player]])
    v = game
    return w4_fits(v.rules, v.follow, list(v.hand or ()), v.color, v.top)


def holds_color(hand: list[Card], color: Color | None) -> bool:
    for c in hand:  # noqa: SIM110 - a plain loop is faster than any() on the hot path
        if c.color is color:
            return True
    return False


def w4_is_legal(g: Game, hand: list[Card]) -> bool:
    """Whether a Wild Draw Four from ``hand`` is a legal play now, not a bluff (what a
    challenge checks). docs/rules.md: no card of the colour in play. ``draw_four_when=no_play``
    (seeds 003, 004, and 000's option): no other card of the hand can be played at all;
    cards of the colour in play and of the top card's number or symbol count, wilds do not
    (seed 003: "黑色牌不算"). After a taken +2 under ``after_penalty=same_color`` only the
    colour in play can be played, so only it counts."""
    return w4_fits(g.fl, g.follow, hand, g.play_color, g.discard[-1])


def w4_fits(rules: Rules, follow: bool, hand: list[Card], color: Color | None, top: Card) -> bool:
    if rules.draw_four_when == "no_color" or follow:
        return not holds_color(hand, color)
    trank = None if top.is_wild else top.rank
    for c in hand:  # noqa: SIM110 - as holds_color
        if (c.color is color or c.rank is trank) and not c.is_wild:
            return False
    return True


def w4_ok(g: Game, hand: list[Card]) -> bool:
    """Whether a Wild Draw Four is allowed at all (``no_bluff`` refuses an illegal one)."""
    return g.fl.wild_draw_four != "no_bluff" or w4_is_legal(g, hand)


def matches(g: Game, c: Card, hand: list[Card]) -> bool:
    """A normal play (no penalty pending): wild, colour in play, or same number/symbol.
    After a taken +2 under ``after_penalty=same_color`` (seed 000: "罰摸者的下家繼續出同最後
    一個 +2 顏色相同的牌"): the colour in play, or a +4 ("+4：可以在任何時候出")."""
    if c.is_wild:
        if g.follow:
            return c.rank is W4 and w4_ok(g, hand)
        return c.rank is not W4 or w4_ok(g, hand)
    if c.color is g.play_color:
        return True
    if g.follow:
        return False
    top = g.discard[-1]
    return c.rank is top.rank and not top.is_wild


def groups_for(g: Game, hand: list[Card], lead: Card) -> list[tuple[Card, ...]]:
    """The ``together`` tuples ``lead`` may be played with under ``multi_play``."""
    mode = g.fl.multi_play
    out: list[tuple[Card, ...]] = [()]
    if mode == "off":
        return out
    if mode == "identical" or lead.is_wild:
        extra = hand.count(lead) - 1
        out.extend((lead,) * k for k in range(1, extra + 1))
        return out
    counts: dict[Card, int] = {}
    for c in hand:
        if c.rank is lead.rank:
            counts[c] = counts.get(c, 0) + 1
    counts[lead] -= 1
    kinds = sorted((c for c in counts if counts[c] > 0), key=lambda c: c.order)
    for ks in product(*(range(counts[c] + 1) for c in kinds)):
        if any(ks):
            tog: list[Card] = []
            for c, k in zip(kinds, ks, strict=True):
                tog.extend((c,) * k)
            out.append(tuple(tog))
    return out


def emit_plays(
    g: Game,
    s: int,
    hand: list[Card],
    lead: Card,
    groups: Sequence[tuple[Card, ...]],
    out: list[Action],
) -> None:
    """Expand ``lead`` with each group into Plays: wild colours, colour choice, targets."""
    rules = g.fl
    not_last = NOT_LAST[rules.last_card]
    swap = swap_kind(rules, lead.rank)
    for tog in groups:
        empties = len(tog) + 1 == len(hand)
        if empties and lead.rank in not_last:
            continue
        colors: Sequence[Color | None]
        if lead.is_wild:
            colors = COLORS
        elif tog:
            distinct: list[Color] = []
            for c in (lead, *tog):
                if c.color is not None and c.color not in distinct:
                    distinct.append(c.color)
            colors = distinct if len(distinct) > 1 else (None,)
        else:
            colors = (None,)
        if swap == "target" and not empties:
            targets: Sequence[str | None] = swap_targets(g, s)
        else:
            targets = (None,)
        for col in colors:
            for t in targets:
                out.append(play_of(lead, col, t, tog))


_W4_PLAYABLE: Refusal = (
    Code.WILD_DRAW_FOUR_PLAYABLE,
    "a Wild Draw Four only with nothing else to play",
)
_W4_ILLEGAL: Refusal = (
    Code.WILD_DRAW_FOUR_ILLEGAL,
    "a Wild Draw Four only without the colour in play",
)
_FOLLOW: Refusal = (Code.FOLLOW_COLOR, "after a taken +2 the next play follows its colour")
_MULTI_OFF: Refusal = (Code.MULTI_PLAY_OFF, "one card at a time")
_BAD_GROUP: Refusal = (Code.BAD_COMBINATION, "these cards cannot be played together")
_WILD_COLOR: Refusal = (Code.CHOOSE_COLOR, "name a colour for the wild card")
_NO_COLOR: Refusal = (Code.NO_COLOR_NEEDED, "this play takes no colour")
_PLAYED_COLOR: Refusal = (Code.CHOOSE_COLOR, "choose one of the played colours")
_WHICH_COLOR: Refusal = (Code.CHOOSE_COLOR, "choose which played colour stays")


def w4_refusal(g: Game, a: Play, hand: list[Card]) -> Refusal | None:
    """A Wild Draw Four refused outright (``no_bluff``): why."""
    if a.card.rank is not W4 or w4_ok(g, hand):
        return None
    if g.fl.draw_four_when == "no_play" and not g.follow:
        return _W4_PLAYABLE
    return _W4_ILLEGAL


def group_refusal(g: Game, a: Play) -> Refusal | None:
    """``multi_play``: why ``a.together`` may not go with ``a.card`` (one rank; identical
    cards under ``identical``; nothing after a draw, where the drawn card goes alone)."""
    if not a.together:
        return None
    mode = g.fl.multi_play
    if mode == "off":
        return _MULTI_OFF
    if (
        g.drawn is not None
        or any(c.rank is not a.card.rank for c in a.together)
        or (mode == "identical" and any(c is not a.card for c in a.together))
    ):
        return _BAD_GROUP
    return None


def follow_refusal(g: Game, a: Play) -> Refusal | None:
    """``after_penalty=same_color``: a play that would match otherwise, but not in the
    colour to follow (or a plain Wild)."""
    if not g.follow:
        return None
    cards = a.cards
    color = g.play_color
    top = g.discard[-1]
    trank = None if top.is_wild else top.rank
    off = any(c.color is not color for c in cards if not c.is_wild) or a.card.rank is W
    if off and any(c.is_wild or c.color is color or c.rank is trank for c in cards):
        return _FOLLOW
    return None


def match_refusal(g: Game, a: Play, hand: list[Card]) -> Refusal | None:
    """Neither the card nor (``same_rank``) any card played with it matches."""
    if matches(g, a.card, hand) or (a.together and any(matches(g, c, hand) for c in a.together)):
        return None
    return (Code.DOES_NOT_MATCH, f"{a.card.code} does not match")


def named_color_refusal(a: Play) -> Refusal | None:
    """The colour a play names: a wild names one; a ``same_rank`` group of several colours
    names which of them stays (one of them); any other play names none."""
    if a.card.is_wild:  # a wild not listed by now: its colour is what is left to name
        return _WILD_COLOR
    cards = a.cards
    if a.color is not None:
        colors = {c.color for c in cards}
        if len(colors) < 2:
            return _NO_COLOR
        if a.color not in colors:
            return _PLAYED_COLOR
    elif a.together and len({c.color for c in cards}) > 1:
        return _WHICH_COLOR
    return None
