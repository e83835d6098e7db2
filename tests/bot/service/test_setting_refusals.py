"""Refused rules come back as data (issue 12 item 1): the service's ``bad_setting`` carries
a reason code, the flag and its parameters, read from the engine's refusal, never from its
English text."""

from __future__ import annotations

from bot.port import RecordingPort
from bot.service import Service
from bot.store import SqliteStore
from bot.ui.press import press

Env = tuple[Service, SqliteStore, RecordingPort]
KEY = "t:chat:1"


async def test_each_refusal_has_its_reason(env: Env) -> None:
    svc, _, _ = env
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    cases = [
        ({"hand_size": 99}, ("value", "hand_size")),
        ({"hand_size": True}, ("value", "hand_size")),
        ({"stacking": "sideways"}, ("value", "stacking")),
        ({"sideways": 1}, ("unknown_flag", "sideways")),
        ({"places": True, "partners": True}, ("conflict", "places")),
    ]
    for overrides, (reason, flag) in cases:
        res = await svc.configure(KEY, "u1", overrides=overrides)
        assert res.code == "bad_setting", overrides
        assert (res.params["reason"], res.params["flag"]) == (reason, flag), res.params
        assert res.params["detail"]  # the English text, for the log
    res = await svc.configure(KEY, "u1", preset="chaos")
    assert res.code == "bad_setting" and res.params["reason"] == "preset"


async def test_seating_refusals_at_the_deal(env: Env) -> None:
    svc, _, _ = env
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    for i in range(2, 4):
        assert (await svc.join(KEY, f"u{i}", f"P{i}")).ok
    assert (await svc.configure(KEY, "u1", overrides={"partners": True})).ok
    res = await svc.start_game(KEY, "u1")
    assert res.code == "bad_setting"
    assert (res.params["reason"], res.params["flag"], res.params["players"]) == (
        "partners",
        "partners",
        3,
    )
    assert (await svc.configure(KEY, "u1", overrides={"partners": False})).ok
    for i in range(4, 11):
        assert (await svc.join(KEY, f"u{i}", f"P{i}")).ok
    assert (await svc.configure(KEY, "u1", overrides={"hand_size": 15})).ok
    res = await svc.start_game(KEY, "u1")
    assert (res.params["reason"], res.params["flag"]) == ("deal", "hand_size")


async def test_press_calls_what_an_intent_means(env: Env) -> None:
    from bot.ui import intents as it

    svc, _, _ = env
    assert (await svc.create(KEY, "chat", "u1", "Ann")).ok
    res = await press(svc, KEY, "u2", it.Join(), name="Bob")
    assert res is not None and res.ok and res.table is not None
    assert [s.name for s in res.table.seats] == ["Ann", "Bob"]
    res = await press(svc, KEY, "u2", it.SetFlag("jump_in", True))
    assert res is not None and res.code == "not_host"
    res = await press(svc, KEY, "u2", it.SetFlag("jump_in", True), admin=True)
    assert res is not None and res.ok and res.table is not None and res.table.rules.jump_in
    res = await press(svc, KEY, "u1", it.SetPreset("party"))
    assert res is not None and res.table is not None and res.table.preset == "party"
    res = await press(svc, KEY, "u1", it.AddBot())
    assert res is not None and res.ok and res.table is not None and len(res.table.seats) == 3
    bot = res.table.seats[-1].id
    res = await press(svc, KEY, "u1", it.Kick(bot))
    assert res is not None and res.ok and res.table is not None and len(res.table.seats) == 2
    assert await press(svc, KEY, "u1", it.OpenSettings(2)) is None  # the adapter's to draw
    res = await press(svc, KEY, "u1", it.Start())
    assert res is not None and res.ok
    res = await press(svc, KEY, "u2", it.LeaveTable())
    assert res is not None and res.ok
