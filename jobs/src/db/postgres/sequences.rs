//! The sequences queries that differ by dialect (postgres); the rest are in db/sequences.rs. Lists
//! travel as one JSON array read with `jsonb_array_elements_text`.

use sqlx::{AssertSqlSafe, PgConnection, PgPool};

use super::email::AUDIENCE;
use crate::db::{DueEnrollment, Enroll, EnrollmentRow, EnrollmentState, SequenceCounts};

pub async fn sequence_counts(pool: &PgPool, ids: &str) -> Result<Vec<SequenceCounts>, sqlx::Error> {
    sqlx::query_as(
        "SELECT sequence_id, COUNT(*) AS total,
             SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END)::bigint AS active,
             SUM(CASE WHEN status = 'completed' THEN 1 ELSE 0 END)::bigint AS completed
         FROM sequence_enrollments WHERE sequence_id IN (SELECT jsonb_array_elements_text($1::jsonb))
         GROUP BY sequence_id",
    )
    .bind(ids)
    .fetch_all(pool)
    .await
}

pub async fn step_reorder(
    pool: &PgPool,
    sequence_id: &str,
    ids: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE sequence_steps SET updated_at = $3,
             step_order = (SELECT (j.ord - 1)::int FROM jsonb_array_elements_text($2::jsonb) WITH ORDINALITY AS j(value, ord) WHERE j.value = sequence_steps.id)
         WHERE sequence_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))",
    )
    .bind(sequence_id)
    .bind(ids)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn enrollments_insert(pool: &PgPool, e: &Enroll<'_>) -> Result<u64, sqlx::Error> {
    let a = e.audience;
    let done = sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO sequence_enrollments (id, sequence_id, contact_id, status, current_step,
             next_action_at, enrolled_at, updated_at)
         SELECT replace(gen_random_uuid()::text, '-', ''), $6::text, c.id, 'active', 0, $8::bigint, $8::bigint, $8::bigint
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
         WHERE {AUDIENCE}
           AND NOT EXISTS (SELECT 1 FROM sequence_enrollments x WHERE x.sequence_id = $6 AND x.contact_id = c.id)
           AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.email = lower(trim(c.email)))
         ORDER BY c.created_at, c.id
         LIMIT $7"
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
    pool: &PgPool,
    sequence_id: &str,
    status: Option<&str>,
    limit: i64,
    offset: i64,
) -> Result<(Vec<EnrollmentRow>, i64), sqlx::Error> {
    let rows = sqlx::query_as(
        "SELECT e.id, e.sequence_id, e.contact_id, e.status, e.current_step, e.next_action_at,
             e.variant, e.exit_reason, e.enrolled_at, e.completed_at, c.first_name, c.last_name, c.email
         FROM sequence_enrollments e JOIN contacts c ON c.id = e.contact_id
         WHERE e.sequence_id = $1 AND ($2::text IS NULL OR e.status = $2)
         ORDER BY e.next_action_at IS NULL, e.next_action_at, e.enrolled_at, e.id
         LIMIT $3 OFFSET $4",
    )
    .bind(sequence_id)
    .bind(status)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sequence_enrollments WHERE sequence_id = $1 AND ($2::text IS NULL OR status = $2)",
    )
    .bind(sequence_id)
    .bind(status)
    .fetch_one(pool)
    .await?;
    Ok((rows, total))
}

pub async fn enrollments_lease(
    conn: &mut PgConnection,
    now: i64,
    lease_until: i64,
    limit: i64,
) -> Result<Vec<DueEnrollment>, sqlx::Error> {
    // SKIP LOCKED: two ticks at once lease disjoint enrollments.
    sqlx::query_as(
        "UPDATE sequence_enrollments u SET leased_until = $2
         FROM (
             SELECT e.id FROM sequence_enrollments e JOIN email_sequences s ON s.id = e.sequence_id
             WHERE e.status = 'active' AND e.next_action_at <= $1 AND s.status = 'active'
                 AND (e.leased_until IS NULL OR e.leased_until <= $1)
             ORDER BY e.next_action_at LIMIT $3
             FOR UPDATE OF e SKIP LOCKED) d
         WHERE u.id = d.id
         RETURNING u.id, u.sequence_id, u.current_step, u.next_action_at",
    )
    .bind(now)
    .bind(lease_until)
    .bind(limit)
    .fetch_all(conn)
    .await
}

pub async fn executions(
    pool: &PgPool,
    status: Option<&str>,
    limit: i64,
) -> Result<Vec<EnrollmentState>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, contact_id, current_step, next_action_at, status FROM sequence_enrollments
         WHERE $1::text IS NULL OR status = $1
         ORDER BY next_action_at IS NULL, next_action_at, enrolled_at DESC LIMIT $2",
    )
    .bind(status)
    .bind(limit)
    .fetch_all(pool)
    .await
}
