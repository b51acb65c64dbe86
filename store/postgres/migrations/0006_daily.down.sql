DROP TABLE daily_attempts;
DROP INDEX scores_daily;
ALTER TABLE finished DROP COLUMN daily;
ALTER TABLE scores DROP COLUMN daily;
