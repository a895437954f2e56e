//! Calendar grants, meeting sync state, reminder slots and the SMS ledger (SQL in
//! sqlite/calendar.rs and postgres/calendar.rs).

use super::*;

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
        dispatch!(self, calendar_account_get(user_id))
    }
    /// Stores a new grant, replacing any earlier one and its error.
    pub async fn calendar_account_save(&self, a: &CalendarAccountRow) -> Result<(), sqlx::Error> {
        dispatch!(self, calendar_account_save(a))
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
        dispatch!(
            self,
            calendar_account_tokens(user_id, access_token, expires_at, refresh_token, now)
        )
    }
    pub async fn calendar_account_failed(
        &self,
        user_id: &str,
        error: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, calendar_account_failed(user_id, error, now))
    }
    pub async fn calendar_account_delete(&self, user_id: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, calendar_account_delete(user_id))
    }
    /// Records a synced event unless the meeting changed (or sync was turned off) since it was read.
    pub async fn meeting_sync_done(&self, d: &SyncDone<'_>) -> Result<u64, sqlx::Error> {
        dispatch!(self, meeting_sync_done(d))
    }
    pub async fn meeting_sync_failed(&self, id: &str, message: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, meeting_sync_failed(id, message))
    }
    /// The event is gone from the calendar (removed, or the meeting cancelled): no event id, no
    /// link, not synced.
    pub async fn meeting_sync_cleared(&self, id: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, meeting_sync_cleared(id))
    }
    /// Scheduled or confirmed meetings starting in `(now, until]`, each with its recorded slots for
    /// its current time (one row per slot, or one with no slot).
    pub async fn reminder_candidates(
        &self,
        now: i64,
        until: i64,
    ) -> Result<Vec<ReminderCandidate>, sqlx::Error> {
        dispatch!(self, reminder_candidates(now, until))
    }
    pub async fn sms_get(&self, id: &str) -> Result<Option<SmsRow>, sqlx::Error> {
        dispatch!(self, sms_get(id))
    }
    pub async fn sms_by_key(&self, dedupe_key: &str) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, sms_by_key(dedupe_key))
    }
    /// `queued` → `sending`; 1 when this caller may send it.
    pub async fn sms_claim(&self, id: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, sms_claim(id))
    }
    /// `sending` → `queued`: the provider proved it did not take the message.
    pub async fn sms_requeue(&self, id: &str, error: &str) -> Result<u64, sqlx::Error> {
        dispatch!(self, sms_requeue(id, error))
    }
    pub async fn sms_finish(
        &self,
        id: &str,
        status: &str,
        provider_id: Option<&str>,
        error: Option<&str>,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        dispatch!(self, sms_finish(id, status, provider_id, error, now))
    }
}

impl Tx {
    /// Sync turned on for `owner`'s calendar and the meeting marked pending.
    pub async fn meeting_sync_request(
        &mut self,
        id: &str,
        owner_id: &str,
    ) -> Result<u64, sqlx::Error> {
        dispatch_tx!(self, meeting_sync_request(id, owner_id))
    }
    /// Sync turned off (the event is being removed): later edits leave the calendar alone.
    pub async fn meeting_sync_disable(&mut self, id: &str) -> Result<u64, sqlx::Error> {
        dispatch_tx!(self, meeting_sync_disable(id))
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
        dispatch_tx!(
            self,
            meeting_reminder_insert(meeting_id, scheduled_at, slot, state, now)
        )
    }
    /// Writes a ledger row; false when its dedupe key exists (already written).
    pub async fn sms_insert(&mut self, s: &SmsInsert<'_>) -> Result<bool, sqlx::Error> {
        dispatch_tx!(self, sms_insert(s))
    }
}
