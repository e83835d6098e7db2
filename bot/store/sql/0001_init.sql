-- Tables in play or in the lobby, one row per chat (or thread / forum topic).
CREATE TABLE tables (
    key           TEXT PRIMARY KEY,
    scope         TEXT NOT NULL,            -- chat or guild: settings and statistics
    status        TEXT NOT NULL,            -- lobby | playing | finished | stopped
    version       INTEGER NOT NULL,         -- every change; buttons carry it
    turn_version  INTEGER NOT NULL,         -- last change of the turn (stale-button check)
    game_no       INTEGER NOT NULL,
    host          TEXT NOT NULL,
    seats         TEXT NOT NULL,            -- JSON [{id, name, bot}]
    waiting       TEXT NOT NULL,            -- JSON [id]: seated for the next round
    preset        TEXT NOT NULL,
    overrides     TEXT NOT NULL,            -- JSON {flag: value}
    lang          TEXT,
    seed          INTEGER NOT NULL,
    game          TEXT,                     -- engine JSON (engine.game_to_json)
    meta          TEXT NOT NULL,            -- JSON: adapter data (message ids ...)
    strikes       TEXT NOT NULL,            -- JSON {player: turn timeouts in a row}
    played        TEXT NOT NULL,            -- JSON {player: cards played this game}
    created       REAL NOT NULL,
    updated       REAL NOT NULL
);
CREATE INDEX tables_status ON tables (status);

-- Append-only log of every applied action.
CREATE TABLE actions (
    id         INTEGER PRIMARY KEY,
    table_key  TEXT NOT NULL,
    game_no    INTEGER NOT NULL,
    version    INTEGER NOT NULL,            -- the table version this action produced
    player     TEXT NOT NULL,
    action     TEXT NOT NULL,               -- JSON
    at         REAL NOT NULL
);
CREATE INDEX actions_table ON actions (table_key, version);

-- Timers (turn, UNO catch windows, challenge, lobby expiry, bot moves, next round).
CREATE TABLE deadlines (
    table_key  TEXT NOT NULL,
    kind       TEXT NOT NULL,
    due        REAL NOT NULL,               -- unix time
    version    INTEGER NOT NULL,            -- table turn_version when armed
    PRIMARY KEY (table_key, kind)
);

CREATE TABLE chat_settings (
    scope      TEXT PRIMARY KEY,
    preset     TEXT,
    overrides  TEXT,                        -- JSON
    lang       TEXT
);

CREATE TABLE user_settings (
    user       TEXT PRIMARY KEY,
    lang       TEXT
);

-- Per scope ('*' is everywhere): games, wins, points, cards played.
CREATE TABLE stats (
    scope         TEXT NOT NULL,
    player        TEXT NOT NULL,
    name          TEXT NOT NULL,
    games         INTEGER NOT NULL DEFAULT 0,
    wins          INTEGER NOT NULL DEFAULT 0,
    rounds_won    INTEGER NOT NULL DEFAULT 0,
    points        INTEGER NOT NULL DEFAULT 0,
    cards_played  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (scope, player)
);
CREATE INDEX stats_rank ON stats (scope, wins DESC, points DESC);
