-- The companies list's deep pages read from their indexes alone (issue 22). A page past the first
-- reads its ids (then their rows) in the list's order, skipping the offset's entries; Postgres
-- reads an index alone only where it holds every column the query names, and `lower(name)` names
-- `name`, so each skipped entry cost a visit to its row (4,948 rows for page 104 of 20,000
-- companies, 7.8 ms). With the name in each order index the skip stays in the index: 1.1 ms.
DROP INDEX companies_order;
CREATE INDEX companies_order ON companies (score DESC, lower(name), id) INCLUDE (name);
DROP INDEX companies_state_order;
CREATE INDEX companies_state_order ON companies (state, score DESC, lower(name), id) INCLUDE (name);
DROP INDEX companies_status_order;
CREATE INDEX companies_status_order ON companies (status, score DESC, lower(name), id) INCLUDE (name);
DROP INDEX companies_status_state_order;
CREATE INDEX companies_status_state_order ON companies (status, state, score DESC, lower(name), id)
    INCLUDE (name);
