//! The email engine as senders and recipients see it, with a real SMTP server on loopback: bulk
//! campaigns (validation, targeting, compliant messages, one message per recipient), suppression and
//! the unsubscribe link followed from a received message, SMTP 4xx deferral and 5xx failure, sending
//! limits that defer to the next window, direct email, tracking links, the SendGrid webhook with
//! signatures and duplicate events, analytics and contact history. Every test runs on SQLite and
//! on Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::smtp::{POSTAL, SmtpSink};
use common::*;
use jobs::db::Db;
use jobs::email::tokens::Signer;
use jobs::providers::Providers;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(20);

/// An app whose worker sends through `sink`, signing links with the test secret.
async fn app_with(db: &TestDb, sink: &SmtpSink, webhook_key: Option<String>) -> TestApp {
    TestApp::spawn(
        db,
        AppOptions {
            providers: Some(Providers::embedded().with_mailing(sink.mailing(webhook_key))),
            ..AppOptions::default()
        },
    )
    .await
}

async fn insert_contact(
    db: &Db,
    first: &str,
    email: Option<&str>,
    status: &str,
    score: i32,
) -> String {
    let id = ulid::Ulid::new().to_string();
    let now = now_ms();
    exec!(
        db,
        "INSERT INTO contacts (id, first_name, last_name, email, status, score, created_at, updated_at)
         VALUES ($1, $2, 'Tester', $3, $4, $5, $6, $6)",
        &id,
        first,
        email,
        status,
        score,
        now
    );
    id
}

/// `path` of a config URL: the test server's public base is `http://127.0.0.1`.
fn path_of_url(url: &Value) -> String {
    url.as_str()
        .expect("url")
        .trim_start_matches("http://127.0.0.1")
        .to_string()
}

/// The event webhook's path with the install's token, as an admin reads it on the Email
/// Configuration screen.
async fn webhook_path(app: &TestApp, admin: &Client) -> String {
    let cfg = app.get_json(admin, "/api/email/webhook/config").await;
    let path = path_of_url(&cfg["webhookUrl"]);
    assert!(path.contains("?token="), "{cfg}");
    path
}

async fn campaign(app: &TestApp, c: &Client, id: &str) -> Value {
    app.get_json(c, &format!("/api/campaigns/bulk-email/{id}"))
        .await
}

async fn wait_campaign(app: &TestApp, c: &Client, id: &str, status: &str) -> Value {
    eventually(T, &format!("campaign {status}"), || async {
        let v = campaign(app, c, id).await;
        (v["status"] == status).then_some(v)
    })
    .await
}

fn header(raw: &[u8], name: &str) -> String {
    common::smtp::header(raw, name).unwrap_or_default()
}

/// The path of the unsubscribe link of a received message (its host is the configured public URL).
fn unsubscribe_path(raw: &[u8]) -> String {
    let list = header(raw, "List-Unsubscribe");
    let start = list.find("/u/").expect("https link in List-Unsubscribe");
    let end = list[start..].find('>').unwrap() + start;
    list[start..end].to_string()
}

