//! The record timeline's words (docs/records.md): each `TimelineRow` of `Db::timeline_page` as the
//! contract's kind, a title a person reads (no ids, no snake_case), a detail and a link; and the
//! page cursor, an opaque encoding of the last item's `(at, id)`.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// What the timeline shows of one item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineText {
    pub kind: String,
    pub title: String,
    pub detail: Option<String>,
    pub link: Option<String>,
    /// When a meeting is set for (ms); the web app shows it in the reader's own time zone.
    pub scheduled_for: Option<i64>,
}

/// The fields of a `TimelineRow` that make its words.
#[derive(Debug, Clone, Default)]
pub struct TimelineEntry<'a> {
    pub kind: &'a str,
    pub text: Option<&'a str>,
    pub detail: Option<&'a str>,
    pub extra: Option<&'a str>,
    pub n: i64,
    pub ref_type: &'a str,
}

/// The longest detail shown (a note's or a text message's body).
const DETAIL_CHARS: usize = 500;

/// `new_lead` → "New lead", `closed_won` → "Won": a stored value as words.
pub fn humanize(value: &str) -> String {
    let words = match value {
        "closed_won" => "won",
        "closed_lost" => "lost",
        "no_show" => "no show",
        other => other,
    }
    .replace(['_', '-'], " ");
    let mut chars = words.trim().chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn quoted(text: Option<&str>) -> String {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        Some(t) => format!("“{t}”"),
        None => "(no subject)".into(),
    }
}

fn clip(text: Option<&str>) -> Option<String> {
    let t = text.map(str::trim).filter(|t| !t.is_empty())?;
    if t.chars().count() <= DETAIL_CHARS {
        return Some(t.to_string());
    }
    let mut out: String = t.chars().take(DETAIL_CHARS - 1).collect();
    out.push('…');
    Some(out)
}

/// The value after the last " to " of a recorded change ("... moved from a to b" → "b").
fn changed_to(description: Option<&str>) -> Option<&str> {
    let d = description?;
    d.rfind(" to ").map(|i| d[i + 4..].trim())
}

fn record_word(ref_type: &str) -> &'static str {
    match ref_type {
        "company" => "Company",
        "deal" => "Deal",
        _ => "Contact",
    }
}

fn job_words(kind: &str) -> &'static str {
    match kind {
        "ai_score" => "AI scoring",
        "contact_verify" => "Email verification",
        "contact_enrich" => "Enrichment",
        _ => "Background job",
    }
}

/// A campaign's or sequence's screen, from the link key the query gives (`campaign:<id>`,
/// `sequence:<id>`, `campaigns` for a single send).
fn mail_link(key: Option<&str>) -> Option<String> {
    let key = key?;
    if key == "campaigns" {
        return Some("/campaigns".into());
    }
    if let Some(id) = key.strip_prefix("campaign:") {
        return Some(format!("/email-campaigns?campaign={id}"));
    }
    key.strip_prefix("sequence:")
        .map(|id| format!("/email-sequences?sequence={id}"))
}

