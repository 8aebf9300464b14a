-- V001__initial.sql (PostgreSQL)
-- Follows: nothing, first revision.
-- Date: 2026-11-26
-- Why: games with their seats and engine snapshot, a seat -> player index for "my games",
--      the full action log keyed (game_id, seq), and durable timers as rows.
-- Conventions: discord ids are BIGINT; small JSON is jsonb; the engine snapshot is json (validated,
--      kept verbatim, never re-encoded: it is written on every action); times are timestamptz.
-- Tables are created in the connection's search_path (the repository sets it when a schema is given).

CREATE TABLE games (
    id           text        PRIMARY KEY,
    guild_id     bigint,             -- NULL: a game in a DM
    channel_id   bigint      NOT NULL,
    thread_id    bigint,
    host_id      bigint      NOT NULL,
    board        text        NOT NULL,
    variant      text        NOT NULL DEFAULT 'standard',
    options      jsonb       NOT NULL DEFAULT '{}',
    status       text        NOT NULL DEFAULT 'lobby'
                 CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    settings     jsonb       NOT NULL DEFAULT '{}',
    seats        jsonb       NOT NULL DEFAULT '[]',
    snapshot     json,
    version      integer     NOT NULL DEFAULT 0 CHECK (version >= 0),
    action_count integer     NOT NULL DEFAULT 0 CHECK (action_count >= 0),
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);

CREATE INDEX games_status_created ON games (status, created_at, id);
CREATE INDEX games_guild_status_created ON games (guild_id, status, created_at, id);
CREATE INDEX games_status_id ON games (status, id);
CREATE INDEX games_open_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open_thread ON games (thread_id)
    WHERE status IN ('lobby', 'active') AND thread_id IS NOT NULL;

CREATE TABLE game_players (
    game_id text    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat    integer NOT NULL CHECK (seat >= 0),
    user_id bigint  NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_players_user ON game_players (user_id, game_id);

CREATE TABLE actions (
    game_id    text        NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq        integer     NOT NULL CHECK (seq >= 1),
    seat       integer,
    action     jsonb       NOT NULL,
    version    integer     NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE timers (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id    text        NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       text        NOT NULL,
    due_at     timestamptz NOT NULL,
    payload    jsonb       NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL
);
CREATE INDEX timers_due ON timers (due_at, id);
CREATE INDEX timers_game_kind ON timers (game_id, kind);
