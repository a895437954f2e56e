//! The OpenStreetMap (Overpass) and Google Places (New) discovery sources against wiremock servers
//! answering in the providers' own formats: mapping, paging, the field mask and key, request
//! budgets and rate limits, 429 with Retry-After, 5xx, malformed bodies; and scans through the
//! queue that combine sources, merge what two sources found into one company, and update rather
//! than duplicate on a re-scan, on both backends.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
use jobs::config::{DiscoverySourceSettings, Secret};
use jobs::providers::Providers;
use jobs::providers::discovery::places::FIELD_MASK;
use jobs::providers::discovery::{
    DiscoveryProvider, DiscoveryQuery, DiscoverySources, FoundCompany, OverpassDiscovery,
    PlacesDiscovery, ProviderError,
};
use jobs::providers::http::HttpPolicy;
use serde_json::{Value, json};
use wiremock::matchers::{body_string_contains, header, headers, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const T: Duration = Duration::from_secs(30);

fn settings(url: String, key: Option<&str>) -> DiscoverySourceSettings {
    DiscoverySourceSettings {
        url,
        api_key: key.map(|k| Secret::new(k.to_string())),
        max_requests: 10,
        per_minute: 6000,
        retries: 2,
        timeout: Duration::from_millis(800),
    }
}

fn fast() -> HttpPolicy {
    HttpPolicy {
        timeout: Duration::from_millis(800),
        retries: 2,
        min_delay: Duration::from_millis(20),
        max_delay: Duration::from_secs(2),
        ..HttpPolicy::default()
    }
}

fn overpass(server: &MockServer, s: DiscoverySourceSettings) -> OverpassDiscovery {
    OverpassDiscovery::new(&DiscoverySourceSettings {
        url: format!("{}/api/interpreter", server.uri()),
        ..s
    })
    .with_policy(fast())
}

fn places(server: &MockServer, s: DiscoverySourceSettings) -> PlacesDiscovery {
    PlacesDiscovery::new(&DiscoverySourceSettings {
        url: server.uri(),
        api_key: Some(Secret::new("places-key".into())),
        ..s
    })
    .unwrap()
    .with_policy(fast())
}

/// Overpass JSON for Texas: a tiler with everything, a plumber without a website, an element
/// without a name (skipped).
fn overpass_texas() -> Value {
    json!({
        "version": 0.6, "generator": "Overpass API 0.7.62",
        "osm3s": {"timestamp_osm_base": "2026-11-27T00:00:00Z", "copyright": "The data included in this document is from www.openstreetmap.org. The data is made available under ODbL."},
        "elements": [
            {"type": "node", "id": 101, "lat": 32.78, "lon": -96.8, "tags": {
                "name": "Lone Star Bath & Tile LLC", "craft": "tiler", "addr:housenumber": "12",
                "addr:street": "Elm Street", "addr:city": "Dallas", "addr:state": "TX", "addr:postcode": "75201",
                "phone": "+1 214-748-3647", "website": "https://www.lonestarbath.com",
                "opening_hours": "Mo-Fr 08:00-17:00"}},
            {"type": "way", "id": 202, "center": {"lat": 29.42, "lon": -98.49}, "tags": {
                "name": "Alamo Plumbing", "craft": "plumber", "addr:city": "San Antonio",
                "contact:phone": "(210) 271-9000"}},
            {"type": "node", "id": 303, "lat": 30.0, "lon": -97.0, "tags": {"craft": "builder"}}
        ]
    })
}

/// Places API (New) Text Search, page 1: Lone Star again (same website domain), and a place over
/// the border in Arkansas (left out); page 2: Alamo Plumbing spelled otherwise, and a new company.
fn places_page_1() -> Value {
    json!({
        "places": [
            {"id": "ChIJ-lonestar", "displayName": {"text": "Lone Star Bath and Tile", "languageCode": "en"},
             "formattedAddress": "12 Elm St, Dallas, TX 75201, USA", "nationalPhoneNumber": "(214) 748-3647",
             "websiteUri": "http://lonestarbath.com/",
             "regularOpeningHours": {"weekdayDescriptions": ["Monday: 8:00 AM – 5:00 PM"]}},
            {"id": "ChIJ-redriver", "displayName": {"text": "Red River Remodeling"},
             "formattedAddress": "9 Main St, Texarkana, AR 71854, USA"}
        ],
        "nextPageToken": "page-2-token"
    })
}

fn places_page_2() -> Value {
    json!({
        "places": [
            {"id": "ChIJ-alamo", "displayName": {"text": "ALAMO PLUMBING, INC."},
             "formattedAddress": "77 Commerce St, San Antonio, TX 78205, USA", "nationalPhoneNumber": "(210) 271-9000"},
            {"id": "ChIJ-gulf", "displayName": {"text": "Gulf Coast Kitchens"},
             "formattedAddress": "400 Bay Rd, Houston, TX 77002, USA", "nationalPhoneNumber": "(713) 222-1000",
             "websiteUri": "https://gulfcoastkitchens.com"}
        ]
    })
}

async fn mount_overpass(server: &MockServer) {
    Mock::given(method("POST"))
        .and(path("/api/interpreter"))
        .and(body_string_contains("US-TX"))
        .respond_with(ResponseTemplate::new(200).set_body_json(overpass_texas()))
        .mount(server)
        .await;
}

async fn mount_places(server: &MockServer) {
    Mock::given(method("POST"))
        .and(path("/v1/places:searchText"))
        .and(body_string_contains("page-2-token"))
        .respond_with(ResponseTemplate::new(200).set_body_json(places_page_2()))
        .mount(server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/places:searchText"))
        .and(header("X-Goog-Api-Key", "places-key"))
        // wiremock splits a header's value at commas, as a list.
        .and(headers("X-Goog-FieldMask", FIELD_MASK.split(',').collect()))
        .respond_with(ResponseTemplate::new(200).set_body_json(places_page_1()))
        .mount(server)
        .await;
}

fn texas() -> DiscoveryQuery {
    DiscoveryQuery {
        region: Some("texas".into()),
        company_type: Some("bath-shower".into()),
        ..Default::default()
    }
}

async fn collect(
    p: &dyn DiscoveryProvider,
    q: &DiscoveryQuery,
) -> (Result<(), ProviderError>, Vec<FoundCompany>) {
    let (tx, mut rx) = tokio::sync::mpsc::channel(16);
    let r = p.search(q, &tx).await;
    drop(tx);
    let mut found = Vec::new();
    while let Some(b) = rx.recv().await {
        found.extend(b);
    }
    (r, found)
}

#[tokio::test]
async fn overpass_elements_become_companies() {
    let server = MockServer::start().await;
    mount_overpass(&server).await;
    let p = overpass(&server, settings(String::new(), None));
    let (r, found) = collect(&p, &texas()).await;
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(found.len(), 2, "the element without a name is skipped");
    let lone = &found[0];
    assert_eq!(lone.address.as_deref(), Some("12 Elm Street"));
    assert_eq!(lone.phone.as_deref(), Some("(214) 748-3647"));
    assert_eq!(lone.opening_hours.as_deref(), Some("Mo-Fr 08:00-17:00"));
    assert_eq!(lone.external_id.as_deref(), Some("node/101"));
    assert_eq!(
        found[1].state.as_deref(),
        Some("TX"),
        "the searched state when addr:state is missing"
    );
    let sent = &server.received_requests().await.unwrap()[0];
    let form = String::from_utf8_lossy(&sent.body);
    let query: String = url::form_urlencoded::parse(form.as_bytes())
        .find(|(k, _)| k == "data")
        .map(|(_, v)| v.into_owned())
        .unwrap();
    assert!(query.starts_with("[out:json]"), "{query}");
    assert!(
        query.contains("nwr[\"shop\"~\"^(bathroom_furnishing)$\"]"),
        "{query}"
    );
    assert!(
        query.contains("nwr[\"craft\"~\"^(tiler|plumber)$\"]"),
        "{query}"
    );
}

#[tokio::test]
async fn overpass_failures_are_told_apart() {
    // 429 with Retry-After: waited for, then the answer is used.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    mount_overpass(&server).await;
    let t = Instant::now();
    let (r, found) = collect(&overpass(&server, settings(String::new(), None)), &texas()).await;
    assert!(r.is_ok() && found.len() == 2, "{r:?}");
    assert!(
        t.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured"
    );

    // 429 every time: rate limited, with the wait the server asked for.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .mount(&server)
        .await;
    let (r, _) = collect(&overpass(&server, settings(String::new(), None)), &texas()).await;
    match r {
        Err(ProviderError::Throttled { after, .. }) => assert_eq!(after, Duration::from_secs(1)),
        other => panic!("expected throttled, got {other:?}"),
    }
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        3,
        "first try and two retries"
    );

    // 500 every time: transient after the retries.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("overloaded"))
        .mount(&server)
        .await;
    let (r, _) = collect(&overpass(&server, settings(String::new(), None)), &texas()).await;
    assert!(
        matches!(&r, Err(ProviderError::Transient(m)) if m.contains("HTTP 500")),
        "{r:?}"
    );

    // A timeout is transient too.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_json(overpass_texas())
                .set_delay(Duration::from_secs(3)),
        )
        .mount(&server)
        .await;
    let (r, _) = collect(&overpass(&server, settings(String::new(), None)), &texas()).await;
    assert!(
        matches!(&r, Err(ProviderError::Transient(m)) if m.contains("timed out")),
        "{r:?}"
    );

    // An answer over the 8 MB cap is refused while it is read, never parsed.
    let server = MockServer::start().await;
    let huge = format!(
        "{{\"elements\": [], \"pad\": \"{}\"}}",
        "x".repeat(9 * 1024 * 1024)
    );
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_string(huge))
        .expect(1)
        .mount(&server)
        .await;
    let (r, found) = collect(&overpass(&server, settings(String::new(), None)), &texas()).await;
    assert!(found.is_empty());
    assert!(
        matches!(&r, Err(ProviderError::Invalid(m)) if m.contains("larger than 8 MB")),
        "not retried, and said: {r:?}"
    );

    // HTML where JSON should be, or a query the server gave up on.
    for (body, transient) in [
        (
            "<html><body>Error: runtime error</body></html>".to_string(),
            false,
        ),
        (
            json!({"elements": [], "remark": "runtime error: Query timed out in \"query\""})
                .to_string(),
            true,
        ),
        (json!({"elements": "many"}).to_string(), false),
    ] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(200).set_body_string(body.clone()))
            .mount(&server)
            .await;
        let (r, found) = collect(&overpass(&server, settings(String::new(), None)), &texas()).await;
        assert!(found.is_empty());
        match (transient, r) {
            (true, Err(ProviderError::Transient(_))) | (false, Err(ProviderError::Invalid(_))) => {}
            (_, other) => panic!("{body}: {other:?}"),
        }
    }
}

