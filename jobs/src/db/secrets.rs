//! Install-wide secrets the app makes for itself (today: the token in the email webhook URLs).
//! Values are sealed ([`crate::sealed::Sealer`]) with their name as the owner, so a copy of the
//! database alone does not give them away.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::sql::Sql;
use super::*;
use crate::sealed::Sealer;

const GET: Sql = sql!("SELECT value FROM app_secrets WHERE name = ?1");
/// Stores the value unless one is there already.
const INSERT: Sql = sql!(
    "INSERT INTO app_secrets (name, value, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
     ON CONFLICT (name) DO NOTHING"
);
/// Stores the value, replacing any earlier one.
const SET: Sql = sql!(
    "INSERT INTO app_secrets (name, value, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
     ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
);

/// The name of the token the email webhooks (`/api/email/webhook`, `/api/email/inbound`) carry
/// when no provider key is configured.
pub const WEBHOOK_TOKEN: &str = "email_webhook_token";

/// 32 random bytes as URL-safe base64 (43 characters): unguessable and safe in a query string.
pub fn secret_token_generate() -> String {
    let mut bytes = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

impl Db {
    async fn app_secret_get(&self, name: &str) -> Result<Option<String>, sqlx::Error> {
        fetch!(self, fetch_optional, query_scalar(GET), name)
    }

    async fn app_secret_put(
        &self,
        query: Sql,
        name: &str,
        sealed: &str,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        on_db_write!(self, pool, [q = query], {
            sqlx::query(q)
                .bind(name)
                .bind(sealed)
                .bind(now)
                .execute(pool)
                .await
                .map(|_| ())
        })
    }

    /// The secret stored under `name`, made (and stored) on first need. Every process reads it
    /// from the database, so a rotation through any api process takes effect everywhere at once.
    pub async fn secret_token(&self, sealer: &Sealer, name: &str) -> Result<String, sqlx::Error> {
        if let Some(sealed) = self.app_secret_get(name).await? {
            if let Some(plain) = sealer.open(&sealed, name) {
                return Ok(plain);
            }
            // Sealed under an earlier SECRET_KEY: unreadable, so a new one replaces it and the
            // provider settings need the new URL.
            tracing::warn!(
                name,
                "stored secret does not open with this SECRET_KEY; making a new one"
            );
            let fresh = secret_token_generate();
            let now = crate::time::now_ms();
            self.app_secret_put(SET, name, &sealer.seal(&fresh, name), now)
                .await?;
            return Ok(fresh);
        }
        let fresh = secret_token_generate();
        let now = crate::time::now_ms();
        // Two first calls at once: the first insert wins and both read what it stored.
        self.app_secret_put(INSERT, name, &sealer.seal(&fresh, name), now)
            .await?;
        let sealed = self.app_secret_get(name).await?.unwrap_or_default();
        Ok(sealer.open(&sealed, name).unwrap_or(fresh))
    }
}

impl Tx {
    /// Replaces the secret under `name` with a new random one (rotation); returns it.
    pub async fn secret_token_rotate(
        &mut self,
        sealer: &Sealer,
        name: &str,
    ) -> Result<String, sqlx::Error> {
        let fresh = secret_token_generate();
        let now = crate::time::now_ms();
        let sealed = sealer.seal(&fresh, name);
        exec_tx!(self, SET, name, &sealed, now).map(|_| ())?;
        Ok(fresh)
    }
}
