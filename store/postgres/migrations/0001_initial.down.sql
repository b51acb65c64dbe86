DROP TABLE quarantine, scores, journal, saves, names, players;
