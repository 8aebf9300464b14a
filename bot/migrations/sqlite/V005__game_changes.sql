-- V005__game_changes.sql (SQLite)
-- Follows: V004__cluster
-- Date: 2026-11-27
-- Why: the live map (issue 21) announces changes of games across processes with a PostgreSQL trigger; an
--      SQLite file has one process, which learns of its own changes in memory. Kept so that both dialects
--      share one schema version.

CREATE TABLE IF NOT EXISTS schema_notes (note text PRIMARY KEY);
DROP TABLE schema_notes;
