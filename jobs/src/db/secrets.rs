//! Install-wide secrets the app makes for itself (today: the token in the email webhook URLs).
//! Values are sealed ([`crate::sealed::Sealer`]) with their name as the owner, so a copy of the
//! database alone does not give them away; the SQL is in `sqlite/secrets.rs` and `postgres/secrets.rs`.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use super::*;
use crate::sealed::Sealer;

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
    /// The secret stored under `name`, made (and stored) on first need. Every process reads it
    /// from the database, so a rotation through any api process takes effect everywhere at once.
    pub async fn secret_token(&self, sealer: &Sealer, name: &str) -> Result<String, sqlx::Error> {
        if let Some(sealed) = dispatch!(self, app_secret_get(name))? {
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
            dispatch!(self, app_secret_set(name, &sealer.seal(&fresh, name), now))?;
            return Ok(fresh);
        }
        let fresh = secret_token_generate();
        let now = crate::time::now_ms();
        // Two first calls at once: the first insert wins and both read what it stored.
        dispatch!(
            self,
            app_secret_insert(name, &sealer.seal(&fresh, name), now)
        )?;
        let sealed = dispatch!(self, app_secret_get(name))?.unwrap_or_default();
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
        dispatch_tx!(self, app_secret_set(name, &sealer.seal(&fresh, name), now))?;
        Ok(fresh)
    }
}
