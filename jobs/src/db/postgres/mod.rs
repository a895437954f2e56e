//! Postgres dialect of the queries in [`super`]. Many workers on many machines share one database:
//! claims use `FOR UPDATE SKIP LOCKED`, wake-ups go through `NOTIFY` on [`JOBS_CHANNEL`], and batches
//! travel as arrays (`unnest`) so one statement serves a whole batch.

use sqlx::AssertSqlSafe;
use sqlx::types::Json;
use sqlx::{Executor, PgConnection, PgPool, Postgres, Row};

use super::*;

mod companies;
mod contacts;
mod email;
mod leads;
mod sequences;
mod suppressions;
mod voice;

pub use companies::*;
pub use contacts::*;
pub use email::*;
pub use leads::*;
pub use sequences::*;
pub use suppressions::*;
pub use voice::*;

/// The LISTEN/NOTIFY channel; the payload is the job kind.
pub const JOBS_CHANNEL: &str = "prospector_jobs";

const JOB_COLUMNS: &str = "id, kind, payload, status, attempts, max_attempts, run_at, created_at, \
    started_at, finished_at, locked_by, cancel_requested, progress_percent, progress_message, result, \
    error, idempotency_key, active_key";

pub async fn ping(pool: &PgPool) -> Result<(), sqlx::Error> {
    pool.execute("SELECT 1").await.map(|_| ())
}

pub async fn job_insert(
    conn: &mut PgConnection,
    p: &JobInsert<'_>,
) -> Result<Inserted, sqlx::Error> {
    // Two tries: a conflicting active job may finish between the insert and the look-up.
    for _ in 0..2 {
        let row = sqlx::query(
            "INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, created_at, idempotency_key, active_key)
             VALUES ($1, $2, $3, $4, 0, $5, $6, $7, $8, $9)
             ON CONFLICT DO NOTHING
             RETURNING id, status",
        )
        .bind(p.id)
        .bind(p.kind)
        .bind(Json(p.payload))
        .bind(p.status)
        .bind(p.max_attempts)
        .bind(p.run_at)
        .bind(p.created_at)
        .bind(p.idempotency_key)
        .bind(p.active_key)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some(row) = row {
            return Ok(Inserted {
                id: row.try_get(0)?,
                status: row.try_get(1)?,
                created: true,
            });
        }
        let existing = sqlx::query(
            "SELECT id, status FROM jobs WHERE kind = $1
               AND ((idempotency_key IS NOT NULL AND idempotency_key = $2)
                 OR (active_key IS NOT NULL AND active_key = $3 AND status IN ('queued','scheduled','running','retrying')))
             ORDER BY created_at LIMIT 1",
        )
        .bind(p.kind)
        .bind(p.idempotency_key)
        .bind(p.active_key)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some(row) = existing {
            return Ok(Inserted {
                id: row.try_get(0)?,
                status: row.try_get(1)?,
                created: false,
            });
        }
    }
    Err(sqlx::Error::RowNotFound)
}

pub async fn job_insert_many(pool: &PgPool, p: &JobInsertMany<'_>) -> Result<u64, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let n = sqlx::query(
        "INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, created_at)
         SELECT id, $2, $3, 'queued', 0, $4, $5, $5 FROM unnest($1::text[]) AS t(id)",
    )
    .bind(p.ids)
    .bind(p.kind)
    .bind(Json(p.payload))
    .bind(p.max_attempts)
    .bind(p.now)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    job_notify(&mut tx, p.kind).await?;
    tx.commit().await?;
    Ok(n)
}

pub async fn job_notify(conn: &mut PgConnection, kind: &str) -> Result<(), sqlx::Error> {
    sqlx::query("SELECT pg_notify($1, $2)")
        .bind(JOBS_CHANNEL)
        .bind(kind)
        .execute(conn)
        .await
        .map(|_| ())
}

