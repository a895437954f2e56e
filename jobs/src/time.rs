//! Wall-clock helpers: the database keeps times as integer milliseconds since the Unix epoch.

use chrono::{DateTime, TimeZone, Utc};

/// The time sequences run by: the wall clock plus an offset that tests move forward (a sequence's
/// two-day delay is tested by advancing the clock, not by waiting).
#[derive(Debug, Default)]
pub struct Clock {
    offset_ms: std::sync::atomic::AtomicI64,
}

impl Clock {
    pub fn now_ms(&self) -> i64 {
        now_ms() + self.offset_ms.load(std::sync::atomic::Ordering::Acquire)
    }
    pub fn advance(&self, by: std::time::Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.offset_ms
            .fetch_add(ms, std::sync::atomic::Ordering::AcqRel);
    }
}

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

/// Whole days from a `dYYYYMMDD` window to another; 0 when unknown.
pub fn days_between(first: Option<&str>, day_key: &str) -> i64 {
    let parse =
        |k: &str| chrono::NaiveDate::parse_from_str(k.trim_start_matches('d'), "%Y%m%d").ok();
    match (first.and_then(parse), parse(day_key)) {
        (Some(a), Some(b)) => (b - a).num_days().max(0),
        _ => 0,
    }
}
