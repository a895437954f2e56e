//! `sequence_tick`: enqueued by the scheduler every few seconds; enqueues one `sequence_step_send`
//! per due enrollment (an index on the next action time finds them). The key
//! `seq:{enrollment}:{step}:{due}` makes overlapping ticks, and two schedulers, enqueue a step once.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kinds::SequenceStepSend;
use crate::queue::{JobContext, JobError, JobKind, NewJob};

/// Steps enqueued per tick at most; the rest wait for the next tick.
pub const TICK_MAX: i64 = 20_000;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequenceTick {}

impl JobKind for SequenceTick {
    const NAME: &'static str = "sequence_tick";
    const MAX_ATTEMPTS: i32 = 1;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let now = ctx.queue.clock.now_ms();
        let due = ctx.db().enrollments_due(now, TICK_MAX).await?;
        let mut tx = ctx
            .queue
            .begin()
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        for d in &due {
            let step = SequenceStepSend {
                enrollment_id: d.id.clone(),
                step: d.current_step,
                due_at: d.next_action_at,
            };
            tx.enqueue(
                NewJob::new(SequenceStepSend::NAME, json!(step)).idempotency_key(format!(
                    "seq:{}:{}:{}",
                    d.id, d.current_step, d.next_action_at
                )),
            )
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        }
        tx.commit()
            .await
            .map_err(|e| JobError::Retry(e.to_string()))?;
        Ok(json!({ "due": due.len() }))
    }
}
