//! `sequence_step_send`: runs one due step of a sequence for a batch of enrollments the tick leased,
//! then moves each on (to the next step after its `delayMinutes`, or to completed). Each enrollment
//! only from the state the tick saw: a stale or repeated run changes nothing.
//!
//! Steps: `email` writes one ledger row per enrollment and step (so at most once) and sends the
//! batch through the email engine (a full limit window, an SMTP deferral or the sequence's sending
//! window moves the step's due time; nothing is dropped); `delay` only waits (its `delayMinutes`);
//! `condition` checks `config.check` (`opened`, `clicked`, `replied`, `scoreAtLeast` with
//! `config.value`) and exits the enrollment when false; `action` sets the contact's status
//! (`config.setStatus`), adds a tag (`config.addTag`), creates a deal (`config.createDeal` with an
//! optional `title` and `value`) or notifies staff (`config.notify`, an activity); `ab_test` fixes
//! the contact's variant. Before any step, these exits apply: the contact replied, is suppressed,
//! became a customer or lost, booked a meeting, or meets the sequence's `exitRules`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::db::{
    ActivityInsert, Advance, DealRow, EnrollmentRun, MessageInsert, SequenceRow, StepRow,
};
use crate::domain::contacts::is_status;
use crate::domain::deals::stage_default_probability;
use crate::mailing::{self, Pick};
use crate::queue::{JobContext, JobError, JobKind};
use crate::sending_window::SendingWindow;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SequenceStepSend {
    pub sequence_id: String,
    /// Position of the step in the sequence's running order.
    pub step: i32,
    /// The leased enrollments, each with the due time the tick saw.
    pub due: Vec<DueRef>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DueRef {
    pub id: String,
    /// ms
    pub due_at: i64,
}

/// What to do with the enrollment after a step.
#[derive(Debug, Clone, Copy)]
enum Next {
    Advance,
    /// Try the same step again at this time.
    Retry(i64),
    Exit(&'static str),
}

/// The A/B variant of a contact in a sequence: the same every time; `abTestConfig.splitPercent`
/// (default 50) of contacts get A.
fn variant_for(sequence: &SequenceRow, contact_id: &str) -> &'static str {
    let split = sequence
        .ab_test_config
        .as_ref()
        .and_then(|c| c.0.get("splitPercent"))
        .and_then(Value::as_u64)
        .unwrap_or(50);
    let hash = Sha256::digest(format!("{}:{contact_id}", sequence.id));
    let bucket = u64::from(u16::from_be_bytes([hash[0], hash[1]])) % 100;
    if bucket < split { "A" } else { "B" }
}

/// The exits that always apply, then the sequence's `exitRules` (`statuses`, `tags`).
fn exit_reason(r: &EnrollmentRun, rules: &Value) -> Option<&'static str> {
    let listed = |key: &str, value: &str| {
        rules
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|l| l.iter().any(|v| v.as_str() == Some(value)))
    };
    let tagged = r.tags.0.as_array().is_some_and(|tags| {
        tags.iter()
            .filter_map(Value::as_str)
            .any(|t| listed("tags", t))
    });
    if r.replied > 0 {
        Some("replied")
    } else if r.suppressed {
        Some("unsubscribed")
    } else if r.contact_status == "customer" {
        Some("became_customer")
    } else if r.contact_status == "lost" {
        Some("lost")
    } else if r.meeting_booked {
        Some("meeting_booked")
    } else if listed("statuses", &r.contact_status) || tagged {
        Some("exit_rule")
    } else {
        None
    }
}

