//! companies queries, sqlite dialect. Optional filters are `(?n IS NULL OR ...)` so the SQL stays
//! static; lists of values travel as one JSON array read with `json_each`.

use std::collections::HashSet;

use sqlx::{Executor, QueryBuilder, Sqlite, SqliteConnection, SqlitePool};

use crate::domain::like_pattern;

use crate::db::{CompanyList, CompanyReportSummary, CompanyRow, CompanyWrite, company_columns};

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

/// The active filters only, so the planner can use the indexes (state, score, the trigram index).
fn push_filter(qb: &mut QueryBuilder<Sqlite>, f: &crate::db::CompanyFilter) {
    qb.push(" WHERE TRUE");
    if let Some(q) = &f.q {
        if q.chars().count() >= 3 {
            // The trigram index finds any substring of 3+ characters (migration 0005).
            let phrase = format!("\"{}\"", q.replace('"', "\"\""));
            qb.push(
                " AND rowid IN (SELECT rowid FROM companies_search WHERE companies_search MATCH ",
            )
            .push_bind(phrase)
            .push(")");
        } else {
            let pat = like_pattern(q);
            qb.push(" AND (lower(name) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(industry, '')) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(city, '')) LIKE ")
                .push_bind(pat.clone())
                .push(" ESCAPE '\\' OR lower(COALESCE(state, '')) LIKE ")
                .push_bind(pat)
                .push(" ESCAPE '\\')");
        }
    }
    if let Some(state) = &f.state {
        // Stored as codes (every write normalises them), so the state index applies.
        qb.push(" AND state = ").push_bind(state.clone());
    }
    if let Some(status) = &f.status {
        qb.push(" AND status = ").push_bind(status.clone());
    }
    if let Some(min) = f.score_min {
        qb.push(" AND score >= ").push_bind(min);
    }
    if let Some(max) = f.score_max {
        qb.push(" AND score <= ").push_bind(max);
    }
}

async fn company_rows(
    pool: &SqlitePool,
    p: &CompanyList<'_>,
    columns: &str,
) -> Result<Vec<CompanyRow>, sqlx::Error> {
    let mut qb = QueryBuilder::<Sqlite>::new(format!("SELECT {columns} FROM companies"));
    push_filter(&mut qb, p.filter);
    qb.push(" ORDER BY score DESC, lower(name), id LIMIT ")
        .push_bind(p.limit)
        .push(" OFFSET ")
        .push_bind(p.offset);
    qb.build_query_as().fetch_all(pool).await
}

pub async fn company_page(
    pool: &SqlitePool,
    p: &CompanyList<'_>,
) -> Result<Vec<CompanyRow>, sqlx::Error> {
    company_rows(pool, p, company_columns!("description")).await
}

pub async fn company_count(
    pool: &SqlitePool,
    f: &crate::db::CompanyFilter,
) -> Result<i64, sqlx::Error> {
    let mut count = QueryBuilder::<Sqlite>::new("SELECT COUNT(*) FROM companies");
    push_filter(&mut count, f);
    count.build_query_scalar().fetch_one(pool).await
}

pub async fn company_list_report(
    pool: &SqlitePool,
    p: &CompanyList<'_>,
) -> Result<Vec<CompanyRow>, sqlx::Error> {
    company_rows(pool, p, company_columns!("substr(description, 1, 200)")).await
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
