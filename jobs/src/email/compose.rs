//! One outreach message, built the way a careful sender builds it: `{{var}}` templates (escaped
//! in HTML), a text part derived from the HTML, a footer with the postal address and a working
//! unsubscribe link, RFC 8058 one-click `List-Unsubscribe` headers, optional open and click
//! tracking through signed links, and our ledger id in headers so provider events find their row.
//!
//! Errors: [`ComposeError`]; an address that does not parse is `Address`, it is never retried.

use lettre::Message;
use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use serde_json::{Map, Value};

use super::tokens::Signer;

/// Who sends, from settings.
#[derive(Debug, Clone)]
pub struct Sender {
    /// `Name <addr>` or `addr`.
    pub from: String,
    pub reply_to: Option<String>,
    /// Shown in every message's footer (CAN-SPAM).
    pub postal_address: String,
    /// Where our `/u/` and `/t/` routes are served, without a trailing slash.
    pub public_base_url: String,
    pub unsubscribe_mailto: String,
}

/// One message to build.
#[derive(Debug, Clone, Copy)]
pub struct Outgoing<'a> {
    /// Our ledger row id: in tracking tokens and the `X-Prospector-Message` header.
    pub ledger_id: &'a str,
    /// RFC 5322 Message-ID without the angle brackets.
    pub message_id: &'a str,
    pub to: &'a str,
    /// Overrides [`Sender::from`] (a campaign's own from address).
    pub from: Option<&'a str>,
    /// Template with `{{var}}` placeholders.
    pub subject: &'a str,
    /// HTML template with `{{var}}` placeholders.
    pub html: &'a str,
    pub vars: &'a Map<String, Value>,
    /// Unsubscribe list id: `all` or a campaign id.
    pub list: &'a str,
    /// Links go through our click redirect.
    pub track_clicks: bool,
    /// The 1-pixel open image (docs/email.md, "Deliverability": off unless the workspace turns it on).
    pub track_opens: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ComposeError {
    #[error("invalid address {0}: {1}")]
    Address(String, String),
    #[error("{0}")]
    Build(String),
}

const LIST_UNSUBSCRIBE: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe");
const LIST_UNSUBSCRIBE_POST: HeaderName = HeaderName::new_from_ascii_str("List-Unsubscribe-Post");
const LIST_ID: HeaderName = HeaderName::new_from_ascii_str("List-Id");
const X_PROSPECTOR_MESSAGE: HeaderName = HeaderName::new_from_ascii_str("X-Prospector-Message");
const X_SMTPAPI: HeaderName = HeaderName::new_from_ascii_str("X-SMTPAPI");

/// The merge fields every outreach message has (campaign and sequence sends, previews, tests):
/// `(name, label)`. `{{name}}` inserts one; `{{name|fallback}}` inserts `fallback` when it is empty.
pub const MERGE_FIELDS: [(&str, &str); 6] = [
    ("firstName", "First name"),
    ("lastName", "Last name"),
    ("email", "Email"),
    ("title", "Job title"),
    ("companyName", "Company name"),
    ("senderName", "Sender name"),
];

/// A contact's merge values, as the campaign ledger stores them (`vars`).
pub fn merge_vars(
    first_name: &str,
    last_name: &str,
    email: &str,
    title: Option<&str>,
    company_name: Option<&str>,
    sender_name: &str,
) -> Map<String, Value> {
    let mut vars = Map::new();
    for (key, value) in [
        ("firstName", first_name),
        ("lastName", last_name),
        ("email", email),
        ("title", title.unwrap_or_default()),
        ("companyName", company_name.unwrap_or_default()),
        ("senderName", sender_name),
    ] {
        vars.insert(key.into(), Value::String(value.to_string()));
    }
    vars
}

/// A message body as HTML: one written as HTML (starts with a tag and ends with one) is kept, a
/// plain one goes through [`text_to_html`]. The composer's bodies and the seed templates both send.
pub fn body_html(body: &str) -> String {
    let t = body.trim();
    if t.starts_with('<') && t.ends_with('>') {
        body.to_string()
    } else {
        text_to_html(body)
    }
}