async fn bulk_campaign_reaches_each_recipient_once(db: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&db, &sink, None).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let mut wanted = Vec::new();
    for (i, first) in ["Ann", "<script>alert(1)</script>", "Cy", "Dee"]
        .iter()
        .enumerate()
    {
        let email = format!("r{i}@example.test");
        insert_contact(&app.db, first, Some(&email), "new_lead", 80 + i as i32).await;
        wanted.push(email);
    }
    insert_contact(&app.db, "NoMail", None, "new_lead", 90).await;
    insert_contact(
        &app.db,
        "LowScore",
        Some("low@example.test"),
        "new_lead",
        10,
    )
    .await;
    insert_contact(
        &app.db,
        "Customer",
        Some("cust@example.test"),
        "customer",
        95,
    )
    .await;

    // The seed's validation, unknown template, and a targeting that matches nobody.
    let create = |body: Value| send(user.post(app.url("/api/campaigns/bulk-email")).json(&body));
    let (status, body) = create(json!({ "name": "Q4", "templateId": "business-outreach" })).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            422,
            Some("Please provide campaign name, subject, and select a template.")
        )
    );
    let (status, body) =
        create(json!({ "name": "Q4", "subject": "Hi", "templateId": "nope" })).await;
    assert_eq!(status, 422, "{body}");
    let (status, body) = create(
        json!({ "name": "Q4", "subject": "Hi", "templateId": "business-outreach",
        "targetFilters": { "scoreMin": 100, "statuses": ["new_lead"] } }),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("No contacts match")
    );
    let (status, body) = create(
        json!({ "name": "Q4", "subject": "Hi", "templateId": "business-outreach",
        "targetFilters": { "statuses": ["bogus"] } }),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM campaigns").await,
        0,
        "nothing half-written"
    );

    let (status, c) = create(json!({
        "name": "Q4 outreach", "description": "dealers", "subject": "Hello {{firstName}} at {{companyName}}",
        "templateId": "business-outreach", "fromEmail": "partners@dealers.test",
        "targetFilters": { "scoreMin": 70, "scoreMax": 100, "statuses": ["new_lead", "email_sent"], "states": [] }
    }))
    .await;
    assert_eq!(status, 201, "{c}");
    assert_eq!(
        (c["status"].as_str(), c["totalRecipients"].as_i64()),
        (Some("draft"), Some(4))
    );
    let id = c["id"].as_str().unwrap().to_string();

    // One recipient unsubscribes through a link of an earlier message before the campaign goes out.
    let token_path = {
        let signer = Signer::new(&[7u8; 64]);
        format!("/u/{}", signer.unsubscribe_token(&wanted[3], "all"))
    };
    let res = app
        .anonymous()
        .post(app.url(&token_path))
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);

    let (status, sent) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 200, "{sent}");
    assert_eq!(
        (
            sent["successful"].as_i64(),
            sent["totalRecipients"].as_i64()
        ),
        (Some(4), Some(4))
    );
    let done = wait_campaign(&app, &user, &id, "sent").await;
    assert_eq!(done["stats"]["sent"], 3, "{done}");
    assert_eq!(done["progress"]["suppressed"], 1, "{done}");
    let (status, again) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 409, "only drafts can be sent: {again}");

    let received = sink.wait_for(3, T).await;
    assert_eq!(received.len(), 3);
    let mut to: Vec<String> = received.iter().flat_map(|m| m.to.clone()).collect();
    to.sort();
    assert_eq!(
        to,
        wanted[..3].to_vec(),
        "each matching recipient once, the unsubscribed one never"
    );
    for m in &received {
        let msg = common::smtp::parse(&m.raw);
        assert!(header(&m.raw, "Message-ID").contains("@dealers.test"));
        assert!(header(&m.raw, "List-Unsubscribe").contains("mailto:unsubscribe@dealers.test"));
        assert_eq!(
            header(&m.raw, "List-Unsubscribe-Post"),
            "List-Unsubscribe=One-Click"
        );
        assert!(header(&m.raw, "Reply-To").contains("replies@dealers.test"));
        let html = msg.body_html(0).unwrap().to_string();
        let text = msg.body_text(0).unwrap().to_string();
        assert!(
            html.contains(POSTAL) && text.contains(POSTAL),
            "postal address in both parts"
        );
        assert!(
            !html.contains("<script>alert"),
            "variables are escaped in HTML"
        );
    }
    let subjects: Vec<String> = received
        .iter()
        .map(|m| {
            common::smtp::parse(&m.raw)
                .subject()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    assert!(
        subjects.iter().any(|s| s.trim() == "Hello Ann at"),
        "{subjects:?}"
    );

    // Following a received message's unsubscribe link (GET shows a page, POST unsubscribes).
    let path = unsubscribe_path(&received[0].raw);
    let page = app.anonymous().get(app.url(&path)).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("Unsubscribe"));
    let res = app.anonymous().post(app.url(&path)).send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert!(
        res.text()
            .await
            .unwrap()
            .contains("will not receive email from us again")
    );
    let tampered = format!("{}x", &path[..path.len() - 1]);
    let res = app
        .anonymous()
        .post(app.url(&tampered))
        .send()
        .await
        .unwrap();
    assert_eq!(
        res.status(),
        404,
        "a tampered token is not found, never a crash"
    );
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM suppressions").await,
        2
    );

    // Contacts moved on and the overview counts real sends.
    let overview = app
        .get_json(&user, "/api/campaigns/bulk-email/performance/overview")
        .await;
    assert_eq!(overview["performance"]["totalEmailsSent"], 3, "{overview}");
    let list = app.get_json(&user, "/api/campaigns/bulk-email").await;
    assert_eq!(list["campaigns"][0]["id"], id.as_str());
    app.stop().await;
}

async fn smtp_deferral_and_permanent_failure(db: TestDb) {
    let sink = SmtpSink::start();
    sink.reject("later@example.test", 451, 1);
    sink.reject("gone@example.test", 550, u32::MAX);
    let app = app_with(&db, &sink, None).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    for (name, email) in [
        ("Ok", "ok@example.test"),
        ("Later", "later@example.test"),
        ("Gone", "gone@example.test"),
    ] {
        insert_contact(&app.db, name, Some(email), "new_lead", 90).await;
    }
    let (_, c) = send(
        user.post(app.url("/api/campaigns/bulk-email"))
            .json(&json!({
                "name": "Deferrals", "subject": "Hi", "templateId": "follow-up", "targetFilters": {}
            })),
    )
    .await;
    let id = c["id"].as_str().unwrap().to_string();
    send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    let v = eventually(T, "first run done", || async {
        let v = campaign(&app, &user, &id).await;
        (v["progress"]["deferred"] == 1 && v["progress"]["failed"] == 1 && v["stats"]["sent"] == 1)
            .then_some(v)
    })
    .await;
    eventually(T, "a follow-up run", || async {
        (scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'bulk_campaign_send' AND status = 'scheduled'",
        )
        .await
            == 1)
            .then_some(())
    })
    .await;
    assert_eq!(
        v["status"], "sending",
        "a deferred recipient keeps the campaign going: {v}"
    );
    assert_eq!(v["stats"]["sent"], 1);
    // A follow-up run waits for the deferred message (1 minute); bring both forward.
    let due = now_ms();
    exec!(
        &app.db,
        "UPDATE email_messages SET next_attempt_at = $1 WHERE status = 'deferred'",
        due
    );
    exec!(
        &app.db,
        "UPDATE jobs SET run_at = $1 WHERE kind = 'bulk_campaign_send' AND status = 'scheduled'",
        due
    );
    let v = wait_campaign(&app, &user, &id, "sent").await;
    assert_eq!(
        (
            v["stats"]["sent"].as_i64(),
            v["progress"]["failed"].as_i64()
        ),
        (Some(2), Some(1)),
        "{v}"
    );
    let received = sink.wait_for(2, T).await;
    let mut to: Vec<String> = received.iter().flat_map(|m| m.to.clone()).collect();
    to.sort();
    assert_eq!(to, ["later@example.test", "ok@example.test"]);

    // The 5xx counted as one hard bounce; a second (from the webhook) suppresses the address.
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM suppressions").await,
        0
    );
    let webhook = webhook_path(&app, &admin).await;
    let (status, body) = send(app.anonymous().post(app.url(&webhook)).json(&json!([
        { "email": "gone@example.test", "event": "bounce", "type": "bounce", "timestamp": 1_700_000_000, "sg_event_id": "b-1" }
    ])))
    .await;
    assert_eq!(
        (status, body["recorded"].as_i64()),
        (200, Some(1)),
        "{body}"
    );
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM suppressions WHERE reason = 'hard_bounced'"
        )
        .await,
        1
    );
    app.stop().await;
}

