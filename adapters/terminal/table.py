"""``uno-bot play``: a table in the terminal, against bot seats, through the table service.

Human seats play from a prompt showing the seats with their card counts, their hand and
their legal moves; with several humans at one keyboard (hot seat) the screen is cleared and
the next player presses Enter before their hand is shown. Bot seats move after ``delay``.
Everything goes through the service and SQLite, so running again with the same database
resumes the table.

Calling UNO is the player's, as in the chats: a play that leaves one card is offered with
and without the call, and a player who forgets may still call while nobody has caught them
(the bots catch after ``delay``). With one person at the table the lines about them say
"you" ("You pass."), and the cards they draw are shown to them ("You drew 1 card: 🟩 5").

With ``settings`` the host sets the table's rules before the deal: the settings menu of
``bot.controls`` as numbered lines, each number an intent dispatched to the service
(``Service.press``). This adapter is the worked example of docs/adding-a-platform.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot import controls, intents, render
from bot import settings_schema as schema
from bot.config import Settings
from bot.i18n import Translator, translator
from bot.model import LOBBY, PLAYING
from bot.port import Notice, TableInfo
from bot.service import Service
from bot.store import SqliteStore
from engine import Action, CallUno, CardsDrawn, Event, Leave, Play, View, leaves_one_card

__all__ = ["KEY", "TerminalOptions", "TerminalPort", "play", "settings_screen"]

KEY = "term:table"
SCOPE = "term"


@dataclass
class TerminalOptions:
    players: int = 4
    bots: int = 3
    strategy: str = "smart"
    preset: str = "official"
    overrides: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    db: Path = Path("data/terminal.sqlite3")
    delay: float = 0.8
    lang: str = "en"
    json: bool = False
    interactive: bool | None = None  # default: humans seated and stdin is a terminal
    round_pause: float | None = None
    settings: bool = False  # the host sets the rules before the deal (interactive only)


class TerminalPort:
    """Prints the public table as it changes; keeps each human's latest private view.

    ``you``: the one person at the table (named "You"), whom the lines address in the
    second person. ``keyboard``: the person at the keyboard now, shown the cards they draw
    (the public line says only how many); ``None`` with nobody there (``quiet_private``)."""

    def __init__(
        self, out: TextIO, tr: Translator, *, quiet_private: bool, you: str | None = None
    ) -> None:
        self.out = out
        self.tr = tr
        self.quiet_private = quiet_private
        self.you = you
        self.keyboard: str | None = you
        self.changed = asyncio.Event()
        self.views: dict[str, View] = {}
        self.lines = 0
        self.bots: set[str] = set()
        self.names: dict[str, str] = {}
        # a change in which the person at the keyboard drew: printed with their own view
        # of its events (show_hand, right after), else as it is at the next output
        self._held: tuple[int, list[Event]] | None = None

    def _print(self, text: str) -> None:
        print(text, file=self.out, flush=True)
        self.lines += 1

    def _lines(self, version: int, events: Sequence[Event]) -> None:
        for e in events:
            line = render.event_line(e, self.tr, self.names, self.you)
            if line:
                self._print(f"#{version} {line}")

    def _flush(self) -> None:
        if self._held is not None:
            version, public = self._held
            self._held = None
            self._lines(version, public)

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        self._flush()
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
        if notice.code in ("info.round_won", "info.game_won"):
            return  # the event lines said it already
        text = render.notice_text(notice, self.tr, table.names, viewer=self.you)
        self._print("*** " + text)
        self.changed.set()

    async def tell(self, table_key: str, user: str, notice: Notice, origin: Any) -> None:
        self._flush()
        # private to ``user``: on the shared screen only for the people at the keyboard,
        # never what a bot seat is told (a hand revealed to a bot by a challenge)
        if not self.quiet_private and user not in self.bots:
            text = render.notice_text(notice, self.tr, self.names, viewer=self.you)
            self._print("  ! " + text)
        self.changed.set()

    async def closed(self, table: TableInfo) -> None:
        self._flush()
        self.changed.set()


async def play(
    opts: TerminalOptions,
    *,
    out: TextIO = sys.stdout,
    ask: Callable[[str], str] = input,
) -> dict[str, Any]:
    """Run (or resume) the terminal table until the game ends; returns the summary."""
    humans = max(0, opts.players - opts.bots)
    interactive = opts.interactive
    if interactive is None:
        interactive = humans > 0 and sys.stdin.isatty()
    tr = translator(opts.lang)
    pause = opts.round_pause if opts.round_pause is not None else (3.0 if interactive else 0.0)
    settings = Settings(db=opts.db, bot_delay=opts.delay, round_pause_seconds=pause)
    store = SqliteStore(opts.db)
    await store.open()
    you = "term:p1" if humans == 1 else None  # the one person, named "You"
    port = TerminalPort(out, tr, quiet_private=not interactive, you=you)
    svc = Service(store, port, settings, seed=opts.seed, bot_delay=opts.delay)
    try:
        await svc.start()
        info = await svc.table(KEY)
        if info is not None and info.status == LOBBY:
            # a run stopped while it was seating players: nothing was played, start afresh
            await svc.stop_game(KEY, info.host)
            info = await svc.table(KEY)
        resumed = info is not None and info.status == PLAYING
        human_ids = [f"term:p{i + 1}" for i in range(humans)]
        if not resumed:
            host = await _open_table(svc, opts, human_ids, tr)
            if opts.settings and interactive:
                await _settings(svc, host, ask, out, tr)
            res = await svc.start_game(KEY, host)
            if not res.ok:
                raise SystemExit(f"cannot start: {res.code} {res.params}")
        else:
            print(render.notice_text(Notice("info.resumed"), tr, {}), file=out, flush=True)
        info = await svc.table(KEY)
        if interactive and info is not None:
            print(schema.rules_summary(info.rules, tr, info.preset), file=out, flush=True)
        await _loop(svc, port, interactive, ask, out, tr)
        return await _summary(svc, store, resumed)
    finally:
        await svc.stop()
        await store.close()


async def _open_table(
    svc: Service, opts: TerminalOptions, human_ids: list[str], tr: Translator
) -> str:
    """Open the lobby and seat everyone; the host."""
    host = human_ids[0] if human_ids else "term:host"
    single = len(human_ids) == 1
    res = await svc.create(
        KEY,
        SCOPE,
        host,
        tr.gettext("You") if single else tr.gettext("Player 1"),
        lang=opts.lang,
        preset=opts.preset,
        overrides=opts.overrides,
        seat_host=bool(human_ids),
    )
    if not res.ok:
        raise SystemExit(f"cannot open the table: {res.code} {res.params}")
    for i, pid in enumerate(human_ids[1:], 2):
        await svc.join(KEY, pid, tr.gettext("Player {n}").format(n=i))
    for _ in range(opts.bots):
        await svc.add_bot(KEY, host, opts.strategy)
    return host


# -- settings: bot.controls as numbered lines -------------------------------------------------


def settings_screen(
    info: TableInfo, page: int, tr: Translator
) -> tuple[str, list[controls.Control]]:
    """The settings menu at ``page`` as text with numbered lines, and the control each
    number presses (the enabled ones, in order)."""
    lines = [
        "⚙️ " + tr.gettext(controls.SETTINGS),
        schema.rules_summary(info.rules, tr, info.preset),
        "",
    ]
    pressable: list[controls.Control] = []
    for row in controls.settings_menu(info, page, tr):
        if row.title:
            lines.append(row.title)
        for c in row:
            if not c.enabled:
                lines.append(f"       {c.label}")
                continue
            pressable.append(c)
            mark = "✓" if c.selected else " "
            lines.append(f"  {len(pressable):>2}. {mark} {c.label}")
    return "\n".join(lines), pressable


async def _settings(
    svc: Service, host: str, ask: Callable[[str], str], out: TextIO, tr: Translator
) -> None:
    """The host's settings menu until Done (or an empty line, or EOF)."""
    page = 0
    while True:
        info = await svc.table(KEY)
        if info is None:
            return
        text, pressable = settings_screen(info, page, tr)
        print(text, file=out, flush=True)
        try:
            answer = (await asyncio.to_thread(ask, tr.gettext("Your choice: "))).strip()
        except EOFError:
            return
        if not answer.isdigit() or not 1 <= int(answer) <= len(pressable):
            return
        intent = pressable[int(answer) - 1].intent
        if isinstance(intent, intents.CloseSettings):
            return
        if isinstance(intent, intents.OpenSettings):
            page = intent.page
            continue
        await svc.press(KEY, host, intent)  # a refusal is told through the port


