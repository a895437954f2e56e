//! deals and prospects queries, postgres dialect.

use sqlx::{AssertSqlSafe, PgConnection, PgPool};

use crate::db::{DEAL_COLUMNS, DealExportRow, DealList, DealRow, ProspectCompany, ProspectContact};

const PROSPECT_COMPANY_COLUMNS: &str =
    "id, name, industry, city, state, revenue, score, prospect_score, status, is_deal";
const PROSPECT_CONTACT_SELECT: &str = "SELECT c.id, c.first_name, c.last_name, c.title, c.email, \
    c.phone, c.status, c.score, c.company_id, co.name AS company_name, co.revenue AS company_revenue \
    FROM contacts c LEFT JOIN companies co ON co.id = c.company_id";

pub async fn deal_list(
    pool: &PgPool,
    p: &DealList<'_>,
) -> Result<(Vec<DealRow>, i64), sqlx::Error> {
    // Stage-less deals count as qualification, so the stage filter matches them there too.
    let filter = "WHERE ($1::text IS NULL OR COALESCE(stage, 'qualification') = $1)
        AND ($2::text IS NULL OR company_id = $2) AND ($3::text IS NULL OR contact_id = $3)";
    let rows = sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {DEAL_COLUMNS} FROM deals {filter} ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5"
    )))
    .bind(p.stage)
    .bind(p.company_id)
    .bind(p.contact_id)
    .bind(p.limit)
    .bind(p.offset)
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar(AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM deals {filter}"
    )))
    .bind(p.stage)
    .bind(p.company_id)
    .bind(p.contact_id)
    .fetch_one(pool)
    .await?;
    Ok((rows, total))
}

pub async fn deal_get_by_id(pool: &PgPool, id: &str) -> Result<Option<DealRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {DEAL_COLUMNS} FROM deals WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn deal_get_for_update(
    conn: &mut PgConnection,
    id: &str,
) -> Result<Option<DealRow>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {DEAL_COLUMNS} FROM deals WHERE id = $1 FOR UPDATE"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn deal_insert(conn: &mut PgConnection, d: &DealRow) -> Result<(), sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "INSERT INTO deals ({DEAL_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
    )))
    .bind(&d.id)
    .bind(&d.title)
    .bind(&d.description)
    .bind(d.value)
    .bind(&d.stage)
    .bind(d.probability)
    .bind(&d.expected_close_date)
    .bind(&d.actual_close_date)
    .bind(&d.contact_id)
    .bind(&d.company_id)
    .bind(&d.notes)
    .bind(d.stage_changed_at)
    .bind(d.created_at)
    .bind(d.updated_at)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn deal_update(conn: &mut PgConnection, d: &DealRow) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE deals SET title = $2, description = $3, value = $4, stage = $5, probability = $6,
            expected_close_date = $7, actual_close_date = $8, contact_id = $9, company_id = $10,
            notes = $11, stage_changed_at = $12, updated_at = $13
         WHERE id = $1",
    )
    .bind(&d.id)
    .bind(&d.title)
    .bind(&d.description)
    .bind(d.value)
    .bind(&d.stage)
    .bind(d.probability)
    .bind(&d.expected_close_date)
    .bind(&d.actual_close_date)
    .bind(&d.contact_id)
    .bind(&d.company_id)
    .bind(&d.notes)
    .bind(d.stage_changed_at)
    .bind(d.updated_at)
    .execute(conn)
    .await
    .map(|r| r.rows_affected())
}

pub async fn deal_delete(conn: &mut PgConnection, id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("DELETE FROM deals WHERE id = $1 RETURNING title")
        .bind(id)
        .fetch_optional(conn)
        .await
}

pub async fn deal_export_rows(pool: &PgPool) -> Result<Vec<DealExportRow>, sqlx::Error> {
    sqlx::query_as(
        "SELECT d.title, d.stage, d.value, d.probability, d.expected_close_date,
                co.name AS company_name, c.first_name AS contact_first_name, c.last_name AS contact_last_name
         FROM deals d
         LEFT JOIN companies co ON co.id = d.company_id
         LEFT JOIN contacts c ON c.id = d.contact_id
         ORDER BY d.created_at DESC, d.id DESC",
    )
    .fetch_all(pool)
    .await
}

pub async fn prospect_company_list(
    pool: &PgPool,
    limit: i64,
) -> Result<Vec<ProspectCompany>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {PROSPECT_COMPANY_COLUMNS} FROM companies
         WHERE prospect_score > 0 AND is_deal = FALSE
         ORDER BY prospect_score DESC, created_at DESC, id LIMIT $1"
    )))
    .bind(limit)
    .fetch_all(pool)
    .await
}

pub async fn prospect_contact_list(
    pool: &PgPool,
    limit: i64,
) -> Result<Vec<ProspectContact>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "{PROSPECT_CONTACT_SELECT}
         WHERE c.status IN ('new_lead', 'contacted', 'responded')
         ORDER BY c.score DESC, c.created_at DESC, c.id LIMIT $1"
    )))
    .bind(limit)
    .fetch_all(pool)
    .await
}

pub async fn prospect_company_get(
    conn: &mut PgConnection,
    id: &str,
) -> Result<Option<ProspectCompany>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT {PROSPECT_COMPANY_COLUMNS} FROM companies WHERE id = $1 FOR UPDATE"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn prospect_contact_get(
    conn: &mut PgConnection,
    id: &str,
) -> Result<Option<ProspectContact>, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "{PROSPECT_CONTACT_SELECT} WHERE c.id = $1 FOR UPDATE OF c"
    )))
    .bind(id)
    .fetch_optional(conn)
    .await
}

pub async fn prospect_company_mark_deal(
    conn: &mut PgConnection,
    id: &str,
    now: i64,
) -> Result<u64, sqlx::Error> {
    sqlx::query(
        "UPDATE companies SET is_deal = TRUE, updated_at = $2 WHERE id = $1 AND is_deal = FALSE",
    )
    .bind(id)
    .bind(now)
    .execute(conn)
    .await
    .map(|r| r.rows_affected())
}

pub async fn prospect_contact_qualify(
    conn: &mut PgConnection,
    id: &str,
    now: i64,
) -> Result<u64, sqlx::Error> {
    sqlx::query("UPDATE contacts SET status = 'qualified', updated_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(conn)
        .await
        .map(|r| r.rows_affected())
}

pub async fn deal_exists_for_contact(
    conn: &mut PgConnection,
    contact_id: &str,
) -> Result<bool, sqlx::Error> {
    sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM deals WHERE contact_id = $1)")
        .bind(contact_id)
        .fetch_one(conn)
        .await
}
