"""A table in the terminal: hot-seat humans and bot seats, through the table service."""

from adapters.terminal.table import TerminalOptions, play

__all__ = ["TerminalOptions", "play"]
