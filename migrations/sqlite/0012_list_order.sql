-- Indexes in the exact order of the list routes' ORDER BY (ties broken by id), so a page of the
-- contacts or companies list reads its rows from the index instead of sorting every match.
CREATE INDEX contacts_created_id ON contacts (created_at DESC, id DESC);
DROP INDEX contacts_created;
CREATE INDEX companies_order ON companies (score DESC, lower(name), id);
CREATE INDEX companies_state_order ON companies (state, score DESC, lower(name), id);
DROP INDEX companies_score;
DROP INDEX companies_state;
