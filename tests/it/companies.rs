//! Companies (seed 000 §2.6–§3, seed 001 §2–§4): list filters, contact counts, the edit dialog with
//! revenue in whole dollars, status changes and the map's customer report, on SQLite and Postgres.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

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
    // A page shorter than the matches: the total of the search is counted, alone and beside
    // other filters.
    let (page, total) = list(&app, &u, "/api/companies?q=bath&limit=1").await;
    assert_eq!((page.len(), total), (1, 2));
    let (page, total) = list(&app, &u, "/api/companies?q=bath&state=TX&limit=1").await;
    assert_eq!((page.len(), total), (1, 2));
    let (page, total) = list(&app, &u, "/api/companies?q=bath&status=qualified&limit=1").await;
    assert_eq!(
        (names(&page).join(","), total),
        ("Lone Star Baths".to_string(), 1)
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

/// A search's pages, whichever way the page is read (SQLite walks the list order's index for a
/// term that matches many, sorts the matches of a rare one): the list's order, each company once,
/// and the same total on every page, past the last one too.
async fn search_pages_in_list_order(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    // Equal scores in pairs, so the name decides between them.
    for (name, score) in [
        ("Gulf Bath Co", 90),
        ("alpine Bath Works", 90),
        ("Prairie Bath Pros", 75),
        ("Canyon Bath Group", 75),
        ("Harbor Bath Solutions", 60),
        ("Delta Bath Co", 40),
        ("Summit Bath Works", 95),
        ("Bayou Bath Pros", 20),
    ] {
        create(&app, &u, json!({"name": name, "score": score})).await;
    }
    for (name, score) in [
        ("Desert Tile", 99),
        ("Mesa Showers", 50),
        ("Ridge Kitchens", 10),
    ] {
        create(&app, &u, json!({"name": name, "score": score})).await;
    }
    let order = [
        "Summit Bath Works",
        "alpine Bath Works",
        "Gulf Bath Co",
        "Canyon Bath Group",
        "Prairie Bath Pros",
        "Harbor Bath Solutions",
        "Delta Bath Co",
        "Bayou Bath Pros",
    ];
    let in_order = |items: &[Value]| -> Vec<String> {
        items
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_string())
            .collect()
    };
    for limit in [3, 8, 50] {
        let mut walked = Vec::new();
        let mut offset = 0;
        while offset < order.len() {
            let path = format!("/api/companies?q=bath&limit={limit}&offset={offset}");
            let (page, total) = list(&app, &u, &path).await;
            assert_eq!(total, 8, "{path}");
            walked.extend(in_order(&page));
            offset += limit;
        }
        assert_eq!(walked, order, "pages of {limit}");
    }
    // Sorted by a column: the matches are read and sorted.
    let mut by_name = order.to_vec();
    by_name.sort_by_key(|n| n.to_lowercase());
    let mut walked = Vec::new();
    for offset in [0, 3, 6] {
        let path = format!("/api/companies?q=bath&sort=name&limit=3&offset={offset}");
        let (page, total) = list(&app, &u, &path).await;
        assert_eq!(total, 8, "{path}");
        walked.extend(in_order(&page));
    }
    assert_eq!(walked, by_name);
    let (page, total) = list(&app, &u, "/api/companies?q=bath&limit=3&offset=9").await;
    assert_eq!((page.len(), total), (0, 8), "past the last page");
    // One match among eleven: its page and total.
    let (page, total) = list(&app, &u, "/api/companies?q=harbor%20bath&limit=3").await;
    assert_eq!(
        (in_order(&page), total),
        (vec!["Harbor Bath Solutions".to_string()], 1)
    );
    let (page, total) = list(&app, &u, "/api/companies?q=zzqxv&limit=3").await;
    assert_eq!((page.len(), total), (0, 0));

    // More matches than are counted (1,000 past the offset): the order holds, the total says so.
    exec!(
        &app.db,
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000)
         INSERT INTO companies (id, name, score, status, created_at, updated_at)
         SELECT 'ZB' || i, 'Zed Bath ' || i, 10, 'discovered', 0, 0 FROM n"
    );
    // "Zed Bath 1000", the last company written, sorts fourth of them.
    let zeds = ["Zed Bath 1", "Zed Bath 10", "Zed Bath 100", "Zed Bath 1000"];
    let from_six: Vec<&str> = order[6..].iter().chain(&zeds).copied().collect();
    for (limit, offset, names, total, exact) in [
        (3, 0, &order[..3], 1000, "false"),
        (6, 6, &from_six[..], 1006, "false"),
        (
            3,
            1005,
            &["Zed Bath 997", "Zed Bath 998", "Zed Bath 999"][..],
            1008,
            "true",
        ),
    ] {
        let path = format!("/api/companies?q=bath&limit={limit}&offset={offset}");
        let res = u.get(app.url(&path)).send().await.unwrap();
        assert_eq!(res.status(), 200, "{path}");
        let header = |name: &str| {
            res.headers()
                .get(name)
                .map_or("true", |v| v.to_str().unwrap())
                .to_string()
        };
        let counted = (header("x-total-count"), header("x-total-count-exact"));
        let page: Vec<Value> = res.json().await.unwrap();
        assert_eq!(in_order(&page), names, "{path}");
        assert_eq!(counted, (total.to_string(), exact.to_string()), "{path}");
    }
    app.stop().await;
}

