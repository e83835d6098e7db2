"""A person at the terminal table, on a fake clock: a ``Console`` whose lines come from a
test's ``choose`` and whose time moves only when the person waits.

Before each answer every deadline due is fired (a bot's move, a closing window), one batch
at a time, and the table draws each change before the person looks: what they answer is
decided on the screen as it is then, the same on every run. ``choose(script)`` returns a
line, ``EOF`` (Ctrl-D), ``INTERRUPT`` (Ctrl-C), or ``Wait(seconds)``: the person does
nothing while the clock moves on."""

from __future__ import annotations

import asyncio
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adapters.terminal.console import CHANGED, EOF, INTERRUPT, Prompt, Signal
from adapters.terminal.table import TerminalOptions, TerminalTable
from tests.bot.helpers import Clock

__all__ = ["EOF", "INTERRUPT", "Script", "Wait", "moves", "run"]

MOVE = re.compile(r"^\s+(\d+)\. (.*)$", re.M)
STEPS = 20_000  # a game that has not ended by then is stuck


@dataclass(frozen=True)
class Wait:
    seconds: float


Answer = str | Signal | Wait


class Script:
    """The console the table prints on and reads from (``adapters.terminal.console``)."""

    def __init__(self, choose: Callable[[Script], Answer], clock: Clock | None = None) -> None:
        self.choose = choose
        self.clock = clock or Clock()
        self.out = io.StringIO()
        self.timers: Any = None
        self.prompt: Prompt | None = None
        self.asked: list[str] = []  # each question answered, as its line read then
        self.typed: list[str] = []
        self.seen = 0  # how much of the screen ``new`` has given already
        self.steps = 0
        self.started = self.closed = False

    # -- what the person sees ---------------------------------------------------------------

    @property
    def screen(self) -> str:
        return self.out.getvalue()

    def new(self) -> str:
        """The screen printed since the last call."""
        text = self.screen
        block, self.seen = text[self.seen :], len(text)
        return block

    def current_moves(self) -> list[tuple[str, str]]:
        """The moves of the last list drawn: (number, label)."""
        runs: list[list[tuple[str, str]]] = [[]]
        for line in self.screen.splitlines():
            m = MOVE.match(line)
            if m:
                runs[-1].append((m.group(1), m.group(2)))
            elif runs[-1] and not re.match(r"^\s+[a-z]\. ", line):
                runs.append([])
        found = [r for r in runs if r]
        return found[-1] if found else []

    @property
    def question(self) -> str:
        p = self.prompt
        return p.line(self.clock()) if p is not None else ""

    # -- the Console interface ---------------------------------------------------------------

    async def start(self) -> None:
        self.started = True

    async def close(self) -> None:
        self.closed = True

    def write(self, text: str) -> None:
        self.out.write(text + "\n")

    def ask(self, prompt: Prompt | None, *, fresh: bool) -> None:
        self.prompt = prompt

    async def read(self, changed: asyncio.Event) -> str | Signal:
        self.steps += 1
        assert self.steps < STEPS, "the game did not end"
        if self.timers is not None:
            while await self.timers.run_due():
                if changed.is_set():
                    return CHANGED  # drawn first, then the person looks
        if changed.is_set():
            return CHANGED
        answer = self.choose(self)
        if isinstance(answer, Wait):
            self.clock.advance(answer.seconds)
            return CHANGED
        self.asked.append(self.question)
        if isinstance(answer, str):
            self.typed.append(answer)
            self.out.write(f"{self.question}{answer}\n")  # as a terminal echoes it
        return answer

    def interrupt(self) -> None:
        raise AssertionError("no signals in a test")


def moves(block: str) -> list[tuple[str, str]]:
    """The numbered moves listed in ``block``: (number, label)."""
    return MOVE.findall(block)


async def run(opts: TerminalOptions, script: Script, *, timeout: float = 30) -> dict[str, Any]:
    """Play ``opts`` at the terminal table with ``script`` at the keyboard."""
    table = TerminalTable(opts, console=script, clock=script.clock, timers=False)
    script.timers = table.service.timers
    return await asyncio.wait_for(table.run(), timeout)
