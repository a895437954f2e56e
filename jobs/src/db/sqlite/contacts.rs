//! contacts queries, sqlite dialect. Optional filters are `(?n IS NULL OR ...)` so the SQL stays
//! static; lists of values travel as one JSON array read with `json_each`.

use std::collections::HashSet;

use sqlx::types::Json;
use sqlx::{Executor, QueryBuilder, Sqlite, SqliteConnection, SqlitePool};

use crate::domain::like_pattern;

use crate::db::{
    CONTACT_COLUMNS, ContactImportInsert, ContactImportRow, ContactList, ContactRow, ContactWrite,
    CustomerStats, StageStats,
};

fn json_list(v: &[String]) -> String {
    serde_json::Value::from(v).to_string()
}

pub async fn contact_get<'e, E: Executor<'e, Database = Sqlite>>(
    e: E,
    id: &str,
) -> Result<Option<ContactRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CONTACT_COLUMNS} FROM contacts WHERE id = ?1"
    )))
    .bind(id)
    .fetch_optional(e)
    .await
}

pub async fn contact_get_for_update(
    conn: &mut SqliteConnection,
    id: &str,
) -> Result<Option<ContactRow>, sqlx::Error> {
    contact_get(conn, id).await
}

/// The active filters only: an absent filter adds no condition, so the planner can use the
/// indexes (created_at for the newest-first page, the trigram index for `q`).
fn push_filter(qb: &mut QueryBuilder<Sqlite>, f: &crate::db::ContactFilter) {
    qb.push(" WHERE TRUE");
    if let Some(q) = &f.q {
        if q.chars().count() >= 3 {
            // The trigram index finds any substring of 3+ characters (migration 0005).
            let phrase = format!("\"{}\"", q.replace('"', "\"\""));
            qb.push(
                " AND rowid IN (SELECT rowid FROM contacts_search WHERE contacts_search MATCH ",
            )
            .push_bind(phrase)
            .push(")");
        } else {
            let pat = like_pattern(q);
            qb.push(" AND (lower(first_name || ' ' || last_name) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(email, '')) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(title, '')) LIKE ")
                .push_bind(pat)
                .push(" ESCAPE '\\')");
        }
    }
    if let Some(role) = &f.role {
        qb.push(" AND lower(COALESCE(title, '')) LIKE ")
            .push_bind(role.clone())
            .push(" ESCAPE '\\'");
    }
    if let Some(status) = &f.status {
        qb.push(" AND status = ").push_bind(status.clone());
    }
    if let Some(company) = &f.company_id {
        qb.push(" AND company_id = ").push_bind(company.clone());
    }
    if let Some(states) = &f.states {
        qb.push(" AND company_id IN (SELECT id FROM companies WHERE upper(state) IN (SELECT value FROM json_each(")
            .push_bind(json_list(states))
            .push(")))");
    }
}

pub async fn contact_page(
    pool: &SqlitePool,
    p: &ContactList<'_>,
) -> Result<Vec<ContactRow>, sqlx::Error> {
    let mut qb = QueryBuilder::<Sqlite>::new(format!("SELECT {CONTACT_COLUMNS} FROM contacts"));
    push_filter(&mut qb, p.filter);
    qb.push(" ORDER BY created_at DESC, id DESC LIMIT ")
        .push_bind(p.limit)
        .push(" OFFSET ")
        .push_bind(p.offset);
    qb.build_query_as().fetch_all(pool).await
}

pub async fn contact_count(
    pool: &SqlitePool,
    f: &crate::db::ContactFilter,
) -> Result<i64, sqlx::Error> {
    let mut count = QueryBuilder::<Sqlite>::new("SELECT COUNT(*) FROM contacts");
    push_filter(&mut count, f);
    count.build_query_scalar().fetch_one(pool).await
}

pub async fn contact_list_by_companies(
    pool: &SqlitePool,
    company_ids: &[String],
    per_company: i64,
) -> Result<Vec<ContactRow>, sqlx::Error> {
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {CONTACT_COLUMNS} FROM (
             SELECT *, ROW_NUMBER() OVER (PARTITION BY company_id ORDER BY score DESC, created_at, id) AS rn
             FROM contacts WHERE company_id IN (SELECT value FROM json_each(?1))
         ) WHERE rn <= ?2 ORDER BY company_id, rn"
    )))
    .bind(json_list(company_ids))
    .bind(per_company)
    .fetch_all(pool)
    .await
}

pub async fn contact_stage_stats(pool: &SqlitePool) -> Result<Vec<StageStats>, sqlx::Error> {
    sqlx::query_as(
        "SELECT status, COUNT(*) AS count, CAST(ROUND(AVG(score)) AS INTEGER) AS avg_score,
                SUM(CASE WHEN score >= 80 THEN 1 ELSE 0 END) AS high_priority
         FROM contacts WHERE status IN ('new_lead', 'email_sent', 'meeting_scheduled', 'qualified')
         GROUP BY status",
    )
    .fetch_all(pool)
    .await
}

