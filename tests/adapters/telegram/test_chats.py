"""Chats: forum topics, a Chinese group, private-chat play, settings, languages, admins."""

from __future__ import annotations

from adapters.telegram import widgets
from adapters.telegram.ids import tid_of
from adapters.telegram.text import INVALID
from bot.ui import intents as it
from bot.ui import render
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

EN = translator("en")
HANS = translator("zh_Hans")
HANT = translator("zh_Hant")


async def test_two_forum_topics_have_two_independent_tables(tg: Harness) -> None:
    api = tg.api
    forum = api.group("Forum", forum=True)
    alice, bob, carol, dan = (api.user(n) for n in ("Alice", "Bob", "Carol", "Dan"))
    t10 = await open_table(tg, forum, alice, [bob], bots=1, thread=10, hand_size=5, target=0)
    t20 = await open_table(tg, forum, carol, [dan], thread=20, hand_size=5, target=0)
    assert t10.thread == 10 and t20.thread == 20 and t10.message_id != t20.message_id
    assert play_query(t10) == f"{forum.id}_10" and play_query(t20) == f"{forum.id}_20"
    info10, info20 = await tg.info(forum, 10), await tg.info(forum, 20)
    assert {s.id for s in info10.seats} == {alice.pid, bob.pid, f"bot:{key(forum, 10)}:1"}
    assert {s.id for s in info20.seats} == {carol.pid, dan.pid}
    assert info10.scope == info20.scope == f"tg:{forum.id}"
    edits20 = len(t20.history)

    await play_out(tg, forum, [alice, bob], thread=10)
    await tg.settle()
    assert "wins the game" in tg.table_message(forum, 10).text
    # topic 20 did not move: same version, no edit, still its turn order
    assert (await tg.info(forum, 20)).version == info20.version
    assert len(tg.table_message(forum, 20).history) == edits20
    # a button of topic 20's table works there only
    user = await tg.wait_turn(forum, [carol, dan], thread=20)
    assert user is not None
    await human_turn(tg, forum, user, thread=20)
    assert (await tg.info(forum, 20)).version > info20.version
    # every message the bot sent went to its topic
    for m in api.bot_messages(forum):
        assert m.thread in (10, 20)
    assert_no_hand_in_group(api, forum)


async def test_a_group_in_simplified_chinese(tg: Harness) -> None:
    api = tg.api
    g = api.group("牌友")
    admin = api.user("小明", language_code="zh-hans")
    li = api.user("小李", language_code="zh-hans")
    sam = api.user("Sam", language_code="en")
    api.set_admin(g, admin)
    # a member who is not an admin cannot change the chat's language
    sam.started = True
    await sam.send(g, "/language zh_Hant")
    await tg.until(lambda: api.dms(sam))
    assert api.dms(sam)[-1] == EN.gettext("Only the host or a group admin can do that.")
    await admin.send(g, "/language zh_Hans")
    await tg.until(lambda: api.bot_messages(g))
    assert api.bot_messages(g)[-1].text == HANS.gettext(
        "Language: {language}", language="简体中文"
    )

    table = await open_table(
        tg, g, admin, [li, sam], start=False, lang="zh_Hans", hand_size=5, target=0
    )
    assert HANS.gettext("🎴 UNO — waiting for players") in table.text
    assert table.has_button(render.button_label("join", HANS))
    # refusals in each reader's own language, as alerts
    no_zh = await li.click(table, render.button_label("start", HANS))
    no_en = await sam.click(table, render.button_label("start", HANS))
    assert no_zh.text == HANS.gettext("Only the host or a group admin can do that.")
    assert no_en.text == EN.gettext("Only the host or a group admin can do that.")
    ans = await admin.click(table, render.button_label("start", HANS))
    assert not ans.show_alert
    await tg.settle()
    table = tg.table_message(g)
    assert HANS.gettext("🎴 UNO — round {round}", round=1) in table.text
    # personal inline results in the player's language; what gets posted, in the group's
    user = await tg.wait_turn(g, [admin, li, sam])
    assert user is not None
    results = await user.inline(play_query(table))
    tr = EN if user is sam else HANS
    assert any(tr.gettext("Draw a card") in r.title for r in results.results) or any(
        r.code.startswith("p") for r in results.results
    )
    draw = results.find(lambda r: r.code == "d")
    if draw is not None:
        assert draw.text == widgets.POSTED  # neutral, whatever the move
    # the admin switches the chat to Traditional Chinese from the menu
    await admin.send(g, "/language")
    menu = await tg.until(lambda: [m for m in api.bot_messages(g) if m.has_button("繁體中文")])
    no = await li.click(menu[0], "繁體中文")
    # not an admin: refused on the button, in her language; the chat's language stays
    assert no.show_alert and no.text == HANS.gettext("Only the host or a group admin can do that.")
    assert await tg.service.chat_lang(f"tg:{g.id}") == "zh_Hans"
    assert menu[0].has_button("繁體中文")
    yes = await admin.click(menu[0], "繁體中文")
    assert not yes.show_alert
    await tg.settle()
    assert HANT.gettext("🎴 UNO — round {round}", round=1) in tg.table_message(g).text
    await play_out(tg, g, [admin, li, sam])
    assert_no_hand_in_group(api, g)


