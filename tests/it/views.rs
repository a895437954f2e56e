//! Saved views (issue 23): each user's named table settings per screen: saved, listed by name,
//! replaced under the same name (whatever its case), kept apart from other users', bounded, and
//! deleted only by their owner. Both backends.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use common::*;
use serde_json::{Value, json};

fn names(v: &Value) -> Vec<&str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect()
}

async fn saved_views_per_user_and_screen(tdb: TestDb) {
    let app = TestApp::idle(&tdb).await;
    let user = app.user().await;
    let admin = app.admin().await;
    let post = |c: &reqwest::Client, body: Value| {
        let req = c.post(app.url("/api/views")).json(&body);
        async move { send(req).await }
    };
    let overdue = json!({ "filters": { "status": "overdue" }, "hidden": ["email"], "sort": { "key": "total", "dir": "desc" } });
    let (status, v) = post(
        &user,
        json!({ "screen": "invoices", "name": "Overdue first", "state": overdue }),
    )
    .await;
    assert_eq!(status, 201, "{v}");
    assert_eq!(
        v["state"], overdue,
        "the settings come back as they were saved"
    );
    let first_id = v["id"].as_str().unwrap().to_string();
    let (status, _) = post(&user, json!({ "screen": "invoices", "name": "all drafts", "state": { "filters": { "status": "draft" } } })).await;
    assert_eq!(status, 201);
    // The same name in another case replaces the view, keeping its id.
    let (status, v) = post(&user, json!({ "screen": "invoices", "name": "OVERDUE FIRST", "state": { "sort": { "key": "date", "dir": "asc" } } })).await;
    assert_eq!(
        (status, v["id"].as_str()),
        (200, Some(first_id.as_str())),
        "{v}"
    );
    // Another user's views and another screen's are apart.
    let (status, _) = post(
        &admin,
        json!({ "screen": "invoices", "name": "Admin's", "state": {} }),
    )
    .await;
    assert_eq!(status, 201);
    let (status, _) = post(&user, json!({ "screen": "contacts", "name": "Texas", "state": { "filters": { "region": "texas" } } })).await;
    assert_eq!(status, 201);

    let (status, v) = send(user.get(app.url("/api/views?screen=invoices"))).await;
    assert_eq!(status, 200);
    assert_eq!(
        names(&v),
        ["all drafts", "OVERDUE FIRST"],
        "by name, whatever its case"
    );
    assert_eq!(
        v[1]["state"],
        json!({ "sort": { "key": "date", "dir": "asc" } })
    );
    let (_, v) = send(admin.get(app.url("/api/views?screen=invoices"))).await;
    assert_eq!(names(&v), ["Admin's"]);

    // Someone else's view cannot be deleted; one's own can.
    let (status, _) = send(admin.delete(app.url(&format!("/api/views/{first_id}")))).await;
    assert_eq!(status, 404);
    let (status, _) = send(user.delete(app.url(&format!("/api/views/{first_id}")))).await;
    assert_eq!(status, 204);
    let (_, v) = send(user.get(app.url("/api/views?screen=invoices"))).await;
    assert_eq!(names(&v), ["all drafts"]);

    // Refusals: clear messages, nothing written.
    let before = scalar(&app.db, "SELECT COUNT(*) FROM saved_views").await;
    let cases = [
        (
            json!({ "screen": "jobs", "name": "x", "state": {} }),
            "screen",
        ),
        (
            json!({ "screen": "invoices", "name": "  ", "state": {} }),
            "name",
        ),
        (
            json!({ "screen": "invoices", "name": "x".repeat(81), "state": {} }),
            "name",
        ),
        (
            json!({ "screen": "invoices", "name": "x", "state": [1, 2] }),
            "state",
        ),
        (json!({ "screen": "invoices", "name": "x" }), "state"),
        (
            json!({ "screen": "invoices", "name": "big", "state": { "q": "x".repeat(5000) } }),
            "state",
        ),
    ];
    for (body, field) in cases {
        let (status, v) = post(&user, body.clone()).await;
        assert_eq!(status, 422, "{body}: {v}");
        assert!(v["errors"][field].is_string(), "{body}: {v}");
    }
    let (status, v) = send(user.get(app.url("/api/views?screen=nope"))).await;
    assert_eq!(status, 422, "{v}");
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM saved_views").await,
        before
    );

    // At most 50 views of a table; replacing one is still allowed at the limit.
    for n in 0..49 {
        let (status, v) = post(
            &user,
            json!({ "screen": "customers", "name": format!("v{n}"), "state": {} }),
        )
        .await;
        assert_eq!(status, 201, "{v}");
    }
    let (status, _) = post(
        &user,
        json!({ "screen": "customers", "name": "v49", "state": {} }),
    )
    .await;
    assert_eq!(status, 201);
    let (status, v) = post(
        &user,
        json!({ "screen": "customers", "name": "one too many", "state": {} }),
    )
    .await;
    assert_eq!(
        (status, v["message"].as_str()),
        (
            409,
            Some("You have 50 views of this table: delete one first")
        )
    );
    let (status, _) = post(
        &user,
        json!({ "screen": "customers", "name": "V7", "state": { "a": 1 } }),
    )
    .await;
    assert_eq!(status, 200);
    let (status, _) = send(app.anonymous().get(app.url("/api/views?screen=invoices"))).await;
    assert_eq!(status, 401);
    app.stop().await;
}

both_backends!(saved_views_per_user_and_screen);
