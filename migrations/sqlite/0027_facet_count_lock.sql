-- Postgres only (see its twin): SQLite's writers already take turns on the database's one write
-- lock, so its facet counts cannot deadlock. The file keeps both backends' migration numbers equal.
SELECT 1;