async fn limits_defer_to_the_next_window(db: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&db, &sink, None).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 2, 100).await;
    for i in 0..5 {
        insert_contact(
            &app.db,
            "Lim",
            Some(&format!("l{i}@example.test")),
            "new_lead",
            90,
        )
        .await;
    }
    let (_, c) = send(
        user.post(app.url("/api/campaigns/bulk-email"))
            .json(&json!({
                "name": "Limited", "subject": "Hi", "templateId": "follow-up", "targetFilters": {}
            })),
    )
    .await;
    let id = c["id"].as_str().unwrap().to_string();
    send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    let next: i64 = eventually(T, "a follow-up run", || async {
        match &app.db {
            Db::Sqlite(p) => sqlx::query_scalar("SELECT run_at FROM jobs WHERE kind = 'bulk_campaign_send' AND status = 'scheduled'").fetch_optional(p.write()).await.unwrap(),
            Db::Postgres(p) => sqlx::query_scalar("SELECT run_at FROM jobs WHERE kind = 'bulk_campaign_send' AND status = 'scheduled'").fetch_optional(p.write()).await.unwrap(),
        }
    })
    .await;
    assert_eq!(
        next % 3_600_000,
        0,
        "the follow-up starts when the next hour begins"
    );
    assert!(next > now_ms());
    let v = campaign(&app, &user, &id).await;
    assert_eq!(
        (
            v["stats"]["sent"].as_i64(),
            v["progress"]["queued"].as_i64()
        ),
        (Some(2), Some(3)),
        "{v}"
    );
    let d = app.get_json(&user, "/api/deliverability-settings").await;
    assert_eq!(
        (
            d["emailsSentThisHour"].as_i64(),
            d["emailsSentToday"].as_i64(),
            d["hourlyLimit"].as_i64()
        ),
        (Some(2), Some(2), Some(2)),
        "{d}"
    );

    // Another run now (a restart, a second worker) cannot overshoot: the counters are in the database.
    let run = app
        .enqueue(
            &admin,
            json!({ "kind": "bulk_campaign_send", "payload": { "campaignId": id } }),
        )
        .await;
    app.wait_status(&admin, &run, "succeeded", T).await;
    assert_eq!(campaign(&app, &user, &id).await["stats"]["sent"], 2);
    assert_eq!(sink.messages().len(), 2);
    // Limits are validated.
    let (status, _) = send(
        admin
            .put(app.url("/api/deliverability-settings"))
            .json(&json!({ "hourlyLimit": 0 })),
    )
    .await;
    assert_eq!(status, 422);
    app.stop().await;
}

/// A P-256 key pair for signing webhook bodies like SendGrid does.
fn webhook_keys() -> (p256::ecdsa::SigningKey, String) {
    use base64::Engine;
    let key = p256::ecdsa::SigningKey::from_slice(&[0x42; 32]).unwrap();
    // SubjectPublicKeyInfo for an uncompressed P-256 point: a fixed header, then the point.
    let mut der = vec![
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x08,
        0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ];
    der.extend_from_slice(key.verifying_key().to_encoded_point(false).as_bytes());
    (key, base64::engine::general_purpose::STANDARD.encode(der))
}

fn sign(key: &p256::ecdsa::SigningKey, timestamp: &str, body: &str) -> String {
    use base64::Engine;
    use p256::ecdsa::signature::Signer as _;
    let mut payload = timestamp.as_bytes().to_vec();
    payload.extend_from_slice(body.as_bytes());
    let sig: p256::ecdsa::Signature = key.sign(&payload);
    base64::engine::general_purpose::STANDARD.encode(sig.to_der().as_bytes())
}