/// The contract's kind, title, detail and link of an item.
pub fn timeline_text(e: &TimelineEntry<'_>) -> TimelineText {
    let text =
        |kind: &str, title: String, detail: Option<String>, link: Option<String>| TimelineText {
            kind: kind.into(),
            title,
            detail,
            link,
            scheduled_for: None,
        };
    match e.kind {
        "company_created" | "contact_created" | "deal_created" => text(
            "created",
            format!("{} created", record_word(e.ref_type)),
            None,
            None,
        ),
        "company_updated" | "contact_updated" | "deal_updated" => text(
            "updated",
            format!("{} details updated", record_word(e.ref_type)),
            None,
            None,
        ),
        "company_status_change" | "contact_status_change" => text(
            "status_changed",
            match changed_to(e.text) {
                Some(to) => format!("Status changed to {}", humanize(to)),
                None => "Status changed".into(),
            },
            None,
            None,
        ),
        "deal_stage_change" => text(
            "stage_changed",
            match changed_to(e.text) {
                Some(to) => format!("Stage moved to {}", humanize(to)),
                None => "Stage moved".into(),
            },
            None,
            None,
        ),
        // The record is gone with its page, so no timeline reads these today; titled all the same,
        // with the description naming the record as the detail.
        "company_deleted" | "contact_deleted" | "deal_deleted" => text(
            "deleted",
            format!(
                "{} deleted",
                record_word(e.kind.trim_end_matches("_deleted"))
            ),
            clip(e.text),
            None,
        ),
        // A duplicate folded into this record (docs/merge.md): the description names it and what moved.
        "company_merged" | "contact_merged" => text(
            "merged",
            "Merged a duplicate into this record".into(),
            clip(e.text),
            None,
        ),
        "contact_converted" => text("converted", "Converted to a customer".into(), None, None),
        // Website enrichment: what the visit found is the detail.
        "company_enriched" => text(
            "enriched",
            "Enriched from its website".into(),
            clip(e.text),
            None,
        ),
        "prospect_converted" => text(
            "converted",
            "Converted from a prospect to a deal".into(),
            None,
            None,
        ),
        "email_sent" => text(
            "email_sent",
            format!("Email sent: {}", quoted(e.text)),
            clip(e.detail).map(|to| format!("To {to}")),
            mail_link(e.extra),
        ),
        "email_delivered" | "email_opened" | "email_clicked" | "email_replied"
        | "email_bounced" | "email_unsubscribed" => {
            let subject = quoted(e.text);
            let title = match e.kind {
                "email_delivered" => format!("Email delivered: {subject}"),
                "email_opened" => format!("Email opened: {subject}"),
                "email_clicked" => format!("Link clicked in {subject}"),
                "email_replied" => format!("Replied to {subject}"),
                "email_bounced" => format!("Email bounced: {subject}"),
                _ => "Unsubscribed from emails".into(),
            };
            text(e.kind, title, clip(e.detail), None)
        }
        "sms" => text(
            "sms",
            match e.text {
                Some("failed") => "Text message failed".into(),
                Some("queued" | "sending") => "Text message queued".into(),
                _ => "Text message sent".into(),
            },
            clip(e.detail),
            None,
        ),
        "call" => {
            let minutes = (e.n + 59) / 60;
            let title = match e.text {
                Some("completed") => {
                    let mut t = if e.n > 0 {
                        format!("Call completed ({minutes} min)")
                    } else {
                        "Call completed".to_string()
                    };
                    if let Some(outcome) = e.extra {
                        t.push_str(": ");
                        t.push_str(&humanize(outcome).to_lowercase());
                    }
                    t
                }
                Some("failed") => "Call failed".into(),
                Some("no_answer") => "Call not answered".into(),
                Some("scheduled") => "Call scheduled".into(),
                _ => "Call started".into(),
            };
            text("call", title, clip(e.detail), None)
        }
        "meeting" => {
            let name = quoted(e.text);
            let title = match e.detail {
                Some("completed") => format!("Meeting held: {name}"),
                Some("cancelled") => format!("Meeting cancelled: {name}"),
                Some("no_show") => format!("Meeting missed: {name}"),
                _ => format!("Meeting scheduled: {name}"),
            };
            TimelineText {
                scheduled_for: Some(e.n),
                ..text("meeting", title, None, Some("/meetings".into()))
            }
        }
        "note" => text("note", "Note added".into(), clip(e.detail), None),
        "task_created" => text(
            "task_created",
            format!("Task created: {}", quoted(e.text)),
            e.detail.map(|d| format!("Due {d}")),
            None,
        ),
        "task_done" => text(
            "task_done",
            format!("Task completed: {}", quoted(e.text)),
            None,
            None,
        ),
        "sequence_enrolled" => text(
            "sequence_enrolled",
            format!("Enrolled in sequence {}", quoted(e.text)),
            None,
            mail_link(e.extra),
        ),
        "sequence_stopped" => {
            let name = quoted(e.text);
            let (title, detail) = if e.extra == Some("completed") {
                (format!("Finished sequence {name}"), None)
            } else {
                (
                    format!("Left sequence {name}"),
                    e.detail.map(|r| humanize(r.trim())),
                )
            };
            text("sequence_stopped", title, detail, None)
        }
        "discovered" => {
            // A company keeps where its scan looked: city and state, or the region.
            let place = match (e.text, e.detail, e.extra) {
                (Some(city), Some(state), _) => Some(format!("{city}, {state}")),
                (None, Some(state), _) => Some(state.to_string()),
                (_, _, Some(region)) => Some(humanize(region)),
                _ => None,
            };
            text(
                "discovered",
                match place {
                    Some(p) => format!("Found by a discovery scan in {p}"),
                    None => "Found by a discovery scan".into(),
                },
                None,
                Some("/discovery".into()),
            )
        }
        "imported" => text("imported", "Imported from a CSV file".into(), None, None),
        "job" => {
            let what = job_words(e.text.unwrap_or(""));
            let title = match e.detail {
                Some("succeeded") => format!("{what} finished"),
                Some("failed") => format!("{what} failed"),
                Some("cancelled") => format!("{what} cancelled"),
                Some("running") => format!("{what} running"),
                _ => format!("{what} queued"),
            };
            text(
                "job",
                title,
                None,
                e.extra.map(|id| format!("/ops?job={id}")),
            )
        }
        other => text(other, humanize(other), clip(e.text), None),
    }
}

