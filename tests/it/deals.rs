//! The Sales Pipeline (seed 001 §3–§9) as callers see it: deal validation with the seed's messages,
//! stage probabilities, partial updates, the next-stage chain and its 409, list filters, active
//! prospects and their conversion, pipeline metrics from known deals, the CSV export, and the
//! activities each change writes. Every test runs on SQLite and on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use chrono::{NaiveDate, Utc};
use common::*;
use jobs::db::Db;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

const DAY: i64 = 86_400_000;

fn new_id() -> String {
    ulid::Ulid::new().to_string()
}

async fn insert_company(
    db: &Db,
    name: &str,
    prospect_score: i32,
    is_deal: bool,
    revenue: Option<i64>,
) -> String {
    let id = new_id();
    let now = now_ms();
    exec!(
        db,
        "INSERT INTO companies (id, name, prospect_score, is_deal, revenue, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
        &id,
        name,
        prospect_score,
        is_deal,
        revenue,
        now
    );
    id
}

async fn insert_contact(
    db: &Db,
    first: &str,
    last: &str,
    status: &str,
    score: i32,
    company_id: Option<&str>,
) -> String {
    let id = new_id();
    let now = now_ms();
    exec!(
        db,
        "INSERT INTO contacts (id, first_name, last_name, status, score, company_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
        &id,
        first,
        last,
        status,
        score,
        company_id,
        now
    );
    id
}

/// A deal written directly, with the stage (or none), value, probability and times a test needs.
async fn insert_deal(
    db: &Db,
    stage: Option<&str>,
    value: i64,
    probability: i32,
    created_at: i64,
    actual_close_date: Option<&str>,
) -> String {
    let id = new_id();
    exec!(
        db,
        "INSERT INTO deals (id, title, value, stage, probability, actual_close_date, stage_changed_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)",
        &id,
        format!("Deal {id}"),
        value,
        stage,
        probability,
        actual_close_date,
        created_at
    );
    id
}

async fn create(app: &TestApp, c: &Client, body: Value) -> (u16, Value) {
    send(c.post(app.url("/api/deals")).json(&body)).await
}

async fn create_ok(app: &TestApp, c: &Client, body: Value) -> Value {
    let (s, v) = create(app, c, body.clone()).await;
    assert_eq!(s, 201, "create {body}: {v}");
    v
}

async fn deal_count(db: &Db) -> i64 {
    scalar!(db, i64, "SELECT COUNT(*) FROM deals")
}

fn today() -> String {
    Utc::now().date_naive().format("%Y-%m-%d").to_string()
}

