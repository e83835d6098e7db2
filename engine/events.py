"""What happened: frozen dataclasses, past tense, ids and cards only, never text.

Events are complete (the cards drawn, the hand revealed by a challenge). ``redact`` is the
one place that decides what a viewer may see of them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.cards import Card, Color

_T = TypeVar("_T")


def _fast_init(cls: type[_T]) -> type[_T]:
    """Give a frozen, slotted dataclass an ``__init__`` that fills its slots through their
    descriptors: the generated one calls ``object.__setattr__`` per field, which made event
    construction a fifth of the engine's time per action. Same signature, same defaults;
    instances stay frozen (assignment still raises ``FrozenInstanceError``)."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    params = []
    body = []
    env: dict[str, Any] = {}
    for f in fields:
        if f.default is not dataclasses.MISSING:
            env[f"_d_{f.name}"] = f.default
            params.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            env[f"_f_{f.name}"] = f.default_factory
            params.append(f"{f.name}=None")
            body.append(f" if {f.name} is None: {f.name} = _f_{f.name}()")
        else:
            params.append(f.name)
        env[f"_s_{f.name}"] = cls.__dict__[f.name].__set__
        body.append(f" _s_{f.name}(self, {f.name})")
    src = f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body) + "\n"
    exec(src, env)
    init = env["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


__all__ = [
    "CardPlayed",
    "CardsDrawn",
    "ChallengeResolved",
    "ColorChosen",
    "DeckReshuffled",
    "DirectionReversed",
    "Event",
    "GameWon",
    "HandsRotated",
    "HandsSwapped",
    "Passed",
    "PenaltyPassed",
    "PenaltyStacked",
    "PlayerFinished",
    "PlayerJoined",
    "PlayerLeft",
    "RoundStarted",
    "RoundWon",
    "TurnSkipped",
    "TurnTimedOut",
    "UnoCalled",
    "UnoCaught",
    "UnoFalseAlarm",
    "UnoWindowClosed",
    "redact",
]


@_fast_init
@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round was dealt. ``hands`` holds every dealt hand (redacted to the viewer's own);
    ``dealer_draws`` the cards drawn to choose the first dealer (first round only);
    ``pending`` the penalty ``current`` faces at once (a +2 start card under stacking);
    ``draws_for``: what ``dealer_draws`` chose, ``dealer`` or (``dealer=high_plays_first``)
    ``first``, the player who plays first."""

    round: int
    dealer: str
    players: tuple[str, ...]
    top: Card
    color: Color | None
    direction: int
    current: str
    hand_size: int
    hands: dict[str, tuple[Card, ...]] = field(default_factory=dict)
    dealer_draws: tuple[tuple[str, Card], ...] = ()
    pending: int = 0
    draws_for: str = "dealer"


@_fast_init
@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``player`` played ``card`` (and ``together``). ``color``: the colour now in play
    (``None`` while it is still to be named). ``jump_in``: played out of turn."""

    player: str
    card: Card
    together: tuple[Card, ...] = ()
    color: Color | None = None
    target: str | None = None
    jump_in: bool = False
    cards_left: int = 0


@_fast_init
@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """``player`` drew ``count`` cards. ``cards`` only in the drawer's own view.

    ``reason``: ``draw`` (a turn's draw), ``penalty`` (a +2/+4 or stack), ``uno`` (caught),
    ``false_uno`` (a false call or catch), ``challenge`` (a lost challenge),
    ``first_play`` (no number card to open the round), ``last_card`` (play_and_draw).
    """

    player: str
    count: int
    cards: tuple[Card, ...] | None = None
    reason: str = "draw"


@_fast_init
@dataclass(frozen=True, slots=True)
class TurnSkipped:
    """``player`` lost their turn."""

    player: str


@_fast_init
@dataclass(frozen=True, slots=True)
class DirectionReversed:
    """Play now goes in ``direction`` (1 clockwise / seat order, -1 the other way)."""

    direction: int


@_fast_init
@dataclass(frozen=True, slots=True)
class ColorChosen:
    """``player`` named ``color``; ``random`` when it was chosen for them (timeout, leave);
    ``kept`` when none was named and the colour in play before the wild stays
    (``color_timeout=keep``)."""

    player: str
    color: Color
    random: bool = False
    kept: bool = False


@_fast_init
@dataclass(frozen=True, slots=True)
class PenaltyStacked:
    """``player`` added to the pending penalty, which is now ``total``."""

    player: str
    total: int


@_fast_init
@dataclass(frozen=True, slots=True)
class PenaltyPassed:
    """``player`` passed the pending ``total`` on to ``to`` without adding to it.

    ``how``: ``skip`` / ``reverse`` (deflect), ``wild`` (wild_on_penalty)."""

    player: str
    to: str
    total: int
    how: str


@_fast_init
@dataclass(frozen=True, slots=True)
class Passed:
    """``player``'s turn ended after drawing, without a play."""

    player: str


@_fast_init
@dataclass(frozen=True, slots=True)
class UnoCalled:
    """``player`` called UNO and is safe."""

    player: str


@_fast_init
@dataclass(frozen=True, slots=True)
class UnoCaught:
    """``by`` caught ``target`` with one card and no UNO call; ``target`` draws ``penalty``."""

    by: str
    target: str
    penalty: int


@_fast_init
@dataclass(frozen=True, slots=True)
class UnoFalseAlarm:
    """A false UNO call (``target`` ``None``) or a false catch of ``target``
    (``false_uno_penalty``): ``player`` draws ``penalty``."""

    player: str
    penalty: int
    target: str | None = None


@_fast_init
@dataclass(frozen=True, slots=True)
class UnoWindowClosed:
    """The catch window on ``player`` closed by its deadline (nothing public to say)."""

    player: str


@_fast_init
@dataclass(frozen=True, slots=True)
class ChallengeResolved:
    """``challenger`` challenged the Wild Draw Four of ``offender``.

    ``guilty``: it was played while holding the colour to match; ``loser`` drew
    ``penalty``; ``hand``: the offender's hand as shown to the challenger (redacted for
    everyone else)."""

    challenger: str
    offender: str
    guilty: bool
    penalty: int
    loser: str
    hand: tuple[Card, ...] | None = None


@_fast_init
@dataclass(frozen=True, slots=True)
class HandsSwapped:
    """``player`` swapped hands with ``target`` (a 7 or a 5 under the swap rules)."""

    player: str
    target: str


@_fast_init
@dataclass(frozen=True, slots=True)
class HandsRotated:
    """Every hand passed one seat in ``direction`` (a 0 under ``swap=seven_zero``)."""

    player: str
    direction: int


@_fast_init
@dataclass(frozen=True, slots=True)
class DeckReshuffled:
    """A new draw pile of ``size`` cards was shuffled: from the discard pile, or (``start``)
    after a Wild Draw Four turned as the start card went back into the deck."""

    size: int
    reason: str = "discard"


@_fast_init
@dataclass(frozen=True, slots=True)
class PlayerLeft:
    """``player`` left the game; their cards went under the draw pile."""

    player: str


@_fast_init
@dataclass(frozen=True, slots=True)
class PlayerJoined:
    """``player`` sat down between rounds."""

    player: str


@_fast_init
@dataclass(frozen=True, slots=True)
class TurnTimedOut:
    """``player`` ran out of time (``window``: turn)."""

    player: str
    window: str = "turn"


@_fast_init
@dataclass(frozen=True, slots=True)
class RoundWon:
    """``player`` won round ``round`` and scored ``points``.

    ``reason``: ``out`` (no cards left), ``blocked`` (both piles empty, lowest hand),
    ``last_player`` (everyone else left). ``hand_points``: each seated player's hand value
    (``places``: when the first player went out); ``scores``: the totals after this round;
    ``places``: under the ``places`` rule, every seated player in finishing order."""

    player: str
    round: int
    points: int
    reason: str = "out"
    hand_points: dict[str, int] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    places: tuple[str, ...] = ()


@_fast_init
@dataclass(frozen=True, slots=True)
class PlayerFinished:
    """``player`` went out and took ``place`` (1 first); the others play on (``places``)."""

    player: str
    place: int


@_fast_init
@dataclass(frozen=True, slots=True)
class GameWon:
    """``player`` won the game with the final ``scores``."""

    player: str
    scores: dict[str, int] = field(default_factory=dict)


Event = (
    RoundStarted
    | CardPlayed
    | CardsDrawn
    | TurnSkipped
    | DirectionReversed
    | ColorChosen
    | PenaltyStacked
    | PenaltyPassed
    | Passed
    | UnoCalled
    | UnoCaught
    | UnoFalseAlarm
    | UnoWindowClosed
    | ChallengeResolved
    | HandsSwapped
    | HandsRotated
    | DeckReshuffled
    | PlayerLeft
    | PlayerJoined
    | PlayerFinished
    | TurnTimedOut
    | RoundWon
    | GameWon
)


def redact(event: Event, viewer: str | None) -> Event:
    """What ``viewer`` may see of ``event`` (``None``: the public).

    Drawn cards are kept only for the drawer, a revealed hand only for the challenger (and
    the offender, whose hand it is), dealt hands only the viewer's own.
    """
    if isinstance(event, CardsDrawn):
        if event.cards is not None and viewer != event.player:
            return dataclasses.replace(event, cards=None)
    elif isinstance(event, ChallengeResolved):
        if event.hand is not None and viewer not in (event.challenger, event.offender):
            return dataclasses.replace(event, hand=None)
    elif isinstance(event, RoundStarted) and event.hands:
        own = event.hands.get(viewer) if viewer is not None else None
        hands = {viewer: own} if viewer is not None and own is not None else {}
        if hands != event.hands:
            return dataclasses.replace(event, hands=hands)
    return event
