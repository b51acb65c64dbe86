-- grotto's schema, version 9: which builds may run on this schema. A later
-- migration that only adds what older builds ignore (a table, a column with
-- a default) leaves oldest_reader as it is, so the build before it can still
-- run here: a rollback, or both builds side by side during a rolling deploy.
-- One that changes what older builds read or write raises it to its own
-- version. Builds before version 9 know nothing of this table.
CREATE TABLE schema_compat (oldest_reader integer NOT NULL);
INSERT INTO schema_compat (oldest_reader) VALUES (9);
