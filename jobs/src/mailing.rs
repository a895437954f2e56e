//! Sending: the limits (per-mailbox hourly and daily windows, warm-up), the suppression check and
//! the at-most-once claim → send → record cycle shared by `bulk_campaign_send` and `email_send`.
//!
//! Order of one round: pick ready rows → in one transaction mark suppressed ones, reserve sends
//! against the mailbox's persisted counters and claim the rest (`sending`) → commit → talk SMTP →
//! record each outcome. A claimed row is never claimed again, so a crash between claim and record
//! leaves it `sending`, which the next run turns into `unknown` instead of sending it twice.

use std::collections::HashMap;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Datelike, TimeZone, Timelike, Utc};
use futures::StreamExt;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use serde_json::Map;

use crate::config::{Config, MailSettings};
use crate::db::{
    ClaimedMessage, Db, DeliverabilityRow, EventInsert, MailboxUsage, MessageFinish, Reserve,
    SendOutcome,
};
use crate::email::compose::{self, Outgoing, Sender};
use crate::email::tokens::Signer;
use crate::email::transport::{Mailer, SendError};
use crate::time::now_ms;
use lettre::Message;

/// Sends a mailbox may make on its first day of warm-up; each further day adds as many.
pub const WARMUP_STEP: i64 = 20;
/// A message deferred (SMTP 4xx) this many times fails.
pub const MAX_DEFERRALS: i32 = 5;

/// Everything a process needs to send: where messages go, who sends, how links are signed.
pub struct Mailing {
    pub mailer: Mailer,
    pub sender: Sender,
    pub signer: Signer,
    /// Right-hand side of Message-IDs.
    pub message_domain: String,
    /// Messages in flight at once in this process, across every sending job.
    pub concurrency: usize,
    /// Holds `concurrency` permits: many jobs sending at once share the SMTP connections instead of
    /// queueing inside the pool past their time budgets.
    in_flight: Arc<tokio::sync::Semaphore>,
    /// Hard bounces after which an address is suppressed.
    pub hard_bounce_limit: i64,
    /// SendGrid's webhook verification key (base64 DER), when configured.
    pub webhook_public_key: Option<String>,
    /// The token inbound replies must carry, when configured.
    pub inbound_token: Option<crate::config::Secret<String>>,
    /// In-process guard in front of the persisted counters, per (mailbox, hourly limit).
    pacers: Mutex<HashMap<(String, u32), Arc<DefaultDirectRateLimiter>>>,
    /// DKIM signing, when `DKIM_*` is configured.
    dkim: Option<lettre::message::dkim::DkimConfig>,
    /// Who signs and with which public key, for the sender-domain check.
    pub dkim_identity: Option<crate::email::domain_check::DkimIdentity>,
}

impl Mailing {
    pub fn new(mailer: Mailer, sender: Sender, signer: Signer, settings: &MailSettings) -> Self {
        let message_domain = domain_of(&sender.from).unwrap_or_else(|| "prospector.local".into());
        Self {
            mailer,
            sender,
            signer,
            message_domain,
            concurrency: settings.send_concurrency.max(1),
            in_flight: Arc::new(tokio::sync::Semaphore::new(
                settings.send_concurrency.max(1),
            )),
            hard_bounce_limit: settings.hard_bounce_limit.max(1),
            webhook_public_key: settings.sendgrid_public_key.clone(),
            inbound_token: settings.inbound_token.clone(),
            pacers: Mutex::new(HashMap::new()),
            // The key was checked when the settings were read; a bad one here signs nothing.
            dkim: settings.dkim.as_ref().and_then(|d| d.signing_config().ok()),
            dkim_identity: settings.dkim.as_ref().and_then(|d| {
                crate::email::domain_check::DkimIdentity::new(
                    &d.selector,
                    &d.domain,
                    d.private_key.expose(),
                )
            }),
        }
    }

    /// Signs (when DKIM is configured) and sends one message.
    pub async fn send(&self, mut message: Message) -> Result<(), SendError> {
        if let Some(dkim) = &self.dkim {
            message.sign(dkim);
        }
        self.mailer.send(&message).await
    }

    /// From settings: SMTP when `SMTP_URL` is set, else `.eml` files in `{data}/outbox`.
    pub fn from_config(config: &Config) -> Result<Self, String> {
        let m = &config.mail;
        let mailer = match &m.smtp_url {
            Some(url) => Mailer::smtp(url.expose(), m.send_concurrency as u32)?,
            None => Mailer::outbox(config.data_dir.join("outbox")),
        };
        Ok(Self::new(
            mailer,
            sender_from(config),
            Signer::new(config.secret_key.expose()),
            m,
        ))
    }

