DROP TABLE daily_secret;
