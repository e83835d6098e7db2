"""Persistence behind one interface: the ``Store`` protocol, its records and batches
(``base``), SQLite (``sqlite``, the embedded default) and PostgreSQL (``postgres``, several
processes on one database), the numbered migrations of both (``sql/``).

``store_for(UNO_DB)`` picks one; the rest of the bot imports its names from here.
``postgres`` (and asyncpg) is imported only when a server URL is given.
"""

from bot.store.base import (
    DIALECTS,
    KEEP,
    ActionRecord,
    CardAsset,
    ChatSettings,
    ChatUpdate,
    Listening,
    SchemaTooNew,
    ScopeMove,
    ShownMark,
    Stale,
    StatLine,
    StatUpdate,
    Store,
    StoreError,
    Unsent,
    WriteBatch,
    gcra,
    migrations,
)
from bot.store.sqlite import SqliteStore, is_server_url, sqlite_path, store_for

__all__ = [
    "DIALECTS",
    "KEEP",
    "ActionRecord",
    "CardAsset",
    "ChatSettings",
    "ChatUpdate",
    "Listening",
    "SchemaTooNew",
    "ScopeMove",
    "ShownMark",
    "SqliteStore",
    "Stale",
    "StatLine",
    "StatUpdate",
    "Store",
    "StoreError",
    "Unsent",
    "WriteBatch",
    "gcra",
    "is_server_url",
    "migrations",
    "sqlite_path",
    "store_for",
]
