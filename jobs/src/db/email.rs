//! Email: templates, campaigns, the message ledger, events, suppression and sending limits. The SQL
//! stands beside each function, in both dialects; only the audience filter, which the sequences
//! share, is in sqlite/email.rs and postgres/email.rs.
//!
//! The ledger (`email_messages`) is the at-most-once record: a message row exists before anything is
//! sent, is claimed (`sending`) in a committed transaction before the SMTP conversation starts, and
//! a row left `sending` by a run that died becomes `unknown`, never sent again.

use sqlx::AssertSqlSafe;

use super::sql::Sql;
use super::*;

/// The template columns, in the order [`TemplateRow`] reads them.
macro_rules! template_columns {
    () => {
        "id, name, category, subject, body, is_builtin, created_at"
    };
}

/// The campaign columns, in the order [`CampaignRow`] reads them.
macro_rules! campaign_columns {
    () => {
        "id, kind, name, description, status, subject, template_id, from_email, target_filters, \
         selected_contact_ids, schedule_at, target_audience, ai_model, total_recipients, created_at, \
         updated_at, started_at, sent_at, ended_at"
    };
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct TemplateRow {
    pub id: String,
    pub name: String,
    pub category: String,
    pub subject: String,
    pub body: String,
    pub is_builtin: bool,
    pub created_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CampaignRow {
    pub id: String,
    /// `single` or `bulk`.
    pub kind: String,
    pub name: String,
    pub description: Option<String>,
    pub status: String,
    pub subject: Option<String>,
    pub template_id: Option<String>,
    pub from_email: Option<String>,
    pub target_filters: Option<Json<Value>>,
    pub selected_contact_ids: Option<Json<Value>>,
    pub schedule_at: Option<i64>,
    pub target_audience: Option<String>,
    pub ai_model: Option<String>,
    pub total_recipients: i32,
    pub created_at: i64,
    pub updated_at: i64,
    pub started_at: Option<i64>,
    pub sent_at: Option<i64>,
    pub ended_at: Option<i64>,
}

/// Who a campaign goes to. Contacts without an email never match.
#[derive(Debug, Clone, Default)]
pub struct Audience {
    pub score_min: Option<i32>,
    pub score_max: Option<i32>,
    /// Empty: any status.
    pub statuses: Vec<String>,
    /// Company states (two-letter codes); empty: anywhere.
    pub states: Vec<String>,
    /// When set, only these contacts.
    pub contact_ids: Option<Vec<String>>,
}

impl Audience {
    /// A sequence's `enrollmentRules` (`scoreMin`, `scoreMax`, `statuses`, `states`; checked when saved).
    pub fn from_rules(rules: &Value) -> Self {
        let list = |key: &str| -> Vec<String> {
            rules
                .get(key)
                .and_then(Value::as_array)
                .map(|l| {
                    l.iter()
                        .filter_map(Value::as_str)
                        .map(String::from)
                        .collect()
                })
                .unwrap_or_default()
        };
        let score = |key: &str| {
            rules
                .get(key)
                .and_then(Value::as_i64)
                .and_then(|n| i32::try_from(n).ok())
        };
        Self {
            score_min: score("scoreMin"),
            score_max: score("scoreMax"),
            statuses: list("statuses"),
            states: list("states"),
            contact_ids: None,
        }
    }

    /// As stored in `enrollmentRules`.
    pub fn to_rules(&self) -> Value {
        let mut rules = serde_json::Map::new();
        if let Some(n) = self.score_min {
            rules.insert("scoreMin".into(), n.into());
        }
        if let Some(n) = self.score_max {
            rules.insert("scoreMax".into(), n.into());
        }
        if !self.statuses.is_empty() {
            rules.insert("statuses".into(), self.statuses.clone().into());
        }
        if !self.states.is_empty() {
            rules.insert("states".into(), self.states.clone().into());
        }
        Value::Object(rules)
    }

    /// The contacts both select; `None` when no contact can match both.
    pub fn narrow(mut self, rules: &Audience) -> Option<Self> {
        self.score_min = self.score_min.max(rules.score_min);
        self.score_max = match (self.score_max, rules.score_max) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let both = |mine: Vec<String>, theirs: &[String]| -> Option<Vec<String>> {
            match (mine.is_empty(), theirs.is_empty()) {
                (_, true) => Some(mine),
                (true, false) => Some(theirs.to_vec()),
                (false, false) => {
                    let kept: Vec<String> =
                        mine.into_iter().filter(|s| theirs.contains(s)).collect();
                    (!kept.is_empty()).then_some(kept)
                }
            }
        };
        self.statuses = both(self.statuses, &rules.statuses)?;
        self.states = both(self.states, &rules.states)?;
        Some(self)
    }
    pub(crate) fn statuses_json(&self) -> String {
        Value::from(self.statuses.clone()).to_string()
    }
    pub(crate) fn states_json(&self) -> String {
        Value::from(self.states.clone()).to_string()
    }
    pub(crate) fn ids_json(&self) -> Option<String> {
        self.contact_ids
            .as_ref()
            .map(|ids| Value::from(ids.clone()).to_string())
    }
}

/// Per-campaign counts from the ledger.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct CampaignStats {
    pub campaign_id: String,
    pub total: i64,
    pub sent: i64,
    pub delivered: i64,
    /// Opened, of the messages that carried the open pixel.
    pub opened: i64,
    /// Sent with the open pixel: what an open rate is a share of.
    pub open_tracked: i64,
    pub clicked: i64,
    pub replied: i64,
    pub bounced: i64,
    pub queued: i64,
    pub deferred: i64,
    pub sending: i64,
    pub failed: i64,
    pub suppressed: i64,
    pub unknown: i64,
    pub cancelled: i64,
    /// When the earliest deferred message may be tried again.
    pub next_attempt_at: Option<i64>,
}

impl CampaignStats {
    /// Messages that will not be tried again.
    pub fn done(&self) -> i64 {
        self.sent + self.failed + self.suppressed + self.unknown + self.cancelled
    }
}

/// Everything needed to render and send one claimed message.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ClaimedMessage {
    pub id: String,
    pub campaign_id: Option<String>,
    pub contact_id: Option<String>,
    pub to_email: String,
    pub from_email: String,
    pub subject: Option<String>,
    pub body: Option<String>,
    pub vars: Json<Value>,
    pub message_id: String,
    pub attempts: i32,
    /// The open pixel goes in (the workspace's setting when the message was claimed).
    pub track_opens: bool,
}

