//! Outbound HTTP for every provider: a timeout on each attempt, retries with jittered exponential
//! backoff (backon) on 429, 5xx, timeouts and connection errors, and `Retry-After` honoured (capped).

use std::time::Duration;

use backon::{ExponentialBuilder, Retryable};
use reqwest::StatusCode;

/// Retry and timeout policy of one outside service.
#[derive(Debug, Clone)]
pub struct HttpPolicy {
    pub timeout: Duration,
    /// Retries after the first attempt.
    pub retries: usize,
    pub min_delay: Duration,
    pub max_delay: Duration,
}

impl Default for HttpPolicy {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(60),
            retries: 3,
            min_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
        }
    }
}

#[derive(Debug, Clone, thiserror::Error)]
pub enum HttpError {
    #[error("HTTP {status}: {body}")]
    Status {
        status: u16,
        retry_after: Option<Duration>,
        body: String,
    },
    #[error("request timed out after {0:?}")]
    Timeout(Duration),
    #[error("request failed: {0}")]
    Transport(String),
}

impl HttpError {
    /// Worth another try: rate limits, server errors, timeouts, connection trouble.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Status { status, .. } => *status == 429 || *status >= 500,
            Self::Timeout(_) | Self::Transport(_) => true,
        }
    }

    fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

/// `Retry-After` in seconds (the HTTP-date form is treated as absent).
pub(crate) fn parse_retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .map(Duration::from_secs)
}

/// Sends the request `build` makes (once per attempt) and returns the body of a 2xx answer.
pub async fn send(
    policy: &HttpPolicy,
    build: impl Fn() -> reqwest::RequestBuilder,
) -> Result<String, HttpError> {
    let attempt = || async {
        let res = build().timeout(policy.timeout).send().await.map_err(|e| {
            if e.is_timeout() {
                HttpError::Timeout(policy.timeout)
            } else {
                HttpError::Transport(e.to_string())
            }
        })?;
        let status = res.status();
        let retry_after = parse_retry_after(res.headers());
        let body = res.text().await.map_err(|e| {
            if e.is_timeout() {
                HttpError::Timeout(policy.timeout)
            } else {
                HttpError::Transport(e.to_string())
            }
        })?;
        if status.is_success() {
            Ok(body)
        } else {
            // Bodies of errors can be long HTML pages; a line is enough to say what went wrong.
            let body: String = body.chars().take(300).collect();
            Err(HttpError::Status {
                status: status.as_u16(),
                retry_after: (status == StatusCode::TOO_MANY_REQUESTS)
                    .then_some(retry_after)
                    .flatten(),
                body,
            })
        }
    };
    let backoff = ExponentialBuilder::default()
        .with_jitter()
        .with_min_delay(policy.min_delay)
        .with_max_delay(policy.max_delay)
        .with_max_times(policy.retries);
    let max = policy.max_delay;
    attempt
        .retry(backoff)
        .when(HttpError::is_transient)
        // `None` means the retries are spent: keep it so, whatever the server asks.
        .adjust(move |e, delay| delay.map(|d| e.retry_after().map_or(d, |ra| ra.min(max))))
        .await
}
