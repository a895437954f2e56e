//! The one place that runs SQL. [`Db`] is a pool over either backend and [`Tx`] a transaction on
//! it. Each area's queries are written once in `<area>.rs` (`sql!` makes each dialect's text at
//! compile time, `on_db!`/`on_tx!` compile one body per backend); what must differ between the
//! engines is in [`sqlite`] and [`postgres`], each piece with a `Differs:` line saying why.
//!
//! Errors are [`sqlx::Error`]; callers turn them into `ApiError` (a logged 500) or a job error.

#[macro_use]
pub mod sql;
pub mod postgres;
pub mod sqlite;

/// The contacts of the company `$co` (the companies table's name or alias in the statement), as
/// the triggers of migration 0043 keep them: every screen that shows a company's contact count
/// reads this one figure.
macro_rules! contact_count_of {
    ($co:literal) => {
        concat!(
            "COALESCE((SELECT cc.n FROM company_contact_counts cc WHERE cc.company_id = ",
            $co,
            ".id), 0)"
        )
    };
}

// The areas: each has its params, rows, queries and `impl Db`/`impl Tx` in its file.
mod activities;
mod calendar;
mod campaigns;
mod companies;
mod contacts;
mod deals;
mod discovery;
mod email;
mod email_figures;
mod enrichment;
mod intel;
mod invoices;
pub(crate) mod leads;
mod mailboxes;
mod meetings;
mod merge;
mod metrics;
mod notes;
mod ops;
mod queue;
mod records;
mod secrets;
mod seed;
mod sequences;
mod suppressions;
mod targeting;
mod users;
mod views;
mod voice;
mod webhooks;

pub use activities::*;
pub use calendar::*;
pub use campaigns::AudienceMember;
pub use companies::*;
pub use contacts::*;
pub use deals::*;
pub use discovery::*;
pub use email::*;
pub use email_figures::*;
pub use enrichment::*;
pub use intel::*;
pub use invoices::*;
pub use leads::*;
pub use mailboxes::*;
pub use meetings::*;
pub use merge::*;
pub use metrics::*;
pub use notes::*;
pub use ops::*;
pub use queue::*;
pub use records::*;
pub use secrets::*;
pub use seed::*;
pub use sequences::*;
pub use suppressions::*;
pub use targeting::*;
pub use users::*;
pub use views::*;
pub use voice::*;
pub use webhooks::*;

use std::str::FromStr;
use std::time::Duration;

use serde_json::Value;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::types::Json;
use sqlx::{PgPool, SqlitePool};

use crate::config::DatabaseUrl;

/// `SQLITE_MMAP_SIZE` in bytes (default 16 MiB; 0 turns the memory map off). Every pooled
/// connection maps the file and RSS counts each mapping: with the read pool (6), the write
/// connection and the writers' two reads that is 9 mappings. At 32 MiB the api peaked at 293–339
/// MB in `bench api`; at 16 MiB at 197 MB, with the same throughput (docs/performance.md).
fn sqlite_mmap_size() -> String {
    std::env::var("SQLITE_MMAP_SIZE")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .unwrap_or(16 * 1024 * 1024)
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
    Sqlite(Pools<SqlitePool>),
    Postgres(Pools<PgPool>),
}

/// A backend's pools: reads; a small one kept for writes and transactions; and two connections
/// for the reads of a request that writes (see [`writing`]). So a write never waits for a
/// connection behind a queue of slow reads: under 50 concurrent list requests one shared pool
/// made a status change wait 1.7 s p99. SQLite's write pool is one connection: the database has
/// one writer, so writes queue in order in the process instead of in SQLite's busy handler (which
/// sleeps and polls); WAL lets the read connections go on beside it.
///
/// Postgres also keeps read connections that use generic plans, for the statements marked
/// [`Sql::with_generic_plan`](sql::Sql::with_generic_plan); SQLite plans each statement once when
/// it prepares it, so it has none.
#[derive(Clone, Debug)]
pub struct Pools<P> {
    read: P,
    write: P,
    writers_reads: P,
    generic_plan_reads: Option<P>,
    /// SQLite's WAL checkpoints, off the write connection.
    checkpointer: Option<std::sync::Arc<sqlite::checkpoint::Checkpointer>>,
}

tokio::task_local! {
    /// Set for the whole of a request that writes (see [`writing`]).
    static WRITING: ();
}

