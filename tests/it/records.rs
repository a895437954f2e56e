//! The record pages (docs/records.md) as callers see them: the palette's search, a record's
//! timeline (newest first, paged by cursor, with related records' items and their `about`), the
//! related lists, notes and tasks with their validation and rights, and their removal with the
//! record. Every test runs on SQLite and on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::*;
use jobs::db::Db;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

async fn create(app: &TestApp, c: &Client, path: &str, body: Value) -> Value {
    let (s, v) = send(c.post(app.url(path)).json(&body)).await;
    assert_eq!(s, 201, "POST {path} {body}: {v}");
    v
}

async fn company(app: &TestApp, c: &Client, name: &str) -> String {
    let v = create(app, c, "/api/companies", json!({ "name": name })).await;
    v["id"].as_str().unwrap().to_string()
}

async fn contact(
    app: &TestApp,
    c: &Client,
    first: &str,
    last: &str,
    company: Option<&str>,
) -> String {
    let email = format!(
        "{}.{}@example.test",
        first.to_lowercase(),
        ulid::Ulid::new()
    );
    let v = create(
        app,
        c,
        "/api/contacts",
        json!({ "firstName": first, "lastName": last, "email": email, "companyId": company }),
    )
    .await;
    v["id"].as_str().unwrap().to_string()
}

async fn get(app: &TestApp, c: &Client, path: &str) -> (u16, Value) {
    send(c.get(app.url(path))).await
}

/// A sent message to the contact (at `at`) in the ledger, as the send job leaves it; its id.
async fn sent_email(db: &Db, contact: &str, subject: &str, at: i64) -> String {
    let id = ulid::Ulid::new().to_string();
    exec!(
        db,
        "INSERT INTO email_messages (id, dedupe_key, contact_id, to_email, from_email, subject, body,
             message_id, status, created_at, sent_at)
         VALUES ($1, $2, $3, 'to@example.test', 'from@example.test', $4, 'Hi', $5, 'sent', $6, $6)",
        &id,
        format!("direct:{id}"),
        contact,
        subject,
        format!("<{id}@example.test>"),
        at
    );
    id
}

async fn email_event(db: &Db, message: &str, contact: &str, event: &str, at: i64) {
    exec!(
        db,
        "INSERT INTO email_events (id, message_id, contact_id, email, event_type, occurred_at)
         VALUES ($1, $2, $3, 'to@example.test', $4, $5)",
        ulid::Ulid::new().to_string(),
        message,
        contact,
        event,
        at
    );
}

/// Lets the clock move on, so items made one after another have distinct times.
async fn tick() {
    tokio::time::sleep(Duration::from_millis(5)).await;
}

fn kinds(items: &Value) -> Vec<String> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["kind"].as_str().unwrap().to_string())
        .collect()
}

fn group<'a>(v: &'a Value, kind: &str) -> Option<&'a Value> {
    v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["type"] == kind)
}

