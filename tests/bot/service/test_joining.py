"""Sitting down during a game is for its next round: refused when none will come."""

from __future__ import annotations

from bot.port import RecordingPort
from bot.service import Service
from bot.store import SqliteStore

BACKENDS = ("sqlite", "postgresql")

KEY = "t:chat:1"


async def _playing(svc: Service, target: int) -> None:
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    assert (await svc.join(KEY, "u2", "Bob")).ok
    assert (await svc.configure(KEY, "u1", overrides={"target": target})).ok
    assert (await svc.start_game(KEY, "u1")).ok


async def test_no_next_round_to_join_in_a_single_round_game(
    env: tuple[Service, SqliteStore, RecordingPort],
) -> None:
    svc, _, port = env
    await _playing(svc, target=0)
    before = await svc.table(KEY)
    assert before is not None
    res = await svc.join(KEY, "u3", "Eve")
    assert not res.ok and res.code == "no_next_round"
    assert [n.code for n in res.told] == ["no_next_round"]
    assert not (res := await svc.add_bot(KEY, "u1")).ok and res.code == "no_next_round"
    assert [n.code for n in res.told] == ["no_next_round"]
    assert port.of("tell") == []  # each refusal is its caller's to answer
    after = await svc.table(KEY)
    assert after is not None and after.version == before.version and after.waiting == ()
    # already playing: that is still the answer
    assert (await svc.join(KEY, "u2", "Bob")).code == "already_joined"


async def test_a_longer_game_seats_newcomers_for_the_next_round(
    env: tuple[Service, SqliteStore, RecordingPort],
) -> None:
    svc, _, port = env
    await _playing(svc, target=500)
    res = await svc.join(KEY, "u3", "Eve")
    assert res.ok and [n.code for n in res.told] == ["info.next_round"]
    assert (await svc.add_bot(KEY, "u1")).ok
    info = await svc.table(KEY)
    assert info is not None and info.waiting[0] == "u3" and len(info.waiting) == 2
    assert port.of("tell") == []
