//! The job tables: insert, claim, finish, cancel, retry, rescue and prune jobs, their attempts, and
//! the workers' rows. Written once for both dialects; what only Postgres has (a batch's successes
//! finished over arrays, `NOTIFY`) is in `postgres/queue.rs`.

use serde_json::Value;
use sqlx::Row;
use sqlx::types::Json;

use super::sql::Sql;
use super::*;

pub struct JobInsert<'a> {
    pub id: &'a str,
    pub kind: &'a str,
    pub payload: &'a Value,
    pub status: &'a str,
    pub max_attempts: i32,
    pub run_at: i64,
    pub created_at: i64,
    pub idempotency_key: Option<&'a str>,
    /// Unique among active jobs only (see migration 0006).
    pub active_key: Option<&'a str>,
}

/// The result of an insert: the job's id and status, and whether this call created it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inserted {
    pub id: String,
    pub status: String,
    pub created: bool,
}

/// Many jobs of one kind in one statement (benchmarks, fan-out); no idempotency keys.
pub struct JobInsertMany<'a> {
    pub ids: &'a [String],
    pub kind: &'a str,
    pub payload: &'a Value,
    pub max_attempts: i32,
    pub now: i64,
}

pub struct JobList<'a> {
    pub kind: Option<&'a str>,
    pub status: Option<&'a str>,
    /// `%text%` (LIKE-escaped, lower case) matched against the payload and the error.
    pub text: Option<&'a str>,
    /// Created from (ms, inclusive) / before (ms, exclusive).
    pub from: Option<i64>,
    pub until: Option<i64>,
    pub limit: i64,
    pub offset: i64,
}

pub struct JobFetch<'a> {
    pub kind: &'a str,
    pub worker_id: &'a str,
    pub now: i64,
    pub limit: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FetchedJob {
    pub id: String,
    pub payload: Json<Value>,
    pub attempts: i32,
    pub max_attempts: i32,
}

/// How one run of a job ended, as the worker reports it.
#[derive(Debug, Clone)]
pub enum Finish {
    Succeeded {
        result: Option<Value>,
    },
    /// Back to the queue at `run_at` (a retry with backoff).
    Retry {
        run_at: i64,
        error: String,
    },
    Failed {
        error: String,
    },
    Cancelled,
    /// Not run to its end by this worker (shutdown): back to the queue, the attempt not counted.
    Released,
}

impl Finish {
    /// The outcome and error an attempt row records; success and release write none.
    pub fn attempt_record(&self) -> Option<(&'static str, &str)> {
        match self {
            Self::Retry { error, .. } => Some(("retry", error.as_str())),
            Self::Failed { error } => Some(("failed", error.as_str())),
            Self::Cancelled => Some(("cancelled", "cancelled")),
            Self::Succeeded { .. } | Self::Released => None,
        }
    }
}

#[derive(Debug, Clone)]
pub struct FinishItem {
    pub id: String,
    pub attempt: i32,
    pub started_at: i64,
    pub finish: Finish,
}

pub struct JobFinishBatch<'a> {
    pub worker_id: &'a str,
    pub now: i64,
    pub items: &'a [FinishItem],
}

pub struct JobProgress<'a> {
    pub id: &'a str,
    pub worker_id: &'a str,
    pub percent: i32,
    pub message: &'a str,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CancelOutcome {
    NotFound,
    /// It had not started: it never will.
    Cancelled,
    /// It is running: its worker was asked to stop it.
    Requested,
    /// Already finished, with this status.
    Finished(String),
}

pub struct JobRelease<'a> {
    pub worker_id: &'a str,
    /// `None`: every job this worker still holds.
    pub ids: Option<&'a [String]>,
}

