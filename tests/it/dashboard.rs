//! The Business Intelligence Dashboard (seed 000 §2.5, §3, §7.3, §9) as callers see it: KPI figures
//! counted from companies, contacts, meetings and deals (prospectsChange instead of the fixed '+12%'),
//! campaign performance per timeframe, companies per target state (all seven, zero included) and the
//! CSV report with its four sections, short business names and defused cells. Every test runs on
//! SQLite and on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use common::*;
use jobs::db::Db;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

const DAY: i64 = 86_400_000;

struct Company<'a> {
    name: &'a str,
    state: Option<&'a str>,
    created_at: i64,
    description: Option<&'a str>,
    revenue: Option<i64>,
}

async fn insert_company(db: &Db, c: Company<'_>) -> String {
    let id = ulid::Ulid::new().to_string();
    exec!(
        db,
        "INSERT INTO companies (id, name, state, description, revenue, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
        &id,
        c.name,
        c.state,
        c.description,
        c.revenue,
        c.created_at
    );
    id
}

async fn company_at(db: &Db, name: &str, created_at: i64) -> String {
    insert_company(
        db,
        Company {
            name,
            state: None,
            created_at,
            description: None,
            revenue: None,
        },
    )
    .await
}

/// A contact with a status and optionally a last-contacted time.
async fn insert_contact(
    db: &Db,
    first: &str,
    title: Option<&str>,
    status: &str,
    last_contacted_at: Option<i64>,
    company_id: Option<&str>,
) -> String {
    let id = ulid::Ulid::new().to_string();
    exec!(
        db,
        "INSERT INTO contacts (id, first_name, last_name, title, status, last_contacted_at, company_id, created_at, updated_at)
         VALUES ($1, $2, 'Smith', $3, $4, $5, $6, $7, $7)",
        &id,
        first,
        title,
        status,
        last_contacted_at,
        company_id,
        now_ms()
    );
    id
}

async fn post_ok(app: &TestApp, c: &Client, path: &str, body: Value) -> Value {
    let res = c.post(app.url(path)).json(&body).send().await.unwrap();
    let status = res.status();
    let v: Value = res.json().await.unwrap();
    assert_eq!(status, 201, "POST {path} {body}: {v}");
    v
}

fn rfc(ms: i64) -> String {
    Utc.timestamp_millis_opt(ms).unwrap().to_rfc3339()
}

fn in_this_month(ms: i64) -> bool {
    let now = Utc::now().date_naive();
    let d = Utc.timestamp_millis_opt(ms).unwrap().date_naive();
    d.year() == now.year() && d.month() == now.month()
}

async fn dashboard_metrics(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;

    let m = app.get_json(&c, "/api/dashboard/metrics").await;
    for key in [
        "prospectsIdentified",
        "prospectsChange",
        "meetingsScheduled",
        "meetingConversionRate",
        "activeDeals",
        "upcomingMeetings",
        "completedMeetings",
        "monthlyMeetings",
    ] {
        assert_eq!(
            m[key].as_f64(),
            Some(0.0),
            "{key} on an empty database: {m}"
        );
    }

    let now = now_ms();
    for (i, age) in [5, 6, 7, 40, 45, 100].iter().enumerate() {
        company_at(&app.db, &format!("Co {i}"), now - age * DAY).await;
    }
    let a = insert_contact(&app.db, "A", None, "email_sent", Some(now - DAY), None).await;
    let b = insert_contact(&app.db, "B", None, "new_lead", Some(now - 3 * DAY), None).await;
    insert_contact(&app.db, "C", None, "contacted", None, None).await;
    insert_contact(&app.db, "D", None, "responded", None, None).await;
    insert_contact(&app.db, "E", None, "discovered", None, None).await;

    // Meetings: two ahead (one confirmed), one completed, one cancelled through its status.
    let times = [
        now + 2 * 3_600_000,
        now + 3 * 3_600_000,
        now - DAY,
        now - 2 * DAY,
    ];
    // A books two, B one that is cancelled, the last is with nobody on file.
    let with = [Some(&a), Some(&a), None, Some(&b)];
    let mut ids = Vec::new();
    for (i, t) in times.iter().enumerate() {
        let m = post_ok(
            &app,
            &c,
            "/api/meetings",
            json!({"title": format!("M{i}"), "scheduledDate": rfc(*t), "contactId": with[i]}),
        )
        .await;
        ids.push(m["id"].as_str().unwrap().to_string());
    }
    for (id, status) in [
        (&ids[1], "confirmed"),
        (&ids[2], "completed"),
        (&ids[3], "cancelled"),
    ] {
        let res = c
            .put(app.url(&format!("/api/meetings/{id}")))
            .json(&json!({"status": status}))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 200);
    }
    post_ok(
        &app,
        &c,
        "/api/deals",
        json!({"title": "Open 1", "value": "1000"}),
    )
    .await;
    post_ok(
        &app,
        &c,
        "/api/deals",
        json!({"title": "Open 2", "value": 500, "stage": "decision"}),
    )
    .await;
    post_ok(
        &app,
        &c,
        "/api/deals",
        json!({"title": "Won", "value": "9999", "stage": "closed_won"}),
    )
    .await;

    let m = app.get_json(&c, "/api/dashboard/metrics").await;
    assert_eq!(m["prospectsIdentified"], 6);
    assert_eq!(
        m["prospectsChange"], 50.0,
        "3 companies in 30 days vs 2 before"
    );
    assert_eq!(m["prospectsChangeText"], "+50% from last month");
    assert_eq!(m["meetingsScheduled"], 3, "cancelled meetings do not count");
    assert_eq!(
        m["meetingConversionRate"], 25.0,
        "of the 4 contacted in 30 days, A booked (twice: one contact); B's meeting was cancelled"
    );
    let month = app
        .get_json(&c, "/api/dashboard/campaign-performance?timeframe=30")
        .await;
    assert_eq!(
        month["meetingRate"], m["meetingConversionRate"],
        "the same figure on both cards"
    );
    assert_eq!(m["activeDeals"], 2);
    assert_eq!(m["pipelineValue"], 1500);
    assert_eq!(m["upcomingMeetings"], 2);
    assert_eq!(m["completedMeetings"], 1);
    let monthly = times[..3].iter().filter(|t| in_this_month(**t)).count();
    assert_eq!(m["monthlyMeetings"], monthly as i64);
    app.stop().await;
}

