"""The table service: lifecycle, timers, bots, statistics, settings and the action log.

Time is a fake clock; timers are fired with ``service.timers.run_due`` (no sleeps)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from bot.model import FINISHED, LOBBY, PLAYING, STOPPED
from bot.port import Notice, RecordingPort
from bot.service import GLOBAL, Result, Service
from bot.store import ChatSettings, ChatUpdate, SqliteStore, WriteBatch
from bot.ui.i18n import translator
from bot.ui.render import notice_text
from engine import (
    CallUno,
    CardsDrawn,
    CatchUno,
    Draw,
    NextRound,
    Pass,
    Phase,
    Play,
    PlayerJoined,
    PlayerLeft,
    RoundStarted,
    Rules,
    TurnTimedOut,
    UnoWindowClosed,
    scenario,
)
from tests.bot.helpers import (
    Clock,
    close_service,
    drive,
    game_json,
    open_service,
    put_game,
    replay,
    store_path,
)

BACKENDS = ("sqlite", "postgresql")

Env = tuple[Service, SqliteStore, RecordingPort]
KEY = "t:chat:1"
DECK = ["G5", "B7", "Y8", "R2", "G3", "B4", "Y6", "R7", "G9", "B2", "Y1", "R9"] * 3


def tells(port: RecordingPort, user: str) -> list[str]:
    return [n.code for _, u, n in port.of("tell") if u == user]


def told(res: Result) -> list[str]:
    """What a call's caller is to be told (``Result.told``): theirs to answer, never the
    port's to tell."""
    return [n.code for n in res.told]


def notices(port: RecordingPort) -> list[Notice]:
    """Announcements, without the display names they carry (checked separately)."""
    out = []
    for _, n in port.of("announce"):
        params = {k: v for k, v in n.params.items() if k != "name"}
        out.append(Notice(n.code, params))
    return out


def events(port: RecordingPort) -> list[Any]:
    return [e for _, evs in port.of("table") for e in evs]


async def lobby(svc: Service, humans: int = 2, bots: int = 0, key: str = KEY) -> None:
    assert (await svc.create(key, "chat", "u1", "Ann")).ok
    for i in range(2, humans + 1):
        assert (await svc.join(key, f"u{i}", f"User {i}")).ok
    for _ in range(bots):
        assert (await svc.add_bot(key, "u1", "smart")).ok


async def pass_turn(svc: Service, key: str, player: str) -> None:
    """``player`` draws, and passes if the drawn card left the turn with them."""
    assert (await svc.act(key, player, Draw())).ok
    view = await svc.hand(key, player)
    assert view is not None
    if view.current == player:
        assert (await svc.act(key, player, Pass())).ok


# -- lobby ----------------------------------------------------------------------------------


async def test_create_seats_the_host_and_arms_the_lobby_timer(env: Env, clock: Clock) -> None:
    svc, store, port = env
    res = await svc.create(KEY, "chat", "u1", "Ann", lang="zh_Hans")
    assert res.ok and res.table is not None
    t = res.table
    assert (t.status, t.host, t.version, t.lang) == (LOBBY, "u1", 1, "zh_Hans")
    assert [s.id for s in t.seats] == ["u1"]
    assert svc.timers.armed(KEY)["lobby"].due == clock() + 600
    stored = await store.get_table(KEY)
    assert stored is not None and stored.version == 1 and stored.deadline("lobby") is not None
    assert port.of("table")  # the lobby was shown

    again = await svc.create(KEY, "chat", "u2", "Bob")
    assert not again.ok and again.code == "table_exists"
    assert told(again) == ["table_exists"] and tells(port, "u2") == []


async def test_rules_of_the_open_table_else_the_chats_defaults(env: Env) -> None:
    """/rules on every platform: the open table's rules, else the chat's saved defaults, else
    the official rules when those saved defaults are no longer valid."""
    svc, store, _ = env
    assert await svc.rules_of(KEY, "chat") == (engine.Rules.preset("official"), "official")
    await store.write(WriteBatch(chat_settings=[ChatUpdate("chat", "house", {"uno_penalty": 4})]))
    assert await svc.rules_of(KEY, "chat") == (
        engine.Rules.preset("house", uno_penalty=4),
        "house",
    )
    res = await svc.create(KEY, "chat", "u1", "Ann", preset="party", overrides={"target": 200})
    info = await svc.table(KEY)
    assert res.ok and info is not None and info.rules.target == 200
    assert await svc.rules_of(KEY, "chat") == (info.rules, "party")
    await store.write(WriteBatch(chat_settings=[ChatUpdate("other", "house", {"no_such": 1})]))
    assert await svc.rules_of("t:other:1", "other") == (engine.Rules(), "official")


async def test_create_without_seating_the_host(env: Env) -> None:
    svc, _, _ = env
    res = await svc.create(KEY, "chat", "h", "Host", seat_host=False)
    assert res.ok and res.table is not None and res.table.seats == ()


async def test_create_refuses_bad_rules_it_was_given(env: Env) -> None:
    svc, _, port = env
    res = await svc.create(KEY, "chat", "u1", "Ann", overrides={"stacking": "sideways"})
    assert res.code == "bad_setting" and "stacking" in res.params["detail"]
    assert res.told == (Notice("bad_setting", res.params),)
    assert await svc.table(KEY) is None
    res = await svc.create(KEY, "chat", "u1", "Ann", preset="chaos")
    assert res.code == "bad_setting" and told(res) == ["bad_setting"]
    assert port.of("tell") == []


