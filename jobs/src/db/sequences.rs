//! Email sequences: sequences, steps, enrollments and reply rules (SQL in sqlite/sequences.rs and
//! postgres/sequences.rs). Steps run in `step_order`, ties by creation.

use super::*;

pub(crate) const SEQUENCE_COLUMNS: &str = "id, name, description, status, trigger_type, \
    trigger_config, enrollment_rules, exit_rules, ab_testing_enabled, ab_test_config, \
    max_daily_enrollments, created_at, updated_at, sending_window";

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
    /// When messages may go out (`SendingWindow`); none: any time.
    pub sending_window: Option<Json<Value>>,
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
    /// One row per step and A/B variant (none when not split).
    pub variant: Option<String>,
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

/// Sequence enrollments as the automation screen counts them (`GET /api/campaign-metrics`).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct ExecutionMetrics {
    /// Active in an active sequence.
    pub active: i64,
    /// Completed, or ended by reaching the goal (a reply, a booked meeting, a new customer).
    pub completed: i64,
    /// Ended any other way (unsubscribed, bounced, no email, a condition or exit rule, archived, unenrolled).
    pub failed: i64,
    /// Active in a paused or draft sequence.
    pub paused: i64,
}

/// A due enrollment leased to a step job.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DueEnrollment {
    pub id: String,
    pub sequence_id: String,
    pub current_step: i32,
    pub next_action_at: i64,
}

/// What a step job needs of one enrollment, its contact and what happened so far, in one read.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EnrollmentRun {
    pub id: String,
    pub contact_id: String,
    pub status: String,
    pub current_step: i32,
    pub next_action_at: Option<i64>,
    pub variant: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub title: Option<String>,
    pub contact_status: String,
    pub score: i32,
    pub tags: Json<Value>,
    pub company_id: Option<String>,
    pub company_name: Option<String>,
    /// The company's state (two-letter code): the recipient's time zone.
    pub company_state: Option<String>,
    /// Messages of this enrollment opened / clicked / replied to.
    pub opened: i64,
    pub clicked: i64,
    pub replied: i64,
    pub suppressed: bool,
    /// A meeting with the contact was booked since enrollment (not cancelled).
    pub meeting_booked: bool,
}

/// One enrollment as the automation screen lists it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EnrollmentState {
    pub id: String,
    pub contact_id: String,
    pub current_step: i32,
    pub next_action_at: Option<i64>,
    pub status: String,
}

/// Moves an enrollment on, only from the state it was read in (a stale run changes nothing), and
/// ends its lease.
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

/// A ledger row by its dedupe key.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct KeyedMessage {
    pub dedupe_key: String,
    pub id: String,
    pub status: String,
    pub next_attempt_at: Option<i64>,
}

impl Tx {
    /// Leases up to `limit` due enrollments of active sequences (never leased, or the lease ended)
    /// until `lease_until`, earliest due first.
    pub async fn enrollments_lease(
        &mut self,
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> Result<Vec<DueEnrollment>, sqlx::Error> {
        dispatch_tx!(self, enrollments_lease(now, lease_until, limit))
    }
    /// Ends a contact's active enrollments (a meeting booked, a reply, ...): how many.
    pub async fn enrollments_exit_contact(
        &mut self,
        contact_id: &str,
        reason: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        dispatch_tx!(self, enrollments_exit_contact(contact_id, reason, now))
    }
    /// False when the enrollment was no longer in the state `a` starts from.
    pub async fn enrollment_advance(&mut self, a: &Advance<'_>) -> Result<bool, sqlx::Error> {
        dispatch_tx!(self, enrollment_advance(a))
    }
}

impl Db {
    /// The enrollments (with contact and engagement) of these ids that still exist.
    pub async fn enrollment_runs(&self, ids: &[String]) -> Result<Vec<EnrollmentRun>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        dispatch!(self, enrollment_runs(&ids))
    }
    /// Ends the leases of these enrollments (a paused sequence: the tick takes them again on resume).
    pub async fn enrollments_release(&self, ids: &[String]) -> Result<(), sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        dispatch!(self, enrollments_release(&ids))
    }
    /// Ends a contact's active enrollments (replied, unsubscribed, bounced).
    pub async fn enrollments_exit_contact(
        &self,
        contact_id: &str,
        reason: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let mut tx = self.begin().await?;
        let n = tx.enrollments_exit_contact(contact_id, reason, now).await?;
        tx.commit().await?;
        Ok(n)
    }
    pub async fn execution_metrics(&self) -> Result<ExecutionMetrics, sqlx::Error> {
        dispatch!(self, execution_metrics())
    }
    /// Enrollments of every sequence with this status, soonest next action first.
    pub async fn executions(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<EnrollmentState>, sqlx::Error> {
        dispatch!(self, executions(status, limit))
    }
    /// Ledger rows of these dedupe keys.
    pub async fn messages_by_keys(
        &self,
        keys: &[String],
    ) -> Result<Vec<KeyedMessage>, sqlx::Error> {
        let keys = Value::from(keys.to_vec()).to_string();
        dispatch!(self, messages_by_keys(&keys))
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
