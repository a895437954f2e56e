//! leads queries that differ by dialect, postgres.

use crate::db::leads::ContactFactsManyRow;
use crate::scoring::ContactFacts;
use sqlx::PgPool;

// Differs: a list is bound as an array (SQLite reads a JSON list with json_each).
pub async fn contact_score_facts_many(
    pool: &PgPool,
    ids: &[String],
    below: i32,
) -> Result<Vec<(String, ContactFacts)>, sqlx::Error> {
    let rows: Vec<ContactFactsManyRow> = sqlx::query_as(
        "SELECT c.id, c.title, c.email, c.phone, c.is_verified, c.status, co.revenue, co.state, co.company_type,
                co.website, co.phone AS company_phone, co.growth_rate, co.id IS NOT NULL AS has_company
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
         WHERE c.id = ANY($1) AND (c.score_factors IS NULL OR c.score < $2)",
    )
    .bind(ids)
    .bind(below)
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(Into::into).collect())
}
