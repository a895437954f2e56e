-- Contact CSV uploads, kept until their contact_import job has run: the api and the worker may be on
-- different machines, so the file travels through the database.
CREATE TABLE contact_imports (
    id TEXT PRIMARY KEY,
    body BLOB NOT NULL,
    created_by TEXT,
    created_at INTEGER NOT NULL
);
