"""Issue 22, no dead tables (``bot.presence``): the autopilot that plays an absent player's
seat, and the vote to end a stuck game. Through the service, on a fake clock (timers fired
with ``run_due``), on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import presence
from bot.model import FINISHED, PLAYING, STOPPED
from bot.port import Notice, RecordingPort
from bot.ratings import ABANDONED, ALL_TIME
from bot.service import GLOBAL, Service
from bot.store import Store
from bot.ui.i18n import LANGUAGES, translator
from bot.ui.render import REFUSAL_FALLBACK, notice_text
from engine import Color, Draw, Pass, Phase, Play, Rules, scenario
from tests.bot.helpers import Clock, close_service, drive, open_service, put_game, replay

BACKENDS = ("sqlite", "postgresql")

Env = tuple[Service, Store, RecordingPort]
KEY = "t:chat:22"
DECK = ["G5", "B7", "Y8", "R2", "G3", "B4", "Y6", "R7", "G9", "B2", "Y1", "R9"] * 3
AWAY = Rules(absent="autopilot", turn_seconds=10)


def codes(port: RecordingPort) -> list[str]:
    return [n.code for _, n in port.of("announce")]


def tells(port: RecordingPort, user: str) -> list[str]:
    return [n.code for _, u, n in port.of("tell") if u == user]


async def current(svc: Service) -> str | None:
    info = await svc.table(KEY)
    assert info is not None and info.view is not None
    return info.view.current


async def time_out(svc: Service, clock: Clock, player: str) -> None:
    """``player``'s turn runs out."""
    assert await current(svc) == player
    due = svc.timers.armed(KEY)["turn"].due
    clock.t = due
    assert await svc.timers.run_due(clock()) >= 1


async def pass_turn(svc: Service, player: str) -> None:
    """``player`` draws, and passes if the drawn card left the turn with them."""
    assert (await svc.act(KEY, player, Draw())).ok
    if await current(svc) == player:
        assert (await svc.act(KEY, player, Pass())).ok


async def bots_move(svc: Service, clock: Clock, until: str | None = None) -> int:
    """Fire the bot deadline while one is armed (the autopilot's moves), until it is
    ``until``'s turn; how many moves."""
    for moves in range(50):
        bot = svc.timers.armed(KEY).get("bot")
        if bot is None or (until is not None and await current(svc) == until):
            return moves
        clock.t = max(clock.t, bot.due)
        assert await svc.timers.run_due(clock()) >= 1
    raise AssertionError("the bots never stopped")


async def three(store: Store, clock: Clock, rules: Rules = AWAY, **kw: object) -> None:
    hands = {
        "u1": ["B5", "B6", "G7", "R3", "R4", "Y3", "Y4", "G6", "R8"],
        "u2": ["B1", "G2", "Y7", "R5", "R6", "G4"],
        "u3": ["Y1", "Y2", "G8", "R2", "G1", "Y5"],
    }
    g = scenario(hands, ["B9"], draw_pile=DECK, rules=rules)
    await put_game(store, KEY, g, clock=clock, **kw)  # type: ignore[arg-type]


# -- the autopilot ---------------------------------------------------------------------------


async def test_from_the_first_timeout_the_autopilot_plays_and_is_kept(
    env: Env, clock: Clock, db: Path | str
) -> None:
    """Under absent=autopilot a player whose turn timed out is played for from then on: the
    autopilot's moves are theirs in the log (it replays), nobody is removed however long
    they are gone, the table says so, and a restart keeps it."""
    svc, store, port = env
    await three(store, clock)
    await svc.start(run_timers=False)
    await time_out(svc, clock, "u1")
    assert codes(port) == ["info.autopilot_away"]
    info = await svc.table(KEY)
    assert info is not None and info.autopilot == ("u1",)
    await pass_turn(svc, "u2")
    await pass_turn(svc, "u3")
    # u1's turn: the autopilot's deadline, a bot's delay away, not the turn's
    assert await current(svc) == "u1"
    assert svc.timers.armed(KEY)["bot"].due == clock() + 1.0
    assert await bots_move(svc, clock, until="u2") >= 1
    log = await store.actions(KEY)
    assert any(r.player == "u1" and r.action["type"] in ("Play", "Draw") for r in log[-2:])
    for _ in range(4):  # many rounds of the table later: still there, still played for
        await pass_turn(svc, "u2")
        await pass_turn(svc, "u3")
        await bots_move(svc, clock, until="u2")
    info = await svc.table(KEY)
    assert info is not None and info.status == PLAYING and info.view is not None
    assert "u1" in info.view.players and info.autopilot == ("u1",)
    assert "info.afk_removed" not in codes(port)
    await close_service(svc, store)

    svc2, store2, _ = await open_service(db, clock)
    try:
        info = await svc2.table(KEY)
        assert info is not None and info.autopilot == ("u1",)
        t = await store2.get_table(KEY)
        assert t is not None and t.autopilot == ("u1",) and set(t.acted) == {"u2", "u3"}
    finally:
        await close_service(svc2, store2)