    /// Offline default (tests, tools): an outbox in the temp directory and a random signing key.
    pub fn embedded() -> Self {
        let mut key = [0u8; 32];
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut key);
        Self::new(
            Mailer::outbox(std::env::temp_dir().join("prospector-outbox")),
            Sender {
                from: MailSettings::default().from,
                reply_to: None,
                postal_address: MailSettings::default().postal_address,
                public_base_url: "http://127.0.0.1:8080".into(),
                unsubscribe_mailto: "unsubscribe@prospector.local".into(),
            },
            Signer::new(&key),
            &MailSettings::default(),
        )
    }

    /// The in-process pacer for a mailbox at its current hourly limit.
    fn pacer(&self, mailbox: &str, hourly: u32) -> Arc<DefaultDirectRateLimiter> {
        let per_hour = NonZeroU32::new(hourly.max(1)).unwrap_or(NonZeroU32::MIN);
        let mut pacers = match self.pacers.lock() {
            Ok(p) => p,
            Err(poisoned) => poisoned.into_inner(),
        };
        pacers
            .entry((mailbox.to_string(), hourly))
            .or_insert_with(|| Arc::new(RateLimiter::direct(Quota::per_hour(per_hour))))
            .clone()
    }
}

/// Why a real send cannot go (the api answers 409 with it; the sending jobs refuse with it too).
pub const POSTAL_ADDRESS_MISSING: &str = "Real email needs the sender's postal address \
     (MAIL_POSTAL_ADDRESS): every message must show it. Set it, then send again.";

impl Mailing {
    /// Messages leave the machine (`SMTP_URL`), rather than landing in the outbox.
    pub fn is_smtp(&self) -> bool {
        matches!(self.mailer, Mailer::Smtp { .. })
    }
    /// A postal address of the sender's own (not the placeholder of an unconfigured install).
    pub fn postal_address_set(&self) -> bool {
        let p = self.sender.postal_address.trim();
        !p.is_empty() && p != MailSettings::default().postal_address
    }
    /// Why nothing may be sent for real now; `None` when sending may go ahead.
    pub fn send_blocked(&self) -> Option<&'static str> {
        (self.is_smtp() && !self.postal_address_set()).then_some(POSTAL_ADDRESS_MISSING)
    }
}

/// The sender as settings describe it; tracking and unsubscribe links use `PUBLIC_BASE_URL`.
pub fn sender_from(config: &Config) -> Sender {
    let m = &config.mail;
    Sender {
        from: m.from.clone(),
        reply_to: m.reply_to.clone(),
        postal_address: m.postal_address.clone(),
        public_base_url: config.public_base_url.clone(),
        unsubscribe_mailto: m
            .unsubscribe_mailto
            .clone()
            .or_else(|| domain_of(&m.from).map(|d| format!("unsubscribe@{d}")))
            .unwrap_or_else(|| "unsubscribe@prospector.local".into()),
    }
}

/// The display name of `Name <addr>`, else the address: the `senderName` merge field.
pub fn sender_name(from: &str) -> &str {
    from.split_once('<')
        .map(|(name, _)| name.trim().trim_matches('"'))
        .filter(|n| !n.is_empty())
        .unwrap_or(from)
}

/// Whether `from` is the placeholder sender of an install without `MAIL_FROM`.
pub fn is_default_from(from: &str) -> bool {
    domain_of(from).as_deref() == domain_of(&MailSettings::default().from).as_deref()
}

/// `Name <a@b.c>` or `a@b.c` → `b.c`.
fn domain_of(from: &str) -> Option<String> {
    let addr = from
        .rsplit_once('<')
        .map(|(_, rest)| rest.trim_end_matches('>'))
        .unwrap_or(from);
    addr.rsplit_once('@')
        .map(|(_, d)| d.trim().to_lowercase())
        .filter(|d| !d.is_empty())
}

/// The bare address of `Name <a@b.c>`.
pub fn address_of(from: &str) -> String {
    from.rsplit_once('<')
        .map(|(_, rest)| rest.trim_end_matches('>').trim().to_lowercase())
        .unwrap_or_else(|| from.trim().to_lowercase())
}

