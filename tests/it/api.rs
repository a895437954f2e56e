//! The HTTP API as its callers see it: access rules for every declared route, admin and ordinary
//! sign-in, login rate limits, bad input (never a 500, never half-written), the ops screens, health
//! and metrics, and the web app fallback. Every test runs on SQLite and on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::*;
use reqwest::{Client, Method, Response, StatusCode};
use serde_json::{Value, json};

fn no_worker() -> AppOptions {
    AppOptions {
        worker: false,
        ..Default::default()
    }
}

fn fresh_id() -> String {
    ulid::Ulid::new().to_string()
}

/// Status and JSON body; panics (with the raw text) when the body is not JSON.
async fn json_of(res: Response) -> (StatusCode, Value) {
    let status = res.status();
    let text = res.text().await.expect("body");
    let v = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("expected a JSON body with {status}, got {text:?}: {e}"));
    (status, v)
}

/// Asserts `status` and a JSON body with a non-empty string `message`; returns the body.
async fn expect_message(res: Response, status: u16, what: &str) -> Value {
    let (got, v) = json_of(res).await;
    assert_eq!(got.as_u16(), status, "{what}: body {v}");
    let msg = v["message"].as_str().unwrap_or_default();
    assert!(!msg.is_empty(), "{what}: expected a message, got {v}");
    v
}

async fn total_count(app: &TestApp, admin: &Client, query: &str) -> (Vec<Value>, i64) {
    let res = admin
        .get(app.url(&format!("/api/ops/jobs{query}")))
        .send()
        .await
        .expect("list jobs");
    assert_eq!(res.status(), 200, "list {query}");
    let total = res
        .headers()
        .get("x-total-count")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<i64>().ok())
        .expect("X-Total-Count header");
    let items: Vec<Value> = res.json().await.expect("json");
    (items, total)
}

// ---------------------------------------------------------------------------------------------
// 1. Route walk
// ---------------------------------------------------------------------------------------------

async fn call(app: &TestApp, client: &Client, method: &Method, path: &str) -> Response {
    let path = path.replace("{id}", &fresh_id());
    let mut req = client.request(method.clone(), app.url(&path));
    if *method == Method::POST {
        req = req.json(&json!({}));
    }
    req.send().await.expect("request")
}

async fn route_walk(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let table = api::route_table();
    assert!(!table.is_empty(), "the route table is empty");
    for path in ["/api/ops/jobs", "/api/jobs/{id}", "/api/admin/login"] {
        assert!(
            table.iter().any(|r| r.path == path),
            "{path} missing from the route table"
        );
    }
    let method =
        |r: &api::RouteInfo| Method::from_bytes(r.method.as_str().as_bytes()).expect("method");

    // Without a session: every non-public route is a JSON 401; public ones are reachable.
    let anon = app.anonymous();
    for r in &table {
        let m = method(r);
        let res = call(&app, &anon, &m, r.path).await;
        let what = format!("anonymous {m} {}", r.path);
        assert!(res.status().as_u16() < 500, "{what}: {}", res.status());
        if r.access == api::Access::Public {
            assert!(
                ![401, 403].contains(&res.status().as_u16()),
                "{what} is public but answered {}",
                res.status()
            );
        } else {
            expect_message(res, 401, &what).await;
        }
    }

    // An ordinary session: admin routes are a JSON 403, user routes are allowed. Public routes are
    // skipped here (the logout ones would end the session being tested).
    let user = app.user().await;
    for r in table.iter().filter(|r| r.access != api::Access::Public) {
        let m = method(r);
        let res = call(&app, &user, &m, r.path).await;
        let what = format!("user {m} {}", r.path);
        assert!(res.status().as_u16() < 500, "{what}: {}", res.status());
        match r.access {
            api::Access::Admin => {
                expect_message(res, 403, &what).await;
            }
            _ => assert!(
                ![401, 403].contains(&res.status().as_u16()),
                "{what} answered {}",
                res.status()
            ),
        }
    }
    let res = user
        .get(app.url("/api/auth/user"))
        .send()
        .await
        .expect("me");
    assert_eq!(res.status(), 200, "the user session survived the walk");

    // An admin session passes every access check.
    let admin = app.admin().await;
    for r in table.iter().filter(|r| r.access != api::Access::Public) {
        let m = method(r);
        let res = call(&app, &admin, &m, r.path).await;
        let s = res.status().as_u16();
        assert!(
            s < 500 && s != 401 && s != 403,
            "admin {m} {} answered {s}",
            r.path
        );
    }
    app.stop().await;
}

// ---------------------------------------------------------------------------------------------
// 2. Admin login
// ---------------------------------------------------------------------------------------------

async fn login(client: &Client, app: &TestApp, path: &str, body: Value) -> Response {
    client
        .post(app.url(path))
        .json(&body)
        .send()
        .await
        .expect("login")
}

