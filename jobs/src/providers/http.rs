//! Outbound HTTP for every provider: a timeout on each attempt, retries with jittered exponential
//! backoff (backon) on 429, 5xx, timeouts and connection errors, `Retry-After` honoured (capped), and
//! a cap on the answer's size, enforced while it is read (an outside service is not trusted with
//! this process' memory).

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
    /// The largest answer read; a bigger one is refused unread.
    pub max_body: usize,
}

impl Default for HttpPolicy {
    fn default() -> Self {
        Self {
            timeout: Duration::from_secs(60),
            retries: 3,
            min_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            max_body: 8 * 1024 * 1024,
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
    #[error("answer larger than {} MB", .0 / 1024 / 1024)]
    TooLarge(usize),
}

impl HttpError {
    /// Worth another try: rate limits, server errors, timeouts, connection trouble.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Status { status, .. } => *status == 429 || *status >= 500,
            Self::Timeout(_) | Self::Transport(_) => true,
            Self::TooLarge(_) => false,
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

fn transport(e: &reqwest::Error, timeout: Duration) -> HttpError {
    if e.is_timeout() {
        HttpError::Timeout(timeout)
    } else {
        HttpError::Transport(e.to_string())
    }
}

/// The answer's body as text, read a chunk at a time up to `policy.max_body`.
async fn read_capped(mut res: reqwest::Response, policy: &HttpPolicy) -> Result<String, HttpError> {
    let too_large = HttpError::TooLarge(policy.max_body);
    if res
        .content_length()
        .is_some_and(|n| n > policy.max_body as u64)
    {
        return Err(too_large);
    }
    let mut body = Vec::new();
    while let Some(chunk) = res
        .chunk()
        .await
        .map_err(|e| transport(&e, policy.timeout))?
    {
        if body.len() + chunk.len() > policy.max_body {
            return Err(too_large);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&body).into_owned())
}

/// Sends the request `build` makes (once per attempt) and returns the body of a 2xx answer.
pub async fn send(
    policy: &HttpPolicy,
    build: impl Fn() -> reqwest::RequestBuilder,
) -> Result<String, HttpError> {
    let attempt = || async {
        let res = build()
            .timeout(policy.timeout)
            .send()
            .await
            .map_err(|e| transport(&e, policy.timeout))?;
        let status = res.status();
        let retry_after = parse_retry_after(res.headers());
        let body = read_capped(res, policy).await?;
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
