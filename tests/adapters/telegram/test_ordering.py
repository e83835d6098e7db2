"""One user's updates are handled in the order they came (issue 11 item 3): a player's
inline query right after their choice is answered from the table after that choice."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update

from adapters.telegram.inbound.ordering import BACKLOG, PerUser
from adapters.telegram.text import TOO_FAST
from bot.ui import render
from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import Harness, key, open_table, scenario_table

EN = translator("en")


async def test_an_inline_query_after_a_choice_sees_the_choice_applied(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await scenario_table(tg, g, {alice: ["R5", "R7", "G2"], bob: ["R2", "G3", "Y3"]}, "R1")
    k = key(g)
    service = tg.service
    act = service.act

    async def slow_act(*args: Any, **kw: Any) -> Any:  # a slow database
        await asyncio.sleep(0.3)
        return await act(*args, **kw)

    service.act = slow_act  # type: ignore[method-assign]
    ans = await alice.inline(str(g.id))
    play = ans.find(lambda r: r.code == "pR5")
    assert play is not None
    before = service.cached(k).version
    await alice.choose(ans, play, g)
    again = await alice.inline(str(g.id))  # typed at once, while the choice is handled
    assert service.cached(k).version > before  # answered after the choice was applied
    assert not again.find(lambda r: r.code.startswith("p"))  # no card to play: Bob's turn
    assert all(f"|{before}|" not in r.id for r in again.results)


def _update(uid: int, n: int) -> Update:
    return Update.de_json(
        {
            "update_id": n,
            "callback_query": {
                "id": str(n),
                "from": {"id": uid, "is_bot": False, "first_name": f"U{uid}"},
                "chat_instance": "x",
                "data": "x",
            },
        },
        None,
    )


async def test_a_flood_of_presses_is_answered_press_by_press(tg: Harness) -> None:
    """Issue 19, item 10: Bob presses Join 50 times while his first press is being handled
    (a slow database): it seats him, the 32 that wait their turn are told he is in already,
    and the rest, past the backlog, are told "too fast" at once. Every press is answered;
    he sits once."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    table = await open_table(tg, g, alice, [], start=False)
    service = tg.service
    join = service.join
    first = asyncio.Event()

    async def slow_join(*args: Any, **kw: Any) -> Any:
        if not first.is_set():  # the first press holds the others back a while
            first.set()
            await asyncio.sleep(0.5)
        return await join(*args, **kw)

    service.join = slow_join  # type: ignore[method-assign]
    label = render.button_label("join", EN)
    presses = [await bob.press(table, label) for _ in range(50)]
    answers = [await p.wait(timeout=10) for p in presses]
    mine = {p.query_id for p in presses}
    calls = [c for c in api.of("answerCallbackQuery") if c.params["callback_query_id"] in mine]
    assert len(calls) == 50 and all(c.ok for c in calls)
    too_fast = [a for a in answers if a.text == EN.gettext(TOO_FAST)]
    assert len(too_fast) == 50 - 1 - BACKLOG
    assert not any(a.show_alert for a in too_fast)  # a short notice, not a dialog
    info = await tg.info(g)
    assert [s.id for s in info.seats].count(bob.pid) == 1
    assert len(api.of("answerCallbackQuery")) == len(api.callbacks)


async def test_queries_and_choices_past_the_backlog_are_answered(tg: Harness) -> None:
    """Past the backlog an inline query gets no results and "too fast" as its button, and a
    chosen card, which is not played, is told so (privately here)."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice", started=True), api.user("Bob")
    await scenario_table(tg, g, {alice: ["R5", "R7", "G2"], bob: ["R2", "G3", "Y3"]}, "R1")
    service = tg.service
    act = service.act
    first = asyncio.Event()

    async def slow_act(*args: Any, **kw: Any) -> Any:
        if not first.is_set():
            first.set()
            await asyncio.sleep(0.5)
        return await act(*args, **kw)

    service.act = slow_act  # type: ignore[method-assign]
    ans = await alice.inline(str(g.id))
    play = ans.find(lambda r: r.code == "pR5")
    assert play is not None
    version = (await tg.info(g)).version
    await alice.choose(ans, play, g)  # held by the slow database: the rest wait behind it
    for _ in range(20):  # her 🎴 and her chosen result each: 40 updates
        await alice.choose(ans, play, g)
    answers = await asyncio.gather(*(alice.inline(str(g.id)) for _ in range(10)))
    text = EN.gettext(TOO_FAST)
    assert all(a.results == [] and a.button and a.button["text"] == text for a in answers)
    await tg.until(lambda: text in api.dms(alice))
    await tg.until(lambda: service.cached(key(g)).version > version)
    await tg.settle()
    assert (await tg.info(g)).version == version + 1  # the first choice, once


async def test_per_user_order_and_other_users_concurrently() -> None:
    told: list[int] = []

    async def overflow(update: Update) -> None:
        told.append(update.update_id)

    proc = PerUser(8, backlog=3, overflow=overflow)
    log: list[tuple[str, int]] = []
    gate = asyncio.Event()

    def handle(uid: int, n: int, wait: bool = False) -> Awaitable[None]:
        async def run() -> None:
            log.append(("start", n))
            if wait:
                await gate.wait()
            log.append(("end", n))

        return run()

    # user 1: a slow update, then three more; user 2 meanwhile
    tasks = [asyncio.create_task(proc.process_update(_update(1, 1), handle(1, 1, wait=True)))]
    await asyncio.sleep(0)
    for n in (2, 3, 4, 5):  # the fifth waits past the backlog of 3: dropped
        tasks.append(asyncio.create_task(proc.process_update(_update(1, n), handle(1, n))))
    tasks.append(asyncio.create_task(proc.process_update(_update(2, 9), handle(2, 9))))
    await asyncio.sleep(0.05)
    assert ("end", 9) in log  # another user is not held up
    assert [e for e in log if e[1] in (2, 3, 4)] == []  # user 1's wait for the first
    gate.set()
    await asyncio.gather(*tasks)
    mine = [e for e in log if e[1] != 9]
    assert mine == [("start", 1), ("end", 1)] + [
        (s, n) for n in (2, 3, 4) for s in ("start", "end")
    ]
    assert proc.dropped == 1
    assert told == [5]  # the one not handled was answered
