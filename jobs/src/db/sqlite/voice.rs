use super::*;

pub async fn voice_agent_list(pool: &SqlitePool) -> Result<Vec<VoiceAgentRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {AGENT_COLUMNS} FROM voice_agents ORDER BY created_at, name, id"
    )))
    .fetch_all(pool)
    .await
}

pub async fn voice_agent_get(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<VoiceAgentRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {AGENT_COLUMNS} FROM voice_agents WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn voice_agent_insert(pool: &SqlitePool, a: &VoiceAgentRow) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO voice_agents ({AGENT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
    )))
    .bind(&a.id)
    .bind(&a.name)
    .bind(&a.status)
    .bind(&a.capabilities)
    .bind(&a.description)
    .bind(a.created_at)
    .bind(a.updated_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn voice_agent_update(pool: &SqlitePool, a: &VoiceAgentRow) -> Result<bool, sqlx::Error> {
    sqlx::query(
        "UPDATE voice_agents SET name = ?2, status = ?3, capabilities = ?4, description = ?5, \
         updated_at = ?6 WHERE id = ?1",
    )
    .bind(&a.id)
    .bind(&a.name)
    .bind(&a.status)
    .bind(&a.capabilities)
    .bind(&a.description)
    .bind(a.updated_at)
    .execute(pool)
    .await
    .map(|r| r.rows_affected() > 0)
}

pub async fn voice_call_insert(
    conn: &mut SqliteConnection,
    c: &VoiceCallRow,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO voice_calls (id, contact_id, agent_id, purpose, to_phone, status, simulated, \
         job_id, scheduled_for, actor_id, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )
    .bind(&c.id)
    .bind(&c.contact_id)
    .bind(&c.agent_id)
    .bind(&c.purpose)
    .bind(&c.to_phone)
    .bind(&c.status)
    .bind(c.simulated)
    .bind(&c.job_id)
    .bind(c.scheduled_for)
    .bind(&c.actor_id)
    .bind(c.created_at)
    .bind(c.updated_at)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn voice_call_get(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<VoiceCallRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!("{CALL_SELECT} WHERE v.id = ?1")))
        .bind(id)
        .fetch_optional(pool)
        .await
}

pub async fn voice_call_by_provider_id(
    pool: &SqlitePool,
    provider_id: &str,
) -> Result<Option<VoiceCallRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "{CALL_SELECT} WHERE v.provider_call_id = ?1"
    )))
    .bind(provider_id)
    .fetch_optional(pool)
    .await
}

pub async fn voice_call_list(
    pool: &SqlitePool,
    contact_id: Option<&str>,
    limit: i64,
) -> Result<Vec<VoiceCallRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "{CALL_SELECT} WHERE (?1 IS NULL OR v.contact_id = ?1) \
         ORDER BY v.created_at DESC, v.id DESC LIMIT ?2"
    )))
    .bind(contact_id)
    .bind(limit)
    .fetch_all(pool)
    .await
}

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

pub async fn ai_document_insert(
    conn: &mut SqliteConnection,
    d: &AiDocumentRow,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO ai_documents (id, task, media_type, file_name, body, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )
    .bind(&d.id)
    .bind(&d.task)
    .bind(&d.media_type)
    .bind(&d.file_name)
    .bind(&d.body)
    .bind(d.created_at)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn ai_document_get(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<AiDocumentRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, task, media_type, file_name, body, created_at FROM ai_documents WHERE id = ?1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn ai_document_delete(pool: &SqlitePool, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM ai_documents WHERE id = ?1")
        .bind(id)
        .execute(pool)
        .await
        .map(|_| ())
}

pub async fn reply_outcomes(
    pool: &SqlitePool,
    limit: i64,
) -> Result<Vec<ReplyOutcome>, sqlx::Error> {
    sqlx::query_as(
        "SELECT c.score AS score, \
                MAX(CASE WHEN c.score_factors IS NULL THEN 0 ELSE 1 END) AS scored, \
                co.state AS state, \
                MAX(CASE WHEN m.replied_at IS NULL THEN 0 ELSE 1 END) AS replied \
         FROM email_messages m JOIN contacts c ON c.id = m.contact_id \
         LEFT JOIN companies co ON co.id = c.company_id \
         WHERE m.status = 'sent' GROUP BY c.id, c.score, co.state LIMIT ?1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}
