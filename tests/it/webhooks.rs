//! Outbound webhooks (issue 24 §4, docs/webhooks.md): an admin registers an endpoint, events from
//! the places they happen become signed deliveries (Standard Webhooks), retried through the queue,
//! recorded attempt by attempt, redeliverable, and an endpoint that keeps failing is disabled. A
//! wiremock server is the receiver; signatures are checked with an HMAC computed here. Every test
//! runs on SQLite and on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::collections::{BTreeSet, HashMap};
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use common::*;
use hmac::{Hmac, Mac};
use jobs::providers::Providers;
use jobs::providers::webhooks::Webhooks;
use jobs::sealed::Sealer;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};
use sha2::Sha256;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

both_backends!(
    signed_delivery_redelivery_and_rotation,
    retries_honour_retry_after_then_deliver,
    timeouts_and_410_disable_endpoints,
    private_addresses_are_refused_without_the_flag,
    rolled_back_change_sends_nothing,
    every_place_emits_its_event,
);

const T: Duration = Duration::from_secs(30);

/// The api and a worker whose webhooks may reach this machine (`WEBHOOK_ALLOW_PRIVATE=true`) and
/// give up after `timeout`; 3 attempts a delivery, retries 0.3 s and 1.2 s apart (±50 %).
async fn app(tdb: &TestDb, allow_private: bool) -> TestApp {
    let mut settings = fast_settings();
    settings.backoff_base = Duration::from_millis(20);
    settings.max_attempts =
        HashMap::from([("webhook_deliver".to_string(), 3), ("noop".to_string(), 1)]);
    let webhooks =
        Webhooks::new(Sealer::new(&[9u8; 32]), allow_private).with_timeout(Duration::from_secs(1));
    TestApp::spawn(
        tdb,
        AppOptions {
            settings,
            providers: Some(Providers::embedded().with_webhooks(webhooks)),
            ..Default::default()
        },
    )
    .await
}

/// Registers an endpoint; its id and secret.
async fn endpoint(app: &TestApp, admin: &Client, url: &str, events: &[&str]) -> (String, String) {
    let (status, v) = send(
        admin
            .post(app.url("/api/admin/webhooks"))
            .json(&json!({ "url": url, "description": "CRM sync", "eventTypes": events })),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    let secret = v["secret"].as_str().unwrap().to_string();
    (v["id"].as_str().unwrap().to_string(), secret)
}

/// The requests `server` got, once there are at least `n`.
async fn received(server: &MockServer, n: usize) -> Vec<Request> {
    eventually(T, &format!("{n} webhook requests"), || async {
        let got = server.received_requests().await.unwrap_or_default();
        (got.len() >= n).then_some(got)
    })
    .await
}

fn header<'a>(r: &'a Request, name: &str) -> &'a str {
    r.headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("no {name} header"))
}

/// Checks `webhook-signature` against an HMAC-SHA256 computed here, as a receiver would.
fn verify(r: &Request, secret: &str) -> bool {
    let key = STANDARD
        .decode(secret.strip_prefix("whsec_").unwrap())
        .unwrap();
    let signed = format!(
        "{}.{}.{}",
        header(r, "webhook-id"),
        header(r, "webhook-timestamp"),
        String::from_utf8_lossy(&r.body)
    );
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).unwrap();
    mac.update(signed.as_bytes());
    let expected = format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()));
    header(r, "webhook-signature") == expected
}

fn body(r: &Request) -> Value {
    serde_json::from_slice(&r.body).unwrap()
}

async fn deliveries(app: &TestApp, admin: &Client, endpoint: &str) -> Vec<Value> {
    let v = app
        .get_json(admin, &format!("/api/admin/webhooks/{endpoint}/deliveries"))
        .await;
    v.as_array().unwrap().clone()
}

/// The endpoint's deliveries once `pred` holds for them.
async fn deliveries_when(
    app: &TestApp,
    admin: &Client,
    endpoint: &str,
    pred: impl Fn(&[Value]) -> bool,
) -> Vec<Value> {
    eventually(T, "deliveries", || async {
        let list = deliveries(app, admin, endpoint).await;
        pred(&list).then_some(list)
    })
    .await
}

async fn send_test(app: &TestApp, admin: &Client, endpoint: &str) -> (u16, Value) {
    send(admin.post(app.url(&format!("/api/admin/webhooks/{endpoint}/test")))).await
}