/// The hour and day counter windows (UTC) of a moment.
pub fn window_keys(now: i64) -> (String, String) {
    let t = Utc
        .timestamp_millis_opt(now)
        .single()
        .unwrap_or_else(Utc::now);
    (
        format!("h{}", t.format("%Y%m%d%H")),
        format!("d{}", t.format("%Y%m%d")),
    )
}

/// The daily limit in force: with warm-up, `WARMUP_STEP` per day of sending so far, up to the limit.
pub fn effective_daily_limit(settings: &DeliverabilityRow, usage: &MailboxUsage) -> i64 {
    let daily = i64::from(settings.daily_limit);
    if settings.warmup_enabled {
        daily.min(WARMUP_STEP * (usage.days_sending + 1))
    } else {
        daily
    }
}

/// When the window that is full now ends (ms).
fn next_window(now: i64, daily_full: bool) -> i64 {
    let t: DateTime<Utc> = Utc
        .timestamp_millis_opt(now)
        .single()
        .unwrap_or_else(Utc::now);
    let next = if daily_full {
        Utc.with_ymd_and_hms(t.year(), t.month(), t.day(), 0, 0, 0)
            .single()
            .map(|d| d + chrono::Duration::days(1))
    } else {
        Utc.with_ymd_and_hms(t.year(), t.month(), t.day(), t.hour(), 0, 0)
            .single()
            .map(|h| h + chrono::Duration::hours(1))
    };
    next.map(|n| n.timestamp_millis())
        .unwrap_or(now + 3_600_000)
}

/// How long a deferred message waits: 1, 5, 15, 60, 240 minutes.
fn deferral_delay(attempts: i32) -> Duration {
    const MINUTES: [u64; 5] = [1, 5, 15, 60, 240];
    let i = usize::try_from(attempts.max(1) - 1).unwrap_or(0);
    Duration::from_secs(60 * MINUTES[i.min(MINUTES.len() - 1)])
}

/// What one round or run did.
#[derive(Debug, Default, Clone, Copy, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RoundReport {
    /// Ready rows the round found (0: nothing left to send now).
    #[serde(skip)]
    pub picked: u64,
    pub sent: u64,
    pub deferred: u64,
    pub failed: u64,
    pub suppressed: u64,
    /// A limit is full until then (ms): nothing more can go before.
    #[serde(skip)]
    pub limited_until: Option<i64>,
}

impl RoundReport {
    pub fn add(&mut self, o: RoundReport) {
        self.picked += o.picked;
        self.sent += o.sent;
        self.deferred += o.deferred;
        self.failed += o.failed;
        self.suppressed += o.suppressed;
        self.limited_until = self.limited_until.or(o.limited_until);
    }
}

/// How a message is rendered: a template (campaigns) or its own text (direct messages).
pub struct Content<'a> {
    pub subject: &'a str,
    pub html: &'a str,
    /// Unsubscribe list: the campaign's id, or `all`.
    pub list: &'a str,
}

/// What a campaign run's claimer shares with [`send_claimed`].
pub struct Pipeline {
    /// A permit per row that may be claimed and not yet recorded: the claimer takes a round's
    /// before claiming, each record commit gives its rows' back.
    pub unrecorded: tokio::sync::Semaphore,
    /// Rows this run recorded sent or failed (its progress, without counting the ledger).
    pub finished: AtomicU64,
}

impl Pipeline {
    pub fn new(unrecorded: usize) -> Self {
        Self {
            unrecorded: tokio::sync::Semaphore::new(unrecorded),
            finished: AtomicU64::new(0),
        }
    }
}

/// Which ready rows a round takes.
#[derive(Clone, Copy)]
pub enum Pick<'a> {
    /// Up to `n` of a campaign's ready rows that no other round holds.
    Campaign(&'a str, i64),
    /// These rows (when still ready).
    Ids(&'a [String]),
}

/// Answers recorded in one commit at most.
const RECORD_BATCH: usize = 64;
/// Contacts marked contacted in one commit at most (a campaign's trailing stage), and how long it
/// gathers them: the statement's triggers cost Postgres ~12 ms whatever its size (24 rows: 18 ms,
/// 500: 150 ms), so a commit per group of answers spent most of the database's time on them.
const TOUCH_BATCH: usize = 512;
const TOUCH_EVERY: Duration = Duration::from_millis(100);

/// The job run that claims a round's messages (a rescued run tells its own claims by them).
#[derive(Clone, Copy)]
pub struct Claimant<'a> {
    pub job_id: &'a str,
    pub attempt: i32,
}

