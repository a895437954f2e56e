//! The one place that runs SQL. [`Db`] is a pool over either backend; each query is a function of
//! the same name in [`sqlite`] and [`postgres`], taking one params struct, and [`Db`] dispatches.
//!
//! Errors are [`sqlx::Error`]; callers turn them into `ApiError` (a logged 500) or a job error.

/// Calls `$f` with the backend's pool, from the module of the same dialect.
macro_rules! dispatch {
    ($db:expr, $f:ident ( $($arg:expr),* )) => {
        match $db {
            Db::Sqlite(pool) => sqlite::$f(pool, $($arg),*).await,
            Db::Postgres(pool) => postgres::$f(pool, $($arg),*).await,
        }
    };
}

/// Calls `$f` with the transaction's connection, from the module of the same dialect.
macro_rules! dispatch_tx {
    ($tx:expr, $f:ident ( $($arg:expr),* )) => {
        match $tx {
            Tx::Sqlite(tx) => sqlite::$f(&mut **tx, $($arg),*).await,
            Tx::Postgres(tx) => postgres::$f(&mut **tx, $($arg),*).await,
        }
    };
}

#[macro_use]
pub mod sql;
pub mod postgres;
pub mod sqlite;

// CRM areas: each has its params, rows and `impl Db`/`impl Tx` here, and its SQL in sqlite/ and postgres/.
mod activities;
mod calendar;
mod companies;
mod contacts;
mod deals;
mod discovery;
mod email;
mod intel;
mod invoices;
pub(crate) mod leads;
mod meetings;
mod metrics;
mod ops;
mod secrets;
mod seed;
mod sequences;
mod suppressions;
mod voice;

pub use activities::*;
pub use calendar::*;
pub use companies::*;
pub use contacts::*;
pub use deals::*;
pub use discovery::*;
pub use email::*;
pub use intel::*;
pub use invoices::*;
pub use leads::*;
pub use meetings::*;
pub use metrics::*;
pub use ops::*;
pub use secrets::*;
pub use seed::*;
pub use sequences::*;
pub use suppressions::*;
pub use voice::*;

use std::str::FromStr;
use std::time::Duration;

use serde_json::Value;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::types::Json;
use sqlx::{PgPool, SqlitePool};

use crate::config::DatabaseUrl;

/// `SQLITE_MMAP_SIZE` in bytes (default 32 MiB; 0 turns the memory map off). Every pooled
/// connection maps the file, and RSS counts each mapping: 6 × 32 MiB keeps the server under 300 MB.
fn sqlite_mmap_size() -> String {
    std::env::var("SQLITE_MMAP_SIZE")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(32 * 1024 * 1024)
        .to_string()
}

