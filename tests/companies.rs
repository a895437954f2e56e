//! Companies (seed 000 §2.6–§3, seed 001 §2–§4): list filters, contact counts, the edit dialog with
//! revenue in whole dollars, status changes and the map's customer report, on SQLite and Postgres.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::*;
use reqwest::Client;
use serde_json::{Value, json};

async fn send(
    app: &TestApp,
    c: &Client,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = c.request(method.parse().unwrap(), app.url(path));
    if let Some(b) = body {
        req = req.json(&b);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let text = res.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

async fn create(app: &TestApp, c: &Client, body: Value) -> String {
    let (s, v) = send(app, c, "POST", "/api/companies", Some(body.clone())).await;
    assert_eq!(s, 201, "create {body}: {v}");
    v["id"].as_str().unwrap().to_string()
}

async fn contact(app: &TestApp, c: &Client, company: &str, n: usize, score: i64) {
    let body = json!({"firstName": "C", "lastName": format!("N{n}"), "email": format!("c{n}@{company}.com"), "companyId": company, "score": score});
    let (s, v) = send(app, c, "POST", "/api/contacts", Some(body)).await;
    assert_eq!(s, 201, "{v}");
}

async fn list(app: &TestApp, c: &Client, path: &str) -> (Vec<Value>, i64) {
    let res = c.get(app.url(path)).send().await.unwrap();
    assert_eq!(res.status(), 200, "GET {path}");
    let total = res.headers()["x-total-count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    (res.json().await.unwrap(), total)
}

fn names(items: &[Value]) -> Vec<String> {
    let mut v: Vec<String> = items
        .iter()
        .map(|c| c["name"].as_str().unwrap().to_string())
        .collect();
    v.sort();
    v
}

async fn activity_kinds(app: &TestApp, c: &Client, id: &str) -> Vec<String> {
    let acts = app.get_json(c, "/api/activities?limit=1000").await;
    acts.as_array()
        .unwrap()
        .iter()
        .filter(|a| a["entityId"] == id)
        .map(|a| a["type"].as_str().unwrap().to_string())
        .collect()
}

async fn create_and_validation(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    let (s, v) = send(
        &app,
        &u,
        "POST",
        "/api/companies",
        Some(json!({"name": "  ", "city": "Dallas"})),
    )
    .await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("Company name is required"))
    );
    assert!(v["errors"]["name"].is_string());
    let (s, v) = send(
        &app,
        &u,
        "POST",
        "/api/companies",
        Some(json!({"name": "A", "state": "Texis"})),
    )
    .await;
    assert_eq!(s, 422);
    assert!(v["errors"]["state"].is_string(), "{v}");
    let (s, _) = send(
        &app,
        &u,
        "POST",
        "/api/companies",
        Some(json!({"name": "A", "status": "hot"})),
    )
    .await;
    assert_eq!(s, 422);

    let id = create(&app, &u, json!({"name": "Lone Star Baths", "state": "tx", "city": "Dallas", "revenue": 5000000, "employees": 40, "industry": "Bath"})).await;
    let c = app.get_json(&u, &format!("/api/companies/{id}")).await;
    assert_eq!(c["revenue"], "5000000");
    assert_eq!(
        (
            c["state"].as_str(),
            c["status"].as_str(),
            c["employees"].as_i64()
        ),
        (Some("TX"), Some("discovered"), Some(40))
    );
    assert_eq!(
        (c["contactCount"].as_i64(), c["contacts"].clone()),
        (Some(0), json!([]))
    );
    for key in [
        "zipCode",
        "growthRate",
        "discoverySource",
        "hasEnhancedData",
        "prospectScore",
        "isDeal",
        "createdAt",
        "competitorAlignment",
    ] {
        assert!(c.as_object().unwrap().contains_key(key), "{key}");
    }
    assert_eq!(activity_kinds(&app, &u, &id).await, ["company_created"]);
    assert_eq!(
        send(&app, &u, "GET", "/api/companies/01UNKNOWN", None)
            .await
            .0,
        404
    );
    app.stop().await;
}

async fn list_filters(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    let a = create(&app, &u, json!({"name": "Lone Star Baths", "industry": "Bath remodeling", "city": "Dallas", "state": "TX", "score": 85, "status": "qualified"})).await;
    create(&app, &u, json!({"name": "Desert Showers", "industry": "Plumbing", "city": "Phoenix", "state": "AZ", "score": 65})).await;
    create(&app, &u, json!({"name": "Bayou Kitchens", "industry": "Kitchen", "city": "New Orleans", "state": "LA", "score": 59})).await;
    create(&app, &u, json!({"name": "Austin Access", "industry": "Accessible bath", "city": "Austin", "state": "TX", "score": 80})).await;
    for n in 0..2 {
        contact(&app, &u, &a, n, 70).await;
    }

    let (all, total) = list(&app, &u, "/api/companies").await;
    assert_eq!((all.len(), total), (4, 4));
    let lone = all.iter().find(|c| c["id"] == a.as_str()).unwrap();
    assert_eq!(lone["contactCount"], 2);
    assert!(lone.get("contacts").is_none(), "contacts only on request");

    assert_eq!(
        names(&list(&app, &u, "/api/companies?q=PHOENIX").await.0),
        ["Desert Showers"]
    );
    assert_eq!(
        names(&list(&app, &u, "/api/companies?q=bath").await.0),
        ["Austin Access", "Lone Star Baths"]
    );
    assert_eq!(
        names(&list(&app, &u, "/api/companies?q=la").await.0),
        ["Bayou Kitchens", "Lone Star Baths"],
        "state LA and Dal-las"
    );
    assert_eq!(
        names(&list(&app, &u, "/api/companies?state=tx").await.0),
        ["Austin Access", "Lone Star Baths"]
    );
    assert_eq!(
        names(&list(&app, &u, "/api/companies?status=qualified").await.0),
        ["Lone Star Baths"]
    );
    assert_eq!(
        names(&list(&app, &u, "/api/companies?scoreBand=high").await.0),
        ["Austin Access", "Lone Star Baths"]
    );
    assert_eq!(
        names(&list(&app, &u, "/api/companies?scoreBand=medium").await.0),
        ["Desert Showers"]
    );
    assert_eq!(
        names(&list(&app, &u, "/api/companies?scoreBand=low").await.0),
        ["Bayou Kitchens"]
    );
    // A scan's results read back by id, with the other filters still applying.
    let b = all.iter().find(|c| c["name"] == "Bayou Kitchens").unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let (by_id, total) = list(&app, &u, &format!("/api/companies?ids={a},{b},gone")).await;
    assert_eq!(
        (names(&by_id), total),
        (
            vec!["Bayou Kitchens".to_string(), "Lone Star Baths".to_string()],
            2
        )
    );
    let (by_id, total) = list(&app, &u, &format!("/api/companies?ids={a},{b}&state=LA")).await;
    assert_eq!(
        (names(&by_id), total),
        (vec!["Bayou Kitchens".to_string()], 1)
    );
    let many = vec!["x"; 1001].join(",");
    let (s, v) = send(&app, &u, "GET", &format!("/api/companies?ids={many}"), None).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (422, Some("At most 1000 ids at a time"))
    );
    for bad in ["state=XX", "status=hot", "scoreBand=top", "include=deals"] {
        let (s, v) = send(&app, &u, "GET", &format!("/api/companies?{bad}"), None).await;
        assert_eq!(s, 422, "{bad}: {v}");
    }
    let (_, v) = send(&app, &u, "GET", "/api/companies?status=hot", None).await;
    assert!(
        v["message"].as_str().unwrap().contains("not_interested"),
        "{v}"
    );

    let (with, _) = list(&app, &u, "/api/companies?include=contacts&state=TX").await;
    let lone = with.iter().find(|c| c["id"] == a.as_str()).unwrap();
    assert_eq!(lone["contacts"].as_array().unwrap().len(), 2);
    let other = with.iter().find(|c| c["id"] != a.as_str()).unwrap();
    assert_eq!(other["contacts"], json!([]));

    // Best score first; paging keeps the total.
    let (page, total) = list(&app, &u, "/api/companies?limit=2&offset=1").await;
    assert_eq!(total, 4);
    assert_eq!(
        page.iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["Austin Access", "Desert Showers"]
    );
    app.stop().await;
}

