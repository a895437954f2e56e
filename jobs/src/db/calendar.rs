//! Calendar grants, meeting sync state, reminder slots and the SMS ledger. Every query is the same
//! in both dialects, so all are written once here.

use super::sql::Sql;
use super::*;

/// The columns of [`CalendarAccountRow`], in its order.
macro_rules! account_columns {
    () => {
        "user_id, provider, account_email, access_token, refresh_token, expires_at, error,
         connected_at, updated_at"
    };
}
/// The columns of [`SmsRow`], in its order.
macro_rules! sms_columns {
    () => {
        "id, contact_id, meeting_id, kind, to_phone, body, status, provider_id, error, actor_id,
         created_at, sent_at"
    };
}

const ACCOUNT_GET: Sql = sql!(concat!(
    "SELECT ",
    account_columns!(),
    " FROM calendar_accounts WHERE user_id = ?1"
));
/// A new grant replaces the earlier one and clears its error; the refresh token is kept when
/// Google did not send a new one.
const ACCOUNT_SAVE: Sql = sql!(concat!(
    "INSERT INTO calendar_accounts (",
    account_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
     ON CONFLICT (user_id) DO UPDATE SET provider = excluded.provider,
         account_email = excluded.account_email, access_token = excluded.access_token,
         refresh_token = COALESCE(excluded.refresh_token, calendar_accounts.refresh_token),
         expires_at = excluded.expires_at, error = NULL,
         connected_at = excluded.connected_at, updated_at = excluded.updated_at"
));
const ACCOUNT_TOKENS: Sql = sql!(
    "UPDATE calendar_accounts SET access_token = ?2, expires_at = ?3,
         refresh_token = COALESCE(?4, refresh_token), error = NULL, updated_at = ?5
     WHERE user_id = ?1"
);
const ACCOUNT_FAILED: Sql =
    sql!("UPDATE calendar_accounts SET error = ?2, updated_at = ?3 WHERE user_id = ?1");
const ACCOUNT_DELETE: Sql = sql!("DELETE FROM calendar_accounts WHERE user_id = ?1");
const SYNC_DONE: Sql = sql!(
    "UPDATE meetings SET google_calendar_event_id = ?2, google_meet_link = ?3,
         sync_status = 'synced', last_synced_at = ?4, sync_error = NULL
     WHERE id = ?1 AND updated_at = ?5 AND google_calendar_sync_enabled"
);
const SYNC_FAILED: Sql =
    sql!("UPDATE meetings SET sync_status = 'failed', sync_error = ?2 WHERE id = ?1");
const SYNC_CLEARED: Sql = sql!(
    "UPDATE meetings SET google_calendar_event_id = NULL, google_meet_link = NULL,
         sync_status = 'pending', last_synced_at = NULL, sync_error = NULL
     WHERE id = ?1"
);
const SYNC_REQUEST: Sql = sql!(
    "UPDATE meetings SET calendar_owner_id = ?2, google_calendar_sync_enabled = TRUE,
         sync_status = 'pending', sync_error = NULL
     WHERE id = ?1"
);
const SYNC_DISABLE: Sql = sql!(
    "UPDATE meetings SET google_calendar_sync_enabled = FALSE, sync_status = 'pending',
         sync_error = NULL
     WHERE id = ?1"
);
const REMINDER_CANDIDATES: Sql = sql!(
    "SELECT m.id AS meeting_id, m.scheduled_at, r.slot, r.created_at AS slot_created_at
     FROM meetings m
     LEFT JOIN meeting_reminders r
         ON r.meeting_id = m.id AND r.scheduled_at = m.scheduled_at
     WHERE m.status IN ('scheduled', 'confirmed') AND m.scheduled_at > ?1 AND m.scheduled_at <= ?2
     ORDER BY m.scheduled_at, m.id"
);
const REMINDER_INSERT: Sql = sql!(
    "INSERT INTO meeting_reminders (meeting_id, scheduled_at, slot, state, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING"
);
const SMS_GET: Sql = sql!(concat!(
    "SELECT ",
    sms_columns!(),
    " FROM sms_messages WHERE id = ?1"
));
const SMS_BY_KEY: Sql = sql!("SELECT id FROM sms_messages WHERE dedupe_key = ?1");
const SMS_CLAIM: Sql =
    sql!("UPDATE sms_messages SET status = 'sending' WHERE id = ?1 AND status = 'queued'");