/// Which engine a [`Db`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone, Debug)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("DATABASE_URL: cannot open the SQLite database ({0})")]
    Sqlite(sqlx::Error),
    #[error("DATABASE_URL: cannot reach the Postgres database ({0})")]
    Postgres(sqlx::Error),
    #[error("DATABASE_URL: {0}")]
    Url(String),
    #[error("migrations failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl Db {
    pub async fn connect(url: &DatabaseUrl, max_connections: u32) -> Result<Self, ConnectError> {
        match url {
            DatabaseUrl::Sqlite(raw) => {
                let options = SqliteConnectOptions::from_str(raw)
                    .map_err(|e| ConnectError::Url(format!("not a valid sqlite URL ({e})")))?
                    .create_if_missing(true)
                    .journal_mode(SqliteJournalMode::Wal)
                    .synchronous(SqliteSynchronous::Normal)
                    .busy_timeout(Duration::from_secs(10))
                    .foreign_keys(true)
                    // Reads through a memory map instead of copying every page out of the OS cache
                    // (profiled: a fifth of a list request was page copies and cache bookkeeping).
                    // Mapped pages count in the process's RSS, hence a setting.
                    .pragma("mmap_size", sqlite_mmap_size());
                if let Some(parent) = options.get_filename().parent()
                    && !parent.as_os_str().is_empty()
                {
                    std::fs::create_dir_all(parent).map_err(|e| {
                        ConnectError::Url(format!("cannot create {} ({e})", parent.display()))
                    })?;
                }
                let pool = SqlitePoolOptions::new()
                    .max_connections(max_connections)
                    .acquire_timeout(Duration::from_secs(15))
                    .connect_with(options)
                    .await
                    .map_err(ConnectError::Sqlite)?;
                Ok(Self::Sqlite(pool))
            }
            DatabaseUrl::Postgres(raw) => {
                let options = PgConnectOptions::from_str(raw.expose())
                    .map_err(|_| ConnectError::Url("not a valid postgres URL".into()))?;
                let pool = PgPoolOptions::new()
                    .max_connections(max_connections)
                    .acquire_timeout(Duration::from_secs(10))
                    .connect_with(options)
                    .await
                    .map_err(ConnectError::Postgres)?;
                Ok(Self::Postgres(pool))
            }
        }
    }

    pub fn backend(&self) -> Backend {
        match self {
            Self::Sqlite(_) => Backend::Sqlite,
            Self::Postgres(_) => Backend::Postgres,
        }
    }

    pub async fn migrate(&self) -> Result<(), ConnectError> {
        match self {
            Self::Sqlite(pool) => sqlx::migrate!("../migrations/sqlite").run(pool).await?,
            Self::Postgres(pool) => sqlx::migrate!("../migrations/postgres").run(pool).await?,
        }
        Ok(())
    }

    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        dispatch!(self, ping())
    }

    pub async fn close(&self) {
        match self {
            Self::Sqlite(pool) => pool.close().await,
            Self::Postgres(pool) => pool.close().await,
        }
    }

    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        Ok(match self {
            // IMMEDIATE takes the write lock up front: a deferred transaction that later writes can
            // fail with SQLITE_BUSY without waiting on busy_timeout.
            Self::Sqlite(pool) => Tx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?),
            Self::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }

    // ---- jobs ----
    pub async fn job_insert(&self, p: &JobInsert<'_>) -> Result<Inserted, sqlx::Error> {
        let mut tx = self.begin().await?;
        let inserted = tx.job_insert(p).await?;
        tx.commit().await?;
        Ok(inserted)
    }
    pub async fn job_insert_many(&self, p: &JobInsertMany<'_>) -> Result<u64, sqlx::Error> {
        dispatch!(self, job_insert_many(p))
    }
    pub async fn job_get_by_id(&self, id: &str) -> Result<Option<JobRow>, sqlx::Error> {
        dispatch!(self, job_get_by_id(id))
    }
    pub async fn job_list(&self, p: &JobList<'_>) -> Result<(Vec<JobRow>, i64), sqlx::Error> {
        dispatch!(self, job_list(p))
    }
    pub async fn job_fetch(&self, p: &JobFetch<'_>) -> Result<Vec<FetchedJob>, sqlx::Error> {
        dispatch!(self, job_fetch(p))
    }
    pub async fn job_next_run_at(&self, kind: &str) -> Result<Option<i64>, sqlx::Error> {
        dispatch!(self, job_next_run_at(kind))
    }
    pub async fn job_finish_batch(&self, p: &JobFinishBatch<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, job_finish_batch(p))
    }
    pub async fn job_progress_set(&self, p: &JobProgress<'_>) -> Result<bool, sqlx::Error> {
        dispatch!(self, job_progress_set(p))
    }
    pub async fn job_cancel(&self, id: &str, now: i64) -> Result<CancelOutcome, sqlx::Error> {
        dispatch!(self, job_cancel(id, now))
    }
    pub async fn job_retry(&self, id: &str, now: i64) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, job_retry(id, now))
    }
    pub async fn job_cancel_requested(&self, worker_id: &str) -> Result<Vec<String>, sqlx::Error> {
        dispatch!(self, job_cancel_requested(worker_id))
    }
    pub async fn job_release(&self, p: &JobRelease<'_>) -> Result<u64, sqlx::Error> {
        dispatch!(self, job_release(p))
    }
    pub async fn job_rescue(&self, p: &JobRescue<'_>) -> Result<Vec<Rescued>, sqlx::Error> {
        dispatch!(self, job_rescue(p))
    }
    pub async fn job_prune(&self, cutoff: i64, batch: i64) -> Result<u64, sqlx::Error> {
        dispatch!(self, job_prune(cutoff, batch))
    }
    pub async fn job_counts(&self) -> Result<Vec<(String, String, i64)>, sqlx::Error> {
        dispatch!(self, job_counts())
    }
    pub async fn job_oldest_ready(&self, now: i64) -> Result<Vec<(String, i64)>, sqlx::Error> {
        dispatch!(self, job_oldest_ready(now))
    }
    pub async fn job_finished_since(&self, since: i64) -> Result<Vec<FinishedJob>, sqlx::Error> {
        dispatch!(self, job_finished_since(since))
    }
    /// Jobs finished since `since`, counted per kind, status and `bucket_ms`-wide time bucket.
    pub async fn job_finished_buckets(
        &self,
        since: i64,
        bucket_ms: i64,
    ) -> Result<Vec<FinishedBucket>, sqlx::Error> {
        dispatch!(self, job_finished_buckets(since, bucket_ms))
    }
    pub async fn job_attempt_list(&self, id: &str) -> Result<Vec<AttemptRow>, sqlx::Error> {
        dispatch!(self, job_attempt_list(id))
    }

    // ---- workers ----
    pub async fn worker_upsert(&self, w: &WorkerRow) -> Result<(), sqlx::Error> {
        dispatch!(self, worker_upsert(w))
    }
    pub async fn worker_heartbeat(&self, id: &str, now: i64) -> Result<(), sqlx::Error> {
        dispatch!(self, worker_heartbeat(id, now))
    }
    pub async fn worker_delete(&self, id: &str) -> Result<(), sqlx::Error> {
        dispatch!(self, worker_delete(id))
    }
    pub async fn worker_delete_dead(&self, cutoff: i64) -> Result<u64, sqlx::Error> {
        dispatch!(self, worker_delete_dead(cutoff))
    }
    pub async fn worker_list(&self) -> Result<Vec<WorkerListed>, sqlx::Error> {
        dispatch!(self, worker_list())
    }

    // ---- users and sessions ----
    pub async fn user_insert(&self, u: &UserRow) -> Result<(), sqlx::Error> {
        dispatch!(self, user_insert(u))
    }
    pub async fn user_get_by_email(&self, email: &str) -> Result<Option<UserRow>, sqlx::Error> {
        dispatch!(self, user_get_by_email(email))
    }
    pub async fn user_count(&self) -> Result<i64, sqlx::Error> {
        dispatch!(self, user_count())
    }
    pub async fn session_insert(&self, s: &SessionInsert<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, session_insert(s))
    }
    pub async fn session_get(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(UserRow, bool)>, sqlx::Error> {
        dispatch!(self, session_get(token_hash, now))
    }
    pub async fn session_delete(&self, token_hash: &str) -> Result<(), sqlx::Error> {
        dispatch!(self, session_delete(token_hash))
    }
    pub async fn session_delete_expired(&self, now: i64) -> Result<u64, sqlx::Error> {
        dispatch!(self, session_delete_expired(now))
    }
    pub async fn audit_list(&self, limit: i64) -> Result<Vec<AuditRow>, sqlx::Error> {
        dispatch!(self, audit_list(limit))
    }
}