#[tokio::test]
async fn overpass_keeps_to_its_request_budget() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"elements": []})))
        .mount(&server)
        .await;
    let p = overpass(
        &server,
        DiscoverySourceSettings {
            max_requests: 3,
            ..settings(String::new(), None)
        },
    );
    let southwest = DiscoveryQuery {
        region: Some("southwest".into()),
        ..Default::default()
    };
    let (r, _) = collect(&p, &southwest).await;
    assert!(r.is_ok());
    assert_eq!(
        server.received_requests().await.unwrap().len(),
        3,
        "seven states, a budget of three requests"
    );
}

#[tokio::test]
async fn places_pages_with_the_field_mask_and_key() {
    let server = MockServer::start().await;
    mount_places(&server).await;
    // 120 a minute: one request every half second.
    let p = places(
        &server,
        DiscoverySourceSettings {
            per_minute: 120,
            ..settings(String::new(), None)
        },
    );
    let t = Instant::now();
    let (r, found) = collect(&p, &texas()).await;
    assert!(r.is_ok(), "{r:?}");
    assert!(
        t.elapsed() >= Duration::from_millis(450),
        "the rate limit spaced the pages: {:?}",
        t.elapsed()
    );
    let names: Vec<&str> = found.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Lone Star Bath and Tile",
            "ALAMO PLUMBING, INC.",
            "Gulf Coast Kitchens"
        ],
        "the Arkansas place is left out"
    );
    let lone = &found[0];
    assert_eq!(
        (
            lone.address.as_deref(),
            lone.city.as_deref(),
            lone.zip_code.as_deref()
        ),
        (Some("12 Elm St"), Some("Dallas"), Some("75201"))
    );
    assert_eq!(lone.website.as_deref(), Some("http://lonestarbath.com/"));
    assert_eq!(lone.external_id.as_deref(), Some("ChIJ-lonestar"));
    let requests = server.received_requests().await.unwrap();
    assert_eq!(requests.len(), 2);
    let first: Value = serde_json::from_slice(&requests[0].body).unwrap();
    assert_eq!(
        first["textQuery"],
        "bathroom remodeling contractor in Texas"
    );
    assert_eq!(first["pageSize"], 20);
    assert!(first.get("pageToken").is_none());
    let second: Value = serde_json::from_slice(&requests[1].body).unwrap();
    assert_eq!(second["pageToken"], "page-2-token");
    assert_eq!(
        second["textQuery"], first["textQuery"],
        "a page token goes with the same query"
    );
    assert!(
        FIELD_MASK
            .split(',')
            .all(|f| f.starts_with("places.") || f == "nextPageToken")
    );

    // A budget of one request: the first page only.
    let server = MockServer::start().await;
    mount_places(&server).await;
    let p = places(
        &server,
        DiscoverySourceSettings {
            max_requests: 1,
            ..settings(String::new(), None)
        },
    );
    let (r, found) = collect(&p, &texas()).await;
    assert!(r.is_ok());
    assert_eq!(found.len(), 1);
    assert_eq!(server.received_requests().await.unwrap().len(), 1);
}

