//! Domain rules with the seeds' messages and enumerations: no I/O. The api validates requests with
//! them and the import job validates rows with the same functions, so both say the same thing.

pub mod companies;
pub mod contacts;

/// A new entity id: a ULID that sorts after every id this process made before, so lists ordered by
/// `created_at DESC, id DESC` stay newest first within one millisecond.
pub fn new_id() -> String {
    static GENERATOR: std::sync::LazyLock<std::sync::Mutex<ulid::Generator>> =
        std::sync::LazyLock::new(|| std::sync::Mutex::new(ulid::Generator::new()));
    // A poisoned lock or an exhausted millisecond falls back to a plain (random-tailed) ULID.
    match GENERATOR.lock().ok().and_then(|mut g| g.generate().ok()) {
        Some(id) => id.to_string(),
        None => ulid::Ulid::new().to_string(),
    }
}

/// Two-letter codes of the 50 states and DC (seed 000 §5: all 50 state names map to codes).
pub const US_STATES: [&str; 51] = [
    "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
    "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM",
    "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA",
    "WV", "WI", "WY",
];

/// State names and their codes (seed 000 §5: all 50 state names map to two-letter codes).
const STATE_NAMES: [(&str, &str); 51] = [
    ("alabama", "AL"),
    ("alaska", "AK"),
    ("arizona", "AZ"),
    ("arkansas", "AR"),
    ("california", "CA"),
    ("colorado", "CO"),
    ("connecticut", "CT"),
    ("delaware", "DE"),
    ("district of columbia", "DC"),
    ("florida", "FL"),
    ("georgia", "GA"),
    ("hawaii", "HI"),
    ("idaho", "ID"),
    ("illinois", "IL"),
    ("indiana", "IN"),
    ("iowa", "IA"),
    ("kansas", "KS"),
    ("kentucky", "KY"),
    ("louisiana", "LA"),
    ("maine", "ME"),
    ("maryland", "MD"),
    ("massachusetts", "MA"),
    ("michigan", "MI"),
    ("minnesota", "MN"),
    ("mississippi", "MS"),
    ("missouri", "MO"),
    ("montana", "MT"),
    ("nebraska", "NE"),
    ("nevada", "NV"),
    ("new hampshire", "NH"),
    ("new jersey", "NJ"),
    ("new mexico", "NM"),
    ("new york", "NY"),
    ("north carolina", "NC"),
    ("north dakota", "ND"),
    ("ohio", "OH"),
    ("oklahoma", "OK"),
    ("oregon", "OR"),
    ("pennsylvania", "PA"),
    ("rhode island", "RI"),
    ("south carolina", "SC"),
    ("south dakota", "SD"),
    ("tennessee", "TN"),
    ("texas", "TX"),
    ("utah", "UT"),
    ("vermont", "VT"),
    ("virginia", "VA"),
    ("washington", "WA"),
    ("west virginia", "WV"),
    ("wisconsin", "WI"),
    ("wyoming", "WY"),
];

/// The upper-cased code of a US state given as its code or its name (`tx`, `Texas`, `new mexico`).
pub fn state_code(s: &str) -> Option<String> {
    let up = s.trim().to_ascii_uppercase();
    if US_STATES.contains(&up.as_str()) {
        return Some(up);
    }
    let name = s
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    STATE_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, code)| code.to_string())
}

/// The message for a value outside an enumeration: names every allowed value.
pub fn one_of_message(field: &str, allowed: &[&str]) -> String {
    format!("{field} must be one of: {}", allowed.join(", "))
}

/// `%text%` for a case-insensitive `LIKE ... ESCAPE '\'`: the user's `%`, `_` and `\` match literally.
pub fn like_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for ch in text.trim().to_lowercase().chars() {
        if matches!(ch, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(ch);
    }
    out.push('%');
    out
}

/// Trimmed text, `None` when empty: forms send `""` for a field left blank.
pub fn non_empty(s: Option<&str>) -> Option<String> {
    s.map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_pattern_escapes_wildcards() {
        assert_eq!(like_pattern(" Ann_a%\\ "), "%ann\\_a\\%\\\\%");
    }

    #[test]
    fn ids_increase() {
        let ids: Vec<String> = (0..100).map(|_| new_id()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn state_codes() {
        assert_eq!(state_code("tx").as_deref(), Some("TX"));
        assert_eq!(state_code("XX"), None);
        assert_eq!(state_code(" New  Mexico ").as_deref(), Some("NM"));
        assert_eq!(state_code("Texas").as_deref(), Some("TX"));
    }
}
