//! Outbound webhooks (issue 24 §4, docs/webhooks.md): the event catalogue, the rules an endpoint's
//! URL must meet, which addresses a delivery may reach, the retry schedule and Standard Webhooks
//! signing. Pure: the SQL is `db::webhooks`, the HTTP `providers::webhooks`, the job
//! `kinds::webhook_deliver`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use rand::Rng;
use sha2::Sha256;

/// The job kind that sends one delivery (its stable name: never rename).
pub const DELIVER_KIND: &str = "webhook_deliver";
/// Attempts of one delivery: the first and 7 retries, about a day apart in all (see [`retry_delay`]).
/// `JOB_MAX_ATTEMPTS=webhook_deliver=n` may lower it, not raise it.
pub const MAX_ATTEMPTS: i32 = 8;
/// Deliveries in a row that failed all their attempts before the endpoint is disabled.
pub const DISABLE_AFTER_FAILURES: i32 = 5;
/// One POST's limit, from connecting to the last byte read.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// Bytes of a receiver's answer kept for the deliveries screen.
pub const RESPONSE_KEPT: usize = 4096;
/// The longest an endpoint's URL may be.
pub const MAX_URL_CHARS: usize = 2000;
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// Endpoints one install may register.
pub const MAX_ENDPOINTS: i64 = 50;
/// The longest wait a receiver's `Retry-After` can ask for.
pub const MAX_RETRY_AFTER: Duration = Duration::from_secs(3600);
/// The event an admin sends from the screen; no endpoint subscribes to it.
pub const TEST_EVENT: &str = "webhook.test";

/// One kind of event: its stable name (the body's `type`), what the screen calls it, its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventType {
    pub name: &'static str,
    pub label: &'static str,
    pub group: &'static str,
}

const fn event(name: &'static str, label: &'static str, group: &'static str) -> EventType {
    EventType { name, label, group }
}

/// Every event an endpoint may subscribe to, in the screen's order.
pub const EVENT_TYPES: [EventType; 15] = [
    event("contact.created", "Contact created", "Contacts"),
    event("contact.updated", "Contact updated", "Contacts"),
    event(
        "contact.status_changed",
        "Contact status changed",
        "Contacts",
    ),
    event("contact.unsubscribed", "Contact unsubscribed", "Contacts"),
    event("deal.stage_changed", "Deal stage changed", "Deals"),
    event("deal.won", "Deal won", "Deals"),
    event("deal.lost", "Deal lost", "Deals"),
    event("email.sent", "Email sent", "Email"),
    event("email.opened", "Email opened", "Email"),
    event("email.clicked", "Email link clicked", "Email"),
    event("email.replied", "Email replied to", "Email"),
    event("email.bounced", "Email bounced", "Email"),
    event("meeting.booked", "Meeting booked", "Meetings and invoices"),
    event("invoice.paid", "Invoice paid", "Meetings and invoices"),
    event("job.failed", "Background job failed", "Operations"),
];

pub fn is_event_type(name: &str) -> bool {
    EVENT_TYPES.iter().any(|e| e.name == name)
}

/// The webhook event of an email ledger event (`EventInsert::event_type`), if it has one.
/// Delivered, deferred, dropped and spam reports stay inside Prospector.
pub fn email_event(ledger_type: &str) -> Option<&'static str> {
    Some(match ledger_type {
        "sent" => "email.sent",
        "opened" => "email.opened",
        "clicked" => "email.clicked",
        "replied" => "email.replied",
        "bounced" => "email.bounced",
        "unsubscribed" => "contact.unsubscribed",
        _ => return None,
    })
}

/// The deal event a move to `stage` adds to `deal.stage_changed`.
pub fn deal_outcome_event(stage: &str) -> Option<&'static str> {
    match stage {
        "closed_won" => Some("deal.won"),
        "closed_lost" => Some("deal.lost"),
        _ => None,
    }
}

/// The message for an unknown event type.
pub fn event_types_message() -> String {
    let names: Vec<&str> = EVENT_TYPES.iter().map(|e| e.name).collect();
    super::one_of_message("eventTypes", &names)
}

// ---- URLs and addresses ----

/// Why an endpoint URL is refused, in the words the screen shows: its shape, a private literal
/// address, or a loopback name (names are checked again when a delivery resolves them).
pub fn url_problem(raw: &str, allow_private: bool) -> Option<String> {
    check_url(raw, allow_private, true)
}

/// As [`url_problem`] without the loopback names: a delivery's check before it connects, the
/// resolver checking every address a name has.
pub fn url_send_problem(raw: &str, allow_private: bool) -> Option<String> {
    check_url(raw, allow_private, false)
}