#[tokio::test]
async fn places_failures_are_told_apart() {
    // Google's quota answer: 429 RESOURCE_EXHAUSTED with Retry-After.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(429)
                .insert_header("retry-after", "2")
                .set_body_json(json!({"error": {"code": 429, "message": "Quota exceeded for quota metric 'SearchTextRequest'", "status": "RESOURCE_EXHAUSTED"}})),
        )
        .mount(&server)
        .await;
    let (r, _) = collect(&places(&server, settings(String::new(), None)), &texas()).await;
    match r {
        Err(ProviderError::Throttled { after, message }) => {
            assert_eq!(after, Duration::from_secs(2));
            assert!(message.contains("RESOURCE_EXHAUSTED"), "{message}");
        }
        other => panic!("expected throttled, got {other:?}"),
    }
    // A bad key is not retried.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(403).set_body_json(json!({"error": {"code": 403, "message": "API key not valid.", "status": "PERMISSION_DENIED"}})))
        .mount(&server)
        .await;
    let (r, _) = collect(&places(&server, settings(String::new(), None)), &texas()).await;
    assert!(
        matches!(&r, Err(ProviderError::Invalid(m)) if m.contains("403")),
        "{r:?}"
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 1);
    // 500, then the answer: retried.
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    mount_places(&server).await;
    let (r, found) = collect(&places(&server, settings(String::new(), None)), &texas()).await;
    assert!(r.is_ok() && found.len() == 3, "{r:?}");
    // Malformed: not JSON, or a place without the shape.
    for body in ["{\"places\": [", "{\"places\": {\"id\": 1}}"] {
        let server = MockServer::start().await;
        Mock::given(method("POST"))
            .respond_with(ResponseTemplate::new(200).set_body_string(body))
            .mount(&server)
            .await;
        let (r, found) = collect(&places(&server, settings(String::new(), None)), &texas()).await;
        assert!(
            matches!(&r, Err(ProviderError::Invalid(_))),
            "{body}: {r:?}"
        );
        assert!(found.is_empty());
    }
}

