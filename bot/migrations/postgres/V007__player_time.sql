-- V007__player_time.sql (PostgreSQL)
-- Follows: V006__moves_log
-- Date: 2026-11-28
-- Why: a player's life across days (issue 33, items 1-3). player_time: one row per player, in every server
--      (a time zone is a person's, not a server's): their IANA time zone, their quiet hours (minutes after
--      their local midnight, start included, end excluded; NULL: none), how many minutes a turn waits before
--      they are pinged, whether they want a heads-up when the player before them starts, and the moment
--      their away mode ends (NULL: not away). pings_sent: each ping, heads-up or away notice sent, keyed by
--      game, wait (phase:turn:current seat) and seat: inserted in the transaction that claims it, so a
--      notification is sent at most once for one turn, whichever process serves its timer row.
--      (Numbered V008 in the lead's plan: V006 and V007 are other branches'; renumber at merge.)

CREATE TABLE player_time (
    user_id        bigint      NOT NULL PRIMARY KEY,
    time_zone      TEXT    NOT NULL,
    quiet_start    INTEGER CHECK (quiet_start BETWEEN 0 AND 1439),
    quiet_end      INTEGER CHECK (quiet_end BETWEEN 0 AND 1439),
    ping_delay     INTEGER NOT NULL CHECK (ping_delay BETWEEN 0 AND 10080),
    heads_up       boolean NOT NULL,
    away_until     timestamptz,
    updated_at     timestamptz NOT NULL
);

CREATE TABLE pings_sent (
    game_id  TEXT    NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    wait_key TEXT    NOT NULL,
    seat     INTEGER NOT NULL,
    what     TEXT    NOT NULL,
    sent_at  timestamptz NOT NULL,
    PRIMARY KEY (game_id, wait_key, seat, what)
);