/// Replaces `{{ name }}` with `vars[name]`: strings as they are, other values as JSON text,
/// missing or null as nothing; `{{ name | fallback }}` gives `fallback` where the value is empty
/// or blank. With `escape_html` the values (and fallbacks) are HTML-escaped (the template itself
/// never is). Anything that is not a placeholder is left as written.
pub fn render(template: &str, vars: &Map<String, Value>, escape_html: bool) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            return out;
        };
        let (name, fallback) = match after[..end].split_once('|') {
            Some((name, fallback)) => (name.trim(), Some(fallback.trim())),
            None => (after[..end].trim(), None),
        };
        if is_var_name(name) {
            let value = match vars.get(name) {
                None | Some(Value::Null) => String::new(),
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
            };
            let value = match fallback {
                Some(f) if value.trim().is_empty() => f.to_string(),
                _ => value,
            };
            if escape_html {
                out.push_str(&html_escape::encode_quoted_attribute(&value));
            } else {
                out.push_str(&value);
            }
            rest = &after[end + 2..];
        } else {
            // Not a placeholder: keep one brace and look again from the next character.
            out.push('{');
            rest = &rest[start + 1..];
        }
    }
    out.push_str(rest);
    out
}

fn is_var_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// A user's plain message as HTML: escaped, blank lines separate paragraphs, single line breaks
/// become `<br>`, and `http(s)://` addresses become links (so they are tracked like a template's).
pub fn text_to_html(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    text.split("\n\n")
        .map(|p| p.trim_matches('\n'))
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let lines: Vec<_> = p.split('\n').map(linkify).collect();
            format!("<p>{}</p>", lines.join("<br>\n"))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One escaped line with its web addresses as links; trailing punctuation stays outside the link.
fn linkify(line: &str) -> String {
    line.split(' ')
        .map(|word| {
            if !(word.starts_with("http://") || word.starts_with("https://")) {
                return html_escape::encode_text(word).into_owned();
            }
            let url = word.trim_end_matches(['.', ',', ';', ':', '!', '?', ')']);
            let rest = &word[url.len()..];
            format!(
                "<a href=\"{}\">{}</a>{}",
                html_escape::encode_double_quoted_attribute(url),
                html_escape::encode_text(url),
                html_escape::encode_text(rest)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a message shows its recipient: the rendered subject, HTML (footer, tracking) and text.
#[derive(Debug, Clone)]
pub struct Rendered {
    pub subject: String,
    pub html: String,
    pub text: String,
    pub unsubscribe_url: String,
    pub unsubscribe_token: String,
}

/// Renders a message's parts exactly as [`compose`] sends them (a preview shows these).
pub fn render_parts(
    sender: &Sender,
    signer: &Signer,
    out: &Outgoing,
) -> Result<Rendered, ComposeError> {
    let to = mailbox(out.to)?;
    let base = sender.public_base_url.trim_end_matches('/');
    let unsubscribe_token = signer.unsubscribe_token(to.email.as_ref(), out.list);
    let unsubscribe_url = format!("{base}/u/{unsubscribe_token}");

    // A value with a line break must not start a new header line.
    let subject = render(out.subject, out.vars, false).replace(['\r', '\n'], " ");
    let body = render(out.html, out.vars, true);
    let text = format!(
        "{}\n\n--\n{}\nUnsubscribe: {unsubscribe_url}\n",
        html_to_text(&body),
        sender.postal_address
    );

    let mut html = if out.track_clicks {
        track_links(&body, base, |url| {
            format!("{base}/t/c/{}", signer.click_token(out.ledger_id, url))
        })
    } else {
        body
    };
    let footer = format!(
        "\n<div style=\"margin-top:32px;font-size:12px;color:#666666\">\
         <p>{}</p><p><a href=\"{}\">Unsubscribe</a></p></div>",
        html_escape::encode_text(&sender.postal_address),
        html_escape::encode_double_quoted_attribute(&unsubscribe_url),
    );
    insert_before_body_end(&mut html, &footer);
    if out.track_opens {
        let pixel = format!(
            "<img src=\"{base}/t/o/{}\" width=\"1\" height=\"1\" alt=\"\">",
            signer.open_token(out.ledger_id)
        );
        insert_before_body_end(&mut html, &pixel);
    }
    Ok(Rendered {
        subject,
        html,
        text,
        unsubscribe_url,
        unsubscribe_token,
    })
}

/// Builds the message; tokens for its links come from `signer`.
pub fn compose(sender: &Sender, signer: &Signer, out: &Outgoing) -> Result<Message, ComposeError> {
    let from = mailbox(out.from.unwrap_or(&sender.from))?;
    let list_id = format!("<{}.{}>", list_label(out.list), from.email.domain());
    let to = mailbox(out.to)?;
    let Rendered {
        subject,
        html,
        text,
        unsubscribe_url,
        unsubscribe_token,
    } = render_parts(sender, signer, out)?;

    let mut builder = Message::builder()
        .from(from)
        .to(to)
        .subject(subject)
        .date_now()
        .message_id(Some(format!("<{}>", out.message_id)))
        .raw_header(HeaderValue::new(
            LIST_UNSUBSCRIBE,
            format!(
                "<{unsubscribe_url}>, <mailto:{}?subject=unsubscribe-{unsubscribe_token}>",
                sender.unsubscribe_mailto
            ),
        ))
        .raw_header(HeaderValue::new(
            LIST_UNSUBSCRIBE_POST,
            "List-Unsubscribe=One-Click".into(),
        ))
        // RFC 2919: a list that offers unsubscribing names itself (receivers and SpamAssassin
        // distrust List-Unsubscribe without it); one id per campaign, `all` for other sends.
        .raw_header(HeaderValue::new(LIST_ID, list_id))
        .raw_header(HeaderValue::new(X_PROSPECTOR_MESSAGE, out.ledger_id.into()))
        .raw_header(HeaderValue::new(
            X_SMTPAPI,
            serde_json::json!({ "unique_args": { "prospector_message_id": out.ledger_id } })
                .to_string(),
        ));
    if let Some(reply_to) = &sender.reply_to {
        builder = builder.reply_to(mailbox(reply_to)?);
    }
    builder
        .multipart(
            MultiPart::alternative()
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_PLAIN)
                        .body(text),
                )
                .singlepart(
                    SinglePart::builder()
                        .header(ContentType::TEXT_HTML)
                        .body(html),
                ),
        )
        .map_err(|e| ComposeError::Build(e.to_string()))
}

/// A list id's first label: letters, digits and hyphens only (RFC 2919's dot-atom).
fn list_label(list: &str) -> String {
    let label: String = list
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    if label.is_empty() {
        "all".into()
    } else {
        label
    }
}

fn mailbox(address: &str) -> Result<Mailbox, ComposeError> {
    address
        .trim()
        .parse()
        .map_err(|e: lettre::address::AddressError| {
            ComposeError::Address(address.to_string(), e.to_string())
        })
}

/// Puts `fragment` before the last `</body>`, or at the end when there is none.
fn insert_before_body_end(html: &mut String, fragment: &str) {
    match html.to_ascii_lowercase().rfind("</body>") {
        Some(at) => html.insert_str(at, fragment),
        None => html.push_str(fragment),
    }
}

/// Rewrites every `href` to an http(s) URL with `rewrite(decoded url)`, except links to our own
/// base URL (the unsubscribe link and links already tracked).
fn track_links(html: &str, base: &str, rewrite: impl Fn(&str) -> String) -> String {
    let lower = html.to_ascii_lowercase();
    let mut out = String::with_capacity(html.len() + 64);
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = lower[from..].find("href") {
        let at = from + found;
        from = at + 4;
        let preceded_by_space = lower[..at]
            .bytes()
            .next_back()
            .is_some_and(|b| b.is_ascii_whitespace());
        if !preceded_by_space {
            continue;
        }
        let after = lower[from..].trim_start();
        let Some(after_eq) = after.strip_prefix('=') else {
            continue;
        };
        let value_at = lower.len() - after_eq.trim_start().len();
        let Some(quote) = html[value_at..]
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
        else {
            continue;
        };
        let Some(len) = html[value_at + 1..].find(quote) else {
            continue;
        };
        let (start, end) = (value_at + 1, value_at + 1 + len);
        let url = html_escape::decode_html_entities(html[start..end].trim()).into_owned();
        let lower_url = url.to_ascii_lowercase();
        let web = lower_url.starts_with("http://") || lower_url.starts_with("https://");
        if web && !url.starts_with(&format!("{base}/")) {
            out.push_str(&html[copied..start]);
            out.push_str(&html_escape::encode_quoted_attribute(&rewrite(&url)));
            copied = end;
        }
        from = end;
    }
    out.push_str(&html[copied..]);
    out
}

/// Readable plain text from our HTML: block elements break lines, links keep their target,
/// scripts and styles vanish, entities are decoded.
fn html_to_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut links: Vec<Option<(String, usize)>> = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            push_text(&mut out, rest);
            break;
        };
        push_text(&mut out, &rest[..lt]);
        rest = &rest[lt..];
        if let Some(comment) = rest.strip_prefix("<!--") {
            rest = comment.find("-->").map_or("", |e| &comment[e + 3..]);
            continue;
        }
        let Some(gt) = tag_end(rest) else {
            push_text(&mut out, rest);
            break;
        };
        let tag = &rest[1..gt];
        rest = &rest[gt + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        match name.as_str() {
            "script" | "style" | "head" | "title" if !closing => {
                let close = format!("</{name}");
                rest = rest
                    .to_ascii_lowercase()
                    .find(&close)
                    .and_then(|at| rest[at..].find('>').map(|gt| &rest[at + gt + 1..]))
                    .unwrap_or("");
            }
            "br" => out.push('\n'),
            "p" | "div" | "table" | "tr" | "ul" | "ol" | "blockquote" | "section" | "article"
            | "header" | "footer" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "hr" => {
                out.push_str("\n\n")
            }
            "li" if !closing => out.push_str("\n- "),
            "td" | "th" if closing => out.push(' '),
            "a" if !closing => links.push(attribute(tag, "href").map(|h| (h, out.len()))),
            "a" => {
                if let Some(Some((href, at))) = links.pop() {
                    let shown = out[at..].trim();
                    let target = href.strip_prefix("mailto:").unwrap_or(&href);
                    if !shown.is_empty() && shown != target && !href.starts_with('#') {
                        out.push_str(&format!(" ({href})"));
                    } else if shown.is_empty() {
                        out.push_str(&href);
                    }
                }
            }
            _ => {}
        }
    }
    tidy(&out)
}

/// Index of the `>` that ends the tag at the start of `s`, skipping quoted attribute values.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '>') => return Some(i),
            _ => {}
        }
    }
    None
}

