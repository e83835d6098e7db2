"""What the issue asks to be shown at the service boundary: simultaneous presses of one
button, forged and malformed input, no hand ever in public output, and migrations."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bot.model import PLAYING
from bot.port import Notice, RecordingPort, TableInfo
from bot.service import Service
from bot.store import SchemaTooNew, SqliteStore, StoreError, migrations, store_for
from bot.ui import render
from bot.ui.i18n import Translator, translator
from engine import (
    Card,
    CardPlayed,
    CardsDrawn,
    ChallengeResolved,
    Draw,
    Event,
    Play,
    RoundStarted,
    Timeout,
    View,
    full_deck,
)
from tests.bot.helpers import Clock, close_service, drive, game_json, open_service

BACKENDS = ("sqlite", "postgresql")

Env = tuple[Service, SqliteStore, RecordingPort]
KEY = "t:chat:1"
LANGS = ("en", "zh_Hans", "zh_Hant")


async def two_humans(svc: Service) -> TableInfo:
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    assert (await svc.join(KEY, "u2", "Bob")).ok
    res = await svc.start_game(KEY, "u1")
    assert res.ok and res.table is not None
    return res.table


# -- 50 simultaneous presses --------------------------------------------------------------------


async def test_fifty_presses_of_one_button_apply_once(env: Env) -> None:
    svc, store, port = env
    info = await two_humans(svc)
    assert info.view is not None and info.view.current is not None
    player, v = info.view.current, info.version
    log_before = len(await store.actions(KEY))
    port.calls.clear()

    results = await asyncio.gather(
        *(svc.act(KEY, player, Draw(), seen_version=v) for _ in range(50))
    )

    assert sum(r.ok for r in results) == 1
    refused = [r for r in results if not r.ok]
    assert len(refused) == 49 and {r.code for r in refused} == {"stale"}
    # each press that lost is told so, by its own result (the caller answers it)
    assert all([n.code for n in r.told] == ["stale"] for r in refused)
    assert port.of("tell") == []
    after = await svc.table(KEY)
    assert after is not None and after.version == v + 1
    stored = await store.get_table(KEY)
    assert stored is not None and stored.version == v + 1
    log = await store.actions(KEY)
    assert len(log) == log_before + 1 and log[-1].action == {"type": "Draw"}
    assert len(port.of("table")) == 1  # one change, shown once


# -- forged and malformed input -----------------------------------------------------------------


@dataclass
class Forged:
    name: str
    code: str
    key: Any = KEY
    player: Any = "current"
    action: Any = field(default_factory=Draw)
    seen: Any = None
    told: bool = True


def _not_in_hand(view: View) -> str:
    held = {c.code for c in view.hand or ()}
    return next(c.code for c in full_deck() if c.code not in held and not c.is_wild)


FORGED = [
    Forged("unknown table", "no_table", key="t:nowhere"),
    Forged("not a table key", "no_table", key=["t:chat:1"], told=True),
    Forged("no key at all", "no_table", key=None),
    Forged("not a player", "not_a_player", player="intruder"),
    Forged("a player id that is no string", "not_a_player", player=["u1"], told=False),
    Forged("card not in hand", "card_not_in_hand", action="not-in-hand"),
    Forged("an older version", "stale", seen="older"),
    Forged("a newer version", "stale", seen="newer"),
    Forged("a version that is no number", "bad_action", seen="7"),
    Forged("a string for an action", "bad_action", action="Draw"),
    Forged("a dict for an action", "bad_action", action={"type": "Draw"}),
    Forged("nothing for an action", "bad_action", action=None),
    Forged("an object for an action", "bad_action", action=object()),
    Forged("a timeout sent by a player", "bad_action", action=Timeout()),
    Forged("closing one's own UNO window", "bad_action", action=Timeout(window="uno")),
]


@pytest.mark.parametrize("case", FORGED, ids=[f.name for f in FORGED])
async def test_forged_input_is_refused_told_logged_and_changes_nothing(
    env: Env, case: Forged, caplog: pytest.LogCaptureFixture
) -> None:
    svc, store, port = env
    info = await two_humans(svc)
    assert info.view is not None
    current = info.view.current
    assert current is not None
    # one move first, so that an older version exists that is not the turn's
    assert (await svc.act(KEY, current, Draw())).ok
    info = await svc.table(KEY)
    assert info is not None and info.view is not None and info.view.current is not None
    current = info.view.current
    view = await svc.hand(KEY, current)
    assert view is not None

    player = current if case.player == "current" else case.player
    action = Play(_not_in_hand(view)) if case.action == "not-in-hand" else case.action
    seen = {"older": info.version - 1, "newer": info.version + 1}.get(case.seen, case.seen)
    if case.seen == "older":
        assert seen < info.version  # refused although it is the player's turn
    mem_before = svc._tables[KEY].game_text()
    db_before = await store.get_table(KEY)
    log_before = await store.actions(KEY)
    port.calls.clear()

    with caplog.at_level(logging.INFO, logger="bot.service"):
        res = await svc.act(case.key, player, action, seen_version=seen)

    assert not res.ok and res.code == case.code
    # told to the one who sent it (its result, theirs to answer), in words in every
    # language (not the generic fallback)
    assert port.of("tell") == []
    if case.told and isinstance(player, str):
        assert [n.code for n in res.told] == [case.code]
        for lang in LANGS:
            tr = translator(lang)
            text = render.notice_text(res.told[0], tr, info.names)
            assert text and text != tr.gettext(render.REFUSAL_FALLBACK)
    assert port.of("table") == [] and port.of("hand") == [] and port.of("announce") == []
    # nothing changed, in memory or in the database
    after = await svc.table(KEY)
    assert after is not None and after.version == info.version and after.view == info.view
    assert svc._tables[KEY].game_text() == mem_before
    db_after = await store.get_table(KEY)
    assert db_before is not None and db_after is not None
    assert (db_after.version, db_after.game_json) == (db_before.version, db_before.game_json)
    assert await store.actions(KEY) == log_before
    # and logged
    assert any(f"refused {case.code}" in r.getMessage() for r in caplog.records)


async def test_refusals_in_the_lobby_are_told_in_words(env: Env) -> None:
    svc, _, port = env
    await svc.create(KEY, "chat", "u1", "Ann")
    cases = [
        await svc.act(KEY, "u1", Draw()),  # not started
        await svc.start_game(KEY, "u1"),  # one player
        await svc.kick(KEY, "u2", "u1"),  # not the host
    ]
    assert [r.code for r in cases] == ["not_started", "not_enough_players", "not_host"]
    assert [n.code for r in cases for n in r.told] == [r.code for r in cases]
    assert port.of("tell") == []  # each caller answers its own
    for notice in (n for r in cases for n in r.told):
        for lang in LANGS:
            tr = translator(lang)
            assert render.notice_text(notice, tr, {}) != tr.gettext(render.REFUSAL_FALLBACK)


# -- no hand in public output ----------------------------------------------------------------


def _card_texts(cards: Iterable[Card], tr: Translator) -> dict[str, str]:
    return {c.code: render.card_text(c, tr) for c in cards}


def _shown_cards(events: Sequence[Event], top: Card | None) -> set[str]:
    """Cards a public text may show: the top card, cards played in this step, the start
    card and the cards drawn for the dealer."""
    codes = {top.code} if top is not None else set()
    for e in events:
        if isinstance(e, CardPlayed):
            codes.update(c.code for c in (e.card, *e.together))
        elif isinstance(e, RoundStarted):
            codes.add(e.top.code)
            codes.update(c.code for _, c in e.dealer_draws)
    return codes


def redaction_problems(events: Sequence[Event]) -> list[str]:
    out = []
    for e in events:
        if isinstance(e, CardsDrawn) and e.cards is not None:
            out.append(f"public CardsDrawn with cards: {e}")
        elif isinstance(e, ChallengeResolved) and e.hand is not None:
            out.append(f"public ChallengeResolved with a hand: {e}")
        elif isinstance(e, RoundStarted) and e.hands:
            out.append(f"public RoundStarted with hands: {e}")
    return out


def public_texts(info: TableInfo, events: Sequence[Event], tr: Translator) -> list[str]:
    names = info.names
    lines = render.event_lines(events, tr, names)
    return [render.table_text(info, tr, lines), *lines]


def text_leaks(
    texts: Sequence[str],
    held: Mapping[str, Sequence[Card]],
    events: Sequence[Event],
    top: Card | None,
    tr: Translator,
) -> list[str]:
    """Every card held in a hand (before or after the step) whose words appear in a public
    text, unless that card is on the table (its twin is, which reads the same)."""
    allowed = _shown_cards(events, top)
    out = []
    for player, cards in held.items():
        for code, words in _card_texts(cards, tr).items():
            if code in allowed:
                continue
            for text in texts:
                if words in text:
                    out.append(f"{tr.lang}: {player}'s {code} ({words!r}) in {text!r}")
    return out


class WatchingPort(RecordingPort):
    """Checks every public output against the hands at that moment, as it happens."""

    def __init__(self, store: SqliteStore) -> None:
        super().__init__()
        self.store = store
        self.hands: dict[str, dict[str, tuple[Card, ...]]] = {}  # before this step
        self.problems: list[str] = []
        self.steps = 0
        # every public step with what it was checked against: (info, events, held, top)
        self.snapshots: list[
            tuple[TableInfo, Sequence[Event], dict[str, list[Card]], Card | None]
        ] = []

    async def _held(self, key: str) -> tuple[dict[str, list[Card]], Card | None]:
        t = await self.store.get_table(key)  # what was just committed: what is shown
        assert t is not None
        g = t.game
        before = self.hands.get(key, {})
        held: dict[str, list[Card]] = {p: list(h) for p, h in before.items()}
        top = None
        if g is not None:
            after = {p: tuple(g.hand(p)) for p in g.players}
            for p, h in after.items():
                held.setdefault(p, []).extend(h)
            self.hands[key] = after
            top = g.top
        return held, top

    async def show_table(self, table: TableInfo, events: Sequence[Event]) -> None:
        await super().show_table(table, events)
        self.steps += 1
        if table.view is not None and table.view.hand is not None:
            self.problems.append("the public view carries a hand")
        self.problems += redaction_problems(events)
        held, top = await self._held(table.key)
        self.snapshots.append((table, events, held, top))
        for lang in LANGS:
            tr = translator(lang)
            texts = public_texts(table, events, tr)
            self.problems += text_leaks(texts, held, events, top, tr)

    async def announce(self, table: TableInfo, notice: Notice) -> None:
        await super().announce(table, notice)
        if notice.code == "info.revealed" or "cards" in notice.params:
            self.problems.append(f"announced cards: {notice}")
        held, top = await self._held(table.key)
        for lang in LANGS:
            tr = translator(lang)
            text = render.notice_text(notice, tr, table.names)
            self.problems += text_leaks([text], held, (), top, tr)

    async def show_hand(
        self, table: TableInfo, player: str, view: View, events: Sequence[Event]
    ) -> None:
        await super().show_hand(table, player, view, events)
        if view.viewer != player:
            self.problems.append(f"{player} was shown {view.viewer}'s hand")
        for e in events:  # privately too: only one's own cards
            if isinstance(e, CardsDrawn) and e.cards is not None and e.player != player:
                self.problems.append(f"{player} saw {e.player}'s draw")
            if (
                isinstance(e, ChallengeResolved)
                and e.hand is not None
                and player not in (e.challenger, e.offender)
            ):
                self.problems.append(f"{player} saw a challenged hand")
            if isinstance(e, RoundStarted) and set(e.hands) - {player}:
                self.problems.append(f"{player} saw another dealt hand")

    async def tell(self, table_key: str, user: str, notice: Notice) -> None:
        await super().tell(table_key, user, notice)


async def play_watched(
    db: Path | str, preset: str, seats: int, humans: int, seed: int, **over: Any
) -> WatchingPort:
    clock = Clock()
    store = store_for(db)
    await store.open()
    port = WatchingPort(store)
    svc = Service(store, port, clock=clock, seed=seed, bot_delay=1.0)
    await svc.start(run_timers=False)
    try:
        key = f"t:{preset}:{seats}"
        assert (await svc.create(key, "chat", "u1", "Ann", preset=preset, overrides=over)).ok
        for i in range(2, humans + 1):
            assert (await svc.join(key, f"u{i}", f"User {i}")).ok
        strategies = ("smart", "random", "basic")
        for i in range(seats - humans):
            assert (await svc.add_bot(key, "u1", strategies[i % 3])).ok
        assert (await svc.start_game(key, "u1")).ok
        await drive(svc, clock, key)
        info = await svc.table(key)
        assert info is not None and info.status == "finished"
    finally:
        await svc.stop()
        await store.close()
    return port


# people time out (they draw, privately); the bots play everything else
GAMES = [
    (preset, seats, min(2, seats - 1))
    for preset in ("official", "house", "party")
    for seats in (2, 3, 5, 7, 10)
]


@pytest.mark.parametrize(("preset", "seats", "humans"), GAMES)
async def test_no_hand_in_public_output(
    db: Path | str, preset: str, seats: int, humans: int
) -> None:
    port = await play_watched(
        db, preset, seats, humans, seed=seats, target=0, afk_strikes=0, turn_seconds=5
    )
    assert port.problems == []
    assert port.steps > 10
    # a challenged hand is told to the challenger only (the offender's own cards)
    for _, user, notice in port.of("tell"):
        if notice.code == "info.revealed":
            assert user != notice.params["player"]


@pytest.mark.soak
@pytest.mark.parametrize("preset", ["official", "house", "party"])
@pytest.mark.parametrize("seats", range(2, 11))
async def test_no_hand_in_public_output_whole_games(
    db: Path | str, preset: str, seats: int
) -> None:
    port = await play_watched(
        db, preset, seats, min(3, seats - 1), seed=100 + seats, target=200,
        afk_strikes=0, turn_seconds=5,
    )  # fmt: skip
    assert port.problems == []


async def test_the_check_would_catch_a_leak(db: Path | str) -> None:
    """The check above is not vacuous: an unredacted draw, a revealed hand or dealt hands
    in the public events are caught, in every language."""
    port = await play_watched(
        db, "official", 3, 1, seed=5, target=0, turn_seconds=5, afk_strikes=0
    )
    assert port.problems == []
    tampered = 0
    for info, evs, held, top in port.snapshots:
        for d in (e for e in evs if isinstance(e, CardsDrawn) and e.count > 0):
            shown = _shown_cards(evs, top)
            secret = next((c for c in held[d.player] if c.code not in shown), None)
            if secret is None:
                continue
            # the drawn card, as only the drawer may see it, put into the public events
            leaked = [replace(e, cards=(secret,)) if e is d else e for e in evs]
            assert redaction_problems(leaked)
            for lang in LANGS:
                tr = translator(lang)
                assert text_leaks(public_texts(info, leaked, tr), held, leaked, top, tr)
            tampered += 1
    assert tampered > 5
    dealt = RoundStarted(1, "a", ("a", "b"), Card.parse("R1"), None, 1, "a", 7, hands={"a": ()})
    assert redaction_problems([dealt])
    revealed = ChallengeResolved("a", "b", True, 4, "b", hand=(Card.parse("G7"),))
    assert redaction_problems([revealed])
    for lang in LANGS:
        tr = translator(lang)
        line = render.event_line(revealed, tr, {}) or ""
        assert text_leaks([line], {"b": [Card.parse("G7")]}, [revealed], None, tr)


# -- migrations -------------------------------------------------------------------------------


async def test_an_empty_database_is_migrated_to_the_current_schema(tmp_path: Path) -> None:
    path = tmp_path / "new" / "uno.sqlite3"  # the folder is made too
    store = SqliteStore(path)
    await store.open()
    try:
        assert await store.schema_version() == len(migrations()) >= 1
    finally:
        await store.close()
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"tables", "actions", "deadlines", "chat_settings", "user_settings", "stats"} <= (
            names
        )
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    store = SqliteStore(path)  # opening again changes nothing
    await store.open()
    assert await store.schema_version() == len(migrations())
    await store.close()


async def test_a_newer_database_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "uno.sqlite3"
    newer = len(migrations()) + 1
    with sqlite3.connect(path) as db:
        db.execute(f"PRAGMA user_version={newer}")
        db.execute("CREATE TABLE future (x)")
    store = SqliteStore(path)
    with pytest.raises(SchemaTooNew) as err:
        await store.open()
    msg = str(err.value)
    assert str(path) in msg and f"version {newer}" in msg and "newer" in msg
    assert "upgrade" in msg
    assert store._w is None and store._r is None  # nothing left open
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == newer
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert names == {"future"}


async def test_a_failed_migration_leaves_the_database_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.store

    good = migrations()
    broken = [*good, (len(good) + 1, "CREATE TABLE extra (x);\nTHIS IS NOT SQL;\n")]
    monkeypatch.setattr(bot.store.sqlite, "migrations", lambda dialect="sqlite": broken)
    path = tmp_path / "uno.sqlite3"
    store = SqliteStore(path)
    with pytest.raises(StoreError, match="syntax error") as err:
        await store.open()
    assert str(path) in str(err.value)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == len(good)
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert "extra" not in names and "tables" in names


async def test_a_service_on_a_fresh_database(db: Path | str) -> None:
    clock = Clock()
    svc, store, _ = await open_service(db, clock)
    try:
        assert svc.open_tables() == []
        info = await two_humans(svc)
        assert info.status == PLAYING
        t = await store.get_table(KEY)
        assert t is not None and t.game is not None
        assert game_json(t.game) == game_json(svc._tables[KEY].game)  # type: ignore[arg-type]
    finally:
        await close_service(svc, store)
