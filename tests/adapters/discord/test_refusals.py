"""What the bot refuses, always privately: stale and forged buttons, the host's powers in
the hands of others."""

from __future__ import annotations

from typing import Any

import pytest

from bot.port import Notice
from bot.ui.i18n import resolve_lang, translator
from tests.adapters.discord.harness import World
from tests.fakes.discord_api import User

BAD = "That button is not valid here."
# Discord's own check for what the host may do
NOT_HOST = "Only the host, or someone with Manage Channels here, can do that."


async def _two_player_game(world: World) -> tuple[User, User, User]:
    alice, bob, carol = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "start"))
    return alice, bob, carol


async def test_a_stale_button_is_refused_privately(world: World) -> None:
    alice, bob, _ = await _two_player_game(world)
    table = await world.table_message()
    info = await world.info()
    assert info.view is not None
    current = alice if info.view.current == f"dc:{alice.id}" else bob
    old_draw = world.button(table, "draw")
    assert old_draw is not None
    await world.act(current, call_uno=False)  # the turn moves on
    version = (await world.info()).version
    # a double click: the second click reaches Discord after the table message was edited,
    # so the interaction carries the message without that button
    rec = await world.press(current, table, old_draw, stale=True)
    assert rec.acked_at is not None and rec.ack_latency is not None and rec.ack_latency < 1
    assert world.fake.texts_for(rec)[-1] == "That button is out of date: the game has moved on."
    assert all(m.audience == current.id for m in world.fake.replies(rec))
    assert (await world.info()).version == version
    assert world.fake.errors == []


async def test_a_click_racing_an_edit_of_the_table_is_answered(world: World) -> None:
    """The table message changes every turn: a click made just before an edit carries the
    edited message (discord.py would not hand it to an item no longer shown there); every
    component comes through the one ``on_interaction``, so it is answered all the same."""
    _, bob, carol = await _two_player_game(world)
    table = await world.table_message()
    old_hand, old_uno = world.button(table, "hand"), world.button(table, "uno")
    await world.slash(carol, "join")  # for the next round: the table message is edited
    assert old_hand is not None and world.button(table, "uno") != old_uno
    rec = await world.press(bob, table, old_hand, stale=True)
    assert rec.acked_at is not None and rec.ack_latency is not None and rec.ack_latency < 1
    hand = world.fake.replies(rec)
    assert len(hand) == 1 and hand[0].audience == bob.id
    assert hand[0].content.startswith("🃏 Your cards") and hand[0].components
    # a stale id that is not ours at all is still refused
    rec = await world.press(bob, table, "nope:" + old_hand, forge=True)
    assert world.fake.texts_for(rec) == [BAD]
    assert world.fake.errors == []


@pytest.mark.parametrize(
    "forged",
    [
        "uno:play:{chan}:{ver}:ZZ9",  # no such card
        "uno:catch:{chan}:{ver}:nobody",  # no such player
        "uno:explode:{chan}:{ver}",  # no such action
        "uno:join:{other}:{ver}",  # another channel's table
        "uno:play:{chan}:abc",  # no version
        "uno:" + "x" * 90,
        "uno:cards:{chan}:{ver}:0",  # a select id on a button
        "not-ours",  # some other bot's component
        "uno:play:{chan}:{ver}:R5",  # a card of a private hand, on the public table
        "uno:color:{chan}:{ver}:R",
        "uno:join:{chan}:{ver}:" + "9" * 64,  # an argument no join button has
        "uno:join:99999999999999999999999:{ver}",  # huge numbers
        "uno:join:{chan}:9999999999999",
        "uno:catch:{chan}:{ver}",  # no argument where one is needed
        "uno:page:{chan}:{ver}:-1",
        "uno:join:１２３:{ver}",  # unicode digits
        # the same in the codec's form
        "a:{chan}:{ver}:pZZ9",
        "a:{chan}:{ver}:xnobody",
        "a:{chan}:{ver}:boom",
        "j:{other}",
        "a:{chan}:abc:d",
        "m:{chan}:cards",  # a select's id on a button
        "a:{chan}:{ver}:pR5",  # a card of a private hand, on the public table
        "a:{chan}:{ver}:s",  # Pass, on the public table
        "j:{chan}:" + "9" * 64,
        "j:99999999999999999999999",
        "n:{chan}:{ver}:-1",
        "j:１２３",
        "K:{chan}",  # a kind Discord never draws
    ],
)
async def test_a_forged_custom_id_is_refused_privately(world: World, forged: str) -> None:
    _, _, carol = await _two_player_game(world)
    table = await world.table_message()
    info = await world.info()
    custom_id = forged.format(chan=world.channel.id, ver=info.version, other=world.channel.id + 1)
    rec = await world.press(carol, table, custom_id, forge=True)
    assert world.fake.texts_for(rec) == [BAD]
    assert world.fake.replies(rec)[0].audience == carol.id
    assert (await world.info()).version == info.version
    assert world.fake.errors == []