/// Runs `f` as a write: its reads outside a transaction (the row read before an update, the
/// answer read after it) take the connections kept for writers' reads instead of queueing behind
/// the reads of every screen being loaded. The api wraps each POST, PUT, PATCH and DELETE in it.
pub async fn writing<F: std::future::Future>(f: F) -> F::Output {
    WRITING.scope((), f).await
}

/// Postgres ended the transaction to break a deadlock (40P01) or a serialization conflict
/// (40001): nothing of it was written, and run again it goes through.
pub fn is_conflict(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|c| c == "40P01" || c == "40001")
}

/// Runs the transaction `tx` (a closure that begins, writes and commits) again when Postgres
/// aborted it as the victim of a deadlock: up to four more times, 10 to 200 ms apart. For writes
/// over many rows that other transactions lock in another order (a bulk action beside a worker
/// recording outcomes).
pub async fn retry_conflicts<T, Fut>(tx: impl FnMut() -> Fut) -> Result<T, sqlx::Error>
where
    Fut: std::future::Future<Output = Result<T, sqlx::Error>>,
{
    use backon::{ExponentialBuilder, Retryable};
    let backoff = ExponentialBuilder::default()
        .with_jitter()
        .with_min_delay(Duration::from_millis(10))
        .with_max_delay(Duration::from_millis(200))
        .with_max_times(4);
    tx.retry(backoff)
        .when(is_conflict)
        .notify(|e, _| tracing::warn!(error = %e, "transaction aborted by a conflict; running it again"))
        .await
}

impl<P> Pools<P> {
    pub fn read(&self) -> &P {
        if WRITING.try_with(|_| ()).is_ok() {
            &self.writers_reads
        } else {
            &self.read
        }
    }
    /// [`Pools::read`] for the statements a body runs, `generic_plan` of each: the connections
    /// with generic plans when every one of them is marked for it.
    pub fn read_planned(&self, generic_plan: &[bool]) -> &P {
        match &self.generic_plan_reads {
            Some(generic)
                if generic_plan.iter().all(|g| *g) && WRITING.try_with(|_| ()).is_err() =>
            {
                generic
            }
            _ => self.read(),
        }
    }
    pub fn write(&self) -> &P {
        &self.write
    }
}

impl<DB: sqlx::Database> Pools<sqlx::Pool<DB>> {
    async fn close(&self) {
        if let Some(checkpointer) = &self.checkpointer {
            checkpointer.stop();
        }
        self.read.close().await;
        self.writers_reads.close().await;
        self.write.close().await;
        if let Some(generic) = &self.generic_plan_reads {
            generic.close().await;
        }
    }
}

/// The size of the pool kept for writes beside `DB_MAX_CONNECTIONS` read connections. At least 4
/// on Postgres: a worker claims jobs and records their outcomes through it (`bench queue`).
fn write_connections(backend: Backend, read: u32) -> u32 {
    match backend {
        Backend::Sqlite => 1,
        Backend::Postgres => (read / 4).max(4),
    }
}

/// A Postgres read connection idle this long is pinged before it is used, so one the server
/// dropped (a restart, an idle timeout) is replaced instead of failing a statement. sqlx pings
/// before every use by default: a second round trip per statement, which under `bench api` left
/// the server waiting on the api a quarter of the time (docs/performance.md).
const PING_AFTER_IDLE: Duration = Duration::from_secs(1);