/// A search alone answers as a substring of the searched text whichever way it is read (on
/// Postgres, from the words of migration 0045 for a term of letters; the trigram index for one with
/// digits), and keeps answering so after renames, score changes, deletes and a bulk statement.
async fn search_by_words_follows_writes(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    let mut ids = std::collections::BTreeMap::new();
    let mut companies: Vec<(String, i64)> = [
        ("Harbor Bath Works", 50),
        ("Arbor Tile Co", 60),
        ("Harborview Showers", 70),
        ("Bath & Kitchen Pros", 80),
        ("Moore's Bath Group", 40),
        ("O'Neil Remodeling", 30),
        ("Zed Bath Works 12", 20),
        // Created last, listed first: a page in creation order would miss it.
        ("Bath Depot", 90),
    ]
    .iter()
    .map(|(n, s)| (n.to_string(), *s))
    .collect();
    for (name, score) in &companies {
        let id = create(&app, &u, json!({"name": name, "score": score})).await;
        ids.insert(name.clone(), id);
    }
    // "bath" and "cedar" (after the rename) fit one word each: read from that word's entries alone.
    let terms = [
        "arbor",
        "bath",
        "harbor bath",
        "or bath w",
        "bath works",
        "moore's",
        "kitchen pros",
        "works 12",
        "b",
        "cedar",
        "nothing here",
    ];
    async fn check(
        app: &TestApp,
        u: &Client,
        companies: &[(String, i64)],
        terms: &[&str],
        when: &str,
    ) {
        for term in terms {
            let mut want: Vec<&(String, i64)> = companies
                .iter()
                .filter(|(n, _)| n.to_lowercase().contains(term))
                .collect();
            want.sort_by(|a, b| {
                b.1.cmp(&a.1)
                    .then(a.0.to_lowercase().cmp(&b.0.to_lowercase()))
            });
            let want: Vec<String> = want.iter().map(|(n, _)| n.clone()).collect();
            let q = term.replace(' ', "%20").replace('&', "%26");
            let (page, total) = list(app, u, &format!("/api/companies?q={q}&limit=50")).await;
            let got: Vec<String> = page
                .iter()
                .map(|c| c["name"].as_str().unwrap().to_string())
                .collect();
            assert_eq!((&got, total), (&want, want.len() as i64), "{term:?} {when}");
            // Pages of two walk the same order.
            let mut walked = Vec::new();
            for offset in (0..want.len().max(1)).step_by(2) {
                let path = format!("/api/companies?q={q}&limit=2&offset={offset}");
                let (page, total) = list(app, u, &path).await;
                assert_eq!(total, want.len() as i64, "{path} {when}");
                walked.extend(page.iter().map(|c| c["name"].as_str().unwrap().to_string()));
            }
            assert_eq!(walked, want, "{term:?} by pages {when}");
        }
    }
    check(&app, &u, &companies, &terms, "after creates").await;

    let rename = |companies: &mut Vec<(String, i64)>, from: &str, to: &str| {
        for c in companies.iter_mut() {
            if c.0 == from {
                c.0 = to.to_string();
            }
        }
    };
    let path = format!("/api/companies/{}", ids["Arbor Tile Co"]);
    let (s, v) = send(
        &app,
        &u,
        "PUT",
        &path,
        Some(json!({"name": "Cedar Tile Co"})),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    rename(&mut companies, "Arbor Tile Co", "Cedar Tile Co");
    let path = format!("/api/companies/{}", ids["Harbor Bath Works"]);
    let (s, v) = send(&app, &u, "PUT", &path, Some(json!({"score": 99}))).await;
    assert_eq!(s, 200, "{v}");
    companies[0].1 = 99;
    check(&app, &u, &companies, &terms, "after a rename and a score").await;

    let path = format!("/api/companies/{}", ids["Harborview Showers"]);
    let (s, _) = send(&app, &u, "DELETE", &path, None).await;
    assert_eq!(s, 204);
    companies.retain(|c| c.0 != "Harborview Showers");
    exec!(
        &app.db,
        "UPDATE companies SET name = 'Harbor Bath Co', score = 10 WHERE name = 'Zed Bath Works 12'"
    );
    rename(&mut companies, "Zed Bath Works 12", "Harbor Bath Co");
    for c in companies.iter_mut().filter(|c| c.0 == "Harbor Bath Co") {
        c.1 = 10;
    }
    check(
        &app,
        &u,
        &companies,
        &terms,
        "after a delete and a bulk update",
    )
    .await;
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
    let mid = create(&app, &u, json!({"name": "Mid", "state": "TX", "revenue": 5000000, "employees": 51, "status": "interested", "score": 70})).await;
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
    // Each company's best contacts are its own: Mid's best scores above any of Big's.
    contact(&app, &u, &mid, 10, 55).await;
    contact(&app, &u, &mid, 11, 95).await;

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
    let m = &companies[1];
    assert_eq!(
        m["contacts"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| (
                c["score"].as_i64().unwrap(),
                c["companyName"].as_str().unwrap()
            ))
            .collect::<Vec<_>>(),
        [(95, "Mid"), (55, "Mid")]
    );
    assert_eq!(m["moreContacts"], 0);
    assert_eq!(companies[2]["contacts"], json!([]));
    // A later page is read apart on Postgres (its cards, then their contacts): the same cards.
    for (offset, card) in companies.iter().enumerate().skip(1) {
        let page = app
            .get_json(
                &u,
                &format!("/api/companies/report?state=TX&limit=1&offset={offset}"),
            )
            .await;
        assert_eq!(
            (&page["totalCompanies"], &page["companies"]),
            (&json!(3), &json!([card])),
            "page {offset}"
        );
    }

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

/// One company of the sort test, as stored.
#[derive(Clone, Copy)]
struct SortRow {
    id: &'static str,
    name: &'static str,
    state: Option<&'static str>,
    city: Option<&'static str>,
    score: i64,
    revenue: Option<i64>,
    employees: Option<i64>,
    status: &'static str,
    created: i64,
}

/// NULLs last in both directions, as the contract says.
fn nulls_last<T: Ord>(a: Option<T>, b: Option<T>, desc: bool) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (a, b) {
        (Some(a), Some(b)) if desc => b.cmp(&a),
        (Some(a), Some(b)) => a.cmp(&b),
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (None, None) => Ordering::Equal,
    }
}

/// The ids in the contract's order for `key`, ties on id in the same direction.
fn sorted_ids(rows: &[SortRow], key: &str, desc: bool) -> Vec<String> {
    let mut rows = rows.to_vec();
    rows.sort_by(|a, b| {
        let dir = |o: std::cmp::Ordering| if desc { o.reverse() } else { o };
        let lower = |s: Option<&str>| s.map(str::to_lowercase);
        match key {
            "created" => dir(a.created.cmp(&b.created)),
            "name" => dir(a.name.to_lowercase().cmp(&b.name.to_lowercase())),
            "state" => nulls_last(a.state, b.state, desc)
                .then_with(|| nulls_last(lower(a.city), lower(b.city), desc)),
            "score" => dir(a.score.cmp(&b.score)),
            "revenue" => nulls_last(a.revenue, b.revenue, desc),
            "employees" => nulls_last(a.employees, b.employees, desc),
            _ => dir(a.status.cmp(b.status)),
        }
        .then_with(|| dir(a.id.cmp(b.id)))
    });
    rows.iter().map(|r| r.id.to_string()).collect()
}

/// Every page of `path` (3 rows each), in order; and the totals the pages gave.
async fn walk(app: &TestApp, c: &Client, path: &str) -> (Vec<String>, Vec<i64>) {
    let (mut ids, mut totals) = (Vec::new(), Vec::new());
    let sep = if path.contains('?') { '&' } else { '?' };
    for offset in (0..).step_by(3) {
        let (items, total) = list(app, c, &format!("{path}{sep}limit=3&offset={offset}")).await;
        totals.push(total);
        ids.extend(items.iter().map(|c| c["id"].as_str().unwrap().to_string()));
        if items.len() < 3 {
            break;
        }
    }
    (ids, totals)
}

async fn export(app: &TestApp, c: &Client, query: &str) -> (u16, String) {
    let res = c
        .get(app.url(&format!("/api/companies/export?{query}")))
        .send()
        .await
        .unwrap();
    let status = res.status().as_u16();
    if status == 200 {
        let disposition = res.headers()["content-disposition"].to_str().unwrap();
        assert!(
            disposition.contains("companies-export.csv"),
            "{disposition}"
        );
    }
    (status, res.text().await.unwrap())
}

/// The companies table's sort (each key both ways, NULLs last, ties on id, pages that never
/// repeat a row), its default order kept without a sort, and the export of a filter or a pick.
async fn list_sorts_and_export(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    let t = 1_700_000_000_000_i64;
    let row = |id, name, state, city, score, revenue, employees, status, created| SortRow {
        id,
        name,
        state,
        city,
        score,
        revenue,
        employees,
        status,
        created: t + created,
    };
    let rows = [
        row(
            "K01",
            "acme",
            Some("TX"),
            Some("austin"),
            80,
            Some(1000),
            Some(10),
            "prospect",
            1,
        ),
        row(
            "K02",
            "Acme",
            Some("TX"),
            Some("Austin"),
            80,
            None,
            None,
            "discovered",
            2,
        ),
        row(
            "K03",
            "baths",
            Some("AZ"),
            Some("phoenix"),
            60,
            Some(5000),
            Some(50),
            "qualified",
            3,
        ),
        row("K04", "cabin", None, None, 95, None, Some(20), "partner", 3),
        row(
            "K05",
            "delta",
            Some("TX"),
            Some("dallas"),
            60,
            Some(1000),
            None,
            "discovered",
            5,
        ),
        row(
            "K06",
            "echo",
            Some("AZ"),
            None,
            10,
            Some(300),
            Some(5),
            "contacted",
            6,
        ),
        row(
            "K07",
            "fern",
            Some("CA"),
            Some("fresno"),
            95,
            Some(8000),
            Some(50),
            "interested",
            7,
        ),
    ];
    let text = |v: Option<&str>| v.map_or("NULL".to_string(), |v| format!("'{v}'"));
    let num = |v: Option<i64>| v.map_or("NULL".to_string(), |v| v.to_string());
    for r in &rows {
        exec!(
            &app.db,
            format!(
                "INSERT INTO companies (id, name, state, city, score, revenue, employees, status,
                     created_at, updated_at)
                 VALUES ('{}', '{}', {}, {}, {}, {}, {}, '{}', {}, {})",
                r.id,
                r.name,
                text(r.state),
                text(r.city),
                r.score,
                num(r.revenue),
                num(r.employees),
                r.status,
                r.created,
                r.created
            )
        );
    }
    exec!(
        &app.db,
        "UPDATE companies SET industry = 'Remodeling', website = 'https://acme.test',
             phone = '+1 555' WHERE id = 'K01'"
    );

    // No sort: best score first, then name, as before.
    let (ids, totals) = walk(&app, &u, "/api/companies").await;
    assert_eq!(ids, ["K04", "K07", "K01", "K02", "K03", "K05", "K06"]);
    assert_eq!(totals, [7, 7, 7]);
    for (key, default_desc) in [
        ("created", true),
        ("name", false),
        ("state", false),
        ("score", true),
        ("revenue", true),
        ("employees", true),
        ("status", false),
    ] {
        for (dir, desc) in [("", default_desc), ("&dir=asc", false), ("&dir=desc", true)] {
            let path = format!("/api/companies?sort={key}{dir}");
            let (ids, totals) = walk(&app, &u, &path).await;
            assert_eq!(ids, sorted_ids(&rows, key, desc), "{path}");
            assert_eq!(totals, [7, 7, 7], "{path}");
        }
    }
    let texans: Vec<SortRow> = rows
        .iter()
        .filter(|r| r.state == Some("TX"))
        .copied()
        .collect();
    let (ids, totals) = walk(&app, &u, "/api/companies?state=TX&sort=revenue&dir=asc").await;
    assert_eq!(ids, sorted_ids(&texans, "revenue", false));
    assert_eq!(totals, [3, 3]);
    let (ids, _) = walk(&app, &u, "/api/companies?ids=K06,K01,K04&sort=employees").await;
    assert_eq!(ids, ["K04", "K01", "K06"]);
    for (path, field) in [
        ("/api/companies?sort=lastContacted", "sort"),
        ("/api/companies?sort=name&dir=sideways", "dir"),
        ("/api/companies/export?sort=company", "sort"),
    ] {
        let (s, v) = send(&app, &u, "GET", path, None).await;
        assert_eq!(s, 422, "{path}: {v}");
        assert_eq!(v["message"], v["errors"][field], "{v}");
    }
    let (_, v) = send(&app, &u, "GET", "/api/companies?sort=x", None).await;
    assert_eq!(
        v["errors"]["sort"],
        "sort must be one of: created, name, state, score, revenue, employees, status"
    );

    // The export: the list's filters and the picked ids, in the sort, formulas defused.
    let (s, body) = export(&app, &u, "ids=K01,K03,K06&sort=name&dir=desc").await;
    assert_eq!(s, 200, "{body}");
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(
        lines,
        [
            "Name,Industry,Status,Score,Revenue,Employees,City,State,Website,Phone",
            "echo,,contacted,10,300,5,,AZ,,",
            "baths,,qualified,60,5000,50,phoenix,AZ,,",
            "acme,Remodeling,prospect,80,1000,10,austin,TX,https://acme.test,'+1 555",
        ],
        "{body}"
    );
    let (s, body) = export(&app, &u, "ids=K01,K03,K06&state=TX").await;
    assert_eq!((s, body.lines().count()), (200, 2), "{body}");
    let (s, body) = export(&app, &u, "").await;
    assert_eq!((s, body.lines().count()), (200, 8), "{body}");
    let (s, body) = export(&app, &u, "ids=K06&status=partner").await;
    assert_eq!(s, 404);
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"message": "No companies to export"})
    );
    app.stop().await;
}

