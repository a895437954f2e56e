-- Calendar sync, reminders and SMS (issue 7).
-- A user's Google Calendar grant: tokens sealed with the server's key (never stored in the clear).
-- A revoked grant keeps its row with the error, so the screen can say why sync stopped.
CREATE TABLE calendar_accounts (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    provider TEXT NOT NULL DEFAULT 'google' CHECK (provider IN ('google')),
    account_email TEXT,
    access_token TEXT NOT NULL,
    refresh_token TEXT,
    expires_at INTEGER NOT NULL,
    error TEXT,
    connected_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

-- Whose calendar a synced meeting lives in, and why its last sync failed.
ALTER TABLE meetings ADD COLUMN calendar_owner_id TEXT REFERENCES users(id) ON DELETE SET NULL;
ALTER TABLE meetings ADD COLUMN sync_error TEXT;

-- One reminder per meeting time and slot (minutes before the start; 0 = sent by hand): the tick and
-- the send-reminders call record a slot before they enqueue its job, so none is sent twice. A new
-- meeting time gets new slots; the job drops a reminder whose meeting moved, ended or was deleted.
CREATE TABLE meeting_reminders (
    meeting_id TEXT NOT NULL REFERENCES meetings(id) ON DELETE CASCADE,
    scheduled_at INTEGER NOT NULL,
    slot INTEGER NOT NULL CHECK (slot >= 0),
    -- 'queued' (a job was enqueued) or 'skipped' (a reminder for this time went out moments ago).
    state TEXT NOT NULL CHECK (state IN ('queued', 'skipped')),
    created_at INTEGER NOT NULL,
    PRIMARY KEY (meeting_id, scheduled_at, slot)
);

-- The SMS ledger: one row per message, claimed before the provider call, so at most once.
CREATE TABLE sms_messages (
    id TEXT PRIMARY KEY,
    dedupe_key TEXT NOT NULL UNIQUE,
    contact_id TEXT REFERENCES contacts(id) ON DELETE SET NULL,
    meeting_id TEXT REFERENCES meetings(id) ON DELETE SET NULL,
    kind TEXT NOT NULL,
    to_phone TEXT NOT NULL,
    body TEXT NOT NULL,
    -- queued → sending → sent | failed | unknown (the provider may have it); demo: no provider configured.
    status TEXT NOT NULL DEFAULT 'queued'
        CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'unknown', 'demo')),
    provider_id TEXT,
    error TEXT,
    actor_id TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    sent_at INTEGER
);
CREATE INDEX sms_messages_contact ON sms_messages (contact_id, created_at);
