"""``uno-bot play``: a table in the terminal, against bot seats, through the table service.

The screen follows the game, not the keyboard: whenever the game changes (a bot's move, a
timeout, a catch, a +4 to answer) the person's moves are drawn again and the prompt comes
back below them, while the console (``adapters.terminal.console``) goes on reading. Their
moves are ``bot.ui.controls.hand_menu``'s, in hand order, numbered: on their turn (with a
countdown of the turn's time), and out of it when there is something to do then (jump in
with the card on top, call the UNO they forgot, catch a bot that forgot its own). ``r``
shows the rules and the scores, which also print after each round; ``t`` the ratings and
the ladders (``/rank`` and ``/top`` of the chats; they also print after a game); ``q``,
Ctrl-D and Ctrl-C leave with the game saved, and the next run resumes it (``--new`` starts
another).

A terminal table has one person, who is away whenever the program is: its clocks stop
with the program and every deadline starts again in full when it is run again
(``Service.restart_clocks``). With several people at one keyboard (hot seat) the screen is
cleared and the next player presses Enter before their hand is shown. Bot seats move
after ``delay``. Everything goes through the service and SQLite.

Calling UNO is the player's, as in the chats: a play that leaves one card is offered with
and without the call, and a player who forgets may still call while nobody has caught them
(the bots catch after ``delay``). With one person at the table the lines about them say
"you" ("You pass."), and the cards they draw are shown to them ("You drew 1 card: 🟩 5").

With ``settings`` the host sets the table's rules before the deal: the settings menu of
``bot.ui.controls`` as numbered lines, each number an intent dispatched to the service
(``bot.ui.press``), the pages on fixed keys. This adapter is the worked example of
docs/adding-a-platform.md.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from adapters.terminal.console import (
    CHANGED,
    INTERRUPT,
    Console,
    Prompt,
    Signal,
    console_for,
)
from adapters.terminal.port import TerminalPort
from bot.model import FINISHED, LOBBY, PLAYING
from bot.ops.config import Settings
from bot.port import Notice, TableInfo
from bot.service import Service
from bot.store import SqliteStore
from bot.ui import controls, intents, render
from bot.ui import settings_schema as schema
from bot.ui.i18n import Translator, translator
from bot.ui.press import press
from engine import CallUno, CatchUno, NextRound, Phase, Play

__all__ = [
    "KEY",
    "TerminalOptions",
    "TerminalPort",
    "TerminalTable",
    "play",
    "saved_line",
    "settings_screen",
]

KEY = "term:table"
SCOPE = "term"
QUIT = Signal("QUIT")
DONE = Signal("DONE")


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
    lang: str | None = None  # the person's language; None: the table's, else ``fallback_lang``
    fallback_lang: str = "en"
    json: bool = False
    interactive: bool | None = None  # default: humans seated and stdin is a terminal
    round_pause: float | None = None
    settings: bool = False  # the host sets the rules before the deal (interactive only)
    new: bool = False  # a new game even if one was left unfinished (which is stopped)
    command: str = "uno-bot play"  # how the person runs this again (the lines saying so)


def saved_line(tr: Translator, command: str) -> str:
    """What the person is told on leaving an unfinished game."""
    return tr.gettext("The game is saved. To go on with it, run: {command}", command=command)


@dataclass(frozen=True)
class _Menu:
    """What the person may do now: ``moves`` numbered from 1, drawn as ``block`` above
    ``prompt``; ``key`` tells one menu from another (drawn again only when it changes)."""

    key: Any
    prompt: Prompt | None
    block: str = ""
    moves: tuple[controls.Control, ...] = ()
    player: str | None = None
    handover: str | None = None  # hot seat: the player the keyboard goes to


class TerminalTable:
    """One run of the terminal table: opens (or resumes) the game and plays it to its end,
    or until the person leaves. ``clock``: the service's (a test's fake one); ``timers``:
    whether the service's timers run by themselves (a test fires them itself)."""

    def __init__(
        self,
        opts: TerminalOptions,
        *,
        console: Console | None = None,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.time,
        timers: bool = True,
    ) -> None:
        self.opts = opts
        self.out = out
        self.clock = clock
        self.run_timers = timers
        self.humans = max(0, opts.players - opts.bots)
        interactive = opts.interactive
        if interactive is None:
            interactive = self.humans > 0 and sys.stdin.isatty()
        self.interactive = interactive
        self.console = console or console_for(interactive, clock, out)
        self.tr = translator(opts.lang or opts.fallback_lang)
        pause = opts.round_pause if opts.round_pause is not None else (3.0 if interactive else 0.0)
        settings = Settings(db=opts.db, bot_delay=opts.delay, round_pause_seconds=pause)
        self.store = SqliteStore(opts.db)
        you = "term:p1" if self.humans == 1 else None  # the one person, named "You"
        self.port = TerminalPort(
            self.console, self.tr, quiet_private=not interactive, you=you, numbered=opts.json
        )
        mono = None if clock is time.time else clock
        self.service = Service(
            self.store, self.port, settings, clock=clock, mono=mono, seed=opts.seed,
            bot_delay=opts.delay,
        )  # fmt: skip
        self.resumed = False
        self.keyboard = you  # who is at the keyboard (hot seat: the last to have it)

    def _say(self, text: str) -> None:
        self.console.write(text)

    async def run(self) -> dict[str, Any]:
        """Play until the game ends or the person leaves; the summary (``interrupted``:
        left with Ctrl-C)."""
        svc, opts = self.service, self.opts
        await svc.open()
        outcome: Signal = DONE
        try:
            await svc.start(run_timers=False)
            info = await svc.table(KEY)
            if info is not None and info.status == LOBBY:
                # a run stopped while it was seating players: nothing was played, start afresh
                await svc.stop_game(KEY, info.host)
                info = await svc.table(KEY)
            self.resumed = info is not None and info.status == PLAYING
            if self.resumed and opts.new and info is not None:
                await svc.stop_game(KEY, info.host)  # counts for nobody's statistics
                self.resumed = False
            if self.resumed and info is not None and opts.lang is None:
                self._language(info.lang or opts.fallback_lang)
            await self.console.start()
            if self.resumed:
                await svc.restart_clocks(KEY)  # the person was away with the program
                self._resumed_lines()
            else:
                outcome = await self._deal()
            if outcome is DONE:
                info = await svc.table(KEY)
                if self.interactive and info is not None:
                    self._say(schema.rules_summary(info.rules, self.tr, info.preset))
                if self.run_timers:
                    svc.timers.start()
                outcome = await self._loop()
                info = await svc.table(KEY)
                if outcome is DONE and self.interactive and info and info.status == FINISHED:
                    self._say(await self.ratings_text(self.port.you))  # what the game changed
        finally:
            await self.console.close()
            await svc.stop()
        try:
            summary = await _summary(svc, self.resumed)
        finally:
            await svc.close()
        summary["interrupted"] = outcome is INTERRUPT
        if outcome is not DONE and summary["status"] == PLAYING:
            self._final(saved_line(self.tr, opts.command))
        return summary

    def _final(self, text: str) -> None:
        """A line after the console is closed (its prompt gone, its line ended)."""
        self.console.write(text)

    def _language(self, lang: str) -> None:
        self.tr = self.port.tr = translator(lang)

    def _resumed_lines(self) -> None:
        tr, command = self.tr, self.opts.command
        self._say(render.notice_text(Notice("info.resumed"), tr, {}))
        if self.interactive:
            self._say(
                tr.gettext(
                    "This is the game left unfinished here. To start a new one instead, "
                    "run: {command}",
                    command=f"{command} --new",
                )
            )
            if self.opts.settings:
                self._say(
                    tr.gettext(
                        "--settings sets the rules of a new game: {command}",
                        command=f"{command} --new --settings",
                    )
                )

    async def _deal(self) -> Signal:
        """Open the table, let the host set the rules, deal; ``DONE``, or how they left."""
        svc = self.service
        human_ids = [f"term:p{i + 1}" for i in range(self.humans)]
        host = await _open_table(svc, self.opts, human_ids, self.tr)
        if self.opts.settings and self.interactive:
            left = await self._settings(host)
            if left is not DONE:
                info = await svc.table(KEY)
                if info is not None and info.status == LOBBY:
                    await svc.stop_game(KEY, host)
                self._final(self.tr.gettext("No game was started."))
                return left
        res = await svc.start_game(KEY, host)
        if not res.ok:
            raise SystemExit(f"cannot start: {res.code} {res.params}")
        return DONE

    # -- the game -----------------------------------------------------------------------------

    async def _loop(self) -> Signal:
        """Draw what the person may do whenever it changes, read what they type meanwhile;
        until the game ends (``DONE``) or they leave (``QUIT``, ``EOF``, ``INTERRUPT``)."""
        drawn: Any = None
        console, port = self.console, self.port
        while True:
            port.changed.clear()  # before reading the table: a change after it wakes us
            info = await self.service.table(KEY)
            if info is None or info.status not in (LOBBY, PLAYING):
                return DONE
            info = port.local(info)
            menu = await self._menu(info)
            fresh = menu.key != drawn
            if fresh:
                drawn = menu.key
                if menu.block:
                    console.write(menu.block)
            console.ask(menu.prompt, fresh=fresh)
            got = await console.read(port.changed)
            if got is CHANGED:
                continue
            if isinstance(got, Signal):
                return got
            answer = await self._answer(info, menu, got.strip().lower())
            if answer is QUIT:
                return QUIT
            if answer is None:  # Enter alone: draw it all again
                drawn = None

    async def _menu(self, info: TableInfo) -> _Menu:
        tr = self.tr
        v = info.view
        if not self.interactive or v is None:
            return _Menu(None, None)
        current = v.current
        humans = [s.id for s in info.seats if s.bot is None and s.id in v.players]
        active = v.phase in (Phase.PLAYING, Phase.CHOOSING_COLOR, Phase.CHALLENGE)
        me = self.keyboard
        if active and current in humans:
            if me is None:
                me = self.keyboard = current  # the first turn of a hot seat
            elif current != me:
                name = info.name(current)
                text = tr.gettext("Pass the keyboard to {name} and press Enter.", name=name)
                # hot seat: the previous hand off the screen before the next one is shown,
                # and nobody's cards printed until the next player has the keyboard
                self.port.keyboard = None
                return _Menu(("pass", current), Prompt(text), "\n" * 60, handover=current)
        self.port.keyboard = me
        if me is None:
            return _Menu(("wait", current), self._waiting(info, current))
        if me in info.autopilot:  # a bot plays their seat until they take it back
            text = tr.gettext(
                "🤖 The autopilot plays for you (a: take your seat back, e: end the game, "
                "r: rules and scores, q: quit): "
            )
            return _Menu(("pilot", current), Prompt(text, waiting=True), player=me)
        view = await self.service.hand(KEY, me)
        legal = await self.service.legal(KEY, me)
        mine = active and current == me
        if not mine:
            # out of turn: a jump-in, the UNO call forgotten, a catch of someone who forgot
            # theirs (not every false catch that ``false_uno_penalty`` makes legal)
            exposed = set(v.exposed)
            legal = [
                a
                for a in legal
                if isinstance(a, Play | NextRound)
                or (isinstance(a, CallUno) and me in exposed)
                or (isinstance(a, CatchUno) and a.target in exposed)
            ]
        rows = controls.hand_menu(info, view, legal, tr)
        moves = tuple(c for row in rows for c in row if isinstance(c.intent, intents.Act))
        if mine and view is not None:
            return _Menu(
                ("turn", me, info.turn_version, tuple(c.intent for c in moves), view.hand),
                Prompt(
                    tr.gettext("Your move: "),
                    tr.gettext("Your move ({seconds} s left): "),
                    info.deadline,
                ),
                self._turn_block(info, view, moves),
                moves,
                me,
            )
        if moves:
            return _Menu(
                ("now", me, tuple(c.intent for c in moves)),
                Prompt(tr.gettext("Your move: ")),
                self._now_block(moves),
                moves,
                me,
            )
        return _Menu(("wait", current), self._waiting(info, current), player=me)

    def _waiting(self, info: TableInfo, current: str | None) -> Prompt:
        tr = self.tr
        if current is None:
            return Prompt(tr.gettext("r: rules and scores, q: quit: "), waiting=True)
        return Prompt(
            tr.gettext(
                "{player} to play (r: rules and scores, q: quit): ", player=info.name(current)
            ),
            waiting=True,
        )

    def _move_lines(self, moves: tuple[controls.Control, ...], turn: bool) -> list[str]:
        tr, names = self.tr, self.port.names
        lines = []
        for i, c in enumerate(moves, 1):
            assert isinstance(c.intent, intents.Act)
            action = c.intent.action
            label = controls.long_label(action, tr, names)
            if not turn and isinstance(action, Play):
                label = tr.gettext("Jump in: {move}", move=label)
            lines.append(f"  {i:>2}. {label}")
        return lines

    def _turn_block(self, info: TableInfo, view: Any, moves: tuple[controls.Control, ...]) -> str:
        tr = self.tr
        lines = [""]
        seats = render.seat_lines(info, tr)
        if seats:
            lines += [*seats, ""]
        lines.append(render.hand_text(view, tr, info.names))
        lines += self._move_lines(moves, turn=True)
        lines.append(
            "   a. " + tr.gettext("🤖 Play for me (a bot plays your seat until you press a)")
        )
        lines.append("   e. " + tr.gettext("🗳 End the game (counted for nobody)"))
        lines.append("   r. " + tr.gettext("Rules and scores"))
        lines.append("   t. " + tr.gettext("Ratings and the ladder"))
        lines.append("   q. " + tr.gettext("Quit (the game is saved)"))
        return "\n".join(lines)

    def _now_block(self, moves: tuple[controls.Control, ...]) -> str:
        tr = self.tr
        lines = ["", tr.gettext("⚡ Not your turn, but you may:")]
        lines += self._move_lines(moves, turn=False)
        return "\n".join(lines)

    async def _answer(self, info: TableInfo, menu: _Menu, text: str) -> Signal | bool | None:
        """Do what the person typed: ``QUIT``; ``None`` for Enter alone; else whether it
        was understood (a refusal is told through the port)."""
        tr = self.tr
        if text in ("q", "quit", "exit"):
            return QUIT
        if menu.handover is not None:
            self.keyboard = self.port.keyboard = menu.handover
            return True
        if not text:
            return None
        me = menu.player or self.keyboard
        if text in ("a", "autopilot") and me is not None:
            # "Play for me", or the seat back (a refusal answered on the screen)
            res = await self.service.autopilot(KEY, me, me not in info.autopilot)
            self.port.answer(me, res.told)
            return True
        if text in ("e", "end") and me is not None:
            # a vote to end the game: the one person at the table ends it alone
            res = await self.service.vote_end(KEY, me, info.vote.version if info.vote else 0)
            self.port.answer(me, res.told)
            return True
        if text in ("r", "rules", "s", "scores"):
            lines = [schema.rules_summary(info.rules, tr, info.preset)]
            if info.view is not None:
                lines += ["", *render.scores_lines(info.view, tr, info.names)]
            self.console.write("\n".join(lines))
            return True
        if text in ("t", "top", "rank", "ratings"):
            self.console.write(await self.ratings_text(menu.player or self.keyboard))
            return True
        control = _pick(text, menu.moves)
        if control is None or menu.player is None:
            self.console.write(_bad_input(tr, len(menu.moves)))
            return False
        act = control.intent
        assert isinstance(act, intents.Act)
        seen = None if isinstance(act.action, CallUno) else act.version  # a call is never late
        res = await self.service.act(KEY, menu.player, act.action, seen_version=seen)
        self.port.answer(menu.player, res.told)
        return True

    async def ratings_text(self, player: str | None) -> str:
        """``t``: the ratings of ``player`` (the one at the keyboard) and the terminal's
        ladders (``/rank`` and ``/top`` of the chats)."""
        svc, tr = self.service, self.tr
        lines = []
        if player is not None:
            name = tr.gettext("You") if player == self.port.you else player
            lines += [render.rank_text(name, await svc.rank(SCOPE, player), tr), ""]
        lines.append(render.top_text(await svc.top(SCOPE), tr))
        return "\n".join(lines)

    async def _settings(self, host: str) -> Signal:
        """The host's settings menu until Done (``DONE``), or until they leave."""
        svc, tr, console = self.service, self.tr, self.console
        page = 0
        changed = asyncio.Event()  # nothing else changes a table in its lobby
        while True:
            info = await svc.table(KEY)
            if info is None:
                return DONE
            text, keys = settings_screen(info, page, tr)
            console.write(text)
            console.ask(Prompt(tr.gettext("Your choice: ")), fresh=True)
            got = await console.read(changed)
            if isinstance(got, Signal):
                return got
            answer = got.strip().lower()
            if answer in ("q", "quit", "exit"):
                return QUIT
            if not answer:
                continue
            intent = keys.get(answer)
            if intent is None:
                numbers = sum(1 for k in keys if k.isdigit())
                console.write(
                    tr.gettext("Type a number from 1 to {n}, or n, p, d or q.", n=numbers)
                )
                continue
            if isinstance(intent, intents.CloseSettings):
                return DONE
            if isinstance(intent, intents.OpenSettings):
                page = intent.page
                continue
            res = await press(svc, KEY, host, intent)
            if res is not None:  # a refusal answered on the screen
                self.port.answer(host, res.told)


