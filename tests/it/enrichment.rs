//! Website enrichment (`company_enrich`, docs/providers.md "Website enrichment") against a local
//! website fixture (wiremock on loopback): pages read and what they gave, robots.txt honoured, the
//! size cap, refused addresses (a redirect to a private or link-local address, a name that resolves
//! to loopback with the allow flag off), a failing site, and the company's record, contacts,
//! timeline and score afterwards.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use common::*;
use jobs::db::{CompanySeed, ContactSeed};
use jobs::providers::Providers;
use jobs::providers::website::WebsiteClient;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const T: Duration = Duration::from_secs(30);

const HOME: &str = r#"<!doctype html><html><head><title>Lone Star Access Baths</title></head><body>
<nav><a href="/contact">Contact us</a> <a href="/team">Our team</a>
<a href="/private/staff-team">Staff only</a>
<a href="https://www.facebook.com/lonestaraccess">Facebook</a>
<a href="https://www.linkedin.com/company/lone-star-access">LinkedIn</a></nav>
<h1>Walk-in tubs, grab bars and barrier-free showers</h1>
<p>Bathroom remodeling across Dallas since 1998.</p></body></html>"#;

const CONTACT: &str = r#"<html><body><h1>Contact</h1>
<p>Call <a href="tel:+12145550142">(214) 555-0142</a> or email
<a href="mailto:info@lonestaraccess.example">info@lonestaraccess.example</a>.</p>
<p>Sales: maria.garcia@lonestaraccess.example</p></body></html>"#;

const TEAM: &str = r#"<html><body><h2>Meet the team</h2>
<div><h3>Maria Garcia</h3><p>Owner &amp; President</p></div>
<div><h3>Ben Okafor</h3><p>Lead Installer</p></div>
<div><h3>Cy Tran</h3><p>Sales Manager</p></div></body></html>"#;

fn html(body: impl Into<String>) -> ResponseTemplate {
    // `set_body_string` would answer text/plain, whatever header is added.
    ResponseTemplate::new(200).set_body_raw(body.into(), "text/html; charset=utf-8")
}

