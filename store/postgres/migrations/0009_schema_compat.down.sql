DROP TABLE schema_compat;
