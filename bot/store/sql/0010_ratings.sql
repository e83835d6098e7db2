-- Issue 22: ratings and ladders (bot/ratings.py, bot/store/ratings.py).
-- Every game that ended, in the order it was rated (id): its table and number in the
-- action log, its chat or server (scope), when it ended (unix time), whether it finished
-- or was abandoned (stopped, left by everyone, voted to an end: never rated), the season
-- it counts in (a month, 2026-12; NULL: seasons off) and its players as JSON, each
-- {id, name, group, place, bot?, left?}: group their openskill team, place 1 for the first
-- (a tie shares it). Enough to rate every game again: uno-bot ratings --rebuild.
CREATE TABLE game_results (
    id         INTEGER PRIMARY KEY,
    table_key  TEXT NOT NULL,
    game_no    INTEGER NOT NULL,
    scope      TEXT NOT NULL,
    ended      REAL NOT NULL,
    outcome    TEXT NOT NULL,               -- finished | abandoned
    season     TEXT,
    players    TEXT NOT NULL
);
CREATE INDEX game_results_scope ON game_results (scope, id);

-- One player on one ladder: a scope (a chat or server, '*' everywhere) and a season ('all',
-- or a month). mu and sigma are openskill's; ordinal = mu - 3 sigma orders the ladder.
CREATE TABLE ratings (
    scope      TEXT NOT NULL,
    season     TEXT NOT NULL,
    player     TEXT NOT NULL,
    name       TEXT NOT NULL,
    bot        TEXT,                        -- a bot seat's strategy
    mu         REAL NOT NULL,
    sigma      REAL NOT NULL,
    ordinal    REAL NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    places     INTEGER NOT NULL,            -- the places taken, summed (average: / games)
    updated    REAL NOT NULL,
    PRIMARY KEY (scope, season, player)
);
CREATE INDEX ratings_ladder ON ratings (scope, season, ordinal DESC);
