"""Moving a chat's tables to another scope (a Telegram group upgraded to a supergroup)."""

from __future__ import annotations

import asyncio

import pytest

from bot.model import FINISHED, LOBBY, PLAYING
from bot.port import RecordingPort
from bot.service import GLOBAL, Service
from bot.store import ChatSettings, ChatUpdate, SqliteStore, StatUpdate, WriteBatch
from engine import Draw, Play, Rules, TurnTimedOut, scenario
from tests.bot.helpers import Clock, close_service, open_service, put_game, store_path
from tests.bot.service.test_service import DECK, pass_turn

BACKENDS = ("sqlite", "postgresql")

Env = tuple[Service, SqliteStore, RecordingPort]
OLD, NEW = "g:1", "g:2"


def rekey(key: str) -> str:
    """``g:1`` -> ``g:2``, ``g:1:7`` (a topic) -> ``g:2:7``."""
    parts = key.split(":")
    return ":".join(["g", "2", *parts[2:]])


def drop_msg(meta: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in meta.items() if k != "msg"}


async def game_at(svc: Service, store: SqliteStore, clock: Clock, key: str) -> None:
    g = scenario(
        {"u1": ["R5", "R6"], "u2": ["B1", "G2", "Y9"]},
        ["R1"],
        draw_pile=DECK,
        rules=Rules(target=0),
    )
    await put_game(store, key, g, clock=clock, scope=OLD)
    await svc.start(run_timers=False)


