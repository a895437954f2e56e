//! The job platform's API for everyone but the worker loop: the registry of kinds, enqueue (also
//! inside a caller's transaction), status, cancel, retry, and the retry policy.
//!
//! Errors: [`QueueError`] — `UnknownKind`/`InvalidPayload` are the caller's fault (422), `Db` is ours.

mod registry;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use rand::Rng;
use serde::Serialize;
use serde_json::Value;
use tokio::sync::Notify;

use crate::config::QueueSettings;
use crate::db::{self, Db, Inserted, JobInsert, JobRow, Tx};
use crate::providers::Providers;
use crate::time::{from_datetime, now_ms, to_rfc3339};

pub use registry::{Handler, JobContext, JobEnv, JobError, JobKind, KindSpec, Registry};

#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    #[error("Unknown job kind: {0}")]
    UnknownKind(String),
    #[error("Invalid payload for {kind}: {message}")]
    InvalidPayload { kind: String, message: String },
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// A job to enqueue.
#[derive(Debug, Clone)]
pub struct NewJob {
    pub kind: String,
    pub payload: Value,
    /// The same key for the same kind gives back the first job (until it is pruned).
    pub idempotency_key: Option<String>,
    /// The same key gives back the job while it is active (queued, scheduled, running, retrying).
    pub active_key: Option<String>,
    pub run_at: Option<DateTime<Utc>>,
}

impl NewJob {
    pub fn new(kind: impl Into<String>, payload: Value) -> Self {
        Self {
            kind: kind.into(),
            payload,
            idempotency_key: None,
            active_key: None,
            run_at: None,
        }
    }
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
    pub fn unique_while_active(mut self, key: impl Into<String>) -> Self {
        self.active_key = Some(key.into());
        self
    }
    pub fn run_at(mut self, at: DateTime<Utc>) -> Self {
        self.run_at = Some(at);
        self
    }
}

/// Wakes the local workers of a kind the moment a job of that kind is ready.
#[derive(Debug, Default)]
pub struct Wakeups {
    by_kind: HashMap<String, Arc<Notify>>,
}

impl Wakeups {
    fn new<'a>(kinds: impl Iterator<Item = &'a str>) -> Self {
        Self {
            by_kind: kinds
                .map(|k| (k.to_string(), Arc::new(Notify::new())))
                .collect(),
        }
    }
    /// One waiting fetcher wakes; if none waits, the next wait returns at once (no lost wake-up).
    pub fn wake(&self, kind: &str) {
        if let Some(n) = self.by_kind.get(kind) {
            n.notify_one();
        }
    }
    pub fn wake_all(&self) {
        self.by_kind.values().for_each(|n| n.notify_one());
    }
    pub fn get(&self, kind: &str) -> Option<Arc<Notify>> {
        self.by_kind.get(kind).cloned()
    }
}

/// Handle on the job platform, cheap to clone.
#[derive(Clone)]
pub struct Queue {
    pub db: Db,
    pub registry: Arc<Registry>,
    pub settings: Arc<QueueSettings>,
    pub wakeups: Arc<Wakeups>,
    /// The outside services handlers use (embedded defaults unless configured).
    pub providers: Arc<Providers>,
    /// Sequence timing (see [`crate::time::Clock`]).
    pub clock: Arc<crate::time::Clock>,
}

impl Queue {
    pub fn new(db: Db, registry: Registry, settings: QueueSettings) -> Self {
        let wakeups = Wakeups::new(registry.kinds());
        Self {
            db,
            registry: Arc::new(registry),
            settings: Arc::new(settings),
            wakeups: Arc::new(wakeups),
            providers: Arc::new(Providers::embedded()),
            clock: Arc::new(crate::time::Clock::default()),
        }
    }

    pub fn with_providers(mut self, providers: Providers) -> Self {
        self.providers = Arc::new(providers);
        self
    }

    pub fn spec(&self, kind: &str) -> Result<&KindSpec, QueueError> {
        self.registry
            .get(kind)
            .ok_or_else(|| QueueError::UnknownKind(kind.to_string()))
    }

    pub fn max_attempts(&self, kind: &str) -> Result<i32, QueueError> {
        let spec = self.spec(kind)?;
        Ok(*self
            .settings
            .max_attempts
            .get(kind)
            .unwrap_or(&spec.max_attempts))
    }

    pub fn time_budget(&self, spec: &KindSpec) -> Duration {
        *self
            .settings
            .time_budgets
            .get(spec.name)
            .unwrap_or(&spec.time_budget)
    }

    /// Enqueues one job in its own transaction.
    pub async fn enqueue(&self, job: NewJob) -> Result<Inserted, QueueError> {
        let mut tx = self.begin().await?;
        let inserted = tx.enqueue(job).await?;
        tx.commit().await?;
        Ok(inserted)
    }

    /// Opens a transaction in which domain writes and enqueues commit or roll back together.
    pub async fn begin(&self) -> Result<JobTx, QueueError> {
        Ok(JobTx {
            tx: self.db.begin().await?,
            queue: self.clone(),
            wake: Vec::new(),
        })
    }

    pub async fn get(&self, id: &str) -> Result<Option<JobView>, QueueError> {
        Ok(self.db.job_get_by_id(id).await?.map(JobView::from))
    }

    pub async fn cancel(&self, id: &str) -> Result<db::CancelOutcome, QueueError> {
        Ok(self.db.job_cancel(id, now_ms()).await?)
    }

    /// Puts a failed or cancelled job back in the queue with a fresh set of attempts.
    /// `None` when the job is missing or not in a retryable state.
    pub async fn retry(&self, id: &str) -> Result<Option<String>, QueueError> {
        let kind = self.db.job_retry(id, now_ms()).await?;
        if let Some(kind) = &kind {
            self.notify_other_processes(kind).await?;
            self.wakeups.wake(kind);
        }
        Ok(kind)
    }

