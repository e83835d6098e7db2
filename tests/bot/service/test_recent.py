"""A table's recent public lines (events and notices under the table message) are part of
its state: committed with each change, back after a restart, the last ``RECENT`` only,
rendered in the table's language of the moment, and never holding a private card."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path
from typing import Any

import engine
from bot.json_codec import event_from_dict, event_to_dict
from bot.model import LOBBY, PLAYING, Recent, Table
from bot.port import Notice, RecordingPort, TableInfo
from bot.service import RECENT, Service
from bot.store import SqliteStore, migrations
from bot.ui.i18n import translator
from bot.ui.render import event_lines, notice_text, recent_lines, table_line
from engine import CardsDrawn, ChallengeResolved, RoundStarted
from tests.bot.helpers import Clock, close_service, open_service, peek, store_path

BACKENDS = ("sqlite", "postgresql")

Env = tuple[Service, SqliteStore, RecordingPort]
KEY = "t:chat:1"
EN = translator("en")
ZH = translator("zh_Hans")


async def stored_recent(db: Path | str, key: str = KEY) -> list[dict[str, Any]]:
    """The recent lines as committed (read as any other program would)."""
    ((text,),) = await peek(db, "SELECT recent FROM tables WHERE key = ?", key)
    return [json.loads(line) for line in text.splitlines() if line]


async def bot_table(svc: Service, bots: int = 3, *, human: bool = False) -> None:
    assert (await svc.create(KEY, "chat", "h", "Host", seat_host=human)).ok
    for _ in range(bots):
        assert (await svc.add_bot(KEY, "h", "smart")).ok
    assert (await svc.start_game(KEY, "h")).ok


async def step(svc: Service, clock: Clock) -> None:
    """Fire the next due deadline (a bot's move, a timeout...)."""
    if await svc.timers.run_due(clock()) == 0:
        nxt = svc.timers.next_due()
        assert nxt is not None
        clock.t = max(clock.t, nxt)
        assert await svc.timers.run_due(clock()) > 0


def shown_lines(port: RecordingPort, tr: Any = EN) -> list[str]:
    """What an adapter keeping the lines in memory would have shown: every public event's
    line (but a result its news says), then each notice not news of its own, the last
    ``RECENT``."""
    lines: list[str] = []
    for kind, args in port.calls:
        if kind == "table":
            info, evs = args
            lines.extend(event_lines([e for e in evs if table_line(e)], tr, info.names))
        elif kind == "announce":
            info, n = args
            if n.code not in ("info.round_won", "info.game_won", "info.afk_removed"):
                lines.append(notice_text(n, tr, info.names))
    return lines[-RECENT:]


async def test_recent_lines_are_committed_with_each_change(env: Env, clock: Clock) -> None:
    svc, store, port = env
    await bot_table(svc)
    for _ in range(12):
        await step(svc, clock)
        info = await svc.table(KEY)
        assert info is not None and info.status == PLAYING
        rows = await stored_recent(store_path(store))
        assert [Recent.from_dict(d) for d in rows] == list(info.recent)
        assert 0 < len(rows) <= RECENT
        assert recent_lines(info, EN) == shown_lines(port)
    assert len(info.recent) == RECENT  # the last few only


async def test_recent_lines_survive_a_restart_and_follow_the_language(
    db: Path, clock: Clock
) -> None:
    svc, store, _ = await open_service(db, clock)
    await bot_table(svc)
    for _ in range(8):
        await step(svc, clock)
    before = await svc.table(KEY)
    assert before is not None
    lines = recent_lines(before, EN)
    assert len(lines) == RECENT
    await close_service(svc, store)

    svc, store, _ = await open_service(db, clock)  # a restart
    try:
        after = await svc.table(KEY)
        assert after is not None and after.recent == before.recent
        assert recent_lines(after, EN) == lines
        res = await svc.set_chat_language(KEY, "chat", "zh_Hans")
        assert res.table is not None and res.table.lang == "zh_Hans"
        assert res.table.recent == before.recent  # nothing new happened
        zh = recent_lines(res.table, translator(res.table.lang))
        assert zh != lines and len(zh) == RECENT
        names = res.table.names
        expected = [
            (event_lines([r.event], ZH, names) if r.event is not None else [])[0]
            for r in res.table.recent
        ]
        assert zh == expected
    finally:
        await close_service(svc, store)


async def test_no_private_card_in_the_stored_lines(env: Env, clock: Clock) -> None:
    svc, store, port = env
    await bot_table(svc, bots=3, human=True)  # the host's turns time out: they draw
    seen: set[str] = set()
    for _ in range(400):
        info = await svc.table(KEY)
        if info is None or info.status != PLAYING:
            break
        for d in await stored_recent(store_path(store)):
            seen.add(json.dumps(d, sort_keys=True))
        await step(svc, clock)
    assert seen
    drew = 0
    for text in seen:
        d = json.loads(text)
        if "e" not in d:
            continue
        e = event_from_dict(d["e"])
        assert e == engine.redact(e, None)
        if isinstance(e, CardsDrawn):
            drew += 1
            assert e.cards is None and "cards" not in d["e"]
        elif isinstance(e, ChallengeResolved):
            assert e.hand is None
        elif isinstance(e, RoundStarted):
            assert e.hands == {} and "hands" not in d["e"]
    assert drew  # draws were kept, without their cards
    # the events the drawers saw did carry cards: none of those lists is stored
    private = [
        e for _, _, _, evs in port.of("hand") for e in evs if isinstance(e, CardsDrawn) and e.cards
    ]
    assert private


async def test_lobby_news_is_kept_apart_once_dealt(env: Env) -> None:
    svc, _, _ = env
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    assert (await svc.join(KEY, "u2", "Bob")).ok
    assert (await svc.join(KEY, "u3", "Cy")).ok
    assert (await svc.kick(KEY, "u1", "u3")).ok
    info = await svc.table(KEY)
    assert info is not None and [r.code for r in info.recent] == ["info.kicked"]
    kicked = recent_lines(info, EN, this_status=True)
    assert kicked == [notice_text(Notice("info.kicked", info.recent[0].params), EN, {})]
    assert "Cy" in kicked[0]  # named though no longer seated
    assert (await svc.start_game(KEY, "u1")).ok
    info = await svc.table(KEY)
    assert info is not None and info.recent[0].status == LOBBY
    dealt = recent_lines(info, EN, this_status=True)
    assert dealt and "Cy" not in "\n".join(dealt)  # the lobby's news is old news
    assert recent_lines(info, EN)[0] == kicked[0]


def test_every_event_goes_to_json_and_back() -> None:
    g, evs = engine.new_game_events(["a", "b", "c"], engine.Rules.preset("official"), seed=3)
    seen = list(evs)
    for _ in range(300):
        if g.phase is not engine.Phase.PLAYING and g.phase not in (
            engine.Phase.CHOOSING_COLOR,
            engine.Phase.CHALLENGE,
        ):
            break
        assert g.current is not None
        action = engine.legal_actions(g, g.current)[0]
        g, more = engine.apply(g, g.current, action)
        seen.extend(more)
    assert len({type(e) for e in seen}) > 4
    for e in seen:
        for viewer in (None, "a"):
            r = engine.redact(e, viewer)
            assert event_from_dict(json.loads(json.dumps(event_to_dict(r)))) == r


async def test_a_database_of_schema_1_gains_the_recent_lines(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    (n, first), *_ = migrations()
    assert n == 1
    with sqlite3.connect(path) as db:
        db.executescript(first)
        db.execute("PRAGMA user_version=1")
        db.execute(
            "INSERT INTO tables (key, scope, status, version, turn_version, game_no, host, "
            "seats, waiting, preset, overrides, lang, seed, game, meta, strikes, played, "
            "created, updated) VALUES ('k', 'chat', 'lobby', 3, 3, 0, 'u1', "
            '\'[{"id": "u1", "name": "Ann", "bot": null}]\', \'[]\', \'official\', \'{}\', '
            "NULL, 5, NULL, '{}', '{}', '{}', 1.0, 1.0)"
        )
    store = SqliteStore(path)
    await store.open()
    try:
        assert await store.schema_version() == len(migrations()) >= 2
        t = await store.get_table("k")
        assert t is not None and t.version == 3 and t.recent == ()
        assert isinstance(t, Table)
        info = TableInfo(
            t.key, t.scope, t.version, t.status, t.host, t.seats, t.waiting, t.rules,
            t.preset, t.lang, None, t.meta, t.game_no,
        )  # fmt: skip
        assert recent_lines(info, EN) == []
    finally:
        await store.close()


async def test_a_line_that_reads_but_does_not_render_is_left_out(env: Env, clock: Clock) -> None:
    """A stored line from another version (a field of the wrong type) never stops the
    table message from showing: the other lines still do."""
    svc, _, _ = env
    await bot_table(svc)
    for _ in range(3):
        await step(svc, clock)
    info = await svc.table(KEY)
    assert info is not None and info.recent
    good = recent_lines(info, EN)
    odd = Recent('{"s":"playing","e":{"type":"RoundWon","player":"x","round":1,"points":"3"}}')
    worse = Recent('{"s":"playing","n":"info.stopped","p":{"player":["x"]}}')
    mixed = dataclasses.replace(info, recent=(odd, *info.recent, worse))
    assert recent_lines(mixed, EN) == good