async fn direct_email_tracking_and_webhook(db: TestDb) {
    let sink = SmtpSink::start();
    let (key, public) = webhook_keys();
    let app = app_with(&db, &sink, Some(public)).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let contact = insert_contact(&app.db, "Dana", Some("dana@example.test"), "new_lead", 70).await;
    let nomail = insert_contact(&app.db, "Nomail", None, "new_lead", 70).await;
    // Opens are tracked only when the workspace says so.
    app.track_opens(&admin).await;

    // An empty install can ask for sample data; with real events it cannot.
    let email = |body: Value| send(user.post(app.url("/api/contacts/email")).json(&body));
    let (status, body) =
        email(json!({ "contactId": nomail, "subject": "Hi", "message": "Hello" })).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            422,
            Some("No Email Address: Email address not available for this contact.")
        )
    );
    let (status, _) =
        email(json!({ "contactId": "missing", "subject": "Hi", "message": "Hello" })).await;
    assert_eq!(status, 404);
    let (status, body) = email(json!({ "contactId": contact, "subject": "Catalog", "message": "See https://dealers.test/catalog <b>now</b>" })).await;
    assert_eq!(status, 202, "{body}");
    let received = sink.wait_for(1, T).await;
    let msg = common::smtp::parse(&received[0].raw);
    assert_eq!(msg.subject(), Some("Catalog"));
    let html = msg.body_html(0).unwrap().to_string();
    assert!(
        html.contains("&lt;b&gt;now&lt;/b&gt;"),
        "a typed message is text, not markup: {html}"
    );

    // Open pixel and click link from the message itself.
    let path_of = |marker: &str| {
        let start = html
            .find(marker)
            .unwrap_or_else(|| panic!("{marker} in {html}"));
        let rest = &html[start..];
        rest[..rest.find('"').unwrap()].to_string()
    };
    let res = app
        .anonymous()
        .get(app.url(&path_of("/t/o/")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["content-type"], "image/gif");
    let no_redirect = Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let click = path_of("/t/c/");
    let res = no_redirect.get(app.url(&click)).send().await.unwrap();
    assert_eq!(res.status(), 303);
    assert_eq!(res.headers()["location"], "https://dealers.test/catalog");
    let res = no_redirect
        .get(app.url(&format!("{click}A")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404, "a changed click token never redirects");

    // Webhook: unsigned and badly signed calls are refused and record nothing.
    let message_id: String = match &app.db {
        Db::Sqlite(p) => sqlx::query_scalar("SELECT id FROM email_messages")
            .fetch_one(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_scalar("SELECT id FROM email_messages")
            .fetch_one(p.write())
            .await
            .unwrap(),
    };
    let body = json!([
        { "email": "dana@example.test", "event": "delivered", "timestamp": 1_700_000_000, "sg_event_id": "e1", "prospector_message_id": message_id },
        { "email": "dana@example.test", "event": "open", "timestamp": 1_700_000_100, "sg_event_id": "e2", "prospector_message_id": message_id },
        { "email": "dana@example.test", "event": "spamreport", "timestamp": 1_700_000_200, "sg_event_id": "e3" },
        { "email": "dana@example.test", "event": "processed", "timestamp": 1_700_000_000, "sg_event_id": "e0" }
    ])
    .to_string();
    let post = |sig: String, ts: &str| {
        app.anonymous()
            .post(app.url("/api/email/webhook"))
            .header("X-Twilio-Email-Event-Webhook-Signature", sig)
            .header("X-Twilio-Email-Event-Webhook-Timestamp", ts.to_string())
            .header("content-type", "application/json")
            .body(body.clone())
    };
    let before = scalar(&app.db, "SELECT COUNT(*) FROM email_events").await;
    let (status, _) = send(post(String::new(), "1")).await;
    assert_eq!(status, 401);
    let (status, _) = send(post(sign(&key, "1700000001", &body), "1700000002")).await;
    assert_eq!(status, 401, "the timestamp is part of what is signed");
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM email_events").await,
        before
    );
    let (status, r) = send(post(sign(&key, "1700000001", &body), "1700000001")).await;
    assert_eq!(
        (status, r["recorded"].as_i64(), r["ignored"].as_i64()),
        (200, Some(3), Some(1)),
        "{r}"
    );
    let (_, r) = send(post(sign(&key, "1700000001", &body), "1700000001")).await;
    assert_eq!(
        (r["recorded"].as_i64(), r["duplicates"].as_i64()),
        (Some(0), Some(3)),
        "a redelivered batch changes nothing"
    );
    let (status, _) = send(
        app.anonymous()
            .post(app.url("/api/email/webhook"))
            .header(
                "X-Twilio-Email-Event-Webhook-Signature",
                sign(&key, "5", "not json"),
            )
            .header("X-Twilio-Email-Event-Webhook-Timestamp", "5")
            .body("not json"),
    )
    .await;
    assert_eq!(status, 400, "a signed but malformed body is a clear 400");
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM suppressions WHERE reason = 'spam_reported'"
        )
        .await,
        1
    );
    let (status, body) =
        email(json!({ "contactId": contact, "subject": "Again", "message": "x" })).await;
    assert_eq!(
        status, 422,
        "a suppressed address gets no more email: {body}"
    );

    // Analytics and history from those events: 1 sent, opened (pixel + webhook, one message), clicked.
    let (status, _) = send(user.get(app.url("/api/email/analytics?timeframe=36500"))).await;
    assert_eq!(status, 422, "timeframe is 1 to 365 days");
    let a = app.get_json(&user, "/api/email/analytics").await;
    assert_eq!(
        (
            a["totalSent"].as_i64(),
            a["openRate"].as_f64(),
            a["clickRate"].as_f64()
        ),
        (Some(1), Some(100.0), Some(100.0)),
        "{a}"
    );
    let h = app
        .get_json(&user, &format!("/api/contacts/{contact}/email-history"))
        .await;
    assert!(h["totalEvents"].as_i64().unwrap() >= 5, "{h}");
    assert!(h["recentEvents"].as_array().unwrap().len() <= 10);
    let (status, _) = send(user.post(app.url("/api/email/seed-events"))).await;
    assert_eq!(status, 409, "sample data only on an empty install");
    let cfg = app.get_json(&user, "/api/email/webhook/config").await;
    assert_eq!(cfg["webhookUrl"], "http://127.0.0.1/api/email/webhook");
    assert_eq!(
        (cfg["webhookAuth"].as_str(), cfg["tokenVisible"].as_bool()),
        (Some("signature"), Some(false)),
        "with a public key the signature is the check; a non-admin sees no token: {cfg}"
    );
    assert_eq!(
        cfg["delivery"]["mode"], "outbox",
        "no SMTP_URL: demo mode, said so"
    );
    app.stop().await;
}

