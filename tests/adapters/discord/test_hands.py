"""A player's hand messages over their life: one live hand message at a time, older ones
emptied (or refused when pressed), none left with buttons once the game is over; a forged
menu pick never overwrites the hand."""

from __future__ import annotations

import pytest

from bot.ui.i18n import translator
from tests.adapters.discord.harness import World, name_of
from tests.fakes.discord_api import Interaction, Message, User

DECK = ["G1", "G2", "G3", "G4", "G6", "G7", "G8", "Y5", "Y6", "Y7", "Y8", "Y9"] * 2
EXPIRED = "This view has expired: press “Show hand” on the table for a fresh one."
MOVED = "Your hand has moved to a newer message."
OVER = "The game is over."
BAD = "That button is not valid here."


def _card_buttons(msg: Message) -> list[str]:
    return [
        b["custom_id"]
        for b in msg.buttons()
        if name_of(b["custom_id"])[0] in ("play", "pick", "draw", "pass")
    ]


async def _hand(world: World, user: User) -> Message:
    """``/uno hand``: the answer is the user's hand message now."""
    return (await _hand_rec(world, user))[0]


async def _hand_rec(world: World, user: User) -> tuple[Message, Interaction]:
    rec = await world.slash(user, "hand")
    assert rec.original is not None
    return world.fake.messages[rec.original], rec


async def _game(world: World) -> tuple[User, User]:
    alice, bob, _ = world.users
    await world.load_scenario(
        {alice: ["R5", "R6", "G9"], bob: ["B1", "B2", "B3"]}, ["R9"], DECK, current=alice
    )
    return alice, bob


async def test_a_newer_hand_message_empties_the_one_it_replaces(world: World) -> None:
    alice, _ = await _game(world)
    old = await _hand(world, alice)
    assert _card_buttons(old) and old.attachments
    rec = await world.slash(alice, "hand")
    new = world.fake.messages[rec.original]  # type: ignore[index]
    assert new.id != old.id and _card_buttons(new)
    assert old.content == MOVED and old.components == [] and old.attachments == []
    # and again from the newer one's own button: the live one is the one pressed
    newest = await _hand(world, alice)
    assert new.content == MOVED and new.components == []
    await world.press(alice, newest, world.button(newest, "play", "R5"))
    assert "Alice played 🟥 5" in (await world.table_message()).content
    assert world.fake.errors == []


async def test_a_press_on_an_older_hand_message_is_refused(world: World) -> None:
    """A hand message whose token ran out keeps its buttons (nothing can edit it any more);
    once a newer one is live, a press on the old one plays nothing: it is emptied, saying
    how to get a fresh one. The same for a click that raced the emptying."""
    alice, _ = await _game(world)
    old, rec = await _hand_rec(world, alice)
    play = world.button(old, "play", "R5")
    assert play is not None
    world.fake.expire(rec)
    new = await _hand(world, alice)
    assert old.components  # out of reach: nothing could empty it
    version = (await world.info()).version
    rec = await world.press(alice, old, play)
    assert old.content == EXPIRED and old.components == [] and old.attachments == []
    assert world.fake.texts_for(rec) == []
    assert (await world.info()).version == version
    assert _card_buttons(new) and world.fake.messages[new.id].content.startswith("🃏")
    # a click on the emptied one that raced its emptying (sent with the message as it is)
    play = world.button(new, "play", "R5")
    assert play is not None
    newest = await _hand(world, alice)
    assert new.content == MOVED
    rec = await world.press(alice, new, play, stale=True)
    assert new.content == EXPIRED and world.fake.texts_for(rec) == []
    assert (await world.info()).version == version and _card_buttons(newest)
    assert world.fake.errors == []