async fn campaign_performance(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    for bad in ["14", "abc", "-7", "7.0"] {
        let res = c
            .get(app.url(&format!(
                "/api/dashboard/campaign-performance?timeframe={bad}"
            )))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 422, "timeframe {bad}");
        let v: Value = res.json().await.unwrap();
        assert_eq!(v["message"], "timeframe must be one of: 7, 30, 90");
        assert_eq!(v["errors"]["timeframe"], v["message"]);
    }
    let empty = app
        .get_json(&c, "/api/dashboard/campaign-performance")
        .await;
    assert_eq!(empty["timeframe"], 7, "default 7 days");
    assert_eq!(empty["meetingRate"], 0.0);

    let now = now_ms();
    let mut k = Vec::new();
    for (i, age) in [1, 2, 3, 6, 20].iter().enumerate() {
        k.push(
            insert_contact(
                &app.db,
                &format!("K{i}"),
                None,
                "email_sent",
                Some(now - age * DAY),
                None,
            )
            .await,
        );
    }
    let old = insert_contact(
        &app.db,
        "Old",
        None,
        "contacted",
        Some(now - 200 * DAY),
        None,
    )
    .await;
    // K0 and K3 book; so do Old (not contacted in any window) and nobody on file: neither counts,
    // which keeps the rate at most 100 %.
    for (i, who) in [Some(&k[0]), Some(&k[3]), Some(&old), None]
        .iter()
        .enumerate()
    {
        post_ok(
            &app,
            &c,
            "/api/meetings",
            json!({"title": format!("M{i}"), "scheduledDate": "2031-01-01T10:00:00Z", "contactId": who}),
        )
        .await;
    }
    let week = app
        .get_json(&c, "/api/dashboard/campaign-performance?timeframe=7")
        .await;
    assert_eq!(
        week["meetingRate"], 50.0,
        "2 of the 4 contacted this week booked"
    );
    assert_eq!(week["deliveryRate"], 0.0);
    assert_eq!(week["responseRate"], 0.0);
    assert_eq!(week["emailDataAvailable"], false);
    let month = app
        .get_json(&c, "/api/dashboard/campaign-performance?timeframe=30")
        .await;
    assert_eq!(
        month["meetingRate"], 40.0,
        "2 of the 5 contacted in 30 days booked"
    );
    assert_eq!(month["timeframe"], 30);
    let quarter = app
        .get_json(&c, "/api/dashboard/campaign-performance?timeframe=90")
        .await;
    assert_eq!(quarter["contactsContacted"], 5);
    app.stop().await;
}

