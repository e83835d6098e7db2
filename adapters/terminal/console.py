"""The person's end of the terminal table: the lines they type, the prompt, and what is
printed above it while they think.

The table never waits on a typed line alone: ``Console.read`` returns as soon as the game
changes (a timeout, a catch, a bot's move), so the table is drawn again and the prompt
follows it, each prompt on its own line. Three consoles keep that promise:

- ``TtyConsole``, at a terminal: prompt_toolkit's prompt stays at the bottom while the
  table's lines print above it (``patch_stdout``); its countdown is drawn again every
  second, and what was typed stays typed, unless the moves it was typed for are gone.
  Ctrl-C and Ctrl-D are read as keys (the prompt puts the terminal in raw mode).
- ``LineConsole``, for a pipe: lines read by a thread of their own (a blocking read never
  holds the loop), the prompt printed again below whatever printed since.
- ``NullConsole``, with nobody at the keyboard: prints, reads nothing.

Tests bring their own console (``tests/adapters/terminal/script.py``) with the same
interface, driving a fake clock.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TextIO

__all__ = [
    "CHANGED",
    "EOF",
    "INTERRUPT",
    "Console",
    "LineConsole",
    "NullConsole",
    "Prompt",
    "Signal",
    "TtyConsole",
    "console_for",
]


class Signal:
    """What ``Console.read`` returns that is not a line."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


CHANGED = Signal("CHANGED")  # the game changed: draw it again, then read on
EOF = Signal("EOF")  # Ctrl-D, or the end of the input
INTERRUPT = Signal("INTERRUPT")  # Ctrl-C


@dataclass(frozen=True, slots=True)
class Prompt:
    """The question on the prompt line: ``text``, or ``timed`` (with ``{seconds}``) while
    ``deadline`` (the service's clock) is ahead. ``waiting``: nothing to decide, only the
    keys that always work; a console that cannot keep a prompt at the bottom prints none."""

    text: str
    timed: str = ""
    deadline: float | None = None
    waiting: bool = False

    def line(self, now: float) -> str:
        if self.deadline is None or not self.timed:
            return self.text
        seconds = max(0, math.ceil(self.deadline - now))
        try:
            return self.timed.format(seconds=seconds)
        except (KeyError, IndexError, ValueError):  # a broken translation: no countdown
            return self.text


class Console(Protocol):
    """Where the table prints, and where the person's lines come from."""

    async def start(self) -> None: ...

    async def close(self) -> None: ...

    def write(self, text: str) -> None:
        """Print ``text`` (lines), above the prompt."""

    def ask(self, prompt: Prompt | None, *, fresh: bool) -> None:
        """Show ``prompt`` on the prompt line; ``fresh``: for moves just drawn (what was
        typed for the ones before is dropped)."""

    async def read(self, changed: asyncio.Event) -> str | Signal:
        """The next line typed, ``EOF``, ``INTERRUPT``, or ``CHANGED`` once ``changed`` is
        set (the line is read at the next call)."""

    def interrupt(self) -> None:
        """Ctrl-C arrived as a signal (outside the prompt): ``read`` returns ``INTERRUPT``."""


