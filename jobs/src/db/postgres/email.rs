//! email queries that differ by dialect, postgres. Lists travel as one JSON array read with
//! `jsonb_array_elements_text`.

use sqlx::{AssertSqlSafe, PgConnection, PgPool};

use crate::db::Materialize;

// Differs: the lists are jsonb arrays, and a NULL parameter needs its type (SQLite: json_each).
/// The audience as a WHERE clause over `contacts c LEFT JOIN companies co`: $1..$5.
pub(crate) const AUDIENCE: &str = "c.email IS NOT NULL AND trim(c.email) <> ''
    AND ($1::int IS NULL OR c.score >= $1) AND ($2::int IS NULL OR c.score <= $2)
    AND (jsonb_array_length($3::jsonb) = 0 OR c.status IN (SELECT jsonb_array_elements_text($3::jsonb)))
    AND (jsonb_array_length($4::jsonb) = 0 OR upper(co.state) IN (SELECT upper(v) FROM jsonb_array_elements_text($4::jsonb) AS v))
    AND ($5::text IS NULL OR c.id IN (SELECT jsonb_array_elements_text($5::jsonb)))";

// Differs: the random id (gen_random_uuid), the vars object (jsonb_build_object, typed
// parameters) and the audience filter.
pub async fn campaign_messages_materialize(
    pool: &PgPool,
    m: &Materialize<'_>,
) -> Result<u64, sqlx::Error> {
    let a = m.audience;
    let done = sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email,
             vars, message_id, status, created_at)
         SELECT replace(gen_random_uuid()::text, '-', ''), 'campaign:' || $6::text || ':' || c.id, $6, c.id,
             lower(trim(c.email)), $7,
             jsonb_build_object('firstName', c.first_name, 'lastName', c.last_name, 'email', c.email,
                 'title', coalesce(c.title, ''), 'companyName', coalesce(co.name, ''),
                 'senderName', $8::text),
             $6::text || '.' || c.id || '@' || $9::text, 'queued', $10
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

// Differs: the rows are read from the JSON array with jsonb_to_recordset, typed per column.
pub async fn messages_insert(conn: &mut PgConnection, rows: &str) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email,
             subject, body, vars, message_id, status, created_at, step_id, enrollment_id, variant)
         SELECT id, dedupe_key, campaign_id, contact_id, to_email, from_email, subject, body, vars,
             message_id, status, created_at, step_id, enrollment_id, variant
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, dedupe_key text, campaign_id text,
             contact_id text, to_email text, from_email text, subject text, body text, vars jsonb,
             message_id text, status text, created_at bigint, step_id text, enrollment_id text,
             variant text)
         ON CONFLICT (dedupe_key) DO NOTHING",
    )
    .bind(rows)
    .execute(conn)
    .await?;
    Ok(done.rows_affected())
}