const SMS_REQUEUE: Sql = sql!(
    "UPDATE sms_messages SET status = 'queued', error = ?2 WHERE id = ?1 AND status = 'sending'"
);
const SMS_FINISH: Sql = sql!(
    "UPDATE sms_messages SET status = ?2, provider_id = ?3, error = ?4,
         sent_at = CASE WHEN ?2 IN ('sent', 'demo') THEN ?5 ELSE sent_at END
     WHERE id = ?1"
);
const SMS_INSERT: Sql = sql!(
    "INSERT INTO sms_messages (id, dedupe_key, contact_id, meeting_id, kind, to_phone, body,
         status, actor_id, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'queued', ?8, ?9) ON CONFLICT (dedupe_key) DO NOTHING"
);

/// A user's Google Calendar grant; the tokens are sealed ([`crate::sealed::Sealer`]).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CalendarAccountRow {
    pub user_id: String,
    pub provider: String,
    pub account_email: Option<String>,
    pub access_token: String,
    pub refresh_token: Option<String>,
    pub expires_at: i64,
    /// Set when the grant stopped working (revoked): sync needs a new connection.
    pub error: Option<String>,
    pub connected_at: i64,
    pub updated_at: i64,
}

/// A scheduled or confirmed meeting in the reminder horizon, with one reminder slot already
/// recorded for its current time (none: `slot` is `None`).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReminderCandidate {
    pub meeting_id: String,
    pub scheduled_at: i64,
    pub slot: Option<i32>,
    pub slot_created_at: Option<i64>,
}

pub struct SmsInsert<'a> {
    pub id: &'a str,
    pub dedupe_key: &'a str,
    pub contact_id: Option<&'a str>,
    pub meeting_id: Option<&'a str>,
    pub kind: &'a str,
    pub to_phone: &'a str,
    pub body: &'a str,
    pub actor_id: Option<&'a str>,
    pub now: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SmsRow {
    pub id: String,
    pub contact_id: Option<String>,
    pub meeting_id: Option<String>,
    pub kind: String,
    pub to_phone: String,
    pub body: String,
    pub status: String,
    pub provider_id: Option<String>,
    pub error: Option<String>,
    pub actor_id: Option<String>,
    pub created_at: i64,
    pub sent_at: Option<i64>,
}

/// What a finished sync wrote.
pub struct SyncDone<'a> {
    pub meeting_id: &'a str,
    /// The meeting's `updated_at` when the job read it: a later edit makes the write miss, and the
    /// job syncs again with the new values.
    pub seen_updated_at: i64,
    pub event_id: &'a str,
    pub meet_link: Option<&'a str>,
    pub now: i64,
}