/// Renders a claimed message: (subject, html, unsubscribe list).
pub type ContentFn<'a> = &'a (dyn Fn(&ClaimedMessage) -> (String, String, String) + Sync);

/// One round: claim, then send and record what was claimed.
pub async fn send_round(
    db: &Db,
    by: Claimant<'_>,
    mailing: &Mailing,
    pick: Pick<'_>,
    mailbox: &str,
    content: ContentFn<'_>,
) -> Result<RoundReport, sqlx::Error> {
    let (mut report, claimed) = claim_round(db, by, mailing, pick, mailbox).await?;
    report.add(send_claimed(db, mailing, futures::stream::iter(claimed), content, None).await?);
    Ok(report)
}

/// The claim of one round in one transaction: marks suppressed rows, reserves sends against the
/// mailbox's counters and claims the rest (`sending`). The report says what was picked and
/// suppressed and whether a limit is full.
pub async fn claim_round(
    db: &Db,
    by: Claimant<'_>,
    mailing: &Mailing,
    pick: Pick<'_>,
    mailbox: &str,
) -> Result<(RoundReport, Vec<ClaimedMessage>), sqlx::Error> {
    let mut report = RoundReport::default();
    let now = now_ms();
    let settings = db.deliverability_get().await?;
    let (hour_key, day_key) = window_keys(now);
    let usage = db.mailbox_usage(Some(mailbox), &hour_key, &day_key).await?;
    let daily = effective_daily_limit(&settings, &usage);
    let hourly = i64::from(settings.hourly_limit);

    let mut tx = db.begin().await?;
    let ids = match pick {
        Pick::Campaign(campaign, n) => tx.message_candidates(campaign, now, n).await?,
        Pick::Ids(ids) => ids.to_vec(),
    };
    report.picked = ids.len() as u64;
    if ids.is_empty() {
        tx.commit().await?;
        return Ok((report, Vec::new()));
    }
    let ids = &ids[..];
    let suppressed = tx.messages_suppress(ids).await?;
    report.suppressed = suppressed.len() as u64;
    let rest: Vec<String> = ids
        .iter()
        .filter(|id| !suppressed.contains(id))
        .cloned()
        .collect();
    let want = rest.len() as i64;
    let pacer = mailing.pacer(mailbox, u32::try_from(hourly).unwrap_or(u32::MAX));
    let paced = match NonZeroU32::new(u32::try_from(want).unwrap_or(u32::MAX)) {
        None => 0,
        Some(n) => match pacer.check_n(n) {
            Ok(Ok(())) => want,
            // More than the pacer holds right now: take what the counters allow, one at a time.
            _ => (0..want).take_while(|_| pacer.check().is_ok()).count() as i64,
        },
    };
    let reserve = Reserve {
        mailbox,
        hour_key: &hour_key,
        day_key: &day_key,
        want: paced,
        hourly_limit: hourly,
        daily_limit: daily,
    };
    let granted = if paced > 0 {
        tx.mailbox_reserve(&reserve).await?
    } else {
        0
    };
    if granted < want {
        let daily_full = usage.today + granted >= daily;
        report.limited_until = Some(next_window(now, daily_full));
    }
    let take = usize::try_from(granted).unwrap_or(0).min(rest.len());
    let claimed = tx
        .messages_claim(&rest[..take], by.job_id, by.attempt)
        .await?;
    if (claimed.len() as i64) < granted {
        tx.mailbox_release(&Reserve {
            want: granted - claimed.len() as i64,
            ..reserve
        })
        .await?;
    }
    tx.commit().await?;
    metrics::counter!("prospector_email_messages_total", "outcome" => "suppressed")
        .increment(report.suppressed);
    Ok((report, claimed))
}

