//! The scheduler: cron ticks (apalis-cron) that only enqueue. Each tick's job carries the idempotency
//! key `cron:{name}:{tick}`, so any number of schedulers on one database make exactly one job a tick.

use std::str::FromStr;

use apalis_cron::CronScheduler;
use futures::StreamExt;
use jobs::kinds::{MailboxTick, PruneJobs, ReminderTick, SequenceTick};
use jobs::queue::{JobKind, NewJob, Queue};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;
use tracing::{error, info};

/// One recurring job.
#[derive(Debug, Clone)]
pub struct CronEntry {
    pub name: &'static str,
    /// Cron expression with seconds: `sec min hour day-of-month month day-of-week`.
    pub expression: String,
    /// The setting it comes from, named in errors.
    pub setting: &'static str,
    pub kind: &'static str,
    pub payload: Value,
}

#[derive(Debug, thiserror::Error)]
#[error("{setting}: invalid cron expression {expression:?} ({message})")]
pub struct ScheduleError {
    pub setting: &'static str,
    pub expression: String,
    pub message: String,
}

/// The recurring jobs of this build.
pub fn entries(queue: &Queue) -> Vec<CronEntry> {
    vec![
        CronEntry {
            name: "prune_jobs",
            expression: queue.settings.prune_cron.clone(),
            setting: "JOB_PRUNE_CRON",
            kind: PruneJobs::NAME,
            payload: json!({}),
        },
        CronEntry {
            name: "sequence_tick",
            expression: queue.settings.sequence_tick_cron.clone(),
            setting: "SEQUENCE_TICK_CRON",
            kind: SequenceTick::NAME,
            payload: json!({}),
        },
        CronEntry {
            name: "reminder_tick",
            expression: queue.settings.reminder_tick_cron.clone(),
            setting: "REMINDER_TICK_CRON",
            kind: ReminderTick::NAME,
            payload: json!({}),
        },
        CronEntry {
            name: "mailbox_tick",
            expression: queue.settings.mailbox_sync_cron.clone(),
            setting: "MAILBOX_SYNC_CRON",
            kind: MailboxTick::NAME,
            payload: json!({}),
        },
    ]
}

fn parse(entry: &CronEntry) -> Result<cron::Schedule, ScheduleError> {
    cron::Schedule::from_str(&entry.expression).map_err(|e| ScheduleError {
        setting: entry.setting,
        expression: entry.expression.clone(),
        message: e.to_string(),
    })
}

/// Checks every expression, so a bad setting stops start-up rather than a tick.
pub fn validate(entries: &[CronEntry]) -> Result<(), ScheduleError> {
    entries.iter().try_for_each(|e| parse(e).map(|_| ()))
}

/// Runs until `shutdown` fires.
pub async fn run(
    queue: Queue,
    entries: Vec<CronEntry>,
    shutdown: CancellationToken,
) -> Result<(), ScheduleError> {
    let mut tasks = Vec::new();
    for entry in entries {
        let schedule = parse(&entry)?;
        let queue = queue.clone();
        let shutdown = shutdown.clone();
        tasks.push(tokio::spawn(async move {
            let mut ticks = CronScheduler::new(schedule).into_stream().boxed();
            loop {
                let tick = tokio::select! {
                    _ = shutdown.cancelled() => break,
                    t = ticks.next() => t,
                };
                match tick {
                    Some(Ok(tick)) => enqueue_tick(&queue, &entry, tick.get_timestamp()).await,
                    Some(Err(e)) => error!(name = entry.name, error = %e, "cron schedule error"),
                    None => break,
                }
            }
        }));
    }
    info!(entries = tasks.len(), "scheduler started");
    for t in tasks {
        let _ = t.await;
    }
    info!("scheduler stopped");
    Ok(())
}

async fn enqueue_tick(queue: &Queue, entry: &CronEntry, tick: u64) {
    let job = NewJob::new(entry.kind, entry.payload.clone())
        .idempotency_key(format!("cron:{}:{tick}", entry.name));
    match queue.enqueue(job).await {
        Ok(inserted) if inserted.created => {
            info!(name = entry.name, tick, job_id = %inserted.id, "cron tick enqueued")
        }
        Ok(_) => {} // another scheduler enqueued this tick first
        Err(e) => error!(name = entry.name, tick, error = %e, "cron tick could not be enqueued"),
    }
}