/// What happened to one message.
#[derive(Debug, Clone)]
pub enum SendOutcome {
    Sent,
    /// SMTP 4xx or a connection problem: tried again at `retry_at`.
    Deferred {
        retry_at: i64,
        error: String,
    },
    /// SMTP 5xx: this recipient fails (counted as a hard bounce).
    Failed {
        error: String,
    },
}

pub struct MessageFinish {
    pub message: ClaimedMessage,
    pub outcome: SendOutcome,
    /// When the server answered (ms): the message's `sent_at` when it was accepted.
    pub at: i64,
}

impl MessageFinish {
    /// The contact an accepted message reached, and when.
    pub fn contacted(&self) -> Option<(&str, i64)> {
        match self.outcome {
            SendOutcome::Sent => self.message.contact_id.as_deref().map(|c| (c, self.at)),
            _ => None,
        }
    }
}

/// A direct message (`POST /api/contacts/email`) or any other one-off.
pub struct MessageInsert<'a> {
    pub id: &'a str,
    pub dedupe_key: &'a str,
    pub campaign_id: Option<&'a str>,
    pub contact_id: Option<&'a str>,
    pub to_email: &'a str,
    pub from_email: &'a str,
    pub subject: Option<&'a str>,
    pub body: Option<&'a str>,
    pub vars: &'a Value,
    pub message_id: &'a str,
    /// `queued`, or `sent` for demo data.
    pub status: &'a str,
    pub step_id: Option<&'a str>,
    pub enrollment_id: Option<&'a str>,
    /// The A/B variant a sequence message was written as.
    pub variant: Option<&'a str>,
    pub now: i64,
}

pub struct Materialize<'a> {
    pub campaign_id: &'a str,
    pub audience: &'a Audience,
    pub from_email: &'a str,
    pub sender_name: &'a str,
    /// Right-hand side of generated Message-IDs.
    pub message_domain: &'a str,
    pub now: i64,
}

/// One event to record (tracking, webhook, send results, demo data).
#[derive(Debug, Clone)]
pub struct EventInsert {
    pub message_id: Option<String>,
    pub campaign_id: Option<String>,
    pub contact_id: Option<String>,
    pub email: Option<String>,
    /// sent, delivered, opened, clicked, replied, bounced, deferred, dropped, spam_reported, unsubscribed
    pub event_type: String,
    pub provider_event_id: Option<String>,
    pub url: Option<String>,
    pub detail: Option<String>,
    pub is_demo: bool,
    pub occurred_at: i64,
}

/// The ledger row an outside event refers to.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MessageRef {
    pub id: String,
    pub campaign_id: Option<String>,
    pub contact_id: Option<String>,
    pub to_email: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DeliverabilityRow {
    pub warmup_enabled: bool,
    pub daily_limit: i32,
    pub hourly_limit: i32,
    /// Messages carry the open pixel (off by default: docs/email.md, "Deliverability").
    pub track_opens: bool,
}

/// Sends counted for a mailbox in the current windows.
#[derive(Debug, Clone, Copy, Default)]
pub struct MailboxUsage {
    pub this_hour: i64,
    pub today: i64,
    /// Whole days since the mailbox's first counted send (warm-up), 0 when it never sent.
    pub days_sending: i64,
}

pub struct Reserve<'a> {
    pub mailbox: &'a str,
    pub hour_key: &'a str,
    pub day_key: &'a str,
    pub want: i64,
    pub hourly_limit: i64,
    pub daily_limit: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HistoryCampaign {
    pub id: String,
    pub name: String,
    pub status: String,
    pub total_events: i64,
    pub last_event_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HistoryEvent {
    pub event_type: String,
    pub occurred_at: i64,
}

/// One message to a contact, as its email history lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct HistoryMessage {
    pub id: String,
    /// The message's own subject (direct email), else its campaign's; merge fields unrendered.
    pub subject: Option<String>,
    pub vars: Json<Value>,
    pub campaign_name: Option<String>,
    pub to_email: String,
    pub status: String,
    pub last_error: Option<String>,
    pub created_at: i64,
    pub sent_at: Option<i64>,
    pub opened_at: Option<i64>,
    pub clicked_at: Option<i64>,
    pub replied_at: Option<i64>,
    pub bounced_at: Option<i64>,
}

/// The ledger column that keeps an event type's first time.
pub fn first_time_column(event_type: &str) -> Option<&'static str> {
    Some(match event_type {
        "sent" => "sent_at",
        "delivered" => "delivered_at",
        "opened" => "opened_at",
        "clicked" => "clicked_at",
        "replied" => "replied_at",
        "bounced" => "bounced_at",
        _ => return None,
    })
}

const TEMPLATE_LIST: Sql = select!(
    template_columns,
    "email_templates",
    "ORDER BY is_builtin DESC, created_at, name"
);
const TEMPLATE_GET: Sql = select!(template_columns, "email_templates", "WHERE id = ?1");
const TEMPLATE_INSERT: Sql = sql!(concat!(
    "INSERT INTO email_templates (",
    template_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
));

