-- Notes and tasks on a company, contact or deal, and the indexes the record pages' timeline reads
-- (docs/records.md). Times are integer milliseconds; a task's due date is 'YYYY-MM-DD' text.

CREATE TABLE notes (
    id TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL CHECK (entity_type IN ('company','contact','deal')),
    entity_id TEXT NOT NULL,
    body TEXT NOT NULL CHECK (length(trim(body)) > 0),
    author_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX notes_entity ON notes (entity_type, entity_id, created_at DESC, id DESC);

CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL CHECK (entity_type IN ('company','contact','deal')),
    entity_id TEXT NOT NULL,
    title TEXT NOT NULL CHECK (length(trim(title)) > 0),
    due_date TEXT,
    done BOOLEAN NOT NULL DEFAULT FALSE,
    done_at INTEGER,
    done_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    assignee_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX tasks_entity ON tasks (entity_type, entity_id, created_at DESC, id DESC);
-- A user's open tasks, soonest due first (the task list without a record).
CREATE INDEX tasks_open_assignee ON tasks (assignee_id, due_date) WHERE NOT done;

-- Triggers, not the api's delete paths: a record also goes by cascade or by code that knows
-- nothing of notes (a merge, an import), and a polymorphic id can have no foreign key.
CREATE TRIGGER companies_notes_tasks_delete AFTER DELETE ON companies BEGIN
    DELETE FROM notes WHERE entity_type = 'company' AND entity_id = OLD.id;
    DELETE FROM tasks WHERE entity_type = 'company' AND entity_id = OLD.id;
END;
CREATE TRIGGER contacts_notes_tasks_delete AFTER DELETE ON contacts BEGIN
    DELETE FROM notes WHERE entity_type = 'contact' AND entity_id = OLD.id;
    DELETE FROM tasks WHERE entity_type = 'contact' AND entity_id = OLD.id;
END;
CREATE TRIGGER deals_notes_tasks_delete AFTER DELETE ON deals BEGIN
    DELETE FROM notes WHERE entity_type = 'deal' AND entity_id = OLD.id;
    DELETE FROM tasks WHERE entity_type = 'deal' AND entity_id = OLD.id;
END;

-- The timeline's reads per record: a company's meetings and activities in time order, and the jobs
-- whose payload names one contact or company (see jobs/src/db/records.rs). Differs: SQLite's planner
-- does not look a joined value up in an index on an expression, so the payload's ids are virtual
-- columns (computed on read, nothing stored in the rows) under plain indexes; Postgres indexes the
-- expressions.
CREATE INDEX meetings_company ON meetings (company_id);
CREATE INDEX activities_entity_created ON activities (entity_type, entity_id, created_at);
ALTER TABLE jobs ADD COLUMN contact_ref TEXT
    GENERATED ALWAYS AS (json_extract(payload, '$.contactId')) VIRTUAL;
ALTER TABLE jobs ADD COLUMN company_ref TEXT
    GENERATED ALWAYS AS (json_extract(payload, '$.companyId')) VIRTUAL;
CREATE INDEX jobs_payload_contact ON jobs (contact_ref) WHERE contact_ref IS NOT NULL;
CREATE INDEX jobs_payload_company ON jobs (company_ref) WHERE company_ref IS NOT NULL;
-- The palette's job search by kind, newest first.
CREATE INDEX jobs_kind_created ON jobs (kind, created_at);
-- Postgres indexes the deals' titles for the palette's search (pg_trgm); SQLite scans the deals,
-- a small table beside the contacts.
