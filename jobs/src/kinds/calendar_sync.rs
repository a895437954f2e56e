//! `calendar_sync`: writes a meeting to its owner's Google Calendar (insert or patch, with a Meet
//! link), or removes its event. Enqueued by the sync / update / remove calls, by an edit of a synced
//! meeting and by its deletion (which carries the event id, the meeting being gone).
//!
//! The token is refreshed a minute before it expires, and once more when Google answers 401. A
//! revoked grant fails the job for good and says so on the meeting and the connection; Google down
//! or rate limiting is retried (the HTTP layer's backoff, then the queue's), and the meeting shows
//! `failed` with the reason only after the last attempt. A write that raced an edit of the meeting
//! is done again with the new values.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{CalendarAccountRow, MeetingRow, SyncDone};
use crate::providers::google::{CalendarError, EventInput, GoogleCalendar};
use crate::queue::{JobContext, JobError, JobKind};

/// Refresh this long before the access token expires.
const REFRESH_MARGIN_MS: i64 = 60_000;
/// Writes that keep losing to edits give up after this many rounds; the edits' own jobs follow.
const MAX_ROUNDS: usize = 3;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CalendarSync {
    pub meeting_id: String,
    /// `upsert` or `delete`.
    pub op: String,
    /// For a deleted meeting: whose calendar and which event.
    #[serde(default)]
    pub owner_id: Option<String>,
    #[serde(default)]
    pub event_id: Option<String>,
}

impl JobKind for CalendarSync {
    const NAME: &'static str = "calendar_sync";
    const MAX_ATTEMPTS: i32 = 5;

    fn validate(&self) -> Result<(), String> {
        match self.op.as_str() {
            "upsert" | "delete" => Ok(()),
            other => Err(format!("op must be upsert or delete, not {other:?}")),
        }
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let Some(google) = ctx.env.providers.calendar.clone() else {
            return Err(JobError::Permanent(
                "Google Calendar is not configured on this server".into(),
            ));
        };
        let db = ctx.db().clone();
        let meeting = db.meeting_get_by_id(&self.meeting_id).await?;
        let owner = self
            .owner_id
            .clone()
            .or_else(|| meeting.as_ref().and_then(|m| m.calendar_owner_id.clone()));
        let result = match (&meeting, owner) {
            (None, _) if self.op == "upsert" => return Ok(json!({ "skipped": "meeting deleted" })),
            (_, None) => Err(CalendarError::NoTokens),
            (_, Some(owner)) => match Session::open(&ctx, &google, &owner).await? {
                None => Err(CalendarError::NoTokens),
                Some(mut session) => match (self.op.as_str(), &meeting) {
                    ("upsert", Some(m)) if m.status != "cancelled" => {
                        upsert(&ctx, &mut session, m.clone()).await
                    }
                    _ => remove(&ctx, &mut session, &self, meeting.as_ref()).await,
                },
            },
        };
        match result {
            Ok(v) => Ok(v),
            Err(e) => {
                let last = ctx.attempt >= ctx.env.max_attempts(Self::NAME).unwrap_or(1);
                let transient = matches!(e, CalendarError::Unavailable(_));
                if transient && !last {
                    return Err(JobError::Retry(e.to_string()));
                }
                if meeting.is_some() {
                    db.meeting_sync_failed(&self.meeting_id, &e.to_string())
                        .await?;
                }
                Err(JobError::Permanent(e.to_string()))
            }
        }
    }
}

/// A user's grant in use: the plain tokens, refreshed as needed.
struct Session<'a> {
    google: &'a GoogleCalendar,
    account: CalendarAccountRow,
    access: String,
    refresh: Option<String>,
}

