-- grotto's schema, version 2: leases. Each key (a player's fingerprint) is
-- run by one node at a time; epoch grows by one each time the key changes
-- hands and fences the game's writes (store/postgres/leases.go). A row is
-- never deleted (a release only ends its time), so an epoch is never given
-- twice. Times are the database's clock (now()), never a node's.
CREATE TABLE leases (
	fp         text PRIMARY KEY,
	node       text NOT NULL,                  -- the holder, as the node names itself
	epoch      bigint NOT NULL CHECK (epoch > 0),
	expires    timestamptz NOT NULL,           -- live while now() < expires
	-- For a global `who`, written by the holder: the player's name, the
	-- game's depth and turn, when the player last typed, and when these
	-- were last written.
	name       text NOT NULL DEFAULT '',
	depth      integer NOT NULL DEFAULT 0,
	turn       bigint NOT NULL DEFAULT 0,
	last_input timestamptz,
	updated    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX leases_node ON leases (node);
