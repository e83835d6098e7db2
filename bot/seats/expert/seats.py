"""The expert seats of a running bot: each table's public record, and the searches, run
off the event loop.

The service records every committed move of a table with an expert seat (``record``:
the events as the public saw them) and asks ``decide`` when an expert seat is to move;
the search runs in a worker process (one by default: ``UNO_EXPERT_WORKERS``), so the
event loop, and every other table, goes on meanwhile. The record lives in memory only:
after a restart (or a move made by another process of a shared database) the seat
decides from its view alone until the next deal.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor

from bot.seats.expert.memory import Memory, Move
from bot.seats.expert.search import BOT_BUDGET, Budget, decide
from engine import Action, Game, Rules, legal_actions, view

__all__ = ["Experts"]

log = logging.getLogger(__name__)


class Experts:
    """The expert seats' records and their worker (see the module's docstring)."""

    def __init__(
        self, workers: int = 1, budget: Budget = BOT_BUDGET, executor: Executor | None = None
    ) -> None:
        self.workers = max(1, workers)
        self.budget = budget
        self._executor = executor
        self._own = executor is None
        self._records: dict[str, Memory] = {}

    def record(self, key: str, rules: Rules, moves: Sequence[Move]) -> None:
        """Moves committed at table ``key`` (events as the public sees them)."""
        mem = self._records.get(key)
        if mem is None:
            mem = self._records[key] = Memory(rules)
        mem.rules = rules
        mem.feed_all(moves)

    def forget(self, key: str) -> None:
        self._records.pop(key, None)

    def memory(self, key: str) -> Memory | None:
        return self._records.get(key)

    async def decide(self, key: str, game: Game, player: str, seed: int) -> Action | None:
        """The expert's move for ``player``, from its view and the table's record, decided
        in the worker."""
        v = view(game, player)
        moves = legal_actions(game, player)  # what its menu offers it
        mem = self._records.get(key)
        snapshot = mem.copy() if mem is not None else None
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool(), decide, v, snapshot, seed, self.budget, moves
        )

    async def warm(self) -> None:
        """Start the worker now (a process takes a moment to start and import the search),
        not at the first expert's move."""
        await asyncio.get_running_loop().run_in_executor(self._pool(), _ready)

    def _pool(self) -> Executor:
        if self._executor is None:
            # spawn: a fork of a process running an event loop (and its threads) is unsafe
            ctx = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=ctx)
        return self._executor

    def close(self) -> None:
        """Stop the worker (a search under way is dropped: its table moves on its next
        deadline)."""
        if self._executor is not None and self._own:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


def _ready() -> bool:
    return True
