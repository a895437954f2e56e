//! Text messages through a Twilio-style API (`POST {SMS_API_URL}/2010-04-01/Accounts/{sid}/Messages.json`,
//! form fields `To`, `From`, `Body`, basic auth). There is no idempotency key in that API, so a
//! message is sent at most once: the ledger row is claimed before the call, and only answers that
//! prove the message was not taken (refused connection, 429) put it back for a later try; a timeout
//! or 5xx leaves it in doubt, never sent again.

use std::time::Duration;

use serde_json::Value;

use crate::config::SmsSettings;

/// How one attempt ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmsOutcome {
    /// Accepted; the provider's message id when its answer could be read.
    Sent(Option<String>),
    /// Not taken: try again later.
    Retry(String),
    /// Refused for good (bad number, opted out): the provider's words.
    Failed(String),
    /// The provider may have it: not sent again.
    Unknown(String),
}

#[derive(Clone)]
pub struct SmsApi {
    settings: SmsSettings,
    http: reqwest::Client,
    timeout: Duration,
}

impl SmsApi {
    pub fn new(settings: SmsSettings) -> Self {
        Self {
            settings,
            http: reqwest::Client::new(),
            timeout: Duration::from_secs(15),
        }
    }

    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    pub async fn send(&self, to: &str, body: &str) -> SmsOutcome {
        let s = &self.settings;
        let url = format!(
            "{}/2010-04-01/Accounts/{}/Messages.json",
            s.api_url, s.account_sid
        );
        let res = self
            .http
            .post(url)
            .basic_auth(&s.account_sid, Some(s.auth_token.expose()))
            .form(&[("To", to), ("From", s.from.as_str()), ("Body", body)])
            .timeout(self.timeout)
            .send()
            .await;
        let res = match res {
            Ok(r) => r,
            Err(e) if e.is_connect() => {
                return SmsOutcome::Retry(format!("SMS service unreachable: {e}"));
            }
            Err(e) => return SmsOutcome::Unknown(format!("no answer from the SMS service: {e}")),
        };
        let status = res.status();
        let text = match res.text().await {
            Ok(t) => t,
            Err(e) if status.is_success() => {
                // Accepted even though the body was lost on the way.
                tracing::warn!(error = %e, "SMS answer body unreadable");
                return SmsOutcome::Sent(None);
            }
            Err(e) => return SmsOutcome::Unknown(format!("no answer from the SMS service: {e}")),
        };
        let json: Option<Value> = serde_json::from_str(&text).ok();
        let field = |k: &str| {
            json.as_ref()
                .and_then(|v| v.get(k))
                .map(|v| v.as_str().map_or_else(|| v.to_string(), String::from))
        };
        if status.is_success() {
            return SmsOutcome::Sent(field("sid"));
        }
        let detail = field("message").unwrap_or_else(|| text.chars().take(200).collect());
        match status.as_u16() {
            429 => SmsOutcome::Retry(format!("SMS service rate limit: {detail}")),
            s if s >= 500 => SmsOutcome::Unknown(format!("SMS service error {s}: {detail}")),
            s => SmsOutcome::Failed(format!("SMS refused ({s}): {detail}")),
        }
    }
}

/// A phone number in E.164 (`+15125550100`): US numbers may be written any usual way; others need
/// their `+` and country code.
pub fn e164(raw: &str) -> Option<String> {
    let digits: String = raw.chars().filter(char::is_ascii_digit).collect();
    let international = raw.trim_start().starts_with('+');
    let n = match (international, digits.len()) {
        (true, 8..=15) => digits,
        (false, 10) => format!("1{digits}"),
        (false, 11) if digits.starts_with('1') => digits,
        _ => return None,
    };
    Some(format!("+{n}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_numbers() {
        assert_eq!(e164("(512) 555-0100").as_deref(), Some("+15125550100"));
        assert_eq!(e164("1-512-555-0100").as_deref(), Some("+15125550100"));
        assert_eq!(e164("+44 20 7946 0958").as_deref(), Some("+442079460958"));
        assert_eq!(e164("555-0100"), None);
        assert_eq!(e164("call me"), None);
    }
}