async fn admin_login_flow(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let c = app.anonymous();
    let failed = json!({ "message": "Login failed. Please check your credentials." });

    let res = login(
        &c,
        &app,
        "/api/admin/login",
        json!({"email": "nobody@test.local", "password": PASSWORD}),
    )
    .await;
    assert_eq!(
        json_of(res).await,
        (StatusCode::UNAUTHORIZED, failed.clone()),
        "unknown address"
    );

    let res = login(
        &c,
        &app,
        "/api/admin/login",
        json!({"email": ADMIN_EMAIL, "password": "wrong-password"}),
    )
    .await;
    assert_eq!(
        json_of(res).await,
        (StatusCode::UNAUTHORIZED, failed.clone()),
        "wrong password"
    );

    let res = login(
        &c,
        &app,
        "/api/admin/login",
        json!({"email": USER_EMAIL, "password": PASSWORD}),
    )
    .await;
    assert_eq!(
        json_of(res).await,
        (
            StatusCode::FORBIDDEN,
            json!({ "message": "Only authorized admin accounts can access this panel." })
        ),
        "non-admin user"
    );
    // None of the failures signed anyone in.
    let res = c.get(app.url("/api/auth/user")).send().await.expect("me");
    assert_eq!(res.status(), 401);

    // Missing fields.
    let res = login(&c, &app, "/api/admin/login", json!({})).await;
    let v = expect_message(res, 422, "empty login").await;
    assert!(v["errors"]["email"].is_string(), "{v}");
    assert!(v["errors"]["password"].is_string(), "{v}");
    let res = login(&c, &app, "/api/admin/login", json!({"email": ADMIN_EMAIL})).await;
    let v = expect_message(res, 422, "login without password").await;
    assert!(v["errors"].get("email").is_none(), "{v}");
    assert!(v["errors"]["password"].is_string(), "{v}");
    let res = login(&c, &app, "/api/admin/login", json!({"password": PASSWORD})).await;
    let v = expect_message(res, 422, "login without email").await;
    assert!(v["errors"]["email"].is_string(), "{v}");
    assert!(v["errors"].get("password").is_none(), "{v}");

    // Success.
    let res = login(
        &c,
        &app,
        "/api/admin/login",
        json!({"email": ADMIN_EMAIL, "password": PASSWORD}),
    )
    .await;
    assert_eq!(res.status(), 200);
    let cookies: Vec<String> = res
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().expect("ascii").to_string())
        .collect();
    let session = cookies
        .iter()
        .find(|c| c.starts_with("prospector_session="))
        .unwrap_or_else(|| panic!("no session cookie in {cookies:?}"));
    let lower = session.to_ascii_lowercase();
    assert!(lower.contains("httponly"), "{session}");
    assert!(lower.contains("samesite=lax"), "{session}");
    let token = session["prospector_session=".len()..]
        .split(';')
        .next()
        .expect("value")
        .to_string();
    assert!(!token.is_empty());
    let text = res.text().await.expect("body");
    assert!(!text.contains("$argon2"), "password hash leaked: {text}");
    let body: Value = serde_json::from_str(&text).expect("json");
    assert!(body["id"].as_str().is_some_and(|s| !s.is_empty()), "{body}");
    assert_eq!(body["email"], ADMIN_EMAIL);
    assert_eq!(body["firstName"], "Test");
    assert_eq!(body["lastName"], "Admin");
    assert_eq!(body["isAdmin"], true);
    let obj = body.as_object().expect("object");
    for k in obj.keys() {
        assert!(
            !k.to_ascii_lowercase().contains("password"),
            "{k} in {body}"
        );
    }

    for path in ["/api/admin/user", "/api/auth/user"] {
        let (s, v) = json_of(c.get(app.url(path)).send().await.expect("me")).await;
        assert_eq!(s, 200, "{path}: {v}");
        assert_eq!(v["email"], ADMIN_EMAIL, "{path}");
        assert_eq!(v["isAdmin"], true, "{path}");
        assert!(!v.to_string().contains("$argon2"), "{path}: {v}");
    }

    let res = c
        .post(app.url("/api/admin/logout"))
        .send()
        .await
        .expect("logout");
    assert_eq!(res.status(), 204);
    let res = c.get(app.url("/api/admin/user")).send().await.expect("me");
    expect_message(res, 401, "after logout").await;
    // The session is gone on the server too, not only from this cookie jar.
    let replay = reqwest::Client::new()
        .get(app.url("/api/admin/user"))
        .header("cookie", format!("prospector_session={token}"))
        .send()
        .await
        .expect("replay");
    expect_message(replay, 401, "replayed cookie after logout").await;

    // Addresses are case-insensitive.
    let c2 = app.anonymous();
    let res = login(
        &c2,
        &app,
        "/api/admin/login",
        json!({"email": "ADMIN@TEST.LOCAL", "password": PASSWORD}),
    )
    .await;
    let (s, v) = json_of(res).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["email"], ADMIN_EMAIL);
    let res = c2.get(app.url("/api/admin/user")).send().await.expect("me");
    assert_eq!(res.status(), 200);
    app.stop().await;
}

async fn admin_login_allowlist(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            admin_emails: vec![USER_EMAIL.into()],
            ..Default::default()
        },
    )
    .await;
    let c = app.anonymous();
    let res = login(
        &c,
        &app,
        "/api/admin/login",
        json!({"email": USER_EMAIL, "password": PASSWORD}),
    )
    .await;
    let (s, v) = json_of(res).await;
    assert_eq!(s, 200, "allowlisted user at the admin login: {v}");
    assert_eq!(v["email"], USER_EMAIL);
    assert_eq!(v["isAdmin"], true);
    let (s, v) = json_of(c.get(app.url("/api/admin/user")).send().await.expect("me")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["email"], USER_EMAIL);
    // And the admin area works for them.
    let res = c
        .get(app.url("/api/ops/queues"))
        .send()
        .await
        .expect("queues");
    assert_eq!(res.status(), 200);
    app.stop().await;
}

