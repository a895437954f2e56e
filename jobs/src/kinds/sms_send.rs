//! `sms_send`: sends one SMS ledger row (a staff member's text or a meeting reminder) through the
//! SMS API, or, with none configured, records it as a demo message. At most once: the row is
//! claimed before the call; only a refused connection or a 429 puts it back for the queue's retry.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::ActivityInsert;
use crate::providers::sms::SmsOutcome;
use crate::queue::{JobContext, JobError, JobKind};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SmsSend {
    pub sms_id: String,
}

impl JobKind for SmsSend {
    const NAME: &'static str = "sms_send";
    const MAX_ATTEMPTS: i32 = 5;

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let status = deliver(&ctx, &self.sms_id).await?;
        Ok(json!({ "smsId": self.sms_id, "status": status }))
    }
}

/// Sends the row if it is still queued; its status afterwards. A retryable refusal is a
/// [`JobError::Retry`] (the row is queued again).
pub async fn deliver(ctx: &JobContext, id: &str) -> Result<String, JobError> {
    let db = ctx.db();
    let Some(row) = db.sms_get(id).await? else {
        return Err(JobError::Permanent(format!("SMS {id} not found")));
    };
    if db.sms_claim(id).await? == 0 {
        return Ok(row.status);
    }
    let now = || ctx.env.clock.now_ms();
    let (status, provider_id, error, activity) = match &ctx.env.providers.sms {
        None => (
            "demo",
            None,
            None,
            format!(
                "SMS to {} recorded in demo mode (no SMS service configured, not sent): {}",
                row.to_phone, row.body
            ),
        ),
        Some(api) => match api.send(&row.to_phone, &row.body).await {
            SmsOutcome::Sent(sid) => (
                "sent",
                sid,
                None,
                format!("SMS sent to {}: {}", row.to_phone, row.body),
            ),
            SmsOutcome::Retry(e) => {
                db.sms_requeue(id, &e).await?;
                return Err(JobError::Retry(e));
            }
            SmsOutcome::Failed(e) => (
                "failed",
                None,
                Some(e.clone()),
                format!("SMS to {} failed: {e}", row.to_phone),
            ),
            SmsOutcome::Unknown(e) => (
                "unknown",
                None,
                Some(e.clone()),
                format!("SMS to {} may not have been delivered: {e}", row.to_phone),
            ),
        },
    };
    db.sms_finish(id, status, provider_id.as_deref(), error.as_deref(), now())
        .await?;
    metrics::counter!("prospector_sms_messages_total", "status" => status).increment(1);
    if let Some(contact) = &row.contact_id {
        let mut tx = db.begin().await?;
        tx.activity_insert(&ActivityInsert {
            kind: if status == "failed" {
                "sms_failed"
            } else {
                "sms_sent"
            },
            description: &activity,
            entity_type: Some("contact"),
            entity_id: Some(contact),
            actor_id: row.actor_id.as_deref(),
        })
        .await?;
        tx.commit().await?;
    }
    Ok(status.to_string())
}