fn check_url(raw: &str, allow_private: bool, names: bool) -> Option<String> {
    if raw.chars().count() > MAX_URL_CHARS {
        return Some(format!("URL must be at most {MAX_URL_CHARS} characters"));
    }
    let Ok(url) = url::Url::parse(raw) else {
        return Some("Enter a full URL, e.g. https://example.com/webhooks".into());
    };
    match url.scheme() {
        "https" => {}
        "http" if allow_private => {}
        "http" => return Some("URL must use https".into()),
        _ => return Some("URL must start with https://".into()),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Some("URL must not contain a user name or password".into());
    }
    if url.fragment().is_some() {
        return Some("URL must not contain a #fragment".into());
    }
    match url.host() {
        None => Some("URL must name a host".into()),
        Some(_) if allow_private => None,
        Some(url::Host::Ipv4(ip)) => refused_ip(IpAddr::V4(ip)).map(private_message),
        Some(url::Host::Ipv6(ip)) => refused_ip(IpAddr::V6(ip)).map(private_message),
        Some(url::Host::Domain(_)) if !names => None,
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            (name == "localhost" || name.ends_with(".localhost"))
                .then(|| private_message("a loopback name"))
        }
    }
}

fn private_message(what: &str) -> String {
    format!(
        "URL points to {what}: private and loopback addresses are refused (WEBHOOK_ALLOW_PRIVATE)"
    )
}

/// What kind of address `ip` is when a delivery may not reach it (after DNS resolution, for every
/// address a name resolves to): loopback, private, link-local, CGNAT, multicast, unspecified,
/// broadcast and reserved ranges, and IPv6 forms that carry such an IPv4 address.
pub fn refused_ip(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => refused_v4(v4),
        IpAddr::V6(v6) => refused_v6(v6),
    }
}

fn refused_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    Some(if ip.is_unspecified() || a == 0 {
        "an unspecified address"
    } else if ip.is_loopback() {
        "a loopback address"
    } else if ip.is_private() {
        "a private address"
    } else if ip.is_link_local() {
        "a link-local address"
    } else if a == 100 && (64..128).contains(&b) {
        "a shared (CGNAT) address"
    } else if ip.is_multicast() {
        "a multicast address"
    } else if ip.is_broadcast() || a >= 240 {
        "a reserved address"
    } else if (a == 192 && b == 0 && c == 0) || (a == 198 && (18..20).contains(&b)) {
        // IETF protocol assignments and the benchmarking range: never a public receiver.
        "a reserved address"
    } else {
        return None;
    })
}

fn refused_v6(ip: Ipv6Addr) -> Option<&'static str> {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return refused_v4(v4);
    }
    let seg = ip.segments();
    // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits.
    if seg[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        let [a, b] = seg[6].to_be_bytes();
        let [c, d] = seg[7].to_be_bytes();
        return refused_v4(Ipv4Addr::new(a, b, c, d));
    }
    Some(if ip.is_unspecified() {
        "an unspecified address"
    } else if ip.is_loopback() {
        "a loopback address"
    } else if seg[0] & 0xfe00 == 0xfc00 {
        "a private address"
    } else if seg[0] & 0xffc0 == 0xfe80 {
        "a link-local address"
    } else if ip.is_multicast() {
        "a multicast address"
    } else if seg[0] == 0 {
        // The rest of ::/8 (IPv4-compatible and reserved forms).
        "a reserved address"
    } else {
        return None;
    })
}

// ---- retries ----

/// Delay before retry number `attempt` (1-based): 15 × `JOB_BACKOFF_BASE_MS` (30 s by default),
/// four times longer each attempt, ±50 % jitter, capped at 12 h. With the defaults the 7 retries
/// come about 30 s, 2 min, 8 min, 32 min, 2 h, 8.5 h and 12 h apart: a day in all, so a receiver
/// down overnight still gets its events.
pub fn retry_delay(base: Duration, attempt: i32) -> Duration {
    let first = base.saturating_mul(15);
    let exp = first.saturating_mul(4u32.saturating_pow(attempt.clamp(1, 12) as u32 - 1));
    let capped = exp.min(Duration::from_secs(12 * 3600));
    capped.mul_f64(rand::rng().random_range(0.5..1.5))
}

// ---- signing (Standard Webhooks, https://www.standardwebhooks.com) ----

const SECRET_PREFIX: &str = "whsec_";
/// Random bytes in a secret (the spec asks for 24 to 64).
const SECRET_BYTES: usize = 32;

