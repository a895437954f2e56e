//! What a mailbox sync reads in an email (issue 24 §5): from the few header fields it fetches
//! first, which of our Message-IDs it answers and whether it is a delivery report; from a whole
//! message, the reply's text or the report's failure (RFC 3464: `Action: failed`, `Status`,
//! `Final-Recipient`, and the Message-ID of the message that bounced). Pure: the job does the I/O.

use mail_parser::{HeaderValue, Message, MessageParser, MimeHeaders, PartType};

/// References looked up per message (a long thread's first ones are rarely ours).
pub const MAX_REFERENCES: usize = 20;

/// What the header fields say.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderFacts {
    pub message_id: Option<String>,
    /// Message-IDs it answers: In-Reply-To first, then References, newest first, at most
    /// [`MAX_REFERENCES`].
    pub answers: Vec<String>,
    pub subject: String,
    /// `multipart/report; report-type=delivery-status`.
    pub is_delivery_report: bool,
    /// `Auto-Submitted` other than `no`, `X-Autoreply` or `X-Autorespond`.
    pub auto_reply: bool,
}

fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(l) => l.iter().map(|t| t.to_string()).collect(),
        _ => Vec::new(),
    }
}

fn facts_of(msg: &Message<'_>) -> HeaderFacts {
    let mut answers = ids(msg.in_reply_to());
    let mut refs = ids(msg.references());
    refs.reverse();
    for r in refs {
        if !answers.contains(&r) {
            answers.push(r);
        }
    }
    answers.retain(|a| !a.trim().is_empty());
    answers.truncate(MAX_REFERENCES);
    let is_delivery_report = msg.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
            && ct
                .attribute("report-type")
                .is_some_and(|t| t.eq_ignore_ascii_case("delivery-status"))
    });
    let auto_reply = msg
        .header_raw("Auto-Submitted")
        .is_some_and(|v| !v.trim().eq_ignore_ascii_case("no"))
        || msg.header_raw("X-Autoreply").is_some()
        || msg.header_raw("X-Autorespond").is_some();
    HeaderFacts {
        message_id: msg.message_id().map(str::to_string),
        answers,
        subject: msg.subject().unwrap_or_default().to_string(),
        is_delivery_report,
        auto_reply,
    }
}

/// Reads header lines (as IMAP returns `BODY[HEADER.FIELDS (...)]`).
pub fn header_facts(raw: &[u8]) -> HeaderFacts {
    MessageParser::default()
        .parse_headers(raw)
        .map(|m| facts_of(&m))
        .unwrap_or_default()
}

/// A reply's headers and text (plain text, else the HTML's text).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplyText {
    pub facts: HeaderFacts,
    pub text: String,
}

pub fn reply_text(raw: &[u8]) -> Option<ReplyText> {
    let msg = MessageParser::default().parse(raw)?;
    let text = msg.body_text(0).map(|t| t.into_owned()).unwrap_or_default();
    Some(ReplyText {
        facts: facts_of(&msg),
        text,
    })
}

/// A failed delivery, from a delivery report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryFailure {
    /// `Final-Recipient` (the address part).
    pub recipient: Option<String>,
    /// `Status`, e.g. `5.1.1`.
    pub status: Option<String>,
    pub diagnostic: Option<String>,
    /// The Message-ID of the message that bounced (from the returned message or its headers).
    pub original_message_id: Option<String>,
}

impl DeliveryFailure {
    /// A line for the event's detail: status and diagnostic.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "Delivery failed ({})",
            self.status.as_deref().unwrap_or("no status")
        );
        if let Some(d) = &self.diagnostic {
            out.push_str(": ");
            out.extend(d.chars().take(300));
        }
        out
    }
}

/// `name: value` fields of a `message/delivery-status` body, continuation lines joined, names
/// lowercased.
fn status_fields(body: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in body.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some((_, v)) = out.last_mut() {
                v.push(' ');
                v.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':') {
            out.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        }
    }
    out
}

/// `rfc822; a@b` → `a@b`.
fn typed_value(v: &str) -> String {
    v.split_once(';')
        .map_or(v, |(_, rest)| rest)
        .trim()
        .trim_matches(['<', '>'])
        .to_string()
}