pub async fn job_get_by_id(pool: &PgPool, id: &str) -> Result<Option<JobRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {JOB_COLUMNS} FROM jobs WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn job_list(pool: &PgPool, p: &JobList<'_>) -> Result<(Vec<JobRow>, i64), sqlx::Error> {
    let filter = "($1::text IS NULL OR kind = $1) AND ($2::text IS NULL OR status = $2)
        AND ($3::text IS NULL OR lower(payload::text) LIKE $3 ESCAPE '\\' OR lower(COALESCE(error, '')) LIKE $3 ESCAPE '\\')
        AND ($4::bigint IS NULL OR created_at >= $4) AND ($5::bigint IS NULL OR created_at < $5)";
    let rows = sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {JOB_COLUMNS} FROM jobs WHERE {filter} ORDER BY created_at DESC, id DESC LIMIT $6 OFFSET $7"
    )))
    .bind(p.kind)
    .bind(p.status)
    .bind(p.text)
    .bind(p.from)
    .bind(p.until)
    .bind(p.limit)
    .bind(p.offset)
    .fetch_all(pool)
    .await?;
    let total: i64 = sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM jobs WHERE {filter}"
    )))
    .bind(p.kind)
    .bind(p.status)
    .bind(p.text)
    .bind(p.from)
    .bind(p.until)
    .fetch_one(pool)
    .await?;
    Ok((rows, total))
}

pub async fn job_fetch(pool: &PgPool, p: &JobFetch<'_>) -> Result<Vec<FetchedJob>, sqlx::Error> {
    sqlx::query_as(
        "UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = $1, started_at = $2,
                finished_at = NULL, cancel_requested = FALSE, progress_percent = NULL, progress_message = NULL
         WHERE id IN (SELECT id FROM jobs
                      WHERE kind = $3 AND status IN ('queued','scheduled','retrying') AND run_at <= $2
                        AND NOT EXISTS (SELECT 1 FROM paused_kinds WHERE kind = $3)
                      ORDER BY run_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
         RETURNING id, payload, attempts, max_attempts",
    )
    .bind(p.worker_id)
    .bind(p.now)
    .bind(p.kind)
    .bind(p.limit)
    .fetch_all(pool)
    .await
}

pub async fn job_next_run_at(pool: &PgPool, kind: &str) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT MIN(run_at) FROM jobs WHERE kind = $1 AND status IN ('queued','scheduled','retrying')",
    )
    .bind(kind)
    .fetch_one(pool)
    .await
}

pub async fn job_finish_batch(pool: &PgPool, p: &JobFinishBatch<'_>) -> Result<(), sqlx::Error> {
    let mut tx = pool.begin().await?;
    // The common case, success, goes as one statement for the whole batch.
    let (ok_ids, ok_results): (Vec<&str>, Vec<Option<String>>) = p
        .items
        .iter()
        .filter_map(|i| match &i.finish {
            Finish::Succeeded { result } => {
                Some((i.id.as_str(), result.as_ref().map(|r| r.to_string())))
            }
            _ => None,
        })
        .unzip();
    if !ok_ids.is_empty() {
        sqlx::query(
            "UPDATE jobs SET status = 'succeeded', finished_at = $2, result = v.result::jsonb, error = NULL,
                    progress_percent = CASE WHEN progress_percent IS NULL THEN NULL ELSE 100 END
             FROM unnest($3::text[], $4::text[]) AS v(id, result)
             WHERE jobs.id = v.id AND jobs.status = 'running' AND jobs.locked_by = $1",
        )
        .bind(p.worker_id)
        .bind(p.now)
        .bind(&ok_ids)
        .bind(&ok_results)
        .execute(&mut *tx)
        .await?;
    }
    for item in p.items {
        let guard = "WHERE id = $1 AND status = 'running' AND locked_by = $2";
        let q = match &item.finish {
            Finish::Retry { run_at, error } => sqlx::query(AssertSqlSafe(format!(
                "UPDATE jobs SET status = 'retrying', run_at = $3, error = $4, locked_by = NULL {guard}"
            )))
            .bind(&item.id)
            .bind(p.worker_id)
            .bind(*run_at)
            .bind(error),
            Finish::Failed { error } => sqlx::query(AssertSqlSafe(format!(
                "UPDATE jobs SET status = 'failed', finished_at = $3, error = $4 {guard}"
            )))
            .bind(&item.id)
            .bind(p.worker_id)
            .bind(p.now)
            .bind(error),
            Finish::Cancelled => sqlx::query(AssertSqlSafe(format!(
                "UPDATE jobs SET status = 'cancelled', finished_at = $3, error = 'cancelled' {guard}"
            )))
            .bind(&item.id)
            .bind(p.worker_id)
            .bind(p.now),
            Finish::Succeeded { .. } => continue,
            Finish::Released => sqlx::query(AssertSqlSafe(format!(
                "UPDATE jobs SET status = 'queued', attempts = attempts - 1, locked_by = NULL,
                        started_at = NULL, run_at = $3 {guard}"
            )))
            .bind(&item.id)
            .bind(p.worker_id)
            .bind(p.now),
        };
        let updated = q.execute(&mut *tx).await?.rows_affected() == 1;
        if updated && let Some((outcome, error)) = item.finish.attempt_record() {
            attempt_insert(&mut tx, item, p.worker_id, p.now, outcome, error).await?;
        }
    }
    tx.commit().await
}

