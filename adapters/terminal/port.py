"""The terminal's ``Port``: the table's lines as they come, printed through the console
(above the prompt), with the names in the reader's language."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence

from adapters.terminal.console import Console
from bot.port import Notice, Port, TableInfo
from bot.ui import render
from bot.ui.i18n import Translator
from engine import CardsDrawn, Event, Phase, View

__all__ = ["TerminalPort"]


class TerminalPort(Port):
    """Prints the public table as it changes; keeps each human's latest private view.

    ``you``: the one person at the table (named "You"), whom the lines address in the
    second person. ``keyboard``: the person at the keyboard now, shown the cards they draw
    (the public line says only how many); ``None`` with nobody there (``quiet_private``).
    ``numbered``: each line starts with the table version it shows (``--json``'s lines,
    which a program reads); a person reads them without. ``changed`` is set by every
    call: the table draws the person's moves again."""

    def __init__(
        self,
        console: Console,
        tr: Translator,
        *,
        quiet_private: bool,
        you: str | None = None,
        numbered: bool = False,
    ) -> None:
        self.console = console
        self.tr = tr
        self.quiet_private = quiet_private
        self.you = you
        self.numbered = numbered
        self.keyboard: str | None = you
        self.changed = asyncio.Event()
        self.views: dict[str, View] = {}
        self.bots: set[str] = set()
        self.names: dict[str, str] = {}
        # a change in which the person at the keyboard drew: printed with their own view
        # of its events (show_hand, right after), else as it is at the next output
        self._held: tuple[int, list[Event]] | None = None

    # -- names in the reader's language ------------------------------------------------------

    def name(self, seat_id: str, stored: str, bot: str | None) -> str:
        """A seat's name as this terminal shows it: the seats it made are named in its
        language whatever language they were made in (a game resumed with ``--lang``)."""
        tr = self.tr
        if bot is not None and seat_id.startswith("bot:"):
            n = seat_id.rpartition(":")[2]
            return tr.gettext("Bot {n}", n=n) if n.isdigit() else stored
        if seat_id == self.you:
            return tr.gettext("You")
        if seat_id.startswith("term:p") and seat_id[6:].isdigit():
            return tr.gettext("Player {n}", n=int(seat_id[6:]))
        return stored

    def local(self, info: TableInfo) -> TableInfo:
        """``info`` with its seats named as this terminal shows them."""
        seats = tuple(
            dataclasses.replace(s, name=self.name(s.id, s.name, s.bot)) for s in info.seats
        )
        return dataclasses.replace(info, seats=seats)

    # -- printing -------------------------------------------------------------------------

    def _print(self, text: str) -> None:
        self.console.write(text)

    def _lines(self, version: int, events: Sequence[Event]) -> None:
        for e in events:
            line = render.event_line(e, self.tr, self.names, self.you)
            if line:
                self._print(f"#{version} {line}" if self.numbered else line)

    def _flush(self) -> None:
        if self._held is not None:
            version, public = self._held
            self._held = None
            self._lines(version, public)

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        self._flush()
        table = self.local(table)
        self.bots = {s.id for s in table.seats if s.bot is not None}
        self.names = table.names
        me = None if self.quiet_private else self.keyboard
        if me is not None and any(
            isinstance(e, CardsDrawn) and e.player == me and e.count for e in events
        ):
            self._held = (table.version, list(events))
        else:
            self._lines(table.version, events)
        self.changed.set()

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        self.views[player] = view  # shown at that player's next prompt
        held = self._held
        if held is not None and player == self.keyboard and len(held[1]) == len(events):
            # the same change as the player sees it: their own draws with the cards
            self._held = None
            merged = [
                mine if isinstance(mine, CardsDrawn) and mine.player == player else public
                for public, mine in zip(held[1], events, strict=True)
            ]
            self._lines(held[0], merged)
        self.changed.set()

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        self._flush()
        table = self.local(table)
        if notice.code in ("info.round_won", "info.game_won"):
            # who won is the event lines' to say; the scores after it are this table's
            v = table.view
            over = v is not None and v.phase is Phase.GAME_OVER
            if not self.numbered and v is not None and over == (notice.code == "info.game_won"):
                self._print("\n".join(["", *render.scores_lines(v, self.tr, table.names)]))
            self.changed.set()
            return
        text = render.notice_text(notice, self.tr, table.names, viewer=self.you)
        self._print("*** " + text)
        self.changed.set()

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        self.answer(user, (notice,))

    def answer(self, user: str, told: Sequence[Notice]) -> None:
        """What ``user`` is told privately (a service call's ``Result.told``, or the
        port's ``tell``): on the shared screen only for the people at the keyboard, never
        what a bot seat is told (a hand revealed to a bot by a challenge)."""
        self._flush()
        if not self.quiet_private and user not in self.bots:
            for notice in told:
                text = render.notice_text(notice, self.tr, self.names, viewer=self.you)
                self._print("  ! " + text)
        self.changed.set()

    async def closed(self, table: TableInfo) -> None:
        self._flush()
        self.changed.set()
