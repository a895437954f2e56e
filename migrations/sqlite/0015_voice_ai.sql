-- Voice agents (editable), the calls they place, and documents uploaded to the AI features.
CREATE TABLE voice_agents (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','inactive')),
    capabilities TEXT NOT NULL DEFAULT '[]',
    description TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

CREATE TABLE voice_calls (
    id TEXT PRIMARY KEY,
    contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    agent_id TEXT NOT NULL REFERENCES voice_agents(id),
    purpose TEXT NOT NULL CHECK (length(trim(purpose)) > 0),
    to_phone TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('scheduled','queued','dialing','in_progress','completed','failed','no_answer')),
    simulated INTEGER NOT NULL,
    provider_call_id TEXT UNIQUE,
    outcome TEXT CHECK (outcome IN ('qualified','not_interested','callback','voicemail')),
    transcript TEXT,
    summary TEXT,
    duration_seconds INTEGER,
    suggested_meeting TEXT,
    error TEXT,
    job_id TEXT,
    scheduled_for INTEGER,
    actor_id TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX voice_calls_created ON voice_calls(created_at DESC, id DESC);
CREATE INDEX voice_calls_contact ON voice_calls(contact_id, created_at DESC);

CREATE TABLE ai_documents (
    id TEXT PRIMARY KEY,
    task TEXT NOT NULL CHECK (task IN ('invoice_extract','document_analyze')),
    media_type TEXT NOT NULL,
    file_name TEXT,
    body BLOB NOT NULL,
    created_at INTEGER NOT NULL
);

-- The two starting agents, dated when the migration ran.
INSERT INTO voice_agents (id, name, status, capabilities, description, created_at, updated_at) VALUES
    ('agent-qualify', 'Qualification Agent', 'active',
     '["lead qualification","needs discovery","meeting booking"]',
     'Calls new leads, asks about projects and volume, books a meeting when there is a fit.', CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000),
    ('agent-followup', 'Follow-up Agent', 'active',
     '["follow-up","reminders","callback scheduling"]',
     'Follows up after emails and meetings and schedules callbacks.', CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000);

-- Invoices emailed to their customers, one row per sending job (a retried job never emails twice).
CREATE TABLE invoice_emails (
    job_id TEXT PRIMARY KEY,
    invoice_id TEXT NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    to_email TEXT NOT NULL,
    sent_at INTEGER NOT NULL
);
CREATE INDEX invoice_emails_invoice ON invoice_emails(invoice_id, sent_at);