async fn search_finds_records_and_hides_jobs_from_users(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let user = app.user().await;
    let co = company(&app, &user, "Zephyrine Baths").await;
    let marlowe = contact(&app, &user, "Quentin", "Marlowe", Some(&co)).await;
    for last in ["Quillfeather", "Quillon", "Quillby"] {
        contact(&app, &user, "Ada", last, None).await;
    }
    create(
        &app,
        &user,
        "/api/deals",
        json!({ "title": "Walk-in tub remodel", "value": 12000, "contactId": marlowe }),
    )
    .await;

    let (s, v) = get(&app, &user, "/api/search?q=marlo").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["query"], "marlo");
    let contacts = group(&v, "contact").expect("contacts group");
    assert_eq!(contacts["label"], "Contacts");
    assert_eq!(contacts["results"][0]["id"], marlowe.as_str());
    assert_eq!(contacts["results"][0]["title"], "Quentin Marlowe");
    assert_eq!(
        contacts["results"][0]["href"],
        format!("/contacts/{marlowe}")
    );
    assert!(group(&v, "company").is_none(), "{v}");

    let (_, v) = get(&app, &user, "/api/search?q=zephyr").await;
    let companies = group(&v, "company").expect("companies group");
    assert_eq!(companies["results"][0]["id"], co.as_str());
    assert_eq!(companies["results"][0]["href"], format!("/companies/{co}"));
    assert_eq!(v["groups"][0]["type"], "company", "companies come first");

    let (_, v) = get(&app, &user, "/api/search?q=TUB%20REMO").await;
    let deals = group(&v, "deal").expect("deals group");
    assert_eq!(deals["results"][0]["title"], "Walk-in tub remodel");
    assert!(
        deals["results"][0]["href"]
            .as_str()
            .unwrap()
            .starts_with("/deals/")
    );

    // The per-type limit bounds the results, not the total.
    let (_, v) = get(&app, &user, "/api/search?q=quill&limit=2").await;
    let contacts = group(&v, "contact").expect("contacts group");
    assert_eq!(contacts["results"].as_array().unwrap().len(), 2);
    assert_eq!(contacts["total"], 3);
    assert_eq!(contacts["totalCapped"], false);

    for (q, message) in [
        ("q=a", "Search needs at least 2 characters"),
        ("q=%20%20x%20", "Search needs at least 2 characters"),
        ("", "Search needs at least 2 characters"),
    ] {
        let (s, v) = get(&app, &user, &format!("/api/search?{q}")).await;
        assert_eq!((s, v["message"].as_str()), (400, Some(message)), "{q}");
    }
    let long = "x".repeat(101);
    let (s, v) = get(&app, &user, &format!("/api/search?q={long}")).await;
    assert_eq!(s, 400);
    assert_eq!(v["message"], "Search is limited to 100 characters");
    for bad in ["limit=0", "limit=21", "limit=x"] {
        let (s, _) = get(&app, &user, &format!("/api/search?q=quill&{bad}")).await;
        assert_eq!(s, 400, "{bad}");
    }

    // Totals stop at 1,000 and say so.
    exec!(
        &app.db,
        "INSERT INTO deals (id, title, value, stage, stage_changed_at, created_at, updated_at)
         WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 1001)
         SELECT 'BULK' || CAST(n AS TEXT), 'Bulk order ' || CAST(n AS TEXT), 100, 'proposal', $1, $1, $1
         FROM g",
        now_ms()
    );
    let (_, v) = get(&app, &user, "/api/search?q=bulk%20order").await;
    let deals = group(&v, "deal").expect("deals group");
    assert_eq!(deals["results"].as_array().unwrap().len(), 5);
    assert_eq!(
        (deals["total"].as_i64(), deals["totalCapped"].as_bool()),
        (Some(1000), Some(true))
    );

    // Jobs are an admin session's only.
    let job = app.enqueue(&admin, json!({ "kind": "noop" })).await;
    let (_, v) = get(&app, &admin, "/api/search?q=noop").await;
    let jobs = group(&v, "job").expect("jobs group for an admin");
    assert_eq!(jobs["results"][0]["id"], job.as_str());
    assert_eq!(jobs["results"][0]["href"], format!("/ops?job={job}"));
    let (_, v) = get(
        &app,
        &admin,
        &format!("/api/search?q={}", job.to_lowercase()),
    )
    .await;
    assert_eq!(
        group(&v, "job").expect("by id")["results"][0]["id"],
        job.as_str()
    );
    let (s, v) = get(&app, &user, "/api/search?q=noop").await;
    assert_eq!(s, 200);
    assert!(group(&v, "job").is_none(), "{v}");
    let (s, _) = get(&app, &app.anonymous(), "/api/search?q=noop").await;
    assert_eq!(s, 401);
    app.stop().await;
}

