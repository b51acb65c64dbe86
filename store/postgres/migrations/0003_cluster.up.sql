-- grotto's schema, version 3: the cluster (store.Cluster; cluster.go).
-- Nodes announce themselves, their channel address and their live games
-- for a time to live by the database's clock; nothing here is copied by
-- copy-store: it is live state that the nodes rewrite within seconds.

-- nodes: each live node, and where its channel (server/cluster) listens.
CREATE TABLE nodes (
	node    text PRIMARY KEY,
	addr    text NOT NULL DEFAULT '', -- host:port, '' when it has no channel
	expires timestamptz NOT NULL      -- live while now() < expires
);

-- node_games: each node's live games, as its last announcement listed
-- them (a global `who`). A key may briefly be on two nodes (a take-over).
CREATE TABLE node_games (
	node       text NOT NULL REFERENCES nodes (node) ON DELETE CASCADE,
	fp         text NOT NULL,
	name       text NOT NULL,
	depth      integer NOT NULL,
	turn       bigint NOT NULL,
	watchers   integer NOT NULL,
	last_input timestamptz NOT NULL,
	PRIMARY KEY (node, fp)
);

-- cluster_secret: one row, the secret the nodes' channel derives its
-- certificate authority from. Made by the first node that asks (INSERT …
-- ON CONFLICT DO NOTHING, then SELECT), never changed.
CREATE TABLE cluster_secret (
	one    boolean PRIMARY KEY DEFAULT true CHECK (one),
	secret bytea NOT NULL CHECK (length(secret) = 32)
);

-- The leases' display columns were never read: `who` across nodes lives
-- in node_games.
ALTER TABLE leases DROP COLUMN name, DROP COLUMN depth, DROP COLUMN turn,
	DROP COLUMN last_input, DROP COLUMN updated;
