//! The worker: an apalis `Monitor` with one apalis worker per job kind, fed by a backend of our own
//! over the `jobs` table.
//!
//! Why our own backend: apalis' SQL backends retry at once (no persisted backoff), have no
//! idempotency keys, progress, cancellation or per-job rescue, and their completion query slows
//! down with every job a worker has finished. Here a fetch claims a batch in one statement, results
//! are written in batches by one writer task, wake-ups come from the enqueuer (in-process `Notify`,
//! Postgres `LISTEN/NOTIFY`) with a short safety poll, and a per-process heartbeat lets any worker
//! rescue the jobs of a dead one without ever touching a healthy long-running job.
//!
//! Errors: start-up returns `anyhow::Error`; inside, database errors are logged and retried, never
//! allowed to drop a job's outcome.

mod fetch;
mod run;

use std::collections::HashMap;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use apalis::prelude::*;
use jobs::db::{Db, FinishItem, JobFinishBatch, JobRelease, JobRescue, WorkerRow};
use jobs::queue::Queue;
use jobs::time::now_ms;
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use tracing::{error, info, warn};

pub use run::JobEnvelope;

/// What a worker process runs.
#[derive(Debug, Clone, Default)]
pub struct WorkerOptions {
    /// Kinds to run; `None` runs every registered kind.
    pub kinds: Option<Vec<String>>,
    /// Per-kind concurrency; `None` uses `WORKER_CONCURRENCY`.
    pub concurrency: Option<usize>,
}

/// Shared state of one worker process.
pub(crate) struct Runtime {
    pub queue: Queue,
    pub worker_id: Arc<str>,
    /// Cancellation handles of the jobs running here, by id.
    pub running: Mutex<HashMap<String, CancellationToken>>,
    /// Jobs claimed per kind (running or about to start).
    pub claimed: HashMap<&'static str, Arc<AtomicUsize>>,
    pub finisher: mpsc::UnboundedSender<FinisherMsg>,
    pub writes: Arc<WriteTurns>,
    /// Set on shutdown: stop claiming jobs.
    pub stopping: CancellationToken,
    /// Set when the shutdown grace period is over: abandon running jobs (they go back to the queue).
    pub abort: CancellationToken,
    pub started: broadcast::Sender<String>,
}

/// SQLite has one write lock per file, and its busy handler waits for it by sleeping (1, 2, 5 ms,
/// ...): claimers and the outcome writer of one process take turns here instead, so none of them
/// sleeps while the lock is free. Postgres locks rows, so there every writer goes ahead.
pub(crate) struct WriteTurns(Option<tokio::sync::Mutex<()>>);

impl WriteTurns {
    fn new(db: &Db) -> Self {
        Self(matches!(db, Db::Sqlite(_)).then(|| tokio::sync::Mutex::new(())))
    }
    pub async fn take(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match &self.0 {
            Some(m) => Some(m.lock().await),
            None => None,
        }
    }
}

pub(crate) enum FinisherMsg {
    Item(FinishItem),
    Flush(oneshot::Sender<()>),
}

/// A running worker process.
pub struct WorkerHandle {
    pub worker_id: String,
    shutdown: CancellationToken,
    started: broadcast::Sender<String>,
    join: tokio::task::JoinHandle<anyhow::Result<()>>,
}

impl WorkerHandle {
    /// Ids of jobs as their handlers start (benchmarks measure enqueue-to-start with it).
    pub fn subscribe_started(&self) -> broadcast::Receiver<String> {
        self.started.subscribe()
    }

    /// Graceful stop: no new jobs; running ones get the grace period, then go back to the queue.
    pub async fn shutdown(self) -> anyhow::Result<()> {
        self.shutdown.cancel();
        self.join.await.context("worker task panicked")?
    }
}

