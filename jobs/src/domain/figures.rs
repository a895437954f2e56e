//! Figures as the screens show them: percentages and growth with one decimal, and the day of a
//! time. Shared by the pipeline metrics and the dashboard.

use chrono::{TimeZone, Utc};

pub const DAY_MS: i64 = 86_400_000;

/// One decimal; 0 for what is not a number (a division by zero upstream).
pub fn round1(x: f64) -> f64 {
    if x.is_finite() {
        (x * 10.0).round() / 10.0
    } else {
        0.0
    }
}

/// `part / whole` in percent with one decimal; 0 when `whole` is 0.
pub fn percent(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        0.0
    } else {
        round1(part as f64 * 100.0 / whole as f64)
    }
}

/// Growth of `current` over `previous` in percent with one decimal: 100 from nothing to something,
/// 0 from nothing to nothing.
pub fn growth(current: i64, previous: i64) -> f64 {
    match (current, previous) {
        (0, 0) => 0.0,
        (_, 0) => 100.0,
        _ => round1((current - previous) as f64 * 100.0 / previous as f64),
    }
}

/// `part / whole` in percent with one decimal, rounded in one step (`part × 1000 / whole`): the
/// email and campaign rates. 0 when nothing was sent.
pub fn rate(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        0.0
    } else {
        (part as f64 * 1000.0 / whole as f64).round() / 10.0
    }
}

/// `YYYY-MM-DD` of a time (ms since the epoch), in UTC.
pub fn day_of(ms: i64) -> String {
    Utc.timestamp_millis_opt(ms)
        .single()
        .map(|t| t.date_naive())
        .unwrap_or_default()
        .format("%Y-%m-%d")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_round_to_one_decimal() {
        assert_eq!(percent(1, 3), 33.3);
        assert_eq!(percent(2, 3), 66.7);
        assert_eq!(percent(5, 0), 0.0);
        assert_eq!(percent(3, 3), 100.0);
        assert_eq!(round1(f64::NAN), 0.0);
        assert_eq!(round1(0.05), 0.1);
        assert_eq!(rate(1, 8), 12.5);
        assert_eq!(rate(2, 3), 66.7);
        assert_eq!(rate(4, 0), 0.0);
    }

    #[test]
    fn growth_from_nothing_and_from_something() {
        assert_eq!(growth(0, 0), 0.0);
        assert_eq!(growth(7, 0), 100.0);
        assert_eq!(growth(15, 10), 50.0);
        assert_eq!(growth(10, 15), -33.3);
        assert_eq!(growth(0, 4), -100.0);
    }

    #[test]
    fn days_are_utc() {
        // 2026-03-01T23:59:59.999Z and one millisecond later.
        assert_eq!(day_of(1_772_409_599_999), "2026-03-01");
        assert_eq!(day_of(1_772_409_600_000), "2026-03-02");
    }
}