pub struct JobRescue<'a> {
    pub now: i64,
    /// Workers whose heartbeat is older than this are dead.
    pub cutoff: i64,
    pub error: &'a str,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Rescued {
    pub id: String,
    pub kind: String,
    pub status: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct JobRow {
    pub id: String,
    pub kind: String,
    pub payload: Json<Value>,
    pub status: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub run_at: i64,
    pub created_at: i64,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
    pub locked_by: Option<String>,
    pub cancel_requested: bool,
    pub progress_percent: Option<i32>,
    pub progress_message: Option<String>,
    pub result: Option<Json<Value>>,
    pub error: Option<String>,
    pub idempotency_key: Option<String>,
    pub active_key: Option<String>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FinishedJob {
    pub kind: String,
    pub status: String,
    pub started_at: Option<i64>,
    pub finished_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct FinishedBucket {
    pub kind: String,
    pub status: String,
    /// Start of the bucket (ms since the epoch).
    pub bucket: i64,
    pub count: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AttemptRow {
    pub attempt: i32,
    pub worker_id: Option<String>,
    pub started_at: Option<i64>,
    pub finished_at: i64,
    pub outcome: String,
    pub error: String,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkerRow {
    pub id: String,
    pub hostname: String,
    pub pid: i32,
    pub kinds: String,
    pub concurrency: i32,
    pub started_at: i64,
    pub heartbeat_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct WorkerListed {
    pub id: String,
    pub hostname: String,
    pub pid: i32,
    pub kinds: String,
    pub concurrency: i32,
    pub started_at: i64,
    pub heartbeat_at: i64,
    pub running: i64,
}

macro_rules! job_columns {
    () => {
        "id, kind, payload, status, attempts, max_attempts, run_at, created_at, started_at, finished_at,
         locked_by, cancel_requested, progress_percent, progress_message, result, error,
         idempotency_key, active_key"
    };
}
/// The job list's filters over `?1`..`?5`; each NULL matches every job. The CASTs type the
/// parameters for Postgres when they are NULL.
macro_rules! job_filter {
    () => {
        "(CAST(?1 AS TEXT) IS NULL OR kind = ?1) AND (CAST(?2 AS TEXT) IS NULL OR status = ?2)
         AND (CAST(?3 AS TEXT) IS NULL OR lower(CAST(payload AS TEXT)) LIKE ?3 ESCAPE '\\'
              OR lower(COALESCE(error, '')) LIKE ?3 ESCAPE '\\')
         AND (CAST(?4 AS BIGINT) IS NULL OR created_at >= ?4)
         AND (CAST(?5 AS BIGINT) IS NULL OR created_at < ?5)"
    };
}
/// Only the worker that holds a running job may finish it.
macro_rules! finish_guard {
    () => {
        " WHERE id = ?1 AND status = 'running' AND locked_by = ?2"
    };
}

const PING: Sql = sql!("SELECT 1");
const JOB_INSERT: Sql = sql!(
    "INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, created_at,
                       idempotency_key, active_key)
     VALUES (?1, ?2, ?3, ?4, 0, ?5, ?6, ?7, ?8, ?9)
     ON CONFLICT DO NOTHING
     RETURNING id, status"
);
/// Jobs of one kind, one per id of the JSON array ?1.
macro_rules! job_insert_many {
    ($d:ident) => {
        concat!(
            "INSERT INTO jobs (id, kind, payload, status, attempts, max_attempts, run_at, created_at)
             SELECT value, ?2, ?3, 'queued', 0, ?4, ?5, ?5 FROM ",
            json_rows!($d, 1)
        )
    };
}
const JOB_INSERT_MANY: Sql = per_dialect!(job_insert_many);
const JOB_HOLDING_KEY: Sql = sql!(
    "SELECT id, status FROM jobs WHERE kind = ?1
       AND ((idempotency_key IS NOT NULL AND idempotency_key = ?2)
         OR (active_key IS NOT NULL AND active_key = ?3
             AND status IN ('queued','scheduled','running','retrying')))
     ORDER BY created_at LIMIT 1"
);
const JOB_GET: Sql = select!(job_columns, "jobs", "WHERE id = ?1");
const JOB_LIST: Sql = sql!(concat!(
    "SELECT ",
    job_columns!(),
    " FROM jobs WHERE ",
    job_filter!(),
    " ORDER BY created_at DESC, id DESC LIMIT ?6 OFFSET ?7"
));
const JOB_LIST_COUNT: Sql = sql!(concat!("SELECT COUNT(*) FROM jobs WHERE ", job_filter!()));
/// One kind's part of [`Db::job_recent`], followed by the kind.
const JOB_RECENT_OF_KIND: Sql = sql!(concat!(
    "SELECT * FROM (SELECT ",
    job_columns!(),
    " FROM jobs WHERE kind = "
));
/// One statement claims a batch. Differs: Postgres skips rows other workers hold; SQLite's one
/// write lock serialises the claims already.
const JOB_FETCH: Sql = locking!(
    "UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_by = ?1, started_at = ?2,
            finished_at = NULL, cancel_requested = FALSE, progress_percent = NULL,
            progress_message = NULL
     WHERE id IN (SELECT id FROM jobs
                  WHERE kind = ?3 AND status IN ('queued','scheduled','retrying') AND run_at <= ?2
                    AND NOT EXISTS (SELECT 1 FROM paused_kinds WHERE kind = ?3)
                  ORDER BY run_at, id LIMIT ?4",
    "FOR UPDATE SKIP LOCKED",
    ") RETURNING id, payload, attempts, max_attempts"
);
const JOB_NEXT_RUN_AT: Sql = sql!(
    "SELECT MIN(run_at) FROM jobs WHERE kind = ?1 AND status IN ('queued','scheduled','retrying')"
);
const JOB_RETRYING: Sql = sql!(concat!(
    "UPDATE jobs SET status = 'retrying', run_at = ?3, error = ?4, locked_by = NULL",
    finish_guard!()
));
const JOB_FAILED: Sql = sql!(concat!(
    "UPDATE jobs SET status = 'failed', finished_at = ?3, error = ?4",
    finish_guard!()
));
const JOB_CANCELLED: Sql = sql!(concat!(
    "UPDATE jobs SET status = 'cancelled', finished_at = ?3, error = 'cancelled'",
    finish_guard!()
));
const JOB_RELEASED: Sql = sql!(concat!(
    "UPDATE jobs SET status = 'queued', attempts = attempts - 1, locked_by = NULL,
            started_at = NULL, run_at = ?3",
    finish_guard!()
));
const ATTEMPT_INSERT: Sql = sql!(
    "INSERT INTO job_attempts (job_id, attempt, worker_id, started_at, finished_at, outcome, error)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
);
const JOB_PROGRESS: Sql = sql!(
    "UPDATE jobs SET progress_percent = ?1, progress_message = ?2
     WHERE id = ?3 AND status = 'running' AND locked_by = ?4"
);
const JOB_STATUS: Sql = sql!("SELECT status FROM jobs WHERE id = ?1");
const JOB_CANCEL_WAITING: Sql = sql!(
    "UPDATE jobs SET status = 'cancelled', finished_at = ?2, error = 'cancelled' WHERE id = ?1"
);
const JOB_CANCEL_RUNNING: Sql = sql!("UPDATE jobs SET cancel_requested = TRUE WHERE id = ?1");
const JOB_RETRY: Sql = sql!(
    "UPDATE jobs SET status = 'queued', attempts = 0, run_at = ?2, started_at = NULL,
            finished_at = NULL, locked_by = NULL, cancel_requested = FALSE, progress_percent = NULL,
            progress_message = NULL, result = NULL
     WHERE id = ?1 AND status IN ('failed', 'cancelled')
     RETURNING kind"
);
const JOB_CANCEL_REQUESTED: Sql =
    sql!("SELECT id FROM jobs WHERE locked_by = ?1 AND status = 'running' AND cancel_requested");
/// Back to the queue, the attempt not counted: the running jobs worker ?1 holds.
macro_rules! job_release {
    () => {
        "UPDATE jobs SET status = 'queued', attempts = attempts - 1, locked_by = NULL,
             started_at = NULL
         WHERE locked_by = ?1 AND status = 'running'"
    };
}
const JOB_RELEASE_ALL: Sql = sql!(job_release!());
const JOB_RELEASE_ONE: Sql = sql!(concat!(job_release!(), " AND id = ?2"));
/// Differs: Postgres skips the rows another rescuer holds.
const JOB_ORPHANS: Sql = locking!(
    "SELECT id, attempts, locked_by, started_at FROM jobs
     WHERE status = 'running'
       AND (locked_by IS NULL OR locked_by NOT IN (SELECT id FROM workers WHERE heartbeat_at >= ?1))",
    "FOR UPDATE SKIP LOCKED",
    ""
);
const JOB_RESCUE: Sql = sql!(
    "UPDATE jobs SET
         status = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'retrying' END,
         finished_at = CASE WHEN attempts >= max_attempts THEN ?2 ELSE NULL END,
         run_at = ?2, locked_by = NULL, error = ?3
     WHERE id = ?1 RETURNING id, kind, status"
);
const ATTEMPT_LOST: Sql = sql!(
    "INSERT INTO job_attempts (job_id, attempt, worker_id, started_at, finished_at, outcome, error)
     VALUES (?1, ?2, ?3, ?4, ?5, 'lost', ?6)"
);
const JOB_PRUNE: Sql = sql!(
    "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs
         WHERE finished_at IS NOT NULL AND finished_at < ?1
           AND status IN ('succeeded','failed','cancelled') LIMIT ?2)"
);
const JOB_COUNTS: Sql = sql!("SELECT kind, status, COUNT(*) FROM jobs GROUP BY kind, status");
const JOB_OLDEST_READY: Sql = sql!(
    "SELECT kind, MIN(run_at) FROM jobs
     WHERE status IN ('queued','scheduled','retrying') AND run_at <= ?1 GROUP BY kind"
);
/// Per kind, when its longest-running job started (the `jobs_running` index holds only those).
const JOB_OLDEST_RUNNING: Sql = sql!(
    "SELECT kind, MIN(started_at) FROM jobs WHERE status = 'running' AND started_at IS NOT NULL GROUP BY kind"
);
const JOB_FINISHED_SINCE: Sql = sql!(
    "SELECT kind, status, started_at, finished_at FROM jobs
     WHERE finished_at IS NOT NULL AND finished_at >= ?1 ORDER BY finished_at DESC LIMIT 100000"
);
const JOB_FINISHED_BUCKETS: Sql = sql!(
    "SELECT kind, status, (finished_at / ?2) * ?2 AS bucket, COUNT(*) AS count FROM jobs
     WHERE finished_at IS NOT NULL AND finished_at >= ?1
     GROUP BY kind, status, (finished_at / ?2) * ?2 ORDER BY bucket, kind"
);
const ATTEMPT_LIST: Sql = sql!(
    "SELECT attempt, worker_id, started_at, finished_at, outcome, error FROM job_attempts
     WHERE job_id = ?1 ORDER BY id"
);
const WORKER_UPSERT: Sql = sql!(
    "INSERT INTO workers (id, hostname, pid, kinds, concurrency, started_at, heartbeat_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
     ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at"
);
const WORKER_HEARTBEAT: Sql = sql!("UPDATE workers SET heartbeat_at = ?2 WHERE id = ?1");
const WORKER_DELETE: Sql = sql!("DELETE FROM workers WHERE id = ?1");
const WORKER_DELETE_DEAD: Sql = sql!(
    "DELETE FROM workers WHERE heartbeat_at < ?1
       AND id NOT IN (SELECT locked_by FROM jobs WHERE status = 'running' AND locked_by IS NOT NULL)"
);
const WORKER_LIST: Sql = sql!(
    "SELECT w.id, w.hostname, w.pid, w.kinds, w.concurrency, w.started_at, w.heartbeat_at,
            (SELECT COUNT(*) FROM jobs j WHERE j.locked_by = w.id AND j.status = 'running') AS running
     FROM workers w ORDER BY w.started_at"
);

impl Db {
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        exec!(self, PING).map(|_| ())
    }

    pub async fn job_insert(&self, p: &JobInsert<'_>) -> Result<Inserted, sqlx::Error> {
        let mut tx = self.begin().await?;
        let inserted = tx.job_insert(p).await?;
        tx.commit().await?;
        Ok(inserted)
    }
    /// Many jobs in one statement, and one wake-up.
    pub async fn job_insert_many(&self, p: &JobInsertMany<'_>) -> Result<u64, sqlx::Error> {
        let ids = Value::from(p.ids).to_string();
        let mut tx = self.begin().await?;
        let n = exec_tx!(
            &mut tx,
            JOB_INSERT_MANY,
            &ids,
            p.kind,
            Json(p.payload),
            p.max_attempts,
            p.now
        )?;
        tx.job_notify(p.kind).await?;
        tx.commit().await?;
        Ok(n)
    }
    pub async fn job_get_by_id(&self, id: &str) -> Result<Option<JobRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(JOB_GET), id)
    }
    pub async fn job_list(&self, p: &JobList<'_>) -> Result<(Vec<JobRow>, i64), sqlx::Error> {
        on_db!(self, pool, [list = JOB_LIST, count = JOB_LIST_COUNT], {
            let rows = sqlx::query_as(list)
                .bind(p.kind)
                .bind(p.status)
                .bind(p.text)
                .bind(p.from)
                .bind(p.until)
                .bind(p.limit)
                .bind(p.offset)
                .fetch_all(pool)
                .await?;
            let total: i64 = sqlx::query_scalar(count)
                .bind(p.kind)
                .bind(p.status)
                .bind(p.text)
                .bind(p.from)
                .bind(p.until)
                .fetch_one(pool)
                .await?;
            Ok((rows, total))
        })
    }
    /// The newest `per_kind` jobs of each kind (only those with `status` when given), in one
    /// statement: a kind's part reads its newest rows in index order, so the screen that shows
    /// several kinds' last runs makes one round trip, not two a kind.
    pub async fn job_recent(
        &self,
        kinds: &[&str],
        status: Option<&str>,
        per_kind: i64,
    ) -> Result<Vec<JobRow>, sqlx::Error> {
        if kinds.is_empty() {
            return Ok(Vec::new());
        }
        on_db!(self, pool, [q = JOB_RECENT_OF_KIND], {
            let mut qb = sqlx::QueryBuilder::new("");
            for (i, kind) in kinds.iter().enumerate() {
                if i > 0 {
                    qb.push(" UNION ALL ");
                }
                qb.push(q).push_bind(*kind);
                if let Some(status) = status {
                    qb.push(" AND status = ").push_bind(status);
                }
                qb.push(" ORDER BY created_at DESC, id DESC LIMIT ")
                    .push_bind(per_kind)
                    .push(format!(") r{i}"));
            }
            qb.build_query_as().fetch_all(pool).await
        })
    }
    pub async fn job_fetch(&self, p: &JobFetch<'_>) -> Result<Vec<FetchedJob>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_as(JOB_FETCH),
            p.worker_id,
            p.now,
            p.kind,
            p.limit
        )
    }
    pub async fn job_next_run_at(&self, kind: &str) -> Result<Option<i64>, sqlx::Error> {
        fetch!(self, fetch_one, query_scalar(JOB_NEXT_RUN_AT), kind)
    }
    /// Records how each job of a batch ended, and an attempt row for each that failed, will retry
    /// or was cancelled, in one transaction. The successes (the common case of a busy queue) take
    /// one statement; the other outcomes one each.
    pub async fn job_finish_batch(&self, p: &JobFinishBatch<'_>) -> Result<(), sqlx::Error> {
        let mut tx = self.begin().await?;
        // Jobs that failed for good: their `job.failed` webhook event commits with the outcome.
        let mut failed_ids = Vec::new();
        match &mut tx {
            Tx::Postgres(t) => postgres::job_succeed_many(t, p).await?,
            Tx::Sqlite(t) => sqlite::job_succeed_many(t, p).await?,
        }
        on_tx!(
            &mut tx,
            conn,
            [
                retrying = JOB_RETRYING,
                failed = JOB_FAILED,
                cancelled = JOB_CANCELLED,
                released = JOB_RELEASED,
                attempt = ATTEMPT_INSERT
            ],
            {
                for item in p.items {
                    let q = match &item.finish {
                        Finish::Succeeded { .. } => continue,
                        Finish::Retry { run_at, error } => sqlx::query(retrying)
                            .bind(&item.id)
                            .bind(p.worker_id)
                            .bind(*run_at)
                            .bind(error.as_str()),
                        Finish::Failed { error } => sqlx::query(failed)
                            .bind(&item.id)
                            .bind(p.worker_id)
                            .bind(p.now)
                            .bind(error.as_str()),
                        Finish::Cancelled => sqlx::query(cancelled)
                            .bind(&item.id)
                            .bind(p.worker_id)
                            .bind(p.now),
                        Finish::Released => sqlx::query(released)
                            .bind(&item.id)
                            .bind(p.worker_id)
                            .bind(p.now),
                    };
                    let updated = q.execute(&mut *conn).await?.rows_affected() == 1;
                    if updated && matches!(item.finish, Finish::Failed { .. }) {
                        failed_ids.push(item.id.as_str());
                    }
                    if updated && let Some((outcome, error)) = item.finish.attempt_record() {
                        sqlx::query(attempt)
                            .bind(&item.id)
                            .bind(item.attempt)
                            .bind(p.worker_id)
                            .bind(item.started_at)
                            .bind(p.now)
                            .bind(outcome)
                            .bind(error)
                            .execute(&mut *conn)
                            .await?;
                    }
                }
                Ok::<(), sqlx::Error>(())
            }
        )?;
        for id in failed_ids {
            tx.webhook_emit_job_failed(id, p.now).await?;
        }
        tx.commit().await
    }
    pub async fn job_progress_set(&self, p: &JobProgress<'_>) -> Result<bool, sqlx::Error> {
        exec!(self, JOB_PROGRESS, p.percent, p.message, p.id, p.worker_id).map(|n| n == 1)
    }
    pub async fn job_cancel(&self, id: &str, now: i64) -> Result<CancelOutcome, sqlx::Error> {
        let mut tx = self.begin().await?;
        let outcome = on_tx!(
            &mut tx,
            conn,
            [
                status = JOB_STATUS,
                waiting = JOB_CANCEL_WAITING,
                running = JOB_CANCEL_RUNNING
            ],
            {
                let status: Option<String> = sqlx::query_scalar(status)
                    .bind(id)
                    .fetch_optional(&mut *conn)
                    .await?;
                Ok::<_, sqlx::Error>(match status.as_deref() {
                    None => CancelOutcome::NotFound,
                    Some("queued" | "scheduled" | "retrying") => {
                        sqlx::query(waiting)
                            .bind(id)
                            .bind(now)
                            .execute(&mut *conn)
                            .await?;
                        CancelOutcome::Cancelled
                    }
                    Some("running") => {
                        sqlx::query(running).bind(id).execute(&mut *conn).await?;
                        CancelOutcome::Requested
                    }
                    Some(other) => CancelOutcome::Finished(other.to_string()),
                })
            }
        )?;
        tx.commit().await?;
        Ok(outcome)
    }
    pub async fn job_retry(&self, id: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
        fetch!(self, fetch_optional, query_scalar(JOB_RETRY), id, now)
    }
    pub async fn job_cancel_requested(&self, worker_id: &str) -> Result<Vec<String>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_scalar(JOB_CANCEL_REQUESTED),
            worker_id
        )
    }
    pub async fn job_release(&self, p: &JobRelease<'_>) -> Result<u64, sqlx::Error> {
        let Some(ids) = p.ids else {
            return exec!(self, JOB_RELEASE_ALL, p.worker_id);
        };
        let mut tx = self.begin().await?;
        let n = on_tx!(&mut tx, conn, [q = JOB_RELEASE_ONE], {
            let mut n = 0;
            for id in ids {
                n += sqlx::query(q)
                    .bind(p.worker_id)
                    .bind(id)
                    .execute(&mut *conn)
                    .await?
                    .rows_affected();
            }
            Ok::<_, sqlx::Error>(n)
        })?;
        tx.commit().await?;
        Ok(n)
    }
    /// Running jobs whose worker stopped beating go back to the queue (or fail, out of attempts),
    /// each with a `lost` attempt row.
    pub async fn job_rescue(&self, p: &JobRescue<'_>) -> Result<Vec<Rescued>, sqlx::Error> {
        let mut tx = self.begin().await?;
        let rescued = on_tx!(
            &mut tx,
            conn,
            [
                orphans = JOB_ORPHANS,
                rescue = JOB_RESCUE,
                lost = ATTEMPT_LOST
            ],
            {
                let orphans: Vec<(String, i32, Option<String>, Option<i64>)> =
                    sqlx::query_as(orphans)
                        .bind(p.cutoff)
                        .fetch_all(&mut *conn)
                        .await?;
                let mut rescued = Vec::with_capacity(orphans.len());
                for (id, attempt, worker, started_at) in orphans {
                    let row: Rescued = sqlx::query_as(rescue)
                        .bind(&id)
                        .bind(p.now)
                        .bind(p.error)
                        .fetch_one(&mut *conn)
                        .await?;
                    sqlx::query(lost)
                        .bind(&id)
                        .bind(attempt)
                        .bind(worker)
                        .bind(started_at)
                        .bind(p.now)
                        .bind(p.error)
                        .execute(&mut *conn)
                        .await?;
                    rescued.push(row);
                }
                Ok::<_, sqlx::Error>(rescued)
            }
        )?;
        for row in rescued.iter().filter(|r| r.status == "failed") {
            tx.webhook_emit_job_failed(&row.id, p.now).await?;
        }
        tx.commit().await?;
        Ok(rescued)
    }
    pub async fn job_prune(&self, cutoff: i64, batch: i64) -> Result<u64, sqlx::Error> {
        exec!(self, JOB_PRUNE, cutoff, batch)
    }
    pub async fn job_counts(&self) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(JOB_COUNTS))
    }
    pub async fn job_oldest_ready(&self, now: i64) -> Result<Vec<(String, i64)>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(JOB_OLDEST_READY), now)
    }
    /// Per kind with a job running, when the earliest of them started (ms).
    pub async fn job_oldest_running(&self) -> Result<Vec<(String, i64)>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(JOB_OLDEST_RUNNING))
    }
    pub async fn job_finished_since(&self, since: i64) -> Result<Vec<FinishedJob>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(JOB_FINISHED_SINCE), since)
    }
    /// Jobs finished since `since`, counted per kind, status and `bucket_ms`-wide time bucket.
    pub async fn job_finished_buckets(
        &self,
        since: i64,
        bucket_ms: i64,
    ) -> Result<Vec<FinishedBucket>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_as(JOB_FINISHED_BUCKETS),
            since,
            bucket_ms
        )
    }
    pub async fn job_attempt_list(&self, id: &str) -> Result<Vec<AttemptRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(ATTEMPT_LIST), id)
    }

    pub async fn worker_upsert(&self, w: &WorkerRow) -> Result<(), sqlx::Error> {
        exec!(
            self,
            WORKER_UPSERT,
            &w.id,
            &w.hostname,
            w.pid,
            &w.kinds,
            w.concurrency,
            w.started_at,
            w.heartbeat_at
        )
        .map(|_| ())
    }
    pub async fn worker_heartbeat(&self, id: &str, now: i64) -> Result<(), sqlx::Error> {
        exec!(self, WORKER_HEARTBEAT, id, now).map(|_| ())
    }
    pub async fn worker_delete(&self, id: &str) -> Result<(), sqlx::Error> {
        exec!(self, WORKER_DELETE, id).map(|_| ())
    }
    pub async fn worker_delete_dead(&self, cutoff: i64) -> Result<u64, sqlx::Error> {
        exec!(self, WORKER_DELETE_DEAD, cutoff)
    }
    pub async fn worker_list(&self) -> Result<Vec<WorkerListed>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(WORKER_LIST))
    }
}

