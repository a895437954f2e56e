//! Logins, their sessions, and the audit log. Written once for both dialects.

use serde_json::Value;
use sqlx::Row;
use sqlx::types::Json;

use super::sql::Sql;
use super::*;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct UserRow {
    pub id: String,
    pub email: String,
    pub password_hash: String,
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub is_admin: bool,
    pub created_at: i64,
    /// When an admin disabled the account: it cannot sign in and has no sessions.
    pub disabled_at: Option<i64>,
}

/// The fields of an account an admin may change (the rest stays as it is).
pub struct UserUpdate<'a> {
    pub id: &'a str,
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub is_admin: bool,
    pub disabled_at: Option<i64>,
}

pub struct SessionInsert<'a> {
    pub token_hash: &'a str,
    pub user_id: &'a str,
    pub is_admin: bool,
    pub created_at: i64,
    pub expires_at: i64,
}

pub struct AuditInsert<'a> {
    pub id: &'a str,
    pub actor_id: Option<&'a str>,
    pub actor_email: Option<&'a str>,
    pub action: &'a str,
    pub target: Option<&'a str>,
    pub detail: Option<&'a Value>,
    pub created_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct AuditRow {
    pub id: String,
    pub actor_email: Option<String>,
    pub action: String,
    pub target: Option<String>,
    pub detail: Option<Json<Value>>,
    pub created_at: i64,
}

macro_rules! user_columns {
    () => {
        "u.id, u.email, u.password_hash, u.first_name, u.last_name, u.is_admin, u.created_at,
         u.disabled_at"
    };
}

const USER_INSERT: Sql = sql!(
    "INSERT INTO users (id, email, password_hash, first_name, last_name, is_admin, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
);
const USER_BY_EMAIL: Sql = select!(user_columns, "users u", "WHERE u.email = ?1");
const USER_LIST: Sql = select!(user_columns, "users u", "ORDER BY u.created_at, u.id");
const USER_GET_FOR_UPDATE: Sql = locking!(
    concat!("SELECT ", user_columns!(), " FROM users u WHERE u.id = ?1"),
    "FOR UPDATE",
    ""
);
const USER_UPDATE: Sql = sql!(
    "UPDATE users SET first_name = ?2, last_name = ?3, is_admin = ?4, disabled_at = ?5 WHERE id = ?1"
);
const USER_SET_PASSWORD: Sql = sql!("UPDATE users SET password_hash = ?2 WHERE id = ?1");
const USER_COUNT: Sql = sql!("SELECT COUNT(*) FROM users");
const SESSION_INSERT: Sql = sql!(
    "INSERT INTO sessions (token_hash, user_id, is_admin, created_at, expires_at)
     VALUES (?1, ?2, ?3, ?4, ?5)"
);
const SESSION_GET: Sql = sql!(concat!(
    "SELECT ",
    user_columns!(),
    ", s.is_admin AS session_admin
     FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = ?1 AND s.expires_at > ?2 AND u.disabled_at IS NULL"
));
const SESSION_DELETE: Sql = sql!("DELETE FROM sessions WHERE token_hash = ?1");
const SESSION_DELETE_USER: Sql =
    sql!("DELETE FROM sessions WHERE user_id = ?1 AND token_hash <> ?2");
const SESSION_DELETE_EXPIRED: Sql = sql!("DELETE FROM sessions WHERE expires_at <= ?1");
const AUDIT_INSERT: Sql = sql!(
    "INSERT INTO audit_log (id, actor_id, actor_email, action, target, detail, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
);
const AUDIT_LIST: Sql = sql!(
    "SELECT id, actor_email, action, target, detail, created_at FROM audit_log
     ORDER BY created_at DESC, id DESC LIMIT ?1"
);

impl Db {
    pub async fn user_get_by_email(&self, email: &str) -> Result<Option<UserRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(USER_BY_EMAIL), email)
    }
    /// Every account, oldest first.
    pub async fn user_list(&self) -> Result<Vec<UserRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(USER_LIST))
    }
    pub async fn user_count(&self) -> Result<i64, sqlx::Error> {
        fetch!(self, fetch_one, query_scalar(USER_COUNT))
    }
    pub async fn session_insert(&self, s: &SessionInsert<'_>) -> Result<(), sqlx::Error> {
        exec!(
            self,
            SESSION_INSERT,
            s.token_hash,
            s.user_id,
            s.is_admin,
            s.created_at,
            s.expires_at
        )
        .map(|_| ())
    }
    /// The session's user, and whether the session was opened through the admin sign-in.
    pub async fn session_get(
        &self,
        token_hash: &str,
        now: i64,
    ) -> Result<Option<(UserRow, bool)>, sqlx::Error> {
        on_db!(self, pool, [q = SESSION_GET], {
            let row = sqlx::query(q)
                .bind(token_hash)
                .bind(now)
                .fetch_optional(pool)
                .await?;
            row.map(|r| Ok((sqlx::FromRow::from_row(&r)?, r.try_get("session_admin")?)))
                .transpose()
        })
    }
    pub async fn session_delete(&self, token_hash: &str) -> Result<(), sqlx::Error> {
        exec!(self, SESSION_DELETE, token_hash).map(|_| ())
    }
    pub async fn session_delete_expired(&self, now: i64) -> Result<u64, sqlx::Error> {
        exec!(self, SESSION_DELETE_EXPIRED, now)
    }
    pub async fn audit_list(&self, limit: i64) -> Result<Vec<AuditRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(AUDIT_LIST), limit)
    }
}

impl Tx {
    /// A unique violation means the email is taken.
    pub async fn user_insert(&mut self, u: &UserRow) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            USER_INSERT,
            &u.id,
            &u.email,
            &u.password_hash,
            &u.first_name,
            &u.last_name,
            u.is_admin,
            u.created_at
        )
        .map(|_| ())
    }
    /// The account, locked against concurrent changes until the transaction ends.
    pub async fn user_get_for_update(&mut self, id: &str) -> Result<Option<UserRow>, sqlx::Error> {
        fetch_tx!(self, fetch_optional, query_as(USER_GET_FOR_UPDATE), id)
    }
    pub async fn user_update(&mut self, u: &UserUpdate<'_>) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            USER_UPDATE,
            u.id,
            u.first_name,
            u.last_name,
            u.is_admin,
            u.disabled_at
        )
        .map(|_| ())
    }
    pub async fn user_set_password(&mut self, id: &str, hash: &str) -> Result<(), sqlx::Error> {
        exec_tx!(self, USER_SET_PASSWORD, id, hash).map(|_| ())
    }
    /// Ends the user's sessions but the one with `keep` (the caller's own, or none): the sessions
    /// deleted.
    pub async fn session_delete_for_user(
        &mut self,
        user_id: &str,
        keep: Option<&str>,
    ) -> Result<u64, sqlx::Error> {
        exec_tx!(self, SESSION_DELETE_USER, user_id, keep.unwrap_or(""))
    }
    pub async fn audit_insert(&mut self, a: &AuditInsert<'_>) -> Result<(), sqlx::Error> {
        exec_tx!(
            self,
            AUDIT_INSERT,
            a.id,
            a.actor_id,
            a.actor_email,
            a.action,
            a.target,
            a.detail.map(Json),
            a.created_at
        )
        .map(|_| ())
    }
}
