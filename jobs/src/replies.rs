//! Which reply rules an inbound reply fires. Rule kinds other than `keyword` use short phrase lists:
//! a reply is read for a few telling words, not understood.

use serde_json::Value;

use crate::db::ReplyRuleRow;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use sqlx::types::Json;

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