/// Starts a worker in the background; it stops when `shutdown` fires.
pub async fn start(
    queue: Queue,
    options: WorkerOptions,
    shutdown: CancellationToken,
) -> anyhow::Result<WorkerHandle> {
    let kinds: Vec<&'static str> = match &options.kinds {
        None => queue.registry.kinds().collect(),
        Some(wanted) => wanted
            .iter()
            .map(|k| queue.spec(k).map(|s| s.name))
            .collect::<Result<_, _>>()?,
    };
    let concurrency = options
        .concurrency
        .unwrap_or(queue.settings.concurrency)
        .max(1);
    let worker_id: Arc<str> = ulid::Ulid::new().to_string().into();
    let now = now_ms();
    queue
        .db
        .worker_upsert(&WorkerRow {
            id: worker_id.to_string(),
            hostname: hostname(),
            pid: std::process::id() as i32,
            kinds: kinds.join(","),
            concurrency: concurrency as i32,
            started_at: now,
            heartbeat_at: now,
        })
        .await
        .context("registering the worker")?;

    let (finisher_tx, finisher_rx) = mpsc::unbounded_channel();
    let (started, _) = broadcast::channel(4096);
    let writes = Arc::new(WriteTurns::new(&queue.db));
    let rt = Arc::new(Runtime {
        queue: queue.clone(),
        worker_id: worker_id.clone(),
        running: Mutex::new(HashMap::new()),
        claimed: kinds
            .iter()
            .map(|k| (*k, Arc::new(AtomicUsize::new(0))))
            .collect(),
        finisher: finisher_tx,
        writes: writes.clone(),
        stopping: shutdown.child_token(),
        abort: CancellationToken::new(),
        started: started.clone(),
    });
    info!(worker_id = %worker_id, kinds = %kinds.join(","), concurrency, "worker started");

    let finisher = tokio::spawn(finisher_loop(
        queue.db.clone(),
        worker_id.clone(),
        writes,
        finisher_rx,
    ));
    let maintenance = tokio::spawn(maintenance_loop(rt.clone()));
    let listener = match &queue.db {
        Db::Postgres(pools) => Some(tokio::spawn(fetch::listen_loop(
            pools.read().clone(),
            queue.clone(),
            rt.stopping.clone(),
        ))),
        Db::Sqlite(_) => None,
    };

    let mut monitor = Monitor::new();
    for kind in kinds {
        let rt = rt.clone();
        monitor = monitor.register(move |_| {
            WorkerBuilder::new(format!("{kind}@{}", rt.worker_id))
                .backend(fetch::backend(rt.clone(), kind, concurrency))
                .concurrency(concurrency)
                .data(rt.clone())
                .build(run::execute)
        });
    }

    let grace = queue.settings.shutdown_grace;
    let join = tokio::spawn({
        let rt = rt.clone();
        let shutdown = shutdown.clone();
        async move {
            let stop = shutdown.clone();
            let abort = rt.abort.clone();
            let grace_timer = tokio::spawn(async move {
                stop.cancelled().await;
                tokio::time::sleep(grace).await;
                abort.cancel();
            });
            let signal = {
                let s = shutdown.clone();
                async move {
                    s.cancelled().await;
                    Ok(())
                }
            };
            if let Err(e) = monitor.run_with_signal(signal).await {
                error!(error = %e, "worker monitor stopped with an error");
            }
            grace_timer.abort();
            rt.stopping.cancel();
            finish_shutdown(&rt).await;
            maintenance.abort();
            if let Some(l) = listener {
                l.abort();
            }
            drop(rt);
            finisher.abort();
            Ok(())
        }
    });
    Ok(WorkerHandle {
        worker_id: worker_id.to_string(),
        shutdown,
        started,
        join,
    })
}

