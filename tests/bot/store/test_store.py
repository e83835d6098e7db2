"""The store, on SQLite and on PostgreSQL: rows, queries, group commit, what a failed
commit does, revisions and stale batches, migrations."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

import engine
from bot.model import FINISHED, LOBBY, PLAYING, STOPPED, Deadline, Seat, Table
from bot.store import (
    ActionRecord,
    ChatSettings,
    ChatUpdate,
    SchemaTooNew,
    ShownMark,
    SqliteStore,
    Stale,
    StatUpdate,
    Store,
    StoreError,
    Unsent,
    WriteBatch,
    migrations,
    store_for,
)
from bot.store.sqlite import _statements
from tests.bot.helpers import Other

BACKENDS = ("sqlite", "postgresql")


def table(key: str, status: str = LOBBY, version: int = 1, **kw: object) -> Table:
    base: dict[str, object] = {
        "key": key,
        "scope": "chat",
        "host": "u1",
        "status": status,
        "version": version,
        "turn_version": version,
        "seats": (Seat("u1", "Ann"), Seat("bot:x:1", "Bot 1", "smart")),
        "created": 1.0,
        "updated": 2.0,
    }
    base.update(kw)
    return Table(**base)  # type: ignore[arg-type]


async def test_a_table_comes_back_as_it_was_stored(store: Store) -> None:
    g = engine.new_game(["u1", "bot:x:1"], engine.Rules.preset("house"), seed=3)
    t = table(
        "t:1",
        PLAYING,
        version=5,
        turn_version=4,
        game_no=2,
        waiting=("u3",),
        preset="house",
        overrides={"uno_penalty": 4},
        lang="zh_Hant",
        seed=99,
        meta={"msg": 12, "名字": "桌子"},
        strikes={"u1": 2},
        played={"u1": 7},
        deadlines=(Deadline("turn", 100.5, 4), Deadline("uno:u1", 90.0, 0)),
    ).evolve(game=g)
    await store.write(WriteBatch(tables=[t]))
    back = await store.get_table("t:1")
    assert back is not None
    fields = ["key", "scope", "host", "status", "version", "turn_version", "game_no", "seats"]
    fields += ["waiting", "preset", "overrides", "lang", "seed", "meta", "strikes", "played"]
    for name in [*fields, "created", "updated"]:
        assert getattr(back, name) == getattr(t, name), name
    assert set(back.deadlines) == set(t.deadlines)
    assert back.game is not None and engine.game_to_json(back.game) == engine.game_to_json(g)
    assert back.rules == engine.Rules.preset("house", uno_penalty=4)
    assert await store.get_table("t:none") is None


async def test_open_tables_and_their_deadlines(store: Store) -> None:
    await store.write(
        WriteBatch(
            tables=[
                table("a", LOBBY, deadlines=(Deadline("lobby", 5.0, 0),)),
                table("b", PLAYING, deadlines=(Deadline("turn", 6.0, 1), Deadline("bot", 7, 1))),
                table("c", FINISHED),
                table("d", STOPPED),
            ]
        )
    )
    open_ = {t.key: t for t in await store.load_open_tables()}
    assert set(open_) == {"a", "b"}
    assert open_["a"].deadlines == (Deadline("lobby", 5.0, 0),)
    assert {d.kind for d in open_["b"].deadlines} == {"turn", "bot"}
    # a later write replaces a table's deadlines entirely
    await store.write(WriteBatch(tables=[table("b", PLAYING, version=2)]))
    b = await store.get_table("b")
    assert b is not None and b.deadlines == () and b.version == 2


async def test_actions_are_kept_in_order(store: Store) -> None:
    recs = [ActionRecord("t", 1, v, "u1", {"type": "Draw", "n": v}, float(v)) for v in (3, 1, 2)]
    for r in recs:
        await store.write(WriteBatch(actions=[r]))
    await store.write(WriteBatch(actions=[ActionRecord("other", 1, 1, "u2", {}, 0.0)]))
    assert await store.actions("t") == recs  # in the order written, whatever the versions
    assert await store.actions("none") == []


async def test_statistics_add_up_per_scope(store: Store) -> None:
    await store.write(
        WriteBatch(
            stats=[
                StatUpdate("s1", "u1", "Ann", games=1, wins=1, points=50, cards_played=10),
                StatUpdate("s1", "u2", "Bob", games=1, points=0, cards_played=8),
                StatUpdate("s2", "u2", "Bob", games=1, wins=1, points=10),
            ]
        )
    )
    await store.write(
        WriteBatch(stats=[StatUpdate("s1", "u2", "Bobby", games=1, wins=1, points=70)])
    )
    await store.write(WriteBatch(stats=[StatUpdate("s1", "u3", "Cy", rounds_won=1)]))
    board = await store.leaderboard("s1")
    assert [s.player for s in board] == ["u2", "u1"]  # same wins: more points first
    u2 = board[0]
    assert (u2.name, u2.games, u2.wins, u2.points, u2.cards_played) == ("Bobby", 2, 1, 70, 8)
    assert [s.player for s in await store.leaderboard("s1", limit=1)] == ["u2"]
    assert [s.player for s in await store.leaderboard("s2")] == ["u2"]
    assert await store.leaderboard("s3") == []
    u3 = await store.player_stats("s1", "u3")  # a round won, no game finished yet
    assert u3 is not None and (u3.games, u3.rounds_won) == (0, 1)
    assert await store.player_stats("s2", "u1") is None


async def test_chat_and_user_settings(store: Store) -> None:
    assert await store.chat_settings("c") == ChatSettings()
    await store.write(WriteBatch(chat_settings=[ChatUpdate("c", "house", {"jump_in": False})]))
    await store.write(WriteBatch(chat_settings=[ChatUpdate("c", lang="zh_Hans")]))  # keeps rules
    assert await store.chat_settings("c") == ChatSettings("house", {"jump_in": False}, "zh_Hans")
    await store.write(WriteBatch(chat_settings=[ChatUpdate("c", "party", {})]))
    assert await store.chat_settings("c") == ChatSettings("party", {}, "zh_Hans")
    # a field left out is kept; a language of None is cleared, the rules kept
    await store.write(WriteBatch(chat_settings=[ChatUpdate("c", overrides={"jump_in": True})]))
    assert await store.chat_settings("c") == ChatSettings("party", {"jump_in": True}, "zh_Hans")
    await store.write(WriteBatch(chat_settings=[ChatUpdate("c", lang=None)]))
    assert await store.chat_settings("c") == ChatSettings("party", {"jump_in": True}, None)
    await store.write(WriteBatch(chat_settings=[ChatUpdate("c")]))  # nothing to change
    assert await store.chat_settings("c") == ChatSettings("party", {"jump_in": True}, None)
    await store.write(WriteBatch(chat_settings=[ChatUpdate("new", lang=None)]))  # a new row
    assert await store.chat_settings("new") == ChatSettings()
    await store.write(WriteBatch(user_settings=[("u", "zh_Hant")]))
    assert await store.user_lang("u") == "zh_Hant"
    await store.write(WriteBatch(user_settings=[("u", None)]))
    assert await store.user_lang("u") is None
    assert await store.user_lang("nobody") is None


async def test_a_users_card_look_is_kept_beside_their_language(store: Store) -> None:
    """Issue 19 item 5: how a person wants their cards shown, a setting of theirs as their
    language is; writing one leaves the other as it was."""
    assert await store.user_cards("u") is None
    await store.write(WriteBatch(user_settings=[("u", "zh_Hant")]))
    await store.write(WriteBatch(user_cards=[("u", "text")]))
    assert (await store.user_lang("u"), await store.user_cards("u")) == ("zh_Hant", "text")
    await store.write(WriteBatch(user_settings=[("u", "en")]))
    assert (await store.user_lang("u"), await store.user_cards("u")) == ("en", "text")
    # both in one batch, and batches committed together
    await store.write(WriteBatch(user_settings=[("v", "zh_Hans")], user_cards=[("v", "text")]))
    await asyncio.gather(
        store.write(WriteBatch(user_cards=[("v", "pictures")])),
        store.write(WriteBatch(user_settings=[("u", "zh_Hans")])),
    )
    assert (await store.user_lang("v"), await store.user_cards("v")) == ("zh_Hans", "pictures")
    assert (await store.user_lang("u"), await store.user_cards("u")) == ("zh_Hans", "text")
    await store.write(WriteBatch(user_cards=[("u", None)]))
    assert (await store.user_lang("u"), await store.user_cards("u")) == ("zh_Hans", None)
    assert await store.user_cards("nobody") is None


async def test_chats_owed_replies_are_marked_until_their_holder_clears_them(
    store: Store,
) -> None:
    """Issue 19 item 11: a chat owed replies keeps its mark until the process that holds it
    clears it (another's clear leaves it), with the time of its last progress."""
    await store.write(
        WriteBatch(
            unsent=[
                Unsent("tg:-1", "a", 10.0),
                Unsent("tg:-2:7", "a", 11.0),
                Unsent("tg:-3", "b", 12.0),
                Unsent("dc:4", "a", 10.0),
            ]
        )
    )
    assert await store.unsent("tg", 100.0) == [
        Unsent("tg:-1", "a", 10.0),
        Unsent("tg:-2:7", "a", 11.0),
        Unsent("tg:-3", "b", 12.0),
    ]
    assert await store.unsent("tg", 11.0) == [Unsent("tg:-1", "a", 10.0)]
    # cleared by its holder only; in one batch the latest word of a holder counts
    await store.write(
        WriteBatch(
            unsent=[
                Unsent("tg:-1", "b", None),
                Unsent("tg:-2:7", "a", None),
                Unsent("tg:-3", "b", None),
                Unsent("tg:-3", "b", 20.0),
            ]
        )
    )
    assert await store.unsent("tg", 100.0) == [
        Unsent("tg:-1", "a", 10.0),
        Unsent("tg:-3", "b", 20.0),
    ]
    assert await store.unsent("dc", 100.0) == [Unsent("dc:4", "a", 10.0)]
    # a process takes another's old marks (once: they are its own then)
    assert await store.take_unsent("tg", "b", 15.0, 30.0) == [Unsent("tg:-1", "a", 10.0)]
    assert await store.take_unsent("tg", "c", 15.0, 31.0) == []
    assert await store.unsent("tg", 100.0) == [
        Unsent("tg:-1", "b", 30.0),
        Unsent("tg:-3", "b", 20.0),
    ]


async def test_group_commit_answers_each_caller_after_its_commit(db: Path | str) -> None:
    store = store_for(db)
    await store.open()
    try:
        commits_before = store.commits

        async def one(i: int) -> bool:
            await store.write(
                WriteBatch(
                    tables=[table(f"t{i}", PLAYING, version=i)],
                    actions=[ActionRecord(f"t{i}", 1, i, "u1", {"type": "Draw"}, 0.0)],
                )
            )
            # answered only once committed: another connection sees it at once
            found = await other.rows("SELECT version FROM tables WHERE key = ?", f"t{i}")
            n = await other.rows("SELECT count(*) FROM actions WHERE table_key = ?", f"t{i}")
            return found == [(i,)] and n == [(1,)]

        async with Other(db) as other:
            seen = await asyncio.gather(*(one(i) for i in range(200)))
        assert all(seen)
        assert store.batches - 0 >= 200
        assert store.commits - commits_before < 200  # they shared commits
    finally:
        await store.close()


async def test_a_failing_commit_fails_every_caller_of_its_batch(db: Path | str) -> None:
    store = store_for(db)
    await store.open()
    try:
        good = [WriteBatch(tables=[table(f"ok{i}")]) for i in range(5)]
        # NOT NULL on stats.name: fails inside the transaction, after the tables' rows
        bad = WriteBatch(stats=[StatUpdate("s", "u", None)])  # type: ignore[arg-type]
        results = await asyncio.gather(
            *(store.write(b) for b in [*good[:2], bad, *good[2:]]), return_exceptions=True
        )
        integrity = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)
        assert all(isinstance(r, integrity) for r in results), results
        assert await store.load_open_tables() == []  # rolled back: none of them is there
        assert await store.leaderboard("s") == []
        # the store carries on
        await store.write(good[0])
        assert [t.key for t in await store.load_open_tables()] == ["ok0"]
    finally:
        await store.close()


