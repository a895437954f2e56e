-- Email engine: templates, campaigns (single and bulk), the message ledger (one row per message,
-- written before it is sent: the at-most-once record), events, suppression, sending limits.

CREATE TABLE email_templates (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    category TEXT NOT NULL DEFAULT 'outreach',
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    is_builtin BOOLEAN NOT NULL DEFAULT FALSE,
    created_at INTEGER NOT NULL
);

INSERT INTO email_templates (id, name, category, subject, body, is_builtin, created_at) VALUES
('business-outreach', 'Business Outreach', 'outreach',
 'Partnership opportunity for {{companyName}}',
 '<p>Hi {{firstName}},</p><p>We help remodeling companies like {{companyName}} grow with accessible bath products: walk-in tubs, roll-in showers and safety upgrades that homeowners ask for every week.</p><p>Dealers in our network add a high-margin line with training, marketing support and protected territories. Would you have 15 minutes this week to see whether it fits {{companyName}}?</p><p>Best regards,<br>{{senderName}}</p>',
 TRUE, 0),
('follow-up', 'Follow-up', 'follow_up',
 'Following up, {{firstName}}',
 '<p>Hi {{firstName}},</p><p>I wanted to follow up on my earlier note about adding accessible bath products to {{companyName}}''s offering.</p><p>If the timing is better later, just reply and let me know when to check back.</p><p>Thanks,<br>{{senderName}}</p>',
 TRUE, 0);

CREATE TABLE campaigns (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('single','bulk')),
    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
    description TEXT,
    status TEXT NOT NULL
        CHECK (status IN ('draft','scheduled','sending','sent','paused','cancelled','active','completed')),
    subject TEXT,
    template_id TEXT REFERENCES email_templates(id),
    from_email TEXT,
    target_filters TEXT,
    selected_contact_ids TEXT,
    schedule_at INTEGER,
    target_audience TEXT,
    ai_model TEXT,
    total_recipients INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    started_at INTEGER,
    sent_at INTEGER,
    ended_at INTEGER
);
CREATE INDEX campaigns_kind_created ON campaigns (kind, created_at DESC);
CREATE INDEX campaigns_scheduled ON campaigns (schedule_at) WHERE status = 'scheduled';

CREATE TABLE email_messages (
    id TEXT PRIMARY KEY,
    -- One message per (campaign or sequence step, contact): the unique key that makes a send at most once.
    dedupe_key TEXT NOT NULL UNIQUE,
    campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
    contact_id TEXT REFERENCES contacts(id) ON DELETE SET NULL,
    to_email TEXT NOT NULL,
    from_email TEXT NOT NULL,
    -- Direct messages carry their own text; campaign messages are rendered from the template.
    subject TEXT,
    body TEXT,
    vars TEXT NOT NULL DEFAULT '{}',
    message_id TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL DEFAULT 'queued'
        CHECK (status IN ('queued','sending','sent','deferred','failed','suppressed','unknown','cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    claim_job_id TEXT,
    claim_attempt INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    sent_at INTEGER,
    delivered_at INTEGER,
    opened_at INTEGER,
    clicked_at INTEGER,
    replied_at INTEGER,
    bounced_at INTEGER
);
CREATE INDEX email_messages_campaign_status ON email_messages (campaign_id, status, id);
CREATE INDEX email_messages_contact ON email_messages (contact_id, created_at);
CREATE INDEX email_messages_to_email ON email_messages (to_email);

CREATE TABLE email_events (
    id TEXT PRIMARY KEY,
    message_id TEXT REFERENCES email_messages(id) ON DELETE SET NULL,
    campaign_id TEXT REFERENCES campaigns(id) ON DELETE SET NULL,
    contact_id TEXT REFERENCES contacts(id) ON DELETE SET NULL,
    email TEXT,
    event_type TEXT NOT NULL,
    -- SendGrid's sg_event_id: a repeated delivery of the same event is ignored.
    provider_event_id TEXT UNIQUE,
    url TEXT,
    detail TEXT,
    is_demo BOOLEAN NOT NULL DEFAULT FALSE,
    occurred_at INTEGER NOT NULL
);
CREATE INDEX email_events_occurred ON email_events (occurred_at);
CREATE INDEX email_events_contact ON email_events (contact_id, occurred_at);
CREATE INDEX email_events_campaign ON email_events (campaign_id, occurred_at);
CREATE INDEX email_events_email ON email_events (email, event_type);

CREATE TABLE suppressions (
    email TEXT PRIMARY KEY,
    reason TEXT NOT NULL CHECK (reason IN ('unsubscribed','hard_bounced','spam_reported','manual')),
    source TEXT,
    created_at INTEGER NOT NULL
);

CREATE TABLE deliverability_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    warmup_enabled BOOLEAN NOT NULL DEFAULT FALSE,
    daily_limit INTEGER NOT NULL DEFAULT 100 CHECK (daily_limit >= 1),
    hourly_limit INTEGER NOT NULL DEFAULT 20 CHECK (hourly_limit >= 1),
    updated_at INTEGER NOT NULL
);
INSERT INTO deliverability_settings (id, warmup_enabled, daily_limit, hourly_limit, updated_at)
VALUES (1, FALSE, 100, 20, 0);

-- Sends per mailbox and window ('h' + UTC hour, 'd' + UTC day): counted when a message is claimed,
-- in the claim's transaction, so a restart cannot overshoot a limit.
CREATE TABLE mailbox_sends (
    mailbox TEXT NOT NULL,
    window_key TEXT NOT NULL,
    sent INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (mailbox, window_key)
);
