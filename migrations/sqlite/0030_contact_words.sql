-- Postgres only (see its twin): it keeps per-word contact counts so a search's capped count of a
-- common term is one read at any table size. SQLite counts a search's matches in its FTS5 trigram
-- table (migration 0005), and the 1,000,000-contact target is Postgres'. The file keeps both
-- backends' migration numbers equal.
SELECT 1;