    /// Tells this process's and other processes' fetchers of `kind` that jobs are ready.
    pub async fn nudge(&self, kind: &str) -> Result<(), QueueError> {
        self.notify_other_processes(kind).await?;
        self.wakeups.wake(kind);
        Ok(())
    }

    async fn notify_other_processes(&self, kind: &str) -> Result<(), QueueError> {
        if let Db::Postgres(_) = self.db {
            let mut tx = self.db.begin().await?;
            tx.job_notify(kind).await?;
            tx.commit().await?;
        }
        Ok(())
    }

    /// When a failed attempt of a `spec` job runs again: its kind's backoff (by default
    /// exponential with ±50 % jitter, capped at an hour), and not before `at_least` when the
    /// handler was told when to come back.
    pub fn retry_at(
        &self,
        spec: &KindSpec,
        attempt: i32,
        at_least: Option<Duration>,
        now: i64,
    ) -> i64 {
        let delay =
            (spec.backoff)(self.settings.backoff_base, attempt).max(at_least.unwrap_or_default());
        now + delay.as_millis() as i64
    }
}

/// Delay before retry number `attempt` (1-based): `base * 2^(attempt-1)`, jittered, capped.
pub fn backoff(base: Duration, attempt: i32) -> Duration {
    let exp = base.saturating_mul(1u32 << attempt.clamp(1, 20).saturating_sub(1) as u32);
    let capped = exp.min(Duration::from_secs(3600));
    capped.mul_f64(rand::rng().random_range(0.5..1.5))
}

/// A transaction that can enqueue; workers are woken once it commits.
pub struct JobTx {
    tx: Tx,
    queue: Queue,
    wake: Vec<String>,
}

impl JobTx {
    /// The transaction, for the domain writes that belong with the jobs.
    pub fn tx(&mut self) -> &mut Tx {
        &mut self.tx
    }

    pub async fn enqueue(&mut self, job: NewJob) -> Result<Inserted, QueueError> {
        let spec = self.queue.spec(&job.kind)?;
        (spec.validate)(&job.payload).map_err(|message| QueueError::InvalidPayload {
            kind: job.kind.clone(),
            message,
        })?;
        let max_attempts = self.queue.max_attempts(&job.kind)?;
        let now = now_ms();
        let run_at = job.run_at.map(from_datetime).unwrap_or(now);
        let id = ulid::Ulid::new().to_string();
        let inserted = self
            .tx
            .job_insert(&JobInsert {
                id: &id,
                kind: &job.kind,
                payload: &job.payload,
                status: if run_at > now { "scheduled" } else { "queued" },
                max_attempts,
                run_at,
                created_at: now,
                idempotency_key: job.idempotency_key.as_deref(),
                active_key: job.active_key.as_deref(),
            })
            .await?;
        if inserted.created && run_at <= now && !self.wake.contains(&job.kind) {
            self.tx.job_notify(&job.kind).await?;
            self.wake.push(job.kind);
        }
        Ok(inserted)
    }

    pub async fn commit(self) -> Result<(), QueueError> {
        self.tx.commit().await?;
        for kind in &self.wake {
            self.queue.wakeups.wake(kind);
        }
        Ok(())
    }

    pub async fn rollback(self) -> Result<(), QueueError> {
        Ok(self.tx.rollback().await?)
    }
}

fn status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::domain::one_of_schema(&STATUSES)
}

/// `GET /api/jobs/{id}`: the job status contract of DESIGN.md.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub id: String,
    pub kind: String,
    #[schema(schema_with = status_schema)]
    pub status: String,
    pub attempts: i32,
    pub max_attempts: i32,
    pub progress: Option<Progress>,
    pub result: Option<Value>,
    pub error: Option<String>,
    pub created_at: String,
    pub run_at: String,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[schema(as = JobProgress)]
pub struct Progress {
    pub percent: i32,
    pub message: String,
}

impl From<JobRow> for JobView {
    fn from(r: JobRow) -> Self {
        Self {
            progress: r.progress_percent.map(|percent| Progress {
                percent,
                message: r.progress_message.clone().unwrap_or_default(),
            }),
            result: r.result.map(|j| j.0),
            // A retry's error stays visible while it waits; a success clears it.
            error: r.error,
            created_at: to_rfc3339(r.created_at),
            run_at: to_rfc3339(r.run_at),
            started_at: r.started_at.map(to_rfc3339),
            finished_at: r.finished_at.map(to_rfc3339),
            id: r.id,
            kind: r.kind,
            status: r.status,
            attempts: r.attempts,
            max_attempts: r.max_attempts,
        }
    }
}

/// Job statuses, as stored and shown.
pub const STATUSES: [&str; 7] = [
    "queued",
    "scheduled",
    "running",
    "retrying",
    "succeeded",
    "failed",
    "cancelled",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_with_jitter_and_is_capped() {
        let base = Duration::from_secs(2);
        for attempt in 1..=5 {
            let expected = 2.0 * f64::from(1u32 << (attempt - 1));
            let d = backoff(base, attempt).as_secs_f64();
            assert!(
                d >= expected * 0.5 && d < expected * 1.5,
                "attempt {attempt}: {d}"
            );
        }
        assert!(backoff(base, 40) <= Duration::from_secs(5400));
        let samples: Vec<_> = (0..20).map(|_| backoff(base, 3)).collect();
        assert!(
            samples.windows(2).any(|w| w[0] != w[1]),
            "jitter varies the delay"
        );
    }
}