impl Db {
    pub async fn calendar_account_get(
        &self,
        user_id: &str,
    ) -> Result<Option<CalendarAccountRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(ACCOUNT_GET), user_id)
    }
    /// Stores a new grant, replacing any earlier one and its error.
    pub async fn calendar_account_save(&self, a: &CalendarAccountRow) -> Result<(), sqlx::Error> {
        exec!(
            self,
            ACCOUNT_SAVE,
            &a.user_id,
            &a.provider,
            &a.account_email,
            &a.access_token,
            &a.refresh_token,
            a.expires_at,
            &a.error,
            a.connected_at,
            a.updated_at
        )
        .map(|_| ())
    }
    /// A refreshed access token (and a rotated refresh token, when Google sent one).
    pub async fn calendar_account_tokens(
        &self,
        user_id: &str,
        access_token: &str,
        expires_at: i64,
        refresh_token: Option<&str>,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec!(
            self,
            ACCOUNT_TOKENS,
            user_id,
            access_token,
            expires_at,
            refresh_token,
            now
        )
        .map(|_| ())
    }
    pub async fn calendar_account_failed(
        &self,
        user_id: &str,
        error: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec!(self, ACCOUNT_FAILED, user_id, error, now).map(|_| ())
    }
    pub async fn calendar_account_delete(&self, user_id: &str) -> Result<u64, sqlx::Error> {
        exec!(self, ACCOUNT_DELETE, user_id)
    }
    /// Records a synced event unless the meeting changed (or sync was turned off) since it was read.
    pub async fn meeting_sync_done(&self, d: &SyncDone<'_>) -> Result<u64, sqlx::Error> {
        exec!(
            self,
            SYNC_DONE,
            d.meeting_id,
            d.event_id,
            d.meet_link,
            d.now,
            d.seen_updated_at
        )
    }
    pub async fn meeting_sync_failed(&self, id: &str, message: &str) -> Result<u64, sqlx::Error> {
        exec!(self, SYNC_FAILED, id, message)
    }
    /// The event is gone from the calendar (removed, or the meeting cancelled): no event id, no
    /// link, not synced.
    pub async fn meeting_sync_cleared(&self, id: &str) -> Result<u64, sqlx::Error> {
        exec!(self, SYNC_CLEARED, id)
    }
    /// Scheduled or confirmed meetings starting in `(now, until]`, each with its recorded slots for
    /// its current time (one row per slot, or one with no slot).
    pub async fn reminder_candidates(
        &self,
        now: i64,
        until: i64,
    ) -> Result<Vec<ReminderCandidate>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(REMINDER_CANDIDATES), now, until)
    }
    pub async fn sms_get(&self, id: &str) -> Result<Option<SmsRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(SMS_GET), id)
    }
    pub async fn sms_by_key(&self, dedupe_key: &str) -> Result<Option<String>, sqlx::Error> {
        fetch!(self, fetch_optional, query_scalar(SMS_BY_KEY), dedupe_key)
    }
    /// `queued` → `sending`; 1 when this caller may send it.
    pub async fn sms_claim(&self, id: &str) -> Result<u64, sqlx::Error> {
        exec!(self, SMS_CLAIM, id)
    }
    /// `sending` → `queued`: the provider proved it did not take the message.
    pub async fn sms_requeue(&self, id: &str, error: &str) -> Result<u64, sqlx::Error> {
        exec!(self, SMS_REQUEUE, id, error)
    }
    /// The send's outcome; `sent_at` is set when it was sent (or shown in demo mode).
    pub async fn sms_finish(
        &self,
        id: &str,
        status: &str,
        provider_id: Option<&str>,
        error: Option<&str>,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        exec!(self, SMS_FINISH, id, status, provider_id, error, now)
    }
}

impl Tx {
    /// Sync turned on for `owner`'s calendar and the meeting marked pending.
    pub async fn meeting_sync_request(
        &mut self,
        id: &str,
        owner_id: &str,
    ) -> Result<u64, sqlx::Error> {
        exec_tx!(self, SYNC_REQUEST, id, owner_id)
    }
    /// Sync turned off (the event is being removed): later edits leave the calendar alone.
    pub async fn meeting_sync_disable(&mut self, id: &str) -> Result<u64, sqlx::Error> {
        exec_tx!(self, SYNC_DISABLE, id)
    }
    /// Records a reminder slot; false when it was recorded before.
    pub async fn meeting_reminder_insert(
        &mut self,
        meeting_id: &str,
        scheduled_at: i64,
        slot: i32,
        state: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        exec_tx!(
            self,
            REMINDER_INSERT,
            meeting_id,
            scheduled_at,
            slot,
            state,
            now
        )
        .map(|n| n == 1)
    }
    /// Writes a ledger row; false when its dedupe key exists (already written).
    pub async fn sms_insert(&mut self, s: &SmsInsert<'_>) -> Result<bool, sqlx::Error> {
        exec_tx!(
            self,
            SMS_INSERT,
            s.id,
            s.dedupe_key,
            s.contact_id,
            s.meeting_id,
            s.kind,
            s.to_phone,
            s.body,
            s.actor_id,
            s.now
        )
        .map(|n| n == 1)
    }
}
