"""``bot.ui.press``: each intent a press carries calls the one service method it means,
with the presser's name, admin flag and chat scope; an intent that only changes what the
presser sees calls nothing. The service is any object with those methods (a Protocol):
here one that records its calls."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ui import intents as it
from bot.ui.press import press
from engine import Draw


class Recording:
    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def __getattr__(self, name: str) -> Any:
        async def call(*a: Any, **kw: Any) -> str:
            self.calls.append((name, a, kw))
            return name

        return call


@pytest.mark.parametrize(
    ("intent", "call"),
    [
        (it.Act(Draw(), 7), ("act", ("k", "u1", Draw()), {"seen_version": 7})),
        (it.Join(), ("join", ("k", "u1", "Ann"), {})),
        (it.LeaveTable(), ("leave", ("k", "u1"), {})),
        (it.AddBot(), ("add_bot", ("k", "u1"), {"admin": True})),
        (it.Start(), ("start_game", ("k", "u1"), {"admin": True})),
        (
            it.SetFlag("jump_in", True),
            (
                "configure",
                ("k", "u1"),
                {"overrides": {"jump_in": True}, "admin": True},
            ),
        ),
        (
            it.SetPreset("party"),
            ("configure", ("k", "u1"), {"preset": "party", "admin": True}),
        ),
        (it.Kick("u2"), ("kick", ("k", "u1", "u2"), {"admin": True})),
        (it.Autopilot(True), ("autopilot", ("k", "u1", True), {})),
        (it.VoteEnd(3), ("vote_end", ("k", "u1", 3), {})),
        (it.Language("user", "zh_Hant"), ("set_user_language", ("u1", "zh_Hant"), {})),
        (it.Language("user", None), ("set_user_language", ("u1", None), {})),
        (
            it.Language("chat", "zh_Hans"),
            ("set_chat_language", ("k", "tg:-5", "zh_Hans"), {"admin": True}),
        ),
        (it.CardLook("text"), ("set_user_cards", ("u1", "text"), {})),
    ],
)
async def test_an_intent_calls_the_method_it_means(intent: it.Intent, call: Any) -> None:
    svc = Recording()
    res = await press(svc, "k", "u1", intent, name="Ann", admin=True, scope="tg:-5")  # type: ignore[arg-type]
    assert svc.calls == [call] and res == call[0]


async def test_a_page_or_a_menu_calls_nothing() -> None:
    svc = Recording()
    # a chat's language needs the chat (``scope``): without it, nothing is called
    for intent in (it.OpenSettings(2), it.OpenHand(), it.Language("chat", "en")):
        assert await press(svc, "k", "u1", intent) is None  # type: ignore[arg-type]
    assert svc.calls == []


async def test_joining_without_a_name_is_named_by_the_id() -> None:
    svc = Recording()
    await press(svc, "k", "u1", it.Join())  # type: ignore[arg-type]
    assert svc.calls == [("join", ("k", "u1", "u1"), {})]
