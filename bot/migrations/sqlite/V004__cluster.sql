-- V004__cluster.sql (SQLite)
-- Follows: V003__ratings_and_prefs
-- Date: 2026-11-26
-- Why: several bot processes over one database (issue 17; on SQLite only one process may run, but
--      both dialects keep one schema). A timer row is claimed with a lease (claimed_by, lease_until)
--      before it is served; cluster_processes holds one heartbeat row per running process, which is
--      also how a second process on the same SQLite file is seen and refused at start.

ALTER TABLE timers ADD COLUMN claimed_by TEXT;
ALTER TABLE timers ADD COLUMN lease_until TEXT;

CREATE TABLE cluster_processes (
    process_id  TEXT    PRIMARY KEY,
    host        TEXT    NOT NULL,
    pid         INTEGER NOT NULL,
    shard_ids   TEXT    NOT NULL,
    shard_count INTEGER,
    started_at  TEXT    NOT NULL,
    last_seen   TEXT    NOT NULL
);
CREATE INDEX cluster_processes_seen ON cluster_processes (last_seen);
