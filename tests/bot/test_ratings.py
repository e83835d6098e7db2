"""Ratings and ladders (issue 22): each finished game's order, rated by openskill's
Plackett-Luce model on the chat's and the global ladders, for all time and the season; a
game ended without a result recorded as abandoned; a rebuild from the recorded games equal
to the live ratings. On both stores."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot import ratings
from bot.port import RecordingPort
from bot.ratings import ABANDONED, ALL_TIME, FINISHED, GLOBAL, Entrant, GameResult, Rating
from bot.service import Service
from bot.store import Store
from bot.ui import render
from bot.ui.i18n import LANGUAGES, translator
from engine import Play, Rules, scenario
from tests.bot.helpers import (
    Clock,
    Other,
    close_service,
    drive,
    open_service,
    put_game,
    settings,
    store_path,
)
from tests.bot.service.test_service import DECK

BACKENDS = ("sqlite", "postgresql")

Env = tuple[Service, Store, RecordingPort]
KEY, SCOPE = "t:1", "chat"
SEASON = "2027-01"  # the month of the helpers' fake clock (T0 = 1.8e9, January 2027)


async def every_rating(store: Store) -> dict[tuple[str, str, str], Rating]:
    """Every rating stored, through the store's own reads."""
    out: dict[tuple[str, str, str], Rating] = {}
    for g in await store.game_results():
        for e in g.entrants:
            for r in await store.player_ratings(e.player, [g.scope, GLOBAL]):
                out[(r.scope, r.season, r.player)] = r
    return out


def expected(teams: list[list[tuple[float, float] | None]], ranks: list[float]) -> list:
    """openskill computed directly: each team's players' new (mu, sigma)."""
    model = PlackettLuce()
    rated = model.rate(
        [[model.rating() if p is None else model.rating(*p) for p in team] for team in teams],
        ranks=ranks,
    )
    return [[(r.mu, r.sigma) for r in team] for team in rated]


async def peek_write(db: object, sql: str) -> None:
    """A statement run on the database by another program."""
    async with Other(db) as other:  # type: ignore[arg-type]
        await other.rows(sql)


def ladders_of(scope: str) -> list[tuple[str, str]]:
    return [(scope, ALL_TIME), (scope, SEASON), (GLOBAL, ALL_TIME), (GLOBAL, SEASON)]


# -- a known game, rated live, as openskill rates it ----------------------------------------------


async def test_a_game_won_is_rated_as_openskill_rates_its_order(
    env: Env, store: Store, clock: Clock
) -> None:
    svc, _, _ = env
    # A goes out; B holds 7 points, C 21: the order is A, B, C
    g = scenario(
        {"A": ["R1"], "B": ["Y3", "Y4"], "C": ["G1", "GS"]},
        ["R5"],
        draw_pile=DECK,
        rules=Rules(target=0),
    )
    await put_game(store, KEY, g, clock=clock, bots={"C": "smart"})
    assert (await svc.act(KEY, "A", Play("R1"))).ok

    [game] = await store.game_results()
    assert game.outcome == FINISHED and game.scope == SCOPE and game.season == SEASON
    assert game.table_key == KEY and game.game_no == 1 and game.ended == clock()
    assert [(e.player, e.place, e.bot) for e in game.entrants] == [
        ("A", 1, None),
        ("B", 2, None),
        ("C", 3, "smart"),  # a bot seat is rated as a player
    ]
    want = expected([[None], [None], [None]], [1, 2, 3])
    stored = await every_rating(store)
    assert len(stored) == 12  # three players on four ladders
    for scope, season in ladders_of(SCOPE):
        for player, [(mu, sigma)] in zip("ABC", want, strict=True):
            r = stored[(scope, season, player)]
            assert (r.mu, r.sigma) == (mu, sigma)
            assert r.games == 1 and r.name == player.upper()
    a, c = stored[(SCOPE, ALL_TIME, "A")], stored[(SCOPE, ALL_TIME, "C")]
    assert (a.wins, a.places, c.wins, c.places, c.bot) == (1, 1, 0, 3, "smart")
    assert a.shown == round(40 * (a.mu - 3 * a.sigma)) and a.shown > c.shown
    assert a.provisional

    # a second game at the table starts from the ratings the first left; B and C tie
    g2 = scenario(
        {"B": ["R1"], "A": ["Y3", "Y4"], "C": ["G3", "G4"]},
        ["R5"],
        draw_pile=DECK,
        rules=Rules(target=0),
    )
    await put_game(store, "t:2", g2, clock=clock)
    clock.advance(60)
    assert (await svc.act("t:2", "B", Play("R1"))).ok
    places = {e.player: e.place for e in (await store.game_results())[1].entrants}
    assert places == {"B": 1, "A": 2, "C": 2}  # equal points: a tie
    after = await every_rating(store)
    before = {
        p: (stored[(SCOPE, ALL_TIME, p)].mu, stored[(SCOPE, ALL_TIME, p)].sigma) for p in "BAC"
    }
    want2 = expected([[before["B"]], [before["A"]], [before["C"]]], [1, 2, 2])
    for player, [(mu, sigma)] in zip("BAC", want2, strict=True):
        r = after[(SCOPE, ALL_TIME, player)]
        assert (r.mu, r.sigma, r.games) == (mu, sigma, 2)


