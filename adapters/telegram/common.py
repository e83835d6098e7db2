"""What every part of the Telegram adapter shares, and nothing that imports them back.

- :class:`Wire`: the one adapter's shared plumbing (the service, the pacing, and what
  :meth:`Adapter.start` makes: PTB's application, the outbox, the bot's username);
- :class:`ReplyTo` and :class:`Posted`: who a service call was made for and where what it
  tells them (its ``Result.told``) goes: the way they came;
- :data:`INTERACTIVE`: set by the handlers for a person's own change;
- :class:`Lru`, :func:`answer_quietly` and small helpers.

The adapter's modules depend on this one (and on ``ids``, ``widgets``, ``text``), never the other
way round: there is no import circle in ``adapters/telegram`` (a test says so).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, TypeVar

from telegram import CallbackQuery
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError, TimedOut
from telegram.ext import Application

from adapters.telegram.outbox import Limits, Outbox, retry_seconds
from bot.ops import metrics
from bot.service import Service
from bot.ui.i18n import Translator
from bot.weblinks import Links

__all__ = [
    "INTERACTIVE",
    "MEMORY",
    "Choice",
    "Lru",
    "Posted",
    "ReplyTo",
    "Wire",
    "answer_quietly",
    "content",
    "gone",
]

log = logging.getLogger(__name__)

# set by the handlers: the change being shown is a person's own doing, so its table edit
# may use the token kept in reserve (timers and bot seats run with the default)
INTERACTIVE: ContextVar[bool] = ContextVar("tg_interactive", default=False)
MEMORY = 5000  # entries kept in each per-user / per-chat map

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(OrderedDict[K, V]):
    """A dict that keeps only its ``size`` most recently used entries."""

    def __init__(self, size: int = MEMORY) -> None:
        super().__init__()
        self.size = size

    def __getitem__(self, key: K) -> V:
        value = super().__getitem__(key)
        self.move_to_end(key)
        return value

    def get(self, key: K, default: V | None = None) -> V | None:  # type: ignore[override]
        try:
            return self[key]
        except KeyError:
            return default

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)


@dataclass(eq=False)
class Wire:
    """One adapter's shared plumbing: its parts hold this, not the adapter. ``app``,
    ``outbox`` and ``username`` are set by :meth:`Adapter.start` (``None`` until then and
    after a stop); ``shared``: several processes use the database (see ``outbound.table``)."""

    service: Service
    limits: Limits
    shared: bool
    app: Application[Any, Any, Any, Any, Any, Any] | None = None
    outbox: Outbox | None = None
    username: str | None = None
    stopping: bool = False  # the adapter is stopping: replies due for deletion go now
    web: Links | None = None  # the web table's links (``UNO_WEB_URL``), if it is on
    webapp: str | None = None  # the Mini App's short name (``UNO_TELEGRAM_WEBAPP``)

    def web_link(self, key: str) -> str | None:
        """The table message's link to the web table: the Mini App opened on this table
        (``t.me/<bot>/<app>?startapp=<table token>``), if the web table and the app are set."""
        if self.web is None or not self.webapp or not self.username:
            return None
        return self.web.telegram_link(self.username, self.webapp, self.web.table_token(key))

    def web_app(self, key: str) -> str | None:
        """The web table inside Telegram, for a ``web_app`` button (a private chat only)."""
        return self.web.mini_app_url(self.web.table_token(key)) if self.web is not None else None

    @property
    def bot(self) -> Any:
        assert self.app is not None, "the adapter is not started"
        return self.app.bot


@dataclass(frozen=True, slots=True)
class Posted:
    """A message a person posted in a group (a typed command, or the message a chosen
    inline result posted): what a refusal can reply to when their private chat is closed."""

    chat: int
    thread: int | None
    message_id: int


@dataclass(eq=False)
class Choice:
    """One chosen inline result of user ``uid`` at table ``key`` (its name ``name``), and
    the 🎴 message it posted in the group once the bot has seen it (``posted``): Telegram
    sends the two as separate updates, in no promised order. ``refusal``: a refusal of
    the choice waiting for that message (``timer``: until it answers without it)."""

    key: str
    uid: int
    name: str
    at: float
    posted: Posted | None = None
    refusal: Callable[[Translator], str] | None = None
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class ReplyTo:
    """Whom a handler answers, and how: what they did came by ``query`` (a pressed button:
    the handler collects its ``alerts`` in ``lang``, or a ``url`` to open, and answers the
    query once), else by a message: the private chat, else (closed) a short-lived reply to
    ``posted`` (what they typed in a group) or to the message their inline ``choice``
    posted. The handler fills it, from its own refusals and the ``Result.told`` of the
    service calls it makes for the user (``Messages.told``); the port never sees it."""

    user: int
    lang: str = "en"
    query: CallbackQuery | None = None
    alerts: list[str] = field(default_factory=list)
    url: str | None = None
    posted: Posted | None = None
    choice: Choice | None = None


async def answer_quietly(
    what: str, send: Callable[[], Awaitable[Any]], *, tries: int = 3, pause: float = 0.3
) -> bool:
    """Answer a callback or inline query (``send``): a 429 or a network error is retried
    (briefly: a query expires in seconds), then the failure is logged by ``what`` alone,
    never with the query. True if it went through."""
    for attempt in range(1, tries + 1):
        last = attempt == tries
        try:
            await send()
            return True
        except RetryAfter as err:
            metrics.rate_limited("tg")
            if last:
                log.warning("%s failed: flood control", what)
                return False
            await asyncio.sleep(min(retry_seconds(err), 5.0))
        except BadRequest as err:  # too old, or answered already: nothing to retry
            log.info("%s failed: %s", what, err)
            return False
        except (TimedOut, NetworkError) as err:
            if last:
                log.warning("%s failed after %d tries: %s", what, tries, err)
                return False
            await asyncio.sleep(pause * attempt)
        except TelegramError as err:
            log.warning("%s failed: %s", what, err)
            return False
    return False


def content(text: str, markup: Any) -> tuple[str, str | None]:
    """A message's content, comparable: its text and its keyboard as JSON."""
    return text, markup.to_json() if markup is not None else None


def gone(err: BadRequest) -> bool:
    """The message to edit no longer exists (deleted, or too old to edit): send anew."""
    why = str(err).lower()
    return any(s in why for s in ("not found", "message_id_invalid", "can't be"))
