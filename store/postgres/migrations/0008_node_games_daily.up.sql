-- grotto's schema, version 8: a live game's daily challenge date
-- (YYYY-MM-DD, '' for a normal game) in node_games, so `who` on any node
-- marks the dailies played on the others.
ALTER TABLE node_games ADD COLUMN daily text NOT NULL DEFAULT '';
