//! SendGrid's signed Event Webhook: checking the signature and reading the events.
//!
//! SendGrid signs `timestamp ‖ raw body` with ECDSA P-256/SHA-256 and sends the base64 DER
//! signature and the timestamp in the `X-Twilio-Email-Event-Webhook-Signature` and
//! `-Timestamp` headers; the account's verification key is a base64 DER SubjectPublicKeyInfo.
//! The check is over the exact bytes received, so the api must hand over the raw body.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{DerSignature, VerifyingKey};
use p256::pkcs8::DecodePublicKey;

/// Whether `signature_b64` is the key's signature over `timestamp` followed by `body`. Anything
/// malformed (key, signature, base64) is simply `false`.
pub fn verify_signature(
    public_key_b64: &str,
    signature_b64: &str,
    timestamp: &str,
    body: &[u8],
) -> bool {
    let Ok(key_der) = STANDARD.decode(public_key_b64.trim()) else {
        return false;
    };
    let Ok(key) = VerifyingKey::from_public_key_der(&key_der) else {
        return false;
    };
    let Ok(sig_der) = STANDARD.decode(signature_b64.trim()) else {
        return false;
    };
    let Ok(signature) = DerSignature::from_bytes(&sig_der) else {
        return false;
    };
    let mut signed = Vec::with_capacity(timestamp.len() + body.len());
    signed.extend_from_slice(timestamp.as_bytes());
    signed.extend_from_slice(body);
    key.verify(&signed, &signature).is_ok()
}

/// One event as SendGrid posts it. Custom args (`unique_args`) arrive as top-level fields, so
/// the id we put in `X-SMTPAPI` comes back as `prospector_message_id`.
#[derive(Debug, Clone, serde::Deserialize, utoipa::ToSchema)]
#[schema(as = SendgridEvent)]
pub struct Event {
    pub email: Option<String>,
    /// Unix seconds; a whole number written as a float (`1700000000.0`) is read too.
    #[serde(default, deserialize_with = "whole_seconds")]
    #[schema(value_type = Option<i64>)]
    pub timestamp: Option<i64>,
    pub event: String,
    pub sg_event_id: Option<String>,
    pub sg_message_id: Option<String>,
    #[serde(rename = "smtp-id")]
    pub smtp_id: Option<String>,
    pub url: Option<String>,
    pub reason: Option<String>,
    /// `bounce` or `blocked` on bounce events.
    #[serde(rename = "type")]
    pub bounce_type: Option<String>,
    pub prospector_message_id: Option<String>,
}

fn whole_seconds<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let n: Option<serde_json::Number> = serde::Deserialize::deserialize(d)?;
    match n {
        None => Ok(None),
        Some(n) => n
            .as_i64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9_007_199_254_740_992.0)
                    .map(|f| f as i64)
            })
            .map(Some)
            .ok_or_else(|| {
                serde::de::Error::custom(format!("invalid timestamp `{n}`, expected whole seconds"))
            }),
    }
}

