//! The suppression list as people see it: listed, and lifted by an admin (a forged or mistaken
//! entry must be undoable). Adding and checking entries is with the ledger in `email.rs`.

use super::sql::Sql;
use super::*;

/// Differs: a substring's position is instr() in SQLite, strpos() in Postgres.
macro_rules! position {
    (sqlite) => {
        "instr"
    };
    (postgres) => {
        "strpos"
    };
}
macro_rules! suppression_filter {
    ($d:ident) => {
        concat!("(?1 = '' OR ", position!($d), "(s.email, ?1) > 0)")
    };
}
macro_rules! suppression_list {
    ($d:ident) => {
        concat!(
            "SELECT s.email, s.reason, s.source, s.created_at,
                 (SELECT c.id FROM contacts c WHERE lower(trim(c.email)) = s.email
                  ORDER BY c.created_at LIMIT 1) AS contact_id
             FROM suppressions s WHERE ",
            suppression_filter!($d),
            " ORDER BY s.created_at DESC, s.email LIMIT ?2 OFFSET ?3"
        )
    };
}
macro_rules! suppression_count {
    ($d:ident) => {
        concat!(
            "SELECT COUNT(*) FROM suppressions s WHERE ",
            suppression_filter!($d)
        )
    };
}
const LIST: Sql = per_dialect!(suppression_list);
const COUNT: Sql = per_dialect!(suppression_count);
const DELETE: Sql =
    sql!("DELETE FROM suppressions WHERE email = ?1 RETURNING email, reason, source, created_at");

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SuppressionRow {
    pub email: String,
    pub reason: String,
    pub source: Option<String>,
    pub created_at: i64,
    /// The first contact with this address, if any.
    pub contact_id: Option<String>,
}

impl Db {
    /// Newest first; `q` keeps addresses that contain it.
    pub async fn suppression_list(
        &self,
        q: Option<&str>,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<SuppressionRow>, i64), sqlx::Error> {
        let q = q.map(|q| q.trim().to_lowercase()).unwrap_or_default();
        on_db!(self, pool, [list = LIST, count = COUNT], {
            let rows = sqlx::query_as(list)
                .bind(&q)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await?;
            let total = sqlx::query_scalar(count).bind(&q).fetch_one(pool).await?;
            Ok((rows, total))
        })
    }
}

impl Tx {
    /// Takes an address off the list; the entry it removed (without `contact_id`), if there was one.
    pub async fn suppression_delete(
        &mut self,
        email: &str,
    ) -> Result<Option<SuppressionRow>, sqlx::Error> {
        let email = email.trim().to_lowercase();
        let removed: Option<(String, String, Option<String>, i64)> =
            fetch_tx!(self, fetch_optional, query_as(DELETE), &email)?;
        Ok(
            removed.map(|(email, reason, source, created_at)| SuppressionRow {
                email,
                reason,
                source,
                created_at,
                contact_id: None,
            }),
        )
    }
}
