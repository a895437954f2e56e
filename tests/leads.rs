//! The public dealer form `POST /api/leads` and the `ai_score` job it enqueues.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

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
            .fetch_one(p)
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}$1")))
            .bind(email)
            .fetch_one(p)
            .await
            .unwrap(),
    }
}

async fn company(db: &Db, id: &str) -> (String, Option<String>, Option<i64>, String, i32, i32) {
    let sql = "SELECT name, state, revenue, discovery_source, score, prospect_score FROM companies WHERE id = ";
    match db {
        Db::Sqlite(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}?1")))
            .bind(id)
            .fetch_one(p)
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}$1")))
            .bind(id)
            .fetch_one(p)
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
    // Rules: company 28 revenue + 20 territory + 25 type (the phone is the contact's); contact 0 seniority (no title) +
    // 20 revenue + 15 territory + 15 type + 10 reachability.
    assert_eq!(company_score, 28 + 20 + 25);
    assert_eq!(contact_score, 20 + 15 + 15 + 10);
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

/// The same person and company again update, never duplicate; a single-word name is kept.
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

both_backends!(
    lead_creates_company_contact_and_scores_them,
    lead_validation_messages,
    repeated_lead_updates_without_duplicates,
    honeypot_and_rate_limit,
);
