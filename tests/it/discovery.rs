//! Discovery scans as jobs: validation, the catalog provider, storage without duplicates, enhanced
//! fields, the same search while running, and the hard time budget.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::Duration;

use common::*;
use futures::future::BoxFuture;
use jobs::providers::Providers;
use jobs::providers::discovery::{
    Batch, DiscoveryProvider, DiscoveryQuery, FoundCompany, FoundContact, ProviderError, Source,
};
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(20);

async fn post_scan(app: &TestApp, client: &reqwest::Client, body: Value) -> (u16, Value) {
    let res = client
        .post(app.url("/api/discovery/scan"))
        .json(&body)
        .send()
        .await
        .unwrap();
    (res.status().as_u16(), res.json().await.unwrap())
}

fn texas_scan() -> Value {
    json!({
        "region": "texas", "revenueRange": "5-10M", "companyType": "accessible-bath",
        "companyName": "", "city": "", "state": "", "discoverySource": "region_search",
        "marketIntelligence": true, "competitorAnalysis": true, "territoryOptimization": true,
        "leadQualification": false, "enhancedMode": true
    })
}

async fn validation_messages_of_the_seed(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let (status, v) = post_scan(&app, &user, json!({"region": "texas"})).await;
    assert_eq!(status, 422);
    assert_eq!(v["title"], "Missing Parameters");
    assert_eq!(
        v["message"],
        "Please select all search parameters or enter a company name to search."
    );
    let (status, v) = post_scan(
        &app,
        &user,
        json!({"companyName": "Acme", "cityState": ", "}),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(v["title"], "Invalid City/State");
    assert_eq!(
        v["message"],
        "Please enter a valid city and state (e.g., 'Dallas, TX' or 'Dallas Texas') or just a state name."
    );
    let (status, v) = post_scan(
        &app,
        &user,
        json!({"region": "texas", "revenueRange": "1M", "companyType": "bath-shower"}),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        v["message"],
        "revenueRange must be one of 2-5M, 5-10M, 10-25M, 25-50M, 50M+"
    );
    let res = app
        .anonymous()
        .post(app.url("/api/discovery/scan"))
        .json(&texas_scan())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);
    app.stop().await;
}

