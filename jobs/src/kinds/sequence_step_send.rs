//! `sequence_step_send`: runs one due step of one enrollment, then moves the enrollment on (to the
//! next step after its `delayMinutes`, or to completed). Only from the state the tick saw: a stale
//! or repeated run changes nothing.
//!
//! Steps: `email` sends through the email engine (ledger key per enrollment and step, so at most
//! once; a full limit window or an SMTP deferral moves the step's due time, nothing is dropped);
//! `delay` only waits (its `delayMinutes`); `condition` checks `config.check` (`opened`, `clicked`,
//! `replied`, `scoreAtLeast` with `config.value`) and exits the enrollment when false; `action` sets
//! the contact's status (`config.setStatus`); `ab_test` fixes the contact's variant (A or B, from a
//! hash of the contact id). Before any step, these exits apply: the contact replied, is suppressed,
//! or became a customer or lost.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{Advance, MessageInsert, StepRow};
use crate::domain::contacts::is_status;
use crate::mailing::{self, Pick};
use crate::queue::{JobContext, JobError, JobKind};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SequenceStepSend {
    pub enrollment_id: String,
    /// Position of the step in the sequence's running order.
    pub step: i32,
    /// The due time the tick saw (ms).
    pub due_at: i64,
}

/// What to do with the enrollment after a step.
enum Next {
    Advance,
    /// Try the same step again at this time.
    Retry(i64),
    Exit(&'static str),
}

/// A or B, the same for a contact every time.
fn variant_of(contact_id: &str) -> &'static str {
    let sum: u32 = contact_id.bytes().map(u32::from).sum();
    if sum.is_multiple_of(2) { "A" } else { "B" }
}

impl JobKind for SequenceStepSend {
    const NAME: &'static str = "sequence_step_send";

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db().clone();
        let now = ctx.queue.clock.now_ms();
        let skip = |why: &str| Ok(json!({ "enrollmentId": self.enrollment_id, "skipped": why }));
        let Some(e) = db.enrollment_state(&self.enrollment_id).await? else {
            return skip("enrollment gone");
        };
        if e.status != "active"
            || e.current_step != self.step
            || e.next_action_at != Some(self.due_at)
        {
            return skip("stale");
        }
        let Some(sequence) = db.sequence_get(&e.sequence_id).await? else {
            return skip("sequence gone");
        };
        if sequence.status != "active" {
            // Paused: the enrollment stays where it is; the tick picks it up after resume.
            return skip("sequence not active");
        }
        let Some(contact) = db.contact_get(&e.contact_id).await? else {
            return skip("contact gone");
        };
        let steps = db.step_list(&e.sequence_id).await?;
        let (opened, clicked, replied) = db.enrollment_engagement(&e.id).await?;
        let email = contact.email.clone().unwrap_or_default();
        let exit = if replied > 0 {
            Some("replied")
        } else if contact.status == "customer" {
            Some("became_customer")
        } else if contact.status == "lost" {
            Some("lost")
        } else if !email.is_empty() && db.suppression_get(&email).await?.is_some() {
            Some("unsubscribed")
        } else {
            None
        };
        let mut variant = None;
        let next = match (
            exit,
            usize::try_from(self.step).ok().and_then(|i| steps.get(i)),
        ) {
            (Some(reason), _) => Next::Exit(reason),
            (None, None) => Next::Advance,
            (None, Some(step)) => match step.kind.as_str() {
                "email" => self.email_step(&ctx, &e.id, &contact, step).await?,
                "condition" => {
                    let value = step
                        .config
                        .0
                        .get("value")
                        .and_then(Value::as_i64)
                        .unwrap_or(0);
                    let ok = match step.config.0.get("check").and_then(Value::as_str) {
                        Some("opened") => opened > 0,
                        Some("clicked") => clicked > 0,
                        Some("replied") => replied > 0,
                        Some("scoreAtLeast") => i64::from(contact.score) >= value,
                        _ => true,
                    };
                    if ok {
                        Next::Advance
                    } else {
                        Next::Exit("condition_not_met")
                    }
                }
                "action" => {
                    if let Some(status) = step.config.0.get("setStatus").and_then(Value::as_str)
                        && is_status(status)
                    {
                        let mut tx = db.begin().await?;
                        tx.contact_status_set(&contact.id, status, now).await?;
                        tx.commit().await?;
                    }
                    Next::Advance
                }
                "ab_test" => {
                    variant = Some(variant_of(&contact.id));
                    Next::Advance
                }
                _ => Next::Advance,
            },
        };
        let (to_step, next_action_at, status, reason) = match next {
            Next::Retry(at) => (self.step, Some(at), "active", None),
            Next::Exit(reason) => (self.step, None, "exited", Some(reason)),
            Next::Advance => {
                let to = self.step + 1;
                match usize::try_from(to).ok().and_then(|i| steps.get(i)) {
                    Some(s) => (
                        to,
                        Some(now + i64::from(s.delay_minutes) * 60_000),
                        "active",
                        None,
                    ),
                    None => (to, None, "completed", None),
                }
            }
        };
        let moved = db
            .enrollment_advance(&Advance {
                id: &e.id,
                from_step: self.step,
                from_due: self.due_at,
                to_step,
                next_action_at,
                status,
                exit_reason: reason,
                variant,
                now,
            })
            .await?;
        Ok(json!({
            "enrollmentId": e.id,
            "step": self.step,
            "status": status,
            "exitReason": reason,
            "moved": moved,
        }))
    }
}

