"""bot.ops.logs: tokens never reach a log line, and chatty libraries stay quiet."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.ops.logs import MASK, SecretFilter, setup_logging

TOKEN = "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"


def _record(msg: str, *args: object, exc: BaseException | None = None) -> logging.LogRecord:
    rec = logging.LogRecord("httpx", logging.INFO, __file__, 1, msg, args, None)
    if exc is not None:
        try:
            raise exc
        except BaseException as e:
            rec.exc_info = (type(e), e, e.__traceback__)
    return rec


def test_a_configured_secret_is_masked_in_message_and_arguments() -> None:
    f = SecretFilter(["discord-secret-token-value"])
    rec = _record("connecting with %s", "discord-secret-token-value")
    f.filter(rec)
    assert "discord-secret-token-value" not in rec.getMessage()
    assert MASK in rec.getMessage()


def test_anything_shaped_like_a_telegram_token_is_masked() -> None:
    f = SecretFilter()
    rec = _record('HTTP Request: POST %s "HTTP/1.1 200 OK"', f"http://x/bot{TOKEN}/getUpdates")
    f.filter(rec)
    assert TOKEN not in rec.getMessage()


def test_a_token_in_an_exception_is_masked() -> None:
    f = SecretFilter([TOKEN])
    rec = _record("failed", exc=RuntimeError(f"The token `{TOKEN}` was rejected"))
    f.filter(rec)
    assert rec.exc_text is not None and TOKEN not in rec.exc_text
    text = logging.Formatter().format(rec)
    assert TOKEN not in text


def test_setup_quiets_the_libraries_that_log_urls_and_payloads(
    caplog: pytest.LogCaptureFixture,
) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    try:
        setup_logging("DEBUG", [TOKEN])
        assert logging.getLogger("httpx").getEffectiveLevel() >= logging.WARNING
        assert logging.getLogger("telegram").getEffectiveLevel() >= logging.INFO
        assert logging.getLogger("discord").getEffectiveLevel() >= logging.INFO
        assert any(isinstance(f, SecretFilter) for h in root.handlers for f in h.filters)
    finally:
        root.handlers[:], _ = saved[0], None
        root.setLevel(saved[1])


def test_with_a_file_only_warnings_reach_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = logging.getLogger()
    saved = root.handlers[:], root.level
    root.handlers[:] = []  # as in a process of its own
    log = tmp_path / "data" / "uno.sqlite3.log"
    try:
        setup_logging("INFO", [TOKEN])
        logging.getLogger("uno.test").info("to stderr")
        assert "INFO uno.test: to stderr" in capsys.readouterr().err
        setup_logging("INFO", [TOKEN], file=log)  # replaces the stderr handler
        assert not log.exists()  # nothing logged yet: no file
        logging.getLogger("uno.test").info("restored %d tables with %s", 3, TOKEN)
        logging.getLogger("uno.test").warning("something to see")
        err = capsys.readouterr().err
        assert "restored" not in err and "WARNING uno.test: something to see" in err
        assert err.count("something to see") == 1
        text = log.read_text(encoding="utf-8")
        assert "INFO uno.test: restored 3 tables with ***" in text and TOKEN not in text
        assert "something to see" in text
    finally:
        for h in root.handlers:
            h.close()
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