/// A catalog scan stores companies and contacts with their discovery fields and scores; running it
/// again updates and never duplicates.
async fn catalog_scan_stores_and_rescans_without_duplicates(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let user = app.user().await;
    let (status, v) = post_scan(&app, &user, texas_scan()).await;
    assert_eq!(status, 202);
    let id = v["jobId"].as_str().unwrap().to_string();
    let done = app.wait_status(&user, &id, "succeeded", T).await;
    let result = &done["result"];
    let companies = result["companies"].as_array().unwrap();
    let contacts = result["contacts"].as_array().unwrap();
    assert!(
        !companies.is_empty() && contacts.len() >= companies.len() * 2,
        "{result}"
    );
    assert_eq!(result["budgetExhausted"], false);
    assert!(result["elapsedMs"].as_u64().unwrap() < 5000);
    assert_eq!(
        result["marketIntelligence"]["totalCompanies"],
        companies.len()
    );
    assert_eq!(
        result["marketIntelligence"]["revenueDistribution"]["5-10M"],
        companies.len()
    );
    assert!(
        result["territoryInsights"]["cities"]
            .as_array()
            .is_some_and(|c| !c.is_empty())
    );
    assert_eq!(done["progress"]["percent"], 100);
    assert!(
        done["progress"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Saving results")
    );

    let n_companies = scalar(&app.db, "SELECT COUNT(*) FROM companies").await;
    let n_contacts = scalar(&app.db, "SELECT COUNT(*) FROM contacts").await;
    assert_eq!(n_companies as usize, companies.len());
    assert_eq!(n_contacts as usize, contacts.len());
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM companies WHERE state <> 'TX' OR discovery_source <> 'region_search' OR discovery_region <> 'texas'").await,
        0
    );
    // Nothing configured: the catalog ran, labelled as demo data, and each company records it.
    let sources = result["sources"].as_array().unwrap();
    assert_eq!(sources.len(), 1, "{result}");
    assert_eq!(sources[0]["source"], "catalog");
    assert_eq!(sources[0]["label"], "Demo data");
    assert_eq!(sources[0]["found"], companies.len());
    assert!(companies.iter().all(|c| c["sources"] == json!(["catalog"])));
    // The companies list, the map's report and a company's record carry the label too.
    let (status, list) = send(user.get(app.url("/api/companies?limit=500"))).await;
    assert_eq!(status, 200, "{list}");
    let listed = list.as_array().unwrap();
    assert_eq!(listed.len(), companies.len());
    assert!(
        listed.iter().all(|c| c["sources"] == json!(["catalog"])),
        "{list}"
    );
    let (_, report) = send(user.get(app.url("/api/companies/report?state=TX"))).await;
    assert!(
        report["companies"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["sources"] == json!(["catalog"])),
        "{report}"
    );
    let first = companies[0]["id"].as_str().unwrap();
    let (_, record) = send(user.get(app.url(&format!("/api/companies/{first}")))).await;
    assert_eq!(record["sources"], json!(["catalog"]), "{record}");
    // The contacts it found are generated too: the list and a contact's record say so (a contact
    // added by hand to a demo company is the user's own: checked after the re-scan).
    let (_, people) = send(user.get(app.url("/api/contacts?limit=500"))).await;
    let people = people.as_array().unwrap();
    assert_eq!(people.len(), contacts.len());
    assert!(people.iter().all(|c| c["demo"] == true), "{people:?}");
    let person = people[0]["id"].as_str().unwrap();
    let (_, one) = send(user.get(app.url(&format!("/api/contacts/{person}")))).await;
    assert_eq!(one["demo"], true, "{one}");
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM company_sources WHERE source = 'catalog' AND NOT verified AND first_seen_at = last_seen_at").await,
        n_companies
    );
    // The shipped Census file has no figures yet: the insight says so rather than show any.
    assert_eq!(
        result["territoryInsights"]["marketSize"]["available"],
        false
    );
    // Enhanced flags asked for competitor analysis and market intelligence, not lead qualification.
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM companies WHERE competitor_alignment IS NULL OR competitive_analysis IS NULL OR growth_rate IS NULL").await, 0);
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM companies WHERE lead_qualification IS NOT NULL"
        )
        .await,
        0
    );
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM companies WHERE has_enhanced_data AND score > 0 AND domain IS NOT NULL").await, n_companies);
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM contacts WHERE status = 'new_lead' AND source = 'discovery' AND score > 0").await, n_contacts);

    let (_, v) = post_scan(&app, &user, texas_scan()).await;
    let again = v["jobId"].as_str().unwrap().to_string();
    assert_ne!(again, id, "a finished scan does not swallow a new one");
    let done = app.wait_status(&user, &again, "succeeded", T).await;
    assert!(
        done["result"]["companies"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["isNew"] == false)
    );
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM companies").await,
        n_companies
    );
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM contacts").await,
        n_contacts
    );
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM company_sources").await,
        n_companies,
        "a re-scan moves last_seen_at, it adds no source row"
    );
    let (status, own) = send(user.post(app.url("/api/contacts")).json(&json!({
        "firstName": "Dana", "lastName": "Own", "email": "dana.own@dealer.test", "companyId": first,
    })))
    .await;
    assert_eq!(status, 201, "{own}");
    assert_eq!(own["demo"], false, "{own}");
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM company_sources WHERE last_seen_at > first_seen_at"
        )
        .await,
        n_companies
    );
    app.stop().await;
}

/// Sends one batch, then takes its time (or sends nothing at all).
struct SlowProvider {
    first_batch: bool,
}

fn slow_company(i: usize) -> FoundCompany {
    FoundCompany {
        name: format!("Slow Baths {i}"),
        industry: None,
        company_type: Some("bath-shower".into()),
        revenue: Some(6_000_000),
        employees: None,
        founded: None,
        website: Some(format!("https://slow{i}.example")),
        phone: None,
        address: None,
        city: Some("Dallas".into()),
        state: Some("TX".into()),
        zip_code: None,
        description: None,
        growth_rate: None,
        contacts: vec![FoundContact {
            first_name: "Sam".into(),
            last_name: format!("Slow{i}"),
            title: Some("CEO".into()),
            department: None,
            email: Some(format!("sam@slow{i}.example")),
            phone: None,
            linkedin_url: None,
        }],
        external_id: None,
        opening_hours: None,
    }
}

