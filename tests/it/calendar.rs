//! Google Calendar sync, reminders and SMS against real parts: Google's token endpoint and Calendar
//! API and a Twilio-style SMS API as wiremock servers on loopback, reminder email through a
//! loopback SMTP server, a controllable clock for the reminder ticks. Every test runs on SQLite and
//! on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::collections::HashMap;
use std::time::Duration;

use common::smtp::{SmtpSink, parse};
use common::*;
use jobs::config::{GoogleSettings, Secret, SmsSettings};
use jobs::db::Db;
use jobs::kinds::ReminderTick;
use jobs::providers::Providers;
use jobs::providers::google::{GoogleCalendar, event_id};
use jobs::providers::http::HttpPolicy;
use jobs::providers::sms::SmsApi;
use jobs::queue::{JobKind, NewJob};
use jobs::sealed::Sealer;
use reqwest::Client;
use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, body_string_contains, header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const T: Duration = Duration::from_secs(30);
const MEET: &str = "https://meet.google.com/abc-defg-hij";

fn google(server: &MockServer) -> GoogleCalendar {
    GoogleCalendar::new(
        GoogleSettings {
            client_id: "client-1.apps.googleusercontent.com".into(),
            client_secret: Secret::new("client-secret".into()),
            auth_url: format!("{}/o/oauth2/v2/auth", server.uri()),
            token_url: format!("{}/token", server.uri()),
            api_url: format!("{}/calendar/v3", server.uri()),
            calendar_id: "primary".into(),
        },
        "http://127.0.0.1",
        Sealer::new(&[7u8; 64]),
    )
    .with_policy(HttpPolicy {
        timeout: Duration::from_secs(2),
        retries: 1,
        min_delay: Duration::from_millis(20),
        max_delay: Duration::from_millis(200),
        ..HttpPolicy::default()
    })
}

async fn calendar_app(db: &TestDb, server: &MockServer) -> TestApp {
    let mut settings = fast_settings();
    settings.max_attempts = HashMap::from([("calendar_sync".to_string(), 2)]);
    TestApp::spawn(
        db,
        AppOptions {
            providers: Some(Providers::embedded().with_calendar(google(server))),
            settings,
            ..AppOptions::default()
        },
    )
    .await
}

async fn insert_contact(db: &Db, email: Option<&str>, phone: Option<&str>, state: &str) -> String {
    let company = ulid::Ulid::new().to_string();
    let now = jobs::time::now_ms();
    exec!(
        db,
        "INSERT INTO companies (id, name, state, created_at, updated_at) VALUES ($1, 'Bath Pros', $2, $3, $3)",
        &company,
        state,
        now
    );
    let id = ulid::Ulid::new().to_string();
    exec!(
        db,
        "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, created_at, updated_at)
         VALUES ($1, $2, 'Dana', 'Reyes', $3, $4, $5, $5)",
        &id,
        &company,
        email,
        phone,
        now
    );
    id
}

async fn meeting(app: &TestApp, c: &Client, body: Value) -> Value {
    let (s, v) = send(c.post(app.url("/api/meetings")).json(&body)).await;
    assert_eq!(s, 201, "{v}");
    v
}

async fn get_meeting(app: &TestApp, c: &Client, id: &str) -> Value {
    app.get_json(c, &format!("/api/meetings/{id}")).await
}

/// Waits until the meeting's sync status is `status`.
async fn synced_to(app: &TestApp, c: &Client, id: &str, status: &str) -> Value {
    eventually(T, &format!("meeting {status}"), || async {
        let m = get_meeting(app, c, id).await;
        (m["syncStatus"] == status).then_some(m)
    })
    .await
}

fn form(r: &Request) -> HashMap<String, String> {
    url::form_urlencoded::parse(&r.body).into_owned().collect()
}

async fn requests(server: &MockServer, verb: &str, prefix: &str) -> Vec<Request> {
    server
        .received_requests()
        .await
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.method.as_str() == verb && r.url.path().starts_with(prefix))
        .collect()
}

async fn mount_token(server: &MockServer, grant: &str, access: &str, refresh: Option<&str>) {
    let mut body = json!({ "access_token": access, "expires_in": 3600, "token_type": "Bearer" });
    if let Some(r) = refresh {
        body["refresh_token"] = json!(r);
    }
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains(format!("grant_type={grant}")))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .mount(server)
        .await;
}

