"""The deadline scheduler, with a fake clock and, where the loop itself is under test, with
short real waits."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest

from bot.model import Deadline
from bot.port import RecordingPort
from bot.service import Service
from bot.store import SqliteStore, store_for
from bot.timers import RETRY_SECONDS, Timers
from engine import Rules, TurnTimedOut, scenario
from tests.bot.helpers import T0, Clock, put_game, settings

BACKENDS = ("sqlite", "postgresql")


class Fired:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Deadline]] = []

    async def __call__(self, key: str, d: Deadline) -> None:
        self.calls.append((key, d))


def D(kind: str, due: float, version: int = 0) -> Deadline:
    return Deadline(kind, due, version)


async def test_deadlines_fire_in_due_order_and_stay_armed() -> None:
    clock, fired = Clock(0.0), Fired()
    timers = Timers(fired, clock)
    timers.set("a", (D("turn", 30), D("uno:x", 5)))
    timers.set("b", (D("lobby", 10),))
    assert len(timers) == 3 and timers.next_due() == 5
    assert timers.due(4) == []
    assert [(k, d.kind) for k, d in timers.due(10)] == [("a", "uno:x"), ("b", "lobby")]
    assert timers.armed("a") == {"turn": D("turn", 30), "uno:x": D("uno:x", 5)}
    assert timers.next_due() == 30
    assert await timers.run_due(100) == 1
    assert fired.calls == [("a", D("turn", 30))]
    timers.set("a", ())
    assert len(timers) == 1 and timers.armed("a") == {}


async def test_a_replaced_deadline_never_fires() -> None:
    fired = Fired()
    timers = Timers(fired, Clock(0.0))
    timers.set("a", (D("turn", 5, 1),))
    timers.set("a", (D("turn", 50, 2),))
    assert await timers.run_due(10) == 0
    assert await timers.run_due(50) == 1
    assert fired.calls == [("a", D("turn", 50, 2))]


async def test_a_replacement_due_at_the_same_time_fires_once() -> None:
    # bots move after ``bot_delay``; with a clock that has not moved, a re-armed bot timer
    # has the same due time as the one it replaces, and must not fire twice
    fired = Fired()
    timers = Timers(fired, Clock(0.0))
    timers.set("a", (D("bot", 5, 1),))
    timers.set("a", (D("bot", 5, 2),))
    timers.set("a", (D("bot", 5, 3),))
    assert await timers.run_due(5) == 1
    assert fired.calls == [("a", D("bot", 5, 3))]
    assert timers.next_due() is None


async def test_a_deadline_handed_out_fires_again_only_when_re_armed() -> None:
    fired = Fired()
    timers = Timers(fired, Clock(0.0))
    d = D("turn", 5, 1)
    timers.set("a", (d,))
    assert await timers.run_due(5) == 1
    timers.set("a", (d, D("uno:x", 7)))  # the table changed, the turn did not
    assert [k.kind for _, k in timers.due(10)] == ["uno:x"]
    timers.set("a", (D("turn", 5, 2),))  # a new turn, already overdue
    assert await timers.run_due(10) == 1


async def test_a_failing_deadline_is_logged_and_the_rest_fire(
    caplog: pytest.LogCaptureFixture,
) -> None:
    calls: list[str] = []

    async def fire(key: str, d: Deadline) -> None:
        calls.append(key)
        if key == "bad":
            raise RuntimeError("boom")

    timers = Timers(fire, Clock(0.0))
    timers.set("bad", (D("turn", 1),))
    timers.set("good", (D("turn", 2),))
    with caplog.at_level(logging.ERROR, logger="bot.timers"):
        assert await timers.run_due(5) == 2
    assert calls == ["bad", "good"]
    assert "deadline turn of table bad failed" in caplog.text


async def test_the_heap_is_rebuilt_when_re_arming_piles_up() -> None:
    fired = Fired()
    timers = Timers(fired, Clock(0.0))
    for t in range(100):
        timers.set(f"t{t}", (D("turn", 1000 + t, 0),))
    assert await timers.run_due(1000) == 1  # t0's is handed out
    for v in range(1, 200):  # every table re-armed again and again
        for t in range(1, 100):
            timers.set(f"t{t}", (D("turn", 2000 + t + v / 1000, v),))
    assert len(timers._heap) <= 4 * len(timers) + 1024
    assert await timers.run_due(10_000) == 99  # each table's latest, once; not t0's again
    assert {k for k, _ in fired.calls} == {f"t{t}" for t in range(100)}
    assert all(d.version == 199 for k, d in fired.calls if k != "t0")


# -- the background loop, in real time ----------------------------------------------------


async def test_the_loop_fires_on_time_and_wakes_for_an_earlier_deadline() -> None:
    got: dict[str, float] = {}
    done = asyncio.Event()

    async def fire(key: str, d: Deadline) -> None:
        got[key] = time.time()
        if len(got) == 3:
            done.set()

    timers = Timers(fire)
    now = time.time()
    timers.set("late", (D("turn", now + 0.3),))
    timers.set("overdue", (D("turn", now - 100),))  # passed while the bot was down: at once
    timers.start()
    await asyncio.sleep(0.05)
    timers.set("early", (D("turn", time.time() + 0.05),))  # earlier than the one it waits for
    await asyncio.wait_for(done.wait(), 5)
    await timers.stop()
    assert got["overdue"] < got["early"] < got["late"]
    assert got["overdue"] - now < 0.1
    assert got["late"] >= now + 0.3


async def test_at_most_max_running_deadlines_are_handled_at_once() -> None:
    running = peak = 0
    done = asyncio.Event()
    count = 0

    async def fire(key: str, d: Deadline) -> None:
        nonlocal running, peak, count
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.01)
        running -= 1
        count += 1
        if count == 100:
            done.set()

    timers = Timers(fire, max_running=8)
    now = time.time()
    for i in range(100):
        timers.set(f"t{i}", (D("turn", now - 1 + i / 1000),))  # all overdue at start-up
    timers.start()
    await asyncio.wait_for(done.wait(), 10)
    await timers.stop()
    assert peak == 8


async def test_stop_is_prompt_even_when_woken_as_it_is_cancelled() -> None:
    timers = Timers(Fired())
    timers.set("a", (D("turn", time.time() + 3600),))
    timers.start()
    await asyncio.sleep(0.01)  # the loop waits for a deadline an hour away
    # an earlier deadline arrives (waking the loop) in the same instant it is told to stop:
    # 3.11's ``wait_for`` then swallows the cancellation, and the loop used to go on
    # waiting (here for an hour)
    timers.set("b", (D("turn", time.time() + 1800),))
    await asyncio.wait_for(timers.stop(), 2)


async def test_stop_lets_deadlines_being_handled_finish() -> None:
    finished: list[str] = []
    started = asyncio.Event()

    async def fire(key: str, d: Deadline) -> None:
        started.set()
        await asyncio.sleep(0.1 if key == "quick" else 3600)
        finished.append(key)

    timers = Timers(fire)
    timers.set("quick", (D("turn", 0),))
    timers.start()
    await asyncio.wait_for(started.wait(), 2)
    await asyncio.wait_for(timers.stop(grace=2), 3)
    assert finished == ["quick"]

    timers = Timers(fire)
    timers.set("stuck", (D("turn", 0),))
    timers.start()
    await asyncio.sleep(0.05)
    t0 = time.monotonic()
    await timers.stop(grace=0.05)  # one that does not finish is cancelled
    assert time.monotonic() - t0 < 1


@pytest.mark.soak
async def test_a_busy_service_always_stops(tmp_path: Path) -> None:
    """Stopping while bot seats play flat out on many tables: the scheduler used to hang
    now and then (a cancellation lost inside ``asyncio.wait_for`` as a table re-armed its
    timers), and with it every shutdown of the terminal table."""
    for trial in range(10):
        store = SqliteStore(tmp_path / f"busy{trial}.db")
        await store.open()
        svc = Service(store, RecordingPort(keep=False), settings(), seed=trial, bot_delay=0)
        await svc.start()
        for i in range(100):
            key = f"t:{i}"
            await svc.create(key, "chat", "h", "Host", seat_host=False)
            for _ in range(4):
                await svc.add_bot(key, "h", "smart")
        await asyncio.gather(*(svc.start_game(f"t:{i}", "h") for i in range(100)))
        await asyncio.sleep(0.2 + trial / 20)
        await asyncio.wait_for(svc.stop(), 10)
        await store.close()


# -- clock steps: deadlines are stored in wall time, waited for in monotonic time --------


@pytest.mark.parametrize("step", [-600.0, 600.0], ids=["back", "forward"])
async def test_deadlines_keep_their_time_when_the_wall_clock_steps(step: float) -> None:
    wall, mono = Clock(T0), Clock(50.0)
    fired = Fired()
    timers = Timers(fired, wall, mono=mono)
    turn, bot = D("turn", T0 + 60, 1), D("bot", T0 + 1, 1)
    timers.set("a", (turn,))
    timers.set("b", (bot,))
    assert timers.next_due() == T0 + 1
    wall.t += step  # NTP, an operator, a resumed VM
    assert timers.next_due() == T0 + 1 + step  # still a second away
    mono.t += 0.5
    assert await timers.run_due() == 0  # a step forward fires nothing early
    mono.t += 0.5
    assert await timers.run_due() == 1 and fired.calls == [("b", bot)]  # nor a step back late
    assert timers.late("a", turn) == -59
    later = D("lobby", wall() + 10)  # armed after the step, from the stepped wall clock
    timers.set("c", (later,))
    mono.t += 9
    assert await timers.run_due() == 0
    mono.t += 1
    assert await timers.run_due() == 1 and fired.calls[-1] == ("c", later)
    mono.t = 110
    assert await timers.run_due() == 1 and fired.calls[-1] == ("a", turn)


async def test_a_retry_waits_by_the_monotonic_clock() -> None:
    wall, mono = Clock(T0), Clock(0.0)
    calls: list[float] = []

    async def fire(key: str, d: Deadline) -> None:
        calls.append(mono())
        if len(calls) == 1:
            raise RuntimeError("store down")

    timers = Timers(fire, wall, mono=mono)
    timers.set("a", (D("turn", T0),))
    assert await timers.run_due() == 1
    wall.t -= 3600
    mono.t += RETRY_SECONDS
    assert await timers.run_due() == 1 and calls == [0.0, RETRY_SECONDS]


class StampedPort(RecordingPort):
    """Records, with the monotonic time, every event shown."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[tuple[float, Any]] = []

    async def show_table(self, table: Any, events: Any) -> None:
        self.events.extend((time.monotonic(), e) for e in events)


