//! Passwords (argon2) and session tokens. A session token is random; only its SHA-256 is stored,
//! so a copy of the database cannot be replayed as a login.

use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::db::{Db, UserRow};
use crate::domain::users;
use crate::time::now_ms;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error("email: enter a valid email address")]
    InvalidEmail,
    #[error("{0}")]
    WeakPassword(String),
    #[error("a user with this email already exists")]
    Duplicate,
    #[error("password hashing failed: {0}")]
    Hash(String),
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

pub fn hash_password(password: &str) -> Result<String, AuthError> {
    Argon2::default()
        .hash_password(password.as_bytes())
        .map(|h: PasswordHash| h.to_string())
        .map_err(|e| AuthError::Hash(e.to_string()))
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed: PasswordHash| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// [`hash_password`] and [`verify_password`] on tokio's blocking threads: Argon2 takes tens of ms
/// of CPU, which on a runtime thread (the api's writes have two) would hold every task behind it.
pub async fn hash_password_off_runtime(password: String) -> Result<String, AuthError> {
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|e| AuthError::Hash(e.to_string()))?
}

pub async fn verify_password_off_runtime(password: String, hash: String) -> bool {
    tokio::task::spawn_blocking(move || verify_password(&password, &hash))
        .await
        .unwrap_or(false)
}

/// A hash to verify against when the email is unknown, so both paths cost the same.
pub fn dummy_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password("not-a-real-password").unwrap_or_default())
}

pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn token_hash(token: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(token.as_bytes()))
}

pub fn normalize_email(email: &str) -> String {
    email.trim().to_lowercase()
}

pub struct NewUser<'a> {
    pub email: &'a str,
    pub password: &'a str,
    pub first_name: Option<&'a str>,
    pub last_name: Option<&'a str>,
    pub is_admin: bool,
}

pub async fn user_create(db: &Db, u: NewUser<'_>) -> Result<UserRow, AuthError> {
    let email = normalize_email(u.email);
    if !users::email_is_valid(&email) {
        return Err(AuthError::InvalidEmail);
    }
    if let Some(problem) = users::password_problem(u.password) {
        return Err(AuthError::WeakPassword(problem));
    }
    if db.user_get_by_email(&email).await?.is_some() {
        return Err(AuthError::Duplicate);
    }
    let row = UserRow {
        id: ulid::Ulid::new().to_string(),
        email,
        password_hash: hash_password(u.password)?,
        first_name: u.first_name.map(str::to_string),
        last_name: u.last_name.map(str::to_string),
        is_admin: u.is_admin,
        created_at: now_ms(),
        disabled_at: None,
    };
    let mut tx = db.begin().await?;
    tx.user_insert(&row).await?;
    tx.commit().await?;
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_against_their_hash() {
        let hash = hash_password("correct horse").unwrap_or_default();
        assert!(hash.starts_with("$argon2"));
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong horse", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
    }

    #[test]
    fn tokens_are_random_and_stored_hashed() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
    }
}
