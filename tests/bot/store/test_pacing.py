"""Pacing a flow of sends (a Telegram group's messages) in the store: ``Store.pace``
reserves each send's moment by GCRA (``bot.store.gcra``), in memory on SQLite (one
process, the only sender), in the database on PostgreSQL, where every process's sends to
one group share the group's budget."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.store import Store, gcra, store_for

BACKENDS = ("sqlite", "postgresql")

T0 = 1_800_000_000.0
INTERVAL = 60 / 17  # a Telegram group: 3 at once, 20 in any minute
BURST = 3


def most_in_a_window(times: list[float], window: float) -> int:
    """The most of ``times`` that fall in any ``window`` seconds (both ends counted)."""
    times = sorted(times)
    best, lo = 0, 0
    for hi, t in enumerate(times):
        while t - times[lo] > window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def test_a_burst_goes_at_once_and_the_rest_one_interval_apart() -> None:
    tat, at = None, []
    for _ in range(6):
        wait, tat = gcra(tat, T0, INTERVAL, BURST)
        at.append(wait)
    assert at[:3] == [0, 0, 0]
    assert at[3:] == pytest.approx([INTERVAL, 2 * INTERVAL, 3 * INTERVAL])
    # a flow left alone long enough has its whole burst again
    later = T0 + 10 * INTERVAL
    for _ in range(3):
        wait, tat = gcra(tat, later, INTERVAL, BURST)
        assert wait == 0


def test_a_spare_token_is_left_for_sends_somebody_waits_for() -> None:
    tat = None
    waits = []
    for _ in range(3):  # sends nobody waits for leave the last token of the burst
        wait, tat = gcra(tat, T0, INTERVAL, BURST, spare=1)
        waits.append(wait)
    assert waits[:2] == [0, 0] and waits[2] == pytest.approx(INTERVAL)
    # after two of those, one a person waits for goes at once: the token left
    _, tat = gcra(None, T0, INTERVAL, BURST, spare=1)
    _, tat = gcra(tat, T0, INTERVAL, BURST, spare=1)
    assert gcra(tat, T0, INTERVAL, BURST)[0] == 0


def test_however_sends_are_reserved_no_minute_sees_more_than_twenty() -> None:
    rng = random.Random(4)
    tat, now, sent = None, T0, []
    for _ in range(400):
        now += rng.choice([0.0, 0.0, 0.1, 0.5, 2.0, 7.0])
        wait, tat = gcra(tat, now, INTERVAL, BURST, spare=rng.choice([0, 1]))
        sent.append(now + wait)
    assert most_in_a_window(sent, 60.0) <= 20
    # and the budget is used (but for the token a spare-leaving send keeps)
    assert most_in_a_window(sent, 59.9) >= 19


async def test_the_store_paces_a_flow(db: Path | str, store: Store) -> None:
    waits = [await store.pace("tg:-100", T0, INTERVAL, BURST) for _ in range(5)]
    assert waits[:3] == [0, 0, 0]
    assert waits[3:] == pytest.approx([INTERVAL, 2 * INTERVAL])
    # flows are apart: another group has its own budget
    assert await store.pace("tg:-200", T0, INTERVAL, BURST) == 0
    assert await store.pace("tg:-100", T0 + 100, INTERVAL, BURST) == 0


async def test_processes_share_a_groups_budget(postgres_url: str) -> None:
    """Three processes (stores of their own) sending to one group at once, at random: the
    moments reserved for them, all together, never put more than 20 in a minute."""
    stores = [store_for(postgres_url) for _ in range(3)]
    for s in stores:
        await s.open()
    try:
        rng = random.Random(9)
        sent: list[float] = []
        now = T0

        async def send(s: Store, at: float) -> None:
            sent.append(at + await s.pace("tg:-100", at, INTERVAL, BURST, rng.choice([0, 1])))

        for _ in range(40):
            now += rng.choice([0.0, 1.0, 5.0])
            await asyncio.gather(*(send(rng.choice(stores), now) for _ in range(3)))
        assert len(sent) == 120
        assert most_in_a_window(sent, 60.0) <= 20
        assert most_in_a_window(sent, 59.9) >= 18  # (a spare-leaving send keeps one)
    finally:
        for s in stores:
            await s.close()