@pytest.mark.parametrize("step", [-600.0, 600.0], ids=["back", "forward"])
async def test_bot_moves_and_turn_timeouts_keep_time_across_a_clock_step(
    db: Path | str, step: float
) -> None:
    """With the scheduler running in real time, the system clock steps just after a
    person's turn began: their turn still times out after turn_seconds (not 600 s later,
    not at once), the bot seat moves right after, and so on."""
    offset = 0.0

    def wall() -> float:
        return time.time() + offset

    store = store_for(db)
    await store.open()
    port = StampedPort()
    svc = Service(store, port, settings(), clock=wall, mono=time.monotonic, bot_delay=0.05)
    rules = Rules(turn_seconds=1, afk_strikes=0)
    game = scenario(
        {"u1": ["R5", "G7", "B2"], "b": ["R1", "R2", "R3", "R4", "Y6"]},
        ["R9"],
        draw_pile=["G1", "G2", "G3", "G4", "G5", "G6", "B5", "B6", "B7", "B8"],
        current="u1",
        rules=rules,
    )
    try:
        begun = time.monotonic()
        await put_game(store, "t:1", game, clock=wall, bots={"b": "smart"})
        await svc.start()
        offset = step
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            timeouts = [at for at, e in port.events if isinstance(e, TurnTimedOut)]
            if len(timeouts) >= 2:
                break
            await asyncio.sleep(0.02)
        timeouts = [at for at, e in port.events if isinstance(e, TurnTimedOut)]
        assert len(timeouts) >= 2, "the table froze"
        assert 0.95 <= timeouts[0] - begun < 3, "the first timeout was early or late"
        bot_moves = [at for at, e in port.events if getattr(e, "player", None) == "b"]
        assert bot_moves and bot_moves[0] - timeouts[0] < 1  # the bot moved at once
        assert 0.95 <= timeouts[1] - bot_moves[0] < 3  # a whole turn, armed after the step
    finally:
        await svc.stop()
        await store.close()


