-- Substring search ("q") without a scan of every row: trigram GIN indexes over the searched text.
-- pg_trgm is a trusted extension (PG 13+): a database owner may create it.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX contacts_search ON contacts USING gin (
    (lower(first_name || ' ' || last_name || ' ' || coalesce(email, '') || ' ' || coalesce(title, ''))) gin_trgm_ops
);
CREATE INDEX companies_search ON companies USING gin (
    (lower(name || ' ' || coalesce(industry, '') || ' ' || coalesce(city, '') || ' ' || coalesce(state, ''))) gin_trgm_ops
);
