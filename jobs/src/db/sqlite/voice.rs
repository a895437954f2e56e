//! Voice calls, SQLite dialect: only what differs (the rest is written once in `db/voice.rs`).

use super::*;

// Differs: the list of statuses binds as a JSON array read by json_each() in SQLite, a text[]
// compared with = ANY() in Postgres.
pub async fn voice_call_advance(
    pool: &SqlitePool,
    c: &VoiceCallRow,
    from: &[&str],
) -> Result<bool, sqlx::Error> {
    let from = Json(from);
    sqlx::query(
        "UPDATE voice_calls SET status = ?2, provider_call_id = ?3, outcome = ?4, transcript = ?5, \
         summary = ?6, duration_seconds = ?7, suggested_meeting = ?8, error = ?9, updated_at = ?10 \
         WHERE id = ?1 AND status IN (SELECT value FROM json_each(?11))",
    )
    .bind(&c.id)
    .bind(&c.status)
    .bind(&c.provider_call_id)
    .bind(&c.outcome)
    .bind(&c.transcript)
    .bind(&c.summary)
    .bind(c.duration_seconds)
    .bind(&c.suggested_meeting)
    .bind(&c.error)
    .bind(c.updated_at)
    .bind(from)
    .execute(pool)
    .await
    .map(|r| r.rows_affected() > 0)
}
