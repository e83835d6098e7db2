"""Where tables live and which language they speak: threads, a Traditional Chinese server,
the language command."""

from __future__ import annotations

import pytest

from bot.ui.i18n import resolve_lang, translator
from tests.adapters.discord.harness import World


async def test_two_threads_have_independent_tables(world: World) -> None:
    alice, bob, carol = world.users
    fake = world.fake
    one = fake.add_channel(world.guild, "table one", parent=world.channel)
    two = fake.add_channel(world.guild, "table two", parent=world.channel)
    await world.restart()  # the guild now has two threads (GUILD_CREATE carries them)

    await world.slash(alice, "new", channel=one)
    await world.slash(bob, "new", channel=two)
    t1 = await world.table_message(one)
    t2 = await world.table_message(two)
    assert t1.channel_id == one.id and t2.channel_id == two.id
    await world.press(bob, t1, world.button(t1, "join"))
    await world.press(carol, t2, world.button(t2, "join"))
    await world.press(alice, t1, world.button(t1, "start"))

    i1, i2 = await world.info(one), await world.info(two)
    assert i1.status == "playing" and i2.status == "lobby"
    assert i1.scope == i2.scope == f"dc:g:{world.guild.id}"
    assert [s.name for s in i1.seats] == ["Alice", "Bob"]
    assert [s.name for s in i2.seats] == ["Bob", "Carol"]
    # Bob plays in one and waits in the other; the parent channel has no table at all
    hand = await world.show_hand(bob, one)
    assert "Your cards (" in hand.content
    rec = await world.slash(bob, "hand", channel=two)
    assert world.fake.texts_for(rec) == ["The game has not started yet."]
    rec = await world.slash(carol, "join")
    assert world.fake.texts_for(rec) == ["There is no open table here."]
    assert world.fake.public(world.channel) == []
    assert world.fake.errors == []


async def test_a_traditional_chinese_server(make_world) -> None:  # type: ignore[no-untyped-def]
    world: World = await make_world(guild_locale="zh-TW")
    alice, bob, carol = world.users
    hant = translator("zh_Hant")
    fake = world.fake

    # Discord shows the commands in Chinese to Chinese clients
    uno = next(c for c in fake.global_commands if c["name"] == "uno")
    names = {o["name"]: o.get("name_localizations", {}) for o in uno["options"]}
    assert names["join"]["zh-TW"] == "加入" and names["join"]["zh-CN"] == "加入"
    assert names["settings"] == {"zh-CN": "设置", "zh-TW": "設定"}
    new = next(o for o in uno["options"] if o["name"] == "new")
    assert new["description_localizations"]["zh-TW"] == hant.gettext("open a table in this chat")

    rec = await world.slash(alice, "new")
    assert fake.texts_for(rec) == [
        hant.gettext("The table is open: press “{join}” on it to sit down.", join="加入")
    ]
    table = await world.table_message()
    assert table.content.startswith(hant.gettext("🎴 UNO — waiting for players"))
    assert [b["label"] for b in table.buttons()][:2] == ["加入", "離開"]
    await world.press(bob, table, world.button(table, "join"))
    await world.press(alice, table, world.button(table, "start"))
    assert hant.gettext("▶ Turn: {player}", player="") in table.content

    # a member whose Discord speaks Simplified Chinese reads their hand in it
    bob.locale = "zh-CN"
    hand = await world.show_hand(bob)
    hans = translator("zh_Hans")
    count = (await world.info()).view.counts[f"dc:{bob.id}"]  # type: ignore[union-attr]
    assert hand.content.startswith(hans.gettext("🃏 Your cards ({n}):", n=count))
    # and a refusal in it too
    rec = await world.press(carol, table, world.button(table, "draw"))
    assert fake.texts_for(rec)[-1] == hant.gettext("You are not playing in this game.")
    rec = await world.slash(carol, "help")
    assert fake.texts_for(rec)[0].startswith(hant.gettext("🎴 UNO — how to play"))
    assert "/uno new" in fake.texts_for(rec)[0]
    assert fake.errors == []


async def test_the_language_command(make_world) -> None:  # type: ignore[no-untyped-def]
    world: World = await make_world(admin=("Carol",))
    alice, bob, carol = world.users
    fake = world.fake
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))

    rec = await world.slash(bob, "language", language="zh_Hans")
    hans = translator("zh_Hans")
    assert fake.texts_for(rec) == [
        hans.gettext("Your language is now {language}.", language="简体中文")
    ]
    rec = await world.press(bob, table, world.button(table, "join"))
    assert fake.texts_for(rec) == [hans.gettext("You have joined already.")]
    rec = await world.slash(bob, "language", language="auto")
    assert fake.texts_for(rec) == ["Your messages now follow your Discord language."]

    # the server's language (every table of the server): a channel manager only, not
    # the host of a table (anyone can open one)
    admins_only = "Only a member with Manage Channels can change the server's language."
    for who in (bob, alice):
        rec = await world.slash(who, "language", language="zh_Hant", where="guild")
        assert fake.texts_for(rec) == [admins_only]
        assert (await world.info()).lang is None
    rec = await world.slash(carol, "language", language="zh_Hant", where="guild")
    hant = translator("zh_Hant")
    assert fake.texts_for(rec) == [
        hant.gettext("The language of UNO in this server is now {language}.", language="繁體中文")
    ]
    assert table.content.startswith(hant.gettext("🎴 UNO — waiting for players"))
    assert (await world.info()).lang == "zh_Hant"
    # private texts stay in each user's own language
    rec = await world.slash(bob, "rules")
    assert fake.texts_for(rec)[0].startswith("📜 Official rules")

    # and the server's setting can be handed back: its tables follow its Discord locale
    rec = await world.slash(carol, "language", language="auto", where="guild")
    assert fake.texts_for(rec) == ["UNO in this server now speaks the server's Discord language."]
    assert (await world.info()).lang is None
    assert table.content.startswith("🎴 UNO — waiting for players")
    assert await world.svc.chat_lang(f"dc:g:{world.guild.id}") in (None, "")
    await world.slash(alice, "stop")
    await world.slash(alice, "new")  # a new table too
    assert (await world.table_message()).content.startswith("🎴 UNO — waiting for players")
    rec = await world.slash(bob, "language", language="auto", where="guild")
    assert fake.texts_for(rec) == [admins_only]
    assert fake.errors == []


