//! Which reply rules an inbound reply fires, and recording a reply to one of our messages, from
//! whichever way it came in (SendGrid Inbound Parse, mailbox sync). Rule kinds other than `keyword`
//! use short phrase lists: a reply is read for a few telling words, not understood.
//!
//! A reply records a `replied` event (which ends the contact's sequences), fires the reply rules
//! and writes an activity. An automatic reply (out of office: `Auto-Submitted`/`X-Autoreply`
//! headers or the phrases below) is not a person answering: it records `auto_replied`, holds the
//! contact's sequences until the return date it states (else [`OUT_OF_OFFICE_DEFAULT_DAYS`]), and
//! fires only `out_of_office` and `keyword` rules. The same reply seen twice (same Message-ID, by
//! either way in) changes nothing.

use std::sync::LazyLock;

use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use regex::Regex;
use serde_json::Value;

use crate::db::{ActivityInsert, Db, EventInsert, MessageRef, ReplyRuleRow};
use crate::mailing::{Mailing, apply_event};

const OUT_OF_OFFICE: [&str; 5] = [
    "out of office",
    "out of the office",
    "automatic reply",
    "auto-reply",
    "on vacation",
];
const UNSUBSCRIBE: [&str; 5] = [
    "unsubscribe",
    "remove me",
    "stop emailing",
    "take me off",
    "do not contact",
];
const NEGATIVE: [&str; 5] = [
    "not interested",
    "no thanks",
    "no thank you",
    "not a fit",
    "please stop",
];
const POSITIVE: [&str; 6] = [
    "interested",
    "sounds good",
    "let's talk",
    "lets talk",
    "schedule a call",
    "tell me more",
];

fn has_any(text: &str, phrases: &[&str]) -> bool {
    phrases.iter().any(|p| text.contains(p))
}

/// What kind of reply this is, by the phrase lists (negative before positive: "not interested").
pub fn classify(text: &str) -> &'static str {
    let t = text.to_lowercase();
    if has_any(&t, &OUT_OF_OFFICE) {
        "out_of_office"
    } else if has_any(&t, &UNSUBSCRIBE) {
        "unsubscribe_request"
    } else if has_any(&t, &NEGATIVE) {
        "negative_reply"
    } else if has_any(&t, &POSITIVE) {
        "positive_reply"
    } else {
        "any_reply"
    }
}

/// Whether an active rule fires for a reply with this text.
pub fn fires(rule: &ReplyRuleRow, text: &str) -> bool {
    if !rule.is_active {
        return false;
    }
    let t = text.to_lowercase();
    match rule.trigger_type.as_str() {
        "any_reply" => true,
        "keyword" => rule
            .keywords
            .0
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .any(|k| !k.trim().is_empty() && t.contains(&k.trim().to_lowercase())),
        kind => classify(&t) == kind,
    }
}

/// An out-of-office reply that names no return date holds the sequences this long.
pub const OUT_OF_OFFICE_DEFAULT_DAYS: i64 = 7;
/// A stated return date further ahead than this is not believed (a typo, a sabbatical).
const OUT_OF_OFFICE_MAX_DAYS: i64 = 120;
const DAY_MS: i64 = 86_400_000;

/// A reply as it came in.
#[derive(Debug, Clone, Default)]
pub struct InboundReply {
    /// Its own Message-ID, without angle brackets (what makes a second sighting a duplicate).
    pub message_id: Option<String>,
    pub subject: String,
    pub text: String,
    /// Marked automatic by its headers (`Auto-Submitted: auto-replied`, `X-Autoreply`).
    pub auto_reply: bool,
}

/// What recording a reply did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyOutcome {
    Replied {
        rules_fired: Vec<String>,
    },
    /// Out of office: the contact's sequences wait until `resume_at` (ms).
    OutOfOffice {
        resume_at: i64,
        rules_fired: Vec<String>,
    },
    /// Seen before: nothing changed.
    Duplicate,
}

