"""The outbox: coalesced renders, per-chat pacing under Telegram's limits, 429s honoured."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable

import pytest
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter

from adapters.telegram.outbox import Bucket, Limits, Outbox, Window
from bot.store import gcra

GROUP = -100123
OTHER = -100456


def test_bucket_never_passes_its_rate_in_any_window() -> None:
    now = [0.0]
    per_minute, burst = 20, 3
    bucket = Bucket((per_minute - burst) / 60, burst, lambda: now[0])
    sent: list[float] = []
    while now[0] < 600:
        wait = bucket.wait_time()
        if wait > 0:
            now[0] += wait
            continue
        bucket.take()
        sent.append(now[0])
        now[0] += 0.1  # someone always wants to send
    for i, t in enumerate(sent):
        in_window = [s for s in sent[i:] if s < t + 60]
        assert len(in_window) <= per_minute


def test_window_never_passes_its_limit_in_any_window() -> None:
    now = [0.0]
    window = Window(20, 60.0, 1.0, lambda: now[0])
    sent: list[float] = []
    while now[0] < 600:
        wait = window.wait_time()
        if wait > 0:
            now[0] += wait
            continue
        window.take()
        sent.append(now[0])
        now[0] += 0.1  # someone always wants to send
    for i, t in enumerate(sent):
        assert len([s for s in sent[i:] if s < t + 60]) <= 20
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    assert min(gaps) >= 1.0 - 1e-9  # a second apart at least
    # under pressure an even pace: never most of a minute without a send
    assert max(gaps) <= 2 * 60 / 20 + 1e-9
    assert len(sent) >= 600 / 60 * 20 - 20  # and the whole budget is used


def test_window_lets_a_human_pace_through_at_once() -> None:
    """Moves a few seconds apart never wait: the window is far from full."""
    now = [0.0]
    window = Window(20, 60.0, 1.0, lambda: now[0])
    waited = []
    for i in range(200):
        now[0] = i * 3.2  # 18.75 a minute, under the limit
        waited.append(window.wait_time())
        now[0] += waited[-1]
        window.take()
    assert max(waited) == 0.0


def test_window_keeps_its_last_sends_for_who_needs_more() -> None:
    """Past half the window, what is left of the minute is spread over the time until its
    oldest send leaves; an item nobody waits for needs two free sends: the last one of the
    minute is a person's."""
    now = [0.0]
    window = Window(4, 60.0, 0.0, lambda: now[0])
    for _ in range(3):
        window.take()
    assert window.wait_time(1) == pytest.approx(60.0)  # one left, 60 s to spread it over
    now[0] = 59.0
    assert window.wait_time(1) == 0.0
    assert window.wait_time(2) == pytest.approx(1.0)  # the oldest must leave first
    window.take()
    assert window.wait_time(1) == pytest.approx(1.0)
    now[0] = 60.5
    assert window.wait_time(1) == 0.0
    now[0] = 119.5
    assert window.full()


async def test_renders_for_one_message_are_coalesced() -> None:
    box = Outbox(Limits(group_per_minute=60 * 20, group_burst=1, group_pacing="bucket"))
    shown: list[int] = []
    state = {"v": 0}

    async def edit() -> None:
        shown.append(state["v"])  # renders the latest state when it runs

    for v in range(1, 30):
        state["v"] = v
        box.put(GROUP, ("table", 1), edit)
        await asyncio.sleep(0.001)
    assert await box.flush(5)
    assert shown[-1] == 29
    assert len(shown) < 10  # 29 changes, a handful of edits
    assert shown == sorted(shown)


async def test_messages_keep_their_order_and_are_never_merged() -> None:
    box = Outbox(Limits.unlimited())
    out: list[str] = []

    def say(text: str) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            out.append(text)

        return job

    for text in "abcde":
        box.put(GROUP, None, say(text))
    assert await box.flush(2)
    assert out == list("abcde")