async def test_a_version_from_the_future_is_refused(world: World) -> None:
    alice, bob, _ = await _two_player_game(world)
    table = await world.table_message()
    info = await world.info()
    for user in (alice, bob):
        rec = await world.press(
            user, table, f"uno:challenge:{world.channel.id}:999999999999", forge=True
        )
        assert world.fake.texts_for(rec)[-1] in (
            "That button is out of date: the game has moved on.",
            "It is not your turn.",
        )
    assert (await world.info()).version == info.version


@pytest.mark.parametrize("action", ["join", "start", "settings", "hand", "leave"])
async def test_a_table_button_forged_on_a_private_message_is_refused(
    world: World, action: str
) -> None:
    """Table buttons belong on the table: slipped into one's own hand message they used to
    open the settings menu (for anyone, host or not)."""
    _, bob, _ = await _two_player_game(world)
    hand = await world.show_hand(bob)
    info = await world.info()
    custom_id = f"uno:{action}:{world.channel.id}:{info.version}"
    rec = await world.press(bob, hand, custom_id, forge=True)
    assert world.fake.texts_for(rec)[-1] == BAD
    assert all(m.audience == bob.id for m in world.fake.replies(rec))
    assert not any("⚙️" in m.content for m in world.fake.replies(rec))
    assert (await world.info()).version == info.version
    assert world.fake.errors == []


async def test_a_select_forged_with_a_button_id_is_refused(world: World) -> None:
    """A select menu whose id names a table button was taken for that button (a forged
    select "uno:join" seated the user)."""
    _, _, carol = await _two_player_game(world)
    table = await world.table_message()
    info = await world.info()
    custom_id = f"uno:join:{world.channel.id}:{info.version}"
    rec = await world.press(carol, table, custom_id, value="x", forge=True)
    assert world.fake.texts_for(rec) == [BAD]
    info2 = await world.info()
    assert info2.version == info.version and f"dc:{carol.id}" not in info2.waiting


async def test_a_forged_select_value_is_refused(world: World) -> None:
    alice, _, _ = await _two_player_game(world)
    hand = await world.show_hand(alice)
    custom_id = f"uno:cards:{world.channel.id}:{(await world.info()).version}:0"
    rec = await world.press(alice, hand, custom_id, value="NOPE", forge=True)
    assert world.fake.texts_for(rec) == ["That button is out of date: the game has moved on."]


async def test_only_the_host_or_a_channel_manager_kicks(make_world) -> None:  # type: ignore[no-untyped-def]
    world: World = await make_world(admin=("Carol",))
    alice, bob, carol = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.press(carol, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "addbot"))

    rec = await world.slash(bob, "kick", player=alice)
    assert world.fake.texts_for(rec) == [NOT_HOST]
    assert world.fake.replies(rec)[0].audience == bob.id
    rec = await world.press(bob, table, world.button(table, "settings"))
    assert world.fake.texts_for(rec) == [NOT_HOST]
    rec = await world.press(bob, table, world.button(table, "start"))
    assert world.fake.texts_for(rec) == [NOT_HOST]
    assert "Alice" in table.content

    # a member with Manage Channels may
    await world.slash(carol, "kick", player=bob)
    seats = table.content.split("Players")[1].split("\n\n")[0]
    assert "Bob" not in seats and "Bob was removed from the table." in table.content
    # the host picks from the seats, bots included
    rec = await world.slash(alice, "kick")
    menu = world.fake.replies(rec)[0]
    kick = world.select(menu, "kick")
    assert kick is not None
    assert [o["label"] for o in kick["options"]] == ["Carol", "Bot 1 🤖"]
    await world.press(alice, menu, kick["custom_id"], value=kick["options"][1]["value"])
    assert "Bot 1" not in table.content.split("Players")[1].split("\n\n")[0]
    assert menu.components == []


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_a_refused_host_power_says_what_discord_checks(make_world, locale: str) -> None:  # type: ignore[no-untyped-def]
    """Discord has no chat admins: the refusal names Manage Channels, the permission the
    bot really checks, in the reader's language."""
    world: World = await make_world(user_locale=locale)
    alice, bob, _ = world.users
    expected = translator(resolve_lang(locale)).gettext(NOT_HOST)
    assert expected != NOT_HOST or locale == "en-US"
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    refused = [
        await world.press(bob, table, world.button(table, "settings")),
        await world.press(bob, table, world.button(table, "start")),
    ]
    await world.press(alice, table, world.button(table, "start"))
    refused += [
        await world.slash(bob, "stop"),
        await world.slash(bob, "kick", player=alice),
        await world.slash(bob, "kick"),
        await world.slash(bob, "settings"),
    ]
    for rec in refused:
        assert world.fake.texts_for(rec) == [expected], rec.command or rec.custom_id
        assert all(m.audience == bob.id for m in world.fake.replies(rec))
    info = await world.info()
    assert info.status == "playing" and len(info.seats) == 2


