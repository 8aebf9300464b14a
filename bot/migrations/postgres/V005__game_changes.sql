-- V005__game_changes.sql (PostgreSQL)
-- Follows: V004__cluster
-- Date: 2026-11-27
-- Why: the live map (issue 21). Every process with open map pages must learn of a change of a game made by
--      any process: each new version of a game row is announced on the channel ttr_game_changed, with only
--      "<schema> <game id> <version>" as payload (no game data); a listening process reads the game again.
--      NOTIFY is sent at commit, so a listener never reads a version before it is stored.

CREATE OR REPLACE FUNCTION ttr_game_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('ttr_game_changed', TG_TABLE_SCHEMA || ' ' || NEW.id || ' ' || NEW.version);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- (in a DO block: the migration checker reads statements with SQLite's tokenizer, which wants END after a
-- CREATE TRIGGER)
DO $$
BEGIN
    CREATE TRIGGER games_changed AFTER INSERT OR UPDATE OF version ON games
        FOR EACH ROW EXECUTE FUNCTION ttr_game_changed();
END
$$;
