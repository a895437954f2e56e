//! Wall-clock helpers: the database keeps times as integer milliseconds since the Unix epoch.

use chrono::{DateTime, TimeZone, Utc};

pub fn now_ms() -> i64 {
    Utc::now().timestamp_millis()
}

/// RFC 3339 text of a stored time, as the API shows it.
pub fn to_rfc3339(ms: i64) -> String {
    Utc.timestamp_millis_opt(ms)
        .single()
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true))
        .unwrap_or_default()
}

pub fn from_datetime(t: DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}
