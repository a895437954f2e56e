//! companies queries, sqlite dialect. Optional filters are `(?n IS NULL OR ...)` so the SQL stays
//! static; lists of values travel as one JSON array read with `json_each`.

use std::collections::HashSet;

use sqlx::{Executor, Sqlite, SqliteConnection, SqlitePool};

use crate::db::{CompanyList, CompanyReportSummary, CompanyRow, CompanyWrite, company_columns};

/// The company filter over parameters ?1..?5 (see [`crate::db::CompanyFilter`]).
macro_rules! company_filter {
    () => {
        "(?1 IS NULL OR lower(name) LIKE ?1 ESCAPE '\\'
              OR lower(COALESCE(industry, '')) LIKE ?1 ESCAPE '\\'
              OR lower(COALESCE(city, '')) LIKE ?1 ESCAPE '\\'
              OR lower(COALESCE(state, '')) LIKE ?1 ESCAPE '\\')
         AND (?2 IS NULL OR upper(state) = ?2)
         AND (?3 IS NULL OR status = ?3)
         AND (?4 IS NULL OR score >= ?4)
         AND (?5 IS NULL OR score <= ?5)"
    };
}

pub async fn company_get<'e, E: Executor<'e, Database = Sqlite>>(
    e: E,
    id: &str,
) -> Result<Option<CompanyRow>, sqlx::Error> {
    sqlx::query_as(concat!(
        "SELECT ",
        company_columns!("description"),
        " FROM companies WHERE id = ?1"
    ))
    .bind(id)
    .fetch_optional(e)
    .await
}

pub async fn company_get_for_update(
    conn: &mut SqliteConnection,
    id: &str,
) -> Result<Option<CompanyRow>, sqlx::Error> {
    company_get(conn, id).await
}

pub async fn company_list(
    pool: &SqlitePool,
    p: &CompanyList<'_>,
) -> Result<(Vec<CompanyRow>, i64), sqlx::Error> {
    let f = p.filter;
    let rows = sqlx::query_as(concat!(
        "SELECT ",
        company_columns!("description"),
        " FROM companies WHERE ",
        company_filter!(),
        " ORDER BY score DESC, lower(name), id LIMIT ?6 OFFSET ?7"
    ))
    .bind(&f.q)
    .bind(&f.state)
    .bind(&f.status)
    .bind(f.score_min)
    .bind(f.score_max)
    .bind(p.limit)
    .bind(p.offset)
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar(concat!(
        "SELECT COUNT(*) FROM companies WHERE ",
        company_filter!()
    ))
    .bind(&f.q)
    .bind(&f.state)
    .bind(&f.status)
    .bind(f.score_min)
    .bind(f.score_max)
    .fetch_one(pool)
    .await?;
    Ok((rows, total))
}

pub async fn company_list_report(
    pool: &SqlitePool,
    p: &CompanyList<'_>,
) -> Result<Vec<CompanyRow>, sqlx::Error> {
    let f = p.filter;
    sqlx::query_as(concat!(
        "SELECT ",
        company_columns!("substr(description, 1, 200)"),
        " FROM companies WHERE ",
        company_filter!(),
        " ORDER BY score DESC, lower(name), id LIMIT ?6 OFFSET ?7"
    ))
    .bind(&f.q)
    .bind(&f.state)
    .bind(&f.status)
    .bind(f.score_min)
    .bind(f.score_max)
    .bind(p.limit)
    .bind(p.offset)
    .fetch_all(pool)
    .await
}

pub async fn company_report_summary(
    pool: &SqlitePool,
    state: Option<&str>,
) -> Result<CompanyReportSummary, sqlx::Error> {
    sqlx::query_as(
        "SELECT COUNT(*) AS total_companies,
                CAST(ROUND(AVG(revenue)) AS INTEGER) AS avg_revenue,
                CAST(ROUND(AVG(employees)) AS INTEGER) AS avg_employees,
                COALESCE(SUM(CASE WHEN status IN ('qualified', 'interested') THEN 1 ELSE 0 END), 0) AS qualified
         FROM companies WHERE (?1 IS NULL OR upper(state) = ?1)",
    )
    .bind(state)
    .fetch_one(pool)
    .await
}

pub async fn company_insert(
    conn: &mut SqliteConnection,
    c: &CompanyWrite,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO companies (id, name, industry, status, revenue, employees, score, website, phone,
             address, city, state, zip_code, description, discovery_source, discovered_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?16, ?16)",
    )
    .bind(&c.id)
    .bind(&c.name)
    .bind(&c.industry)
    .bind(&c.status)
    .bind(c.revenue)
    .bind(c.employees)
    .bind(c.score)
    .bind(&c.website)
    .bind(&c.phone)
    .bind(&c.address)
    .bind(&c.city)
    .bind(&c.state)
    .bind(&c.zip_code)
    .bind(&c.description)
    .bind(&c.discovery_source)
    .bind(c.now)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn company_update(
    conn: &mut SqliteConnection,
    c: &CompanyWrite,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE companies SET name = ?2, industry = ?3, status = ?4, revenue = ?5, employees = ?6,
             score = ?7, website = ?8, phone = ?9, address = ?10, city = ?11, state = ?12, zip_code = ?13,
             description = ?14, updated_at = ?15
         WHERE id = ?1",
    )
    .bind(&c.id)
    .bind(&c.name)
    .bind(&c.industry)
    .bind(&c.status)
    .bind(c.revenue)
    .bind(c.employees)
    .bind(c.score)
    .bind(&c.website)
    .bind(&c.phone)
    .bind(&c.address)
    .bind(&c.city)
    .bind(&c.state)
    .bind(&c.zip_code)
    .bind(&c.description)
    .bind(c.now)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn company_ids_existing(
    conn: &mut SqliteConnection,
    ids: &[String],
) -> Result<HashSet<String>, sqlx::Error> {
    let found: Vec<String> = sqlx::query_scalar(
        "SELECT id FROM companies WHERE id IN (SELECT value FROM json_each(?1))",
    )
    .bind(serde_json::Value::from(ids).to_string())
    .fetch_all(conn)
    .await?;
    Ok(found.into_iter().collect())
}
