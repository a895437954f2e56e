//! `webhook_deliver`: POSTs one delivery of an event to its endpoint, signed as Standard Webhooks
//! asks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), and records the attempt.
//!
//! A 2xx delivers it. Anything else is retried through the queue on the kind's own schedule
//! ([`rules::retry_delay`]: 8 attempts over about a day), a 429's or 503's `Retry-After` honoured
//! up to an hour; a 410 Gone or a refused address fails it at once. A delivery that failed all
//! its attempts adds to its endpoint's failure streak, and the fifth in a row disables the
//! endpoint (a 410 disables it at once); a success ends the streak. Delivery is at least once: a
//! worker that dies mid-POST sends it again, with the same `webhook-id` for the receiver to drop.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{WebhookAttemptRecord, WebhookOutcome};
use crate::domain::webhooks::{self as rules, DELIVER_KIND, MAX_RETRY_AFTER};
use crate::queue::{JobContext, JobError, JobKind};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebhookDeliver {
    /// The delivery, which is also its `webhook-id` (`msg_<ulid>`).
    pub delivery_id: String,
}

impl JobKind for WebhookDeliver {
    const NAME: &'static str = DELIVER_KIND;
    const MAX_ATTEMPTS: i32 = rules::MAX_ATTEMPTS;
    /// The POST's 10 s and the writes around it.
    const TIME_BUDGET: Duration = Duration::from_secs(60);

    fn validate(&self) -> Result<(), String> {
        if self.delivery_id.starts_with("msg_") {
            Ok(())
        } else {
            Err("deliveryId must be a webhook message id (msg_…)".into())
        }
    }

    fn backoff(base: Duration, attempt: i32) -> Duration {
        rules::retry_delay(base, attempt)
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db();
        let Some(d) = db.webhook_delivery_for_send(&self.delivery_id).await? else {
            return Ok(json!({ "skipped": "the delivery or its endpoint was deleted" }));
        };
        if d.status != "pending" || d.job_id.as_deref() != Some(ctx.id.as_str()) {
            // Delivered already, or redelivered since by another job, which sends it.
            return Ok(json!({ "skipped": format!("delivery is {}", d.status) }));
        }
        let now = || ctx.env.clock.now_ms();
        if !d.enabled {
            let error = "Not sent: the endpoint is disabled";
            db.webhook_delivery_skip(&d.id, error, now()).await?;
            return Err(JobError::Permanent(error.into()));
        }
        let webhooks = ctx.env.providers.webhooks.clone();
        // JOB_MAX_ATTEMPTS may lower the attempts; emitted jobs were stored with the default.
        let max = ctx
            .env
            .max_attempts(Self::NAME)
            .unwrap_or(rules::MAX_ATTEMPTS)
            .min(rules::MAX_ATTEMPTS);
        let last = ctx.attempt >= max;
        let attempted_at = now();
        let answer = match webhooks.sealer.open(&d.secret, &d.endpoint_id) {
            Some(secret) => {
                let timestamp = attempted_at / 1000;
                match rules::sign(&secret, &d.id, timestamp, &d.body) {
                    Some(signature) => {
                        let headers = [
                            ("webhook-id", d.id.clone()),
                            ("webhook-timestamp", timestamp.to_string()),
                            ("webhook-signature", signature),
                        ];
                        webhooks.post(&d.url, &headers, d.body.clone()).await
                    }
                    None => unreadable("the endpoint's secret is not a whsec_ secret"),
                }
            }
            None => unreadable(
                "the endpoint's secret cannot be opened (SECRET_KEY changed?): rotate the secret",
            ),
        };
        let outcome = if answer.delivered() {
            WebhookOutcome::Delivered
        } else if answer.status == Some(410) {
            WebhookOutcome::Gone
        } else if answer.refused || last {
            WebhookOutcome::Failed
        } else {
            WebhookOutcome::Retry
        };
        let error = answer.error.as_deref().map(|e| rules::clip(e, 1000));
        let disabled = db
            .webhook_attempt_record(&WebhookAttemptRecord {
                delivery_id: &d.id,
                endpoint_id: &d.endpoint_id,
                job_id: &ctx.id,
                attempted_at,
                duration_ms: answer.elapsed.as_millis() as i64,
                status_code: answer.status.map(i32::from),
                error,
                response: answer.response.as_deref(),
                outcome,
                now: now(),
            })
            .await?;
        if let Some(reason) = &disabled {
            tracing::warn!(endpoint_id = %d.endpoint_id, %reason, "webhook endpoint disabled");
        }
        let error = error.unwrap_or("failed").to_string();
        match outcome {
            WebhookOutcome::Delivered => Ok(json!({
                "deliveryId": d.id,
                "status": answer.status,
                "durationMs": answer.elapsed.as_millis() as u64,
            })),
            WebhookOutcome::Retry => match answer.retry_after {
                Some(after) => Err(JobError::RetryAfter {
                    error,
                    after: after.min(MAX_RETRY_AFTER),
                }),
                None => Err(JobError::Retry(error)),
            },
            WebhookOutcome::Failed | WebhookOutcome::Gone => Err(JobError::Permanent(error)),
        }
    }
}

/// An attempt that could not be signed: no request is made, and retrying will not help.
fn unreadable(why: &str) -> crate::providers::webhooks::Answer {
    crate::providers::webhooks::Answer {
        error: Some(format!("Not sent: {why}")),
        refused: true,
        ..Default::default()
    }
}
