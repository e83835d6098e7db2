"""Issue 22 on Telegram, through the fake Bot API and the real PTB: the table's vote to end
a stuck game (its count on the button and the table, the refusals as alerts on the
button: twice, not playing, a lapsed vote), and the autopilot from the private hand's
buttons and from the inline menu."""

from __future__ import annotations

import pytest

from bot import presence
from bot.model import PLAYING, STOPPED
from bot.ui.i18n import translator
from tests.adapters.telegram.conftest import Harness, human_turn, open_table

EN = translator("en")
HAND = "🃏 Your cards"


async def test_the_players_vote_to_end_the_game_on_the_table(tg: Harness) -> None:
    api = tg.api
    g = api.group("Friends")
    alice, bob, carol, dave = (api.user(n) for n in ("Alice", "Bob", "Carol", "Dave"))
    table = await open_table(tg, g, alice, [bob, carol], bots=1)
    await tg.settle()
    assert table.has_button("🗳 End the game")
    ans = await bob.click(table, "End the game")
    assert not ans.show_alert, ans.text
    await tg.until(lambda: "(1/2)" in " ".join(table.labels()))
    await tg.settle()
    assert "🗳 Vote to end the game: 1 of 2 votes." in table.text
    assert any("Bob votes to end the game" in t for t in api.group_texts(g))
    # refused, as an alert on the button, and nothing changes
    version = (await tg.info(g)).version
    twice = await bob.click(table, "End the game")
    assert twice.show_alert and twice.text == "You have voted already: the others decide now."
    stranger = await dave.click(table, "End the game")
    assert stranger.show_alert
    assert stranger.text == "Only the people playing this game can vote to end it."
    assert (await tg.info(g)).version == version
    # a second of the three: the game ends, counted for nobody, its buttons gone
    assert not (await carol.click(table, "End the game")).show_alert
    await tg.until(lambda: not table.buttons())
    info = await tg.info(g)
    assert info.status == STOPPED and info.view is not None and info.view.winner is None
    assert any("The players voted to end the game" in t for t in api.group_texts(g))


async def test_a_lapsed_votes_button_is_refused(
    tg: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(presence, "VOTE_SECONDS", 0.5)
    api = tg.api
    g = api.group("Friends")
    alice, bob, carol = (api.user(n) for n in ("Alice", "Bob", "Carol"))
    table = await open_table(tg, g, alice, [bob, carol], turn_seconds=3600)
    await tg.settle()
    assert not (await alice.click(table, "End the game")).show_alert
    await tg.until(lambda: "(1/2)" in " ".join(table.labels()))
    old = table.button("End the game")["callback_data"]
    await tg.until(lambda: any("vote to end the game ran out" in t for t in api.group_texts(g)))
    await tg.until(lambda: "(1/2)" not in " ".join(table.labels()))
    ans = await bob.click(table, data=old)
    assert ans.show_alert and ans.text == EN.gettext(
        "That vote has ended. Press “End the game” again to open a new one."
    )
    assert (await tg.info(g)).status == PLAYING and (await tg.info(g)).vote is None


async def test_play_for_me_from_the_private_hand_and_back(tg: Harness) -> None:
    api = tg.api
    g = api.group("Friends")
    alice, bob = api.user("Alice", started=True), api.user("Bob")
    await open_table(tg, g, alice, [bob], turn_seconds=3600)
    await alice.send(alice.chat, "/hand")
    hands = await tg.until(lambda: [m for m in api.bot_messages(alice.chat) if HAND in m.text])
    hand = hands[-1]
    assert "🤖 Play for me" in hand.labels()
    assert not (await alice.click(hand, "Play for me")).show_alert
    await tg.until(lambda: hand.has_button("Take my seat back"))
    await tg.settle()
    assert any("Alice hands their seat to the autopilot." in t for t in api.group_texts(g))
    assert alice.pid in (await tg.info(g)).autopilot
    assert "🤖 (autopilot)" in tg.table_message(g).text or (await tg.current(g)) != alice.pid
    # the autopilot plays Alice's turns; Bob plays his
    for _ in range(3):
        user = await tg.wait_turn(g, [bob])
        if user is None:
            break
        await human_turn(tg, g, bob)
    back = hand.button("Take my seat back")["callback_data"]
    assert not (await alice.click(hand, data=back)).show_alert
    await tg.until(lambda: hand.has_button("Play for me"))
    await tg.until(
        lambda: any("Alice is back and plays their own seat." in t for t in api.group_texts(g))
    )
    again = await alice.click(hand, data=back)  # a double click: refused, nothing changes
    assert again.show_alert and again.text == "You are playing your seat already."
    assert (await tg.info(g)).autopilot == ()


async def test_play_for_me_from_the_inline_menu(tg: Harness) -> None:
    api = tg.api
    g = api.group("Friends")
    alice, bob = api.user("Alice"), api.user("Bob")
    await open_table(tg, g, alice, [bob], turn_seconds=3600)
    query = await tg.play_query(g)
    ans = await bob.inline(query)
    pilot = next(r for r in ans.results if r.code == "P1")
    assert pilot.title == "🤖 Play for me"
    await bob.choose(ans, pilot, g)
    await tg.until(lambda: bool(tg.service.cached(f"tg:{g.id}").autopilot))
    ans = await bob.inline(query)
    assert [r.title for r in ans.results if r.code == "P0"] == ["✋ Take my seat back"]
    back = next(r for r in ans.results if r.code == "P0")
    await bob.choose(ans, back, g)
    await tg.until(lambda: not tg.service.cached(f"tg:{g.id}").autopilot)