impl DiscoveryProvider for SlowProvider {
    fn source(&self) -> Source {
        Source::Llm
    }
    fn search<'a>(
        &'a self,
        _: &'a DiscoveryQuery,
        sink: &'a tokio::sync::mpsc::Sender<Batch>,
    ) -> BoxFuture<'a, Result<(), ProviderError>> {
        Box::pin(async move {
            if self.first_batch {
                let _ = sink.send(vec![slow_company(1), slow_company(2)]).await;
            }
            tokio::time::sleep(Duration::from_secs(60)).await;
            Ok(())
        })
    }
}

fn slow_app_options(first_batch: bool) -> AppOptions {
    let mut settings = fast_settings();
    settings
        .time_budgets
        .insert("discovery_scan".into(), Duration::from_secs(2));
    AppOptions {
        settings,
        providers: Some(
            Providers::embedded().with_discovery(Arc::new(SlowProvider { first_batch })),
        ),
        ..Default::default()
    }
}

/// The budget is hard: the scan ends within it, keeps what it found, and says so.
async fn budget_stops_a_slow_provider_and_keeps_results(db: TestDb) {
    let app = TestApp::spawn(&db, slow_app_options(true)).await;
    let user = app.user().await;
    let body = json!({"companyName": "Slow"});
    let (_, v) = post_scan(&app, &user, body.clone()).await;
    let id = v["jobId"].as_str().unwrap().to_string();
    app.wait_status(&user, &id, "running", T).await;
    // The same search while it runs is the same scan.
    let (status, v) = post_scan(&app, &user, body).await;
    assert_eq!(status, 202);
    assert_eq!(v["jobId"], id.as_str());
    let done = app.wait_status(&user, &id, "succeeded", T).await;
    let result = &done["result"];
    assert_eq!(result["budgetExhausted"], true);
    assert_eq!(result["companies"].as_array().unwrap().len(), 2);
    let elapsed = result["elapsedMs"].as_u64().unwrap();
    assert!(
        (1500..2000).contains(&elapsed),
        "stopped at {elapsed} ms of a 2 s budget"
    );
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM companies").await, 2);
    app.stop().await;
}

async fn budget_with_nothing_found_fails_clearly(db: TestDb) {
    let app = TestApp::spawn(&db, slow_app_options(false)).await;
    let user = app.user().await;
    let (_, v) = post_scan(&app, &user, json!({"companyName": "Nothing"})).await;
    let id = v["jobId"].as_str().unwrap().to_string();
    let failed = app.wait_status(&user, &id, "failed", T).await;
    assert_eq!(
        failed["error"],
        "time budget of 2 s ran out before the provider returned any company"
    );
    assert_eq!(failed["attempts"], 1);
    app.stop().await;
}

/// A user (not an admin) finds the scan under way again after a reload; none once it is over.
async fn a_user_finds_the_running_scan(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let active = || async { app.get_json(&user, "/api/discovery/scans/active").await };
    assert_eq!(active().await, Value::Null, "no scan yet");
    let (status, v) = post_scan(&app, &user, texas_scan()).await;
    assert_eq!(status, 202, "{v}");
    let found = active().await;
    assert_eq!(found["id"], v["jobId"], "{found}");
    assert_eq!(found["kind"], "discovery_scan");
    let (status, _) = send(user.get(app.url("/api/ops/jobs"))).await;
    assert_eq!(status, 403, "the ops list stays admin-only");
    exec!(&app.db, "UPDATE jobs SET status = 'cancelled'");
    assert_eq!(
        active().await,
        Value::Null,
        "a finished scan is not under way"
    );
    app.stop().await;
}

both_backends!(
    a_user_finds_the_running_scan,
    validation_messages_of_the_seed,
    catalog_scan_stores_and_rescans_without_duplicates,
    budget_stops_a_slow_provider_and_keeps_results,
    budget_with_nothing_found_fails_clearly,
);