/// Connections for the reads of requests that write: enough for one to read while another's
/// read is in flight, few enough to leave the readers their pool.
const WRITERS_READS: u32 = 2;

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
                // No ping before each use (sqlx's default): a file on this machine does not hang
                // up, and the ping is a round trip to the connection's thread per statement.
                let pool_with = |options: SqliteConnectOptions, n| {
                    SqlitePoolOptions::new()
                        .max_connections(n)
                        .acquire_timeout(Duration::from_secs(15))
                        .test_before_acquire(false)
                        .connect_with(options)
                };
                let pool = |n| pool_with(options.clone(), n);
                // The writer first: it creates the file and switches it to WAL. It checkpoints
                // only as a backstop; the checkpointer does it off the write path.
                let write = pool_with(
                    options.clone().pragma(
                        "wal_autocheckpoint",
                        sqlite::checkpoint::BACKSTOP_PAGES.to_string(),
                    ),
                    write_connections(Backend::Sqlite, max_connections),
                )
                .await
                .map_err(ConnectError::Sqlite)?;
                let checkpointer = sqlite::checkpoint::Checkpointer::start(&options)
                    .await
                    .map_err(ConnectError::Sqlite)?;
                let read = pool(max_connections).await.map_err(ConnectError::Sqlite)?;
                let writers_reads = pool(WRITERS_READS).await.map_err(ConnectError::Sqlite)?;
                Ok(Self::Sqlite(Pools {
                    read,
                    write,
                    writers_reads,
                    generic_plan_reads: None,
                    checkpointer: Some(std::sync::Arc::new(checkpointer)),
                }))
            }
            DatabaseUrl::Postgres(raw) => {
                // JIT off: it compiles a statement whose estimated cost passes `jit_above_cost`,
                // and a generic plan's `LIMIT $1` is costed as a tenth of the rows. At 1,000,000
                // contacts the lead board's four 25-card pages were estimated at 138,000 and took
                // 66–178 ms of compiling to run 0.1–0.25 ms (docs/performance.md). These are short
                // statements; none gains from compiling.
                let options = PgConnectOptions::from_str(raw.expose())
                    .map_err(|_| ConnectError::Url("not a valid postgres URL".into()))?
                    .options([("jit", "off")]);
                // Writes (and the reads of a request that writes) keep sqlx's ping before each
                // use: one that found its connection dropped (a restart) would fail after the
                // message went out or the job ran; there, the ping makes it wait for the server.
                // The screens' reads ping only a connection idle a while ([`PING_AFTER_IDLE`]).
                let pool_with = |options: PgConnectOptions, n, reads: bool| {
                    let pool = PgPoolOptions::new()
                        .max_connections(n)
                        .acquire_timeout(Duration::from_secs(10));
                    let pool = if reads {
                        pool.test_before_acquire(false)
                            .before_acquire(|conn, meta| {
                                Box::pin(async move {
                                    if meta.idle_for >= PING_AFTER_IDLE {
                                        sqlx::Connection::ping(conn).await?;
                                    }
                                    Ok(true)
                                })
                            })
                    } else {
                        pool
                    };
                    pool.connect_with(options)
                };
                let write = pool_with(
                    options.clone(),
                    write_connections(Backend::Postgres, max_connections),
                    false,
                )
                .await
                .map_err(ConnectError::Postgres)?;
                let read = pool_with(options.clone(), max_connections, true)
                    .await
                    .map_err(ConnectError::Postgres)?;
                let writers_reads = pool_with(options.clone(), WRITERS_READS, false)
                    .await
                    .map_err(ConnectError::Postgres)?;
                let generic_plan_reads = pool_with(
                    options
                        .clone()
                        .options([("plan_cache_mode", "force_generic_plan")]),
                    max_connections,
                    true,
                )
                .await
                .map_err(ConnectError::Postgres)?;
                Ok(Self::Postgres(Pools {
                    read,
                    write,
                    writers_reads,
                    generic_plan_reads: Some(generic_plan_reads),
                    checkpointer: None,
                }))
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
            Self::Sqlite(pools) => {
                sqlx::migrate!("../migrations/sqlite")
                    .run(pools.write())
                    .await?
            }
            Self::Postgres(pools) => {
                sqlx::migrate!("../migrations/postgres")
                    .run(pools.write())
                    .await?
            }
        }
        Ok(())
    }

    pub async fn close(&self) {
        match self {
            Self::Sqlite(pools) => pools.close().await,
            Self::Postgres(pools) => pools.close().await,
        }
    }

    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        Ok(match self {
            // IMMEDIATE takes the write lock up front: a deferred transaction that later writes can
            // fail with SQLITE_BUSY without waiting on busy_timeout.
            Self::Sqlite(pools) => Tx::Sqlite(pools.write.begin_with("BEGIN IMMEDIATE").await?),
            Self::Postgres(pools) => Tx::Postgres(pools.write.begin().await?),
        })
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
}

#[cfg(test)]
mod tests {
    /// The bundled SQLite carries the options `.cargo/config.toml` gives it (a list request spent a
    /// third of its CPU on the allocator's statistics mutex and on re-preparing statements
    /// without them).
    #[tokio::test]
    async fn sqlite_is_built_with_the_measured_options() {
        let options: Vec<String> = match sqlx::SqlitePool::connect("sqlite::memory:").await {
            Ok(pool) => sqlx::query_scalar("PRAGMA compile_options")
                .fetch_all(&pool)
                .await
                .unwrap_or_default(),
            Err(e) => panic!("in-memory SQLite: {e}"),
        };
        for wanted in ["DEFAULT_MEMSTATUS=0", "ENABLE_QPSG", "ENABLE_STAT4"] {
            assert!(
                options.iter().any(|o| o == wanted),
                "{wanted} in {options:?}"
            );
        }
    }
}