async def _next(queue: asyncio.Queue[str | Signal], changed: asyncio.Event) -> str | Signal:
    """The next item of ``queue``, or ``CHANGED`` if ``changed`` is set first."""
    if not queue.empty():
        return queue.get_nowait()
    if changed.is_set():
        return CHANGED
    get = asyncio.ensure_future(queue.get())
    wake = asyncio.ensure_future(changed.wait())
    try:
        await asyncio.wait({get, wake}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        wake.cancel()
        get.cancel()  # (a queue's getter cancelled loses no item)
    if get.done() and not get.cancelled():
        return get.result()
    return CHANGED


class NullConsole:
    """Nobody at the keyboard: the table prints, and only Ctrl-C (a signal) ends it."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out
        self._queue: asyncio.Queue[str | Signal] = asyncio.Queue()

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    def write(self, text: str) -> None:
        print(text, file=self.out or sys.stdout, flush=True)

    def ask(self, prompt: Prompt | None, *, fresh: bool) -> None:
        return None

    async def read(self, changed: asyncio.Event) -> str | Signal:
        return await _next(self._queue, changed)

    def interrupt(self) -> None:
        self._queue.put_nowait(INTERRUPT)


class LineConsole:
    """Lines from a stream that is no terminal (a pipe), read by a thread of its own; the
    prompt printed on its own line, again after anything printed below it."""

    def __init__(self, out: TextIO | None, inp: TextIO | None, clock: Callable[[], float]) -> None:
        self.out = out
        self.inp = inp
        self.clock = clock
        self._queue: asyncio.Queue[str | Signal] = asyncio.Queue()
        self._prompt: Prompt | None = None
        self._on_line = False  # the prompt is the last thing printed (no newline after it)

    @property
    def _stream(self) -> TextIO:
        return self.out or sys.stdout

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        inp = self.inp or sys.stdin

        def read() -> None:
            # a daemon thread: a read that never returns does not keep the program alive
            for line in iter(inp.readline, ""):
                loop.call_soon_threadsafe(self._queue.put_nowait, line.rstrip("\r\n"))
            loop.call_soon_threadsafe(self._queue.put_nowait, EOF)

        threading.Thread(target=read, name="uno-terminal-input", daemon=True).start()

    async def close(self) -> None:
        self._end_line()

    def _end_line(self) -> None:
        if self._on_line:
            self._stream.write("\n")
            self._on_line = False

    def write(self, text: str) -> None:
        self._end_line()
        print(text, file=self._stream, flush=True)

    def ask(self, prompt: Prompt | None, *, fresh: bool) -> None:
        if prompt == self._prompt and (self._on_line or prompt is None):
            return
        self._prompt = prompt
        self._end_line()
        if prompt is not None and not prompt.waiting:
            self._stream.write(prompt.line(self.clock()))
            self._stream.flush()
            self._on_line = True

    async def read(self, changed: asyncio.Event) -> str | Signal:
        got = await _next(self._queue, changed)
        if isinstance(got, str):
            self._on_line = False  # the person's Enter ended the prompt's line
        return got

    def interrupt(self) -> None:
        self._queue.put_nowait(INTERRUPT)


class TtyConsole:
    """A terminal: prompt_toolkit's prompt, always at the bottom, redrawn every second
    (the countdown); the table's lines print above it."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._queue: asyncio.Queue[str | Signal] = asyncio.Queue()
        self._prompt: Prompt | None = None
        self._session: Any = None
        self._patch: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.patch_stdout import patch_stdout

        self._session = PromptSession()
        # print() to sys.stdout from now on goes above the prompt, which stays put
        self._patch = patch_stdout(raw=True)
        self._patch.__enter__()
        self._task = asyncio.create_task(self._read(), name="uno-terminal-prompt")

    async def _read(self) -> None:
        while True:
            try:
                line = await self._session.prompt_async(self._message, refresh_interval=1.0)
            except KeyboardInterrupt:
                self._queue.put_nowait(INTERRUPT)
                return
            except EOFError:
                self._queue.put_nowait(EOF)
                return
            self._queue.put_nowait(line)

    def _message(self) -> str:
        p = self._prompt
        return p.line(self.clock()) if p is not None else ""

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            app = self._session.app
            if app.is_running:
                # the prompt ends cleanly (the terminal as it was), leaving an empty line
                self._prompt = None
                app.exit(result="")
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._patch is not None:
            self._patch.__exit__(None, None, None)
            self._patch = None

    def write(self, text: str) -> None:
        print(text, flush=True)

    def ask(self, prompt: Prompt | None, *, fresh: bool) -> None:
        self._prompt = prompt
        session = self._session
        if session is None or not session.app.is_running:
            return
        if fresh:
            session.default_buffer.reset()  # typed for moves no longer on the screen
        session.app.invalidate()

    async def read(self, changed: asyncio.Event) -> str | Signal:
        return await _next(self._queue, changed)

    def interrupt(self) -> None:
        self._queue.put_nowait(INTERRUPT)


def console_for(
    interactive: bool, clock: Callable[[], float], out: TextIO | None = None
) -> Console:
    """The console for this terminal: prompt_toolkit's when both ends are a terminal."""
    if not interactive:
        return NullConsole(out)
    if out is None and sys.stdin.isatty() and sys.stdout.isatty():
        return TtyConsole(clock)
    return LineConsole(out, None, clock)
