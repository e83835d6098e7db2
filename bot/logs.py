"""Logging set-up: secrets and private texts stay out of every log line.

Telegram puts the bot token in every API URL, which ``httpx`` logs at INFO; at DEBUG the
platform libraries log whole API payloads (private hands, interaction tokens). So:
``httpx``/``httpcore`` log warnings only, the platform libraries never log below INFO, and
a filter on every handler masks the configured tokens and anything shaped like a Telegram
bot token, whatever logger the record came from.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

__all__ = ["SecretFilter", "setup_logging"]

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


def setup_logging(level: str, secrets: Iterable[str] = ()) -> SecretFilter:
    """Configure the root logger at ``level`` with the secret filter on its handlers."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    root = logging.getLogger()
    numeric = root.getEffectiveLevel()
    for name, floor in _FLOORS.items():
        logging.getLogger(name).setLevel(max(numeric, floor))
    filt = SecretFilter(secrets)
    for h in root.handlers:
        if not any(isinstance(f, SecretFilter) for f in h.filters):
            h.addFilter(filt)
    return filt
