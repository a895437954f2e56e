//! Sending windows: the weekdays and local hours in which a sequence's messages may go out, in the
//! recipient's time zone when known (from their company's state), else the sender's. A step due
//! outside the window waits for its next opening; nothing is dropped.

use chrono::{DateTime, Datelike, Duration, LocalResult, NaiveDate, NaiveTime, TimeZone, Weekday};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};
use serde_json::Value;

const DAYS: [(&str, Weekday); 7] = [
    ("mon", Weekday::Mon),
    ("tue", Weekday::Tue),
    ("wed", Weekday::Wed),
    ("thu", Weekday::Thu),
    ("fri", Weekday::Fri),
    ("sat", Weekday::Sat),
    ("sun", Weekday::Sun),
];

/// As stored and sent: `{"days":["tue","wed","thu"],"start":"10:00","end":"14:00","timezone":"America/Chicago"}`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Stored {
    days: Vec<String>,
    start: String,
    end: String,
    /// The sender's zone, used when the recipient's is unknown.
    timezone: String,
}

/// A parsed, valid window.
#[derive(Debug, Clone)]
pub struct SendingWindow {
    days: Vec<Weekday>,
    start: NaiveTime,
    end: NaiveTime,
    sender_tz: Tz,
}

impl SendingWindow {
    /// Checks a window as sent by a client; the message names what is wrong.
    pub fn parse(v: &Value) -> Result<Self, String> {
        let s: Stored = serde_json::from_value(v.clone())
            .map_err(|e| format!("sendingWindow needs days, start, end and timezone ({e})"))?;
        if s.days.is_empty() {
            return Err("sendingWindow.days needs at least one day".into());
        }
        let days = s
            .days
            .iter()
            .map(|d| {
                DAYS.iter()
                    .find(|(name, _)| d.eq_ignore_ascii_case(name))
                    .map(|(_, w)| *w)
                    .ok_or_else(|| format!("sendingWindow.days: '{d}' is not one of mon, tue, wed, thu, fri, sat, sun"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let time = |field: &str, t: &str| {
            NaiveTime::parse_from_str(t, "%H:%M")
                .map_err(|_| format!("sendingWindow.{field} must be a time as HH:MM"))
        };
        let start = time("start", &s.start)?;
        let end = time("end", &s.end)?;
        if end <= start {
            return Err("sendingWindow.end must be after sendingWindow.start".into());
        }
        let sender_tz: Tz = s.timezone.parse().map_err(|_| {
            format!(
                "sendingWindow.timezone: '{}' is not a known time zone",
                s.timezone
            )
        })?;
        Ok(Self {
            days,
            start,
            end,
            sender_tz,
        })
    }

    /// `now` when it is inside the window for the recipient, else the window's next opening (ms).
    pub fn next_open(&self, now_ms: i64, recipient_state: Option<&str>) -> i64 {
        let tz = recipient_state
            .and_then(state_time_zone)
            .unwrap_or(self.sender_tz);
        let Some(now) = DateTime::from_timestamp_millis(now_ms) else {
            return now_ms;
        };
        let today = now.with_timezone(&tz).date_naive();
        for offset in 0..8 {
            let day = today + Duration::days(offset);
            if !self.days.contains(&day.weekday()) {
                continue;
            }
            let (open, close) = (at(tz, day, self.start), at(tz, day, self.end));
            if now_ms < open {
                return open;
            }
            if now_ms < close {
                return now_ms;
            }
        }
        now_ms
    }
}

/// Two-digit numbers `lo..=hi`, zero-padded, as a regex alternation (`0[5-9]|1[0-2]`).
fn two_digits(lo: u32, hi: u32) -> String {
    (lo / 10..=hi / 10)
        .map(|tens| {
            let from = if tens == lo / 10 { lo % 10 } else { 0 };
            let to = if tens == hi / 10 { hi % 10 } else { 9 };
            format!("{tens}[{from}-{to}]")
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// A window as [`SendingWindow::parse`] takes it: days (any case), `HH:MM` times (zero-padded: what
/// the document admits of `%H:%M`) and a time zone's name (`chrono_tz`'s). That the end is after
/// the start is said as: the end's hour is later (some hour the start is before and the end is
/// not), or the hours are the same and the end's minute is later (likewise).
impl utoipa::PartialSchema for SendingWindow {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, ArrayBuilder, SchemaType};
        use utoipa::openapi::{ObjectBuilder, Type};
        let text = |pattern: String| {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(pattern))
        };
        let day = DAYS
            .iter()
            .map(|(name, _)| {
                name.chars()
                    .map(|c| format!("[{c}{}]", c.to_ascii_uppercase()))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("|");
        let time = || {
            text(format!("^({}):({})$", two_digits(0, 23), two_digits(0, 59)))
                .description(Some("HH:MM, 24-hour."))
        };
        let zones: Vec<&str> = chrono_tz::TZ_VARIANTS.iter().map(|tz| tz.name()).collect();
        let shape = ObjectBuilder::new()
            .property(
                "days",
                ArrayBuilder::new()
                    .items(text(format!("^({day})$")))
                    .min_items(Some(1)),
            )
            .required("days")
            .property("start", time())
            .required("start")
            .property(
                "end",
                time().description(Some("HH:MM, 24-hour; after start.")),
            )
            .required("end")
            .property(
                "timezone",
                crate::domain::one_of_schema(&zones)
                    .description(Some("The sender's time zone (an IANA name).")),
            )
            .required("timezone")
            .additional_properties(Some(
                utoipa::openapi::schema::AdditionalProperties::FreeForm(false),
            ));
        let apart = |start: String, end: String| {
            ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .property("start", text(start))
                .property("end", text(end))
        };
        let hour_before = (1..=23).map(|h| {
            apart(
                format!("^({}):", two_digits(0, h - 1)),
                format!("^({}):", two_digits(h, 23)),
            )
        });
        let same_hour = (0..=23).fold(AnyOfBuilder::new(), |any, h| {
            any.item(apart(format!("^{h:02}:"), format!("^{h:02}:")))
        });
        let minute_before = (1..=59).fold(AnyOfBuilder::new(), |any, m| {
            any.item(apart(
                format!(":({})$", two_digits(0, m - 1)),
                format!(":({})$", two_digits(m, 59)),
            ))
        });
        let ordered = hour_before
            .fold(AnyOfBuilder::new(), |any, branch| any.item(branch))
            .item(AllOfBuilder::new().item(same_hour).item(minute_before));
        AllOfBuilder::new()
            .item(shape)
            .item(ordered)
            .description(Some(
                "When messages may go out: on these days, from start to end in the recipient's \
                 time zone when known, else the sender's.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for SendingWindow {}

/// A local time on a day as UTC ms; a time skipped by a clock change moves to the hour after.
fn at(tz: Tz, day: NaiveDate, time: NaiveTime) -> i64 {
    let local = day.and_time(time);
    match tz.from_local_datetime(&local) {
        LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => t.timestamp_millis(),
        LocalResult::None => tz
            .from_local_datetime(&(local + Duration::hours(1)))
            .earliest()
            .map_or(local.and_utc().timestamp_millis(), |t| t.timestamp_millis()),
    }
}

/// The main time zone of a US state (two-letter code).
pub fn state_time_zone(state: &str) -> Option<Tz> {
    use chrono_tz::America as A;
    use chrono_tz::Pacific;
    let tz = match state.to_ascii_uppercase().as_str() {
        "CT" | "DE" | "DC" | "FL" | "GA" | "IN" | "KY" | "ME" | "MD" | "MA" | "MI" | "NH"
        | "NJ" | "NY" | "NC" | "OH" | "PA" | "RI" | "SC" | "VT" | "VA" | "WV" => A::New_York,
        "AL" | "AR" | "IL" | "IA" | "KS" | "LA" | "MN" | "MS" | "MO" | "NE" | "ND" | "OK"
        | "SD" | "TN" | "TX" | "WI" => A::Chicago,
        "CO" | "ID" | "MT" | "NM" | "UT" | "WY" => A::Denver,
        "AZ" => A::Phoenix,
        "CA" | "NV" | "OR" | "WA" => A::Los_Angeles,
        "AK" => A::Anchorage,
        "HI" => Pacific::Honolulu,
        _ => return None,
    };
    Some(tz)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ms(s: &str) -> i64 {
        DateTime::parse_from_rfc3339(s)
            .map(|t| t.timestamp_millis())
            .unwrap_or_default()
    }

    /// The seed's guidance: Tuesday to Thursday, 10 AM to 2 PM.
    fn guidance(tz: &str) -> SendingWindow {
        let days = ["tue", "wed", "thu"];
        SendingWindow::parse(
            &json!({ "days": days, "start": "10:00", "end": "14:00", "timezone": tz }),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn inside_the_window_sends_now() {
        // Wednesday 2026-11-25 11:00 in Chicago (UTC-6).
        let now = ms("2026-11-25T17:00:00Z");
        assert_eq!(guidance("America/Chicago").next_open(now, None), now);
    }

    #[test]
    fn outside_waits_for_the_next_opening_in_the_recipients_zone() {
        let w = guidance("America/Los_Angeles");
        // Sunday 2026-11-22 08:00 UTC → Tuesday 10:00 in New York (UTC-5) for a Florida company.
        let now = ms("2026-11-22T08:00:00Z");
        assert_eq!(w.next_open(now, Some("FL")), ms("2026-11-24T15:00:00Z"));
        // Unknown state: the sender's zone (Los Angeles, UTC-8).
        assert_eq!(w.next_open(now, Some("??")), ms("2026-11-24T18:00:00Z"));
        // Thursday after 14:00 in Texas → next Tuesday 10:00.
        let late = ms("2026-11-26T20:30:00Z");
        assert_eq!(w.next_open(late, Some("tx")), ms("2026-12-01T16:00:00Z"));
        // Tuesday before opening → the same day.
        let early = ms("2026-11-24T13:00:00Z");
        assert_eq!(w.next_open(early, Some("TX")), ms("2026-11-24T16:00:00Z"));
    }

    #[test]
    fn daylight_saving_is_followed() {
        // Tuesday 2026-07-07: Chicago is UTC-5 in summer.
        let w = guidance("America/Chicago");
        assert_eq!(
            w.next_open(ms("2026-07-07T12:00:00Z"), None),
            ms("2026-07-07T15:00:00Z")
        );
    }

    #[test]
    fn bad_windows_are_refused_with_a_reason() {
        let bad = |v: Value| SendingWindow::parse(&v).err().unwrap_or_default();
        let base = json!({ "days": ["tue"], "start": "10:00", "end": "14:00", "timezone": "UTC" });
        assert!(SendingWindow::parse(&base).is_ok());
        let with = |k: &str, v: Value| {
            let mut b = base.clone();
            b[k] = v;
            b
        };
        assert!(bad(with("days", json!([]))).contains("at least one day"));
        assert!(bad(with("days", json!(["funday"]))).contains("'funday'"));
        assert!(bad(with("start", json!("25:00"))).contains("HH:MM"));
        assert!(bad(with("end", json!("09:00"))).contains("after"));
        assert!(bad(with("timezone", json!("Mars/Base"))).contains("Mars/Base"));
        assert!(bad(json!({ "days": ["tue"] })).contains("needs"));
    }

    thread_local! {
        static PATTERNS: std::cell::RefCell<std::collections::HashMap<String, regex::Regex>> =
            Default::default();
    }

    /// Whether `v` is valid against `schema`, for the keywords the window's schema uses.
    fn admits(schema: &Value, v: &Value) -> bool {
        let Some(o) = schema.as_object() else {
            panic!("not a schema: {schema}")
        };
        let all = |k: &str| o.get(k).and_then(Value::as_array).into_iter().flatten();
        let typed = match o.get("type").and_then(Value::as_str) {
            Some("object") => v.is_object(),
            Some("string") => v.is_string(),
            Some("array") => v.is_array(),
            _ => true,
        };
        let pattern = o.get("pattern").and_then(Value::as_str).is_none_or(|p| {
            v.as_str().is_none_or(|t| {
                PATTERNS.with_borrow_mut(|compiled| {
                    compiled
                        .entry(p.to_string())
                        .or_insert_with(|| regex::Regex::new(p).unwrap_or_else(|e| panic!("{e}")))
                        .is_match(t)
                })
            })
        });
        let listed = o
            .get("enum")
            .and_then(Value::as_array)
            .is_none_or(|e| e.contains(v));
        let items = o.get("items").is_none_or(|i| {
            v.as_array().is_none_or(|a| {
                a.len() as u64 >= o.get("minItems").and_then(Value::as_u64).unwrap_or(0)
                    && a.iter().all(|x| admits(i, x))
            })
        });
        let fields = v.as_object().is_none_or(|m| {
            let props = o.get("properties").and_then(Value::as_object);
            all("required").all(|r| r.as_str().is_some_and(|r| m.contains_key(r)))
                && m.iter().all(|(k, x)| match props.and_then(|p| p.get(k)) {
                    Some(s) => admits(s, x),
                    None => o.get("additionalProperties") != Some(&json!(false)),
                })
        });
        let any = o.get("anyOf").is_none() || all("anyOf").any(|s| admits(s, v));
        typed && pattern && listed && items && fields && any && all("allOf").all(|s| admits(s, v))
    }

    /// The document's window is the parser's: the same times (every 7 minutes, both ways round),
    /// days and zones are taken and refused.
    #[test]
    fn the_schema_takes_what_parse_takes() {
        let schema = serde_json::to_value(<SendingWindow as utoipa::PartialSchema>::schema())
            .unwrap_or_else(|e| panic!("{e}"));
        let window = |days: Value, start: &str, end: &str, tz: &str| json!({ "days": days, "start": start, "end": end, "timezone": tz });
        let times: Vec<String> = (0..24 * 60)
            .step_by(7)
            .map(|m| format!("{:02}:{:02}", m / 60, m % 60))
            .collect();
        for start in times.iter().step_by(5) {
            for end in &times {
                let w = window(json!(["Mon", "fri"]), start, end, "America/Chicago");
                assert_eq!(admits(&schema, &w), SendingWindow::parse(&w).is_ok(), "{w}");
            }
        }
        for w in [
            window(json!([]), "09:00", "10:00", "UTC"),
            window(json!(["funday"]), "09:00", "10:00", "UTC"),
            window(json!(["SUN"]), "09:00", "09:01", "Europe/Paris"),
            window(json!(["sun"]), "09:00", "10:00", "Mars/Base"),
            json!({ "days": ["sun"], "start": "09:00", "end": "10:00" }),
        ] {
            assert_eq!(admits(&schema, &w), SendingWindow::parse(&w).is_ok(), "{w}");
        }
    }
}
