//! suppressions list and lift, sqlite dialect.

use sqlx::SqlitePool;

use crate::db::SuppressionRow;

const CONTACT_OF: &str = "(SELECT c.id FROM contacts c WHERE lower(trim(c.email)) = s.email
     ORDER BY c.created_at LIMIT 1) AS contact_id";

// Differs: substring search is instr() in SQLite, strpos() in Postgres.
pub async fn suppression_list(
    pool: &SqlitePool,
    q: &str,
    limit: i64,
    offset: i64,
) -> Result<(Vec<SuppressionRow>, i64), sqlx::Error> {
    let filter = "(?1 = '' OR instr(s.email, ?1) > 0)";
    let rows = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT s.email, s.reason, s.source, s.created_at, {CONTACT_OF} FROM suppressions s
         WHERE {filter} ORDER BY s.created_at DESC, s.email LIMIT ?2 OFFSET ?3"
    )))
    .bind(q)
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT COUNT(*) FROM suppressions s WHERE {filter}"
    )))
    .bind(q)
    .fetch_one(pool)
    .await?;
    Ok((rows, total))
}