impl JobKind for SequenceStepSend {
    const NAME: &'static str = "sequence_step_send";
    /// A batch may wait its turn for SMTP behind other batches; less than the tick's lease
    /// (`LEASE_MS`), so a batch is never handed out again while it still runs.
    const TIME_BUDGET: std::time::Duration = std::time::Duration::from_secs(10 * 60);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db().clone();
        let now = ctx.env.clock.now_ms();
        let ids: Vec<String> = self.due.iter().map(|d| d.id.clone()).collect();
        let sequence = match db.sequence_get(&self.sequence_id).await? {
            Some(s) if s.status == "active" => s,
            other => {
                // Paused: every enrollment stays where it is; the tick takes them again on resume.
                db.enrollments_release(&ids).await?;
                let why = if other.is_some() {
                    "sequence not active"
                } else {
                    "sequence gone"
                };
                return Ok(json!({ "skipped": why, "enrollments": ids.len() }));
            }
        };
        let steps = db.step_list(&sequence.id).await?;
        let step = usize::try_from(self.step).ok().and_then(|i| steps.get(i));
        let due_of: HashMap<&str, i64> =
            self.due.iter().map(|d| (d.id.as_str(), d.due_at)).collect();
        let runs: Vec<EnrollmentRun> = db
            .enrollment_runs(&ids)
            .await?
            .into_iter()
            .filter(|r| {
                r.status == "active"
                    && r.current_step == self.step
                    && r.next_action_at.is_some()
                    && r.next_action_at == due_of.get(r.id.as_str()).copied()
            })
            .collect();
        let window = sequence
            .sending_window
            .as_ref()
            .and_then(|w| SendingWindow::parse(&w.0).ok());

