//! Meetings: params, rows and their queries, written once for both dialects. Changes read the row
//! through [`Tx`] first, so a status rule is checked against the row the write replaces.

use super::sql::Sql;
use super::*;

/// The meeting columns, in the order [`MeetingRow`] reads them.
macro_rules! meeting_columns {
    () => {
        "id, title, description, company_id, contact_id, scheduled_at, duration, location,
         meeting_type, agenda, attendees, status, sync_status, google_calendar_event_id,
         google_meet_link, last_synced_at, google_calendar_sync_enabled, created_at, updated_at,
         calendar_owner_id, sync_error"
    };
}

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

/// The list filters; each NULL parameter matches every row. The CASTs type the parameters for
/// Postgres when they are NULL.
macro_rules! meeting_filter {
    () => {
        " WHERE (CAST(?1 AS TEXT) IS NULL OR status = ?1)
            AND (CAST(?2 AS TEXT) IS NULL OR company_id = ?2)
            AND (CAST(?3 AS TEXT) IS NULL OR contact_id = ?3)"
    };
}

const MEETING_PAGE: Sql = sql!(concat!(
    "SELECT ",
    meeting_columns!(),
    " FROM meetings",
    meeting_filter!(),
    " ORDER BY scheduled_at ASC, id ASC LIMIT ?4 OFFSET ?5"
));
const MEETING_COUNT: Sql = sql!(concat!("SELECT COUNT(*) FROM meetings", meeting_filter!()));
const MEETING_GET: Sql = select!(meeting_columns, "meetings", "WHERE id = ?1");
// Differs: Postgres locks the row read before a write; SQLite's BEGIN IMMEDIATE already holds the
// write lock (and has no FOR UPDATE).
const MEETING_GET_FOR_UPDATE: Sql = locking!(
    concat!(
        "SELECT ",
        meeting_columns!(),
        " FROM meetings WHERE id = ?1"
    ),
    "FOR UPDATE",
    ""
);
const MEETING_INSERT: Sql = sql!(concat!(
    "INSERT INTO meetings (",
    meeting_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
               ?19, ?20, ?21)"
));
const MEETING_UPDATE: Sql = sql!(
    "UPDATE meetings SET title = ?2, description = ?3, company_id = ?4, contact_id = ?5,
        scheduled_at = ?6, duration = ?7, location = ?8, meeting_type = ?9, agenda = ?10,
        attendees = ?11, status = ?12, updated_at = ?13
     WHERE id = ?1"
);
const MEETING_DELETE: Sql = sql!("DELETE FROM meetings WHERE id = ?1 RETURNING title");
const MEETINGS_UPCOMING: Sql = sql!(concat!(
    "SELECT ",
    meeting_columns!(),
    " FROM meetings
     WHERE scheduled_at >= ?1 AND status IN ('scheduled', 'confirmed')
     ORDER BY scheduled_at ASC, id ASC LIMIT ?2"
));
/// On the user's calendar or on no one's (shared); never those synced to another user's calendar.
const MEETINGS_FEED: Sql = sql!(concat!(
    "SELECT ",
    meeting_columns!(),
    " FROM meetings
     WHERE scheduled_at >= ?2 AND status IN ('scheduled', 'confirmed')
       AND (calendar_owner_id IS NULL OR calendar_owner_id = ?1)
     ORDER BY scheduled_at ASC, id ASC LIMIT ?3"
));
const CALENDAR_STATS: Sql = Sql {
    // Differs: Postgres's AVG of integers is numeric, so it is cast to float8 for the f64.
    sqlite: "SELECT COUNT(*) AS total,
                 COUNT(*) FILTER (WHERE scheduled_at >= ?1 AND status IN ('scheduled', 'confirmed')) AS upcoming,
                 COUNT(*) FILTER (WHERE status = 'completed') AS completed,
                 AVG(duration) AS average_duration
             FROM meetings",
    postgres: "SELECT COUNT(*) AS total,
                   COUNT(*) FILTER (WHERE scheduled_at >= $1 AND status IN ('scheduled', 'confirmed')) AS upcoming,
                   COUNT(*) FILTER (WHERE status = 'completed') AS completed,
                   AVG(duration)::float8 AS average_duration
               FROM meetings",
    generic_plan: false,
};