async def test_retry_after_is_honoured_and_nothing_is_lost() -> None:
    box = Outbox(Limits.unlimited())
    loop = asyncio.get_running_loop()
    tries: list[float] = []
    done: list[str] = []

    async def flaky() -> None:
        tries.append(loop.time())
        if len(tries) < 3:
            raise RetryAfter(1)
        done.append("sent")

    async def after() -> None:
        done.append("after")

    box.put(GROUP, "x", flaky)
    box.put(GROUP, None, after)
    assert await box.flush(10)
    assert done == ["sent", "after"]  # order kept through the retries
    assert tries[1] - tries[0] >= 0.95
    assert tries[2] - tries[1] >= 0.95
    assert box.retried == 2


async def test_a_chat_that_refuses_the_bot_is_dropped_quietly() -> None:
    box = Outbox(Limits.unlimited())
    ran: list[str] = []

    async def blocked() -> None:
        ran.append("blocked")
        raise Forbidden("Forbidden: bot was blocked by the user")

    async def later() -> None:
        ran.append("later")

    async def elsewhere() -> None:
        ran.append("elsewhere")

    box.put(42, None, blocked)
    box.put(42, None, later)
    box.put(OTHER, None, elsewhere)
    assert await box.flush(2)
    assert sorted(ran) == ["blocked", "elsewhere"]


async def test_bad_requests_do_not_stop_the_lane() -> None:
    box = Outbox(Limits.unlimited())
    ran: list[str] = []

    async def bad() -> None:
        raise BadRequest("Bad Request: message is too long")

    async def good() -> None:
        ran.append("good")

    box.put(GROUP, None, bad)
    box.put(GROUP, None, good)
    assert await box.flush(2)
    assert ran == ["good"]


@pytest.mark.parametrize("pacing", ["window", "bucket"])
async def test_group_pacing_keeps_under_the_limit_in_any_minute(pacing: str) -> None:
    # 20 a minute, with time running 600 times faster: a "minute" is 0.1 s
    scale = 600
    box = Outbox(Limits(group_burst=3, group_pacing=pacing).scaled(scale))  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    stamps: list[float] = []

    async def job() -> None:
        stamps.append(loop.time())

    for _ in range(60):
        box.put(GROUP, None, job)
    assert await box.flush(5)
    assert len(stamps) == 60
    minute = 60 / scale
    for i, t in enumerate(stamps):
        assert len([s for s in stamps[i:] if s < t + minute]) <= 20
    assert stamps[-1] - stamps[0] >= (60 - 20) / 20 * minute  # paced, not a burst


async def test_a_result_goes_before_the_table_edits_waiting() -> None:
    box = Outbox(Limits(group_per_minute=4, group_spacing=0.0, group_reserve=0))
    ran: list[str] = []

    def job(text: str) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            ran.append(text)

        return run

    for n in range(2):  # half the minute's budget: the next waits
        box.put(GROUP, None, job(f"edit {n}"))
    await asyncio.sleep(0.01)
    box.put(GROUP, ("table", 1), job("table"))
    box.put(GROUP, "refusal", job("refusal"))
    box.put(GROUP, ("news", 1), job("news"), first=True)
    await asyncio.sleep(0.01)
    assert ran == ["edit 0", "edit 1"]
    assert box.pending(GROUP) == 3
    lane = box._lanes[GROUP]
    assert list(lane.items) == [("news", 1), ("table", 1), "refusal"]
    await box.close()


async def test_a_chat_that_migrated_is_followed_with_what_is_queued() -> None:
    where = {"chat": GROUP}  # what a table job sends to: where its table is now
    moves: list[tuple[int, int]] = []
    sent: list[tuple[int, str]] = []

    async def follow(old: int, new: int) -> None:
        moves.append((old, new))
        where["chat"] = new

    box = Outbox(Limits.unlimited(), on_migrated=follow)

    def table(text: str) -> Callable[[], Awaitable[None]]:
        async def job() -> None:
            if where["chat"] == GROUP:
                raise ChatMigrated(OTHER)
            sent.append((where["chat"], text))

        return job

    async def reply() -> None:  # a job that names the old chat itself
        raise ChatMigrated(OTHER)

    box.put(GROUP, ("table", 1), table("first"))
    box.put(GROUP, None, reply)
    box.put(GROUP, ("news", 1), table("news"))
    assert await box.flush(5)
    assert moves == [(GROUP, OTHER)]  # once: the reply failing again in the new lane is not
    assert sent == [(OTHER, "first"), (OTHER, "news")]  # nothing lost, in order
    assert box.pending() == 0