const CAMPAIGN_INSERT: Sql = sql!(concat!(
    "INSERT INTO campaigns (",
    campaign_columns!(),
    ")
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"
));
const CAMPAIGN_GET: Sql = select!(campaign_columns, "campaigns", "WHERE id = ?1");
const CAMPAIGN_LIST: Sql = select!(
    campaign_columns,
    "campaigns",
    "WHERE kind = ?1 ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3"
);
const CAMPAIGN_COUNT: Sql = sql!("SELECT COUNT(*) FROM campaigns WHERE kind = ?1");
/// The newest `bulk_campaign_send` job of a campaign, however it was enqueued (Send Now, schedule,
/// follow-up run, retry, ops).
const CAMPAIGN_SEND_JOB: Sql = sql!(
    "SELECT status, run_at, error FROM jobs
     WHERE kind = 'bulk_campaign_send' AND payload ->> 'campaignId' = ?1
     ORDER BY created_at DESC, id DESC LIMIT 1"
);
/// ?2: the statuses it may move from, a JSON array.
const CAMPAIGN_SET_STATUS: Sql = in_list!(
    "UPDATE campaigns SET status = ?3, updated_at = ?4,
         started_at = CASE WHEN ?3 = 'sending' THEN coalesce(started_at, ?4) ELSE started_at END,
         sent_at = CASE WHEN ?3 = 'sent' THEN ?4 ELSE sent_at END,
         ended_at = CASE WHEN ?3 IN ('sent', 'cancelled', 'completed') THEN ?4 ELSE ended_at END
     WHERE id = ?1 AND status IN ",
    2,
    ""
);
const CAMPAIGN_SET_TOTAL: Sql = sql!("UPDATE campaigns SET total_recipients = ?2 WHERE id = ?1");
/// ?1: the campaign ids, a JSON array.
const CAMPAIGN_STATS: Sql = in_list!(
    "SELECT campaign_id, COUNT(*) AS total, COUNT(sent_at) AS sent,
        COUNT(delivered_at) AS delivered, COUNT(CASE WHEN track_opens THEN opened_at END) AS opened,
        COUNT(CASE WHEN track_opens THEN sent_at END) AS open_tracked,
        COUNT(clicked_at) AS clicked, COUNT(replied_at) AS replied, COUNT(bounced_at) AS bounced,
        COUNT(*) FILTER (WHERE status = 'queued') AS queued,
        COUNT(*) FILTER (WHERE status = 'deferred') AS deferred,
        COUNT(*) FILTER (WHERE status = 'sending') AS sending,
        COUNT(*) FILTER (WHERE status = 'failed') AS failed,
        COUNT(*) FILTER (WHERE status = 'suppressed') AS suppressed,
        COUNT(*) FILTER (WHERE status = 'unknown') AS unknown,
        COUNT(*) FILTER (WHERE status = 'cancelled') AS cancelled,
        MIN(CASE WHEN status = 'deferred' THEN next_attempt_at END) AS next_attempt_at
     FROM email_messages WHERE campaign_id IN ",
    1,
    " GROUP BY campaign_id"
);
const CAMPAIGN_CANCEL_PENDING: Sql = sql!(
    "UPDATE email_messages SET status = 'cancelled'
     WHERE campaign_id = ?1 AND status IN ('queued', 'deferred')"
);

macro_rules! audience_count {
    ($d:ident) => {
        concat!(
            "SELECT COUNT(*) FROM contacts c LEFT JOIN companies co ON co.id = c.company_id WHERE ",
            audience!($d)
        )
    };
}
const AUDIENCE_COUNT: Sql = per_dialect!(audience_count);
/// One queued ledger row per contact of the audience (?1..?5); ?6: campaign, ?7: sender address,
/// ?8: sender name, ?9: Message-ID domain, ?10: now.
macro_rules! materialize {
    ($d:ident) => {
        concat!(
            "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email,
                 vars, message_id, status, created_at)
             SELECT ",
            random_id!($d),
            ", 'campaign:' || CAST(?6 AS TEXT) || ':' || c.id, ?6, c.id, lower(trim(c.email)), ?7, ",
            json_object!($d),
            "('firstName', c.first_name, 'lastName', c.last_name, 'email', c.email,
                     'title', coalesce(c.title, ''), 'companyName', coalesce(co.name, ''),
                     'senderName', CAST(?8 AS TEXT)),
                 CAST(?6 AS TEXT) || '.' || c.id || '@' || CAST(?9 AS TEXT), 'queued', ?10
             FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
             WHERE ",
            audience!($d),
            " ON CONFLICT (dedupe_key) DO NOTHING"
        )
    };
}
const MATERIALIZE: Sql = per_dialect!(materialize);
const ORPHANS_RESOLVE: Sql = sql!(
    "UPDATE email_messages SET status = 'unknown',
         last_error = 'the sending run stopped during delivery; not sent again'
     WHERE campaign_id = ?1 AND status = 'sending' AND NOT EXISTS (
         SELECT 1 FROM jobs j WHERE j.id = email_messages.claim_job_id
             AND j.status = 'running' AND j.attempts = email_messages.claim_attempt)"
);
/// The campaign's sent messages whose contact is not yet marked contacted for them (a run that
/// ended between recording a send and touching its contact), put right as
/// [`CONTACTS_CONTACTED`] would have.
const CONTACTS_CONTACTED_RECONCILE: Sql = sql!(
    "UPDATE contacts SET last_contacted_at = m.at,
         updated_at = CASE WHEN updated_at > m.at THEN updated_at ELSE m.at END,
         status = CASE WHEN status = 'new_lead' THEN 'email_sent' ELSE status END
     FROM (SELECT contact_id, MAX(sent_at) AS at FROM email_messages
           WHERE campaign_id = ?1 AND status = 'sent' AND contact_id IS NOT NULL
           GROUP BY contact_id) m
     WHERE contacts.id = m.contact_id
         AND (contacts.last_contacted_at IS NULL OR contacts.last_contacted_at < m.at)"
);
/// Postgres skips rows another sending lane's open transaction holds.
// Two statements, each read in the order of the (campaign_id, status, id) index: one with an
// `OR` of the two statuses read every message of the campaign, sent ones too, and sorted them,
// once per round of a few messages.
const MESSAGE_CANDIDATES_DUE: Sql = locking!(
    "SELECT id FROM email_messages
     WHERE campaign_id = ?1 AND status = 'deferred' AND next_attempt_at <= ?2
     ORDER BY id LIMIT ?3",
    "FOR UPDATE SKIP LOCKED",
    ""
);
const MESSAGE_CANDIDATES_QUEUED: Sql = locking!(
    "SELECT id FROM email_messages WHERE campaign_id = ?1 AND status = 'queued'
     ORDER BY id LIMIT ?2",
    "FOR UPDATE SKIP LOCKED",
    ""
);
/// ?1: the rows, a JSON array of objects keyed by column.
const MESSAGES_INSERT: Sql = Sql {
    // Differs: SQLite reads the array with json_each and `->>` (and its parser needs `WHERE true`
    // between a SELECT and ON CONFLICT); Postgres with jsonb_to_recordset, typed per column.
    sqlite: "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email,
                 subject, body, vars, message_id, status, created_at, step_id, enrollment_id, variant)
             SELECT value ->> 'id', value ->> 'dedupe_key', value ->> 'campaign_id', value ->> 'contact_id',
                 value ->> 'to_email', value ->> 'from_email', value ->> 'subject', value ->> 'body',
                 value ->> 'vars', value ->> 'message_id', value ->> 'status', value ->> 'created_at',
                 value ->> 'step_id', value ->> 'enrollment_id', value ->> 'variant'
             FROM json_each(?1) WHERE true
             ON CONFLICT (dedupe_key) DO NOTHING",
    postgres: "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email,
                   subject, body, vars, message_id, status, created_at, step_id, enrollment_id, variant)
               SELECT id, dedupe_key, campaign_id, contact_id, to_email, from_email, subject, body, vars,
                   message_id, status, created_at, step_id, enrollment_id, variant
               FROM jsonb_to_recordset($1::jsonb) AS r(id text, dedupe_key text, campaign_id text,
                   contact_id text, to_email text, from_email text, subject text, body text, vars jsonb,
                   message_id text, status text, created_at bigint, step_id text, enrollment_id text,
                   variant text)
               ON CONFLICT (dedupe_key) DO NOTHING",
    generic_plan: false,
};
const CONTACTS_WITH_EMAIL: Sql = sql!(
    "SELECT id, lower(trim(email)) FROM contacts WHERE email IS NOT NULL AND trim(email) <> ''
     ORDER BY created_at, id LIMIT ?1"
);
const CONTACT_ID_BY_EMAIL: Sql =
    sql!("SELECT id FROM contacts WHERE lower(trim(email)) = ?1 ORDER BY created_at LIMIT 1");
