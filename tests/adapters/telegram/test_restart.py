"""The bot process restarted mid-game on the same database: the game goes on, old buttons
and inline results work while their version is current."""

from __future__ import annotations

import asyncio
import time

from adapters.telegram.adapter import RESUMED
from adapters.telegram.inbound.presses import read
from adapters.telegram.outbound.unsent import NOTICE
from bot.service import RECENT
from bot.ui import render
from bot.ui.i18n import translator
from engine import Play, Rules
from tests.adapters.telegram.conftest import (
    Harness,
    assert_no_hand_in_group,
    human_turn,
    key,
    moved,
    open_table,
    pick,
    play_out,
    play_query,
    scenario_table,
)
from tests.fakes.telegram_api import FakeMessage

EN = translator("en")


def _data(message: FakeMessage) -> list[str]:
    return [str(b["callback_data"]) for b in message.buttons() if "callback_data" in b]


async def test_restart_mid_game(tg: Harness) -> None:
    api = tg.api
    g = api.group("Restart")
    alice, bob, carol = api.user("Alice"), api.user("Bob"), api.user("Carol")
    people = [alice, bob, carol]
    await open_table(tg, g, alice, [bob, carol], bots=1, hand_size=6, target=0)
    for _ in range(3):
        user = await tg.wait_turn(g, people)
        assert user is not None
        await human_turn(tg, g, user)
    await tg.settle()
    table = tg.table_message(g)
    stale_draw = next(
        b["callback_data"]
        for _, markup in table.history
        for row in (markup or {}).get("inline_keyboard", [])
        for b in row
        if "Draw" in b["text"]
    )  # the first Draw button the table had
    user = await tg.wait_turn(g, people)
    assert user is not None
    results = await user.inline(play_query(table))  # shown before the restart
    before = await tg.info(g)
    version = before.version
    shown = tg.table_message(g).text
    recent = render.recent_lines(before, EN)
    assert len(recent) == RECENT and shown.endswith("\n".join(recent))

    await tg.restart()  # a new service, store and adapter on the same database

    info = await tg.info(g)
    assert info.version == version and info.status == "playing"
    # the table message drawn afresh has the lines it had: they are the table's state
    assert info.recent == before.recent
    await tg.adapter.show_table(info, [])
    await tg.settle()
    assert tg.table_message(g).text == shown
    assert tg.table_message(g).message_id == table.message_id  # kept in the table's meta
    # an old button from turns ago is refused; the result shown before the restart works
    old = await user.click(table, data=stale_draw)
    assert old.show_alert
    assert old.text == EN.gettext("That button is out of date: the game has moved on.")
    await user.choose(results, pick(results), g)
    await tg.until(moved(tg, g, version))
    await tg.settle()
    assert tg.table_message(g).message_id == table.message_id
    assert len(tg.table_message(g).history) > len(table.history) - 1

    await play_out(tg, g, people)
    await tg.settle()
    final = tg.table_message(g)
    assert final.message_id == table.message_id and final.markup is None
    assert "wins the game" in final.text
    tables = [m for m in api.bot_messages(g) if m.history[0][1] is not None]
    assert len(tables) == 1  # never a second table message
    assert_no_hand_in_group(api, g)


async def _crash(tg: Harness) -> None:
    """The process dies (kill -9): what was committed is in the database, what waited in
    the outbox is lost (nothing flushed)."""
    tg.running = False
    await tg.service.stop()
    await tg.adapter.stop(flush=0)
    await tg.store.close()


