-- Email sequences: steps walked in order by each enrollment; reply rules. Sequence messages go
-- through the email ledger with their step (dedupe key per enrollment and step).

CREATE TABLE email_sequences (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(trim(name)) >= 2),
    description TEXT NOT NULL CHECK (length(trim(description)) >= 10),
    status TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('draft','active','paused','archived')),
    trigger_type TEXT NOT NULL DEFAULT 'manual'
        CHECK (trigger_type IN ('manual','contact_created','deal_stage_changed','form_submitted','tag_added')),
    trigger_config TEXT NOT NULL DEFAULT '{}',
    enrollment_rules TEXT NOT NULL DEFAULT '{}',
    exit_rules TEXT NOT NULL DEFAULT '{}',
    ab_testing_enabled BOOLEAN NOT NULL DEFAULT FALSE,
    ab_test_config TEXT,
    max_daily_enrollments INTEGER NOT NULL DEFAULT 50 CHECK (max_daily_enrollments >= 1),
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX email_sequences_created ON email_sequences (created_at DESC);

CREATE TABLE sequence_steps (
    id TEXT PRIMARY KEY,
    sequence_id TEXT NOT NULL REFERENCES email_sequences(id) ON DELETE CASCADE,
    name TEXT NOT NULL CHECK (length(trim(name)) >= 2),
    type TEXT NOT NULL CHECK (type IN ('email','delay','condition','action','ab_test')),
    step_order INTEGER NOT NULL DEFAULT 0 CHECK (step_order >= 0),
    config TEXT NOT NULL DEFAULT '{}',
    delay_minutes INTEGER NOT NULL DEFAULT 0 CHECK (delay_minutes >= 0),
    conditional_rules TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);
CREATE INDEX sequence_steps_order ON sequence_steps (sequence_id, step_order, created_at, id);

CREATE TABLE sequence_enrollments (
    id TEXT PRIMARY KEY,
    sequence_id TEXT NOT NULL REFERENCES email_sequences(id) ON DELETE CASCADE,
    contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','completed','exited')),
    -- Position in the sequence's ordered steps (0 = the first).
    current_step INTEGER NOT NULL DEFAULT 0,
    next_action_at INTEGER,
    -- A/B variant, fixed per contact.
    variant TEXT,
    exit_reason TEXT,
    enrolled_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    completed_at INTEGER,
    UNIQUE (sequence_id, contact_id)
);
CREATE INDEX sequence_enrollments_due ON sequence_enrollments (next_action_at) WHERE status = 'active';
CREATE INDEX sequence_enrollments_sequence ON sequence_enrollments (sequence_id, status);
CREATE INDEX sequence_enrollments_contact ON sequence_enrollments (contact_id);

CREATE TABLE reply_rules (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(trim(name)) >= 2),
    trigger_type TEXT NOT NULL
        CHECK (trigger_type IN ('any_reply','positive_reply','negative_reply','out_of_office','unsubscribe_request','keyword')),
    keywords TEXT NOT NULL DEFAULT '[]',
    action TEXT NOT NULL DEFAULT 'stop_sequence'
        CHECK (action IN ('stop_sequence','mark_responded','create_task','notify')),
    times_triggered INTEGER NOT NULL DEFAULT 0,
    is_active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
);

ALTER TABLE email_messages ADD COLUMN step_id TEXT REFERENCES sequence_steps(id) ON DELETE SET NULL;
ALTER TABLE email_messages ADD COLUMN enrollment_id TEXT REFERENCES sequence_enrollments(id) ON DELETE SET NULL;
CREATE INDEX email_messages_step ON email_messages (step_id);
