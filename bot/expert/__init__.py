"""The ``expert`` bot seat: determinized playouts on the fast path, from the seat's view
and the public record only (``search``: how it decides; ``memory``: what it remembers;
``rollout``: how every seat is imagined to play)."""

from bot.expert.memory import Memory
from bot.expert.search import Budget, World, choose, decide

__all__ = ["Budget", "Memory", "World", "choose", "decide"]
