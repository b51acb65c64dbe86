-- grotto's schema, version 12: what each live session does, in node_games,
-- so that `who` and the title on any node say "watching bob" or "game
-- over" for a session on another node, not only its depth and turn.
-- activity is "title", "playing", "over", "won" or "watching"; '' for a
-- row written by a build of schema 11, which the reader then judges by
-- its depth. watched is the name of the player watched ('' otherwise).
-- Columns with defaults only: builds of schema 11 ignore them, so
-- oldest_reader stays.
ALTER TABLE node_games
	ADD COLUMN activity text NOT NULL DEFAULT '',
	ADD COLUMN watched text NOT NULL DEFAULT '';
