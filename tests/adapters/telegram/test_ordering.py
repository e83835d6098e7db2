"""One user's updates are handled in the order they came (issue 11 item 3): a player's
inline query right after their choice is answered from the table after that choice."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update

from adapters.telegram.ordering import PerUser
from tests.adapters.telegram.conftest import Harness, key, scenario_table


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
    before = service._tables[k].version
    await alice.choose(ans, play, g)
    again = await alice.inline(str(g.id))  # typed at once, while the choice is handled
    assert service._tables[k].version > before  # answered after the choice was applied
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


async def test_per_user_order_and_other_users_concurrently() -> None:
    proc = PerUser(8, backlog=3)
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
