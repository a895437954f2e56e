//! The suppression list as people see it: listed, and lifted by an admin (a forged or mistaken
//! entry must be undoable). Adding and checking entries is with the ledger in `email.rs`.

use super::sql::Sql;
use super::*;

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
        dispatch!(self, suppression_list(&q, limit, offset))
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
            on_tx!(self, conn, [q = DELETE], {
                sqlx::query_as(q)
                    .bind(&email)
                    .fetch_optional(&mut *conn)
                    .await
            })?;
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
