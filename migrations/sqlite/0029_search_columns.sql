-- Postgres only (see its twin): SQLite searches its FTS5 trigram tables (migration 0005), which
-- already hold the searched text. The file keeps both backends' migration numbers equal.
SELECT 1;
