"""Ratings and ladders: openskill's Plackett-Luce model over each finished game's order.

Pure: no I/O. The service records every game that ends (``finished``, ``abandoned``) as a
``GameResult`` in the batch that ends it; the store rates it in the same transaction
(``bot.store.ratings``), so a game's end and the ratings it changes are committed together,
and ``replay`` over the recorded games gives the very same numbers (``uno-bot ratings
--rebuild``).

**The order of a finished game** (``finished``): the game's winner first (with fixed
partners, the winner's team, one openskill team); then the others still seated: by their
place in the last round where the ``places`` rule gives places, else by the points of the
cards they held when the game ended, fewer first, equal points a tie (partners: the
team's points together); last, tied, everyone who left mid-game (left, kicked, removed for
timing out), each on their own even if their partner won. Bot seats are rated as players,
each seat under its own id (``bot:<table>:<n>``).

**Abandoned** (``abandoned``): a game that ends without a result (``/stop``, every person
gone, a vote to end it) is recorded, with its players, and never rated.

**Ladders**: each game counts on the ladder of its chat or server (``scope``) and on the
global one (``GLOBAL``), each for all time (``ALL_TIME``) and, with seasons on
(``UNO_SEASON=month``, the default), for the month it ended in (UTC, ``2026-12``). Every
ladder is rated on its own: a season starts everyone afresh.

**Shown**: a rating is ``round(40 × (μ − 3σ))``, openskill's ordinal (the skill the
player has with 99.7 % confidence) on a scale where a newcomer shows 0 and a player whose
skill is known to be the model's average (μ 25) shows 1,000. Under ``PROVISIONAL`` games a
rating is marked provisional.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from openskill.models import PlackettLuce

from engine import Game, RoundWon

if TYPE_CHECKING:
    from bot.model import Table

__all__ = [
    "ABANDONED",
    "ALL_TIME",
    "FINISHED",
    "GLOBAL",
    "MODEL",
    "PROVISIONAL",
    "SCALE",
    "SEASONS",
    "Entrant",
    "GameResult",
    "Rating",
    "abandoned",
    "finished",
    "rate",
    "replay",
    "season_of",
]

GLOBAL = "*"  # the scope of every game everywhere (the statistics' too)
ALL_TIME = "all"  # the season of the all-time ladders
FINISHED = "finished"
ABANDONED = "abandoned"
SEASONS = ("month", "none")  # UNO_SEASON
Season = Literal["month", "none"]
PROVISIONAL = 10  # games under which a rating is provisional
SCALE = 40  # shown = round(SCALE * (mu - 3 sigma)): an average player, once known, 1,000
Z = 3.0  # the ordinal's standard deviations

# openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300): changing any changes
# every rating; ``uno-bot ratings --rebuild`` recomputes them all from the recorded games
MODEL = PlackettLuce()


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of a recorded game. ``group``: their openskill team (fixed partners share
    one, everyone else has their own); ``place``: 1 for the first, equal places a tie,
    ``None`` in an abandoned game; ``left``: they left before the end."""

    player: str
    name: str
    bot: str | None = None  # a bot seat's strategy
    group: int = 0
    place: int | None = None
    left: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.player, "name": self.name, "group": self.group}
        if self.bot is not None:
            out["bot"] = self.bot
        if self.place is not None:
            out["place"] = self.place
        if self.left:
            out["left"] = True
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Entrant:
        place = d.get("place")
        return cls(
            player=str(d["id"]),
            name=str(d.get("name", d["id"])),
            bot=d.get("bot"),
            group=int(d.get("group", 0)),
            place=None if place is None else int(place),
            left=bool(d.get("left", False)),
        )


@dataclass(frozen=True, slots=True)
class GameResult:
    """A game that ended, as recorded (the ``game_results`` table): enough to rate it again.
    ``season``: the season it counts in (``None``: seasons were off when it ended)."""

    table_key: str
    game_no: int
    scope: str
    ended: float
    outcome: str  # FINISHED or ABANDONED
    entrants: tuple[Entrant, ...]
    season: str | None = None

    @property
    def rated(self) -> bool:
        """Whether it changes ratings: finished, with two sides at least."""
        return self.outcome == FINISHED and len({e.group for e in self.entrants}) >= 2

    def ladders(self) -> list[tuple[str, str]]:
        """The ladders ``(scope, season)`` it counts on."""
        seasons = [ALL_TIME] if self.season is None else [ALL_TIME, self.season]
        scopes = [self.scope] if self.scope == GLOBAL else [self.scope, GLOBAL]
        return [(scope, season) for scope in scopes for season in seasons]

    def players_json(self) -> str:
        return json.dumps([e.to_json() for e in self.entrants], ensure_ascii=False)

    @staticmethod
    def entrants_of(text: str) -> tuple[Entrant, ...]:
        return tuple(Entrant.from_json(d) for d in json.loads(text))


