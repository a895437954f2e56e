//! Claiming jobs: the apalis backend of one kind, and the Postgres wake-up listener.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use apalis::prelude::*;
use futures::stream::BoxStream;
use futures::{FutureExt, StreamExt};
use jobs::db::{JobFetch, postgres::JOBS_CHANNEL};
use jobs::queue::Queue;
use jobs::time::now_ms;
use sqlx::PgPool;
use sqlx::postgres::PgListener;
use tokio_util::sync::CancellationToken;
use tracing::{error, warn};

use crate::Runtime;
use crate::run::JobEnvelope;

type Fetched = Result<Option<Task<JobEnvelope>>, BoxDynError>;

/// The apalis backend for `kind`: a stream of claimed jobs. Pushing goes through `Queue::enqueue`.
#[allow(clippy::type_complexity)]
pub(crate) fn backend(
    rt: Arc<Runtime>,
    kind: &'static str,
    concurrency: usize,
) -> CustomBackend<
    JobEnvelope,
    Arc<Runtime>,
    BoxStream<'static, Fetched>,
    futures::sink::SinkMapErr<
        futures::sink::Drain<Task<JobEnvelope>>,
        fn(std::convert::Infallible) -> BoxDynError,
    >,
> {
    let result = BackendBuilder::new()
        .database(rt)
        .fetcher(move |rt: &mut Arc<Runtime>, _: &(), _: &WorkerContext| {
            claim_stream(rt.clone(), kind, concurrency)
        })
        .sink(|_: &mut Arc<Runtime>, _: &()| {
            use futures::SinkExt;
            futures::sink::drain().sink_map_err(infallible as fn(_) -> BoxDynError)
        })
        .build();
    match result {
        Ok(backend) => backend,
        // All four parts are given above, so the builder cannot refuse.
        Err(e) => unreachable!("backend builder: {e}"),
    }
}

fn infallible(e: std::convert::Infallible) -> BoxDynError {
    match e {}
}

struct Claimer {
    rt: Arc<Runtime>,
    kind: &'static str,
    concurrency: usize,
    buffer: VecDeque<JobEnvelope>,
    /// The last claim came back full: more jobs are probably waiting.
    deep: bool,
    /// When the last claim returned: how fast its jobs started tells how deep the next one goes.
    last_claim: Option<Instant>,
}

/// A deep backlog whose last claim started within this is a kind of quick jobs.
const QUICK_DRAIN: Duration = Duration::from_millis(20);

/// Jobs one claim may hold, counting those claimed and not yet finished. A quiet queue is claimed
/// slot by slot, so one worker does not hold jobs others could start. While the backlog is deep
/// apalis asks for the next job as soon as one slot frees, so claiming only free slots would claim
/// one or two jobs per statement exactly when the queue is busiest, and the slots wait while a
/// claim is under way: 4 × the concurrency (2 × left a Postgres worker idle a third of the time),
/// and 8 × for quick jobs, whose drain is bound by the claims' round trips (Postgres, 100,000 no-op
/// jobs: 9,800–10,200 → 13,300–13,400 jobs/s). Slow jobs stay at 4 ×: a claimed job shows as
/// running and is out of other workers' reach until it starts.
fn claim_room(concurrency: usize, deep: bool, drained_in: Option<Duration>) -> usize {
    match (deep, drained_in) {
        (false, _) => concurrency,
        (true, Some(d)) if d <= QUICK_DRAIN => 8 * concurrency,
        (true, _) => 4 * concurrency,
    }
}

fn claim_stream(
    rt: Arc<Runtime>,
    kind: &'static str,
    concurrency: usize,
) -> BoxStream<'static, Fetched> {
    let claimer = Claimer {
        rt,
        kind,
        concurrency,
        buffer: VecDeque::new(),
        deep: false,
        last_claim: None,
    };
    futures::stream::unfold(claimer, |mut c| async move {
        let job = c.next_job().await?;
        Some((Ok(Some(Task::new(job))), c))
    })
    .boxed()
}

impl Claimer {
    /// The next claimed job, or `None` once the worker is stopping.
    async fn next_job(&mut self) -> Option<JobEnvelope> {
        let mut error_delay = Duration::from_millis(100);
        loop {
            if self.rt.stopping.is_cancelled() {
                return None;
            }
            if let Some(job) = self.buffer.pop_front() {
                return Some(job);
            }
            match self.claim().await {
                Ok(0) => self.wait().await,
                Ok(_) => error_delay = Duration::from_millis(100),
                Err(e) => {
                    error!(kind = self.kind, error = %e, "claiming jobs failed");
                    self.sleep_or_stop(error_delay).await;
                    error_delay = (error_delay * 2).min(Duration::from_secs(5));
                }
            }
        }
    }