async fn signed_delivery_redelivery_and_rotation(tdb: TestDb) {
    let app = app(&tdb, true).await;
    let admin = app.admin().await;
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .respond_with(ResponseTemplate::new(200).set_body_string("ok"))
        .mount(&server)
        .await;
    let url = format!("{}/hook", server.uri());

    // Bad input is a 422 naming the field; an unknown endpoint 404; users and strangers are kept out.
    for (bad, field) in [
        (
            json!({ "url": url, "eventTypes": ["contact.deleted"] }),
            "eventTypes",
        ),
        (json!({ "url": url, "eventTypes": [] }), "eventTypes"),
        (
            json!({ "url": "ftp://x.example", "eventTypes": ["job.failed"] }),
            "url",
        ),
        (json!({ "eventTypes": ["job.failed"] }), "url"),
        (
            json!({ "url": url, "eventTypes": ["job.failed"], "enabled": "yes" }),
            "enabled",
        ),
    ] {
        let (status, v) = send(admin.post(app.url("/api/admin/webhooks")).json(&bad)).await;
        assert_eq!(status, 422, "{bad}: {v}");
        assert!(v["errors"][field].is_string(), "{bad}: {v}");
    }
    let (status, _) = send(admin.get(app.url("/api/admin/webhooks/nope/deliveries"))).await;
    assert_eq!(status, 404);
    let user = app.user().await;
    let (status, _) = send(user.get(app.url("/api/admin/webhooks"))).await;
    assert_eq!(status, 403);
    let (status, _) = send(
        user.post(app.url("/api/admin/webhooks"))
            .json(&json!({ "url": url, "eventTypes": ["job.failed"] })),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _) = send(app.anonymous().get(app.url("/api/admin/webhooks"))).await;
    assert_eq!(status, 401);

    let (id, secret) = endpoint(&app, &admin, &url, &["contact.created"]).await;
    assert!(secret.starts_with("whsec_"), "{secret}");
    assert!(STANDARD.decode(&secret[6..]).unwrap().len() >= 24);
    let listed = app.get_json(&admin, "/api/admin/webhooks").await;
    assert_eq!(listed[0]["eventTypes"], json!(["contact.created"]));
    assert!(
        listed[0].get("secret").is_none(),
        "the secret is shown once"
    );
    assert!(!listed.to_string().contains(&secret[6..]));

    // A contact added through the api is sent, signed.
    let (status, contact) = send(user.post(app.url("/api/contacts")).json(&json!({
        "firstName": "Wendy", "lastName": "Hook", "email": "wendy@hooks.example",
    })))
    .await;
    assert_eq!(status, 201, "{contact}");
    let first = received(&server, 1).await.remove(0);
    assert!(verify(&first, &secret), "signature");
    assert_eq!(header(&first, "content-type"), "application/json");
    let msg_id = header(&first, "webhook-id").to_string();
    assert!(msg_id.starts_with("msg_") && msg_id.len() == 30, "{msg_id}");
    let ts: i64 = header(&first, "webhook-timestamp").parse().unwrap();
    assert!((ts - now_ms() / 1000).abs() < 60, "{ts}");
    let event = body(&first);
    assert_eq!(event["type"], "contact.created");
    assert!(chrono::DateTime::parse_from_rfc3339(event["timestamp"].as_str().unwrap()).is_ok());
    assert_eq!(event["data"]["contact"]["id"], contact["id"]);
    assert_eq!(event["data"]["contact"]["email"], "wendy@hooks.example");
    assert_eq!(event["data"]["contact"]["firstName"], "Wendy");
    assert!(first.body.starts_with(b"{\"type\":"), "type comes first");

    let list = deliveries_when(&app, &admin, &id, |d| {
        d.len() == 1 && d[0]["status"] == "delivered"
    })
    .await;
    let d = &list[0];
    assert_eq!(d["id"], msg_id.as_str());
    assert_eq!(d["eventType"], "contact.created");
    assert_eq!(d["attempts"].as_array().unwrap().len(), 1);
    assert_eq!(d["attempts"][0]["statusCode"], 200);
    assert_eq!(d["attempts"][0]["response"], "ok");
    assert_eq!(d["payload"], event);

    // Redelivered by hand: a new job, the same webhook-id and body.
    let (status, v) = send(admin.post(app.url(&format!(
        "/api/admin/webhooks/{id}/deliveries/{msg_id}/redeliver"
    ))))
    .await;
    assert_eq!(status, 202, "{v}");
    assert_eq!(v["deliveryId"], msg_id.as_str());
    let again = received(&server, 2).await.remove(1);
    assert_eq!(header(&again, "webhook-id"), msg_id);
    assert_eq!(again.body, first.body);
    assert!(verify(&again, &secret));
    let list = deliveries_when(&app, &admin, &id, |d| {
        d[0]["attempts"].as_array().is_some_and(|a| a.len() == 2) && d[0]["status"] == "delivered"
    })
    .await;
    assert_eq!(list.len(), 1);

    // A rotated secret signs the next event; the old one no longer verifies.
    let (status, v) =
        send(admin.post(app.url(&format!("/api/admin/webhooks/{id}/rotate-secret")))).await;
    assert_eq!(status, 200, "{v}");
    let rotated = v["secret"].as_str().unwrap().to_string();
    assert_ne!(rotated, secret);
    let (status, v) = send_test(&app, &admin, &id).await;
    assert_eq!(status, 202, "{v}");
    let test = received(&server, 3).await.remove(2);
    assert_eq!(body(&test)["type"], "webhook.test");
    assert_eq!(body(&test)["data"]["endpointId"], id.as_str());
    assert!(verify(&test, &rotated) && !verify(&test, &secret));
    app.stop().await;
}