async fn contact_timeline_is_newest_first_and_pages(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let id = contact(&app, &user, "Tessa", "Lind", None).await;
    tick().await;
    let (s, v) = send(
        user.put(app.url(&format!("/api/contacts/{id}")))
            .json(&json!({ "status": "qualified" })),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    tick().await;
    let message = sent_email(&app.db, &id, "Hello there", now_ms()).await;
    tick().await;
    email_event(&app.db, &message, &id, "opened", now_ms()).await;
    tick().await;
    create(
        &app,
        &user,
        "/api/notes",
        json!({ "entityType": "contact", "entityId": id, "body": "Prefers calls after 4pm" }),
    )
    .await;
    tick().await;
    let task = create(
        &app,
        &user,
        "/api/tasks",
        json!({ "entityType": "contact", "entityId": id, "title": "Send the brochure" }),
    )
    .await;
    tick().await;
    let (s, v) = send(
        user.patch(app.url(&format!("/api/tasks/{}", task["id"].as_str().unwrap())))
            .json(&json!({ "done": true })),
    )
    .await;
    assert_eq!(s, 200, "{v}");

    let (s, v) = get(&app, &user, &format!("/api/contacts/{id}/timeline")).await;
    assert_eq!(s, 200, "{v}");
    let items = &v["items"];
    assert_eq!(
        kinds(items),
        [
            "task_done",
            "task_created",
            "note",
            "email_opened",
            "email_sent",
            "status_changed",
            "created"
        ]
    );
    assert!(v["nextCursor"].is_null());
    // The page's filters: one kind of item each, in the same order.
    for (show, want) in [
        ("notes", vec!["note"]),
        ("tasks", vec!["task_done", "task_created"]),
        ("emails", vec!["email_opened", "email_sent"]),
        ("meetings", vec![]),
        ("all", kinds(items).iter().map(String::as_str).collect()),
    ] {
        let (s, f) = get(
            &app,
            &user,
            &format!("/api/contacts/{id}/timeline?show={show}"),
        )
        .await;
        assert_eq!(s, 200, "{f}");
        assert_eq!(kinds(&f["items"]), want, "show={show}");
    }
    let (s, f) = get(
        &app,
        &user,
        &format!("/api/contacts/{id}/timeline?show=gossip"),
    )
    .await;
    assert_eq!(s, 400, "{f}");
    assert_eq!(
        f["message"],
        "show must be one of: all, emails, calls, meetings, notes, tasks"
    );
    let titles: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles[0], "Task completed: “Send the brochure”");
    assert_eq!(titles[2], "Note added");
    assert_eq!(titles[3], "Email opened: “Hello there”");
    assert_eq!(titles[4], "Email sent: “Hello there”");
    assert_eq!(titles[5], "Status changed to Qualified");
    assert_eq!(items[2]["detail"], "Prefers calls after 4pm");
    assert_eq!(items[2]["actor"], "Test User");
    assert!(items[0]["about"].is_null(), "own items have no about");
    // Newest first by time.
    let times: Vec<i64> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            chrono::DateTime::parse_from_rfc3339(i["at"].as_str().unwrap())
                .unwrap()
                .timestamp_millis()
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "{times:?}");

    // Pages of 3 walk the same items, then end.
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/contacts/{id}/timeline?limit=3&before={c}"),
            None => format!("/api/contacts/{id}/timeline?limit=3"),
        };
        let (s, page) = get(&app, &user, &path).await;
        assert_eq!(s, 200, "{page}");
        pages += 1;
        paged.extend(
            page["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["id"].clone()),
        );
        match page["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
        assert!(pages < 10, "paging does not end");
    }
    assert_eq!(pages, 3);
    let all: Vec<Value> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["id"].clone())
        .collect();
    assert_eq!(paged, all);

    for bad in [
        "before=not-a-cursor",
        "before=%25%25",
        "limit=0",
        "limit=101",
    ] {
        let (s, v) = get(&app, &user, &format!("/api/contacts/{id}/timeline?{bad}")).await;
        assert_eq!(s, 400, "{bad}: {v}");
    }
    for (path, message) in [
        ("/api/contacts/NOPE/timeline", "Contact not found"),
        ("/api/companies/NOPE/timeline", "Company not found"),
        ("/api/deals/NOPE/timeline", "Deal not found"),
        ("/api/contacts/NOPE/related", "Contact not found"),
        ("/api/companies/NOPE/related", "Company not found"),
        ("/api/deals/NOPE/related", "Deal not found"),
    ] {
        let (s, v) = get(&app, &user, path).await;
        assert_eq!((s, v["message"].as_str()), (404, Some(message)), "{path}");
    }
    app.stop().await;
}