async def test_any_move_hands_the_seat_back_and_a_refused_one_does_not(
    env: Env, clock: Clock
) -> None:
    svc, store, port = env
    await three(store, clock)
    await svc.start(run_timers=False)
    await time_out(svc, clock, "u1")
    await pass_turn(svc, "u2")
    # not their turn: refused, and the autopilot still plays for them
    res = await svc.act(KEY, "u1", Draw())
    assert res.code == "not_your_turn"
    assert (await svc.table(KEY)).autopilot == ("u1",)  # type: ignore[union-attr]
    await pass_turn(svc, "u3")
    # their turn: they play before the autopilot does; the seat is theirs again
    assert "bot" in svc.timers.armed(KEY)
    assert (await svc.act(KEY, "u1", Play("B5"))).ok
    info = await svc.table(KEY)
    assert info is not None and info.autopilot == ()
    assert codes(port)[-1] == "info.autopilot_off"
    assert "bot" not in svc.timers.armed(KEY)
    # their hand was shown to them again (it offers "Play for me" once more)
    assert any(p == "u1" for _, p, _, _ in port.of("hand"))


async def test_taking_the_seat_back_in_ones_turn_gives_a_whole_turn(
    env: Env, clock: Clock
) -> None:
    svc, store, _ = env
    await three(store, clock)
    await svc.start(run_timers=False)
    assert (await svc.autopilot(KEY, "u1", True)).ok
    clock.advance(9)  # the turn's 10 s nearly gone
    assert (await svc.autopilot(KEY, "u1", False)).ok
    assert svc.timers.armed(KEY)["turn"].due == clock() + 10


async def test_play_for_me_and_back_and_the_refusals(env: Env, clock: Clock) -> None:
    """ "Play for me" works under either setting; twice, or back when not away, or by
    someone not playing, is refused and changes nothing."""
    svc, store, port = env
    await three(store, clock, Rules(turn_seconds=10), bots={"u3": "smart"})
    await svc.start(run_timers=False)
    before = (await svc.table(KEY)).version  # type: ignore[union-attr]
    off = await svc.autopilot(KEY, "u2", False)
    assert off.code == "autopilot_off" and [n.code for n in off.told] == ["autopilot_off"]
    assert (await svc.autopilot(KEY, "u9", True)).code == "not_a_player"
    assert (await svc.autopilot(KEY, "u3", True)).code == "not_a_player"  # a bot seat
    assert (await svc.table(KEY)).version == before  # type: ignore[union-attr]
    assert (await svc.autopilot(KEY, "u1", True)).ok
    on = await svc.autopilot(KEY, "u1", True)
    assert on.code == "autopilot_on" and [n.code for n in on.told] == ["autopilot_on"]
    assert tells(port, "u1") == [] and tells(port, "u2") == []  # the callers answer them
    assert codes(port) == ["info.autopilot_on"]
    # the autopilot plays u1's turn (and the bot seat its own)
    await bots_move(svc, clock, until="u2")
    assert await current(svc) == "u2"
    assert (await svc.autopilot(KEY, "u1", False)).ok
    assert codes(port)[-1] == "info.autopilot_off"
    for lang in LANGUAGES:
        tr = translator(lang)
        for code in ("autopilot_on", "autopilot_off", "not_a_player"):
            assert notice_text(Notice(code), tr, {}) != tr.gettext(REFUSAL_FALLBACK)