async def test_private_chat_play_from_the_deep_link(tg: Harness) -> None:
    api = tg.api
    g = api.group("Cards")
    alice, bob = api.user("Alice"), api.user("Bob")
    table = await open_table(tg, g, alice, [bob], hand_size=5, target=0)
    link = table.button("My cards")["url"]
    assert link == f"https://t.me/{api.username}?start=h{g.id}"
    # Bob never opened the private chat: /hand in the group points him there, showing nothing
    await bob.send(g, "/hand")
    pointer = await tg.until(
        lambda: [m for m in api.bot_messages(g) if m.has_button("My cards") and m is not table]
    )
    assert pointer[0].text == EN.gettext("Open a private chat with me to see this.")
    # Alice opens the deep link: her hand, with buttons
    await alice.start_bot(link.split("start=")[1])
    hand = await tg.until(lambda: api.bot_messages(alice.chat))
    assert hand[0].text.startswith("🎴 Cards\n🃏 Your cards (5):")
    for _ in range(400):  # until the game ends (a round of 5-card hands)
        user = await tg.wait_turn(g, [alice, bob])
        if user is None:
            break
        if user is bob:
            await human_turn(tg, g, bob)
            continue
        await tg.settle()
        mine = api.bot_messages(alice.chat)[0]
        assert any(cue in mine.text for cue in ("Your turn", "You drew", "Choose", "on you")), (
            mine.text
        )  # her move: a turn, a drawn card, a colour, or a penalty to answer
        before = (await tg.info(g)).version
        cards = [b for b in mine.buttons() if b.get("callback_data", "").count("|p")]
        others = [b for b in mine.buttons() if b["text"] != "🔄" and b not in cards]
        press = (cards or others)[0]
        ans = await alice.click(mine, data=press["callback_data"])
        # no refusal; an alert may only be the hand a challenge revealed, for her alone
        assert not ans.show_alert or ans.text.startswith("Hand of"), ans.text
        await tg.until(moved(tg, g, before))
    await tg.settle()
    assert len(api.bot_messages(alice.chat)) == 1  # one private message, edited in place
    assert api.bot_messages(alice.chat)[0].markup is None  # the game ended: no buttons left
    assert_no_hand_in_group(api, g)


