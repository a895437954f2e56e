//! Email sequences: sequences, steps, enrollments and reply rules. The SQL stands beside each
//! function, in both dialects; what differs by dialect (the list casts, the step reorder, the
//! enrollment insert, the leasing, the nullable-status filters) is in sqlite/sequences.rs and
//! postgres/sequences.rs. Steps run in `step_order`, ties by creation.

use super::sql::Sql;
use super::*;

/// The sequence columns, in the order [`SequenceRow`] reads them.
macro_rules! sequence_columns {
    () => {
        "id, name, description, status, trigger_type, trigger_config, enrollment_rules, exit_rules, \
         ab_testing_enabled, ab_test_config, max_daily_enrollments, created_at, updated_at, \
         sending_window"
    };
}

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

/// A step's kind and delay, read for many sequences at once (the automation overview).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StepOutline {
    pub sequence_id: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub delay_minutes: i32,
}

/// The step columns, in the order [`StepRow`] reads them.
macro_rules! step_columns {
    () => {
        "id, sequence_id, name, type, step_order, config, delay_minutes, conditional_rules, \
         created_at, updated_at"
    };
}

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

/// The reply rule columns, in the order [`ReplyRuleRow`] reads them.
macro_rules! reply_rule_columns {
    () => {
        "id, name, trigger_type, keywords, action, times_triggered, is_active, created_at, updated_at"
    };
}

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

/// Each step of sequence ?1 takes its position in the JSON array of ids ?2, at ?3.
/// Differs: an element's position (json_each's key; WITH ORDINALITY, from 1, in Postgres).
const STEP_REORDER: Sql = Sql {
    sqlite: sql!(
        "UPDATE sequence_steps SET updated_at = ?3,
             step_order = (SELECT CAST(j.key AS INTEGER) FROM json_each(?2) j
                           WHERE j.value = sequence_steps.id)
         WHERE sequence_id = ?1 AND id IN (SELECT value FROM json_each(?2))"
    )
    .sqlite,
    postgres: sql!(
        "UPDATE sequence_steps SET updated_at = ?3,
             step_order = (SELECT (j.ord - 1)::int
                           FROM jsonb_array_elements_text(?2::jsonb) WITH ORDINALITY AS j(value, ord)
                           WHERE j.value = sequence_steps.id)
         WHERE sequence_id = ?1 AND id IN (SELECT jsonb_array_elements_text(?2::jsonb))"
    )
    .postgres,
    generic_plan: false,
};

/// Enrolls the audience (?1..?5) in sequence ?6, up to ?7 contacts, at ?8; never a contact twice,
/// never a suppressed address.
macro_rules! enrollments_insert {
    ($d:ident) => {
        concat!(
            "INSERT INTO sequence_enrollments (id, sequence_id, contact_id, status, current_step,
                 next_action_at, enrolled_at, updated_at)
             SELECT ",
            random_id!($d),
            ", CAST(?6 AS TEXT), c.id, 'active', 0, CAST(?8 AS BIGINT), CAST(?8 AS BIGINT),
                 CAST(?8 AS BIGINT)
             FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
             WHERE ",
            audience!($d),
            " AND NOT EXISTS (SELECT 1 FROM sequence_enrollments x
                              WHERE x.sequence_id = ?6 AND x.contact_id = c.id)
              AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.email = lower(trim(c.email)))
             ORDER BY c.created_at, c.id
             LIMIT ?7"
        )
    };
}
const ENROLLMENTS_INSERT: Sql = per_dialect!(enrollments_insert);