async def test_a_crash_before_the_edit_went_out_is_made_good(tg: Harness) -> None:
    """Alice's winning play is committed and answered, then the process dies before the
    round's announcement (held back by Telegram's flood control) and the table edit behind
    it went out; meanwhile the next round was dealt. After the restart the table message shows the
    game as it is, with buttons that work, the announcement is made, and the turn that
    nobody saw counts from when it is shown."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await scenario_table(
        tg, g, {alice: ["R5", "R7"], bob: ["R2", "G2", "Y3"]}, "R1", rules=Rules(target=500)
    )
    k = key(g)
    assert (await tg.service.act(k, alice.pid, Play("R7", uno=True))).ok
    assert (await tg.service.act(k, bob.pid, Play("R2"))).ok
    await tg.settle()
    table = tg.table_message(g)
    seen = table.text
    # the round's result goes first (before the table edit), and Telegram holds it back
    api.fail("sendMessage", code=429, retry_after=3600, chat_id=g.id)
    ans = await alice.inline(str(g.id))
    win = ans.find(lambda r: r.code == "pR5")
    assert win is not None
    await alice.choose(ans, win, g)
    # the round is won, and the next one dealt after the pause: all committed
    await tg.until(lambda: (t := tg.service.cached(k)) and t.game and t.game.round == 2)
    await tg.until(lambda: any(c.error is not None for c in api.of("sendMessage")))
    info = await tg.info(g)
    turn = tg.service.timers.armed(k)["turn"]
    assert table.text == seen  # the chat still shows the old turn
    assert not [m for m in api.bot_messages(g) if "wins round" in m.text]
    await _crash(tg)
    calls = len(api.calls)

    await asyncio.sleep(0.5)  # the bot is down a moment
    await tg.start()  # a new process on the same database
    await tg.settle()
    after = api.calls[calls:]
    edits = [c for c in after if c.method == "editMessageText" and c.params["chat_id"] == g.id]
    assert len(edits) == 1 and edits[0].params["message_id"] == table.message_id
    table = tg.table_message(g)
    assert "round 2" in table.text and EN.gettext(RESUMED) in table.text
    # every button drawn for the version shown (the vote to end the game: none open)
    assert all(_version(d) in (info.version, None) for d in _data(table)), _data(table)
    assert any(_version(d) == info.version for d in _data(table)), _data(table)
    news = [c for c in after if c.method == "sendMessage" and c.params["chat_id"] == g.id]
    assert [c.params["text"] for c in news] == [
        EN.ngettext(
            "🏁 {player} wins round {round} and scores {n} point!",
            "🏁 {player} wins round {round} and scores {n} points!",
            info.view.scores[alice.pid] if info.view else 0,
            player="Alice",
            round=1,
        )
    ]
    # the turn nobody saw counts from the moment it was shown (armed at the commit to
    # wait for that: ``show_wait_seconds`` longer than its length)
    again = tg.service.timers.armed(k)["turn"]
    wait = tg.settings.show_wait_seconds
    assert again.version == turn.version and again.due >= turn.due - wait + 0.5
    stored = await tg.store.get_table(k)
    assert stored is not None and stored.shown == info.version
    assert all(p.version <= stored.shown for p in stored.pending)  # none left to make
    assert (await tg.info(g)).pending == ()
    # and the game goes on from that message
    user = await tg.wait_turn(g, [alice, bob])
    assert user is not None
    await human_turn(tg, g, user)
    await tg.settle()
    assert EN.gettext(RESUMED) not in tg.table_message(g).text
    # a clean restart now has nothing to catch up on
    await tg.restart()
    await tg.settle()
    assert (await tg.service.behind("tg")) == []


async def test_a_game_that_ended_unseen_is_shown_after_a_crash(tg: Harness) -> None:
    """The last card of a one-round game, then the crash: the final table and the results
    come after the restart, though the table is closed."""
    api = tg.api
    g = api.group()
    alice, bob = api.user("Alice"), api.user("Bob")
    await scenario_table(
        tg, g, {alice: ["R5", "R7"], bob: ["R2", "G2", "Y3"]}, "R1", rules=Rules(target=0)
    )
    k = key(g)
    assert (await tg.service.act(k, alice.pid, Play("R7", uno=True))).ok
    assert (await tg.service.act(k, bob.pid, Play("R2"))).ok
    await tg.settle()
    table = tg.table_message(g)
    # the results go first, and Telegram holds them back (the table edit waits behind)
    api.fail("sendMessage", code=429, retry_after=3600, chat_id=g.id)
    assert (await tg.service.act(k, alice.pid, Play("R5"))).ok
    await tg.until(
        lambda: any(
            c.error is not None and c.params.get("chat_id") == g.id for c in api.of("sendMessage")
        )
    )
    await _crash(tg)
    calls = len(api.calls)
    await tg.start()
    await tg.settle()
    after = api.calls[calls:]
    table = tg.table_message(g)
    assert table.markup is None and "Alice wins the game" in table.text
    texts = [c.params["text"] for c in after if c.method == "sendMessage"]
    assert len(texts) == 1 and "wins round 1" in texts[0] and "wins the game" in texts[0]
    assert await tg.service.behind("tg") == []


async def test_lost_replies_are_owned_up_to_once_by_the_table_or_a_notice(tg: Harness) -> None:
    """Issue 19 item 11, in-process: replies held back (flood control) when the process
    dies. A chat whose table message is shown again with the restart line is told by that
    line alone; a chat with no table gets the notice; the notice itself is owed until it
    has gone, and nothing is owed after it."""
    api = tg.api
    g, other = api.group("Table"), api.group("No table")
    alice, bob = api.user("Alice"), api.user("Bob")
    await scenario_table(tg, g, {alice: ["R5", "R7"], bob: ["R2", "G2", "Y3"]}, "R1")
    k = key(g)
    assert (await tg.service.act(k, alice.pid, Play("R7"))).ok
    await tg.settle()
    for chat in (g, other):
        api.fail("sendMessage", code=429, retry_after=3600, chat_id=chat.id)
        await alice.send(chat, "/rules")
    for chat in (g, other):  # the replies tried, refused: their lanes wait an hour
        await tg.until(
            lambda c=chat: any(  # type: ignore[misc]
                e.error is not None and e.params.get("chat_id") == c.id
                for e in api.of("sendMessage")
            )
        )
    # (a command is handled in a task of its own: only now is the move's edit sure to
    # queue behind the reply, rather than going out before it)
    assert (await tg.service.act(k, bob.pid, Play("R2"))).ok  # its edit waits behind
    marked = await tg.store.unsent("tg", time.time() + 1)
    assert {u.chat for u in marked} == {k, key(other)}
    await _crash(tg)
    await tg.start()
    await tg.settle()
    notice = EN.gettext(NOTICE)
    # (under load the restart's owed replies may still be on their way after settling)
    await tg.until(lambda: notice in api.group_texts(other), timeout=15)
    await tg.until(lambda: EN.gettext(RESUMED) in tg.table_message(g).text, timeout=15)
    await tg.settle()
    assert notice not in api.group_texts(g)
    assert api.group_texts(other).count(notice) == 1
    for _ in range(500):  # the notice gone, nothing is owed
        if not await tg.store.unsent("tg", time.time() + 1):
            break
        await asyncio.sleep(0.02)
    assert await tg.store.unsent("tg", time.time() + 1) == []


def _version(data: str) -> int | None:
    """The table version a button was drawn for (its intent's)."""
    press = read(data)
    raw = getattr(press, "raw", None)
    return getattr(raw, "version", None)
