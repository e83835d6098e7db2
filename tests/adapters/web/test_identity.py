"""Telegram's initData, validated as Telegram documents it (``adapters.web.identity``)."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qsl

from adapters.web.identity import INIT_DATA_SECONDS, TelegramLogin, telegram_login
from tests.adapters.web.conftest import BOT_TOKEN, init_data

NOW = 1_800_000_000.0


def test_the_documented_check_by_hand() -> None:
    """The check spelled out as Telegram's page does, against our reading of it."""
    data = init_data(42, name="Zoë", start="tok", auth_date=NOW - 10, lang="zh-hans")
    pairs = dict(parse_qsl(data))
    given = pairs.pop("hash")
    check = "\n".join(f"{k}={v}" for k, v in sorted(pairs.items()))
    secret = hmac.new(b"WebAppData", BOT_TOKEN.encode(), hashlib.sha256).digest()
    assert hmac.new(secret, check.encode(), hashlib.sha256).hexdigest() == given
    login = telegram_login(data, BOT_TOKEN, NOW)
    assert login == TelegramLogin(42, "Zoë", "zh-hans", "tok", int(NOW - 10))


def test_refused() -> None:
    good = init_data(42, auth_date=NOW)
    user = json.dumps({"id": 43, "first_name": "Ann", "language_code": "en"})
    cases = {
        "bad_login": [
            good.replace("Ann", "Bob"),  # tampered
            init_data(42, auth_date=NOW, token="1:another-bot"),
            good.replace("hash=", "hash=0"),
            "&".join(p for p in good.split("&") if not p.startswith("hash=")),
            good + "&auth_date=1",  # a field twice
            init_data(42, auth_date=NOW + 3600),  # ahead of the clock
            "user=" + user + "&hash=00",
            "",
            None,
            "x" * 5000,
        ],
        "old_login": [init_data(42, auth_date=NOW - INIT_DATA_SECONDS - 1)],
    }
    for code, datas in cases.items():
        for data in datas:
            assert telegram_login(data, BOT_TOKEN, NOW) == code, data
    assert isinstance(telegram_login(init_data(42, auth_date=NOW - 60), BOT_TOKEN, NOW),
                      TelegramLogin)  # fmt: skip


def test_a_web_url_without_a_secret_stops_uno_bot_run_with_one_line(tmp_path: Path) -> None:
    """``UNO_WEB_URL`` set and ``UNO_WEB_SECRET`` not: ``uno-bot run`` exits at once (not
    0) with one line naming the missing variable, before it opens anything."""
    env = {k: v for k, v in os.environ.items() if not k.upper().startswith("UNO_")}
    env.update(
        PYTHONPATH=str(Path(__file__).resolve().parents[3]),
        UNO_DB=str(tmp_path / "uno.sqlite3"),
        UNO_TELEGRAM_TOKEN=BOT_TOKEN,
        UNO_WEB_URL="https://uno.example",
    )
    done = subprocess.run(
        [sys.executable, "-m", "bot", "run"], env=env, cwd=tmp_path, capture_output=True,
        text=True, timeout=60, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode != 0
    assert len(lines) == 1, done.stderr
    assert "UNO_WEB_SECRET" in lines[0] and "UNO_WEB_URL" in lines[0]
    assert not (tmp_path / "uno.sqlite3").exists()  # nothing opened
