//! The public dealer form `POST /api/leads` and the `ai_score` job it enqueues.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::*;
use jobs::db::Db;
use serde_json::{Value, json};

/// (company count, contact count) straight from the tables.
async fn counts(db: &Db) -> (i64, i64) {
    (
        scalar(db, "SELECT COUNT(*) FROM companies").await,
        scalar(db, "SELECT COUNT(*) FROM contacts").await,
    )
}

type ContactRow = (String, String, String, String, i32, Option<String>);

async fn contact_by_email(db: &Db, email: &str) -> ContactRow {
    let sql = "SELECT first_name, last_name, status, source, score, company_id FROM contacts WHERE email = ";
    match db {
        Db::Sqlite(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}?1")))
            .bind(email)
            .fetch_one(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}$1")))
            .bind(email)
            .fetch_one(p.write())
            .await
            .unwrap(),
    }
}

async fn company(db: &Db, id: &str) -> (String, Option<String>, Option<i64>, String, i32, i32) {
    let sql = "SELECT name, state, revenue, discovery_source, score, prospect_score FROM companies WHERE id = ";
    match db {
        Db::Sqlite(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}?1")))
            .bind(id)
            .fetch_one(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}$1")))
            .bind(id)
            .fetch_one(p.write())
            .await
            .unwrap(),
    }
}

fn form() -> Value {
    json!({
        "companyName": "Lone Star Access Baths LLC", "contactName": "Maria Elena Garcia",
        "email": "Maria@LoneStarAccess.example", "phone": "(214) 555-0101", "city": "Dallas",
        "state": "Texas", "companyType": "accessible-bath", "annualRevenue": "10-25M",
        "message": "We install 40 walk-in tubs a month."
    })
}

/// A lead creates company + contact without a session, writes an activity, and is scored by a job.
async fn lead_creates_company_contact_and_scores_them(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let anon = app.anonymous();
    let res = anon
        .post(app.url("/api/leads"))
        .json(&form())
        .send()
        .await
        .unwrap();
    let status = res.status();
    let body: Value = res.json().await.unwrap();
    assert_eq!(status, 201, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("1-2 business days")
    );

    let (first, last, status, source, _, company_id) =
        contact_by_email(&app.db, "maria@lonestaraccess.example").await;
    assert_eq!((first.as_str(), last.as_str()), ("Maria", "Elena Garcia"));
    assert_eq!(
        (status.as_str(), source.as_str()),
        ("new_lead", "dealer_form")
    );
    let company_id = company_id.expect("linked to its company");
    let (name, state, revenue, discovery, _, _) = company(&app.db, &company_id).await;
    assert_eq!(name, "Lone Star Access Baths LLC");
    assert_eq!(
        state.as_deref(),
        Some("TX"),
        "state name normalised to its code"
    );
    assert_eq!(revenue, Some(10_000_000), "lower bound of the 10-25M band");
    assert_eq!(discovery, "dealer_form");

    let admin = app.admin().await;
    let activities = app.get_json(&admin, "/api/activities").await;
    assert_eq!(activities[0]["type"], "contact_created");
    assert!(
        activities[0]["description"]
            .as_str()
            .unwrap()
            .contains("Lone Star Access Baths LLC, TX")
    );

    let jobs = app.get_json(&admin, "/api/ops/jobs?kind=ai_score").await;
    let id = jobs[0]["id"].as_str().unwrap().to_string();
    let done = app
        .wait_status(&admin, &id, "succeeded", Duration::from_secs(10))
        .await;
    let contact_score = done["result"]["contact"]["score"].as_i64().unwrap();
    let company_score = done["result"]["company"]["score"].as_i64().unwrap();
    // Rules (docs/providers.md, "Scoring"): company 26 revenue + 20 type + 10 state + 4 for its contact's
    // unverified email + 12 engagement (a form lead is an interested company); contact 0 seniority (no
    // title) + 17 revenue + 15 type + 5 state + 6 unverified email.
    assert_eq!(company_score, 26 + 20 + 10 + 4 + 12);
    assert_eq!(contact_score, 17 + 15 + 5 + 6);
    let factors = done["result"]["contact"]["factors"].as_array().unwrap();
    assert!(
        factors
            .iter()
            .any(|f| f["reason"] == "TX is a target state"),
        "{factors:?}"
    );
    let (.., score, _) = contact_by_email(&app.db, "maria@lonestaraccess.example").await;
    assert_eq!(
        i64::from(score),
        contact_score,
        "score written to the contact"
    );
    let (.., c_score, prospect) = company(&app.db, &company_id).await;
    assert_eq!(
        (i64::from(c_score), i64::from(prospect)),
        (company_score, company_score)
    );
    app.stop().await;
}

