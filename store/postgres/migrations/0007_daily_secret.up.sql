-- grotto's schema, version 7: the host's secret for the daily
-- seeds (game.DailySeed), made once by the first node that asks
-- (Store.DailySecret: INSERT ... ON CONFLICT DO NOTHING, then SELECT).

-- daily_secret: at most one row (one = true), the secret's random bytes.
CREATE TABLE daily_secret (
	one    boolean PRIMARY KEY DEFAULT true CHECK (one),
	secret bytea NOT NULL
);
