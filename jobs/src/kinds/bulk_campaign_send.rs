//! `bulk_campaign_send`: sends a bulk campaign. The first run writes one ledger row per recipient
//! (idempotent), then every run sends ready rows in rounds of `MAIL_SEND_CONCURRENCY × 2`, with
//! progress, until none is left. A full limit window or deferred recipients end the run with a
//! follow-up run enqueued for when they are due; pausing or cancelling the campaign ends it too.

use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use futures::SinkExt;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{Audience, CampaignRow, Materialize};
use crate::email::compose::body_html;
use crate::mailing::{self, Pick, RoundReport};
use crate::queue::{JobContext, JobError, JobKind, NewJob};
use crate::time::now_ms;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkCampaignSend {
    pub campaign_id: String,
}

/// A run stops taking new rounds this long before its time budget ends, and hands over.
const HANDOVER: Duration = Duration::from_secs(30);

/// The audience stored with a campaign.
pub fn campaign_audience(c: &CampaignRow) -> Audience {
    let f = c.target_filters.as_ref().map(|j| &j.0);
    let list = |key: &str| -> Vec<String> {
        f.and_then(|f| f.get(key))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    };
    let int = |key: &str| {
        f.and_then(|f| f.get(key))
            .and_then(Value::as_i64)
            .and_then(|v| i32::try_from(v).ok())
    };
    Audience {
        score_min: int("scoreMin"),
        score_max: int("scoreMax"),
        statuses: list("statuses"),
        states: list("states"),
        contact_ids: c.selected_contact_ids.as_ref().map(|ids| {
            ids.0
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        }),
    }
}

impl JobKind for BulkCampaignSend {
    const NAME: &'static str = "bulk_campaign_send";
    const TIME_BUDGET: Duration = Duration::from_secs(30 * 60);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db().clone();
        let mailing = ctx.env.providers.mailing.clone();
        let campaign = db.campaign_get(&self.campaign_id).await?.ok_or_else(|| {
            JobError::Permanent(format!("campaign {} not found", self.campaign_id))
        })?;
        // A scheduled campaign starts here; a paused or cancelled one is left alone.
        if !db
            .campaign_set_status(&campaign.id, &["scheduled", "sending"], "sending", now_ms())
            .await?
        {
            return Ok(json!({ "campaignId": campaign.id, "skipped": campaign.status }));
        }
        if let Some(why) = mailing.send_blocked() {
            return Err(JobError::Permanent(why.into()));
        }
        // The composer's body when the campaign has one, else its template's.
        let (subject, body) = match db.campaign_body(&campaign.id).await? {
            Some(body) => (campaign.subject.clone().unwrap_or_default(), body),
            None => {
                let template = match &campaign.template_id {
                    Some(id) => db.template_get(id).await?,
                    None => None,
                }
                .ok_or_else(|| {
                    JobError::Permanent("the campaign's template no longer exists".into())
                })?;
                (
                    campaign.subject.clone().unwrap_or(template.subject),
                    template.body,
                )
            }
        };
        let body = body_html(&body);
        let from = campaign
            .from_email
            .clone()
            .unwrap_or_else(|| mailing.sender.from.clone());
        let mailbox = mailing::address_of(&from);

        let audience = campaign_audience(&campaign);
        db.campaign_messages_materialize(&Materialize {
            campaign_id: &campaign.id,
            audience: &audience,
            from_email: &from,
            sender_name: mailing::sender_name(&from),
            message_domain: &mailing.message_domain,
            now: now_ms(),
        })
        .await?;
        let orphans = db.messages_orphans_resolve(&campaign.id).await?;
        let repaired = db.campaign_contacts_reconcile(&campaign.id).await?;
        if repaired > 0 {
            tracing::info!(
                campaign = %campaign.id,
                repaired,
                "contacts of sends an earlier run recorded are marked contacted"
            );
        }
        let stats = db
            .campaign_stats(std::slice::from_ref(&campaign.id))
            .await?;
        let total = stats.first().map(|s| s.total).unwrap_or(0);
        let done_before = stats.first().map(|s| s.done()).unwrap_or(0);
        db.campaign_set_total(&campaign.id, total).await?;

