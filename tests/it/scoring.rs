//! AI scoring as jobs: one contact, bulk (only those that need it), and the insights.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::*;
use jobs::db::{CompanySeed, ContactSeed, ScoreSet};
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(15);

/// A Texas bath company with a CEO, a VP and an estimator; the estimator was already scored 90.
async fn seed(app: &TestApp) -> [String; 3] {
    let now = jobs::time::now_ms();
    let company = CompanySeed {
        id: ulid::Ulid::new().to_string(),
        name: "Lone Star Bath Works".into(),
        company_type: Some("bath-shower".into()),
        status: "discovered".into(),
        revenue: Some(12_000_000),
        state: Some("TX".into()),
        created_at: now,
        ..Default::default()
    };
    app.db
        .seed_companies(std::slice::from_ref(&company))
        .await
        .unwrap();
    let contact = |first: &str, title: &str| ContactSeed {
        id: ulid::Ulid::new().to_string(),
        company_id: Some(company.id.clone()),
        first_name: first.into(),
        last_name: "Garcia".into(),
        email: Some(format!("{}@lonestar.example", first.to_lowercase())),
        title: Some(title.into()),
        status: "new_lead".into(),
        score: 50,
        tags: json!([]),
        created_at: now,
        ..Default::default()
    };
    let rows = [
        contact("Ana", "CEO"),
        contact("Ben", "VP of Sales"),
        contact("Cy", "Estimator"),
    ];
    app.db.seed_contacts(&rows).await.unwrap();
    let factors = json!([{"factor": "manual", "points": 90, "reason": "set by test"}]);
    app.db
        .contact_score_set(&ScoreSet {
            id: &rows[2].id,
            score: 90,
            factors: &factors,
            now,
        })
        .await
        .unwrap();
    rows.map(|r| r.id)
}

/// The stored score and whether factors were stored with it.
async fn stored_score(app: &TestApp, id: &str) -> (i32, bool) {
    let sql = "SELECT score, score_factors IS NOT NULL FROM contacts WHERE id = ";
    match &app.db {
        jobs::db::Db::Sqlite(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}?1")))
            .bind(id)
            .fetch_one(p.write())
            .await
            .unwrap(),
        jobs::db::Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(format!("{sql}$1")))
            .bind(id)
            .fetch_one(p.write())
            .await
            .unwrap(),
    }
}