async fn retries_honour_retry_after_then_deliver(tdb: TestDb) {
    let app = app(&tdb, true).await;
    let admin = app.admin().await;
    let server = MockServer::start().await;
    for (priority, response) in [
        (
            1,
            ResponseTemplate::new(429).insert_header("retry-after", "1"),
        ),
        (
            2,
            ResponseTemplate::new(500).set_body_string("database down"),
        ),
    ] {
        Mock::given(method("POST"))
            .respond_with(response)
            .up_to_n_times(1)
            .with_priority(priority)
            .mount(&server)
            .await;
    }
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(204))
        .with_priority(3)
        .mount(&server)
        .await;
    let (id, secret) = endpoint(&app, &admin, &server.uri(), &["job.failed"]).await;
    let (status, _) = send_test(&app, &admin, &id).await;
    assert_eq!(status, 202);

    let list = deliveries_when(&app, &admin, &id, |d| {
        d.first().is_some_and(|d| d["status"] == "delivered")
    })
    .await;
    let attempts = list[0]["attempts"].as_array().unwrap();
    let codes: Vec<&Value> = attempts.iter().map(|a| &a["statusCode"]).collect();
    assert_eq!(codes, [&json!(429), &json!(500), &json!(204)]);
    assert_eq!(attempts[1]["error"], "HTTP 500");
    assert_eq!(attempts[1]["response"], "database down");
    // The 429's Retry-After (1 s) held the second attempt back; the backoff alone is 0.15–0.45 s.
    let at = |a: &Value| {
        chrono::DateTime::parse_from_rfc3339(a["attemptedAt"].as_str().unwrap())
            .unwrap()
            .timestamp_millis()
    };
    assert!(at(&attempts[1]) - at(&attempts[0]) >= 1000, "{attempts:?}");
    let requests = received(&server, 3).await;
    let ids: BTreeSet<&str> = requests.iter().map(|r| header(r, "webhook-id")).collect();
    assert_eq!(ids.len(), 1, "one webhook-id across the retries");
    assert!(requests.iter().all(|r| verify(r, &secret)));
    let job = app.job(&admin, list[0]["jobId"].as_str().unwrap()).await;
    assert_eq!(
        (job["status"].as_str(), job["attempts"].as_i64()),
        (Some("succeeded"), Some(3))
    );
    let endpoint = app
        .get_json(&admin, &format!("/api/admin/webhooks/{id}"))
        .await;
    assert_eq!(endpoint["failureStreak"], 0);
    app.stop().await;
}