async fn attempt_insert(
    conn: &mut PgConnection,
    item: &FinishItem,
    worker_id: &str,
    now: i64,
    outcome: &str,
    error: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO job_attempts (job_id, attempt, worker_id, started_at, finished_at, outcome, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&item.id)
    .bind(item.attempt)
    .bind(worker_id)
    .bind(item.started_at)
    .bind(now)
    .bind(outcome)
    .bind(error)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn job_progress_set(pool: &PgPool, p: &JobProgress<'_>) -> Result<bool, sqlx::Error> {
    let r = sqlx::query(
        "UPDATE jobs SET progress_percent = $1, progress_message = $2
         WHERE id = $3 AND status = 'running' AND locked_by = $4",
    )
    .bind(p.percent)
    .bind(p.message)
    .bind(p.id)
    .bind(p.worker_id)
    .execute(pool)
    .await?;
    Ok(r.rows_affected() == 1)
}

pub async fn job_cancel(pool: &PgPool, id: &str, now: i64) -> Result<CancelOutcome, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let status: Option<String> = sqlx::query_scalar("SELECT status FROM jobs WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    let outcome = match status.as_deref() {
        None => CancelOutcome::NotFound,
        Some("queued" | "scheduled" | "retrying") => {
            sqlx::query(
                "UPDATE jobs SET status = 'cancelled', finished_at = $2, error = 'cancelled' WHERE id = $1",
            )
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
            CancelOutcome::Cancelled
        }
        Some("running") => {
            sqlx::query("UPDATE jobs SET cancel_requested = TRUE WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await?;
            CancelOutcome::Requested
        }
        Some(other) => CancelOutcome::Finished(other.to_string()),
    };
    tx.commit().await?;
    Ok(outcome)
}

pub async fn job_retry(pool: &PgPool, id: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE jobs SET status = 'queued', attempts = 0, run_at = $2, started_at = NULL, finished_at = NULL,
                locked_by = NULL, cancel_requested = FALSE, progress_percent = NULL, progress_message = NULL,
                result = NULL
         WHERE id = $1 AND status IN ('failed', 'cancelled')
         RETURNING kind",
    )
    .bind(id)
    .bind(now)
    .fetch_optional(pool)
    .await
}

pub async fn job_cancel_requested(
    pool: &PgPool,
    worker_id: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM jobs WHERE locked_by = $1 AND status = 'running' AND cancel_requested",
    )
    .bind(worker_id)
    .fetch_all(pool)
    .await
}