async fn sample_events_for_an_empty_install(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let user = app.user().await;
    let (status, _) = send(user.post(app.url("/api/email/seed-events"))).await;
    assert_eq!(status, 422, "no contacts yet");
    for i in 0..20 {
        insert_contact(
            &app.db,
            "S",
            Some(&format!("s{i}@example.test")),
            "new_lead",
            60,
        )
        .await;
    }
    let (status, body) = send(user.post(app.url("/api/email/seed-events"))).await;
    assert_eq!(status, 200, "{body}");
    let total = body["totalEvents"].as_i64().unwrap();
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM email_events WHERE is_demo").await,
        total
    );
    let a = app.get_json(&user, "/api/email/analytics").await;
    assert_eq!(
        (
            a["totalSent"].as_i64(),
            a["openRate"].as_f64(),
            a["clickRate"].as_f64(),
            a["replyRate"].as_f64()
        ),
        (Some(20), Some(45.0), Some(15.0), Some(5.0)),
        "{a}"
    );
    let campaigns = app.get_json(&user, "/api/campaigns").await;
    assert_eq!(campaigns[0]["emailsSent"], 20, "{campaigns}");
    // Single campaigns: the seed's message, and a real audience count.
    let (status, body) = send(
        user.post(app.url("/api/campaigns"))
            .json(&json!({ "name": "x" })),
    )
    .await;
    assert_eq!(
        (status, body["message"].as_str()),
        (
            422,
            Some("Missing Information: Please provide campaign name and description.")
        )
    );
    let (status, body) = send(user.post(app.url("/api/campaigns")).json(
        &json!({ "name": "Mid", "description": "mid value", "targetAudience": "medium-value" }),
    ))
    .await;
    assert_eq!(
        (
            status,
            body["totalRecipients"].as_i64(),
            body["aiModel"].as_str()
        ),
        (201, Some(20), Some("gpt-5")),
        "{body}"
    );
    app.stop().await;
}

/// Targeting by company state and chosen contacts, a scheduled campaign started by its run at
/// `scheduleAt`, and pause / resume / cancel of a campaign held by its hourly limit.
async fn scheduled_targeted_paused_and_cancelled(db: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&db, &sink, None).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let now = now_ms();
    for (id, state) in [("co-tx", "TX"), ("co-ok", "OK")] {
        exec!(
            &app.db,
            "INSERT INTO companies (id, name, state, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)",
            id,
            format!("Bath Co {state}"),
            state,
            now
        );
    }
    let mut ids = Vec::new();
    for (i, company) in ["co-tx", "co-tx", "co-tx", "co-ok"].iter().enumerate() {
        let id = insert_contact(
            &app.db,
            "T",
            Some(&format!("t{i}@example.test")),
            "new_lead",
            90,
        )
        .await;
        exec!(
            &app.db,
            "UPDATE contacts SET company_id = $1 WHERE id = $2",
            *company,
            &id
        );
        ids.push(id);
    }
    let at = chrono::Utc::now() + chrono::Duration::seconds(2);
    let (status, c) = send(user.post(app.url("/api/campaigns/bulk-email")).json(&json!({
        "name": "Texas picks", "subject": "Hi {{firstName}} of {{companyName}}", "templateId": "business-outreach",
        "targetFilters": { "states": ["Texas"] }, "selectedContactIds": [ids[0], ids[1], ids[3]],
        "scheduleAt": at.to_rfc3339(),
    })))
    .await;
    assert_eq!(status, 201, "{c}");
    assert_eq!(
        (c["status"].as_str(), c["totalRecipients"].as_i64()),
        (Some("scheduled"), Some(2)),
        "chosen and in Texas: {c}"
    );
    let id = c["id"].as_str().unwrap().to_string();
    let (status, _) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 409, "a scheduled campaign is not a draft");
    assert!(sink.count() == 0, "nothing before scheduleAt");
    let done = wait_campaign(&app, &user, &id, "sent").await;
    assert!(chrono::Utc::now() >= at);
    assert_eq!(done["stats"]["sent"], 2);
    let mut to: Vec<String> = sink.messages().iter().flat_map(|m| m.to.clone()).collect();
    to.sort();
    assert_eq!(to, ["t0@example.test", "t1@example.test"]);
    let subject = common::smtp::parse(&sink.messages()[0].raw)
        .subject()
        .unwrap()
        .to_string();
    assert!(subject.ends_with("of Bath Co TX"), "{subject}");

    // Held by the hourly limit: pause, resume (held again), cancel (the rest is cancelled).
    app.set_send_limits(&admin, 3, 1000).await;
    let (_, c) = send(
        user.post(app.url("/api/campaigns/bulk-email"))
            .json(&json!({
                "name": "Everyone", "subject": "Hi", "templateId": "follow-up", "targetFilters": {}
            })),
    )
    .await;
    let id = c["id"].as_str().unwrap().to_string();
    send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    eventually(T, "one sent, the rest held", || async {
        let v = campaign(&app, &user, &id).await;
        (v["stats"]["sent"] == 1 && v["progress"]["queued"] == 3).then_some(())
    })
    .await;
    let (status, v) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/pause")))).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("paused")), "{v}");
    let (status, _) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/pause")))).await;
    assert_eq!(status, 409);
    let (status, r) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/resume")))).await;
    assert_eq!(status, 200, "{r}");
    let (status, v) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/cancel")))).await;
    assert_eq!(
        (
            status,
            v["status"].as_str(),
            v["progress"]["queued"].as_i64()
        ),
        (200, Some("cancelled"), Some(0)),
        "{v}"
    );
    let (status, _) = send(user.post(app.url("/api/campaigns/bulk-email/nope/cancel"))).await;
    assert_eq!(status, 404);
    assert_eq!(sink.count(), 3, "limits held: 2 + 1");
    app.stop().await;
}

