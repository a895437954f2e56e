//! email queries that differ by dialect, sqlite. Lists travel as one JSON array read with `json_each`.

use sqlx::{AssertSqlSafe, SqliteConnection, SqlitePool};

use crate::db::Materialize;

// Differs: the lists are JSON arrays read with json_each (Postgres: jsonb functions, typed NULLs).
/// The audience as a WHERE clause over `contacts c LEFT JOIN companies co`: ?1..?5.
pub(crate) const AUDIENCE: &str = "c.email IS NOT NULL AND trim(c.email) <> ''
    AND (?1 IS NULL OR c.score >= ?1) AND (?2 IS NULL OR c.score <= ?2)
    AND (json_array_length(?3) = 0 OR c.status IN (SELECT value FROM json_each(?3)))
    AND (json_array_length(?4) = 0 OR upper(co.state) IN (SELECT upper(value) FROM json_each(?4)))
    AND (?5 IS NULL OR c.id IN (SELECT value FROM json_each(?5)))";

// Differs: the random id (randomblob), the vars object (json_object) and the audience filter.
pub async fn campaign_messages_materialize(
    pool: &SqlitePool,
    m: &Materialize<'_>,
) -> Result<u64, sqlx::Error> {
    let a = m.audience;
    let done = sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email,
             vars, message_id, status, created_at)
         SELECT lower(hex(randomblob(16))), 'campaign:' || ?6 || ':' || c.id, ?6, c.id,
             lower(trim(c.email)), ?7,
             json_object('firstName', c.first_name, 'lastName', c.last_name, 'email', c.email,
                 'title', coalesce(c.title, ''), 'companyName', coalesce(co.name, ''),
                 'senderName', ?8),
             ?6 || '.' || c.id || '@' || ?9, 'queued', ?10
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
         WHERE {AUDIENCE}
         ON CONFLICT (dedupe_key) DO NOTHING"
    )))
    .bind(a.score_min)
    .bind(a.score_max)
    .bind(a.statuses_json())
    .bind(a.states_json())
    .bind(a.ids_json())
    .bind(m.campaign_id)
    .bind(m.from_email)
    .bind(m.sender_name)
    .bind(m.message_domain)
    .bind(m.now)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

// Differs: the rows are read from the JSON array with json_each and `->>`.
pub async fn messages_insert(conn: &mut SqliteConnection, rows: &str) -> Result<u64, sqlx::Error> {
    // `WHERE true`: SQLite's parser needs it between a SELECT and ON CONFLICT.
    let done = sqlx::query(
        "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email,
             subject, body, vars, message_id, status, created_at, step_id, enrollment_id, variant)
         SELECT value ->> 'id', value ->> 'dedupe_key', value ->> 'campaign_id', value ->> 'contact_id',
             value ->> 'to_email', value ->> 'from_email', value ->> 'subject', value ->> 'body',
             value ->> 'vars', value ->> 'message_id', value ->> 'status', value ->> 'created_at',
             value ->> 'step_id', value ->> 'enrollment_id', value ->> 'variant'
         FROM json_each(?1) WHERE true
         ON CONFLICT (dedupe_key) DO NOTHING",
    )
    .bind(rows)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}
