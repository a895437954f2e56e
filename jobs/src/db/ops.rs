//! What ops do to the queue besides retry and cancel: pause and resume a kind (a paused kind's jobs
//! wait; running ones finish), run a waiting job now, delete a job that is not running, and the bulk
//! forms over a kind and status. The queries are written once for both dialects.

use super::sql::Sql;
use super::*;

/// A bulk action: `retry` (failed, cancelled), `cancel` (waiting; running ones are asked to stop),
/// `delete` (finished) or `run_now` (waiting), over the jobs of `kind` and `status` (each optional).
pub struct JobBulk<'a> {
    pub action: &'a str,
    pub kind: Option<&'a str>,
    pub status: Option<&'a str>,
    pub now: i64,
}

const KIND_PAUSE: Sql = sql!(
    "INSERT INTO paused_kinds (kind, paused_by, paused_at) VALUES (?1, ?2, ?3)
     ON CONFLICT (kind) DO NOTHING"
);
const KIND_RESUME: Sql = sql!("DELETE FROM paused_kinds WHERE kind = ?1");
const KINDS_PAUSED: Sql = sql!("SELECT kind FROM paused_kinds ORDER BY kind");
const JOB_RUN_NOW: Sql = sql!(
    "UPDATE jobs SET run_at = ?2, status = CASE WHEN status = 'scheduled' THEN 'queued' ELSE status END
     WHERE id = ?1 AND status IN ('queued', 'scheduled', 'retrying') RETURNING kind"
);
const JOB_DELETE: Sql =
    sql!("DELETE FROM jobs WHERE id = ?1 AND status <> 'running' RETURNING kind");

/// `AND kind AND status` over `?2`, `?3`; each NULL matches every job. The CASTs type the
/// parameters for Postgres when they are NULL.
macro_rules! bulk_filter {
    () => {
        " AND (CAST(?2 AS TEXT) IS NULL OR kind = ?2) AND (CAST(?3 AS TEXT) IS NULL OR status = ?3)"
    };
}
const BULK_RETRY: Sql = sql!(concat!(
    "UPDATE jobs SET status = 'queued', attempts = 0, run_at = ?1, started_at = NULL,
        finished_at = NULL, locked_by = NULL, cancel_requested = FALSE, progress_percent = NULL,
        progress_message = NULL, result = NULL
     WHERE status IN ('failed', 'cancelled')",
    bulk_filter!()
));
const BULK_CANCEL: Sql = sql!(concat!(
    "UPDATE jobs SET status = 'cancelled', finished_at = ?1, error = 'cancelled'
     WHERE status IN ('queued', 'scheduled', 'retrying')",
    bulk_filter!()
));
/// Running ones are asked to stop, as a single cancel does.
const BULK_CANCEL_RUNNING: Sql = sql!(concat!(
    "UPDATE jobs SET cancel_requested = TRUE WHERE ?1 = ?1 AND status IN ('running')",
    bulk_filter!()
));
const BULK_DELETE: Sql = sql!(concat!(
    "DELETE FROM jobs WHERE ?1 = ?1 AND status IN ('succeeded', 'failed', 'cancelled')",
    bulk_filter!()
));
const BULK_RUN_NOW: Sql = sql!(concat!(
    "UPDATE jobs SET run_at = ?1, status = CASE WHEN status = 'scheduled' THEN 'queued' ELSE status END
     WHERE status IN ('queued', 'scheduled', 'retrying')",
    bulk_filter!()
));

impl Db {
    /// False when the kind was paused already.
    pub async fn kind_pause(
        &self,
        kind: &str,
        by: Option<&str>,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        exec!(self, KIND_PAUSE, kind, by, now).map(|n| n == 1)
    }
    /// False when the kind was not paused.
    pub async fn kind_resume(&self, kind: &str) -> Result<bool, sqlx::Error> {
        exec!(self, KIND_RESUME, kind).map(|n| n == 1)
    }
    pub async fn kinds_paused(&self) -> Result<Vec<String>, sqlx::Error> {
        fetch!(self, fetch_all, query_scalar(KINDS_PAUSED))
    }
    /// The job's kind when it was waiting and now is due.
    pub async fn job_run_now(&self, id: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
        fetch!(self, fetch_optional, query_scalar(JOB_RUN_NOW), id, now)
    }
    /// The job's kind when it existed and was not running.
    pub async fn job_delete(&self, id: &str) -> Result<Option<String>, sqlx::Error> {
        fetch!(self, fetch_optional, query_scalar(JOB_DELETE), id)
    }
    /// Jobs changed (for `cancel`: cancelled plus asked to stop). Run again when Postgres picks it
    /// to break a deadlock: it locks rows in scan order while a worker records a batch of
    /// outcomes in its own order.
    pub async fn jobs_bulk(&self, b: &JobBulk<'_>) -> Result<u64, sqlx::Error> {
        retry_conflicts(|| self.jobs_bulk_once(b)).await
    }
    async fn jobs_bulk_once(&self, b: &JobBulk<'_>) -> Result<u64, sqlx::Error> {
        let (first, extra) = match b.action {
            "retry" => (BULK_RETRY, None),
            "cancel" => (BULK_CANCEL, Some(BULK_CANCEL_RUNNING)),
            "delete" => (BULK_DELETE, None),
            _ => (BULK_RUN_NOW, None),
        };
        let extra = extra.unwrap_or(first);
        let runs = if b.action == "cancel" { 2 } else { 1 };
        on_db_write!(self, pool, [first = first, extra = extra], {
            let mut tx = pool.begin().await?;
            let mut n = 0;
            for sql in [first, extra].into_iter().take(runs) {
                n += sqlx::query(sql)
                    .bind(b.now)
                    .bind(b.kind)
                    .bind(b.status)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected();
            }
            tx.commit().await?;
            Ok(n)
        })
    }
}
