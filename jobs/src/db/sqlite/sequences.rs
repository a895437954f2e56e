//! sequences queries, sqlite dialect. Lists travel as one JSON array read with `json_each`.

use sqlx::{AssertSqlSafe, SqliteConnection, SqlitePool};

use super::email::AUDIENCE;
use crate::db::{
    Advance, DueEnrollment, Enroll, EnrollmentRow, EnrollmentRun, EnrollmentState,
    ExecutionMetrics, KeyedMessage, REPLY_RULE_COLUMNS, ReplyRuleRow, SEQUENCE_COLUMNS,
    STEP_COLUMNS, SequenceCounts, SequenceRow, StepRow, StepStats,
};

pub async fn sequence_list(pool: &SqlitePool) -> Result<Vec<SequenceRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {SEQUENCE_COLUMNS} FROM email_sequences ORDER BY created_at DESC, id DESC"
    )))
    .fetch_all(pool)
    .await
}

pub async fn sequence_get(pool: &SqlitePool, id: &str) -> Result<Option<SequenceRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {SEQUENCE_COLUMNS} FROM email_sequences WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn sequence_counts(
    pool: &SqlitePool,
    ids: &str,
) -> Result<Vec<SequenceCounts>, sqlx::Error> {
    sqlx::query_as(
        "SELECT sequence_id, COUNT(*) AS total,
             SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END) AS active,
             SUM(CASE WHEN status = 'completed' THEN 1 ELSE 0 END) AS completed
         FROM sequence_enrollments WHERE sequence_id IN (SELECT value FROM json_each(?1))
         GROUP BY sequence_id",
    )
    .bind(ids)
    .fetch_all(pool)
    .await
}

pub async fn sequence_insert(pool: &SqlitePool, s: &SequenceRow) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO email_sequences ({SEQUENCE_COLUMNS})
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)"
    )))
    .bind(&s.id)
    .bind(&s.name)
    .bind(&s.description)
    .bind(&s.status)
    .bind(&s.trigger_type)
    .bind(&s.trigger_config)
    .bind(&s.enrollment_rules)
    .bind(&s.exit_rules)
    .bind(s.ab_testing_enabled)
    .bind(&s.ab_test_config)
    .bind(s.max_daily_enrollments)
    .bind(s.created_at)
    .bind(s.updated_at)
    .bind(&s.sending_window)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn sequence_update(pool: &SqlitePool, s: &SequenceRow) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE email_sequences SET name = ?2, description = ?3, status = ?4, trigger_type = ?5,
             trigger_config = ?6, enrollment_rules = ?7, exit_rules = ?8, ab_testing_enabled = ?9,
             ab_test_config = ?10, max_daily_enrollments = ?11, updated_at = ?12,
             sending_window = ?13
         WHERE id = ?1",
    )
    .bind(&s.id)
    .bind(&s.name)
    .bind(&s.description)
    .bind(&s.status)
    .bind(&s.trigger_type)
    .bind(&s.trigger_config)
    .bind(&s.enrollment_rules)
    .bind(&s.exit_rules)
    .bind(s.ab_testing_enabled)
    .bind(&s.ab_test_config)
    .bind(s.max_daily_enrollments)
    .bind(s.updated_at)
    .bind(&s.sending_window)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

pub async fn sequence_delete(pool: &SqlitePool, id: &str) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM email_sequences WHERE id = ?1")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

pub async fn step_list(pool: &SqlitePool, sequence_id: &str) -> Result<Vec<StepRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {STEP_COLUMNS} FROM sequence_steps WHERE sequence_id = ?1
         ORDER BY step_order, created_at, id"
    )))
    .bind(sequence_id)
    .fetch_all(pool)
    .await
}