/// Bulk status (all or nothing, one activity per change, shown in the timeline) and deletes: one
/// or many in one transaction; the companies' contacts and deals stay, without a company.
async fn bulk_status_and_delete(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    let a = create(
        &app,
        &u,
        json!({"name": "Alpha Baths", "state": "TX", "score": 90}),
    )
    .await;
    let b = create(
        &app,
        &u,
        json!({"name": "Beta Tubs", "state": "TX", "score": 40}),
    )
    .await;
    let c = create(&app, &u, json!({"name": "Gamma Showers", "state": "AZ"})).await;
    contact(&app, &u, &a, 1, 70).await;
    contact(&app, &u, &a, 2, 60).await;
    let (s, deal) = send(
        &app,
        &u,
        "POST",
        "/api/deals",
        Some(json!({"title": "Alpha remodel", "value": 5000, "companyId": a})),
    )
    .await;
    assert_eq!(s, 201, "{deal}");
    let deal = deal["id"].as_str().unwrap().to_string();
    for path in ["/api/notes", "/api/tasks"] {
        let body = json!({"entityType": "company", "entityId": a, "body": "n", "title": "t"});
        let (s, v) = send(&app, &u, "POST", path, Some(body)).await;
        assert_eq!(s, 201, "{v}");
    }
    let bulk =
        async |body: Value| send(&app, &u, "POST", "/api/companies/bulk-status", Some(body)).await;
    let statuses = async || {
        let (items, _) = list(&app, &u, "/api/companies?sort=name").await;
        items
            .iter()
            .map(|c| c["status"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };

    let (s, v) = bulk(json!({"companyIds": [a, b], "status": "partner"})).await;
    assert_eq!((s, v["updated"].as_i64()), (200, Some(2)), "{v}");
    assert_eq!(v["message"], "2 companies set to Partner");
    assert_eq!(statuses().await, ["partner", "partner", "discovered"]);
    assert!(
        activity_kinds(&app, &u, &b)
            .await
            .contains(&"company_status_change".to_string())
    );
    let timeline = app
        .get_json(&u, &format!("/api/companies/{a}/timeline"))
        .await;
    let items = timeline["items"].as_array().unwrap();
    assert!(
        items
            .iter()
            .any(|i| i["kind"] == "status_changed" && i["title"] == "Status changed to Partner"),
        "{timeline}"
    );
    let (s, v) = bulk(json!({"companyIds": [a, b, a], "status": "partner"})).await;
    assert_eq!(
        (s, v["matched"].as_i64(), v["updated"].as_i64()),
        (200, Some(2), Some(0)),
        "{v}"
    );
    // Unknown ids, bad statuses, nothing or too much picked: nothing changes.
    let (s, v) = bulk(json!({"companyIds": [c, "01UNKNOWN"], "status": "qualified"})).await;
    assert_eq!(s, 404, "{v}");
    assert!(v["message"].as_str().unwrap().contains("01UNKNOWN"), "{v}");
    let (s, v) = bulk(json!({"companyIds": [c], "status": "customer"})).await;
    assert_eq!((s, v["errors"]["status"].is_string()), (422, true), "{v}");
    let (s, v) = bulk(json!({"companyIds": [], "status": "qualified"})).await;
    assert_eq!(
        (s, v["errors"]["companyIds"].is_string()),
        (422, true),
        "{v}"
    );
    let many: Vec<String> = (0..1001).map(|i| format!("X{i}")).collect();
    let (s, _) = bulk(json!({"companyIds": many, "status": "qualified"})).await;
    assert_eq!(s, 422);
    assert_eq!(statuses().await, ["partner", "partner", "discovered"]);

    // One delete: 204, then 404; its contacts and deal stay without it; its notes and tasks go.
    let (s, _) = send(&app, &u, "DELETE", &format!("/api/companies/{a}"), None).await;
    assert_eq!(s, 204);
    let (s, v) = send(&app, &u, "DELETE", &format!("/api/companies/{a}"), None).await;
    assert_eq!((s, v), (404, json!({"message": "Company not found"})));
    let (s, _) = send(&app, &u, "GET", &format!("/api/companies/{a}"), None).await;
    assert_eq!(s, 404);
    let (contacts, total) = list(&app, &u, "/api/contacts").await;
    assert_eq!(total, 2);
    assert!(
        contacts.iter().all(|c| c["companyId"].is_null()),
        "{contacts:?}"
    );
    let (s, d) = send(&app, &u, "GET", &format!("/api/deals/{deal}"), None).await;
    assert_eq!((s, &d["companyId"]), (200, &Value::Null), "{d}");
    for table in ["notes", "tasks"] {
        let n: i64 = scalar!(&app.db, i64, format!("SELECT COUNT(*) FROM {table}"));
        assert_eq!(n, 0, "{table}");
    }
    // The feed keeps its history without pointing at it, and says it was deleted.
    assert_eq!(activity_kinds(&app, &u, &a).await, ["company_deleted"]);
    let feed = app.get_json(&u, "/api/activities?limit=100").await;
    let deleted = feed
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "company_deleted")
        .unwrap();
    assert_eq!(deleted["summary"], "Company Alpha Baths deleted");
    let kept = feed
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "company_status_change" && e["entityId"].is_null())
        .count();
    assert_eq!(kept, 1, "{feed}");

    // Many at once, all or nothing.
    let (s, v) = send(
        &app,
        &u,
        "POST",
        "/api/companies/bulk-delete",
        Some(json!({"companyIds": [b, "01UNKNOWN"]})),
    )
    .await;
    assert_eq!(s, 404, "{v}");
    let (s, v) = send(
        &app,
        &u,
        "POST",
        "/api/companies/bulk-delete",
        Some(json!({"companyIds": []})),
    )
    .await;
    assert_eq!(
        (s, v["errors"]["companyIds"].is_string()),
        (422, true),
        "{v}"
    );
    let (_, total) = list(&app, &u, "/api/companies").await;
    assert_eq!(total, 2);
    let (s, v) = send(
        &app,
        &u,
        "POST",
        "/api/companies/bulk-delete",
        Some(json!({"companyIds": [b, c]})),
    )
    .await;
    assert_eq!((s, v["deleted"].as_i64()), (200, Some(2)), "{v}");
    assert_eq!(v["message"], "Deleted 2 companies");
    let (items, total) = list(&app, &u, "/api/companies?state=TX").await;
    assert_eq!((items.len(), total), (0, 0), "the rollup's count follows");
    let report = app.get_json(&u, "/api/companies/report").await;
    assert_eq!(report["totalCompanies"], 0, "{report}");
    app.stop().await;
}

