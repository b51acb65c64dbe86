DROP TABLE removed_scores;
DROP TABLE bans;
DROP TABLE moderation;
