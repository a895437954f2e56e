//! Signed tokens for the links in outgoing mail: unsubscribe, open pixel and click redirect.
//!
//! A token is `{payload}.{mac}`, both base64url without padding, so it fits in a URL path segment
//! as is. The MAC is HMAC-SHA256 under a key derived from the app secret (never the secret
//! itself) over a purpose tag and the payload, so a token minted for one purpose never verifies
//! for another. Verification is constant-time and turns anything malformed into `None`: these
//! strings arrive from the open internet.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// Label under which the token key is derived from the app secret; bump the version to rotate.
const KEY_LABEL: &[u8] = b"prospector/email-tokens/v1";

/// Who asked to stop receiving which list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsubscribe {
    pub email: String,
    pub list: String,
}

/// A tracked link: which message it was in and where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Click {
    pub message_id: String,
    pub url: String,
}

#[derive(Clone, Copy)]
enum Purpose {
    Unsubscribe,
    Open,
    Click,
    CalendarFeed,
    OAuthState,
}

impl Purpose {
    fn tag(self) -> &'static [u8] {
        match self {
            Self::Unsubscribe => b"unsubscribe\0",
            Self::Open => b"open\0",
            Self::Click => b"click\0",
            // v2: the payload is `[user id, version]`; email-bearing v1 URLs never verify.
            Self::CalendarFeed => b"calendar-feed/v2\0",
            Self::OAuthState => b"oauth-state\0",
        }
    }
}

/// Mints and checks tokens; cheap to clone, one per process.
#[derive(Clone)]
pub struct Signer {
    /// HMAC already keyed with the derived key; cloned for each token.
    mac: HmacSha256,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Signer([redacted])")
    }
}

fn keyed(key: &[u8]) -> HmacSha256 {
    match HmacSha256::new_from_slice(key) {
        Ok(mac) => mac,
        Err(_) => unreachable!("HMAC accepts keys of any length"),
    }
}

impl Signer {
    pub fn new(secret: &[u8]) -> Self {
        let mut derive = keyed(secret);
        derive.update(KEY_LABEL);
        let key = derive.finalize().into_bytes();
        Self { mac: keyed(&key) }
    }

    pub fn unsubscribe_token(&self, email: &str, list: &str) -> String {
        self.sign(Purpose::Unsubscribe, &pair(email, list))
    }

    pub fn verify_unsubscribe(&self, token: &str) -> Option<Unsubscribe> {
        let (email, list) = unpair(&self.verify(Purpose::Unsubscribe, token)?)?;
        Some(Unsubscribe { email, list })
    }

    /// `message_id` is our ledger row id.
    pub fn open_token(&self, message_id: &str) -> String {
        self.sign(Purpose::Open, message_id.as_bytes())
    }

    pub fn verify_open(&self, token: &str) -> Option<String> {
        String::from_utf8(self.verify(Purpose::Open, token)?).ok()
    }

    /// The secret part of a user's calendar feed URL: their id and feed version, never their email
    /// (the payload is readable by whoever holds the URL). Bumping the stored version revokes it.
    pub fn calendar_feed_token(&self, user_id: &str, version: i32) -> String {
        self.sign(Purpose::CalendarFeed, &pair(user_id, &version.to_string()))
    }

    /// The user id and version of an intact feed token; the caller checks the version is current.
    pub fn verify_calendar_feed(&self, token: &str) -> Option<(String, i32)> {
        let (user_id, version) = unpair(&self.verify(Purpose::CalendarFeed, token)?)?;
        Some((user_id, version.parse().ok()?))
    }

    /// The OAuth `state` of a calendar connection started by `user_id`, good until `expires_ms`.
    pub fn oauth_state_token(&self, user_id: &str, expires_ms: i64) -> String {
        self.sign(Purpose::OAuthState, &pair(user_id, &expires_ms.to_string()))
    }

    /// The user who started the connection, when `token` is intact and not expired at `now_ms`.
    pub fn verify_oauth_state(&self, token: &str, now_ms: i64) -> Option<String> {
        let (user_id, expires) = unpair(&self.verify(Purpose::OAuthState, token)?)?;
        (expires.parse::<i64>().ok()? > now_ms).then_some(user_id)
    }

