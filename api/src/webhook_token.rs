//! The install's webhook token (email events and inbound mail prove themselves with it) and the
//! constant-time comparison of secrets.

use jobs::db::WEBHOOK_TOKEN;
use jobs::sealed::Sealer;
use sha2::{Digest, Sha256};

use crate::AppState;
use crate::error::{ApiError, ApiResult};

/// Equal secrets, compared in constant time: the digests of both (the same length whatever was
/// sent), every byte, no early exit.
pub(crate) fn same_secret(given: &str, expected: &str) -> bool {
    let (a, b) = (
        Sha256::digest(given.as_bytes()),
        Sha256::digest(expected.as_bytes()),
    );
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

/// What seals the stored secrets (keyed by the install's `SECRET_KEY`).
pub(crate) fn sealer(state: &AppState) -> Sealer {
    Sealer::new(state.config.secret_key.expose())
}

/// The install's webhook token (made on first need). Read from the database on every call, so a
/// rotation through any api process takes effect in all of them at once.
pub(crate) async fn install_token(state: &AppState) -> ApiResult<String> {
    Ok(state
        .queue
        .db
        .secret_token(&sealer(state), WEBHOOK_TOKEN)
        .await?)
}

/// 401 unless `given` is the install's webhook token.
pub(crate) async fn check_install_token(
    state: &AppState,
    given: Option<&str>,
    what: &str,
) -> ApiResult<()> {
    let expected = install_token(state).await?;
    match given {
        Some(g) if same_secret(g, &expected) => Ok(()),
        _ => {
            tracing::info!(what, "webhook call without a valid token refused");
            Err(ApiError::unauthorized(format!(
                "Missing or invalid {what} token: use the URL shown on the Email Configuration screen"
            )))
        }
    }
}