impl<'a> Session<'a> {
    async fn open(
        ctx: &JobContext,
        google: &'a GoogleCalendar,
        owner: &str,
    ) -> Result<Option<Session<'a>>, JobError> {
        let Some(account) = ctx.db().calendar_account_get(owner).await? else {
            return Ok(None);
        };
        let access = google
            .sealer
            .open(&account.access_token, &account.user_id)
            .unwrap_or_default();
        let refresh = account
            .refresh_token
            .as_deref()
            .and_then(|t| google.sealer.open(t, &account.user_id));
        Ok(Some(Self {
            google,
            account,
            access,
            refresh,
        }))
    }

    /// A usable access token, refreshed when it is about to expire (or `force`).
    async fn token(&mut self, ctx: &JobContext, force: bool) -> Result<String, CalendarError> {
        if self.account.error.is_some() {
            return Err(CalendarError::Revoked);
        }
        let now = ctx.env.clock.now_ms();
        let fresh = !self.access.is_empty() && self.account.expires_at - REFRESH_MARGIN_MS > now;
        if fresh && !force {
            return Ok(self.access.clone());
        }
        let Some(refresh) = self.refresh.clone() else {
            return self.revoked(ctx).await;
        };
        match self.google.refresh(&refresh).await {
            Ok(grant) => {
                let uid = self.account.user_id.clone();
                let expires_at = now.saturating_add(grant.expires_in.saturating_mul(1000));
                let rotated = grant
                    .refresh_token
                    .as_deref()
                    .map(|t| self.google.sealer.seal(t, &uid));
                ctx.db()
                    .calendar_account_tokens(
                        &uid,
                        &self.google.sealer.seal(&grant.access_token, &uid),
                        expires_at,
                        rotated.as_deref(),
                        now,
                    )
                    .await
                    .map_err(|e| CalendarError::Unavailable(format!("database error: {e}")))?;
                self.account.expires_at = expires_at;
                self.access = grant.access_token;
                if let Some(t) = grant.refresh_token {
                    self.refresh = Some(t);
                }
                Ok(self.access.clone())
            }
            Err(CalendarError::Revoked) => self.revoked(ctx).await,
            Err(e) => Err(e),
        }
    }

    async fn revoked(&mut self, ctx: &JobContext) -> Result<String, CalendarError> {
        let message = CalendarError::Revoked.to_string();
        ctx.db()
            .calendar_account_failed(&self.account.user_id, &message, ctx.env.clock.now_ms())
            .await
            .map_err(|e| CalendarError::Unavailable(format!("database error: {e}")))?;
        self.account.error = Some(message);
        Err(CalendarError::Revoked)
    }

    /// Runs `call` with a valid token; on 401, refreshes and runs it once more.
    async fn with_token<T, F, Fut>(&mut self, ctx: &JobContext, call: F) -> Result<T, CalendarError>
    where
        F: Fn(String) -> Fut,
        Fut: Future<Output = Result<T, CalendarError>>,
    {
        let token = self.token(ctx, false).await?;
        match call(token).await {
            Err(CalendarError::Unauthorized) => {
                let token = self.token(ctx, true).await?;
                match call(token).await {
                    // Refused right after a refresh: the grant no longer covers the calendar.
                    Err(CalendarError::Unauthorized) => {
                        self.revoked(ctx).await.and(Err(CalendarError::Revoked))
                    }
                    other => other,
                }
            }
            other => other,
        }
    }
}

/// Attendee addresses from the meeting's comma-separated text plus the contact's email.
fn attendees(m: &MeetingRow, contact_email: Option<String>) -> Vec<String> {
    let mut out: Vec<String> = contact_email.into_iter().collect();
    for part in m.attendees.as_deref().unwrap_or_default().split([',', ';']) {
        let a = part.trim();
        if crate::domain::contacts::is_valid_email(a)
            && !out.iter().any(|o| o.eq_ignore_ascii_case(a))
        {
            out.push(a.to_string());
        }
    }
    out
}

async fn upsert(
    ctx: &JobContext,
    session: &mut Session<'_>,
    mut m: MeetingRow,
) -> Result<Value, CalendarError> {
    let db_err = |e: sqlx::Error| CalendarError::Unavailable(format!("database error: {e}"));
    for _ in 0..MAX_ROUNDS {
        if !m.google_calendar_sync_enabled {
            return Ok(json!({ "skipped": "sync turned off" }));
        }
        let contact_email = match &m.contact_id {
            Some(id) => ctx
                .db()
                .contact_get(id)
                .await
                .map_err(db_err)?
                .and_then(|c| c.email),
            None => None,
        };
        let input = EventInput {
            meeting_id: &m.id,
            title: &m.title,
            description: m.description.as_deref().or(m.agenda.as_deref()),
            location: m.location.as_deref(),
            start_ms: m.scheduled_at,
            duration_minutes: m.duration,
            attendees: attendees(&m, contact_email),
        };
        let known = m.google_calendar_event_id.clone();
        let google = session.google;
        let event = session
            .with_token(ctx, |token| {
                let input = input.clone();
                let known = known.clone();
                async move { google.upsert_event(&token, &input, known.as_deref()).await }
            })
            .await?;
        let now = ctx.env.clock.now_ms();
        let written = ctx
            .db()
            .meeting_sync_done(&SyncDone {
                meeting_id: &m.id,
                seen_updated_at: m.updated_at,
                event_id: &event.id,
                meet_link: event.meet_link.as_deref(),
                now,
            })
            .await
            .map_err(db_err)?;
        if written == 1 {
            return Ok(json!({ "eventId": event.id, "meetLink": event.meet_link }));
        }
        // Edited (or deleted) while we wrote: write the new values.
        match ctx.db().meeting_get_by_id(&m.id).await.map_err(db_err)? {
            Some(newer) => {
                m = MeetingRow {
                    google_calendar_event_id: Some(event.id.clone()),
                    ..newer
                }
            }
            None => return Ok(json!({ "skipped": "meeting deleted" })),
        }
    }
    Ok(json!({ "skipped": "meeting kept changing; its latest edit syncs it" }))
}

async fn remove(
    ctx: &JobContext,
    session: &mut Session<'_>,
    job: &CalendarSync,
    meeting: Option<&MeetingRow>,
) -> Result<Value, CalendarError> {
    let event_id = job
        .event_id
        .clone()
        .or_else(|| meeting.and_then(|m| m.google_calendar_event_id.clone()));
    let Some(event_id) = event_id else {
        return Ok(json!({ "skipped": "no calendar event" }));
    };
    let google = session.google;
    session
        .with_token(ctx, |token| {
            let event_id = event_id.clone();
            async move { google.delete_event(&token, &event_id).await }
        })
        .await?;
    if meeting.is_some() {
        ctx.db()
            .meeting_sync_cleared(&job.meeting_id)
            .await
            .map_err(|e| CalendarError::Unavailable(format!("database error: {e}")))?;
    }
    Ok(json!({ "removed": event_id }))
}