pub async fn job_release(pool: &PgPool, p: &JobRelease<'_>) -> Result<u64, sqlx::Error> {
    let set = "UPDATE jobs SET status = 'queued', attempts = attempts - 1, locked_by = NULL, started_at = NULL
               WHERE locked_by = $1 AND status = 'running'";
    match p.ids {
        None => Ok(sqlx::query(set)
            .bind(p.worker_id)
            .execute(pool)
            .await?
            .rows_affected()),
        Some(ids) => {
            let mut tx = pool.begin().await?;
            let mut n = 0;
            for id in ids {
                n += sqlx::query(AssertSqlSafe(format!("{set} AND id = $2")))
                    .bind(p.worker_id)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            tx.commit().await?;
            Ok(n)
        }
    }
}

pub async fn job_rescue(pool: &PgPool, p: &JobRescue<'_>) -> Result<Vec<Rescued>, sqlx::Error> {
    let mut tx = pool.begin().await?;
    let orphans: Vec<(String, i32, Option<String>, Option<i64>)> = sqlx::query_as(
        "SELECT id, attempts, locked_by, started_at FROM jobs
         WHERE status = 'running'
           AND (locked_by IS NULL OR locked_by NOT IN (SELECT id FROM workers WHERE heartbeat_at >= $1))
         FOR UPDATE SKIP LOCKED",
    )
    .bind(p.cutoff)
    .fetch_all(&mut *tx)
    .await?;
    let mut rescued = Vec::with_capacity(orphans.len());
    for (id, attempt, worker, started_at) in orphans {
        let row: Rescued = sqlx::query_as(
            "UPDATE jobs SET
                 status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'retrying' END,
                 finished_at = CASE WHEN attempts >= max_attempts THEN $2 ELSE NULL END,
                 run_at = $2, locked_by = NULL, error = $3
             WHERE id = $1 RETURNING id, kind, status",
        )
        .bind(&id)
        .bind(p.now)
        .bind(p.error)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO job_attempts (job_id, attempt, worker_id, started_at, finished_at, outcome, error)
             VALUES ($1, $2, $3, $4, $5, 'lost', $6)",
        )
        .bind(&id)
        .bind(attempt)
        .bind(worker)
        .bind(started_at)
        .bind(p.now)
        .bind(p.error)
        .execute(&mut *tx)
        .await?;
        rescued.push(row);
    }
    tx.commit().await?;
    Ok(rescued)
}

pub async fn job_prune(pool: &PgPool, cutoff: i64, batch: i64) -> Result<u64, sqlx::Error> {
    let r = sqlx::query(
        "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs
             WHERE finished_at IS NOT NULL AND finished_at < $1
               AND status IN ('succeeded','failed','cancelled') LIMIT $2)",
    )
    .bind(cutoff)
    .bind(batch)
    .execute(pool)
    .await?;
    Ok(r.rows_affected())
}

pub async fn job_counts(pool: &PgPool) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
    sqlx::query_as("SELECT kind, status, COUNT(*) FROM jobs GROUP BY kind, status")
        .fetch_all(pool)
        .await
}

pub async fn job_oldest_ready(pool: &PgPool, now: i64) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT kind, MIN(run_at) FROM jobs
         WHERE status IN ('queued','scheduled','retrying') AND run_at <= $1 GROUP BY kind",
    )
    .bind(now)
    .fetch_all(pool)
    .await
}

pub async fn job_finished_since(
    pool: &PgPool,
    since: i64,
) -> Result<Vec<FinishedJob>, sqlx::Error> {
    sqlx::query_as(
        "SELECT kind, status, started_at, finished_at FROM jobs
         WHERE finished_at IS NOT NULL AND finished_at >= $1 ORDER BY finished_at DESC LIMIT 100000",
    )
    .bind(since)
    .fetch_all(pool)
    .await
}

pub async fn job_finished_buckets(
    pool: &PgPool,
    since: i64,
    bucket_ms: i64,
) -> Result<Vec<FinishedBucket>, sqlx::Error> {
    sqlx::query_as(
        "SELECT kind, status, (finished_at / $2) * $2 AS bucket, COUNT(*) AS count FROM jobs
         WHERE finished_at IS NOT NULL AND finished_at >= $1
         GROUP BY kind, status, (finished_at / $2) * $2 ORDER BY bucket, kind",
    )
    .bind(since)
    .bind(bucket_ms)
    .fetch_all(pool)
    .await
}

pub async fn job_attempt_list(pool: &PgPool, id: &str) -> Result<Vec<AttemptRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT attempt, worker_id, started_at, finished_at, outcome, error FROM job_attempts
         WHERE job_id = $1 ORDER BY id",
    )
    .bind(id)
    .fetch_all(pool)
    .await
}