/// `GET /api/companies/{id}` without its contacts and website facts: what a list shows of it.
async fn company_alone(app: &TestApp, c: &Client, id: &str) -> Value {
    let mut v = app.get_json(c, &format!("/api/companies/{id}")).await;
    let fields = v.as_object_mut().unwrap();
    fields.remove("contacts");
    fields.remove("enrichment");
    v
}

/// Each list path's items that are one of `ids` equal the company as read alone (its contacts
/// too, with `include=contacts`), and every one of `ids` is on the list; the report's cards are
/// the same with the description cut to 200 characters and the first three contacts.
async fn lists_show_the_companies(app: &TestApp, c: &Client, ids: &[&str]) {
    let mut alone = Vec::new();
    for id in ids {
        alone.push(company_alone(app, c, id).await);
    }
    let mut seen = std::collections::HashSet::new();
    for path in [
        "/api/companies",
        "/api/companies?sort=name",
        "/api/companies?sort=revenue&dir=asc&limit=1&offset=1",
        "/api/companies?state=TX",
        "/api/companies?scoreBand=high",
        "/api/companies?q=sons",
        "/api/companies?q=ba",
        "/api/companies?q=bath&state=TX",
        "/api/companies?q=bath&offset=1",
        "/api/companies?include=contacts",
        &format!("/api/companies?ids={}", ids.join(",")),
    ] {
        let (items, _) = list(app, c, path).await;
        for item in &items {
            let Some(want) = alone.iter().find(|a| a["id"] == item["id"]) else {
                continue;
            };
            seen.insert(want["id"].as_str().unwrap().to_string());
            let mut item = item.clone();
            if path.contains("include=contacts") {
                let listed = item.as_object_mut().unwrap().remove("contacts").unwrap();
                let record = app
                    .get_json(
                        c,
                        &format!("/api/companies/{}", want["id"].as_str().unwrap()),
                    )
                    .await;
                assert_eq!(listed, record["contacts"], "{path}");
            }
            assert_eq!(&item, want, "{path}");
        }
    }
    assert_eq!(seen.len(), ids.len(), "every company is listed");
    let report = app.get_json(c, "/api/companies/report?state=TX").await;
    for card in report["companies"].as_array().unwrap() {
        let Some(want) = alone.iter().find(|a| a["id"] == card["id"]) else {
            continue;
        };
        let record = app
            .get_json(
                c,
                &format!("/api/companies/{}", want["id"].as_str().unwrap()),
            )
            .await;
        let contacts = record["contacts"].as_array().unwrap();
        let mut want = want.clone();
        let cut: Option<String> = want["description"]
            .as_str()
            .map(|d| d.chars().take(200).collect());
        want["description"] = json!(cut);
        want["contacts"] = json!(contacts[..contacts.len().min(3)]);
        want["moreContacts"] = json!(contacts.len().saturating_sub(3));
        assert_eq!(card, &want, "report");
    }
}

