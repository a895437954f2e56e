//! `mailbox_sync`: reads one connected mailbox over IMAP for replies and bounce reports to what we
//! sent (issue 24 §5, docs/email.md "Mailbox sync"). Enqueued per mailbox by `mailbox_tick` (the
//! scheduler's `MAILBOX_SYNC_CRON`), by "Sync now", and with `test: true` by "Test connection" and
//! on connecting (log in and open the folder, nothing read).
//!
//! It reads only what is new: the UIDs above the last one read under the folder's UIDVALIDITY (a
//! new UIDVALIDITY, or the first run, looks back [`LOOKBACK_DAYS`] by arrival date instead), at most
//! [`MAX_PER_RUN`] a run. For each it fetches a few header fields first; it downloads a message
//! (capped at [`MAX_BODY_BYTES`]) only when In-Reply-To/References name a Message-ID we sent, or
//! when it is a delivery report. Replies go through [`crate::replies::record_reply`] (sequence
//! stop, reply rules, out of office), a report's failure through the bounce path
//! ([`crate::mailing::apply_event`]). The folder is opened read-only: nothing is marked seen.
//!
//! IDLE: with `idleSeconds` (the tick passes `MAILBOX_IDLE_SECONDS`) and a server that supports it,
//! the job then waits in IDLE up to that long and reads again as soon as mail arrives, so replies
//! show within seconds between ticks. A bounded wait keeps the job model: the job ends, the next
//! tick starts the next one.
//!
//! Errors: a refused login, a missing folder or a TLS failure fail the job for good and are shown on
//! the mailbox (`lastError`); a server that is down or slow is retried, and shown after the last try.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{EventInsert, MailboxProgress, MailboxRow, MessageRef};
use crate::domain::mailbox::{delivery_failure, header_facts, reply_text};
use crate::mailing::apply_event;
use crate::providers::imap::{Connection, Credentials, Endpoint, Folder, ImapError, Tls, imap_day};
use crate::queue::{JobContext, JobError, JobKind};
use crate::replies::{InboundReply, ReplyOutcome, record_reply};

/// Messages whose headers one run reads; the next run goes on from there.
pub const MAX_PER_RUN: usize = 200;
/// How much of a matched message is downloaded (the reply's text and a report's parts come first).
pub const MAX_BODY_BYTES: u32 = 256 * 1024;
/// How far back a first sync (or one after a UIDVALIDITY change) looks.
pub const LOOKBACK_DAYS: i64 = 14;
/// The longest IDLE wait a payload may ask for.
pub const MAX_IDLE_SECONDS: u32 = 600;
/// Refresh a Google token this long before it expires.
const REFRESH_MARGIN_MS: i64 = 60_000;
const DAY_MS: i64 = 86_400_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MailboxSync {
    pub mailbox_id: String,
    /// Only log in and open the folder ("Test connection").
    #[serde(default)]
    pub test: bool,
    /// After reading, wait in IDLE up to this long for more (0: no IDLE).
    #[serde(default)]
    pub idle_seconds: u32,
}

impl JobKind for MailboxSync {
    const NAME: &'static str = "mailbox_sync";
    const MAX_ATTEMPTS: i32 = 3;
    /// Connecting and reading take seconds; IDLE adds at most its wait.
    const TIME_BUDGET: Duration = Duration::from_secs(MAX_IDLE_SECONDS as u64 + 180);

    fn validate(&self) -> Result<(), String> {
        if self.idle_seconds > MAX_IDLE_SECONDS {
            return Err(format!("idleSeconds must be at most {MAX_IDLE_SECONDS}"));
        }
        Ok(())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db().clone();
        let Some(mailbox) = db.mailbox_get(&self.mailbox_id).await? else {
            return Ok(json!({ "skipped": "mailbox disconnected" }));
        };
        match self.sync(&ctx, &mailbox).await {
            Ok(v) => Ok(v),
            Err(Failure::Job(e)) => Err(e),
            Err(Failure::Imap(e)) => {
                let last = ctx.attempt >= ctx.env.max_attempts(Self::NAME).unwrap_or(1);
                let message = e.to_string();
                if e.is_transient() && !last {
                    return Err(JobError::Retry(message));
                }
                db.mailbox_failed(&mailbox.id, &message, ctx.env.clock.now_ms())
                    .await?;
                tracing::warn!(mailbox = %mailbox.id, host = %mailbox.host, error = %message, "mailbox sync failed");
                Err(JobError::Permanent(message))
            }
        }
    }
}