async fn ordinary_session_is_not_admin(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let user = app.user().await;
    let res = user
        .get(app.url("/api/admin/user"))
        .send()
        .await
        .expect("admin user");
    expect_message(res, 403, "ordinary session on /api/admin/user").await;
    let (s, v) = json_of(
        user.get(app.url("/api/auth/user"))
            .send()
            .await
            .expect("me"),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(v["email"], USER_EMAIL);
    assert_eq!(v["isAdmin"], false);

    // Only the admin login makes an admin session, even for an administrator.
    let admin_plain = app.signed_in("/api/login", ADMIN_EMAIL).await;
    let res = admin_plain
        .get(app.url("/api/admin/user"))
        .send()
        .await
        .expect("admin user");
    expect_message(res, 403, "admin through /api/login on /api/admin/user").await;
    let res = admin_plain
        .get(app.url("/api/ops/jobs"))
        .send()
        .await
        .expect("ops");
    expect_message(res, 403, "admin through /api/login on /api/ops/jobs").await;
    let (s, v) = json_of(
        admin_plain
            .get(app.url("/api/auth/user"))
            .send()
            .await
            .expect("me"),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(v["email"], ADMIN_EMAIL);
    app.stop().await;
}

// ---------------------------------------------------------------------------------------------
// 3. Rate limit
// ---------------------------------------------------------------------------------------------

/// A client whose connections come from `ip` (any 127.x address reaches the server on Linux).
fn client_from(ip: [u8; 4]) -> Client {
    reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(ip))
        .cookie_store(true)
        .build()
        .expect("client")
}

async fn expect_429(res: Response, what: &str) {
    assert_eq!(res.status(), 429, "{what}");
    let retry = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or_else(|| panic!("{what}: Retry-After with whole seconds"));
    assert!((1..=61).contains(&retry), "{what}: Retry-After {retry}");
    expect_message(res, 429, what).await;
}

async fn login_rate_limit(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            login_attempts_per_minute: 3,
            ..Default::default()
        },
    )
    .await;
    let a = client_from([127, 0, 0, 1]);
    let wrong = |email: &str| json!({ "email": email, "password": "wrong-password" });
    for i in 1..=3 {
        let res = login(&a, &app, "/api/admin/login", wrong(ADMIN_EMAIL)).await;
        assert_eq!(res.status(), 401, "attempt {i}");
    }
    let res = login(&a, &app, "/api/admin/login", wrong(ADMIN_EMAIL)).await;
    expect_429(res, "4th attempt for the same address").await;
    // The per-IP quota is spent: another address from the same IP is limited too, even with
    // the right password.
    let res = login(
        &a,
        &app,
        "/api/login",
        json!({"email": USER_EMAIL, "password": PASSWORD}),
    )
    .await;
    expect_429(res, "other address, same IP").await;

    // From another IP the admin signs in: three failures are no lockout of the account (the
    // per-email delay starts later, see login_delay_grows_per_email_and_success_clears) ...
    let b = client_from([127, 0, 0, 2]);
    let res = login(
        &b,
        &app,
        "/api/admin/login",
        json!({"email": ADMIN_EMAIL, "password": PASSWORD}),
    )
    .await;
    let (s, v) = json_of(res).await;
    assert_eq!(s, 200, "same address, other IP: {v}");
    // ... and so does another address (its quota was not spent by rejected attempts).
    let res = login(
        &b,
        &app,
        "/api/login",
        json!({"email": USER_EMAIL, "password": PASSWORD}),
    )
    .await;
    let (s, v) = json_of(res).await;
    assert_eq!(s, 200, "other address from another IP: {v}");
    assert_eq!(v["email"], USER_EMAIL);
    app.stop().await;
}

// ---------------------------------------------------------------------------------------------
// 4. Bad input
// ---------------------------------------------------------------------------------------------

async fn post_raw(
    app: &TestApp,
    c: &Client,
    path: &str,
    body: impl Into<reqwest::Body>,
    json_type: bool,
) -> Response {
    let mut req = c.post(app.url(path)).body(body);
    if json_type {
        req = req.header("content-type", "application/json");
    }
    req.send().await.expect("post")
}