async def test_the_autopilot_names_colours_answers_a_plus_four_and_calls_uno(
    env: Env, clock: Clock
) -> None:
    """Their other decisions too: the colour of their wild, a +4 played at them (challenge
    or take it), UNO with their next-to-last card."""
    svc, store, _ = env
    hands = {"u1": ["W", "B6", "B7"], "u2": ["W4", "G2", "Y7", "G3"]}
    g = scenario(hands, ["R1"], draw_pile=DECK, rules=AWAY)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    assert (await svc.autopilot(KEY, "u1", True)).ok
    await bots_move(svc, clock, until="u2")
    t = await store.get_table(KEY)
    assert t is not None and t.game is not None
    log = await store.actions(KEY)
    assert log[-1].player == "u1"
    # a wild played with its colour named (or any card): the turn moved on
    assert t.game.current == "u2" and t.game.color is not None
    # u2 plays a +4 at u1: the autopilot decides on the challenge
    assert (await svc.act(KEY, "u2", Play("W4", color=Color.GREEN))).ok
    t = await store.get_table(KEY)
    assert t is not None and t.game is not None and t.game.phase is Phase.CHALLENGE
    await bots_move(svc, clock, until="u2")
    decided = [r.action["type"] for r in await store.actions(KEY) if r.player == "u1"][-1]
    assert decided in ("Challenge", "Accept"), decided


async def test_the_autopilot_calls_uno_for_them(env: Env, clock: Clock) -> None:
    svc, store, _ = env
    g = scenario({"u1": ["R5", "R6"], "u2": ["B1", "G2", "Y3"]}, ["R1"], draw_pile=DECK)
    await put_game(store, KEY, g, clock=clock)
    await svc.start(run_timers=False)
    assert (await svc.autopilot(KEY, "u1", True)).ok
    await bots_move(svc, clock, until="u2")
    t = await store.get_table(KEY)
    assert t is not None and t.game is not None
    assert t.game.hand_size("u1") == 1 and "u1" not in t.game.exposed_players


async def test_a_timeout_that_leaves_nobody_present_ends_the_game_unrated(
    env: Env, clock: Clock
) -> None:
    """Everyone on autopilot and nobody has pressed anything for five minutes: the bots
    would only play among themselves; the game ends as /stop ends it, counted for nobody."""
    svc, store, port = env
    g = scenario({"u1": ["B5", "B6"], "u2": ["B1", "G2"], "b": ["Y1", "Y2"]}, ["R1"],
                 draw_pile=DECK, rules=AWAY)  # fmt: skip
    await put_game(store, KEY, g, clock=clock, bots={"b": "smart"})
    await svc.start(run_timers=False)
    await time_out(svc, clock, "u1")
    assert (await svc.table(KEY)).status == PLAYING  # type: ignore[union-attr]
    await time_out(svc, clock, "u2")
    info = await svc.table(KEY)
    assert info is not None and info.status == STOPPED
    assert codes(port)[-2:] == ["info.autopilot_away", "info.all_away"]
    assert port.of("closed")
    assert await store.player_stats(GLOBAL, "u1") is None


async def test_those_gone_are_not_played_for_past_five_minutes_but_those_who_asked_are(
    env: Env, clock: Clock
) -> None:
    """Both people pressed something, then vanished: their timeouts hand their seats to the
    autopilot, which plays on while they might still be around; once nobody has pressed
    anything for five minutes the next move of the autopilot ends the game instead. Had
    one of them asked for the autopilot ("Play for me"), it would play on: they may be
    watching."""
    svc, store, port = env
    hands = {"u1": ["B5", "B6", "G7", "R3", "R4"], "u2": ["B1", "G2", "Y7", "R5", "R6"]}
    g = scenario(hands, ["Y9"], draw_pile=DECK * 2, rules=AWAY, current="u1")
    await put_game(store, KEY, g, clock=clock, bots={})
    await svc.start(run_timers=False)
    assert (await svc.act(KEY, "u1", Draw())).ok  # both here at first
    if await current(svc) == "u1":
        assert (await svc.act(KEY, "u1", Pass())).ok
    assert (await svc.act(KEY, "u2", Draw())).ok
    if await current(svc) == "u2":
        assert (await svc.act(KEY, "u2", Pass())).ok
    pressed = clock()
    await time_out(svc, clock, "u1")
    await time_out(svc, clock, "u2")
    info = await svc.table(KEY)
    assert info is not None and info.status == PLAYING and set(info.autopilot) == {"u1", "u2"}
    while (info := await svc.table(KEY)) is not None and info.status == PLAYING:
        due = svc.timers.next_due()
        assert due is not None  # never without a deadline: it never waits on them
        clock.t = max(clock.t, due)
        await svc.timers.run_due(clock())
    assert info is not None and info.status == STOPPED
    assert codes(port)[-1] == "info.all_away"
    # recorded as abandoned (bot.ratings), rated for nobody, as /stop records it
    [game] = await store.game_results()
    assert game.outcome == ABANDONED and not game.rated
    assert {e.player for e in game.entrants} == {"u1", "u2"}
    assert all(e.place is None for e in game.entrants)
    # not before five minutes, and at the first move of the autopilot after them
    assert pressed + presence.ACTIVE_SECONDS <= clock() <= pressed + presence.ACTIVE_SECONDS + 11


