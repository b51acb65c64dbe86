-- grotto's schema, version 6: the daily challenge. Each day's
-- board apart from the main one, and each key's one attempt a day.

-- scores.daily, finished.daily: the UTC date ('2006-01-02') of the daily
-- the game was; NULL for a game of its own (the main board).
ALTER TABLE scores ADD COLUMN daily text;
ALTER TABLE finished ADD COLUMN daily text;
CREATE INDEX scores_daily ON scores (daily, points DESC, date_ns, id) WHERE daily IS NOT NULL;

-- daily_attempts: one row per key and day, inserted when the daily starts;
-- the primary key makes the second attempt (on any node) find the first.
CREATE TABLE daily_attempts (
	day        text NOT NULL,
	fp         text NOT NULL,
	started_ns bigint NOT NULL, -- Unix nanoseconds
	PRIMARY KEY (day, fp)
);
