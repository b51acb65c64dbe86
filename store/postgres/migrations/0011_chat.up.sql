-- grotto's schema, version 11: the spectator chat (issue 25). A new table
-- and a column with a default only: builds of schema 10 ignore them, so
-- oldest_reader stays (such a build lets muted keys talk while it runs
-- beside this one, and does not keep the chat setting).

-- mutes: the keys muted in the chat now, each with the act that muted it
-- (ssh host mute), as bans are kept.
CREATE TABLE mutes (
	fp  text PRIMARY KEY,
	act bigint NOT NULL REFERENCES moderation (id)
);

-- players.chat: the chat setting ("on", "off"; '' is the default, on).
ALTER TABLE players ADD COLUMN chat text NOT NULL DEFAULT '';
