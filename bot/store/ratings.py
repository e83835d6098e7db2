"""The ratings in the database (migration ``0010_ratings``), for both stores.

``commit`` runs inside a store's write transaction (``SqliteStore._commit``,
``PostgresStore._commit``): each ``GameResult`` of the batches is recorded in
``game_results`` and, when it is rated, counted on its ladders (``bot.ratings.rate`` on the
ratings as stored). The games are rated one at a time in the order of their ids, which is
the order ``replay`` follows (``uno-bot ratings --rebuild``): on PostgreSQL, where several
processes commit at once, the transactions that record games take one advisory lock
first (the last lock they take: nothing they wait for while holding it waits for them), so
those transactions follow one another and the ids are given in the order they commit.

The SQL is written once, with ``?`` placeholders; ``PgDb`` numbers them for asyncpg.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from bot.ratings import (
    ABANDONED,
    FINISHED,
    GameResult,
    Rating,
    rate,
    replay,
)

__all__ = [
    "PgDb",
    "RatingReads",
    "SqliteDb",
    "commit",
    "game_results",
    "ladder",
    "move",
    "named",
    "player_ratings",
]

# the advisory lock of the transactions that rate games (any number, fixed: "uno" + 22)
RATINGS_LOCK = 0x756E6F0016


class Db(Protocol):
    """A connection (or pool) of one dialect, as this module uses it."""

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]: ...
    async def execute(self, sql: str, *args: Any) -> None: ...
    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None: ...
    async def serialize(self) -> None: ...


class SqliteDb:
    """An aiosqlite connection. One writer at a time (the file's lock, ``BEGIN
    IMMEDIATE``): the games are rated in the order they commit already."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        async with self.conn.execute(sql, args) as cur:
            return list(await cur.fetchall())

    async def execute(self, sql: str, *args: Any) -> None:
        await self.conn.execute(sql, args)

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        await self.conn.executemany(sql, rows)

    async def serialize(self) -> None:
        return None


@functools.lru_cache(maxsize=64)
def _numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2...`` (the SQL here holds no literal ``?``)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


