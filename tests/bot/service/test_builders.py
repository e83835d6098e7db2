"""The lobby and play as pure step builders: a table in, a ``Step`` (or ``Refused``) out,
with no store, no port and no clock but the ``Ctx`` given (like the engine's families)."""

from __future__ import annotations

import random

import pytest

from bot.model import FINISHED, LOBBY, PLAYING, STOPPED, Deadline, Seat, Table
from bot.ops.config import Settings
from bot.service import Refused, lobby, play
from bot.service.deadlines import build as fire
from bot.service.runner import recent_event
from bot.service.steps import Ctx
from bot.service.windows import window
from bot.ui import render
from engine import (
    CardsDrawn,
    Draw,
    GameWon,
    Leave,
    Play,
    RoundWon,
    Rules,
    UnoWindowClosed,
    apply,
    legal_actions,
    new_game_events,
    redact,
    scenario,
)
from engine.cards import Card

NOW = 1_000.0
KEY = "t:chat:1"


def ctx(now: float = NOW, *, reports: bool = False) -> Ctx:
    settings = Settings(lobby_seconds=300, round_pause_seconds=5.0, show_wait_seconds=10.0)
    return Ctx(now=now, settings=settings, bot_delay=1.5, rng=random.Random(7), reports=reports)


def lobby_of(*players: str) -> Table:
    step = lobby.create(
        None, KEY, "chat", players[0], players[0].upper(), ctx(),
        preset="official", overrides={}, lang=None,
    )  # fmt: skip
    t = step.table
    for p in players[1:]:
        t = lobby.join(t, p, p.upper(), ctx()).table
    return t


def in_play(game: object, **kw: object) -> Table:
    t = lobby_of("u1", "u2")
    return t.evolve(status=PLAYING, game=game, game_no=1, **kw)


def test_a_lobby_is_opened_with_its_deadline_and_refused_where_one_is_open() -> None:
    t = lobby_of("u1")
    assert t.status == LOBBY and t.version == 1 and t.created == NOW
    assert [s.id for s in t.seats] == ["u1"]
    assert t.deadlines == (Deadline("lobby", NOW + 300, 0),)
    with pytest.raises(Refused) as r:
        lobby.create(t, KEY, "chat", "u2", "B", ctx(), preset="official", overrides={}, lang=None)
    assert r.value.code == "table_exists"


def test_joining_seats_once_and_the_table_is_not_changed_in_place() -> None:
    t = lobby_of("u1")
    step = lobby.join(t, "u2", "Bob", ctx(NOW + 5))
    assert [s.id for s in step.table.seats] == ["u1", "u2"]
    assert step.table.version == 2 and step.table.updated == NOW + 5
    assert [s.id for s in t.seats] == ["u1"]  # the table given is left as it was
    with pytest.raises(Refused) as r:
        lobby.join(step.table, "u2", "Bob", ctx())
    assert r.value.code == "already_joined"
    with pytest.raises(Refused) as r:
        lobby.join(None, "u3", "Cy", ctx())
    assert r.value.code == "no_table"


def test_only_the_host_starts_and_the_start_is_logged_to_replay() -> None:
    t = lobby_of("u1", "u2")
    with pytest.raises(Refused) as r:
        lobby.start(t, "u2", ctx())
    assert r.value.code == "not_host"
    step = lobby.start(t, "u1", ctx())
    assert step.table.status == PLAYING and step.table.game_no == 1
    (rec,) = step.actions
    assert rec.action["type"] == "Start" and rec.action["players"] == ["u1", "u2"]
    g, events = new_game_events(["u1", "u2"], Rules(), seed=t.seed)
    assert step.table.game == g and step.events == list(events)  # the seed replays it
    assert {d.kind for d in step.table.deadlines} >= {"turn"}


def test_a_host_who_leaves_the_lobby_hands_it_on_and_the_last_closes_it() -> None:
    t = lobby_of("u1", "u2")
    step = lobby.remove(t, "u1", "u1", ctx(), admin=False)
    assert step.table.host == "u2"
    assert [n.code for n in step.notices] == ["info.left", "info.new_host"]
    last = lobby.remove(step.table, "u2", "u2", ctx(), admin=False)
    assert last.table.status == STOPPED and last.closed
    assert last.table.deadlines == ()


