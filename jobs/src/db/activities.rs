//! Activities: the CRM's history. Every create, status change, stage move, meeting change and
//! conversion writes one, in the transaction of the change it records.

use super::*;

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
        dispatch!(self, activity_list(limit, offset))
    }
}

impl Tx {
    pub async fn activity_insert(&mut self, a: &ActivityInsert<'_>) -> Result<(), sqlx::Error> {
        let id = ulid::Ulid::new().to_string();
        let now = crate::time::now_ms();
        dispatch_tx!(self, activity_insert(&id, now, a))
    }
}
