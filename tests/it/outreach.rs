//! Adding a selection to a sequence or a campaign (issue 21, journey 1): picked contacts, the
//! contacts of picked companies and "every contact these filters match" all resolve to the same
//! contacts, and the answer says who was skipped and why, before (preview) and after (enroll).

#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::*;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

async fn post(app: &TestApp, c: &Client, path: &str, body: Value) -> (u16, Value) {
    send(c.post(app.url(path)).json(&body)).await
}

async fn company(app: &TestApp, c: &Client, name: &str, state: &str) -> String {
    let (s, v) = post(
        app,
        c,
        "/api/companies",
        json!({ "name": name, "state": state }),
    )
    .await;
    assert_eq!(s, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

async fn contact(app: &TestApp, c: &Client, body: Value) -> String {
    let (s, v) = post(app, c, "/api/contacts", body.clone()).await;
    assert_eq!(s, 201, "create {body}: {v}");
    v["id"].as_str().unwrap().to_string()
}

async fn sequence(app: &TestApp, c: &Client, body: Value) -> String {
    let (s, v) = post(app, c, "/api/email-sequences", body).await;
    assert_eq!(s, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

fn skipped(v: &Value) -> [i64; 5] {
    let s = &v["skipped"];
    [
        "noEmail",
        "suppressed",
        "alreadyEnrolled",
        "outsideRules",
        "overDailyLimit",
    ]
    .map(|k| {
        s[k].as_i64()
            .unwrap_or_else(|| panic!("skipped.{k} in {v}"))
    })
}

async fn selections_enroll_with_reasons(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let tx = company(&app, &user, "Lone Star Baths", "TX").await;
    let ca = company(&app, &user, "Golden Remodel", "CA").await;
    let reachable = contact(&app, &user, json!({ "firstName": "Ana", "lastName": "Reyes", "email": "ana@lonestar.test", "companyId": tx, "score": 80 })).await;
    contact(&app, &user, json!({ "firstName": "Sam", "lastName": "Stop", "email": "Sam@LoneStar.test", "companyId": tx, "score": 80 })).await;
    contact(&app, &user, json!({ "firstName": "Low", "lastName": "Score", "email": "low@golden.test", "companyId": ca, "score": 20 })).await;
    let owner = contact(&app, &user, json!({ "firstName": "Olga", "lastName": "Owner", "email": "olga@solo.test", "title": "Owner", "score": 90 })).await;
    let now = now_ms();
    exec!(
        &app.db,
        "INSERT INTO contacts (id, first_name, last_name, email, status, score, company_id, created_at, updated_at)
         VALUES ('nomail', 'No', 'Mail', NULL, 'new_lead', 90, $1, $2, $2)",
        &tx,
        now
    );
    exec!(
        &app.db,
        "INSERT INTO suppressions (email, reason, source, created_at) VALUES ('sam@lonestar.test', 'unsubscribed', 'test', 0)"
    );
    let seq = sequence(&app, &user, json!({ "name": "Warm dealers", "description": "Dealers scoring fifty or more", "status": "active", "maxDailyEnrollments": 10, "enrollmentRules": { "scoreMin": 50 } })).await;
    let enroll = format!("/api/email-sequences/{seq}/enrollments");

    // The owner first, by hand.
    let (s, v) = post(&app, &user, &enroll, json!({ "contactIds": [owner] })).await;
    assert_eq!((s, v["enrolled"].as_i64()), (200, Some(1)), "{v}");

    // Both companies: 4 contacts; one reachable, the others skipped each for its first reason.
    let companies = json!({ "companyIds": [tx, ca], "sequenceId": seq });
    let (s, p) = post(&app, &user, "/api/outreach/preview", companies.clone()).await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(
        (p["selected"].as_i64(), p["reachable"].as_i64()),
        (Some(4), Some(1)),
        "{p}"
    );
    assert_eq!(
        skipped(&p),
        [1, 1, 0, 1, 0],
        "no email, suppressed, outside the rules: {p}"
    );
    assert_eq!(p["contactIds"].as_array().map(Vec::len), Some(4));
    let (s, v) = post(&app, &user, &enroll, companies).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["selected"].as_i64(), v["enrolled"].as_i64()),
        (Some(4), Some(1)),
        "{v}"
    );
    assert_eq!(skipped(&v), [1, 1, 0, 1, 0], "{v}");
    let list = app.get_json(&user, &enroll).await;
    let emails: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["email"].as_str())
        .collect();
    assert!(
        emails.contains(&"ana@lonestar.test") && emails.len() == 2,
        "{list}"
    );
    let _ = reachable;

    // "Every contact these filters match" reads the contacts list's filters.
    let (s, v) = post(
        &app,
        &user,
        &enroll,
        json!({ "contactFilter": { "role": "owner" } }),
    )
    .await;
    assert_eq!(
        (s, v["enrolled"].as_i64(), v["selected"].as_i64()),
        (200, Some(0), Some(1)),
        "{v}"
    );
    assert_eq!(skipped(&v), [0, 0, 1, 0, 0], "already enrolled: {v}");
    let (s, v) = post(
        &app,
        &user,
        &enroll,
        json!({ "contactFilter": { "status": "nope" } }),
    )
    .await;
    assert_eq!(s, 422, "{v}");
    assert!(v["errors"]["status"].is_string(), "{v}");

    // A campaign (no sequence): only email and suppression skip.
    let (s, p) = post(
        &app,
        &user,
        "/api/outreach/preview",
        json!({ "companyIds": [tx] }),
    )
    .await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(
        (p["selected"].as_i64(), p["reachable"].as_i64()),
        (Some(3), Some(1)),
        "{p}"
    );
    assert_eq!(skipped(&p), [1, 1, 0, 0, 0], "{p}");
    let (s, v) = post(
        &app,
        &user,
        "/api/outreach/preview",
        json!({ "contactIds": [] }),
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("Select contacts first"))
    );

    // The day's allowance: two eligible, one place left.
    let tight = sequence(&app, &user, json!({ "name": "One a day", "description": "A single enrollment per day", "status": "active", "maxDailyEnrollments": 1 })).await;
    let both = json!({ "contactIds": [owner], "companyIds": [tx], "sequenceId": tight });
    let (_, p) = post(&app, &user, "/api/outreach/preview", both.clone()).await;
    assert_eq!(
        (p["reachable"].as_i64(), skipped(&p)[4]),
        (Some(1), 1),
        "{p}"
    );
    let (_, v) = post(
        &app,
        &user,
        &format!("/api/email-sequences/{tight}/enrollments"),
        both,
    )
    .await;
    assert_eq!(
        (v["enrolled"].as_i64(), skipped(&v)[4]),
        (Some(1), 1),
        "{v}"
    );
    app.stop().await;
}

both_backends!(selections_enroll_with_reasons);
