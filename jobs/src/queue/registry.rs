//! Job kinds: a serde payload with a stable name and a handler, registered once at start-up.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::future::BoxFuture;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::config::QueueSettings;
use crate::db::{Db, Inserted, JobProgress};
use crate::providers::Providers;
use crate::time::Clock;

use super::{JobTx, NewJob, Queue, QueueError};

/// How a handler run failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum JobError {
    /// Worth another attempt (an outside service down, a deadlock): retried with backoff.
    #[error("{0}")]
    Retry(String),
    /// Will fail the same way again (a bad payload): the job fails now.
    #[error("{0}")]
    Permanent(String),
    /// As [`Self::Retry`], but not sooner than `after` (the other side said when: `Retry-After`).
    #[error("{error}")]
    RetryAfter { error: String, after: Duration },
}

impl From<sqlx::Error> for JobError {
    fn from(e: sqlx::Error) -> Self {
        Self::Retry(format!("database error: {e}"))
    }
}

/// What a running handler gets: who it is, where to report progress, and whether to stop.
#[derive(Clone)]
pub struct JobContext {
    pub id: String,
    pub attempt: i32,
    pub worker_id: Arc<str>,
    pub env: JobEnv,
    /// Fires when ops cancel the job; the worker also drops the handler's future then.
    pub cancel: CancellationToken,
    /// When the worker stops this run (its time budget): a handler that can end early with partial
    /// results finishes before it.
    pub deadline: tokio::time::Instant,
}

impl JobContext {
    pub fn db(&self) -> &Db {
        &self.env.db
    }

    /// This run, as the claimant of the email messages it sends.
    pub fn claimant(&self) -> crate::mailing::Claimant<'_> {
        crate::mailing::Claimant {
            job_id: &self.id,
            attempt: self.attempt,
        }
    }

    /// Records progress, visible in `GET /api/jobs/{id}` while the job runs.
    pub async fn progress(&self, percent: i32, message: impl AsRef<str>) -> Result<(), JobError> {
        self.env
            .db
            .job_progress_set(&JobProgress {
                id: &self.id,
                worker_id: &self.worker_id,
                percent: percent.clamp(0, 100),
                message: message.as_ref(),
            })
            .await?;
        Ok(())
    }
}

/// What a job works with: the database, the outside services, the clock, the queue's settings,
/// and a way to enqueue follow-up jobs. Not the queue itself: a job cannot reach its registry or
/// the workers' wake-ups.
#[derive(Clone)]
pub struct JobEnv {
    pub db: Db,
    pub providers: Arc<Providers>,
    pub clock: Arc<Clock>,
    pub settings: Arc<QueueSettings>,
    queue: Queue,
}

impl JobEnv {
    pub fn new(queue: &Queue) -> Self {
        Self {
            db: queue.db.clone(),
            providers: queue.providers.clone(),
            clock: queue.clock.clone(),
            settings: queue.settings.clone(),
            queue: queue.clone(),
        }
    }
    /// Enqueues a follow-up job.
    pub async fn enqueue(&self, job: NewJob) -> Result<Inserted, QueueError> {
        self.queue.enqueue(job).await
    }
    /// A transaction that enqueues follow-up jobs together with the job's own writes.
    pub async fn begin(&self) -> Result<JobTx, QueueError> {
        self.queue.begin().await
    }
    /// How many attempts a job of `kind` gets.
    pub fn max_attempts(&self, kind: &str) -> Result<i32, QueueError> {
        self.queue.max_attempts(kind)
    }
}

/// A job kind. Implement it on the payload struct, in its own file under `kinds/`.
pub trait JobKind: Serialize + DeserializeOwned + Send + 'static {
    /// Stable name, stored with every job; never rename.
    const NAME: &'static str;
    const MAX_ATTEMPTS: i32 = 3;
    /// A run that takes longer is stopped and the job fails.
    const TIME_BUDGET: Duration = Duration::from_secs(60);

    /// Checks a payload beyond its shape, before it is enqueued.
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }

    /// The wait before retry number `attempt` (1-based), from `JOB_BACKOFF_BASE_MS`: the queue's
    /// doubling with jitter unless the kind needs a schedule of its own.
    fn backoff(base: Duration, attempt: i32) -> Duration {
        super::backoff(base, attempt)
    }

    /// Does the work; must be idempotent (a rescued job runs again).
    fn run(self, ctx: JobContext) -> impl Future<Output = Result<Value, JobError>> + Send;
}

pub type Handler =
    Arc<dyn Fn(Value, JobContext) -> BoxFuture<'static, Result<Value, JobError>> + Send + Sync>;

/// A registered kind, type-erased.
#[derive(Clone)]
pub struct KindSpec {
    pub name: &'static str,
    pub max_attempts: i32,
    pub time_budget: Duration,
    pub validate: fn(&Value) -> Result<(), String>,
    /// [`JobKind::backoff`].
    pub backoff: fn(Duration, i32) -> Duration,
    pub handler: Handler,
}

fn validate_as<K: JobKind>(payload: &Value) -> Result<(), String> {
    K::deserialize(payload)
        .map_err(|e| e.to_string())
        .and_then(|k| k.validate())
}

/// Every kind this build knows, by name.
#[derive(Clone, Default)]
pub struct Registry {
    kinds: BTreeMap<&'static str, KindSpec>,
}

impl Registry {
    pub fn register<K: JobKind>(mut self) -> Self {
        let handler: Handler = Arc::new(|payload, ctx| {
            Box::pin(async move {
                let job = K::deserialize(&payload)
                    .map_err(|e| JobError::Permanent(format!("invalid payload: {e}")))?;
                job.run(ctx).await
            })
        });
        self.kinds.insert(
            K::NAME,
            KindSpec {
                name: K::NAME,
                max_attempts: K::MAX_ATTEMPTS,
                time_budget: K::TIME_BUDGET,
                validate: validate_as::<K>,
                backoff: K::backoff,
                handler,
            },
        );
        self
    }

    pub fn get(&self, kind: &str) -> Option<&KindSpec> {
        self.kinds.get(kind)
    }

    pub fn kinds(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.kinds.keys().copied()
    }
}