async def play(
    opts: TerminalOptions,
    *,
    out: TextIO | None = None,
    console: Console | None = None,
    clock: Callable[[], float] = time.time,
    handle_signals: bool = False,
) -> dict[str, Any]:
    """Run (or resume) the terminal table until the game ends or the person leaves;
    returns the summary. ``handle_signals``: Ctrl-C (SIGINT) leaves it saved, at once."""
    table = TerminalTable(opts, console=console, out=out, clock=clock)
    if not handle_signals:
        return await table.run()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGINT, table.console.interrupt)
    try:
        return await table.run()
    finally:
        loop.remove_signal_handler(signal.SIGINT)


def _pick(text: str, moves: tuple[controls.Control, ...]) -> controls.Control | None:
    if text.isdigit():
        n = int(text)
        return moves[n - 1] if 1 <= n <= len(moves) else None
    if text in ("u", "uno"):
        for c in moves:
            if isinstance(c.intent, intents.Act) and isinstance(c.intent.action, CallUno):
                return c
    return None


def _bad_input(tr: Translator, n: int) -> str:
    """What may be typed now, when what was typed is none of it."""
    if n == 0:
        return tr.gettext("Nothing to play now: type r for the rules and scores, q to quit.")
    return tr.ngettext(
        "Type 1 for the move, r for the rules and scores, q to quit.",
        "Type a number from 1 to {n} for a move, r for the rules and scores, q to quit.",
        n,
    )


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
        tr.gettext("You") if single else tr.gettext("Player {n}", n=1),
        lang=tr.lang,
        preset=opts.preset,
        overrides=opts.overrides,
        seat_host=bool(human_ids),
    )
    if not res.ok:
        raise SystemExit(f"cannot open the table: {res.code} {res.params}")
    for i, pid in enumerate(human_ids[1:], 2):
        await svc.join(KEY, pid, tr.gettext("Player {n}", n=i))
    for _ in range(opts.bots):
        await svc.add_bot(KEY, host, opts.strategy)
    return host


