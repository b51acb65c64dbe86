ALTER TABLE node_games DROP COLUMN daily;