impl Db {
    /// Scheduled or confirmed meetings from `from` on, soonest first.
    pub async fn meetings_upcoming(
        &self,
        from: i64,
        limit: i64,
    ) -> Result<Vec<MeetingRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(MEETINGS_UPCOMING), from, limit)
    }
    /// What `user_id`'s calendar feed shows: scheduled or confirmed meetings from `from` on, on
    /// their calendar or on no one's; soonest first.
    pub async fn meetings_feed(
        &self,
        user_id: &str,
        from: i64,
        limit: i64,
    ) -> Result<Vec<MeetingRow>, sqlx::Error> {
        fetch!(
            self,
            fetch_all,
            query_as(MEETINGS_FEED),
            user_id,
            from,
            limit
        )
    }
    /// The version in the user's current feed URL; `None` when the user does not exist.
    pub async fn calendar_feed_version(&self, user_id: &str) -> Result<Option<i32>, sqlx::Error> {
        const Q: Sql = sql!("SELECT calendar_feed_version FROM users WHERE id = ?1");
        fetch!(self, fetch_optional, query_scalar(Q), user_id)
    }
    /// Revokes the user's feed URL by bumping its version; the new version (`None`: no such user).
    pub async fn calendar_feed_rotate(&self, user_id: &str) -> Result<Option<i32>, sqlx::Error> {
        const Q: Sql = sql!(
            "UPDATE users SET calendar_feed_version = calendar_feed_version + 1 WHERE id = ?1
             RETURNING calendar_feed_version"
        );
        fetch!(self, fetch_optional, query_scalar(Q), user_id)
    }
    pub async fn calendar_stats(&self, now: i64) -> Result<CalendarStats, sqlx::Error> {
        fetch!(self, fetch_one, query_as(CALENDAR_STATS), now)
    }
    pub async fn meeting_list(
        &self,
        p: &MeetingList<'_>,
    ) -> Result<(Vec<MeetingRow>, i64), sqlx::Error> {
        on_db!(self, pool, [page = MEETING_PAGE, count = MEETING_COUNT], {
            let rows = sqlx::query_as(page)
                .bind(p.status)
                .bind(p.company_id)
                .bind(p.contact_id)
                .bind(p.limit)
                .bind(p.offset)
                .fetch_all(pool)
                .await?;
            let total = sqlx::query_scalar(count)
                .bind(p.status)
                .bind(p.company_id)
                .bind(p.contact_id)
                .fetch_one(pool)
                .await?;
            Ok((rows, total))
        })
    }
    pub async fn meeting_get_by_id(&self, id: &str) -> Result<Option<MeetingRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(MEETING_GET), id)
    }
}

impl Tx {
    /// The meeting, locked against concurrent changes until the transaction ends.
    pub async fn meeting_get_for_update(
        &mut self,
        id: &str,
    ) -> Result<Option<MeetingRow>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_as(MEETING_GET_FOR_UPDATE), id)
    }
    pub async fn meeting_insert(&mut self, m: &MeetingRow) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            MEETING_INSERT,
            &m.id,
            &m.title,
            &m.description,
            &m.company_id,
            &m.contact_id,
            m.scheduled_at,
            m.duration,
            &m.location,
            &m.meeting_type,
            &m.agenda,
            &m.attendees,
            &m.status,
            &m.sync_status,
            &m.google_calendar_event_id,
            &m.google_meet_link,
            m.last_synced_at,
            m.google_calendar_sync_enabled,
            m.created_at,
            m.updated_at,
            &m.calendar_owner_id,
            &m.sync_error
        )
        .map(|_| ())
    }
    /// Writes every mutable column of `m`; the number of rows changed (0: gone).
    pub async fn meeting_update(&mut self, m: &MeetingRow) -> Result<u64, sqlx::Error> {
        exec_tx!(
            self,
            MEETING_UPDATE,
            &m.id,
            &m.title,
            &m.description,
            &m.company_id,
            &m.contact_id,
            m.scheduled_at,
            m.duration,
            &m.location,
            &m.meeting_type,
            &m.agenda,
            &m.attendees,
            &m.status,
            m.updated_at
        )
    }
    /// Deletes the meeting; its title if it existed.
    pub async fn meeting_delete(&mut self, id: &str) -> Result<Option<String>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_scalar(MEETING_DELETE), id)
    }
}