        let content =
            |_: &crate::db::ClaimedMessage| (subject.clone(), body.clone(), campaign.id.clone());
        // A pipeline: the claimer takes rounds of twice the connection pool (one claim commit per
        // 16 messages at the default 8; rounds of 8 sent 1,700 messages/s, of 16 2,250) while the
        // sender keeps every connection busy and records answers in group commits. `unrecorded`
        // holds a permit per row claimed and not yet recorded: the claimer takes a round's before
        // claiming, the recorder gives them back after each commit. A crash therefore leaves at
        // most `6 × MAIL_SEND_CONCURRENCY` rows in doubt, however far the recorder falls behind
        // (with 4 × Postgres sent 1,700 messages/s, with 6 × 1,970). The contacts reached are
        // marked by a trailing stage of `send_claimed`, not in these commits.
        let round = mailing.concurrency.max(1) * 2;
        let pipeline = mailing::Pipeline::new(round * 3);
        let unrecorded = &pipeline.unrecorded;
        let (queue, claimed) = futures::channel::mpsc::channel(0);
        let progress = Mutex::new(tokio::time::Instant::now());
        let claim_all = async {
            let mut queue = queue;
            let mut claims = RoundReport::default();
            while !ctx.cancel.is_cancelled()
                && tokio::time::Instant::now() + HANDOVER < ctx.deadline
            {
                // Closed when recording failed: that error is the run's, and nothing more is claimed.
                let Ok(permits) = unrecorded.acquire_many(round as u32).await else {
                    break;
                };
                permits.forget();
                let (r, messages) = mailing::claim_round(
                    ctx.db(),
                    ctx.claimant(),
                    &mailing,
                    Pick::Campaign(&campaign.id, round as i64),
                    &mailbox,
                )
                .await?;
                unrecorded.add_permits(round - messages.len());
                claims.add(r);
                for m in messages {
                    // The sender stopped (its error is the run's): what is left stays claimed
                    // and the next run reports it in doubt.
                    if queue.send(m).await.is_err() {
                        return Ok(claims);
                    }
                }
                if r.picked == 0
                    || r.limited_until.is_some()
                    || self
                        .report_progress(&ctx, &progress, total, || {
                            done_before
                                + claims.suppressed as i64
                                + pipeline.finished.load(Ordering::Relaxed) as i64
                        })
                        .await?
                {
                    break;
                }
            }
            Ok::<_, JobError>(claims)
        };
        let send_all =
            mailing::send_claimed(ctx.db(), &mailing, claimed, &content, Some(&pipeline));
        let (claims, sends) = futures::join!(claim_all, send_all);
        let mut run = sends?;
        run.add(claims?);

        let stats = db
            .campaign_stats(std::slice::from_ref(&campaign.id))
            .await?
            .into_iter()
            .next()
            .unwrap_or_default();
        let pending = stats.queued + stats.deferred + stats.sending;
        let mut next_run = None;
        if pending == 0 {
            db.campaign_set_status(&campaign.id, &["sending"], "sent", now_ms())
                .await?;
        } else if db
            .campaign_get(&campaign.id)
            .await?
            .map(|c| c.status)
            .as_deref()
            == Some("sending")
        {
            // Due again: when the limit window opens, the first deferred row is due, or at once.
            let at = if stats.queued > 0 {
                run.limited_until.unwrap_or_else(now_ms)
            } else {
                stats.next_attempt_at.unwrap_or_else(now_ms)
            };
            let at = at.max(run.limited_until.unwrap_or(0));
            if let Some(when) = Utc.timestamp_millis_opt(at).single() {
                ctx.env
                    .enqueue(
                        NewJob::new(Self::NAME, json!({ "campaignId": campaign.id }))
                            .idempotency_key(format!(
                                "campaign:{}:after:{}:{}",
                                campaign.id, ctx.id, ctx.attempt
                            ))
                            .run_at(when),
                    )
                    .await
                    .map_err(|e| JobError::Retry(e.to_string()))?;
                next_run = Some(crate::time::to_rfc3339(at));
            }
        }
        ctx.progress(
            if total > 0 {
                (stats.done() * 100 / total) as i32
            } else {
                100
            },
            format!("{} of {total} recipients handled", stats.done()),
        )
        .await?;
        Ok(json!({
            "campaignId": campaign.id,
            "totalRecipients": total,
            "thisRun": run,
            "sent": stats.sent,
            "failed": stats.failed,
            "suppressed": stats.suppressed,
            "deferred": stats.deferred,
            "inDoubt": stats.unknown,
            "inDoubtThisRun": orphans,
            "nextRunAt": next_run,
        }))
    }
}

impl BulkCampaignSend {
    /// At most every 250 ms: progress for the job, and whether the campaign left `sending`
    /// (paused or cancelled), in which case the run stops. `done`: the rows that will not be
    /// tried again, counted by the run itself (counting the ledger took 25 ms at 20,000 rows).
    async fn report_progress(
        &self,
        ctx: &JobContext,
        last: &Mutex<tokio::time::Instant>,
        total: i64,
        done: impl FnOnce() -> i64,
    ) -> Result<bool, JobError> {
        {
            let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
            if last.elapsed() < Duration::from_millis(250) {
                return Ok(false);
            }
            *last = tokio::time::Instant::now();
        }
        let db = ctx.db();
        let status = db.campaign_get(&self.campaign_id).await?.map(|c| c.status);
        if status.as_deref() != Some("sending") {
            return Ok(true);
        }
        let done = done().min(total);
        let percent = if total > 0 { done * 100 / total } else { 100 };
        ctx.progress(
            percent as i32,
            format!("{done} of {total} recipients handled"),
        )
        .await?;
        Ok(false)
    }
}