async def test_the_host_sets_the_rules_from_the_settings_menu(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice", started=True), api.user("Bob", started=True)
    table = await open_table(tg, g, alice, [bob], start=False)
    no = await bob.click(table, "Settings")
    assert no.show_alert and no.text == EN.gettext("Only the host or a group admin can do that.")
    ans = await alice.click(table, "Settings")
    assert not ans.show_alert
    menu = await tg.until(lambda: api.bot_messages(alice.chat))
    assert menu[0].has_button("House rules")
    # the menu is edited through the outbox, after the button is answered
    await alice.click(menu[0], "Cards dealt")
    await tg.settle()
    assert menu[0].has_button("5 cards")
    await alice.click(menu[0], "5 cards")
    await tg.settle()
    assert menu[0].has_button("✓ 5 cards")
    assert "Official rules + 1 change" in tg.table_message(g).text
    assert (await tg.info(g)).rules.hand_size == 5
    await alice.click(menu[0], "Back")
    await tg.settle()
    await alice.click(menu[0], "Party rules")
    await tg.settle()
    info = await tg.info(g)
    assert info.preset == "party" and info.rules.swap == "seven_zero"
    assert "Party rules" in tg.table_message(g).text
    await alice.click(menu[0], "Done")
    await tg.settle()
    assert menu[0].markup is None
    # /rules in the group shows them; the settings live on for the chat's next table
    await bob.send(g, "/rules")
    rules = await tg.until(lambda: [m for m in api.bot_messages(g) if "📜" in m.text])
    assert "Party rules" in rules[0].text
    # a host who never opened the private chat gets a link to it on the button
    carol = api.user("Carol")
    g2 = api.group()
    table2 = await open_table(tg, g2, carol, [bob], start=False)
    link = await carol.click(table2, "Settings")
    assert link.url == f"https://t.me/{api.username}?start=s{g2.id}"
    await carol.start_bot(f"s{g2.id}")
    menu2 = await tg.until(lambda: api.bot_messages(carol.chat))
    assert menu2[0].has_button("Official rules")


async def test_a_menu_press_acts_on_its_own_menu_only(tg: Harness) -> None:
    """Issue 19, item 9: the host (a group admin too) forges the menus' buttons onto the
    public table message mid-game: a flag's menu (``f:<token>:tg``), a value, a preset,
    Done, the chat's language, a kick. Each is refused on the button; the table message
    stays the table, and nothing changes. Settings itself still opens the menu privately,
    where the same buttons work."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice", started=True), api.user("Bob", started=True)
    api.set_admin(g, alice)
    table = await open_table(tg, g, alice, [bob], target=500)
    await tg.settle()
    info = await tg.info(g)
    text, markup = table.text, table.markup
    edits = len(api.of("editMessageText"))
    tid = tid_of(key(g))
    forged = (
        it.OpenFlag("target"),
        it.SetFlag("hand_size", 5),
        it.SetPreset("party"),
        it.CloseSettings(),
        it.Language("chat", "zh_Hans"),
        it.Kick(bob.pid),
    )
    for intent in forged:
        data = widgets.callback_data(intent, tid)
        assert data is not None, intent
        ans = await alice.click(table, data=data)
        assert ans.show_alert and ans.text == EN.gettext(INVALID), (intent, ans.text)
    await tg.settle()
    assert (table.text, table.markup) == (text, markup)
    assert len(api.of("editMessageText")) == edits
    after = await tg.info(g)
    assert (after.version, after.seats, after.lang, after.rules) == (
        info.version,
        info.seats,
        info.lang,
        info.rules,
    )
    assert api.bot_messages(alice.chat) == []
    # the menu opens privately, and there its own buttons work
    data = widgets.callback_data(it.OpenSettings(), tid)
    assert data is not None
    ans = await alice.click(table, data=data)
    assert not ans.show_alert
    menu = await tg.until(lambda: api.bot_messages(alice.chat))
    ans = await alice.click(menu[0], data=widgets.callback_data(it.OpenFlag("target"), tid))
    assert not ans.show_alert, ans.text
    await tg.settle()
    assert menu[0].text.startswith("⚙️") and menu[0].has_button("✓ 500 points")
    assert (table.text, table.markup) == (text, markup)


async def test_languages_in_the_private_chat(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    ann = api.user("Ann", language_code="en")
    bob = api.user("Bob", language_code="zh-TW")
    await open_table(tg, g, ann, [bob], start=False)
    table = tg.table_message(g)
    no = await bob.click(table, "Start")
    assert no.text == HANT.gettext("Only the host or a group admin can do that.")
    await bob.send(bob.chat, "/language")
    menu = await tg.until(lambda: [m for m in api.bot_messages(bob.chat) if m.markup])
    await bob.click(menu[0], "English")
    await tg.settle()
    assert menu[0].text == EN.gettext("Language: {language}", language="English")
    no = await bob.click(table, "Start")
    assert no.text == EN.gettext("Only the host or a group admin can do that.")
    # back to Telegram's language
    await bob.send(bob.chat, "/language")
    menu = await tg.until(lambda: [m for m in api.bot_messages(bob.chat) if m.markup])
    await bob.click(menu[-1], "As in Telegram")
    no = await bob.click(table, "Start")
    assert no.text == HANT.gettext("Only the host or a group admin can do that.")


async def test_kick_stop_and_admins(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob, carol = api.user("Alice"), api.user("Bob"), api.user("Carol", started=True)
    boss = api.user("Boss", started=True)
    dave = api.user("Dave", "Smith", username="dave_s")
    api.set_admin(g, boss)
    await open_table(tg, g, alice, [bob, carol, dave], start=False)
    await alice.send(g, "/kick @dave_s")
    await tg.until(lambda: len(tg.service.cached(key(g)).seats) == 3)
    hello = await bob.send(g, "hello")
    await alice.send(g, "/kick", reply_to=hello)
    await tg.until(lambda: len((_info := tg.service.cached(key(g))).seats) == 2)
    await tg.settle()
    assert "Bob" not in tg.table_message(g).text
    # Carol is no host nor admin: refused, privately
    await carol.send(g, "/kick 1")
    await tg.until(lambda: api.dms(carol))
    assert api.dms(carol)[-1] == EN.gettext("Only the host or a group admin can do that.")
    # an admin may kick by seat number and stop the game
    await alice.send(g, "/addbot")
    await tg.until(lambda: len(tg.service.cached(key(g)).seats) == 3)
    await boss.send(g, "/kick 2")
    await tg.until(lambda: len(tg.service.cached(key(g)).seats) == 2)
    await alice.send(g, "/start")
    await tg.until(lambda: tg.service.cached(key(g)).status == "playing")
    await carol.send(g, "/stop")
    await tg.until(lambda: len(api.dms(carol)) == 2)
    assert tg.service.cached(key(g)).status == "playing"
    await boss.send(g, "/stop")
    await tg.until(lambda: tg.service.cached(key(g)) is None)
    await tg.settle()
    final = tg.table_message(g)
    assert final.markup is None and EN.gettext("⏹ The game was stopped.") in final.text
    # refusals never went to the group
    for text in api.group_texts(g):
        assert "Only the host" not in text


async def test_help_rules_and_a_new_table_after_the_last(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await alice.send(g, "/help")
    await alice.send(g, "/rules")
    msgs = await tg.until(lambda: len(api.bot_messages(g)) >= 2 and api.bot_messages(g))
    assert any(m.text.startswith(EN.gettext("🎴 UNO — how to play")) for m in msgs)
    assert any("/new" in m.text for m in msgs)
    first = await open_table(tg, g, alice, [bob], bots=2, hand_size=5, target=0)
    await play_out(tg, g, [alice, bob])
    await tg.settle()
    second = await open_table(tg, g, bob, [alice], start=False)
    assert second.message_id != first.message_id  # a new game, a new table message
    assert tg.table_message(g).message_id == second.message_id
    assert first.markup is None


async def test_typed_commands(tg: Harness) -> None:
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice", started=True), api.user("Bob", started=True)
    await alice.send(g, "/new@uno_test_bot house")
    await tg.until(lambda: tg.service.cached(key(g)) is not None)
    assert tg.service.cached(key(g)).preset == "house"
    await bob.send(g, "/join")
    await tg.until(lambda: len(tg.service.cached(key(g)).seats) == 2)
    await bob.send(g, "/new")  # a table is open here already: told privately
    await tg.until(lambda: api.dms(bob))
    assert api.dms(bob)[-1] == EN.gettext("A table is already open here.")
    await bob.send(g, "/join")
    await tg.until(lambda: len(api.dms(bob)) == 2)
    assert api.dms(bob)[-1] == EN.gettext("You have joined already.")
    await bob.send(g, "/leave")
    await tg.until(lambda: len(tg.service.cached(key(g)).seats) == 1)
    await alice.send(g, "/start@other_bot")  # for another bot: not ours to answer
    await alice.send(g, "/start")
    await tg.until(lambda: len(api.dms(alice)) == 1)
    assert api.dms(alice)[-1] == EN.gettext("At least two players are needed to start.")
    await tg.settle()
    for text in api.group_texts(g):
        assert "already" not in text and "At least" not in text
    # in the private chat: /start alone says how to begin, /hand finds no table
    await bob.start_bot()
    await tg.until(lambda: any("/new" in t for t in api.dms(bob)))
    await bob.send(bob.chat, "/hand")
    await tg.until(lambda: api.dms(bob)[-1] == EN.gettext("You are not playing at any table."))


async def test_the_variants_are_set_from_the_settings_menu(tg: Harness) -> None:
    """Issue 14: a variant's flag is a button of the menu like any other; a combination the
    rules refuse (places with partners) is refused with its reason, in the host's language,
    and changes nothing."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice", started=True), api.user("Bob", started=True)
    table = await open_table(tg, g, alice, [bob], start=False)
    await alice.click(table, "Settings")
    menu = await tg.until(lambda: api.bot_messages(alice.chat))
    await alice.click(menu[0], "Play on for places: off")
    await tg.settle()
    await alice.click(menu[0], "on")
    await tg.settle()
    assert (await tg.info(g)).rules.places is True
    await alice.click(menu[0], "Back")
    await tg.settle()
    await alice.click(menu[0], "Partners: off")
    await tg.settle()
    no = await alice.click(menu[0], "rotating")
    assert no.show_alert
    assert no.text == EN.gettext(
        "“{flag}” cannot be combined with “{other}”.",
        flag="Play on for places",
        other="Partners",
    )
    info = await tg.info(g)
    assert info.rules.partners is False and info.rules.places is True
    await alice.click(menu[0], "Back")
    await tg.settle()
    await alice.click(menu[0], "When to call UNO: until caught")
    await tg.settle()
    await alice.click(menu[0], "with the play")
    await tg.settle()
    assert (await tg.info(g)).rules.uno_call == "with_play"
