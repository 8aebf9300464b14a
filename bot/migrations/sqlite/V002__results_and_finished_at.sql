-- V002__results_and_finished_at.sql (SQLite)
-- Follows: V001__initial
-- Date: 2026-11-26
-- Why: player statistics. Adds games.finished_at (backfilled from updated_at for games that had
--      already finished or been abandoned) and the game_results table, one row per seat of a
--      finished game. game_results has no foreign key on purpose: deleting an old game to save
--      space must not rewrite the guild's statistics.

ALTER TABLE games ADD COLUMN finished_at TEXT;

UPDATE games
   SET finished_at = updated_at
 WHERE status IN ('finished', 'abandoned');

CREATE INDEX games_finished_at ON games (finished_at) WHERE finished_at IS NOT NULL;

CREATE TABLE game_results (
    game_id     TEXT    NOT NULL,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    guild_id    INTEGER,
    user_id     INTEGER,
    board       TEXT    NOT NULL,
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL CHECK (rank >= 1),
    won         INTEGER NOT NULL CHECK (won IN (0, 1)),
    finished_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_results_guild_user ON game_results (guild_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX game_results_user ON game_results (user_id) WHERE user_id IS NOT NULL;