/// Sends claimed messages as they arrive, `concurrency` at a time, and records each outcome as
/// soon as the server answers: the answers that arrived during one commit share the next (group
/// commit), so the window in which a crash leaves a delivered message unrecorded (in doubt) is one
/// commit, not a whole round. In a [`Pipeline`] each commit gives back a permit per row recorded;
/// a failed record closes them.
///
/// In a pipeline (a campaign's run) the contacts sent to are marked contacted by a trailing
/// stage in commits of their own, as many as have piled up: on Postgres that update (every index
/// of `contacts` and the rollup and facet triggers) took two thirds of each ledger commit and held
/// the sender back. A run that stops between the two leaves them to
/// [`Db::campaign_contacts_reconcile`] at the next run's start. Without it (single sends) the
/// contacts are touched in the ledger's commit.
pub async fn send_claimed(
    db: &Db,
    mailing: &Mailing,
    claimed: impl futures::Stream<Item = ClaimedMessage>,
    content: ContentFn<'_>,
    pipeline: Option<&Pipeline>,
) -> Result<RoundReport, sqlx::Error> {
    let mut report = RoundReport::default();
    let (answered, answers) = futures::channel::mpsc::unbounded();
    let deliver_all = async move {
        claimed
            .map(|m| async move {
                let outcome = deliver(mailing, &m, content).await;
                MessageFinish {
                    message: m,
                    outcome,
                    at: now_ms(),
                }
            })
            .buffer_unordered(mailing.concurrency)
            .for_each(|item| {
                // The receiver lives until every answer is in: a send cannot fail here.
                let _ = answered.unbounded_send(item);
                futures::future::ready(())
            })
            .await;
    };
    let trailing = pipeline.is_some();
    let (touched, touches) = futures::channel::mpsc::unbounded::<(String, i64)>();
    let record_all = async {
        // Owned here, so the toucher's stream ends when recording does.
        let touched = touched;
        let mut chunks = answers.ready_chunks(RECORD_BATCH);
        while let Some(chunk) = chunks.next().await {
            let mut tx = db.begin().await?;
            tx.messages_finish(&chunk).await?;
            if !trailing {
                tx.contacts_contacted(chunk.iter().filter_map(MessageFinish::contacted))
                    .await?;
            }
            tx.commit().await?;
            if let Some(p) = pipeline {
                p.unrecorded.add_permits(chunk.len());
                let finished = chunk
                    .iter()
                    .filter(|m| !matches!(m.outcome, SendOutcome::Deferred { .. }))
                    .count();
                p.finished.fetch_add(finished as u64, Ordering::Relaxed);
            }
            if trailing {
                for (contact, at) in chunk.iter().filter_map(MessageFinish::contacted) {
                    // A failed toucher is the run's error; the reconcile puts its contacts right.
                    let _ = touched.unbounded_send((contact.to_string(), at));
                }
            }
            for item in &chunk {
                match &item.outcome {
                    SendOutcome::Sent => report.sent += 1,
                    SendOutcome::Deferred { .. } => report.deferred += 1,
                    SendOutcome::Failed { .. } => {
                        report.failed += 1;
                        hard_bounced(db, mailing, &item.message.to_email, "smtp").await?;
                    }
                }
            }
        }
        Ok::<_, sqlx::Error>(())
    };
    let record_all = async {
        let r = record_all.await;
        // A failed record gives no permits back: closing them ends the claimer, which would
        // otherwise wait for them while the sender waits for it.
        if let (Err(_), Some(p)) = (&r, pipeline) {
            p.unrecorded.close();
        }
        r
    };
    let touch_all = async {
        let mut chunks = std::pin::pin!(tokio_stream::StreamExt::chunks_timeout(
            touches,
            TOUCH_BATCH,
            TOUCH_EVERY
        ));
        while let Some(chunk) = chunks.next().await {
            let mut tx = db.begin().await?;
            tx.contacts_contacted(chunk.iter().map(|(c, at)| (c.as_str(), *at)))
                .await?;
            tx.commit().await?;
        }
        Ok::<_, sqlx::Error>(())
    };
    let ((), recorded, touched) = futures::join!(deliver_all, record_all, touch_all);
    recorded?;
    touched?;
    for (outcome, n) in [
        ("sent", report.sent),
        ("deferred", report.deferred),
        ("failed", report.failed),
    ] {
        metrics::counter!("prospector_email_messages_total", "outcome" => outcome).increment(n);
    }
    Ok(report)
}

/// Counts a hard bounce; the address is suppressed at the configured number.
pub async fn hard_bounced(
    db: &Db,
    mailing: &Mailing,
    email: &str,
    source: &str,
) -> Result<(), sqlx::Error> {
    if db.bounce_count(email).await? >= mailing.hard_bounce_limit {
        db.suppression_add(email, "hard_bounced", source, now_ms())
            .await?;
    }
    Ok(())
}