async fn list(app: &TestApp, c: &Client, query: &str) -> (Vec<Value>, i64) {
    let res = c
        .get(app.url(&format!("/api/deals{query}")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200, "list {query}");
    let total = res.headers()["x-total-count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    (res.json().await.unwrap(), total)
}

// ---------------------------------------------------------------------------------------------

async fn deal_create_validation(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;

    let (s, v) = create(&app, &c, json!({})).await;
    assert_eq!(s, 422);
    assert_eq!(v["message"], "Deal title is required");
    assert_eq!(v["errors"]["title"], "Deal title is required");
    assert_eq!(v["errors"]["value"], "Deal value is required");

    let (s, v) = create(&app, &c, json!({"title": "  ", "value": "100"})).await;
    assert_eq!(
        (s, v["message"].clone()),
        (422, json!("Deal title is required"))
    );

    for value in [json!(null), json!(""), Value::Null] {
        let (s, v) = create(&app, &c, json!({"title": "Big deal", "value": value})).await;
        assert_eq!(s, 422);
        assert_eq!(v["message"], "Deal value is required");
    }
    let (s, v) = create(&app, &c, json!({"title": "Big deal"})).await;
    assert_eq!(
        (s, v["message"].clone()),
        (422, json!("Deal value is required"))
    );

    for value in [json!("12a"), json!(-5), json!(10.5), json!(true)] {
        let (s, v) = create(&app, &c, json!({"title": "T", "value": value})).await;
        assert_eq!(s, 422, "value {value}");
        assert!(v["errors"]["value"].is_string(), "{v}");
    }

    let (s, v) = create(&app, &c, json!({"title": "T", "value": 1, "stage": "won"})).await;
    assert_eq!(s, 422);
    let msg = v["message"].as_str().unwrap();
    for stage in [
        "qualification",
        "proposal",
        "negotiation",
        "decision",
        "closed_won",
        "closed_lost",
    ] {
        assert!(msg.contains(stage), "{msg} names {stage}");
    }

    for date in ["2026-02-30", "next week", "1899-12-31"] {
        let (s, v) = create(
            &app,
            &c,
            json!({"title": "T", "value": 1, "expectedCloseDate": date}),
        )
        .await;
        assert_eq!(s, 422, "date {date}: {v}");
        assert!(v["errors"]["expectedCloseDate"].is_string());
    }

    let (s, v) = create(
        &app,
        &c,
        json!({"title": "T", "value": 1, "companyId": "nope", "contactId": "nope"}),
    )
    .await;
    assert_eq!(s, 422);
    assert_eq!(v["errors"]["companyId"], "Company not found");
    assert_eq!(v["errors"]["contactId"], "Contact not found");

    assert_eq!(deal_count(&app.db).await, 0, "no invalid deal was written");
    let activities = app.get_json(&c, "/api/activities").await;
    assert_eq!(activities.as_array().unwrap().len(), 0);
    app.stop().await;
}

async fn deal_create_defaults_and_probability(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;

    let d = create_ok(
        &app,
        &c,
        json!({"title": " Acme expansion ", "value": "150000"}),
    )
    .await;
    assert_eq!(d["title"], "Acme expansion");
    assert_eq!(d["value"], "150000");
    assert_eq!(d["stage"], "qualification");
    assert_eq!(d["probability"], 25);
    assert!(d["actualCloseDate"].is_null());
    assert!(d["expectedCloseDate"].is_null());
    assert!(chrono::DateTime::parse_from_rfc3339(d["createdAt"].as_str().unwrap()).is_ok());
    let got = app
        .get_json(&c, &format!("/api/deals/{}", d["id"].as_str().unwrap()))
        .await;
    assert_eq!(got, d);

    let d = create_ok(&app, &c, json!({"title": "N", "value": 2500})).await;
    assert_eq!(d["value"], "2500");

    for (stage, p) in [
        ("qualification", 25),
        ("proposal", 45),
        ("negotiation", 65),
        ("decision", 80),
        ("closed_won", 100),
        ("closed_lost", 0),
    ] {
        let d = create_ok(
            &app,
            &c,
            json!({"title": "S", "value": "1", "stage": stage}),
        )
        .await;
        assert_eq!(d["probability"], p, "{stage}");
        let closed = stage.starts_with("closed");
        assert_eq!(d["actualCloseDate"] == json!(today()), closed, "{stage}");
    }

    for (given, p) in [
        (json!("abc"), 0),
        (json!(150), 100),
        (json!(-3), 0),
        (json!("55"), 55),
        (json!(33.6), 34),
        (json!(true), 0),
    ] {
        let d = create_ok(
            &app,
            &c,
            json!({"title": "P", "value": "1", "stage": "proposal", "probability": given}),
        )
        .await;
        assert_eq!(d["probability"], p, "probability {given}");
    }

    let company = insert_company(&app.db, "Acme Bath", 0, false, None).await;
    let contact = insert_contact(&app.db, "Jane", "Doe", "new_lead", 70, Some(&company)).await;
    let d = create_ok(
        &app,
        &c,
        json!({"title": "Linked", "value": "9", "expectedCloseDate": "2027-01-15",
               "companyId": company, "contactId": contact, "description": "d", "notes": "n"}),
    )
    .await;
    assert_eq!(d["expectedCloseDate"], "2027-01-15");
    assert_eq!(d["companyId"], json!(company));
    assert_eq!(d["contactId"], json!(contact));
    assert_eq!(d["notes"], "n");
    assert_eq!(d["description"], "d");
    app.stop().await;
}

async fn deal_update_and_delete(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let d = create_ok(&app, &c, json!({"title": "Upd", "value": "1000"})).await;
    let url = app.url(&format!("/api/deals/{}", d["id"].as_str().unwrap()));

    let (s, v) = send(c.put(&url).json(&json!({"stage": "negotiation"}))).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["stage"].clone(), v["probability"].clone()),
        (json!("negotiation"), json!(65))
    );
    assert_eq!(v["title"], "Upd", "a partial update keeps the rest");

    let (_, v) = send(
        c.put(&url)
            .json(&json!({"stage": "decision", "probability": 70})),
    )
    .await;
    assert_eq!(
        (v["stage"].clone(), v["probability"].clone()),
        (json!("decision"), json!(70))
    );

    let (_, v) = send(
        c.put(&url)
            .json(&json!({"title": "Renamed", "value": 2000})),
    )
    .await;
    assert_eq!(v["title"], "Renamed");
    assert_eq!(v["value"], "2000");
    assert_eq!(v["stage"], "decision");
    assert_eq!(v["probability"], 70, "no stage change, no new default");

    let (_, v) = send(c.put(&url).json(&json!({"stage": "closed_lost"}))).await;
    assert_eq!(v["probability"], 0);
    assert_eq!(v["actualCloseDate"], json!(today()));
    let (_, v) = send(c.put(&url).json(&json!({"stage": "proposal"}))).await;
    assert!(
        v["actualCloseDate"].is_null(),
        "reopening clears the close date"
    );

    let (s, v) = send(c.put(&url).json(&json!({"title": ""}))).await;
    assert_eq!(
        (s, v["message"].clone()),
        (422, json!("Deal title is required"))
    );
    let (s, v) = send(c.put(&url).json(&json!({"value": ""}))).await;
    assert_eq!(
        (s, v["message"].clone()),
        (422, json!("Deal value is required"))
    );
    let (s, _) = send(c.put(&url).json(&json!({"stage": "bogus"}))).await;
    assert_eq!(s, 422);
    let (s, _) = send(c.put(&url).json(&json!({"companyId": "missing"}))).await;
    assert_eq!(s, 422);
    let (s, v) = send(
        c.put(app.url("/api/deals/nope"))
            .json(&json!({"title": "x"})),
    )
    .await;
    assert_eq!((s, v["message"].clone()), (404, json!("Deal not found")));

    let (s, _) = send(c.delete(&url)).await;
    assert_eq!(s, 204);
    let (s, _) = send(c.get(&url)).await;
    assert_eq!(s, 404);
    let (s, _) = send(c.delete(&url)).await;
    assert_eq!(s, 404);
    assert_eq!(deal_count(&app.db).await, 0);
    app.stop().await;
}