/// A new signing secret: `whsec_` and the base64 of 32 random bytes.
pub fn new_secret() -> String {
    let mut bytes = [0u8; SECRET_BYTES];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut bytes);
    format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes))
}

/// `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` under the secret's decoded
/// bytes; `None` for a secret that is not `whsec_` + base64.
pub fn sign(secret: &str, msg_id: &str, timestamp: i64, body: &str) -> Option<String> {
    let key = STANDARD
        .decode(secret.strip_prefix(SECRET_PREFIX).unwrap_or(secret))
        .ok()?;
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&key).ok()?;
    mac.update(format!("{msg_id}.{timestamp}.{body}").as_bytes());
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

/// A delivery's id, which is its `webhook-id` on every attempt.
pub fn new_message_id() -> String {
    format!("msg_{}", ulid::Ulid::new())
}

/// `text` cut to at most `max` bytes on a character boundary.
pub fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_as_standard_webhooks_does() {
        // The test vector of the Standard Webhooks reference libraries.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            sign(secret, id, 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
        assert_eq!(sign("whsec_not base64!", id, 1, body), None);
        let fresh = new_secret();
        assert!(fresh.starts_with("whsec_"));
        assert_eq!(STANDARD.decode(&fresh[6..]).map(|b| b.len()).ok(), Some(32));
        assert_ne!(fresh, new_secret());
    }

    #[test]
    fn urls_need_https_and_a_public_host_unless_allowed() {
        assert_eq!(url_problem("https://hooks.example.com/in?x=1", false), None);
        assert_eq!(
            url_problem("http://hooks.example.com/in", false).as_deref(),
            Some("URL must use https")
        );
        assert_eq!(url_problem("http://127.0.0.1:9/in", true), None);
        assert!(url_problem("ftp://example.com", false).is_some());
        assert!(url_problem("example.com/hook", false).is_some());
        assert!(url_problem("https://user:pw@example.com/", false).is_some());
        for private in [
            "https://127.0.0.1/",
            "https://10.1.2.3/",
            "https://[::1]/",
            "https://169.254.169.254/latest",
            "https://100.64.0.1/",
            "https://localhost:8443/",
            "https://api.localhost/",
            "https://[::ffff:192.168.0.1]/",
        ] {
            let problem = url_problem(private, false).unwrap_or_default();
            assert!(problem.contains("refused"), "{private}: {problem}");
        }
        assert_eq!(url_send_problem("https://localhost:8443/", false), None);
        assert!(url_send_problem("https://127.0.0.1/", false).is_some());
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_CHARS));
        assert!(url_problem(&long, false).is_some_and(|p| p.contains("2000")));
    }

    #[test]
    fn refuses_every_internal_range_and_allows_public_addresses() {
        let refused = [
            "0.0.0.0",
            "127.0.0.53",
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "169.254.169.254",
            "100.100.100.100",
            "224.0.0.251",
            "255.255.255.255",
            "240.0.0.1",
            "::",
            "::1",
            "fd00::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "64:ff9b::a00:1",
        ];
        for ip in refused {
            let ip: IpAddr = ip.parse().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
            assert!(refused_ip(ip).is_some(), "{ip}");
        }
        for ip in ["93.184.216.34", "1.1.1.1", "2606:4700::1111", "100.128.0.1"] {
            let ip: IpAddr = ip.parse().unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
            assert_eq!(refused_ip(ip), None, "{ip}");
        }
    }

    #[test]
    fn retries_span_about_a_day() {
        let base = Duration::from_secs(2);
        let first = retry_delay(base, 1).as_secs_f64();
        assert!((15.0..45.0).contains(&first), "{first}");
        let total: f64 = (1..MAX_ATTEMPTS)
            .map(|a| {
                let nominal = (30.0 * 4f64.powi(a - 1)).min(43_200.0);
                let d = retry_delay(base, a).as_secs_f64();
                assert!(d >= nominal * 0.5 && d < nominal * 1.5, "{a}: {d}");
                nominal
            })
            .sum();
        assert!((20.0 * 3600.0..30.0 * 3600.0).contains(&total), "{total}");
    }

    #[test]
    fn catalogue_and_mappings() {
        assert!(is_event_type("invoice.paid"));
        assert!(!is_event_type(TEST_EVENT));
        assert_eq!(email_event("clicked"), Some("email.clicked"));
        assert_eq!(email_event("unsubscribed"), Some("contact.unsubscribed"));
        assert_eq!(email_event("delivered"), None);
        assert_eq!(deal_outcome_event("closed_won"), Some("deal.won"));
        assert_eq!(clip("héllo", 2), "h");
    }
}
