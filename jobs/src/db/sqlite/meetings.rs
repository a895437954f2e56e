//! meetings queries, sqlite dialect.

use sqlx::{AssertSqlSafe, SqliteConnection, SqlitePool};

use crate::db::{CalendarStats, MEETING_COLUMNS, MeetingList, MeetingRow};

pub async fn meeting_list(
    pool: &SqlitePool,
    p: &MeetingList<'_>,
) -> Result<(Vec<MeetingRow>, i64), sqlx::Error> {
    let filter = "WHERE (?1 IS NULL OR status = ?1)
        AND (?2 IS NULL OR company_id = ?2) AND (?3 IS NULL OR contact_id = ?3)";
    let rows = sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {MEETING_COLUMNS} FROM meetings {filter} ORDER BY scheduled_at ASC, id ASC LIMIT ?4 OFFSET ?5"
    )))
    .bind(p.status)
    .bind(p.company_id)
    .bind(p.contact_id)
    .bind(p.limit)
    .bind(p.offset)
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM meetings {filter}"
    )))
    .bind(p.status)
    .bind(p.company_id)
    .bind(p.contact_id)
    .fetch_one(pool)
    .await?;
    Ok((rows, total))
}

pub async fn meeting_get_by_id(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<MeetingRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {MEETING_COLUMNS} FROM meetings WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn meeting_get_for_update(
    conn: &mut SqliteConnection,
    id: &str,
) -> Result<Option<MeetingRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {MEETING_COLUMNS} FROM meetings WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn meeting_insert(
    conn: &mut SqliteConnection,
    m: &MeetingRow,
) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO meetings ({MEETING_COLUMNS})
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)"
    )))
    .bind(&m.id)
    .bind(&m.title)
    .bind(&m.description)
    .bind(&m.company_id)
    .bind(&m.contact_id)
    .bind(m.scheduled_at)
    .bind(m.duration)
    .bind(&m.location)
    .bind(&m.meeting_type)
    .bind(&m.agenda)
    .bind(&m.attendees)
    .bind(&m.status)
    .bind(&m.sync_status)
    .bind(&m.google_calendar_event_id)
    .bind(&m.google_meet_link)
    .bind(m.last_synced_at)
    .bind(m.google_calendar_sync_enabled)
    .bind(m.created_at)
    .bind(m.updated_at)
    .bind(&m.calendar_owner_id)
    .bind(&m.sync_error)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn meeting_update(
    conn: &mut SqliteConnection,
    m: &MeetingRow,
) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE meetings SET title = ?2, description = ?3, company_id = ?4, contact_id = ?5,
            scheduled_at = ?6, duration = ?7, location = ?8, meeting_type = ?9, agenda = ?10,
            attendees = ?11, status = ?12, updated_at = ?13
         WHERE id = ?1",
    )
    .bind(&m.id)
    .bind(&m.title)
    .bind(&m.description)
    .bind(&m.company_id)
    .bind(&m.contact_id)
    .bind(m.scheduled_at)
    .bind(m.duration)
    .bind(&m.location)
    .bind(&m.meeting_type)
    .bind(&m.agenda)
    .bind(&m.attendees)
    .bind(&m.status)
    .bind(m.updated_at)
    .execute(conn)
    .await
    .map(|r| r.rows_affected())
}

pub async fn meeting_delete(
    conn: &mut SqliteConnection,
    id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("DELETE FROM meetings WHERE id = ?1 RETURNING title")
        .bind(id)
        .fetch_optional(conn)
        .await
}

pub async fn meetings_upcoming(
    pool: &SqlitePool,
    from: i64,
    limit: i64,
) -> Result<Vec<MeetingRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {MEETING_COLUMNS} FROM meetings
         WHERE scheduled_at >= ?1 AND status IN ('scheduled', 'confirmed')
         ORDER BY scheduled_at ASC, id ASC LIMIT ?2"
    )))
    .bind(from)
    .bind(limit)
    .fetch_all(pool)
    .await
}

/// The user's calendar feed: scheduled or confirmed meetings from `from` on that are on their
/// calendar or on no one's (shared), soonest first; never those synced to another user's calendar.
pub async fn meetings_feed(
    pool: &SqlitePool,
    user_id: &str,
    from: i64,
    limit: i64,
) -> Result<Vec<MeetingRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {MEETING_COLUMNS} FROM meetings
         WHERE scheduled_at >= ?2 AND status IN ('scheduled', 'confirmed')
           AND (calendar_owner_id IS NULL OR calendar_owner_id = ?1)
         ORDER BY scheduled_at ASC, id ASC LIMIT ?3"
    )))
    .bind(user_id)
    .bind(from)
    .bind(limit)
    .fetch_all(pool)
    .await
}

pub async fn calendar_stats(pool: &SqlitePool, now: i64) -> Result<CalendarStats, sqlx::Error> {
    sqlx::query_as(
        "SELECT COUNT(*) AS total,
             COUNT(*) FILTER (WHERE scheduled_at >= ?1 AND status IN ('scheduled', 'confirmed')) AS upcoming,
             COUNT(*) FILTER (WHERE status = 'completed') AS completed,
             AVG(duration) AS average_duration
         FROM meetings",
    )
    .bind(now)
    .fetch_one(pool)
    .await
}
