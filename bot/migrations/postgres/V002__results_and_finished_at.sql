-- V002__results_and_finished_at.sql (PostgreSQL)
-- Follows: V001__initial
-- Date: 2026-11-26
-- Why: player statistics. Adds games.finished_at (backfilled from updated_at for games that had
--      already finished or been abandoned) and the game_results table, one row per seat of a
--      finished game. game_results has no foreign key on purpose: deleting an old game to save
--      space must not rewrite the guild's statistics.

ALTER TABLE games ADD COLUMN finished_at timestamptz;

UPDATE games
   SET finished_at = updated_at
 WHERE status IN ('finished', 'abandoned');

CREATE INDEX games_finished_at ON games (finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE game_results (
    game_id     text        NOT NULL,
    seat        integer     NOT NULL CHECK (seat >= 0),
    guild_id    bigint,
    user_id     bigint,
    board       text        NOT NULL,
    score       integer     NOT NULL,
    rank        integer     NOT NULL CHECK (rank >= 1),
    won         boolean     NOT NULL,
    finished_at timestamptz NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX game_results_guild_user ON game_results (guild_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX game_results_user ON game_results (user_id) WHERE user_id IS NOT NULL;