async def test_writes_wait_for_close_and_refuse_after(db: Path | str) -> None:
    store = store_for(db)
    await store.open()
    pending = [
        asyncio.ensure_future(store.write(WriteBatch(tables=[table(f"t{i}")]))) for i in range(50)
    ]
    await asyncio.sleep(0)
    await store.close()
    await asyncio.gather(*pending)  # all committed before the store closed
    with pytest.raises(RuntimeError, match="not open"):
        await store.write(WriteBatch())
    store = store_for(db)
    await store.open()
    assert len(await store.load_open_tables()) == 50
    await store.close()


async def test_a_store_in_memory() -> None:
    store = SqliteStore(":memory:")
    await store.open()
    try:
        await store.write(WriteBatch(tables=[table("m")]))
        assert (await store.get_table("m")) is not None
        assert await store.schema_version() == len(migrations())
    finally:
        await store.close()


def test_migration_files_split_into_statements() -> None:
    sql = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE a (x TEXT DEFAULT 'a;b');\n"
        "\n"
        "CREATE INDEX a_x ON a (x);  -- trailing\n"
        "-- the end\n"
    )
    stmts = _statements(sql)
    assert len(stmts) == 2 and "'a;b'" in stmts[0]
    with pytest.raises(ValueError, match="incomplete"):
        _statements("CREATE TABLE b (x")
    numbers = [n for n, _ in migrations()]
    assert numbers == list(range(1, len(numbers) + 1))