async def _loop(
    svc: Service,
    port: TerminalPort,
    interactive: bool,
    ask: Callable[[str], str],
    out: TextIO,
    tr: Translator,
) -> None:
    last_human: str | None = None
    declined: set[str] = set()  # left the late UNO call out: not offered again meanwhile
    while True:
        info = await svc.table(KEY)
        if info is None or info.status not in (LOBBY, PLAYING):
            return
        view = info.view
        current = view.current if view is not None else None
        late = _forgot_uno(info, port.keyboard) if interactive else None
        declined.intersection_update({late} if late is not None else ())
        if late is not None and late != current and late not in declined:
            # played down to one card without calling, and not caught yet: the bots
            # will catch them after their delay, as in the chats
            called = await _late_uno(svc, late, ask, tr)
            if called is None:
                return
            if not called:
                declined.add(late)
            continue
        if interactive and current is not None and not info.is_bot(current):
            if last_human is not None and last_human != current:
                humans = [s for s in info.seats if s.bot is None]
                if len(humans) > 1:  # hot seat: hide the previous hand
                    print("\n" * 60, file=out, flush=True)
                    await asyncio.to_thread(
                        ask,
                        tr.gettext("Pass the keyboard to {name} and press Enter.").format(
                            name=info.name(current)
                        ),
                    )
            last_human = current
            port.keyboard = current
            if not await _prompt(svc, info, current, ask, out, tr):
                return
            continue
        port.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(port.changed.wait(), timeout=0.5)


