-- Kinds ops paused: workers fetch none of their jobs until they are resumed.
CREATE TABLE paused_kinds (
    kind TEXT PRIMARY KEY,
    paused_by TEXT,
    paused_at INTEGER NOT NULL
);
