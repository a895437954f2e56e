//! email queries, sqlite dialect. Lists travel as one JSON array read with `json_each`.

use sqlx::{AssertSqlSafe, SqliteConnection, SqlitePool};

use crate::db::{
    Audience, CAMPAIGN_COLUMNS, CampaignRow, CampaignStats, ClaimedMessage, DeliverabilityRow,
    EventCount, EventInsert, HistoryCampaign, HistoryEvent, MailboxUsage, Materialize,
    MessageFinish, MessageRef, Reserve, SendOutcome, TemplateRow,
};

const TEMPLATE_COLUMNS: &str = "id, name, category, subject, body, is_builtin, created_at";

pub async fn template_list(pool: &SqlitePool) -> Result<Vec<TemplateRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {TEMPLATE_COLUMNS} FROM email_templates ORDER BY is_builtin DESC, created_at, name"
    )))
    .fetch_all(pool)
    .await
}

pub async fn template_get(pool: &SqlitePool, id: &str) -> Result<Option<TemplateRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {TEMPLATE_COLUMNS} FROM email_templates WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn template_insert(pool: &SqlitePool, t: &TemplateRow) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO email_templates (id, name, category, subject, body, is_builtin, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )
    .bind(&t.id)
    .bind(&t.name)
    .bind(&t.category)
    .bind(&t.subject)
    .bind(&t.body)
    .bind(t.is_builtin)
    .bind(t.created_at)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn campaign_insert(
    conn: &mut SqliteConnection,
    c: &CampaignRow,
) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO campaigns ({CAMPAIGN_COLUMNS})
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"
    )))
    .bind(&c.id)
    .bind(&c.kind)
    .bind(&c.name)
    .bind(&c.description)
    .bind(&c.status)
    .bind(&c.subject)
    .bind(&c.template_id)
    .bind(&c.from_email)
    .bind(&c.target_filters)
    .bind(&c.selected_contact_ids)
    .bind(c.schedule_at)
    .bind(&c.target_audience)
    .bind(&c.ai_model)
    .bind(c.total_recipients)
    .bind(c.created_at)
    .bind(c.updated_at)
    .bind(c.started_at)
    .bind(c.sent_at)
    .bind(c.ended_at)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn campaign_get(pool: &SqlitePool, id: &str) -> Result<Option<CampaignRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn campaign_list(
    pool: &SqlitePool,
    kind: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<CampaignRow>, i64), sqlx::Error> {
    let rows = sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {CAMPAIGN_COLUMNS} FROM campaigns WHERE kind = ?1
         ORDER BY created_at DESC, id DESC LIMIT ?2 OFFSET ?3"
    )))
    .bind(kind)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar("SELECT COUNT(*) FROM campaigns WHERE kind = ?1")
        .bind(kind)
        .fetch_one(pool)
        .await?;
    Ok((rows, total))
}

pub async fn campaign_set_status(
    pool: &SqlitePool,
    id: &str,
    from: &str,
    to: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE campaigns SET status = ?3, updated_at = ?4,
             started_at = CASE WHEN ?3 = 'sending' THEN coalesce(started_at, ?4) ELSE started_at END,
             sent_at = CASE WHEN ?3 = 'sent' THEN ?4 ELSE sent_at END,
             ended_at = CASE WHEN ?3 IN ('sent', 'cancelled', 'completed') THEN ?4 ELSE ended_at END
         WHERE id = ?1 AND status IN (SELECT value FROM json_each(?2))",
    )
    .bind(id)
    .bind(from)
    .bind(to)
    .bind(now)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn campaign_set_total(
    pool: &SqlitePool,
    id: &str,
    total: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE campaigns SET total_recipients = ?2 WHERE id = ?1")
        .bind(id)
        .bind(total)
        .execute(pool)
        .await
        .map(|_| ())
}

