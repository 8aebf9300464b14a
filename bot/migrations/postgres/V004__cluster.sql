-- V004__cluster.sql (PostgreSQL)
-- Follows: V003__ratings_and_prefs
-- Date: 2026-11-26
-- Why: several bot processes over one database (issue 17). A timer row is claimed with a lease
--      (claimed_by, lease_until) before it is served, so that exactly one process serves it and a
--      process that dies loses its claims when their lease ends. cluster_processes holds one
--      heartbeat row per running process (its shards, when it started, when it was last seen).

ALTER TABLE timers ADD COLUMN claimed_by text;
ALTER TABLE timers ADD COLUMN lease_until timestamptz;

CREATE TABLE cluster_processes (
    process_id  text        PRIMARY KEY,
    host        text        NOT NULL,
    pid         integer     NOT NULL,
    shard_ids   text        NOT NULL,   -- "0-3", "0,2,4" or "all"
    shard_count integer,                -- NULL: Discord's recommended count (one process runs them all)
    started_at  timestamptz NOT NULL,
    last_seen   timestamptz NOT NULL
);
CREATE INDEX cluster_processes_seen ON cluster_processes (last_seen);
