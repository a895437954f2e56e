//! `prune_jobs`: deletes finished jobs older than the retention period (and expired sessions and
//! finished webhook deliveries).
//! The scheduler enqueues it on `JOB_PRUNE_CRON`.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::queue::{JobContext, JobError, JobKind};
use crate::time::now_ms;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PruneJobs {}

/// Rows per delete, so a large backlog never holds a long lock.
const BATCH: i64 = 5_000;

impl JobKind for PruneJobs {
    const NAME: &'static str = "prune_jobs";

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let now = now_ms();
        let cutoff = now - ctx.env.settings.retention.as_millis() as i64;
        let mut deleted = 0;
        loop {
            let n = ctx.db().job_prune(cutoff, BATCH).await?;
            deleted += n;
            if n < BATCH as u64 || ctx.cancel.is_cancelled() {
                break;
            }
        }
        let sessions = ctx.db().session_delete_expired(now).await?;
        // Webhook deliveries (and their attempts) finished as long ago go with them.
        let mut deliveries = 0;
        loop {
            let n = ctx.db().webhook_deliveries_prune(cutoff, BATCH).await?;
            deliveries += n;
            if n < BATCH as u64 || ctx.cancel.is_cancelled() {
                break;
            }
        }
        Ok(json!({
            "deleted": deleted,
            "expiredSessions": sessions,
            "webhookDeliveries": deliveries,
        }))
    }
}
