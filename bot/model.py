"""The service's records: a table (lobby, game, settings), its seats, its timers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from bot.json_codec import event_from_dict, event_to_dict
from engine import Event, Game, Rules, game_from_json, game_to_json

__all__ = [
    "FINISHED",
    "LOBBY",
    "PLAYING",
    "STOPPED",
    "Deadline",
    "Pending",
    "Recent",
    "Seat",
    "Table",
    "Vote",
]

LOBBY = "lobby"
PLAYING = "playing"
FINISHED = "finished"
STOPPED = "stopped"
OPEN_STATUSES = (LOBBY, PLAYING)


@dataclass(frozen=True, slots=True)
class Seat:
    """A member of a table: a person (``bot`` is ``None``) or a bot seat (its strategy)."""

    id: str
    name: str
    bot: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot is not None


@dataclass(frozen=True, slots=True)
class Deadline:
    """A timer: ``kind`` is ``turn``, ``uno:<player>``, ``lobby``, ``bot``, ``next_round`` or
    ``vote`` (a vote to end the game lapses: ``bot.presence``);
    ``version`` the table's ``turn_version`` when it was armed (a vote's: the version it
    opened at); ``due`` a unix time."""

    kind: str
    due: float
    version: int


@dataclass(frozen=True, slots=True)
class Vote:
    """An open vote to end a stuck game (issue 22, ``bot.presence``): opened at table
    ``version`` (the vote's id in its buttons), open until ``until`` (unix time), by
    ``voters`` (player ids, in the order they voted)."""

    version: int
    until: float
    voters: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Pending:
    """An announcement (a notice that is no line of the table message: a round won, the
    game won...) made at table ``version``, kept with the table until its port reports
    that version shown (``Service.shown``): what a restart must still announce."""

    version: int
    code: str
    params: dict[str, Any] = field(default_factory=dict)
    status: str = ""  # the table's status when it was made

    def to_line(self) -> str:
        return _line({"v": self.version, "s": self.status, "n": self.code, "p": self.params})

    @classmethod
    def of_line(cls, line: str) -> Pending | None:
        """``None`` for a line this version cannot read (it is only a courtesy)."""
        try:
            d = json.loads(line)
            version, code, params, status = d["v"], d["n"], d.get("p") or {}, d.get("s", "")
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        if not (
            isinstance(version, int)
            and isinstance(code, str)
            and isinstance(params, dict)
            and isinstance(status, str)
        ):
            return None
        return cls(version, code, params, status)


class Recent:
    """One of the last public lines of a table message, kept with the table and rendered
    when shown (in the table's language of the moment): an ``event`` (public: redacted
    for nobody) or a notice (``code``, ``params``); ``status``: the table's status when
    it happened.

    Held as the JSON text it is stored as (encoded once, when it happens; decoded only
    when shown), so committing a table and restoring thousands of them cost no re-encoding.
    Equal when the text is."""

    __slots__ = ("_decoded", "text")

    text: str
    _decoded: tuple[str, Event | None, str | None, dict[str, Any]] | None

    def __init__(self, text: str) -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "_decoded", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Recent is immutable")

    @classmethod
    def of_event(cls, status: str, event: Event) -> Recent:
        return cls(_line({"s": status, "e": event_to_dict(event)}))

    @classmethod
    def of_notice(cls, status: str, code: str, params: dict[str, Any]) -> Recent:
        return cls(_line({"s": status, "n": code, "p": params}))

    @classmethod
    def from_dict(cls, d: Any) -> Recent:
        """Raises ``ValueError`` on anything malformed."""
        parts = _decode(d)
        r = cls(_line(d))
        object.__setattr__(r, "_decoded", parts)
        return r

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(self.text)
        return out

    def _parts(self) -> tuple[str, Event | None, str | None, dict[str, Any]]:
        d = self._decoded
        if d is None:
            try:
                d = _decode(json.loads(self.text))
            except (ValueError, TypeError, KeyError):  # from another version: no line
                d = ("", None, None, {})
            object.__setattr__(self, "_decoded", d)
        return d

    @property
    def status(self) -> str:
        return self._parts()[0]

    @property
    def event(self) -> Event | None:
        return self._parts()[1]

    @property
    def code(self) -> str | None:
        return self._parts()[2]

    @property
    def params(self) -> dict[str, Any]:
        return self._parts()[3]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Recent) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Recent({self.text!r})"


def _line(d: Any) -> str:
    # compact, and one line: a table's items are stored one per line
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))


def _decode(d: Any) -> tuple[str, Event | None, str | None, dict[str, Any]]:
    if not isinstance(d, dict) or not isinstance(d.get("s"), str):
        raise ValueError(f"a recent line is a JSON object with a status, not {d!r}")
    if "e" in d:
        return d["s"], event_from_dict(d["e"]), None, {}
    code, params = d.get("n"), d.get("p") or {}
    if not isinstance(code, str) or not isinstance(params, dict):
        raise ValueError(f"malformed recent notice {d!r}")
    return d["s"], None, code, params


@dataclass(slots=True)
class Table:
    """One table. Treated as a value by the service: changes make a new ``Table``."""

    key: str
    scope: str
    host: str
    status: str = LOBBY
    version: int = 0
    turn_version: int = 0
    game_no: int = 0
    seats: tuple[Seat, ...] = ()
    waiting: tuple[str, ...] = ()
    preset: str = "official"
    overrides: dict[str, Any] = field(default_factory=dict)
    lang: str | None = None
    seed: int = 0
    game_json: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    strikes: dict[str, int] = field(default_factory=dict)
    played: dict[str, int] = field(default_factory=dict)
    created: float = 0.0
    updated: float = 0.0
    deadlines: tuple[Deadline, ...] = ()
    recent: tuple[Recent, ...] = ()  # the table message's last public lines, oldest first
    # the last version its port reported shown (``Service.shown``), and the announcements
    # made since (``Pending``): what a restart shows again
    shown: int = 0
    pending: tuple[Pending, ...] = ()
    # issue 22 (``bot.presence``), stored together as the row's ``presence``: the people
    # whose seat the autopilot plays, when each person last pressed something the table
    # took (unix time), and the open vote to end the game
    autopilot: tuple[str, ...] = ()
    asked: tuple[str, ...] = ()  # those of ``autopilot`` who asked for it ("Play for me")
    acted: dict[str, float] = field(default_factory=dict)
    vote: Vote | None = None
    # the stored row's revision this copy was read or written at: every write of the row
    # (a change, adapter data, a shown mark) raises it, so a copy whose ``rev`` is the
    # stored one is current (the store checks it at commit: ``WriteBatch.expect``); 0 for
    # a table that is not stored. Kept by the store, never part of ``to_row``.
    rev: int = 0
    _game: Game | None = None

    # -- derived ---------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The preset with the overrides (validated once per distinct pair, then shared:
        ``Rules`` is immutable)."""
        items = tuple(sorted(self.overrides.items()))
        try:
            return _rules(self.preset, items)
        except TypeError:  # an unhashable value: not a valid flag anyway, let pydantic say
            return Rules.preset(self.preset, **self.overrides)

    @property
    def game(self) -> Game | None:
        """The engine game, parsed from JSON on first use (restores stay cheap)."""
        if self._game is None and self.game_json is not None:
            self._game = game_from_json(self.game_json)
        return self._game

    def seat(self, player: str) -> Seat | None:
        for s in self.seats:
            if s.id == player:
                return s
        return None

    def name(self, player: str) -> str:
        s = self.seat(player)
        return s.name if s is not None else player

    @property
    def names(self) -> dict[str, str]:
        return {s.id: s.name for s in self.seats}

    @property
    def humans(self) -> list[Seat]:
        return [s for s in self.seats if s.bot is None]

    def deadline(self, kind: str) -> Deadline | None:
        for d in self.deadlines:
            if d.kind == kind:
                return d
        return None

    # -- changes -----------------------------------------------------------------------

    def evolve(self, **changes: Any) -> Table:
        """A copy with ``changes``; a new ``game`` also refreshes its JSON."""
        game = changes.pop("game", None)
        # every action makes a new Table: a plain slot copy, not ``dataclasses.replace``
        # (which runs ``__init__`` and costs several times as much)
        t = object.__new__(Table)
        for name in _FIELDS:
            object.__setattr__(t, name, getattr(self, name))
        for name, value in changes.items():
            if name not in _FIELD_SET:
                raise TypeError(f"Table has no field {name!r}")
            object.__setattr__(t, name, value)
        if game is not None:
            t._game = game
            t.game_json = None
        return t

    def game_text(self) -> str | None:
        if self.game_json is None and self._game is not None:
            self.game_json = game_to_json(self._game)
        return self.game_json

    # -- rows ----------------------------------------------------------------------------

    def to_row(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "scope": self.scope,
            "status": self.status,
            "version": self.version,
            "turn_version": self.turn_version,
            "game_no": self.game_no,
            "host": self.host,
            "seats": _seats_json(self.seats),
            "waiting": _dumps(list(self.waiting)),
            "preset": self.preset,
            "overrides": _dumps(self.overrides, sort_keys=True),
            "lang": self.lang,
            "seed": self.seed,
            "game": self.game_text(),
            "meta": _dumps(self.meta, sort_keys=True),
            "strikes": _dumps(self.strikes),
            "played": _dumps(self.played),
            "created": self.created,
            "updated": self.updated,
            "recent": _recent_json(self.recent),
            "shown": self.shown,
            "pending": "\n".join([p.to_line() for p in self.pending]),
            "presence": _presence_json(self.autopilot, self.asked, self.acted, self.vote),
        }

    @classmethod
    def from_row(cls, row: Any, deadlines: tuple[Deadline, ...] = ()) -> Table:
        return cls(
            key=row["key"],
            scope=row["scope"],
            host=row["host"],
            status=row["status"],
            version=int(row["version"]),
            turn_version=int(row["turn_version"]),
            game_no=int(row["game_no"]),
            seats=tuple(
                Seat(str(s["id"]), str(s["name"]), s.get("bot")) for s in json.loads(row["seats"])
            ),
            waiting=tuple(json.loads(row["waiting"])),
            preset=row["preset"],
            overrides=json.loads(row["overrides"]),
            lang=row["lang"],
            seed=int(row["seed"]),
            game_json=row["game"],
            meta=json.loads(row["meta"]),
            strikes={str(k): int(v) for k, v in json.loads(row["strikes"]).items()},
            played={str(k): int(v) for k, v in json.loads(row["played"]).items()},
            created=float(row["created"]),
            updated=float(row["updated"]),
            deadlines=deadlines,
            recent=_recent_of(row["recent"]),
            shown=int(row["shown"]),
            pending=_pending_of(row["pending"]),
            rev=int(row["rev"]),
            **_presence_of(row["presence"]),
        )


_FIELDS = tuple(f.name for f in fields(Table))
_FIELD_SET = frozenset(_FIELDS)


@lru_cache(maxsize=1024)
def _rules(preset: str, items: tuple[tuple[str, Any], ...]) -> Rules:
    return Rules.preset(preset, **dict(items))


def _dumps(value: Any, *, sort_keys: bool = False) -> str:
    if not value:  # most of these are empty most of the time: skip the encoder
        return "{}" if isinstance(value, dict) else "[]"
    return json.dumps(value, ensure_ascii=False, sort_keys=sort_keys)


@lru_cache(maxsize=4096)
def _seats_json(seats: tuple[Seat, ...]) -> str:
    rows = [{"id": s.id, "name": s.name, "bot": s.bot} for s in seats]
    return json.dumps(rows, ensure_ascii=False)


def _recent_json(recent: tuple[Recent, ...]) -> str:
    """One JSON object per line (no re-encoding: each item keeps its text)."""
    return "\n".join([r.text for r in recent])


def _pending_of(text: str | None) -> tuple[Pending, ...]:
    if not text:
        return ()
    found = (Pending.of_line(line) for line in text.split("\n") if line)
    return tuple(p for p in found if p is not None)


def _presence_json(
    autopilot: tuple[str, ...],
    asked: tuple[str, ...],
    acted: dict[str, float],
    vote: Vote | None,
) -> str:
    """The ``presence`` column: ``{}`` while there is nothing (most tables, most moves)."""
    if not autopilot and not acted and vote is None:
        return "{}"
    d: dict[str, Any] = {}
    if autopilot:
        d["autopilot"] = list(autopilot)
    if asked:
        d["asked"] = list(asked)
    if acted:
        d["acted"] = acted
    if vote is not None:
        d["vote"] = {"v": vote.version, "until": vote.until, "by": list(vote.voters)}
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))


