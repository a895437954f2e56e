//! Running one claimed job: time budget, cancellation, panics, and the outcome.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use apalis::prelude::*;
use futures::FutureExt;
use jobs::db::{Finish, FinishItem};
use jobs::queue::{JobContext, JobEnv, JobError, KindSpec};
use jobs::time::now_ms;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, info_span, warn};

use crate::{FinisherMsg, Runtime};

/// A claimed job as it travels through apalis.
#[derive(Debug, Clone)]
pub struct JobEnvelope {
    pub id: String,
    pub kind: &'static str,
    pub payload: Value,
    pub attempt: i32,
    pub max_attempts: i32,
    pub claimed_at: i64,
    /// In `Runtime::running` from the claim on, so a cancel reaches a job still waiting to start.
    pub cancel: CancellationToken,
}

/// The apalis service: runs the job on its own task (so jobs use every core) and reports.
pub(crate) async fn execute(job: JobEnvelope, rt: Data<Arc<Runtime>>) -> Result<(), BoxDynError> {
    let rt: Arc<Runtime> = (*rt).clone();
    let span = info_span!("job", job_id = %job.id, kind = job.kind, attempt = job.attempt);
    let handle = tokio::spawn(run_one(rt, job).instrument(span));
    // run_one catches the handler's panics itself; a JoinError here means the runtime is going away.
    let _ = handle.await;
    Ok(())
}

async fn run_one(rt: Arc<Runtime>, job: JobEnvelope) {
    let _ = rt.started.send(job.id.clone());
    let started = Instant::now();
    let cancel = job.cancel.clone();
    let finish = match rt.queue.registry.get(job.kind) {
        None => Finish::Failed {
            error: format!("no handler for kind {}", job.kind),
        },
        Some(spec) => {
            let budget = rt.queue.time_budget(spec);
            let ctx = JobContext {
                id: job.id.clone(),
                attempt: job.attempt,
                worker_id: rt.worker_id.clone(),
                env: JobEnv::new(&rt.queue),
                cancel: cancel.clone(),
                deadline: tokio::time::Instant::now() + budget,
            };
            let handler = AssertUnwindSafe((spec.handler)(job.payload, ctx)).catch_unwind();
            tokio::select! {
                biased;
                _ = cancel.cancelled() => Finish::Cancelled,
                _ = rt.abort.cancelled() => Finish::Released,
                outcome = tokio::time::timeout(budget, handler) => match outcome {
                    Err(_) => Finish::Failed {
                        error: format!("time budget of {} s exceeded", budget.as_secs()),
                    },
                    Ok(Err(panic)) => retry_or_fail(&rt, spec, (&job.id, job.attempt, job.max_attempts), panic_text(&panic), None),
                    Ok(Ok(Ok(result))) => Finish::Succeeded { result: Some(result) },
                    Ok(Ok(Err(JobError::Retry(e)))) => retry_or_fail(&rt, spec, (&job.id, job.attempt, job.max_attempts), e, None),
                    Ok(Ok(Err(JobError::RetryAfter { error, after }))) => {
                        retry_or_fail(&rt, spec, (&job.id, job.attempt, job.max_attempts), error, Some(after))
                    }
                    Ok(Ok(Err(JobError::Permanent(e)))) => Finish::Failed { error: e },
                },
            }
        }
    };
    if let Ok(mut running) = rt.running.lock() {
        running.remove(&job.id);
    }
    let status = match &finish {
        Finish::Succeeded { .. } => "succeeded",
        Finish::Retry { .. } => "retrying",
        Finish::Failed { .. } => "failed",
        Finish::Cancelled => "cancelled",
        Finish::Released => "released",
    };
    if let Finish::Failed { error } | Finish::Retry { error, .. } = &finish {
        warn!(job_id = %job.id, kind = job.kind, attempt = job.attempt, error = %error, "job attempt failed");
    }
    metrics::histogram!("prospector_job_run_seconds", "kind" => job.kind, "status" => status)
        .record(started.elapsed().as_secs_f64());
    metrics::counter!("prospector_jobs_finished_total", "kind" => job.kind, "status" => status)
        .increment(1);
    let item = FinishItem {
        id: job.id,
        attempt: job.attempt,
        started_at: job.claimed_at,
        finish,
    };
    if rt.finisher.send(FinisherMsg::Item(item)).is_err() {
        warn!("outcome writer is gone; the job will be returned to the queue");
    }
    rt.claimed[job.kind].fetch_sub(1, Ordering::AcqRel);
}

/// Another attempt after the kind's backoff (and not before `at_least`), or failed when the
/// attempts are spent.
fn retry_or_fail(
    rt: &Runtime,
    spec: &KindSpec,
    (id, attempt, max_attempts): (&str, i32, i32),
    error: String,
    at_least: Option<std::time::Duration>,
) -> Finish {
    if attempt < max_attempts {
        Finish::Retry {
            run_at: rt.queue.retry_at(spec, attempt, at_least, now_ms()),
            error,
        }
    } else {
        tracing::debug!(job_id = id, "attempts exhausted");
        Finish::Failed { error }
    }
}

fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    let msg = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".into());
    format!("job panicked: {msg}")
}
