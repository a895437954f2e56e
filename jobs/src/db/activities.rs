//! Activities: the CRM's history. Every create, status change, stage move, meeting change and
//! conversion writes one, in the transaction of the change it records.

use super::sql::Sql;
use super::*;

const INSERT: Sql = sql!(
    "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
);
const LIST: Sql = sql!(
    "SELECT id, type, description, entity_type, entity_id, created_at FROM activities
     ORDER BY created_at DESC, id DESC LIMIT ?1 OFFSET ?2"
);
const COUNT: Sql = sql!("SELECT COUNT(*) FROM activities");

pub struct ActivityInsert<'a> {
    /// Values per seed 000 §3: `contact_created`, `company_updated`, `meeting_scheduled`, ...
    pub kind: &'a str,
    pub description: &'a str,
    pub entity_type: Option<&'a str>,
    pub entity_id: Option<&'a str>,
    pub actor_id: Option<&'a str>,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ActivityRow {
    pub id: String,
    #[sqlx(rename = "type")]
    pub kind: String,
    pub description: String,
    pub entity_type: Option<String>,
    pub entity_id: Option<String>,
    pub created_at: i64,
}

impl Db {
    /// Newest first.
    pub async fn activity_list(
        &self,
        limit: i64,
        offset: i64,
    ) -> Result<(Vec<ActivityRow>, i64), sqlx::Error> {
        on_db!(self, pool, [list = LIST, count = COUNT], {
            let rows = sqlx::query_as(list)
                .bind(limit)
                .bind(offset)
                .fetch_all(pool)
                .await?;
            let total = sqlx::query_scalar(count).fetch_one(pool).await?;
            Ok((rows, total))
        })
    }
}

impl Tx {
    pub async fn activity_insert(&mut self, a: &ActivityInsert<'_>) -> Result<(), sqlx::Error> {
        let id = ulid::Ulid::new().to_string();
        let now = crate::time::now_ms();
        exec_tx!(
            self,
            INSERT,
            &id,
            a.kind,
            a.description,
            a.entity_type,
            a.entity_id,
            a.actor_id,
            now
        )
        .map(|_| ())
    }
}
