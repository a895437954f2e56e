//! What a user does to one contact or to every contact a filter matches, through the real api and
//! worker on SQLite and Postgres: email a contact (sent by the mailer to a loopback SMTP server and
//! listed with its status in the contact's email history; a suppressed or missing address refused
//! with its reason), enrich a contact, score and enrich all contacts matching the list's filters
//! (more than the 200 the web once sent, with progress), and the company on every card's row.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::smtp::SmtpSink;
use common::*;
use jobs::db::{CompanySeed, ContactSeed};
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(30);

async fn company(app: &TestApp, name: &str, city: &str, state: &str) -> String {
    let c = CompanySeed {
        id: ulid::Ulid::new().to_string(),
        name: name.into(),
        status: "discovered".into(),
        city: Some(city.into()),
        state: Some(state.into()),
        created_at: now_ms(),
        ..Default::default()
    };
    app.db
        .seed_companies(std::slice::from_ref(&c))
        .await
        .unwrap();
    c.id
}

fn contact_seed(
    first: &str,
    email: Option<&str>,
    company: Option<&str>,
    status: &str,
) -> ContactSeed {
    ContactSeed {
        id: ulid::Ulid::new().to_string(),
        company_id: company.map(str::to_string),
        first_name: first.into(),
        last_name: "Tester".into(),
        email: email.map(str::to_string),
        title: Some("Sales Manager".into()),
        status: status.into(),
        score: 0,
        tags: json!([]),
        created_at: now_ms(),
        ..Default::default()
    }
}

async fn seed_contact(app: &TestApp, c: ContactSeed) -> String {
    app.db
        .seed_contacts(std::slice::from_ref(&c))
        .await
        .unwrap();
    c.id
}

/// POSTs `body`; the answer's status and JSON.
async fn post(app: &TestApp, c: &Client, path: &str, body: Value) -> (u16, Value) {
    send(c.post(app.url(path)).json(&body)).await
}

/// Starts a job with `path` and waits for it to succeed; the finished job.
async fn run_job(app: &TestApp, c: &Client, path: &str, body: Value) -> Value {
    let (status, answer) = post(app, c, path, body).await;
    assert_eq!(status, 202, "{path}: {answer}");
    let id = answer["jobId"].as_str().unwrap().to_string();
    app.wait_status(c, &id, "succeeded", T).await
}