const SEQUENCE_COUNTS: Sql = in_list!(
    "SELECT sequence_id, COUNT(*) AS total,
         CAST(SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END) AS BIGINT) AS active,
         CAST(SUM(CASE WHEN status = 'completed' THEN 1 ELSE 0 END) AS BIGINT) AS completed
     FROM sequence_enrollments WHERE sequence_id IN ",
    1,
    " GROUP BY sequence_id"
);
const ENROLLMENT_LIST: Sql = sql!(
    "SELECT e.id, e.sequence_id, e.contact_id, e.status, e.current_step, e.next_action_at,
         e.variant, e.exit_reason, e.enrolled_at, e.completed_at, c.first_name, c.last_name, c.email
     FROM sequence_enrollments e JOIN contacts c ON c.id = e.contact_id
     WHERE e.sequence_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR e.status = ?2)
     ORDER BY e.next_action_at IS NULL, e.next_action_at, e.enrolled_at, e.id
     LIMIT ?3 OFFSET ?4"
);
const ENROLLMENT_COUNT: Sql = sql!(
    "SELECT COUNT(*) FROM sequence_enrollments
     WHERE sequence_id = ?1 AND (CAST(?2 AS TEXT) IS NULL OR status = ?2)"
);
/// Differs: Postgres skips the enrollments another tick holds, so two ticks lease disjoint sets.
const ENROLLMENTS_LEASE: Sql = locking!(
    "UPDATE sequence_enrollments SET leased_until = ?2
     WHERE id IN (
         SELECT e.id FROM sequence_enrollments e JOIN email_sequences s ON s.id = e.sequence_id
         WHERE e.status = 'active' AND e.next_action_at <= ?1 AND s.status = 'active'
             AND (e.leased_until IS NULL OR e.leased_until <= ?1)
         ORDER BY e.next_action_at LIMIT ?3",
    "FOR UPDATE OF e SKIP LOCKED",
    ") RETURNING id, sequence_id, current_step, next_action_at"
);
const EXECUTIONS: Sql = sql!(
    "SELECT id, contact_id, current_step, next_action_at, status FROM sequence_enrollments
     WHERE CAST(?1 AS TEXT) IS NULL OR status = ?1
     ORDER BY next_action_at IS NULL, next_action_at, enrolled_at DESC LIMIT ?2"
);

const SEQUENCE_LIST: Sql = select!(
    sequence_columns,
    "email_sequences",
    "ORDER BY created_at DESC, id DESC"
);
const SEQUENCE_GET: Sql = select!(sequence_columns, "email_sequences", "WHERE id = ?1");
const SEQUENCES_BY_TRIGGER: Sql = select!(
    sequence_columns,
    "email_sequences",
    "WHERE status = 'active' AND trigger_type = ?1
         ORDER BY created_at, id"
);
const SEQUENCE_INSERT: Sql = sql!(concat!(
    "INSERT INTO email_sequences (",
    sequence_columns!(),
    ")
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
));
const SEQUENCE_UPDATE: Sql = sql!(
    "UPDATE email_sequences SET name = ?2, description = ?3, status = ?4, trigger_type = ?5,
         trigger_config = ?6, enrollment_rules = ?7, exit_rules = ?8, ab_testing_enabled = ?9,
         ab_test_config = ?10, max_daily_enrollments = ?11, updated_at = ?12,
         sending_window = ?13
     WHERE id = ?1"
);
const SEQUENCE_DELETE: Sql = sql!("DELETE FROM email_sequences WHERE id = ?1");

const STEP_LIST: Sql = select!(
    step_columns,
    "sequence_steps",
    "WHERE sequence_id = ?1
         ORDER BY step_order, created_at, id"
);
const STEP_OUTLINES: Sql = in_list!(
    "SELECT sequence_id, type, delay_minutes FROM sequence_steps WHERE sequence_id IN ",
    1,
    " ORDER BY sequence_id, step_order, created_at, id"
);
const STEP_INSERT: Sql = sql!(concat!(
    "INSERT INTO sequence_steps (",
    step_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
));
const STEP_UPDATE: Sql = sql!(
    "UPDATE sequence_steps SET name = ?3, type = ?4, step_order = ?5, config = ?6,
         delay_minutes = ?7, conditional_rules = ?8, updated_at = ?9
     WHERE id = ?1 AND sequence_id = ?2"
);
const STEP_DELETE: Sql = sql!("DELETE FROM sequence_steps WHERE id = ?1 AND sequence_id = ?2");
/// Parks the active enrollments at position ?2 at -(?3 + 1), out of the way of the other moves,
/// and ends their lease: a step job holding them finds them moved and leaves them alone.
const ENROLLMENTS_STEP_PARK: Sql = sql!(
    "UPDATE sequence_enrollments SET current_step = -(?3 + 1), leased_until = NULL, updated_at = ?4
     WHERE sequence_id = ?1 AND status = 'active' AND current_step = ?2"
);
const ENROLLMENTS_STEP_UNPARK: Sql = sql!(
    "UPDATE sequence_enrollments SET current_step = -current_step - 1
     WHERE sequence_id = ?1 AND current_step < 0"
);
const STEP_SENT_TIMES: Sql =
    sql!("SELECT sent_at FROM email_messages WHERE step_id = ?1 AND sent_at IS NOT NULL");

const ENROLLMENTS_SINCE: Sql =
    sql!("SELECT COUNT(*) FROM sequence_enrollments WHERE sequence_id = ?1 AND enrolled_at >= ?2");
const ENROLLMENT_EXIT: Sql = sql!(
    "UPDATE sequence_enrollments SET status = 'exited', exit_reason = ?3, next_action_at = NULL,
         updated_at = ?4, completed_at = ?4
     WHERE id = ?1 AND sequence_id = ?2 AND status = 'active'"
);
const ENROLLMENTS_EXIT_ALL: Sql = sql!(
    "UPDATE sequence_enrollments SET status = 'exited', exit_reason = ?2, next_action_at = NULL,
         updated_at = ?3, completed_at = ?3
     WHERE sequence_id = ?1 AND status = 'active'"
);
/// An out-of-office reply: the contact's active enrollments wait until `?2` (their next step is not
/// brought forward if it was due later anyway, and one waiting for nothing stays so).
const ENROLLMENTS_PAUSE_CONTACT: Sql = sql!(
    "UPDATE sequence_enrollments SET next_action_at = ?2, updated_at = ?3
     WHERE contact_id = ?1 AND status = 'active' AND next_action_at < ?2"
);
const ENROLLMENTS_EXIT_CONTACT: Sql = sql!(
    "UPDATE sequence_enrollments SET status = 'exited', exit_reason = ?2, next_action_at = NULL,
         updated_at = ?3, completed_at = ?3
     WHERE contact_id = ?1 AND status = 'active'"
);
const ENROLLMENT_ADVANCE: Sql = sql!(
    "UPDATE sequence_enrollments SET current_step = ?4, next_action_at = ?5, status = ?6,
         exit_reason = ?7, variant = coalesce(?8, variant), updated_at = ?9, leased_until = NULL,
         completed_at = CASE WHEN ?6 = 'active' THEN completed_at ELSE ?9 END
     WHERE id = ?1 AND status = 'active' AND current_step = ?2 AND next_action_at = ?3"
);
/// ?1: the enrollment ids, a JSON array.
const ENROLLMENT_RUNS: Sql = in_list!(
    "SELECT e.id, e.contact_id, e.status, e.current_step, e.next_action_at, e.variant,
         c.first_name, c.last_name, c.email, c.title, c.status AS contact_status, c.score, c.tags,
         c.company_id, co.name AS company_name, co.state AS company_state,
         (SELECT COUNT(m.opened_at) FROM email_messages m WHERE m.enrollment_id = e.id) AS opened,
         (SELECT COUNT(m.clicked_at) FROM email_messages m WHERE m.enrollment_id = e.id) AS clicked,
         (SELECT COUNT(m.replied_at) FROM email_messages m WHERE m.enrollment_id = e.id) AS replied,
         EXISTS (SELECT 1 FROM suppressions x WHERE x.email = lower(trim(c.email))) AS suppressed,
         EXISTS (SELECT 1 FROM meetings mt WHERE mt.contact_id = e.contact_id
             AND mt.created_at >= e.enrolled_at AND mt.status <> 'cancelled') AS meeting_booked
     FROM sequence_enrollments e
     JOIN contacts c ON c.id = e.contact_id
     LEFT JOIN companies co ON co.id = c.company_id
     WHERE e.id IN ",
    1,
    ""
);
/// ?1: the enrollment ids, a JSON array.
const ENROLLMENTS_RELEASE: Sql = in_list!(
    "UPDATE sequence_enrollments SET leased_until = NULL WHERE id IN ",
    1,
    ""
);
/// ?1: the dedupe keys, a JSON array.
const MESSAGES_BY_KEYS: Sql = in_list!(
    "SELECT dedupe_key, id, status, next_attempt_at FROM email_messages
     WHERE dedupe_key IN ",
    1,
    ""
);
const EXECUTION_METRICS: Sql = sql!(
    "SELECT
         COUNT(*) FILTER (WHERE e.status = 'active' AND s.status = 'active') AS active,
         COUNT(*) FILTER (WHERE e.status = 'completed' OR (e.status = 'exited'
             AND e.exit_reason IN ('replied', 'meeting_booked', 'became_customer'))) AS completed,
         COUNT(*) FILTER (WHERE e.status = 'exited'
             AND coalesce(e.exit_reason, '') NOT IN ('replied', 'meeting_booked', 'became_customer')) AS failed,
         COUNT(*) FILTER (WHERE e.status = 'active' AND s.status <> 'active') AS paused
     FROM sequence_enrollments e JOIN email_sequences s ON s.id = e.sequence_id"
);

const REPLY_RULE_LIST: Sql = select!(reply_rule_columns, "reply_rules", "ORDER BY created_at, id");
const REPLY_RULE_GET: Sql = select!(reply_rule_columns, "reply_rules", "WHERE id = ?1");
const REPLY_RULE_INSERT: Sql = sql!(concat!(
    "INSERT INTO reply_rules (",
    reply_rule_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
));
const REPLY_RULE_UPDATE: Sql = sql!(
    "UPDATE reply_rules SET name = ?2, trigger_type = ?3, keywords = ?4, action = ?5,
         is_active = ?6, updated_at = ?7 WHERE id = ?1"
);
const REPLY_RULE_TRIGGERED: Sql =
    sql!("UPDATE reply_rules SET times_triggered = times_triggered + 1 WHERE id = ?1");
const REPLY_RULE_DELETE: Sql = sql!("DELETE FROM reply_rules WHERE id = ?1");

impl Tx {
    /// Leases up to `limit` due enrollments of active sequences (never leased, or the lease ended)
    /// until `lease_until`, earliest due first.
    pub async fn enrollments_lease(
        &mut self,
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> Result<Vec<DueEnrollment>, sqlx::Error> {
        fetch_tx!(
            self,
            fetch_all,
            query_as(ENROLLMENTS_LEASE),
            now,
            lease_until,
            limit
        )
    }
    /// Ends a contact's active enrollments (a meeting booked, a reply, ...): how many.
    pub async fn enrollments_exit_contact(
        &mut self,
        contact_id: &str,
        reason: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        exec_tx!(self, ENROLLMENTS_EXIT_CONTACT, contact_id, reason, now)
    }
    /// Moves the sequence's active enrollments from step position `from` to `to` for each
    /// `(from, to)`, all at once (a swap is two moves).
    pub async fn enrollments_move(
        &mut self,
        sequence_id: &str,
        moves: &[(i32, i32)],
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let moves: Vec<_> = moves.iter().filter(|(from, to)| from != to).collect();
        if moves.is_empty() {
            return Ok(());
        }
        for (from, to) in moves {
            exec_tx!(
                &mut *self,
                ENROLLMENTS_STEP_PARK,
                sequence_id,
                from,
                to,
                now
            )?;
        }
        exec_tx!(self, ENROLLMENTS_STEP_UNPARK, sequence_id).map(|_| ())
    }
    /// False when the enrollment was no longer in the state `a` starts from.
    pub async fn enrollment_advance(&mut self, a: &Advance<'_>) -> Result<bool, sqlx::Error> {
        let done = exec_tx!(
            self,
            ENROLLMENT_ADVANCE,
            a.id,
            a.from_step,
            a.from_due,
            a.to_step,
            a.next_action_at,
            a.status,
            a.exit_reason,
            a.variant,
            a.now
        )?;
        Ok(done > 0)
    }
}

impl Db {
    /// The enrollments (with contact and engagement) of these ids that still exist.
    pub async fn enrollment_runs(&self, ids: &[String]) -> Result<Vec<EnrollmentRun>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        fetch!(self, fetch_all, query_as(ENROLLMENT_RUNS), &ids)
    }
    /// Ends the leases of these enrollments (a paused sequence: the tick takes them again on resume).
    pub async fn enrollments_release(&self, ids: &[String]) -> Result<(), sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        exec!(self, ENROLLMENTS_RELEASE, &ids).map(|_| ())
    }
    /// Holds a contact's active enrollments until `until` (an out-of-office reply): how many.
    pub async fn enrollments_pause_contact(
        &self,
        contact_id: &str,
        until: i64,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        exec!(self, ENROLLMENTS_PAUSE_CONTACT, contact_id, until, now)
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
        fetch!(self, fetch_one, query_as(EXECUTION_METRICS))
    }
    /// Enrollments of every sequence with this status, soonest next action first.
    pub async fn executions(
        &self,
        status: Option<&str>,
        limit: i64,
    ) -> Result<Vec<EnrollmentState>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(EXECUTIONS), status, limit)
    }
    /// Ledger rows of these dedupe keys.
    pub async fn messages_by_keys(
        &self,
        keys: &[String],
    ) -> Result<Vec<KeyedMessage>, sqlx::Error> {
        let keys = Value::from(keys.to_vec()).to_string();
        fetch!(self, fetch_all, query_as(MESSAGES_BY_KEYS), &keys)
    }

    /// Newest first.
    pub async fn sequence_list(&self) -> Result<Vec<SequenceRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(SEQUENCE_LIST))
    }
    /// Active sequences with this trigger.
    pub async fn sequences_by_trigger(
        &self,
        trigger: &str,
    ) -> Result<Vec<SequenceRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(SEQUENCES_BY_TRIGGER), trigger)
    }
    pub async fn sequence_get(&self, id: &str) -> Result<Option<SequenceRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(SEQUENCE_GET), id)
    }
    pub async fn sequence_counts(
        &self,
        ids: &[String],
    ) -> Result<Vec<SequenceCounts>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        fetch!(self, fetch_all, query_as(SEQUENCE_COUNTS), &ids)
    }
    pub async fn sequence_insert(&self, s: &SequenceRow) -> Result<(), sqlx::Error> {
        exec!(
            self,
            SEQUENCE_INSERT,
            &s.id,
            &s.name,
            &s.description,
            &s.status,
            &s.trigger_type,
            &s.trigger_config,
            &s.enrollment_rules,
            &s.exit_rules,
            s.ab_testing_enabled,
            &s.ab_test_config,
            s.max_daily_enrollments,
            s.created_at,
            s.updated_at,
            &s.sending_window
        )
        .map(|_| ())
    }
    /// Writes every mutable column; rows changed (0: gone).
    pub async fn sequence_update(&self, s: &SequenceRow) -> Result<u64, sqlx::Error> {
        exec!(
            self,
            SEQUENCE_UPDATE,
            &s.id,
            &s.name,
            &s.description,
            &s.status,
            &s.trigger_type,
            &s.trigger_config,
            &s.enrollment_rules,
            &s.exit_rules,
            s.ab_testing_enabled,
            &s.ab_test_config,
            s.max_daily_enrollments,
            s.updated_at,
            &s.sending_window
        )
    }
    pub async fn sequence_delete(&self, id: &str) -> Result<u64, sqlx::Error> {
        exec!(self, SEQUENCE_DELETE, id)
    }

    /// In running order.
    pub async fn step_list(&self, sequence_id: &str) -> Result<Vec<StepRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(STEP_LIST), sequence_id)
    }
    /// The steps of these sequences in running order, one statement for all of them.
    pub async fn step_outlines(&self, ids: &[String]) -> Result<Vec<StepOutline>, sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        fetch!(self, fetch_all, query_as(STEP_OUTLINES), &ids)
    }
    pub async fn step_insert(&self, s: &StepRow) -> Result<(), sqlx::Error> {
        exec!(
            self,
            STEP_INSERT,
            &s.id,
            &s.sequence_id,
            &s.name,
            &s.kind,
            s.step_order,
            &s.config,
            s.delay_minutes,
            &s.conditional_rules,
            s.created_at,
            s.updated_at
        )
        .map(|_| ())
    }
    pub async fn step_update(&self, s: &StepRow) -> Result<u64, sqlx::Error> {
        exec!(
            self,
            STEP_UPDATE,
            &s.id,
            &s.sequence_id,
            &s.name,
            &s.kind,
            s.step_order,
            &s.config,
            s.delay_minutes,
            &s.conditional_rules,
            s.updated_at
        )
    }
    /// Deletes a step; `moves` keep the active enrollments on the steps they were at (see
    /// [`Tx::enrollments_move`]). Rows deleted (0: gone).
    pub async fn step_delete(
        &self,
        sequence_id: &str,
        id: &str,
        moves: &[(i32, i32)],
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        let mut tx = self.begin().await?;
        let n = exec_tx!(&mut tx, STEP_DELETE, id, sequence_id)?;
        if n > 0 {
            tx.enrollments_move(sequence_id, moves, now).await?;
        }
        tx.commit().await?;
        Ok(n)
    }
    /// Sets `step_order` to each id's position in `ids` (all of the sequence's steps), and applies
    /// `moves` to the active enrollments, in one transaction.
    pub async fn step_reorder(
        &self,
        sequence_id: &str,
        ids: &[String],
        moves: &[(i32, i32)],
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let ids = Value::from(ids.to_vec()).to_string();
        let mut tx = self.begin().await?;
        exec_tx!(&mut tx, STEP_REORDER, sequence_id, &ids, now)?;
        tx.enrollments_move(sequence_id, moves, now).await?;
        tx.commit().await
    }

    /// Enrollments made since `since` (the daily allowance).
    pub async fn enrollments_since(
        &self,
        sequence_id: &str,
        since: i64,
    ) -> Result<i64, sqlx::Error> {
        fetch!(
            self,
            fetch_one,
            query_scalar(ENROLLMENTS_SINCE),
            sequence_id,
            since
        )
    }
    /// Enrolls matching contacts not enrolled before (up to `limit`); how many were enrolled.
    pub async fn enrollments_insert(&self, e: &Enroll<'_>) -> Result<u64, sqlx::Error> {
        let a = e.audience;
        exec!(
            self,
            ENROLLMENTS_INSERT,
            a.score_min,
            a.score_max,
            a.statuses_json(),
            a.states_json(),
            a.ids_json(),
            e.sequence_id,
            e.limit,
            e.now
        )
    }
    /// Soonest next action first.
    pub async fn enrollment_list(
        &self,
        sequence_id: &str,
        status: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<EnrollmentRow>, i64), sqlx::Error> {
        on_db!(
            self,
            pool,
            [list = ENROLLMENT_LIST, count = ENROLLMENT_COUNT],
            {
                let rows = sqlx::query_as(list)
                    .bind(sequence_id)
                    .bind(status)
                    .bind(limit)
                    .bind(offset)
                    .fetch_all(pool)
                    .await?;
                let total = sqlx::query_scalar(count)
                    .bind(sequence_id)
                    .bind(status)
                    .fetch_one(pool)
                    .await?;
                Ok((rows, total))
            }
        )
    }
    /// Ends an active enrollment with `reason`; false when there was none.
    pub async fn enrollment_exit(
        &self,
        sequence_id: &str,
        id: &str,
        reason: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        let done = exec!(self, ENROLLMENT_EXIT, id, sequence_id, reason, now)?;
        Ok(done > 0)
    }

    /// Ends every active enrollment of a sequence (archived): how many.
    pub async fn enrollments_exit_all(
        &self,
        sequence_id: &str,
        reason: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        exec!(self, ENROLLMENTS_EXIT_ALL, sequence_id, reason, now)
    }

    pub async fn reply_rule_list(&self) -> Result<Vec<ReplyRuleRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(REPLY_RULE_LIST))
    }
    pub async fn reply_rule_get(&self, id: &str) -> Result<Option<ReplyRuleRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(REPLY_RULE_GET), id)
    }
    pub async fn reply_rule_insert(&self, r: &ReplyRuleRow) -> Result<(), sqlx::Error> {
        exec!(
            self,
            REPLY_RULE_INSERT,
            &r.id,
            &r.name,
            &r.trigger_type,
            &r.keywords,
            &r.action,
            r.times_triggered,
            r.is_active,
            r.created_at,
            r.updated_at
        )
        .map(|_| ())
    }
    pub async fn reply_rule_update(&self, r: &ReplyRuleRow) -> Result<u64, sqlx::Error> {
        exec!(
            self,
            REPLY_RULE_UPDATE,
            &r.id,
            &r.name,
            &r.trigger_type,
            &r.keywords,
            &r.action,
            r.is_active,
            r.updated_at
        )
    }
    /// When each message of a step was handed to the server (lateness figures).
    pub async fn step_sent_times(&self, step_id: &str) -> Result<Vec<i64>, sqlx::Error> {
        fetch!(self, fetch_all, query_scalar(STEP_SENT_TIMES), step_id)
    }
    /// Counts one firing of a rule.
    pub async fn reply_rule_triggered(&self, id: &str) -> Result<(), sqlx::Error> {
        exec!(self, REPLY_RULE_TRIGGERED, id).map(|_| ())
    }
    pub async fn reply_rule_delete(&self, id: &str) -> Result<u64, sqlx::Error> {
        exec!(self, REPLY_RULE_DELETE, id)
    }
}
