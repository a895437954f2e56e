-- The dense tables (docs/records.md, "Dense tables"): the contacts list sorted by name or by
-- score. An unfiltered page reads one of these in order, either direction (a backward scan for
-- descending), with the id breaking ties in the same direction. The expressions are the list's
-- ORDER BY terms exactly. (The Postgres twin also mends a trigger that SQLite's row triggers do
-- not need.)
CREATE INDEX contacts_name_order ON contacts (lower(last_name), lower(first_name), id);
CREATE INDEX contacts_score_order ON contacts (score, id);