/// The webhook body: a JSON array of events.
pub fn parse_events(body: &[u8]) -> Result<Vec<Event>, String> {
    serde_json::from_slice(body)
        .map_err(|e| format!("expected a JSON array of SendGrid events: {e}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    // SendGrid's published test vector (from its Node library's tests). The signed bytes are
    // the timestamp followed by exactly this JSON, with no trailing "\r\n" (checked: the body
    // with "\r\n" appended does not verify). The check covers every byte, so the api must pass
    // the raw body through untouched.
    #[test]
    fn a_whole_float_timestamp_is_read() {
        let events = parse_events(br#"[{"event":"open","timestamp":1700000000.0}]"#).unwrap();
        assert_eq!(events[0].timestamp, Some(1_700_000_000));
        assert!(parse_events(br#"[{"event":"open","timestamp":1.5}]"#).is_err());
    }

    const KEY: &str = "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEDr2LjtURuePQzplybdC+u4CwrqDqBaWjcMMsTbhdbcwHBcepxo7yAQGhHPTnlvFYPAZFceEu/1FwCM/QmGUhA==";
    const SIGNATURE: &str = "MEUCIQCtIHJeH93Y+qpYeWrySphQgpNGNr/U+UyUlBkU6n7RAwIgJTz2C+8a8xonZGi6BpSzoQsbVRamr2nlxFDWYNH2j/0=";
    const TIMESTAMP: &str = "1588788367";
    const BODY: &[u8] =
        br#"{"category":"example_payload","event":"test_event","message_id":"message_id"}"#;

    #[test]
    fn published_vector_verifies() {
        assert!(verify_signature(KEY, SIGNATURE, TIMESTAMP, BODY));
    }

    #[test]
    fn body_must_be_byte_exact() {
        let mut crlf = BODY.to_vec();
        crlf.extend_from_slice(b"\r\n");
        assert!(!verify_signature(KEY, SIGNATURE, TIMESTAMP, &crlf));
        let changed = String::from_utf8(BODY.to_vec())
            .unwrap()
            .replace("test_event", "test_evenT");
        assert!(!verify_signature(
            KEY,
            SIGNATURE,
            TIMESTAMP,
            changed.as_bytes()
        ));
        assert!(!verify_signature(KEY, SIGNATURE, TIMESTAMP, b""));
    }

    #[test]
    fn changed_timestamp_fails() {
        assert!(!verify_signature(KEY, SIGNATURE, "1588788368", BODY));
        assert!(!verify_signature(KEY, SIGNATURE, "", BODY));
    }

    #[test]
    fn changed_signature_fails() {
        // Same length, one base64 digit changed inside the r value.
        let changed = SIGNATURE.replacen("tIHJ", "tIHK", 1);
        assert_ne!(changed, SIGNATURE);
        assert!(!verify_signature(KEY, &changed, TIMESTAMP, BODY));
        // A valid DER signature by another key.
        use p256::ecdsa::signature::Signer as _;
        use p256::ecdsa::{Signature, SigningKey};
        let other = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let sig: Signature = other.sign(b"1588788367{}");
        let sig = STANDARD.encode(sig.to_der().as_bytes());
        assert!(!verify_signature(KEY, &sig, TIMESTAMP, BODY));
    }

    #[test]
    fn wrong_key_fails() {
        use p256::ecdsa::SigningKey;
        use p256::pkcs8::EncodePublicKey;
        let other = SigningKey::from_slice(&[7u8; 32]).unwrap();
        let der = p256::PublicKey::from(other.verifying_key())
            .to_public_key_der()
            .unwrap();
        let other_key = STANDARD.encode(der.as_bytes());
        assert!(!verify_signature(&other_key, SIGNATURE, TIMESTAMP, BODY));
    }

    #[test]
    fn a_key_we_sign_with_round_trips() {
        use p256::ecdsa::signature::Signer as _;
        use p256::ecdsa::{Signature, SigningKey};
        use p256::pkcs8::EncodePublicKey;
        let key = SigningKey::from_slice(&[9u8; 32]).unwrap();
        let public = STANDARD.encode(
            p256::PublicKey::from(key.verifying_key())
                .to_public_key_der()
                .unwrap()
                .as_bytes(),
        );
        let body = br#"[{"event":"open"}]"#;
        let sig: Signature = key.sign(&[b"1700000000".as_slice(), body].concat());
        let sig = STANDARD.encode(sig.to_der().as_bytes());
        assert!(verify_signature(&public, &sig, "1700000000", body));
        assert!(!verify_signature(&public, &sig, "1700000001", body));
    }

    #[test]
    fn malformed_input_is_false_not_a_panic() {
        for (key, sig) in [
            ("", SIGNATURE),
            (KEY, ""),
            ("not base64!!", SIGNATURE),
            (KEY, "not base64!!"),
            ("AAAA", SIGNATURE),
            (KEY, "AAAA"),
            (SIGNATURE, KEY),
            (&KEY[..KEY.len() - 8], SIGNATURE),
            (KEY, &SIGNATURE[..SIGNATURE.len() - 8]),
        ] {
            assert!(!verify_signature(key, sig, TIMESTAMP, BODY), "{key} {sig}");
        }
    }

    #[test]
    fn parses_a_realistic_batch() {
        let body = br#"[
          {"email":"ann@example.com","timestamp":1700000000,"smtp-id":"<01J9ZQ3XK8@prospector.local>","event":"delivered","category":["outreach"],"sg_event_id":"ZGVsaXZlcmVk","sg_message_id":"14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0","response":"250 OK","prospector_message_id":"01J9ZQ3XK8"},
          {"email":"ann@example.com","timestamp":1700000100,"event":"open","sg_machine_open":false,"useragent":"Mozilla/5.0","ip":"255.255.255.255","sg_event_id":"b3Blbg","sg_message_id":"14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0","prospector_message_id":"01J9ZQ3XK8"},
          {"email":"ann@example.com","timestamp":1700000200,"event":"click","url":"https://example.com/pricing?a=1&b=2","url_offset":{"index":0,"type":"html"},"sg_event_id":"Y2xpY2s","sg_message_id":"14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0","prospector_message_id":"01J9ZQ3XK8"},
          {"email":"bob@example.com","timestamp":1700000300,"smtp-id":"<01J9ZQ3XK9@prospector.local>","event":"bounce","bounce_classification":"Invalid Address","reason":"550 5.1.1 The email account that you tried to reach does not exist","status":"5.1.1","type":"bounce","sg_event_id":"Ym91bmNl","sg_message_id":"24c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0","prospector_message_id":"01J9ZQ3XK9"},
          {"email":"cy@example.com","timestamp":1700000400,"event":"spamreport","sg_event_id":"c3BhbQ","sg_message_id":"34c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0"},
          {"email":"dee@example.com","timestamp":1700000500,"event":"unsubscribe","sg_event_id":"dW5zdWI","sg_message_id":"44c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0","prospector_message_id":"01J9ZQ3XKB"}
        ]"#;
        let events = parse_events(body).unwrap();
        let kinds: Vec<_> = events.iter().map(|e| e.event.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "delivered",
                "open",
                "click",
                "bounce",
                "spamreport",
                "unsubscribe"
            ]
        );
        assert_eq!(
            events[0].smtp_id.as_deref(),
            Some("<01J9ZQ3XK8@prospector.local>")
        );
        assert_eq!(
            events[0].prospector_message_id.as_deref(),
            Some("01J9ZQ3XK8")
        );
        assert_eq!(events[0].timestamp, Some(1_700_000_000));
        assert_eq!(events[1].sg_event_id.as_deref(), Some("b3Blbg"));
        assert_eq!(
            events[2].url.as_deref(),
            Some("https://example.com/pricing?a=1&b=2")
        );
        assert_eq!(events[3].bounce_type.as_deref(), Some("bounce"));
        assert!(
            events[3]
                .reason
                .as_deref()
                .unwrap()
                .starts_with("550 5.1.1")
        );
        assert_eq!(events[4].email.as_deref(), Some("cy@example.com"));
        assert_eq!(events[4].prospector_message_id, None);
        assert_eq!(
            events[5].sg_message_id.as_deref(),
            Some("44c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0")
        );
    }

    #[test]
    fn rejects_what_is_not_an_array_of_events() {
        for body in [
            &br#"{"event":"open"}"#[..],
            b"",
            b"not json",
            br#"[{"email":"a@b.c"}]"#,
            b"[1, 2]",
        ] {
            let err = parse_events(body).unwrap_err();
            assert!(err.contains("JSON array of SendGrid events"), "{err}");
        }
        assert!(parse_events(b"[]").unwrap().is_empty());
    }
}
