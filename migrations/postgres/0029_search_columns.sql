-- Issue 22: the searched text of contacts and companies as stored columns. A search's page walks
-- the list's order and checks each row against the term, and its capped count rechecks each
-- candidate of the trigram index; both computed lower(a || ' ' || b …) per row. Stored, the check
-- is one LIKE on a column: the page and the count of a common term take half the time
-- (EXPLAIN ANALYZE at 100,000 contacts: 5.4 → 2.5 ms and 7.1 → 3.4 ms). The trigram indexes move
-- to the columns; the expressions are those of migration 0005.

ALTER TABLE contacts ADD COLUMN search_text TEXT GENERATED ALWAYS AS
    (lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(title, ''))) STORED;
DROP INDEX contacts_search;
CREATE INDEX contacts_search ON contacts USING gin (search_text gin_trgm_ops);

ALTER TABLE companies ADD COLUMN search_text TEXT GENERATED ALWAYS AS
    (lower(name || ' ' || coalesce(industry, '') || ' ' || coalesce(city, '') || ' ' || coalesce(state, ''))) STORED;
DROP INDEX companies_search;
CREATE INDEX companies_search ON companies USING gin (search_text gin_trgm_ops);
