-- V001__initial.sql (SQLite)
-- Follows: nothing, first revision.
-- Date: 2026-11-26
-- Why: games with their seats and engine snapshot, a seat -> player index for "my games",
--      the full action log keyed (game_id, seq), and durable timers as rows.
-- Conventions: ids from discord are INTEGER (64-bit); JSON is TEXT; times are UTC ISO-8601 TEXT
--      written by the application in one fixed format (so they sort as text).

CREATE TABLE games (
    id           TEXT    PRIMARY KEY,
    guild_id     INTEGER,            -- NULL: a game in a DM
    channel_id   INTEGER NOT NULL,
    thread_id    INTEGER,
    host_id      INTEGER NOT NULL,
    board        TEXT    NOT NULL,
    variant      TEXT    NOT NULL DEFAULT 'standard',
    options      TEXT    NOT NULL DEFAULT '{}',
    status       TEXT    NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    settings     TEXT    NOT NULL DEFAULT '{}',
    seats        TEXT    NOT NULL DEFAULT '[]',
    snapshot     TEXT,
    version      INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    action_count INTEGER NOT NULL DEFAULT 0 CHECK (action_count >= 0),
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL
);

-- listings: newest first per status, per guild; lazy id scans per status
CREATE INDEX games_status_created ON games (status, created_at, id);
CREATE INDEX games_guild_status_created ON games (guild_id, status, created_at, id);
CREATE INDEX games_status_id ON games (status, id);
-- "which game lives here?" only ever asks about open games
CREATE INDEX games_open_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open_thread ON games (thread_id)
    WHERE status IN ('lobby', 'active') AND thread_id IS NOT NULL;

-- derived from games.seats by the repository, in the same transaction
CREATE TABLE game_players (
    game_id TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    INTEGER NOT NULL CHECK (seat >= 0),
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_players_user ON game_players (user_id, game_id);

CREATE TABLE actions (
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    seat       INTEGER,
    action     TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

CREATE TABLE timers (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id    TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,
    due_at     TEXT    NOT NULL,
    payload    TEXT    NOT NULL DEFAULT '{}',
    created_at TEXT    NOT NULL
);
CREATE INDEX timers_due ON timers (due_at, id);
CREATE INDEX timers_game_kind ON timers (game_id, kind);
