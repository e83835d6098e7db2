"""Playing from the private hand: big hands through the paged select, wild colours, UNO
calls and catches, +4 challenges both ways."""

from __future__ import annotations

import time

from tests.adapters.discord.harness import World, name_of
from tests.fakes.discord_api import Message

DECK_FILLER = ["G1", "G2", "G3", "G4", "G6", "G7", "G8", "Y5", "Y6", "Y7", "Y8", "Y9"] * 2


def _ids(msg: Message) -> list[str]:
    return [c["custom_id"] for row in msg.components for c in row["components"]]


def _assert_limits(msg: Message) -> None:
    assert len(msg.components) <= 5
    for row in msg.components:
        assert len(row["components"]) <= 5
    assert all(len(i) <= 100 for i in _ids(msg))


async def test_a_big_hand_plays_through_the_paged_select(world: World) -> None:
    alice, bob, _ = world.users
    # 15 cards that cannot be played come first (red and yellow numbers, on a blue Skip),
    # then 29 blue cards and wilds: more than the buttons hold, more than one select page
    unplayable = [f"R{n}" for n in range(10)] + [f"Y{n}" for n in range(5)]
    blues = ["B0"] + [f"B{r}" for r in (*"123456789", "S", "R", "D2") for _ in (0, 1)]
    hand = unplayable + blues + ["W", "W", "W4", "W4"]
    assert len(hand) == 44
    await world.load_scenario(
        {alice: hand, bob: ["G5", "G9", "Y1"]},
        ["R9", "BS"],
        DECK_FILLER,
        multi_play="identical",
    )
    rec = await world.slash(alice, "hand")
    msg = world.fake.messages[rec.original]  # type: ignore[index]
    assert msg.audience == alice.id
    _assert_limits(msg)
    cards = [b for b in msg.buttons() if name_of(b["custom_id"])[0] in ("play", "pick")]
    assert len(cards) == 15 and all(b.get("disabled") for b in cards)
    sel = world.select(msg, "cards")
    assert sel is not None and len(sel["options"]) == 25
    assert sel["placeholder"] == "More cards (1/2)"
    # the second page holds the rest
    nxt = next(b for b in msg.buttons() if b["label"] == "▶")
    await world.press(alice, msg, nxt["custom_id"])
    sel = world.select(msg, "cards")
    assert sel is not None and sel["placeholder"] == "More cards (2/2)"
    _assert_limits(msg)
    option = sel["options"][-1]
    await world.press(alice, msg, sel["custom_id"], value=option["value"])
    if (play := world.button(msg, "play")) is not None:  # a colour to name first
        assert "Choose the colour" in msg.content
        await world.press(alice, msg, play)
    info = await world.info()
    assert info.view is not None and info.view.counts[f"dc:{alice.id}"] < 44
    table = await world.table_message()
    assert "Alice played" in table.content
    assert world.fake.errors == []


async def test_a_wild_asks_for_its_colour_then_plays_once(world: World) -> None:
    alice, bob, _ = world.users
    await world.load_scenario(
        {alice: ["W", "R1", "G2"], bob: ["B1", "B2", "B3"]}, ["Y9"], DECK_FILLER
    )
    rec = await world.slash(alice, "hand")
    msg = world.fake.messages[rec.original]  # type: ignore[index]
    wild = world.button(msg, "pick", "W")
    assert wild is not None
    version = (await world.info()).version
    await world.press(alice, msg, wild)
    assert "Choose the colour for 🌈 Wild" in msg.content
    labels = [b["label"] for b in msg.buttons()]
    assert labels == ["🟥 Red", "🟨 Yellow", "🟩 Green", "🟦 Blue", "Back"]
    assert (await world.info()).version == version  # choosing is not a move yet
    await world.press(alice, msg, label="🟩 Green")
    info = await world.info()
    assert info.version == version + 1  # one move: the card with its colour
    table = await world.table_message()
    assert "Alice played 🌈 Wild. Colour: 🟩 Green." in table.content
    assert "Waiting for Bob" in msg.content  # her hand was refreshed after her move