async def test_under_remove_a_timeout_is_a_strike_as_before(env: Env, clock: Clock) -> None:
    svc, store, port = env
    await three(store, clock, Rules(afk_strikes=1, turn_seconds=10))
    await svc.start(run_timers=False)
    await time_out(svc, clock, "u1")
    info = await svc.table(KEY)
    assert info is not None and info.view is not None and "u1" not in info.view.players
    assert info.autopilot == () and "info.afk_removed" in codes(port)


# -- the vote to end a game ------------------------------------------------------------------


async def started(svc: Service, humans: int = 3, bots: int = 0, **overrides: object) -> None:
    assert (await svc.create(KEY, "chat", "u1", "Ann", overrides=dict(overrides))).ok
    for i in range(2, humans + 1):
        assert (await svc.join(KEY, f"u{i}", f"User {i}")).ok
    for _ in range(bots):
        assert (await svc.add_bot(KEY, "u1", "smart")).ok
    assert (await svc.start_game(KEY, "u1")).ok


async def test_a_majority_of_those_present_ends_the_game_as_stop_does(
    env: Env, clock: Clock
) -> None:
    svc, store, port = env
    await started(svc, humans=3, bots=1)
    res = await svc.vote_end(KEY, "u2")
    assert res.ok and res.table is not None and res.table.vote is not None
    vote = res.table.vote
    assert vote.voters == ("u2",) and res.table.vote_needed == 2  # 2 of 3 present
    assert codes(port)[-1] == "info.vote_open"
    assert (await svc.vote_end(KEY, "u2", vote.version)).code == "vote_twice"
    assert (await svc.vote_end(KEY, "u9", vote.version)).code == "vote_not_player"
    bot = next(s.id for s in res.table.seats if s.bot is not None)
    assert (await svc.vote_end(KEY, bot, vote.version)).code == "vote_not_player"
    assert (await svc.table(KEY)).vote.voters == ("u2",)  # type: ignore[union-attr]
    ended = await svc.vote_end(KEY, "u3", vote.version)
    assert ended.ok and ended.table is not None and ended.table.status == STOPPED
    assert codes(port)[-1] == "info.vote_ended" and port.of("closed")
    # recorded as abandoned: stopped, no result, nobody's statistics
    t = await store.get_table(KEY)
    assert t is not None and t.status == STOPPED and t.game is not None and t.game.winner is None
    for p in ("u1", "u2", "u3"):
        assert await store.player_stats(GLOBAL, p) is None
    [game] = await store.game_results()  # once, abandoned, never rated (bot.ratings)
    assert game.outcome == ABANDONED and not game.rated
    assert all(e.place is None for e in game.entrants)
    assert await store.ladder(GLOBAL, ALL_TIME) == []
    assert "vote" not in svc.timers.armed(KEY)


async def test_those_gone_for_five_minutes_do_not_count(env: Env, clock: Clock) -> None:
    """Present: who pressed something the table took in the last five minutes (a refused
    press is not taken); the voter counts."""
    svc, _store, _ = env
    await started(svc, humans=4)
    clock.advance(presence.ACTIVE_SECONDS + 1)  # everyone quiet since the deal
    info = await svc.table(KEY)
    assert info is not None and info.view is not None
    first = info.view.current
    assert first is not None
    await svc.autopilot(KEY, first, True)  # a press the table took: present
    await svc.autopilot(KEY, first, False)
    other = next(p for p in info.view.players if p != first)
    assert (await svc.act(KEY, other, Play("W4"))).ok is False  # refused: not present
    res = await svc.vote_end(KEY, other)
    assert res.table is not None and res.table.vote_needed == 2  # first and the voter
    assert res.table.status == PLAYING
    ended = await svc.vote_end(KEY, first, res.table.vote.version)  # type: ignore[union-attr]
    assert ended.table is not None and ended.table.status == STOPPED


async def test_one_person_left_ends_it_alone(env: Env, clock: Clock) -> None:
    svc, _store, port = env
    await started(svc, humans=3)
    clock.advance(presence.ACTIVE_SECONDS + 1)
    res = await svc.vote_end(KEY, "u3")
    assert res.table is not None and res.table.status == STOPPED
    ended = Notice("info.vote_ended", {"votes": 1, "needed": 1})
    assert ended in [n for _, n in port.of("announce")]