async fn timeouts_and_410_disable_endpoints(tdb: TestDb) {
    let app = app(&tdb, true).await;
    let admin = app.admin().await;
    let server = MockServer::start().await;
    Mock::given(path("/slow"))
        .respond_with(ResponseTemplate::new(200).set_delay(Duration::from_secs(3)))
        .mount(&server)
        .await;
    Mock::given(path("/gone"))
        .respond_with(ResponseTemplate::new(410))
        .mount(&server)
        .await;
    let (slow, _) = endpoint(
        &app,
        &admin,
        &format!("{}/slow", server.uri()),
        &["job.failed"],
    )
    .await;
    let (gone, _) = endpoint(
        &app,
        &admin,
        &format!("{}/gone", server.uri()),
        &["job.failed"],
    )
    .await;

    // 410 Gone: one attempt, and the endpoint is disabled at once.
    send_test(&app, &admin, &gone).await;
    let list = deliveries_when(&app, &admin, &gone, |d| {
        d.first().is_some_and(|d| d["status"] == "failed")
    })
    .await;
    assert_eq!(list[0]["attempts"].as_array().unwrap().len(), 1);
    let e = app
        .get_json(&admin, &format!("/api/admin/webhooks/{gone}"))
        .await;
    assert_eq!(
        (e["enabled"].as_bool(), e["disabledReason"].as_str()),
        (Some(false), Some("The endpoint answered 410 Gone"))
    );

    // Five deliveries that time out on every attempt: the fifth failure in a row disables it.
    for _ in 0..5 {
        let (status, v) = send_test(&app, &admin, &slow).await;
        assert_eq!(status, 202, "{v}");
    }
    let e = eventually(T, "the endpoint disabled", || async {
        let e = app
            .get_json(&admin, &format!("/api/admin/webhooks/{slow}"))
            .await;
        (e["enabled"] == false).then_some(e)
    })
    .await;
    assert_eq!(
        e["disabledReason"],
        "5 deliveries in a row failed (last: timed out after 1 s)"
    );
    let list = deliveries(&app, &admin, &slow).await;
    assert_eq!(list.len(), 5);
    for d in &list {
        assert_eq!(d["status"], "failed", "{d}");
        let attempts = d["attempts"].as_array().unwrap();
        assert_eq!(attempts.len(), 3, "{d}");
        assert!(
            attempts
                .iter()
                .all(|a| a["error"] == "timed out after 1 s" && a["statusCode"].is_null())
        );
    }
    // The ops screen's audit feed says so; a disabled endpoint takes no test and no redelivery.
    let audit = app.get_json(&admin, "/api/ops/audit").await;
    let disabled: Vec<&Value> = audit
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"] == "webhook.disabled")
        .collect();
    assert_eq!(disabled.len(), 2, "{audit}");
    let (status, _) = send_test(&app, &admin, &slow).await;
    assert_eq!(status, 409);
    let first = list[0]["id"].as_str().unwrap();
    let (status, _) = send(admin.post(app.url(&format!(
        "/api/admin/webhooks/{slow}/deliveries/{first}/redeliver"
    ))))
    .await;
    assert_eq!(status, 409);

    // Enabled again by the admin: a clean slate.
    let (status, e) = send(
        admin
            .patch(app.url(&format!("/api/admin/webhooks/{slow}")))
            .json(&json!({ "enabled": true })),
    )
    .await;
    assert_eq!(status, 200, "{e}");
    assert_eq!(
        (e["enabled"].as_bool(), e["failureStreak"].as_i64()),
        (Some(true), Some(0))
    );
    assert!(e["disabledReason"].is_null());
    app.stop().await;
}

