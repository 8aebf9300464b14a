-- V003__ratings_and_prefs.sql (PostgreSQL)
-- Follows: V002__results_and_finished_at
-- Date: 2026-11-26
-- Why: per-server skill ratings and per-player preferences (issue 16).
--      ratings: one openskill rating (mu, sigma) per server, board and player; board '' is the rating over
--      every board. ordinal (mu - 3 sigma, the conservative estimate shown to players) is stored to rank by.
--      rated_games: the games already rated, so a game is rated once even when its results are written again.
--      player_prefs: a player's choices in one server (guild_id 0: outside any server): how they are told
--      it is their turn (mention, dm, none) and whether a claim asks for confirmation.

CREATE TABLE ratings (
    guild_id   bigint           NOT NULL,
    board      text             NOT NULL,
    user_id    bigint           NOT NULL,
    mu         double precision NOT NULL,
    sigma      double precision NOT NULL CHECK (sigma > 0),
    ordinal    double precision NOT NULL,
    games      integer          NOT NULL CHECK (games >= 1),
    updated_at timestamptz      NOT NULL,
    PRIMARY KEY (guild_id, board, user_id)
);
CREATE INDEX ratings_rank ON ratings (guild_id, board, ordinal DESC);

CREATE TABLE rated_games (
    game_id  text        NOT NULL PRIMARY KEY,
    guild_id bigint      NOT NULL,
    rated_at timestamptz NOT NULL
);

CREATE TABLE player_prefs (
    user_id        bigint      NOT NULL,
    guild_id       bigint      NOT NULL,
    notify         text        NOT NULL CHECK (notify IN ('mention', 'dm', 'none')),
    confirm_claims boolean     NOT NULL,
    updated_at     timestamptz NOT NULL,
    PRIMARY KEY (user_id, guild_id)
);