/// SIGKILL a worker mid-campaign, start another: no recipient gets two messages, every row the
/// ledger calls sent reached the server exactly once, and only rows in flight at the kill are in doubt.
async fn kill_the_worker_mid_campaign(db: TestDb) {
    const N: usize = 1500;
    let sink = SmtpSink::start();
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    app.set_send_limits(&admin, 1_000_000, 1_000_000).await;
    let now = now_ms();
    let values: Vec<String> = (0..N)
        .map(|i| {
            format!("('k{i:05}', 'K', 'Kill', 'k{i}@example.test', 'new_lead', 90, {now}, {now})")
        })
        .collect();
    let sql = format!(
        "INSERT INTO contacts (id, first_name, last_name, email, status, score, created_at, updated_at) VALUES {}",
        values.join(", ")
    );
    exec!(&app.db, sql);
    let (_, c) = send(
        admin
            .post(app.url("/api/campaigns/bulk-email"))
            .json(&json!({
                "name": "Kill test", "subject": "Hi", "templateId": "follow-up", "targetFilters": {}
            })),
    )
    .await;
    let id = c["id"].as_str().unwrap().to_string();
    let (status, _) =
        send(admin.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 200);

    let mut env = fast_env();
    env.push(("SMTP_URL", sink.url()));
    env.push(("MAIL_POSTAL_ADDRESS", POSTAL.into()));
    env.push(("MAIL_SEND_CONCURRENCY", "8".into()));
    let mut a = Proc::spawn(&db, &["worker"], &env);
    eventually(T, "a first part sent", || async {
        (sink.count() >= N / 4).then_some(())
    })
    .await;
    a.signal(9);
    assert!(a.wait_exit(Duration::from_secs(5)).is_some());
    let at_kill = sink.count();
    assert!(at_kill < N, "killed mid-campaign ({at_kill} of {N})");

    let b = Proc::spawn(&db, &["worker"], &env);
    let done = eventually(
        Duration::from_secs(90),
        "campaign sent after the restart",
        || async {
            let v = campaign(&app, &admin, &id).await;
            (v["status"] == "sent").then_some(v)
        },
    )
    .await;
    drop(b);

    let rows: Vec<(String, String)> = match &app.db {
        Db::Sqlite(p) => sqlx::query_as("SELECT to_email, status FROM email_messages")
            .fetch_all(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as("SELECT to_email, status FROM email_messages")
            .fetch_all(p.write())
            .await
            .unwrap(),
    };
    assert_eq!(rows.len(), N);
    let mut got = std::collections::HashMap::<String, usize>::new();
    for m in sink.messages() {
        for to in m.to {
            *got.entry(to).or_default() += 1;
        }
    }
    assert!(
        got.values().all(|n| *n == 1),
        "no recipient got two messages"
    );
    let in_doubt = rows.iter().filter(|(_, s)| s == "unknown").count();
    let in_doubt_ids: Vec<(String, String)> = match &app.db {
        Db::Sqlite(p) => {
            sqlx::query_as("SELECT id, to_email FROM email_messages WHERE status = 'unknown'")
                .fetch_all(p.write())
                .await
                .unwrap()
        }
        Db::Postgres(p) => {
            sqlx::query_as("SELECT id, to_email FROM email_messages WHERE status = 'unknown'")
                .fetch_all(p.write())
                .await
                .unwrap()
        }
    };
    for (to, status) in &rows {
        match status.as_str() {
            "sent" => assert_eq!(got.get(to), Some(&1), "{to}: sent once"),
            "unknown" => {}
            other => panic!("{to} ended {other}"),
        }
    }
    // Every contact a recorded send reached is marked contacted for it, also those whose
    // marking the kill cut off (the restarted run puts them right).
    let unmarked: i64 = scalar(
        &app.db,
        "SELECT COUNT(*) FROM email_messages m JOIN contacts c ON c.id = m.contact_id
         WHERE m.status = 'sent' AND (c.status <> 'email_sent' OR c.last_contacted_at IS NULL
             OR c.last_contacted_at < m.sent_at)",
    )
    .await;
    assert_eq!(unmarked, 0, "contacts reached and not marked contacted");
    // Rows claimed and not yet recorded are at most 6 × MAIL_SEND_CONCURRENCY (the run's permits).
    assert!(
        in_doubt <= 48,
        "only rows in flight at the kill are in doubt ({in_doubt})"
    );
    let reached = rows
        .iter()
        .filter(|(to, s)| s == "unknown" && got.contains_key(to))
        .count();
    println!(
        "killed after {at_kill} of {N}: {in_doubt} in doubt, {reached} of them reached the server"
    );

    // The provider's delivered events settle the in-doubt messages that did arrive.
    let events: Vec<Value> = in_doubt_ids
        .iter()
        .filter(|(_, to)| got.contains_key(to))
        .map(|(id, to)| json!({ "email": to, "event": "delivered", "timestamp": 1_700_000_000, "sg_event_id": format!("d-{id}"), "prospector_message_id": id }))
        .collect();
    let webhook = webhook_path(&app, &admin).await;
    let (status, r) = send(app.anonymous().post(app.url(&webhook)).json(&events)).await;
    assert_eq!(
        (status, r["recorded"].as_u64()),
        (200, Some(reached as u64)),
        "{r}"
    );
    let still: i64 = scalar(
        &app.db,
        "SELECT COUNT(*) FROM email_messages WHERE status = 'unknown'",
    )
    .await;
    assert_eq!(still as usize, in_doubt - reached);
    assert_eq!(
        done["progress"]["inDoubt"].as_u64(),
        Some(in_doubt as u64),
        "{done}"
    );
    assert!(got.len() >= N - in_doubt);
    app.stop().await;
}

/// With no provider key (the default) the event webhook and inbound parse take nothing without the
/// install's token; the token is shown to admins, rotates, and the old one stops at once.
async fn webhooks_need_the_install_token(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let user = app.user().await;
    insert_contact(&app.db, "Vic", Some("victim@example.test"), "customer", 80).await;
    let spam = |id: &str| json!([{ "email": "victim@example.test", "event": "spamreport", "timestamp": 1_700_000_000, "sg_event_id": id }]);
    let suppressed = || scalar(&app.db, "SELECT COUNT(*) FROM suppressions");

    // A stranger's forged spam report: refused, the contact stays mailable.
    for path in [
        "/api/email/webhook",
        "/api/email/webhook?token=",
        "/api/email/webhook?token=guess",
    ] {
        let (status, body) = send(app.anonymous().post(app.url(path)).json(&spam("s-0"))).await;
        assert_eq!(status, 401, "{path}: {body}");
        assert!(
            body["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{body}"
        );
    }
    assert_eq!(suppressed().await, 0, "an anonymous call suppresses nobody");
    let (status, _) = send(
        app.anonymous()
            .post(app.url("/api/email/inbound"))
            .multipart(reqwest::multipart::Form::new().text("from", "victim@example.test")),
    )
    .await;
    assert_eq!(status, 401, "inbound parse needs the token too");

    // Admins see both URLs in full; other users see them without the token.
    let cfg = app.get_json(&admin, "/api/email/webhook/config").await;
    assert_eq!(
        (cfg["webhookAuth"].as_str(), cfg["tokenVisible"].as_bool()),
        (Some("token"), Some(true)),
        "{cfg}"
    );
    let webhook = path_of_url(&cfg["webhookUrl"]);
    let inbound = path_of_url(&cfg["inboundUrl"]);
    let token = webhook
        .split_once("?token=")
        .map(|(_, t)| t.to_string())
        .unwrap();
    assert!(token.len() >= 43, "32 random bytes: {token}");
    assert_eq!(inbound, format!("/api/email/inbound?token={token}"));
    let stored: String = scalar!(&app.db, String, "SELECT value FROM app_secrets");
    assert!(!stored.contains(&token), "the token is sealed at rest");
    let seen = app.get_json(&user, "/api/email/webhook/config").await;
    assert_eq!(seen["tokenVisible"], false, "{seen}");
    assert!(
        !seen.to_string().contains(&token),
        "a non-admin never sees the token"
    );
    assert_eq!(
        app.get_json(&admin, "/api/email/webhook/config").await["webhookUrl"],
        cfg["webhookUrl"],
        "the token stays until rotated"
    );

    // With the token: accepted.
    let (status, r) = send(app.anonymous().post(app.url(&webhook)).json(&spam("s-1"))).await;
    assert_eq!((status, r["recorded"].as_i64()), (200, Some(1)), "{r}");
    assert_eq!(suppressed().await, 1);
    let (status, r) = send(
        app.anonymous()
            .post(app.url(&inbound))
            .multipart(reqwest::multipart::Form::new().text("from", "victim@example.test")),
    )
    .await;
    assert_eq!((status, r["matched"].as_bool()), (200, Some(false)), "{r}");

    // Rotation: admins only; the old URLs stop working at once, the new ones work.
    let (status, _) = send(user.post(app.url("/api/email/webhook/rotate"))).await;
    assert_eq!(status, 403);
    let (status, rotated) = send(admin.post(app.url("/api/email/webhook/rotate"))).await;
    assert_eq!(status, 200, "{rotated}");
    let fresh = path_of_url(&rotated["webhookUrl"]);
    assert_ne!(fresh, webhook);
    let (status, _) = send(app.anonymous().post(app.url(&webhook)).json(&spam("s-2"))).await;
    assert_eq!(status, 401, "the old token is refused after a rotation");
    let (status, _) = send(
        app.anonymous()
            .post(app.url(&inbound))
            .multipart(reqwest::multipart::Form::new().text("from", "victim@example.test")),
    )
    .await;
    assert_eq!(status, 401, "the old inbound URL is refused too");
    let (status, r) = send(app.anonymous().post(app.url(&fresh)).json(&spam("s-3"))).await;
    assert_eq!((status, r["recorded"].as_i64()), (200, Some(1)), "{r}");
    assert_eq!(
        app.get_json(&admin, "/api/email/webhook/config").await["webhookUrl"],
        rotated["webhookUrl"]
    );
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'email.webhook_token.rotate'"
        )
        .await,
        1
    );
    app.stop().await;
}

