-- Postgres only (see its twin): companies' words in the list's order, so a search reads the index
-- entries of its rarest word. SQLite searches companies through its FTS5 trigram table (migrations
-- 0005 and 0042's order). The file keeps both backends' migration numbers equal.
SELECT 1;
