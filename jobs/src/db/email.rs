//! Email: templates, campaigns, the message ledger, events, suppression and sending limits (SQL in
//! sqlite/email.rs and postgres/email.rs).
//!
//! The ledger (`email_messages`) is the at-most-once record: a message row exists before anything is
//! sent, is claimed (`sending`) in a committed transaction before the SMTP conversation starts, and
//! a row left `sending` by a run that died becomes `unknown`, never sent again.

use super::*;

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

pub(crate) const CAMPAIGN_COLUMNS: &str = "id, kind, name, description, status, subject, template_id, \
    from_email, target_filters, selected_contact_ids, schedule_at, target_audience, ai_model, \
    total_recipients, created_at, updated_at, started_at, sent_at, ended_at";

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
    pub opened: i64,
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

pub struct MessageFinish<'a> {
    pub message: &'a ClaimedMessage,
    pub outcome: SendOutcome,
    /// When the server answered (ms): the message's `sent_at` when it was accepted.
    pub at: i64,
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
pub struct EventCount {
    pub event_type: String,
    pub events: i64,
    pub messages: i64,
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

impl Db {
    pub async fn template_list(&self) -> Result<Vec<TemplateRow>, sqlx::Error> {
        dispatch!(self, template_list())
    }
    pub async fn template_get(&self, id: &str) -> Result<Option<TemplateRow>, sqlx::Error> {
        dispatch!(self, template_get(id))
    }
    pub async fn template_insert(&self, t: &TemplateRow) -> Result<(), sqlx::Error> {
        dispatch!(self, template_insert(t))
    }

    pub async fn campaign_get(&self, id: &str) -> Result<Option<CampaignRow>, sqlx::Error> {
        dispatch!(self, campaign_get(id))
    }
    /// Newest first.
    pub async fn campaign_list(
        &self,
        kind: &str,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<CampaignRow>, i64), sqlx::Error> {
        dispatch!(self, campaign_list(kind, limit, offset))
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
        dispatch!(self, campaign_set_status(id, &from, to, now))
    }
    pub async fn campaign_set_total(&self, id: &str, total: i64) -> Result<(), sqlx::Error> {
        dispatch!(self, campaign_set_total(id, total))
    }
    pub async fn campaign_stats(&self, ids: &[String]) -> Result<Vec<CampaignStats>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        dispatch!(self, campaign_stats(&ids))
    }
    /// Marks the rest of a cancelled campaign's queue cancelled.
    pub async fn campaign_cancel_pending(&self, id: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, campaign_cancel_pending(id))
    }

    /// Contacts matching `a` (with an email).
    pub async fn audience_count(&self, a: &Audience) -> Result<i64, sqlx::Error> {
        dispatch!(self, audience_count(a))
    }
    /// One queued ledger row per matching contact; rows already there are kept (idempotent).
    pub async fn campaign_messages_materialize(
        &self,
        m: &Materialize<'_>,
    ) -> Result<u64, sqlx::Error> {
        dispatch!(self, campaign_messages_materialize(m))
    }
    /// Rows of a run that is no longer running, left `sending`, become `unknown`: they may or may
    /// not have reached the server and are never sent again.
    pub async fn messages_orphans_resolve(&self, campaign_id: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, messages_orphans_resolve(campaign_id))
    }
    /// (id, email) of the first `limit` contacts with an email.
    pub async fn contacts_with_email(
        &self,
        limit: i64,
    ) -> Result<Vec<(String, String)>, sqlx::Error> {
        dispatch!(self, contacts_with_email(limit))
    }
    pub async fn contact_id_by_email(&self, email: &str) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, contact_id_by_email(email))
    }
    /// Status and, when deferred, when it is due again.
    pub async fn message_status(
        &self,
        id: &str,
    ) -> Result<Option<(String, Option<i64>)>, sqlx::Error> {
        dispatch!(self, message_status(id))
    }
    /// The ledger row by our id, else by RFC Message-ID.
    pub async fn message_find(
        &self,
        id: Option<&str>,
        rfc_message_id: Option<&str>,
    ) -> Result<Option<MessageRef>, sqlx::Error> {
        dispatch!(self, message_find(id, rfc_message_id))
    }

    /// Records an event; false when its provider id was seen before (ignored). Sets the message's
    /// first delivered/opened/clicked/replied/bounced time.
    pub async fn event_record(&self, e: &EventInsert) -> Result<bool, sqlx::Error> {
        let id = ulid::Ulid::new().to_string();
        dispatch!(self, event_record(&id, e))
    }
    pub async fn event_total(&self) -> Result<i64, sqlx::Error> {
        dispatch!(self, event_total())
    }
    /// Events and distinct messages per type since `since` (ms).
    pub async fn event_counts(&self, since: i64) -> Result<Vec<EventCount>, sqlx::Error> {
        dispatch!(self, event_counts(since))
    }
    pub async fn contact_email_history(
        &self,
        contact_id: &str,
    ) -> Result<(i64, Vec<HistoryCampaign>, Vec<HistoryEvent>), sqlx::Error> {
        dispatch!(self, contact_email_history(contact_id))
    }
    /// Hard bounces recorded for an address since its suppression was last lifted.
    pub async fn bounce_count(&self, email: &str) -> Result<i64, sqlx::Error> {
        dispatch!(self, bounce_count(email))
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
        dispatch!(self, suppression_add(&email, reason, source, now))
    }
    pub async fn suppression_get(&self, email: &str) -> Result<Option<String>, sqlx::Error> {
        let email = email.trim().to_lowercase();
        dispatch!(self, suppression_get(&email))
    }

    pub async fn deliverability_get(&self) -> Result<DeliverabilityRow, sqlx::Error> {
        dispatch!(self, deliverability_get())
    }
    pub async fn deliverability_set(
        &self,
        d: &DeliverabilityRow,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, deliverability_set(d, now))
    }
    /// Sends counted in the given windows, summed over mailboxes when `mailbox` is None.
    pub async fn mailbox_usage(
        &self,
        mailbox: Option<&str>,
        hour_key: &str,
        day_key: &str,
    ) -> Result<MailboxUsage, sqlx::Error> {
        dispatch!(self, mailbox_usage(mailbox, hour_key, day_key))
    }
}