async fn contact_email_is_sent_and_in_the_history(db: TestDb) {
    let sink = SmtpSink::start();
    let app = TestApp::mailing_to(&db, &sink).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let acme = company(&app, "Acme Spas", "Austin", "TX").await;
    let dana = seed_contact(
        &app,
        contact_seed("Dana", Some("dana@example.test"), Some(&acme), "new_lead"),
    )
    .await;

    let job = run_job(
        &app,
        &user,
        "/api/contacts/email",
        json!({
            "contactId": dana,
            "subject": "Hello {{firstName}}",
            "message": "Hi {{firstName}}, a catalog for {{companyName}}.",
        }),
    )
    .await;
    assert_eq!(job["status"], "succeeded", "{job}");
    let received = sink.wait_for(1, T).await;
    assert_eq!(received[0].to, ["dana@example.test"]);
    let msg = common::smtp::parse(&received[0].raw);
    assert_eq!(
        msg.subject(),
        Some("Hello Dana"),
        "merge fields are rendered"
    );
    let text = msg.body_text(0).unwrap().to_string();
    assert!(text.contains("Hi Dana, a catalog for Acme Spas."), "{text}");

    let history = app
        .get_json(&user, &format!("/api/contacts/{dana}/email-history"))
        .await;
    let messages = history["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 1, "{history}");
    assert_eq!(messages[0]["subject"], "Hello Dana");
    assert_eq!(messages[0]["status"], "sent");
    assert_eq!(messages[0]["to"], "dana@example.test");
    assert!(messages[0]["sentAt"].is_string(), "{history}");

    // A suppressed address and a contact without one are refused with their reason; nothing is queued.
    let gone = seed_contact(
        &app,
        contact_seed("Gone", Some("gone@example.test"), None, "new_lead"),
    )
    .await;
    app.db
        .suppression_add("gone@example.test", "unsubscribed", "test", now_ms())
        .await
        .unwrap();
    let (status, body) = post(
        &app,
        &user,
        "/api/contacts/email",
        json!({ "contactId": gone, "subject": "Hi", "message": "Hello" }),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["message"],
        "gone@example.test does not receive email from us (unsubscribed)"
    );
    let nomail = seed_contact(&app, contact_seed("Nomail", None, None, "new_lead")).await;
    let (status, body) = post(
        &app,
        &user,
        "/api/contacts/email",
        json!({ "contactId": nomail, "subject": "Hi", "message": "Hello" }),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        body["message"],
        "No Email Address: Email address not available for this contact."
    );
    let history = app
        .get_json(&user, &format!("/api/contacts/{gone}/email-history"))
        .await;
    assert_eq!(history["messages"], json!([]));
    assert_eq!(sink.count(), 1);
    app.stop().await;
}

async fn enrich_updates_the_contact(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let user = app.user().await;
    let mut c = contact_seed("maria", Some("maria@example.test"), None, "new_lead");
    c.last_name = "GARCIA".into();
    c.phone = Some("214.555.0101".into());
    c.title = Some("Director of Operations".into());
    let id = seed_contact(&app, c).await;

    let job = run_job(
        &app,
        &user,
        &format!("/api/contacts/{id}/enrich"),
        json!({}),
    )
    .await;
    let r = &job["result"];
    assert_eq!(r["message"], "Enriched 5 fields for Maria Garcia", "{r}");
    let contact = app.get_json(&user, &format!("/api/contacts/{id}")).await;
    assert_eq!(
        (
            &contact["firstName"],
            &contact["lastName"],
            &contact["phone"],
            &contact["department"]
        ),
        (
            &json!("Maria"),
            &json!("Garcia"),
            &json!("(214) 555-0101"),
            &json!("Operations")
        ),
        "{contact}"
    );
    let (status, _) = post(
        &app,
        &user,
        &format!("/api/contacts/{}/enrich", ulid::Ulid::new()),
        json!({}),
    )
    .await;
    assert_eq!(status, 404);
    app.stop().await;
}

/// 250 new leads match the filter (more than the 200 the web once sent) and 10 customers do not.
async fn bulk_score_and_enrich_cover_every_match(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let user = app.user().await;
    let mut rows: Vec<ContactSeed> = (0..250)
        .map(|i| {
            contact_seed(
                &format!("lead{i}"),
                Some(&format!("lead{i}@example.test")),
                None,
                "new_lead",
            )
        })
        .collect();
    rows.extend((0..10).map(|i| {
        let mut c = contact_seed(
            &format!("cust{i}"),
            Some(&format!("cust{i}@example.test")),
            None,
            "customer",
        );
        c.score = 10;
        c
    }));
    app.db.seed_contacts(&rows).await.unwrap();
    let filter = json!({ "contactFilter": { "status": "new_lead" } });

    let job = run_job(&app, &user, "/api/contacts/bulk-ai-score", filter.clone()).await;
    let r = &job["result"];
    assert_eq!(r["scored"], 250, "{r}");
    assert_eq!(
        job["progress"],
        json!({ "percent": 100, "message": "Scored 250 of 250 contacts" }),
        "{job}"
    );
    let customers_scored = app
        .get_json(&user, "/api/customers")
        .await
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["score"] != 10)
        .count();
    assert_eq!(
        customers_scored, 0,
        "contacts outside the filter are left alone"
    );

    let job = run_job(&app, &user, "/api/contacts/bulk-enrich", filter).await;
    let r = &job["result"];
    assert_eq!(r["total"], 250, "{r}");
    assert_eq!(r["message"], "Enriched 250 of 250 contacts", "{r}");
    assert_eq!(job["progress"]["message"], "Enriched 250 of 250 contacts");
    let (items, total) = {
        let res = user
            .get(app.url("/api/contacts?q=lead12&limit=5"))
            .send()
            .await
            .unwrap();
        let total: i64 = res.headers()["x-total-count"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        (res.json::<Vec<Value>>().await.unwrap(), total)
    };
    assert_eq!(total, 11, "lead12 and lead120..lead129");
    assert!(
        items
            .iter()
            .all(|c| c["firstName"].as_str().unwrap().starts_with("Lead")),
        "names were enriched: {items:?}"
    );

    // A filter nothing matches, an empty selection, and a bad filter are refused with their reason.
    let (status, body) = post(
        &app,
        &user,
        "/api/contacts/bulk-ai-score",
        json!({ "contactFilter": { "q": "nobody-by-this-name" } }),
    )
    .await;
    assert_eq!(
        (status, body["message"].as_str()),
        (422, Some("No contacts to score. Add contacts first."))
    );
    let (status, body) = post(&app, &user, "/api/contacts/bulk-enrich", json!({})).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (422, Some("Select at least one contact to enrich."))
    );
    let (status, body) = post(
        &app,
        &user,
        "/api/contacts/bulk-enrich",
        json!({ "contactFilter": { "status": "sleeping" } }),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    app.stop().await;
}

async fn list_rows_carry_the_company(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let user = app.user().await;
    let acme = company(&app, "Acme Spas", "Austin", "TX").await;
    let lead = seed_contact(
        &app,
        contact_seed("Lead", Some("lead@example.test"), Some(&acme), "new_lead"),
    )
    .await;
    seed_contact(
        &app,
        contact_seed("Cust", Some("cust@example.test"), Some(&acme), "customer"),
    )
    .await;
    seed_contact(
        &app,
        contact_seed("Alone", Some("alone@example.test"), None, "new_lead"),
    )
    .await;
    let of = |v: &Value| {
        (
            v["companyName"].as_str().map(str::to_string),
            v["companyCity"].as_str().map(str::to_string),
            v["companyState"].as_str().map(str::to_string),
        )
    };
    let acme_row = (
        Some("Acme Spas".to_string()),
        Some("Austin".to_string()),
        Some("TX".to_string()),
    );

    let list = app.get_json(&user, "/api/contacts").await;
    let by_name = |items: &Value, first: &str| {
        items
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["firstName"] == first)
            .cloned()
            .unwrap_or_else(|| panic!("{first} in {items}"))
    };
    assert_eq!(of(&by_name(&list, "Lead")), acme_row);
    assert_eq!(of(&by_name(&list, "Alone")), (None, None, None));
    let filtered = app
        .get_json(&user, "/api/contacts?region=southwest&q=Lead")
        .await;
    assert_eq!(of(&by_name(&filtered, "Lead")), acme_row, "{filtered}");

    let board = app.get_json(&user, "/api/leads/board").await;
    let new_leads = board
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["stage"] == "new_lead")
        .unwrap();
    assert_eq!(of(&by_name(&new_leads["contacts"], "Lead")), acme_row);
    let customers = app.get_json(&user, "/api/customers").await;
    assert_eq!(of(&by_name(&customers, "Cust")), acme_row);
    let one = app.get_json(&user, &format!("/api/contacts/{lead}")).await;
    assert_eq!(of(&one), acme_row);
    let by_company = app.get_json(&user, &format!("/api/companies/{acme}")).await;
    let contacts = by_company["contacts"].as_array().unwrap();
    assert_eq!(contacts.len(), 2, "{by_company}");
    assert!(contacts.iter().all(|c| of(c) == acme_row), "{by_company}");
    app.stop().await;
}

both_backends!(
    contact_email_is_sent_and_in_the_history,
    enrich_updates_the_contact,
    bulk_score_and_enrich_cover_every_match,
    list_rows_carry_the_company,
);