async fn private_addresses_are_refused_without_the_flag(tdb: TestDb) {
    let app = app(&tdb, false).await;
    let admin = app.admin().await;
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200))
        .mount(&server)
        .await;
    let port = server.address().port();
    for (url, says) in [
        (
            format!("http://127.0.0.1:{port}/hook"),
            "URL must use https",
        ),
        (
            format!("https://127.0.0.1:{port}/hook"),
            "a loopback address",
        ),
        (format!("https://localhost:{port}/hook"), "a loopback name"),
        ("https://10.0.0.8/hook".to_string(), "a private address"),
        (
            "https://169.254.169.254/latest/meta-data".to_string(),
            "a link-local address",
        ),
        (
            format!("https://example.com/{}", "x".repeat(2000)),
            "2000 characters",
        ),
    ] {
        let (status, v) = send(
            admin
                .post(app.url("/api/admin/webhooks"))
                .json(&json!({ "url": url, "eventTypes": ["job.failed"] })),
        )
        .await;
        assert_eq!(status, 422, "{url}: {v}");
        assert!(
            v["errors"]["url"].as_str().unwrap().contains(says),
            "{url}: {v}"
        );
    }

    // At send time every address a name resolves to is checked: localhost is refused before any
    // connection, as is a literal address; nothing reaches the receiver.
    let sender = Webhooks::new(Sealer::new(&[1u8; 32]), false);
    let answer = sender
        .post(&format!("https://localhost:{port}/hook"), &[], "{}".into())
        .await;
    assert!(answer.refused, "{answer:?}");
    let error = answer.error.unwrap_or_default();
    assert!(
        error.contains("localhost resolves to a loopback address"),
        "{error}"
    );
    let answer = sender
        .post(&format!("https://127.0.0.1:{port}/hook"), &[], "{}".into())
        .await;
    assert!(answer.refused && answer.status.is_none(), "{answer:?}");
    assert_eq!(
        server.received_requests().await.unwrap_or_default().len(),
        0
    );

    // With the flag, redirects are still not followed: a 3xx is a failed attempt.
    Mock::given(path("/moved"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "/elsewhere"))
        .with_priority(1)
        .mount(&server)
        .await;
    let open = Webhooks::new(Sealer::new(&[1u8; 32]), true);
    let answer = open
        .post(&format!("http://localhost:{port}/moved"), &[], "{}".into())
        .await;
    assert_eq!(answer.status, Some(302));
    assert!(!answer.delivered());
    assert!(answer.error.unwrap_or_default().contains("not followed"));
    let paths: Vec<String> = server
        .received_requests()
        .await
        .unwrap_or_default()
        .iter()
        .map(|r| r.url.path().to_string())
        .collect();
    assert_eq!(paths, ["/moved"]);
    app.stop().await;
}

async fn rolled_back_change_sends_nothing(tdb: TestDb) {
    let app = app(&tdb, true).await;
    let admin = app.admin().await;
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200))
        .mount(&server)
        .await;
    endpoint(&app, &admin, &server.uri(), &["contact.created"]).await;
    let data = json!({ "contact": { "id": "c-rolled-back" } });

    let mut tx = app.db.begin().await.unwrap();
    assert_eq!(
        tx.webhook_emit("contact.created", &data, now_ms())
            .await
            .unwrap(),
        1
    );
    tx.rollback().await.unwrap();
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM webhook_deliveries").await,
        0
    );
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'webhook_deliver'"
        )
        .await,
        0
    );
    // Nor does an event nobody subscribes to make anything.
    let mut tx = app.db.begin().await.unwrap();
    assert_eq!(
        tx.webhook_emit("deal.won", &data, now_ms()).await.unwrap(),
        0
    );
    // The same event committed is sent.
    assert_eq!(
        tx.webhook_emit("contact.created", &data, now_ms())
            .await
            .unwrap(),
        1
    );
    tx.commit().await.unwrap();
    let sent = received(&server, 1).await;
    assert_eq!(body(&sent[0])["data"]["contact"]["id"], "c-rolled-back");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        server.received_requests().await.unwrap_or_default().len(),
        1
    );
    app.stop().await;
}