# -- revisions: a change commits only on the copy it was built on ----------------------------


def rec(key: str, version: int) -> ActionRecord:
    return ActionRecord(key, 1, version, "u1", {"type": "Draw"}, float(version))


async def test_every_write_of_a_row_raises_its_revision(store: Store) -> None:
    assert await store.table_rev("a") is None
    await store.write(WriteBatch(tables=[table("a")], expect={"a": 0}))
    a = await store.get_table("a")
    assert a is not None and a.rev == 1 and await store.table_rev("a") == 1
    await store.write(WriteBatch(tables=[a.evolve(version=2)], expect={"a": 1}))
    await store.write(WriteBatch(shown=[ShownMark("a", 2)], expect={"a": 2}))  # a mark too
    a = await store.get_table("a")
    assert a is not None and (a.rev, a.version, a.shown) == (3, 2, 2)
    await store.write(WriteBatch(tables=[table("a", version=3)]))  # no expectation: written
    assert await store.table_rev("a") == 4
    await store.write(WriteBatch(shown=[ShownMark("nothing", 5)]))  # no row: none made
    assert await store.table_rev("nothing") is None


async def test_a_stale_batch_is_refused_alone(store: Store) -> None:
    """Batches committed together: one built on an older copy of its table writes nothing
    (its row, deadlines, actions, statistics) and its caller alone gets ``Stale``."""
    await store.write(WriteBatch(tables=[table("a"), table("b")]))
    commits = store.commits
    fresh = table("a", PLAYING, version=2, deadlines=(Deadline("turn", 9.0, 2),))
    results = await asyncio.gather(
        store.write(WriteBatch(tables=[fresh], expect={"a": 1}, actions=[rec("a", 2)])),
        store.write(  # built on the same copy as the first: it lost the race
            WriteBatch(
                tables=[table("a", PLAYING, version=9, deadlines=(Deadline("bot", 1.0, 9),))],
                expect={"a": 1},
                actions=[rec("a", 9)],
                stats=[StatUpdate("s", "u1", "Ann", games=1, wins=1)],
            )
        ),
        store.write(WriteBatch(tables=[table("b", version=5)], expect={"b": 0})),  # b is there
        store.write(WriteBatch(tables=[table("c")], expect={"c": 0}, actions=[rec("c", 1)])),
        store.write(WriteBatch(shown=[ShownMark("b", 1)], expect={"b": 1})),
        return_exceptions=True,
    )
    assert results[0] is None and results[3] is None and results[4] is None
    assert isinstance(results[1], Stale) and results[1].keys == ("a",)
    assert isinstance(results[2], Stale) and results[2].keys == ("b",)
    assert store.commits == commits + 1  # (all in one)
    a = await store.get_table("a")
    assert a is not None and (a.version, a.rev) == (2, 2)
    assert a.deadlines == (Deadline("turn", 9.0, 2),)
    assert await store.actions("a") == [rec("a", 2)]
    assert await store.leaderboard("s") == []
    b = await store.get_table("b")
    assert b is not None and (b.version, b.rev, b.shown) == (1, 2, 1)
    assert await store.table_rev("c") == 1 and await store.actions("c") == [rec("c", 1)]