pub async fn worker_upsert(pool: &PgPool, w: &WorkerRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO workers (id, hostname, pid, kinds, concurrency, started_at, heartbeat_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
    )
    .bind(&w.id)
    .bind(&w.hostname)
    .bind(w.pid)
    .bind(&w.kinds)
    .bind(w.concurrency)
    .bind(w.started_at)
    .bind(w.heartbeat_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn worker_heartbeat(pool: &PgPool, id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE workers SET heartbeat_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(pool)
        .await
        .map(|_| ())
}

pub async fn worker_delete(pool: &PgPool, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM workers WHERE id = $1")
        .bind(id)
        .execute(pool)
        .await
        .map(|_| ())
}

pub async fn worker_delete_dead(pool: &PgPool, cutoff: i64) -> Result<u64, sqlx::Error> {
    let r = sqlx::query(
        "DELETE FROM workers WHERE heartbeat_at < $1
           AND id NOT IN (SELECT locked_by FROM jobs WHERE status = 'running' AND locked_by IS NOT NULL)",
    )
    .bind(cutoff)
    .execute(pool)
    .await?;
    Ok(r.rows_affected())
}

pub async fn worker_list(pool: &PgPool) -> Result<Vec<WorkerListed>, sqlx::Error> {
    sqlx::query_as(
        "SELECT w.id, w.hostname, w.pid, w.kinds, w.concurrency, w.started_at, w.heartbeat_at,
                (SELECT COUNT(*) FROM jobs j WHERE j.locked_by = w.id AND j.status = 'running') AS running
         FROM workers w ORDER BY w.started_at",
    )
    .fetch_all(pool)
    .await
}

pub async fn user_insert(pool: &PgPool, u: &UserRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO users (id, email, password_hash, first_name, last_name, is_admin, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&u.id)
    .bind(&u.email)
    .bind(&u.password_hash)
    .bind(&u.first_name)
    .bind(&u.last_name)
    .bind(u.is_admin)
    .bind(u.created_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn user_get_by_email(pool: &PgPool, email: &str) -> Result<Option<UserRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, email, password_hash, first_name, last_name, is_admin, created_at FROM users WHERE email = $1",
    )
    .bind(email)
    .fetch_optional(pool)
    .await
}

pub async fn user_count(pool: &PgPool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM users")
        .fetch_one(pool)
        .await
}

pub async fn session_insert(pool: &PgPool, s: &SessionInsert<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO sessions (token_hash, user_id, is_admin, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(s.token_hash)
    .bind(s.user_id)
    .bind(s.is_admin)
    .bind(s.created_at)
    .bind(s.expires_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn session_get(
    pool: &PgPool,
    token_hash: &str,
    now: i64,
) -> Result<Option<(UserRow, bool)>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT u.id, u.email, u.password_hash, u.first_name, u.last_name, u.is_admin, u.created_at,
                s.is_admin AS session_admin
         FROM sessions s JOIN users u ON u.id = s.user_id
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(pool)
    .await?;
    row.map(|r| Ok((UserRow::from_row_pg(&r)?, r.try_get("session_admin")?)))
        .transpose()
}

impl UserRow {
    fn from_row_pg(r: &sqlx::postgres::PgRow) -> Result<Self, sqlx::Error> {
        sqlx::FromRow::from_row(r)
    }
}

pub async fn session_delete(pool: &PgPool, token_hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(pool)
        .await
        .map(|_| ())
}

pub async fn session_delete_expired(pool: &PgPool, now: i64) -> Result<u64, sqlx::Error> {
    Ok(sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
        .bind(now)
        .execute(pool)
        .await?
        .rows_affected())
}

pub async fn audit_insert<'e, E: Executor<'e, Database = Postgres>>(
    conn: E,
    a: &AuditInsert<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO audit_log (id, actor_id, actor_email, action, target, detail, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(a.id)
    .bind(a.actor_id)
    .bind(a.actor_email)
    .bind(a.action)
    .bind(a.target)
    .bind(a.detail.map(Json))
    .bind(a.created_at)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn audit_list(pool: &PgPool, limit: i64) -> Result<Vec<AuditRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, actor_email, action, target, detail, created_at FROM audit_log
         ORDER BY created_at DESC, id DESC LIMIT $1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}
