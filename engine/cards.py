"""Cards, colours and the deck (docs/rules.md section 1, "Deck").

Cards are interned: there are 54 distinct cards, each exists once, so equality is identity
and hashing is cheap. ``Card.parse`` and ``Card(color, rank)`` both return the one instance.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, ClassVar

__all__ = [
    "ACTION_RANKS",
    "ALL_CARDS",
    "COLORS",
    "NUMBER_RANKS",
    "Card",
    "Color",
    "Rank",
    "full_deck",
]


class Color(StrEnum):
    """The four colours; the value is the one-letter code used in card codes."""

    RED = "R"
    YELLOW = "Y"
    GREEN = "G"
    BLUE = "B"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, value: Color | str) -> Color:
        """Accept a ``Color``, its code (``"R"``) or its name (``"red"``, ``"RED"``)."""
        if isinstance(value, Color):
            return value
        if isinstance(value, str):
            text = value.strip()
            up = text.upper()
            if up in _COLOR_BY_CODE:
                return _COLOR_BY_CODE[up]
            if up in cls.__members__:
                return cls.__members__[up]
        raise ValueError(f"not a colour: {value!r}")


COLORS: tuple[Color, ...] = (Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE)
_COLOR_BY_CODE = {c.value: c for c in COLORS}


class Rank(StrEnum):
    """Card ranks; the value is the code suffix (``"5"``, ``"S"``, ``"D2"``, ``"W4"``)."""

    ZERO = "0"
    ONE = "1"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "D2"
    WILD = "W"
    WILD_DRAW_FOUR = "W4"

    def __str__(self) -> str:
        return self.value


NUMBER_RANKS: tuple[Rank, ...] = tuple(Rank(str(i)) for i in range(10))
ACTION_RANKS: tuple[Rank, ...] = (Rank.SKIP, Rank.REVERSE, Rank.DRAW_TWO)
_COLORED_RANKS: tuple[Rank, ...] = NUMBER_RANKS + ACTION_RANKS


class Card(str):
    """One UNO card. Immutable and interned: ``Card.parse("R5") is Card.parse("R5")``.

    A card is also its code, as ``Color`` and ``Rank`` are theirs: ``card == "R5"``,
    ``hash(card) == hash("R5")``, ``json.dumps(card) == '"R5"'``.

    Attributes: ``color`` (``None`` for wilds), ``rank``, ``code`` (``"R5"``), ``order``
    (0-53, stable), ``is_wild``, ``is_number``, ``is_action`` (S, R, D2), ``number``
    (face value, or ``-1``), ``draw`` (cards it makes the next player draw).
    """

    _interned: ClassVar[dict[tuple[Color | None, Rank], Card]] = {}
    _by_code: ClassVar[dict[str, Card]] = {}

    code: str
    color: Color | None
    rank: Rank
    order: int
    is_wild: bool
    is_number: bool
    is_action: bool
    number: int
    draw: int

    def __new__(cls, color: Color | str | None, rank: Rank | str) -> Card:
        key_rank = Rank(rank)
        key_color = None if color is None else Color.parse(color)
        found = cls._interned.get((key_color, key_rank))
        if found is None:
            raise ValueError(f"no such card: colour {color!r}, rank {rank!r}")
        return found

    @classmethod
    def _make(cls, color: Color | None, rank: Rank, index: int) -> Card:
        code = (color.value if color else "") + rank.value
        self = str.__new__(cls, code)
        s = object.__setattr__
        s(self, "color", color)
        s(self, "rank", rank)
        s(self, "code", code)
        s(self, "order", index)
        s(self, "is_wild", rank in (Rank.WILD, Rank.WILD_DRAW_FOUR))
        s(self, "is_number", rank in NUMBER_RANKS)
        s(self, "is_action", rank in ACTION_RANKS)
        s(self, "number", int(rank.value) if rank in NUMBER_RANKS else -1)
        s(
            self,
            "draw",
            2 if rank is Rank.DRAW_TWO else 4 if rank is Rank.WILD_DRAW_FOUR else 0,
        )
        cls._interned[(color, rank)] = self
        cls._by_code[self.code] = self
        return self

    @classmethod
    def parse(cls, code: Card | str) -> Card:
        """The card for a code such as ``R5``, ``GS``, ``BR``, ``YD2``, ``W``, ``W4``.

        Raises ``ValueError`` for anything else. A ``Card`` is returned unchanged.
        """
        if isinstance(code, Card):
            return code
        if isinstance(code, str):  # exactly the codes of docs/rules.md: no case or space folding
            found = cls._by_code.get(code)
            if found is not None:
                return found
        raise ValueError(f"not a card code: {code!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Card is immutable")

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    __hash__ = str.__hash__
    __eq__ = str.__eq__
    __ne__ = str.__ne__

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    # cards sort in deck order (R, Y, G, B; 0-9, S, R, D2; W, W4), not as their codes
    def __lt__(self, other: str) -> bool:
        if isinstance(other, Card):
            return self.order < other.order
        return str.__lt__(self, other)

    def __le__(self, other: str) -> bool:
        if isinstance(other, Card):
            return self.order <= other.order
        return str.__le__(self, other)

    def __gt__(self, other: str) -> bool:
        if isinstance(other, Card):
            return self.order > other.order
        return str.__gt__(self, other)

    def __ge__(self, other: str) -> bool:
        if isinstance(other, Card):
            return self.order >= other.order
        return str.__ge__(self, other)


def _build() -> tuple[Card, ...]:
    cards: list[Card] = []
    for color in COLORS:
        for rank in _COLORED_RANKS:
            cards.append(Card._make(color, rank, len(cards)))
    cards.append(Card._make(None, Rank.WILD, len(cards)))
    cards.append(Card._make(None, Rank.WILD_DRAW_FOUR, len(cards)))
    return tuple(cards)


ALL_CARDS: tuple[Card, ...] = _build()


def full_deck(decks: int = 1) -> list[Card]:
    """The 108-card UNO deck (216 for two decks), in a fixed order.

    Per colour one ``0`` and two each of ``1``-``9``, ``S``, ``R``, ``D2``; four ``W`` and
    four ``W4``.
    """
    if decks not in (1, 2):
        raise ValueError("decks must be 1 or 2")
    return _DECK * decks


def _one_deck() -> list[Card]:
    one: list[Card] = []
    for card in ALL_CARDS:
        if card.is_wild:
            one.extend((card,) * 4)
        elif card.rank is Rank.ZERO:
            one.append(card)
        else:
            one.extend((card, card))
    return one


_DECK = _one_deck()  # copied by full_deck (list * n makes a new list)
