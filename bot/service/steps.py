"""What every concern of the service shares: a change being built (``Step``), what a call
did (``Result``), a refusal (``Refused``), what a builder is given besides the table
(``Ctx``: the time, the settings, the random source) and the small helpers of building.

Pure: nothing here touches the store, the port or the clock."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot import policy, ratings
from bot.model import Seat, Table
from bot.names import clean_name, fallback_name
from bot.ops.config import Settings
from bot.port import Notice, TableInfo
from bot.seats.expert import Move
from bot.store import ActionRecord, ChatUpdate, StatUpdate
from engine import Action, Event
from engine.rules import refusal

GLOBAL = ratings.GLOBAL  # the statistics scope of every game everywhere (one value)
# a turn deadline that fires this much after it was due ran out while the bot was down:
# it still times the turn out (docs/rules.md section 4), but it is no AFK strike
LATE_SECONDS = 30.0
RECENT = 5  # public lines kept with a table for its message (events, notices)
PENDING = 10  # announcements kept with a table until shown (``Service.shown``)
BEHIND_SECONDS = 24 * 3600.0  # a table closed longer ago than this is not shown again
# several processes on one database: how often a change found its copy stale (another
# process changed the table) is decided again before giving up; how long a claimed deadline
# is this process's to fire; how overdue an unclaimed one must be before any process takes
# it (its own process fires it on time: this is for a dead or stuck one), and how often
# each process looks for those
STALE_TRIES = 8
CLAIM_SECONDS = 5.0
OVERDUE_SECONDS = 2.0
POLL_SECONDS = 1.0


@dataclass(frozen=True, slots=True)
class Result:
    """What a service call did: ``ok``, or refused with ``code``. ``told``: what the caller
    (the user the call was made for) is to be told privately, in order: a refusal's notice,
    or what the change tells them (a hand a challenge revealed, a seat for the next round).
    The caller answers them (an adapter from the press it is answering); the service tells
    through ``Port.tell`` only the others a change concerns."""

    ok: bool
    code: str | None = None
    table: TableInfo | None = None
    events: tuple[Event, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    told: tuple[Notice, ...] = ()


def refused(code: str, **params: Any) -> Result:
    """A refusal decided before any table is read: its ``Result``, told to the caller."""
    return Result(False, code, params=params, told=(Notice(code, params),))


class Refused(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(slots=True)
class Step:
    """One change being built: the new table, what to log and show."""

    table: Table
    events: list[Event] = field(default_factory=list)
    actions: list[ActionRecord] = field(default_factory=list)
    stats: list[StatUpdate] = field(default_factory=list)
    games: list[ratings.GameResult] = field(default_factory=list)  # the game that ended
    notices: list[Notice] = field(default_factory=list)
    tells: list[tuple[str, Notice]] = field(default_factory=list)
    chat: list[ChatUpdate] = field(default_factory=list)
    closed: bool = False
    public: list[Event] = field(default_factory=list)  # the events as everyone sees them
    hands: set[str] = field(default_factory=set)  # people shown their hand whatever happened
    moves: list[Move] = field(default_factory=list)  # each move's, for expert seats' records


@dataclass(frozen=True, slots=True)
class Ctx:
    """What a step builder is given besides the table: the moment it builds at (one for
    the whole step), the settings, how long a bot seat waits, the random source (bots'
    choices, tables' seeds) and whether the table's port reports it shown
    (``Port.reports_shown``: a window then runs from when it is seen)."""

    now: float
    settings: Settings = field(default_factory=Settings)
    bot_delay: float = 0.0
    rng: random.Random = field(default_factory=random.Random)
    reports: bool = False
    # an expert seat's move searched before the table was locked: (version, seat, action)
    plan: tuple[int, str, Action | None] | None = None

    def unseen(self, t: Table, version: int) -> float:
        return unseen(t, version, self.settings, reports=self.reports)


def unseen(t: Table, version: int, settings: Settings, *, reports: bool) -> float:
    """How much longer than its length a window opened at ``version`` of table ``t`` is
    armed: ``show_wait_seconds`` while its port has not reported it shown (``reports``:
    it says it will), so that its clock starts when it is seen, else 0."""
    if version <= t.shown or not reports:
        return 0.0
    return settings.show_wait_seconds


def touch(t: Table, ctx: Ctx, **changes: Any) -> Table:
    """A new version of ``t``."""
    return t.evolve(version=t.version + 1, updated=ctx.now, **changes)


def record(t: Table, player: str, action: dict[str, Any], ctx: Ctx) -> ActionRecord:
    return ActionRecord(t.key, t.game_no, t.version, player, action, ctx.now)


def seat(player: str, name: str, bot: str | None = None) -> Seat:
    """The one place a name enters a table (and, through its seats, the statistics):
    cleaned for display on every platform (``bot.names``)."""
    return Seat(player, clean_name(name, fallback_name(player)), bot)


def who(t: Table, player: str) -> dict[str, Any]:
    """Notice parameters naming ``player`` (with their name: they may have left)."""
    return {"player": player, "name": t.name(player)}


def open_table(t: Table | None) -> Table:
    if t is None or not policy.is_open(t):
        raise Refused("no_table")
    return t


def host_or_admin(t: Table, by: str, admin: bool) -> None:
    if not policy.may_manage(t, by, admin):
        raise Refused("not_host")


def setting_error(e: Exception) -> dict[str, Any]:
    """Why rules were refused, as notice parameters a translation can use: ``reason`` (a
    code of ``engine.rules.REASONS``), the ``flag`` concerned and the refusal's parameters
    (``other``: the flag it conflicts with); ``detail`` is the English text, for the log.
    Read from the refusal's data (``engine.rules.refusal``), never from its text."""
    r = refusal(e)
    out: dict[str, Any] = {"reason": r.reason, **r.params}
    if r.flag is not None:
        out["flag"] = r.flag
    out["detail"] = str(r)
    return out