async fn company_timeline_holds_its_contacts_items(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let co = company(&app, &user, "Harbor Bath Co").await;
    let id = contact(&app, &user, "Mina", "Park", Some(&co)).await;
    let other = contact(&app, &user, "Olaf", "Berg", None).await;
    tick().await;
    sent_email(&app.db, &id, "Spring offer", now_ms()).await;
    sent_email(&app.db, &other, "Not theirs", now_ms()).await;
    tick().await;
    let deal = create(
        &app,
        &user,
        "/api/deals",
        json!({ "title": "Harbor showroom", "value": 5000, "companyId": co, "contactId": id }),
    )
    .await;
    let deal_id = deal["id"].as_str().unwrap();

    let (s, v) = get(&app, &user, &format!("/api/companies/{co}/timeline")).await;
    assert_eq!(s, 200, "{v}");
    let items = v["items"].as_array().unwrap();
    let email = items
        .iter()
        .find(|i| i["kind"] == "email_sent")
        .expect("the contact's email");
    assert_eq!(email["title"], "Email sent: “Spring offer”");
    assert_eq!(
        email["about"],
        json!({ "type": "contact", "id": id, "name": "Mina Park" })
    );
    assert!(!v.to_string().contains("Not theirs"));
    let own = items
        .iter()
        .find(|i| i["kind"] == "created" && i["about"].is_null())
        .expect("the company's own creation");
    assert_eq!(own["title"], "Company created");
    assert!(
        items
            .iter()
            .any(|i| i["kind"] == "created" && i["about"]["type"] == "deal"),
        "the deal's items come through it"
    );

    // A job whose payload names the contact shows on its timeline (and so on the company's).
    let admin = app.admin().await;
    let job = app
        .enqueue(
            &admin,
            json!({ "kind": "ai_score", "payload": { "contactId": id } }),
        )
        .await;
    let (_, v) = get(&app, &user, &format!("/api/contacts/{id}/timeline")).await;
    let item = &v["items"][0];
    assert_eq!(item["kind"], "job", "{v}");
    assert_eq!(item["title"], "AI scoring queued");
    assert_eq!(item["link"], format!("/ops?job={job}"));
    let (_, v) = get(
        &app,
        &user,
        &format!("/api/companies/{co}/timeline?limit=1"),
    )
    .await;
    assert_eq!(v["items"][0]["kind"], "job", "{v}");
    assert_eq!(v["items"][0]["about"]["id"], id.as_str());

    // The deal's timeline: its own items and its contact's mail since the deal began, not before.
    let (s, v) = get(&app, &user, &format!("/api/deals/{deal_id}/timeline")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(kinds(&v["items"]), ["created"]);
    tick().await;
    sent_email(&app.db, &id, "Quote attached", now_ms()).await;
    let (_, v) = get(&app, &user, &format!("/api/deals/{deal_id}/timeline")).await;
    assert_eq!(kinds(&v["items"]), ["email_sent", "created"], "{v}");
    assert_eq!(v["items"][0]["title"], "Email sent: “Quote attached”");
    assert_eq!(v["items"][0]["about"]["id"], id.as_str());
    assert!(v["items"][1]["about"].is_null());

    // A sequence's or campaign's subject is kept as written: it reads as it was sent.
    let templated = ulid::Ulid::new().to_string();
    exec!(
        &app.db,
        "INSERT INTO email_messages (id, dedupe_key, contact_id, to_email, from_email, subject,
             body, vars, message_id, status, created_at, sent_at)
         VALUES ($1, $2, $3, 'to@example.test', 'from@example.test', 'Ideas for {{ companyName }}',
             'Hi', $4, $5, 'sent', $6, $6)",
        &templated,
        format!("direct:{templated}"),
        &id,
        sqlx::types::Json(json!({ "companyName": "Harbor Baths" })),
        format!("<{templated}@example.test>"),
        jobs::time::now_ms()
    );
    email_event(&app.db, &templated, &id, "opened", jobs::time::now_ms() + 1).await;
    let (_, v) = get(&app, &user, &format!("/api/contacts/{id}/timeline?limit=2")).await;
    let titles: Vec<&str> = v["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["title"].as_str().unwrap())
        .collect();
    assert!(
        titles.iter().all(|t| t.contains("Ideas for Harbor Baths")),
        "{titles:?}"
    );

    // Related lists.
    let (s, v) = get(&app, &user, &format!("/api/companies/{co}/related")).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["contactCount"], 1);
    assert_eq!(v["contacts"][0]["name"], "Mina Park");
    assert_eq!(v["deals"][0]["title"], "Harbor showroom");
    assert_eq!(v["openTasks"], 0);
    let (_, v) = get(&app, &user, &format!("/api/contacts/{id}/related")).await;
    assert_eq!(v["company"], json!({ "id": co, "name": "Harbor Bath Co" }));
    assert_eq!(v["deals"][0]["id"], deal_id);
    assert_eq!(v["enrollments"], json!([]));
    let (_, v) = get(&app, &user, &format!("/api/deals/{deal_id}/related")).await;
    assert_eq!(v["company"]["name"], "Harbor Bath Co");
    assert_eq!(v["contact"]["name"], "Mina Park");
    app.stop().await;
}