impl SequenceStepSend {
    /// Sends the step's message (written to the ledger first, once per enrollment and step).
    async fn email_step(
        &self,
        ctx: &JobContext,
        enrollment_id: &str,
        contact: &crate::db::ContactRow,
        step: &StepRow,
    ) -> Result<Next, JobError> {
        let db = ctx.db();
        let mailing = ctx.queue.providers.mailing.clone();
        let Some(to) = contact
            .email
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
        else {
            return Ok(Next::Exit("no_email"));
        };
        let key = format!("seq:{enrollment_id}:{}", step.id);
        let id = match db.message_by_key(&key).await? {
            Some((id, _)) => id,
            None => {
                let cfg = &step.config.0;
                let own = |field: &str| cfg.get(field).and_then(Value::as_str).map(String::from);
                // A template only when the step lacks its own subject or body: the named one, else
                // the built-in Follow-up.
                let template = if own("subject").is_some() && own("body").is_some() {
                    None
                } else {
                    let named = match cfg.get("templateId").and_then(Value::as_str) {
                        Some(t) => db.template_get(t).await?,
                        None => None,
                    };
                    match named {
                        Some(t) => Some(t),
                        None => db.template_get("follow-up").await?,
                    }
                };
                let pick = |field: &str, from_template: fn(&crate::db::TemplateRow) -> String| {
                    own(field)
                        .or_else(|| template.as_ref().map(from_template))
                        .unwrap_or_default()
                };
                let subject = pick("subject", |t| t.subject.clone());
                let body = pick("body", |t| t.body.clone());
                let company = match &contact.company_id {
                    Some(c) => db.company_get(c).await?.map(|c| c.name),
                    None => None,
                };
                let id = ulid::Ulid::new().to_string();
                let vars = json!({
                    "firstName": contact.first_name,
                    "lastName": contact.last_name,
                    "email": to,
                    "title": contact.title.clone().unwrap_or_default(),
                    "companyName": company.unwrap_or_default(),
                    "senderName": mailing.sender.from.split('<').next().unwrap_or_default().trim(),
                });
                let mut tx = db.begin().await?;
                tx.message_insert(&MessageInsert {
                    id: &id,
                    dedupe_key: &key,
                    campaign_id: None,
                    contact_id: Some(&contact.id),
                    to_email: &to.to_lowercase(),
                    from_email: &mailing.sender.from,
                    subject: Some(&subject),
                    body: Some(&body),
                    vars: &vars,
                    message_id: &format!("{}@{}", id.to_lowercase(), mailing.message_domain),
                    status: "queued",
                    step_id: Some(&step.id),
                    enrollment_id: Some(enrollment_id),
                    now: crate::time::now_ms(),
                })
                .await?;
                tx.commit().await?;
                id
            }
        };
        let content = |m: &crate::db::ClaimedMessage| {
            (
                m.subject.clone().unwrap_or_default(),
                m.body.clone().unwrap_or_default(),
                "all".to_string(),
            )
        };
        let mailbox = mailing::address_of(&mailing.sender.from);
        let r = mailing::send_round(
            ctx,
            &mailing,
            Pick::Ids(std::slice::from_ref(&id)),
            &mailbox,
            &content,
        )
        .await?;
        let (status, due) = db.message_status(&id).await?.unwrap_or_default();
        Ok(match status.as_str() {
            "deferred" => Next::Retry(due.unwrap_or_else(|| ctx.queue.clock.now_ms() + 60_000)),
            "queued" => Next::Retry(
                r.limited_until
                    .unwrap_or_else(|| ctx.queue.clock.now_ms() + 60_000),
            ),
            "suppressed" => Next::Exit("unsubscribed"),
            // sent, failed (a bounce), unknown (in doubt: never resent): the step is done.
            _ => Next::Advance,
        })
    }
}
