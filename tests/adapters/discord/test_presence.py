"""Issue 22 on Discord, through the fake Discord and the real discord.py: the table's vote
to end a stuck game (its count on the button, refusals privately: twice, not playing, a
lapsed vote), and the hand's "Play for me" / "Take my seat back"."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot import presence
from bot.model import PLAYING, STOPPED
from tests.adapters.discord.harness import World
from tests.fakes.discord_api import Message, User


def by_label(msg: Message, label: str) -> str:
    """The custom id of the enabled button of ``msg`` whose label starts with ``label``."""
    for b in msg.buttons():
        if str(b.get("label", "")).startswith(label) and not b.get("disabled"):
            return str(b["custom_id"])
    raise AssertionError(f"no button {label!r}: {[b.get('label') for b in msg.buttons()]}")


def labels(msg: Message) -> list[str]:
    return [str(b.get("label")) for b in msg.buttons()]


async def three_players(world: World, **rules: Any) -> tuple[User, ...]:
    alice, bob, carol, *rest = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.press(carol, table, world.button(table, "join"))
    if rules:
        assert (await world.svc.configure(world.key(), f"dc:{alice.id}", overrides=rules)).ok
    await world.press(alice, table, world.button(table, "start"))
    return alice, bob, carol, *rest


async def test_the_players_vote_to_end_the_game(
    make_world: Callable[..., Awaitable[World]],
) -> None:
    world = await make_world(users=("Alice", "Bob", "Carol", "Dave"))
    _alice, bob, carol, dave = await three_players(world, turn_seconds=3600)
    table = await world.table_message()
    rec = await world.press(bob, table, by_label(table, "End the game"))
    assert rec.acked_at is not None
    table = await world.table_message()
    assert "End the game (1/2)" in labels(table)
    assert "🗳 Vote to end the game: 1 of 2 votes." in table.content
    version = (await world.info()).version
    twice = await world.press(bob, table, by_label(table, "End the game"))
    assert world.fake.texts_for(twice)[-1] == "You have voted already: the others decide now."
    assert all(m.audience == bob.id for m in world.fake.replies(twice))
    stranger = await world.press(dave, table, by_label(table, "End the game"))
    assert world.fake.texts_for(stranger)[-1] == (
        "Only the people playing this game can vote to end it."
    )
    assert (await world.info()).version == version
    await world.press(carol, table, by_label(table, "End the game"))
    info = await world.info()
    assert info.status == STOPPED and info.view is not None and info.view.winner is None
    table = await world.table_message()
    assert not [b for b in table.buttons() if not b.get("disabled")]
    assert world.fake.errors == []


async def test_a_lapsed_votes_button_is_refused(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "VOTE_SECONDS", 0.3)
    alice, bob, _carol = await three_players(world, turn_seconds=3600)
    table = await world.table_message()
    await world.press(alice, table, by_label(table, "End the game"))
    table = await world.table_message()
    old = by_label(table, "End the game (1/2)")
    for _ in range(100):
        if (await world.info()).vote is None:
            break
        await asyncio.sleep(0.05)
    await world.settle()
    table = await world.table_message()
    assert "End the game" in labels(table)  # no vote open: no count
    rec = await world.press(bob, table, old, stale=True)
    assert world.fake.texts_for(rec)[-1] == (
        "That vote has ended. Press “End the game” again to open a new one."
    )
    assert (await world.info()).status == PLAYING


async def test_play_for_me_from_the_hand_and_back(world: World) -> None:
    _alice, bob, _carol = await three_players(world, turn_seconds=3600)
    hand = await world.show_hand(bob)
    assert "Play for me" in labels(hand)
    await world.press(bob, hand, by_label(hand, "Play for me"))
    assert f"dc:{bob.id}" in (await world.info()).autopilot
    hand = world.hand_message(bob)
    assert hand is not None and "Take my seat back" in labels(hand)
    back = by_label(hand, "Take my seat back")
    await world.press(bob, hand, back)
    assert (await world.info()).autopilot == ()
    hand = world.hand_message(bob)
    assert hand is not None and "Play for me" in labels(hand)
    again = await world.press(bob, hand, back, stale=True)  # a double click
    assert world.fake.texts_for(again)[-1] == "You are playing your seat already."
    assert world.fake.errors == []
