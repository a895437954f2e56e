//! Deliverability, checked with tools we did not write: a campaign message sent through the real
//! worker to a loopback SMTP server with the default settings scores at most 0.5 with SpamAssassin's
//! default rules (Debian's `spamassassin`, local tests only), carries a DKIM signature that
//! mail-auth verifies against the key published on a loopback DNS server, and the sender-domain
//! check reads SPF, DKIM and DMARC from that server. Every test runs on SQLite and on Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use common::dns::DnsServer;
use common::smtp::{POSTAL, SmtpSink};
use common::*;
use hickory_resolver::config::{NameServerConfig, ResolverConfig, ResolverOpts};
use jobs::config::{DkimSettings, MailSettings, Secret};
use jobs::email::compose::Sender;
use jobs::email::tokens::Signer;
use jobs::email::transport::Mailer;
use jobs::mailing::Mailing;
use jobs::providers::Providers;
use jobs::providers::mail::DnsResolver;
use mail_auth::{AuthenticatedMessage, DkimResult, MessageAuthenticator};
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(30);
const DOMAIN: &str = "dealers.test";
const SELECTOR: &str = "s2026";

/// A fresh 2048-bit RSA key as `DKIM_PRIVATE_KEY` takes it (PKCS#1 PEM) and its public half as a
/// DKIM record's `p=` (base64 SubjectPublicKeyInfo), made by openssl.
fn rsa_key() -> (String, String) {
    let pem = Command::new("openssl")
        .args(["genrsa", "-traditional", "2048"])
        .stderr(Stdio::null())
        .output()
        .expect("openssl genrsa");
    assert!(pem.status.success());
    let mut public = Command::new("openssl")
        .args(["rsa", "-pubout", "-outform", "DER"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("openssl rsa");
    std::io::Write::write_all(&mut public.stdin.take().unwrap(), &pem.stdout).unwrap();
    let der = public.wait_with_output().unwrap();
    assert!(der.status.success());
    (
        String::from_utf8(pem.stdout).unwrap(),
        base64::engine::general_purpose::STANDARD.encode(der.stdout),
    )
}

fn nameserver(dns: &DnsServer) -> ResolverConfig {
    let mut ns = NameServerConfig::udp_and_tcp(dns.addr.ip());
    for c in &mut ns.connections {
        c.port = dns.addr.port();
    }
    ResolverConfig::from_name_servers(vec![ns])
}

/// A mailer to `sink` that signs with `private_key` as `SELECTOR._domainkey.DOMAIN`.
fn signing_mailing(sink: &SmtpSink, private_key: &str) -> Mailing {
    let settings = MailSettings {
        postal_address: POSTAL.into(),
        dkim: Some(DkimSettings {
            selector: SELECTOR.into(),
            domain: DOMAIN.into(),
            private_key: Secret::new(private_key.into()),
        }),
        ..MailSettings::default()
    };
    Mailing::new(
        Mailer::smtp(&sink.url(), 4).expect("SMTP mailer"),
        Sender {
            from: format!("Dana Whitfield <dana@{DOMAIN}>"),
            reply_to: None,
            postal_address: POSTAL.into(),
            public_base_url: "https://crm.dealers.test".into(),
            unsubscribe_mailto: format!("unsubscribe@{DOMAIN}"),
        },
        Signer::new(&[7u8; 64]),
        &settings,
    )
}

/// The app with its mail signed by `private_key` and sent to a new sink, and its DNS asked of `dns`.
async fn signing_app(db: &TestDb, private_key: &str, dns: &DnsServer) -> (TestApp, SmtpSink) {
    let sink = SmtpSink::start();
    let providers = Providers::embedded()
        .with_mailing(signing_mailing(&sink, private_key))
        .with_mail(Arc::new(DnsResolver::new(Some(dns.addr))));
    let app = TestApp::spawn(
        db,
        AppOptions {
            providers: Some(providers),
            ..AppOptions::default()
        },
    )
    .await;
    (app, sink)
}

/// Runs the sender-domain check as the Email Configuration screen does and returns its latest answer.
async fn domain_check(app: &TestApp, user: &reqwest::Client) -> Value {
    let (status, started) = send(user.post(app.url("/api/email/domain-check"))).await;
    assert_eq!(status, 202, "{started}");
    app.wait_status(user, started["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    app.get_json(user, "/api/email/domain-check").await
}

/// SpamAssassin's verdict on `raw`: the score and the report naming each rule that fired.
fn spamassassin(raw: &[u8]) -> (f64, String) {
    let mut sa = Command::new("spamassassin")
        // Local tests only: no network lookups from the test machine.
        .args(["-L", "-t"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spamassassin (Debian package spamassassin; .ci/run installs it)");
    std::io::Write::write_all(&mut sa.stdin.take().unwrap(), raw).unwrap();
    let out = sa.wait_with_output().unwrap();
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    let status = report
        .lines()
        .find(|l| l.starts_with("X-Spam-Status:"))
        .unwrap_or_else(|| panic!("no X-Spam-Status in {report}"));
    let score = status
        .split_whitespace()
        .find_map(|w| w.strip_prefix("score="))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no score in {status}"));
    let details = report
        .split("Content analysis details:")
        .nth(1)
        .unwrap_or_default()
        .to_string();
    (score, details)
}

/// The rules in a SpamAssassin report, with their points.
fn fired(report: &str) -> Vec<(String, f64)> {
    report
        .lines()
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let points = words.next()?.parse().ok()?;
            let rule = words.next()?;
            rule.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                .then(|| (rule.to_string(), points))
        })
        .collect()
}

async fn campaign_mail_scores_low_and_verifies(db: TestDb) {
    let (private_key, public_key) = rsa_key();
    let dns = DnsServer::start(&[
        (DOMAIN, "v=spf1 ip4:127.0.0.1 -all"),
        (
            &format!("{SELECTOR}._domainkey.{DOMAIN}"),
            &format!("v=DKIM1; k=rsa; p={public_key}"),
        ),
        (
            &format!("_dmarc.{DOMAIN}"),
            "v=DMARC1; p=reject; rua=mailto:dmarc@dealers.test",
        ),
    ])
    .await;
    let (app, sink) = signing_app(&db, &private_key, &dns).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let now = jobs::time::now_ms();
    let db = &app.db;
    exec!(
        db,
        "INSERT INTO companies (id, name, status, created_at, updated_at)
         VALUES ('co1', 'Lone Star Bath & Kitchen', 'prospect', $1, $1)",
        now
    );
    exec!(
        db,
        "INSERT INTO contacts (id, first_name, last_name, email, title, company_id, status, score, created_at, updated_at)
         VALUES ('c1', 'Maria', 'Garcia', 'maria@lonestarbath.test', 'Owner', 'co1', 'new_lead', 90, $1, $1)",
        now
    );

    // A campaign written from the first built-in template, as a user starts one.
    let templates = app.get_json(&user, "/api/email-templates").await;
    let template = templates["templates"]
        .as_array()
        .and_then(|t| t.first())
        .cloned()
        .expect("a built-in template");
    let (status, c) = send(
        user.post(app.url("/api/campaigns/bulk-email"))
            .json(&json!({
                "name": "Texas dealers", "subject": template["subject"], "body": template["body"],
                "targetFilters": { "scoreMin": 80 }
            })),
    )
    .await;
    assert_eq!(status, 201, "{c}");
    let id = c["id"].as_str().unwrap();
    let (status, s) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 200, "{s}");
    app.wait_status(&user, s["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    let sent = sink.messages();
    assert_eq!(sent.len(), 1);
    let raw = &sent[0].raw;
    let text = String::from_utf8_lossy(raw);
    assert!(
        text.contains(&format!("List-Id: <{}.{DOMAIN}>", id.to_lowercase())),
        "{text}"
    );

    // Every rule that fires stays within 0.5 points in all. Open tracking is off by default: its
    // pixel would fire one of the HTML_IMAGE_ONLY_* rules (1.4 points for this template), as any
    // <img> does in a message with under 3,200 bytes of text. (Links are still tracked.)
    let html = common::smtp::parse(raw).body_html(0).unwrap().to_string();
    assert!(!html.contains("/t/o/") && !html.contains("<img"), "{html}");
    let (score, report) = spamassassin(raw);
    println!("SpamAssassin score with the default settings: {score}");
    assert!(
        score <= 0.5,
        "SpamAssassin scored {score}:\n{report}\n{text}"
    );
    assert!(
        !fired(&report)
            .iter()
            .any(|(rule, _)| rule.starts_with("LIST_PARTIAL")),
        "List-Id is there: {report}"
    );

    // DKIM: signed for DOMAIN with SELECTOR, and the signature verifies against the published key.
    let authenticator =
        MessageAuthenticator::new(nameserver(&dns), ResolverOpts::default()).unwrap();
    let message = AuthenticatedMessage::parse(raw).expect("a parsable message");
    let results = authenticator.verify_dkim(&message).await;
    assert_eq!(results.len(), 1, "one DKIM signature");
    assert_eq!(
        results[0].result(),
        &DkimResult::Pass,
        "{:?}\n{text}",
        results[0]
    );
    assert_eq!(
        results[0].signature().map(|s| (s.d.as_str(), s.s.as_str())),
        Some((DOMAIN, SELECTOR))
    );
    // A changed body breaks the signature: the verifier really checks it.
    let tampered = text.replacen("Maria", "Mario", 1);
    let tampered = AuthenticatedMessage::parse(tampered.as_bytes()).unwrap();
    assert_ne!(
        authenticator.verify_dkim(&tampered).await[0].result(),
        &DkimResult::Pass
    );

    // The sender-domain check reads the same records and finds them right.
    let latest = app.get_json(&user, "/api/email/domain-check").await;
    assert_eq!(latest["check"], Value::Null, "not checked yet: {latest}");
    let latest = domain_check(&app, &user).await;
    let check = &latest["check"];
    assert_eq!(check["domain"], DOMAIN, "{latest}");
    assert_eq!(check["spf"]["status"], "pass", "{latest}");
    assert_eq!(check["spf"]["record"], "v=spf1 ip4:127.0.0.1 -all");
    assert_eq!(check["dkim"]["status"], "pass", "{latest}");
    assert_eq!(
        check["dkim"]["name"],
        format!("{SELECTOR}._domainkey.{DOMAIN}")
    );
    assert_eq!(check["dmarc"]["status"], "pass", "{latest}");
    assert!(latest["checkedAt"].is_string(), "{latest}");
    app.stop().await;
}

/// A domain with no SPF, a DKIM record that is not our key and DMARC that only monitors: each
/// verdict says so.
async fn a_wrong_or_missing_record_is_named(db: TestDb) {
    let (private_key, _) = rsa_key();
    let (_, other_public_key) = rsa_key();
    let dns = DnsServer::start(&[
        (DOMAIN, "google-site-verification=abc"),
        (
            &format!("{SELECTOR}._domainkey.{DOMAIN}"),
            &format!("v=DKIM1; k=rsa; p={other_public_key}"),
        ),
        (&format!("_dmarc.{DOMAIN}"), "v=DMARC1; p=none"),
    ])
    .await;
    let (app, _sink) = signing_app(&db, &private_key, &dns).await;
    let user = app.user().await;
    let check = domain_check(&app, &user).await["check"].clone();
    assert_eq!(check["spf"]["status"], "fail", "{check}");
    assert!(
        check["spf"]["detail"]
            .as_str()
            .unwrap()
            .starts_with("No SPF record"),
        "{check}"
    );
    assert_eq!(check["dkim"]["status"], "fail", "{check}");
    assert!(
        check["dkim"]["detail"]
            .as_str()
            .unwrap()
            .contains("not the public half of DKIM_PRIVATE_KEY"),
        "{check}"
    );
    assert_eq!(check["dmarc"]["status"], "warn", "{check}");
    app.stop().await;
}

both_backends!(
    campaign_mail_scores_low_and_verifies,
    a_wrong_or_missing_record_is_named
);