/// A suppression (forged or mistaken) can be lifted by an admin, with an audit entry; the contact
/// can then be emailed again. Other users get 403 and change nothing.
async fn admins_lift_a_suppression(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let user = app.user().await;
    let contact = insert_contact(&app.db, "Sam", Some("Sam@Example.test"), "customer", 80).await;
    app.db
        .suppression_add("sam@example.test", "spam_reported", "webhook", now_ms())
        .await
        .unwrap();
    let email =
        || {
            send(user.post(app.url("/api/contacts/email")).json(
                &json!({ "contactId": contact, "subject": "Hello", "message": "Back in touch" }),
            ))
        };
    let (status, _) = email().await;
    assert_eq!(status, 422, "suppressed");

    let res = user
        .get(app.url("/api/email/suppressions?q=sam"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "1");
    let list: Value = res.json().await.unwrap();
    assert_eq!(
        (
            list[0]["email"].as_str(),
            list[0]["reason"].as_str(),
            list[0]["contactId"].as_str()
        ),
        (
            Some("sam@example.test"),
            Some("spam_reported"),
            Some(contact.as_str())
        ),
        "{list}"
    );
    let all = user
        .get(app.url("/api/email/suppressions"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        all.headers()["x-total-count"],
        "1",
        "no filter: every entry"
    );
    let none = user
        .get(app.url("/api/email/suppressions?q=nobody"))
        .send()
        .await
        .unwrap();
    assert_eq!(none.headers()["x-total-count"], "0");
    let lift = "/api/email/suppressions/sam%40example.test";
    let (status, body) = send(user.delete(app.url(lift))).await;
    assert_eq!(status, 403, "{body}");
    let (status, _) = send(app.anonymous().delete(app.url(lift))).await;
    assert_eq!(status, 401);
    let (status, _) = email().await;
    assert_eq!(status, 422, "a refused lift changes nothing");

    let (status, body) = send(admin.delete(app.url(lift))).await;
    assert_eq!(
        (status, body["reason"].as_str()),
        (200, Some("spam_reported")),
        "{body}"
    );
    let (status, _) = send(admin.delete(app.url(lift))).await;
    assert_eq!(status, 404, "nothing left to lift");
    let (status, body) = email().await;
    assert_eq!(status, 202, "the contact can be emailed again: {body}");
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM audit_log WHERE action = 'email.suppression.lift' AND target = 'sam@example.test' AND actor_email = 'admin@test.local'"
        )
        .await,
        1
    );
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM activities WHERE type = 'suppression_lifted'"
        )
        .await,
        1
    );

    // A lifted hard bounce starts the count again: the next bounce alone does not suppress the
    // address (two are needed, as for a new one).
    for i in 0..2 {
        let (status, _) = send(app.anonymous().post(app.url(&webhook_path(&app, &admin).await)).json(&json!([
            { "email": "bo@example.test", "event": "bounce", "type": "bounce", "timestamp": 1_700_000_000 + i, "sg_event_id": format!("old-{i}") }
        ])))
        .await;
        assert_eq!(status, 200);
    }
    assert_eq!(
        app.db
            .suppression_get("bo@example.test")
            .await
            .unwrap()
            .as_deref(),
        Some("hard_bounced")
    );
    let (status, _) = send(admin.delete(app.url("/api/email/suppressions/bo@example.test"))).await;
    assert_eq!(status, 200);
    let later = now_ms() / 1000 + 60;
    for (i, expected) in [None, Some("hard_bounced")].into_iter().enumerate() {
        let (status, _) = send(app.anonymous().post(app.url(&webhook_path(&app, &admin).await)).json(&json!([
            { "email": "bo@example.test", "event": "bounce", "type": "bounce", "timestamp": later + i as i64, "sg_event_id": format!("new-{i}") }
        ])))
        .await;
        assert_eq!(status, 200);
        assert_eq!(
            app.db
                .suppression_get("bo@example.test")
                .await
                .unwrap()
                .as_deref(),
            expected,
            "bounce {i} after the lift"
        );
    }
    app.stop().await;
}

both_backends!(
    webhooks_need_the_install_token,
    admins_lift_a_suppression,
    kill_the_worker_mid_campaign,
    scheduled_targeted_paused_and_cancelled,
    bulk_campaign_reaches_each_recipient_once,
    smtp_deferral_and_permanent_failure,
    limits_defer_to_the_next_window,
    direct_email_tracking_and_webhook,
    sample_events_for_an_empty_install,
);