fn both_sources(overpass_server: &MockServer, places_server: &MockServer) -> Providers {
    let sources: Vec<Arc<dyn DiscoveryProvider>> = vec![
        Arc::new(overpass(overpass_server, settings(String::new(), None))),
        Arc::new(places(places_server, settings(String::new(), None))),
    ];
    Providers::embedded().with_discovery_sources(DiscoverySources::new(sources))
}

async fn post_scan(app: &TestApp, client: &reqwest::Client, body: Value) -> (u16, Value) {
    send(client.post(app.url("/api/discovery/scan")).json(&body)).await
}

fn scan_body() -> Value {
    json!({
        "region": "texas", "revenueRange": "5-10M", "companyType": "bath-shower",
        "discoverySource": ["region_search", "osm", "google_places"], "territoryOptimization": true
    })
}

/// Two sources at once: what both found is one company with two sources; a re-scan updates.
async fn a_scan_combines_sources_and_a_rescan_updates(db: TestDb) {
    let osm = MockServer::start().await;
    mount_overpass(&osm).await;
    let google = MockServer::start().await;
    mount_places(&google).await;
    let app = TestApp::spawn(
        &db,
        AppOptions {
            providers: Some(both_sources(&osm, &google)),
            ..Default::default()
        },
    )
    .await;
    let user = app.user().await;
    let offered = app.get_json(&user, "/api/discovery/sources").await;
    let keys: Vec<&str> = offered
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["source"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["osm", "google_places", "catalog"], "{offered}");
    assert_eq!(
        offered[2]["default"], false,
        "the catalog is the default only when nothing else is configured"
    );
    assert!(offered[0]["attribution"].as_str().unwrap().contains("ODbL"));

    let mut figures = Vec::new();
    for round in 0..2 {
        let t = Instant::now();
        let (status, v) = post_scan(&app, &user, scan_body()).await;
        assert_eq!(status, 202, "{v}");
        let done = app
            .wait_status(&user, v["jobId"].as_str().unwrap(), "succeeded", T)
            .await;
        let wall = t.elapsed();
        let result = &done["result"];
        let companies = result["companies"].as_array().unwrap();
        assert_eq!(companies.len(), 3, "{result}");
        let lone = companies
            .iter()
            .find(|c| c["name"].as_str().unwrap().starts_with("Lone Star"))
            .unwrap();
        let mut lone_sources: Vec<&str> = lone["sources"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        lone_sources.sort_unstable();
        assert_eq!(lone_sources, ["google_places", "osm"]);
        let sources = result["sources"].as_array().unwrap();
        let by = |k: &str| sources.iter().find(|s| s["source"] == k).unwrap().clone();
        assert_eq!(by("osm")["found"], 2);
        assert_eq!(by("google_places")["found"], 3);
        assert!(by("osm")["error"].is_null() && by("google_places")["error"].is_null());
        let created: u64 = sources.iter().map(|s| s["new"].as_u64().unwrap()).sum();
        assert_eq!(
            created,
            if round == 0 { 3 } else { 0 },
            "a re-scan creates nothing"
        );
        assert!(result["territoryInsights"]["marketSize"].is_object());
        figures.push(format!(
            "round {round}: {} ms in the job ({} ms wall); osm {} found in {} ms, google_places {} found in {} ms",
            result["elapsedMs"], wall.as_millis(), by("osm")["found"], by("osm")["elapsedMs"],
            by("google_places")["found"], by("google_places")["elapsedMs"]
        ));
    }
    println!(
        "discovery figures ({:?}): {}",
        db.backend,
        figures.join("; ")
    );
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM companies").await, 3);
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM company_sources").await,
        5
    );
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM company_sources WHERE last_seen_at > first_seen_at"
        )
        .await,
        5
    );
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM company_sources WHERE source = 'osm' AND attribution LIKE '%ODbL%' AND verified").await,
        2
    );
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM companies WHERE discovery_source = 'region_search' AND domain = 'lonestarbath.com'").await,
        1
    );
    // The labels endpoint: which sources found which company.
    let ids: Vec<String> = {
        let v = app.get_json(&user, "/api/companies?limit=10").await;
        v.as_array()
            .unwrap()
            .iter()
            .map(|c| c["id"].as_str().unwrap().to_string())
            .collect()
    };
    let rows = app
        .get_json(
            &user,
            &format!("/api/discovery/company-sources?ids={}", ids.join(",")),
        )
        .await;
    assert_eq!(rows.as_array().unwrap().len(), 5, "{rows}");
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .any(|r| r["source"] == "osm" && r["openingHours"] == "Mo-Fr 08:00-17:00")
    );
    app.stop().await;
}