        let mut outcomes: Vec<(usize, Next, Option<&'static str>)> = Vec::new();
        let mut to_send: Vec<(usize, Option<&'static str>)> = Vec::new();
        let mut actions: Vec<usize> = Vec::new();
        for (i, r) in runs.iter().enumerate() {
            if let Some(reason) = exit_reason(r, &sequence.exit_rules.0) {
                outcomes.push((i, Next::Exit(reason), None));
                continue;
            }
            let Some(step) = step else {
                outcomes.push((i, Next::Advance, None));
                continue;
            };
            let variant = match &r.variant {
                Some(_) => None,
                // An email step with its own A and B content splits like an `ab_test` step.
                None if sequence.ab_testing_enabled
                    || step.kind == "ab_test"
                    || step.config.0.get("variants").is_some() =>
                {
                    Some(variant_for(&sequence, &r.contact_id))
                }
                None => None,
            };
            let next = match step.kind.as_str() {
                "email" => {
                    let has_email = r.email.as_deref().is_some_and(|e| !e.trim().is_empty());
                    let open = window
                        .as_ref()
                        .map_or(now, |w| w.next_open(now, r.company_state.as_deref()));
                    if !has_email {
                        Next::Exit("no_email")
                    } else if open > now {
                        Next::Retry(open)
                    } else {
                        to_send.push((i, variant));
                        continue;
                    }
                }
                "condition" => {
                    let cfg = &step.config.0;
                    let value = cfg.get("value").and_then(Value::as_i64).unwrap_or(0);
                    let ok = match cfg.get("check").and_then(Value::as_str) {
                        Some("opened") => r.opened > 0,
                        Some("clicked") => r.clicked > 0,
                        Some("replied") => r.replied > 0,
                        Some("scoreAtLeast") => i64::from(r.score) >= value,
                        _ => true,
                    };
                    if ok {
                        Next::Advance
                    } else {
                        Next::Exit("condition_not_met")
                    }
                }
                "action" => {
                    actions.push(i);
                    Next::Advance
                }
                _ => Next::Advance,
            };
            outcomes.push((i, next, variant));
        }
        if let Some(step) = step {
            if !actions.is_empty() {
                run_actions(&ctx, &sequence, step, &runs, &actions, now).await?;
            }
            if !to_send.is_empty() {
                let nexts = send_emails(&ctx, step, &runs, &to_send).await?;
                outcomes.extend(
                    to_send
                        .iter()
                        .zip(nexts)
                        .map(|(&(i, variant), next)| (i, next, variant)),
                );
            }
        }

        let mut counts: HashMap<&str, u64> = HashMap::new();
        let mut tx = db.begin().await?;
        for &(i, next, variant) in &outcomes {
            let r = &runs[i];
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
            let moved = tx
                .enrollment_advance(&Advance {
                    id: &r.id,
                    from_step: self.step,
                    from_due: r.next_action_at.unwrap_or_default(),
                    to_step,
                    next_action_at,
                    status,
                    exit_reason: reason,
                    variant,
                    now,
                })
                .await?;
            if moved {
                *counts
                    .entry(reason.unwrap_or(match next {
                        Next::Retry(_) => "waiting",
                        _ => status,
                    }))
                    .or_default() += 1;
            }
        }
        tx.commit().await?;
        Ok(json!({
            "sequenceId": self.sequence_id,
            "step": self.step,
            "enrollments": self.due.len(),
            "stale": self.due.len() - runs.len(),
            "outcomes": counts,
        }))
    }
}

/// The step's `action` for these enrollments, in one transaction.
async fn run_actions(
    ctx: &JobContext,
    sequence: &SequenceRow,
    step: &StepRow,
    runs: &[EnrollmentRun],
    which: &[usize],
    now: i64,
) -> Result<(), JobError> {
    let cfg = &step.config.0;
    let text = |key: &str| {
        cfg.get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    };
    let mut tx = ctx.db().begin().await?;
    for &i in which {
        let r = &runs[i];
        if let Some(status) = text("setStatus").filter(|s| is_status(s)) {
            tx.contact_status_set(&r.contact_id, status, now).await?;
        }
        if let Some(tag) = text("addTag") {
            tx.contact_tag_add(&r.contact_id, tag.trim(), now).await?;
        }
        if let Some(deal) = cfg.get("createDeal").filter(|d| d.is_object()) {
            let name = format!("{} {}", r.first_name, r.last_name);
            let title = deal
                .get("title")
                .and_then(Value::as_str)
                .map_or_else(|| format!("{} – {name}", sequence.name), String::from);
            tx.deal_insert(&DealRow {
                id: crate::domain::new_id(),
                title,
                description: Some(format!("Created by the sequence {}", sequence.name)),
                value: deal
                    .get("value")
                    .and_then(Value::as_i64)
                    .unwrap_or(0)
                    .max(0),
                stage: Some("qualification".into()),
                probability: stage_default_probability("qualification"),
                expected_close_date: None,
                actual_close_date: None,
                contact_id: Some(r.contact_id.clone()),
                company_id: r.company_id.clone(),
                notes: None,
                stage_changed_at: now,
                created_at: now,
                updated_at: now,
            })
            .await?;
        }
        if let Some(note) = text("notify") {
            let description = format!(
                "{} {}: {note} (sequence {}, step {})",
                r.first_name, r.last_name, sequence.name, step.name
            );
            tx.activity_insert(&ActivityInsert {
                kind: "sequence_notify",
                description: &description,
                entity_type: Some("contact"),
                entity_id: Some(&r.contact_id),
                actor_id: None,
            })
            .await?;
        }
    }
    tx.commit().await?;
    Ok(())
}

/// Subject and HTML body for a variant: the variant's own (`config.variants.A|B`), else the step's,
/// else its template's (`config.templateId`, else the built-in Follow-up).
async fn step_content(
    ctx: &JobContext,
    step: &StepRow,
    variant: Option<&str>,
) -> Result<(String, String), JobError> {
    let cfg = &step.config.0;
    let own = |field: &str| {
        variant
            .and_then(|v| cfg.get("variants").and_then(|vs| vs.get(v)))
            .and_then(|v| v.get(field))
            .or_else(|| cfg.get(field))
            .and_then(Value::as_str)
            .map(String::from)
    };
    let (subject, mut body) = (own("subject"), own("body"));
    // A body written in the app's composer (`format: "text"`) is read as the composer's preview
    // reads it: plain text becomes paragraphs and links, a body written as HTML stays HTML.
    if cfg.get("format").and_then(Value::as_str) == Some("text") {
        body = body.map(|b| crate::email::compose::body_html(&b));
    }
    if let (Some(s), Some(b)) = (&subject, &body) {
        return Ok((s.clone(), b.clone()));
    }
    let db = ctx.db();
    let named = match own("templateId") {
        Some(t) => db.template_get(&t).await?,
        None => None,
    };
    let template = match named {
        Some(t) => Some(t),
        None => db.template_get("follow-up").await?,
    };
    Ok((
        subject
            .or_else(|| template.as_ref().map(|t| t.subject.clone()))
            .unwrap_or_default(),
        body.or_else(|| template.as_ref().map(|t| t.body.clone()))
            .unwrap_or_default(),
    ))
}

/// Writes the batch's messages to the ledger (once per enrollment and step) and sends them; what
/// each enrollment does next, in the order of `batch`.
async fn send_emails(
    ctx: &JobContext,
    step: &StepRow,
    runs: &[EnrollmentRun],
    batch: &[(usize, Option<&'static str>)],
) -> Result<Vec<Next>, JobError> {
    let db = ctx.db();
    let mailing = ctx.env.providers.mailing.clone();
    let sender_name = mailing
        .sender
        .from
        .split('<')
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    let mut contents: HashMap<Option<&str>, (String, String)> = HashMap::new();
    let keys: Vec<String> = batch
        .iter()
        .map(|&(i, _)| format!("seq:{}:{}", runs[i].id, step.id))
        .collect();
    // Owned parts first: the rows borrow them.
    struct Part {
        id: String,
        message_id: String,
        to: String,
        vars: Value,
        variant: Option<&'static str>,
    }
    let mut parts = Vec::with_capacity(batch.len());
    for &(i, fresh) in batch {
        let r = &runs[i];
        let variant = fresh.or(match r.variant.as_deref() {
            Some("A") => Some("A"),
            Some("B") => Some("B"),
            _ => None,
        });
        if let Entry::Vacant(slot) = contents.entry(variant) {
            slot.insert(step_content(ctx, step, variant).await?);
        }
        let to = r.email.as_deref().unwrap_or_default().trim().to_lowercase();
        let id = crate::domain::new_id();
        parts.push(Part {
            message_id: format!("{}@{}", id.to_lowercase(), mailing.message_domain),
            id,
            vars: json!({
                "firstName": r.first_name,
                "lastName": r.last_name,
                "email": to,
                "title": r.title.clone().unwrap_or_default(),
                "companyName": r.company_name.clone().unwrap_or_default(),
                "state": r.company_state.clone().unwrap_or_default(),
                "senderName": sender_name,
            }),
            to,
            variant,
        });
    }
    let now = crate::time::now_ms();
    let rows: Vec<MessageInsert<'_>> = batch
        .iter()
        .zip(&parts)
        .zip(&keys)
        .map(|((&(i, _), p), key)| {
            let (subject, body) = &contents[&p.variant];
            MessageInsert {
                id: &p.id,
                dedupe_key: key,
                campaign_id: None,
                contact_id: Some(&runs[i].contact_id),
                to_email: &p.to,
                from_email: &mailing.sender.from,
                subject: Some(subject),
                body: Some(body),
                vars: &p.vars,
                message_id: &p.message_id,
                status: "queued",
                step_id: Some(&step.id),
                enrollment_id: Some(&runs[i].id),
                variant: p.variant,
                now,
            }
        })
        .collect();
    let mut tx = db.begin().await?;
    tx.messages_insert(&rows).await?;
    tx.commit().await?;

    let ids: Vec<String> = db
        .messages_by_keys(&keys)
        .await?
        .into_iter()
        .map(|m| m.id)
        .collect();
    let content = |m: &crate::db::ClaimedMessage| {
        (
            m.subject.clone().unwrap_or_default(),
            m.body.clone().unwrap_or_default(),
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
    let later = || ctx.env.clock.now_ms() + 60_000;
    let rows: HashMap<String, (String, Option<i64>)> = db
        .messages_by_keys(&keys)
        .await?
        .into_iter()
        .map(|m| (m.dedupe_key, (m.status, m.next_attempt_at)))
        .collect();
    Ok(keys
        .iter()
        .map(|key| match rows.get(key).map(|(s, at)| (s.as_str(), *at)) {
            Some(("deferred", at)) => Next::Retry(at.unwrap_or_else(later)),
            // Not claimed: the mailbox's limits are full until the window named in the report.
            Some(("queued", _)) | None => Next::Retry(report.limited_until.unwrap_or_else(later)),
            Some(("suppressed", _)) => Next::Exit("unsubscribed"),
            // sent, failed (a bounce), unknown (in doubt: never resent): the step is done.
            Some(_) => Next::Advance,
        })
        .collect())
}