async def test_a_vote_lapses_and_its_buttons_are_refused(
    env: Env, clock: Clock, db: Path | str
) -> None:
    svc, store, port = env
    await started(svc, humans=3, turn_seconds=3600)  # (no turn runs out meanwhile)
    res = await svc.vote_end(KEY, "u1")
    assert res.table is not None and res.table.vote is not None
    old = res.table.vote.version
    assert svc.timers.armed(KEY)["vote"].due == clock() + presence.VOTE_SECONDS
    # the vote survives a restart, its deadline with it
    await close_service(svc, store)
    svc, store2, port = await open_service(db, clock)
    try:
        assert (await svc.table(KEY)).vote.voters == ("u1",)  # type: ignore[union-attr]
        clock.advance(presence.VOTE_SECONDS)
        assert await svc.timers.run_due(clock()) == 1
        info = await svc.table(KEY)
        assert info is not None and info.vote is None and info.status == PLAYING
        assert codes(port) == ["info.vote_lapsed"]
        # a button of the vote that lapsed: refused, nothing changes
        lapsed = await svc.vote_end(KEY, "u2", old)
        assert lapsed.code == "vote_expired" and [n.code for n in lapsed.told] == ["vote_expired"]
        assert tells(port, "u2") == []
        assert (await svc.table(KEY)).version == info.version  # type: ignore[union-attr]
        # the button drawn since (no vote open) opens a new one
        again = await svc.vote_end(KEY, "u2", 0)
        assert again.ok and again.table is not None and again.table.vote is not None
        assert again.table.vote.version != old and again.table.vote.voters == ("u2",)
        # a press of the lapsed vote's button while a new one is open: still refused
        assert (await svc.vote_end(KEY, "u3", old)).code == "vote_expired"
        for lang in LANGUAGES:
            tr = translator(lang)
            for code in ("vote_expired", "vote_twice", "vote_not_player"):
                assert notice_text(Notice(code), tr, {}) != tr.gettext(REFUSAL_FALLBACK)
    finally:
        await close_service(svc, store2)


async def test_voting_hands_the_seat_back_and_only_a_game_in_play_is_voted_on(
    env: Env, clock: Clock
) -> None:
    svc, _store, _ = env
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    assert (await svc.vote_end(KEY, "u1")).code == "not_started"
    assert (await svc.join(KEY, "u2", "Bob")).ok
    assert (await svc.start_game(KEY, "u1")).ok
    assert (await svc.autopilot(KEY, "u2", True)).ok
    res = await svc.vote_end(KEY, "u2")
    assert res.table is not None and res.table.autopilot == () and res.table.vote is not None


@pytest.mark.parametrize("absent", ["remove", "autopilot"])
async def test_the_log_replays_with_the_autopilot(env: Env, clock: Clock, absent: str) -> None:
    """The autopilot's moves are ordinary actions of the player: it plays a whole game for
    two people who asked it to, to its result, and the log rebuilds that game."""
    svc, store, _ = env
    await started(svc, humans=2, absent=absent, target=100)
    assert (await svc.autopilot(KEY, "u1", True)).ok
    assert (await svc.autopilot(KEY, "u2", True)).ok
    await drive(svc, clock, KEY)
    t = await store.get_table(KEY)
    assert t is not None and t.game is not None and t.status == FINISHED
    assert t.game.winner in ("u1", "u2")
    assert replay(await store.actions(KEY), t.game_no) == t.game


async def test_the_setting_is_a_rule_of_the_table_set_like_any_other(env: Env) -> None:
    """``absent`` goes through the settings schema: a menu's SetFlag, /rules' words."""
    from bot.ui import intents
    from bot.ui import settings_schema as schema
    from bot.ui.press import press

    svc, _store, _ = env
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    res = await press(svc, KEY, "u1", intents.SetFlag("absent", "autopilot"))
    assert res is not None and res.ok and res.table is not None
    assert res.table.rules.absent == "autopilot" and res.table.rules.afk_strikes == 3
    summary = schema.rules_summary(res.table.rules, translator("en"), res.table.preset)
    assert "Absent players: a bot plays for them" in summary
    hans = schema.rules_summary(res.table.rules, translator("zh_Hans"), res.table.preset)
    assert "离开的玩家：机器人代打" in hans
    assert (await press(svc, KEY, "u2", intents.SetFlag("absent", "remove"))).code == "not_host"
