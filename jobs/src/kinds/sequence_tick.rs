//! `sequence_tick`: enqueued by the scheduler every few seconds. It leases the due enrollments of
//! active sequences (an index on the next action time finds them) and enqueues one
//! `sequence_step_send` per sequence step and batch, in the lease's transaction. A leased enrollment
//! is skipped by later ticks (and by a second scheduler's) until its step job moves it on, or the
//! lease ends because that job was lost: no step is enqueued twice, none is dropped.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kinds::SequenceStepSend;
use crate::kinds::sequence_step_send::DueRef;
use crate::queue::{JobContext, JobError, JobKind, NewJob};

/// Steps leased per tick at most; the rest wait for the next tick.
pub const TICK_MAX: i64 = 20_000;
/// Enrollments per step job: large enough that a job's reads and writes are a few statements,
/// small enough that many jobs share the work.
pub const BATCH: usize = 200;
/// How long a step job has before a later tick hands its enrollments out again.
pub const LEASE_MS: i64 = 15 * 60_000;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequenceTick {}

impl JobKind for SequenceTick {
    const NAME: &'static str = "sequence_tick";
    const MAX_ATTEMPTS: i32 = 1;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let now = ctx.env.clock.now_ms();
        let lease_until = now + LEASE_MS;
        let retry = |e: crate::queue::QueueError| JobError::Retry(e.to_string());
        let mut tx = ctx.env.begin().await.map_err(retry)?;
        let due = tx
            .tx()
            .enrollments_lease(now, lease_until, TICK_MAX)
            .await?;
        // Batches of one sequence step each, earliest due first.
        let mut groups: Vec<((String, i32), Vec<DueRef>)> = Vec::new();
        for d in due.iter() {
            let key = (d.sequence_id.clone(), d.current_step);
            let item = DueRef {
                id: d.id.clone(),
                due_at: d.next_action_at,
            };
            match groups
                .iter_mut()
                .rev()
                .find(|(k, v)| *k == key && v.len() < BATCH)
            {
                Some((_, v)) => v.push(item),
                None => groups.push((key, vec![item])),
            }
        }
        for (n, ((sequence_id, step), batch)) in groups.iter().enumerate() {
            let job = SequenceStepSend {
                sequence_id: sequence_id.clone(),
                step: *step,
                due: batch.clone(),
            };
            // The lease time makes the key new when a lost batch is handed out again.
            let key = format!("seq:{sequence_id}:{step}:{lease_until}:{n}");
            tx.enqueue(NewJob::new(SequenceStepSend::NAME, json!(job)).idempotency_key(key))
                .await
                .map_err(retry)?;
        }
        tx.commit().await.map_err(retry)?;
        Ok(json!({ "due": due.len(), "jobs": groups.len() }))
    }
}
