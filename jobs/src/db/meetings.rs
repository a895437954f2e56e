//! Meetings: params, rows and the dispatching methods (SQL in sqlite/meetings.rs and
//! postgres/meetings.rs). Changes read the row through [`Tx`] first, so a status rule is checked
//! against the row the write replaces.

use super::sql::Sql;
use super::*;

/// The meeting columns, in the order [`MeetingRow`] reads them.
pub(crate) const MEETING_COLUMNS: &str = "id, title, description, company_id, contact_id, \
    scheduled_at, duration, location, meeting_type, agenda, attendees, status, sync_status, \
    google_calendar_event_id, google_meet_link, last_synced_at, google_calendar_sync_enabled, \
    created_at, updated_at, calendar_owner_id, sync_error";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MeetingRow {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    pub company_id: Option<String>,
    pub contact_id: Option<String>,
    pub scheduled_at: i64,
    /// Minutes.
    pub duration: i32,
    pub location: Option<String>,
    pub meeting_type: String,
    pub agenda: Option<String>,
    /// Comma-separated, as the seed's form sends it.
    pub attendees: Option<String>,
    pub status: String,
    pub sync_status: String,
    pub google_calendar_event_id: Option<String>,
    pub google_meet_link: Option<String>,
    pub last_synced_at: Option<i64>,
    pub google_calendar_sync_enabled: bool,
    pub created_at: i64,
    pub updated_at: i64,
    /// The user whose calendar holds the event.
    pub calendar_owner_id: Option<String>,
    /// Why the last sync failed, in words for the screen.
    pub sync_error: Option<String>,
}

/// `GET /api/meetings` filters; soonest first.
pub struct MeetingList<'a> {
    pub status: Option<&'a str>,
    pub company_id: Option<&'a str>,
    pub contact_id: Option<&'a str>,
    pub limit: i64,
    pub offset: i64,
}

/// `GET /api/calendar/stats` (seed 001 §3 "Calendar stats").
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct CalendarStats {
    pub total: i64,
    /// Scheduled or confirmed, from now on.
    pub upcoming: i64,
    pub completed: i64,
    /// Minutes, over every meeting; none without meetings.
    pub average_duration: Option<f64>,
}

impl Db {
    /// Scheduled or confirmed meetings from `from` on, soonest first.
    pub async fn meetings_upcoming(
        &self,
        from: i64,
        limit: i64,
    ) -> Result<Vec<MeetingRow>, sqlx::Error> {
        dispatch!(self, meetings_upcoming(from, limit))
    }
    /// What `user_id`'s calendar feed shows: scheduled or confirmed meetings from `from` on, on
    /// their calendar or on no one's; soonest first.
    pub async fn meetings_feed(
        &self,
        user_id: &str,
        from: i64,
        limit: i64,
    ) -> Result<Vec<MeetingRow>, sqlx::Error> {
        dispatch!(self, meetings_feed(user_id, from, limit))
    }
    /// The version in the user's current feed URL; `None` when the user does not exist.
    pub async fn calendar_feed_version(&self, user_id: &str) -> Result<Option<i32>, sqlx::Error> {
        const Q: Sql = sql!("SELECT calendar_feed_version FROM users WHERE id = ?1");
        on_db!(self, pool, [q = Q], {
            sqlx::query_scalar(q)
                .bind(user_id)
                .fetch_optional(pool)
                .await
        })
    }
    /// Revokes the user's feed URL by bumping its version; the new version (`None`: no such user).
    pub async fn calendar_feed_rotate(&self, user_id: &str) -> Result<Option<i32>, sqlx::Error> {
        const Q: Sql = sql!(
            "UPDATE users SET calendar_feed_version = calendar_feed_version + 1 WHERE id = ?1
             RETURNING calendar_feed_version"
        );
        on_db!(self, pool, [q = Q], {
            sqlx::query_scalar(q)
                .bind(user_id)
                .fetch_optional(pool)
                .await
        })
    }
    pub async fn calendar_stats(&self, now: i64) -> Result<CalendarStats, sqlx::Error> {
        dispatch!(self, calendar_stats(now))
    }
    pub async fn meeting_list(
        &self,
        p: &MeetingList<'_>,
    ) -> Result<(Vec<MeetingRow>, i64), sqlx::Error> {
        dispatch!(self, meeting_list(p))
    }
    pub async fn meeting_get_by_id(&self, id: &str) -> Result<Option<MeetingRow>, sqlx::Error> {
        dispatch!(self, meeting_get_by_id(id))
    }
}

impl Tx {
    /// The meeting, locked against concurrent changes until the transaction ends.
    pub async fn meeting_get_for_update(
        &mut self,
        id: &str,
    ) -> Result<Option<MeetingRow>, sqlx::Error> {
        dispatch_tx!(self, meeting_get_for_update(id))
    }
    pub async fn meeting_insert(&mut self, m: &MeetingRow) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, meeting_insert(m))
    }
    /// Writes every mutable column of `m`; the number of rows changed (0: gone).
    pub async fn meeting_update(&mut self, m: &MeetingRow) -> Result<u64, sqlx::Error> {
        dispatch_tx!(self, meeting_update(m))
    }
    /// Deletes the meeting; its title if it existed.
    pub async fn meeting_delete(&mut self, id: &str) -> Result<Option<String>, sqlx::Error> {
        dispatch_tx!(self, meeting_delete(id))
    }
}