async def test_join_and_leave_in_the_lobby(env: Env) -> None:
    svc, _, port = env
    await lobby(svc, humans=2)
    res = await svc.join(KEY, "u2", "Bob")
    assert res.code == "already_joined" and told(res) == ["already_joined"]
    assert tells(port, "u2") == []
    assert (await svc.leave(KEY, "u2")).ok
    info = await svc.table(KEY)
    assert info is not None and [s.id for s in info.seats] == ["u1"]
    assert (await svc.leave(KEY, "u2")).code == "not_seated"
    assert (await svc.join(KEY, "u2", "Bob")).ok  # and back again


async def test_ten_seats_at_most(env: Env) -> None:
    svc, _, _ = env
    await lobby(svc, humans=8, bots=2)
    assert (await svc.join(KEY, "u11", "Eleven")).code == "table_full"
    assert (await svc.add_bot(KEY, "u1")).code == "table_full"


async def test_host_leaving_hands_the_table_on(env: Env) -> None:
    svc, _, port = env
    await lobby(svc, humans=3, bots=1)
    res = await svc.leave(KEY, "u1")
    assert res.ok and res.table is not None and res.table.host == "u2"
    assert Notice("info.new_host", {"player": "u2"}) in notices(port)


async def test_last_person_leaving_closes_the_lobby(env: Env) -> None:
    svc, store, port = env
    await lobby(svc, humans=1, bots=2)
    res = await svc.leave(KEY, "u1")
    assert res.ok and res.table is not None and res.table.status == STOPPED
    assert Notice("info.closed_empty") in notices(port)
    assert port.of("closed")
    assert svc.open_tables() == [] and svc.timers.armed(KEY) == {}
    stored = await store.get_table(KEY)
    assert stored is not None and stored.status == STOPPED and stored.deadlines == ()


async def test_kick_by_host_by_admin_and_refused_for_others(env: Env) -> None:
    svc, _, port = env
    await lobby(svc, humans=4)
    res = await svc.kick(KEY, "u2", "u3")
    assert res.code == "not_host" and told(res) == ["not_host"] and tells(port, "u2") == []
    assert (await svc.kick(KEY, "u1", "u3")).ok
    assert (await svc.kick(KEY, "u2", "u4", admin=True)).ok  # a chat admin, as reported
    assert (await svc.kick(KEY, "u1", "nobody")).code == "not_seated"
    info = await svc.table(KEY)
    assert info is not None and [s.id for s in info.seats] == ["u1", "u2"]
    assert Notice("info.kicked", {"player": "u3"}) in notices(port)


async def test_add_and_remove_bots(env: Env) -> None:
    svc, _, _ = env
    await lobby(svc, humans=2)
    assert (await svc.add_bot(KEY, "u2")).code == "not_host"
    assert (await svc.add_bot(KEY, "u2", "random", admin=True)).ok
    assert (await svc.add_bot(KEY, "u1", "no-such-strategy")).ok  # falls back to smart
    info = await svc.table(KEY)
    assert info is not None
    bots = [s for s in info.seats if s.bot is not None]
    assert [(s.name, s.bot) for s in bots] == [("Bot 1", "random"), ("Bot 2", "smart")]
    assert (await svc.kick(KEY, "u1", bots[0].id)).ok  # a bot seat is removed by a kick
    info = await svc.table(KEY)
    assert info is not None and [s.bot for s in info.seats] == [None, None, "smart"]
    assert (await svc.add_bot(KEY, "u1")).ok  # the free number is used again
    info = await svc.table(KEY)
    assert info is not None and {s.name for s in info.seats if s.bot} == {"Bot 1", "Bot 2"}


async def test_a_bot_added_without_a_strategy_plays_the_operators_default(
    tmp_path: Path, clock: Clock
) -> None:
    """``UNO_DEFAULT_BOT``: the table's bot button and ``/addbot`` name no strategy; the
    seat plays the operator's default (``smart`` unless set), as does a name that is no
    strategy; one named is kept."""
    for default in ("smart", "expert"):
        svc, store, _ = await open_service(tmp_path / f"{default}.sqlite3", clock,
                                           default_bot=default)  # fmt: skip
        try:
            await lobby(svc, humans=1)
            assert (await svc.add_bot(KEY, "u1")).ok
            assert (await svc.add_bot(KEY, "u1", "no-such-strategy")).ok
            assert (await svc.add_bot(KEY, "u1", "basic")).ok
            info = await svc.table(KEY)
            assert info is not None
            assert [s.bot for s in info.seats] == [None, default, default, "basic"]
        finally:
            await close_service(svc, store)


async def test_configure_in_the_lobby(env: Env, store: SqliteStore) -> None:
    svc, _, port = env
    await lobby(svc, humans=2)
    assert (await svc.configure(KEY, "u2", preset="house")).code == "not_host"
    res = await svc.configure(KEY, "u1", preset="house", overrides={"uno_penalty": 4})
    assert res.ok and res.table is not None
    assert res.table.rules == Rules.preset("house", uno_penalty=4)
    assert res.table.preset == "house"
    # flags merge; a flag set back to the preset's value is dropped
    res = await svc.configure(KEY, "u1", overrides={"jump_in": False})
    assert res.table is not None and res.table.rules == Rules.preset(
        "house", uno_penalty=4, jump_in=False
    )
    res = await svc.configure(KEY, "u1", overrides={"jump_in": True})
    t = await store.get_table(KEY)
    assert t is not None and t.overrides == {"uno_penalty": 4}
    bad = await svc.configure(KEY, "u1", overrides={"hand_size": 99})
    assert bad.code == "bad_setting" and bad.params["detail"]
    assert told(bad) == ["bad_setting"] and tells(port, "u1") == []
    assert (await svc.configure(KEY, "u2", preset="party", admin=True)).ok