# -- claims (several processes): a due deadline fires only where it is granted ------------------


async def test_only_the_deadlines_granted_fire() -> None:
    fired, asked = Fired(), []

    async def claim(due: list[tuple[str, Deadline]]) -> list[tuple[str, Deadline]]:
        asked.append([(k, d.kind) for k, d in due])
        return [(k, d) for k, d in due if k != "theirs"]

    timers = Timers(fired, Clock(0.0), claim=claim)
    timers.set("mine", (D("turn", 5),))
    timers.set("theirs", (D("turn", 5),))
    timers.set("later", (D("turn", 50),))
    assert await timers.run_due(10) == 1
    assert asked == [[("mine", "turn"), ("theirs", "turn")]]  # all that were due, at once
    assert fired.calls == [("mine", D("turn", 5))]
    assert await timers.run_due(20) == 0  # one not granted is not asked for again
    assert asked == [[("mine", "turn"), ("theirs", "turn")]]


async def test_a_failed_claim_is_tried_again_later(caplog: pytest.LogCaptureFixture) -> None:
    clock, fired, calls = Clock(0.0), Fired(), {"n": 0}

    async def claim(due: list[tuple[str, Deadline]]) -> list[tuple[str, Deadline]]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise ConnectionError("database away")
        return due

    timers = Timers(fired, clock, claim=claim)
    timers.set("a", (D("turn", 5),))
    clock.t = 10
    with caplog.at_level(logging.ERROR):
        assert await timers.run_due(10) == 0
    assert "claiming 1 due deadlines failed" in caplog.text
    assert await timers.run_due(10 + RETRY_SECONDS - 1) == 0
    assert await timers.run_due(10 + RETRY_SECONDS) == 1
    assert fired.calls == [("a", D("turn", 5))]