/// Why a run stopped: the mailbox (shown to the user) or the platform (the queue's business).
enum Failure {
    Imap(ImapError),
    Job(JobError),
}

impl From<ImapError> for Failure {
    fn from(e: ImapError) -> Self {
        Self::Imap(e)
    }
}

impl From<sqlx::Error> for Failure {
    fn from(e: sqlx::Error) -> Self {
        Self::Job(e.into())
    }
}

/// Where a folder's reading stands.
#[derive(Debug, Clone, Copy)]
struct Mark {
    uid_validity: Option<i64>,
    last_uid: i64,
}

impl MailboxSync {
    async fn sync(&self, ctx: &JobContext, mailbox: &MailboxRow) -> Result<Value, Failure> {
        let imap = ctx.env.providers.imap.clone();
        let creds = credentials(ctx, mailbox).await?;
        let tls = Tls::parse(&mailbox.tls)
            .ok_or_else(|| ImapError::Protocol(format!("unknown TLS mode {:?}", mailbox.tls)))?;
        let ep = Endpoint {
            host: &mailbox.host,
            port: u16::try_from(mailbox.port).unwrap_or(993),
            tls,
            username: &mailbox.username,
        };
        let mut conn = imap.connect(&ep, &creds).await?;
        let folder = conn.examine(&mailbox.folder).await?;
        let now = ctx.env.clock.now_ms();
        if self.test {
            let can_idle = conn.can_idle();
            conn.logout().await;
            ctx.db().mailbox_reached(&mailbox.id, now).await?;
            return Ok(json!({ "connected": true, "messages": folder.exists, "idle": can_idle }));
        }
        let mut mark = Mark {
            uid_validity: mailbox.uid_validity,
            last_uid: mailbox.last_uid,
        };
        let mut total = read_new(ctx, &mut conn, mailbox, folder, &mut mark).await?;
        let mut idled = false;
        if self.idle_seconds > 0 && conn.can_idle() {
            idled = true;
            let deadline =
                tokio::time::Instant::now() + Duration::from_secs(self.idle_seconds.into());
            loop {
                let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                if left.is_zero() {
                    break;
                }
                let (back, arrived) = conn.idle(left).await?;
                conn = back;
                if !arrived {
                    break;
                }
                let folder = conn.examine(&mailbox.folder).await?;
                let more = read_new(ctx, &mut conn, mailbox, folder, &mut mark).await?;
                total.seen += more.seen;
                total.matched += more.matched;
            }
        }
        conn.logout().await;
        Ok(json!({
            "seen": total.seen,
            "matched": total.matched,
            "lastUid": mark.last_uid,
            "uidValidity": mark.uid_validity,
            "idled": idled,
        }))
    }
}

/// The login for this mailbox: its sealed app password, or a fresh token of the user's Google grant.
async fn credentials(ctx: &JobContext, mailbox: &MailboxRow) -> Result<Credentials, Failure> {
    let imap = &ctx.env.providers.imap;
    if mailbox.auth == "xoauth2" {
        return google_token(ctx, &mailbox.user_id)
            .await
            .map(Credentials::XOAuth2);
    }
    mailbox
        .secret
        .as_deref()
        .and_then(|s| imap.sealer.open(s, &mailbox.id))
        .map(Credentials::Password)
        .ok_or_else(|| {
            Failure::Imap(ImapError::Auth(
                "the stored password cannot be read (the server's key changed): connect the mailbox again"
                    .into(),
            ))
        })
}

/// The user's Google access token (refreshed when about to expire), for XOAUTH2.
async fn google_token(ctx: &JobContext, user_id: &str) -> Result<String, Failure> {
    let no_grant = || {
        Failure::Imap(ImapError::Auth(
            "no usable Google grant: connect Google in Meetings again".into(),
        ))
    };
    let Some(google) = ctx.env.providers.calendar.clone() else {
        return Err(Failure::Imap(ImapError::Auth(
            "Google is not configured on this server".into(),
        )));
    };
    let db = ctx.db();
    let Some(account) = db.calendar_account_get(user_id).await? else {
        return Err(no_grant());
    };
    if account.error.is_some() {
        return Err(no_grant());
    }
    let now = ctx.env.clock.now_ms();
    let access = google.sealer.open(&account.access_token, user_id);
    if let Some(access) = access.filter(|_| account.expires_at - REFRESH_MARGIN_MS > now) {
        return Ok(access);
    }
    let refresh = account
        .refresh_token
        .as_deref()
        .and_then(|t| google.sealer.open(t, user_id))
        .ok_or_else(no_grant)?;
    let grant = google.refresh(&refresh).await.map_err(|e| match e {
        crate::providers::google::CalendarError::Unavailable(m) => {
            Failure::Imap(ImapError::Connect(format!("Google ({m})")))
        }
        _ => no_grant(),
    })?;
    let rotated = grant
        .refresh_token
        .as_deref()
        .map(|t| google.sealer.seal(t, user_id));
    db.calendar_account_tokens(
        user_id,
        &google.sealer.seal(&grant.access_token, user_id),
        now.saturating_add(grant.expires_in.saturating_mul(1000)),
        rotated.as_deref(),
        now,
    )
    .await?;
    Ok(grant.access_token)
}

