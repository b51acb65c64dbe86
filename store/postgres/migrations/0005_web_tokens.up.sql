-- grotto's schema, version 5: web tokens (store.WebTokens; webtokens.go).
-- The hashes of the one-time links `ssh host web` prints and of the
-- browsers' session cookies, each tied to a player's key until it expires.
-- Live state: copy-store does not copy it.
CREATE TABLE web_tokens (
	hash    bytea PRIMARY KEY CHECK (length(hash) BETWEEN 1 AND 64), -- SHA-256 of the token
	kind    smallint NOT NULL,         -- 1 one-time link, 2 session cookie
	fp      text NOT NULL,             -- the player's key
	expires timestamptz NOT NULL,      -- good while now < expires
	used    boolean NOT NULL DEFAULT false -- a link redeemed already
);
CREATE INDEX web_tokens_expires ON web_tokens (expires);