pub async fn step_stats(
    pool: &SqlitePool,
    sequence_id: &str,
) -> Result<Vec<StepStats>, sqlx::Error> {
    sqlx::query_as(
        "SELECT m.step_id AS step_id, m.variant, COUNT(m.sent_at) AS sent, COUNT(m.opened_at) AS opened,
             COUNT(m.clicked_at) AS clicked, COUNT(m.replied_at) AS replied, COUNT(m.bounced_at) AS bounced
         FROM email_messages m JOIN sequence_steps s ON s.id = m.step_id
         WHERE s.sequence_id = ?1 GROUP BY m.step_id, m.variant",
    )
    .bind(sequence_id)
    .fetch_all(pool)
    .await
}

pub async fn step_insert(pool: &SqlitePool, s: &StepRow) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO sequence_steps ({STEP_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
    )))
    .bind(&s.id)
    .bind(&s.sequence_id)
    .bind(&s.name)
    .bind(&s.kind)
    .bind(s.step_order)
    .bind(&s.config)
    .bind(s.delay_minutes)
    .bind(&s.conditional_rules)
    .bind(s.created_at)
    .bind(s.updated_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn step_update(pool: &SqlitePool, s: &StepRow) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE sequence_steps SET name = ?3, type = ?4, step_order = ?5, config = ?6,
             delay_minutes = ?7, conditional_rules = ?8, updated_at = ?9
         WHERE id = ?1 AND sequence_id = ?2",
    )
    .bind(&s.id)
    .bind(&s.sequence_id)
    .bind(&s.name)
    .bind(&s.kind)
    .bind(s.step_order)
    .bind(&s.config)
    .bind(s.delay_minutes)
    .bind(&s.conditional_rules)
    .bind(s.updated_at)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

pub async fn step_delete(
    pool: &SqlitePool,
    sequence_id: &str,
    id: &str,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM sequence_steps WHERE id = ?1 AND sequence_id = ?2")
        .bind(id)
        .bind(sequence_id)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

pub async fn step_reorder(
    pool: &SqlitePool,
    sequence_id: &str,
    ids: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE sequence_steps SET updated_at = ?3,
             step_order = (SELECT CAST(j.key AS INTEGER) FROM json_each(?2) j WHERE j.value = sequence_steps.id)
         WHERE sequence_id = ?1 AND id IN (SELECT value FROM json_each(?2))",
    )
    .bind(sequence_id)
    .bind(ids)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn enrollments_since(
    pool: &SqlitePool,
    sequence_id: &str,
    since: i64,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM sequence_enrollments WHERE sequence_id = ?1 AND enrolled_at >= ?2",
    )
    .bind(sequence_id)
    .bind(since)
    .fetch_one(pool)
    .await
}

pub async fn enrollments_insert(pool: &SqlitePool, e: &Enroll<'_>) -> Result<u64, sqlx::Error> {
    let a = e.audience;
    let done = sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO sequence_enrollments (id, sequence_id, contact_id, status, current_step,
             next_action_at, enrolled_at, updated_at)
         SELECT lower(hex(randomblob(16))), ?6, c.id, 'active', 0, ?8, ?8, ?8
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
         WHERE {AUDIENCE}
           AND NOT EXISTS (SELECT 1 FROM sequence_enrollments x WHERE x.sequence_id = ?6 AND x.contact_id = c.id)
           AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.email = lower(trim(c.email)))
         ORDER BY c.created_at, c.id
         LIMIT ?7"
    )))
    .bind(a.score_min)
    .bind(a.score_max)
    .bind(a.statuses_json())
    .bind(a.states_json())
    .bind(a.ids_json())
    .bind(e.sequence_id)
    .bind(e.limit)
    .bind(e.now)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

pub async fn enrollment_list(
    pool: &SqlitePool,
    sequence_id: &str,
    status: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<EnrollmentRow>, i64), sqlx::Error> {
    let rows = sqlx::query_as(
        "SELECT e.id, e.sequence_id, e.contact_id, e.status, e.current_step, e.next_action_at,
             e.variant, e.exit_reason, e.enrolled_at, e.completed_at, c.first_name, c.last_name, c.email
         FROM sequence_enrollments e JOIN contacts c ON c.id = e.contact_id
         WHERE e.sequence_id = ?1 AND (?2 IS NULL OR e.status = ?2)
         ORDER BY e.next_action_at IS NULL, e.next_action_at, e.enrolled_at, e.id
         LIMIT ?3 OFFSET ?4",
    )
    .bind(sequence_id)
    .bind(status)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sequence_enrollments WHERE sequence_id = ?1 AND (?2 IS NULL OR status = ?2)",
    )
    .bind(sequence_id)
    .bind(status)
    .fetch_one(pool)
    .await?;
    Ok((rows, total))
}

