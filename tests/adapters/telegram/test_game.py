"""Whole games in a group: three people and a bot seat, played through the fake Bot API."""

from __future__ import annotations

import re
from pathlib import Path

from bot.ui.i18n import translator
from engine import Phase
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
from tests.fakes.telegram_api import NOT_MODIFIED, FakeBotAPI

EN = translator("en")


async def test_a_whole_game_reaches_a_winner(tg: Harness) -> None:
    api = tg.api
    g = api.group("Friends")
    alice, bob, carol = api.user("Alice"), api.user("Bob", "Builder"), api.user("Carol")
    people = [alice, bob, carol]
    table = await open_table(tg, g, alice, [bob, carol], bots=1, hand_size=5, target=0)
    assert "Bot 1" in table.text and "Bob Builder" in table.text
    assert table.has_button("Play") and table.has_button("Draw")

    turns = await play_out(tg, g, people)
    await tg.settle()
    assert turns > 0

    final = tg.table_message(g)
    assert final.markup is None  # the last edit drops the buttons
    assert "wins the game" in final.text
    t = await tg.store.get_table(key(g))
    assert t is not None and t.status == "finished" and t.game is not None
    winner = t.game.winner
    assert winner is not None

    # the group got one table message, edited in place, and one announcement
    group = api.bot_messages(g)
    assert group[0] is final
    assert len(group) == 2, [m.text for m in group]
    assert "wins the game" in group[1].text
    assert len(final.history) > 5
    # nobody was refused anything; every inline answer was personal and uncached
    for u in people:
        assert api.alerts(u) == []
    answers = list(api.inline_answers.values())
    assert answers and all(a.is_personal and a.cache_time == 0 for a in answers)
    # what each person posted by choosing a result names a move, never a hand
    assert_no_hand_in_group(api, g)

    # statistics: here and everywhere, and the leaderboard
    await alice.send(g, "/stats")
    await alice.send(g, "/leaderboard")
    stats = await tg.until(lambda: [m for m in api.bot_messages(g) if "Games played" in m.text])
    assert "Games played: 1" in stats[0].text
    board = await tg.until(lambda: [m for m in api.bot_messages(g) if "Leaderboard" in m.text])
    names = {p.pid: p.first_name for p in people}
    if winner in names:
        assert names[winner] in board[0].text


async def test_commands_are_registered_in_english_and_chinese(tg: Harness) -> None:
    api = tg.api
    en = {c["command"]: c["description"] for c in api.commands[None]}
    zh = {c["command"]: c["description"] for c in api.commands["zh"]}
    expected = {
        "new",
        "join",
        "start",
        "leave",
        "kick",
        "stop",
        "hand",
        "rules",
        "settings",
        "stats",
        "leaderboard",
        "rank",
        "top",
        "language",
        "cards",  # Telegram's own: stickers or text (issue 19 item 5)
        "addbot",
        "help",
    }
    assert set(en) == set(zh) == expected
    assert en["new"] == "open a table in this chat"
    assert zh["new"] == translator("zh_Hans").gettext("open a table in this chat")
    assert zh["new"] != en["new"]


