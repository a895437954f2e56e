//! calendar queries, sqlite dialect.

use sqlx::{SqliteConnection, SqlitePool};

use crate::db::{CalendarAccountRow, ReminderCandidate, SmsInsert, SmsRow, SyncDone};

const ACCOUNT_COLUMNS: &str = "user_id, provider, account_email, access_token, refresh_token, \
    expires_at, error, connected_at, updated_at";
const SMS_COLUMNS: &str = "id, contact_id, meeting_id, kind, to_phone, body, status, provider_id, \
    error, actor_id, created_at, sent_at";

pub async fn calendar_account_get(
    pool: &SqlitePool,
    user_id: &str,
) -> Result<Option<CalendarAccountRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {ACCOUNT_COLUMNS} FROM calendar_accounts WHERE user_id = ?1"
    )))
    .bind(user_id)
    .fetch_optional(pool)
    .await
}

pub async fn calendar_account_save(
    pool: &SqlitePool,
    a: &CalendarAccountRow,
) -> Result<(), sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO calendar_accounts ({ACCOUNT_COLUMNS})
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
         ON CONFLICT (user_id) DO UPDATE SET provider = excluded.provider,
             account_email = excluded.account_email, access_token = excluded.access_token,
             refresh_token = COALESCE(excluded.refresh_token, calendar_accounts.refresh_token),
             expires_at = excluded.expires_at, error = NULL,
             connected_at = excluded.connected_at, updated_at = excluded.updated_at"
    )))
    .bind(&a.user_id)
    .bind(&a.provider)
    .bind(&a.account_email)
    .bind(&a.access_token)
    .bind(&a.refresh_token)
    .bind(a.expires_at)
    .bind(&a.error)
    .bind(a.connected_at)
    .bind(a.updated_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn calendar_account_tokens(
    pool: &SqlitePool,
    user_id: &str,
    access_token: &str,
    expires_at: i64,
    refresh_token: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE calendar_accounts SET access_token = ?2, expires_at = ?3,
             refresh_token = COALESCE(?4, refresh_token), error = NULL, updated_at = ?5
         WHERE user_id = ?1",
    )
    .bind(user_id)
    .bind(access_token)
    .bind(expires_at)
    .bind(refresh_token)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn calendar_account_failed(
    pool: &SqlitePool,
    user_id: &str,
    error: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE calendar_accounts SET error = ?2, updated_at = ?3 WHERE user_id = ?1")
        .bind(user_id)
        .bind(error)
        .bind(now)
        .execute(pool)
        .await
        .map(|_| ())
}

pub async fn calendar_account_delete(pool: &SqlitePool, user_id: &str) -> Result<u64, sqlx::Error> {
    sqlx::query("DELETE FROM calendar_accounts WHERE user_id = ?1")
        .bind(user_id)
        .execute(pool)
        .await
        .map(|r| r.rows_affected())
}

pub async fn meeting_sync_done(pool: &SqlitePool, d: &SyncDone<'_>) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE meetings SET google_calendar_event_id = ?2, google_meet_link = ?3,
             sync_status = 'synced', last_synced_at = ?4, sync_error = NULL
         WHERE id = ?1 AND updated_at = ?5 AND google_calendar_sync_enabled",
    )
    .bind(d.meeting_id)
    .bind(d.event_id)
    .bind(d.meet_link)
    .bind(d.now)
    .bind(d.seen_updated_at)
    .execute(pool)
    .await
    .map(|r| r.rows_affected())
}

pub async fn meeting_sync_failed(
    pool: &SqlitePool,
    id: &str,
    message: &str,
) -> Result<u64, sqlx::Error> {
    sqlx::query("UPDATE meetings SET sync_status = 'failed', sync_error = ?2 WHERE id = ?1")
        .bind(id)
        .bind(message)
        .execute(pool)
        .await
        .map(|r| r.rows_affected())
}

pub async fn meeting_sync_cleared(pool: &SqlitePool, id: &str) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE meetings SET google_calendar_event_id = NULL, google_meet_link = NULL,
             sync_status = 'pending', last_synced_at = NULL, sync_error = NULL
         WHERE id = ?1",
    )
    .bind(id)
    .execute(pool)
    .await
    .map(|r| r.rows_affected())
}