impl Tx {
    /// Ids of a campaign's messages ready to send now, in id order, that no other open
    /// transaction holds (several sending lanes never pick the same row).
    pub async fn message_candidates(
        &mut self,
        campaign_id: &str,
        now: i64,
        limit: i64,
    ) -> Result<Vec<String>, sqlx::Error> {
        dispatch_tx!(self, message_candidates(campaign_id, now, limit))
    }
    pub async fn campaign_insert(&mut self, c: &CampaignRow) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, campaign_insert(c))
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
        dispatch_tx!(self, messages_insert(&rows))
    }
    /// Grants up to `want` sends within the limits and counts them; the number granted.
    pub async fn mailbox_reserve(&mut self, r: &Reserve<'_>) -> Result<i64, sqlx::Error> {
        dispatch_tx!(self, mailbox_reserve(r))
    }
    /// Gives back sends reserved but not claimed.
    pub async fn mailbox_release(&mut self, r: &Reserve<'_>) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, mailbox_release(r))
    }
    /// Marks listed queued/deferred rows whose address is suppressed; their ids.
    pub async fn messages_suppress(&mut self, ids: &[String]) -> Result<Vec<String>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        dispatch_tx!(self, messages_suppress(&ids))
    }
    /// Claims listed queued/deferred rows for this job run.
    pub async fn messages_claim(
        &mut self,
        ids: &[String],
        job_id: &str,
        attempt: i32,
    ) -> Result<Vec<ClaimedMessage>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        dispatch_tx!(self, messages_claim(&ids, job_id, attempt))
    }
    /// Writes each outcome, its `sent`/`bounced` event, and touches the contact.
    pub async fn messages_finish(
        &mut self,
        items: &[MessageFinish<'_>],
    ) -> Result<(), sqlx::Error> {
        for item in items {
            let id = ulid::Ulid::new().to_string();
            dispatch_tx!(self, message_finish(&id, item, item.at))?;
        }
        Ok(())
    }
}