async fn every_place_emits_its_event(tdb: TestDb) {
    let app = app(&tdb, true).await;
    let admin = app.admin().await;
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200))
        .mount(&server)
        .await;
    let catalogue = app
        .get_json(&admin, "/api/admin/webhooks/event-types")
        .await;
    let all: Vec<&str> = catalogue
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(all.len(), 15);
    endpoint(&app, &admin, &server.uri(), &all).await;
    let ok = |(status, v): (u16, Value), want: u16| {
        assert_eq!(status, want, "{v}");
        v
    };

    let contact = ok(
        send(admin.post(app.url("/api/contacts")).json(&json!({
            "firstName": "Eve", "lastName": "Event", "email": "eve@events.example",
        })))
        .await,
        201,
    );
    let cid = contact["id"].as_str().unwrap().to_string();
    ok(
        send(
            admin
                .put(app.url(&format!("/api/contacts/{cid}")))
                .json(&json!({ "status": "qualified", "title": "Owner" })),
        )
        .await,
        200,
    );
    ok(
        send(
            admin
                .post(app.url("/api/contacts/bulk-status"))
                .json(&json!({
                    "contactIds": [cid], "status": "customer",
                })),
        )
        .await,
        200,
    );
    let deal = ok(
        send(admin.post(app.url("/api/deals")).json(&json!({
            "title": "Walk-in tubs", "value": "5000", "contactId": cid,
        })))
        .await,
        201,
    );
    let did = deal["id"].as_str().unwrap().to_string();
    ok(
        send(
            admin
                .put(app.url(&format!("/api/deals/{did}")))
                .json(&json!({ "stage": "closed_won" })),
        )
        .await,
        200,
    );
    let when = chrono::Utc::now() + chrono::Duration::days(3);
    ok(
        send(admin.post(app.url("/api/meetings")).json(&json!({
            "title": "Showroom visit", "scheduledDate": when.to_rfc3339(), "contactId": cid,
        })))
        .await,
        201,
    );
    let invoice = ok(
        send(admin.post(app.url("/api/invoices")).json(&json!({
            "customerName": "Sunrise Bath", "customerEmail": "ap@sunrise.example",
            "date": "2026-11-02", "taxRate": 0,
            "lineItems": [{ "description": "Grab bar", "quantity": 2, "unitPrice": 20 }],
        })))
        .await,
        201,
    );
    let iid = invoice["id"].as_str().unwrap().to_string();
    ok(
        send(
            admin
                .patch(app.url(&format!("/api/invoices/{iid}")))
                .json(&json!({ "status": "paid" })),
        )
        .await,
        200,
    );
    ok(
        send(admin.post(app.url("/api/contacts/email")).json(&json!({
            "contactId": cid, "subject": "Catalog", "message": "Our new catalog",
        })))
        .await,
        202,
    );
    // Tracking and provider events reach the ledger through `event_record`.
    for kind in ["opened", "unsubscribed"] {
        app.db
            .event_record(&jobs::db::EventInsert {
                message_id: None,
                campaign_id: None,
                contact_id: Some(cid.clone()),
                email: Some("eve@events.example".into()),
                event_type: kind.into(),
                provider_event_id: None,
                url: None,
                detail: None,
                is_demo: false,
                occurred_at: now_ms(),
            })
            .await
            .unwrap();
    }
    app.enqueue(
        &admin,
        json!({ "kind": "noop", "payload": { "fail": true } }),
    )
    .await;

    let expected = [
        "contact.created",
        "contact.updated",
        "contact.status_changed",
        "deal.stage_changed",
        "deal.won",
        "meeting.booked",
        "invoice.paid",
        "email.sent",
        "email.opened",
        "contact.unsubscribed",
        "job.failed",
    ];
    let events = eventually(T, "every event", || async {
        let got: Vec<Value> = server
            .received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .map(body)
            .collect();
        let types: BTreeSet<String> = got
            .iter()
            .map(|e| e["type"].as_str().unwrap().to_string())
            .collect();
        expected.iter().all(|t| types.contains(*t)).then_some(got)
    })
    .await;
    let of = |t: &str| -> Vec<&Value> { events.iter().filter(|e| e["type"] == t).collect() };
    // Deliveries run side by side: they arrive in any order.
    let changes: BTreeSet<(&str, &str)> = of("contact.status_changed")
        .iter()
        .map(|e| {
            (
                e["data"]["from"].as_str().unwrap(),
                e["data"]["to"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        changes,
        BTreeSet::from([("discovered", "qualified"), ("qualified", "customer")])
    );
    assert_eq!(
        of("contact.updated")[0]["data"]["changed"],
        json!(["title"])
    );
    assert_eq!(of("deal.won")[0]["data"]["deal"]["id"], did.as_str());
    assert_eq!(of("deal.won")[0]["data"]["to"], "closed_won");
    assert_eq!(of("invoice.paid")[0]["data"]["invoice"]["totalCents"], 4000);
    assert_eq!(of("email.sent")[0]["data"]["contactId"], cid.as_str());
    assert_eq!(of("job.failed")[0]["data"]["job"]["kind"], "noop");
    assert_eq!(
        of("meeting.booked")[0]["data"]["meeting"]["contactId"],
        cid.as_str()
    );
    // No secrets and no message bodies in any event.
    let all_text = serde_json::to_string(&events).unwrap();
    assert!(!all_text.contains("Our new catalog") && !all_text.contains("whsec_"));
    app.stop().await;
}