const MESSAGE_STATUS: Sql =
    sql!("SELECT status, next_attempt_at FROM email_messages WHERE id = ?1");
const MESSAGE_FIND: Sql = sql!(
    "SELECT id, campaign_id, contact_id, to_email FROM email_messages
     WHERE id = ?1 OR message_id = ?2 LIMIT 1"
);

const EVENT_INSERT: Sql = sql!(
    "INSERT INTO email_events (id, message_id, campaign_id, contact_id, email, event_type,
         provider_event_id, url, detail, is_demo, occurred_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
     ON CONFLICT (provider_event_id) DO NOTHING"
);
/// `{column}` is one of [`first_time_column`]'s names, put in when the event is recorded.
const EVENT_FIRST_TIME: Sql =
    sql!("UPDATE email_messages SET {column} = coalesce({column}, ?2) WHERE id = ?1");
const EVENT_SETTLES_UNKNOWN: Sql = sql!(
    "UPDATE email_messages SET status = 'sent', sent_at = coalesce(sent_at, ?2), last_error = NULL
     WHERE id = ?1 AND status = 'unknown'"
);
const EVENT_TOTAL: Sql = sql!("SELECT COUNT(*) FROM email_events");
const HISTORY_TOTAL: Sql = sql!("SELECT COUNT(*) FROM email_events WHERE contact_id = ?1");
const HISTORY_CAMPAIGNS: Sql = sql!(
    "SELECT c.id, c.name, c.status, COUNT(*) AS total_events, MAX(e.occurred_at) AS last_event_at
     FROM email_events e JOIN campaigns c ON c.id = e.campaign_id
     WHERE e.contact_id = ?1 GROUP BY c.id, c.name, c.status ORDER BY last_event_at DESC"
);
const HISTORY_RECENT: Sql = sql!(
    "SELECT event_type, occurred_at FROM email_events WHERE contact_id = ?1
     ORDER BY occurred_at DESC, id DESC LIMIT 10"
);
/// A contact's newest messages (test sends are not outreach).
const HISTORY_MESSAGES: Sql = sql!(
    "SELECT m.id, COALESCE(m.subject, c.subject) AS subject, m.vars, c.name AS campaign_name,
            m.to_email, m.status, m.last_error, m.created_at, m.sent_at, m.opened_at, m.clicked_at,
            m.replied_at, m.bounced_at
     FROM email_messages m LEFT JOIN campaigns c ON c.id = m.campaign_id
     WHERE m.contact_id = ?1 AND m.dedupe_key NOT LIKE 'test:%'
     ORDER BY m.created_at DESC, m.id DESC LIMIT ?2"
);
/// Bounces before an admin last lifted the address's suppression are forgiven: the lift starts the
/// count again (see suppression_lift in api/src/email.rs).
const BOUNCE_COUNT: Sql = sql!(
    "SELECT COUNT(*) FROM email_events WHERE email = ?1 AND event_type = 'bounced'
       AND occurred_at > COALESCE((SELECT MAX(created_at) FROM audit_log
                                   WHERE action = 'email.suppression.lift' AND target = ?1), 0)"
);

const SUPPRESSION_ADD: Sql = sql!(
    "INSERT INTO suppressions (email, reason, source, created_at) VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (email) DO NOTHING"
);
const SUPPRESSION_GET: Sql = sql!("SELECT reason FROM suppressions WHERE email = ?1");

