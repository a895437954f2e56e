//! Secrets at rest (OAuth tokens): XChaCha20-Poly1305 under a key derived from `SECRET_KEY`, a random
//! nonce per value, and the owner's id as associated data, so a sealed value copied onto another
//! user's row does not open. Rotating `SECRET_KEY` makes stored values unreadable: the user connects
//! again.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Separates this key from the others derived from `SECRET_KEY`.
const KEY_LABEL: &[u8] = b"prospector sealed values v1";
const NONCE_LEN: usize = 24;

#[derive(Clone)]
pub struct Sealer {
    cipher: XChaCha20Poly1305,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer([redacted])")
    }
}

impl Sealer {
    pub fn new(secret: &[u8]) -> Self {
        let key = match <Hmac<Sha256> as Mac>::new_from_slice(secret) {
            Ok(mut mac) => {
                mac.update(KEY_LABEL);
                mac.finalize().into_bytes()
            }
            Err(_) => unreachable!("HMAC accepts keys of any length"),
        };
        Self {
            cipher: XChaCha20Poly1305::new(&key),
        }
    }

    /// `plain` sealed for `owner`, as URL-safe base64 of nonce and ciphertext.
    pub fn seal(&self, plain: &str, owner: &str) -> String {
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let payload = Payload {
            msg: plain.as_bytes(),
            aad: owner.as_bytes(),
        };
        // Encryption fails only for messages of gigabytes; tokens are a few hundred bytes.
        let sealed = self.cipher.encrypt(&nonce, payload).unwrap_or_default();
        let mut out = nonce.to_vec();
        out.extend_from_slice(&sealed);
        URL_SAFE_NO_PAD.encode(out)
    }

    /// The plain value, when `sealed` is intact, sealed under this key and for `owner`.
    pub fn open(&self, sealed: &str, owner: &str) -> Option<String> {
        let bytes = URL_SAFE_NO_PAD.decode(sealed).ok()?;
        if bytes.len() <= NONCE_LEN {
            return None;
        }
        let (nonce, ciphertext) = bytes.split_at(NONCE_LEN);
        let nonce: [u8; NONCE_LEN] = nonce.try_into().ok()?;
        let plain = self
            .cipher
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: ciphertext,
                    aad: owner.as_bytes(),
                },
            )
            .ok()?;
        String::from_utf8(plain).ok()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_owner_and_key_bound() {
        let s = Sealer::new(b"a secret key that is long enough, really");
        let a = s.seal("ya29.token", "user-1");
        let b = s.seal("ya29.token", "user-1");
        assert_ne!(a, b, "a fresh nonce each time");
        assert!(!a.contains("ya29"));
        assert_eq!(s.open(&a, "user-1").as_deref(), Some("ya29.token"));
        assert_eq!(s.open(&a, "user-2"), None, "bound to its owner");
        let other = Sealer::new(b"another secret key that is long enough!!");
        assert_eq!(other.open(&a, "user-1"), None, "bound to the key");
        let mut bytes = URL_SAFE_NO_PAD.decode(&a).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        assert_eq!(s.open(&URL_SAFE_NO_PAD.encode(bytes), "user-1"), None);
        assert_eq!(s.open("short", "user-1"), None);
    }
}
