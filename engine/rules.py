"""Table rules: every house-rule flag of docs/rules.md section 2, and the presets of section 3.

``Rules()`` is the official game. A table's rules are a preset plus overrides:
``Rules.preset("house", swap="five")``. Values are validated (pydantic). Flags that act on a
stacked penalty (``deflect``, ``wild_on_penalty``) are accepted without stacking: they then
have nothing to act on (a penalty is drawn at once), and settings show them as inactive.

Refusals are data, not English: every refusal this module makes carries a stable ``reason``
code, the ``flag`` concerned and parameters (``RulesRefused``, or pydantic's
``ValidationError`` whose errors carry the code as their ``type`` and the parameters in
their ``ctx``); ``refusal(e)`` reads either into one ``RulesRefused`` for callers. How each
flag is named, explained and offered in a menu is the bot's (``bot.ui.settings_schema``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

__all__ = [
    "MAX_SEATS_PER_DECK",
    "PRESETS",
    "REASONS",
    "Rules",
    "RulesRefused",
    "check_seating",
    "hands_fit",
    "max_seats",
    "refusal",
]

# players one deck seats (two decks seat twice as many)
MAX_SEATS_PER_DECK = 10
# every ``RulesRefused.reason``: a value a flag cannot take, a flag that does not exist, a
# preset that does not exist, two flags that cannot be combined, hands that cannot be dealt,
# a number of players the rules cannot seat, partners without 4 or 6 players (or switched
# mid-game), anything else (``other``: the text is all there is)
REASONS = ("value", "unknown_flag", "preset", "conflict", "deal", "seats", "partners", "other")


class RulesRefused(ValueError):
    """Rules, or a seating under them, refused: ``reason`` (one of ``REASONS``), the
    ``flag`` concerned (``None`` when no one flag is), ``params`` for a message (``other``:
    the second flag of a conflict; ``low``/``high``; ``players``...). ``str()`` is English,
    for logs only."""

    def __init__(self, reason: str, text: str, flag: str | None = None, **params: Any) -> None:
        super().__init__(text)
        self.reason = reason
        self.flag = flag
        self.params = params


Stacking = Literal["off", "draw_two", "draw_four_on_two", "any"]
MultiPlay = Literal["off", "identical", "same_rank"]
Swap = Literal["off", "seven_zero", "five"]
DrawMode = Literal["one", "until_playable"]
WildDrawFour = Literal["challenge", "no_bluff", "free"]
GuiltyChallenger = Literal["plays", "skipped"]
LastCard = Literal["any", "number_only", "play_and_draw", "no_skip_reverse_wild"]
Scoring = Literal["winner_takes", "penalty"]
CardPoints = Literal["standard", "low"]
TwoPlayer = Literal["official", "plain"]
Dealer = Literal["draw_high", "creator", "high_plays_first"]
Deflect = Literal["off", "draw_two", "all"]
Partners = bool | Literal["rotate"]
DrawFourWhen = Literal["no_color", "no_play"]
AfterPenalty = Literal["any", "same_color"]
DrawnCard = Literal["any", "number_only"]
UnoCall = Literal["after_play", "with_play"]
ColorTimeout = Literal["random", "keep"]
StartReverse = Literal["dealer", "right_of_dealer"]
Absent = Literal["remove", "autopilot"]


class Rules(BaseModel):
    """Immutable table rules. Defaults are the official rules (docs/rules.md section 1).

    Every field is a flag of docs/rules.md section 2 with exactly the meaning written there.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", validate_default=True)

    stacking: Stacking = "off"
    deflect: Deflect = "off"
    jump_in: bool = False
    multi_play: MultiPlay = "off"
    swap: Swap = "off"
    draw: DrawMode = "one"
    force_play: bool = False
    wild_draw_four: WildDrawFour = "challenge"
    guilty_challenger: GuiltyChallenger = "plays"
    wild_on_penalty: bool = False
    last_card: LastCard = "any"
    first_play_number: bool = False
    uno_penalty: int = Field(default=2, ge=0, le=8)
    false_uno_penalty: int = Field(default=0, ge=0, le=8)
    scoring: Scoring = "winner_takes"
    card_points: CardPoints = "standard"
    target: int = Field(default=500, ge=0, le=100_000)
    partners: Partners = False
    two_player: TwoPlayer = "official"
    decks: Literal[1, 2] = 1
    hand_size: int = Field(default=7, ge=3, le=15)
    dealer: Dealer = "draw_high"
    turn_seconds: int = Field(default=60, ge=1, le=7 * 24 * 3600)
    afk_strikes: int = Field(default=3, ge=0, le=20)
    uno_window_seconds: int = Field(default=5, ge=0, le=600)
    challenge_seconds: int = Field(default=20, ge=1, le=3600)
    # issue 14: variants the seeds state that no flag covered. Appended, not grouped with
    # their kin: the Telegram settings menu names a flag by its index here.
    draw_four_when: DrawFourWhen = "no_color"
    after_penalty: AfterPenalty = "any"
    drawn_card: DrawnCard = "any"
    uno_call: UnoCall = "after_play"
    color_timeout: ColorTimeout = "random"
    places: bool = False
    start_reverse: StartReverse = "dealer"
    # issue 22: what the table does with a player whose turn times out. Like
    # ``turn_seconds`` and ``afk_strikes`` it is the table service's, not the game's: the
    # engine never reads it (a table's rules are its settings, in one place)
    absent: Absent = "remove"

    PRESET_NAMES: ClassVar[tuple[str, ...]] = ("official", "house", "party")

    @field_validator(
        "uno_penalty",
        "false_uno_penalty",
        "target",
        "decks",
        "hand_size",
        "turn_seconds",
        "afk_strikes",
        "uno_window_seconds",
        "challenge_seconds",
        mode="before",
    )
    @classmethod
    def _not_a_bool(cls, v: Any) -> Any:
        # pydantic's lax mode reads True as 1; a yes/no is never a count or a duration.
        if isinstance(v, bool):
            raise PydanticCustomError("value", "a number is needed here, not true/false")
        return v

    @field_validator("deflect", mode="before")
    @classmethod
    def _deflect_yes_no(cls, v: Any) -> Any:
        # deflect was a yes/no before it could act on a +4 too: rules stored then (JSON
        # true/false, a menu's "true") still mean what they meant, a +2 deflect or none
        if isinstance(v, bool):
            return "draw_two" if v else "off"
        if isinstance(v, str) and v.strip().lower() in _YES_NO:
            return "draw_two" if _YES_NO[v.strip().lower()] else "off"
        return v

    @field_validator("partners", mode="before")
    @classmethod
    def _partners_text(cls, v: Any) -> Any:
        # "rotate" is not a yes/no; "true", "off" and the like still are (pydantic's bool)
        if isinstance(v, str) and v.strip().lower() == "rotate":
            return "rotate"
        return v

    @model_validator(mode="after")
    def _no_contradiction(self) -> Rules:
        if self.places and self.partners:
            raise PydanticCustomError(
                "conflict",
                "{flag} cannot be combined with {other}: "
                "a partners round ends when one partner goes out",
                {"flag": "places", "other": "partners"},
            )
        return self

    @classmethod
    def preset(cls, name: str = "official", **overrides: Any) -> Rules:
        """The named preset (``official``, ``house``, ``party``) with overrides applied.

        Overrides are validated like any other value; an unknown flag or preset or a bad
        value raises ``ValueError`` (``RulesRefused``, or pydantic's ``ValidationError``:
        ``refusal`` reads either).
        """
        base = PRESETS.get(name)
        if base is None:
            raise RulesRefused(
                "preset",
                f"unknown preset {name!r}; choose one of {', '.join(cls.PRESET_NAMES)}",
                preset=name,
            )
        unknown = sorted(set(overrides) - set(cls.model_fields))
        if unknown:
            raise RulesRefused(
                "unknown_flag", f"unknown rule flag(s): {', '.join(unknown)}", unknown[0]
            )
        return cls.model_validate({**base, **overrides})

    def overrides(self, preset: str = "official") -> dict[str, Any]:
        """The flags whose value differs from the named preset."""
        base = Rules.preset(preset).model_dump()
        return {k: v for k, v in self.model_dump().items() if base[k] != v}

    def matching_preset(self) -> str | None:
        """The name of the preset these rules equal exactly, if any."""
        for name in self.PRESET_NAMES:
            if Rules.preset(name) == self:
                return name
        return None

    def to_json_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values."""
        return self.model_dump(mode="json")


# what pydantic reads as a yes/no (its lax bool), for the flags that were one
_YES_NO = {
    "true": True, "t": True, "yes": True, "y": True, "on": True, "1": True,
    "false": False, "f": False, "no": False, "n": False, "0": False,
}  # fmt: skip

_HOUSE: dict[str, Any] = {
    "stacking": "draw_four_on_two",
    "deflect": "draw_two",
    "jump_in": True,
    "multi_play": "identical",
    "wild_on_penalty": False,
    "last_card": "number_only",
    "uno_penalty": 2,
}

PRESETS: dict[str, dict[str, Any]] = {
    "official": {},
    "house": _HOUSE,
    "party": {**_HOUSE, "swap": "seven_zero", "draw": "until_playable"},
}


class _Plain:
    """A Rules' flags as plain attributes (see ``plain``)."""

    __slots__ = tuple(Rules.model_fields)

    def __init__(self, rules: Rules) -> None:
        for name in self.__slots__:
            object.__setattr__(self, name, getattr(rules, name))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("rules are immutable")