async def test_partners_are_rated_as_teams(env: Env, store: Store, clock: Clock) -> None:
    svc, _, _ = env
    # partners sit opposite: A and C against B and D; A goes out, their team wins
    g = scenario(
        {"A": ["R1"], "B": ["Y3"], "C": ["G9", "G8"], "D": ["B2"]},
        ["R5"],
        draw_pile=DECK,
        rules=Rules(target=0, partners=True),
    )
    await put_game(store, KEY, g, clock=clock)
    assert (await svc.act(KEY, "A", Play("R1"))).ok
    [game] = await store.game_results()
    groups = {e.player: (e.group, e.place) for e in game.entrants}
    assert groups["A"] == groups["C"] and groups["B"] == groups["D"]
    assert groups["A"][1] == 1 and groups["B"][1] == 2
    [[ac, _], [bd, _]] = expected([[None, None], [None, None]], [1, 2])
    stored = await every_rating(store)
    for scope, season in ladders_of(SCOPE):
        assert (stored[(scope, season, "C")].mu, stored[(scope, season, "C")].sigma) == ac
        assert (stored[(scope, season, "D")].mu, stored[(scope, season, "D")].sigma) == bd
        assert stored[(scope, season, "C")].wins == 1


async def test_a_player_who_left_mid_game_is_last(env: Env, store: Store, clock: Clock) -> None:
    svc, _, _ = env
    # D leaves; then A goes out. B holds 70 points, C 1: A, C, B, then D
    g = scenario(
        {"A": ["R1"], "B": ["W4", "GS"], "C": ["G1"], "D": ["B2", "B3"]},
        ["R5"],
        draw_pile=DECK,
        rules=Rules(target=0),
    )
    await put_game(store, KEY, g, clock=clock)
    assert (await svc.leave(KEY, "D")).ok
    assert (await svc.act(KEY, "A", Play("R1"))).ok
    [game] = await store.game_results()
    order = [(e.player, e.place, e.left) for e in game.entrants]
    assert order == [("A", 1, False), ("C", 2, False), ("B", 3, False), ("D", 4, True)]
    want = expected([[None], [None], [None], [None]], [1, 2, 3, 4])
    stored = await every_rating(store)
    assert (stored[(SCOPE, ALL_TIME, "D")].mu, stored[(SCOPE, ALL_TIME, "D")].sigma) == want[3][0]


# -- a game ended without a result ----------------------------------------------------------------


async def test_a_stopped_game_is_recorded_abandoned_and_not_rated(
    env: Env, store: Store, clock: Clock
) -> None:
    svc, _, _ = env
    assert (await svc.create(KEY, SCOPE, "u1", "Ann")).ok
    assert (await svc.join(KEY, "u2", "Bo")).ok
    assert (await svc.add_bot(KEY, "u1")).ok
    assert (await svc.start_game(KEY, "u1")).ok
    assert (await svc.stop_game(KEY, "u1")).ok
    [game] = await store.game_results()
    assert game.outcome == ABANDONED and not game.rated
    assert [(e.player, e.name, e.place) for e in game.entrants] == [
        ("u1", "Ann", None),
        ("u2", "Bo", None),
        (f"bot:{KEY}:1", "Bot 1", None),
    ]
    assert await every_rating(store) == {}
    assert await store.ladder(SCOPE, ALL_TIME) == []
    # a lobby stopped had no game: nothing is recorded
    assert (await svc.create("t:2", SCOPE, "u1", "Ann")).ok
    assert (await svc.stop_game("t:2", "u1")).ok
    assert len(await store.game_results()) == 1