async def test_a_lane_moved_to_another_chat_merges_what_waits_there() -> None:
    box = Outbox(
        Limits(group_per_minute=600, group_burst=1, group_reserve=0, group_pacing="bucket")
    )
    ran: list[str] = []

    def job(text: str) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            ran.append(text)

        return run

    box.put(GROUP, None, job("first"))  # takes the only token
    box.put(GROUP, ("table", 1), job("old table"))
    box.put(GROUP, None, job("news"))
    box.put(OTHER, None, job("other first"))
    box.put(OTHER, ("table", 1), job("new table"))
    await asyncio.sleep(0.01)
    assert box.pending(GROUP) == 2 and box.pending(OTHER) == 1
    box.move(GROUP, OTHER)
    assert box.pending(GROUP) == 0
    assert box.pending(OTHER) == 2  # the table's edit once, and the news
    assert await box.flush(5)
    assert sorted(ran[:2]) == ["first", "other first"]
    assert ran[2:] == ["old table", "news"]  # the latest render of the table, in its place


async def test_a_lane_emptied_while_it_waits_for_a_token_ends_quietly() -> None:
    """What waits in a group's lane moves to its supergroup's (or is discarded) while the
    lane waits for a token: the lane ends, nothing is lost, nothing raises."""
    box = Outbox(Limits(group_per_minute=4, group_burst=1, group_reserve=0, group_pacing="bucket"))
    done: list[int] = []
    errors: list[BaseException] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, ctx: errors.append(ctx.get("exception")))

    def job(n: int) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            done.append(n)

        return run

    try:
        box.put(GROUP, "first", job(1))
        box.put(GROUP, "second", job(2))  # waits ~20 s for the group's next token
        await asyncio.sleep(0.05)
        box.discard(GROUP, "second")
        box.put(GROUP, "third", job(3))
        box.move(GROUP, OTHER)
        assert await box.flush(2)
        import gc

        gc.collect()
        await asyncio.sleep(0)
    finally:
        loop.set_exception_handler(None)
    assert done == [1, 3] and errors == []


async def test_outboxes_of_several_processes_share_a_groups_budget() -> None:
    """Three processes' outboxes, each with a lane for one group and always something to
    send there, reserve every send to the group in one shared flow (``pace``: the store's
    in a real process): together they never pass the group's 20 a minute, as one alone
    would not. Private chats are not paced that way."""
    limits = Limits().scaled(60.0)  # a minute is a second
    loop = asyncio.get_running_loop()
    flows: dict[int, float] = {}
    asked: set[int] = set()

    async def pace(chat: int, urgent: bool) -> float:
        asked.add(chat)
        spare = 0 if urgent else limits.group_reserve
        wait, flows[chat] = gcra(
            flows.get(chat), loop.time(), 1 / limits.group_rate, limits.group_burst, spare
        )
        return wait

    boxes = [Outbox(limits, pace=pace) for _ in range(3)]
    group: list[float] = []
    private: list[float] = []

    async def edit() -> None:
        group.append(loop.time())

    async def hand() -> None:
        private.append(loop.time())

    end = loop.time() + 2.5
    while loop.time() < end:
        for i, box in enumerate(boxes):
            box.put(GROUP, ("table", 1), edit, urgent=i == 0)
            box.put(1234, ("hand", 1), hand)
        await asyncio.sleep(0.01)
    for box in boxes:
        await box.close()
    assert asked == {GROUP}
    # 20 a second at most, whichever process sent (alone, each would have sent 20)
    worst = max(len([s for s in group if t <= s < t + 1.0]) for t in group)
    assert 15 <= worst <= 20, worst
    assert private  # (sent, each process at its own pace)