/// The decoded value of attribute `name` in a tag's inside text.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let lower = tag.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find(name) {
        let at = from + found;
        from = at + name.len();
        if !lower[..at].ends_with(|c: char| c.is_ascii_whitespace()) {
            continue;
        }
        let after = lower[from..].trim_start().strip_prefix('=')?;
        let value_at = lower.len() - after.trim_start().len();
        let value = &tag[value_at..];
        let raw = match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or(""),
            _ => value
                .split(|c: char| c.is_ascii_whitespace())
                .next()
                .unwrap_or(""),
        };
        return Some(html_escape::decode_html_entities(raw.trim()).into_owned());
    }
    None
}

/// Text between tags: whitespace collapsed as a browser would, entities decoded.
fn push_text(out: &mut String, raw: &str) {
    let mut collapsed = String::with_capacity(raw.len());
    for (i, word) in raw.split_ascii_whitespace().enumerate() {
        if i > 0 || raw.starts_with(|c: char| c.is_ascii_whitespace()) {
            collapsed.push(' ');
        }
        collapsed.push_str(word);
    }
    if raw.ends_with(|c: char| c.is_ascii_whitespace()) && !collapsed.is_empty() {
        collapsed.push(' ');
    }
    out.push_str(&html_escape::decode_html_entities(&collapsed));
}