/// Runs the popup's connect flow: auth URL, Google's redirect back with a code, tokens stored.
async fn connect(app: &TestApp, c: &Client, server: &MockServer, code: &str) -> String {
    let v = app.get_json(c, "/api/calendar/auth-url").await;
    let auth = url::Url::parse(v["authUrl"].as_str().unwrap()).unwrap();
    let q: HashMap<String, String> = auth.query_pairs().into_owned().collect();
    assert_eq!(q["access_type"], "offline");
    assert_eq!(q["response_type"], "code");
    assert_eq!(q["redirect_uri"], "http://127.0.0.1/api/calendar/callback");
    assert_eq!(q["client_id"], "client-1.apps.googleusercontent.com");
    assert!(q["scope"].contains("calendar"));
    Mock::given(method("GET"))
        .and(path("/calendar/v3/calendars/primary"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "id": "staff@dealers.test" })),
        )
        .mount(server)
        .await;
    let res = c
        .get(app.url("/api/calendar/callback"))
        .query(&[("code", code), ("state", q["state"].as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    res.text().await.unwrap()
}

/// Google's answer to an event write: the event with its Meet link.
fn event_ok(event: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_json(json!({ "id": event, "hangoutLink": MEET }))
}

async fn mount_patch_ok(server: &MockServer, patch_path: &str, event: &str) {
    Mock::given(method("PATCH"))
        .and(path(patch_path))
        .respond_with(event_ok(event))
        .mount(server)
        .await;
}

async fn google_sync(db: TestDb) {
    let server = MockServer::start().await;
    let app = calendar_app(&db, &server).await;
    let c = app.user().await;
    let contact = insert_contact(&app.db, Some("dana@bathpros.test"), None, "TX").await;
    let m = meeting(
        &app,
        &c,
        json!({ "title": "Showroom demo", "scheduledDate": "2030-03-01T15:00:00Z", "duration": 45,
                "contactId": contact, "attendees": "Pat Lee, pat@bathpros.test", "meetingType": "demo" }),
    )
    .await;
    let id = m["id"].as_str().unwrap().to_string();

    // Not connected: the seed's 409, nothing changed.
    let v = app.get_json(&c, "/api/calendar/connection").await;
    assert_eq!(
        (v["configured"].clone(), v["connected"].clone()),
        (json!(true), json!(false))
    );
    let (s, v) = send(
        c.post(app.url(&format!("/api/meetings/{id}/sync-to-calendar")))
            .json(&json!({ "tokens": {} })),
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (409, Some("No calendar tokens available."))
    );
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'calendar_sync'"
        )
        .await,
        0
    );

    // A forged or expired state is refused and stores nothing.
    for state in ["forged", "eyJhIjoxfQ.AAAA"] {
        let res = c
            .get(app.url("/api/calendar/callback"))
            .query(&[("code", "c"), ("state", state)])
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 400);
    }
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM calendar_accounts").await,
        0
    );

    // Connect: the code is exchanged, tokens are sealed at rest and never reach the browser.
    mount_token(&server, "authorization_code", "at-1", Some("rt-1")).await;
    let page = connect(&app, &c, &server, "code-1").await;
    assert!(page.contains("google-calendar-auth") && page.contains("staff@dealers.test"));
    assert!(!page.contains("at-1") && !page.contains("rt-1"), "{page}");
    let exchange = requests(&server, "POST", "/token").await;
    let f = form(&exchange[0]);
    assert_eq!(
        (f["code"].as_str(), f["client_secret"].as_str()),
        ("code-1", "client-secret")
    );
    let stored: (String, String) = match &app.db {
        Db::Sqlite(p) => {
            sqlx::query_as("SELECT access_token, refresh_token FROM calendar_accounts")
                .fetch_one(p.write())
                .await
                .unwrap()
        }
        Db::Postgres(p) => {
            sqlx::query_as("SELECT access_token, refresh_token FROM calendar_accounts")
                .fetch_one(p.write())
                .await
                .unwrap()
        }
    };
    assert!(!stored.0.contains("at-1") && !stored.1.contains("rt-1"));
    let v = app.get_json(&c, "/api/calendar/connection").await;
    assert_eq!(
        (v["connected"].clone(), v["accountEmail"].clone()),
        (json!(true), json!("staff@dealers.test"))
    );

    // Insert with a Meet link requested; the answer's link is stored.
    let event = event_id(&id);
    Mock::given(method("POST"))
        .and(path("/calendar/v3/calendars/primary/events"))
        .and(header("authorization", "Bearer at-1"))
        .and(body_partial_json(json!({
            "id": event, "summary": "Showroom demo",
            "conferenceData": { "createRequest": { "conferenceSolutionKey": { "type": "hangoutsMeet" } } },
            "attendees": [{ "email": "dana@bathpros.test" }, { "email": "pat@bathpros.test" }]
        })))
        .respond_with(event_ok(&event))
        .mount(&server)
        .await;
    let (s, v) = send(
        c.post(app.url(&format!("/api/meetings/{id}/sync-to-calendar")))
            .json(&json!({})),
    )
    .await;
    assert_eq!((s, v["syncStatus"].as_str()), (202, Some("pending")));
    let m = synced_to(&app, &c, &id, "synced").await;
    assert_eq!(
        (
            m["googleCalendarEventId"].as_str(),
            m["googleMeetLink"].as_str()
        ),
        (Some(event.as_str()), Some(MEET))
    );
    assert!(m["lastSyncedAt"].is_string());
    let insert = requests(&server, "POST", "/calendar/v3/calendars/primary/events").await;
    let q: HashMap<String, String> = insert[0].url.query_pairs().into_owned().collect();
    assert_eq!(q["conferenceDataVersion"], "1");

    // An edit re-syncs by itself; Google says 401 once: refresh, then the patch goes through.
    server.reset().await;
    mount_token(&server, "refresh_token", "at-2", None).await;
    let patch_path = format!("/calendar/v3/calendars/primary/events/{event}");
    Mock::given(method("PATCH"))
        .and(path(patch_path.clone()))
        .and(header("authorization", "Bearer at-1"))
        .respond_with(ResponseTemplate::new(401))
        .mount(&server)
        .await;
    Mock::given(method("PATCH"))
        .and(path(patch_path.clone()))
        .and(header("authorization", "Bearer at-2"))
        .respond_with(event_ok(&event))
        .mount(&server)
        .await;
    let (s, v) = send(c.put(app.url(&format!("/api/meetings/{id}"))).json(
        &json!({ "title": "Showroom demo (moved)", "scheduledDate": "2030-03-02T16:00:00Z" }),
    ))
    .await;
    assert_eq!((s, v["syncStatus"].as_str()), (200, Some("pending")));
    synced_to(&app, &c, &id, "synced").await;
    let patches = requests(&server, "PATCH", &patch_path).await;
    let last: Value = serde_json::from_slice(&patches.last().unwrap().body).unwrap();
    assert_eq!(last["summary"], "Showroom demo (moved)");
    assert_eq!(last["start"]["dateTime"], "2030-03-02T16:00:00+00:00");
    assert_eq!(last["end"]["dateTime"], "2030-03-02T16:45:00+00:00");
    assert_eq!(
        requests(&server, "POST", "/token").await.len(),
        1,
        "one refresh"
    );

    // 429 with Retry-After, then success: synced, no failure shown.
    server.reset().await;
    Mock::given(method("PATCH"))
        .and(path(patch_path.clone()))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    mount_patch_ok(&server, &patch_path, &event).await;
    send(
        c.put(app.url(&format!("/api/meetings/{id}")))
            .json(&json!({ "location": "Austin showroom" })),
    )
    .await;
    let m = synced_to(&app, &c, &id, "synced").await;
    assert!(m["syncError"].is_null());
    assert_eq!(requests(&server, "PATCH", &patch_path).await.len(), 2);

    // Google down for good: after the last attempt the meeting says failed, and why.
    server.reset().await;
    Mock::given(method("PATCH"))
        .and(path(patch_path.clone()))
        .respond_with(ResponseTemplate::new(500).set_body_string("backend error"))
        .mount(&server)
        .await;
    send(
        c.put(app.url(&format!("/api/meetings/{id}")))
            .json(&json!({ "duration": 60 })),
    )
    .await;
    let m = synced_to(&app, &c, &id, "failed").await;
    assert!(
        m["syncError"].as_str().unwrap().contains("unavailable"),
        "{m}"
    );
    // Two job attempts (JOB max 2), each with one HTTP retry.
    assert_eq!(requests(&server, "PATCH", &patch_path).await.len(), 4);

    // A malformed answer from Google is a failure, not a silent success.
    server.reset().await;
    Mock::given(method("PATCH"))
        .and(path(patch_path.clone()))
        .respond_with(ResponseTemplate::new(200).set_body_string("<html>oops</html>"))
        .mount(&server)
        .await;
    send(
        c.put(app.url(&format!("/api/meetings/{id}/update-calendar")))
            .json(&json!({})),
    )
    .await;
    let m = synced_to(&app, &c, &id, "failed").await;
    assert!(
        m["syncError"].as_str().unwrap().contains("unreadable"),
        "{m}"
    );

    // Revoked grant: 401, refresh says invalid_grant → failed with a clear message, connection shows it.
    server.reset().await;
    Mock::given(method("PATCH"))
        .and(path(patch_path.clone()))
        .respond_with(ResponseTemplate::new(401))
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .respond_with(ResponseTemplate::new(400).set_body_json(json!({ "error": "invalid_grant", "error_description": "Token has been expired or revoked." })))
        .mount(&server)
        .await;
    let (s, _) = send(
        c.put(app.url(&format!("/api/meetings/{id}/update-calendar")))
            .json(&json!({})),
    )
    .await;
    assert_eq!(s, 202);
    let m = synced_to(&app, &c, &id, "failed").await;
    assert!(m["syncError"].as_str().unwrap().contains("revoked"), "{m}");
    let v = app.get_json(&c, "/api/calendar/connection").await;
    assert_eq!(v["connected"], false);
    assert!(v["error"].as_str().unwrap().contains("revoked"));
    let (s, v) = send(
        c.post(app.url(&format!("/api/meetings/{id}/sync-to-calendar")))
            .json(&json!({})),
    )
    .await;
    assert_eq!(s, 409);
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("Connect Google Calendar again")
    );

    // Connect again; remove the event; deleting a synced meeting deletes its event.
    server.reset().await;
    mount_token(&server, "authorization_code", "at-3", Some("rt-3")).await;
    connect(&app, &c, &server, "code-2").await;
    Mock::given(method("DELETE"))
        .and(path(patch_path.clone()))
        .and(header("authorization", "Bearer at-3"))
        .respond_with(ResponseTemplate::new(204))
        .mount(&server)
        .await;
    let (s, _) = send(c.delete(app.url(&format!("/api/meetings/{id}/remove-from-calendar")))).await;
    assert_eq!(s, 202);
    let m = eventually(T, "event removed", || async {
        let m = get_meeting(&app, &c, &id).await;
        m["googleCalendarEventId"].is_null().then_some(m)
    })
    .await;
    assert_eq!(
        (
            m["googleCalendarSyncEnabled"].clone(),
            m["googleMeetLink"].clone()
        ),
        (json!(false), Value::Null)
    );
    let (s, _) = send(c.delete(app.url(&format!("/api/meetings/{id}/remove-from-calendar")))).await;
    assert_eq!(s, 409, "nothing left to remove");

    Mock::given(method("POST"))
        .and(path("/calendar/v3/calendars/primary/events"))
        .respond_with(ResponseTemplate::new(409).set_body_json(json!({ "error": { "code": 409, "message": "The requested identifier already exists." } })))
        .mount(&server)
        .await;
    mount_patch_ok(&server, &patch_path, &event).await;
    // Synced again after a removal: Google keeps the id, so the insert's 409 turns into a patch.
    send(
        c.post(app.url(&format!("/api/meetings/{id}/sync-to-calendar")))
            .json(&json!({})),
    )
    .await;
    synced_to(&app, &c, &id, "synced").await;
    let (s, _) = send(c.delete(app.url(&format!("/api/meetings/{id}")))).await;
    assert_eq!(s, 204);
    eventually(T, "event deleted with the meeting", || async {
        (requests(&server, "DELETE", &patch_path).await.len() == 2).then_some(())
    })
    .await;
    app.stop().await;
}