async fn notes_validate_and_only_authors_or_admins_delete(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let admin = app.admin().await;
    let id = contact(&app, &user, "Nora", "Vance", None).await;

    let (s, v) = send(user.post(app.url("/api/notes")).json(&json!({}))).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["errors"]["entityType"].is_string(), "{v}");
    assert!(v["errors"]["body"].is_string(), "{v}");
    for body in [json!(""), json!("   "), json!(null)] {
        let (s, v) = send(
            user.post(app.url("/api/notes"))
                .json(&json!({ "entityType": "contact", "entityId": id, "body": body })),
        )
        .await;
        assert_eq!(s, 400, "{body}");
        assert!(v["errors"]["body"].is_string(), "{v}");
        assert!(v["errors"]["entityType"].is_null(), "{v}");
    }
    let (s, v) = send(
        user.post(app.url("/api/notes"))
            .json(&json!({ "entityType": "contact", "entityId": id, "body": "x".repeat(10_001) })),
    )
    .await;
    assert_eq!(s, 400);
    assert!(v["errors"]["body"].is_string());
    let (s, v) = send(
        user.post(app.url("/api/notes"))
            .json(&json!({ "entityType": "person", "entityId": id, "body": "Hi" })),
    )
    .await;
    assert_eq!(s, 400);
    assert!(v["errors"]["entityType"].is_string());
    let (s, v) = send(
        user.post(app.url("/api/notes"))
            .json(&json!({ "entityType": "contact", "entityId": "NOPE", "body": "Hi" })),
    )
    .await;
    assert_eq!((s, v["message"].as_str()), (404, Some("Contact not found")));
    let (s, _) = send(
        user.post(app.url("/api/notes"))
            .body("[1]")
            .header("content-type", "application/json"),
    )
    .await;
    assert!((400..500).contains(&s), "{s}");

    let mine = create(
        &app,
        &user,
        "/api/notes",
        json!({ "entityType": "contact", "entityId": id, "body": "First" }),
    )
    .await;
    assert_eq!(mine["author"], "Test User");
    assert_eq!(mine["entityType"], "contact");
    assert_eq!(mine["body"], "First");
    tick().await;
    let theirs = create(
        &app,
        &admin,
        "/api/notes",
        json!({ "entityType": "contact", "entityId": id, "body": "Second" }),
    )
    .await;
    let (s, list) = get(
        &app,
        &user,
        &format!("/api/notes?entityType=contact&entityId={id}"),
    )
    .await;
    assert_eq!(s, 200);
    let bodies: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["body"].as_str().unwrap())
        .collect();
    assert_eq!(bodies, ["Second", "First"]);

    let path = |n: &Value| app.url(&format!("/api/notes/{}", n["id"].as_str().unwrap()));
    let (s, v) = send(user.delete(path(&theirs))).await;
    assert_eq!(s, 403, "{v}");
    let (s, _) = send(user.delete(path(&mine))).await;
    assert_eq!(s, 204);
    let (s, _) = send(user.delete(path(&mine))).await;
    assert_eq!(s, 404);
    // An admin may delete anyone's note.
    let again = create(
        &app,
        &user,
        "/api/notes",
        json!({ "entityType": "contact", "entityId": id, "body": "Third" }),
    )
    .await;
    let (s, _) = send(admin.delete(path(&again))).await;
    assert_eq!(s, 204);
    let (_, list) = get(
        &app,
        &user,
        &format!("/api/notes?entityType=contact&entityId={id}"),
    )
    .await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    app.stop().await;
}