pub async fn campaign_stats(
    pool: &SqlitePool,
    ids: &str,
) -> Result<Vec<CampaignStats>, sqlx::Error> {
    sqlx::query_as(
        "SELECT campaign_id, COUNT(*) AS total, COUNT(sent_at) AS sent,
            COUNT(delivered_at) AS delivered, COUNT(opened_at) AS opened,
            COUNT(clicked_at) AS clicked, COUNT(replied_at) AS replied, COUNT(bounced_at) AS bounced,
            SUM(CASE WHEN status = 'queued' THEN 1 ELSE 0 END) AS queued,
            SUM(CASE WHEN status = 'deferred' THEN 1 ELSE 0 END) AS deferred,
            SUM(CASE WHEN status = 'sending' THEN 1 ELSE 0 END) AS sending,
            SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed,
            SUM(CASE WHEN status = 'suppressed' THEN 1 ELSE 0 END) AS suppressed,
            SUM(CASE WHEN status = 'unknown' THEN 1 ELSE 0 END) AS unknown,
            SUM(CASE WHEN status = 'cancelled' THEN 1 ELSE 0 END) AS cancelled,
            MIN(CASE WHEN status = 'deferred' THEN next_attempt_at END) AS next_attempt_at
         FROM email_messages WHERE campaign_id IN (SELECT value FROM json_each(?1))
         GROUP BY campaign_id",
    )
    .bind(ids)
    .fetch_all(pool)
    .await
}

pub async fn campaign_cancel_pending(pool: &SqlitePool, id: &str) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE email_messages SET status = 'cancelled'
         WHERE campaign_id = ?1 AND status IN ('queued', 'deferred')",
    )
    .bind(id)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

/// The audience as a WHERE clause over `contacts c LEFT JOIN companies co`: ?1..?5.
pub(super) const AUDIENCE: &str = "c.email IS NOT NULL AND trim(c.email) <> ''
    AND (?1 IS NULL OR c.score >= ?1) AND (?2 IS NULL OR c.score <= ?2)
    AND (json_array_length(?3) = 0 OR c.status IN (SELECT value FROM json_each(?3)))
    AND (json_array_length(?4) = 0 OR upper(co.state) IN (SELECT upper(value) FROM json_each(?4)))
    AND (?5 IS NULL OR c.id IN (SELECT value FROM json_each(?5)))";

pub async fn audience_count(pool: &SqlitePool, a: &Audience) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM contacts c LEFT JOIN companies co ON co.id = c.company_id WHERE {AUDIENCE}"
    )))
    .bind(a.score_min)
    .bind(a.score_max)
    .bind(a.statuses_json())
    .bind(a.states_json())
    .bind(a.ids_json())
    .fetch_one(pool)
    .await
}

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

pub async fn messages_orphans_resolve(
    pool: &SqlitePool,
    campaign_id: &str,
) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE email_messages SET status = 'unknown',
             last_error = 'the sending run stopped during delivery; not sent again'
         WHERE campaign_id = ?1 AND status = 'sending' AND NOT EXISTS (
             SELECT 1 FROM jobs j WHERE j.id = email_messages.claim_job_id
                 AND j.status = 'running' AND j.attempts = email_messages.claim_attempt)",
    )
    .bind(campaign_id)
    .execute(pool)
    .await?;
    Ok(done.rows_affected())
}

pub async fn message_candidates(
    conn: &mut SqliteConnection,
    campaign_id: &str,
    now: i64,
    limit: i64,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM email_messages
         WHERE campaign_id = ?1 AND (status = 'queued' OR (status = 'deferred' AND next_attempt_at <= ?2))
         ORDER BY id LIMIT ?3",
    )
    .bind(campaign_id)
    .bind(now)
    .bind(limit)
    .fetch_all(conn)
    .await
}

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

pub async fn contacts_with_email(
    pool: &SqlitePool,
    limit: i64,
) -> Result<Vec<(String, String)>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, lower(trim(email)) FROM contacts WHERE email IS NOT NULL AND trim(email) <> ''
         ORDER BY created_at, id LIMIT ?1",
    )
    .bind(limit)
    .fetch_all(pool)
    .await
}

