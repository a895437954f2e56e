//! leads queries that differ by dialect, sqlite.

use crate::db::leads::ContactFactsManyRow;
use crate::scoring::ContactFacts;
use sqlx::SqlitePool;
use sqlx::types::Json;

// Differs: a list is bound as JSON and read with json_each (Postgres binds an array).
pub async fn contact_score_facts_many(
    pool: &SqlitePool,
    ids: &[String],
    below: i32,
) -> Result<Vec<(String, ContactFacts)>, sqlx::Error> {
    let rows: Vec<ContactFactsManyRow> = sqlx::query_as(
        "SELECT c.id, c.title, c.email, c.phone, c.is_verified, c.status, co.revenue, co.state, co.company_type,
                co.website, co.phone AS company_phone, co.growth_rate, co.id IS NOT NULL AS has_company
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
         WHERE c.id IN (SELECT value FROM json_each(?1)) AND (c.score_factors IS NULL OR c.score < ?2)",
    )
    .bind(Json(ids))
    .bind(below)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(Into::into).collect())
}
