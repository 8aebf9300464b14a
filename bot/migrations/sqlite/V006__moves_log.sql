-- V006__moves_log.sql (SQLite)
-- Follows: V005__game_changes
-- Date: 2026-11-28
-- Why: a move writes its action, not the whole game (issue 32). Until now every move rewrote the game's
--      snapshot (10-16 KB with its history) in the games row. Now the actions table is the game's history and
--      the position is saved apart, in game_snapshots, every few moves (and when a game ends, and when a load
--      had to replay many): a game is its last saved position played on through the actions after it (`seq`:
--      how many actions the position has applied). Positions are stored without their history (the actions
--      table holds it). Existing games: their snapshot, without its history, becomes their saved position at
--      their action count.

CREATE TABLE game_snapshots (
    game_id  TEXT    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 0),
    snapshot TEXT    NOT NULL
);

INSERT INTO game_snapshots (game_id, seq, snapshot)
SELECT id, action_count, json_remove(snapshot, '$.history') FROM games WHERE snapshot IS NOT NULL;

ALTER TABLE games DROP COLUMN snapshot;
