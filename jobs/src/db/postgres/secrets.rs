//! app_secrets queries, postgres dialect.

use sqlx::{Executor, Postgres};

pub async fn app_secret_get<'e, E: Executor<'e, Database = Postgres>>(
    conn: E,
    name: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT value FROM app_secrets WHERE name = $1")
        .bind(name)
        .fetch_optional(conn)
        .await
}

/// Stores the value unless one is there already.
pub async fn app_secret_insert<'e, E: Executor<'e, Database = Postgres>>(
    conn: E,
    name: &str,
    sealed: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO app_secrets (name, value, created_at, updated_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (name) DO NOTHING",
    )
    .bind(name)
    .bind(sealed)
    .bind(now)
    .execute(conn)
    .await
    .map(|_| ())
}

/// Stores the value, replacing any earlier one.
pub async fn app_secret_set<'e, E: Executor<'e, Database = Postgres>>(
    conn: E,
    name: &str,
    sealed: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO app_secrets (name, value, created_at, updated_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    )
    .bind(name)
    .bind(sealed)
    .bind(now)
    .execute(conn)
    .await
    .map(|_| ())
}