async def test_start_needs_two_seats_and_the_host(env: Env) -> None:
    svc, _, port = env
    await lobby(svc, humans=1)
    few = await svc.start_game(KEY, "u1")
    assert few.code == "not_enough_players" and told(few) == ["not_enough_players"]
    await svc.join(KEY, "u2", "Bob")
    assert (await svc.start_game(KEY, "u2")).code == "not_host"
    res = await svc.start_game(KEY, "u1")
    assert res.ok and res.table is not None and res.table.status == PLAYING
    assert res.table.view is not None and res.table.view.hand is None  # the public view
    assert any(isinstance(e, RoundStarted) for e in res.events)
    again = await svc.start_game(KEY, "u1")
    assert again.code == "already_started" and told(again) == ["already_started"]
    # each person is shown their own hand, and nobody else's
    hands = {p: v for _, p, v, _ in port.of("hand")}
    assert set(hands) == {"u1", "u2"}
    assert all(v.viewer == p and v.hand is not None for p, v in hands.items())
    assert tells(port, "u1") == []  # the refusals are the caller's to answer


async def test_more_than_ten_seats_never_start(env: Env, store: SqliteStore, clock: Clock) -> None:
    svc, _, _ = env
    await lobby(svc, humans=1)
    assert (await svc.configure(KEY, "u1", overrides={"decks": 2})).ok
    for i in range(2, 12):
        assert (await svc.join(KEY, f"u{i}", f"User {i}")).ok
    # back to one deck with eleven seated: refused, the rules stay
    assert (await svc.configure(KEY, "u1", overrides={"decks": 1})).code == "table_full"
    # and a lobby of eleven on one deck, however it came to be, does not start
    t = await store.get_table(KEY)
    assert t is not None and len(t.seats) == 11
    await store.write(WriteBatch(tables=[t.evolve(overrides={})]))
    await close_service(svc, store)  # a restart
    svc2, store2, _ = await open_service(store_path(store), clock)
    try:
        assert (await svc2.start_game(KEY, "u1")).code == "table_full"
        assert (await svc2.configure(KEY, "u1", overrides={"decks": 2})).ok
        assert (await svc2.start_game(KEY, "u1")).ok  # two decks seat up to twenty
    finally:
        await close_service(svc2, store2)