@pytest.mark.parametrize("how", ["won", "stopped"])
async def test_no_hand_message_keeps_buttons_after_the_game(world: World, how: str) -> None:
    alice, bob, _ = world.users
    await world.load_scenario(
        {alice: ["R5"], bob: ["B1", "B2", "B3"]}, ["R9"], DECK, current=alice, target=0
    )
    before, opened = await _hand_rec(world, alice)
    play = world.button(before, "play", "R5")
    assert play is not None
    world.fake.expire(opened)  # that message's token ran out: out of reach, buttons and all
    hand = await _hand(world, alice)
    rec = await world.slash(bob, "hand")
    bob_hand = world.fake.messages[rec.original]  # type: ignore[index]
    if how == "won":
        await world.press(alice, hand, world.button(hand, "play", "R5"))
        assert (await world.info()).status == "finished"
    else:
        await world.slash(alice, "stop")
        assert (await world.info()).status == "stopped"
    for msg in (hand, bob_hand):
        assert msg.components == [], msg.content
        assert OVER in msg.content and "Your turn" not in msg.content
    # the one that could not be reached when the game ended: a press says the game is
    # over (not "There is no open table here"), and takes its buttons away
    assert before.components
    rec = await world.press(alice, before, play)
    assert world.fake.texts_for(rec) == [OVER]
    assert world.fake.replies(rec)[0].audience == alice.id
    assert before.components == [] and before.content.startswith("🃏")
    # with a new table open there: that game is still over (a click that raced the edit)
    await world.slash(bob, "new")
    rec = await world.press(alice, before, play, stale=True)
    assert world.fake.texts_for(rec) == [OVER]
    assert world.fake.errors == []


@pytest.mark.parametrize(
    ("action", "value"),
    [
        ("kick", "{bob}"), ("flag", "true"), ("preset", "house"), ("setpage", None),
        ("m:kick", "k:{chan}:{bob}"), ("m:fji", "v:{chan}:ji:true"),
        ("m:preset", "p:{chan}:house"), ("s", None), ("x", None),
    ],
)  # fmt: skip
@pytest.mark.parametrize("host", [True, False])
async def test_a_menu_pick_forged_on_a_hand_never_overwrites_it(
    world: World, action: str, value: str | None, host: bool
) -> None:
    """Settings and kick picks belong on their menus: slipped into one's hand message
    (the host's, who may kick and change the rules, or another player's) they are refused
    in a new private message, and the hand stays as it was."""
    alice, bob = await _game(world)
    user = alice if host else bob
    info = await world.info()
    chan, ver = world.channel.id, info.version
    custom_id = {
        "kick": f"uno:kick:{chan}:{ver}",
        "flag": f"uno:flag:{chan}:{ver}:jump_in",
        "preset": f"uno:preset:{chan}:{ver}",
        "setpage": f"uno:setpage:{chan}:{ver}:1",
        # the codec's forms
        "m:kick": f"m:{chan}:kick",
        "m:fji": f"m:{chan}:fji",
        "m:preset": f"m:{chan}:preset",
        "s": f"s:{chan}:1",
        "x": f"x:{chan}",
    }[action]
    hand = await _hand(world, user)
    before = (hand.content, hand.components)
    picked = value.format(bob=bob.id if host else alice.id, chan=chan) if value else None
    rec = await world.press(user, hand, custom_id, value=picked, forge=True)
    assert (hand.content, hand.components) == before
    assert world.fake.texts_for(rec) == [BAD]
    assert world.fake.replies(rec)[0].audience == user.id
    after = await world.info()
    assert after.version == info.version and len(after.seats) == 2
    assert after.rules == info.rules
    assert world.fake.errors == []


async def test_menu_refusals_are_new_messages(make_world) -> None:  # type: ignore[no-untyped-def]
    """A refusal from a menu is a reply of its own: the menu stays, to try again."""
    world: World = await make_world(admin=("Carol",))
    alice, bob, carol = world.users
    await world.slash(alice, "new")
    await world.slash(bob, "join")
    rec = await world.slash(alice, "kick")
    menu = world.fake.replies(rec)[0]
    kick = world.select(menu, "kick")
    assert kick is not None
    await world.slash(carol, "kick", player=bob)  # a manager was faster
    before = (menu.content, menu.components)
    rec = await world.press(alice, menu, kick["custom_id"], value=kick["options"][0]["value"])
    assert world.fake.texts_for(rec) == ["That player is not at the table."]
    assert (menu.content, menu.components) == before
    tr = translator("en")
    assert tr.gettext("Choose who leaves the table") == menu.content