/// A source that is not configured cannot be asked for; the catalog always can, as demo data.
async fn only_offered_sources_can_be_asked_for(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let offered = app.get_json(&user, "/api/discovery/sources").await;
    assert_eq!(
        offered,
        json!([{"source": "catalog", "label": "Demo data", "default": true, "verified": false,
        "attribution": "Demo data: invented companies for trying the app; websites and phones are not real."}])
    );
    let (status, v) = post_scan(
        &app,
        &user,
        json!({"companyName": "Acme", "discoverySource": "osm"}),
    )
    .await;
    assert_eq!(status, 422);
    assert_eq!(
        v["message"],
        "OpenStreetMap is not available on this server (available: Demo data)"
    );
    assert_eq!(v["errors"]["discoverySource"], v["message"]);
    let (status, v) = post_scan(
        &app,
        &user,
        json!({"companyName": "Acme", "discoverySource": ["catalog", 7]}),
    )
    .await;
    assert!(status == 400 || status == 422, "{status} {v}");
    let (status, _) = post_scan(
        &app,
        &user,
        json!({"companyName": "Acme", "discoverySource": ["catalog", "city_state_search"]}),
    )
    .await;
    assert_eq!(status, 202);
    let (status, v) = send(user.get(app.url("/api/discovery/company-sources?ids=a,,b"))).await;
    assert_eq!((status, v), (200, json!([])));
    let market = app.get_json(&user, "/api/discovery/market").await;
    assert_eq!(market["available"], false, "{market}");
    assert!(market["note"].as_str().unwrap().contains("No figures"));
    assert_eq!(market["states"].as_array().unwrap().len(), 7);
    app.stop().await;
}

