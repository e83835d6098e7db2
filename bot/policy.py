"""Who may do what at a table: the one place that decides it.

- A table is *open* while it is a lobby or a game being played (``OPEN_STATUSES``); a
  stopped, expired or finished table takes no presses.
- The table's *host* (or whoever the platform says manages the chat: a Telegram group
  admin, a Discord member with Manage Channels; the adapter finds that out and passes
  ``admin=True``) may add bots, start, stop, kick and change the rules.
- Rules change in the lobby or between rounds, never mid-round.

``Service`` refuses through these (``no_table``, ``not_host``, ``not_mid_round``); an
adapter asks them before drawing a menu only the host may use, and asks its platform
whether someone is an admin only when ``needs_admin`` says the host check alone fails.
"""

from __future__ import annotations

from typing import Any

from bot.model import LOBBY, OPEN_STATUSES, PLAYING
from engine import Phase

__all__ = ["is_open", "may_configure", "may_manage", "needs_admin", "refusal_code"]


def is_open(table: Any) -> bool:
    """Whether ``table`` (a ``Table``, a ``TableInfo``, or ``None``) takes presses."""
    return table is not None and table.status in OPEN_STATUSES


def may_manage(table: Any, player: str, admin: bool = False) -> bool:
    """Whether ``player`` may do what the host may at ``table``."""
    return admin or player == table.host


def needs_admin(table: Any, player: str) -> bool:
    """Whether the platform must be asked if ``player`` manages the chat (they are not the
    host of the open ``table``: only then does being an admin matter)."""
    return is_open(table) and player != table.host


def may_configure(table: Any) -> bool:
    """Whether the rules of ``table`` may change now: the lobby, or between rounds."""
    if table.status == LOBBY:
        return True
    if table.status != PLAYING:
        return False
    # a Table has its game; a TableInfo, the public view of it
    g = table.game if hasattr(table, "game") else table.view
    return g is not None and g.phase is Phase.ROUND_OVER


def refusal_code(
    table: Any, player: str, *, admin: bool = False, manage: bool = False, rules: bool = False
) -> str | None:
    """Why ``player`` may not act at ``table`` (a refusal code: ``no_table``, ``not_host``,
    ``not_mid_round``), or ``None``. ``manage``: a host's action; ``rules``: a change of the
    rules."""
    if not is_open(table):
        return "no_table"
    if (manage or rules) and not may_manage(table, player, admin):
        return "not_host"
    if rules and not may_configure(table):
        return "not_mid_round"
    return None
