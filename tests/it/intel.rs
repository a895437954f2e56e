//! Verification and enrichment as jobs, with the mail-server lookup replaced by the test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use futures::future::BoxFuture;
use jobs::db::{CompanySeed, ContactSeed};
use jobs::providers::Providers;
use jobs::providers::mail::{MailResolver, MxAnswer};
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(15);

/// Answers MX lookups for one domain; is "offline" for every other name and every TXT lookup.
struct FakeMx;

impl MailResolver for FakeMx {
    fn mx<'a>(&'a self, domain: &'a str) -> BoxFuture<'a, Result<MxAnswer, String>> {
        Box::pin(async move {
            match domain {
                "lonestar.example" => Ok(MxAnswer::Servers(vec!["mx1.lonestar.example.".into()])),
                _ => Err("DNS unreachable".into()),
            }
        })
    }

    fn txt<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Vec<String>, String>> {
        Box::pin(async { Err("DNS unreachable".into()) })
    }
}

async fn app(db: &TestDb) -> TestApp {
    TestApp::spawn(
        db,
        AppOptions {
            providers: Some(Providers::embedded().with_mail(Arc::new(FakeMx))),
            ..Default::default()
        },
    )
    .await
}

/// A company with a website, a complete contact there, and a sparse one elsewhere.
async fn seed(app: &TestApp) -> (String, String, String) {
    let now = jobs::time::now_ms();
    let company = CompanySeed {
        id: ulid::Ulid::new().to_string(),
        name: "Lone Star Bath Works".into(),
        status: "discovered".into(),
        website: Some("https://www.lonestar.example".into()),
        state: Some("TX".into()),
        created_at: now,
        ..Default::default()
    };
    app.db
        .seed_companies(std::slice::from_ref(&company))
        .await
        .unwrap();
    let full = ContactSeed {
        id: ulid::Ulid::new().to_string(),
        company_id: Some(company.id.clone()),
        first_name: "maria".into(),
        last_name: "GARCIA".into(),
        email: Some("maria@lonestar.example".into()),
        phone: Some("214.555.0101".into()),
        title: Some("Director of Operations".into()),
        status: "new_lead".into(),
        score: 50,
        tags: json!([]),
        created_at: now,
        ..Default::default()
    };
    let sparse = ContactSeed {
        id: ulid::Ulid::new().to_string(),
        first_name: "Ben".into(),
        last_name: "Ortiz".into(),
        email: Some("ben@faraway.example".into()),
        title: Some("CEO".into()),
        status: "new_lead".into(),
        score: 50,
        tags: json!([]),
        created_at: now,
        ..Default::default()
    };
    app.db
        .seed_contacts(&[full.clone(), sparse.clone()])
        .await
        .unwrap();
    (company.id, full.id, sparse.id)
}

async fn run(app: &TestApp, client: &reqwest::Client, path: &str, body: Value) -> Value {
    let res = client.post(app.url(path)).json(&body).send().await.unwrap();
    assert_eq!(res.status(), 202, "{path}");
    let id = res.json::<Value>().await.unwrap()["jobId"]
        .as_str()
        .unwrap()
        .to_string();
    app.wait_status(client, &id, "succeeded", T).await["result"].clone()
}

async fn verification_stores_its_evidence(db: TestDb) {
    let app = app(&db).await;
    let (_, full, sparse) = seed(&app).await;
    let user = app.user().await;
    let r = run(
        &app,
        &user,
        &format!("/api/contacts/{full}/verify"),
        json!({}),
    )
    .await;
    assert_eq!(
        r["verification"],
        json!({"isVerified": true, "verifiedBy": ["email_format", "mail_server", "company_website", "profile"],
               "confidenceScore": 100, "warnings": []})
    );
    let stored = app.db.contact_intel_get(&full).await.unwrap().unwrap();
    assert_eq!(stored.id, full);

    // Offline DNS and no company: a warning, never a crash; not verified.
    let r = run(
        &app,
        &user,
        &format!("/api/contacts/{sparse}/verify"),
        json!({}),
    )
    .await;
    let v = &r["verification"];
    assert_eq!(v["isVerified"], false);
    assert_eq!(v["confidenceScore"], 45);
    let warnings: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        warnings[0].starts_with("could not check mail server for faraway.example"),
        "{warnings:?}"
    );
    assert!(warnings.contains(&"No company website to compare the email with"));
    let row: (bool, Option<i32>, Option<i64>) = match &app.db {
        jobs::db::Db::Sqlite(p) => sqlx::query_as(
            "SELECT is_verified, verification_score, verified_at FROM contacts WHERE id = ?1",
        )
        .bind(&full)
        .fetch_one(p.write())
        .await
        .unwrap(),
        jobs::db::Db::Postgres(p) => sqlx::query_as(
            "SELECT is_verified, verification_score, verified_at FROM contacts WHERE id = $1",
        )
        .bind(&full)
        .fetch_one(p.write())
        .await
        .unwrap(),
    };
    assert!(row.0 && row.1 == Some(100) && row.2.is_some(), "{row:?}");
    let res = user
        .post(app.url(&format!("/api/contacts/{}/verify", ulid::Ulid::new())))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 404);
    app.stop().await;
}

async fn enrichment_single_and_bulk(db: TestDb) {
    let app = app(&db).await;
    let (company, full, sparse) = seed(&app).await;
    let user = app.user().await;
    let r = run(
        &app,
        &user,
        &format!("/api/contacts/{full}/enrich"),
        json!({}),
    )
    .await;
    assert_eq!(
        r["enrichedFields"],
        json!(["firstName", "lastName", "phone", "department", "tags"])
    );
    assert_eq!(r["message"], "Enriched 5 fields for Maria Garcia");
    let c = app.db.contact_intel_get(&full).await.unwrap().unwrap();
    assert_eq!(
        (
            c.first_name.as_str(),
            c.phone.as_deref(),
            c.department.as_deref()
        ),
        ("Maria", Some("(214) 555-0101"), Some("Operations"))
    );
    assert_eq!(c.company_id.as_deref(), Some(company.as_str()));

    let r = run(
        &app,
        &user,
        "/api/contacts/bulk-enrich",
        json!({"contactIds": [full, sparse]}),
    )
    .await;
    assert_eq!(r["message"], "Enriched 1 of 2 contacts", "{r}");
    assert_eq!(
        r["results"][0]["message"],
        "No new details found for Maria Garcia"
    );
    assert_eq!(
        r["results"][1]["enrichedFields"],
        json!(["department", "tags"])
    );
    let res = user
        .post(app.url("/api/contacts/bulk-enrich"))
        .json(&json!({"contactIds": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 422);
    app.stop().await;
}

both_backends!(verification_stores_its_evidence, enrichment_single_and_bulk);