impl Tx {
    /// Inserts a job, or finds the one that already holds its idempotency key.
    pub async fn job_insert(&mut self, p: &JobInsert<'_>) -> Result<Inserted, sqlx::Error> {
        on_tx!(
            self,
            conn,
            [insert = JOB_INSERT, holding = JOB_HOLDING_KEY],
            {
                // Two tries: a conflicting active job may finish between the insert and the look-up.
                for _ in 0..2 {
                    let row = sqlx::query(insert)
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
                    let (row, created) = match row {
                        Some(row) => (row, true),
                        None => match sqlx::query(holding)
                            .bind(p.kind)
                            .bind(p.idempotency_key)
                            .bind(p.active_key)
                            .fetch_optional(&mut *conn)
                            .await?
                        {
                            Some(row) => (row, false),
                            None => continue,
                        },
                    };
                    return Ok(Inserted {
                        id: row.try_get(0)?,
                        status: row.try_get(1)?,
                        created,
                    });
                }
                Err(sqlx::Error::RowNotFound)
            }
        )
    }
    /// Wakes the workers of `kind` in other processes once this transaction commits.
    pub async fn job_notify(&mut self, kind: &str) -> Result<(), sqlx::Error> {
        match self {
            // Differs: SQLite has one process's workers, woken in memory.
            Self::Sqlite(_) => Ok(()),
            Self::Postgres(tx) => postgres::job_notify(tx, kind).await,
        }
    }
}
