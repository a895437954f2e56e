//! Companies: statuses (seed 000 §4, 001 §4), score bands (seed 001 §9) and revenue as whole dollars.

use serde_json::Value;

pub const STATUSES: [&str; 7] = [
    "discovered",
    "prospect",
    "qualified",
    "contacted",
    "interested",
    "partner",
    "not_interested",
];

pub const NAME_REQUIRED: &str = "Company name is required";

pub fn is_status(s: &str) -> bool {
    STATUSES.contains(&s)
}

pub const SCORE_BANDS: [&str; 3] = ["high", "medium", "low"];

/// Inclusive score range of a band: high 80+, medium 60–79, low below 60.
pub fn score_band(band: &str) -> Option<(i32, i32)> {
    match band {
        "high" => Some((80, 100)),
        "medium" => Some((60, 79)),
        "low" => Some((0, 59)),
        _ => None,
    }
}

/// Description length in the customer report (seed 000 §9).
pub const REPORT_DESCRIPTION_CHARS: i64 = 200;
/// Contacts listed per company card in the report.
pub const REPORT_CONTACTS: i64 = 3;

/// Revenue as sent by the edit dialog: a JSON number of dollars (a digit string is accepted too, as
/// the API shows revenue that way), or null. Stored as whole dollars: a fraction, a negative or an
/// absurd amount is refused rather than rounded.
pub fn revenue_dollars(v: &Value) -> Result<Option<i64>, String> {
    const MSG: &str =
        "revenue must be a whole, non-negative number of dollars (e.g. 5000000 for $5M)";
    let capped = |n: i64| {
        if n > super::MAX_DOLLARS {
            Err(format!(
                "revenue must be at most {} dollars",
                super::MAX_DOLLARS
            ))
        } else {
            Ok(Some(n))
        }
    };
    match v {
        Value::Null => Ok(None),
        Value::String(s) if s.trim().is_empty() => Ok(None),
        Value::String(s) => {
            let t = s.trim();
            // More digits than the cap has is over it, leading zeros or not.
            if t.trim_start_matches('+').len() > super::MAX_DOLLARS_DIGITS {
                return capped(i64::MAX);
            }
            t.parse::<i64>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| MSG.to_string())
                .and_then(capped)
        }
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                return if i >= 0 { capped(i) } else { Err(MSG.into()) };
            }
            match n.as_f64() {
                // 2^53: beyond it an f64 no longer holds every whole number.
                Some(f) if f >= 0.0 && f.fract() == 0.0 && f < 9_007_199_254_740_992.0 => {
                    capped(f as i64)
                }
                _ => Err(MSG.into()),
            }
        }
        _ => Err(MSG.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn revenue() {
        assert_eq!(revenue_dollars(&json!(5000000)), Ok(Some(5_000_000)));
        assert_eq!(revenue_dollars(&json!(5000000.0)), Ok(Some(5_000_000)));
        assert_eq!(revenue_dollars(&json!("42")), Ok(Some(42)));
        assert_eq!(revenue_dollars(&json!(null)), Ok(None));
        assert!(revenue_dollars(&json!(-1)).is_err());
        assert!(revenue_dollars(&json!(10.5)).is_err());
        assert!(revenue_dollars(&json!(10.005)).is_err());
        assert!(revenue_dollars(&json!(true)).is_err());
        // Capped, so the sums of every company's revenue cannot overflow.
        assert_eq!(
            revenue_dollars(&json!(999_999_999_999_i64)),
            Ok(Some(999_999_999_999))
        );
        assert!(revenue_dollars(&json!(1_000_000_000_000_i64)).is_err());
        assert!(revenue_dollars(&json!("0000000000001")).is_err());
    }

    #[test]
    fn bands() {
        assert_eq!(score_band("medium"), Some((60, 79)));
        assert_eq!(score_band("x"), None);
    }
}
