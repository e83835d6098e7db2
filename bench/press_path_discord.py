"""The path of a Discord press: which of the adapter's modules it walks through, and how
often it goes back to one it had already left. On the fake Discord.

    python -m bench.press_path_discord

Three component presses are traced (``sys.setprofile``), each from the moment the fake
Discord sends the interaction until the world has settled: Bob pressing Join on the
table message, then Start (refused: he is not the host), and Alice playing a card from
her hand message. For the task that handles
the interaction (the one ``Presses.on_component`` runs in) the walk is the innermost
module of ``adapters/discord`` on the stack after every real call and real return of an
adapter function (a coroutine's suspensions and resumptions are not calls: only a frame's
first ``call`` and its last ``return`` count), consecutive repeats merged; calls the
service makes back into the adapter (the port) are part of the walk. Reported: the walk,
the modules it visits, and its returns (a step to a module already left); again without
the helper modules (``markup``, ``context``). Also the
adapter modules every task visited meanwhile (the outbox's lanes drawing the table and
the hand).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import adapters.discord
from tests.adapters.discord.harness import World
from tests.fakes.discord_api import Interaction

ROOT = str(Path(adapters.discord.__file__).parent) + "/"


def _module(frame: FrameType | None) -> str | None:
    """The adapter module of the innermost adapter frame from ``frame`` outwards."""
    while frame is not None:
        name = frame.f_code.co_filename
        if name.startswith(ROOT):
            return name[len(ROOT) : -len(".py")]
        frame = frame.f_back
    return None


@dataclass
class Trace:
    """What a press did, event by event: (task, event, frame, module, module returned to)."""

    events: list[tuple[int, str, FrameType, str, str | None]] = field(default_factory=list)

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event not in ("call", "return") or not frame.f_code.co_filename.startswith(ROOT):
            return
        try:
            task = asyncio.current_task()
        except RuntimeError:
            task = None
        module = _module(frame)
        assert module is not None
        back = _module(frame.f_back) if event == "return" else None
        self.events.append((id(task), event, frame, module, back))

    def handler_task(self) -> int:
        for task, _, frame, module, _ in self.events:
            if module == "inbound/presses" and frame.f_code.co_name == "on_component":
                return task
        raise AssertionError("no press was handled")

    def walk(self, task: int) -> list[str]:
        """The handler's walk: the module after each real call and real return."""
        mine = [e for e in self.events if e[0] == task]
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        for i, (_, event, frame, _, _) in enumerate(mine):
            if event == "call":
                first.setdefault(id(frame), i)
            else:
                last[id(frame)] = i
        out: list[str] = []
        for i, (_, event, frame, module, back) in enumerate(mine):
            if event == "call" and first[id(frame)] == i:
                here: str | None = module
            elif event == "return" and last.get(id(frame)) == i:
                here = back
            else:
                continue  # a suspension or a resumption
            if here is not None and (not out or out[-1] != here):
                out.append(here)
        return out

    def modules(self) -> set[str]:
        return {e[3] for e in self.events}


# modules of helpers only (no state, no calls back): left out of the coarse walk
LEAVES = {"markup", "context"}


def returns(walk: list[str]) -> int:
    """Steps of ``walk`` to a module it had already left."""
    return sum(1 for i, m in enumerate(walk) if m in walk[:i])


def coarse(walk: list[str]) -> list[str]:
    """``walk`` without the helper modules (``LEAVES``), repeats merged again."""
    out: list[str] = []
    for m in walk:
        if m not in LEAVES and (not out or out[-1] != m):
            out.append(m)
    return out


async def traced(world: World, act: Callable[[], Awaitable[Interaction]]) -> Trace:
    trace = Trace()
    sys.setprofile(trace.profile)
    try:
        await act()
    finally:
        sys.setprofile(None)
    return trace


def report(label: str, trace: Trace) -> None:
    walk = trace.walk(trace.handler_task())
    print(f"{label}:")
    print(f"  walk ({len(walk)} steps): {' > '.join(walk)}")
    print(f"  modules visited by the handler: {len(set(walk))}; returns: {returns(walk)}")
    big = coarse(walk)
    print(f"  without {', '.join(sorted(LEAVES))} ({len(big)} steps): {' > '.join(big)}")
    print(f"  modules: {len(set(big))}; returns: {returns(big)}")
    every = sorted(trace.modules())
    print(f"  adapter modules run by every task meanwhile ({len(every)}): {', '.join(every)}")


async def main() -> None:
    argparse.ArgumentParser(description=__doc__).parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        world = World(Path(tmp) / "bench.sqlite3", card_images=False)
        await world.start()
        try:
            alice, bob, _ = world.users
            await world.slash(alice, "new")
            table = await world.table_message()
            join = world.button(table, "join")
            report("Join on the table", await traced(world, lambda: world.press(bob, table, join)))
            start = world.button(table, "start")
            report(
                "Start pressed by one who is not the host (refused)",
                await traced(world, lambda: world.press(bob, table, start)),
            )

            await world.load_scenario(
                {alice: ["R5", "G1", "B2"], bob: ["B7", "G3", "Y4"]}, ["R9"], ["G9"] * 20,
                current=alice,
            )  # fmt: skip
            rec = await world.slash(alice, "hand")
            assert rec.original is not None
            hand = world.fake.messages[rec.original]
            play = world.button(hand, "play", "R5")
            assert play is not None
            report(
                "A card played from the hand",
                await traced(world, lambda: world.press(alice, hand, play)),
            )
        finally:
            await world.close()


if __name__ == "__main__":
    asyncio.run(main())