/// Records `reply` to our message `m` (see the module's notes).
pub async fn record_reply(
    db: &Db,
    mailing: &Mailing,
    m: &MessageRef,
    reply: &InboundReply,
    now: i64,
) -> Result<ReplyOutcome, sqlx::Error> {
    let whole = format!("{}\n{}", reply.subject, reply.text);
    let out_of_office = reply.auto_reply || classify(&whole) == "out_of_office";
    let event = EventInsert {
        message_id: Some(m.id.clone()),
        campaign_id: m.campaign_id.clone(),
        contact_id: m.contact_id.clone(),
        email: Some(m.to_email.clone()),
        event_type: if out_of_office {
            "auto_replied"
        } else {
            "replied"
        }
        .into(),
        provider_event_id: reply.message_id.as_ref().map(|id| format!("inbound:{id}")),
        url: None,
        detail: Some(reply.text.chars().take(500).collect()),
        is_demo: false,
        occurred_at: now,
    };
    if !apply_event(db, mailing, &event).await? {
        return Ok(ReplyOutcome::Duplicate);
    }
    let resume_at = out_of_office.then(|| {
        return_date(&reply.text, now).unwrap_or(now + OUT_OF_OFFICE_DEFAULT_DAYS * DAY_MS)
    });
    if let (Some(until), Some(contact)) = (resume_at, &m.contact_id) {
        db.enrollments_pause_contact(contact, until, now).await?;
    }
    let mut rules_fired = Vec::new();
    for rule in db.reply_rule_list().await? {
        let applies =
            !out_of_office || matches!(rule.trigger_type.as_str(), "out_of_office" | "keyword");
        if !applies || !fires(&rule, &whole) {
            continue;
        }
        db.reply_rule_triggered(&rule.id).await?;
        if let Some(contact) = &m.contact_id {
            let mut tx = db.begin().await?;
            match rule.action.as_str() {
                "mark_responded" => {
                    tx.contact_status_set(contact, "responded", now).await?;
                }
                "create_task" | "notify" => {
                    tx.activity_insert(&ActivityInsert {
                        kind: "reply_rule_fired",
                        description: &format!(
                            "Reply rule \"{}\": {} replied",
                            rule.name, m.to_email
                        ),
                        entity_type: Some("contact"),
                        entity_id: Some(contact),
                        actor_id: None,
                    })
                    .await?;
                }
                // An automatic reply held the sequences; a rule that says stop ends them.
                "stop_sequence" if out_of_office => {
                    tx.enrollments_exit_contact(contact, "replied", now).await?;
                }
                // stop_sequence: the reply itself already ended the contact's sequences.
                _ => {}
            }
            tx.commit().await?;
        }
        rules_fired.push(rule.name);
    }
    if let Some(contact) = &m.contact_id {
        let description = match resume_at {
            Some(until) => format!(
                "{} is out of office; sequences resume {}",
                m.to_email,
                Utc.timestamp_millis_opt(until)
                    .single()
                    .map(|d| d.format("%Y-%m-%d").to_string())
                    .unwrap_or_default()
            ),
            None => format!("{} replied", m.to_email),
        };
        let mut tx = db.begin().await?;
        tx.activity_insert(&ActivityInsert {
            kind: if resume_at.is_some() {
                "email_auto_replied"
            } else {
                "email_replied"
            },
            description: &description,
            entity_type: Some("contact"),
            entity_id: Some(contact),
            actor_id: None,
        })
        .await?;
        tx.commit().await?;
    }
    Ok(match resume_at {
        Some(resume_at) => ReplyOutcome::OutOfOffice {
            resume_at,
            rules_fired,
        },
        None => ReplyOutcome::Replied { rules_fired },
    })
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// A date after "back", "return(ing)", "until", "through", "till" or "from": ISO (`2026-12-03`),
/// `December 3(rd)(, 2026)`, `3 December (2026)` or US `12/3/2026`.
static RETURN_DATE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let month = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?";
    Regex::new(&format!(
        r"(?i)\b(?:back|return|returning|until|till|through|thru|from)\b[^.\n]{{0,40}}?(?:(?P<iso>\d{{4}}-\d{{2}}-\d{{2}})|(?P<m1>{month})\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?(?:,?\s+(?P<y1>\d{{4}}))?|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m2>{month})(?:,?\s+(?P<y2>\d{{4}}))?|(?P<us>\d{{1,2}}/\d{{1,2}}/\d{{4}}))"
    ))
    .ok()
});

