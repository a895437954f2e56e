//! `mailbox_tick`: enqueued by the scheduler (`MAILBOX_SYNC_CRON`, every 2 minutes). Starts one
//! `mailbox_sync` per connected mailbox, each waiting in IDLE up to `MAILBOX_IDLE_SECONDS`; a
//! mailbox whose sync is still queued or running (a long IDLE, a retry) gets no second one.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kinds::MailboxSync;
use crate::queue::{JobContext, JobError, JobKind, NewJob};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailboxTick {}

/// The key that keeps one scheduled sync per mailbox at a time.
pub fn sync_key(mailbox_id: &str) -> String {
    format!("mailbox_sync:{mailbox_id}")
}

impl JobKind for MailboxTick {
    const NAME: &'static str = "mailbox_tick";
    const MAX_ATTEMPTS: i32 = 1;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let idle_seconds = ctx
            .env
            .settings
            .mailbox_idle_seconds
            .min(crate::kinds::mailbox_sync::MAX_IDLE_SECONDS);
        let ids = ctx.db().mailbox_ids().await?;
        let retry = |e: crate::queue::QueueError| JobError::Retry(e.to_string());
        let mut enqueued = 0;
        for id in &ids {
            let job = MailboxSync {
                mailbox_id: id.clone(),
                test: false,
                idle_seconds,
            };
            let inserted = ctx
                .env
                .enqueue(
                    NewJob::new(MailboxSync::NAME, json!(job)).unique_while_active(sync_key(id)),
                )
                .await
                .map_err(retry)?;
            if inserted.created {
                enqueued += 1;
            }
        }
        Ok(json!({ "mailboxes": ids.len(), "enqueued": enqueued }))
    }
}
