//! Delivery as the sender sees it, against a real SMTP conversation on loopback: a composed
//! message arrives with its unsubscribe headers, a 4xx at RCPT is a transient failure and a 5xx a
//! permanent one, and the offline outbox writes one whole `.eml` per message. No database.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::smtp::{SmtpSink, header, parse};
use jobs::email::compose::{Outgoing, Sender, compose};
use jobs::email::tokens::Signer;
use jobs::email::transport::{Mailer, SendError};
use serde_json::{Map, Value, json};

const WAIT: Duration = Duration::from_secs(10);

fn sender() -> Sender {
    Sender {
        from: "Prospector <team@prospector.test>".into(),
        reply_to: None,
        postal_address: "1 Main St, Springfield".into(),
        public_base_url: "http://127.0.0.1:1".into(),
        unsubscribe_mailto: "unsubscribe@prospector.test".into(),
    }
}

fn vars() -> Map<String, Value> {
    json!({ "first_name": "Ann" }).as_object().unwrap().clone()
}

fn message(to: &str, ledger_id: &str) -> lettre::Message {
    let vars = vars();
    let message_id = format!("{ledger_id}@prospector.test");
    let out = Outgoing {
        ledger_id,
        message_id: &message_id,
        to,
        from: None,
        subject: "Hello {{first_name}}",
        html: "<p>Hi {{first_name}}, see <a href=\"https://example.com/\">this</a>.</p>",
        vars: &vars,
        list: "all",
        track_clicks: true,
        track_opens: true,
    };
    compose(&sender(), &Signer::new(b"smtp test secret"), &out).unwrap()
}

#[tokio::test]
async fn smtp_delivers_with_unsubscribe_headers() {
    let sink = SmtpSink::start();
    let mailer = Mailer::smtp(&sink.url(), 2).unwrap();
    assert_eq!(mailer.describe(), format!("smtp 127.0.0.1:{}", sink.port));

    mailer
        .send(&message("ann@example.com", "01JTEST0000000000000000001"))
        .await
        .unwrap();
    let got = sink.wait_for(1, WAIT).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].from, "team@prospector.test");
    assert_eq!(got[0].to, ["ann@example.com"]);

    let raw = &got[0].raw;
    let msg = parse(raw);
    assert_eq!(
        msg.message_id(),
        Some("01JTEST0000000000000000001@prospector.test")
    );
    assert_eq!(msg.subject(), Some("Hello Ann"));
    let list_unsubscribe = header(raw, "List-Unsubscribe").unwrap();
    assert!(
        list_unsubscribe.starts_with("<http://127.0.0.1:1/u/"),
        "{list_unsubscribe}"
    );
    assert!(
        list_unsubscribe.contains(", <mailto:unsubscribe@prospector.test?subject=unsubscribe-"),
        "{list_unsubscribe}"
    );
    assert_eq!(
        header(raw, "List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    assert_eq!(
        header(raw, "X-Prospector-Message").as_deref(),
        Some("01JTEST0000000000000000001")
    );
    assert!(msg.body_html(0).unwrap().contains("Hi Ann"));
    assert!(msg.body_text(0).unwrap().contains("1 Main St, Springfield"));
}

#[tokio::test]
async fn a_4xx_is_transient_and_the_retry_goes_through() {
    let sink = SmtpSink::start();
    let mailer = Mailer::smtp(&sink.url(), 2).unwrap();
    sink.reject("bob@example.com", 451, 1);
    let msg = message("bob@example.com", "01JTEST0000000000000000002");

    match mailer.send(&msg).await {
        Err(SendError::Transient(e)) => assert!(e.contains("451"), "{e}"),
        other => panic!("expected a transient error, got {other:?}"),
    }
    assert_eq!(sink.count(), 0);
    mailer.send(&msg).await.unwrap();
    let got = sink.wait_for(1, WAIT).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].to, ["bob@example.com"]);
}

#[tokio::test]
async fn a_5xx_is_permanent() {
    let sink = SmtpSink::start();
    let mailer = Mailer::smtp(&sink.url(), 2).unwrap();
    sink.reject("gone@example.com", 550, u32::MAX);
    let msg = message("gone@example.com", "01JTEST0000000000000000003");
    for _ in 0..2 {
        match mailer.send(&msg).await {
            Err(SendError::Permanent(e)) => assert!(e.contains("550"), "{e}"),
            other => panic!("expected a permanent error, got {other:?}"),
        }
    }
    // The connection is still good for other recipients.
    mailer
        .send(&message("ann@example.com", "01JTEST0000000000000000004"))
        .await
        .unwrap();
    let got = sink.wait_for(1, WAIT).await;
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].to, ["ann@example.com"]);
}

#[tokio::test]
async fn an_unreachable_relay_is_transient() {
    // Port 1 on loopback: nothing listens, the connection is refused.
    let mailer = Mailer::smtp("smtp://127.0.0.1:1", 1).unwrap();
    let result = mailer
        .send(&message("ann@example.com", "01JTEST0000000000000000005"))
        .await;
    assert!(matches!(result, Err(SendError::Transient(_))), "{result:?}");
}

#[test]
fn the_smtp_mailer_connects_only_when_it_sends() {
    // Built outside any runtime, and nothing listens on port 1: connections open on first send.
    let mailer = Mailer::smtp("smtp://127.0.0.1:1", 1).unwrap();
    assert_eq!(mailer.describe(), "smtp 127.0.0.1:1");
}

#[tokio::test]
async fn smtp_url_errors_and_descriptions_never_show_the_password() {
    for bad in [
        "smtp://user:hunter2@mail.example:587?tls=sometimes",
        "ftp://user:hunter2@mail.example",
        "user:hunter2 not a url",
    ] {
        let err = Mailer::smtp(bad, 2).unwrap_err();
        assert!(!err.contains("hunter2"), "{err}");
    }
    let m = Mailer::smtp("smtp://user:hunter2@mail.example:2525", 2).unwrap();
    assert_eq!(m.describe(), "smtp mail.example:2525");
    assert!(!format!("{m:?}").contains("hunter2"));
    let m = Mailer::smtp("smtp://user:hunter2@mail.example?tls=required", 2).unwrap();
    assert_eq!(m.describe(), "smtp mail.example:587");
    let m = Mailer::smtp("smtps://user:hunter2@mail.example", 2).unwrap();
    assert_eq!(m.describe(), "smtp mail.example:465");
}

#[tokio::test]
async fn the_outbox_writes_one_whole_eml() {
    let dir = tempfile::tempdir().unwrap();
    let outbox = dir.path().join("data").join("outbox");
    let mailer = Mailer::outbox(outbox.clone());
    assert_eq!(mailer.describe(), format!("outbox {}", outbox.display()));

    mailer
        .send(&message("ann@example.com", "01JTEST0000000000000000006"))
        .await
        .unwrap();
    let files: Vec<_> = std::fs::read_dir(&outbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(
        files[0].file_name().unwrap(),
        "01JTEST0000000000000000006.eml"
    );
    let raw = std::fs::read(&files[0]).unwrap();
    let msg = parse(&raw);
    assert_eq!(
        msg.message_id(),
        Some("01JTEST0000000000000000006@prospector.test")
    );
    assert!(header(&raw, "List-Unsubscribe").is_some());
}
