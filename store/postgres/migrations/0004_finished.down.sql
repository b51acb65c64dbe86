ALTER TABLE quarantine DROP COLUMN finished_id, DROP COLUMN finished;
ALTER TABLE scores DROP COLUMN game_id;
DROP TABLE finished;
