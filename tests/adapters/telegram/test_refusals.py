"""Refusals reach users whose private chat with the bot is closed, and inline choices post
nothing about a hand."""

from __future__ import annotations

from adapters.telegram import ReplyTo, widgets
from adapters.telegram.adapter import Posted
from bot.port import Notice
from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import (
    Harness,
    assert_no_hand_in_group,
    key,
    open_table,
    play_query,
)

EN = translator("en")
NOT_HOST = "Only the host or a group admin can do that."


async def test_a_refused_command_is_answered_in_the_group_for_a_while(tg: Harness) -> None:
    """Bob never opened the private chat: the refusal of his /start (not the host) is a
    reply to it in the group, with a button opening the private chat, deleted soon."""
    api = tg.api
    tg.adapter.refusal_ttl = 0.3
    g = api.group("Friends")
    alice, bob = api.user("Alice"), api.user("Bob")
    await alice.send(g, "/new")
    await tg.until(lambda: tg.service.cached(key(g)) is not None)
    command = await bob.send(g, "/start")
    replies = await tg.until(lambda: [m for m in api.bot_messages(g) if m.reply_to is command])
    reply = replies[0]
    assert reply.text == NOT_HOST
    assert [b.get("url") for b in reply.buttons()] == [f"https://t.me/{api.username}?start=help"]
    # the private chat was tried first
    private = [c for c in api.of("sendMessage") if c.params.get("chat_id") == bob.id]
    assert [c.error.code for c in private if c.error is not None] == [403]
    await tg.until(lambda: reply.deleted, timeout=3)
    assert not tg.adapter.replies_to_delete

    # in a forum topic, the reply goes to the topic
    forum = api.group("Forum", forum=True)
    await alice.send(forum, "/new", thread=7)
    await tg.until(lambda: tg.service.cached(key(forum, 7)) is not None)
    command = await bob.send(forum, "/stop", thread=7)
    replies = await tg.until(lambda: [m for m in api.bot_messages(forum) if m.reply_to is command])
    assert replies[0].text == NOT_HOST and replies[0].thread == 7

    # with the private chat open, the refusal goes there and the group hears nothing
    carol = api.user("Carol", started=True)
    before = len(api.bot_messages(g))
    await carol.send(g, "/start")
    await tg.until(lambda: api.dms(carol))
    assert api.dms(carol) == [NOT_HOST]
    await tg.settle()
    assert len(api.bot_messages(g)) == before


async def test_replies_due_for_deletion_are_deleted_at_stop(tg: Harness) -> None:
    api = tg.api
    tg.adapter.refusal_ttl = 3600.0
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await alice.send(g, "/new")
    await tg.until(lambda: tg.service.cached(key(g)) is not None)
    command = await bob.send(g, "/stop")
    replies = await tg.until(lambda: [m for m in api.bot_messages(g) if m.reply_to is command])
    assert not replies[0].deleted
    await tg.stop()
    assert replies[0].deleted


async def test_a_refused_inline_choice_is_answered_under_what_it_posted(tg: Harness) -> None:
    """Choosing a card that cannot be played now posts the neutral 🎴 (never the card); the
    refusal of a player whose private chat is closed replies to that message."""
    api = tg.api
    tg.adapter.refusal_ttl = 0.3
    g = api.group("Friends")
    alice, bob = api.user("Alice"), api.user("Bob")
    table = await open_table(tg, g, alice, [bob])
    info = await tg.info(g)
    assert info.view is not None
    waiting = bob if info.view.current == alice.pid else alice
    ans = await waiting.inline(play_query(table))
    assert ans.results and {r.text for r in ans.results} == {widgets.POSTED}
    dimmed = next(r for r in ans.results if r.code.startswith("-"))
    posted = await waiting.choose(ans, dimmed, g)
    assert posted.text == widgets.POSTED
    replies = await tg.until(lambda: [m for m in api.bot_messages(g) if m.reply_to is posted])
    assert replies[0].text == EN.gettext("It is not your turn.")
    await tg.until(lambda: replies[0].deleted, timeout=3)
    assert (await tg.info(g)).version == info.version
    assert_no_hand_in_group(api, g)