const DELIVERABILITY_GET: Sql = sql!(
    "SELECT warmup_enabled, daily_limit, hourly_limit, track_opens FROM deliverability_settings
     WHERE id = 1"
);
const DELIVERABILITY_SET: Sql = sql!(
    "UPDATE deliverability_settings SET warmup_enabled = ?1, daily_limit = ?2, hourly_limit = ?3,
         track_opens = ?5, updated_at = ?4 WHERE id = 1"
);
/// ?1: one mailbox, or NULL for all; ?2, ?3: the hour and day windows.
const MAILBOX_USAGE: Sql = sql!(
    "SELECT CAST(coalesce(SUM(CASE WHEN window_key = ?2 THEN sent ELSE 0 END), 0) AS BIGINT),
            CAST(coalesce(SUM(CASE WHEN window_key = ?3 THEN sent ELSE 0 END), 0) AS BIGINT),
            MIN(CASE WHEN window_key LIKE 'd%' THEN window_key END)
     FROM mailbox_sends WHERE CAST(?1 AS TEXT) IS NULL OR mailbox = ?1"
);
/// The mailbox's sends in the hour (?2) and day (?3) windows; in Postgres both counters are locked.
const MAILBOX_COUNTED: Sql = locking!(
    "SELECT CAST(coalesce(SUM(CASE WHEN window_key = ?2 THEN sent ELSE 0 END), 0) AS BIGINT),
            CAST(coalesce(SUM(CASE WHEN window_key = ?3 THEN sent ELSE 0 END), 0) AS BIGINT)
     FROM (SELECT window_key, sent FROM mailbox_sends
           WHERE mailbox = ?1 AND window_key IN (?2, ?3)",
    "FOR UPDATE",
    ") AS w"
);
/// Adds ?3 (which may be negative) to a window's counter, which never goes below 0.
const MAILBOX_ADD: Sql = sql!(
    "INSERT INTO mailbox_sends (mailbox, window_key, sent)
     VALUES (?1, ?2, CASE WHEN ?3 > 0 THEN ?3 ELSE 0 END)
     ON CONFLICT (mailbox, window_key) DO UPDATE
     SET sent = CASE WHEN mailbox_sends.sent + ?3 > 0 THEN mailbox_sends.sent + ?3 ELSE 0 END"
);

/// ?1: the message ids, a JSON array.
const MESSAGES_SUPPRESS: Sql = in_list!(
    "UPDATE email_messages SET status = 'suppressed', last_error = 'address is on the suppression list'
     WHERE id IN ",
    1,
    " AND status IN ('queued', 'deferred')
       AND to_email IN (SELECT email FROM suppressions)
     RETURNING id"
);
/// ?1: the message ids, a JSON array.
const MESSAGES_CLAIM: Sql = in_list!(
    "UPDATE email_messages SET status = 'sending', attempts = attempts + 1,
         claim_job_id = ?2, claim_attempt = ?3,
         track_opens = (SELECT track_opens FROM deliverability_settings WHERE id = 1)
     WHERE id IN ",
    1,
    " AND status IN ('queued', 'deferred')
     RETURNING id, campaign_id, contact_id, to_email, from_email, subject, body, vars, message_id, attempts,
         track_opens"
);
/// A batch's outcomes in one statement each (a statement per message held the write lock for
/// three round trips per message, and ran Postgres' statement triggers once per contact).
/// ?1: JSON array of {id, status, retry_at, error, at}.
const MESSAGES_FINISH: Sql = Sql {
    // Differs: SQLite reads the array with json_each and `->>`; Postgres with jsonb_to_recordset.
    sqlite: "UPDATE email_messages SET status = f.status, next_attempt_at = f.retry_at,
                 last_error = f.error,
                 sent_at = CASE WHEN f.status = 'sent' THEN f.at ELSE sent_at END,
                 bounced_at = CASE WHEN f.status = 'failed' THEN f.at ELSE bounced_at END
             FROM (SELECT value ->> 'id' AS id, value ->> 'status' AS status,
                       value ->> 'retry_at' AS retry_at, value ->> 'error' AS error,
                       value ->> 'at' AS at
                   FROM json_each(?1)) f
             WHERE email_messages.id = f.id",
    postgres: "UPDATE email_messages m SET status = f.status, next_attempt_at = f.retry_at,
                   last_error = f.error,
                   sent_at = CASE WHEN f.status = 'sent' THEN f.at ELSE m.sent_at END,
                   bounced_at = CASE WHEN f.status = 'failed' THEN f.at ELSE m.bounced_at END
               FROM jsonb_to_recordset($1::jsonb)
                   AS f(id text, status text, retry_at bigint, error text, at bigint)
               WHERE m.id = f.id",
    generic_plan: false,
};
/// ?1: JSON array of {id, message_id, campaign_id, contact_id, email, event_type, detail, at}.
const MESSAGES_FINISH_EVENTS: Sql = Sql {
    sqlite: "INSERT INTO email_events (id, message_id, campaign_id, contact_id, email, event_type,
                 detail, is_demo, occurred_at)
             SELECT value ->> 'id', value ->> 'message_id', value ->> 'campaign_id',
                 value ->> 'contact_id', value ->> 'email', value ->> 'event_type',
                 value ->> 'detail', FALSE, value ->> 'at'
             FROM json_each(?1)",
    postgres:
        "INSERT INTO email_events (id, message_id, campaign_id, contact_id, email, event_type,
                   detail, is_demo, occurred_at)
               SELECT id, message_id, campaign_id, contact_id, email, event_type, detail, FALSE, at
               FROM jsonb_to_recordset($1::jsonb) AS r(id text, message_id text, campaign_id text,
                   contact_id text, email text, event_type text, detail text, at bigint)",
    generic_plan: false,
};
/// ?1: JSON array of {id, at}, one per contact, in id order (Postgres locks the rows in it).
const CONTACTS_CONTACTED: Sql = Sql {
    sqlite: "UPDATE contacts SET last_contacted_at = f.at, updated_at = f.at,
                 status = CASE WHEN status = 'new_lead' THEN 'email_sent' ELSE status END
             FROM (SELECT value ->> 'id' AS id, value ->> 'at' AS at FROM json_each(?1)) f
             WHERE contacts.id = f.id",
    postgres: "UPDATE contacts c SET last_contacted_at = f.at, updated_at = f.at,
                   status = CASE WHEN c.status = 'new_lead' THEN 'email_sent' ELSE c.status END
               FROM jsonb_to_recordset($1::jsonb) AS f(id text, at bigint)
               WHERE c.id = f.id",
    generic_plan: false,
};

