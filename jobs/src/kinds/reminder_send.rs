//! `reminder_send`: one meeting's reminder for one slot (minutes before the start; 0 = sent by hand
//! from the automation screen). Drops itself when the meeting moved, ended or was deleted (the tick
//! records the new time's slots). Email goes through the email engine's ledger, SMS through the SMS
//! ledger, each keyed by meeting, time, slot and recipient: a retried or doubled job sends nothing
//! twice.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{MessageInsert, SmsInsert};
use crate::email::compose::text_to_html;
use crate::kinds::{EmailSend, SequenceTrigger, sms_send};
use crate::mailing::{self, Pick};
use crate::queue::{JobContext, JobError, JobKind, NewJob};
use crate::reminders::{compose, recipients};

/// The tag that `triggerAutomation` adds, firing sequences triggered by `tag_added` with it.
pub const REMINDER_TAG: &str = "meeting-reminder";

fn yes() -> bool {
    true
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReminderSend {
    pub meeting_id: String,
    /// The meeting time this reminder is for (ms).
    pub scheduled_at: i64,
    pub slot: i32,
    #[serde(default = "yes")]
    pub email: bool,
    #[serde(default = "yes")]
    pub sms: bool,
    #[serde(default = "yes")]
    pub personalize: bool,
    #[serde(default)]
    pub trigger_automation: bool,
}

impl JobKind for ReminderSend {
    const NAME: &'static str = "reminder_send";

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db().clone();
        let now = ctx.env.clock.now_ms();
        let m = match db.meeting_get_by_id(&self.meeting_id).await? {
            None => return Ok(json!({ "skipped": "meeting deleted" })),
            Some(m) if m.scheduled_at != self.scheduled_at => {
                return Ok(json!({ "skipped": "meeting moved" }));
            }
            Some(m) if !matches!(m.status.as_str(), "scheduled" | "confirmed") => {
                return Ok(json!({ "skipped": format!("meeting {}", m.status) }));
            }
            Some(m) if m.scheduled_at <= now => {
                return Ok(json!({ "skipped": "meeting started" }));
            }
            Some(m) => m,
        };
        let contact = match &m.contact_id {
            Some(id) => db.contact_get(id).await?,
            None => None,
        };
        let state = match contact.as_ref().and_then(|c| c.company_id.as_deref()) {
            Some(id) => db.company_get(id).await?.and_then(|c| c.state),
            None => None,
        };
        let who = recipients(&m, contact.as_ref());
        let text = compose(
            &m,
            contact.as_ref(),
            state.as_deref(),
            self.personalize,
            now,
        );
        let mailing = ctx.env.providers.mailing.clone();
        let key = format!("reminder:{}:{}:{}", m.id, m.scheduled_at, self.slot);

        let emails: Vec<(String, String, String, bool)> = if self.email {
            who.emails
                .iter()
                .map(|(to, is_contact)| {
                    let id = crate::domain::new_id();
                    let message_id = format!("{}@{}", id.to_lowercase(), mailing.message_domain);
                    (id, format!("{key}:{to}"), message_id, *is_contact)
                })
                .collect()
        } else {
            Vec::new()
        };
        let vars = json!({});
        let rows: Vec<MessageInsert<'_>> = emails
            .iter()
            .zip(&who.emails)
            .map(
                |((id, dedupe, message_id, is_contact), (to, _))| MessageInsert {
                    id,
                    dedupe_key: dedupe,
                    campaign_id: None,
                    contact_id: if *is_contact {
                        m.contact_id.as_deref()
                    } else {
                        None
                    },
                    to_email: to,
                    from_email: &mailing.sender.from,
                    subject: Some(&text.subject),
                    body: Some(&text.body),
                    vars: &vars,
                    message_id,
                    status: "queued",
                    step_id: None,
                    enrollment_id: None,
                    variant: None,
                    now,
                },
            )
            .collect();
        let sms_id = crate::domain::new_id();
        let sms_key = format!("{key}:sms");
        let mut tx = db.begin().await?;
        tx.messages_insert(&rows).await?;
        let phone = who.phone.as_deref().filter(|_| self.sms);
        if let Some(phone) = phone {
            tx.sms_insert(&SmsInsert {
                id: &sms_id,
                dedupe_key: &sms_key,
                contact_id: m.contact_id.as_deref(),
                meeting_id: Some(&m.id),
                kind: "reminder",
                to_phone: phone,
                body: &text.sms,
                actor_id: None,
                now,
            })
            .await?;
        }
        if self.trigger_automation
            && let Some(c) = &contact
            && tx.contact_tag_add(&c.id, REMINDER_TAG, now).await?
        {
            tx.commit().await?;
            let trigger = SequenceTrigger {
                trigger: "tag_added".into(),
                contact_id: c.id.clone(),
                detail: Some(REMINDER_TAG.into()),
            };
            ctx.env
                .enqueue(
                    NewJob::new(SequenceTrigger::NAME, json!(trigger))
                        .idempotency_key(format!("{key}:trigger")),
                )
                .await
                .map_err(|e| JobError::Retry(e.to_string()))?;
        } else {
            tx.commit().await?;
        }

        let keys: Vec<String> = emails.iter().map(|(_, k, _, _)| k.clone()).collect();
        let ids: Vec<String> = db
            .messages_by_keys(&keys)
            .await?
            .into_iter()
            .filter(|r| r.status == "queued" || r.status == "deferred")
            .map(|r| r.id)
            .collect();
        let content = |c: &crate::db::ClaimedMessage| {
            (
                c.subject.clone().unwrap_or_default(),
                text_to_html(c.body.as_deref().unwrap_or_default()),
                "all".to_string(),
            )
        };
        let mailbox = mailing::address_of(&mailing.sender.from);
        let report = mailing::send_round(
            ctx.db(),
            ctx.claimant(),
            &mailing,
            Pick::Ids(&ids),
            &mailbox,
            &content,
        )
        .await?;
        let sms_status = match phone {
            Some(_) => {
                let id = db
                    .sms_by_key(&sms_key)
                    .await?
                    .unwrap_or_else(|| sms_id.clone());
                Some(sms_send::deliver(&ctx, &id).await?)
            }
            None => None,
        };
        // Deferred or over the mailbox's limits: each waiting message gets its own send at its time.
        let later = now + 60_000;
        let mut waiting = 0;
        for r in db.messages_by_keys(&keys).await? {
            let at = match r.status.as_str() {
                "deferred" => r.next_attempt_at.unwrap_or(later),
                "queued" => report.limited_until.unwrap_or(later),
                _ => continue,
            };
            waiting += 1;
            let when = chrono::DateTime::from_timestamp_millis(at).unwrap_or_default();
            ctx.env
                .enqueue(
                    NewJob::new(EmailSend::NAME, json!({ "messageId": r.id }))
                        .idempotency_key(format!("email_send:{}:reminder", r.id))
                        .run_at(when),
                )
                .await
                .map_err(|e| JobError::Retry(e.to_string()))?;
        }
        Ok(json!({
            "meetingId": m.id,
            "slot": self.slot,
            "emails": report.sent,
            "emailsQueued": waiting,
            "sms": sms_status,
        }))
    }
}
