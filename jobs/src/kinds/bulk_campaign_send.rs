//! `bulk_campaign_send`: sends a bulk campaign. The first run writes one ledger row per recipient
//! (idempotent), then every run sends ready rows in rounds of `MAIL_SEND_CONCURRENCY × 2`, with
//! progress, until none is left. A full limit window or deferred recipients end the run with a
//! follow-up run enqueued for when they are due; pausing or cancelling the campaign ends it too.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::{TimeZone, Utc};
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
        let stats = db
            .campaign_stats(std::slice::from_ref(&campaign.id))
            .await?;
        let total = stats.first().map(|s| s.total).unwrap_or(0);
        db.campaign_set_total(&campaign.id, total).await?;

        let content =
            |_: &crate::db::ClaimedMessage| (subject.clone(), body.clone(), campaign.id.clone());
        // Lanes of 4 in flight each: while one lane waits on SMTP, another claims or records.
        let lanes = (mailing.concurrency / 4).max(1);
        let per_lane = (mailing.concurrency / lanes).max(1) as i64;
        let stop = AtomicBool::new(false);
        let progress = Mutex::new(tokio::time::Instant::now());
        let lane = |_: usize| async {
            let mut mine = RoundReport::default();
            while !stop.load(Ordering::Relaxed)
                && !ctx.cancel.is_cancelled()
                && tokio::time::Instant::now() + HANDOVER < ctx.deadline
            {
                let r = mailing::send_round(
                    ctx.db(),
                    ctx.claimant(),
                    &mailing,
                    Pick::Campaign(&campaign.id, per_lane),
                    &mailbox,
                    &content,
                )
                .await?;
                mine.add(r);
                if r.picked == 0 || r.limited_until.is_some() {
                    stop.store(true, Ordering::Relaxed);
                    break;
                }
                if self.report_progress(&ctx, &progress, total).await? {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            Ok::<_, JobError>(mine)
        };
        let lanes: Vec<_> = (0..lanes).map(lane).collect();
        let mut run = RoundReport::default();
        for r in futures::future::try_join_all(lanes).await? {
            run.add(r);
        }

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
    /// (paused or cancelled), in which case the run stops.
    async fn report_progress(
        &self,
        ctx: &JobContext,
        last: &Mutex<tokio::time::Instant>,
        total: i64,
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
        let done = db
            .campaign_stats(std::slice::from_ref(&self.campaign_id))
            .await?
            .first()
            .map(|s| s.done())
            .unwrap_or(0);
        let percent = if total > 0 { done * 100 / total } else { 100 };
        ctx.progress(
            percent as i32,
            format!("{done} of {total} recipients handled"),
        )
        .await?;
        Ok(false)
    }
}