impl Db {
    pub async fn template_list(&self) -> Result<Vec<TemplateRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(TEMPLATE_LIST))
    }
    pub async fn template_get(&self, id: &str) -> Result<Option<TemplateRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(TEMPLATE_GET), id)
    }
    pub async fn template_insert(&self, t: &TemplateRow) -> Result<(), sqlx::Error> {
        exec!(
            self,
            TEMPLATE_INSERT,
            &t.id,
            &t.name,
            &t.category,
            &t.subject,
            &t.body,
            t.is_builtin,
            t.created_at
        )
        .map(|_| ())
    }

    pub async fn campaign_get(&self, id: &str) -> Result<Option<CampaignRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(CAMPAIGN_GET), id)
    }
    /// Newest first.
    pub async fn campaign_list(
        &self,
        kind: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<CampaignRow>, i64), sqlx::Error> {
        on_db!(
            self,
            pool,
            [list = CAMPAIGN_LIST, count = CAMPAIGN_COUNT],
            {
                let rows = sqlx::query_as(list)
                    .bind(kind)
                    .bind(limit)
                    .bind(offset)
                    .fetch_all(pool)
                    .await?;
                let total = sqlx::query_scalar(count).bind(kind).fetch_one(pool).await?;
                Ok((rows, total))
            }
        )
    }
    /// How many campaigns of `kind` there are.
    pub async fn campaign_count(&self, kind: &str) -> Result<i64, sqlx::Error> {
        fetch!(self, fetch_one, query_scalar(CAMPAIGN_COUNT), kind)
    }
    /// Moves a campaign from one of `from` to `to`; false when it was in none of them.
    pub async fn campaign_set_status(
        &self,
        id: &str,
        from: &[&str],
        to: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        let from = Value::from(from.to_vec()).to_string();
        let done = exec!(self, CAMPAIGN_SET_STATUS, id, &from, to, now)?;
        Ok(done > 0)
    }
    /// The newest send job of a campaign: (status, run_at, error).
    pub async fn campaign_send_job(
        &self,
        id: &str,
    ) -> Result<Option<(String, i64, Option<String>)>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(CAMPAIGN_SEND_JOB), id)
    }
    pub async fn campaign_set_total(&self, id: &str, total: i64) -> Result<(), sqlx::Error> {
        exec!(self, CAMPAIGN_SET_TOTAL, id, total).map(|_| ())
    }
    pub async fn campaign_stats(&self, ids: &[String]) -> Result<Vec<CampaignStats>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        fetch!(self, fetch_all, query_as(CAMPAIGN_STATS), &ids)
    }
    /// Marks the rest of a cancelled campaign's queue cancelled.
    pub async fn campaign_cancel_pending(&self, id: &str) -> Result<u64, sqlx::Error> {
        exec!(self, CAMPAIGN_CANCEL_PENDING, id)
    }

    /// Contacts matching `a` (with an email).
    pub async fn audience_count(&self, a: &Audience) -> Result<i64, sqlx::Error> {
        fetch!(
            self,
            fetch_one,
            query_scalar(AUDIENCE_COUNT),
            a.score_min,
            a.score_max,
            a.statuses_json(),
            a.states_json(),
            a.ids_json()
        )
    }
    /// One queued ledger row per matching contact; rows already there are kept (idempotent).
    pub async fn campaign_messages_materialize(
        &self,
        m: &Materialize<'_>,
    ) -> Result<u64, sqlx::Error> {
        let a = m.audience;
        exec!(
            self,
            MATERIALIZE,
            a.score_min,
            a.score_max,
            a.statuses_json(),
            a.states_json(),
            a.ids_json(),
            m.campaign_id,
            m.from_email,
            m.sender_name,
            m.message_domain,
            m.now
        )
    }
    /// Rows of a run that is no longer running, left `sending`, become `unknown`: they may or may
    /// not have reached the server and are never sent again.
    pub async fn messages_orphans_resolve(&self, campaign_id: &str) -> Result<u64, sqlx::Error> {
        exec!(self, ORPHANS_RESOLVE, campaign_id)
    }
    /// Marks contacted the contacts of the campaign's sent messages that an earlier run recorded
    /// but stopped before touching; the number put right.
    pub async fn campaign_contacts_reconcile(&self, campaign_id: &str) -> Result<u64, sqlx::Error> {
        exec!(self, CONTACTS_CONTACTED_RECONCILE, campaign_id)
    }
    /// (id, email) of the first `limit` contacts with an email.
    pub async fn contacts_with_email(
        &self,
        limit: i64,
    ) -> Result<Vec<(String, String)>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(CONTACTS_WITH_EMAIL), limit)
    }
    pub async fn contact_id_by_email(&self, email: &str) -> Result<Option<String>, sqlx::Error> {
        fetch!(
            self,
            fetch_optional,
            query_scalar(CONTACT_ID_BY_EMAIL),
            email
        )
    }
    /// Status and, when deferred, when it is due again.
    pub async fn message_status(
        &self,
        id: &str,
    ) -> Result<Option<(String, Option<i64>)>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(MESSAGE_STATUS), id)
    }
    /// The ledger row by our id, else by RFC Message-ID.
    pub async fn message_find(
        &self,
        id: Option<&str>,
        rfc_message_id: Option<&str>,
    ) -> Result<Option<MessageRef>, sqlx::Error> {
        fetch!(
            self,
            fetch_optional,
            query_as(MESSAGE_FIND),
            id,
            rfc_message_id
        )
    }

    /// Records an event; false when its provider id was seen before (ignored). Sets the message's
    /// first delivered/opened/clicked/replied/bounced time.
    pub async fn event_record(&self, e: &EventInsert) -> Result<bool, sqlx::Error> {
        let id = ulid::Ulid::new().to_string();
        let mut tx = self.begin().await?;
        let inserted = on_tx!(&mut tx, conn, [q = EVENT_INSERT], {
            sqlx::query(q)
                .bind(&id)
                .bind(&e.message_id)
                .bind(&e.campaign_id)
                .bind(&e.contact_id)
                .bind(&e.email)
                .bind(&e.event_type)
                .bind(&e.provider_event_id)
                .bind(&e.url)
                .bind(&e.detail)
                .bind(e.is_demo)
                .bind(e.occurred_at)
                .execute(&mut *conn)
                .await
                .map(|r| r.rows_affected())
        })?;
        if inserted == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        if let (Some(message), Some(column)) = (&e.message_id, first_time_column(&e.event_type)) {
            on_tx!(&mut tx, conn, [q = EVENT_FIRST_TIME], {
                sqlx::query(AssertSqlSafe(q.replace("{column}", column)))
                    .bind(message)
                    .bind(e.occurred_at)
                    .execute(&mut *conn)
                    .await
                    .map(|_| ())
            })?;
            // Proof of delivery settles a message left in doubt by a crash: it was sent.
            if matches!(
                e.event_type.as_str(),
                "delivered" | "opened" | "clicked" | "replied"
            ) {
                on_tx!(&mut tx, conn, [q = EVENT_SETTLES_UNKNOWN], {
                    sqlx::query(q)
                        .bind(message)
                        .bind(e.occurred_at)
                        .execute(&mut *conn)
                        .await
                        .map(|_| ())
                })?;
            }
        }
        // Its webhook event (opened, clicked, …) commits with it, or not at all.
        tx.webhook_emit_email(e).await?;
        tx.commit().await?;
        Ok(true)
    }
    pub async fn event_total(&self) -> Result<i64, sqlx::Error> {
        fetch!(self, fetch_one, query_scalar(EVENT_TOTAL))
    }
    pub async fn contact_email_history(
        &self,
        contact_id: &str,
    ) -> Result<(i64, Vec<HistoryCampaign>, Vec<HistoryEvent>), sqlx::Error> {
        on_db!(
            self,
            pool,
            [
                total = HISTORY_TOTAL,
                campaigns = HISTORY_CAMPAIGNS,
                recent = HISTORY_RECENT
            ],
            {
                let total = sqlx::query_scalar(total)
                    .bind(contact_id)
                    .fetch_one(pool)
                    .await?;
                let campaigns = sqlx::query_as(campaigns)
                    .bind(contact_id)
                    .fetch_all(pool)
                    .await?;
                let recent = sqlx::query_as(recent)
                    .bind(contact_id)
                    .fetch_all(pool)
                    .await?;
                Ok((total, campaigns, recent))
            }
        )
    }
    /// The contact's newest `limit` messages, newest first.
    pub async fn contact_messages(
        &self,
        contact_id: &str,
        limit: i64,
    ) -> Result<Vec<HistoryMessage>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_as(HISTORY_MESSAGES),
            contact_id,
            limit
        )
    }
    /// Hard bounces recorded for an address since its suppression was last lifted.
    pub async fn bounce_count(&self, email: &str) -> Result<i64, sqlx::Error> {
        fetch!(self, fetch_one, query_scalar(BOUNCE_COUNT), email)
    }

    /// Adds an address to the suppression list (the first reason is kept).
    pub async fn suppression_add(
        &self,
        email: &str,
        reason: &str,
        source: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let email = email.trim().to_lowercase();
        exec!(self, SUPPRESSION_ADD, &email, reason, source, now).map(|_| ())
    }
    pub async fn suppression_get(&self, email: &str) -> Result<Option<String>, sqlx::Error> {
        let email = email.trim().to_lowercase();
        fetch!(self, fetch_optional, query_scalar(SUPPRESSION_GET), &email)
    }

    pub async fn deliverability_get(&self) -> Result<DeliverabilityRow, sqlx::Error> {
        fetch!(self, fetch_one, query_as(DELIVERABILITY_GET))
    }
    pub async fn deliverability_set(
        &self,
        d: &DeliverabilityRow,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec!(
            self,
            DELIVERABILITY_SET,
            d.warmup_enabled,
            d.daily_limit,
            d.hourly_limit,
            now,
            d.track_opens
        )
        .map(|_| ())
    }
    /// Sends counted in the given windows, summed over mailboxes when `mailbox` is None.
    pub async fn mailbox_usage(
        &self,
        mailbox: Option<&str>,
        hour_key: &str,
        day_key: &str,
    ) -> Result<MailboxUsage, sqlx::Error> {
        let (hour, day, first): (i64, i64, Option<String>) = fetch!(
            self,
            fetch_one,
            query_as(MAILBOX_USAGE),
            mailbox,
            hour_key,
            day_key
        )?;
        Ok(MailboxUsage {
            this_hour: hour,
            today: day,
            days_sending: crate::time::days_between(first.as_deref(), day_key),
        })
    }
}

