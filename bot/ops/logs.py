"""Logging set-up: secrets and private texts stay out of every log line.

Telegram puts the bot token in every API URL, which ``httpx`` logs at INFO; at DEBUG the
platform libraries log whole API payloads (private hands, interaction tokens). So:
``httpx``/``httpcore`` log warnings only, the platform libraries never log below INFO, and
a filter on every handler masks the configured tokens and anything shaped like a Telegram
bot token, whatever logger the record came from.

Logs go to stderr; for the terminal table (``file``) they go to a file instead, and only
warnings and errors to stderr, so that log lines never print into the game.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO

__all__ = ["SecretFilter", "log_file", "setup_logging"]

_TELEGRAM_TOKEN = re.compile(r"\d{5,}:[A-Za-z0-9_-]{20,}")
# libraries that log request URLs or payloads: never below these levels
_FLOORS = {
    "httpx": logging.WARNING,
    "httpcore": logging.WARNING,
    "telegram": logging.INFO,
    "apscheduler": logging.INFO,
    "discord": logging.INFO,
    "aiosqlite": logging.INFO,
}
MASK = "***"


class SecretFilter(logging.Filter):
    """Masks secrets in a record's final text (message and arguments merged)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s and len(s) >= 6]

    def _clean(self, text: str) -> str:
        for s in self.secrets:
            if s in text:
                text = text.replace(s, MASK)
        return _TELEGRAM_TOKEN.sub(MASK, text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # a broken format string: leave the record as it is
            return True
        clean = self._clean(text)
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if clean != text:
            record.msg, record.args = clean, None
        return True


FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to ``sys.stderr`` as it is when a record comes (it may have been replaced)."""

    @property
    def stream(self) -> TextIO:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


class _File(logging.FileHandler):
    """Opened at the first record, making its directory if need be."""

    def __init__(self, path: Path) -> None:
        super().__init__(path, encoding="utf-8", delay=True)

    def _open(self) -> Any:
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()


def setup_logging(
    level: str, secrets: Iterable[str] = (), *, file: Path | None = None
) -> SecretFilter:
    """Configure the root logger at ``level`` with the secret filter on its handlers.

    Records go to stderr, or, with ``file``, to that file (opened at the first record, so
    a start refused before anything is logged leaves no file behind) and only warnings
    and errors to stderr. Called again, it replaces what it set up before. Where someone
    else has put handlers on the root logger already (a test run), it adds no stderr
    handler of its own (as ``logging.basicConfig`` would not)."""
    root = logging.getLogger()
    for h in [h for h in root.handlers if getattr(h, "uno", False)]:
        root.removeHandler(h)
        h.close()
    root.setLevel(level)
    numeric = root.getEffectiveLevel()
    handlers: list[logging.Handler] = []
    console_level = logging.NOTSET
    if file is not None and _writable_dir(file.parent):
        handlers.append(_File(file))
        console_level = max(numeric, logging.WARNING)
    elif file is not None:  # nowhere to write it: warnings and errors only, on stderr
        console_level = max(numeric, logging.WARNING)
    if not root.handlers:
        console = _Stderr()
        console.setLevel(console_level)
        handlers.append(console)
    for h in handlers:
        h.setFormatter(logging.Formatter(FORMAT))
        h.uno = True  # type: ignore[attr-defined]
        root.addHandler(h)
    for name, floor in _FLOORS.items():
        logging.getLogger(name).setLevel(max(numeric, floor))
    filt = SecretFilter(secrets)
    for h in root.handlers:
        if not any(isinstance(f, SecretFilter) for f in h.filters):
            h.addFilter(filt)
    return filt


def _writable_dir(d: Path) -> bool:
    """``d`` can hold a new file, or does not exist yet (the store makes it, or refuses)."""
    while not d.exists():
        if d.parent == d:
            return False
        d = d.parent
    return d.is_dir() and os.access(d, os.W_OK | os.X_OK)


def log_file(db: Path) -> Path | None:
    """Where the terminal table logs: beside its database (none for one in memory)."""
    if str(db) == ":memory:":
        return None
    return db.with_name(db.name + ".log")
