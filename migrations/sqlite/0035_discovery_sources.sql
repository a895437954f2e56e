-- Issue 25: where each discovered company came from. One row per (company, source): the
-- provider's own id for the place (OSM element, Google place id), whether the provider's answer
-- could be checked (the LLM's cannot always), the licence text it must be shown with (ODbL for
-- OpenStreetMap), and when the source first and last returned it. A re-scan moves last_seen_at.
CREATE TABLE company_sources (
    company_id TEXT NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    source TEXT NOT NULL CHECK (source IN ('osm','google_places','catalog','llm')),
    opening_hours TEXT,
    external_id TEXT,
    verified BOOLEAN NOT NULL DEFAULT TRUE,
    attribution TEXT,
    first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    PRIMARY KEY (company_id, source)
);
CREATE INDEX company_sources_source ON company_sources(source, last_seen_at);
