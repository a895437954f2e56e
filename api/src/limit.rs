//! Per-key rate limits (governor) for the public calls: login attempts and lead-form submissions.

use std::net::SocketAddr;

use axum::extract::ConnectInfo;
use axum::http::request::Parts;
use governor::DefaultKeyedRateLimiter;
use governor::clock::{Clock, DefaultClock};

use crate::error::{ApiError, ApiResult};

/// The client's address as the socket saw it (no proxy headers are trusted).
pub(crate) fn client_ip(parts: &Parts) -> String {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// Takes one unit of `key`'s quota, or answers 429 with `Retry-After`.
pub(crate) fn rate_limit(
    limiter: &DefaultKeyedRateLimiter<String>,
    key: String,
    what: &str,
) -> ApiResult<()> {
    limiter.check_key(&key).map_err(|not_until| {
        let secs = not_until
            .wait_time_from(DefaultClock::default().now())
            .as_secs()
            + 1;
        ApiError::TooManyRequests {
            message: format!("Too many {what}. Try again in {secs} seconds."),
            retry_after: secs,
        }
    })
}