    pub fn click_token(&self, message_id: &str, url: &str) -> String {
        self.sign(Purpose::Click, &pair(message_id, url))
    }

    pub fn verify_click(&self, token: &str) -> Option<Click> {
        let (message_id, url) = unpair(&self.verify(Purpose::Click, token)?)?;
        Some(Click { message_id, url })
    }

    fn mac(&self, purpose: Purpose, payload: &[u8]) -> HmacSha256 {
        let mut mac = self.mac.clone();
        mac.update(purpose.tag());
        mac.update(payload);
        mac
    }

    fn sign(&self, purpose: Purpose, payload: &[u8]) -> String {
        let tag = self.mac(purpose, payload).finalize().into_bytes();
        format!(
            "{}.{}",
            URL_SAFE_NO_PAD.encode(payload),
            URL_SAFE_NO_PAD.encode(tag)
        )
    }

    /// The payload when `token` is intact and was minted for `purpose`.
    fn verify(&self, purpose: Purpose, token: &str) -> Option<Vec<u8>> {
        let (payload, tag) = token.split_once('.')?;
        let payload = URL_SAFE_NO_PAD.decode(payload).ok()?;
        let tag = URL_SAFE_NO_PAD.decode(tag).ok()?;
        self.mac(purpose, &payload).verify_slice(&tag).ok()?;
        Some(payload)
    }
}

/// Two strings as one unambiguous payload (a JSON array: either may hold any character).
fn pair(a: &str, b: &str) -> Vec<u8> {
    serde_json::to_vec(&(a, b)).unwrap_or_default()
}