/// A transaction on either backend: domain writes and their jobs commit or roll back together.
pub enum Tx {
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
}

impl Tx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Self::Sqlite(tx) => tx.commit().await,
            Self::Postgres(tx) => tx.commit().await,
        }
    }
    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        match self {
            Self::Sqlite(tx) => tx.rollback().await,
            Self::Postgres(tx) => tx.rollback().await,
        }
    }
    /// Inserts a job, or finds the one that already holds its idempotency key.
    pub async fn job_insert(&mut self, p: &JobInsert<'_>) -> Result<Inserted, sqlx::Error> {
        dispatch_tx!(self, job_insert(p))
    }
    /// Wakes the workers of `kind` in other processes once this transaction commits.
    pub async fn job_notify(&mut self, kind: &str) -> Result<(), sqlx::Error> {
        match self {
            Self::Sqlite(_) => Ok(()),
            Self::Postgres(tx) => postgres::job_notify(tx, kind).await,
        }
    }
    pub async fn audit_insert(&mut self, a: &AuditInsert<'_>) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, audit_insert(a))
    }
}

// ---- params and rows ----

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

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub password_hash: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub is_admin: bool,
    pub created_at: i64,
}

pub struct SessionInsert<'a> {
    pub token_hash: &'a str,
    pub user_id: &'a str,
    pub is_admin: bool,
    pub created_at: i64,
    pub expires_at: i64,
}

pub struct AuditInsert<'a> {
    pub id: &'a str,
    pub actor_id: Option<&'a str>,
    pub actor_email: Option<&'a str>,
    pub action: &'a str,
    pub target: Option<&'a str>,
    pub detail: Option<&'a Value>,
    pub created_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    pub id: String,
    pub actor_email: Option<String>,
    pub action: String,
    pub target: Option<String>,
    pub detail: Option<Json<Value>>,
    pub created_at: i64,
}
