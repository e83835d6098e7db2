"""Telegram: the path of one button press through the project's modules (issue 20).

One Draw is pressed on the table message of a two-player game, through the real adapter,
service and SQLite store against the local fake Bot API (``tests/fakes/telegram_api.py``),
with a profile hook (``sys.setprofile``) on from the press until the callback is answered
and every edit it queued has gone. Each function call (not a coroutine resumed after an
await) moves the walk to the module of the innermost frame that is the project's
(``adapters/``, ``bot/``, ``engine/``; a library function called counts for the project
frame that called it, so a module is back in the walk when it calls on after a call into
another returned), one walk per asyncio task (the handler, the outbox's jobs, the poller:
tasks interleave, one task's steps do not).

Printed: each task's walk (modules in the order visited, repeats in a row collapsed), the
project's modules in the order first visited, the number of distinct adapter modules,
and how many times a walk came back to an adapter module it had left (``presses`` ->
``front`` -> ``presses`` is one): a press that visits each concern once comes back seldom.

    python -m bench.press_path [--walks]
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_SUSPENDS = (
    inspect.CO_COROUTINE
    | inspect.CO_GENERATOR
    | inspect.CO_ASYNC_GENERATOR
    | inspect.CO_ITERABLE_COROUTINE
)
PACKAGES = ("adapters", "bot", "engine")

__all__ = ["Walks", "comebacks", "main", "trace_draw"]


@dataclass
class Walks:
    """The modules each task visited, in order (repeats in a row collapsed)."""

    by_task: dict[int, list[str]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    _modules: dict[str, str | None] = field(default_factory=dict)
    _started: dict[int, FrameType] = field(default_factory=dict)

    def module(self, filename: str) -> str | None:
        """The dotted name of a project module's file; ``None`` for anything else."""
        found = self._modules.get(filename, "")
        if found != "":
            return found
        name: str | None = None
        try:
            rel = Path(filename).resolve().relative_to(ROOT)
        except ValueError:
            rel = None
        if rel is not None and rel.parts and rel.parts[0] in PACKAGES and rel.suffix == ".py":
            parts = list(rel.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join(parts)
        self._modules[filename] = name
        return name

    def where(self, frame: FrameType | None) -> str | None:
        """The module of the innermost project frame from ``frame`` outwards."""
        while frame is not None:
            name = self.module(frame.f_code.co_filename)
            if name is not None:
                return name
            frame = frame.f_back
        return None

    def hook(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        if frame.f_code.co_flags & _SUSPENDS:
            # a coroutine (or generator) resumed is no new step: the walk follows calls,
            # not how often an await waited
            if id(frame) in self._started:
                return
            self._started[id(frame)] = frame  # (kept: an id is never reused meanwhile)
        name = self.where(frame)
        if name is None:
            return
        try:
            task = asyncio.current_task()
        except RuntimeError:
            task = None
        tid = id(task) if task is not None else 0
        walk = self.by_task.get(tid)
        if walk is None:
            walk = self.by_task[tid] = []
            self.names[tid] = task.get_name() if task is not None else "(no task)"
        if not walk or walk[-1] != name:
            walk.append(name)

    # -- the figures ---------------------------------------------------------------------

    def walks(self) -> list[list[str]]:
        """The walks that touched an adapter module (the press's), oldest task first."""
        return [w for w in self.by_task.values() if any(_adapter(m) for m in w)]

    def first_visits(self) -> list[str]:
        seen: dict[str, None] = {}
        for walk in self.walks():
            for m in walk:
                seen.setdefault(m, None)
        return list(seen)

    def adapter_modules(self) -> set[str]:
        return {m for w in self.walks() for m in w if _adapter(m)}

    def comebacks(self) -> int:
        """How many times a walk came back to an adapter module it had left."""
        return sum(comebacks(w) for w in self.walks())


def comebacks(walk: list[str]) -> int:
    """How many times ``walk``, among the adapter's modules, came back to one it had left
    (the adapter's steps alone: a call into ``bot`` and back is not counted)."""
    n = 0
    seen: set[str] = set()
    for m in _collapse([m for m in walk if _adapter(m)]):
        if m in seen:
            n += 1
        seen.add(m)
    return n


def _adapter(module: str) -> bool:
    return module.startswith("adapters.")


def _collapse(walk: list[str]) -> list[str]:
    return [m for i, m in enumerate(walk) if i == 0 or walk[i - 1] != m]


async def trace_draw() -> Walks:
    """A Draw pressed on the table message, traced from the press to the last edit."""
    from tests.adapters.telegram.conftest import Harness, key, open_table
    from tests.fakes.telegram_api import FakeBotAPI

    api = FakeBotAPI()
    await api.start()
    walks = Walks()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            tg = Harness(api, Path(tmp) / "uno.sqlite3")
            await tg.start()
            try:
                g = api.group("Press path")
                alice, bob = api.user("Alice"), api.user("Bob")
                await open_table(tg, g, alice, [bob], hand_size=5)
                current = await tg.wait_turn(g, [alice, bob])
                assert current is not None
                await tg.settle()
                table = tg.table_message(g)
                before = tg.service._tables[key(g)].version
                sys.setprofile(walks.hook)
                try:
                    ans = await current.click(table, "Draw")
                    await tg.until(lambda: tg.service._tables[key(g)].version > before)
                    await tg.settle()
                finally:
                    sys.setprofile(None)
                assert not ans.show_alert, ans.text
            finally:
                await tg.stop()
    finally:
        await api.stop()
    return walks


def report(walks: Walks, *, show_walks: bool) -> str:
    lines = []
    for tid, walk in walks.by_task.items():
        if any(_adapter(m) for m in walk):
            n = len({m for m in walk if _adapter(m)})
            lines.append(
                f"task {walks.names[tid]}: {len(walk)} steps, {n} adapter modules, "
                f"{comebacks(walk)} comebacks"
            )
            if show_walks:
                lines.extend(f"  {m}" for m in walk)
    lines.append("modules, in the order first visited:")
    lines.extend(f"  {m}" for m in walks.first_visits())
    lines.append(f"distinct adapter modules: {len(walks.adapter_modules())}")
    lines.append(f"comebacks to an adapter module left: {walks.comebacks()}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--walks", action="store_true", help="print each task's walk")
    args = parser.parse_args()
    walks = asyncio.run(trace_draw())
    print(report(walks, show_walks=args.walks))


if __name__ == "__main__":
    main()