def test_a_move_is_applied_recorded_and_its_turn_armed() -> None:
    g = scenario({"u1": ["R5", "R7"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=["G5"] * 9)
    t = in_play(g, version=4, turn_version=4)
    step = play.act(t, "u1", Play(Card.parse("R5")), 4, ctx())
    nt = step.table
    assert nt.version == 5 and nt.turn_version == 5 and nt.game is not None
    assert nt.game.current == "u2"
    assert [r.player for r in step.actions] == ["u1"] and step.actions[0].version == 5
    turn = nt.deadline("turn")
    assert turn == Deadline("turn", NOW + g.rules.turn_seconds, 5)


def test_a_port_that_reports_shown_arms_a_turn_longer_until_it_is_seen() -> None:
    g = scenario({"u1": ["R5", "R7"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=["G5"] * 9)
    t = in_play(g, version=4, turn_version=4)
    step = play.act(t, "u1", Play(Card.parse("R5")), 4, ctx(reports=True))
    assert step.table.deadline("turn") == Deadline("turn", NOW + g.rules.turn_seconds + 10, 5)


def test_refusals_are_decided_on_the_table_given() -> None:
    g = scenario({"u1": ["R5", "R7"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=["G5"] * 9)
    t = in_play(g, version=4, turn_version=4)
    for player, action, seen, code in [
        ("u2", Draw(), 4, "not_your_turn"),
        ("u1", Draw(), 3, "stale"),
        ("u9", Draw(), 4, "not_a_player"),
        ("u1", Play(Card.parse("G2")), 4, "card_not_in_hand"),
    ]:
        with pytest.raises(Refused) as r:
            play.act(t, player, action, seen, ctx())
        assert r.value.code == code
    assert t.version == 4 and t.game is g  # nothing changed


def test_the_last_card_finishes_the_game_with_statistics_and_a_rating() -> None:
    g = scenario({"u1": ["R5"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=["G5"] * 9,
                 rules=Rules(target=0))  # fmt: skip
    t = in_play(g, version=2, turn_version=2)
    step = play.act(t, "u1", Play(Card.parse("R5")), 2, ctx())
    assert step.table.status == FINISHED and step.closed
    assert any(isinstance(e, GameWon) for e in step.events)
    assert {(s.scope, s.player, s.wins) for s in step.stats if s.games} == {
        ("chat", "u1", 1), ("*", "u1", 1), ("chat", "u2", 0), ("*", "u2", 0),
    }  # fmt: skip
    assert len(step.games) == 1 and step.games[0].rated and step.games[0].ended == NOW


def test_a_turn_that_runs_out_times_out_through_its_deadline() -> None:
    g = scenario({"u1": ["R5", "R7"], "u2": ["B1", "G2"]}, ["R1"], draw_pile=["G5"] * 9)
    t = in_play(g, version=4, turn_version=4, deadlines=(Deadline("turn", NOW, 4),))
    step = fire(t, Deadline("turn", NOW, 4), ctx(), lambda: False)
    assert step is not None and step.table.strikes == {"u1": 1}
    late = fire(t, Deadline("turn", NOW, 4), ctx(), lambda: True)
    assert late is not None and late.table.strikes == {}  # the bot was down: no strike
    assert fire(t, Deadline("turn", NOW, 3), ctx(), lambda: False) is None  # moved on


def test_a_bot_seat_moves_when_its_deadline_falls() -> None:
    g = scenario({"u1": ["R5", "R7"], "b": ["R2", "G2"]}, ["R1"], current="b",
                 draw_pile=["G5"] * 9)  # fmt: skip
    t = in_play(g, version=3, turn_version=3)
    t = t.evolve(seats=(Seat("u1", "U1"), Seat("b", "Bot 1", "smart")))
    t = t.evolve(deadlines=(Deadline("bot", NOW, 3),))
    step = fire(t, Deadline("bot", NOW, 3), ctx(), lambda: False)
    assert step is not None and [r.player for r in step.actions] == ["b"]


def test_a_window_s_length_is_read_in_one_place() -> None:
    g = scenario({"u1": ["R5"], "u2": ["B1"]}, ["R1"], rules=Rules(turn_seconds=45))
    assert window("turn", g) == 45.0
    assert window(f"uno:{'u1'}", g) == float(g.rules.uno_window_seconds)
    assert window("bot", g) is None and window("turn", None) is None


def test_a_leave_mid_game_by_the_last_person_closes_the_table() -> None:
    hands = {"u1": ["R5", "R7"], "b1": ["B1", "G2"], "b2": ["Y1", "G3"]}
    g = scenario(hands, ["R1"], draw_pile=["G5"] * 9)
    t = in_play(g, version=4, turn_version=4)
    bots = (Seat("b1", "Bot 1", "smart"), Seat("b2", "Bot 2", "smart"))
    t = t.evolve(seats=(Seat("u1", "U1"), *bots))
    step = play.act(t, "u1", Leave(), 4, ctx())
    assert step.table.status == STOPPED and step.closed
    assert [n.code for n in step.notices][-1] == "info.closed_empty"
    assert len(step.games) == 1 and not step.games[0].rated  # abandoned: never rated


@pytest.mark.parametrize("seed", range(12))
def test_what_a_table_keeps_of_its_events_is_what_it_shows(seed: int) -> None:
    """The service decides a table's recent lines on events; the renderer's ``table_line``
    says the same of every public event of whole games."""
    rng = random.Random(seed)
    g, events = new_game_events(["a", "b", "c"], Rules(target=0), seed=seed)
    seen = list(events)
    for _ in range(400):
        if g.winner is not None or g.current is None:
            break
        p = g.current
        actions = legal_actions(g, p)
        g, ev = apply(g, p, rng.choice(actions))
        seen.extend(ev)
    extra = [
        CardsDrawn("a", 0, None, "draw"), CardsDrawn("a", 0, None, "penalty"),
        CardsDrawn("a", 2, None, "uno"), CardsDrawn("a", 2, None, "challenge"),
        CardsDrawn("a", 4, None, "false_uno"), UnoWindowClosed("a"),
        RoundWon("a", 10, 1, "out"), GameWon("a"),
    ]  # fmt: skip
    for e in [redact(e, None) for e in seen] + extra:
        assert recent_event(e) == render.table_line(e), e
