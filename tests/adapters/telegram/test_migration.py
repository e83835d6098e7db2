"""A group upgraded to a supergroup mid-game: the game goes on in the new chat.

Telegram gives the supergroup a new id; the bot learns it from the service messages
(``migrate_to_chat_id`` in the old chat, ``migrate_from_chat_id`` in the new one) or from
a send to the old id failing with ``ChatMigrated``, whichever comes first."""

from __future__ import annotations

import logging

import pytest

from adapters.telegram.inbound.presses import read
from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import (
    Harness,
    assert_no_hand_in_group,
    human_turn,
    key,
    moved,
    open_table,
    play_out,
    play_query,
)
from tests.fakes.telegram_api import FakeBotAPI, FakeChat, FakeMessage, FakeUser

EN = translator("en")


def tables_in(api: FakeBotAPI, chat: FakeChat) -> list[FakeMessage]:
    """The bot's messages in ``chat`` that were ever a table message (with game buttons)."""
    return [m for m in api.bot_messages(chat) if any(mk for _, mk in m.history)]


def no_errors(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert bad == [], [r.getMessage() for r in bad]


async def finish_in(tg: Harness, chat: FakeChat, people: list[FakeUser]) -> None:
    """Play the game out in ``chat``; it ends there, with the statistics of ``chat``."""
    await play_out(tg, chat, people)
    await tg.settle()
    final = tg.table_message(chat)
    assert final.markup is None and "wins the game" in final.text
    for u in people:
        mine = await tg.service.player_stats(f"tg:{chat.id}", u.pid)
        assert mine is not None and mine.games == 1


async def test_the_service_messages_move_the_game_to_the_supergroup(
    tg: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    api = tg.api
    g = api.basic_group("Friends")
    alice, bob, carol = api.user("Alice"), api.user("Bob"), api.user("Carol")
    people = [alice, bob, carol]
    api.set_admin(g, alice, "creator")
    old_table = await open_table(tg, g, alice, [bob, carol], bots=1, hand_size=5, target=0)
    await tg.service.set_chat_language(key(g), f"tg:{g.id}", "en")
    for _ in range(2):
        user = await tg.wait_turn(g, people)
        assert user is not None
        await human_turn(tg, g, user)
    await tg.settle()
    before = await tg.info(g)
    hands = {u.pid: await tg.service.hand(key(g), u.pid) for u in people}
    sent_to_old = len(api.group_texts(g))

    new = api.migrate(g, by=alice)  # both service messages
    await tg.until(lambda: tg.service.cached(key(new)) is not None)
    await tg.settle()

    assert tg.service.cached(key(g)) is None
    info = await tg.info(new)
    assert info.version == before.version and info.seats == before.seats
    assert {u.pid: await tg.service.hand(key(new), u.pid) for u in people} == hands
    assert await tg.service.chat_lang(f"tg:{new.id}") == "en"
    # one fresh table message in the new chat, with the game's buttons and recent lines
    tables = tables_in(api, new)
    assert len(tables) == 1
    table = tg.table_message(new)
    assert table is tables[0] and table.has_button("Play") and table.has_button("Draw")
    assert "Bot 1" in table.text and "Carol" in table.text
    assert play_query(table).startswith(str(new.id))
    assert len(api.group_texts(g)) == sent_to_old  # nothing more tried in the old chat
    assert old_table.chat is g

    # a button pressed in the new chat works: the player whose turn it is draws
    user = await tg.wait_turn(new, people)
    assert user is not None
    version = info.version
    ans = await user.click(table, "Draw")
    assert not ans.show_alert, ans.text
    await tg.until(moved(tg, new, version))
    # an admin of the group is still one in the supergroup (the chat's admins came along)
    assert await tg.adapter.is_admin(new.id, alice.id)

    await finish_in(tg, new, people)
    assert len(tables_in(api, new)) == 1  # edited in place from then on
    assert_no_hand_in_group(api, g)
    assert_no_hand_in_group(api, new)
    no_errors(caplog)


async def test_a_send_refused_as_migrated_moves_the_game_and_late_news_changes_nothing(
    tg: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    api = tg.api
    g = api.basic_group("Cards")
    alice, bob = api.user("Alice"), api.user("Bob")
    people = [alice, bob]
    old_table = await open_table(tg, g, alice, [bob], hand_size=5, target=0)
    # Alice plays from her private chat: her hand's buttons name the old chat
    link = old_table.button("My cards")["url"]
    await alice.start_bot(link.split("start=")[1])
    await tg.until(lambda: api.bot_messages(alice.chat))
    stale_query = play_query(old_table)

    told: list[tuple[int, int]] = []
    follow = tg.adapter.migrate

    async def spy(old: int, to: int) -> None:
        await follow(old, to)
        told.append((old, to))

    tg.adapter.migrate = spy  # type: ignore[method-assign]  # the handlers' calls only
    new = api.migrate(g, notify=False)  # Telegram says nothing (yet): a send finds out

    for n in range(400):
        user = await tg.wait_turn(new if n else g, people)
        if user is None:
            break
        now = await tg.service.table(tg.adapter.current_key(key(g)))
        assert now is not None
        before = now.version
        if user is alice:
            await tg.settle()
            mine = api.bot_messages(alice.chat)[0]
            cards = [b for b in mine.buttons() if b.get("callback_data", "").count("|p")]
            others = [b for b in mine.buttons() if b["text"] != "🔄" and b not in cards]
            press = (cards or others)[0]
            ans = await alice.click(mine, data=press["callback_data"])
            assert not ans.show_alert or ans.text.startswith("Hand of"), ans.text
        elif tg.service.cached(key(new)) is None:
            # Bob still has the inline query the old table's Play button gave him
            results = await bob.inline(stale_query)
            assert results.results, "the old query finds the table where it is now"
            choice = next(r for r in results.results if not r.code.startswith("-"))
            await bob.choose(results, choice, new)
        else:
            await human_turn(tg, new, bob)
            continue
        # (the old key is gone once the table moved; the new one once the game ended)
        await tg.until(lambda b=before: moved(tg, new, b)() and tg.service.cached(key(g)) is None)
        if n == 0:
            # the first change after the upgrade was refused in the old chat: followed
            await tg.until(lambda: tg.service.cached(key(new)) is not None)
            await tg.settle()
            assert tg.service.cached(key(g)) is None
            assert len(tables_in(api, new)) == 1
            assert tg.table_message(new).has_button("Play")
            # her private hand now names the new chat
            mine = api.bot_messages(alice.chat)[0]
            data = [b["callback_data"] for b in mine.buttons() if "callback_data" in b]
            assert data and all(getattr(read(d), "token", None) == str(new.id) for d in data)
            # the service messages, arriving late, change nothing
            api.announce_migration(g, new)
            await tg.until(lambda: len(told) == 2)
            await tg.settle()
            assert len(tables_in(api, new)) == 1
    await tg.settle()
    assert told == [(g.id, new.id), (g.id, new.id)]
    final = tg.table_message(new)
    assert final.markup is None and "wins the game" in final.text
    assert len(tables_in(api, new)) == 1
    for u in people:
        mine_stats = await tg.service.player_stats(f"tg:{new.id}", u.pid)
        assert mine_stats is not None and mine_stats.games == 1
    assert_no_hand_in_group(api, g)
    assert_no_hand_in_group(api, new)
    no_errors(caplog)


async def test_the_old_chat_is_remembered_across_a_restart(tg: Harness) -> None:
    """An inline query or a button made before the upgrade still finds the table after the
    bot restarted (the moved table remembers the group it came from)."""
    api = tg.api
    g = api.basic_group("Later")
    alice, bob = api.user("Alice"), api.user("Bob")
    people = [alice, bob]
    old_table = await open_table(tg, g, alice, [bob], hand_size=5, target=0)
    stale_query = play_query(old_table)
    new = api.migrate(g, by=alice)
    await tg.until(lambda: tg.service.cached(key(new)) is not None)
    await tg.settle()
    await tg.restart()
    assert tg.adapter.current_key(key(g)) == key(new)
    user = await tg.wait_turn(new, people)
    assert user is not None
    before = (await tg.info(new)).version
    results = await user.inline(stale_query)
    assert results.results, "the old query finds the table where it is now"
    choice = next(r for r in results.results if not r.code.startswith("-"))
    await user.choose(results, choice, new)
    await tg.until(moved(tg, new, before))
    assert_no_hand_in_group(api, new)