pub async fn contact_id_by_email(
    pool: &SqlitePool,
    email: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM contacts WHERE lower(trim(email)) = ?1 ORDER BY created_at LIMIT 1",
    )
    .bind(email)
    .fetch_optional(pool)
    .await
}

pub async fn message_status(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<(String, Option<i64>)>, sqlx::Error> {
    sqlx::query_as("SELECT status, next_attempt_at FROM email_messages WHERE id = ?1")
        .bind(id)
        .fetch_optional(pool)
        .await
}

pub async fn message_find(
    pool: &SqlitePool,
    id: Option<&str>,
    rfc_message_id: Option<&str>,
) -> Result<Option<MessageRef>, sqlx::Error> {
    sqlx::query_as(
        "SELECT id, campaign_id, contact_id, to_email FROM email_messages
         WHERE id = ?1 OR message_id = ?2 LIMIT 1",
    )
    .bind(id)
    .bind(rfc_message_id)
    .fetch_optional(pool)
    .await
}

pub async fn event_record(
    pool: &SqlitePool,
    id: &str,
    e: &EventInsert,
) -> Result<bool, sqlx::Error> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let done = sqlx::query(
        "INSERT INTO email_events (id, message_id, campaign_id, contact_id, email, event_type,
             provider_event_id, url, detail, is_demo, occurred_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
         ON CONFLICT (provider_event_id) DO NOTHING",
    )
    .bind(id)
    .bind(&e.message_id)
    .bind(&e.campaign_id)
    .bind(&e.contact_id)
    .bind(&e.email)
    .bind(&e.event_type)
    .bind(&e.provider_event_id)
    .bind(&e.url)
    .bind(&e.detail)
    .bind(e.is_demo)
    .bind(e.occurred_at)
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 0 {
        tx.rollback().await?;
        return Ok(false);
    }
    if let (Some(message), Some(column)) =
        (&e.message_id, crate::db::first_time_column(&e.event_type))
    {
        sqlx::query(AssertSqlSafe(format!(
            "UPDATE email_messages SET {column} = coalesce({column}, ?2) WHERE id = ?1"
        )))
        .bind(message)
        .bind(e.occurred_at)
        .execute(&mut *tx)
        .await?;
        // Proof of delivery settles a message left in doubt by a crash: it was sent.
        if matches!(
            e.event_type.as_str(),
            "delivered" | "opened" | "clicked" | "replied"
        ) {
            sqlx::query(
                "UPDATE email_messages SET status = 'sent', sent_at = coalesce(sent_at, ?2),
                     last_error = NULL
                 WHERE id = ?1 AND status = 'unknown'",
            )
            .bind(message)
            .bind(e.occurred_at)
            .execute(&mut *tx)
            .await?;
        }
    }
    tx.commit().await?;
    Ok(true)
}

pub async fn event_total(pool: &SqlitePool) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM email_events")
        .fetch_one(pool)
        .await
}

pub async fn event_counts(pool: &SqlitePool, since: i64) -> Result<Vec<EventCount>, sqlx::Error> {
    sqlx::query_as(
        "SELECT event_type, COUNT(*) AS events, COUNT(DISTINCT coalesce(message_id, id)) AS messages
         FROM email_events WHERE occurred_at >= ?1 GROUP BY event_type",
    )
    .bind(since)
    .fetch_all(pool)
    .await
}

pub async fn contact_email_history(
    pool: &SqlitePool,
    contact_id: &str,
) -> Result<(i64, Vec<HistoryCampaign>, Vec<HistoryEvent>), sqlx::Error> {
    let total = sqlx::query_scalar("SELECT COUNT(*) FROM email_events WHERE contact_id = ?1")
        .bind(contact_id)
        .fetch_one(pool)
        .await?;
    let campaigns = sqlx::query_as(
        "SELECT c.id, c.name, c.status, COUNT(*) AS total_events, MAX(e.occurred_at) AS last_event_at
         FROM email_events e JOIN campaigns c ON c.id = e.campaign_id
         WHERE e.contact_id = ?1 GROUP BY c.id, c.name, c.status ORDER BY last_event_at DESC",
    )
    .bind(contact_id)
    .fetch_all(pool)
    .await?;
    let recent = sqlx::query_as(
        "SELECT event_type, occurred_at FROM email_events WHERE contact_id = ?1
         ORDER BY occurred_at DESC, id DESC LIMIT 10",
    )
    .bind(contact_id)
    .fetch_all(pool)
    .await?;
    Ok((total, campaigns, recent))
}

