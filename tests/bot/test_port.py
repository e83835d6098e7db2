"""The port's two questions (``Port.on_table``, ``Port.reports_shown``): declared on the
protocol with their defaults, answered by each port, asked by the service directly."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from adapters.discord.adapter import Adapter as DiscordAdapter
from adapters.telegram.adapter import Adapter as TelegramAdapter
from adapters.terminal.port import TerminalPort
from adapters.web.port import WebPort
from bot.port import NEWS, Notice, NullPort, Port, RecordingPort, RoutingPort
from tests.bot.helpers import Clock, close_service, open_service

KICKED = Notice("info.kicked", {"player": "p2", "name": "Bo"})
WON = Notice("info.game_won", {"player": "p1", "name": "Al"})


@dataclass
class AllNews(RecordingPort):
    """A port that shows every notice as news of its own, and reports what it shows."""

    def on_table(self, key: str, status: str, notice: Notice) -> bool:
        return False

    def reports_shown(self, key: str) -> bool:
        return True


def test_every_port_is_a_port_by_subclassing() -> None:
    # (mypy checks each one's methods against the protocol's: they subclass it)
    for cls in (
        NullPort, RecordingPort, RoutingPort, WebPort, TerminalPort, DiscordAdapter,
        TelegramAdapter,
    ):  # fmt: skip
        assert Port in cls.__mro__, cls  # (no isinstance: the protocol is static)


def test_the_defaults_keep_news_apart_and_never_report() -> None:
    port = NullPort()
    assert port.on_table("tg:1", "playing", KICKED)
    for code in NEWS:
        assert not port.on_table("tg:1", "playing", Notice(code))
    assert not port.reports_shown("tg:1")


def test_routing_asks_the_port_of_the_keys_platform() -> None:
    router = RoutingPort()
    router.add("tg", AllNews())
    router.add("dc", RecordingPort(reports=False))
    assert not router.on_table("tg:1", "playing", KICKED)  # Telegram's own answer
    assert router.on_table("dc:1", "playing", KICKED)  # the default
    assert not router.on_table("dc:1", "playing", WON)
    assert router.reports_shown("tg:1")
    assert not router.reports_shown("dc:1")
    assert not router.reports_shown("xx:1")  # no port: the fallback's, which never reports
    assert router.on_table("xx:1", "playing", KICKED)


def test_the_web_tee_answers_as_the_chats_port() -> None:
    assert WebPort(AllNews()).reports_shown("tg:1")
    assert not WebPort(AllNews()).on_table("tg:1", "lobby", KICKED)
    assert not WebPort(NullPort()).reports_shown("tg:1")
    assert WebPort(NullPort()).on_table("tg:1", "lobby", KICKED)


@pytest.mark.parametrize("port", [RecordingPort(), AllNews()], ids=["default", "all-news"])
async def test_the_service_keeps_a_notice_as_the_port_says(
    tmp_path: Path, port: RecordingPort
) -> None:
    svc, store, _ = await open_service(tmp_path / "p.db", Clock(), port)
    try:
        await svc.create("t:1", "chat", "p1", "Al")
        await svc.join("t:1", "p2", "Bo")
        assert (await svc.kick("t:1", "p1", "p2")).ok
        t = await store.get_table("t:1")
        assert t is not None
        codes = [r.to_dict().get("n") for r in t.recent]
        pending = [p.code for p in t.pending]
        if isinstance(port, AllNews):
            assert "info.kicked" not in codes and "info.kicked" in pending
        else:
            assert "info.kicked" in codes and "info.kicked" not in pending
    finally:
        await close_service(svc, store)