/// The opaque cursor of an item: its time and id.
pub fn cursor_encode(at: i64, id: &str) -> String {
    URL_SAFE_NO_PAD.encode(format!("{at}:{id}"))
}

/// The `(at, id)` of a cursor; `None` when it is not one.
pub fn cursor_decode(cursor: &str) -> Option<(i64, String)> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor.trim()).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let (at, id) = text.split_once(':')?;
    let at: i64 = at.parse().ok()?;
    (!id.is_empty() && id.len() <= 100).then(|| (at, id.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_refuse_garbage() {
        let c = cursor_encode(1_700_000_000_000, "em:01JABC");
        assert_eq!(
            cursor_decode(&c),
            Some((1_700_000_000_000, "em:01JABC".into()))
        );
        for bad in [
            "",
            "%%%",
            "bm90LWEtY3Vyc29y",
            &URL_SAFE_NO_PAD.encode("x:1"),
        ] {
            assert_eq!(cursor_decode(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_meeting_carries_its_time_for_the_reader_to_place() {
        let t = timeline_text(&TimelineEntry {
            kind: "meeting",
            text: Some("Showroom visit"),
            detail: Some("scheduled"),
            n: 1_796_000_000_000,
            ref_type: "contact",
            ..Default::default()
        });
        assert_eq!(t.title, "Meeting scheduled: “Showroom visit”");
        // The time goes out as a timestamp, not as words in one zone.
        assert_eq!(t.scheduled_for, Some(1_796_000_000_000));
        assert_eq!(t.detail, None);
    }

    #[test]
    fn titles_are_words() {
        let t = timeline_text(&TimelineEntry {
            kind: "contact_status_change",
            text: Some("Contact Ann Lee status changed from new_lead to meeting_scheduled"),
            ref_type: "contact",
            ..Default::default()
        });
        assert_eq!(t.kind, "status_changed");
        assert_eq!(t.title, "Status changed to Meeting scheduled");
        let t = timeline_text(&TimelineEntry {
            kind: "deal_stage_change",
            text: Some("Deal \"Spa\" moved from qualification to closed_won"),
            ref_type: "deal",
            ..Default::default()
        });
        assert_eq!(t.title, "Stage moved to Won");
        let t = timeline_text(&TimelineEntry {
            kind: "call",
            text: Some("completed"),
            extra: Some("not_interested"),
            n: 230,
            ref_type: "contact",
            ..Default::default()
        });
        assert_eq!(t.title, "Call completed (4 min): not interested");
        let t = timeline_text(&TimelineEntry {
            kind: "email_sent",
            text: Some("Hello"),
            extra: Some("campaign:01J"),
            ref_type: "contact",
            ..Default::default()
        });
        assert_eq!(t.title, "Email sent: “Hello”");
        assert_eq!(t.link.as_deref(), Some("/email-campaigns?campaign=01J"));
        let t = timeline_text(&TimelineEntry {
            kind: "company_deleted",
            text: Some("Company Acme Baths deleted"),
            ref_type: "contact",
            ..Default::default()
        });
        assert_eq!(
            (t.kind.as_str(), t.title.as_str()),
            ("deleted", "Company deleted")
        );
        assert_eq!(t.detail.as_deref(), Some("Company Acme Baths deleted"));
    }
}
