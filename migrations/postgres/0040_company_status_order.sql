-- The companies list filtered by status alone (issue 22): with only (status) indexed, every company
-- of the status was read and sorted for each page (Postgres: 2,867 rows from 704 pages, 6 ms). In
-- the list's own order the page is read as far as it reaches; the new index serves every lookup by
-- status the old one did.
DROP INDEX companies_status;
CREATE INDEX companies_status_order ON companies (status, score DESC, lower(name), id);