async fn edit_dialog_and_status(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    let id = create(
        &app,
        &u,
        json!({"name": "Lone Star Baths", "state": "TX", "phone": "555", "revenue": 100}),
    )
    .await;
    let path = format!("/api/companies/{id}");

    let (s, v) = send(&app, &u, "PUT", &path, Some(json!({
        "name": "Lone Star Bath Co", "website": "https://lsb.example", "industry": "Bath", "revenue": 7500000.0,
        "employees": 55, "address": "1 Main St", "city": "Dallas", "state": "tx", "zipCode": "75001",
        "phone": "214-555-0100", "description": "Walk-in tubs"
    }))).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["revenue"], "7500000");
    assert_eq!(
        (
            v["employees"].as_i64(),
            v["state"].as_str(),
            v["zipCode"].as_str()
        ),
        (Some(55), Some("TX"), Some("75001"))
    );
    assert_eq!(v["status"], "discovered");
    assert_eq!(
        activity_kinds(&app, &u, &id)
            .await
            .iter()
            .filter(|k| *k == "company_updated")
            .count(),
        1
    );

    let (s, v) = send(
        &app,
        &u,
        "PUT",
        &path,
        Some(json!({"revenue": null, "employees": null})),
    )
    .await;
    assert_eq!(s, 200);
    assert!(v["revenue"].is_null() && v["employees"].is_null(), "{v}");
    assert_eq!(
        v["website"], "https://lsb.example",
        "absent fields are kept"
    );

    for bad in [
        json!({"revenue": -5}),
        json!({"revenue": 1234.56}),
        json!({"revenue": "lots"}),
        json!({"employees": -1}),
        json!({"name": ""}),
        json!({"state": "ZZ"}),
    ] {
        let (s, v) = send(&app, &u, "PUT", &path, Some(bad.clone())).await;
        assert_eq!(s, 422, "{bad}: {v}");
    }
    let (s, v) = send(&app, &u, "PUT", &path, Some(json!({"revenue": 10.5}))).await;
    assert_eq!(s, 422);
    assert!(
        v["errors"]["revenue"].as_str().unwrap().contains("whole"),
        "{v}"
    );
    let (s, _) = send(&app, &u, "PUT", &path, Some(json!({"employees": 2.5}))).await;
    assert_eq!(s, 422);

    let (s, v) = send(
        &app,
        &u,
        "PUT",
        &path,
        Some(json!({"status": "interested"})),
    )
    .await;
    assert_eq!((s, v["status"].as_str()), (200, Some("interested")));
    let kinds = activity_kinds(&app, &u, &id).await;
    assert!(
        kinds.contains(&"company_status_change".to_string()),
        "{kinds:?}"
    );
    assert_eq!(
        kinds.iter().filter(|k| *k == "company_updated").count(),
        2,
        "{kinds:?}"
    );
    let (s, v) = send(&app, &u, "PUT", &path, Some(json!({"status": "hot"}))).await;
    assert_eq!(s, 422);
    assert!(v["message"].as_str().unwrap().contains("partner"));
    assert_eq!(
        send(
            &app,
            &u,
            "PUT",
            "/api/companies/01UNKNOWN",
            Some(json!({"status": "partner"}))
        )
        .await
        .0,
        404
    );

    contact(&app, &u, &id, 1, 50).await;
    let c = app.get_json(&u, &path).await;
    assert_eq!(
        (
            c["contactCount"].as_i64(),
            c["contacts"].as_array().unwrap().len()
        ),
        (Some(1), 1)
    );
    assert_eq!(c["status"], "interested");
    app.stop().await;
}