async def test_uno_catch_then_call(world: World) -> None:
    alice, bob, carol = world.users
    await world.load_scenario(
        {alice: ["R1", "R2", "R3"], bob: ["R6", "G6", "G7", "G8"], carol: ["R7", "Y1", "Y2"]},
        ["Y9", "R9"],
        DECK_FILLER,
        uno_window_seconds=600,
    )
    rec = await world.slash(alice, "hand")
    hand = world.fake.messages[rec.original]  # type: ignore[index]
    play_r1 = world.button(hand, "play", "R1")
    assert play_r1 is not None
    await world.press(alice, hand, play_r1)
    assert world.button(hand, "play", "R2") is None  # her cards are disabled now
    # a double click: the second reaches Discord after her hand message was redrawn
    version = (await world.info()).version
    rec = await world.press(alice, hand, play_r1, stale=True)
    assert world.fake.texts_for(rec) == ["That button is out of date: the game has moved on."]
    assert world.fake.replies(rec)[0].audience == alice.id
    assert (await world.info()).version == version
    table = await world.table_message()
    rec = await world.press(alice, table, world.button(table, "draw"))  # not her turn
    assert world.fake.texts_for(rec)[-1] == "It is not your turn."
    hand = world.hand_message(alice)  # type: ignore[assignment]
    # Bob plays: Alice (two cards) is not exposed; now Carol plays, Alice plays to one card
    await world.act(bob)
    await world.act(carol)
    await world.press(alice, hand, world.button(hand, "play", "R2"))
    table = await world.table_message()
    assert "❗ no UNO!" in table.content
    catch = world.button(table, "catch")
    assert catch is not None
    await world.press(bob, table, catch)
    assert "Bob caught Alice without UNO! Alice draws 2 cards." in table.content
    info = await world.info()
    assert info.view is not None and info.view.counts[f"dc:{alice.id}"] == 3
    assert world.button(table, "catch") is None
    assert "3" in hand.content.splitlines()[0]  # her hand shows the two new cards


async def test_a_catch_window_runs_from_the_table_message_drawn(world: World) -> None:
    """Issue 19 item 7 on Discord: each table message drawn is reported shown, so the catch
    window a play opens runs its length from then (not the 30 s it waits for that)."""
    alice, bob, _ = world.users
    await world.load_scenario({alice: ["R1", "R2"], bob: ["G6", "G7", "G8"]}, ["R9"], DECK_FILLER)
    rec = await world.slash(alice, "hand")
    hand = world.fake.messages[rec.original]  # type: ignore[index]
    before = time.time()
    await world.press(alice, hand, world.button(hand, "play", "R1"))
    table = await world.table_message()
    assert world.button(table, "catch") is not None
    info = await world.info()
    assert info.shown == info.version  # the message drawn for it was reported
    window = world.svc.timers.armed(info.key)[f"uno:dc:{alice.id}"]
    assert before + 5 <= window.due <= time.time() + 5
    assert world.svc.settings.show_wait_seconds == 30


async def test_uno_called_in_time_cannot_be_caught(world: World) -> None:
    alice, bob, _ = world.users
    await world.load_scenario(
        {alice: ["R1", "R2"], bob: ["G6", "G7", "G8"]}, ["R9"], DECK_FILLER,
        uno_window_seconds=600,
    )  # fmt: skip
    rec = await world.slash(alice, "hand")
    hand = world.fake.messages[rec.original]  # type: ignore[index]
    await world.press(alice, hand, world.button(hand, "play", "R1"))
    table = await world.table_message()
    old_catch = world.button(table, "catch")
    assert old_catch is not None and "❗ no UNO!" in table.content
    uno = world.button(hand, "uno")
    assert uno is not None and "❗ One card left: call UNO!" in hand.content
    await world.press(alice, hand, uno)
    assert "Alice calls UNO!" in table.content
    assert world.button(table, "catch") is None
    assert world.button(hand, "uno") is None
    rec = await world.press(bob, table, old_catch, forge=True)  # Bob's screen was behind
    assert world.fake.texts_for(rec) == ["Nobody to catch: they called UNO, or it is too late."]
    assert world.fake.replies(rec)[0].audience == bob.id
    info = await world.info()
    assert info.view is not None and info.view.counts[f"dc:{alice.id}"] == 1


