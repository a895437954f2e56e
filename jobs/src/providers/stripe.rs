//! Stripe PaymentIntents (`POST {STRIPE_API_URL}/v1/payment_intents`, form-encoded, bearer key) and
//! the signature check of Stripe's webhook calls. Amounts are integers of the smallest currency unit.
//! Every create carries an idempotency key, so a retried or repeated request never makes a second
//! intent: Stripe answers it with the first one.

use std::time::Duration;

use hmac::{Hmac, Mac};
use serde::Deserialize;
use sha2::Sha256;

use super::http::{self, HttpError, HttpPolicy};
use crate::config::StripeSettings;

/// How long a webhook signature stays acceptable (Stripe's own libraries use five minutes).
pub const SIGNATURE_TOLERANCE_SECS: i64 = 300;

#[derive(Debug, Clone, Deserialize)]
pub struct PaymentIntent {
    pub id: String,
    pub client_secret: Option<String>,
    pub status: String,
    pub amount: i64,
    pub currency: String,
}

#[derive(Debug, thiserror::Error)]
pub enum StripeError {
    #[error("Stripe refused the payment: {0}")]
    Refused(String),
    #[error("Stripe is unavailable: {0}")]
    Unavailable(String),
    #[error("Stripe answered something unreadable: {0}")]
    Malformed(String),
}

#[derive(Clone)]
pub struct Stripe {
    settings: StripeSettings,
    http: reqwest::Client,
    policy: HttpPolicy,
}

impl Stripe {
    pub fn new(settings: StripeSettings) -> Self {
        Self {
            settings,
            http: reqwest::Client::new(),
            // Someone is waiting at the Charge button: short, few retries.
            policy: HttpPolicy {
                timeout: Duration::from_secs(15),
                retries: 2,
                min_delay: Duration::from_millis(300),
                max_delay: Duration::from_secs(5),
                ..HttpPolicy::default()
            },
        }
    }

    pub fn with_policy(mut self, policy: HttpPolicy) -> Self {
        self.policy = policy;
        self
    }

    pub fn webhook_secret(&self) -> &str {
        self.settings.webhook_secret.expose()
    }

    pub async fn create_intent(
        &self,
        amount_cents: i64,
        currency: &str,
        idempotency_key: &str,
        metadata: &[(&str, &str)],
    ) -> Result<PaymentIntent, StripeError> {
        let url = format!("{}/v1/payment_intents", self.settings.api_url);
        let mut form: Vec<(String, String)> = vec![
            ("amount".into(), amount_cents.to_string()),
            ("currency".into(), currency.to_string()),
            ("automatic_payment_methods[enabled]".into(), "true".into()),
        ];
        for (k, v) in metadata {
            form.push((format!("metadata[{k}]"), (*v).to_string()));
        }
        let body = http::send(&self.policy, || {
            self.http
                .post(&url)
                .bearer_auth(self.settings.secret_key.expose())
                .header("Idempotency-Key", idempotency_key)
                .form(&form)
        })
        .await
        .map_err(|e| match e {
            HttpError::Status { status, body, .. } if status < 500 && status != 429 => {
                StripeError::Refused(error_message(&body))
            }
            other => StripeError::Unavailable(other.to_string()),
        })?;
        serde_json::from_str(&body).map_err(|e| StripeError::Malformed(e.to_string()))
    }
}

/// Stripe's `error.message`, or the start of the body.
fn error_message(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["error"]["message"].as_str().map(String::from))
        .unwrap_or_else(|| body.chars().take(200).collect())
}

/// Checks a `Stripe-Signature` header (`t=<unix secs>,v1=<hex HMAC-SHA256 of "t.payload">`, maybe
/// several v1) against the endpoint secret, within the tolerance around `now_secs`.
pub fn verify_signature(secret: &str, header: &str, payload: &[u8], now_secs: i64) -> bool {
    let mut timestamp = None;
    let mut signatures = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", t)) => timestamp = t.parse::<i64>().ok(),
            Some(("v1", sig)) => signatures.extend(hex::decode(sig).ok()),
            _ => {}
        }
    }
    let Some(t) = timestamp else { return false };
    if (now_secs - t).abs() > SIGNATURE_TOLERANCE_SECS {
        return false;
    }
    signatures.iter().any(|sig| {
        let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
            return false;
        };
        mac.update(t.to_string().as_bytes());
        mac.update(b".");
        mac.update(payload);
        // Constant-time comparison.
        mac.verify_slice(sig).is_ok()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A signature header as Stripe makes it.
    fn sign(secret: &str, payload: &[u8], t: i64) -> String {
        let mut mac = match Hmac::<Sha256>::new_from_slice(secret.as_bytes()) {
            Ok(m) => m,
            Err(_) => return String::new(),
        };
        mac.update(t.to_string().as_bytes());
        mac.update(b".");
        mac.update(payload);
        format!("t={t},v1={}", hex::encode(mac.finalize().into_bytes()))
    }

    #[test]
    fn signatures_are_checked_by_secret_payload_and_time() {
        let body = br#"{"id":"evt_1"}"#;
        let header = sign("whsec_a", body, 1_000_000);
        assert!(verify_signature("whsec_a", &header, body, 1_000_100));
        assert!(
            !verify_signature("whsec_b", &header, body, 1_000_100),
            "other secret"
        );
        assert!(!verify_signature(
            "whsec_a",
            &header,
            br#"{"id":"evt_2"}"#,
            1_000_100
        ));
        assert!(
            !verify_signature("whsec_a", &header, body, 1_000_000 + 301),
            "too old"
        );
        assert!(
            !verify_signature("whsec_a", "v1=00", body, 1_000_000),
            "no timestamp"
        );
        // A rotated secret: one of several v1 signatures matching is enough.
        let both = format!("{header},v1=deadbeef");
        assert!(verify_signature("whsec_a", &both, body, 1_000_000));
    }
}