/// Renders and hands one claimed message to the mailer.
async fn deliver(mailing: &Mailing, m: &ClaimedMessage, content: ContentFn<'_>) -> SendOutcome {
    let (subject, html, list) = content(m);
    let empty = Map::new();
    let vars = m.vars.0.as_object().unwrap_or(&empty);
    let out = Outgoing {
        ledger_id: &m.id,
        message_id: &m.message_id,
        to: &m.to_email,
        from: Some(&m.from_email),
        subject: &subject,
        html: &html,
        vars,
        list: &list,
        track_clicks: true,
        track_opens: m.track_opens,
    };
    let message = match compose::compose(&mailing.sender, &mailing.signer, &out) {
        Ok(msg) => msg,
        Err(e) => {
            return SendOutcome::Failed {
                error: e.to_string(),
            };
        }
    };
    // The semaphore is never closed; without a permit the send goes ahead unthrottled.
    let _permit = mailing.in_flight.acquire().await.ok();
    match mailing.send(message).await {
        Ok(()) => SendOutcome::Sent,
        Err(SendError::Permanent(error)) => SendOutcome::Failed { error },
        Err(SendError::Transient(error)) if m.attempts >= MAX_DEFERRALS => SendOutcome::Failed {
            error: format!("gave up after {} deferrals: {error}", m.attempts),
        },
        Err(SendError::Transient(error)) => SendOutcome::Deferred {
            retry_at: now_ms() + deferral_delay(m.attempts).as_millis() as i64,
            error,
        },
    }
}

/// An event from outside (webhook, tracking) applied to the ledger, suppression list and history.
pub async fn apply_event(db: &Db, mailing: &Mailing, e: &EventInsert) -> Result<bool, sqlx::Error> {
    let fresh = db.event_record(e).await?;
    if !fresh {
        return Ok(false);
    }
    metrics::counter!("prospector_email_events_total", "event" => e.event_type.clone())
        .increment(1);
    let Some(email) = e.email.as_deref() else {
        return Ok(true);
    };
    let now = now_ms();
    // A reply, an opt-out or a bounce ends the contact's sequences.
    let exit = match e.event_type.as_str() {
        "replied" => Some("replied"),
        "unsubscribed" | "spam_reported" => Some("unsubscribed"),
        "bounced" => Some("bounced"),
        _ => None,
    };
    if let (Some(reason), Some(contact)) = (exit, &e.contact_id) {
        db.enrollments_exit_contact(contact, reason, now).await?;
    }
    match e.event_type.as_str() {
        "bounced" => hard_bounced(db, mailing, email, "webhook").await?,
        "spam_reported" => {
            db.suppression_add(email, "spam_reported", "webhook", now)
                .await?
        }
        "unsubscribed" => {
            db.suppression_add(email, "unsubscribed", "webhook", now)
                .await?
        }
        _ => {}
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_and_warmup() {
        // 2026-11-22T10:30:00Z
        let now = 1_795_343_400_000;
        let (h, d) = window_keys(now);
        assert_eq!((h.as_str(), d.as_str()), ("h2026112210", "d20261122"));
        assert_eq!(crate::time::days_between(Some("d20261120"), &d), 2);
        assert_eq!(crate::time::days_between(None, &d), 0);
        let s = DeliverabilityRow {
            warmup_enabled: true,
            daily_limit: 100,
            hourly_limit: 20,
            track_opens: false,
        };
        let usage = |days| MailboxUsage {
            days_sending: days,
            ..Default::default()
        };
        assert_eq!(effective_daily_limit(&s, &usage(0)), 20);
        assert_eq!(effective_daily_limit(&s, &usage(2)), 60);
        assert_eq!(effective_daily_limit(&s, &usage(30)), 100);
        let no_warmup = DeliverabilityRow {
            warmup_enabled: false,
            ..s
        };
        assert_eq!(effective_daily_limit(&no_warmup, &usage(0)), 100);
        // The hour window ends at 11:00, the day at midnight.
        assert_eq!(next_window(now, false), 1_795_345_200_000);
        assert_eq!(next_window(now, true), 1_795_392_000_000);
    }

    #[test]
    fn deferrals_back_off() {
        assert_eq!(deferral_delay(1), Duration::from_secs(60));
        assert_eq!(deferral_delay(3), Duration::from_secs(900));
        assert_eq!(deferral_delay(9), Duration::from_secs(14_400));
    }

    #[test]
    fn addresses() {
        assert_eq!(
            address_of("Team <Partners@Example.com>"),
            "partners@example.com"
        );
        assert_eq!(
            domain_of("partners@example.com").as_deref(),
            Some("example.com")
        );
    }
}