impl Tx {
    /// Ids of a campaign's messages ready to send now, in id order, that no other open
    /// transaction holds (several sending lanes never pick the same row).
    /// Up to `limit` rows to send: deferred ones whose retry time has come first, then queued
    /// ones, each in id order.
    pub async fn message_candidates(
        &mut self,
        campaign_id: &str,
        now: i64,
        limit: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        let mut ids: Vec<String> = fetch_tx!(
            self,
            fetch_all,
            query_scalar(MESSAGE_CANDIDATES_DUE),
            campaign_id,
            now,
            limit
        )?;
        let rest = limit - ids.len() as i64;
        if rest > 0 {
            let queued: Vec<String> = fetch_tx!(
                self,
                fetch_all,
                query_scalar(MESSAGE_CANDIDATES_QUEUED),
                campaign_id,
                rest
            )?;
            ids.extend(queued);
        }
        Ok(ids)
    }
    pub async fn campaign_insert(&mut self, c: &CampaignRow) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            CAMPAIGN_INSERT,
            &c.id,
            &c.kind,
            &c.name,
            &c.description,
            &c.status,
            &c.subject,
            &c.template_id,
            &c.from_email,
            &c.target_filters,
            &c.selected_contact_ids,
            c.schedule_at,
            &c.target_audience,
            &c.ai_model,
            c.total_recipients,
            c.created_at,
            c.updated_at,
            c.started_at,
            c.sent_at,
            c.ended_at
        )
        .map(|_| ())
    }
    /// Writes the rows in one statement, skipping any whose dedupe key exists: how many were new.
    pub async fn messages_insert(
        &mut self,
        rows: &[MessageInsert<'_>],
    ) -> Result<u64, sqlx::Error> {
        let rows: Vec<Value> = rows
            .iter()
            .map(|m| {
                serde_json::json!({
                    "id": m.id, "dedupe_key": m.dedupe_key, "campaign_id": m.campaign_id,
                    "contact_id": m.contact_id, "to_email": m.to_email, "from_email": m.from_email,
                    "subject": m.subject, "body": m.body, "vars": m.vars, "message_id": m.message_id,
                    "status": m.status, "created_at": m.now, "step_id": m.step_id,
                    "enrollment_id": m.enrollment_id, "variant": m.variant,
                })
            })
            .collect();
        let rows = Value::from(rows).to_string();
        exec_tx!(self, MESSAGES_INSERT, &rows)
    }
    /// Grants up to `want` sends within the limits and counts them; the number granted.
    pub async fn mailbox_reserve(&mut self, r: &Reserve<'_>) -> Result<i64, sqlx::Error> {
        if let Tx::Postgres(_) = self {
            // Differs: in Postgres both counters are made and locked before they are read, so two
            // workers on one mailbox take turns; SQLite's transaction already holds the write lock.
            self.mailbox_add(r, 0).await?;
        }
        let (hour, day): (i64, i64) = fetch_tx!(
            self,
            fetch_one,
            query_as(MAILBOX_COUNTED),
            r.mailbox,
            r.hour_key,
            r.day_key
        )?;
        let granted = r
            .want
            .min(r.hourly_limit - hour)
            .min(r.daily_limit - day)
            .max(0);
        if granted > 0 {
            self.mailbox_add(r, granted).await?;
        }
        Ok(granted)
    }
    /// Gives back sends reserved but not claimed.
    pub async fn mailbox_release(&mut self, r: &Reserve<'_>) -> Result<(), sqlx::Error> {
        self.mailbox_add(r, -r.want).await
    }
    /// Adds `n` (may be negative) to the mailbox's hour and day counters.
    async fn mailbox_add(&mut self, r: &Reserve<'_>, n: i64) -> Result<(), sqlx::Error> {
        for key in [r.hour_key, r.day_key] {
            exec_tx!(self, MAILBOX_ADD, r.mailbox, key, n).map(|_| ())?;
        }
        Ok(())
    }
    /// Marks listed queued/deferred rows whose address is suppressed; their ids.
    pub async fn messages_suppress(&mut self, ids: &[String]) -> Result<Vec<String>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        fetch_tx!(self, fetch_all, query_scalar(MESSAGES_SUPPRESS), &ids)
    }
    /// Claims listed queued/deferred rows for this job run.
    pub async fn messages_claim(
        &mut self,
        ids: &[String],
        job_id: &str,
        attempt: i32,
    ) -> Result<Vec<ClaimedMessage>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        fetch_tx!(
            self,
            fetch_all,
            query_as(MESSAGES_CLAIM),
            &ids,
            job_id,
            attempt
        )
    }
    /// Writes each outcome and its `sent`/`bounced` event (two statements for the whole batch): the
    /// ledger. The contacts sent to are touched by [`Self::contacts_contacted`].
    pub async fn messages_finish(&mut self, items: &[MessageFinish]) -> Result<(), sqlx::Error> {
        if items.is_empty() {
            return Ok(());
        }
        let mut rows = Vec::with_capacity(items.len());
        let mut events = Vec::with_capacity(items.len());
        for item in items {
            let m = &item.message;
            let (status, retry_at, error, event) = match &item.outcome {
                SendOutcome::Sent => ("sent", None, None, Some("sent")),
                SendOutcome::Deferred { retry_at, error } => {
                    ("deferred", Some(*retry_at), Some(error), None)
                }
                SendOutcome::Failed { error } => ("failed", None, Some(error), Some("bounced")),
            };
            rows.push(serde_json::json!({
                "id": m.id, "status": status, "retry_at": retry_at, "error": error, "at": item.at,
            }));
            if let Some(event) = event {
                events.push(serde_json::json!({
                    "id": ulid::Ulid::new().to_string(), "message_id": m.id,
                    "campaign_id": m.campaign_id, "contact_id": m.contact_id, "email": m.to_email,
                    "event_type": event, "detail": error, "at": item.at,
                }));
            }
        }
        exec_tx!(self, MESSAGES_FINISH, Value::from(rows).to_string())?;
        if !events.is_empty() {
            exec_tx!(
                self,
                MESSAGES_FINISH_EVENTS,
                Value::from(events).to_string()
            )?;
        }
        self.webhook_emit_sent(items).await?;
        Ok(())
    }
    /// Marks the contacts of sent messages contacted (`new_lead` becomes `email_sent`): one
    /// statement for any number of `(contact, sent at)` pairs, the latest per contact, in id order.
    pub async fn contacts_contacted<'a>(
        &mut self,
        sent: impl IntoIterator<Item = (&'a str, i64)>,
    ) -> Result<(), sqlx::Error> {
        let mut latest: std::collections::BTreeMap<&str, i64> = Default::default();
        for (contact, at) in sent {
            let t = latest.entry(contact).or_insert(at);
            *t = (*t).max(at);
        }
        if latest.is_empty() {
            return Ok(());
        }
        let contacts: Vec<Value> = latest
            .into_iter()
            .map(|(id, at)| serde_json::json!({ "id": id, "at": at }))
            .collect();
        exec_tx!(self, CONTACTS_CONTACTED, Value::from(contacts).to_string())?;
        Ok(())
    }
}