async fn tasks_are_created_completed_and_ordered(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let id = contact(&app, &user, "Theo", "Marsh", None).await;
    let base = json!({ "entityType": "contact", "entityId": id });
    let task = |title: &str, due: Value| {
        let mut b = base.clone();
        b["title"] = json!(title);
        b["dueDate"] = due;
        b
    };
    let later = create(
        &app,
        &user,
        "/api/tasks",
        task("Later", json!("2030-01-02")),
    )
    .await;
    let undated = create(&app, &user, "/api/tasks", task("Someday", Value::Null)).await;
    let sooner = create(
        &app,
        &user,
        "/api/tasks",
        task("Sooner", json!("2030-01-01")),
    )
    .await;
    assert_eq!(sooner["dueDate"], "2030-01-01");
    assert_eq!(sooner["done"], false);
    assert_eq!(sooner["entityName"], "Theo Marsh");
    assert_eq!(sooner["assignee"], "Test User");

    let titles = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|t| t["title"].as_str().unwrap().to_string())
            .collect()
    };
    let list = format!("/api/tasks?entityType=contact&entityId={id}");
    let (s, v) = get(&app, &user, &list).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(titles(&v), ["Sooner", "Later", "Someday"]);

    let (s, v) = send(
        user.patch(app.url(&format!("/api/tasks/{}", later["id"].as_str().unwrap())))
            .json(&json!({ "done": true })),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["done"], true);
    assert!(v["doneAt"].is_string());
    let (_, v) = get(&app, &user, &list).await;
    assert_eq!(titles(&v), ["Sooner", "Someday"]);
    let (_, v) = get(&app, &user, &format!("{list}&status=done")).await;
    assert_eq!(titles(&v), ["Later"]);
    let (_, v) = get(&app, &user, &format!("{list}&status=all")).await;
    assert_eq!(titles(&v), ["Sooner", "Someday", "Later"]);
    // Without a record: the signed-in user's open tasks.
    let (_, v) = get(&app, &user, "/api/tasks").await;
    assert_eq!(titles(&v), ["Sooner", "Someday"]);
    let (_, v) = get(&app, &app.admin().await, "/api/tasks").await;
    assert_eq!(v, json!([]));
    let (_, v) = get(&app, &user, &format!("/api/contacts/{id}/related")).await;
    assert_eq!(v["openTasks"], 2);

    // Changes: title and due date, reopening; bad input is a 400 per field.
    let path = app.url(&format!("/api/tasks/{}", undated["id"].as_str().unwrap()));
    let (s, v) = send(
        user.patch(&path)
            .json(&json!({ "title": " Call back ", "dueDate": "2029-12-31" })),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["title"].as_str(), v["dueDate"].as_str()),
        (Some("Call back"), Some("2029-12-31"))
    );
    for (body, field) in [
        (json!({ "title": "" }), "title"),
        (json!({ "title": "x".repeat(501) }), "title"),
        (json!({ "dueDate": "2030-02-30" }), "dueDate"),
        (json!({ "dueDate": "tomorrow" }), "dueDate"),
        (json!({ "done": "yes" }), "done"),
    ] {
        let (s, v) = send(user.patch(&path).json(&body)).await;
        assert_eq!(s, 400, "{body}: {v}");
        assert!(v["errors"][field].is_string(), "{body}: {v}");
    }
    let (s, v) = send(
        user.post(app.url("/api/tasks"))
            .json(&task("", Value::Null)),
    )
    .await;
    assert_eq!(s, 400);
    assert!(v["errors"]["title"].is_string());
    let (s, _) = get(&app, &user, "/api/tasks?status=later").await;
    assert_eq!(s, 400);
    let (s, _) = send(
        user.patch(app.url("/api/tasks/NOPE"))
            .json(&json!({ "done": true })),
    )
    .await;
    assert_eq!(s, 404);
    let (s, _) = send(user.delete(&path)).await;
    assert_eq!(s, 204);
    let (s, _) = send(user.delete(&path)).await;
    assert_eq!(s, 404);
    app.stop().await;
}