class PgDb:
    """An asyncpg connection (in a transaction, to write) or pool (to read)."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[Sequence[Any]]:
        return list(await self.conn.fetch(_numbered(sql), *args))

    async def execute(self, sql: str, *args: Any) -> None:
        await self.conn.execute(_numbered(sql), *args)

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        await self.conn.executemany(_numbered(sql), rows)

    async def serialize(self) -> None:
        await self.conn.execute("SELECT pg_advisory_xact_lock($1)", RATINGS_LOCK)


_ADD_GAME = (
    "INSERT INTO game_results (table_key, game_no, scope, ended, outcome, season, players) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_GAMES = "SELECT table_key, game_no, scope, ended, outcome, season, players FROM game_results"
_COLUMNS = "scope, season, player, name, bot, mu, sigma, games, wins, places, updated"
_PUT = (
    f"INSERT INTO ratings ({_COLUMNS}, ordinal) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (scope, season, player) DO UPDATE SET name = excluded.name, "
    "bot = excluded.bot, mu = excluded.mu, sigma = excluded.sigma, "
    "ordinal = excluded.ordinal, games = excluded.games, wins = excluded.wins, "
    "places = excluded.places, updated = excluded.updated"
)
_ORDER = "ORDER BY ordinal DESC, games DESC, player"


def _row(r: Rating) -> tuple[Any, ...]:
    return (
        r.scope, r.season, r.player, r.name, r.bot, r.mu, r.sigma, r.games, r.wins,
        r.places, r.updated, r.ordinal,
    )  # fmt: skip


def _rating(row: Sequence[Any]) -> Rating:
    return Rating(
        scope=str(row[0]),
        season=str(row[1]),
        player=str(row[2]),
        name=str(row[3]),
        bot=None if row[4] is None else str(row[4]),
        mu=float(row[5]),
        sigma=float(row[6]),
        games=int(row[7]),
        wins=int(row[8]),
        places=int(row[9]),
        updated=float(row[10]),
    )


def _game(row: Sequence[Any]) -> GameResult:
    return GameResult(
        table_key=str(row[0]),
        game_no=int(row[1]),
        scope=str(row[2]),
        ended=float(row[3]),
        outcome=str(row[4]),
        season=None if row[5] is None else str(row[5]),
        entrants=GameResult.entrants_of(str(row[6])),
    )


# -- writing: inside a store's transaction --------------------------------------------------------


async def commit(
    db: Db,
    games: Sequence[GameResult],
    rebuild: bool = False,
    moves: Sequence[tuple[str, str]] = (),
) -> None:
    """Last in a store's transaction: the chats that became others (``moves``, ``(old
    scope, new scope)``: see ``move``), then ``games`` recorded in order and those rated
    counted on their ladders; then, with ``rebuild``, every rating computed again from the
    recorded games."""
    if not games and not rebuild and not moves:
        return
    await db.serialize()
    for old, new in moves:
        await move(db, old, new)
    for game in games:
        if game.outcome not in (FINISHED, ABANDONED):
            raise ValueError(f"a game is finished or abandoned, not {game.outcome!r}")
        await db.execute(
            _ADD_GAME,
            game.table_key,
            game.game_no,
            game.scope,
            game.ended,
            game.outcome,
            game.season,
            game.players_json(),
        )
        if game.rated:
            await _count(db, game)
    if rebuild:
        await _rebuild(db)


async def _count(db: Db, game: GameResult) -> None:
    players = [e.player for e in game.entrants]
    for scope, season in game.ladders():
        current = await _ratings(db, scope, season, players)
        await db.executemany(_PUT, [_row(r) for r in rate(game, scope, season, current)])


async def _rebuild(db: Db, scopes: Iterable[str] | None = None) -> int:
    """Every ladder (or those of ``scopes``) as ``replay`` of the recorded games gives it."""
    only = None if scopes is None else sorted(set(scopes))
    games = await game_results(db, only)
    rows = [_row(r) for r in replay(games, only).values()]
    if only is None:
        await db.execute("DELETE FROM ratings")
    else:
        for scope in only:
            await db.execute("DELETE FROM ratings WHERE scope = ?", scope)
    if rows:
        await db.executemany(_PUT, rows)
    return len(rows)


async def move(db: Db, old_scope: str, new_scope: str) -> None:
    """A chat became another (``ScopeMove``): its games are the new chat's, and the new
    chat's ladders are counted again from every game now its own (the old chat's none).
    Under the lock of ``commit``."""
    if old_scope == new_scope:
        return
    found = await db.fetch("SELECT 1 FROM game_results WHERE scope = ? LIMIT 1", old_scope)
    if not found:
        return
    await db.execute("UPDATE game_results SET scope = ? WHERE scope = ?", new_scope, old_scope)
    await _rebuild(db, [old_scope, new_scope])


# -- reading --------------------------------------------------------------------------------------


async def _ratings(db: Db, scope: str, season: str, players: Sequence[str]) -> dict[str, Rating]:
    if not players:
        return {}
    marks = ",".join("?" * len(players))
    rows = await db.fetch(
        f"SELECT {_COLUMNS} FROM ratings WHERE scope = ? AND season = ? "
        f"AND player IN ({marks})",  # placeholders only
        scope,
        season,
        *players,
    )
    return {str(r[2]): _rating(r) for r in rows}


async def ladder(db: Db, scope: str, season: str, limit: int = 10) -> list[Rating]:
    """The best rated of ladder ``(scope, season)``, best first."""
    rows = await db.fetch(
        f"SELECT {_COLUMNS} FROM ratings WHERE scope = ? AND season = ? {_ORDER} LIMIT ?",
        scope,
        season,
        limit,
    )
    return [_rating(r) for r in rows]


async def player_ratings(db: Db, player: str, scopes: Sequence[str]) -> list[Rating]:
    """Every rating ``player`` has on the ladders of ``scopes`` (each season)."""
    marks = ",".join("?" * len(scopes))
    rows = await db.fetch(
        f"SELECT {_COLUMNS} FROM ratings WHERE player = ? AND scope IN ({marks}) "
        "ORDER BY scope, season",
        player,
        *scopes,
    )
    return [_rating(r) for r in rows]


async def named(db: Db, scope: str, name: str) -> list[str]:
    """The players rated in ``scope`` under the name ``name`` (letter case aside), the most
    played first."""
    rows = await db.fetch(
        "SELECT player, max(games) FROM ratings WHERE scope = ? "
        "AND (name = ? OR lower(name) = lower(?)) GROUP BY player ORDER BY max(games) DESC, "
        "player",
        scope,
        name,
        name,
    )
    return [str(r[0]) for r in rows]


async def game_results(db: Db, scopes: Sequence[str] | None = None) -> list[GameResult]:
    """The recorded games (of ``scopes``, or all), in the order they were rated."""
    if scopes is None:
        rows = await db.fetch(f"{_GAMES} ORDER BY id")
    else:
        marks = ",".join("?" * len(scopes))
        rows = await db.fetch(f"{_GAMES} WHERE scope IN ({marks}) ORDER BY id", *scopes)
    return [_game(r) for r in rows]


class RatingReads:
    """What a store reads of the ratings (``Store``'s rating methods), on ``_ratings_db``."""

    def _ratings_db(self) -> Db:
        raise NotImplementedError

    async def ladder(self, scope: str, season: str, limit: int = 10) -> list[Rating]:
        return await ladder(self._ratings_db(), scope, season, limit)

    async def player_ratings(self, player: str, scopes: Sequence[str]) -> list[Rating]:
        return await player_ratings(self._ratings_db(), player, scopes)

    async def rated_named(self, scope: str, name: str) -> list[str]:
        return await named(self._ratings_db(), scope, name)

    async def game_results(self) -> list[GameResult]:
        return await game_results(self._ratings_db())