async def _challenge(world: World, alice_hand: list[str]) -> tuple[Message, Message]:
    alice, bob, _ = world.users
    await world.load_scenario({alice: alice_hand, bob: ["B1", "B2", "B3"]}, ["R9"], DECK_FILLER)
    rec = await world.slash(alice, "hand")
    hand = world.fake.messages[rec.original]  # type: ignore[index]
    await world.press(alice, hand, world.button(hand, "pick", "W4"))
    await world.press(alice, hand, label="🟩 Green")
    table = await world.table_message()
    assert "Bob faces +4: challenge" in table.content
    # (bot.ui.controls.table_controls: the challenge beside taking the +4)
    assert {"Challenge", "Take +4"} <= {b["label"] for b in table.buttons()}
    # Alice may not answer for Bob
    version = (await world.info()).version
    rec = await world.press(alice, table, world.button(table, "challenge"))
    assert world.fake.texts_for(rec) == ["It is not your turn."]
    assert world.fake.replies(rec)[0].audience == alice.id
    assert (await world.info()).version == version
    return table, hand


async def test_a_bluffed_wild_draw_four_challenged(world: World) -> None:
    alice, bob, _ = world.users
    table, _ = await _challenge(world, ["W4", "R5", "G1"])
    rec = await world.press(bob, table, world.button(table, "challenge"))
    assert "caught bluffing! Alice draws 4 cards." in table.content
    # the hand Alice bluffed with is shown to Bob alone
    revealed = world.fake.texts_for(rec)
    assert revealed == ["Hand of Alice: 🟥 5, 🟩 1"]
    assert world.fake.replies(rec)[0].audience == bob.id
    assert all("🟥 5, 🟩 1" not in m.content for m in world.fake.public())
    info = await world.info()
    assert info.view is not None and info.view.counts[f"dc:{alice.id}"] == 6


async def test_a_legal_wild_draw_four_challenged(world: World) -> None:
    _, bob, _ = world.users
    table, _ = await _challenge(world, ["W4", "G1", "B7"])
    rec = await world.slash(bob, "hand")
    bob_hand = world.fake.messages[rec.original]  # type: ignore[index]
    assert "played a +4 on you" in bob_hand.content
    assert world.button(bob_hand, "accept") and world.button(bob_hand, "challenge")
    await world.press(bob, bob_hand, world.button(bob_hand, "challenge"))
    assert "it was legal. Bob draws 6 cards." in table.content
    info = await world.info()
    assert info.view is not None and info.view.counts[f"dc:{bob.id}"] == 9
    assert "(9)" in bob_hand.content.splitlines()[0]


async def test_a_seven_asks_whom_to_swap_with(world: World) -> None:
    alice, bob, carol = world.users
    await world.load_scenario(
        {alice: ["R7", "G1", "G2"], bob: ["B1", "B2", "B3", "B4"], carol: ["Y1", "Y2"]},
        ["R9"],
        DECK_FILLER,
        swap="seven_zero",
    )
    rec = await world.slash(alice, "hand")
    hand = world.fake.messages[rec.original]  # type: ignore[index]
    await world.press(alice, hand, world.button(hand, "pick", "R7"))
    assert "Choose whom to swap hands with (🟥 7):" in hand.content
    assert [b["label"] for b in hand.buttons()] == ["Bob", "Carol", "Back"]
    await world.press(alice, hand, label="Back")  # changed her mind, then not
    assert world.button(hand, "pick", "R7") is not None
    await world.press(alice, hand, world.button(hand, "pick", "R7"))
    await world.press(alice, hand, label="Bob")
    table = await world.table_message()
    assert "Alice swaps hands with Bob!" in table.content
    assert "🃏 Your cards (4):" in hand.content  # Bob's four blue cards are hers now
    assert "🟦 1 · 2 · 3 · 4" in hand.content
    info = await world.info()
    assert info.view is not None and info.view.counts[f"dc:{bob.id}"] == 2