pub async fn bounce_count(pool: &SqlitePool, email: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        // Bounces before an admin last lifted the address's suppression are forgiven: the lift
        // starts the count again (see suppression_lift in api/src/email.rs).
        "SELECT COUNT(*) FROM email_events WHERE email = ?1 AND event_type = 'bounced'
           AND occurred_at > COALESCE((SELECT MAX(created_at) FROM audit_log
                                       WHERE action = 'email.suppression.lift' AND target = ?1), 0)",
    )
    .bind(email)
    .fetch_one(pool)
    .await
}

pub async fn suppression_add(
    pool: &SqlitePool,
    email: &str,
    reason: &str,
    source: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO suppressions (email, reason, source, created_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (email) DO NOTHING",
    )
    .bind(email)
    .bind(reason)
    .bind(source)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn suppression_get(
    pool: &SqlitePool,
    email: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT reason FROM suppressions WHERE email = ?1")
        .bind(email)
        .fetch_optional(pool)
        .await
}

pub async fn deliverability_get(pool: &SqlitePool) -> Result<DeliverabilityRow, sqlx::Error> {
    sqlx::query_as(
        "SELECT warmup_enabled, daily_limit, hourly_limit FROM deliverability_settings WHERE id = 1",
    )
    .fetch_one(pool)
    .await
}

pub async fn deliverability_set(
    pool: &SqlitePool,
    d: &DeliverabilityRow,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE deliverability_settings SET warmup_enabled = ?1, daily_limit = ?2, hourly_limit = ?3,
             updated_at = ?4 WHERE id = 1",
    )
    .bind(d.warmup_enabled)
    .bind(d.daily_limit)
    .bind(d.hourly_limit)
    .bind(now)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn mailbox_usage(
    pool: &SqlitePool,
    mailbox: Option<&str>,
    hour_key: &str,
    day_key: &str,
) -> Result<MailboxUsage, sqlx::Error> {
    let (hour, day, first): (i64, i64, Option<String>) = sqlx::query_as(
        "SELECT coalesce(SUM(CASE WHEN window_key = ?2 THEN sent ELSE 0 END), 0),
                coalesce(SUM(CASE WHEN window_key = ?3 THEN sent ELSE 0 END), 0),
                MIN(CASE WHEN window_key LIKE 'd%' THEN window_key END)
         FROM mailbox_sends WHERE ?1 IS NULL OR mailbox = ?1",
    )
    .bind(mailbox)
    .bind(hour_key)
    .bind(day_key)
    .fetch_one(pool)
    .await?;
    Ok(MailboxUsage {
        this_hour: hour,
        today: day,
        days_sending: crate::mailing::days_between(first.as_deref(), day_key),
    })
}

pub async fn mailbox_reserve(
    conn: &mut SqliteConnection,
    r: &Reserve<'_>,
) -> Result<i64, sqlx::Error> {
    let (hour, day): (i64, i64) = sqlx::query_as(
        "SELECT coalesce(SUM(CASE WHEN window_key = ?2 THEN sent ELSE 0 END), 0),
                coalesce(SUM(CASE WHEN window_key = ?3 THEN sent ELSE 0 END), 0)
         FROM mailbox_sends WHERE mailbox = ?1",
    )
    .bind(r.mailbox)
    .bind(r.hour_key)
    .bind(r.day_key)
    .fetch_one(&mut *conn)
    .await?;
    let granted = r
        .want
        .min(r.hourly_limit - hour)
        .min(r.daily_limit - day)
        .max(0);
    if granted > 0 {
        add_sends(conn, r, granted).await?;
    }
    Ok(granted)
}

pub async fn mailbox_release(
    conn: &mut SqliteConnection,
    r: &Reserve<'_>,
) -> Result<(), sqlx::Error> {
    add_sends(conn, r, -r.want).await
}

async fn add_sends(
    conn: &mut SqliteConnection,
    r: &Reserve<'_>,
    n: i64,
) -> Result<(), sqlx::Error> {
    for key in [r.hour_key, r.day_key] {
        sqlx::query(
            "INSERT INTO mailbox_sends (mailbox, window_key, sent) VALUES (?1, ?2, max(?3, 0))
             ON CONFLICT (mailbox, window_key) DO UPDATE SET sent = max(sent + ?3, 0)",
        )
        .bind(r.mailbox)
        .bind(key)
        .bind(n)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

pub async fn messages_suppress(
    conn: &mut SqliteConnection,
    ids: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE email_messages SET status = 'suppressed', last_error = 'address is on the suppression list'
         WHERE id IN (SELECT value FROM json_each(?1)) AND status IN ('queued', 'deferred')
           AND to_email IN (SELECT email FROM suppressions)
         RETURNING id",
    )
    .bind(ids)
    .fetch_all(conn)
    .await
}

pub async fn messages_claim(
    conn: &mut SqliteConnection,
    ids: &str,
    job_id: &str,
    attempt: i32,
) -> Result<Vec<ClaimedMessage>, sqlx::Error> {
    sqlx::query_as(
        "UPDATE email_messages SET status = 'sending', attempts = attempts + 1,
             claim_job_id = ?2, claim_attempt = ?3
         WHERE id IN (SELECT value FROM json_each(?1)) AND status IN ('queued', 'deferred')
         RETURNING id, campaign_id, contact_id, to_email, from_email, subject, body, vars, message_id, attempts",
    )
    .bind(ids)
    .bind(job_id)
    .bind(attempt)
    .fetch_all(conn)
    .await
}

pub async fn message_finish(
    conn: &mut SqliteConnection,
    event_id: &str,
    item: &MessageFinish<'_>,
    now: i64,
) -> Result<(), sqlx::Error> {
    let m = item.message;
    let (status, retry_at, error, event) = match &item.outcome {
        SendOutcome::Sent => ("sent", None, None, Some("sent")),
        SendOutcome::Deferred { retry_at, error } => {
            ("deferred", Some(*retry_at), Some(error), None)
        }
        SendOutcome::Failed { error } => ("failed", None, Some(error), Some("bounced")),
    };
    sqlx::query(
        "UPDATE email_messages SET status = ?2, next_attempt_at = ?3, last_error = ?4,
             sent_at = CASE WHEN ?2 = 'sent' THEN ?5 ELSE sent_at END,
             bounced_at = CASE WHEN ?2 = 'failed' THEN ?5 ELSE bounced_at END
         WHERE id = ?1",
    )
    .bind(&m.id)
    .bind(status)
    .bind(retry_at)
    .bind(error)
    .bind(now)
    .execute(&mut *conn)
    .await?;
    if let Some(event) = event {
        sqlx::query(
            "INSERT INTO email_events (id, message_id, campaign_id, contact_id, email, event_type,
                 detail, is_demo, occurred_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, FALSE, ?8)",
        )
        .bind(event_id)
        .bind(&m.id)
        .bind(&m.campaign_id)
        .bind(&m.contact_id)
        .bind(&m.to_email)
        .bind(event)
        .bind(error)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    if status == "sent"
        && let Some(contact) = &m.contact_id
    {
        sqlx::query(
            "UPDATE contacts SET last_contacted_at = ?2, updated_at = ?2,
                 status = CASE WHEN status = 'new_lead' THEN 'email_sent' ELSE status END
             WHERE id = ?1",
        )
        .bind(contact)
        .bind(now)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}
