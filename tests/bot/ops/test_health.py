"""``/metrics`` and ``/healthz`` (``bot.ops.health``, ``UNO_METRICS_PORT``): healthy only once
started, with the store answering and every started platform connected; ``uno-bot run``
serves both on the port it is given."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientSession
from pydantic import ValidationError

from bot.ops.config import Settings
from bot.ops.health import Monitor
from bot.port import RecordingPort
from bot.service import Service
from bot.store import Store
from tests.fakes.telegram_api import FakeBotAPI

BACKENDS = ("sqlite", "postgresql")
ROOT = Path(__file__).resolve().parents[3]
UNO_BOT = Path(sys.executable).with_name("uno-bot")
Env = tuple[Service, Store, RecordingPort]


class Platform:
    """A started adapter as the monitor sees it: a prefix and ``connected()``."""

    def __init__(self, prefix: str, state: bool | Mapping[str, bool]) -> None:
        self.prefix = prefix
        self.state = state

    def connected(self) -> bool | Mapping[str, bool]:
        return self.state


@pytest.fixture
async def served(env: Env) -> AsyncIterator[tuple[Monitor, list[Any], str]]:
    svc, _, _ = env
    started: list[Any] = []
    monitor = Monitor(svc, platforms=lambda: started, timeout=0.5)
    await monitor.start("127.0.0.1", 0)
    yield monitor, started, f"http://127.0.0.1:{monitor.port}"
    await monitor.stop()


async def get(url: str) -> tuple[int, str, str]:
    async with ClientSession() as http, http.get(url) as r:
        return r.status, r.headers.get("Content-Type", ""), await r.text()


async def health(base: str) -> tuple[int, dict[str, Any]]:
    status, kind, text = await get(base + "/healthz")
    assert kind.startswith("application/json")
    return status, json.loads(text)


async def test_healthy_once_started_with_the_store_and_platforms_up(
    env: Env, served: tuple[Monitor, list[Any], str]
) -> None:
    svc, _, _ = env
    monitor, started, base = served
    status, body = await health(base)
    assert (status, body["status"]) == (503, "starting")
    started.append(Platform("tg", True))
    monitor.ready()
    status, body = await health(base)
    assert status == 200, body
    assert body["status"] == "ok" and body["process"] == svc.worker
    assert body["pid"] == os.getpid()
    assert body["store"]["reachable"] is True and body["store"]["ms"] >= 0
    assert body["store"]["kind"] in ("sqlite", "postgresql")
    assert body["platforms"] == {"tg": {"connected": True}}

    # a platform that lost its connection (one shard of two) makes the process unhealthy
    started.append(Platform("dc", {"0": True, "1": False}))
    status, body = await health(base)
    assert (status, body["status"]) == (503, "unhealthy")
    assert body["platforms"]["dc"] == {"connected": False, "shards": {"0": True, "1": False}}
    started[1].state = {"0": True, "1": True}
    assert (await health(base))[0] == 200

    monitor.stopping()
    status, body = await health(base)
    assert (status, body["status"]) == (503, "stopping")


async def test_unhealthy_when_the_store_is_closed(
    env: Env, served: tuple[Monitor, list[Any], str]
) -> None:
    _, store, _ = env
    monitor, _, base = served
    monitor.ready()
    assert (await health(base))[0] == 200
    await store.close()
    try:
        status, body = await health(base)
        assert status == 503 and body["status"] == "unhealthy"
        assert body["store"]["reachable"] is False
        assert "not open" in body["store"]["error"]
    finally:
        await store.open()  # (the fixture closes it)


async def test_unhealthy_when_the_store_does_not_answer_in_time(
    env: Env, served: tuple[Monitor, list[Any], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, store, _ = env
    monitor, _, base = served
    monitor.ready()

    async def stuck() -> None:
        await asyncio.sleep(10)

    monkeypatch.setattr(store, "ping", stuck)
    t0 = time.monotonic()
    status, body = await health(base)
    assert status == 503 and body["store"] == {
        "kind": body["store"]["kind"],
        "reachable": False,
        "error": "no answer within 0.5 s",
    }
    assert time.monotonic() - t0 < 3


async def test_an_adapter_that_cannot_tell_is_not_held_against_the_process(
    env: Env, served: tuple[Monitor, list[Any], str]
) -> None:
    monitor, started, base = served

    class Silent:
        prefix = "xx"

    class Broken:
        prefix = "yy"

        def connected(self) -> bool:
            raise RuntimeError("no idea")

    started.append(Silent())
    monitor.ready()
    status, body = await health(base)
    assert status == 200 and body["platforms"] == {"xx": {"connected": None}}
    started.append(Broken())  # a probe that fails says no
    status, body = await health(base)
    assert status == 503 and body["platforms"]["yy"] == {"connected": False}


async def test_metrics_are_served_in_the_text_format(
    env: Env, served: tuple[Monitor, list[Any], str]
) -> None:
    svc, _, _ = env
    _, started, base = served
    started.append(Platform("dc", {"2": True, "3": False}))
    assert (await svc.create("dc:1:2", "dc:1", "u1", "Ann")).ok
    status, kind, text = await get(base + "/metrics")
    assert status == 200 and kind.startswith("text/plain; version=0.0.4")
    p = svc.worker
    assert f'uno_actions_total{{kind="table",platform="dc",process="{p}"}} 1.0' in text
    assert f'uno_open_tables{{platform="dc",process="{p}"}} 1.0' in text
    assert f'uno_platform_connected{{platform="dc",process="{p}",shard="3"}} 0.0' in text
    assert "process_resident_memory_bytes" in text


def test_the_port_setting() -> None:
    assert Settings(_env_file=None).metrics_port is None  # off unless set
    assert Settings(_env_file=None, metrics_port="").metrics_port is None
    assert Settings(_env_file=None, metrics_port="9100").metrics_port == 9100
    for bad in ("http", "0", "70000"):
        with pytest.raises(ValidationError):
            Settings(_env_file=None, metrics_port=bad)


# -- uno-bot run ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_env(tmp_path: Path, api: FakeBotAPI, port: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env.update(
        PYTHONPATH=str(ROOT),
        UNO_DB=str(tmp_path / "uno.sqlite3"),
        UNO_LOG_LEVEL="WARNING",
        UNO_TELEGRAM_TOKEN=api.token,
        UNO_TELEGRAM_API_URL=api.base_url,
        UNO_METRICS_PORT=str(port),
        UNO_METRICS_HOST="127.0.0.1",
    )
    return env


async def test_uno_bot_run_serves_metrics_and_health(tmp_path: Path) -> None:
    api = FakeBotAPI()
    await api.start()
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        str(UNO_BOT), "run", cwd=tmp_path, env=run_env(tmp_path, api, port),
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 30
        status, body = 0, {}
        while time.monotonic() < end:  # serving first, healthy once the platform is up
            try:
                status, body = await health(base)
            except OSError:
                status = 0
            if status == 200:
                break
            assert proc.returncode is None
            await asyncio.sleep(0.1)
        assert status == 200, body
        assert body["store"]["reachable"] is True and body["store"]["kind"] == "sqlite"
        assert body["platforms"] == {"tg": {"connected": True}}
        status, _, text = await get(base + "/metrics")
        assert status == 200
        assert 'uno_process_info{pid="' in text and 'store="sqlite"' in text
        assert f'process="{body["process"]}"' in text
        proc.send_signal(signal.SIGTERM)
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await api.stop()
    assert proc.returncode == 0, err.decode()
    assert b"Traceback" not in err, err.decode()


async def test_a_taken_port_is_refused_with_one_line(tmp_path: Path) -> None:
    api = FakeBotAPI()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = await asyncio.create_subprocess_exec(
            str(UNO_BOT), "run", cwd=tmp_path, env=run_env(tmp_path, api, port),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, err = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode == 1
    text = err.decode()
    assert f"cannot serve metrics on 127.0.0.1:{port} (UNO_METRICS_PORT)" in text, text
    assert "Traceback" not in text