async def test_two_stores_on_one_database_never_both_commit_on_one_copy(
    db: Path | str, store: Store
) -> None:
    """Another writer (on SQLite the same store again; on PostgreSQL another process's
    pool) changed the table: a batch built on the copy before is refused."""
    await store.write(WriteBatch(tables=[table("t")], expect={"t": 0}))
    t = await store.get_table("t")
    assert t is not None
    other: Store = store if isinstance(store, SqliteStore) else store_for(db)
    if other is not store:
        await other.open()
    try:
        await other.write(WriteBatch(tables=[t.evolve(version=2)], expect={"t": t.rev}))
        with pytest.raises(Stale):
            await store.write(WriteBatch(tables=[t.evolve(version=3)], expect={"t": t.rev}))
        back = await store.get_table("t")
        assert back is not None and (back.version, back.rev) == (2, 2)
    finally:
        if other is not store:
            await other.close()


# -- migrations ---------------------------------------------------------------------------------


async def _schema_at(db: Path | str, n: int) -> None:
    """An empty database of this backend at schema version ``n`` holding one table (written
    as the code of version ``n`` would have)."""
    row = (
        "INSERT INTO tables (key, scope, status, version, turn_version, game_no, host, seats, "
        "waiting, preset, overrides, lang, seed, game, meta, strikes, played, created, "
        "updated) VALUES ('old', 'chat', 'lobby', 3, 3, 0, 'u1', "
        '\'[{"id": "u1", "name": "Ann", "bot": null}]\', \'[]\', \'official\', \'{}\', '
        "NULL, 5, NULL, '{}', '{}', '{}', 1.0, 1.0)"
    )
    if isinstance(db, Path):
        with sqlite3.connect(db) as c:
            for number, sql in migrations("sqlite")[:n]:
                c.executescript(sql)
                c.execute(f"PRAGMA user_version={number}")
            c.execute(row)
        return
    conn = await asyncpg.connect(db)
    try:
        await conn.execute(
            "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
            "applied DOUBLE PRECISION NOT NULL)"
        )
        for number, sql in migrations("postgresql")[:n]:
            await conn.execute(sql)
            await conn.execute("INSERT INTO schema_version VALUES ($1, 0)", number)
        await conn.execute(row)
    finally:
        await conn.close()