pub async fn customer_stats(pool: &SqlitePool, since: i64) -> Result<CustomerStats, sqlx::Error> {
    sqlx::query_as(
        "SELECT COUNT(*) AS total,
                COALESCE(SUM(CASE WHEN score >= 85 THEN 1 ELSE 0 END), 0) AS high_value,
                COALESCE(SUM(CASE WHEN created_at >= ?1 THEN 1 ELSE 0 END), 0) AS new_this_month
         FROM contacts WHERE status = 'customer'",
    )
    .bind(since)
    .fetch_one(pool)
    .await
}

pub async fn contact_insert(
    conn: &mut SqliteConnection,
    c: &ContactWrite,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, title, department,
             linkedin_url, status, score, source, tags, notes, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?15)",
    )
    .bind(&c.id)
    .bind(&c.company_id)
    .bind(&c.first_name)
    .bind(&c.last_name)
    .bind(&c.email)
    .bind(&c.phone)
    .bind(&c.title)
    .bind(&c.department)
    .bind(&c.linkedin_url)
    .bind(&c.status)
    .bind(c.score)
    .bind(&c.source)
    .bind(Json(&c.tags))
    .bind(&c.notes)
    .bind(c.now)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn contact_update(
    conn: &mut SqliteConnection,
    c: &ContactWrite,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE contacts SET company_id = ?2, first_name = ?3, last_name = ?4, email = ?5, phone = ?6,
             title = ?7, department = ?8, linkedin_url = ?9, status = ?10, score = ?11, source = ?12,
             tags = ?13, notes = ?14, updated_at = ?15
         WHERE id = ?1",
    )
    .bind(&c.id)
    .bind(&c.company_id)
    .bind(&c.first_name)
    .bind(&c.last_name)
    .bind(&c.email)
    .bind(&c.phone)
    .bind(&c.title)
    .bind(&c.department)
    .bind(&c.linkedin_url)
    .bind(&c.status)
    .bind(c.score)
    .bind(&c.source)
    .bind(Json(&c.tags))
    .bind(&c.notes)
    .bind(c.now)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn contact_status_set(
    conn: &mut SqliteConnection,
    id: &str,
    status: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("UPDATE contacts SET status = ?2, updated_at = ?3 WHERE id = ?1")
        .bind(id)
        .bind(status)
        .bind(now)
        .execute(conn)
        .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn contact_tag_add(
    conn: &mut SqliteConnection,
    id: &str,
    tag: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE contacts SET tags = json_insert(tags, '$[#]', ?2), updated_at = ?3
         WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM json_each(contacts.tags) WHERE value = ?2)",
    )
    .bind(id)
    .bind(tag)
    .bind(now)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

pub async fn contact_emails_existing(
    conn: &mut SqliteConnection,
    emails: &[String],
) -> Result<HashSet<String>, sqlx::Error> {
    let found: Vec<String> = sqlx::query_scalar(
        "SELECT lower(email) FROM contacts
         WHERE email IS NOT NULL AND lower(email) IN (SELECT value FROM json_each(?1))",
    )
    .bind(json_list(emails))
    .fetch_all(conn)
    .await?;
    Ok(found.into_iter().collect())
}

pub async fn contact_import_upsert(
    conn: &mut SqliteConnection,
    r: &ContactImportRow,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, title, department,
             linkedin_url, status, score, source, tags, notes, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, COALESCE(?10, 'discovered'), COALESCE(?11, 50), ?12,
                 COALESCE(?13, '[]'), ?14, ?15, ?15)
         ON CONFLICT (lower(email)) WHERE email IS NOT NULL DO UPDATE SET
             company_id = COALESCE(?2, contacts.company_id),
             first_name = ?3, last_name = ?4,
             phone = COALESCE(?6, contacts.phone),
             title = COALESCE(?7, contacts.title),
             department = COALESCE(?8, contacts.department),
             linkedin_url = COALESCE(?9, contacts.linkedin_url),
             status = COALESCE(?10, contacts.status),
             score = COALESCE(?11, contacts.score),
             source = COALESCE(?12, contacts.source),
             tags = COALESCE(?13, contacts.tags),
             notes = COALESCE(?14, contacts.notes),
             updated_at = ?15",
    )
    .bind(&r.id)
    .bind(&r.company_id)
    .bind(&r.first_name)
    .bind(&r.last_name)
    .bind(&r.email)
    .bind(&r.phone)
    .bind(&r.title)
    .bind(&r.department)
    .bind(&r.linkedin_url)
    .bind(&r.status)
    .bind(r.score)
    .bind(&r.source)
    .bind(r.tags.as_ref().map(Json))
    .bind(&r.notes)
    .bind(now)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn contact_import_insert(
    conn: &mut SqliteConnection,
    p: &ContactImportInsert<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO contact_imports (id, body, created_by, created_at) VALUES (?1, ?2, ?3, ?4)",
    )
    .bind(p.id)
    .bind(p.body)
    .bind(p.created_by)
    .bind(p.created_at)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn contact_import_body(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<Vec<u8>>, sqlx::Error> {
    sqlx::query_scalar("SELECT body FROM contact_imports WHERE id = ?1")
        .bind(id)
        .fetch_optional(pool)
        .await
}

pub async fn contact_import_delete(pool: &SqlitePool, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM contact_imports WHERE id = ?1")
        .bind(id)
        .execute(pool)
        .await
        .map(|_| ())
}
