-- V008__server_language.sql (SQLite)
-- Follows: V007__player_time
-- Date: 2026-11-28
-- Why: a server's own choice of the language of its public messages (issue 31, item 5): set by its admins
--      with /ttr language, over Discord's preferred locale and the host's SERVER_LOCALES. One row per server
--      that chose; no row: the host's SERVER_LOCALES, else Discord's preferred locale.

CREATE TABLE server_settings (
    guild_id   INTEGER NOT NULL PRIMARY KEY,
    language   TEXT    NOT NULL,
    updated_at TEXT    NOT NULL
) WITHOUT ROWID;