    /// Claims up to [`claim_room`] jobs. A claimed job is cancellable at once, before it starts.
    async fn claim(&mut self) -> Result<usize, sqlx::Error> {
        // Before the write turn: waiting for it says nothing about how fast the jobs start.
        let drained_in = self.last_claim.map(|at| at.elapsed());
        let turn = self.rt.writes.take().await;
        // Counted after waiting for the turn: slots freed meanwhile join this claim.
        let claimed = &self.rt.claimed[self.kind];
        let room = claim_room(self.concurrency, self.deep, drained_in);
        let limit = room.saturating_sub(claimed.load(Ordering::Acquire)).max(1);
        let now = now_ms();
        let jobs = self
            .rt
            .queue
            .db
            .job_fetch(&JobFetch {
                kind: self.kind,
                worker_id: &self.rt.worker_id,
                now,
                limit: limit as i64,
            })
            .await;
        drop(turn);
        self.last_claim = Some(Instant::now());
        let jobs = jobs?;
        let n = jobs.len();
        self.deep = n == limit;
        claimed.fetch_add(n, Ordering::AcqRel);
        let mut running = self.rt.running.lock().ok();
        for j in jobs {
            let cancel = CancellationToken::new();
            if let Some(running) = running.as_mut() {
                running.insert(j.id.clone(), cancel.clone());
            }
            self.buffer.push_back(JobEnvelope {
                id: j.id,
                kind: self.kind,
                payload: j.payload.0,
                attempt: j.attempts,
                max_attempts: j.max_attempts,
                claimed_at: now,
                cancel,
            });
        }
        Ok(n)
    }

    /// Sleeps until a job may be ready: a wake-up, the next scheduled `run_at`, or the safety poll.
    async fn wait(&mut self) {
        let poll = self.rt.queue.settings.poll_interval;
        let Some(notify) = self.rt.queue.wakeups.get(self.kind) else {
            return self.sleep_or_stop(poll).await;
        };
        loop {
            // Only read here: on SQLite an empty claim would still take the write lock.
            let delay = match self.rt.queue.db.job_next_run_at(self.kind).await {
                Ok(Some(at)) => Duration::from_millis((at - now_ms()).max(0) as u64).min(poll),
                Ok(None) => poll,
                Err(e) => {
                    warn!(kind = self.kind, error = %e, "checking for due jobs failed");
                    poll
                }
            };
            if delay.is_zero() {
                return;
            }
            tokio::select! {
                _ = notify.notified() => return,
                _ = self.rt.stopping.cancelled() => return,
                _ = tokio::time::sleep(delay) => {}
            }
        }
    }

    async fn sleep_or_stop(&self, d: Duration) {
        tokio::select! {
            _ = self.rt.stopping.cancelled() => {}
            _ = tokio::time::sleep(d) => {}
        }
    }
}

/// Forwards Postgres notifications to the local fetchers. After a lost connection every kind is
/// woken, since notifications sent meanwhile are gone.
pub(crate) async fn listen_loop(pool: PgPool, queue: Queue, stop: CancellationToken) {
    let mut delay = Duration::from_millis(100);
    while !stop.is_cancelled() {
        let listener = async {
            let mut l = PgListener::connect_with(&pool).await?;
            l.listen(JOBS_CHANNEL).await?;
            Ok::<_, sqlx::Error>(l)
        };
        let mut listener = match listener.await {
            Ok(l) => l,
            Err(e) => {
                warn!(error = %e, "LISTEN failed; polling until it is back");
                tokio::select! {
                    _ = stop.cancelled() => return,
                    _ = tokio::time::sleep(delay) => {}
                }
                delay = (delay * 2).min(Duration::from_secs(5));
                continue;
            }
        };
        delay = Duration::from_millis(100);
        queue.wakeups.wake_all();
        loop {
            let next = tokio::select! {
                _ = stop.cancelled() => return,
                n = listener.try_recv().fuse() => n,
            };
            match next {
                Ok(Some(n)) => queue.wakeups.wake(n.payload()),
                Ok(None) => {
                    // The connection dropped and sqlx reconnected: anything sent meanwhile is lost.
                    queue.wakeups.wake_all();
                }
                Err(e) => {
                    warn!(error = %e, "LISTEN connection lost");
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_go_deeper_only_for_a_deep_backlog_of_quick_jobs() {
        // A quiet queue: the free slots only, however fast the last jobs started.
        assert_eq!(claim_room(16, false, Some(Duration::from_millis(1))), 16);
        // Deep, and the last claim's jobs all started within a few round trips.
        assert_eq!(claim_room(16, true, Some(QUICK_DRAIN)), 128);
        // Deep but slow jobs (or the first claim of a burst): no more held ahead than before.
        assert_eq!(claim_room(16, true, Some(Duration::from_secs(30))), 64);
        assert_eq!(claim_room(16, true, None), 64);
    }
}