async def _prompt(
    svc: Service,
    info: TableInfo,
    player: str,
    ask: Callable[[str], str],
    out: TextIO,
    tr: Translator,
) -> bool:
    """Ask ``player`` for a move. False when the player quits (the table stays saved)."""
    view = await svc.hand(KEY, player)
    if view is None:
        return True
    acts = _moves(view, [a for a in await svc.legal(KEY, player) if not isinstance(a, Leave)])
    names = info.names
    print("", file=out)
    seats = render.seat_lines(info, tr)
    if seats:
        print("\n".join(seats), file=out)
        print("", file=out)
    print(render.hand_text(view, tr, names), file=out)
    for i, a in enumerate(acts, 1):
        print(f"  {i:>2}. {_label(a, tr, names)}", file=out)
    print("   r. " + tr.gettext("Rules of this table"), file=out)
    print("   q. " + tr.gettext("Quit (the game is saved)"), file=out, flush=True)
    try:
        text = await asyncio.to_thread(ask, tr.gettext("Your move: "))
    except EOFError:
        return False
    text = text.strip().lower()
    if text in ("q", "quit", "exit"):
        return False
    if text in ("r", "rules"):
        print(schema.rules_summary(info.rules, tr, info.preset), file=out, flush=True)
        return True
    action = _parse(text, acts)
    if action is None:
        print(tr.gettext("Type the number of a move."), file=out, flush=True)
        return True
    await svc.act(KEY, player, action, seen_version=info.version)
    return True


def _leaves_one(view: View, play: Play) -> bool:
    target = view.counts.get(play.target) if play.target is not None else None
    return leaves_one_card(view.rules, len(view.hand or ()), play, target)


def _moves(view: View, acts: Sequence[Action]) -> list[Action]:
    """The listed moves, each play that leaves one card offered twice: as it is (UNO not
    called: whoever catches you before the next move makes you draw), then with the call."""
    out: list[Action] = []
    for a in acts:
        out.append(a)
        if isinstance(a, Play) and not a.uno and _leaves_one(view, a):
            out.append(Play(a.card, a.color, a.target, a.together, uno=True))
    return out


def _label(action: Action, tr: Translator, names: dict[str, str]) -> str:
    if isinstance(action, Play) and action.uno:
        plain = Play(action.card, action.color, action.target, action.together)
        return tr.gettext("{move} and call UNO!", move=render.action_label(plain, tr, names))
    return render.action_label(action, tr, names)


def _forgot_uno(info: TableInfo, player: str | None) -> str | None:
    """``player`` (at the keyboard), if they hold one card without having called UNO and
    can still call it (nobody has caught them yet)."""
    v = info.view
    if player is None or v is None or player not in v.exposed:
        return None
    if player in v.silent:  # uno_call=with_play: the call had to come with the play
        return None
    return player


async def _late_uno(
    svc: Service,
    player: str,
    ask: Callable[[str], str],
    tr: Translator,
) -> bool | None:
    """Offer ``player`` the UNO call they left out: whether they called it (``None``: they
    quit)."""
    try:
        text = await asyncio.to_thread(
            ask, tr.gettext("❗ One card left and no UNO called! Type u to call it now: ")
        )
    except EOFError:
        return None
    text = text.strip().lower()
    if text in ("q", "quit", "exit"):
        return None
    if text not in ("u", "uno"):
        return False
    # no version check: calling is right as long as they hold one card, whatever moved
    await svc.act(KEY, player, CallUno())
    return True


def _parse(text: str, acts: Sequence[Action]) -> Action | None:
    if text.isdigit():
        n = int(text)
        if 1 <= n <= len(acts):
            return acts[n - 1]
    if text in ("uno", "u"):
        for a in acts:
            if isinstance(a, CallUno):
                return a
    return None


async def _summary(svc: Service, store: SqliteStore, resumed: bool) -> dict[str, Any]:
    t = await store.get_table(KEY)
    if t is None:
        return {"winner": None, "scores": {}, "rounds": 0, "actions": 0, "resumed": resumed}
    g = t.game
    names = t.names
    log = [a for a in await store.actions(KEY) if a.game_no == t.game_no]
    return {
        "winner": names.get(g.winner, g.winner) if g is not None and g.winner else None,
        "winner_id": g.winner if g is not None else None,
        "scores": {names.get(p, p): s for p, s in (g.scores.items() if g else ())},
        "rounds": g.round if g is not None else 0,
        "actions": len(log),
        "version": t.version,
        "status": t.status,
        "resumed": resumed,
    }


def print_summary(summary: dict[str, Any], out: TextIO, as_json: bool) -> None:
    if as_json:
        print(json.dumps(summary, ensure_ascii=False), file=out, flush=True)