/// The return date an out-of-office text states (start of that day, UTC, in ms), when it names
/// one after `now` and not absurdly far ahead. A date without a year is its next occurrence.
pub fn return_date(text: &str, now: i64) -> Option<i64> {
    let re = RETURN_DATE.as_ref()?;
    let today = Utc.timestamp_millis_opt(now).single()?.date_naive();
    let head: String = text.chars().take(4000).collect();
    for c in re.captures_iter(&head) {
        let month_of = |m: &str| {
            let m = m.to_lowercase();
            MONTHS
                .iter()
                .position(|p| m.starts_with(p))
                .map(|i| i as u32 + 1)
        };
        let with_year = |y: Option<regex::Match<'_>>, month: u32, day: u32| match y {
            Some(y) => NaiveDate::from_ymd_opt(y.as_str().parse().ok()?, month, day),
            None => NaiveDate::from_ymd_opt(today.year(), month, day)
                .filter(|d| *d >= today)
                .or_else(|| NaiveDate::from_ymd_opt(today.year() + 1, month, day)),
        };
        let date = if let Some(iso) = c.name("iso") {
            NaiveDate::parse_from_str(iso.as_str(), "%Y-%m-%d").ok()
        } else if let Some(us) = c.name("us") {
            NaiveDate::parse_from_str(us.as_str(), "%m/%d/%Y").ok()
        } else if let (Some(m), Some(d)) = (c.name("m1"), c.name("d1")) {
            month_of(m.as_str())
                .zip(d.as_str().parse().ok())
                .and_then(|(month, day)| with_year(c.name("y1"), month, day))
        } else if let (Some(m), Some(d)) = (c.name("m2"), c.name("d2")) {
            month_of(m.as_str())
                .zip(d.as_str().parse().ok())
                .and_then(|(month, day)| with_year(c.name("y2"), month, day))
        } else {
            None
        };
        let Some(date) = date else { continue };
        let days = (date - today).num_days();
        if days > 0 && days <= OUT_OF_OFFICE_MAX_DAYS {
            return date
                .and_hms_opt(0, 0, 0)
                .map(|d| d.and_utc().timestamp_millis());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sqlx::types::Json;

    #[test]
    #[allow(clippy::unwrap_used)]
    fn return_dates_in_out_of_office_replies() {
        // 2026-11-27T12:00:00Z
        let now = 1_795_780_800_000;
        let day = |y, m, d| {
            NaiveDate::from_ymd_opt(y, m, d)
                .unwrap()
                .and_hms_opt(0, 0, 0)
                .unwrap()
                .and_utc()
                .timestamp_millis()
        };
        let cases = [
            (
                "I am out of the office until December 3rd.",
                Some(day(2026, 12, 3)),
            ),
            ("Back on Dec 7, 2026 - thanks", Some(day(2026, 12, 7))),
            ("I will return on 2026-12-14.", Some(day(2026, 12, 14))),
            ("Returning 4 January", Some(day(2027, 1, 4))),
            ("Away, back 12/10/2026", Some(day(2026, 12, 10))),
            ("I'm travelling with limited access to email.", None),
            // In the past, or too far ahead: not believed.
            ("Back on 2026-11-01", None),
            ("Back on 2028-01-01", None),
        ];
        for (text, want) in cases {
            assert_eq!(return_date(text, now), want, "{text}");
        }
    }

    fn rule(kind: &str, keywords: Value) -> ReplyRuleRow {
        ReplyRuleRow {
            id: "r".into(),
            name: "r".into(),
            trigger_type: kind.into(),
            keywords: Json(keywords),
            action: "stop_sequence".into(),
            times_triggered: 0,
            is_active: true,
            created_at: 0,
            updated_at: 0,
        }
    }

    #[test]
    fn rules_fire_on_their_replies() {
        assert!(fires(&rule("any_reply", json!([])), "ok"));
        assert!(fires(
            &rule("keyword", json!(["Pricing"])),
            "What is your pricing?"
        ));
        assert!(!fires(&rule("keyword", json!(["pricing"])), "Call me"));
        assert!(fires(
            &rule("negative_reply", json!([])),
            "Sorry, NOT interested."
        ));
        assert!(!fires(&rule("positive_reply", json!([])), "not interested"));
        assert!(fires(
            &rule("positive_reply", json!([])),
            "Sounds good, let's talk Tuesday"
        ));
        assert!(fires(
            &rule("out_of_office", json!([])),
            "Automatic reply: I am away"
        ));
        assert!(fires(
            &rule("unsubscribe_request", json!([])),
            "Please remove me from your list"
        ));
        let mut off = rule("any_reply", json!([]));
        off.is_active = false;
        assert!(!fires(&off, "anything"));
    }
}