pub async fn enrollment_exit(
    pool: &SqlitePool,
    sequence_id: &str,
    id: &str,
    reason: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE sequence_enrollments SET status = 'exited', exit_reason = ?3, next_action_at = NULL,
             updated_at = ?4, completed_at = ?4
         WHERE id = ?1 AND sequence_id = ?2 AND status = 'active'",
    )
    .bind(id)
    .bind(sequence_id)
    .bind(reason)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn enrollments_exit_all(
    pool: &SqlitePool,
    sequence_id: &str,
    reason: &str,
    now: i64,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE sequence_enrollments SET status = 'exited', exit_reason = ?2, next_action_at = NULL,
             updated_at = ?3, completed_at = ?3
         WHERE sequence_id = ?1 AND status = 'active'",
    )
    .bind(sequence_id)
    .bind(reason)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

pub async fn reply_rule_list(pool: &SqlitePool) -> Result<Vec<ReplyRuleRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {REPLY_RULE_COLUMNS} FROM reply_rules ORDER BY created_at, id"
    )))
    .fetch_all(pool)
    .await
}

pub async fn reply_rule_get(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<ReplyRuleRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {REPLY_RULE_COLUMNS} FROM reply_rules WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn reply_rule_insert(pool: &SqlitePool, r: &ReplyRuleRow) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO reply_rules ({REPLY_RULE_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
    )))
    .bind(&r.id)
    .bind(&r.name)
    .bind(&r.trigger_type)
    .bind(&r.keywords)
    .bind(&r.action)
    .bind(r.times_triggered)
    .bind(r.is_active)
    .bind(r.created_at)
    .bind(r.updated_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn reply_rule_update(pool: &SqlitePool, r: &ReplyRuleRow) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE reply_rules SET name = ?2, trigger_type = ?3, keywords = ?4, action = ?5,
             is_active = ?6, updated_at = ?7 WHERE id = ?1",
    )
    .bind(&r.id)
    .bind(&r.name)
    .bind(&r.trigger_type)
    .bind(&r.keywords)
    .bind(&r.action)
    .bind(r.is_active)
    .bind(r.updated_at)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

pub async fn reply_rule_delete(pool: &SqlitePool, id: &str) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM reply_rules WHERE id = ?1")
        .bind(id)
        .execute(pool)
        .await?;
    Ok(done.rows_affected())
}

pub async fn enrollments_exit_contact(
    conn: &mut SqliteConnection,
    contact_id: &str,
    reason: &str,
    now: i64,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE sequence_enrollments SET status = 'exited', exit_reason = ?2, next_action_at = NULL,
             updated_at = ?3, completed_at = ?3
         WHERE contact_id = ?1 AND status = 'active'",
    )
    .bind(contact_id)
    .bind(reason)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}

pub async fn reply_rule_triggered(pool: &SqlitePool, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE reply_rules SET times_triggered = times_triggered + 1 WHERE id = ?1")
        .bind(id)
        .execute(pool)
        .await
        .map(|_| ())
}

pub async fn step_sent_times(pool: &SqlitePool, step_id: &str) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT sent_at FROM email_messages WHERE step_id = ?1 AND sent_at IS NOT NULL",
    )
    .bind(step_id)
    .fetch_all(pool)
    .await
}

pub async fn sequences_by_trigger(
    pool: &SqlitePool,
    trigger: &str,
) -> Result<Vec<SequenceRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {SEQUENCE_COLUMNS} FROM email_sequences WHERE status = 'active' AND trigger_type = ?1
         ORDER BY created_at, id"
    )))
    .bind(trigger)
    .fetch_all(pool)
    .await
}

