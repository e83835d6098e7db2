"""What the Discord adapter's parts share, wired once by the adapter: the settings, the
table service, the outbox, the languages, the card emojis and (once started) the client;
and the gate every interaction passes (tracked while handled, refused while stopping)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import discord

from adapters.discord.emojis import CardEmojis, EmojiSets
from adapters.discord.langs import Languages
from adapters.discord.outbox import Outbox
from bot.ops.config import Settings
from bot.service import Service

__all__ = ["Context", "Gate"]


@dataclass
class Gate:
    """The interactions being handled (``idle`` waits for them), whether the adapter is
    stopping (then they are answered, not handled), and how fast they were acknowledged."""

    closing: bool = False
    handlers: set[asyncio.Task[Any]] = field(default_factory=set)
    # seconds from receiving an interaction to acknowledging it (the latest ones)
    ack_latencies: deque[float] = field(default_factory=lambda: deque(maxlen=10_000))

    def track(self) -> None:
        """The current task handles an interaction: waited for by ``idle``."""
        task = asyncio.current_task()
        if task is not None:
            self.handlers.add(task)
            task.add_done_callback(self.handlers.discard)

    def acked(self, started: float) -> None:
        self.ack_latencies.append(time.monotonic() - started)


@dataclass
class Context:
    settings: Settings
    service: Service
    outbox: Outbox
    langs: Languages
    cards: EmojiSets
    gate: Gate = field(default_factory=Gate)
    client: discord.Client | None = None

    @property
    def emojis(self) -> CardEmojis | None:
        """The cards as emojis, once the set is complete (else the cards are text)."""
        return self.cards.emojis