@dataclass(frozen=True, slots=True)
class Rating:
    """One player on one ladder: openskill's ``mu`` and ``sigma``, and the games counted
    there (``wins``: first places; ``places``: the places summed)."""

    scope: str
    season: str
    player: str
    name: str
    bot: str | None = None
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    places: int = 0
    updated: float = 0.0

    @property
    def ordinal(self) -> float:
        return self.mu - Z * self.sigma

    @property
    def shown(self) -> int:
        """The rating as people see it, a whole number (see the module's docstring)."""
        return round(SCALE * self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL

    @property
    def average_place(self) -> float:
        return self.places / self.games if self.games else 0.0


def season_of(at: float, mode: str) -> str | None:
    """The season a game that ended at ``at`` (unix time) counts in: its month in UTC
    (``2026-12``) with ``mode`` ``month``, none with ``none``."""
    if mode == "none":
        return None
    if mode != "month":
        raise ValueError(f"UNO_SEASON is month or none, not {mode!r}")
    return time.strftime("%Y-%m", time.gmtime(at))


def current_season(mode: str, now: float | None = None) -> str | None:
    return season_of(time.time() if now is None else now, mode)


# -- what a game's end records --------------------------------------------------------------------


def finished(t: Table, g: Game, events: Sequence[Any], at: float, season_mode: str) -> GameResult:
    """The record of table ``t``'s game ``g``, just won (``events``: the step's, with the
    last round's ``RoundWon`` where the game ended in a round)."""
    winner = g.winner
    present = list(g.players)
    everyone = list(g.scores)  # dealt in at the start or between rounds, leavers too
    gone = [p for p in everyone if p not in present]
    fixed_teams = g.rules.partners is True and g.teams is not None
    last = next((e for e in reversed(events) if isinstance(e, RoundWon)), None)

    def side(p: str) -> Any:
        return ("team", g.team_of(p)) if fixed_teams else ("player", p)

    # the sides still seated, the winner's first, each with what orders it (lower first)
    sides: dict[Any, list[str]] = {}
    for p in present:
        sides.setdefault(side(p), []).append(p)
    win_side = side(winner) if winner is not None else None
    places = list(last.places) if last is not None and last.places else []
    points = dict(last.hand_points) if last is not None else {}

    def key(s: Any) -> tuple[int, int]:
        if s == win_side:
            return (0, 0)
        members = sides[s]
        if places:
            return (1, min(places.index(p) if p in places else len(places) for p in members))
        return (1, sum(points.get(p, 0) for p in members))

    order = sorted(sides, key=key)
    entrants: list[Entrant] = []
    place = 0
    prev: tuple[int, int] | None = None
    for i, s in enumerate(order):
        k = key(s)
        if k != prev:  # competition ranking: a tie shares the place, the next skips
            place, prev = i + 1, k
        entrants.extend(_entrant(t, p, i, place) for p in sides[s])
    last_place = len(order) + 1
    for j, p in enumerate(gone):
        entrants.append(_entrant(t, p, len(order) + j, last_place, left=True))
    return GameResult(
        t.key, t.game_no, t.scope, at, FINISHED, tuple(entrants), season_of(at, season_mode)
    )


def abandoned(t: Table, at: float, season_mode: str) -> GameResult:
    """The record of table ``t``'s game, ended without a result: never rated."""
    g = t.game
    everyone = list(g.scores) if g is not None else [s.id for s in t.seats]
    present = set(g.players) if g is not None else set(everyone)
    entrants = tuple(
        _entrant(t, p, i, None, left=p not in present) for i, p in enumerate(everyone)
    )
    return GameResult(
        t.key, t.game_no, t.scope, at, ABANDONED, entrants, season_of(at, season_mode)
    )


def _entrant(
    t: Table, player: str, group: int, place: int | None, *, left: bool = False
) -> Entrant:
    seat = t.seat(player)
    return Entrant(
        player,
        t.name(player),
        seat.bot if seat is not None else None,
        group,
        place,
        left,
    )


# -- rating ---------------------------------------------------------------------------------------


def rate(game: GameResult, scope: str, season: str, current: Mapping[str, Rating]) -> list[Rating]:
    """The ratings of ``game``'s players on ladder ``(scope, season)`` once it is counted,
    from ``current`` (those they have there; a player without one starts at the model's
    prior). One ``Rating`` per entrant, in their order."""
    groups: dict[int, list[Entrant]] = {}
    for e in game.entrants:
        groups.setdefault(e.group, []).append(e)
    teams = [
        [MODEL.rating(*_ms(current.get(e.player))) for e in members] for members in groups.values()
    ]
    ranks = [float(min(_place(e) for e in members)) for members in groups.values()]
    rated = MODEL.rate(teams, ranks=ranks)
    new: dict[str, tuple[float, float]] = {}
    for members, team in zip(groups.values(), rated, strict=True):
        for e, r in zip(members, team, strict=True):
            new[e.player] = (r.mu, r.sigma)
    out = []
    for e in game.entrants:
        was = current.get(e.player) or Rating(scope, season, e.player, e.name)
        mu, sigma = new[e.player]
        place = _place(e)
        out.append(
            replace(
                was,
                name=e.name,
                bot=e.bot,
                mu=mu,
                sigma=sigma,
                games=was.games + 1,
                wins=was.wins + (1 if place == 1 else 0),
                places=was.places + place,
                updated=game.ended,
            )
        )
    return out


def _ms(r: Rating | None) -> tuple[float | None, float | None]:
    return (None, None) if r is None else (r.mu, r.sigma)


def _place(e: Entrant) -> int:
    if e.place is None:
        raise ValueError(f"{e.player} has no place: an abandoned game is not rated")
    return e.place


def replay(
    games: Iterable[GameResult], scopes: Iterable[str] | None = None
) -> dict[tuple[str, str, str], Rating]:
    """Every rating the recorded ``games`` give, counted in their order (as the store
    counted them when each ended): ``{(scope, season, player): rating}``. ``scopes``: only
    the ladders of those scopes."""
    only = None if scopes is None else set(scopes)
    out: dict[tuple[str, str, str], Rating] = {}
    for game in games:
        if not game.rated:
            continue
        for scope, season in game.ladders():
            if only is not None and scope not in only:
                continue
            current = {
                e.player: out[(scope, season, e.player)]
                for e in game.entrants
                if (scope, season, e.player) in out
            }
            for r in rate(game, scope, season, current):
                out[(scope, season, r.player)] = r
    return out