@pytest.mark.parametrize("start", range(1, len(migrations())))
async def test_a_database_of_every_older_schema_is_migrated(
    db: Path | str, backend: str, start: int
) -> None:
    await _schema_at(db, start)
    store = store_for(db)
    await store.open()
    try:
        assert await store.schema_version() == len(migrations(backend))
        t = await store.get_table("old")
        assert t is not None and t.version == 3 and t.rev == 1
        assert t.shown == (3 if start < 3 else 0)  # 0003 counted older tables as shown
        await store.write(WriteBatch(tables=[t.evolve(version=4)], expect={"old": 1}))
        assert await store.table_rev("old") == 2
    finally:
        await store.close()
    again = store_for(db)  # opening a current database changes nothing
    await again.open()
    try:
        assert await again.schema_version() == len(migrations(backend))
    finally:
        await again.close()


async def test_a_database_newer_than_the_code_is_refused(db: Path | str, backend: str) -> None:
    store = store_for(db)
    await store.open()
    await store.close()
    newer = len(migrations(backend)) + 1
    if isinstance(db, Path):
        with sqlite3.connect(db) as c:
            c.execute(f"PRAGMA user_version={newer}")
    else:
        conn = await asyncpg.connect(db)
        try:
            await conn.execute("INSERT INTO schema_version VALUES ($1, 0)", newer)
        finally:
            await conn.close()
    with pytest.raises(SchemaTooNew, match=f"schema version {newer}, newer than") as caught:
        await store_for(db).open()
    assert isinstance(caught.value, StoreError) and "\n" not in str(caught.value)


