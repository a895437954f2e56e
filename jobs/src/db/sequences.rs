//! Email sequences: sequences, steps, enrollments and reply rules (SQL in sqlite/sequences.rs and
//! postgres/sequences.rs). Steps run in `step_order`, ties by creation.

use super::*;

pub(crate) const SEQUENCE_COLUMNS: &str = "id, name, description, status, trigger_type, \
    trigger_config, enrollment_rules, exit_rules, ab_testing_enabled, ab_test_config, \
    max_daily_enrollments, created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SequenceRow {
    pub id: String,
    pub name: String,
    pub description: String,
    pub status: String,
    pub trigger_type: String,
    pub trigger_config: Json<Value>,
    pub enrollment_rules: Json<Value>,
    pub exit_rules: Json<Value>,
    pub ab_testing_enabled: bool,
    pub ab_test_config: Option<Json<Value>>,
    pub max_daily_enrollments: i32,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct SequenceCounts {
    pub sequence_id: String,
    pub total: i64,
    pub active: i64,
    pub completed: i64,
}

pub(crate) const STEP_COLUMNS: &str = "id, sequence_id, name, type, step_order, config, \
    delay_minutes, conditional_rules, created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StepRow {
    pub id: String,
    pub sequence_id: String,
    pub name: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub step_order: i32,
    pub config: Json<Value>,
    pub delay_minutes: i32,
    pub conditional_rules: Option<Json<Value>>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// Ledger counts of one step's messages.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct StepStats {
    pub step_id: String,
    pub sent: i64,
    pub opened: i64,
    pub clicked: i64,
    pub replied: i64,
    pub bounced: i64,
}

/// An enrollment with the contact it is about.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EnrollmentRow {
    pub id: String,
    pub sequence_id: String,
    pub contact_id: String,
    pub status: String,
    pub current_step: i32,
    pub next_action_at: Option<i64>,
    pub variant: Option<String>,
    pub exit_reason: Option<String>,
    pub enrolled_at: i64,
    pub completed_at: Option<i64>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
}

pub struct Enroll<'a> {
    pub sequence_id: &'a str,
    pub audience: &'a Audience,
    /// At most this many new enrollments (what is left of today's allowance).
    pub limit: i64,
    pub now: i64,
}

pub(crate) const REPLY_RULE_COLUMNS: &str =
    "id, name, trigger_type, keywords, action, times_triggered, is_active, created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReplyRuleRow {
    pub id: String,
    pub name: String,
    pub trigger_type: String,
    pub keywords: Json<Value>,
    pub action: String,
    pub times_triggered: i32,
    pub is_active: bool,
    pub created_at: i64,
    pub updated_at: i64,
}

/// An enrollment whose next step is due.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DueEnrollment {
    pub id: String,
    pub current_step: i32,
    pub next_action_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EnrollmentState {
    pub id: String,
    pub sequence_id: String,
    pub contact_id: String,
    pub status: String,
    pub current_step: i32,
    pub next_action_at: Option<i64>,
    pub variant: Option<String>,
}

/// Moves an enrollment on, only from the state it was read in (a stale run changes nothing).
pub struct Advance<'a> {
    pub id: &'a str,
    pub from_step: i32,
    pub from_due: i64,
    pub to_step: i32,
    pub next_action_at: Option<i64>,
    /// `active`, `completed` or `exited`.
    pub status: &'a str,
    pub exit_reason: Option<&'a str>,
    pub variant: Option<&'a str>,
    pub now: i64,
}

impl Db {
    /// Active enrollments of active sequences due by `now`, earliest first.
    pub async fn enrollments_due(
        &self,
        now: i64,
        limit: i64,
    ) -> Result<Vec<DueEnrollment>, sqlx::Error> {
        dispatch!(self, enrollments_due(now, limit))
    }
    pub async fn enrollment_state(&self, id: &str) -> Result<Option<EnrollmentState>, sqlx::Error> {
        dispatch!(self, enrollment_state(id))
    }
    /// False when the enrollment was no longer in the state `a` starts from.
    pub async fn enrollment_advance(&self, a: &Advance<'_>) -> Result<bool, sqlx::Error> {
        dispatch!(self, enrollment_advance(a))
    }
    /// Ends a contact's active enrollments (replied, unsubscribed, bounced).
    pub async fn enrollments_exit_contact(
        &self,
        contact_id: &str,
        reason: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        dispatch!(self, enrollments_exit_contact(contact_id, reason, now))
    }
    /// Messages of the enrollment with a first open, click or reply: (opened, clicked, replied).
    pub async fn enrollment_engagement(&self, id: &str) -> Result<(i64, i64, i64), sqlx::Error> {
        dispatch!(self, enrollment_engagement(id))
    }
    /// The ledger row of a dedupe key: (id, status).
    pub async fn message_by_key(&self, key: &str) -> Result<Option<(String, String)>, sqlx::Error> {
        dispatch!(self, message_by_key(key))
    }