/// Reads the messages after `mark` in the selected folder and records what matches; moves `mark`
/// and stores it with the counts.
async fn read_new(
    ctx: &JobContext,
    conn: &mut Connection,
    mailbox: &MailboxRow,
    folder: Folder,
    mark: &mut Mark,
) -> Result<MailboxProgress, Failure> {
    let db = ctx.db();
    let now = ctx.env.clock.now_ms();
    let validity = i64::from(folder.uid_validity);
    let reset = mark.uid_validity != Some(validity);
    let after = if reset { 0 } else { mark.last_uid };
    let since = reset.then(|| imap_day(now - LOOKBACK_DAYS * DAY_MS));
    let uids = if folder.exists == 0 {
        Vec::new()
    } else {
        conn.uids_after(
            u32::try_from(after).unwrap_or(u32::MAX),
            since.as_deref(),
            MAX_PER_RUN,
        )
        .await?
    };
    let mut progress = MailboxProgress {
        uid_validity: validity,
        last_uid: after,
        seen: 0,
        matched: 0,
    };
    for h in conn.headers(&uids).await? {
        progress.seen += 1;
        progress.last_uid = progress.last_uid.max(i64::from(h.uid));
        let facts = header_facts(&h.raw);
        // A stable id for a message that has none of its own, so a re-read changes nothing.
        let own_id = facts
            .message_id
            .clone()
            .unwrap_or_else(|| format!("imap-{}-{validity}-{}", mailbox.id, h.uid));
        if facts.is_delivery_report {
            let Some(raw) = conn.body(h.uid, MAX_BODY_BYTES).await? else {
                continue;
            };
            let Some(failure) = delivery_failure(&raw) else {
                continue;
            };
            let Some(original) = failure.original_message_id.as_deref() else {
                continue;
            };
            let Some(m) = db.message_find(None, Some(original)).await? else {
                continue;
            };
            let event = EventInsert {
                message_id: Some(m.id.clone()),
                campaign_id: m.campaign_id.clone(),
                contact_id: m.contact_id.clone(),
                email: Some(m.to_email.clone()),
                event_type: "bounced".into(),
                provider_event_id: Some(format!("dsn:{own_id}")),
                url: None,
                detail: Some(failure.summary()),
                is_demo: false,
                occurred_at: now,
            };
            if apply_event(db, &ctx.env.providers.mailing, &event).await? {
                progress.matched += 1;
            }
            continue;
        }
        let Some(m) = ours(ctx, &facts.answers).await? else {
            continue;
        };
        let Some(raw) = conn.body(h.uid, MAX_BODY_BYTES).await? else {
            continue;
        };
        let Some(reply) = reply_text(&raw) else {
            continue;
        };
        let inbound = InboundReply {
            message_id: Some(own_id),
            subject: reply.facts.subject,
            text: reply.text,
            auto_reply: reply.facts.auto_reply,
        };
        let outcome = record_reply(db, &ctx.env.providers.mailing, &m, &inbound, now).await?;
        if outcome != ReplyOutcome::Duplicate {
            progress.matched += 1;
        }
    }
    if uids.is_empty() && reset {
        // Nothing in the look-back: start after what the folder holds now.
        progress.last_uid = folder
            .uid_next
            .map_or(0, |n| i64::from(n.saturating_sub(1)));
    }
    db.mailbox_synced(&mailbox.id, &progress, now).await?;
    *mark = Mark {
        uid_validity: Some(progress.uid_validity),
        last_uid: progress.last_uid,
    };
    Ok(progress)
}

/// The first of these Message-IDs that is one we sent.
async fn ours(ctx: &JobContext, answers: &[String]) -> Result<Option<MessageRef>, sqlx::Error> {
    for id in answers {
        if let Some(m) = ctx.db().message_find(None, Some(id)).await? {
            return Ok(Some(m));
        }
    }
    Ok(None)
}
