ALTER TABLE leases ADD COLUMN name text NOT NULL DEFAULT '',
	ADD COLUMN depth integer NOT NULL DEFAULT 0,
	ADD COLUMN turn bigint NOT NULL DEFAULT 0,
	ADD COLUMN last_input timestamptz,
	ADD COLUMN updated timestamptz NOT NULL DEFAULT now();
DROP TABLE cluster_secret, node_games, nodes;
