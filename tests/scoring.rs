//! AI scoring as jobs: one contact, bulk (only those that need it), and the insights.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

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
    // CEO 20 + revenue 20 + territory 15 + type 15 + email 5.
    assert_eq!(contact["score"], 75);
    let reasons: Vec<&str> = contact["factors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["reason"].as_str().unwrap())
        .collect();
    assert!(reasons.contains(&"CEO is a decision maker"), "{reasons:?}");
    assert_eq!(
        stored_score(&app, &ceo).await,
        (75, true),
        "score and factors stored on the contact"
    );
    let contact = app.get_json(&user, &format!("/api/contacts/{ceo}")).await;
    assert_eq!(contact["score"], 75);
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
    assert!(scores.contains(&(ids[0].clone(), 75)));
    assert!(
        scores.contains(&(ids[1].clone(), 67)),
        "VP: 12 + 20 + 15 + 15 + 5: {scores:?}"
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
    assert_eq!(insights["averageScore"], (75 + 67 + 90) / 3);
    let bands: Vec<i64> = insights["scoringDistribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["count"].as_i64().unwrap())
        .collect();
    assert_eq!(bands, [0, 1, 1, 1]);
    app.stop().await;
}

both_backends!(
    single_contact_scoring_job,
    bulk_scoring_only_scores_what_needs_it
);