# -- settings: bot.ui.controls as numbered lines, the pages on fixed keys ------------------------


def settings_screen(
    info: TableInfo, page: int, tr: Translator
) -> tuple[str, dict[str, intents.Intent]]:
    """The settings menu at ``page`` as text, and what each key presses: a number for each
    preset and value (the enabled ones, in order), ``n``/``p`` the next and previous page,
    ``d`` Done (the deal). A flag's "needs" note is said once, on its line, not on each
    of its values."""
    lines = [
        "⚙️ " + tr.gettext(controls.SETTINGS),
        schema.rules_summary(info.rules, tr, info.preset),
        "",
    ]
    keys: dict[str, intents.Intent] = {}
    pages = {"n": tr.gettext("▶ Next page"), "p": tr.gettext("◀ Previous page")}
    for row in controls.settings_menu(info, page, tr):
        if any(isinstance(c.intent, intents.OpenSettings | intents.CloseSettings) for c in row):
            for c in row:
                intent = c.intent
                if isinstance(intent, intents.CloseSettings):
                    keys["d"] = intent
                elif isinstance(intent, intents.OpenSettings) and not c.enabled:
                    if c.label not in ("◀", "▶"):  # (an arrow that goes nowhere: none)
                        lines.append(f"       {c.label}")  # "Page 1/11"
                elif isinstance(intent, intents.OpenSettings) and c.enabled:
                    keys["n" if intent.page > page else "p"] = intent
            continue
        if row.title:
            lines.append(row.title)
        for c in row:
            intent = c.intent
            label = c.label
            if isinstance(intent, intents.SetFlag):
                label = schema.value_text(intent.flag, intent.value, tr)
            if not c.enabled:
                lines.append(f"       {label}")
                continue
            n = str(sum(1 for k in keys if k.isdigit()) + 1)
            keys[n] = intent
            mark = "✓" if c.selected else " "
            lines.append(f"  {n:>2}. {mark} {label}")
    lines += [f"   {key}. {words}" for key, words in pages.items() if key in keys]
    lines.append("   d. " + tr.gettext("✅ Done: deal the cards"))
    lines.append("   q. " + tr.gettext("Quit (no game is started)"))
    return "\n".join(lines), keys


async def _summary(svc: Service, resumed: bool) -> dict[str, Any]:
    t = await svc.table(KEY)
    if t is None:
        return {"winner": None, "scores": {}, "rounds": 0, "actions": 0, "resumed": resumed,
                "status": None}  # fmt: skip
    g = t.view  # the public view: the scores and the winner are public
    names = t.names
    log = await svc.moves(KEY)
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
