"""Table rules: every house-rule flag of RULES.md section 2, and the presets of section 3.

``Rules()`` is the official game. A table's rules are a preset plus overrides:
``Rules.preset("house", swap="five")``. Values are validated (pydantic). Flags that act on a
stacked penalty (``deflect``, ``wild_on_penalty``) are accepted without stacking: they then
have nothing to act on (a penalty is drawn at once), and settings show them as inactive.
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

__all__ = ["PRESETS", "Rules"]

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


class Rules(BaseModel):
    """Immutable table rules. Defaults are the official rules (RULES.md section 1).

    Every field is a flag of RULES.md section 2 with exactly the meaning written there.
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
            raise ValueError("a number is needed here, not true/false")
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
            raise ValueError(
                "places cannot be combined with partners: "
                "a partners round ends when one partner goes out"
            )
        return self

    @classmethod
    def preset(cls, name: str = "official", **overrides: Any) -> Rules:
        """The named preset (``official``, ``house``, ``party``) with overrides applied.

        Overrides are validated like any other value; an unknown flag or preset or a bad
        value raises ``ValueError`` (pydantic's ``ValidationError``).
        """
        base = PRESETS.get(name)
        if base is None:
            raise ValueError(
                f"unknown preset {name!r}; choose one of {', '.join(cls.PRESET_NAMES)}"
            )
        unknown = sorted(set(overrides) - set(cls.model_fields))
        if unknown:
            raise ValueError(f"unknown rule flag(s): {', '.join(unknown)}")
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


# Re-exported so callers can catch validation failures without importing pydantic.
RulesError = ValidationError
