//! `reminder_batch`: "Send Reminders" on the automation screen. For each scheduled or confirmed
//! meeting within the reminder horizon it records one reminder by hand (slot 0, once per meeting
//! time) and sends it at once through `reminder_send`'s own steps, with progress; its result says
//! how many emails went now and how many wait in the queue (limits, deferrals), and how many texts
//! went. A retried run sends again only what the ledgers have not sent (their keys make it safe).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::kinds::ReminderSend;
use crate::queue::{JobContext, JobError, JobKind};
use crate::reminders::recipients;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReminderBatch {
    pub email: bool,
    pub sms: bool,
    pub personalize: bool,
    pub trigger_automation: bool,
}

/// Meetings one batch reminds at most.
const MAX_MEETINGS: i64 = 1000;

impl JobKind for ReminderBatch {
    const NAME: &'static str = "reminder_batch";
    const TIME_BUDGET: Duration = Duration::from_secs(15 * 60);

    fn validate(&self) -> Result<(), String> {
        if !self.email && !self.sms && !self.trigger_automation {
            return Err("Choose email, SMS or automation for the reminders.".into());
        }
        Ok(())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db().clone();
        let now = ctx.env.clock.now_ms();
        let horizon = ctx
            .env
            .settings
            .reminder_offsets
            .iter()
            .max()
            .copied()
            .unwrap_or(1440);
        let meetings: Vec<_> = db
            .meetings_upcoming(now + 1, MAX_MEETINGS)
            .await?
            .into_iter()
            .filter(|m| m.scheduled_at <= now + horizon * 60_000)
            .collect();
        let total = meetings.len();
        let (mut reminded, mut already) = (0, 0);
        let (mut emails_sent, mut emails_queued, mut sms_sent, mut sms_not_sent) = (0, 0, 0, 0);
        for (i, m) in meetings.iter().enumerate() {
            let contact = match &m.contact_id {
                Some(id) => db.contact_get(id).await?,
                None => None,
            };
            let who = recipients(m, contact.as_ref());
            let has_email = self.email && !who.emails.is_empty();
            let has_sms = self.sms && who.phone.is_some();
            if has_email || has_sms || (self.trigger_automation && contact.is_some()) {
                // Slot 0: one reminder by hand per meeting time. A retried run finishes the
                // meetings it recorded (the ledgers send nothing twice).
                let mut tx = db.begin().await?;
                let fresh = tx
                    .meeting_reminder_insert(&m.id, m.scheduled_at, 0, "queued", now)
                    .await?;
                tx.commit().await?;
                if fresh || ctx.attempt > 1 {
                    let r = ReminderSend {
                        meeting_id: m.id.clone(),
                        scheduled_at: m.scheduled_at,
                        slot: 0,
                        email: self.email,
                        sms: self.sms,
                        personalize: self.personalize,
                        trigger_automation: self.trigger_automation,
                    }
                    .run(ctx.clone())
                    .await?;
                    reminded += 1;
                    emails_sent += r["emails"].as_u64().unwrap_or(0);
                    emails_queued += r["emailsQueued"].as_u64().unwrap_or(0);
                    match r["sms"].as_str() {
                        Some("sent") => sms_sent += 1,
                        Some(_) => sms_not_sent += 1,
                        None => {}
                    }
                } else {
                    already += 1;
                }
            }
            ctx.progress(
                ((i + 1) * 100 / total.max(1)) as i32,
                format!("{} of {total} meetings", i + 1),
            )
            .await?;
        }
        Ok(json!({
            "meetings": reminded,
            "alreadyReminded": already,
            "emailsSent": emails_sent,
            "emailsQueued": emails_queued,
            "smsSent": sms_sent,
            "smsNotSent": sms_not_sent,
        }))
    }
}