async def test_a_game_in_play_moves_with_its_deadlines_log_and_meta(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    key, topic = OLD, f"{OLD}:7"
    await game_at(svc, store, clock, key)
    assert (await svc.create(topic, OLD, "u3", "Cy")).ok  # a forum topic's lobby
    assert (await svc.act(key, "u1", Play("R5", uno=True))).ok
    await svc.set_meta(key, msg=41, dm5=9)
    before = await svc.table(key)
    assert before is not None
    log_before = await store.actions(key)
    shown = len(port.calls)

    moved = await svc.move_scope(OLD, NEW, rekey, meta=drop_msg)

    assert set(moved) == {key, topic}
    info = moved[key]
    assert (info.key, info.scope, info.status) == (NEW, NEW, PLAYING)
    assert info.version == before.version  # nothing changed in the game
    assert info.meta == {"dm5": 9}  # the adapter's message of the old chat is gone
    assert moved[topic].key == f"{NEW}:7" and moved[topic].status == LOBBY
    assert len(port.calls) == shown  # the adapter shows the moved tables itself
    # nothing is left at the old keys, in memory or in the database
    assert await svc.table(key) is None and await store.get_table(key) is None
    assert await store.table_keys(OLD) == []
    assert await store.table_keys(NEW) == [NEW, f"{NEW}:7"]
    assert set(svc.open_tables()) == {NEW, f"{NEW}:7"}
    assert svc.timers.armed(key) == {} and svc.timers.armed(topic) == {}
    assert set(svc.timers.armed(NEW)) == {"turn"}
    assert set(svc.timers.armed(f"{NEW}:7")) == {"lobby"}
    # the log moved too, and still replays the game
    log_after = await store.actions(NEW)
    assert [(r.version, r.action) for r in log_after] == [
        (r.version, r.action) for r in log_before
    ]
    assert await store.actions(key) == []
    # the game goes on at the new key: the move, and the turn deadline firing there
    assert (await svc.act(NEW, "u2", Draw())).ok
    clock.advance(120)
    assert await svc.timers.run_due(clock()) >= 1
    events = [e for _, evs in port.of("table") for e in evs]
    assert any(isinstance(e, TurnTimedOut) for e in events)
    t = await svc.table(NEW)
    assert t is not None and t.version > info.version
    assert len(await store.actions(NEW)) == len(log_before) + 2
    # the old key is an empty place now: buttons there find no table
    assert not (await svc.act(key, "u1", Draw())).ok


async def test_a_deadline_due_at_the_old_key_does_nothing(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, _ = env
    await game_at(svc, store, clock, OLD)
    clock.advance(120)
    fired = svc.timers.due(clock())  # handed out just before the move ...
    assert [k for k, _ in fired] == [OLD]
    await svc.move_scope(OLD, NEW, rekey)
    await svc._fire(*fired[0])  # ... it finds no table there
    t = await svc.table(NEW)
    assert t is not None and t.version == 1
    assert await svc.timers.run_due(clock()) == 1  # it fires at the new key instead
    t = await svc.table(NEW)
    assert t is not None and t.version > 1


async def test_settings_move_and_statistics_add_up(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, _ = env
    await store.write(
        WriteBatch(
            chat_settings=[ChatUpdate(OLD, "house", {"uno_penalty": 4}, "zh_Hant")],
            stats=[
                StatUpdate(OLD, "u1", "Ann", games=2, wins=1, points=50, cards_played=9),
                StatUpdate(OLD, "u2", "Bob", games=1, rounds_won=1),
                StatUpdate(NEW, "u1", "Annie", games=1, wins=1, points=10, cards_played=3),
                StatUpdate(GLOBAL, "u1", "Ann", games=3, wins=2),
            ],
        )
    )
    assert await svc.move_scope(OLD, NEW, rekey) == {}  # no table: settings and stats only
    assert await store.chat_settings(NEW) == ChatSettings("house", {"uno_penalty": 4}, "zh_Hant")
    assert await store.chat_settings(OLD) == ChatSettings()
    u1 = await store.player_stats(NEW, "u1")
    assert u1 is not None
    assert (u1.name, u1.games, u1.wins, u1.points, u1.cards_played) == ("Annie", 3, 2, 60, 12)
    u2 = await store.player_stats(NEW, "u2")
    assert u2 is not None and (u2.games, u2.rounds_won) == (1, 1)
    assert await store.leaderboard(OLD) == []
    everywhere = await store.player_stats(GLOBAL, "u1")
    assert everywhere is not None and everywhere.games == 3  # not counted twice

    # idempotent: a second call (the other service message, a failed send) adds nothing
    assert await svc.move_scope(OLD, NEW, rekey) == {}
    again = await store.player_stats(NEW, "u1")
    assert again == u1
    assert await store.chat_settings(NEW) == ChatSettings("house", {"uno_penalty": 4}, "zh_Hant")


async def test_the_new_chats_own_settings_win(env: Env, store: SqliteStore) -> None:
    svc, _, _ = env
    await store.write(
        WriteBatch(
            chat_settings=[
                ChatUpdate(OLD, "house", {"uno_penalty": 4}, "zh_Hant"),
                ChatUpdate(NEW, lang="en"),
            ]
        )
    )
    await svc.move_scope(OLD, NEW, rekey)
    # the new chat chose a language: kept; it set no rules: the old chat's
    assert await store.chat_settings(NEW) == ChatSettings("house", {"uno_penalty": 4}, "en")
    await store.write(WriteBatch(chat_settings=[ChatUpdate("g:3", "party", {})]))
    await store.write(WriteBatch(chat_settings=[ChatUpdate("g:4", "official", {"jump_in": True})]))
    await svc.move_scope("g:3", "g:4", lambda k: "g:4")
    assert await store.chat_settings("g:4") == ChatSettings("official", {"jump_in": True}, None)


async def test_a_second_move_is_a_no_op(env: Env, store: SqliteStore, clock: Clock) -> None:
    svc, _, _ = env
    await game_at(svc, store, clock, OLD)
    first, second = await asyncio.gather(
        svc.move_scope(OLD, NEW, rekey), svc.move_scope(OLD, NEW, rekey)
    )
    assert sorted([list(first), list(second)]) == [[], [OLD]]
    assert await svc.move_scope(OLD, NEW, rekey) == {}
    t = await svc.table(NEW)
    assert t is not None and t.version == 1 and t.scope == NEW
    assert set(svc.timers.armed(NEW)) == {"turn"}
    assert await store.table_keys(NEW) == [NEW]


async def test_finished_tables_move_and_new_tables_are_not_overwritten(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, _ = env
    await game_at(svc, store, clock, OLD)
    assert (await svc.act(OLD, "u1", Play("R5", uno=True))).ok
    await pass_turn(svc, OLD, "u2")
    res = await svc.act(OLD, "u1", Play("R6"))
    assert res.ok and res.table is not None and res.table.status == FINISHED
    assert (await svc.create(f"{OLD}:3", OLD, "u1", "Ann")).ok
    assert (await svc.create(f"{NEW}:3", NEW, "u2", "Bob")).ok  # opened in the new chat
    moved = await svc.move_scope(OLD, NEW, rekey)
    assert set(moved) == {OLD}  # the finished table moved; the topic's lobby stayed
    assert moved[OLD].status == FINISHED
    kept = await svc.table(f"{NEW}:3")
    assert kept is not None and kept.host == "u2"
    left = await svc.table(f"{OLD}:3")
    assert left is not None and left.status == LOBBY
    stats = await store.player_stats(NEW, "u1")
    assert stats is not None and stats.wins == 1


async def test_an_open_game_replaces_a_closed_table_at_the_new_key(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    """A lobby once stopped in the new chat must not strand the game moving in."""
    svc, _, _ = env
    await game_at(svc, store, clock, OLD)
    assert (await svc.create(NEW, NEW, "u9", "Zed")).ok
    assert (await svc.stop_game(NEW, "u9")).ok
    closed = await svc.table(NEW)
    assert closed is not None and closed.status not in (LOBBY, PLAYING)
    before = await svc.table(OLD)
    assert before is not None
    moved = await svc.move_scope(OLD, NEW, rekey)
    assert set(moved) == {OLD}
    now = await svc.table(NEW)
    assert now is not None and now.status == PLAYING and now.version == before.version
    assert await svc.table(OLD) is None
    assert (await svc.act(NEW, "u1", Play("R5", uno=True))).ok  # and play goes on


async def test_bot_seats_added_after_a_move_are_named_apart(env: Env, store: SqliteStore) -> None:
    svc, _, _ = env
    assert (await svc.create(OLD, OLD, "u1", "Ann")).ok
    assert (await svc.add_bot(OLD, "u1")).ok
    await svc.move_scope(OLD, NEW, rekey)
    assert (await svc.add_bot(NEW, "u1")).ok
    t = await svc.table(NEW)
    assert t is not None
    assert [s.id for s in t.seats] == ["u1", f"bot:{OLD}:1", f"bot:{NEW}:2"]
    assert [s.name for s in t.seats][1:] == ["Bot 1", "Bot 2"]


async def test_a_moved_table_comes_back_after_a_restart(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, _ = env
    await game_at(svc, store, clock, OLD)
    await svc.move_scope(OLD, NEW, rekey)
    await close_service(svc, store)  # a restart
    svc2, store2, _ = await open_service(store_path(store), clock)
    try:
        assert svc2.open_tables() == [NEW]
        assert set(svc2.timers.armed(NEW)) == {"turn"}
        assert (await svc2.act(NEW, "u1", Play("R5", uno=True))).ok
    finally:
        await close_service(svc2, store2)


@pytest.mark.parametrize("language_first", [False, True])
async def test_a_language_set_as_the_chat_moves_follows_it(
    env: Env, store: SqliteStore, clock: Clock, language_first: bool
) -> None:
    """Whichever comes first, the chat's language set from the old chat while it moves ends
    up the new chat's (the two never interleave)."""
    svc, _, _ = env
    await game_at(svc, store, clock, OLD)
    move = svc.move_scope(OLD, NEW, rekey)
    lang = svc.set_chat_language(OLD, OLD, "zh_Hant")
    await asyncio.gather(*((lang, move) if language_first else (move, lang)))
    assert await svc.chat_lang(NEW) == "zh_Hant"
    info = await svc.table(NEW)
    assert info is not None and info.lang == "zh_Hant"
    await svc.set_chat_language(OLD, OLD, "zh_Hans")  # a late command from the old chat
    assert await svc.chat_lang(NEW) == "zh_Hans"