async fn bad_job_input(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;
    let path = "/api/ops/jobs";

    let res = post_raw(&app, &admin, path, r#"{"kind": "noop""#, true).await;
    expect_message(res, 400, "malformed JSON").await;

    let res = post_raw(&app, &admin, path, r#"{"kind": 5}"#, true).await;
    expect_message(res, 422, "kind of the wrong type").await;

    let res = post_raw(&app, &admin, path, r#"{"kind": "noop"}"#, false).await;
    expect_message(res, 415, "no content-type").await;

    let res = admin
        .post(app.url(path))
        .json(&json!({"kind": "nope"}))
        .send()
        .await
        .expect("post");
    assert_eq!(
        json_of(res).await,
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            json!({ "message": "Unknown job kind: nope" })
        )
    );

    let res = admin
        .post(app.url(path))
        .json(&json!({"kind": "noop", "payload": {"sleepMs": "x"}}))
        .send()
        .await
        .expect("post");
    let v = expect_message(res, 422, "payload of the wrong type").await;
    assert!(
        v["message"]
            .as_str()
            .unwrap_or_default()
            .to_lowercase()
            .contains("payload"),
        "{v}"
    );

    let res = admin
        .post(app.url(path))
        .json(&json!({"kind": "noop", "payload": {"sleepMs": 99_999_999}}))
        .send()
        .await
        .expect("post");
    let v = expect_message(res, 422, "payload out of range").await;
    assert!(
        v["message"]
            .as_str()
            .unwrap_or_default()
            .contains("sleepMs"),
        "{v}"
    );

    let res = admin
        .post(app.url(path))
        .json(&json!({"kind": "noop", "surprise": true}))
        .send()
        .await
        .expect("post");
    expect_message(res, 422, "unknown field").await;

    let res = admin
        .post(app.url(path))
        .json(&json!({"kind": "  "}))
        .send()
        .await
        .expect("post");
    let v = expect_message(res, 422, "blank kind").await;
    assert!(v["errors"]["kind"].is_string(), "{v}");

    let res = admin
        .post(app.url(path))
        .json(&json!({"kind": "noop", "idempotencyKey": "k".repeat(201)}))
        .send()
        .await
        .expect("post");
    let v = expect_message(res, 422, "idempotency key too long").await;
    assert!(v["errors"]["idempotencyKey"].is_string(), "{v}");

    // 2 MiB of a body that would be valid (whitespace padding) if it were accepted.
    let big = format!("{{\"kind\":\"noop\"{}}}", " ".repeat(2 * 1024 * 1024));
    // A client of its own: the server closes the connection after refusing the body, so a pooled
    // connection must not be reused by the requests below.
    let one_shot = app.admin().await;
    let res = post_raw(&app, &one_shot, path, big, true).await;
    expect_message(res, 413, "2 MiB body").await;

    let (items, total) = total_count(&app, &admin, "").await;
    assert_eq!(total, 0, "nothing written by rejected requests: {items:?}");
    assert!(items.is_empty());

    // Nor audited.
    let (s, v) = json_of(
        admin
            .get(app.url("/api/ops/audit"))
            .send()
            .await
            .expect("audit"),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(v, json!([]), "audit after rejected requests");

    // The limit counts characters, as the document's maxLength does: 200 two-byte ones fit.
    let (status, job) = send(
        admin
            .post(app.url(path))
            .json(&json!({"kind": "noop", "idempotencyKey": "é".repeat(200)})),
    )
    .await;
    assert_eq!(status, 202, "{job}");
    app.stop().await;
}

async fn bad_queries_and_unknown_ids(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;
    for q in [
        "status=bogus",
        "limit=0",
        "limit=5000",
        "limit=abc",
        "offset=-1",
        "limit=1001",
    ] {
        let res = admin
            .get(app.url(&format!("/api/ops/jobs?{q}")))
            .send()
            .await
            .expect("list");
        expect_message(res, 400, q).await;
    }
    for q in [
        "limit=1",
        "limit=1000",
        "status=queued",
        "status=",
        "kind=unknown_kind",
    ] {
        let res = admin
            .get(app.url(&format!("/api/ops/jobs?{q}")))
            .send()
            .await
            .expect("list");
        assert_eq!(res.status(), 200, "{q}");
    }

    let not_found = (StatusCode::NOT_FOUND, json!({ "message": "Job not found" }));
    let id = fresh_id();
    let user = app.user().await;
    for (c, method, path) in [
        (&user, Method::GET, format!("/api/jobs/{id}")),
        (&admin, Method::GET, format!("/api/jobs/{id}")),
        (&admin, Method::GET, format!("/api/ops/jobs/{id}")),
        (&admin, Method::POST, format!("/api/ops/jobs/{id}/retry")),
        (&admin, Method::POST, format!("/api/ops/jobs/{id}/cancel")),
    ] {
        let res = c
            .request(method.clone(), app.url(&path))
            .send()
            .await
            .expect("req");
        assert_eq!(json_of(res).await, not_found, "{method} {path}");
    }
    // Not a ULID at all: still a clean 404 (or 400), never a 500.
    let res = admin
        .get(app.url("/api/ops/jobs/not-a-ulid"))
        .send()
        .await
        .expect("req");
    assert!(
        [400, 404].contains(&res.status().as_u16()),
        "{}",
        res.status()
    );

    let res = admin
        .get(app.url("/api/nothing"))
        .send()
        .await
        .expect("req");
    expect_message(res, 404, "unknown api path").await;
    let res = app
        .anonymous()
        .get(app.url("/api/nothing"))
        .send()
        .await
        .expect("req");
    let (s, _) = json_of(res).await;
    assert!(s == 404 || s == 401, "anonymous unknown api path: {s}");
    let res = admin
        .delete(app.url("/api/ops/queues"))
        .send()
        .await
        .expect("req");
    expect_message(res, 405, "DELETE /api/ops/queues").await;
    app.stop().await;
}

// ---------------------------------------------------------------------------------------------
// 5. Ops listing
// ---------------------------------------------------------------------------------------------

async fn ops_listing(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let admin = app.admin().await;

    let res = admin
        .post(app.url("/api/ops/jobs"))
        .json(&json!({"kind": "noop"}))
        .send()
        .await
        .expect("enqueue");
    assert_eq!(res.status(), 202);
    let location = res
        .headers()
        .get("location")
        .and_then(|v| v.to_str().ok())
        .expect("Location")
        .to_string();
    let (_, v) = json_of(res).await;
    let first = v["jobId"].as_str().expect("jobId").to_string();
    assert_eq!(v, json!({"jobId": first, "status": "queued"}));
    assert_eq!(location, format!("/api/jobs/{first}"));
    // The Location is where the job can be read.
    let (s, job) = json_of(admin.get(app.url(&location)).send().await.expect("job")).await;
    assert_eq!(s, 200);
    assert_eq!(job["id"], first);
    assert_eq!(job["kind"], "noop");
    assert_eq!(job["status"], "queued");

    let mut ids = vec![first];
    for _ in 0..2 {
        // Distinct creation times, so "newest first" is well defined.
        tokio::time::sleep(Duration::from_millis(5)).await;
        ids.push(app.enqueue(&admin, json!({"kind": "noop"})).await);
    }

    let (items, total) = total_count(&app, &admin, "?limit=2").await;
    assert_eq!(total, 3);
    let got: Vec<&str> = items
        .iter()
        .map(|j| j["id"].as_str().expect("id"))
        .collect();
    assert_eq!(got, vec![ids[2].as_str(), ids[1].as_str()], "newest first");
    let (items, total) = total_count(&app, &admin, "?limit=2&offset=2").await;
    assert_eq!(total, 3);
    let got: Vec<&str> = items
        .iter()
        .map(|j| j["id"].as_str().expect("id"))
        .collect();
    assert_eq!(got, vec![ids[0].as_str()], "second page");

    let (s, queues) = json_of(
        admin
            .get(app.url("/api/ops/queues"))
            .send()
            .await
            .expect("queues"),
    )
    .await;
    assert_eq!(s, 200);
    let queues = queues.as_array().expect("array").clone();
    let noop = queues
        .iter()
        .find(|q| q["kind"] == "noop")
        .expect("noop queue");
    assert_eq!(noop["queued"], 3, "{noop}");
    assert_eq!(noop["running"], 0, "{noop}");
    assert!(
        noop["oldestQueuedAgeSeconds"]
            .as_f64()
            .is_some_and(|a| a >= 0.0),
        "{noop}"
    );
    let prune = queues
        .iter()
        .find(|q| q["kind"] == "prune_jobs")
        .expect("prune_jobs queue");
    assert_eq!(prune["queued"], 0, "{prune}");

    let (s, detail) = json_of(
        admin
            .get(app.url(&format!("/api/ops/jobs/{}", ids[1])))
            .send()
            .await
            .expect("detail"),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(detail["id"], ids[1].as_str());
    assert_eq!(detail["payload"], json!({}));
    assert_eq!(detail["attemptHistory"], json!([]));
    assert_eq!(detail["status"], "queued");

    let later = (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339();
    let res = admin
        .post(app.url("/api/ops/jobs"))
        .json(&json!({"kind": "noop", "payload": {"sleepMs": 10}, "runAt": later}))
        .send()
        .await
        .expect("enqueue later");
    let (s, v) = json_of(res).await;
    assert_eq!(s, 202, "{v}");
    assert_eq!(v["status"], "scheduled");
    let scheduled = v["jobId"].as_str().expect("jobId").to_string();
    let (s, d) = json_of(
        admin
            .get(app.url(&format!("/api/ops/jobs/{scheduled}")))
            .send()
            .await
            .expect("detail"),
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(d["status"], "scheduled");
    assert_eq!(d["payload"], json!({"sleepMs": 10}));

    let (items, total) = total_count(&app, &admin, "?kind=noop&status=queued").await;
    assert_eq!(total, 3);
    assert!(
        items
            .iter()
            .all(|j| j["status"] == "queued" && j["kind"] == "noop")
    );
    let (items, total) = total_count(&app, &admin, "?status=scheduled").await;
    assert_eq!(total, 1);
    assert_eq!(items[0]["id"], scheduled.as_str());
    let (items, total) = total_count(&app, &admin, "?kind=prune_jobs").await;
    assert_eq!((items.len(), total), (0, 0));
    let (_, total) = total_count(&app, &admin, "").await;
    assert_eq!(total, 4);

    let (s, audit) = json_of(
        admin
            .get(app.url("/api/ops/audit"))
            .send()
            .await
            .expect("audit"),
    )
    .await;
    assert_eq!(s, 200);
    let entries = audit.as_array().expect("array");
    let enq: Vec<&Value> = entries
        .iter()
        .filter(|a| a["action"] == "job.enqueue")
        .collect();
    assert_eq!(enq.len(), 4, "{audit}");
    assert!(
        enq.iter().all(|a| a["actorEmail"] == ADMIN_EMAIL),
        "{audit}"
    );
    assert!(
        enq.iter().any(|a| a["target"] == ids[0].as_str()),
        "{audit}"
    );
    app.stop().await;
}

// ---------------------------------------------------------------------------------------------
// 6. Health
// ---------------------------------------------------------------------------------------------

/// A database that cannot take a request now (SQLite's write lock held elsewhere, a Postgres row
/// lock past `lock_timeout`) answers 503 with `Retry-After`, not 500 (issue 19).
async fn busy_database_is_503(db: TestDb) {
    use axum::response::IntoResponse;
    use sqlx::Connection;
    let _migrated = db.connect().await;
    let err = match db.backend {
        Backend::Sqlite => {
            let opts: sqlx::sqlite::SqliteConnectOptions = db.raw_url.parse().unwrap();
            let opts = opts.busy_timeout(Duration::ZERO);
            let mut holder = sqlx::SqliteConnection::connect_with(&opts).await.unwrap();
            let mut other = sqlx::SqliteConnection::connect_with(&opts).await.unwrap();
            sqlx::raw_sql("BEGIN IMMEDIATE")
                .execute(&mut holder)
                .await
                .unwrap();
            sqlx::raw_sql("BEGIN IMMEDIATE")
                .execute(&mut other)
                .await
                .expect_err("the write lock is held")
        }
        Backend::Postgres => {
            let mut holder = sqlx::PgConnection::connect(&db.raw_url).await.unwrap();
            let mut other = sqlx::PgConnection::connect(&db.raw_url).await.unwrap();
            sqlx::raw_sql("BEGIN; LOCK TABLE users IN ACCESS EXCLUSIVE MODE")
                .execute(&mut holder)
                .await
                .unwrap();
            sqlx::raw_sql("SET lock_timeout = '50ms'; SELECT * FROM users")
                .execute(&mut other)
                .await
                .expect_err("the table is locked")
        }
    };
    let res = api::error::ApiError::from(err).into_response();
    assert_eq!(res.status().as_u16(), 503);
    assert_eq!(res.headers()["retry-after"], "1");
}

/// With `METRICS_TOKEN` set, `/metrics` answers only a bearer of the token (issue 19).
async fn metrics_token_is_required_when_set(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            limits: jobs::config::LimitSettings {
                metrics_token: Some(jobs::config::Secret::new("scrape-me-please".into())),
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .await;
    let c = app.anonymous();
    for auth in [None, Some("Bearer wrong"), Some("scrape-me-please")] {
        let mut req = c.get(app.url("/metrics"));
        if let Some(a) = auth {
            req = req.header("authorization", a);
        }
        let res = req.send().await.expect("metrics");
        assert_eq!(res.headers()["www-authenticate"], "Bearer", "{auth:?}");
        expect_message(res, 401, "metrics without the token").await;
    }
    let res = c
        .get(app.url("/metrics"))
        .header("authorization", "Bearer scrape-me-please")
        .send()
        .await
        .expect("metrics");
    assert_eq!(res.status(), 200);
    assert!(res.text().await.expect("text").contains("prospector_"));
    app.stop().await;
}

async fn health_and_metrics(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let c = app.anonymous();
    let res = c.get(app.url("/healthz")).send().await.expect("healthz");
    assert_eq!(res.status(), 200);
    let (s, v) = json_of(c.get(app.url("/readyz")).send().await.expect("readyz")).await;
    assert_eq!(s, 200);
    assert_eq!(v, json!({"status": "ready"}));

    let admin = app.admin().await;
    app.enqueue(&admin, json!({"kind": "noop"})).await;
    // A job that has been running for 90 s (no worker runs here; the row says so).
    let running = app.enqueue(&admin, json!({"kind": "noop"})).await;
    exec!(
        &app.db,
        "UPDATE jobs SET status = 'running', locked_by = 'w-test', started_at = $1 WHERE id = $2",
        jobs::time::now_ms() - 90_000,
        running.as_str()
    );
    let res = c.get(app.url("/metrics")).send().await.expect("metrics");
    assert_eq!(res.status(), 200);
    let text = res.text().await.expect("text");
    let jobs_line = text
        .lines()
        .find(|l| {
            l.starts_with("prospector_jobs{")
                && l.contains("kind=\"noop\"")
                && l.contains("status=\"queued\"")
        })
        .unwrap_or_else(|| {
            panic!("no prospector_jobs{{kind=\"noop\",status=\"queued\"}} in:\n{text}")
        });
    let n: f64 = jobs_line
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("value");
    assert!(n >= 1.0, "{jobs_line}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("prospector_jobs{") && l.contains("kind=\"prune_jobs\"")),
        "{text}"
    );
    assert!(
        text.contains("prospector_http_request_duration_seconds_bucket{"),
        "histograms have buckets, so quantiles add up across processes: {text}"
    );
    let stuck = text
        .lines()
        .find(|l| l.starts_with("prospector_job_oldest_running_age_seconds{kind=\"noop\"}"))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|n| n.parse::<f64>().ok())
        .unwrap_or_else(|| panic!("no running age for noop in:\n{text}"));
    assert!((90.0..300.0).contains(&stuck), "{stuck}");
    // Every family has its HELP, and Prometheus' own linter finds nothing.
    for family in text
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.split(' ').next())
    {
        assert!(
            text.contains(&format!("# HELP {family} ")),
            "{family} has no HELP"
        );
    }
    let lint = promtool(&["check", "metrics"], Some(&text));
    assert!(lint.0, "promtool check metrics:\n{}", lint.1);
    app.stop().await;
}

/// Runs Prometheus' `promtool` (Debian's `prometheus` package; `.ci/run` installs it) with `stdin`;
/// whether it passed, and what it said.
fn promtool(args: &[&str], stdin: Option<&str>) -> (bool, String) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new("promtool")
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/monitoring"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("promtool (apt-get install prometheus)");
    if let Some(input) = stdin {
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
    } else {
        drop(child.stdin.take());
    }
    let out = child.wait_with_output().expect("promtool output");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

/// The alert rules are valid and raise what they should on recorded series (alerts.test.yml), and
/// the rules and the Grafana dashboard read only metrics the processes export.
#[test]
fn monitoring_rules_and_dashboard() {
    let (ok, said) = promtool(&["check", "rules", "prometheus-alerts.yml"], None);
    assert!(ok, "{said}");
    let (ok, said) = promtool(&["test", "rules", "alerts.test.yml"], None);
    assert!(ok, "{said}");

    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/monitoring");
    let rules = std::fs::read_to_string(dir.join("prometheus-alerts.yml")).expect("rules");
    let dashboard: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("grafana-dashboard.json")).expect("dashboard"),
    )
    .expect("the dashboard is JSON");
    let exprs: Vec<String> = dashboard["panels"]
        .as_array()
        .expect("panels")
        .iter()
        .flat_map(|p| p["targets"].as_array().cloned().unwrap_or_default())
        .filter_map(|t| t["expr"].as_str().map(str::to_string))
        .collect();
    assert!(exprs.len() >= 10, "{exprs:?}");
    let known = |name: &str| {
        jobs::telemetry::METRICS.iter().any(|(m, kind, _)| {
            name == *m
                || (*kind == jobs::telemetry::MetricType::Histogram
                    && ["_bucket", "_count", "_sum"]
                        .iter()
                        .any(|s| name.strip_suffix(s) == Some(*m)))
        })
    };
    for text in exprs.iter().map(String::as_str).chain([rules.as_str()]) {
        let mut rest = text;
        while let Some(at) = rest.find("prospector_") {
            let name: String = rest[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            rest = &rest[at + name.len()..];
            // Alert names (ProspectorX) are not metrics; metric names are lower case.
            assert!(known(&name), "{name} is not a metric Prospector exports");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Web fallback
// ---------------------------------------------------------------------------------------------

async fn web_fallback(db: TestDb) {
    let dist = db.dir.join("dist");
    std::fs::create_dir_all(&dist).expect("dist");
    let marker = format!("prospector-web-{}", fresh_id());
    let index = format!("<!doctype html><html><body>{marker}</body></html>");
    std::fs::write(dist.join("index.html"), &index).expect("index.html");
    std::fs::write(dist.join("app.js"), "console.log('app')").expect("app.js");
    // What the web build writes: the addresses its router serves.
    std::fs::write(
        dist.join("routes.json"),
        r#"["/", "/admin/jobs", "/contacts", "/companies/:id", "/admin/companies/:id"]"#,
    )
    .expect("routes.json");
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            web_dist: Some(dist.clone()),
            ..Default::default()
        },
    )
    .await;
    let c = app.anonymous();
    // The app's addresses are pages; any other is its not-found page, and says so (issue 23).
    for (path, status) in [
        ("/", 200),
        ("/admin/jobs", 200),
        ("/contacts/", 200),
        ("/some/client/route", 404),
        ("/contacts/nope", 404),
        ("/app.js/x", 404),
        // A `:id` segment is any one non-empty segment (docs/records.md).
        ("/companies/01JABCDEF", 200),
        ("/admin/companies/01JABCDEF/", 200),
        ("/companies", 404),
        ("/companies/a/b", 404),
        ("/admin/companies/a/b", 404),
        ("/people/01JABCDEF", 404),
    ] {
        let res = c.get(app.url(path)).send().await.expect("page");
        assert_eq!(res.status(), status, "{path}");
        let body = res.text().await.expect("text");
        assert!(
            body.contains(&marker),
            "{path} did not serve index.html: {body}"
        );
    }
    let res = c.get(app.url("/app.js")).send().await.expect("asset");
    assert_eq!(res.status(), 200);
    assert_eq!(res.text().await.expect("text"), "console.log('app')");

    let admin = app.admin().await;
    for (client, path) in [
        (&c, "/api/unknown"),
        (&admin, "/api/unknown"),
        (&admin, "/api/ops/nothing/here"),
    ] {
        let res = client.get(app.url(path)).send().await.expect("api");
        let v = expect_message(res, 404, path).await;
        assert!(!v.to_string().contains(&marker));
    }
    // The API itself is unaffected.
    let res = c.get(app.url("/readyz")).send().await.expect("readyz");
    assert_eq!(res.status(), 200);
    app.stop().await;
}

/// With the read cache on, sessions are read through it: signing out (the app's POST, or the form of
/// the GET page) ends the session at once, also for a copy of the cookie; the GET alone changes
/// nothing (issue 19).
async fn cached_sessions_end_on_sign_out(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            read_cache_ttl: Duration::from_secs(30),
            ..Default::default()
        },
    )
    .await;
    for sign_out in ["POST", "GET"] {
        let c = app.user().await;
        let res = c.get(app.url("/api/auth/user")).send().await.expect("me");
        assert_eq!(res.status(), 200);
        if sign_out == "GET" {
            let res = c.get(app.url("/api/logout")).send().await.expect("page");
            assert_eq!(res.status(), 200);
            let page = res.text().await.expect("page");
            assert!(
                page.contains(r#"<form method="post" action="/api/logout">"#),
                "{page}"
            );
            let res = c.get(app.url("/api/auth/user")).send().await.expect("me");
            assert_eq!(res.status(), 200, "the GET alone signs nobody out");
        }
        let res = match sign_out {
            "POST" => c.post(app.url("/api/admin/logout")).send().await,
            _ => c.post(app.url("/api/logout")).send().await,
        }
        .expect("sign out");
        assert!(
            res.status().is_success() || res.status().is_redirection(),
            "{sign_out}"
        );
        let res = c.get(app.url("/api/auth/user")).send().await.expect("me");
        expect_message(res, 401, "after sign-out").await;
    }
    app.stop().await;
}

fn retry_after(res: &Response) -> u64 {
    res.headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After with whole seconds")
}

/// After five failures for one email each further attempt for it waits 1 s, 2 s, 4 s …, whoever
/// asks and with whatever password; other emails are untouched; a successful login starts afresh.
async fn login_delay_grows_per_email_and_success_clears(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let c = app.anonymous();
    let wrong = json!({"email": USER_EMAIL, "password": "wrong-password"});
    let right = json!({"email": USER_EMAIL, "password": PASSWORD});
    for i in 1..=5 {
        let res = login(&c, &app, "/api/login", wrong.clone()).await;
        assert_eq!(res.status(), 401, "failure {i}");
    }
    let res = login(&c, &app, "/api/login", wrong.clone()).await;
    assert_eq!(res.status(), 429, "sixth attempt at once");
    assert_eq!(retry_after(&res), 1);
    let v = expect_message(res, 429, "sixth attempt").await;
    assert_eq!(
        v["message"],
        "Too many login attempts. Try again in 1 seconds."
    );
    let res = login(&app.anonymous(), &app, "/api/login", right.clone()).await;
    expect_429(res, "the right password waits too").await;
    let res = login(
        &c,
        &app,
        "/api/admin/login",
        json!({"email": ADMIN_EMAIL, "password": PASSWORD}),
    )
    .await;
    assert_eq!(res.status(), 200, "another email is not delayed");

    tokio::time::sleep(Duration::from_millis(1100)).await;
    let res = login(&c, &app, "/api/login", wrong.clone()).await;
    assert_eq!(res.status(), 401, "after the first delay");
    let res = login(&c, &app, "/api/login", wrong.clone()).await;
    assert_eq!(res.status(), 429, "the delay doubled");
    assert_eq!(retry_after(&res), 2);

    tokio::time::sleep(Duration::from_millis(2100)).await;
    let res = login(&c, &app, "/api/login", right.clone()).await;
    assert_eq!(res.status(), 200, "after the second delay");
    for i in 1..=5 {
        let res = login(&c, &app, "/api/login", wrong.clone()).await;
        assert_eq!(res.status(), 401, "failure {i} after a success");
    }
    let res = login(&c, &app, "/api/login", wrong).await;
    expect_429(res, "counting started afresh").await;
    app.stop().await;
}

/// Emails and passwords are capped before they reach a limiter or the hasher.
async fn login_caps_email_and_password(db: TestDb) {
    let app = TestApp::spawn(&db, no_worker()).await;
    let c = app.anonymous();
    for email in [
        format!("{}@example.com", "e".repeat(243)),
        "e".repeat(1_000_000),
    ] {
        let res = login(
            &c,
            &app,
            "/api/login",
            json!({"email": email, "password": "wrong-password"}),
        )
        .await;
        let v = expect_message(res, 422, "long email").await;
        assert_eq!(v["errors"]["email"], "Email must be at most 254 characters");
    }
    let res = login(
        &c,
        &app,
        "/api/login",
        json!({"email": USER_EMAIL, "password": "p".repeat(1025)}),
    )
    .await;
    let v = expect_message(res, 422, "long password").await;
    assert_eq!(
        v["errors"]["password"],
        "Password must be at most 1024 characters"
    );
    // None of that counted as a failure for the account.
    let res = login(
        &c,
        &app,
        "/api/login",
        json!({"email": USER_EMAIL, "password": PASSWORD}),
    )
    .await;
    assert_eq!(res.status(), 200);
    app.stop().await;
}

/// Wrong logins for distinct emails from 127.0.0.1 carrying `header: value(i)`; their statuses.
async fn logins_with_header(app: &TestApp, header: &str, values: &[&str]) -> Vec<u16> {
    let c = client_from([127, 0, 0, 1]);
    let mut out = Vec::new();
    for (i, value) in values.iter().enumerate() {
        let res = c
            .post(app.url("/api/login"))
            .header(header, *value)
            .json(&json!({"email": format!("nobody{i}@test.local"), "password": "wrong-password"}))
            .send()
            .await
            .expect("login");
        out.push(res.status().as_u16());
    }
    out
}

/// Without `TRUSTED_PROXIES` (the default) a client cannot pick its own address.
async fn forwarded_for_is_ignored_without_trusted_proxies(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            login_attempts_per_minute: 2,
            ..Default::default()
        },
    )
    .await;
    let got = logins_with_header(
        &app,
        "x-forwarded-for",
        &["203.0.113.1", "203.0.113.2", "203.0.113.3"],
    )
    .await;
    assert_eq!(got, [401, 401, 429], "all keyed on the socket address");
    let got = logins_with_header(&app, "forwarded", &["for=203.0.113.4"]).await;
    assert_eq!(got, [429]);
    app.stop().await;
}

/// From a trusted proxy, the rightmost hop that is not a trusted proxy is the client: what the
/// client wrote further left is ignored.
async fn forwarded_for_is_believed_from_trusted_proxies(db: TestDb) {
    let app = TestApp::spawn(
        &db,
        AppOptions {
            worker: false,
            login_attempts_per_minute: 2,
            limits: jobs::config::LimitSettings {
                trusted_proxies: vec!["127.0.0.0/8".parse().expect("cidr")],
                ..Default::default()
            },
            ..Default::default()
        },
    )
    .await;
    let got = logins_with_header(
        &app,
        "x-forwarded-for",
        &[
            "198.51.100.1, 203.0.113.1",
            "198.51.100.2, 203.0.113.1, 127.0.0.9",
            "198.51.100.3, 203.0.113.1",
            "203.0.113.2",
            "203.0.113.3",
        ],
    )
    .await;
    assert_eq!(
        got,
        [401, 401, 429, 401, 401],
        "keyed on 203.0.113.1 whatever the client prepends; others apart"
    );
    let got = logins_with_header(
        &app,
        "forwarded",
        &[
            "for=198.51.100.9, for=203.0.113.7;proto=https",
            "for=\"203.0.113.7:4711\"",
            "for=203.0.113.7",
        ],
    )
    .await;
    assert_eq!(got, [401, 401, 429], "Forwarded: for= is read too");
    // Without a header the proxy itself is the client.
    assert_eq!(
        logins_with_header(&app, "x-request-id", &["a"]).await,
        [401]
    );
    app.stop().await;
}

both_backends!(
    login_delay_grows_per_email_and_success_clears,
    login_caps_email_and_password,
    forwarded_for_is_ignored_without_trusted_proxies,
    forwarded_for_is_believed_from_trusted_proxies,
    cached_sessions_end_on_sign_out,
    route_walk,
    admin_login_flow,
    admin_login_allowlist,
    ordinary_session_is_not_admin,
    login_rate_limit,
    bad_job_input,
    bad_queries_and_unknown_ids,
    ops_listing,
    health_and_metrics,
    metrics_token_is_required_when_set,
    busy_database_is_503,
    web_fallback,
);