fn sms_api(server: &MockServer) -> SmsApi {
    SmsApi::new(SmsSettings {
        api_url: server.uri(),
        account_sid: "AC123".into(),
        auth_token: Secret::new("sms-token".into()),
        from: "+15125550000".into(),
    })
    .with_timeout(Duration::from_millis(700))
}

const SMS_PATH: &str = "/2010-04-01/Accounts/AC123/Messages.json";

async fn tick(app: &TestApp) -> Value {
    let inserted = app
        .queue
        .enqueue(NewJob::new(ReminderTick::NAME, json!({})))
        .await
        .unwrap();
    let c = app.admin().await;
    let job = app.wait_status(&c, &inserted.id, "succeeded", T).await;
    eventually(T, "reminders sent", || async {
        let pending = scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind IN ('reminder_send', 'sms_send', 'email_send')
             AND status IN ('queued', 'running', 'retrying', 'scheduled')",
        )
        .await;
        (pending == 0).then_some(())
    })
    .await;
    job["result"].clone()
}

fn iso(ms: i64) -> String {
    jobs::time::to_rfc3339(ms)
}

async fn reminders(db: TestDb) {
    let sink = SmtpSink::start();
    let sms = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path(SMS_PATH))
        .respond_with(
            ResponseTemplate::new(201).set_body_json(json!({ "sid": "SM1", "status": "queued" })),
        )
        .mount(&sms)
        .await;
    let app = TestApp::spawn(
        &db,
        AppOptions {
            providers: Some(
                Providers::embedded()
                    .with_mailing(sink.mailing(None))
                    .with_sms(sms_api(&sms)),
            ),
            ..AppOptions::default()
        },
    )
    .await;
    let c = app.user().await;
    let admin = app.admin().await;
    send(
        admin
            .put(app.url("/api/deliverability-settings"))
            .json(&json!({ "hourlyLimit": 1000, "dailyLimit": 1000 })),
    )
    .await;
    let contact = insert_contact(
        &app.db,
        Some("dana@bathpros.test"),
        Some("(512) 555-0100"),
        "TX",
    )
    .await;
    let now = app.queue.clock.now_ms();
    let hour = 3_600_000;
    let a = meeting(&app, &c, json!({ "title": "Design review", "scheduledDate": iso(now + 25 * hour), "contactId": contact, "attendees": "pat@bathpros.test, Sam" })).await;
    let b = meeting(&app, &c, json!({ "title": "Cancelled call", "scheduledDate": iso(now + 25 * hour), "contactId": contact })).await;
    let a_id = a["id"].as_str().unwrap().to_string();

    // A day and an hour ahead: nothing due.
    assert_eq!(tick(&app).await["enqueued"], 0);
    let (s, _) = send(
        c.put(app.url(&format!("/api/meetings/{}", b["id"].as_str().unwrap())))
            .json(&json!({ "status": "cancelled" })),
    )
    .await;
    assert_eq!(s, 200);

    // 24 hours before: the contact and the attendee address get email, the contact a text.
    app.queue.clock.advance(Duration::from_secs(3601));
    assert_eq!(tick(&app).await["enqueued"], 1);
    sink.wait_for(2, T).await;
    let mut to: Vec<String> = sink.messages().iter().flat_map(|m| m.to.clone()).collect();
    to.sort();
    assert_eq!(to, ["dana@bathpros.test", "pat@bathpros.test"]);
    let first = parse(&sink.messages()[0].raw)
        .body_text(0)
        .unwrap()
        .to_string();
    assert!(
        first.contains("Design review") && first.contains("in 24 hours"),
        "{first}"
    );
    assert!(
        first.contains("CST") || first.contains("CDT"),
        "the recipient's zone: {first}"
    );
    let texts = requests(&sms, "POST", SMS_PATH).await;
    assert_eq!(texts.len(), 1);
    let f = form(&texts[0]);
    assert_eq!(
        (f["To"].as_str(), f["From"].as_str()),
        ("+15125550100", "+15125550000")
    );
    assert!(
        f["Body"].starts_with("Hi Dana, reminder: \"Design review\""),
        "{}",
        f["Body"]
    );

    // Ticks again (and twice at once): nothing twice.
    assert_eq!(tick(&app).await["enqueued"], 0);
    assert_eq!(tick(&app).await["enqueued"], 0);
    assert_eq!(sink.count(), 2);

    // Rescheduled three hours out: its reminders move with it (one now for the new time, one an
    // hour before), the old time's are gone.
    let now = app.queue.clock.now_ms();
    send(
        c.put(app.url(&format!("/api/meetings/{a_id}")))
            .json(&json!({ "scheduledDate": iso(now + 3 * hour) })),
    )
    .await;
    assert_eq!(tick(&app).await["enqueued"], 1);
    sink.wait_for(4, T).await;
    app.queue.clock.advance(Duration::from_secs(2 * 3600 + 60));
    assert_eq!(tick(&app).await["enqueued"], 1);
    sink.wait_for(6, T).await;
    let last = parse(&sink.messages()[5].raw)
        .body_text(0)
        .unwrap()
        .to_string();
    assert!(last.contains("in 59 minutes"), "{last}");
    assert_eq!(requests(&sms, "POST", SMS_PATH).await.len(), 3);
    assert_eq!(tick(&app).await["enqueued"], 0);

    // By hand from the automation screen: once per meeting time, with the chosen channels.
    let c2 = insert_contact(
        &app.db,
        Some("lee@tubs.test"),
        Some("+1 737 555 0199"),
        "CA",
    )
    .await;
    meeting(&app, &c, json!({ "title": "Walkthrough", "scheduledDate": iso(app.queue.clock.now_ms() + 5 * hour), "contactId": c2 })).await;
    let body = json!({ "includeEmail": true, "includeSMS": false, "personalizeMessages": false, "triggerAutomation": true });
    // A job with progress: its result tells what went now and what waits in the queue.
    let (s, v) = send(c.post(app.url("/api/calendar/send-reminders")).json(&body)).await;
    assert_eq!(s, 202, "{v}");
    let job = app
        .wait_status(&c, v["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    let v = &job["result"];
    assert_eq!(job["progress"]["percent"], 100, "{job}");
    // Design review (2 addresses) and Walkthrough (1): no SMS asked for.
    assert_eq!(
        (
            v["emailsSent"].clone(),
            v["emailsQueued"].clone(),
            v["smsSent"].clone(),
            v["meetings"].clone()
        ),
        (json!(3), json!(0), json!(0), json!(2)),
        "{job}"
    );
    let (_, again) = send(c.post(app.url("/api/calendar/send-reminders")).json(&body)).await;
    let again = app
        .wait_status(&c, again["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    assert_eq!(
        (
            again["result"]["emailsSent"].clone(),
            again["result"]["alreadyReminded"].clone()
        ),
        (json!(0), json!(2)),
        "{again}"
    );
    sink.wait_for(9, T).await;
    let walkthrough = sink
        .messages()
        .iter()
        .map(|m| parse(&m.raw).body_text(0).unwrap().to_string())
        .find(|b| b.contains("Walkthrough"))
        .unwrap();
    assert!(
        walkthrough.starts_with("Hello,"),
        "not personalised: {walkthrough}"
    );
    assert!(
        walkthrough.contains("PST") || walkthrough.contains("PDT"),
        "{walkthrough}"
    );
    assert_eq!(
        requests(&sms, "POST", SMS_PATH).await.len(),
        3,
        "no SMS asked for"
    );
    let tags = app.get_json(&c, &format!("/api/contacts/{c2}")).await;
    assert!(
        tags["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("meeting-reminder")),
        "{tags}"
    );
    let (s, v) = send(
        c.post(app.url("/api/calendar/send-reminders"))
            .json(&json!({ "includeEmail": false, "includeSMS": false })),
    )
    .await;
    assert_eq!(s, 422, "{v}");
    // What went out shows in /metrics for an operator's dashboards.
    let metrics = app
        .anonymous()
        .get(app.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains(r#"prospector_email_messages_total{outcome="sent"} 9"#),
        "{metrics}"
    );
    assert!(
        metrics.contains(r#"prospector_sms_messages_total{status="sent"} 3"#),
        "{metrics}"
    );
    app.stop().await;
}

async fn sms_send(db: TestDb) {
    // Demo mode: recorded as an activity, labelled as not sent.
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let c = app.user().await;
    let with_phone = insert_contact(&app.db, None, Some("512-555-0100"), "TX").await;
    let no_phone = insert_contact(&app.db, None, None, "TX").await;
    let bad_phone = insert_contact(&app.db, None, Some("555-01"), "TX").await;
    let sms_path = |id: &str| format!("/api/contacts/{id}/send-sms");
    for (id, body, status, message) in [
        (
            with_phone.as_str(),
            json!({ "type": "custom" }),
            422,
            "Message is required",
        ),
        (
            with_phone.as_str(),
            json!({ "message": "x".repeat(1601) }),
            422,
            "Message must be at most 1600 characters",
        ),
        (
            no_phone.as_str(),
            json!({ "message": "Hi" }),
            422,
            "This contact has no phone number.",
        ),
        (
            "missing",
            json!({ "message": "Hi" }),
            404,
            "Contact not found",
        ),
    ] {
        let (s, v) = send(c.post(app.url(&sms_path(id))).json(&body)).await;
        assert_eq!(
            (s, v["message"].as_str()),
            (status, Some(message)),
            "{body}"
        );
    }
    let (s, v) = send(
        c.post(app.url(&sms_path(&bad_phone)))
            .json(&json!({ "message": "Hi" })),
    )
    .await;
    assert_eq!(s, 422);
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("not a valid number")
    );
    let (s, _) = send(
        c.post(app.url(&sms_path(&with_phone)))
            .body("{not json")
            .header("content-type", "application/json"),
    )
    .await;
    assert_eq!(s, 400);
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM sms_messages").await,
        0,
        "nothing written"
    );

    let (s, v) = send(
        c.post(app.url(&sms_path(&with_phone)))
            .json(&json!({ "type": "follow_up", "message": "See you Tuesday" })),
    )
    .await;
    assert_eq!((s, v["demo"].clone()), (202, json!(true)));
    let job = app
        .wait_status(&c, v["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    assert_eq!(job["result"]["status"], "demo");
    let acts = app.get_json(&c, "/api/activities?limit=5").await;
    let text = acts.to_string();
    assert!(
        text.contains("demo mode")
            && text.contains("+15125550100")
            && text.contains("See you Tuesday"),
        "{text}"
    );
    app.stop().await;
}

async fn sms_live(db: TestDb) {
    // Live: accepted, 429 then accepted (sent once), 500 and timeouts in doubt (never resent),
    // refused with the provider's words, a malformed success body still counts as sent.
    let server = MockServer::start().await;
    let app = TestApp::spawn(
        &db,
        AppOptions {
            providers: Some(Providers::embedded().with_sms(sms_api(&server))),
            ..AppOptions::default()
        },
    )
    .await;
    let c = app.user().await;
    let with_phone = insert_contact(&app.db, None, Some("512-555-0100"), "TX").await;
    let sms_path = |id: &str| format!("/api/contacts/{id}/send-sms");
    let cases: Vec<(&str, Vec<ResponseTemplate>, &str, usize)> = vec![
        (
            "accepted",
            vec![ResponseTemplate::new(201).set_body_json(json!({ "sid": "SM-ok" }))],
            "sent",
            1,
        ),
        (
            "limited",
            vec![
                ResponseTemplate::new(429).insert_header("retry-after", "1"),
                ResponseTemplate::new(201).set_body_json(json!({ "sid": "SM-late" })),
            ],
            "sent",
            2,
        ),
        ("down", vec![ResponseTemplate::new(500)], "unknown", 1),
        (
            "slow",
            vec![ResponseTemplate::new(201).set_delay(Duration::from_secs(2))],
            "unknown",
            1,
        ),
        (
            "refused",
            vec![ResponseTemplate::new(400).set_body_json(
                json!({ "code": 21211, "message": "The 'To' number is not a valid phone number." }),
            )],
            "failed",
            1,
        ),
        (
            "garbled",
            vec![ResponseTemplate::new(201).set_body_string("<xml>")],
            "sent",
            1,
        ),
    ];
    for (name, answers, want, calls) in cases {
        server.reset().await;
        let n = answers.len();
        for (i, answer) in answers.into_iter().enumerate() {
            let mock = Mock::given(method("POST"))
                .and(path(SMS_PATH))
                .and(body_string_contains(name))
                .respond_with(answer);
            let mock = if i + 1 < n {
                mock.up_to_n_times(1).with_priority(1)
            } else {
                mock
            };
            mock.mount(&server).await;
        }
        let (s, v) = send(
            c.post(app.url(&sms_path(&with_phone)))
                .json(&json!({ "message": format!("{name} message") })),
        )
        .await;
        assert_eq!(s, 202);
        let sms_id = v["smsId"].as_str().unwrap().to_string();
        let job = app
            .wait_job(&c, v["jobId"].as_str().unwrap(), T, |j| {
                j["status"] == "succeeded" || j["status"] == "failed"
            })
            .await;
        assert_eq!(job["result"]["status"], want, "{name}: {job}");
        // The in-doubt send must not be retried: wait past any retry first.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            requests(&server, "POST", SMS_PATH).await.len(),
            calls,
            "{name}"
        );
        let row = app.db.sms_get(&sms_id).await.unwrap().unwrap();
        assert_eq!(row.status, want, "{name}");
        if name == "accepted" {
            assert_eq!(row.provider_id.as_deref(), Some("SM-ok"));
            let f = form(&requests(&server, "POST", SMS_PATH).await[0]);
            assert_eq!(f["To"], "+15125550100");
            let auth = requests(&server, "POST", SMS_PATH).await[0].headers["authorization"]
                .to_str()
                .unwrap()
                .to_string();
            assert!(auth.starts_with("Basic "));
        }
        if name == "refused" {
            assert!(row.error.unwrap().contains("not a valid phone number"));
        }
    }
    app.stop().await;
}

/// The path (`/calendar/{token}.ics`) of `url`, to fetch from the test server.
fn feed_path(url: &str) -> String {
    url[url.find("/calendar/").expect("feed path")..].to_string()
}

async fn feed_url(app: &TestApp, c: &Client) -> String {
    app.get_json(c, "/api/calendar/feed-url").await["url"]
        .as_str()
        .expect("url")
        .to_string()
}

/// The meeting titles in the feed at `url`, sorted; the status when it is not 200.
async fn feed_titles(app: &TestApp, url: &str) -> Result<Vec<String>, u16> {
    let res = reqwest::get(app.url(&feed_path(url))).await.unwrap();
    if res.status() != 200 {
        return Err(res.status().as_u16());
    }
    let body = res.text().await.unwrap();
    let cal: icalendar::Calendar = body.parse().unwrap();
    use icalendar::Component;
    let mut titles: Vec<String> = cal
        .components
        .iter()
        .filter_map(|c| c.as_event())
        .filter_map(|e| e.get_summary().map(str::to_string))
        .collect();
    titles.sort();
    Ok(titles)
}

async fn user_id(app: &TestApp, email: &str) -> String {
    scalar!(
        &app.db,
        String,
        "SELECT id FROM users WHERE email = $1",
        email
    )
}

/// A future scheduled meeting on `owner`'s calendar (`None`: shared, on no one's).
async fn owned_meeting(app: &TestApp, c: &Client, title: &str, owner: Option<&str>) {
    let m = meeting(
        app,
        c,
        json!({ "title": title, "scheduledDate": "2030-05-07T15:00:00Z", "status": "scheduled" }),
    )
    .await;
    let id = m["id"].as_str().unwrap();
    exec!(
        &app.db,
        "UPDATE meetings SET calendar_owner_id = $1 WHERE id = $2",
        owner,
        id
    );
}

/// Issue 19 §6: the feed URL carries no email (not in clear, not base64), its owner can rotate it
/// (the old URL is 404 at once, the new one works, nobody else's changes), and the feed shows the
/// owner's meetings and shared ones, never those on another user's calendar. A removed user's feed
/// is 404.
async fn calendar_feed_private_and_rotatable(db: TestDb) {
    use base64::Engine;
    use base64::engine::general_purpose::{STANDARD_NO_PAD, URL_SAFE_NO_PAD};
    let app = TestApp::idle(&db).await;
    let me = app.user().await;
    let other = app.admin().await;
    let my_id = user_id(&app, USER_EMAIL).await;
    let other_id = user_id(&app, ADMIN_EMAIL).await;
    owned_meeting(&app, &me, "Mine", Some(&my_id)).await;
    owned_meeting(&app, &me, "Shared", None).await;
    owned_meeting(&app, &me, "Theirs", Some(&other_id)).await;

    let url = feed_url(&app, &me).await;
    let token = feed_path(&url)
        .trim_start_matches("/calendar/")
        .trim_end_matches(".ics")
        .to_string();
    for email in [USER_EMAIL, ADMIN_EMAIL] {
        assert!(!url.to_lowercase().contains(email), "{url}");
        for b64 in [URL_SAFE_NO_PAD.encode(email), STANDARD_NO_PAD.encode(email)] {
            assert!(!url.contains(&b64), "{url} holds {b64}");
        }
    }
    // Nor anything that decodes to it: the readable payload is an opaque id and a version.
    let payload = URL_SAFE_NO_PAD
        .decode(token.split('.').next().unwrap())
        .unwrap_or_default();
    assert!(
        !String::from_utf8_lossy(&payload).contains('@'),
        "{payload:?}"
    );
    assert_eq!(feed_url(&app, &me).await, url, "stable until rotated");

    assert_eq!(
        feed_titles(&app, &url).await,
        Ok(vec!["Mine".to_string(), "Shared".to_string()]),
        "another user's calendar stays out of mine"
    );
    let other_url = feed_url(&app, &other).await;
    assert_ne!(other_url, url);
    assert_eq!(
        feed_titles(&app, &other_url).await,
        Ok(vec!["Shared".to_string(), "Theirs".to_string()])
    );

    // Rotation: the old URL is dead at once, the new one works and is what feed-url now gives.
    let (status, _) = send(
        app.anonymous()
            .post(app.url("/api/calendar/feed-url/rotate")),
    )
    .await;
    assert_eq!(status, 401, "signed-in users only");
    let (status, rotated) = send(me.post(app.url("/api/calendar/feed-url/rotate"))).await;
    assert_eq!(status, 200, "{rotated}");
    let new_url = rotated["url"].as_str().unwrap().to_string();
    assert_ne!(new_url, url);
    assert!(!new_url.contains(USER_EMAIL), "{new_url}");
    assert_eq!(feed_titles(&app, &url).await, Err(404), "old URL revoked");
    assert_eq!(
        feed_titles(&app, &new_url).await,
        Ok(vec!["Mine".to_string(), "Shared".to_string()])
    );
    assert_eq!(feed_url(&app, &me).await, new_url);
    let (status, again) = send(me.post(app.url("/api/calendar/feed-url/rotate"))).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(feed_titles(&app, &new_url).await, Err(404));
    assert_eq!(
        feed_titles(&app, again["url"].as_str().unwrap())
            .await
            .map(|t| t.len()),
        Ok(2)
    );
    assert!(
        feed_titles(&app, &other_url).await.is_ok(),
        "rotating mine leaves others' feeds alone"
    );

    // A removed user's feed is gone with them.
    exec!(&app.db, "DELETE FROM users WHERE id = $1", other_id);
    assert_eq!(feed_titles(&app, &other_url).await, Err(404));
    app.stop().await;
}

both_backends!(
    google_sync,
    reminders,
    sms_send,
    sms_live,
    calendar_feed_private_and_rotatable,
);