async def test_a_revealed_hand_is_shown_once_and_sorted(world: World) -> None:
    """After a challenge the challenger sees the offender's hand once: in their hand
    message when they have one (its recent lines), else in a message of its own, the
    cards in card order either way (not in the order they sit in the hand)."""
    _, bob, _ = world.users
    shown = "🟥 1, 🟥 5, 🟨 7, 🟩 1, 🟦 2"
    # from the hand message: the hand message says it, no second message
    table, _ = await _challenge(world, ["W4", "G1", "R5", "B2", "Y7", "R1"])
    rec = await world.slash(bob, "hand")
    bob_hand = world.fake.messages[rec.original]  # type: ignore[index]
    rec = await world.press(bob, bob_hand, world.button(bob_hand, "challenge"))
    assert "caught bluffing! Alice draws 4 cards." in table.content
    assert shown in bob_hand.content
    assert world.fake.texts_for(rec) == []
    assert sum(shown in m.content for m in world.fake.private(bob)) == 1
    assert all(shown not in m.content for m in world.fake.public())

    # from the table's button, with no hand message: a message of its own, sorted too
    table, _ = await _challenge(world, ["W4", "G1", "R5", "B2", "Y7", "R1"])
    rec = await world.press(bob, table, world.button(table, "challenge"))
    assert world.fake.texts_for(rec) == [f"Hand of Alice: {shown}"]
    assert world.fake.replies(rec)[0].audience == bob.id


async def test_with_play_the_call_is_pressed_with_the_card(world: World) -> None:
    """uno_call=with_play (seed 001: "必须在倒数第2张牌落地的时候喊出"): the hand offers
    "· UNO!" beside the card that leaves one; pressed, the card is played with the call. A
    play without it leaves the player exposed, with no UNO! left to press in their hand."""
    alice, bob, carol = world.users
    await world.load_scenario(
        {alice: ["R5", "W"], bob: ["R6", "B2"], carol: ["G1", "G2", "G3"]},
        ["R9"],
        DECK_FILLER,
        uno_call="with_play",
    )
    rec = await world.slash(alice, "hand")
    msg = world.fake.messages[rec.original]  # type: ignore[index]
    labels = [b["label"] for b in msg.buttons()]
    assert "🟥5 · UNO!" in labels and "🌈 · UNO!" in labels
    cid = world.button(msg, "play", "R5!")
    assert cid is not None
    await world.press(alice, msg, cid)
    await world.settle()
    assert "Alice calls UNO!" in (await world.table_message()).content
    info = await world.info()
    assert info.view is not None and info.view.exposed == ()
    # Bob plays his next-to-last card without the call: exposed, and too late to call
    rec = await world.slash(bob, "hand")
    msg = world.fake.messages[rec.original]  # type: ignore[index]
    cid = world.button(msg, "play", "R6")
    assert cid is not None
    await world.press(bob, msg, cid)
    await world.settle()
    info = await world.info()
    assert info.view is not None and info.view.exposed == (f"dc:{bob.id}",)
    msg = world.hand_message(bob)
    assert msg is not None and world.button(msg, "uno") is None
    table = await world.table_message()
    rec = await world.press(bob, table, world.button(table, "uno"))  # type: ignore[arg-type]
    assert any("too late" in t.lower() for t in world.fake.texts_for(rec)), world.fake.texts_for(
        rec
    )
    assert world.fake.errors == []