async fn next_stage_chain(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let d = create_ok(&app, &c, json!({"title": "Chain", "value": "10"})).await;
    let url = app.url(&format!(
        "/api/deals/{}/next-stage",
        d["id"].as_str().unwrap()
    ));
    for (stage, p) in [
        ("proposal", 45),
        ("negotiation", 65),
        ("decision", 80),
        ("closed_won", 100),
    ] {
        let (s, v) = send(c.post(&url)).await;
        assert_eq!(s, 200, "{v}");
        assert_eq!(v["stage"], stage);
        assert_eq!(v["probability"], p);
    }
    let (_, v) = send(c.get(app.url(&format!("/api/deals/{}", d["id"].as_str().unwrap())))).await;
    assert_eq!(v["actualCloseDate"], json!(today()));
    let (s, v) = send(c.post(&url)).await;
    assert_eq!(s, 409);
    assert_eq!(v, json!({"message": "No next stage available"}));

    let stageless = insert_deal(&app.db, None, 5, 25, now_ms(), None).await;
    let (s, v) = send(c.post(app.url(&format!("/api/deals/{stageless}/next-stage")))).await;
    assert_eq!((s, v["stage"].clone()), (200, json!("proposal")));

    let lost = insert_deal(&app.db, Some("closed_lost"), 5, 0, now_ms(), None).await;
    let (s, v) = send(c.post(app.url(&format!("/api/deals/{lost}/next-stage")))).await;
    assert_eq!(
        (s, v["message"].clone()),
        (409, json!("No next stage available"))
    );

    let (s, _) = send(c.post(app.url("/api/deals/unknown/next-stage"))).await;
    assert_eq!(s, 404);
    app.stop().await;
}