async def test_configure_between_rounds_only(env: Env, store: SqliteStore, clock: Clock) -> None:
    svc, _, _ = env
    g = scenario({"u1": ["R5"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    assert (await svc.configure(KEY, "u1", overrides={"uno_penalty": 4})).code == "not_mid_round"
    assert (await svc.act(KEY, "u1", Play("R5"))).ok  # the round is over
    res = await svc.configure(KEY, "u1", overrides={"uno_penalty": 4})
    assert res.ok and res.table is not None and res.table.view is not None
    assert res.table.view.rules.uno_penalty == 4
    log = await store.actions(KEY)
    assert log[-1].action == {"type": "Rules", "rules": Rules(uno_penalty=4).to_json_dict()}


async def test_next_round_by_a_player_and_by_the_round_pause(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    g = scenario({"u1": ["R5"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    assert (await svc.act(KEY, "u2", NextRound())).code == "round_in_progress"
    assert (await svc.act(KEY, "u1", Play("R5"))).ok
    armed = svc.timers.armed(KEY)
    assert set(armed) == {"next_round"} and armed["next_round"].due == clock() + 10
    won = {"player": "u1", "points": 3, "round": 1, "reason": "out"}
    assert Notice("info.round_won", won) in notices(port)
    clock.advance(9.9)
    assert await svc.timers.run_due(clock()) == 0
    clock.advance(0.1)
    assert await svc.timers.run_due(clock()) == 1
    info = await svc.table(KEY)
    assert info is not None and info.view is not None
    assert info.view.round == 2 and info.view.phase is not Phase.ROUND_OVER
    assert info.view.scores["u1"] == 3
    assert "turn" in svc.timers.armed(KEY)


async def test_stop(env: Env) -> None:
    svc, _, port = env
    await lobby(svc, humans=3)
    await svc.start_game(KEY, "u1")
    assert (await svc.stop_game(KEY, "u2")).code == "not_host"
    res = await svc.stop_game(KEY, "u3", admin=True)
    assert res.ok and res.table is not None and res.table.status == STOPPED
    assert Notice("info.stopped", {"player": "u3"}) in notices(port)
    assert port.of("closed") and svc.timers.armed(KEY) == {}
    assert (await svc.act(KEY, "u1", Draw())).code == "no_table"
    assert (await svc.create(KEY, "chat", "u2", "Bob")).ok  # a new table may open there


# -- joining and leaving mid-game --------------------------------------------------------------


async def test_joining_mid_round_waits_for_the_next_round(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    g = scenario({"u1": ["R5", "R6"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    res = await svc.join(KEY, "u3", "Cy")
    assert res.ok and res.table is not None and res.table.waiting == ("u3",)
    assert told(res) == ["info.next_round"] and tells(port, "u3") == []
    assert res.table.view is not None and "u3" not in res.table.view.players
    assert (await svc.join(KEY, "u3", "Cy")).code == "already_joined"
    assert (await svc.act(KEY, "u3", Draw())).code == "not_a_player"
    assert await svc.hand(KEY, "u3") is None
    # the round ends; the next one deals u3 in
    assert (await svc.act(KEY, "u1", Play("R5", uno=True))).ok
    await pass_turn(svc, KEY, "u2")
    assert (await svc.act(KEY, "u1", Play("R6"))).ok
    assert (await svc.act(KEY, "u2", NextRound())).ok
    info = await svc.table(KEY)
    assert info is not None and info.view is not None and info.waiting == ()
    assert info.view.players == ("u1", "u2", "u3") and info.view.counts["u3"] == 7
    assert any(isinstance(e, PlayerJoined) and e.player == "u3" for e in events(port))


async def test_who_left_comes_back_next_round_never_mid_round(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    g = scenario({"u1": ["R5"], "u2": ["B1", "G2"], "u3": ["Y1", "Y2"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    assert (await svc.leave(KEY, "u2")).ok
    assert any(isinstance(e, PlayerLeft) and e.player == "u2" for e in events(port))
    assert Notice("info.left", {"player": "u2"}) in notices(port)
    res = await svc.join(KEY, "u2", "Bob")  # sits down again: for the next round
    assert res.ok and res.table is not None and res.table.waiting == ("u2",)
    assert res.table.view is not None and "u2" not in res.table.view.players
    assert (await svc.act(KEY, "u2", Draw())).code == "not_a_player"
    assert (await svc.act(KEY, "u1", Play("R5"))).ok  # round over
    clock.advance(10)
    await svc.timers.run_due(clock())
    info = await svc.table(KEY)
    assert info is not None and info.view is not None
    assert "u2" in info.view.players and info.view.counts["u2"] == 7  # a fresh hand


async def test_host_leaving_mid_game_hands_on_and_last_person_closes(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    hands = {"u1": ["R5", "R6"], "b1": ["B1", "G2"], "u2": ["Y1", "Y2"], "b2": ["G1", "G3"]}
    g = scenario(hands, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock, bots={"b1": "smart", "b2": "smart"}, host="u1")
    await svc.start(run_timers=False)
    res = await svc.leave(KEY, "u1")
    assert res.ok and res.table is not None
    assert (res.table.host, res.table.status) == ("u2", PLAYING)
    res = await svc.leave(KEY, "u2")
    assert res.ok and res.table is not None and res.table.status == STOPPED
    assert Notice("info.closed_empty") in notices(port)
    assert await store.leaderboard(GLOBAL) == []  # a game nobody finished counts for nobody


async def test_leave_sent_as_an_action_is_a_leave(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, _ = env
    g = scenario({"u1": ["R5", "R6"], "b1": ["B1", "G2"], "b2": ["Y1"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock, bots={"b1": "smart", "b2": "smart"})
    await svc.start(run_timers=False)
    res = await svc.act(KEY, "u1", engine.Leave(), seen_version=0)  # never stale
    assert res.ok and res.table is not None and res.table.status == STOPPED


async def test_kick_mid_game(env: Env, store: SqliteStore, clock: Clock) -> None:
    svc, _, port = env
    g = scenario(
        {"u1": ["R5", "R6"], "u2": ["B1", "G2"], "b1": ["Y1", "Y2"]}, ["R1"], draw_pile=DECK
    )
    await put_game(store, KEY, g, clock=clock, bots={"b1": "random"})
    await svc.start(run_timers=False)
    assert (await svc.kick(KEY, "u2", "u1")).code == "not_host"
    assert (await svc.kick(KEY, "u1", "b1")).ok
    res = await svc.kick(KEY, "u2", "u1", admin=True)
    assert res.ok and res.table is not None
    # u2 alone: wins the round and the game
    assert res.table.status == FINISHED and res.table.view is not None
    assert res.table.view.winner == "u2"
    assert Notice("info.kicked", {"player": "u1"}) in notices(port)


# -- timers ---------------------------------------------------------------------------------


async def test_lobby_expires(env: Env, clock: Clock) -> None:
    svc, _, port = env
    await lobby(svc, humans=2)
    clock.advance(599)
    assert await svc.timers.run_due(clock()) == 0
    clock.advance(1)
    assert await svc.timers.run_due(clock()) == 1
    info = await svc.table(KEY)
    assert info is not None and info.status == STOPPED
    assert Notice("info.lobby_expired") in notices(port) and port.of("closed")


async def test_turn_timeout_draws_and_passes(env: Env, store: SqliteStore, clock: Clock) -> None:
    svc, _, port = env
    g = scenario({"u1": ["B5", "B6"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    assert svc.timers.armed(KEY)["turn"].due == clock() + 60
    clock.advance(60)
    assert await svc.timers.run_due(clock()) == 1
    evs = events(port)
    assert isinstance(evs[0], TurnTimedOut) and evs[0].player == "u1"
    assert any(isinstance(e, CardsDrawn) and e.player == "u1" and e.count == 1 for e in evs)
    info = await svc.table(KEY)
    assert info is not None and info.view is not None and info.view.current == "u2"
    assert (await store.actions(KEY))[-1].action == {"type": "Timeout", "window": "turn"}
    # the new turn's deadline is counted from now
    assert svc.timers.armed(KEY)["turn"].due == clock() + 60


async def test_afk_strikes_remove_a_player_and_their_own_move_resets(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    rules = Rules(afk_strikes=2, turn_seconds=10)
    hands = {"u1": ["B5", "B6"], "u2": ["B1", "G2", "Y7"], "u3": ["Y1", "Y2", "G8"]}
    g = scenario(hands, ["R1"], draw_pile=DECK, rules=rules)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)

    async def timeout_u1() -> None:
        info = await svc.table(KEY)
        assert info is not None and info.view is not None and info.view.current == "u1"
        clock.advance(10)
        assert await svc.timers.run_due(clock()) == 1

    await timeout_u1()  # strike 1
    await pass_turn(svc, KEY, "u2")
    await pass_turn(svc, KEY, "u3")
    await pass_turn(svc, KEY, "u1")  # their own move: the count starts again
    await pass_turn(svc, KEY, "u2")
    await pass_turn(svc, KEY, "u3")
    await timeout_u1()  # strike 1 again
    t = await store.get_table(KEY)
    assert t is not None and t.strikes == {"u1": 1} and "u1" in t.game.players  # type: ignore[union-attr]
    await pass_turn(svc, KEY, "u2")
    await pass_turn(svc, KEY, "u3")
    await timeout_u1()  # strike 2: out
    info = await svc.table(KEY)
    assert info is not None and info.view is not None and "u1" not in info.view.players
    assert Notice("info.afk_removed", {"player": "u1"}) in notices(port)
    # the host timed out of the game: the table passes on to someone still playing
    assert info.host == "u2" and Notice("info.new_host", {"player": "u2"}) in notices(port)
    assert info.status == PLAYING


async def test_afk_removal_of_the_last_person_closes_the_table(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    rules = Rules(afk_strikes=1)
    g = scenario(
        {"u1": ["B5"], "b1": ["B1", "G2"], "b2": ["Y1", "Y2"]}, ["R1"], draw_pile=DECK, rules=rules
    )
    await put_game(store, KEY, g, clock=clock, bots={"b1": "smart", "b2": "smart"})
    await svc.start(run_timers=False)
    clock.advance(60)
    await svc.timers.run_due(clock())
    info = await svc.table(KEY)
    assert info is not None and info.status == STOPPED
    assert Notice("info.closed_empty") in notices(port)


async def test_uno_window_closes_by_its_timer(env: Env, store: SqliteStore, clock: Clock) -> None:
    svc, _, port = env
    g = scenario({"u1": ["R5", "R6"], "u2": ["B1", "G2", "Y3"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    assert (await svc.act(KEY, "u1", Play("R5"))).ok  # no UNO called: exposed
    armed = svc.timers.armed(KEY)
    assert armed["uno:u1"].due == clock() + 5
    turn = armed["turn"]
    clock.advance(5)
    assert await svc.timers.run_due(clock()) == 1
    assert isinstance(events(port)[-1], UnoWindowClosed)
    assert "uno:u1" not in svc.timers.armed(KEY)
    assert svc.timers.armed(KEY)["turn"] == turn  # the turn's clock was not reset
    assert (await svc.act(KEY, "u2", CatchUno("u1"))).code == "not_catchable"
    assert (await svc.act(KEY, "u1", CallUno())).ok  # calling is still allowed


async def test_catch_within_the_uno_window(env: Env, store: SqliteStore, clock: Clock) -> None:
    svc, _, _ = env
    g = scenario({"u1": ["R5", "R6"], "u2": ["B1", "G2", "Y3"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    await svc.act(KEY, "u1", Play("R5"))
    v = (await svc.table(KEY)).version  # type: ignore[union-attr]
    clock.advance(4)
    # an out-of-turn catch is never stale: the turn did not change
    assert (await svc.act(KEY, "u2", CatchUno("u1"), seen_version=v - 1)).ok
    info = await svc.table(KEY)
    assert info is not None and info.view is not None and info.view.counts["u1"] == 3
    assert "uno:u1" not in svc.timers.armed(KEY)


async def test_challenge_window_has_its_own_time(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    g = scenario({"u1": ["W4", "R5"], "u2": ["B1", "G2", "Y3"]}, ["G3"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    assert (await svc.act(KEY, "u1", Play("W4", color="B"))).ok
    info = await svc.table(KEY)
    assert info is not None and info.view is not None and info.view.phase is Phase.CHALLENGE
    assert svc.timers.armed(KEY)["turn"].due == clock() + 20  # challenge_seconds
    assert info.deadline == clock() + 20
    clock.advance(20)
    await svc.timers.run_due(clock())
    drawn = [e for e in events(port) if isinstance(e, CardsDrawn)]
    assert drawn[-1].player == "u2" and drawn[-1].count == 4 and drawn[-1].reason == "penalty"
    info = await svc.table(KEY)
    assert info is not None and info.view is not None and info.view.current == "u1"


async def test_an_all_bot_table_plays_to_the_end_through_timers(env: Env, clock: Clock) -> None:
    svc, store, port = env
    assert (await svc.create(KEY, "chat", "h", "Host", seat_host=False)).ok
    for strategy in ("smart", "random", "basic", "smart"):
        assert (await svc.add_bot(KEY, "h", strategy)).ok
    assert (await svc.start_game(KEY, "h")).ok
    await drive(svc, clock, KEY)
    t = await store.get_table(KEY)
    assert t is not None and t.status == FINISHED and t.game is not None
    assert t.game.winner is not None and t.game.winner.startswith("bot:")
    assert port.of("closed") and svc.open_tables() == []
    assert await store.leaderboard(GLOBAL) == []  # bots keep no statistics
    log = await store.actions(KEY)
    assert game_json(replay(log, t.game_no)) == game_json(t.game)


async def test_a_deadline_that_lost_the_race_does_nothing(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    g = scenario({"u1": ["B5", "B6"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    clock.advance(60)
    fired = svc.timers.due(clock())  # the timer goes off ...
    assert len(fired) == 1
    await pass_turn(svc, KEY, "u1")  # ... but the player moves first
    before = await store.get_table(KEY)
    key, d = fired[0]
    shown = len(port.calls)
    await svc._fire(key, d)
    after = await store.get_table(KEY)
    assert before is not None and after is not None and after.version == before.version
    assert len(port.calls) == shown


# -- statistics, settings, the log ------------------------------------------------------------


async def win_at(
    svc: Service, store: SqliteStore, clock: Clock, key: str, scope: str, winner: str, loser: str
) -> None:
    g = scenario(
        {winner: ["R5", "R6"], loser: ["B1", "G2", "Y9"]},
        ["R1"],
        draw_pile=DECK,
        rules=Rules(target=0),
    )
    await put_game(store, key, g, clock=clock, scope=scope)
    await svc.start(run_timers=False)
    assert (await svc.act(key, winner, Play("R5", uno=True))).ok
    await pass_turn(svc, key, loser)
    res = await svc.act(key, winner, Play("R6"))
    assert res.ok and res.table is not None and res.table.status == FINISHED


async def test_statistics_per_chat_and_everywhere(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    svc, _, port = env
    await win_at(svc, store, clock, "t:a", "chatA", "u1", "u2")
    await win_at(svc, store, clock, "t:b", "chatB", "u3", "u1")
    assert Notice("info.game_won", {"player": "u3"}) in notices(port)

    a = {s.player: s for s in await svc.leaderboard("chatA")}
    assert set(a) == {"u1", "u2"}
    assert (a["u1"].games, a["u1"].wins, a["u1"].rounds_won, a["u1"].cards_played) == (1, 1, 1, 2)
    assert a["u1"].points == 1 + 2 + 9 + 5  # u2's hand: B1 G2 Y9 and the G5 drawn
    assert (a["u2"].games, a["u2"].wins, a["u2"].rounds_won) == (1, 0, 0)
    b = [s.player for s in await svc.leaderboard("chatB")]
    assert b == ["u3", "u1"]
    everywhere = {s.player: s for s in await svc.leaderboard(GLOBAL)}
    assert (everywhere["u1"].games, everywhere["u1"].wins) == (2, 1)
    assert (everywhere["u3"].games, everywhere["u3"].wins) == (1, 1)
    assert [s.player for s in await svc.leaderboard(GLOBAL, limit=1)] in (["u1"], ["u3"])
    mine = await svc.player_stats(GLOBAL, "u1")
    assert mine is not None and mine.name == "U1" and mine.games == 2
    assert await svc.player_stats("chatB", "u2") is None


async def test_partners_win_together(env: Env, store: SqliteStore, clock: Clock) -> None:
    svc, _, _ = env
    hands = {"u1": ["R5"], "u2": ["B1", "G2"], "u3": ["Y1", "Y2"], "u4": ["G1", "G3"]}
    g = scenario(hands, ["R1"], draw_pile=DECK, rules=Rules(partners=True, target=0))
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    res = await svc.act(KEY, "u1", Play("R5"))
    assert res.ok and res.table is not None and res.table.status == FINISHED
    wins = {s.player: s.wins for s in await svc.leaderboard("chat")}
    assert wins == {"u1": 1, "u3": 1, "u2": 0, "u4": 0}


async def test_rotating_partners_each_win_for_themselves(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    """partners=rotate (issue 14, seed 003): the partners change, so the game's winner alone
    wins it in the statistics, not whoever partnered them last."""
    svc, _, _ = env
    hands = {"u1": ["R5"], "u2": ["B1", "G2"], "u3": ["Y1", "Y2"], "u4": ["G1", "G3"]}
    g = scenario(hands, ["R1"], draw_pile=DECK, rules=Rules(partners="rotate", target=0))
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    res = await svc.act(KEY, "u1", Play("R5"))
    assert res.ok and res.table is not None and res.table.status == FINISHED
    wins = {s.player: s.wins for s in await svc.leaderboard("chat")}
    assert wins == {"u1": 1, "u3": 0, "u2": 0, "u4": 0}


async def test_places_are_kept_in_the_statistics(
    env: Env, store: SqliteStore, clock: Clock
) -> None:
    """places (issue 14, seed 004): the round goes on until one player is left; the news of
    it gives the places, and each person's place counts in their statistics."""
    svc, _, port = env
    hands = {"u1": ["R5"], "u2": ["R6", "R7"], "u3": ["R2", "Y2", "Y3"]}
    g = scenario(hands, ["R1"], draw_pile=DECK, rules=Rules(places=True, target=0))
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    res = await svc.act(KEY, "u1", Play("R5"))
    assert res.ok and res.table is not None and res.table.status == PLAYING
    assert (await svc.act(KEY, "u2", Play("R6"))).ok
    assert (await svc.act(KEY, "u3", Play("R2"))).ok
    res = await svc.act(KEY, "u2", Play("R7"))
    assert res.ok and res.table is not None and res.table.status == FINISHED, res.code
    won = [n for n in notices(port) if n.code == "info.round_won"]
    assert won[-1].params["places"] == ["u1", "u2", "u3"]
    stats = {s.player: s for s in await svc.leaderboard("chat")}
    assert {p: (s.rounds_placed, s.places_total) for p, s in stats.items()} == {
        "u1": (1, 1),
        "u2": (1, 2),
        "u3": (1, 3),
    }
    assert (stats["u1"].wins, stats["u1"].rounds_won) == (1, 1)


async def test_rules_that_contradict_each_other_are_refused_with_both_named(env: Env) -> None:
    svc, _, _ = env
    await lobby(svc, humans=2)
    assert (await svc.configure(KEY, "u1", overrides={"places": True})).ok
    res = await svc.configure(KEY, "u1", overrides={"partners": "rotate"})
    assert not res.ok and res.code == "bad_setting"
    assert (res.params["reason"], res.params["flag"], res.params["other"]) == (
        "conflict",
        "places",
        "partners",
    )


async def test_chat_rules_stored_before_issue_14_still_read(env: Env) -> None:
    """A chat's rules saved when deflect and partners were yes/no (JSON true/false) open
    a table with the same rules: deflect true is a +2 deflect."""
    svc, store, _ = env
    await store.write(
        WriteBatch(
            chat_settings=[ChatUpdate("chat", "official", {"deflect": True, "partners": False})]
        )
    )
    res = await svc.create(KEY, "chat", "u1", "Ann")
    assert res.ok and res.table is not None
    assert res.table.rules == Rules(deflect="draw_two")


async def test_chat_settings_and_languages_are_kept(env: Env, clock: Clock) -> None:
    svc, store, _ = env
    await lobby(svc, humans=2)
    await svc.configure(KEY, "u1", preset="house", overrides={"uno_penalty": 4})
    assert await store.chat_settings("chat") == ChatSettings("house", {"uno_penalty": 4}, None)
    res = await svc.set_chat_language(KEY, "chat", "zh_Hant")
    assert res.ok and res.table is not None and res.table.lang == "zh_Hant"
    # one who is not an admin of the chat: refused, told, nothing changed
    res = await svc.set_chat_language(KEY, "chat", "en", admin=False)
    assert not res.ok and [n.code for n in res.told] == ["not_host"]
    assert (await svc.table(KEY)).lang == "zh_Hant"  # type: ignore[union-attr]
    await svc.stop_game(KEY, "u1")
    await svc.set_chat_language("t:elsewhere", "other", "zh_Hans")  # no table there
    await svc.set_user_language("u1", "zh_Hans")
    await svc.set_user_language("u2", "en")
    await svc.set_user_language("u2", None)

    await close_service(svc, store)
    svc2, store2, _ = await open_service(store_path(store), clock)  # after a restart
    try:
        assert await svc2.chat_lang("chat") == "zh_Hant"
        assert await svc2.chat_lang("other") == "zh_Hans"
        assert await svc2.chat_lang("nowhere") is None
        assert await svc2.user_lang("u1") == "zh_Hans"
        assert await svc2.user_lang("u2") is None
        res = await svc2.create(KEY, "chat", "u2", "Bob")  # the chat's rules and language
        assert res.table is not None and res.table.rules == Rules.preset("house", uno_penalty=4)
        assert res.table.preset == "house" and res.table.lang == "zh_Hant"
    finally:
        await close_service(svc2, store2)


async def test_set_meta_is_kept_without_a_new_version(env: Env, clock: Clock) -> None:
    svc, store, _ = env
    await lobby(svc, humans=2)
    v = (await svc.table(KEY)).version  # type: ignore[union-attr]
    await svc.set_meta(KEY, message_id=42, thread="x")
    await svc.set_meta(KEY, message_id=43)
    await svc.set_meta("t:none", message_id=1)  # no table: nothing happens
    info = await svc.table(KEY)
    assert info is not None and info.meta == {"message_id": 43, "thread": "x"}
    assert info.version == v
    await close_service(svc, store)  # a restart
    svc2, store2, _ = await open_service(store_path(store), clock)
    try:
        info = await svc2.table(KEY)
        assert info is not None and info.meta == {"message_id": 43, "thread": "x"}
        assert "lobby" in svc2.timers.armed(KEY)  # the deadline survived the meta write
    finally:
        await close_service(svc2, store2)


async def test_the_action_log_is_append_only_and_replays_the_game(env: Env, clock: Clock) -> None:
    """A game with people timing out, bots, a late joiner, a kick and a rules change between
    rounds: the log alone rebuilds exactly the stored game, at every round and at the end."""
    svc, store, _ = env
    await lobby(svc, humans=2, bots=2)
    await svc.configure(KEY, "u1", overrides={"afk_strikes": 0, "target": 10_000})
    assert (await svc.start_game(KEY, "u1")).ok
    early = await store.actions(KEY)
    joined = kicked = configured = False
    for _ in range(20_000):
        t = await store.get_table(KEY)
        assert t is not None
        if t.status != PLAYING:
            break
        g = t.game
        assert g is not None
        if not joined and g.phase is Phase.PLAYING:
            assert (await svc.join(KEY, "u3", "Cy")).ok
            joined = True
        if g.phase is Phase.ROUND_OVER:
            assert game_json(replay(await store.actions(KEY), t.game_no)) == game_json(g)
            if not configured:  # and the game ends with the next round
                over = {"uno_penalty": 3, "target": 1}
                assert (await svc.configure(KEY, "u1", overrides=over)).ok
                bot = next(s.id for s in t.seats if s.bot is not None)
                assert (await svc.kick(KEY, "u1", bot)).ok
                configured = kicked = True
        if await svc.timers.run_due(clock()) == 0:
            nxt = svc.timers.next_due()
            assert nxt is not None
            clock.t = max(clock.t, nxt)
    t = await store.get_table(KEY)
    assert t is not None and t.status == FINISHED and t.game is not None
    assert joined and configured and kicked, "the game was too short to try everything"
    log = await store.actions(KEY)
    assert log[: len(early)] == early  # appended to, never rewritten
    kinds = {r.action["type"] for r in log}
    assert {"Start", "Join", "Rules", "Leave", "Timeout", "NextRound"} <= kinds
    versions = [r.version for r in log]
    assert versions == sorted(set(versions)) and versions[-1] <= t.version
    assert game_json(replay(log, t.game_no)) == game_json(t.game)


async def test_the_store_failing_changes_nothing(
    env: Env, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc, store, port = env
    await lobby(svc, humans=2)
    await svc.start_game(KEY, "u1")
    before = await svc.table(KEY)
    assert before is not None and before.view is not None
    shown = len(port.calls)

    async def broken(batches: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(store, "_commit", broken)
    with pytest.raises(OSError, match="disk full"):
        await svc.act(KEY, before.view.current, Draw())  # type: ignore[arg-type]
    monkeypatch.undo()
    after = await svc.table(KEY)
    assert after is not None and after.version == before.version
    assert after.view == before.view and len(port.calls) == shown  # nothing was shown
    assert (await svc.act(KEY, before.view.current, Draw())).ok  # type: ignore[arg-type]


async def test_restored_tables_keep_working(tmp_path: Path, clock: Clock) -> None:
    svc, store, _ = await open_service(tmp_path / "a.db", clock)
    await lobby(svc, humans=2)
    await svc.start_game(KEY, "u1")
    info = await svc.table(KEY)
    assert info is not None and info.view is not None
    await close_service(svc, store)
    svc, store, _ = await open_service(tmp_path / "a.db", clock)
    try:
        assert svc.open_tables() == [KEY]
        cur = info.view.current
        assert cur is not None
        res = await svc.act(KEY, cur, Draw(), seen_version=info.version)  # an old button
        assert res.ok
    finally:
        await close_service(svc, store)


async def test_notices_name_a_player_who_already_left(env: Env) -> None:
    """A notice about someone who left carries their display name: they are gone from the
    table's seats by the time it is shown."""
    svc, _, port = env
    await svc.create(KEY, "chat", "u1", "Ann")
    await svc.join(KEY, "u2", "Bob")
    await svc.kick(KEY, "u1", "u2")
    kicked = [n for _, n in port.of("announce") if n.code == "info.kicked"]
    assert kicked and kicked[-1].params == {"player": "u2", "name": "Bob"}
    info = await svc.table(KEY)
    assert info is not None and "u2" not in info.names
    assert "Bob" in notice_text(kicked[-1], translator("en"), info.names)


async def test_a_deadline_whose_commit_failed_fires_again(env: Env, clock: Clock) -> None:
    """A turn timeout that could not be committed (a transient database error) is tried
    again a little later: a table must never wait forever for an away player."""
    import sqlite3

    svc, store, _ = env
    await svc.create(KEY, "chat", "u1", "U1")
    await svc.join(KEY, "u2", "U2")
    res = await svc.start_game(KEY, "u1")
    assert res.ok and res.table is not None
    v0 = res.table.version
    due = svc.timers.armed(KEY)["turn"].due
    real = store.write
    calls = {"n": 0}

    async def flaky(batch: WriteBatch) -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise sqlite3.OperationalError("database is locked")
        await real(batch)

    store.write = flaky  # type: ignore[method-assign]
    clock.t = due + 1
    assert await svc.timers.run_due(clock()) == 1  # fails: nothing changes
    info = await svc.table(KEY)
    assert info is not None and info.version == v0
    clock.advance(60)
    await svc.timers.run_due(clock())
    info = await svc.table(KEY)
    assert info is not None and info.version > v0


async def test_a_turn_that_ran_out_while_the_bot_was_down_is_no_afk_strike(
    env: Env, clock: Clock
) -> None:
    """An overdue deadline fires at once after a restart (the turn passes), but a player is
    not counted away for the bot's own downtime."""
    svc, _, _ = env
    await svc.create(KEY, "chat", "u1", "U1")
    await svc.join(KEY, "u2", "U2")
    res = await svc.start_game(KEY, "u1")
    assert res.ok and res.table is not None and res.table.view is not None
    who = res.table.view.current
    due = svc.timers.armed(KEY)["turn"].due
    clock.t = due + 3600  # an hour later: the bot was down
    assert await svc.timers.run_due(clock()) >= 1
    t = svc._tables[KEY]
    assert t.version > res.table.version  # the turn timed out
    assert t.strikes.get(str(who), 0) == 0
