//! Saved views (migration 0032): a user's named table settings per screen, kept as a JSON object.

use super::sql::Sql;
use super::*;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SavedViewRow {
    pub id: String,
    pub screen: String,
    pub name: String,
    pub state: Json<Value>,
    pub created_at: i64,
    pub updated_at: i64,
}

const VIEW_LIST: Sql = sql!(
    "SELECT id, screen, name, state, created_at, updated_at FROM saved_views
     WHERE user_id = ?1 AND screen = ?2 ORDER BY lower(name), id"
);
/// Saving under a name the user already has on that screen replaces that view (keeping its id).
const VIEW_UPSERT: Sql = sql!(
    "INSERT INTO saved_views (id, user_id, screen, name, state, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
     ON CONFLICT (user_id, screen, (lower(name))) DO UPDATE SET name = excluded.name,
         state = excluded.state, updated_at = excluded.updated_at
     RETURNING id, screen, name, state, created_at, updated_at"
);
const VIEW_DELETE: Sql = sql!("DELETE FROM saved_views WHERE id = ?1 AND user_id = ?2");

impl Db {
    /// A user's views of one screen, by name.
    pub async fn saved_views(
        &self,
        user_id: &str,
        screen: &str,
    ) -> Result<Vec<SavedViewRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(VIEW_LIST), user_id, screen)
    }
    /// Saves a view, or replaces the one of the same name; the row as stored.
    pub async fn saved_view_put(
        &self,
        id: &str,
        user_id: &str,
        screen: &str,
        name: &str,
        state: &Value,
        now: i64,
    ) -> Result<SavedViewRow, sqlx::Error> {
        fetch!(
            self,
            fetch_one,
            query_as(VIEW_UPSERT),
            id,
            user_id,
            screen,
            name,
            Json(state),
            now
        )
    }
    /// Deletes one of the user's views; false when there is none by that id (or it is another's).
    pub async fn saved_view_delete(&self, id: &str, user_id: &str) -> Result<bool, sqlx::Error> {
        exec!(self, VIEW_DELETE, id, user_id).map(|n| n == 1)
    }
}