async fn deal_list_filters(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let company = insert_company(&app.db, "Filter Co", 0, false, None).await;
    let contact = insert_contact(&app.db, "Al", "Bo", "new_lead", 50, None).await;
    let t = now_ms();
    let old_stageless = insert_deal(&app.db, None, 1, 25, t - 3 * DAY, None).await;
    let a = create_ok(
        &app,
        &c,
        json!({"title": "A", "value": "1", "companyId": company}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let b = create_ok(
        &app,
        &c,
        json!({"title": "B", "value": "2", "stage": "proposal", "contactId": contact}),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let cc = create_ok(
        &app,
        &c,
        json!({"title": "C", "value": "3", "stage": "proposal"}),
    )
    .await;

    let (all, total) = list(&app, &c, "").await;
    assert_eq!(total, 4);
    let ids: Vec<&str> = all.iter().map(|d| d["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids,
        [
            cc["id"].as_str().unwrap(),
            b["id"].as_str().unwrap(),
            a["id"].as_str().unwrap(),
            old_stageless.as_str()
        ],
        "newest first"
    );
    let (items, total) = list(&app, &c, "?stage=proposal").await;
    assert_eq!((items.len(), total), (2, 2));
    let (items, _) = list(&app, &c, "?stage=qualification").await;
    assert_eq!(items.len(), 2, "a stage-less deal counts as qualification");
    let (items, _) = list(&app, &c, &format!("?companyId={company}")).await;
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["title"], "A");
    let (items, _) = list(&app, &c, &format!("?contactId={contact}")).await;
    assert_eq!(items.len(), 1);
    assert_eq!(items[0]["title"], "B");
    let (items, total) = list(&app, &c, "?limit=1&offset=1").await;
    assert_eq!((items.len(), total), (1, 4));
    assert_eq!(items[0]["title"], "B");

    let (s, v) = send(c.get(app.url("/api/deals?stage=won"))).await;
    assert_eq!(s, 422);
    assert!(v["message"].as_str().unwrap().contains("closed_lost"));
    let (s, _) = send(c.get(app.url("/api/deals?limit=0"))).await;
    assert_eq!(s, 400);
    let (s, _) = send(app.anonymous().get(app.url("/api/deals"))).await;
    assert_eq!(s, 401);
    app.stop().await;
}

/// The board's columns count and sum every deal of their stage (stage-less ones in
/// qualification) while showing only the newest `limit`, and a column's next page follows on
/// from its first without a gap or a repeat; a move shows in both columns' totals at once.
async fn deal_board_columns(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let t = now_ms();
    let mut qualification = Vec::new();
    for i in 0..7 {
        // Every other one stage-less: the board must put them in the same column.
        let stage = (i % 2 == 0).then_some("qualification");
        qualification.push(insert_deal(&app.db, stage, 100 + i, 25, t - i * 1000, None).await);
    }
    insert_deal(&app.db, Some("decision"), 5_000, 80, t, None).await;
    insert_deal(&app.db, Some("closed_lost"), 9_999, 0, t, None).await;

    let (s, board) = send(c.get(app.url("/api/deals/board?limit=3"))).await;
    assert_eq!(s, 200, "{board}");
    let stages: Vec<&str> = board
        .as_array()
        .unwrap()
        .iter()
        .map(|col| col["stage"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        [
            "qualification",
            "proposal",
            "negotiation",
            "decision",
            "closed_won"
        ],
        "closed_lost is not a column"
    );
    let q = &board[0];
    assert_eq!(q["count"], 7);
    assert_eq!(q["value"], (100..107).sum::<i64>());
    let shown: Vec<&str> = q["deals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert_eq!(shown, qualification[..3], "the newest three, newest first");
    assert_eq!(
        (
            board[1]["count"].as_i64(),
            board[1]["deals"].as_array().map(Vec::len)
        ),
        (Some(0), Some(0))
    );
    assert_eq!(
        (board[3]["count"].as_i64(), board[3]["value"].as_i64()),
        (Some(1), Some(5_000))
    );

    // The column's further pages: the next three, then the last one, with the same total.
    let (next, total) = list(&app, &c, "?stage=qualification&limit=3&offset=3").await;
    let next: Vec<&str> = next.iter().map(|d| d["id"].as_str().unwrap()).collect();
    assert_eq!(next, qualification[3..6]);
    assert_eq!(total, 7);
    let (last, _) = list(&app, &c, "?stage=qualification&limit=3&offset=6").await;
    assert_eq!(last.len(), 1);
    assert_eq!(last[0]["id"], qualification[6].as_str());

    let (s, moved) =
        send(c.post(app.url(&format!("/api/deals/{}/next-stage", qualification[0])))).await;
    assert_eq!(s, 200, "{moved}");
    let (_, board) = send(c.get(app.url("/api/deals/board"))).await;
    assert_eq!(
        (board[0]["count"].as_i64(), board[1]["count"].as_i64()),
        (Some(6), Some(1))
    );
    assert_eq!(board[1]["deals"][0]["id"], qualification[0].as_str());
    assert_eq!(board[1]["value"], 100);

    let (s, v) = send(c.get(app.url("/api/deals/board?limit=0"))).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (400, Some("limit must be between 1 and 1000"))
    );
    let (s, _) = send(app.anonymous().get(app.url("/api/deals/board"))).await;
    assert_eq!(s, 401);
    app.stop().await;
}

async fn deal_activities_newest_first(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let d = create_ok(&app, &c, json!({"title": "Hist", "value": "1"})).await;
    let id = d["id"].as_str().unwrap();
    tokio::time::sleep(Duration::from_millis(5)).await;
    send(c.post(app.url(&format!("/api/deals/{id}/next-stage")))).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    send(
        c.put(app.url(&format!("/api/deals/{id}")))
            .json(&json!({"notes": "no stage change"})),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let (s, _) = send(c.delete(app.url(&format!("/api/deals/{id}")))).await;
    assert_eq!(s, 204);

    let acts = app.get_json(&c, "/api/activities").await;
    let kinds: Vec<&str> = acts
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["deal_deleted", "deal_stage_change", "deal_created"]);
    let moved = &acts[1];
    assert_eq!(moved["entityId"], json!(id));
    assert!(
        moved["description"]
            .as_str()
            .unwrap()
            .contains("qualification to proposal")
    );
    app.stop().await;
}

async fn prospect_lists(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    for score in 1..=10 {
        insert_company(&app.db, &format!("P{score}"), score * 5, false, None).await;
    }
    insert_company(&app.db, "Already a deal", 99, true, None).await;
    insert_company(&app.db, "Unscored", 0, false, None).await;
    for (i, status) in [
        "new_lead",
        "contacted",
        "responded",
        "new_lead",
        "contacted",
        "responded",
        "new_lead",
    ]
    .iter()
    .enumerate()
    {
        insert_contact(&app.db, "C", &format!("N{i}"), status, 50 + i as i32, None).await;
    }
    insert_contact(&app.db, "Q", "Qualified", "qualified", 100, None).await;
    insert_contact(&app.db, "D", "Discovered", "discovered", 99, None).await;

    let v = app.get_json(&c, "/api/pipeline/prospects").await;
    let companies = v["companies"].as_array().unwrap();
    assert_eq!(companies.len(), 8, "first 8 companies");
    let scores: Vec<i64> = companies
        .iter()
        .map(|c| c["prospectScore"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, [50, 45, 40, 35, 30, 25, 20, 15]);
    assert!(companies.iter().all(|c| c["isDeal"] == false));
    let contacts = v["contacts"].as_array().unwrap();
    assert_eq!(contacts.len(), 6, "first 6 contacts");
    let scores: Vec<i64> = contacts
        .iter()
        .map(|c| c["score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, [56, 55, 54, 53, 52, 51]);
    assert!(contacts.iter().all(|c| {
        ["new_lead", "contacted", "responded"].contains(&c["status"].as_str().unwrap())
    }));
    assert!(contacts[0]["firstName"].is_string() && contacts[0]["lastName"].is_string());
    app.stop().await;
}

async fn convert_prospect(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let company = insert_company(&app.db, "Lone Star Baths", 60, false, Some(5_200_000)).await;
    let url = app.url("/api/deals/convert-prospect");

    let (s, d) = send(
        c.post(&url)
            .json(&json!({"prospectId": company, "type": "company"})),
    )
    .await;
    assert_eq!(s, 201, "{d}");
    assert_eq!(d["title"], "Lone Star Baths");
    assert_eq!(d["value"], "52000", "1% of annual revenue");
    assert_eq!(d["stage"], "qualification");
    assert_eq!(d["probability"], 25);
    assert_eq!(d["companyId"], json!(company));
    let is_deal = scalar!(
        &app.db,
        bool,
        "SELECT is_deal FROM companies WHERE id = $1",
        &company
    );
    assert!(is_deal, "the company is marked a deal");
    assert_eq!(deal_count(&app.db).await, 1);

    let (s, v) = send(
        c.post(&url)
            .json(&json!({"prospectId": company, "type": "company"})),
    )
    .await;
    assert_eq!(s, 409, "{v}");
    assert_eq!(deal_count(&app.db).await, 1, "still exactly one deal");
    let v = app.get_json(&c, "/api/pipeline/prospects").await;
    assert_eq!(v["companies"].as_array().unwrap().len(), 0);

    let contact = insert_contact(&app.db, "Jane", "Doe", "contacted", 80, Some(&company)).await;
    let (s, d) = send(
        c.post(&url)
            .json(&json!({"prospectId": contact, "type": "contact"})),
    )
    .await;
    assert_eq!(s, 201, "{d}");
    assert_eq!(d["title"], "Jane Doe - Lone Star Baths");
    assert_eq!(d["contactId"], json!(contact));
    assert_eq!(d["companyId"], json!(company));
    assert_eq!(d["probability"], 25);
    let status = scalar!(
        &app.db,
        String,
        "SELECT status FROM contacts WHERE id = $1",
        &contact
    );
    assert_eq!(status, "qualified");
    let (s, v) = send(
        c.post(&url)
            .json(&json!({"prospectId": contact, "type": "contact"})),
    )
    .await;
    assert_eq!(
        (s, v["message"].clone()),
        (409, json!("Contact is already a deal"))
    );
    assert_eq!(deal_count(&app.db).await, 2);
    let lone = insert_contact(&app.db, "Solo", "Person", "new_lead", 80, None).await;
    let (_, d) = send(
        c.post(&url)
            .json(&json!({"prospectId": lone, "type": "contact"})),
    )
    .await;
    assert_eq!(d["title"], "Solo Person");
    assert_eq!(d["value"], "0", "no company revenue: 0");
    assert_eq!(deal_count(&app.db).await, 3);

    let (s, _) = send(
        c.post(&url)
            .json(&json!({"prospectId": "nope", "type": "company"})),
    )
    .await;
    assert_eq!(s, 404);
    let (s, _) = send(
        c.post(&url)
            .json(&json!({"prospectId": "nope", "type": "contact"})),
    )
    .await;
    assert_eq!(s, 404);
    let (s, v) = send(
        c.post(&url)
            .json(&json!({"prospectId": company, "type": "lead"})),
    )
    .await;
    assert_eq!(s, 422);
    assert!(v["errors"]["type"].is_string());
    let (s, v) = send(c.post(&url).json(&json!({"type": "company"}))).await;
    assert_eq!(s, 422);
    assert!(v["errors"]["prospectId"].is_string());
    assert_eq!(deal_count(&app.db).await, 3);

    let acts = app.get_json(&c, "/api/activities").await;
    let converted = acts
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["type"] == "prospect_converted")
        .count();
    assert_eq!(converted, 3);
    app.stop().await;
}

fn midnight_days_ago(days: i64) -> (i64, String) {
    let date = Utc::now().date_naive() - chrono::Duration::days(days);
    (
        date.and_hms_opt(0, 0, 0)
            .unwrap()
            .and_utc()
            .timestamp_millis(),
        date.format("%Y-%m-%d").to_string(),
    )
}

async fn pipeline_metrics_from_deals(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;

    let m = app.get_json(&c, "/api/pipeline/metrics").await;
    for key in [
        "totalPipeline",
        "qoqGrowth",
        "activeDealsCount",
        "weeklyGrowth",
        "closeRate",
        "avgCycleDays",
        "expectedCloseValue",
        "conversionRate",
        "avgDealSize",
        "pipelineVelocity",
    ] {
        assert_eq!(m[key].as_f64(), Some(0.0), "{key} with no deals: {m}");
    }
    assert_eq!(m["isAboveTarget"], false);
    assert_eq!(m["stageBreakdown"].as_array().unwrap().len(), 5);

    let now = now_ms();
    insert_deal(&app.db, Some("qualification"), 100_000, 25, now - DAY, None).await;
    insert_deal(&app.db, None, 50_000, 25, now - 2 * DAY, None).await;
    insert_deal(&app.db, Some("proposal"), 200_000, 45, now - 10 * DAY, None).await;
    let (_, close) = midnight_days_ago(10);
    let (created_40, _) = midnight_days_ago(40);
    let (created_50, _) = midnight_days_ago(50);
    insert_deal(
        &app.db,
        Some("closed_won"),
        80_000,
        100,
        created_40,
        Some(&close),
    )
    .await;
    insert_deal(
        &app.db,
        Some("closed_won"),
        120_000,
        100,
        created_50,
        Some(&close),
    )
    .await;
    insert_deal(
        &app.db,
        Some("closed_lost"),
        30_000,
        0,
        now - 20 * DAY,
        None,
    )
    .await;

    let m = app.get_json(&c, "/api/pipeline/metrics").await;
    assert_eq!(m["totalPipeline"], 350_000);
    assert_eq!(m["activeDealsCount"], 3);
    assert_eq!(m["expectedCloseValue"], 127_500, "25000 + 12500 + 90000");
    assert_eq!(m["closeRate"], 66.7, "2 won of 3 closed");
    assert_eq!(m["conversionRate"], 33.3, "2 won of 6");
    assert_eq!(m["isAboveTarget"], true);
    assert_eq!(m["targetCloseRate"], 20.0);
    assert_eq!(m["avgCycleDays"], 35, "(30 + 40) / 2");
    assert_eq!(m["targetCycle"], 35);
    assert_eq!(m["industryAvgCycle"], 45);
    assert_eq!(m["industryAvgCloseRate"], 15.2);
    assert_eq!(m["avgDealSize"], 100_000, "won deals' mean");
    assert_eq!(m["industryAvgDealSize"], 52_000);
    assert_eq!(
        m["weeklyGrowth"], 100.0,
        "2 deals this week, 1 the week before"
    );
    assert_eq!(m["pipelineVelocity"], 5.7, "3 × 100000 × 0.667 / 35 / 1000");
    let breakdown = m["stageBreakdown"].as_array().unwrap();
    let stages: Vec<&str> = breakdown
        .iter()
        .map(|s| s["stage"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        [
            "qualification",
            "proposal",
            "negotiation",
            "decision",
            "closed_won"
        ]
    );
    assert_eq!(
        breakdown[0],
        json!({"stage": "qualification", "count": 2, "value": 150_000})
    );
    assert_eq!(
        breakdown[1],
        json!({"stage": "proposal", "count": 1, "value": 200_000})
    );
    assert_eq!(breakdown[2]["count"], 0);
    assert_eq!(
        breakdown[4],
        json!({"stage": "closed_won", "count": 2, "value": 200_000})
    );
    app.stop().await;
}

/// Start (ms) of the calendar quarter `offset` quarters from today's.
fn quarter_start(offset: i32) -> i64 {
    use chrono::Datelike;
    let d = Utc::now().date_naive();
    let q = d.year() * 4 + d.month0() as i32 / 3 + offset;
    NaiveDate::from_ymd_opt(q.div_euclid(4), (q.rem_euclid(4) * 3 + 1) as u32, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc()
        .timestamp_millis()
}

async fn pipeline_qoq_growth(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let hour = 3_600_000;
    insert_deal(
        &app.db,
        Some("proposal"),
        300,
        45,
        quarter_start(0) + hour,
        None,
    )
    .await;
    insert_deal(
        &app.db,
        Some("decision"),
        200,
        80,
        quarter_start(-1) + hour,
        None,
    )
    .await;
    // Closed and older deals are not open pipeline created in these quarters.
    insert_deal(
        &app.db,
        Some("closed_won"),
        999,
        100,
        quarter_start(0) + hour,
        None,
    )
    .await;
    insert_deal(
        &app.db,
        Some("proposal"),
        777,
        45,
        quarter_start(-2) + hour,
        None,
    )
    .await;
    let m = app.get_json(&c, "/api/pipeline/metrics").await;
    assert_eq!(m["qoqGrowth"], 50.0, "300 this quarter vs 200 last: {m}");
    assert_eq!(
        m["avgCycleDays"], 0,
        "a won deal without a close date has no cycle"
    );
    assert_eq!(m["closeRate"], 100.0);
    app.stop().await;
}

async fn pipeline_export_csv(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let company = insert_company(&app.db, "Acme, Inc", 0, false, None).await;
    let contact = insert_contact(&app.db, "Jane", "Doe", "new_lead", 50, None).await;
    create_ok(
        &app,
        &c,
        json!({"title": "=SUM(A1:A9)", "value": "4200", "stage": "negotiation",
               "expectedCloseDate": "2027-03-01", "companyId": company, "contactId": contact}),
    )
    .await;
    let res = c.get(app.url("/api/pipeline/export")).send().await.unwrap();
    assert_eq!(res.status(), 200);
    let disposition = res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        disposition.contains(&format!("pipeline_export_{}.csv", today())),
        "{disposition}"
    );
    assert!(
        res.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/csv")
    );
    let body = res.text().await.unwrap();
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(
        lines[0],
        "Title,Stage,Value,Probability,Expected Close,Company,Contact"
    );
    assert_eq!(
        lines[1],
        "'=SUM(A1:A9),negotiation,4200,65,2027-03-01,\"Acme, Inc\",Jane Doe"
    );
    assert_eq!(lines.len(), 2);
    app.stop().await;
}

/// With the read cache on: aggregates are served from memory until a write through the api (or the
/// TTL) makes them stale; a write made around the api shows after the TTL.
async fn read_cache_serves_then_refreshes_on_write(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            read_cache_ttl: Duration::from_millis(800),
            ..Default::default()
        },
    )
    .await;
    let c = app.user().await;
    let before = app.get_json(&c, "/api/pipeline/metrics").await;
    assert_eq!(before["activeDealsCount"], 0);
    insert_deal(
        &app.db,
        Some("proposal"),
        10_000,
        45,
        jobs::time::now_ms(),
        None,
    )
    .await;
    let cached = app.get_json(&c, "/api/pipeline/metrics").await;
    assert_eq!(cached["activeDealsCount"], 0, "served from the cache");
    let res = c
        .post(app.url("/api/deals"))
        .json(&json!({"title": "Via the api", "value": "5000"}))
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success());
    let after = app.get_json(&c, "/api/pipeline/metrics").await;
    assert_eq!(
        after["activeDealsCount"], 2,
        "a write through the api clears the cache"
    );
    insert_deal(
        &app.db,
        Some("proposal"),
        10_000,
        45,
        jobs::time::now_ms(),
        None,
    )
    .await;
    tokio::time::sleep(Duration::from_millis(900)).await;
    assert_eq!(
        app.get_json(&c, "/api/pipeline/metrics").await["activeDealsCount"],
        3,
        "and the TTL bounds the rest"
    );
    app.stop().await;
}

both_backends!(
    read_cache_serves_then_refreshes_on_write,
    deal_create_validation,
    deal_create_defaults_and_probability,
    deal_update_and_delete,
    next_stage_chain,
    deal_list_filters,
    deal_board_columns,
    deal_activities_newest_first,
    prospect_lists,
    convert_prospect,
    pipeline_metrics_from_deals,
    pipeline_qoq_growth,
    pipeline_export_csv,
);
