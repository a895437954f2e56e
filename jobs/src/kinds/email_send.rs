//! `email_send`: sends one ledger message written by the api (a direct email to a contact). Limits
//! and deferrals hand over to a follow-up run at the time the message is due; the ledger row is
//! claimed before the SMTP conversation, so a retried or rescued job never sends it twice.

use chrono::{TimeZone, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::email::compose::body_html;
use crate::mailing::{self, Pick};
use crate::queue::{JobContext, JobError, JobKind, NewJob};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EmailSend {
    pub message_id: String,
}

impl JobKind for EmailSend {
    const NAME: &'static str = "email_send";

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db().clone();
        let mailing = ctx.env.providers.mailing.clone();
        let Some((status, _)) = db.message_status(&self.message_id).await? else {
            return Err(JobError::Permanent(format!(
                "message {} not found",
                self.message_id
            )));
        };
        if status != "queued" && status != "deferred" {
            return Ok(json!({ "messageId": self.message_id, "status": status }));
        }
        if let Some(why) = mailing.send_blocked() {
            return Err(JobError::Permanent(why.into()));
        }
        let mailbox = mailing::address_of(&mailing.sender.from);
        let content = |m: &crate::db::ClaimedMessage| {
            (
                m.subject.clone().unwrap_or_default(),
                body_html(m.body.as_deref().unwrap_or_default()),
                "all".to_string(),
            )
        };
        let r = mailing::send_round(
            ctx.db(),
            ctx.claimant(),
            &mailing,
            Pick::Ids(std::slice::from_ref(&self.message_id)),
            &mailbox,
            &content,
        )
        .await?;
        let (status, due) = db
            .message_status(&self.message_id)
            .await?
            .unwrap_or_default();
        let retry_at = if r.deferred > 0 { due } else { r.limited_until };
        if let Some(at) = retry_at
            && let Some(when) = Utc.timestamp_millis_opt(at).single()
        {
            ctx.env
                .enqueue(
                    NewJob::new(Self::NAME, json!({ "messageId": self.message_id }))
                        .idempotency_key(format!(
                            "email_send:{}:after:{}:{}",
                            self.message_id, ctx.id, ctx.attempt
                        ))
                        .run_at(when),
                )
                .await
                .map_err(|e| JobError::Retry(e.to_string()))?;
        }
        Ok(json!({ "messageId": self.message_id, "status": status }))
    }
}
