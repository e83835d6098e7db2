"""The game state and its serialisation.

``Game`` is a value: ``apply`` never changes the game it is given; it validates, copies,
and changes the copy. The state is plain lists and ints so that a copy is cheap.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any

from engine.cards import Card, Color, Rank
from engine.rng import Rng
from engine.rules import Rules, plain

__all__ = ["Game", "Phase", "game_from_json", "game_to_json"]

FORMAT_VERSION = 2  # 2: piles as space-separated card codes (1: lists of codes, still read)


class Phase(StrEnum):
    """Where a game stands."""

    PLAYING = "playing"  # the current player plays, draws, or answers a pending penalty
    CHOOSING_COLOR = "choosing_color"  # the current player must name a colour
    CHALLENGE = "challenge"  # the current player may challenge the Wild Draw Four on them
    ROUND_OVER = "round_over"  # a round ended; NextRound deals the next one
    GAME_OVER = "game_over"


ACTIVE = (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE)


class Game:
    """One game of UNO: the seated players, the round in play, the scores.

    Read it through the properties below; change it only with ``engine.apply``.
    """

    rules: Rules
    fl: Rules  # the same rules as plain attributes, for the hot paths (engine.rules.plain)
    players_: list[str]
    seat: dict[str, int]
    hands: list[list[Card]]
    draw_pile: list[Card]  # the next card to draw is the LAST element
    discard: list[Card]  # bottom to top
    # scenario(): the cards placed nowhere, in draw order; they come into play only when the
    # draw pile and the discard pile are both used up (always empty in a dealt round)
    reserve: tuple[Card, ...]
    cur: int
    direction_: int
    play_color: Color | None
    phase_: Phase
    pending: int
    pending_kind: Rank | None  # the last penalty card: DRAW_TWO or WILD_DRAW_FOUR
    pending_from: str | None  # who played the last +2 (deflect=all: or +4), for a Reverse
    pending_by: str | None  # who last passed the pending penalty on to the current player
    challenge: tuple[str, bool] | None  # (offender, the W4 was legal) while CHALLENGE
    drawn: Card | None  # the card the current player just drew and may still play
    first_play: bool  # first_play_number: the round's first play is still to come
    stalled: int  # draws in a row that found both piles empty
    exposed: tuple[str, ...]  # players with one card, no UNO call, catch window open
    called: tuple[str, ...]  # players with one card who called UNO
    after_color: str | None  # "start" (wild start card) or "effect" once a colour is named
    deferred: tuple[str, Rank, int, str, bool] | None  # (player, rank, count, kind, w4 ok)
    # issue 14 (each kept in JSON only while set, so games without them read as before)
    follow: bool  # after_penalty=same_color: the next play must be of the colour in play
    silent: tuple[str, ...]  # uno_call=with_play: came down to one card by a play, no call
    kept_color: Color | None  # color_timeout=keep: the colour before the wild being named
    out: tuple[str, ...]  # places: who went out this round, in order
    out_points: dict[str, int] | None  # places: each hand's points when the first went out
    seating: tuple[str, ...] | None  # partners=rotate: the seats of the first round
    dealer_id: str
    round_no: int
    scores_: dict[str, int]
    teams: dict[str, int] | None
    round_winner_: str | None
    winner_: str | None
    rng: Rng
    _cache: tuple[str, list[Any]] | None
    _own: bool  # this copy owns its draw pile and RNG (copy-on-write)
    _hmask: int  # which hand lists this copy owns (engine.play.base.mhand)

    # -- the contract's read-only view -------------------------------------------------

    @property
    def players(self) -> list[str]:
        """Seated player ids in seat order (clockwise)."""
        return list(self.players_)

    def hand(self, player: str) -> list[Card]:
        """A copy of ``player``'s hand (``KeyError`` if not seated)."""
        return list(self.hands[self.seat[player]])

    def hand_size(self, player: str) -> int:
        return len(self.hands[self.seat[player]])

    @property
    def current(self) -> str | None:
        """Whose turn (or colour choice, or challenge decision) it is; ``None`` between rounds."""
        if self.phase_ in ACTIVE:
            return self.players_[self.cur]
        return None

    @property
    def top(self) -> Card:
        return self.discard[-1]

    @property
    def color(self) -> Color | None:
        """The colour in play; ``None`` while a colour is still to be named."""
        return self.play_color

    @property
    def direction(self) -> int:
        return self.direction_

    @property
    def dealer(self) -> str:
        return self.dealer_id

    @property
    def draw_pile_size(self) -> int:
        return len(self.draw_pile)

    @property
    def discard_pile_size(self) -> int:
        return len(self.discard)

    @property
    def pending_draw(self) -> int:
        """Cards the current player must draw or stack on (0 if none; 0 too while a player
        who just stacked a wild names its colour: they face nothing)."""
        if self.phase_ is Phase.PLAYING or self.phase_ is Phase.CHALLENGE:
            return self.pending
        return 0

    @property
    def scores(self) -> dict[str, int]:
        return dict(self.scores_)

    @property
    def round_winner(self) -> str | None:
        return self.round_winner_

    @property
    def winner(self) -> str | None:
        return self.winner_

    @property
    def phase(self) -> Phase:
        return self.phase_

    @property
    def round(self) -> int:
        return self.round_no

    @property
    def exposed_players(self) -> list[str]:
        """Players who may be caught right now (one card, no UNO call, window open)."""
        return list(self.exposed)

    @property
    def places(self) -> list[str]:
        """``places``: who went out this round so far, in finishing order."""
        return list(self.out)

    @property
    def drawn_card(self) -> Card | None:
        """The card the current player drew this turn and may still play."""
        return self.drawn

    @property
    def challenge_offender(self) -> str | None:
        """While a challenge is open: who played the Wild Draw Four."""
        return self.challenge[0] if self.challenge and self.phase_ is Phase.CHALLENGE else None

    def team_of(self, player: str) -> int | None:
        return None if self.teams is None else self.teams.get(player)

    def partner_of(self, player: str) -> str | None:
        if self.teams is None or player not in self.teams:
            return None
        team = self.teams[player]
        for other, t in self.teams.items():
            if t == team and other != player:
                return other
        return None

    # -- copying and equality ----------------------------------------------------------

    def _clone(self) -> Game:
        # A plain instance dict copies in one C call. Containers are shared: hands, the draw
        # pile and the RNG are copied on first write (engine.play.base.mhand, own); the discard
        # pile, players_, seat, scores_, exposed and called are replaced, never mutated.
        g = object.__new__(Game)
        d = self.__dict__.copy()
        d["_cache"] = None
        d["_own"] = False
        d["_hmask"] = -1
        g.__dict__ = d
        return g

    def to_dict(self) -> dict[str, Any]:
        """Every bit of state as JSON-ready values (including the RNG)."""
        d = self._state()
        d["rules"] = self.rules.to_json_dict()
        return d

    def _state(self) -> dict[str, Any]:
        """Everything but the rules (which ``game_to_json`` encodes once per Rules)."""
        return {
            "format": FORMAT_VERSION,
            "players": list(self.players_),
            "hands": [" ".join([c.code for c in h]) for h in self.hands],
            "draw_pile": " ".join([c.code for c in self.draw_pile]),
            "discard": " ".join([c.code for c in self.discard]),
            **({"reserve": " ".join([c.code for c in self.reserve])} if self.reserve else {}),
            "cur": self.cur,
            "direction": self.direction_,
            "color": self.play_color.value if self.play_color else None,
            "phase": self.phase_.value,
            "pending": self.pending,
            "pending_kind": self.pending_kind.value if self.pending_kind else None,
            "pending_from": self.pending_from,
            "pending_by": self.pending_by,
            "challenge": list(self.challenge) if self.challenge else None,
            "drawn": self.drawn.code if self.drawn else None,
            "first_play": self.first_play,
            "stalled": self.stalled,
            "exposed": list(self.exposed),
            "called": list(self.called),
            "after_color": self.after_color,
            "deferred": (
                [self.deferred[0], self.deferred[1].value, *self.deferred[2:]]
                if self.deferred
                else None
            ),
            **({"follow": True} if self.follow else {}),
            **({"silent": list(self.silent)} if self.silent else {}),
            **({"kept_color": self.kept_color.value} if self.kept_color is not None else {}),
            **({"out": list(self.out)} if self.out else {}),
            **({"out_points": dict(self.out_points)} if self.out_points is not None else {}),
            **({"seating": list(self.seating)} if self.seating is not None else {}),
            "dealer": self.dealer_id,
            "round": self.round_no,
            "scores": dict(self.scores_),
            "teams": dict(self.teams) if self.teams is not None else None,
            "round_winner": self.round_winner_,
            "winner": self.winner_,
            "rng": self.rng.state,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Game:
        """Rebuild a game from ``to_dict`` output."""
        if d.get("format") not in (1, FORMAT_VERSION):
            raise ValueError(f"unsupported game format {d.get('format')!r}")
        parse = Card.parse

        def pile(v: str | list[str]) -> list[Card]:
            return [parse(c) for c in (v.split() if isinstance(v, str) else v)]

        g = object.__new__(Game)
        g.rules = Rules.model_validate(d["rules"])
        g.fl = plain(g.rules)
        g.players_ = list(d["players"])
        g.seat = {p: i for i, p in enumerate(g.players_)}
        g.hands = [pile(h) for h in d["hands"]]
        g.draw_pile = pile(d["draw_pile"])
        g.discard = pile(d["discard"])
        g.reserve = tuple(pile(d.get("reserve", "")))
        g.cur = int(d["cur"])
        g.direction_ = int(d["direction"])
        g.play_color = Color(d["color"]) if d["color"] else None
        g.phase_ = Phase(d["phase"])
        g.pending = int(d["pending"])
        g.pending_kind = Rank(d["pending_kind"]) if d["pending_kind"] else None
        g.pending_from = d["pending_from"]
        g.pending_by = d.get("pending_by")
        ch = d["challenge"]
        g.challenge = (str(ch[0]), bool(ch[1])) if ch else None
        g.drawn = parse(d["drawn"]) if d["drawn"] else None
        g.first_play = bool(d["first_play"])
        g.stalled = int(d["stalled"])
        g.exposed = tuple(d["exposed"])
        g.called = tuple(d["called"])
        g.after_color = d["after_color"]
        df = d["deferred"]
        g.deferred = (str(df[0]), Rank(df[1]), int(df[2]), str(df[3]), bool(df[4])) if df else None
        g.follow = bool(d.get("follow", False))
        g.silent = tuple(d.get("silent", ()))
        g.kept_color = Color(d["kept_color"]) if d.get("kept_color") else None
        g.out = tuple(d.get("out", ()))
        op = d.get("out_points")
        g.out_points = {str(k): int(v) for k, v in op.items()} if op is not None else None
        g.seating = tuple(d["seating"]) if d.get("seating") is not None else None
        g.dealer_id = d["dealer"]
        g.round_no = int(d["round"])
        g.scores_ = {str(k): int(v) for k, v in d["scores"].items()}
        g.teams = {str(k): int(v) for k, v in d["teams"].items()} if d["teams"] else None
        g.round_winner_ = d["round_winner"]
        g.winner_ = d["winner"]
        g.rng = Rng(int(d["rng"]))
        g._cache = None
        g._own = True
        g._hmask = (1 << 64) - 1
        if len(g.hands) != len(g.players_):
            raise ValueError("hands and players do not match")
        return g

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game round={self.round_no} phase={self.phase_.value} "
            f"players={self.players_} current={self.current} top={self.discard[-1].code} "
            f"color={self.play_color}>"
        )


_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_RULES_JSON: dict[int, tuple[Rules, str]] = {}


def _rules_json(rules: Rules) -> str:
    # Rules are immutable and few: encode each once (the entry keeps it alive, so its id
    # cannot be reused while cached). Games are stored after every action.
    hit = _RULES_JSON.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_RULES_JSON) > 1024:
        _RULES_JSON.clear()
    text = _ENCODE(rules.to_json_dict())
    _RULES_JSON[id(rules)] = (rules, text)
    return text


def game_to_json(game: Game) -> str:
    """The game as JSON text (lossless, RNG included)."""
    body = _ENCODE(game._state())
    return '{"rules":' + _rules_json(game.rules) + "," + body[1:]


def game_from_json(text: str) -> Game:
    """The game ``game_to_json`` wrote; it behaves identically from then on."""
    return Game.from_dict(json.loads(text))
