"""Issue 9 item 1 through the service and the renderers: with stacking on, a +2 start card
leaves the first player facing +2. The table, the events and that player's hand say so in
every language; a timeout takes the penalty; a bot answers it."""

from __future__ import annotations

import random
from pathlib import Path

from bot.port import RecordingPort
from bot.service import Service
from bot.store import SqliteStore
from bot.ui import render
from bot.ui.i18n import translator
from engine import Accept, CardsDrawn, Rank, RoundStarted, Rules, TurnSkipped, new_game_events
from tests.bot.helpers import Clock, close_service, drive, open_service

BACKENDS = ("sqlite", "postgresql")

KEY = "t:chat:1"
RULES = Rules(stacking="draw_two", target=0, afk_strikes=0)
TRS = [translator(lang) for lang in ("en", "zh_Hans", "zh_Hant")]


def service_seed(ids: list[str], rules: Rules) -> int:
    """A service seed whose first table deals a +2 start card (the table's seed is the
    service RNG's first draw)."""
    for s in range(5000):
        seed = random.Random(s).getrandbits(63)
        _, ev = new_game_events(ids, rules, seed)
        if ev[0].top.rank is Rank.DRAW_TWO:  # type: ignore[attr-defined]
            return s
    raise AssertionError("no seed")


async def started(
    db: Path, clock: Clock, bots: int = 0
) -> tuple[Service, SqliteStore, RecordingPort]:
    ids = ["u1", "u2", *(f"bot:{KEY}:{i}" for i in range(1, bots + 1))]
    if bots == 0:
        ids.append("u3")
    svc, store, port = await open_service(db, clock, seed=service_seed(ids, RULES))
    assert (await svc.create(KEY, "chat", "u1", "Ann", overrides=RULES.overrides())).ok
    assert (await svc.join(KEY, "u2", "Bob")).ok
    if bots:
        for _ in range(bots):
            assert (await svc.add_bot(KEY, "u1", "smart")).ok
    else:
        assert (await svc.join(KEY, "u3", "Cy")).ok
    res = await svc.start_game(KEY, "u1")
    assert res.ok and res.table is not None and res.table.view is not None
    assert res.table.view.top.rank is Rank.DRAW_TWO, "the seed search did not hold"
    return svc, store, port


async def test_the_table_events_and_hand_show_the_pending_start_card(
    db: Path, clock: Clock
) -> None:
    svc, store, port = await started(db, clock)
    try:
        info = await svc.table(KEY)
        assert info is not None and info.view is not None
        first = info.view.current
        assert first is not None and info.view.pending_draw == 2
        events = port.of("table")[-1][1]
        rs = events[0]
        assert isinstance(rs, RoundStarted) and (rs.current, rs.pending) == (first, 2)
        assert not [e for e in events if isinstance(e, CardsDrawn | TurnSkipped)]
        name = info.name(first)
        for tr in TRS:
            line = render.event_line(rs, tr, info.names)
            assert line is not None
            assert render.card_text(rs.top, tr) in line
            face = tr.gettext(
                "{player} faces +{total}: stack on it or take the cards.", player=name, total=2
            )
            assert line.endswith(face)
            assert tr.gettext("{player} plays first.", player=name) not in line
            table = render.table_text(info, tr)
            assert (
                tr.gettext(
                    "▶ {player} faces +{total}: stack on it or take the cards.",
                    player=name,
                    total=2,
                )
                in table
            )
        hands = {p: v for _, p, v, _ in port.of("hand")}
        en = render.hand_text(hands[first], translator("en"), info.names)
        assert "+2 is coming your way" in en
        assert render.event_line(rs, translator("en"), info.names).endswith(
            f" Round 1: {info.name(info.view.dealer)} deals 7 cards each. "
            f"Start card: {render.card_text(rs.top, translator('en'))}. "
            f"{name} faces +2: stack on it or take the cards."
        )
    finally:
        await close_service(svc, store)


async def test_a_timeout_takes_the_start_card_penalty(db: Path, clock: Clock) -> None:
    svc, store, _ = await started(db, clock)
    try:
        info = await svc.table(KEY)
        assert info is not None and info.view is not None
        first = info.view.current
        clock.advance(RULES.turn_seconds + 1)
        assert await svc.timers.run_due(clock()) >= 1
        after = await svc.table(KEY)
        assert after is not None and after.view is not None
        assert after.view.counts[first] == 9 and after.view.pending_draw == 0
        assert after.view.current != first
    finally:
        await close_service(svc, store)


async def test_the_first_player_accepts_through_the_service(db: Path, clock: Clock) -> None:
    svc, store, _ = await started(db, clock)
    try:
        info = await svc.table(KEY)
        assert info is not None and info.view is not None
        first = info.view.current
        assert first is not None
        res = await svc.act(KEY, first, Accept())
        assert res.ok and res.table is not None and res.table.view is not None
        assert res.table.view.counts[first] == 9
    finally:
        await close_service(svc, store)


async def test_bots_play_a_round_that_starts_on_a_pending_draw_two(db: Path, clock: Clock) -> None:
    """Two people (who let their turns time out) and two bots: the round is played out."""
    svc, store, _ = await started(db, clock, bots=2)
    try:
        await drive(svc, clock, KEY)
        t = await store.get_table(KEY)
        assert t is not None and t.status == "finished"
    finally:
        await close_service(svc, store)
