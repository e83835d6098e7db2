"""Naming a colour (ChooseColor): after a wild played without one, or on a wild start card."""

from __future__ import annotations

from engine.cards import COLORS
from engine.events import (
    ColorChosen,
    Event,
)
from engine.game import Game
from engine.play.base import PLAYING, own
from engine.play.playing import resolve
from engine.play.scoring import settle_out


def name_missing_color(g: Game, pid: str, ev: list[Event]) -> None:
    """A colour that was never named: chosen at random (RULES.md section 4), or under
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