async def test_a_server_language_set_back_to_auto_follows_a_chinese_server(make_world) -> None:  # type: ignore[no-untyped-def]
    world: World = await make_world(guild_locale="zh-TW", admin=("Carol",))
    alice, _, carol = world.users
    await world.slash(alice, "new")
    await world.slash(carol, "language", language="en", where="guild")
    table = await world.table_message()
    assert table.content.startswith("🎴 UNO — waiting for players")
    rec = await world.slash(carol, "language", language="auto", where="guild")
    hant = translator("zh_Hant")
    said = hant.gettext("UNO in this server now speaks the server's Discord language.")
    assert said != "UNO in this server now speaks the server's Discord language."
    assert world.fake.texts_for(rec) == [said]
    assert table.content.startswith(hant.gettext("🎴 UNO — waiting for players"))


async def test_a_deleted_channel_stops_its_table(world: World, caplog) -> None:  # type: ignore[no-untyped-def]
    """A table whose channel (or thread) was deleted can never be seen or pressed again:
    it is stopped, rather than failing (with a traceback) at every turn for ever."""
    alice, bob, _ = world.users
    await world.slash(alice, "new")
    table = await world.table_message()
    await world.press(bob, table, world.button(table, "join"))
    await world.svc.add_bot(world.key(), f"dc:{alice.id}")
    await world.press(alice, table, world.button(table, "start"))
    world.fake.delete_channel(world.channel)
    caplog.clear()
    # a move made elsewhere than in the channel (a timer, a bot): the table is shown
    await world.svc.leave(world.key(), f"dc:{bob.id}")
    await world.settle()
    info = await world.svc.table(world.key())
    assert info is not None and info.status == "stopped"
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    assert all("10003" in e for e in world.fake.errors)


async def test_an_archived_thread_gets_its_table_again(world: World) -> None:
    """A thread archives itself after a while without new messages (edits do not count),
    and Discord refuses edits there: the table is posted anew, which wakes the thread."""
    alice, bob, _ = world.users
    thread = world.fake.add_channel(world.guild, "uno thread", parent=world.channel)
    await world.restart()
    await world.slash(alice, "new", channel=thread)
    old = await world.table_message(thread)
    thread.archived = True
    await world.svc.join(world.key(thread), f"dc:{bob.id}", "Bob")  # /uno join elsewhere
    await world.settle()
    fresh = await world.table_message(thread)
    assert fresh.id != old.id and "Bob" in fresh.content and fresh.components
    assert not thread.archived
    assert old.components == []  # the old one keeps no buttons
    table = await world.table_message(thread)
    await world.press(alice, table, world.button(table, "start"))
    assert (await world.info(thread)).status == "playing"
    assert [e.split(": ")[1][:5] for e in world.fake.errors] == ["50083"]


async def test_no_table_where_the_bot_cannot_post(world: World) -> None:
    """Without View Channel and Send Messages (in Threads, for a thread) the table message
    cannot be posted: /uno new says so instead of opening a table nobody sees."""
    alice, _, _ = world.users
    thread = world.fake.add_channel(world.guild, "uno thread", parent=world.channel)
    await world.restart()
    thread.bot_permissions &= ~(1 << 38)  # Send Messages in Threads
    rec = await world.slash(alice, "new", channel=thread)
    assert world.fake.texts_for(rec) == [
        "I cannot post in this channel: I need View Channel and Send Messages here "
        "(Send Messages in Threads in a thread)."
    ]
    assert await world.svc.table(world.key(thread)) is None
    world.channel.bot_permissions &= ~(1 << 11)  # Send Messages
    rec = await world.slash(alice, "new")
    assert "I cannot post in this channel" in world.fake.texts_for(rec)[0]
    assert await world.svc.table(world.key()) is None
    assert world.fake.errors == []


@pytest.mark.parametrize("locale", ["en-US", "zh-CN", "zh-TW"])
async def test_the_new_table_reply_points_at_the_table_message(make_world, locale: str) -> None:  # type: ignore[no-untyped-def]
    """The answer to /uno new is created first (deferred at once), the table message after
    it: below it, not "above". The reply names the table message rather than a direction."""
    world: World = await make_world(guild_locale=locale)
    alice = world.users[0]
    rec = await world.slash(alice, "new")
    reply = world.fake.replies(rec)[0]
    table = await world.table_message()
    assert reply.created <= table.created and reply.id < table.id  # the table comes below
    for direction in ("above", "below", "上面", "下面", "上方", "下方"):
        assert direction not in reply.content
    tr = translator(resolve_lang(locale))
    assert tr.gettext("Join") in reply.content
    if locale != "en-US":
        assert ("牌桌消息" if locale == "zh-CN" else "牌桌訊息") in reply.content
