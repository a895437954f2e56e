-- Saved views (issue 23): a user's named table settings per screen (filters, columns, sort), kept
-- as a JSON object the web app reads back. One name per user and screen, whatever its case.
CREATE TABLE saved_views (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    screen TEXT NOT NULL,
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    state JSONB NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX saved_views_name ON saved_views (user_id, screen, lower(name));