_PLAIN: dict[int, tuple[Rules, _Plain]] = {}


def plain(rules: Rules) -> Rules:
    """The same flags, read as plain attributes: the engine's hot paths read them through
    this (a pydantic model's attribute read costs about five times a plain one: BaseModel
    has a ``__getattr__``). One per Rules (the entry keeps it alive, so its id is not
    reused while cached); typed as ``Rules``, whose flags it has, read-only."""
    hit = _PLAIN.get(id(rules))
    if hit is not None and hit[0] is rules:
        return cast(Rules, hit[1])
    if len(_PLAIN) > 1024:
        _PLAIN.clear()
    fast = _Plain(rules)
    _PLAIN[id(rules)] = (rules, fast)
    return cast(Rules, fast)


# -- refusals as data ---------------------------------------------------------------------


def max_seats(rules: Rules) -> int:
    """The most players the rules seat."""
    return MAX_SEATS_PER_DECK * rules.decks


def hands_fit(players: int, rules: Rules) -> bool:
    """Whether ``players`` hands can be dealt, leaving a start card that is not a Wild Draw
    Four (all the Wild Draw Fours and one more card)."""
    return players * rules.hand_size <= 108 * rules.decks - (4 * rules.decks + 1)


def check_seating(players: int, rules: Rules, *, before: Rules | None = None) -> None:
    """Whether ``players`` players can play under ``rules`` (``before``: the rules of the
    game they play now, for a change between rounds); ``RulesRefused`` if not."""
    most = max_seats(rules)
    if players < 2 or players > most:
        raise RulesRefused(
            "seats",
            f"a game needs 2 to {most} players with {rules.decks} deck(s), not {players}",
            players=players,
            low=2,
            high=most,
        )
    if before is not None and before.partners != rules.partners:
        raise RulesRefused("partners", "partners cannot be switched during a game", "partners")
    if rules.partners and players not in (4, 6):
        raise RulesRefused(
            "partners",
            "partners needs 4 or 6 players (teams of two sitting opposite)",
            "partners",
            players=players,
        )
    deck = 108 * rules.decks
    if not hands_fit(players, rules):
        raise RulesRefused(
            "deal",
            f"{players} hands of {rules.hand_size} cards do not fit in {deck} cards; "
            "deal fewer cards or use two decks",
            "hand_size",
            players=players,
            cards=deck,
        )


def refusal(e: Exception) -> RulesRefused:
    """Why rules were refused, as data: a ``RulesRefused`` as it is; pydantic's first error
    read by its ``type`` and ``ctx`` (a value a flag cannot take: ``value`` and the flag; a
    flag that does not exist: ``unknown_flag``; a code this module raised: that code);
    anything else ``other``."""
    if isinstance(e, RulesRefused):
        return e
    if isinstance(e, ValidationError):
        errors = e.errors()
        if not errors:
            return RulesRefused("other", str(e))
        first = errors[0]
        loc = first["loc"]
        flag = str(loc[0]) if loc else None
        kind = first["type"]
        params = dict(first.get("ctx") or {})
        text = f"{flag}: {first['msg']}" if flag else first["msg"]
        if kind == "extra_forbidden":
            return RulesRefused("unknown_flag", text, flag)
        if kind in REASONS:
            return RulesRefused(kind, text, params.pop("flag", flag), **params)
        return RulesRefused("value" if flag else "other", text, flag)
    lines = str(e).splitlines()
    return RulesRefused("other", lines[0] if lines else type(e).__name__)