/// The seed's messages, all fields at once, and nothing written.
async fn lead_validation_messages(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let anon = app.anonymous();
    let res = anon
        .post(app.url("/api/leads"))
        .json(&json!({"companyName": "A", "contactName": " ", "email": "not-an-email"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    let v: Value = res.json().await.unwrap();
    assert_eq!(v["errors"]["companyName"], "Company name is required");
    assert_eq!(v["errors"]["contactName"], "Your name is required");
    assert_eq!(v["errors"]["email"], "Valid email is required");
    assert_eq!(v["message"], "Company name is required");

    let mut bad = form();
    bad["annualRevenue"] = json!("1-2M");
    bad["state"] = json!("Atlantis");
    bad["companyType"] = json!("pools");
    let v: Value = anon
        .post(app.url("/api/leads"))
        .json(&bad)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(
        v["errors"]["annualRevenue"]
            .as_str()
            .unwrap()
            .contains("5-10M, 10-25M, 25-50M, 50M+")
    );
    assert!(v["errors"]["state"].is_string());
    assert!(
        v["errors"]["companyType"]
            .as_str()
            .unwrap()
            .contains("accessible-bath")
    );
    assert_eq!(counts(&app.db).await, (0, 0));
    app.stop().await;
}

/// The same person and company again are merged, never duplicated (and a different phone is not
/// applied); a single-word name is kept.
async fn repeated_lead_updates_without_duplicates(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let anon = app.anonymous();
    anon.post(app.url("/api/leads"))
        .json(&form())
        .send()
        .await
        .unwrap();
    let mut again = form();
    again["companyName"] = json!("LONE STAR ACCESS BATHS LLC");
    again["state"] = json!("tx");
    again["email"] = json!("maria@lonestaraccess.example");
    again["phone"] = json!("(214) 555-0199");
    assert_eq!(
        anon.post(app.url("/api/leads"))
            .json(&again)
            .send()
            .await
            .unwrap()
            .status(),
        201
    );
    assert_eq!(counts(&app.db).await, (1, 1));
    let (_, phone, ..) = contact_fields(&app.db, "maria@lonestaraccess.example").await;
    assert_eq!(phone.as_deref(), Some("(214) 555-0101"), "first phone kept");

    let single = json!({"companyName": "Desert Sun Baths", "contactName": "Cher", "email": "cher@desertsun.example"});
    assert_eq!(
        anon.post(app.url("/api/leads"))
            .json(&single)
            .send()
            .await
            .unwrap()
            .status(),
        201
    );
    let (first, last, ..) = contact_by_email(&app.db, "cher@desertsun.example").await;
    assert_eq!((first.as_str(), last.as_str()), ("Cher", ""));
    assert_eq!(counts(&app.db).await, (2, 2));
    app.stop().await;
}

/// A bot that fills the hidden field gets the same answer and stores nothing; floods are limited.
async fn honeypot_and_rate_limit(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            leads_per_minute: 2,
            ..Default::default()
        },
    )
    .await;
    let anon = app.anonymous();
    let mut bot = form();
    bot["fax"] = json!("555-0000");
    let res = anon
        .post(app.url("/api/leads"))
        .json(&bot)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 201);
    assert_eq!(counts(&app.db).await, (0, 0));
    let admin = app.admin().await;
    let jobs = admin
        .get(app.url("/api/ops/jobs?kind=ai_score"))
        .send()
        .await
        .unwrap();
    assert_eq!(jobs.headers()["x-total-count"], "0");

    assert_eq!(
        anon.post(app.url("/api/leads"))
            .json(&form())
            .send()
            .await
            .unwrap()
            .status(),
        201
    );
    let res = anon
        .post(app.url("/api/leads"))
        .json(&form())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429);
    assert!(res.headers().contains_key("retry-after"));
    assert_eq!(counts(&app.db).await, (1, 1));
    app.stop().await;
}