def _presence_of(text: str | None) -> dict[str, Any]:
    """The ``presence`` column read back into the table's fields (what this version cannot
    read is left out: a vote or an autopilot lost is a courtesy lost, never a game)."""
    out: dict[str, Any] = {}
    if not text or text == "{}":
        return out
    try:
        d = json.loads(text)
        autopilot = d.get("autopilot") or []
        asked = d.get("asked") or []
        acted = d.get("acted") or {}
        if isinstance(autopilot, list):
            out["autopilot"] = tuple(str(p) for p in autopilot)
        if isinstance(asked, list):
            out["asked"] = tuple(str(p) for p in asked)
        if isinstance(acted, dict):
            out["acted"] = {str(k): float(v) for k, v in acted.items()}
        v = d.get("vote")
        if isinstance(v, dict):
            out["vote"] = Vote(int(v["v"]), float(v["until"]), tuple(str(p) for p in v["by"]))
    except (ValueError, TypeError, KeyError, AttributeError):
        return out
    return out


def _recent_of(text: str | None) -> tuple[Recent, ...]:
    """The stored recent lines, undecoded until shown (an item this version cannot read
    shows nothing: they are only what the table message showed last)."""
    if not text:
        return ()
    if text.startswith("["):  # a JSON array, as first written
        try:
            return tuple(Recent(_line(d)) for d in json.loads(text))
        except ValueError:
            return ()
    return tuple(Recent(line) for line in text.split("\n") if line)
