-- V010__daily_digest.sql (SQLite)
-- Follows: V009__game_stats
-- Date: 2026-11-28
-- Why: the daily digest by direct message (issue 33, item 4): a player who turned it on gets, once a day at the
--      hour they chose (minutes after their local midnight, in their player_time zone, never in their quiet
--      hours), the list /ttr games shows. One row per player who wants it (none: off). It is not a timer row
--      (those belong to a game): due_at is the moment the next digest is owed, and the process that moves it
--      on (a compare-and-set of due_at) is the one that sends it: once a day, whichever process looks.

CREATE TABLE digests (
    user_id    INTEGER NOT NULL PRIMARY KEY,
    at_minute  INTEGER NOT NULL CHECK (at_minute BETWEEN 0 AND 1439),
    due_at     TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
) WITHOUT ROWID;

CREATE INDEX digests_due ON digests (due_at);