pub async fn enrollments_lease(
    conn: &mut SqliteConnection,
    now: i64,
    lease_until: i64,
    limit: i64,
) -> Result<Vec<DueEnrollment>, sqlx::Error> {
    sqlx::query_as(
        "UPDATE sequence_enrollments SET leased_until = ?2
         WHERE id IN (
             SELECT e.id FROM sequence_enrollments e JOIN email_sequences s ON s.id = e.sequence_id
             WHERE e.status = 'active' AND e.next_action_at <= ?1 AND s.status = 'active'
                 AND (e.leased_until IS NULL OR e.leased_until <= ?1)
             ORDER BY e.next_action_at LIMIT ?3)
         RETURNING id, sequence_id, current_step, next_action_at",
    )
    .bind(now)
    .bind(lease_until)
    .bind(limit)
    .fetch_all(conn)
    .await
}

pub async fn enrollment_advance(
    conn: &mut SqliteConnection,
    a: &Advance<'_>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE sequence_enrollments SET current_step = ?4, next_action_at = ?5, status = ?6,
             exit_reason = ?7, variant = coalesce(?8, variant), updated_at = ?9, leased_until = NULL,
             completed_at = CASE WHEN ?6 = 'active' THEN completed_at ELSE ?9 END
         WHERE id = ?1 AND status = 'active' AND current_step = ?2 AND next_action_at = ?3",
    )
    .bind(a.id)
    .bind(a.from_step)
    .bind(a.from_due)
    .bind(a.to_step)
    .bind(a.next_action_at)
    .bind(a.status)
    .bind(a.exit_reason)
    .bind(a.variant)
    .bind(a.now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn enrollment_runs(
    pool: &SqlitePool,
    ids: &str,
) -> Result<Vec<EnrollmentRun>, sqlx::Error> {
    sqlx::query_as(
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
         WHERE e.id IN (SELECT value FROM json_each(?1))",
    )
    .bind(ids)
    .fetch_all(pool)
    .await
}

pub async fn enrollments_release(pool: &SqlitePool, ids: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sequence_enrollments SET leased_until = NULL WHERE id IN (SELECT value FROM json_each(?1))")
        .bind(ids)
        .execute(pool)
        .await
        .map(|_| ())
}

pub async fn messages_by_keys(
    pool: &SqlitePool,
    keys: &str,
) -> Result<Vec<KeyedMessage>, sqlx::Error> {
    sqlx::query_as(
        "SELECT dedupe_key, id, status, next_attempt_at FROM email_messages
         WHERE dedupe_key IN (SELECT value FROM json_each(?1))",
    )
    .bind(keys)
    .fetch_all(pool)
    .await
}

pub async fn execution_metrics(pool: &SqlitePool) -> Result<ExecutionMetrics, sqlx::Error> {
    sqlx::query_as(
        "SELECT
             COUNT(*) FILTER (WHERE e.status = 'active' AND s.status = 'active') AS active,
             COUNT(*) FILTER (WHERE e.status = 'completed' OR (e.status = 'exited'
                 AND e.exit_reason IN ('replied', 'meeting_booked', 'became_customer'))) AS completed,
             COUNT(*) FILTER (WHERE e.status = 'exited'
                 AND coalesce(e.exit_reason, '') NOT IN ('replied', 'meeting_booked', 'became_customer')) AS failed,
             COUNT(*) FILTER (WHERE e.status = 'active' AND s.status <> 'active') AS paused
         FROM sequence_enrollments e JOIN email_sequences s ON s.id = e.sequence_id",
    )
    .fetch_one(pool)
    .await
}

pub async fn executions(
    pool: &SqlitePool,
    status: Option<&str>,
    limit: i64,
) -> Result<Vec<EnrollmentState>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, contact_id, current_step, next_action_at, status FROM sequence_enrollments
         WHERE ?1 IS NULL OR status = ?1
         ORDER BY next_action_at IS NULL, next_action_at, enrolled_at DESC LIMIT ?2",
    )
    .bind(status)
    .bind(limit)
    .fetch_all(pool)
    .await
}