/// Trims every line and keeps at most one blank line between paragraphs.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text
        .lines()
        .map(|l| l.trim_matches(|c: char| c == ' ' || c == '\t'))
    {
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use mail_parser::{HeaderValue as Parsed, MessageParser, MimeHeaders};
    use serde_json::json;

    use super::*;

    const BASE: &str = "http://127.0.0.1:8080";

    fn sender() -> Sender {
        Sender {
            from: "Prospector Team <team@prospector.example>".into(),
            reply_to: Some("replies@prospector.example".into()),
            postal_address: "1 Main St, Springfield, IL 62701 & Co".into(),
            public_base_url: BASE.into(),
            unsubscribe_mailto: "unsubscribe@prospector.example".into(),
        }
    }

    fn signer() -> Signer {
        Signer::new(b"compose test secret")
    }

    fn vars() -> Map<String, Value> {
        json!({
            "first_name": "<script>alert(1)</script>",
            "company": "Acme & Sons",
            "seats": 12,
            "missing": null,
            "slug": "a b&c",
        })
        .as_object()
        .unwrap()
        .clone()
    }

    const HTML: &str = r##"<html><body><p>Hi {{ first_name }},</p>
<p>Seats at {{company}}: {{seats}}{{missing}}{{unknown}}.</p>
<p><a href="https://example.com/pricing?x=1&amp;y=2">pricing</a>
<a class="btn" HREF='http://example.org/{{slug}}'>profile</a>
<a href="mailto:sales@example.com">mail us</a> <a href="#top">top</a></p>
</body></html>"##;

    fn outgoing<'a>(vars: &'a Map<String, Value>, track: bool) -> Outgoing<'a> {
        Outgoing {
            ledger_id: "01J9ZQ3XK8ABCDEFGHJKMNPQRS",
            message_id: "01J9ZQ3XK8ABCDEFGHJKMNPQRS@prospector.local",
            to: "Ann Smith <ann@example.com>",
            from: None,
            subject: "Hello {{first_name}} from {{ company }}",
            html: HTML,
            vars,
            list: "01J9CAMPAIGN",
            track_clicks: track,
            track_opens: track,
        }
    }

    fn raw_header(raw: &[u8], name: &str) -> String {
        let msg = MessageParser::default().parse(raw).unwrap();
        let header = msg
            .headers()
            .iter()
            .find(|h| h.name().eq_ignore_ascii_case(name))
            .unwrap_or_else(|| panic!("no {name} header"));
        let value = &raw[header.offset_start() as usize..header.offset_end() as usize];
        String::from_utf8_lossy(value)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The unsubscribe token in `https://.../u/{token}`.
    fn unsubscribe_token(url: &str) -> &str {
        url.rsplit("/u/").next().unwrap()
    }

    #[test]
    fn render_replaces_escapes_and_leaves_the_rest() {
        let v = vars();
        assert_eq!(
            render(
                "{{first_name}}|{{ company }}|{{seats}}|{{missing}}|{{nope}}",
                &v,
                false
            ),
            "<script>alert(1)</script>|Acme & Sons|12||"
        );
        assert_eq!(
            render("<b>{{first_name}}</b> {{company}}", &v, true),
            "<b>&lt;script&gt;alert(1)&lt;/script&gt;</b> Acme &amp; Sons"
        );
        assert_eq!(
            render("{{ not a var }} {{", &v, false),
            "{{ not a var }} {{"
        );
        assert_eq!(render("{{company", &v, false), "{{company");
        assert_eq!(render("{{{seats}}}", &v, false), "{12}");
        assert_eq!(render("", &v, true), "");
    }

    #[test]
    fn fallbacks_fill_empty_fields() {
        let mut v = Map::new();
        v.insert("firstName".into(), Value::String("  ".into()));
        v.insert("companyName".into(), Value::String("Acme & Co".into()));
        assert_eq!(render("Hi {{firstName|there}},", &v, false), "Hi there,");
        assert_eq!(render("Hi {{ lastName | friend }}", &v, false), "Hi friend");
        assert_eq!(
            render("{{companyName|your team}} <b>", &v, true),
            "Acme &amp; Co <b>"
        );
        assert_eq!(render("{{nothing|a & b}}", &v, true), "a &amp; b");
        // Not a field name: left as written.
        assert_eq!(render("{{ a b | c }}", &v, false), "{{ a b | c }}");
    }

    #[test]
    fn bodies_are_html_or_plain_text() {
        assert_eq!(body_html("<p>Hi</p>"), "<p>Hi</p>");
        assert_eq!(
            body_html("Hi {{firstName|there}}\n\nBye & go"),
            "<p>Hi {{firstName|there}}</p>\n<p>Bye &amp; go</p>"
        );
        let v = merge_vars("Ann", "Lee", "ann@x.test", None, Some("Acme"), "Team");
        assert_eq!(v.len(), MERGE_FIELDS.len());
        assert!(MERGE_FIELDS.iter().all(|(k, _)| v.contains_key(*k)));
    }

    #[test]
    fn text_to_html_escapes_and_keeps_lines() {
        assert_eq!(
            text_to_html("Hi <Ann> & co,\r\nline two\n\n\nNext paragraph\n"),
            "<p>Hi &lt;Ann&gt; &amp; co,<br>\nline two</p>\n<p>Next paragraph</p>"
        );
        assert_eq!(text_to_html(""), "");
        assert_eq!(
            text_to_html("See https://x.test/a?b=1&c=2. <b>now</b>"),
            "<p>See <a href=\"https://x.test/a?b=1&amp;c=2\">https://x.test/a?b=1&amp;c=2</a>. &lt;b&gt;now&lt;/b&gt;</p>"
        );
    }

    #[test]
    fn html_to_text_reads_like_the_html() {
        let text = html_to_text(
            "<style>p{color:red}</style><h1>Title</h1><p>One&nbsp;two &amp; <b>three</b></p>\
             <ul><li>a</li><li>b</li></ul><p>See <a href=\"https://x.test/?a=1&amp;b=2\">this</a><br>\
             next</p><!-- hidden --><p><a href=\"https://y.test/\">https://y.test/</a></p>",
        );
        assert_eq!(
            text,
            "Title\n\nOne\u{a0}two & three\n\n- a\n- b\n\nSee this (https://x.test/?a=1&b=2)\nnext\n\nhttps://y.test/"
        );
    }

    #[test]
    fn headers_are_all_there() {
        let v = vars();
        let msg = compose(&sender(), &signer(), &outgoing(&v, true)).unwrap();
        let raw = msg.formatted();
        let parsed = MessageParser::default().parse(&raw).unwrap();

        let from = parsed.from().unwrap().first().unwrap();
        assert_eq!(from.address(), Some("team@prospector.example"));
        assert_eq!(from.name(), Some("Prospector Team"));
        let to = parsed.to().unwrap().first().unwrap();
        assert_eq!(to.address(), Some("ann@example.com"));
        assert_eq!(
            parsed.reply_to().unwrap().first().unwrap().address(),
            Some("replies@prospector.example")
        );
        assert_eq!(
            parsed.subject(),
            Some("Hello <script>alert(1)</script> from Acme & Sons")
        );
        assert!(parsed.date().is_some());
        assert_eq!(
            parsed.message_id(),
            Some("01J9ZQ3XK8ABCDEFGHJKMNPQRS@prospector.local")
        );

        let list_unsubscribe = raw_header(&raw, "List-Unsubscribe");
        let (http, mailto) = list_unsubscribe.split_once(", ").unwrap();
        let http = http.trim_start_matches('<').trim_end_matches('>');
        assert!(http.starts_with(&format!("{BASE}/u/")), "{http}");
        let token = unsubscribe_token(http);
        let unsub = signer().verify_unsubscribe(token).unwrap();
        assert_eq!(unsub.email, "ann@example.com");
        assert_eq!(unsub.list, "01J9CAMPAIGN");
        assert_eq!(
            mailto,
            format!("<mailto:unsubscribe@prospector.example?subject=unsubscribe-{token}>")
        );
        assert_eq!(
            raw_header(&raw, "List-Unsubscribe-Post"),
            "List-Unsubscribe=One-Click"
        );
        assert_eq!(
            raw_header(&raw, "List-Id"),
            "<01j9campaign.prospector.example>"
        );
        assert_eq!(
            raw_header(&raw, "X-Prospector-Message"),
            "01J9ZQ3XK8ABCDEFGHJKMNPQRS"
        );
        let smtpapi: Value = serde_json::from_str(&raw_header(&raw, "X-SMTPAPI")).unwrap();
        assert_eq!(
            smtpapi,
            json!({"unique_args": {"prospector_message_id": "01J9ZQ3XK8ABCDEFGHJKMNPQRS"}})
        );
        assert!(
            matches!(
                parsed.header("List-Unsubscribe-Post"),
                Some(Parsed::Text(_))
            ),
            "parsed as a plain header"
        );
    }

    #[test]
    fn a_campaign_from_overrides_and_reply_to_is_optional() {
        let v = vars();
        let mut s = sender();
        s.reply_to = None;
        let mut out = outgoing(&v, false);
        out.from = Some("sales@acme.example");
        let raw = compose(&s, &signer(), &out).unwrap().formatted();
        let parsed = MessageParser::default().parse(&raw).unwrap();
        assert_eq!(
            parsed.from().unwrap().first().unwrap().address(),
            Some("sales@acme.example")
        );
        assert!(parsed.reply_to().is_none());
    }

    #[test]
    fn alternative_parts_text_first_escaped_html_and_footers() {
        let v = vars();
        let raw = compose(&sender(), &signer(), &outgoing(&v, false))
            .unwrap()
            .formatted();
        let parsed = MessageParser::default().parse(&raw).unwrap();
        let root = parsed.root_part();
        assert!(root.is_content_type("multipart", "alternative"));
        assert_eq!(parsed.parts.len(), 3);
        assert!(parsed.parts[1].is_content_type("text", "plain"));
        assert!(parsed.parts[2].is_content_type("text", "html"));

        let text = parsed.body_text(0).unwrap();
        let html = parsed.body_html(0).unwrap();
        // The text part shows values as they are; the HTML part escapes them.
        assert!(text.contains("Hi <script>alert(1)</script>,"), "{text}");
        assert!(text.contains("Seats at Acme & Sons: 12."), "{text}");
        assert!(
            html.contains("Hi &lt;script&gt;alert(1)&lt;/script&gt;,"),
            "{html}"
        );
        assert!(!html.contains("<script>"));
        assert!(html.contains("Acme &amp; Sons: 12."), "{html}");

        // Both parts carry the postal address and the same working unsubscribe link.
        assert!(
            text.contains("1 Main St, Springfield, IL 62701 & Co"),
            "{text}"
        );
        assert!(
            html.contains("1 Main St, Springfield, IL 62701 &amp; Co"),
            "{html}"
        );
        let line = text
            .lines()
            .find(|l| l.starts_with("Unsubscribe: "))
            .unwrap();
        let url = line.trim_start_matches("Unsubscribe: ");
        assert!(
            html.contains(&format!("<a href=\"{url}\">Unsubscribe</a>")),
            "{html}"
        );
        assert!(
            signer()
                .verify_unsubscribe(unsubscribe_token(url))
                .is_some()
        );
        // The footer goes inside the body.
        assert!(html.find("Unsubscribe</a>").unwrap() < html.find("</body>").unwrap());

        // Untracked: links as written, no pixel.
        assert!(html.contains("href=\"https://example.com/pricing?x=1&amp;y=2\""));
        assert!(!html.contains("/t/o/"));
        assert!(!html.contains("/t/c/"));
    }

    #[test]
    fn clicks_without_opens_rewrite_links_and_add_no_image() {
        let v = vars();
        let mut out = outgoing(&v, true);
        out.track_opens = false;
        let raw = compose(&sender(), &signer(), &out).unwrap().formatted();
        let parsed = MessageParser::default().parse(&raw).unwrap();
        let html = parsed.body_html(0).unwrap();
        assert!(html.contains("/t/c/"), "{html}");
        assert!(!html.contains("/t/o/") && !html.contains("<img"), "{html}");
    }

    #[test]
    fn tracking_rewrites_links_but_not_unsubscribe() {
        let v = vars();
        let s = signer();
        let raw = compose(&sender(), &s, &outgoing(&v, true))
            .unwrap()
            .formatted();
        let parsed = MessageParser::default().parse(&raw).unwrap();
        let html = parsed.body_html(0).unwrap();

        let same_case = html.replace("HREF=", "href=");
        let hrefs: Vec<&str> = same_case
            .split("href=")
            .skip(1)
            .map(|rest| {
                let quote = rest.chars().next().unwrap();
                rest[1..].split(quote).next().unwrap()
            })
            .collect();
        assert_eq!(hrefs.len(), 5, "{html}");
        let clicks: Vec<_> = hrefs[..2]
            .iter()
            .map(|h| {
                let token = h.strip_prefix(&format!("{BASE}/t/c/")).unwrap();
                s.verify_click(token).unwrap()
            })
            .collect();
        assert_eq!(clicks[0].url, "https://example.com/pricing?x=1&y=2");
        assert_eq!(clicks[1].url, "http://example.org/a b&c");
        assert!(
            clicks
                .iter()
                .all(|c| c.message_id == "01J9ZQ3XK8ABCDEFGHJKMNPQRS")
        );
        assert_eq!(hrefs[2], "mailto:sales@example.com");
        assert_eq!(hrefs[3], "#top");
        assert!(hrefs[4].starts_with(&format!("{BASE}/u/")), "{}", hrefs[4]);
        assert!(
            html.contains("class=\"btn\" HREF='"),
            "other attributes kept"
        );

        let pixel = format!("<img src=\"{BASE}/t/o/");
        let at = html.find(&pixel).unwrap() + pixel.len();
        let token = html[at..].split('"').next().unwrap();
        assert_eq!(
            s.verify_open(token).as_deref(),
            Some("01J9ZQ3XK8ABCDEFGHJKMNPQRS")
        );
        assert!(html.contains("width=\"1\" height=\"1\" alt=\"\">"));
        assert!(at < html.find("</body>").unwrap());

        // The text part keeps the original URLs.
        let text = parsed.body_text(0).unwrap();
        assert!(
            text.contains("pricing (https://example.com/pricing?x=1&y=2)"),
            "{text}"
        );
    }

    #[test]
    fn a_plain_message_gets_footer_and_pixel_appended() {
        let v = Map::new();
        let html = text_to_html("Hi Ann,\n\nSee https://example.com");
        let mut out = outgoing(&v, true);
        out.html = &html;
        out.subject = "Quick question";
        let raw = compose(&sender(), &signer(), &out).unwrap().formatted();
        let parsed = MessageParser::default().parse(&raw).unwrap();
        let html = parsed.body_html(0).unwrap();
        assert!(html.starts_with("<p>Hi Ann,</p>"), "{html}");
        assert!(html.contains("Unsubscribe</a>"));
        assert!(html.trim_end().ends_with("alt=\"\">"), "{html}");
        let text = parsed.body_text(0).unwrap().replace("\r\n", "\n");
        assert!(
            text.starts_with("Hi Ann,\n\nSee https://example.com\n\n--\n"),
            "{text:?}"
        );
    }

    #[test]
    fn invalid_addresses_are_address_errors() {
        let v = vars();
        let mut out = outgoing(&v, false);
        out.to = "not an address";
        assert!(matches!(
            compose(&sender(), &signer(), &out),
            Err(ComposeError::Address(a, _)) if a == "not an address"
        ));
        let mut out = outgoing(&v, false);
        out.from = Some("nobody@");
        assert!(matches!(
            compose(&sender(), &signer(), &out),
            Err(ComposeError::Address(a, _)) if a == "nobody@"
        ));
        let mut s = sender();
        s.reply_to = Some("@example.com".into());
        assert!(matches!(
            compose(&s, &signer(), &outgoing(&v, false)),
            Err(ComposeError::Address(..))
        ));
    }

    #[test]
    fn subject_values_cannot_add_headers() {
        let v = json!({ "name": "x\r\nBcc: evil@example.com" })
            .as_object()
            .unwrap()
            .clone();
        let mut out = outgoing(&v, false);
        out.subject = "Hi {{name}}";
        let raw = compose(&sender(), &signer(), &out).unwrap().formatted();
        let parsed = MessageParser::default().parse(&raw).unwrap();
        assert!(parsed.bcc().is_none());
        assert_eq!(parsed.subject(), Some("Hi x  Bcc: evil@example.com"));
    }
}
