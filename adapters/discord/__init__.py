"""Discord: UNO in servers with application commands and components (discord.py 2.x)."""

from adapters.discord.adapter import Adapter

__all__ = ["Adapter"]