async fn single_contact_scoring_job(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let [ceo, ..] = seed(&app).await;
    let user = app.user().await;
    let res = user
        .post(app.url(&format!("/api/contacts/{ceo}/ai-score")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
    let id = res.json::<Value>().await.unwrap()["jobId"]
        .as_str()
        .unwrap()
        .to_string();
    let done = app.wait_status(&user, &id, "succeeded", T).await;
    let contact = &done["result"]["contact"];
    // CEO 20 + revenue 17 + type 14 + state 5 + unverified email 6 (docs/providers.md, "Scoring").
    assert_eq!(contact["score"], 62);
    let reasons: Vec<&str> = contact["factors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["reason"].as_str().unwrap())
        .collect();
    assert!(reasons.contains(&"CEO is a decision maker"), "{reasons:?}");
    assert_eq!(
        stored_score(&app, &ceo).await,
        (62, true),
        "score and factors stored on the contact"
    );
    let contact = app.get_json(&user, &format!("/api/contacts/{ceo}")).await;
    assert_eq!(contact["score"], 62);
    let factors = contact["scoreFactors"].as_array().unwrap();
    let named: Vec<(&str, &str, i64, i64)> = factors
        .iter()
        .map(|f| {
            (
                f["label"].as_str().unwrap(),
                f["value"].as_str().unwrap(),
                f["points"].as_i64().unwrap(),
                f["max"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("Decision maker", "CEO", 20, 20),
            ("Revenue band", "$12.0M ($10M–25M)", 17, 20),
            ("Company type fit", "Bath and shower", 14, 15),
            ("State", "TX", 5, 5),
            ("Services on the website", "website not checked", 0, 10),
            ("Verified email", "not verified", 6, 15),
            ("Engagement", "new lead", 0, 15),
        ],
        "every factor with its value and its points of its weight"
    );
    assert!(
        contact["scoreFactors"]
            .as_array()
            .is_some_and(|f| f.iter().any(|x| x["reason"] == "CEO is a decision maker")),
        "{contact}"
    );
    let res = user
        .post(app.url(&format!("/api/contacts/{}/ai-score", ulid::Ulid::new())))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    app.stop().await;
}

async fn bulk_scoring_only_scores_what_needs_it(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let ids = seed(&app).await;
    let user = app.user().await;
    let res = user
        .post(app.url("/api/contacts/bulk-ai-score"))
        .json(&json!({"contactIds": ids, "useEnterpriseModel": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
    let job = res.json::<Value>().await.unwrap()["jobId"]
        .as_str()
        .unwrap()
        .to_string();
    let done = app.wait_status(&user, &job, "succeeded", T).await;
    let r = &done["result"];
    assert_eq!(
        r["scored"], 2,
        "the contact already scored 90 is left alone: {r}"
    );
    let scores: Vec<(String, i64)> = r["scoringResults"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| {
            (
                x["contactId"].as_str().unwrap().to_string(),
                x["score"].as_i64().unwrap(),
            )
        })
        .collect();
    assert!(scores.contains(&(ids[0].clone(), 62)));
    assert!(
        scores.contains(&(ids[1].clone(), 54)),
        "VP: 12 + 17 + 14 + 5 + 6: {scores:?}"
    );

    // Now every contact has a fresh score of 50 or more: nothing to do.
    let res = user
        .post(app.url("/api/contacts/bulk-ai-score"))
        .json(&json!({"contactIds": ids}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.json::<Value>().await.unwrap()["message"],
        "All contacts already have high-quality scores."
    );
    let res = user
        .post(app.url("/api/contacts/bulk-ai-score"))
        .json(&json!({"contactIds": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    assert_eq!(
        res.json::<Value>().await.unwrap()["message"],
        "No contacts to score. Add contacts first."
    );

    let insights = app.get_json(&user, "/api/scoring-insights").await;
    assert_eq!(insights["totalContacts"], 3);
    assert_eq!(insights["highValueCount"], 1);
    assert_eq!(insights["averageScore"], (62 + 54 + 90) / 3);
    let bands: Vec<i64> = insights["scoringDistribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["count"].as_i64().unwrap())
        .collect();
    assert_eq!(bands, [0, 2, 0, 1]);
    app.stop().await;
}

/// Counts per 10-point band (0-9 ... 90-100).
fn deciles(scores: &[i64]) -> [usize; 10] {
    let mut bands = [0; 10];
    for s in scores {
        bands[(*s / 10).clamp(0, 9) as usize] += 1;
    }
    bands
}

/// Every score of a table, as the scorer left it.
async fn scores(db: &jobs::db::Db, table: &str) -> Vec<i64> {
    let sql = format!(
        "SELECT CAST(score AS BIGINT) FROM {table} WHERE score_factors IS NOT NULL ORDER BY id"
    );
    match db {
        jobs::db::Db::Sqlite(p) => sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_all(p.write())
            .await
            .unwrap(),
        jobs::db::Db::Postgres(p) => sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .fetch_all(p.write())
            .await
            .unwrap(),
    }
}

/// The demo CRM is scored by the scorer when seeded, and its scores spread over the range: poor
/// fits (small, outside the target states, trades we barely sell through) under 20, strong ones at
/// 80 or more, the bands between filled, and no single score holds a fifth of the records.
async fn demo_scores_spread_over_the_range(db: TestDb) {
    let mut p = Proc::spawn(&db, &["seed"], &[]);
    let status = p.wait_exit(Duration::from_secs(60)).expect("seed exits");
    assert!(status.success(), "{}", p.output());
    let conn = db.connect().await;
    let companies = scores(&conn, "companies").await;
    let contacts = scores(&conn, "contacts").await;
    assert_eq!(
        (companies.len(), contacts.len()),
        (36, 65),
        "every demo record scored, with its factors"
    );
    println!(
        "demo companies per 10-point band: {:?}",
        deciles(&companies)
    );
    println!("demo contacts per 10-point band: {:?}", deciles(&contacts));
    for (lo, hi, at_least) in [
        (0, 19, 4),
        (20, 49, 3),
        (50, 69, 8),
        (70, 79, 4),
        (80, 89, 1),
        (90, 100, 1),
    ] {
        let n = companies.iter().filter(|s| (lo..=hi).contains(*s)).count();
        assert!(
            n >= at_least,
            "{n} demo companies score {lo}-{hi}: {:?}",
            deciles(&companies)
        );
    }
    let all: Vec<i64> = companies.iter().chain(&contacts).copied().collect();
    for (lo, hi) in [(0, 19), (40, 69), (70, 100)] {
        assert!(
            all.iter().any(|s| (lo..=hi).contains(s)),
            "no demo score in {lo}-{hi}: {:?}",
            deciles(&all)
        );
    }
    let mut counts = std::collections::HashMap::new();
    for s in &all {
        *counts.entry(s).or_insert(0usize) += 1;
    }
    let (top, n) = counts.iter().max_by_key(|(_, n)| **n).unwrap();
    assert!(
        n * 5 < all.len(),
        "{n} of {} records score exactly {top}",
        all.len()
    );
    // The prospect list is the file's: the scorer sets the prospect score of those on it only.
    assert_eq!(
        scalar(
            &conn,
            "SELECT COUNT(*) FROM companies WHERE prospect_score > 0"
        )
        .await,
        21
    );
}

/// A Texas kitchen-and-bath scan of the demo catalog no longer puts every company at 70+: without
/// website evidence or engagement, fit alone stays below it, and revenue spreads them.
#[test]
fn a_catalog_scan_is_not_all_high_quality() {
    use jobs::scoring::{CompanyFacts, score_company};
    let found: Vec<i64> = jobs::providers::discovery::catalog::catalog()
        .iter()
        .filter(|c| {
            c.state.as_deref() == Some("TX") && c.company_type.as_deref() == Some("kitchen-bath")
        })
        .map(|c| {
            i64::from(
                score_company(&CompanyFacts {
                    revenue: c.revenue,
                    state: c.state.clone(),
                    company_type: c.company_type.clone(),
                    has_website: c.website.is_some(),
                    has_phone: c.phone.is_some(),
                    growth_rate: c.growth_rate,
                })
                .score,
            )
        })
        .collect();
    println!(
        "catalog TX kitchen-bath ({}) per 10-point band: {:?}",
        found.len(),
        deciles(&found)
    );
    assert!(found.len() > 50);
    assert!(found.iter().all(|s| *s < 70), "{:?}", deciles(&found));
    let distinct: std::collections::HashSet<_> = found.iter().collect();
    assert!(
        distinct.len() >= 4,
        "revenue bands spread them: {distinct:?}"
    );
}

/// `GET /api/ai/analytics` measures the score: per band, the scored contacts emailed and replying.
async fn analytics_report_reply_rate_per_score_band(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let now = jobs::time::now_ms();
    // (score, replied): 0-39: 1 of 4; 40-69: 1 of 2; 70+: 2 of 3; and one never scored by the scorer.
    let people = [
        (20, false),
        (25, false),
        (30, false),
        (35, true),
        (50, true),
        (60, false),
        (75, true),
        (80, true),
        (90, false),
    ];
    let mut rows = Vec::new();
    for (i, (score, _)) in people.iter().enumerate() {
        rows.push(ContactSeed {
            id: ulid::Ulid::new().to_string(),
            first_name: format!("P{i}"),
            last_name: "Test".into(),
            email: Some(format!("p{i}@accuracy.example")),
            status: "email_sent".into(),
            score: *score,
            tags: json!([]),
            created_at: now,
            ..Default::default()
        });
    }
    let unscored = ContactSeed {
        id: ulid::Ulid::new().to_string(),
        first_name: "Manual".into(),
        last_name: "Score".into(),
        email: Some("manual@accuracy.example".into()),
        status: "email_sent".into(),
        score: 95,
        tags: json!([]),
        created_at: now,
        ..Default::default()
    };
    rows.push(unscored.clone());
    app.db.seed_contacts(&rows).await.unwrap();
    let factors = json!([{"factor": "test", "points": 0, "reason": "set by test"}]);
    for (row, (score, replied)) in rows.iter().zip(people) {
        app.db
            .contact_score_set(&ScoreSet {
                id: &row.id,
                score,
                factors: &factors,
                now,
            })
            .await
            .unwrap();
        let id = ulid::Ulid::new().to_string();
        exec!(
            &app.db,
            "INSERT INTO email_messages (id, dedupe_key, contact_id, to_email, from_email, subject, body,
                 message_id, status, created_at, sent_at, replied_at)
             VALUES ($1, $2, $3, 'to@example.test', 'from@example.test', 'Hi', 'Hi', $4, 'sent', $5, $5, $6)",
            &id,
            format!("direct:{id}"),
            &row.id,
            format!("<{id}@example.test>"),
            now,
            replied.then_some(now + 1000)
        );
    }
    // Emailed and replied, but its score was set by hand: not the scorer's to answer for.
    exec!(
        &app.db,
        "INSERT INTO email_messages (id, dedupe_key, contact_id, to_email, from_email, subject, body,
             message_id, status, created_at, sent_at, replied_at)
         VALUES ('m-manual', 'direct:m-manual', $1, 'to@example.test', 'from@example.test', 'Hi', 'Hi',
             '<m-manual@example.test>', 'sent', $2, $2, $2)",
        &unscored.id,
        now
    );
    let user = app.user().await;
    let a = app.get_json(&user, "/api/ai/analytics").await;
    let acc = &a["scoreAccuracy"];
    assert_eq!(
        (acc["emailed"].as_i64(), acc["replied"].as_i64()),
        (Some(9), Some(4)),
        "{acc}"
    );
    let bands: Vec<(String, i64, i64, f64)> = acc["bands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["range"].as_str().unwrap().to_string(),
                b["emailed"].as_i64().unwrap(),
                b["replied"].as_i64().unwrap(),
                b["replyRate"].as_f64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        bands,
        [
            ("0-39".to_string(), 4, 1, 0.25),
            ("40-69".to_string(), 2, 1, 0.5),
            ("70-100".to_string(), 3, 2, 0.667)
        ]
    );
    assert_eq!(acc["ratesRiseWithScore"], true);
    // The analytics' other fields are still there.
    assert!(
        a["agentPerformance"].is_array() && a["recentInsights"].is_array(),
        "{a}"
    );
    app.stop().await;
}

/// The analytics' other reads: companies found, finished calls and their outcomes, bulk campaigns
/// (each backend reads them its own way: Postgres in one statement, SQLite one screen's at a time).
async fn analytics_count_companies_calls_and_campaigns(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let [contact, ..] = seed(&app).await;
    let now = jobs::time::now_ms();
    let more: Vec<CompanySeed> = ["Gulf Coast Tubs", "Alamo Access"]
        .iter()
        .map(|name| CompanySeed {
            id: ulid::Ulid::new().to_string(),
            name: (*name).into(),
            status: "discovered".into(),
            state: Some("TX".into()),
            created_at: now,
            ..Default::default()
        })
        .collect();
    app.db.seed_companies(&more).await.unwrap();
    // (status, simulated, outcome, transcript): two real calls answered, one qualifying the lead;
    // a simulated one and one that failed do not count as examples.
    let calls = [
        (
            "completed",
            false,
            Some("qualified"),
            Some("We need two walk-in tubs."),
        ),
        (
            "completed",
            false,
            Some("not_interested"),
            Some("No thanks."),
        ),
        ("completed", true, Some("qualified"), Some("(simulated)")),
        ("failed", false, None, None),
    ];
    for (i, (status, simulated, outcome, transcript)) in calls.into_iter().enumerate() {
        exec!(
            &app.db,
            "INSERT INTO voice_calls (id, contact_id, agent_id, purpose, to_phone, status, simulated,
                 outcome, transcript, created_at, updated_at)
             VALUES ($1, $2, 'agent-qualify', 'Qualify', '+15125550100', $3, $4, $5, $6, $7, $7)",
            format!("call-{i}"),
            &contact,
            status,
            simulated,
            outcome,
            transcript,
            now + i as i64
        );
    }
    for (id, kind) in [("c-1", "bulk"), ("c-2", "bulk"), ("c-3", "single")] {
        exec!(
            &app.db,
            "INSERT INTO campaigns (id, kind, name, status, created_at, updated_at)
             VALUES ($1, $2, 'Spring tubs', 'draft', $3, $3)",
            id,
            kind,
            now
        );
    }
    let user = app.user().await;
    let a = app.get_json(&user, "/api/ai/analytics").await;
    let examples = |kind: &str| {
        a["agentPerformance"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["agentId"] == kind)
            .map(|x| x["trainingDataCount"].clone())
    };
    assert_eq!(
        (examples("discovery_scan"), examples("voice_call")),
        (Some(json!(3)), Some(json!(2))),
        "{a}"
    );
    assert_eq!(a["performanceMetrics"]["currentCampaigns"], 2, "{a}");
    let voice = a["recentInsights"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["id"] == "voice-qualified")
        .map(|i| i["title"].clone());
    assert_eq!(
        voice,
        Some(json!("1 of 2 answered calls qualified the lead")),
        "{a}"
    );
    app.stop().await;
}

both_backends!(
    single_contact_scoring_job,
    bulk_scoring_only_scores_what_needs_it,
    demo_scores_spread_over_the_range,
    analytics_report_reply_rate_per_score_band,
    analytics_count_companies_calls_and_campaigns
);