async def test_a_game_every_person_left_is_abandoned(env: Env, store: Store) -> None:
    svc, _, _ = env
    assert (await svc.create(KEY, SCOPE, "u1", "Ann")).ok
    for _ in range(2):
        assert (await svc.add_bot(KEY, "u1")).ok
    assert (await svc.start_game(KEY, "u1")).ok
    assert (await svc.leave(KEY, "u1")).ok  # the bots alone: the table closes
    [game] = await store.game_results()
    assert game.outcome == ABANDONED
    assert [e.left for e in game.entrants] == [True, False, False]
    assert await every_rating(store) == {}


# -- a rebuild gives the live numbers -------------------------------------------------------------


async def bots_game(
    svc: Service, clock: Clock, key: str, scope: str, n: int, **over: object
) -> None:
    """A whole game of ``n`` bot seats at ``key``, played by the timers."""
    assert (await svc.create(key, scope, "host", "Host", seat_host=False, overrides=over)).ok
    for _ in range(n):
        assert (await svc.add_bot(key, "host", "basic")).ok
    assert (await svc.start_game(key, "host")).ok
    await drive(svc, clock, key)
    info = await svc.table(key)
    assert info is not None and info.status == FINISHED, info


async def test_a_rebuild_equals_the_live_ratings(env: Env, store: Store, clock: Clock) -> None:
    svc, _, _ = env
    quick = {"target": 0, "hand_size": 3}
    await bots_game(svc, clock, "t:1", "chat1", 3, **quick)
    await bots_game(svc, clock, "t:2", "chat2", 4, **quick, partners=True)
    clock.advance(40 * 86400)  # another season
    await bots_game(svc, clock, "t:1", "chat1", 4, **quick, places=True)
    await bots_game(svc, clock, "t:1", "chat1", 2, **quick)
    games = await store.game_results()
    assert [g.season for g in games] == [SEASON, SEASON, "2027-02", "2027-02"]
    live = await every_rating(store)
    assert len(live) == len(ratings.replay(games))
    assert ratings.replay(games) == live  # the same floats: the same order, the same model

    # the rebuild deletes the ratings and counts every game again, in one transaction
    await svc.rebuild_ratings()
    assert await every_rating(store) == live
    top = await store.ladder("chat1", ALL_TIME, 3)
    assert [r.ordinal for r in top] == sorted((r.ordinal for r in top), reverse=True)


async def test_a_rebuild_from_the_command_line(env: Env, store: Store, clock: Clock) -> None:
    from bot.cli import build_parser, ratings_command

    svc, _, _ = env
    await bots_game(svc, clock, KEY, SCOPE, 3, target=0, hand_size=3)
    live = await every_rating(store)
    db = store_path(store)
    await svc.stop()
    await store.close()
    # the ratings lost: the rebuild makes them again from the recorded games
    await peek_write(db, "DELETE FROM ratings")
    said: list[str] = []
    args = build_parser().parse_args(["ratings", "--rebuild", "--db", str(db), "--scope", SCOPE])
    assert await ratings_command(args, settings(), said.append) == 0
    assert said[0] == "ratings rebuilt from 1 rated games (1 recorded)"
    assert "🏆 Ladder: Here, all time" in said[1] and "Bot 1 (basic)" in said[1]
    await store.open()
    assert await every_rating(store) == live and live


# -- a chat that became another -------------------------------------------------------------------


async def test_ratings_follow_a_chat_that_moved(env: Env, store: Store, clock: Clock) -> None:
    svc, _, _ = env
    await bots_game(svc, clock, "g:1", "g:1", 3, target=0, hand_size=3)
    before = await store.ladder("g:1", ALL_TIME)
    assert len(before) == 3
    await svc.move_scope("g:1", "g:2", lambda k: k.replace("g:1", "g:2"))
    assert await store.ladder("g:1", ALL_TIME) == []
    after = await store.ladder("g:2", ALL_TIME)
    assert [(r.player, r.mu, r.sigma) for r in after] == [
        (r.player, r.mu, r.sigma) for r in before
    ]
    assert {g.scope for g in await store.game_results()} == {"g:2"}


# -- what /rank and /top read and say -------------------------------------------------------------