/// The lists and the report read each company's card (migration 0042), kept by triggers: every
/// field of every list path and of the report stays the company as `GET /api/companies/{id}`
/// reads it, through edits by the api and by raw SQL, sources added, moved and removed, and
/// contacts added and removed.
async fn list_items_are_the_company_as_read_alone(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let u = app.user().await;
    let long = format!("Ünïcode \"quoted\" </script>\n{}", "é".repeat(300));
    let full = create(
        &app,
        &u,
        json!({"name": "Åsa & \"Sons\" Bath", "industry": "Bath Remodeling", "status": "qualified",
               "revenue": 2500000, "employees": 42, "score": 88, "website": "https://asa.example",
               "phone": "+1 512 555 0100", "address": "1 Main St", "city": "Austin", "state": "TX",
               "zipCode": "78701", "description": long}),
    )
    .await;
    let bare = create(&app, &u, json!({"name": "Bare Bath", "state": "tx"})).await;
    exec!(
        &app.db,
        "UPDATE companies SET founded = 1987, growth_rate = 12.5, competitor_alignment = 64,
             discovered_at = 1732000000000, last_contacted_at = 1700000000999,
             discovery_source = 'city_state_search', discovery_city = 'Austin',
             discovery_state = 'TX', discovery_region = 'Central',
             discovery_metadata = $2, competitive_analysis = $3, lead_qualification = $4,
             has_enhanced_data = TRUE, prospect_score = 71, is_deal = TRUE WHERE id = $1",
        &full,
        sqlx::types::Json(json!({"query": "bath \"pros\"", "rank": 1.5, "tags": ["a", null]})),
        sqlx::types::Json(json!({"brands": ["Kohler"], "share": 0.25})),
        sqlx::types::Json(json!({"fit": true, "notes": "ü"}))
    );
    for (source, seen) in [("osm", 2_i64), ("catalog", 1)] {
        exec!(
            &app.db,
            "INSERT INTO company_sources (company_id, source, first_seen_at, last_seen_at)
             VALUES ($1, $2, $3, $3)",
            &full,
            source,
            seen
        );
    }
    for n in 0..4 {
        contact(&app, &u, &full, n, 50 + n as i64).await;
    }
    contact(&app, &u, &bare, 9, 10).await;
    let one = company_alone(&app, &u, &full).await;
    assert_eq!(one["sources"], json!(["catalog", "osm"]), "{one}");
    assert_eq!(one["contactCount"], 4);
    assert_eq!(one["revenue"], "2500000");
    assert_eq!(one["location"], "Austin, TX");
    assert_eq!(one["discoveredAt"], "2024-11-19T07:06:40.000Z");
    assert_eq!(one["lastContactedAt"], "2023-11-14T22:13:20.999Z");
    assert_eq!(one["growthRate"], 12.5);
    assert_eq!(one["isDeal"], true);
    assert_eq!(company_alone(&app, &u, &bare).await["sources"], json!([]));
    let ids = [full.as_str(), bare.as_str()];
    lists_show_the_companies(&app, &u, &ids).await;

    let (code, v) = send(
        &app,
        &u,
        "PUT",
        &format!("/api/companies/{full}"),
        Some(json!({"name": "Renamed \"Bath\" Sons", "city": "El Paso", "status": "partner"})),
    )
    .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        company_alone(&app, &u, &full).await["location"],
        "El Paso, TX"
    );
    lists_show_the_companies(&app, &u, &ids).await;

    // A merge moves sources; a re-scan moves only last_seen_at; a source is removed.
    exec!(
        &app.db,
        "UPDATE company_sources SET company_id = $2 WHERE company_id = $1 AND source = 'osm'",
        &full,
        &bare
    );
    exec!(
        &app.db,
        "UPDATE company_sources SET last_seen_at = 99 WHERE company_id = $1",
        &full
    );
    assert_eq!(
        company_alone(&app, &u, &bare).await["sources"],
        json!(["osm"])
    );
    lists_show_the_companies(&app, &u, &ids).await;
    exec!(
        &app.db,
        "DELETE FROM company_sources WHERE company_id = $1",
        &full
    );
    exec!(
        &app.db,
        "UPDATE companies SET growth_rate = NULL, is_deal = FALSE, city = NULL,
             description = 'short' WHERE id = $1",
        &full
    );
    let one = company_alone(&app, &u, &full).await;
    assert_eq!(
        [&one["sources"], &one["location"], &one["isDeal"]],
        [&json!([]), &json!("TX"), &json!(false)]
    );
    lists_show_the_companies(&app, &u, &ids).await;

    // The contact count follows contacts added, moved away and deleted.
    let contacts = app.get_json(&u, &format!("/api/companies/{full}")).await["contacts"].clone();
    let first = contacts[0]["id"].as_str().unwrap().to_string();
    let second = contacts[1]["id"].as_str().unwrap().to_string();
    let (code, v) = send(&app, &u, "DELETE", &format!("/api/contacts/{first}"), None).await;
    assert!(code == 200 || code == 204, "{code} {v}");
    exec!(
        &app.db,
        "UPDATE contacts SET company_id = $2 WHERE id = $1",
        &second,
        &bare
    );
    let (one, other) = (
        company_alone(&app, &u, &full).await,
        company_alone(&app, &u, &bare).await,
    );
    assert_eq!([&one["contactCount"], &other["contactCount"]], [2, 2]);
    lists_show_the_companies(&app, &u, &ids).await;
    app.stop().await;
}

both_backends!(
    create_and_validation,
    list_filters,
    search_pages_in_list_order,
    search_by_words_follows_writes,
    edit_dialog_and_status,
    customer_report,
    list_sorts_and_export,
    bulk_status_and_delete,
    list_items_are_the_company_as_read_alone,
);
