"""Naming a colour (``ChooseColor``): after a wild played without one (its effect waits
for the colour: ``g.deferred``), or on a wild start card (the first player names it, then
plays). A colour never named (a timeout, a leave) is chosen at random, or kept under
``color_timeout=keep``.
"""

from __future__ import annotations

from engine.actions import Action, ChooseColor
from engine.cards import COLORS, Color
from engine.errors import Code
from engine.events import ColorChosen, Event
from engine.game import Game
from engine.play.base import (
    CHOOSE,
    CHOOSING,
    PLAYING,
    Refusal,
    check,
    own,
)
from engine.play.playing import resolve
from engine.play.scoring import settle_out

_NOT_ASKED: Refusal = (Code.NO_COLOR_NEEDED, "no colour is asked for now")
_OTHER_NAMES: Refusal = (Code.NOT_YOUR_TURN, "another player names the colour")
_NOT_A_COLOR: Refusal = (Code.BAD_ACTION, "not a colour")


def choose_color_refusal(g: Game, s: int, color: Color | None = COLORS[0]) -> Refusal | None:
    """In phase ``CHOOSING`` the current player names one of the four colours."""
    if g.phase_ is not CHOOSING:
        return _NOT_ASKED
    if s != g.cur:
        return _OTHER_NAMES
    if color not in COLORS:
        return _NOT_A_COLOR
    return None


def verify_choose_color(g: Game, s: int, a: ChooseColor) -> None:
    check(choose_color_refusal(g, s, a.color))


def can_choose_color(g: Game, s: int, color: Color | None = COLORS[0]) -> bool:
    return choose_color_refusal(g, s, color) is None


def list_colors(g: Game, s: int, out: list[Action]) -> None:
    """One ``ChooseColor`` per colour, when seat ``s`` names one."""
    if choose_color_refusal(g, s) is None:
        out.extend(CHOOSE)


def do_choose_color(g: Game, s: int, a: ChooseColor, ev: list[Event]) -> None:
    g.play_color = a.color
    ev.append(ColorChosen(g.players_[s], a.color))
    after_color(g, ev)


def name_missing_color(g: Game, pid: str, ev: list[Event]) -> None:
    """A colour that was never named: chosen at random (docs/rules.md section 4), or under
    ``color_timeout=keep`` the colour in play before the wild stays (seed 001: "如果忘记说颜色，
    则以之前颜色为准"); a wild start card had none before it: random then too."""
    kept = g.kept_color
    if kept is not None:
        g.play_color = kept
        ev.append(ColorChosen(pid, kept, kept=True))
        return
    own(g)
    color = COLORS[g.rng.below(4)]
    g.play_color = color
    ev.append(ColorChosen(pid, color, random=True))


def after_color(g: Game, ev: list[Event], *, settle: bool = True) -> None:
    how = g.after_color
    g.after_color = None
    g.kept_color = None
    g.phase_ = PLAYING
    if how == "effect" and g.deferred is not None:
        pid, rank, k, kind, w4_legal = g.deferred
        g.deferred = None
        s = g.seat[pid]
        resolve(g, s, rank, k, kind, w4_legal, ev)
        if settle and g.rules.places and not g.hands[s]:
            settle_out(g, s, ev)
