"""The port: how the service shows outcomes, implemented by each platform adapter.

The service knows nothing of Discord interactions or Telegram updates. It hands an adapter
a ``TableInfo`` (the public state), events already redacted for their audience, and
``Notice``s (a message id with parameters, translated by the adapter through
``bot.ui.render`` in the reader's language).

What was shown, and when: an adapter that knows when its table message is on screen says
so (``Port.reports_shown(key)`` returning True) and reports it with
``await service.shown(table_key, version)`` once the table message for ``version`` (or a
later one) has been sent or edited *and* the announcements made up to that version
(``TableInfo.pending``) have gone out. A window counts from the moment its buttons are
seen, not from the commit that a paced or delayed message shows seconds later:

- a window (the turn, a +4 challenge, each ``uno:<player>`` catch window) opened by a
  version not reported shown yet is armed ``Settings.show_wait_seconds`` longer than its
  length, so it cannot run out before its buttons are shown: the version that opened it
  is never skipped for a newer one that its own timeout made (a newer version while the
  window is open shows its buttons too: the table is drawn as it is when the edit goes);
- once reported, it runs its length from then (never shorter than from the commit); one
  never reported runs out that much later, so a platform gone silent holds no table
  forever;
- ``version`` is kept as the table's ``shown`` (committed through the store's group
  commit, after the change itself), and the announcements up to it leave ``pending``.

After a crash, ``Service.behind(prefix)`` lists the tables whose last version was never
reported shown (open ones, and ones that closed meanwhile): the adapter shows them again,
their ``pending`` announcements with them, and reports them shown. A port that never
reports (it has no way to know) loses nothing: its windows run from the commit, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.model import Pending, Recent, Seat, Vote
from engine import Event, Rules, View

__all__ = [
    "NEWS",
    "Notice",
    "NullPort",
    "Port",
    "RecordingPort",
    "RoutingPort",
    "TableInfo",
]

# notices that are news of their own (a message each), not lines on the table message:
# what a port that keeps ``Port.on_table``'s default keeps apart
NEWS = frozenset({"info.round_won", "info.game_won", "info.afk_removed"})


@dataclass(frozen=True, slots=True)
class Notice:
    """A message to translate: ``code`` names it in the catalogues (``refuse.<code>``,
    ``info.<code>``), ``params`` fill it. ``private`` notices go to one user only."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What everyone at a table may see. ``view`` is the public engine view (no hands)."""

    key: str
    scope: str
    version: int
    status: str
    host: str
    seats: tuple[Seat, ...]
    waiting: tuple[str, ...]
    rules: Rules
    preset: str
    lang: str | None
    view: View | None
    meta: dict[str, Any]
    game_no: int
    deadline: float | None = None  # when the current turn times out (unix time)
    # the table message's last public lines, oldest first (``bot.ui.render.recent_lines``)
    recent: tuple[Recent, ...] = ()
    # the last version the port reported shown, and the announcements made since (oldest
    # first; those that are news of their own for the port are its to show again)
    shown: int = 0
    pending: tuple[Pending, ...] = ()
    # when the table was opened (unix time): which table this is, as versions go on from
    # one table to the next at a chat
    created: float = 0.0
    updated: float = 0.0  # when the table last changed (unix time)
    # buttons drawn for a version at least this one are still good (a call or a catch of
    # UNO changes the version, not the turn: see ``Service.act``'s ``seen_version``)
    turn_version: int = 0
    # issue 22 (``bot.presence``): the people whose seat the autopilot plays; the vote to
    # end the game while it is open, and how many votes end it then
    autopilot: tuple[str, ...] = ()
    vote: Vote | None = None
    vote_needed: int = 0

    @property
    def names(self) -> dict[str, str]:
        return {s.id: s.name for s in self.seats}

    def name(self, player: str) -> str:
        for s in self.seats:
            if s.id == player:
                return s.name
        return player

    def is_bot(self, player: str) -> bool:
        return any(s.id == player and s.bot is not None for s in self.seats)


class Port(Protocol):
    """Implemented by each adapter, which subclasses it (``class Adapter(Port)``): mypy then
    checks every method's signature, and the adapter inherits the defaults of the two that
    have one (``on_table``, ``reports_shown``). Calls arrive after the change they show is
    committed, in version order per table; an adapter should queue slow work rather than
    block."""

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        """Update the public table (one message, edited in place); ``events`` are public."""

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        """Show ``player`` their own hand privately; ``events`` are redacted for them."""

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        """Say something to the whole table (a round won, a player removed for AFK...)."""

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        """Tell one user something privately (a revealed hand, a seat for the next
        round...) that a change made by someone else, a bot or a timer concerns them with.
        What a call's own caller is told comes back in its ``Result.told`` instead: the
        adapter that made the call answers it (the press, the command)."""

    async def closed(self, table: TableInfo) -> None:
        """The table was stopped, expired or finished: drop its buttons."""

    def on_table(self, key: str, status: str, notice: Notice) -> bool:
        """Whether the port shows ``notice`` (announced at table ``key``, whose status is
        now ``status``) as one of the table message's recent lines, kept with the table
        (``TableInfo.recent``), rather than as a message of its own. By default every
        notice but ``NEWS`` is a recent line."""
        return notice.code not in NEWS

    def reports_shown(self, key: str) -> bool:
        """Whether the port reports table ``key`` shown (``Service.shown``, see the
        module's docstring): a window then runs from when its buttons are seen. By
        default a port never reports: its windows run from the commit."""
        return False


class NullPort(Port):
    """A port that shows nothing."""

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        return None

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        return None

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        return None

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        return None

    async def closed(self, table: TableInfo) -> None:
        return None


@dataclass
class RecordingPort(Port):
    """A port that records every call (tests, benchmarks)."""

    calls: list[tuple[str, Any]] = field(default_factory=list)
    keep: bool = True
    reports: bool = False  # whether it says it reports what it shows (``reports_shown``)

    def reports_shown(self, key: str) -> bool:
        return self.reports

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        if self.keep:
            self.calls.append(("table", (table, tuple(events))))

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        if self.keep:
            self.calls.append(("hand", (table, player, view, tuple(events))))

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        if self.keep:
            self.calls.append(("announce", (table, notice)))

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        if self.keep:
            self.calls.append(("tell", (table_key, user, notice)))

    async def closed(self, table: TableInfo) -> None:
        if self.keep:
            self.calls.append(("closed", table))

    def of(self, kind: str) -> list[Any]:
        return [args for k, args in self.calls if k == kind]


class RoutingPort(Port):
    """One port for several platforms: each call goes to the port registered for the
    table key's prefix (``tg:...`` -> Telegram, ``dc:...`` -> Discord)."""

    def __init__(self) -> None:
        self._ports: dict[str, Port] = {}
        self._fallback: Port = NullPort()

    def add(self, prefix: str, port: Port) -> None:
        self._ports[prefix] = port

    def _for(self, key: str) -> Port:
        return self._ports.get(key.split(":", 1)[0], self._fallback)

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        await self._for(table.key).show_table(table, events)

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        await self._for(table.key).show_hand(table, player, view, events)

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        await self._for(table.key).announce(table, notice)

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        await self._for(table_key).tell(table_key, user, notice)

    async def closed(self, table: TableInfo) -> None:
        await self._for(table.key).closed(table)

    def on_table(self, key: str, status: str, notice: Notice) -> bool:
        return self._for(key).on_table(key, status, notice)

    def reports_shown(self, key: str) -> bool:
        return self._for(key).reports_shown(key)