pub async fn reminder_candidates(
    pool: &SqlitePool,
    now: i64,
    until: i64,
) -> Result<Vec<ReminderCandidate>, sqlx::Error> {
    sqlx::query_as(
        "SELECT m.id AS meeting_id, m.scheduled_at, r.slot, r.created_at AS slot_created_at
         FROM meetings m
         LEFT JOIN meeting_reminders r
             ON r.meeting_id = m.id AND r.scheduled_at = m.scheduled_at
         WHERE m.status IN ('scheduled', 'confirmed') AND m.scheduled_at > ?1 AND m.scheduled_at <= ?2
         ORDER BY m.scheduled_at, m.id",
    )
    .bind(now)
    .bind(until)
    .fetch_all(pool)
    .await
}

pub async fn sms_get(pool: &SqlitePool, id: &str) -> Result<Option<SmsRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {SMS_COLUMNS} FROM sms_messages WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn sms_by_key(
    pool: &SqlitePool,
    dedupe_key: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM sms_messages WHERE dedupe_key = ?1")
        .bind(dedupe_key)
        .fetch_optional(pool)
        .await
}

pub async fn sms_claim(pool: &SqlitePool, id: &str) -> Result<u64, sqlx::Error> {
    sqlx::query("UPDATE sms_messages SET status = 'sending' WHERE id = ?1 AND status = 'queued'")
        .bind(id)
        .execute(pool)
        .await
        .map(|r| r.rows_affected())
}

pub async fn sms_requeue(pool: &SqlitePool, id: &str, error: &str) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE sms_messages SET status = 'queued', error = ?2 WHERE id = ?1 AND status = 'sending'",
    )
    .bind(id)
    .bind(error)
    .execute(pool)
    .await
    .map(|r| r.rows_affected())
}

pub async fn sms_finish(
    pool: &SqlitePool,
    id: &str,
    status: &str,
    provider_id: Option<&str>,
    error: Option<&str>,
    now: i64,
) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE sms_messages SET status = ?2, provider_id = ?3, error = ?4,
             sent_at = CASE WHEN ?2 IN ('sent', 'demo') THEN ?5 ELSE sent_at END
         WHERE id = ?1",
    )
    .bind(id)
    .bind(status)
    .bind(provider_id)
    .bind(error)
    .bind(now)
    .execute(pool)
    .await
    .map(|r| r.rows_affected())
}

pub async fn meeting_sync_request(
    conn: &mut SqliteConnection,
    id: &str,
    owner_id: &str,
) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE meetings SET calendar_owner_id = ?2, google_calendar_sync_enabled = TRUE,
             sync_status = 'pending', sync_error = NULL
         WHERE id = ?1",
    )
    .bind(id)
    .bind(owner_id)
    .execute(conn)
    .await
    .map(|r| r.rows_affected())
}

pub async fn meeting_sync_disable(
    conn: &mut SqliteConnection,
    id: &str,
) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE meetings SET google_calendar_sync_enabled = FALSE, sync_status = 'pending',
             sync_error = NULL
         WHERE id = ?1",
    )
    .bind(id)
    .execute(conn)
    .await
    .map(|r| r.rows_affected())
}

pub async fn meeting_reminder_insert(
    conn: &mut SqliteConnection,
    meeting_id: &str,
    scheduled_at: i64,
    slot: i32,
    state: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    sqlx::query(
        "INSERT INTO meeting_reminders (meeting_id, scheduled_at, slot, state, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT DO NOTHING",
    )
    .bind(meeting_id)
    .bind(scheduled_at)
    .bind(slot)
    .bind(state)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected() == 1)
}

pub async fn sms_insert(
    conn: &mut SqliteConnection,
    s: &SmsInsert<'_>,
) -> Result<bool, sqlx::Error> {
    sqlx::query(
        "INSERT INTO sms_messages (id, dedupe_key, contact_id, meeting_id, kind, to_phone, body,
             status, actor_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'queued', ?8, ?9) ON CONFLICT (dedupe_key) DO NOTHING",
    )
    .bind(s.id)
    .bind(s.dedupe_key)
    .bind(s.contact_id)
    .bind(s.meeting_id)
    .bind(s.kind)
    .bind(s.to_phone)
    .bind(s.body)
    .bind(s.actor_id)
    .bind(s.now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected() == 1)
}