async fn deleting_a_record_removes_its_notes_and_tasks(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let keep = contact(&app, &user, "Kept", "One", None).await;
    let gone = contact(&app, &user, "Gone", "Two", None).await;
    let deal = create(
        &app,
        &user,
        "/api/deals",
        json!({ "title": "Short deal", "value": 10 }),
    )
    .await;
    let deal_id = deal["id"].as_str().unwrap().to_string();
    for (kind, id) in [("contact", &keep), ("contact", &gone), ("deal", &deal_id)] {
        create(
            &app,
            &user,
            "/api/notes",
            json!({ "entityType": kind, "entityId": id, "body": "n" }),
        )
        .await;
        create(
            &app,
            &user,
            "/api/tasks",
            json!({ "entityType": kind, "entityId": id, "title": "t" }),
        )
        .await;
    }
    let count = |sql: &'static str| scalar(&app.db, sql);
    assert_eq!(count("SELECT COUNT(*) FROM notes").await, 3);

    // What else the contact has: mail sent and queued, an event, a meeting, a text, a call, a
    // sequence, a deal, a suppressed address.
    let now = now_ms();
    let sent = sent_email(&app.db, &gone, "Hello", now).await;
    email_event(&app.db, &sent, &gone, "opened", now).await;
    exec!(
        &app.db,
        "INSERT INTO email_messages (id, dedupe_key, contact_id, to_email, from_email, subject, body,
             message_id, status, created_at)
         VALUES ('queued1', 'direct:queued1', $1, 'to@example.test', 'from@example.test', 'Later',
             'Hi', '<queued1@example.test>', 'queued', $2)",
        &gone,
        now
    );
    exec!(
        &app.db,
        "INSERT INTO meetings (id, title, contact_id, scheduled_at, created_at, updated_at)
         VALUES ('mtg1', 'Showroom', $1, $2, $2, $2)",
        &gone,
        now
    );
    exec!(
        &app.db,
        "INSERT INTO sms_messages (id, dedupe_key, contact_id, kind, to_phone, body, status, created_at)
         VALUES ('sms1', 'sms1', $1, 'manual', '+15550100', 'Hi', 'sent', $2)",
        &gone,
        now
    );
    exec!(
        &app.db,
        "INSERT INTO voice_calls (id, contact_id, agent_id, purpose, to_phone, status, simulated,
             created_at, updated_at)
         VALUES ('call1', $1, 'agent-qualify', 'Qualify', '+15550100', 'completed', TRUE, $2, $2)",
        &gone,
        now
    );
    exec!(
        &app.db,
        "INSERT INTO email_sequences (id, name, description, created_at, updated_at)
         VALUES ('seq1', 'Welcome', 'A welcome sequence', $1, $1)",
        now
    );
    exec!(
        &app.db,
        "INSERT INTO sequence_enrollments (id, sequence_id, contact_id, enrolled_at, updated_at)
         VALUES ('enr1', 'seq1', $1, $2, $2)",
        &gone,
        now
    );
    exec!(
        &app.db,
        "INSERT INTO suppressions (email, reason, created_at)
         SELECT lower(email), 'unsubscribed', $2 FROM contacts WHERE id = $1",
        &gone,
        now
    );
    let gone_deal = create(
        &app,
        &user,
        "/api/deals",
        json!({ "title": "Their deal", "value": 10, "contactId": gone }),
    )
    .await;
    let gone_deal = gone_deal["id"].as_str().unwrap().to_string();

    let (s, _) = send(user.delete(app.url(&format!("/api/contacts/{gone}")))).await;
    assert_eq!(s, 204);
    let (s, v) = send(user.delete(app.url(&format!("/api/contacts/{gone}")))).await;
    assert_eq!((s, v), (404, json!({ "message": "Contact not found" })));
    assert_eq!(
        get(&app, &user, &format!("/api/contacts/{gone}")).await.0,
        404
    );
    let (s, _) = send(user.delete(app.url(&format!("/api/deals/{deal_id}")))).await;
    assert_eq!(s, 204);
    assert_eq!(count("SELECT COUNT(*) FROM notes").await, 1);
    assert_eq!(count("SELECT COUNT(*) FROM tasks").await, 1);
    let left: String = scalar!(&app.db, String, "SELECT entity_id FROM notes");
    assert_eq!(left, keep);
    // Gone with it: its enrollments and calls. Kept without it: the ledger (the sent message as
    // sent, the queued one cancelled), events, meetings, texts, deals; the suppression by address.
    assert_eq!(count("SELECT COUNT(*) FROM sequence_enrollments").await, 0);
    assert_eq!(count("SELECT COUNT(*) FROM voice_calls").await, 0);
    for table in ["email_events", "meetings", "sms_messages"] {
        let orphans: i64 = scalar!(
            &app.db,
            i64,
            format!("SELECT COUNT(*) FROM {table} WHERE contact_id IS NULL")
        );
        assert_eq!(orphans, 1, "{table}");
    }
    let ledger: Vec<(String, String)> = match &app.db {
        Db::Sqlite(p) => sqlx::query_as(
            "SELECT id, status FROM email_messages WHERE contact_id IS NULL ORDER BY status",
        )
        .fetch_all(p.write())
        .await
        .unwrap(),
        Db::Postgres(p) => sqlx::query_as(
            "SELECT id, status FROM email_messages WHERE contact_id IS NULL ORDER BY status",
        )
        .fetch_all(p.write())
        .await
        .unwrap(),
    };
    assert_eq!(
        ledger,
        [
            ("queued1".to_string(), "cancelled".to_string()),
            (sent.clone(), "sent".to_string())
        ]
    );
    let (s, d) = get(&app, &user, &format!("/api/deals/{gone_deal}")).await;
    assert_eq!((s, &d["contactId"]), (200, &Value::Null), "{d}");
    assert_eq!(count("SELECT COUNT(*) FROM suppressions").await, 1);
    // Its history stays in the feed, no longer pointing at it; the deletion names it.
    let pointing: Vec<String> = match &app.db {
        Db::Sqlite(p) => sqlx::query_scalar("SELECT type FROM activities WHERE entity_id = ?1")
            .bind(&gone)
            .fetch_all(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_scalar("SELECT type FROM activities WHERE entity_id = $1")
            .bind(&gone)
            .fetch_all(p.write())
            .await
            .unwrap(),
    };
    assert_eq!(pointing, ["contact_deleted"]);
    let feed = app.get_json(&user, "/api/activities?limit=100").await;
    let summaries: Vec<&str> = feed
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["summary"].as_str())
        .collect();
    assert!(summaries.contains(&"Contact Gone Two deleted"), "{feed}");
    assert!(summaries.contains(&"Contact Gone Two added"), "{feed}");

    // Many at once, by ids and by the list's filters, all or nothing.
    let mut bulk = Vec::new();
    for n in 0..3 {
        bulk.push(contact(&app, &user, "Bulk", &format!("Leaver{n}"), None).await);
    }
    let delete =
        async |body: Value| send(user.post(app.url("/api/contacts/bulk-delete")).json(&body)).await;
    let (s, _) = delete(json!({ "contactIds": [bulk[0], "01UNKNOWN"] })).await;
    assert_eq!(s, 404);
    let (s, v) = delete(json!({ "contactIds": [bulk[0]] })).await;
    assert_eq!((s, v["deleted"].as_i64()), (200, Some(1)), "{v}");
    assert_eq!(v["message"], "Deleted 1 contact");
    let (s, v) = delete(json!({ "contactFilter": { "region": "atlantis" } })).await;
    assert_eq!((s, v["errors"]["region"].is_string()), (422, true), "{v}");
    let (s, v) = delete(json!({})).await;
    assert_eq!(
        (s, v["errors"]["contactIds"].is_string()),
        (422, true),
        "{v}"
    );
    let (s, v) = delete(json!({ "contactFilter": { "q": "leaver" } })).await;
    assert_eq!((s, v["deleted"].as_i64()), (200, Some(2)), "{v}");
    assert_eq!(v["message"], "Deleted 2 contacts");
    for id in &bulk {
        assert_eq!(
            get(&app, &user, &format!("/api/contacts/{id}")).await.0,
            404
        );
    }
    assert_eq!(count("SELECT COUNT(*) FROM contacts").await, 1);
    app.stop().await;
}

both_backends!(
    search_finds_records_and_hides_jobs_from_users,
    contact_timeline_is_newest_first_and_pages,
    company_timeline_holds_its_contacts_items,
    notes_validate_and_only_authors_or_admins_delete,
    tasks_are_created_completed_and_ordered,
    deleting_a_record_removes_its_notes_and_tasks,
);
