"""Discord's budgets: 3 seconds to acknowledge (with a slow database), 15-minute tokens,
one public edit per change."""

from __future__ import annotations

import asyncio

from tests.adapters.discord.harness import World


async def test_acknowledged_in_time_with_a_slow_database(make_world) -> None:  # type: ignore[no-untyped-def]
    world: World = await make_world(write_delay=0.6, read_delay=0.1)
    alice, bob, carol = world.users
    fake = world.fake
    await world.slash(alice, "new")
    table = await world.table_message()
    # three presses at once queue on the table's lock (each write takes 0.6 s): every one
    # is still acknowledged at once
    recs = await asyncio.gather(
        fake.press(bob, table, world.button(table, "join")),
        fake.press(carol, table, world.button(table, "join")),
        fake.press(alice, table, world.button(table, "addbot")),
    )
    await world.settle()
    assert all(r.ack_latency is not None and r.ack_latency < 0.5 for r in recs)
    await world.press(alice, table, world.button(table, "start"))
    for u in (alice, bob, carol):
        await world.show_hand(u)
    info = await world.info()
    for _ in range(3):
        info = await world.info()
        cur = info.view.current if info.view else None
        humans = {f"dc:{u.id}": u for u in world.users}
        if cur in humans:
            await world.act(humans[cur])
        else:
            await world.settle()
    latencies = [r.ack_latency for r in fake.interactions.values()]
    assert all(t is not None and t < 0.5 for t in latencies), latencies
    assert not any(r.late for r in fake.interactions.values())
    assert fake.errors == []
    assert max(world.bot.ack_latencies) < 0.5


async def test_the_table_message_is_edited_once_per_change(world: World) -> None:
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    edits = len(table.history)
    await world.press(bob, table, world.button(table, "join"))
    assert len(table.history) == edits + 1
    posts = world.fake.calls_to(r"/channels/\d+/messages$", "POST")
    assert len(posts) == 1  # the table message itself; nothing else went public


async def test_a_hand_view_is_retired_before_its_token_dies(make_world) -> None:  # type: ignore[no-untyped-def]
    world: World = await make_world(hand_ttl=0.4, token_ttl=0.8)
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "start"))
    hand = await world.show_hand(alice)
    assert hand.components
    await asyncio.sleep(0.5)
    await world.settle()
    assert hand.content == (
        "This view has expired: press “Show hand” on the table for a fresh one."
    )
    assert hand.components == []
    await asyncio.sleep(0.4)  # the token is dead now; nothing tries to use it
    await world.act(bob if (await world.info()).view.current == f"dc:{bob.id}" else alice)  # type: ignore[union-attr]
    assert world.fake.errors == []
    fresh = await world.show_hand(alice)
    assert fresh.id != hand.id and fresh.components


async def test_a_deleted_table_message_is_posted_again(world: World) -> None:
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    world.fake.messages[table.id].deleted = True  # a moderator removed it
    await world.slash(bob, "join")
    fresh = await world.table_message()
    assert fresh.id != table.id and "Bob" in fresh.content and fresh.components
    assert len(world.fake.errors) == 1 and "10008 Unknown Message" in world.fake.errors[0]


async def test_show_hand_twice_at_once_answers_both(world: World) -> None:
    """Two presses at once (a double click on Show hand, or Show hand and Draw): each is
    deferred as "thinking"; only the newest became the hand message, and the other one
    used to think forever. It says where the hand went, with no buttons of its own (they
    would act on a view nobody updates)."""
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "start"))
    hand = world.button(table, "hand")
    assert hand is not None
    recs = await asyncio.gather(
        world.fake.press(bob, table, hand), world.fake.press(bob, table, hand)
    )
    await world.settle()
    answers = []
    for rec in recs:
        assert rec.original is not None
        msg = world.fake.messages[rec.original]
        assert not msg.loading, "an answer left thinking"
        assert msg.audience == bob.id
        answers.append(msg)
    live = [m for m in answers if m.content.startswith("🃏 Your cards")]
    assert len(live) == 1 and live[0].components
    (moved,) = [m for m in answers if m is not live[0]]
    assert moved.content == "Your hand has moved to a newer message." and not moved.components
    assert world.fake.errors == []


async def test_twenty_players_with_long_names_stay_inside_the_limits(make_world) -> None:  # type: ignore[no-untyped-def]
    """Two decks, 20 seats, display names of Discord's full 32 characters that try to ping
    everyone: every message, label and id fits, and nothing can mention anybody."""
    names = [("@everyone " + "Ｗ" * 19 + f"{n:02d}")[:32] for n in range(20)]
    world: World = await make_world(users=names)
    us = world.users
    await world.slash(us[0], "new")
    await world.svc.configure(
        world.key(), f"dc:{us[0].id}", overrides={"decks": 2, "swap": "seven_zero"}
    )
    table = await world.table_message()
    for u in us[1:]:
        await world.press(u, table, world.button(table, "join"))
    await world.press(us[0], table, world.button(table, "start"))
    humans = {f"dc:{u.id}": u for u in us}
    for _ in range(25):
        info = await world.info()
        if info.status != "playing" or info.view is None or info.view.current not in humans:
            break
        await world.act(humans[info.view.current], call_uno=False)
    rec = await world.slash(us[0], "kick")
    kick = world.select(world.fake.replies(rec)[0], "kick")
    assert kick is not None and len(kick["options"]) == 19
    assert world.fake.errors == []  # the fake refuses what Discord would
    for call in world.fake.calls:
        body = call.body if isinstance(call.body, dict) else {}
        body = body.get("data", body) if "type" in body else body
        if isinstance(body, dict) and body.get("content"):
            assert body.get("allowed_mentions", {}).get("parse") == [], (call.path, body)
