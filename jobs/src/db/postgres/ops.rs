//! ops queries (paused kinds, run now, delete, bulk actions), postgres dialect.

use sqlx::PgPool;

use crate::db::JobBulk;

pub async fn kind_pause(
    pool: &PgPool,
    kind: &str,
    by: Option<&str>,
    now: i64,
) -> Result<bool, sqlx::Error> {
    sqlx::query(
        "INSERT INTO paused_kinds (kind, paused_by, paused_at) VALUES ($1, $2, $3) ON CONFLICT (kind) DO NOTHING",
    )
    .bind(kind)
    .bind(by)
    .bind(now)
    .execute(pool)
    .await
    .map(|r| r.rows_affected() == 1)
}

pub async fn kind_resume(pool: &PgPool, kind: &str) -> Result<bool, sqlx::Error> {
    sqlx::query("DELETE FROM paused_kinds WHERE kind = $1")
        .bind(kind)
        .execute(pool)
        .await
        .map(|r| r.rows_affected() == 1)
}

pub async fn kinds_paused(pool: &PgPool) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT kind FROM paused_kinds ORDER BY kind")
        .fetch_all(pool)
        .await
}

pub async fn job_run_now(pool: &PgPool, id: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE jobs SET run_at = $2, status = CASE WHEN status = 'scheduled' THEN 'queued' ELSE status END
         WHERE id = $1 AND status IN ('queued', 'scheduled', 'retrying') RETURNING kind",
    )
    .bind(id)
    .bind(now)
    .fetch_optional(pool)
    .await
}

pub async fn job_delete(pool: &PgPool, id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("DELETE FROM jobs WHERE id = $1 AND status <> 'running' RETURNING kind")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// `(action's states) AND kind AND status` as SQL over `$2`, `$3` (kind and status may be NULL).
fn bulk_filter(states: &str) -> String {
    format!(
        "status IN ({states}) AND ($2::text IS NULL OR kind = $2) AND ($3::text IS NULL OR status = $3)"
    )
}

pub async fn jobs_bulk(pool: &PgPool, b: &JobBulk<'_>) -> Result<u64, sqlx::Error> {
    let (sql, extra) = match b.action {
        "retry" => (
            format!(
                "UPDATE jobs SET status = 'queued', attempts = 0, run_at = $1, started_at = NULL,
                    finished_at = NULL, locked_by = NULL, cancel_requested = FALSE, progress_percent = NULL,
                    progress_message = NULL, result = NULL
                 WHERE {}",
                bulk_filter("'failed', 'cancelled'")
            ),
            None,
        ),
        "cancel" => (
            format!(
                "UPDATE jobs SET status = 'cancelled', finished_at = $1, error = 'cancelled' WHERE {}",
                bulk_filter("'queued', 'scheduled', 'retrying'")
            ),
            // Running ones are asked to stop, as a single cancel does.
            Some(format!(
                "UPDATE jobs SET cancel_requested = TRUE WHERE $1 = $1 AND {}",
                bulk_filter("'running'")
            )),
        ),
        "delete" => (
            format!(
                "DELETE FROM jobs WHERE $1 = $1 AND {}",
                bulk_filter("'succeeded', 'failed', 'cancelled'")
            ),
            None,
        ),
        _ => (
            format!(
                "UPDATE jobs SET run_at = $1, status = CASE WHEN status = 'scheduled' THEN 'queued' ELSE status END
                 WHERE {}",
                bulk_filter("'queued', 'scheduled', 'retrying'")
            ),
            None,
        ),
    };
    let mut tx = pool.begin().await?;
    let mut n = 0;
    for sql in std::iter::once(sql).chain(extra) {
        n += sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(b.now)
            .bind(b.kind)
            .bind(b.status)
            .execute(&mut *tx)
            .await?
            .rows_affected();
    }
    tx.commit().await?;
    Ok(n)
}
