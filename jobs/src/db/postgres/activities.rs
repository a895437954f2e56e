//! activities queries, postgres dialect.

use sqlx::{PgConnection, PgPool};

use crate::db::{ActivityInsert, ActivityRow};

pub async fn activity_insert(
    conn: &mut PgConnection,
    id: &str,
    now: i64,
    a: &ActivityInsert<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(a.kind)
    .bind(a.description)
    .bind(a.entity_type)
    .bind(a.entity_id)
    .bind(a.actor_id)
    .bind(now)
    .execute(conn)
    .await
    .map(|_| ())
}

pub async fn activity_list(
    pool: &PgPool,
    limit: i64,
    offset: i64,
) -> Result<(Vec<ActivityRow>, i64), sqlx::Error> {
    let rows = sqlx::query_as(
        "SELECT id, type, description, entity_type, entity_id, created_at FROM activities
         ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2",
    )
    .bind(limit)
    .bind(offset)
    .fetch_all(pool)
    .await?;
    let total = sqlx::query_scalar("SELECT COUNT(*) FROM activities")
        .fetch_one(pool)
        .await?;
    Ok((rows, total))
}