async fn customer_report(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    let long = "x".repeat(250);
    let big = create(&app, &u, json!({"name": "Big", "state": "TX", "revenue": 10000000, "employees": 100, "status": "qualified", "score": 90, "description": long})).await;
    create(&app, &u, json!({"name": "Mid", "state": "TX", "revenue": 5000000, "employees": 51, "status": "interested", "score": 70})).await;
    create(
        &app,
        &u,
        json!({"name": "Small", "state": "TX", "status": "contacted", "score": 50}),
    )
    .await;
    create(
        &app,
        &u,
        json!({"name": "Elsewhere", "state": "AZ", "revenue": 99000000, "status": "qualified"}),
    )
    .await;
    for n in 0..5 {
        contact(&app, &u, &big, n, 60 + n as i64).await;
    }

    let r = app.get_json(&u, "/api/companies/report?state=tx").await;
    assert_eq!(r["state"], "TX");
    assert_eq!(r["totalCompanies"], 3);
    assert_eq!(
        r["avgRevenue"], 7500000,
        "companies without revenue do not count"
    );
    assert_eq!(r["avgEmployees"], 76, "75.5 rounds to 76");
    assert_eq!(r["qualified"], 2, "qualified plus interested");
    let companies = r["companies"].as_array().unwrap();
    assert_eq!(
        companies
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["Big", "Mid", "Small"]
    );
    let b = &companies[0];
    assert_eq!(b["description"].as_str().unwrap().chars().count(), 200);
    assert_eq!(b["contacts"].as_array().unwrap().len(), 3);
    assert_eq!(
        (b["moreContacts"].as_i64(), b["contactCount"].as_i64()),
        (Some(2), Some(5))
    );
    let scores: Vec<i64> = b["contacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["score"].as_i64().unwrap())
        .collect();
    assert_eq!(scores, [64, 63, 62], "best contacts first");
    assert_eq!(companies[1]["moreContacts"], 0);

    let empty = app.get_json(&u, "/api/companies/report?state=NM").await;
    assert_eq!(
        (empty["totalCompanies"].as_i64(), empty["companies"].clone()),
        (Some(0), json!([]))
    );
    assert!(empty["avgRevenue"].is_null());
    assert_eq!(
        send(&app, &u, "GET", "/api/companies/report?state=Texis", None)
            .await
            .0,
        422
    );
    let named = app.get_json(&u, "/api/companies/report?state=Texas").await;
    assert_eq!(
        (named["state"].as_str(), named["totalCompanies"].as_i64()),
        (Some("TX"), Some(3))
    );
    app.stop().await;
}

both_backends!(
    create_and_validation,
    list_filters,
    edit_dialog_and_status,
    customer_report
);
