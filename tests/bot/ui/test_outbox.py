"""bot.ui.outbox: the lanes every platform's outbox shares (order, coalescing, ``first``,
flood-control retries, errors, moves, shutdown) and the pacing hooks a platform plugs in."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

import pytest

from bot.ui.outbox import Item, Lane, Outbox

Job = Callable[[], Awaitable[None]]


def recorder(out: list[str]) -> Callable[[str], Job]:
    def make(text: str) -> Job:
        async def run() -> None:
            out.append(text)

        return run

    return make


class Flood(Exception):
    """A platform's 429: try again after ``seconds``."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"retry after {seconds}")
        self.seconds = seconds


class Flaky(Exception):
    """A network error: worth a retry or two."""


class Box(Outbox[str]):
    """A platform's outbox: its flood control and its errors."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.failures: list[tuple[Hashable, str, int]] = []

    def retry_after(self, lane: Lane[str], err: Exception) -> float | None:
        return err.seconds if isinstance(err, Flood) else None

    async def failed(
        self, lane: Lane[str], key: Hashable, item: Item, err: Exception, failures: int
    ) -> float | None:
        self.failures.append((key, type(err).__name__, failures))
        if isinstance(err, Flaky) and failures <= 2:
            return 0.0
        return None


async def test_a_lane_runs_in_order_one_at_a_time() -> None:
    box = Box()
    out: list[str] = []
    running = most = 0

    def job(text: str) -> Job:
        async def run() -> None:
            nonlocal running, most
            running += 1
            most = max(most, running)
            await asyncio.sleep(0.001)
            out.append(text)
            running -= 1

        return run

    for text in "abcde":
        box.put("chat", None, job(text))
    box.put("other", None, job("x"))
    assert box.busy and box.pending() == 6
    assert await box.flush(2)
    assert [t for t in out if t != "x"] == list("abcde") and "x" in out
    assert most == 2  # one in flight per lane: the two lanes side by side
    assert not box.busy and box.pending() == 0 and box.sent == 6


async def test_a_waiting_key_is_replaced_in_place_and_its_future_follows() -> None:
    box = Box()
    out: list[str] = []
    say = recorder(out)
    block = asyncio.Event()

    async def first() -> None:
        await block.wait()
        out.append("first")

    box.put("chat", None, first)
    old = box.put("chat", "table", say("table v1"))
    box.put("chat", None, say("news"))
    new = box.put("chat", "table", say("table v2"))
    assert box.coalesced == 1 and box.pending("chat") == 3
    block.set()
    await asyncio.wait_for(asyncio.gather(old, new), 2)
    assert out == ["first", "table v2", "news"]  # the latest render, in the first's place


async def test_first_goes_before_what_waits() -> None:
    box = Box()
    out: list[str] = []
    say = recorder(out)
    block = asyncio.Event()

    async def busy() -> None:
        await block.wait()

    box.put("chat", None, busy)
    await asyncio.sleep(0)
    box.put("chat", ("table", 1), say("table"))
    box.put("chat", "refusal", say("refusal"))
    box.put("chat", ("news", 1), say("news"), first=True)
    lane = box._lanes["chat"]
    assert list(lane.items) == [("news", 1), ("table", 1), "refusal"]
    assert ("news", 1) in lane.urgent
    block.set()
    assert await box.flush(2)
    assert out == ["news", "table", "refusal"]


async def test_flood_control_pauses_and_sends_the_newest_version() -> None:
    box = Box()
    loop = asyncio.get_running_loop()
    tries: list[float] = []
    out: list[str] = []

    async def v1() -> None:
        tries.append(loop.time())
        raise Flood(0.05)

    old = box.put("chat", "table", v1)
    await asyncio.sleep(0.01)  # v1 in flight, pausing: v2 arrives meanwhile
    new = box.put("chat", "table", recorder(out)("v2"))
    await asyncio.wait_for(asyncio.gather(old, new), 2)
    assert out == ["v2"] and len(tries) == 1
    assert await box.flush(1)
    assert box.retried == 1 and box.pending() == 0
    assert box.failures == []  # flood control is not a failure


async def test_failed_decides_retry_or_give_up_and_the_lane_goes_on() -> None:
    box = Box()
    out: list[str] = []
    tries = 0

    async def flaky() -> None:
        nonlocal tries
        tries += 1
        raise Flaky

    async def broken() -> None:
        raise ValueError("bad request")

    done = box.put("chat", "a", flaky)
    box.put("chat", "b", broken)
    box.put("chat", "c", recorder(out)("after"))
    assert await box.flush(2)
    assert done.done() and not done.cancelled()  # given up: done all the same
    assert tries == 3  # once, then twice again
    assert box.failures == [
        ("a", "Flaky", 1),
        ("a", "Flaky", 2),
        ("a", "Flaky", 3),
        ("b", "ValueError", 1),
    ]
    assert out == ["after"] and box.sent == 1


async def test_the_default_gives_up_and_logs(caplog: pytest.LogCaptureFixture) -> None:
    box: Outbox[str] = Outbox(name="t")
    out: list[str] = []

    async def broken() -> None:
        raise RuntimeError("boom")

    box.put("chat", "x", broken)
    box.put("chat", None, recorder(out)("after"))
    assert await box.flush(2)
    assert out == ["after"]
    assert "sending x failed" in caplog.text


async def test_move_merges_by_key_and_keeps_the_waiters() -> None:
    box = Box()
    out: list[str] = []
    say = recorder(out)
    block = asyncio.Event()

    async def busy() -> None:
        await block.wait()

    box.put("old", None, busy)
    box.put("new", None, busy)
    await asyncio.sleep(0)
    moved = box.put("old", "table", say("old table"))
    box.put("old", None, say("news"))
    there = box.put("new", "table", say("new table"))
    box.move("old", "new")
    assert box.pending("old") == 1  # its send in flight, nothing waiting
    assert box.pending("new") == 3
    block.set()
    await asyncio.wait_for(asyncio.gather(moved, there), 2)
    assert await box.flush(2)
    assert out == ["old table", "news"]  # the latest render, in the place it had there


async def test_discard_releases_its_waiters_and_wakes_the_lane() -> None:
    box = Box()
    out: list[str] = []
    block = asyncio.Event()

    async def busy() -> None:
        await block.wait()

    box.put("chat", None, busy)
    gone = box.put("chat", "table", recorder(out)("table"))
    box.discard("chat", "table")
    box.discard("chat", "nothing")
    box.discard("elsewhere", "table")
    assert gone.done() and box.pending("chat") == 1
    block.set()
    assert await box.flush(2)
    assert out == []


async def test_close_cancels_what_waits_and_nothing_runs_after() -> None:
    box = Box()
    out: list[str] = []
    started = asyncio.Event()

    async def forever() -> None:
        started.set()
        await asyncio.sleep(60)

    running = box.put("chat", None, forever)
    waiting = box.put("chat", None, recorder(out)("never"))
    await started.wait()
    await box.close()
    assert waiting.cancelled() and running.done()
    late = box.put("chat", None, recorder(out)("late"))
    assert late.cancelled()
    assert await box.flush(0.1) and out == [] and not box.busy


async def test_drain_waits_for_what_is_queued_meanwhile() -> None:
    box = Box()
    out: list[str] = []
    say = recorder(out)

    async def chain() -> None:
        await asyncio.sleep(0.001)
        box.put("other", None, say("queued meanwhile"))

    box.put("chat", None, chain)
    await box.drain(2)
    assert out == ["queued meanwhile"]
    box.put("chat", None, lambda: asyncio.sleep(1))
    with pytest.raises(TimeoutError):
        await box.drain(0.01)
    await box.close()


class Gate:
    """A pacing that lets one send through per ``open_gate()`` and records its hooks."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.tokens = 0
        self.changed = asyncio.Event()

    def open_gate(self, n: int = 1) -> None:
        self.tokens += n
        self.changed.set()

    def open(self, lane: Lane[Any]) -> None:
        lane.state = "mine"
        self.calls.append(("open", lane.key))

    async def ready(self, lane: Lane[Any]) -> None:
        while self.tokens <= 0 and lane.items:
            self.changed.clear()
            lane.poke.clear()
            waits = [
                asyncio.ensure_future(self.changed.wait()),
                asyncio.ensure_future(lane.poke.wait()),
            ]
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            for w in waits:
                w.cancel()

    def start(self, lane: Lane[Any]) -> None:
        assert lane.state == "mine"
        self.tokens -= 1
        self.calls.append(("start", lane.key))

    def end(self, lane: Lane[Any]) -> None:
        self.calls.append(("end", lane.key))


async def test_the_pacing_says_when_and_coalescing_happens_while_it_waits() -> None:
    gate = Gate()
    box = Box(pacing=gate)
    shown: list[int] = []
    state = {"v": 0}

    async def edit() -> None:
        shown.append(state["v"])  # renders the latest state when it runs

    for v in range(1, 6):
        state["v"] = v
        box.put("chat", "table", edit)
        await asyncio.sleep(0.001)
    assert shown == [] and box.coalesced == 4
    gate.open_gate()
    await asyncio.sleep(0.01)
    assert shown == [5]
    assert gate.calls == [("open", "chat"), ("start", "chat"), ("end", "chat")]
    box.put("chat", "table", edit)
    box.discard("chat", "table")  # a lane emptied while it waits ends quietly
    assert await box.flush(1)
    assert box.pending() == 0
