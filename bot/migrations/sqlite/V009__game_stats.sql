-- V009__game_stats.sql (SQLite)
-- Follows: V008__server_language
-- Date: 2026-11-28
-- Why: statistics worth reading (issue 33, item 5), stored once when a game ends rather than replayed at each
--      request. seat_stats: one row per seat of a finished game, from the engine's final score sheet (tickets
--      completed and failed with their points, longest route, route and bonus points) and the game (trains
--      left, how many turns the seat took and how long they took, the seat's rating over every board of the
--      server after the game; detail: routes by length, bonuses by name and the tickets, as JSON).
--      claimed_routes: each seat's routes (city pair and length). route_counts: how many times each route was
--      claimed, per server and player (kept with claimed_routes in the same transaction), so favourite and
--      most-claimed routes are read from a few rows instead of counted over every game.
--      Like game_results, no foreign key: deleting an old game must not rewrite a server's statistics.

CREATE TABLE seat_stats (
    game_id              TEXT    NOT NULL,
    seat                 INTEGER NOT NULL CHECK (seat >= 0),
    guild_id             INTEGER,
    user_id              INTEGER,
    name                 TEXT    NOT NULL,
    board                TEXT    NOT NULL,
    players              INTEGER NOT NULL CHECK (players >= 1),
    score                INTEGER NOT NULL,
    rank                 INTEGER NOT NULL CHECK (rank >= 1),
    won                  INTEGER NOT NULL CHECK (won IN (0, 1)),
    tickets_done         INTEGER NOT NULL,
    tickets_done_points  INTEGER NOT NULL,
    tickets_failed       INTEGER NOT NULL,
    tickets_failed_points INTEGER NOT NULL,
    longest_route        INTEGER NOT NULL,
    route_points         INTEGER NOT NULL,
    bonus_points         INTEGER NOT NULL,
    trains_left          INTEGER NOT NULL,
    turns                INTEGER NOT NULL,
    turn_seconds         REAL    NOT NULL,
    rating               REAL,
    detail               TEXT    NOT NULL,
    finished_at          TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX seat_stats_user ON seat_stats (user_id, guild_id, finished_at) WHERE user_id IS NOT NULL;
CREATE INDEX seat_stats_guild ON seat_stats (guild_id, seat, finished_at, game_id);

CREATE TABLE claimed_routes (
    game_id  TEXT    NOT NULL,
    seat     INTEGER NOT NULL,
    guild_id INTEGER,
    user_id  INTEGER,
    board    TEXT    NOT NULL,
    city_a   TEXT    NOT NULL,
    city_b   TEXT    NOT NULL,
    length   INTEGER NOT NULL,
    n        INTEGER NOT NULL CHECK (n >= 1),
    PRIMARY KEY (game_id, seat, city_a, city_b)
) WITHOUT ROWID;
CREATE TABLE route_counts (
    guild_id INTEGER NOT NULL,  -- the server; 0: games outside any server; -1: every server (a player's own total)
    user_id  INTEGER NOT NULL,  -- the player; 0: every seat of the server, AI seats included
    board    TEXT    NOT NULL,
    city_a   TEXT    NOT NULL,
    city_b   TEXT    NOT NULL,
    times    INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id, board, city_a, city_b)
) WITHOUT ROWID;
CREATE INDEX route_counts_top ON route_counts (guild_id, user_id, times DESC);