/// After the monitor stops: write every outcome, return what is still claimed, leave the registry.
async fn finish_shutdown(rt: &Runtime) {
    let (tx, rx) = oneshot::channel();
    if rt.finisher.send(FinisherMsg::Flush(tx)).is_ok() {
        let _ = rx.await;
    }
    match rt
        .queue
        .db
        .job_release(&JobRelease {
            worker_id: &rt.worker_id,
            ids: None,
        })
        .await
    {
        Ok(0) => {}
        Ok(n) => info!(released = n, "returned unfinished jobs to the queue"),
        Err(e) => error!(error = %e, "could not return jobs to the queue; they will be rescued"),
    }
    if let Err(e) = rt.queue.db.worker_delete(&rt.worker_id).await {
        warn!(error = %e, "could not remove the worker row");
    }
    info!(worker_id = %rt.worker_id, "worker stopped");
}

/// The one writer of job outcomes: drains whatever is waiting into one batch, so completions cost
/// one transaction per batch, not per job, and add no delay when the queue is quiet.
async fn finisher_loop(
    db: Db,
    worker_id: Arc<str>,
    writes: Arc<WriteTurns>,
    mut rx: mpsc::UnboundedReceiver<FinisherMsg>,
) {
    const MAX_BATCH: usize = 1000;
    let mut batch = Vec::with_capacity(MAX_BATCH);
    let mut flushes = Vec::new();
    while let Some(msg) = rx.recv().await {
        let mut next = Some(msg);
        while let Some(msg) = next.take() {
            match msg {
                FinisherMsg::Item(item) => batch.push(item),
                FinisherMsg::Flush(ack) => flushes.push(ack),
            }
            if batch.len() < MAX_BATCH {
                next = rx.try_recv().ok();
            }
        }
        let mut delay = Duration::from_millis(50);
        while !batch.is_empty() {
            let p = JobFinishBatch {
                worker_id: &worker_id,
                now: now_ms(),
                items: &batch,
            };
            let turn = writes.take().await;
            let written = db.job_finish_batch(&p).await;
            drop(turn);
            match written {
                Ok(()) => batch.clear(),
                Err(e) => {
                    // Outcomes are never dropped: keep the batch and try again.
                    error!(error = %e, jobs = batch.len(), "writing job outcomes failed; retrying");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(Duration::from_secs(5));
                }
            }
        }
        for ack in flushes.drain(..) {
            let _ = ack.send(());
        }
    }
}

/// Heartbeat, cancellation requests and rescue of jobs whose worker died.
async fn maintenance_loop(rt: Arc<Runtime>) {
    let settings = rt.queue.settings.clone();
    let db = rt.queue.db.clone();
    // Cancellation requests are checked more often than heartbeats are written.
    let cancel_every = Duration::from_millis(250).min(settings.heartbeat_interval);
    let mut last_heartbeat = tokio::time::Instant::now();
    loop {
        tokio::time::sleep(cancel_every).await;
        let has_running = rt.running.lock().map(|r| !r.is_empty()).unwrap_or(false);
        if has_running {
            match db.job_cancel_requested(&rt.worker_id).await {
                Ok(ids) => {
                    if let Ok(running) = rt.running.lock() {
                        for id in ids {
                            if let Some(token) = running.get(&id) {
                                token.cancel();
                            }
                        }
                    }
                }
                Err(e) => warn!(error = %e, "checking for cancelled jobs failed"),
            }
        }
        if last_heartbeat.elapsed() < settings.heartbeat_interval {
            continue;
        }
        last_heartbeat = tokio::time::Instant::now();
        let now = now_ms();
        if let Err(e) = db.worker_heartbeat(&rt.worker_id, now).await {
            warn!(error = %e, "heartbeat failed");
            continue;
        }
        let cutoff = now - settings.heartbeat_timeout.as_millis() as i64;
        let rescue = JobRescue {
            now,
            cutoff,
            error: "worker stopped heartbeating; job rescued",
        };
        match db.job_rescue(&rescue).await {
            Ok(rescued) => {
                for job in &rescued {
                    warn!(job_id = %job.id, kind = %job.kind, status = %job.status, "rescued job of a dead worker");
                    rt.queue.wakeups.wake(&job.kind);
                }
            }
            Err(e) => warn!(error = %e, "rescue failed"),
        }
        let _ = db.worker_delete_dead(cutoff).await;
    }
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".into())
}