/// The dealer's site: robots.txt keeps bots out of /private, which the home page links to.
async fn dealer_site() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/robots.txt"))
        .respond_with(
            ResponseTemplate::new(200).set_body_string("User-agent: *\nDisallow: /private\n"),
        )
        .mount(&server)
        .await;
    for (p, body) in [("/", HOME), ("/contact", CONTACT), ("/team", TEAM)] {
        Mock::given(method("GET"))
            .and(path(p))
            .respond_with(html(body))
            .mount(&server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/private/staff-team"))
        .respond_with(html(TEAM.replace("Cy Tran", "Secret Person")))
        .mount(&server)
        .await;
    server
}

/// The api and a worker whose website client may reach this machine (`WEBSITE_ALLOW_LOOPBACK`).
async fn spawn(db: &TestDb, allow_loopback: bool) -> TestApp {
    let providers = Providers::embedded().with_website(WebsiteClient::new(allow_loopback));
    TestApp::spawn(
        db,
        AppOptions {
            providers: Some(providers),
            ..AppOptions::default()
        },
    )
    .await
}

async fn company(app: &TestApp, name: &str, website: &str) -> String {
    let id = ulid::Ulid::new().to_string();
    app.db
        .seed_companies(&[CompanySeed {
            id: id.clone(),
            name: name.into(),
            company_type: Some("bath-shower".into()),
            status: "discovered".into(),
            revenue: Some(12_000_000),
            state: Some("TX".into()),
            website: Some(website.into()),
            created_at: jobs::time::now_ms(),
            ..Default::default()
        }])
        .await
        .unwrap();
    id
}

async fn enrich(app: &TestApp, user: &reqwest::Client, id: &str) -> String {
    let (status, body) = send(user.post(app.url(&format!("/api/companies/{id}/enrich")))).await;
    assert_eq!(status, 202, "{body}");
    body["jobId"].as_str().unwrap().to_string()
}

fn paths(server_requests: &[wiremock::Request]) -> Vec<String> {
    server_requests
        .iter()
        .map(|r| r.url.path().to_string())
        .collect()
}

async fn a_site_is_read_within_robots_and_its_findings_kept(db: TestDb) {
    let site = dealer_site().await;
    let app = spawn(&db, true).await;
    let id = company(&app, "Lone Star Access Baths", &site.uri()).await;
    // Already a contact of the company: Ben is not made twice.
    app.db
        .seed_contacts(&[ContactSeed {
            id: ulid::Ulid::new().to_string(),
            company_id: Some(id.clone()),
            first_name: "Ben".into(),
            last_name: "Okafor".into(),
            status: "new_lead".into(),
            tags: json!([]),
            created_at: jobs::time::now_ms(),
            ..Default::default()
        }])
        .await
        .unwrap();
    let user = app.user().await;
    let before = app.get_json(&user, &format!("/api/companies/{id}")).await;
    let job = enrich(&app, &user, &id).await;
    let done = app.wait_status(&user, &job, "succeeded", T).await;
    let r = &done["result"];

    let pages: Vec<&str> = r["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    assert_eq!(pages.len(), 3, "home, contact, team: {r}");
    let requested = paths(&site.received_requests().await.unwrap());
    assert!(
        !requested.iter().any(|p| p.starts_with("/private")),
        "robots.txt disallows /private: {requested:?}"
    );
    assert_eq!(
        requested.iter().filter(|p| *p == "/robots.txt").count(),
        1,
        "{requested:?}"
    );
    let skipped = r["skipped"].as_array().unwrap();
    assert!(
        skipped.iter().any(
            |s| s["url"].as_str().unwrap().ends_with("/private/staff-team")
                && s["reason"].as_str().unwrap().contains("robots.txt")
        ),
        "{r}"
    );
    assert_eq!(r["phones"], json!(["(214) 555-0142"]));
    let emails = r["emails"].as_array().unwrap();
    assert!(
        emails.contains(&json!("info@lonestaraccess.example")),
        "{r}"
    );
    assert_eq!(
        r["socials"]["facebook"],
        "https://www.facebook.com/lonestaraccess"
    );
    assert!(r["socials"]["linkedin"].is_string());
    let services: Vec<&str> = r["services"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert_eq!(
        services,
        ["walk_in_tubs", "accessibility", "bath", "remodeling"],
        "{r}"
    );
    assert_eq!(r["contactsCreated"], 2, "Maria and Cy; Ben was known: {r}");
    assert_eq!(r["contactsKnown"], 1);

    // The people became contacts, marked as found on the website; Maria got her address.
    let n = scalar!(
        &app.db,
        i64,
        "SELECT COUNT(*) FROM contacts WHERE company_id = $1 AND source = 'website'",
        &id
    );
    assert_eq!(n, 2);
    let n = scalar!(
        &app.db,
        i64,
        "SELECT COUNT(*) FROM contacts WHERE company_id = $1 AND first_name = 'Ben'",
        &id
    );
    assert_eq!(n, 1, "no second Ben");
    let maria_title = scalar!(
        &app.db,
        String,
        "SELECT title FROM contacts WHERE email = 'maria.garcia@lonestaraccess.example'"
    );
    assert_eq!(maria_title, "Owner & President");

    // The record: the website's findings, a higher score explained by the services found.
    let after = app.get_json(&user, &format!("/api/companies/{id}")).await;
    let facts = &after["enrichment"]["websiteFacts"];
    assert_eq!(facts["phones"], json!(["(214) 555-0142"]));
    assert!(after["enrichment"]["enrichedAt"].is_string());
    assert_eq!(
        after["phone"], "(214) 555-0142",
        "the site's phone fills an empty one"
    );
    let factors = after["enrichment"]["scoreFactors"].as_array().unwrap();
    let services = factors.iter().find(|f| f["factor"] == "services").unwrap();
    assert_eq!(
        (services["points"].as_i64(), services["max"].as_i64()),
        (Some(15), Some(15)),
        "{services}"
    );
    assert!(services["value"].as_str().unwrap().contains("Walk-in tubs"));
    assert!(
        after["score"].as_i64() > before["score"].as_i64(),
        "{} -> {}",
        before["score"],
        after["score"]
    );
    assert_eq!(
        factors
            .iter()
            .map(|f| f["points"].as_i64().unwrap())
            .sum::<i64>(),
        after["score"].as_i64().unwrap(),
        "the factors add up to the score"
    );

    // The timeline says what the visit found.
    let timeline = app
        .get_json(&user, &format!("/api/companies/{id}/timeline"))
        .await;
    let item = timeline["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["kind"] == "enriched")
        .unwrap_or_else(|| panic!("{timeline}"));
    assert_eq!(item["title"], "Enriched from its website");
    assert!(
        item["detail"].as_str().unwrap().contains("3 pages"),
        "{item}"
    );

    // A double click finds the job already waiting or done; a company without a website is a 422.
    let bare = company(&app, "No Site Co", " ").await;
    let (status, body) = send(user.post(app.url(&format!("/api/companies/{bare}/enrich")))).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(
        body["message"],
        "The company has no website to read. Add its website first."
    );
    let (status, _) =
        send(user.post(app.url(&format!("/api/companies/{}/enrich", ulid::Ulid::new())))).await;
    assert_eq!(status, 404);
    app.stop().await;
}

async fn a_long_page_is_cut_at_the_size_cap(db: TestDb) {
    let server = MockServer::start().await;
    // The first address is within the first megabyte; the second is beyond it.
    let mut page = String::from("<html><body><p>hello@early.example</p><p>");
    page.push_str(&"x".repeat(1_200_000));
    page.push_str("</p><p>late@beyond.example</p></body></html>");
    Mock::given(method("GET"))
        .and(path("/"))
        .respond_with(html(page))
        .mount(&server)
        .await;
    let app = spawn(&db, true).await;
    let id = company(&app, "Big Page Baths", &server.uri()).await;
    let user = app.user().await;
    let job = enrich(&app, &user, &id).await;
    let done = app.wait_status(&user, &job, "succeeded", T).await;
    let r = &done["result"];
    assert_eq!(r["truncated"], true, "{r}");
    assert_eq!(r["emails"], json!(["hello@early.example"]), "{r}");
    app.stop().await;
}

async fn redirects_to_private_addresses_are_refused(db: TestDb) {
    let server = MockServer::start().await;
    for (p, to) in [
        ("/", "http://169.254.169.254/latest/meta-data/"),
        ("/ten", "http://10.0.0.1/admin"),
    ] {
        Mock::given(method("GET"))
            .and(path(p))
            .respond_with(ResponseTemplate::new(302).insert_header("location", to))
            .mount(&server)
            .await;
    }
    // Loopback allowed (the fixture), and nothing else: the redirect hop is checked again.
    let app = spawn(&db, true).await;
    let user = app.user().await;
    for (name, site) in [
        ("Metadata Baths", server.uri()),
        ("Ten Net Baths", format!("{}/ten", server.uri())),
    ] {
        let id = company(&app, name, &site).await;
        let job = enrich(&app, &user, &id).await;
        let failed = app.wait_status(&user, &job, "failed", T).await;
        let error = failed["error"].as_str().unwrap();
        assert!(error.contains("refused"), "{error}");
        assert_eq!(failed["attempts"], 1, "a refusal is not retried: {failed}");
        let n = scalar!(
            &app.db,
            i64,
            "SELECT COUNT(*) FROM companies WHERE id = $1 AND enriched_at IS NULL",
            &id
        );
        assert_eq!(n, 1, "nothing stored");
    }
    app.stop().await;
}

async fn with_the_flag_off_loopback_names_and_addresses_are_refused(db: TestDb) {
    let site = dealer_site().await;
    let port = site.address().port();
    // The embedded providers: WEBSITE_ALLOW_LOOPBACK off.
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let user = app.user().await;
    for website in [
        format!("http://localhost:{port}/"),
        format!("http://127.0.0.1:{port}/"),
    ] {
        let id = company(&app, &format!("Local {website}"), &website).await;
        let job = enrich(&app, &user, &id).await;
        let failed = app.wait_status(&user, &job, "failed", T).await;
        let error = failed["error"].as_str().unwrap();
        assert!(
            error.contains("loopback") && error.contains("refused"),
            "{error}"
        );
    }
    assert!(
        site.received_requests().await.unwrap().is_empty(),
        "no request reached the loopback site"
    );
    app.stop().await;
}

async fn a_failing_site_is_retried_then_fails(db: TestDb) {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/robots.txt"))
        .respond_with(ResponseTemplate::new(404))
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/"))
        .respond_with(ResponseTemplate::new(503).insert_header("retry-after", "1"))
        .mount(&server)
        .await;
    let app = spawn(&db, true).await;
    let id = company(&app, "Down Baths", &server.uri()).await;
    let user = app.user().await;
    let job = enrich(&app, &user, &id).await;
    let failed = app.wait_status(&user, &job, "failed", T).await;
    assert_eq!(failed["attempts"], 3, "{failed}");
    assert!(
        failed["error"].as_str().unwrap().contains("HTTP 503"),
        "{failed}"
    );
    app.stop().await;
}

async fn bulk_enrichment_makes_one_job_per_company_with_a_website(db: TestDb) {
    let site = dealer_site().await;
    let app = spawn(&db, true).await;
    let user = app.user().await;
    let with_site = company(&app, "Lone Star Access Baths", &site.uri()).await;
    let without = company(&app, "No Site Co", "").await;
    let (status, body) = send(
        user.post(app.url("/api/companies/bulk-enrich"))
            .json(&json!({ "companyIds": [with_site, without, with_site] })),
    )
    .await;
    assert_eq!(status, 202, "{body}");
    assert_eq!(
        (body["queued"].as_i64(), body["skipped"].as_i64()),
        (Some(1), Some(1))
    );
    let job = body["jobIds"][0].as_str().unwrap().to_string();
    app.wait_status(&user, &job, "succeeded", T).await;
    let (status, body) = send(
        user.post(app.url("/api/companies/bulk-enrich"))
            .json(&json!({ "companyIds": [] })),
    )
    .await;
    assert_eq!(
        (status, body["message"].clone()),
        (422, Value::from("Select at least one company to enrich."))
    );
    app.stop().await;
}

both_backends!(
    a_site_is_read_within_robots_and_its_findings_kept,
    a_long_page_is_cut_at_the_size_cap,
    redirects_to_private_addresses_are_refused,
    with_the_flag_off_loopback_names_and_addresses_are_refused,
    a_failing_site_is_retried_then_fails,
    bulk_enrichment_makes_one_job_per_company_with_a_website
);