/// The failure a delivery report states; `None` unless one recipient's `Action` is `failed`
/// (a delay or a relay notice is not a bounce).
pub fn delivery_failure(raw: &[u8]) -> Option<DeliveryFailure> {
    let msg = MessageParser::default().parse(raw)?;
    let mut failure: Option<DeliveryFailure> = None;
    let mut original = None;
    for part in &msg.parts {
        let Some(ct) = part.content_type() else {
            continue;
        };
        let kind = format!(
            "{}/{}",
            ct.ctype().to_ascii_lowercase(),
            ct.subtype().unwrap_or_default().to_ascii_lowercase()
        );
        match (kind.as_str(), &part.body) {
            ("message/delivery-status" | "message/global-delivery-status", _) => {
                let body = String::from_utf8_lossy(part.contents());
                let fields = status_fields(&body);
                // Per-recipient groups start at Final-Recipient; the first failed one counts.
                let mut current = DeliveryFailure::default();
                let mut failed = false;
                for (name, value) in fields {
                    match name.as_str() {
                        "final-recipient" => {
                            if failed {
                                break;
                            }
                            current = DeliveryFailure {
                                recipient: Some(typed_value(&value)),
                                ..Default::default()
                            };
                        }
                        "action" => failed = value.eq_ignore_ascii_case("failed"),
                        "status" => current.status = Some(value),
                        "diagnostic-code" => current.diagnostic = Some(typed_value(&value)),
                        _ => {}
                    }
                }
                if failed && failure.is_none() {
                    failure = Some(current);
                }
            }
            (_, PartType::Message(inner)) => {
                original = original.or_else(|| inner.message_id().map(str::to_string));
            }
            ("text/rfc822-headers" | "message/rfc822-headers", _) => {
                original = original.or_else(|| header_facts(part.contents()).message_id);
            }
            _ => {}
        }
    }
    failure.map(|f| DeliveryFailure {
        original_message_id: original,
        ..f
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn headers_of_a_reply() {
        let raw = b"Message-ID: <r1@mail.example>\r\nIn-Reply-To: <ours-1@dealers.test>\r\n\
            References: <older@x> <ours-1@dealers.test>\r\nSubject: Re: Hello\r\n\
            Auto-Submitted: auto-replied\r\n\r\n";
        let f = header_facts(raw);
        assert_eq!(f.message_id.as_deref(), Some("r1@mail.example"));
        assert_eq!(f.answers, vec!["ours-1@dealers.test", "older@x"]);
        assert_eq!(f.subject, "Re: Hello");
        assert!(f.auto_reply);
        assert!(!f.is_delivery_report);
        let plain = header_facts(b"Subject: hi\r\nAuto-Submitted: no\r\n\r\n");
        assert!(!plain.auto_reply);
        assert!(plain.answers.is_empty());
    }

    const DSN: &str = "From: MAILER-DAEMON@mx.example\r\n\
        Message-ID: <dsn-1@mx.example>\r\n\
        Subject: Undelivered Mail Returned to Sender\r\n\
        MIME-Version: 1.0\r\n\
        Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\
        \r\n\
        --B\r\n\
        Content-Type: text/plain\r\n\
        \r\n\
        Your message could not be delivered.\r\n\
        --B\r\n\
        Content-Type: message/delivery-status\r\n\
        \r\n\
        Reporting-MTA: dns; mx.example\r\n\
        \r\n\
        Final-Recipient: rfc822; gone@customer.example\r\n\
        Action: failed\r\n\
        Status: 5.1.1\r\n\
        Diagnostic-Code: smtp; 550 5.1.1 User unknown\r\n\
        \r\n\
        --B\r\n\
        Content-Type: text/rfc822-headers\r\n\
        \r\n\
        Message-ID: <ours-2@dealers.test>\r\n\
        Subject: Partnership\r\n\
        --B--\r\n";

    #[test]
    fn a_delivery_report() {
        // As IMAP returns header fields: the lines, then the blank line.
        let head = format!("{}\r\n\r\n", DSN.split("\r\n\r\n").next().unwrap());
        let f = header_facts(head.as_bytes());
        assert!(f.is_delivery_report);
        let d = delivery_failure(DSN.as_bytes()).unwrap();
        assert_eq!(d.recipient.as_deref(), Some("gone@customer.example"));
        assert_eq!(d.status.as_deref(), Some("5.1.1"));
        assert_eq!(d.diagnostic.as_deref(), Some("550 5.1.1 User unknown"));
        assert_eq!(
            d.original_message_id.as_deref(),
            Some("ours-2@dealers.test")
        );
        assert!(d.summary().contains("5.1.1"));
        // A delay is not a bounce.
        let delayed = DSN.replace("Action: failed", "Action: delayed");
        assert_eq!(delivery_failure(delayed.as_bytes()), None);
    }
}