async def test_a_non_player_pressing_draw_is_refused_privately(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob, eve = api.user("Alice"), api.user("Bob"), api.user("Eve")
    table = await open_table(tg, g, alice, [bob])
    before = len(api.group_texts(g))
    ans = await eve.click(table, "Draw")
    assert ans.show_alert
    assert ans.text == EN.gettext("You are not playing in this game.")
    await tg.settle()
    assert len(api.group_texts(g)) == before  # nothing said in the group


async def test_a_draw_pressed_once_the_game_is_stopped_is_refused_privately(
    tg: Harness,
) -> None:
    """The service refuses a move at a table no longer open (the adapter reads no table
    first): said on the button alone, nothing changed."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    table = await open_table(tg, g, alice, [bob])
    draw = table.button("Draw")["callback_data"]
    await alice.send(g, "/stop")
    await tg.until(lambda: key(g) not in tg.service.open_tables())
    await tg.settle()
    stopped = await tg.store.get_table(key(g))
    assert stopped is not None and stopped.status != "playing"
    before = len(api.group_texts(g))
    ans = await bob.click(table, data=draw)
    assert ans.show_alert and ans.text == EN.gettext("There is no open table here.")
    await tg.settle()
    after = await tg.store.get_table(key(g))
    assert after is not None and after.version == stopped.version
    assert len(api.group_texts(g)) == before


async def test_stale_and_forged_buttons_are_refused_privately(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await open_table(tg, g, alice, [bob], hand_size=7)
    table = tg.table_message(g)
    old_draw = table.button("Draw")["callback_data"]
    first = await tg.wait_turn(g, [alice, bob])
    assert first is not None
    await human_turn(tg, g, first)
    await tg.settle()
    second = await tg.wait_turn(g, [alice, bob])
    assert second is not None and second is not first

    # the old Draw button of the previous turn, pressed by the player whose turn it is now
    ans = await second.click(table, data=old_draw)
    assert ans.show_alert
    assert ans.text == EN.gettext("That button is out of date: the game has moved on.")

    # forged data: nonsense, a table in another chat, a card code that is no card
    tid = str(g.id)
    for data in ("hello", "a|-100999|1|d", f"a|{tid}|1|pXX", f"zz|{tid}", f"a|{tid}"):
        ans = await second.click(table, data=data)
        assert ans.show_alert and ans.text == EN.gettext("This button is not valid."), data
    # well-formed, but a card they do not hold: the engine says so
    info = await tg.info(g)
    view = await tg.service.hand(key(g), second.pid)
    assert view is not None and view.hand is not None
    missing = next(c for c in ("R0", "Y0", "G0", "B0") if c not in {x.code for x in view.hand})
    ans = await second.click(table, data=f"a|{tid}|{info.version}|p{missing}")
    assert ans.show_alert and ans.text == EN.gettext("You do not have that card.")
    # a stale inline result is refused in the private chat (results cannot be answered)
    second.started = True
    stale = await second.inline(play_query(table))
    await human_turn(tg, g, second)
    await tg.settle()
    old = stale.results[0]
    await second.choose(stale, old, g)
    await tg.until(lambda: api.dms(second))
    assert any(
        EN.gettext("That button is out of date: the game has moved on.") in t
        or EN.gettext("It is not your turn.") in t
        for t in api.dms(second)
    )
    await tg.settle()
    assert_no_hand_in_group(api, g)
    for text in api.group_texts(g):
        assert "out of date" not in text and "not valid" not in text


async def test_rounds_are_announced_and_the_next_round_button_deals(
    api: FakeBotAPI, tmp_path: Path
) -> None:
    tg = Harness(api, tmp_path / "uno.sqlite3", overrides={"round_pause_seconds": 600})
    await tg.start()
    try:
        g = api.group()
        alice, bob = api.user("Alice"), api.user("Bob")
        await open_table(tg, g, alice, [bob], hand_size=3, target=10_000)
        for _ in range(300):
            user = await tg.wait_turn(g, [alice, bob], timeout=2)
            if user is None:
                break
            await human_turn(tg, g, user)
            info = await tg.info(g)
            if info.view is not None and info.view.phase is Phase.ROUND_OVER:
                break
        await tg.settle()
        table = tg.table_message(g)
        assert "Scores after round 1:" in table.text
        assert table.labels() == ["⏭ Next round"]
        news = [m for m in api.bot_messages(g) if m is not table]
        assert len(news) == 1 and news[0].text.startswith("🏁 ")
        assert re.fullmatch(r"🏁 (Alice|Bob) wins round 1 and scores \d+ points?!", news[0].text)
        # said once, in one wording: in no version of the table message
        said = [t for t in api.group_texts(g) if "wins" in t or "goes to" in t]
        assert said == [news[0].text]
        assert "🥈" not in table.text  # the loser scored nothing: no medal
        # someone at the table deals the next round; an onlooker cannot
        eve = api.user("Eve")
        no = await eve.click(table, "Next round")
        assert no.show_alert
        ans = await bob.click(table, "Next round")
        assert not ans.show_alert, ans.text
        await tg.settle()
        assert "round 2" in tg.table_message(g).text
    finally:
        await tg.stop()


async def test_a_whole_game_sends_no_edit_that_changes_nothing(tg: Harness) -> None:
    """Two players follow the game in their private chat, one plays inline, a bot seat
    too: every hand and table edit changes something (Telegram refuses the others with
    "message is not modified"), also when a player presses 🔄 on a hand that is current."""
    api = tg.api
    g = api.group("Cards")
    alice, bob, carol = api.user("Alice"), api.user("Bob"), api.user("Carol")
    table = await open_table(tg, g, alice, [bob, carol], bots=1, hand_size=6, target=0)
    link = table.button("My cards")["url"].split("start=")[1]
    for user in (alice, carol):
        await user.start_bot(link)
        await tg.until(lambda u=user: api.bot_messages(u.chat))
    refreshed = 0
    for _ in range(400):
        user = await tg.wait_turn(g, [alice, bob, carol])
        if user is None:
            break
        if user is bob:
            await human_turn(tg, g, bob)
            continue
        await tg.settle()
        mine = api.bot_messages(user.chat)[0]
        if refreshed < 3:  # nothing changed since it was drawn: no edit goes out
            n = len(api.of("editMessageText"))
            assert not (await user.click(mine, "🔄")).show_alert
            await tg.settle()
            assert len(api.of("editMessageText")) == n
            refreshed += 1
        before = (await tg.info(g)).version
        cards = [b for b in mine.buttons() if b.get("callback_data", "").count("|p")]
        others = [b for b in mine.buttons() if b["text"] != "🔄" and b not in cards]
        ans = await user.click(mine, data=(cards or others)[0]["callback_data"])
        assert not ans.show_alert or ans.text.startswith("Hand of"), ans.text
        await tg.until(moved(tg, g, before))
    await tg.settle()
    assert "wins the game" in tg.table_message(g).text
    edits = api.of("editMessageText")
    assert len(edits) > 20
    refused = [c for c in api.calls if c.error is not None]
    assert [c.error.description for c in refused if c.error is not None] == []
    assert NOT_MODIFIED.startswith("Bad Request: message is not modified: specified new")