def test_both_dialects_have_every_migration() -> None:
    lite, pg = migrations("sqlite"), migrations("postgresql")
    assert [n for n, _ in lite] == [n for n, _ in pg] == list(range(1, len(lite) + 1))
    # the dialect file stands in where the SQL differs, the shared one elsewhere
    assert lite[0][1] != pg[0][1] and "DOUBLE PRECISION" in pg[0][1]
    assert lite[1:3] == pg[1:3]
    # the same statements, and PostgreSQL's storage settings
    same = [ln for ln in lite[3][1].splitlines() if ln and not ln.startswith("--")]
    assert all(ln in pg[3][1].splitlines() for ln in same) and "fillfactor" in pg[3][1]


async def test_statistics_from_many_commits_at_once_all_add_up(db: Path | str) -> None:
    """Group commits in flight together (PostgreSQL may have several) update the same
    players' rows, listed in every order: none waits for another in a circle, all add up."""

    store = store_for(db) if isinstance(db, Path) else store_for(db, writers=3)
    await store.open()
    try:
        await _add_up(store)
    finally:
        await store.close()


async def _add_up(store: Store) -> None:
    import random

    rng = random.Random(3)
    players = [f"p{i}" for i in range(6)]

    def batch(i: int) -> WriteBatch:
        order = rng.sample(players, len(players))
        return WriteBatch(
            tables=[table(f"t{i}")],
            stats=[StatUpdate(s, p, p.upper(), games=1) for p in order for s in ("a", "*")],
        )

    for _ in range(4):
        await asyncio.gather(*(store.write(batch(i)) for i in range(300)))
    for scope in ("a", "*"):
        board = await store.leaderboard(scope, limit=10)
        assert sorted((s.player, s.games) for s in board) == [(p, 1200) for p in players]


async def test_revisions_stay_right_across_a_failed_commit_and_a_forgetful_store(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite keeps the revisions it wrote in memory (it is the file's one writer): a
    commit rolled back, or revisions forgotten, never make it check against a wrong one."""
    import bot.store

    monkeypatch.setattr(bot.store.sqlite, "_KNOWN_MAX", 4)
    await store.write(WriteBatch(tables=[table("a")], expect={"a": 0}))
    bad = WriteBatch(  # rolled back: "a" stays at revision 1
        tables=[table("a", version=2)],
        expect={"a": 1},
        stats=[StatUpdate("s", "u", None)],  # type: ignore[arg-type]
    )
    with pytest.raises(Exception):  # noqa: B017 (either database's integrity error)
        await store.write(bad)
    with pytest.raises(Stale):
        await store.write(WriteBatch(tables=[table("a", version=2)], expect={"a": 2}))
    await store.write(WriteBatch(tables=[table("a", version=2)], expect={"a": 1}))
    for i in range(10):  # more rows than it keeps
        await store.write(WriteBatch(tables=[table(f"x{i}")], expect={f"x{i}": 0}))
    with pytest.raises(Stale):
        await store.write(WriteBatch(tables=[table("a", version=3)], expect={"a": 1}))
    await store.write(WriteBatch(tables=[table("a", version=3)], expect={"a": 2}))
    assert await store.table_rev("a") == 3