async def test_news_and_refusals_that_tell_of_a_hand_stay_private(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    bob = api.user("Bob")
    said = await bob.send(g, "hello")
    reply = ReplyTo(bob.id, posted=Posted(g.id, None, said.message_id))
    revealed = Notice("info.revealed", {"player": "tg:1", "cards": ["R1", "W4"]})
    for notice in (Notice("wild_draw_four_illegal"), Notice("must_play"), revealed):
        tg.adapter.dm_notice(bob.id, notice, key(g), reply)
    await tg.settle()
    assert api.bot_messages(g) == []


async def test_who_may_stop_or_change_settings_is_said_as_telegram_checks_it(
    tg: Harness,
) -> None:
    """Neither the host nor a group admin: pressing Settings, typing /settings or /stop is
    refused with what Telegram checks (a group admin), in the reader's language."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob", started=True)
    zoe = api.user("Zoe", language_code="zh-hans", started=True)
    table = await open_table(tg, g, alice, [bob, zoe], start=False)
    pressed = await bob.click(table, "Settings")
    assert pressed.show_alert and pressed.text == EN.gettext(NOT_HOST)
    await bob.send(g, "/settings")
    await tg.until(lambda: len(api.dms(bob)) == 1)
    await bob.send(g, "/stop")
    await tg.until(lambda: len(api.dms(bob)) == 2)
    assert api.dms(bob) == [EN.gettext(NOT_HOST)] * 2
    await zoe.send(g, "/stop")
    await tg.until(lambda: api.dms(zoe))
    assert api.dms(zoe) == [translator("zh_Hans").gettext(NOT_HOST)]
    assert api.dms(zoe)[0] == "只有房主或群管理员才能这样做。"
    assert (await tg.info(g)).status == "lobby"


async def test_joining_mid_game_is_always_answered(tg: Harness) -> None:
    """Eve never opened the private chat. In a game of a single round there is no next
    round to sit down for: refused, as a reply in the group; in a longer game she is in for
    the next round, and told so the same way."""
    api = tg.api
    tg.adapter.refusal_ttl = 30.0
    one, longer = api.group("One round"), api.group("Longer")
    alice, bob, eve = api.user("Alice"), api.user("Bob"), api.user("Eve")
    await open_table(tg, one, alice, [bob], target=0)
    command = await eve.send(one, "/join")
    replies = await tg.until(lambda: [m for m in api.bot_messages(one) if m.reply_to is command])
    assert replies[0].text == EN.gettext(
        "This game is a single round: nobody can join until it ends. Join the next game!"
    )
    info = await tg.info(one)
    assert info.waiting == () and eve.pid not in {s.id for s in info.seats}
    await tg.settle()
    assert not any("Joining next round" in t for t in api.group_texts(one))
    # a bot seat cannot sit down for a next round that will not come either
    await alice.send(one, "/addbot")
    await tg.until(lambda: [m for m in api.bot_messages(one) if m.reply_to is not None][1:])
    assert len((await tg.info(one)).seats) == 2

    await open_table(tg, longer, alice, [bob], target=500)
    command = await eve.send(longer, "/join")
    replies = await tg.until(
        lambda: [m for m in api.bot_messages(longer) if m.reply_to is command]
    )
    assert replies[0].text == EN.gettext("You are in: you will be dealt in at the next round.")
    assert (await tg.info(longer)).waiting == (eve.pid,)
    await tg.settle()
    assert "Joining next round: Eve" in tg.table_message(longer).text
    assert_no_hand_in_group(api, longer)


async def test_a_refused_choice_of_a_user_known_unreachable_is_answered(tg: Harness) -> None:
    """Issue 19, item 8: Bob's private chat refused the bot before (a 403, remembered), so
    a refusal goes to the group at once; Telegram may send the chosen result before the 🎴
    message it posted, or that message may never reach the bot. Every refusal still
    reaches him: a reply to his 🎴 once it is seen, else (a moment later) a reply to the
    table message naming him."""
    api = tg.api
    tg.adapter.refusal_ttl = 30.0
    g = api.group("Friends")
    alice, bob = api.user("Alice"), api.user("Bob")
    table = await open_table(tg, g, alice, [bob])
    info = await tg.info(g)
    assert info.view is not None
    waiting = bob if info.view.current == alice.pid else alice
    not_your_turn = EN.gettext("It is not your turn.")

    async def refused_choice(message: str) -> object:
        ans = await waiting.inline(play_query(table))
        dimmed = next(r for r in ans.results if r.code.startswith("-"))
        return await waiting.choose(ans, dimmed, g, message=message)  # type: ignore[arg-type]

    # the first refusal finds the private chat closed (403): remembered, it goes to the group
    first = await refused_choice("before")
    await tg.until(lambda: [m for m in api.bot_messages(g) if m.reply_to is first])
    dms = [c for c in api.of("sendMessage") if c.params.get("chat_id") == waiting.id]
    assert [c.error.code for c in dms if c.error is not None] == [403]

    # the chosen result comes first, its 🎴 after it: the reply waits for it
    second = await refused_choice("after")
    replies = await tg.until(lambda: [m for m in api.bot_messages(g) if m.reply_to is second])
    assert replies[0].text == not_your_turn

    # the 🎴 never comes: a reply to the table message, naming him
    await refused_choice("never")
    replies = await tg.until(
        lambda: [m for m in api.bot_messages(g) if m.reply_to is tg.table_message(g)]
    )
    assert replies[0].text == f"{waiting.first_name}: {not_your_turn}"
    # no second try of the closed private chat, and nothing changed at the table
    dms = [c for c in api.of("sendMessage") if c.params.get("chat_id") == waiting.id]
    assert len(dms) == 1
    assert (await tg.info(g)).version == info.version
    assert_no_hand_in_group(api, g)
