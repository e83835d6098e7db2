"""What a player can do: small frozen dataclasses (ENGINE.md, "Actions").

Card and colour arguments accept a ``Card``/``Color`` or its code. ``Play.together`` is
kept sorted, so the order in which extra cards are given does not matter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card, Color

__all__ = [
    "Accept",
    "Action",
    "CallUno",
    "CatchUno",
    "Challenge",
    "ChooseColor",
    "Draw",
    "Leave",
    "NextRound",
    "Pass",
    "Play",
    "Timeout",
]


def _card(value: Any) -> Card:
    return Card.parse(value)


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` (in turn or as a jump-in).

    ``color``: the colour named for a wild (``None`` asks for it afterwards), or under
    ``multi_play=same_rank`` the played colour that stays in play. ``target``: the player to
    swap hands with (swap rules). ``together``: further cards played with it. ``uno=True``
    calls UNO with the play.
    """

    card: Card
    color: Color | None = None
    target: str | None = None
    together: tuple[Card, ...] = field(default=())
    uno: bool = False

    def __post_init__(self) -> None:
        s = object.__setattr__
        if not isinstance(self.card, Card):
            s(self, "card", _card(self.card))
        if self.color is not None and not isinstance(self.color, Color):
            s(self, "color", Color.parse(self.color))
        if isinstance(self.together, (str, Card)):
            raise ValueError("together must be a sequence of cards")
        tog = tuple(_card(c) for c in self.together)
        if len(tog) > 1:
            tog = tuple(sorted(tog, key=lambda c: c.order))
        s(self, "together", tog)
        if self.target is not None and not isinstance(self.target, str):
            raise ValueError("target must be a player id")
        if not isinstance(self.uno, bool):
            s(self, "uno", bool(self.uno))

    @property
    def cards(self) -> tuple[Card, ...]:
        """All cards played: ``card`` then ``together``."""
        return (self.card, *self.together)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw one card (or until playable, per the rules)."""


@dataclass(frozen=True, slots=True)
class Pass:
    """After drawing, keep the card and end the turn."""


@dataclass(frozen=True, slots=True)
class Accept:
    """Take the pending penalty (draw the total, lose the turn)."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the Wild Draw Four just played on you."""


@dataclass(frozen=True, slots=True)
class ChooseColor:
    """Name the colour when asked."""

    color: Color

    def __post_init__(self) -> None:
        if not isinstance(self.color, Color):
            object.__setattr__(self, "color", Color.parse(self.color))


@dataclass(frozen=True, slots=True)
class CallUno:
    """Call UNO while holding one card."""


@dataclass(frozen=True, slots=True)
class CatchUno:
    """Catch ``target``, who holds one card and has not called UNO."""

    target: str


@dataclass(frozen=True, slots=True)
class Leave:
    """Leave the game (docs/rules.md section 4)."""


@dataclass(frozen=True, slots=True)
class Timeout:
    """Sent by the service when a deadline passed: ``window`` is ``"turn"`` or ``"uno"``."""

    window: str = "turn"


@dataclass(frozen=True, slots=True)
class NextRound:
    """Deal the next round after a round ended."""


Action = (
    Play
    | Draw
    | Pass
    | Accept
    | Challenge
    | ChooseColor
    | CallUno
    | CatchUno
    | Leave
    | Timeout
    | NextRound
)
ACTION_TYPES = (
    Play,
    Draw,
    Pass,
    Accept,
    Challenge,
    ChooseColor,
    CallUno,
    CatchUno,
    Leave,
    Timeout,
    NextRound,
)