async def test_rank_and_top_in_three_languages(env: Env, store: Store, clock: Clock) -> None:
    svc, _, _ = env
    g = scenario(
        {"A": ["R1"], "B": ["Y3", "Y4"], "C": ["G1", "GS"]},
        ["R5"],
        draw_pile=DECK,
        rules=Rules(target=0),
    )
    await put_game(store, KEY, g, clock=clock)
    assert (await svc.act(KEY, "A", Play("R1"))).ok
    rank = await svc.rank(SCOPE, "A")
    assert [(ev, season) for ev, season, _ in rank] == [
        (False, SEASON),
        (False, None),
        (True, SEASON),
        (True, None),
    ]
    assert all(r is not None and r.wins == 1 for _, _, r in rank)
    top = await svc.top(SCOPE)
    assert [[r.player for r in lines] for _, _, lines in top] == [["A", "B", "C"]] * 2
    assert [(ev, s) for ev, s, _ in await svc.top(GLOBAL)] == [(True, SEASON), (True, None)]
    assert await svc.rated_named(SCOPE, "b") == "B"
    assert await svc.rated_named("elsewhere", "C") == "C"  # everywhere's, then
    assert await svc.rated_named(SCOPE, "Nobody") is None
    shown = rank[1][2]
    assert shown is not None
    for lang in LANGUAGES:
        tr = translator(lang)
        text = render.rank_text("A", rank, tr)
        assert text.splitlines()[0] == tr.gettext("🏅 {player}", player="A")
        assert tr.gettext("{rating} (provisional)", rating=shown.shown) in text
        assert tr.gettext("Here, season {season}", season=SEASON) in text
        board = render.top_text(top, tr)
        assert tr.gettext("🏆 Ladder: {ladder}", ladder=tr.gettext("Here, all time")) in board
        none = render.rank_text("Zed", await svc.rank(SCOPE, "Z"), tr)
        assert none == tr.gettext("{player} has no rating yet: finish a game first.", player="Zed")
        if lang != "en":
            assert text != render.rank_text("A", rank, translator("en"))


async def test_seasons_off(tmp_path, clock: Clock) -> None:
    svc, store, _ = await open_service(tmp_path / "uno.sqlite3", clock, season="none")
    try:
        await bots_game(svc, clock, KEY, SCOPE, 2, target=0, hand_size=3)
        [game] = await store.game_results()
        assert game.season is None
        assert game.ladders() == [(SCOPE, ALL_TIME), (GLOBAL, ALL_TIME)]
        assert [(ev, s) for ev, s, _ in await svc.top(SCOPE)] == [(False, None)]
        assert svc.season() is None
    finally:
        await close_service(svc, store)


# -- the order of a game, without a database ------------------------------------------------------


def test_places_give_the_order_after_the_winner() -> None:
    result = GameResult(
        "k", 1, "s", 0.0, FINISHED,
        (Entrant("a", "A", group=0, place=1), Entrant("b", "B", group=1, place=2)),
    )  # fmt: skip
    assert result.rated and result.ladders() == [("s", ALL_TIME), (GLOBAL, ALL_TIME)]
    one_side = GameResult("k", 1, "s", 0.0, FINISHED, (Entrant("a", "A", group=0, place=1),))
    assert not one_side.rated


@pytest.mark.parametrize("mode", ["month", "none", "year"])
def test_season_of(mode: str) -> None:
    if mode == "year":
        with pytest.raises(ValueError):
            ratings.season_of(0.0, mode)
        return
    assert ratings.season_of(1_800_000_000.0, mode) == (SEASON if mode == "month" else None)


async def test_games_rated_at_once_by_two_processes_rate_as_the_rebuild_does(
    store: Store, backend: str
) -> None:
    """Games ending at the same moment, in two processes on PostgreSQL (one on SQLite,
    its commits grouped), with the same players: each rated on the ratings the one before
    it left, in the order of their ids, so the live ratings are the rebuild's."""
    from bot.store import WriteBatch, store_for

    other = store
    if backend == "postgresql":
        other = store_for(store_path(store))
        await other.open()
    try:
        players = ["p1", "p2", "p3", "p4", "p5"]

        def game(n: int) -> GameResult:
            seated = [players[(n + i) % 5] for i in range(3)]
            return GameResult(
                f"t:{n % 4}", n, f"chat{n % 2}", 1_800_000_000.0 + n, FINISHED,
                tuple(Entrant(p, p.upper(), group=i, place=i + 1) for i, p in enumerate(seated)),
                SEASON,
            )  # fmt: skip

        async def play(s: Store, first: int) -> None:
            for n in range(first, 60, 2):
                await s.write(WriteBatch(games=[game(n)]))

        import asyncio

        await asyncio.gather(play(store, 0), play(other, 1))
        games = await store.game_results()
        assert len(games) == 60
        live = await every_rating(store)
        assert live == ratings.replay(games)
        assert live[(GLOBAL, ALL_TIME, "p1")].games == 36  # every game of p1 counted
    finally:
        if other is not store:
            await other.close()
