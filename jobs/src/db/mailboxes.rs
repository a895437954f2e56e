//! Connected IMAP mailboxes (issue 24 §5): the connection, its sealed secret and the sync state
//! (UIDVALIDITY, last UID read, counts, last error). Same text in both dialects.

use super::sql::Sql;
use super::*;

/// The columns of [`MailboxRow`], in its order.
macro_rules! mailbox_columns {
    () => {
        "id, user_id, host, port, tls, auth, username, secret, folder, uid_validity, last_uid,
         messages_seen, messages_matched, last_sync_at, last_error, last_error_at, created_at,
         updated_at"
    };
}

const MAILBOX_INSERT: Sql = sql!(
    "INSERT INTO mailboxes (id, user_id, host, port, tls, auth, username, secret, folder,
         created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)
     ON CONFLICT (user_id, host, username) DO NOTHING"
);
const MAILBOX_GET: Sql = sql!(concat!(
    "SELECT ",
    mailbox_columns!(),
    " FROM mailboxes WHERE id = ?1"
));
const MAILBOX_LIST: Sql = sql!(concat!(
    "SELECT ",
    mailbox_columns!(),
    " FROM mailboxes WHERE user_id = ?1 ORDER BY created_at, id"
));
const MAILBOX_COUNT: Sql = sql!("SELECT COUNT(*) FROM mailboxes WHERE user_id = ?1");
const MAILBOX_IDS: Sql = sql!("SELECT id FROM mailboxes ORDER BY id");
const MAILBOX_DELETE: Sql = sql!("DELETE FROM mailboxes WHERE id = ?1 AND user_id = ?2");
/// A finished sync: where the folder stands now, what it read, and no error.
const MAILBOX_SYNCED: Sql = sql!(
    "UPDATE mailboxes SET uid_validity = ?2, last_uid = ?3,
         messages_seen = messages_seen + ?4, messages_matched = messages_matched + ?5,
         last_sync_at = ?6, last_error = NULL, last_error_at = NULL, updated_at = ?6
     WHERE id = ?1"
);
/// A connection test that passed: the error goes, the sync state stays.
const MAILBOX_REACHED: Sql = sql!(
    "UPDATE mailboxes SET last_error = NULL, last_error_at = NULL, updated_at = ?2 WHERE id = ?1"
);
const MAILBOX_FAILED: Sql =
    sql!("UPDATE mailboxes SET last_error = ?2, last_error_at = ?3, updated_at = ?3 WHERE id = ?1");

/// A connected mailbox. `secret` is sealed ([`crate::sealed::Sealer`], owner: the mailbox id) and
/// never leaves the server.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MailboxRow {
    pub id: String,
    pub user_id: String,
    pub host: String,
    pub port: i32,
    /// `implicit`, `starttls` or `none`.
    pub tls: String,
    /// `password` (an app password) or `xoauth2` (the user's Google grant).
    pub auth: String,
    pub username: String,
    pub secret: Option<String>,
    pub folder: String,
    /// The folder's UIDVALIDITY when `last_uid` was read; `None` before the first sync.
    pub uid_validity: Option<i64>,
    pub last_uid: i64,
    pub messages_seen: i64,
    pub messages_matched: i64,
    pub last_sync_at: Option<i64>,
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

pub struct MailboxInsert<'a> {
    pub id: &'a str,
    pub user_id: &'a str,
    pub host: &'a str,
    pub port: i32,
    pub tls: &'a str,
    pub auth: &'a str,
    pub username: &'a str,
    pub sealed_secret: Option<&'a str>,
    pub folder: &'a str,
    pub now: i64,
}

/// What one sync read.
#[derive(Debug, Clone, Copy, Default)]
pub struct MailboxProgress {
    pub uid_validity: i64,
    pub last_uid: i64,
    pub seen: i64,
    pub matched: i64,
}

impl Db {
    pub async fn mailbox_get(&self, id: &str) -> Result<Option<MailboxRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(MAILBOX_GET), id)
    }
    /// A user's mailboxes, oldest first.
    pub async fn mailbox_list(&self, user_id: &str) -> Result<Vec<MailboxRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(MAILBOX_LIST), user_id)
    }
    pub async fn mailbox_count(&self, user_id: &str) -> Result<i64, sqlx::Error> {
        fetch!(self, fetch_one, query_scalar(MAILBOX_COUNT), user_id)
    }
    /// Every connected mailbox (the scheduler's tick syncs each).
    pub async fn mailbox_ids(&self) -> Result<Vec<String>, sqlx::Error> {
        fetch!(self, fetch_all, query_scalar(MAILBOX_IDS))
    }
    /// Forgets a user's mailbox; `false` when the user has no such mailbox.
    pub async fn mailbox_delete(&self, id: &str, user_id: &str) -> Result<bool, sqlx::Error> {
        exec!(self, MAILBOX_DELETE, id, user_id).map(|n| n == 1)
    }
    pub async fn mailbox_synced(
        &self,
        id: &str,
        p: &MailboxProgress,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec!(
            self,
            MAILBOX_SYNCED,
            id,
            p.uid_validity,
            p.last_uid,
            p.seen,
            p.matched,
            now
        )
        .map(|_| ())
    }
    pub async fn mailbox_reached(&self, id: &str, now: i64) -> Result<(), sqlx::Error> {
        exec!(self, MAILBOX_REACHED, id, now).map(|_| ())
    }
    pub async fn mailbox_failed(&self, id: &str, error: &str, now: i64) -> Result<(), sqlx::Error> {
        exec!(self, MAILBOX_FAILED, id, error, now).map(|_| ())
    }
}

impl Tx {
    /// `false` when the user already connected this account on this host.
    pub async fn mailbox_insert(&mut self, m: &MailboxInsert<'_>) -> Result<bool, sqlx::Error> {
        exec_tx!(
            self,
            MAILBOX_INSERT,
            m.id,
            m.user_id,
            m.host,
            m.port,
            m.tls,
            m.auth,
            m.username,
            m.sealed_secret,
            m.folder,
            m.now
        )
        .map(|n| n == 1)
    }
}
