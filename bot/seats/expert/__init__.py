"""The ``expert`` bot seat: determinized playouts on the fast path, from the seat's view
and the public record only (``search``: how it decides; ``memory``: what it remembers;
``rollout``: how every seat is imagined to play)."""

from bot.seats.expert.memory import Memory, Move
from bot.seats.expert.search import BOT_BUDGET, Budget, World, choose, decide
from bot.seats.expert.seats import Experts
from bot.seats.strategies import SEARCHERS

SEARCHERS["expert"] = choose

__all__ = ["BOT_BUDGET", "Budget", "Experts", "Memory", "Move", "World", "choose", "decide"]