    /// Newest first.
    pub async fn sequence_list(&self) -> Result<Vec<SequenceRow>, sqlx::Error> {
        dispatch!(self, sequence_list())
    }
    /// Active sequences with this trigger.
    pub async fn sequences_by_trigger(
        &self,
        trigger: &str,
    ) -> Result<Vec<SequenceRow>, sqlx::Error> {
        dispatch!(self, sequences_by_trigger(trigger))
    }
    pub async fn sequence_get(&self, id: &str) -> Result<Option<SequenceRow>, sqlx::Error> {
        dispatch!(self, sequence_get(id))
    }
    pub async fn sequence_counts(
        &self,
        ids: &[String],
    ) -> Result<Vec<SequenceCounts>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        dispatch!(self, sequence_counts(&ids))
    }
    pub async fn sequence_insert(&self, s: &SequenceRow) -> Result<(), sqlx::Error> {
        dispatch!(self, sequence_insert(s))
    }
    /// Writes every mutable column; rows changed (0: gone).
    pub async fn sequence_update(&self, s: &SequenceRow) -> Result<u64, sqlx::Error> {
        dispatch!(self, sequence_update(s))
    }
    pub async fn sequence_delete(&self, id: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, sequence_delete(id))
    }

    /// In running order.
    pub async fn step_list(&self, sequence_id: &str) -> Result<Vec<StepRow>, sqlx::Error> {
        dispatch!(self, step_list(sequence_id))
    }
    pub async fn step_stats(&self, sequence_id: &str) -> Result<Vec<StepStats>, sqlx::Error> {
        dispatch!(self, step_stats(sequence_id))
    }
    pub async fn step_insert(&self, s: &StepRow) -> Result<(), sqlx::Error> {
        dispatch!(self, step_insert(s))
    }
    pub async fn step_update(&self, s: &StepRow) -> Result<u64, sqlx::Error> {
        dispatch!(self, step_update(s))
    }
    pub async fn step_delete(&self, sequence_id: &str, id: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, step_delete(sequence_id, id))
    }
    /// Sets `step_order` to each id's position in `ids` (all of the sequence's steps).
    pub async fn step_reorder(
        &self,
        sequence_id: &str,
        ids: &[String],
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        dispatch!(self, step_reorder(sequence_id, &ids, now))
    }

    /// Enrollments made since `since` (the daily allowance).
    pub async fn enrollments_since(
        &self,
        sequence_id: &str,
        since: i64,
    ) -> Result<i64, sqlx::Error> {
        dispatch!(self, enrollments_since(sequence_id, since))
    }
    /// Enrolls matching contacts not enrolled before (up to `limit`); how many were enrolled.
    pub async fn enrollments_insert(&self, e: &Enroll<'_>) -> Result<u64, sqlx::Error> {
        dispatch!(self, enrollments_insert(e))
    }
    /// Soonest next action first.
    pub async fn enrollment_list(
        &self,
        sequence_id: &str,
        status: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<EnrollmentRow>, i64), sqlx::Error> {
        dispatch!(self, enrollment_list(sequence_id, status, limit, offset))
    }
    /// Ends an active enrollment with `reason`; false when there was none.
    pub async fn enrollment_exit(
        &self,
        sequence_id: &str,
        id: &str,
        reason: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, enrollment_exit(sequence_id, id, reason, now))
    }

    /// Ends every active enrollment of a sequence (archived): how many.
    pub async fn enrollments_exit_all(
        &self,
        sequence_id: &str,
        reason: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        dispatch!(self, enrollments_exit_all(sequence_id, reason, now))
    }

    pub async fn reply_rule_list(&self) -> Result<Vec<ReplyRuleRow>, sqlx::Error> {
        dispatch!(self, reply_rule_list())
    }
    pub async fn reply_rule_get(&self, id: &str) -> Result<Option<ReplyRuleRow>, sqlx::Error> {
        dispatch!(self, reply_rule_get(id))
    }
    pub async fn reply_rule_insert(&self, r: &ReplyRuleRow) -> Result<(), sqlx::Error> {
        dispatch!(self, reply_rule_insert(r))
    }
    pub async fn reply_rule_update(&self, r: &ReplyRuleRow) -> Result<u64, sqlx::Error> {
        dispatch!(self, reply_rule_update(r))
    }
    /// When each message of a step was handed to the server (lateness figures).
    pub async fn step_sent_times(&self, step_id: &str) -> Result<Vec<i64>, sqlx::Error> {
        dispatch!(self, step_sent_times(step_id))
    }
    /// Counts one firing of a rule.
    pub async fn reply_rule_triggered(&self, id: &str) -> Result<(), sqlx::Error> {
        dispatch!(self, reply_rule_triggered(id))
    }
    pub async fn reply_rule_delete(&self, id: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, reply_rule_delete(id))
    }
}