async fn regional_counts(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let now = now_ms();
    for state in [
        Some("TX"),
        Some("tx"),
        Some("Texas"),
        Some("AZ"),
        Some("CA"),
        None,
    ] {
        insert_company(
            &app.db,
            Company {
                name: "R",
                state,
                created_at: now,
                description: None,
                revenue: None,
            },
        )
        .await;
    }
    let v = app.get_json(&c, "/api/dashboard/regional").await;
    let got: Vec<(String, i64)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["state"].as_str().unwrap().to_string(),
                r["count"].as_i64().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(String, i64)> = [
        ("TX", 3),
        ("LA", 0),
        ("AR", 0),
        ("MS", 0),
        ("NM", 0),
        ("OK", 0),
        ("AZ", 1),
    ]
    .iter()
    .map(|(s, n)| (s.to_string(), *n))
    .collect();
    assert_eq!(got, expected);
    assert_eq!(v[4]["name"], "New Mexico");
    app.stop().await;
}

async fn report_csv(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let c = app.user().await;
    let now = now_ms();
    let acme = insert_company(
        &app.db,
        Company {
            name: "Acme Bath Co., Inc.",
            state: Some("TX"),
            created_at: now,
            description: Some("Walk-in tubs, showers\nand \"safety\" bars"),
            revenue: Some(4_000_000),
        },
    )
    .await;
    insert_company(
        &app.db,
        Company {
            name: "Lone Star Remodeling LLC",
            state: Some("OK"),
            created_at: now,
            description: Some(&"x".repeat(300)),
            revenue: None,
        },
    )
    .await;
    insert_contact(
        &app.db,
        "Jane",
        Some("=HYPERLINK(\"http://evil\")"),
        "contacted",
        None,
        Some(&acme),
    )
    .await;
    post_ok(
        &app,
        &c,
        "/api/deals",
        json!({"title": "Acme, phase 1", "value": "25000", "stage": "proposal", "companyId": acme}),
    )
    .await;
    exec!(
        &app.db,
        "INSERT INTO deals (id, title, value, stage, probability, stage_changed_at, created_at, updated_at)
         VALUES ($1, 'Legacy', 5000, NULL, 25, $2, $2, $2)",
        ulid::Ulid::new().to_string(),
        now
    );

    let res = c
        .get(app.url("/api/dashboard/report"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let date = Utc::now().date_naive().format("%Y-%m-%d").to_string();
    let disposition = res.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        disposition.contains(&format!("business-development-report-{date}.csv")),
        "{disposition}"
    );
    let body = res.text().await.unwrap();
    let rows: Vec<Vec<&str>> = body.lines().map(|l| l.split(',').collect()).collect();
    assert!(
        rows.iter().all(|r| r.len() == 12),
        "every row has the same width and no cell kept a comma or quote:\n{body}"
    );
    assert!(!body.contains('"'), "quotes replaced by spaces");
    let find = |first: &str| {
        rows.iter()
            .position(|r| r[0] == first)
            .unwrap_or_else(|| panic!("no row starting with {first}:\n{body}"))
    };
    let summary = find("EXECUTIVE SUMMARY");
    let companies = find("COMPANIES DATABASE");
    let contacts = find("CONTACTS DATABASE");
    let pipeline = find("PIPELINE BREAKDOWN");
    assert!(summary < companies && companies < contacts && contacts < pipeline);
    assert_eq!(rows[find("Total Companies")][1], "2");
    assert_eq!(rows[find("Total Contacts")][1], "1");
    assert_eq!(rows[find("Active Deals")][1], "2");
    assert_eq!(rows[find("Pipeline Value")][1], "30000");

    let acme_row = &rows[find("Acme Bath")];
    assert_eq!(
        acme_row[1], "Acme Bath Co.  Inc.",
        "full name, comma replaced"
    );
    assert_eq!(acme_row[4], "TX");
    assert_eq!(acme_row[7], "4000000");
    assert_eq!(acme_row[10], "1", "one contact");
    assert_eq!(acme_row[11], "Walk-in tubs  showers and  safety  bars");
    let lone = &rows[find("Lone Star Remodeling")];
    assert_eq!(lone[11].len(), 200, "description truncated at 200");

    let jane = &rows[find("Jane")];
    assert!(
        jane[2].starts_with("'=HYPERLINK("),
        "formula defused: {}",
        jane[2]
    );
    assert_eq!(jane[3], "Acme Bath Co.  Inc.");

    let qualification = &rows[find("qualification")];
    assert_eq!(
        &qualification[..3],
        ["qualification", "1", "5000"],
        "stage-less deal"
    );
    let proposal = &rows[find("proposal")];
    assert_eq!(&proposal[..3], ["proposal", "1", "25000"]);
    let deal = &rows[find("Acme  phase 1")];
    assert_eq!(deal[1], "proposal");
    assert_eq!(deal[5], "Acme Bath Co.  Inc.");
    let _ = NaiveDate::parse_from_str(&date, "%Y-%m-%d").unwrap();
    app.stop().await;
}

both_backends!(
    dashboard_metrics,
    campaign_performance,
    regional_counts,
    report_csv
);