/// Every source rate limited or down and nothing found: the scan waits as long as asked, then
/// tries again.
async fn a_scan_whose_sources_all_fail_retries_later(db: TestDb) {
    let osm = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).insert_header("retry-after", "1"))
        .mount(&osm)
        .await;
    let google = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .mount(&google)
        .await;
    let app = TestApp::spawn(
        &db,
        AppOptions {
            providers: Some(both_sources(&osm, &google)),
            ..Default::default()
        },
    )
    .await;
    let user = app.user().await;
    let (status, v) = post_scan(&app, &user, scan_body()).await;
    assert_eq!(status, 202);
    let id = v["jobId"].as_str().unwrap().to_string();
    let failed = app.wait_status(&user, &id, "failed", T).await;
    let error = failed["error"].as_str().unwrap();
    assert!(
        error.contains("rate limited") && error.contains("HTTP 503"),
        "{error}"
    );
    assert_eq!(
        failed["attempts"], 2,
        "retried once after the wait, then failed"
    );
    assert_eq!(scalar(&app.db, "SELECT COUNT(*) FROM companies").await, 0);
    app.stop().await;
}

both_backends!(
    a_scan_combines_sources_and_a_rescan_updates,
    only_offered_sources_can_be_asked_for,
    a_scan_whose_sources_all_fail_retries_later,
);