async def test_again_fires_a_deadline_handed_out_once_more() -> None:
    fired = Fired()
    timers = Timers(fired, Clock(0.0))
    timers.set("a", (D("turn", 5),))
    assert await timers.run_due(10) == 1
    assert await timers.run_due(20) == 0  # handed out
    timers.again("a", D("turn", 5))
    timers.again("a", D("turn", 5))  # (twice is once)
    timers.again("a", D("turn", 6))  # not the armed one: nothing
    assert await timers.run_due(20) == 1
    assert await timers.run_due(30) == 0
    assert fired.calls == [("a", D("turn", 5))] * 2


async def test_the_poll_runs_beside_the_heap_until_stopped() -> None:
    polls: list[float] = []

    async def poll() -> None:
        polls.append(time.monotonic())
        if len(polls) == 2:
            raise RuntimeError("a failing poll is logged, and the next one still runs")

    timers = Timers(Fired(), poll=poll, poll_seconds=0.02)
    timers.start()
    await asyncio.sleep(0.15)
    await timers.stop()
    n = len(polls)
    assert n >= 3
    await asyncio.sleep(0.05)
    assert len(polls) == n  # stopped


async def test_a_full_poll_is_followed_at_once_by_another() -> None:
    """A poll that took as many deadlines as may run (a dead process left many) is made
    again at once, until one comes back short; then once every ``poll_seconds``."""
    polls: list[float] = []

    async def poll() -> int:
        polls.append(time.monotonic())
        return 4 if len(polls) <= 3 else 1

    timers = Timers(Fired(), poll=poll, poll_seconds=0.5, max_running=4)
    timers.start()
    await asyncio.sleep(0.7)
    await timers.stop()
    assert len(polls) == 4  # three full ones in a row, then the short one
    assert polls[3] - polls[0] < 0.1
