//! The voice-agent API: `POST {VOICE_API_URL}/calls` places a call (bearer key, `Idempotency-Key`
//! = our call id, so retries after a timeout or 5xx never dial twice); status callbacks come back
//! signed to `/api/webhooks/voice` with the same `t=…,v1=…` HMAC-SHA256 scheme Stripe uses.

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;

use crate::config::VoiceSettings;
use crate::providers::http::{HttpError, HttpPolicy, send};

pub use crate::providers::stripe::verify_signature;

pub struct VoiceApi {
    settings: VoiceSettings,
    http: reqwest::Client,
    policy: HttpPolicy,
}

/// What the job asks for.
pub struct CallRequest<'a> {
    pub call_id: &'a str,
    pub to: &'a str,
    pub agent_id: &'a str,
    pub agent_name: &'a str,
    pub purpose: &'a str,
    pub callback_url: &'a str,
}

/// The provider's answer to a placed call.
#[derive(Debug, Clone, Deserialize)]
pub struct Placed {
    pub id: String,
    #[serde(default)]
    pub status: Option<String>,
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum VoiceError {
    /// Still failing after the retries (down, rate limited, timing out): the job may try later.
    #[error("voice service unavailable: {0}")]
    Unavailable(String),
    /// Refused (bad number, bad agent) or answered with something unreadable: not retried.
    #[error("voice service refused the call: {0}")]
    Refused(String),
}

impl VoiceApi {
    pub fn new(settings: VoiceSettings) -> Self {
        Self {
            settings,
            http: reqwest::Client::new(),
            policy: HttpPolicy {
                timeout: Duration::from_secs(20),
                retries: 3,
                ..HttpPolicy::default()
            },
        }
    }

    pub fn with_policy(mut self, policy: HttpPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The host the platform status shows (never the key).
    pub fn host(&self) -> Option<String> {
        url::Url::parse(&self.settings.api_url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
    }

    pub fn webhook_secret(&self) -> &str {
        self.settings.webhook_secret.expose()
    }

    pub async fn place(&self, r: &CallRequest<'_>) -> Result<Placed, VoiceError> {
        let url = format!("{}/calls", self.settings.api_url);
        let body = json!({
            "to": r.to,
            "agentId": r.agent_id,
            "agentName": r.agent_name,
            "purpose": r.purpose,
            "callbackUrl": r.callback_url,
            "metadata": {"callId": r.call_id},
        });
        let text = send(&self.policy, || {
            self.http
                .post(&url)
                .bearer_auth(self.settings.api_key.expose())
                .header("Idempotency-Key", r.call_id)
                .json(&body)
        })
        .await
        .map_err(|e| match e {
            HttpError::Status { status, body, .. } if status != 429 && status < 500 => {
                VoiceError::Refused(format!("HTTP {status}: {body}"))
            }
            other => VoiceError::Unavailable(other.to_string()),
        })?;
        let placed: Placed = serde_json::from_str(&text).map_err(|e| {
            VoiceError::Refused(format!(
                "unreadable answer ({e}): {}",
                text.chars().take(120).collect::<String>()
            ))
        })?;
        if placed.id.trim().is_empty() {
            return Err(VoiceError::Refused("the answer has no call id".into()));
        }
        Ok(placed)
    }
}
