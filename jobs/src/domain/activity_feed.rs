//! The activity feed's words and links: what a user reads for each entry of `Db::activity_feed`
//! (recorded activities, discovery scans, campaigns, batches of sends) and which screen it opens.

use serde_json::Value;

/// One entry as stored or derived (the fields of `FeedRow`).
#[derive(Debug, Clone, Default)]
pub struct FeedEntry<'a> {
    pub kind: &'a str,
    pub ref_type: Option<&'a str>,
    pub ref_id: Option<&'a str>,
    /// A recorded activity's description, a campaign's or sequence's name, a failed scan's error.
    pub name: Option<&'a str>,
    /// A batch's messages, a campaign's recipients.
    pub n: i64,
    /// A scan's payload or result (JSON), a campaign's kind (`bulk`, `single`).
    pub detail: Option<&'a str>,
}

/// What the feed shows: the sentence and the screen it links to (a path at the app's root, e.g.
/// `/discovery?job=…`; the web app adds its `/admin` prefix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedText {
    pub summary: String,
    pub link: Option<String>,
}

fn json(detail: Option<&str>) -> Value {
    detail
        .and_then(|d| serde_json::from_str(d).ok())
        .unwrap_or(Value::Null)
}

/// Where a scan looked: the company searched for, the city and state, or the region.
fn scan_target(payload: &Value) -> Option<String> {
    let text = |k: &str| {
        payload
            .get(k)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    };
    if let Some(name) = text("companyName") {
        return Some(format!("\"{name}\""));
    }
    if let Some(cs) = text("cityState") {
        return Some(cs.to_string());
    }
    match (text("city"), text("state")) {
        (Some(c), Some(s)) => return Some(format!("{c}, {s}")),
        (None, Some(s)) => return Some(s.to_string()),
        _ => {}
    }
    text("region").map(|r| {
        let mut chars = r.chars();
        chars
            .next()
            .map(|f| f.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    })
}

fn plural(n: i64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn campaign_link(kind: Option<&str>) -> String {
    if kind == Some("single") {
        "/campaigns".into()
    } else {
        "/email-campaigns".into()
    }
}

/// A closed stage as people say it: `closed_won` is "won", `closed_lost` "lost".
fn stage_words(description: &str) -> String {
    description
        .replace("closed_won", "won")
        .replace("closed_lost", "lost")
}

/// The sentence and link of an entry.
pub fn feed_text(e: &FeedEntry<'_>) -> FeedText {
    let name = e.name.unwrap_or("");
    let (summary, link) = match e.kind {
        "scan_started" => {
            let target = scan_target(&json(e.detail));
            (
                match target {
                    Some(t) => format!("Discovery scan started: {t}"),
                    None => "Discovery scan started".into(),
                },
                e.ref_id.map(|id| format!("/discovery?job={id}")),
            )
        }
        "scan_finished" => {
            let result = json(e.detail);
            let count = |k: &str| {
                result
                    .get(k)
                    .and_then(Value::as_array)
                    .map_or(0, |a| a.len() as i64)
            };
            (
                format!(
                    "Discovery scan finished: {} and {} found",
                    plural(count("companies"), "company", "companies"),
                    plural(count("contacts"), "contact", "contacts")
                ),
                e.ref_id.map(|id| format!("/discovery?job={id}")),
            )
        }
        "scan_failed" => {
            let reason: String = name.chars().take(120).collect();
            (
                if reason.is_empty() {
                    "Discovery scan failed".into()
                } else {
                    format!("Discovery scan failed: {reason}")
                },
                e.ref_id.map(|id| format!("/discovery?job={id}")),
            )
        }
        "campaign_created" => (
            format!("Campaign \"{name}\" created"),
            Some(campaign_link(e.detail)),
        ),
        "campaign_finished" => (
            format!(
                "Campaign \"{name}\" finished sending to {}",
                plural(e.n, "recipient", "recipients")
            ),
            Some(campaign_link(e.detail)),
        ),
        "emails_sent" if e.ref_type == Some("sequence") => (
            format!(
                "Sent {} for sequence \"{name}\"",
                plural(e.n, "email", "emails")
            ),
            Some("/email-sequences".into()),
        ),
        "emails_sent" => (
            format!("Sent {} for \"{name}\"", plural(e.n, "email", "emails")),
            Some(campaign_link(e.detail)),
        ),
        _ => (
            stage_words(name),
            match e.ref_type {
                Some("contact") => Some("/contacts".into()),
                Some("company") => Some("/companies".into()),
                Some("deal") => Some("/pipeline".into()),
                Some("meeting") => Some("/meetings".into()),
                _ => None,
            },
        ),
    };
    FeedText { summary, link }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(e: FeedEntry<'_>) -> (String, Option<String>) {
        let t = feed_text(&e);
        (t.summary, t.link)
    }

    #[test]
    fn scans_say_where_and_what_they_found() {
        assert_eq!(
            text(FeedEntry {
                kind: "scan_started",
                ref_id: Some("J1"),
                detail: Some(r#"{"region":"texas"}"#),
                ..FeedEntry::default()
            }),
            (
                "Discovery scan started: Texas".into(),
                Some("/discovery?job=J1".into())
            )
        );
        assert_eq!(
            text(FeedEntry {
                kind: "scan_started",
                detail: Some(r#"{"companyName":" Acme ","region":"texas"}"#),
                ..FeedEntry::default()
            })
            .0,
            "Discovery scan started: \"Acme\""
        );
        assert_eq!(
            text(FeedEntry {
                kind: "scan_finished",
                ref_id: Some("J1"),
                detail: Some(r#"{"companies":[{},{}],"contacts":[{}]}"#),
                ..FeedEntry::default()
            })
            .0,
            "Discovery scan finished: 2 companies and 1 contact found"
        );
        assert_eq!(
            text(FeedEntry {
                kind: "scan_finished",
                detail: Some("not json"),
                ..FeedEntry::default()
            })
            .0,
            "Discovery scan finished: 0 companies and 0 contacts found"
        );
        assert_eq!(
            text(FeedEntry {
                kind: "scan_failed",
                name: Some("provider down"),
                ..FeedEntry::default()
            })
            .0,
            "Discovery scan failed: provider down"
        );
    }

    #[test]
    fn sends_are_one_sentence_per_batch() {
        assert_eq!(
            text(FeedEntry {
                kind: "emails_sent",
                ref_type: Some("campaign"),
                name: Some("Spring"),
                n: 20,
                detail: Some("bulk"),
                ..FeedEntry::default()
            }),
            (
                "Sent 20 emails for \"Spring\"".into(),
                Some("/email-campaigns".into())
            )
        );
        assert_eq!(
            text(FeedEntry {
                kind: "emails_sent",
                ref_type: Some("sequence"),
                name: Some("Welcome"),
                n: 1,
                ..FeedEntry::default()
            }),
            (
                "Sent 1 email for sequence \"Welcome\"".into(),
                Some("/email-sequences".into())
            )
        );
        assert_eq!(
            text(FeedEntry {
                kind: "campaign_created",
                name: Some("Solo"),
                detail: Some("single"),
                ..FeedEntry::default()
            }),
            (
                "Campaign \"Solo\" created".into(),
                Some("/campaigns".into())
            )
        );
    }

    #[test]
    fn recorded_activities_keep_their_words_and_link_their_screen() {
        assert_eq!(
            text(FeedEntry {
                kind: "deal_stage_change",
                ref_type: Some("deal"),
                name: Some("Deal \"Big\" moved from proposal to closed_won"),
                ..FeedEntry::default()
            }),
            (
                "Deal \"Big\" moved from proposal to won".into(),
                Some("/pipeline".into())
            )
        );
        assert_eq!(
            text(FeedEntry {
                kind: "meeting_scheduled",
                ref_type: Some("meeting"),
                name: Some("Meeting booked"),
                ..FeedEntry::default()
            })
            .1,
            Some("/meetings".into())
        );
        assert_eq!(
            text(FeedEntry {
                kind: "suppression_lifted",
                name: Some("x"),
                ..FeedEntry::default()
            })
            .1,
            None
        );
    }
}