async def test_kick_names_a_member_who_left_the_server(world: World) -> None:
    """``/uno kick player:`` with someone who left the server: Discord sends a user, no
    member; the option used to fail to convert ("Something went wrong")."""
    alice, bob, _ = await _two_player_game(world)
    world.fake.remove_member(world.guild, bob)
    rec = await world.slash(alice, "kick", player=bob)
    assert world.fake.texts_for(rec) == ["✅"]
    table = world.fake.messages[int((await world.info()).meta["dc_msg"])]
    assert "Bob was removed from the table." in table.content
    rec = await world.slash(alice, "stats", whose=bob)
    assert "went wrong" not in world.fake.texts_for(rec)[0]


async def test_forged_settings_values_are_refused(world: World) -> None:
    """Only what the menu offers: a value slipped into a select (a one-second turn, a
    preset that does not exist) changes nothing."""
    alice, _, _ = world.users
    await world.slash(alice, "new")
    rec = await world.slash(alice, "settings")
    menu = world.fake.replies(rec)[0]
    info = await world.info()
    for custom_id, value in (
        (f"uno:flag:{world.channel.id}:{info.version}:turn_seconds", "1"),
        (f"uno:flag:{world.channel.id}:{info.version}:hand_size", "١٢"),
        (f"uno:preset:{world.channel.id}:{info.version}", "chaos"),
    ):
        rec = await world.press(alice, menu, custom_id, value=value, forge=True)
        assert world.fake.texts_for(rec) == [BAD]
        after = await world.info()
        assert after.rules == info.rules and after.version == info.version
    assert world.fake.errors == []


async def test_settings_presets_and_flags(world: World) -> None:
    alice, _, _ = world.users
    await world.slash(alice, "new")
    rec = await world.slash(alice, "settings")
    menu = world.fake.replies(rec)[0]
    assert menu.audience == alice.id and "⚙️" in menu.content
    preset = world.select(menu, "preset")
    assert preset is not None
    await world.press(alice, menu, preset["custom_id"], value=world.option(preset, "house"))
    info = await world.info()
    assert info.preset == "house" and info.rules.jump_in
    flag = await world.flag_page(alice, menu, "jump_in")
    await world.press(alice, menu, flag["custom_id"], value=world.option(flag, "false"))
    info = await world.info()
    assert info.preset == "house" and not info.rules.jump_in
    table = await world.table_message()
    assert "House rules + 1 change" in table.content
    # every page of the menu keeps Discord's limits
    for _ in range(12):
        nxt = [b for b in menu.buttons() if b["label"] == "▶" and not b.get("disabled")]
        if not nxt:
            break
        await world.press(alice, menu, nxt[0]["custom_id"])
        assert len(menu.components) <= 5
    assert world.fake.errors == []
    # stacking off under the house rules is accepted (deflect stays on, with nothing to
    # act on: issue 9 item 2)
    stacking = await world.flag_page(alice, menu, "stacking")
    await world.press(alice, menu, stacking["custom_id"], value=world.option(stacking, "off"))
    info = await world.info()
    assert (info.rules.stacking, info.rules.deflect) == ("off", "draw_two")  # was True
    assert world.fake.errors == []


async def test_the_presser_is_answered_from_the_result_never_through_the_port(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a call tells the one who made it (a refusal, a seat for the next round) comes
    back in its ``Result`` and is answered once, by the handler: the port's ``tell``
    carries only what others are told."""
    adapter = world.adapter
    assert adapter is not None
    told: list[tuple[str, str, Any]] = []
    tell = adapter.tell

    async def spy(table_key: str, user: str, notice: Notice, origin: Any = None) -> None:
        told.append((user, notice.code, origin))
        await tell(table_key, user, notice, origin)

    monkeypatch.setattr(adapter, "tell", spy)
    alice, bob, carol = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    start = world.button(table, "start")
    await world.press(alice, table, start)
    # a double click: the second one comes with the message as it was (a button refused)
    rec = await world.press(alice, table, start, stale=True)
    assert world.fake.texts_for(rec) == ["The game has started already."]
    assert world.fake.replies(rec)[0].audience == alice.id
    rec = await world.slash(bob, "kick", player=alice)  # a command refused
    assert world.fake.texts_for(rec) == [NOT_HOST]
    rec = await world.slash(carol, "join")  # told by the change: in at the next round
    assert world.fake.texts_for(rec) == ["You are in: you will be dealt in at the next round."]
    assert all(m.audience == carol.id for m in world.fake.replies(rec))
    assert told == []