fn unpair(payload: &[u8]) -> Option<(String, String)> {
    serde_json::from_slice(payload).ok()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn signer() -> Signer {
        Signer::new(b"test secret, long enough to be a real one")
    }

    fn url_safe(token: &str) -> bool {
        token
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
    }

    /// Every token with one character of its payload or MAC changed.
    fn tampered(token: &str) -> Vec<String> {
        let dot = token.find('.').unwrap();
        [0, dot / 2, dot - 1, dot + 1, token.len() - 2]
            .into_iter()
            .map(|i| {
                let mut bytes = token.as_bytes().to_vec();
                bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
                String::from_utf8(bytes).unwrap()
            })
            .collect()
    }

    #[test]
    fn oauth_state_expires_and_is_its_own_purpose() {
        let s = signer();
        let t = s.oauth_state_token("01USER", 2_000);
        assert_eq!(s.verify_oauth_state(&t, 1_999).as_deref(), Some("01USER"));
        assert_eq!(s.verify_oauth_state(&t, 2_000), None, "expired");
        for bad in tampered(&t) {
            assert_eq!(s.verify_oauth_state(&bad, 0), None, "{bad}");
        }
        let feed = s.calendar_feed_token("01USER", 0);
        assert_eq!(s.verify_oauth_state(&feed, 0), None);
    }

    #[test]
    fn calendar_feed_carries_id_and_version_only() {
        let s = signer();
        let t = s.calendar_feed_token("01USER", 3);
        assert!(url_safe(&t), "{t}");
        assert_eq!(s.verify_calendar_feed(&t), Some(("01USER".into(), 3)));
        for bad in tampered(&t) {
            assert_eq!(s.verify_calendar_feed(&bad), None, "{bad}");
        }
        // Each version is its own URL, so bumping the stored one revokes the old.
        assert_ne!(t, s.calendar_feed_token("01USER", 4));
        // Other purposes never open a feed, and a feed token opens nothing else.
        let oauth = s.oauth_state_token("01USER", 3);
        assert_eq!(s.verify_calendar_feed(&oauth), None);
        assert_eq!(s.verify_calendar_feed(&s.open_token("01USER")), None);
        assert!(s.verify_unsubscribe(&t).is_none());
        assert!(s.verify_click(&t).is_none());
        // A v1 URL (the email as payload, under the old purpose tag) is dead.
        let v1 = {
            let payload = b"user@test.local";
            let mut mac = s.mac.clone();
            mac.update(b"calendar-feed\0");
            mac.update(payload);
            format!(
                "{}.{}",
                URL_SAFE_NO_PAD.encode(payload),
                URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
            )
        };
        assert_eq!(s.verify_calendar_feed(&v1), None);
        assert_eq!(
            Signer::new(b"another secret").verify_calendar_feed(&t),
            None
        );
    }

    #[test]
    fn unsubscribe_round_trip() {
        let s = signer();
        let t = s.unsubscribe_token("Ann.O'Neil+x@example.com", "01J9ZQ3XK8");
        assert!(url_safe(&t), "{t}");
        assert_eq!(
            s.verify_unsubscribe(&t),
            Some(Unsubscribe {
                email: "Ann.O'Neil+x@example.com".into(),
                list: "01J9ZQ3XK8".into()
            })
        );
    }

    #[test]
    fn open_round_trip() {
        let s = signer();
        let t = s.open_token("01J9ZQ3XK8ABCDEFGHJKMNPQRS");
        assert!(url_safe(&t), "{t}");
        assert_eq!(
            s.verify_open(&t).as_deref(),
            Some("01J9ZQ3XK8ABCDEFGHJKMNPQRS")
        );
    }

    #[test]
    fn click_round_trip_keeps_the_exact_url() {
        let s = signer();
        let url = "https://example.com/a/b?x=1&y=%2F#frag";
        let t = s.click_token("01J9ZQ3XK8", url);
        assert!(url_safe(&t), "{t}");
        let click = s.verify_click(&t).unwrap();
        assert_eq!(click.message_id, "01J9ZQ3XK8");
        assert_eq!(click.url, url);
    }

    #[test]
    fn any_changed_character_fails() {
        let s = signer();
        for token in [
            s.unsubscribe_token("a@b.c", "all"),
            s.open_token("01J9ZQ3XK8"),
            s.click_token("01J9ZQ3XK8", "https://example.com/"),
        ] {
            for bad in tampered(&token) {
                assert_ne!(bad, token);
                assert!(s.verify_unsubscribe(&bad).is_none(), "{bad}");
                assert!(s.verify_open(&bad).is_none(), "{bad}");
                assert!(s.verify_click(&bad).is_none(), "{bad}");
            }
        }
    }

    #[test]
    fn purposes_do_not_cross() {
        let s = signer();
        let unsub = s.unsubscribe_token("01J9ZQ3XK8", "https://example.com/");
        let click = s.click_token("01J9ZQ3XK8", "https://example.com/");
        let open = s.open_token("01J9ZQ3XK8");
        assert!(s.verify_click(&unsub).is_none());
        assert!(s.verify_open(&unsub).is_none());
        assert!(s.verify_unsubscribe(&click).is_none());
        assert!(s.verify_open(&click).is_none());
        assert!(s.verify_unsubscribe(&open).is_none());
        assert!(s.verify_click(&open).is_none());
    }

    #[test]
    fn garbage_is_rejected_without_panic() {
        let s = signer();
        let long = "A".repeat(10_000);
        for junk in [
            "",
            ".",
            "..",
            "abc",
            "abc.",
            ".abc",
            "a.b.c",
            "!!!.???",
            "é.ü",
            "AAAA.AAAA",
            "eyJ9.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
            long.as_str(),
        ] {
            assert!(s.verify_unsubscribe(junk).is_none(), "{junk}");
            assert!(s.verify_open(junk).is_none(), "{junk}");
            assert!(s.verify_click(junk).is_none(), "{junk}");
            assert!(s.verify_calendar_feed(junk).is_none(), "{junk}");
        }
    }

    #[test]
    fn another_secret_rejects() {
        let other = Signer::new(b"another secret");
        let s = signer();
        assert!(
            other
                .verify_unsubscribe(&s.unsubscribe_token("a@b.c", "all"))
                .is_none()
        );
        assert!(other.verify_open(&s.open_token("01J9ZQ3XK8")).is_none());
        assert!(
            other
                .verify_click(&s.click_token("01J9ZQ3XK8", "https://example.com/"))
                .is_none()
        );
    }
}