/// (last name, phone, notes, company id) of the contact with `email`.
async fn contact_fields(
    db: &Db,
    email: &str,
) -> (String, Option<String>, Option<String>, Option<String>) {
    let sql = "SELECT last_name, phone, notes, company_id FROM contacts WHERE email = ";
    match db {
        Db::Sqlite(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}?1")))
            .bind(email)
            .fetch_one(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}$1")))
            .bind(email)
            .fetch_one(p.write())
            .await
            .unwrap(),
    }
}

/// (city, company type, revenue) of the company `id`.
async fn company_fields(db: &Db, id: &str) -> (Option<String>, Option<String>, Option<i64>) {
    let sql = "SELECT city, company_type, revenue FROM companies WHERE id = ";
    match db {
        Db::Sqlite(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}?1")))
            .bind(id)
            .fetch_one(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}$1")))
            .bind(id)
            .fetch_one(p.write())
            .await
            .unwrap(),
    }
}

async fn latest_activity(app: &TestApp) -> Value {
    let admin = app.admin().await;
    app.get_json(&admin, "/api/activities").await[0].clone()
}

/// Anyone may send any email or company name: an existing contact's phone, notes, name and company
/// and an existing company's city, type and revenue are kept, only empty ones are filled, and the
/// activity says which submitted values were not applied.
async fn lead_never_overwrites_existing_records(db: TestDb) {
    let app = TestApp::idle(&db).await;
    exec!(
        &app.db,
        "INSERT INTO companies (id, name, state, city, company_type, revenue, created_at, updated_at)
         VALUES ('co_kept', 'Lone Star Access Baths LLC', 'TX', 'Austin', 'kitchen-bath', 50000000, 1, 1),
                ('co_other', 'Other Baths', 'TX', NULL, NULL, NULL, 1, 1),
                ('co_blank', 'Desert Sun Baths', 'AZ', '  ', NULL, NULL, 1, 1)"
    );
    exec!(
        &app.db,
        "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, notes, created_at, updated_at)
         VALUES ('ct_kept', 'co_other', 'Maria', 'Garcia', 'maria@lonestaraccess.example', '(512) 555-0000',
                 'Prefers email', 1, 1),
                ('ct_blank', NULL, 'Cher', '', 'cher@desertsun.example', NULL, ' ', 1, 1)"
    );
    let anon = app.anonymous();
    let (status, body) = send(anon.post(app.url("/api/leads")).json(&form())).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(counts(&app.db).await, (3, 2), "nothing duplicated");
    assert_eq!(
        company_fields(&app.db, "co_kept").await,
        (
            Some("Austin".into()),
            Some("kitchen-bath".into()),
            Some(50_000_000)
        )
    );
    assert_eq!(
        contact_fields(&app.db, "maria@lonestaraccess.example").await,
        (
            "Garcia".into(),
            Some("(512) 555-0000".into()),
            Some("Prefers email".into()),
            Some("co_other".into())
        )
    );
    let activity = latest_activity(&app).await;
    assert_eq!(activity["type"], "contact_updated");
    let description = activity["description"].as_str().unwrap();
    for kept in [
        "phone (kept existing)",
        "notes (kept existing)",
        "last name (kept existing)",
        "company (kept existing)",
        "city (kept existing)",
        "company type (kept existing)",
        "revenue (kept existing)",
        "message: We install 40 walk-in tubs a month.",
    ] {
        assert!(description.contains(kept), "{kept:?} in {description}");
    }

    let blank = json!({
        "companyName": "desert sun baths", "contactName": "Cher Sarkisian", "email": "CHER@desertsun.example",
        "phone": "602-555-0100", "city": "Phoenix", "state": "AZ", "companyType": "bath-shower",
        "annualRevenue": "5-10M", "message": "Call me after 3pm."
    });
    let (status, body) = send(anon.post(app.url("/api/leads")).json(&blank)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(counts(&app.db).await, (3, 2));
    assert_eq!(
        company_fields(&app.db, "co_blank").await,
        (
            Some("Phoenix".into()),
            Some("bath-shower".into()),
            Some(5_000_000)
        ),
        "empty company fields filled"
    );
    assert_eq!(
        contact_fields(&app.db, "cher@desertsun.example").await,
        (
            "Sarkisian".into(),
            Some("602-555-0100".into()),
            Some("Call me after 3pm.".into()),
            Some("co_blank".into())
        ),
        "empty contact fields filled"
    );
    let description = latest_activity(&app).await["description"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(description.contains("filled"), "{description}");
    assert!(!description.contains("not applied"), "{description}");
    app.stop().await;
}

/// Every free-text field has a cap; a longer value is refused with a message naming the field and
/// the cap, and nothing is written. A value at the cap is accepted.
async fn lead_fields_are_capped(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let anon = app.anonymous();
    for (field, value, message) in [
        (
            "companyName",
            "C".repeat(201),
            "Company name must be at most 200 characters",
        ),
        (
            "contactName",
            "N".repeat(201),
            "Your name must be at most 200 characters",
        ),
        (
            "email",
            format!("{}@example.com", "e".repeat(243)),
            "Email must be at most 254 characters",
        ),
        (
            "phone",
            "5".repeat(41),
            "Phone must be at most 40 characters",
        ),
        (
            "city",
            "Y".repeat(101),
            "City must be at most 100 characters",
        ),
        (
            "message",
            "m".repeat(5_001),
            "Message must be at most 5000 characters",
        ),
    ] {
        let mut long = form();
        long[field] = json!(value);
        let (status, v) = send(anon.post(app.url("/api/leads")).json(&long)).await;
        assert_eq!(status, 422, "{field}: {v}");
        assert_eq!(v["errors"][field], message, "{field}: {v}");
        assert_eq!(v["message"], message, "{field}: {v}");
    }
    assert_eq!(counts(&app.db).await, (0, 0));

    let mut at_cap = form();
    at_cap["companyName"] = json!("C".repeat(200));
    at_cap["message"] = json!("m".repeat(5_000));
    let (status, v) = send(anon.post(app.url("/api/leads")).json(&at_cap)).await;
    assert_eq!(status, 201, "{v}");
    assert_eq!(counts(&app.db).await, (1, 1));
    app.stop().await;
}

/// A client whose connections come from `ip` (any 127.x address reaches the server on Linux).
fn client_from(ip: [u8; 4]) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(ip))
        .build()
        .unwrap()
}

/// Many addresses together meet the global ceiling, each within its own quota.
async fn lead_global_ceiling(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            leads_per_minute: 1,
            limits: jobs::config::LimitSettings {
                leads_global_per_minute: Some(3),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .await;
    for i in 1..=3u8 {
        let (status, v) = send(
            client_from([127, 0, 0, i])
                .post(app.url("/api/leads"))
                .json(&form()),
        )
        .await;
        assert_eq!(status, 201, "address {i}: {v}");
    }
    let res = client_from([127, 0, 0, 4])
        .post(app.url("/api/leads"))
        .json(&form())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 429, "fourth address over the global ceiling");
    let retry: u64 = res.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "Retry-After {retry}");
    let v: Value = res.json().await.unwrap();
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("Too many submissions. Try again in"),
        "{v}"
    );
    assert_eq!(counts(&app.db).await, (1, 1));
    app.stop().await;
}

both_backends!(
    lead_creates_company_contact_and_scores_them,
    lead_validation_messages,
    repeated_lead_updates_without_duplicates,
    honeypot_and_rate_limit,
    lead_never_overwrites_existing_records,
    lead_fields_are_capped,
    lead_global_ceiling,
);
