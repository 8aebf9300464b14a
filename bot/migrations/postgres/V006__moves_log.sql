-- V006__moves_log.sql (PostgreSQL)
-- Follows: V005__game_changes
-- Date: 2026-11-28
-- Why: a move writes its action, not the whole game (issue 32). Until now every move rewrote the game's
--      snapshot (10-16 KB with its history) in the games row: about 12 KB of WAL per move and 2 MB of dead rows
--      per finished game. Now the actions table is the game's history and the position is saved apart, in
--      game_snapshots, every few moves (and when a game ends, and when a load had to replay many): a game is its
--      last saved position played on through the actions after it (`seq`: how many actions the position has
--      applied). Positions are stored without their history (the actions table holds it); the games row, updated
--      by every move, is small and has room on its page for the new row version (HOT: no index is touched).
--      Existing games: their snapshot, without its history, becomes their saved position at their action count.

CREATE TABLE game_snapshots (
    game_id  text    PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    seq      integer NOT NULL CHECK (seq >= 0),
    snapshot json    NOT NULL
);

INSERT INTO game_snapshots (game_id, seq, snapshot)
SELECT id, action_count, (snapshot::jsonb - 'history')::json FROM games WHERE snapshot IS NOT NULL;

ALTER TABLE games DROP COLUMN snapshot;
ALTER TABLE games SET (fillfactor = 70);
