ALTER TABLE node_games DROP COLUMN activity, DROP COLUMN watched;
