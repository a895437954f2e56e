-- Notes and tasks on a company, contact or deal, and the indexes the record pages' timeline reads
-- (docs/records.md). Times are integer milliseconds; a task's due date is 'YYYY-MM-DD' text.

CREATE TABLE notes (
    id TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL CHECK (entity_type IN ('company','contact','deal')),
    entity_id TEXT NOT NULL,
    body TEXT NOT NULL CHECK (length(trim(body)) > 0),
    author_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX notes_entity ON notes (entity_type, entity_id, created_at DESC, id DESC);

CREATE TABLE tasks (
    id TEXT PRIMARY KEY,
    entity_type TEXT NOT NULL CHECK (entity_type IN ('company','contact','deal')),
    entity_id TEXT NOT NULL,
    title TEXT NOT NULL CHECK (length(trim(title)) > 0),
    due_date TEXT,
    done BOOLEAN NOT NULL DEFAULT FALSE,
    done_at BIGINT,
    done_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    assignee_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX tasks_entity ON tasks (entity_type, entity_id, created_at DESC, id DESC);
-- A user's open tasks, soonest due first (the task list without a record).
CREATE INDEX tasks_open_assignee ON tasks (assignee_id, due_date) WHERE NOT done;

-- Triggers, not the api's delete paths: a record also goes by cascade or by code that knows
-- nothing of notes (a merge, an import), and a polymorphic id can have no foreign key.
CREATE FUNCTION record_notes_tasks_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM notes WHERE entity_type = TG_ARGV[0] AND entity_id = OLD.id;
    DELETE FROM tasks WHERE entity_type = TG_ARGV[0] AND entity_id = OLD.id;
    RETURN OLD;
END $$;
CREATE TRIGGER companies_notes_tasks_delete AFTER DELETE ON companies
    FOR EACH ROW EXECUTE FUNCTION record_notes_tasks_delete('company');
CREATE TRIGGER contacts_notes_tasks_delete AFTER DELETE ON contacts
    FOR EACH ROW EXECUTE FUNCTION record_notes_tasks_delete('contact');
CREATE TRIGGER deals_notes_tasks_delete AFTER DELETE ON deals
    FOR EACH ROW EXECUTE FUNCTION record_notes_tasks_delete('deal');

-- The timeline's reads per record: a company's meetings and activities in time order, and the jobs
-- whose payload names one contact or company (only the kinds that carry one id; see
-- jobs/src/db/records.rs).
CREATE INDEX meetings_company ON meetings (company_id);
CREATE INDEX activities_entity_created ON activities (entity_type, entity_id, created_at);
CREATE INDEX jobs_payload_contact ON jobs ((payload->>'contactId'))
    WHERE kind IN ('ai_score', 'contact_verify');
-- The palette's job search by kind, newest first.
CREATE INDEX jobs_kind_created ON jobs (kind, created_at);
CREATE INDEX jobs_payload_company ON jobs ((payload->>'companyId'))
    WHERE kind = 'ai_score';
-- The palette's deal search: a title substring under pg_trgm (SQLite scans the deals, a small table).
CREATE INDEX deals_title_trgm ON deals USING gin (lower(title) gin_trgm_ops);
