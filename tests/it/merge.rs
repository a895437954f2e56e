//! Duplicates and merges (docs/merge.md) as callers see them: each kind of duplicate found and
//! paged, a record's possible duplicates, merges that move every related row onto the survivor and
//! leave the rollup figures equal to a recount, the timeline entry, the bulk `record_merge` job,
//! "not duplicates", and clear 4xx answers to bad input. Every test runs on SQLite and on Postgres.
// A failed expectation is a failed test: panicking is how these report.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::rollups::{recounted, stored_rollups};
use common::*;
use jobs::db::Db;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

both_backends!(
    finds_each_kind_of_duplicate,
    merging_companies_moves_everything,
    merging_contacts_moves_history_and_resolves_conflicts,
    bulk_merge_job_merges_every_group,
    dismissed_pairs_are_not_suggested_again,
    bad_merges_get_clear_errors,
);

const DAY: i64 = 86_400_000;

/// A company row as imports and scans leave it (no domain unless given).
async fn company(db: &Db, id: &str, name: &str, f: &[(&str, &str)]) {
    let mut cols = vec!["id", "name", "created_at", "updated_at"];
    let now = now_ms() - 10 * DAY;
    let mut vals = vec![
        format!("'{id}'"),
        format!("'{}'", name.replace('\'', "''")),
        now.to_string(),
        now.to_string(),
    ];
    for (c, v) in f {
        cols.push(c);
        vals.push(format!("'{}'", v.replace('\'', "''")));
    }
    exec!(
        db,
        format!(
            "INSERT INTO companies ({}) VALUES ({})",
            cols.join(", "),
            vals.join(", ")
        )
    );
}

async fn contact(db: &Db, id: &str, first: &str, last: &str, f: &[(&str, &str)]) {
    let mut cols = vec!["id", "first_name", "last_name", "created_at", "updated_at"];
    let now = now_ms() - 5 * DAY;
    let mut vals = vec![
        format!("'{id}'"),
        format!("'{first}'"),
        format!("'{last}'"),
        now.to_string(),
        now.to_string(),
    ];
    for (c, v) in f {
        cols.push(c);
        vals.push(format!("'{}'", v.replace('\'', "''")));
    }
    exec!(
        db,
        format!(
            "INSERT INTO contacts ({}) VALUES ({})",
            cols.join(", "),
            vals.join(", ")
        )
    );
}

async fn get(app: &TestApp, c: &Client, path: &str) -> (u16, Value) {
    send(c.get(app.url(path))).await
}

async fn post(app: &TestApp, c: &Client, path: &str, body: Value) -> (u16, Value) {
    send(c.post(app.url(path)).json(&body)).await
}

/// The groups of a listing as (reason, sorted ids).
fn groups_of(v: &Value) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let mut ids: Vec<String> = g["records"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["id"].as_str().unwrap().to_string())
                .collect();
            ids.sort();
            (g["reason"].as_str().unwrap().to_string(), ids)
        })
        .collect();
    out.sort();
    out
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

async fn count(db: &Db, sql: &str, id: &str) -> i64 {
    scalar!(db, i64, sql, id)
}

async fn finds_each_kind_of_duplicate(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    // A and B: same name (legal suffixes, punctuation, case and spaces aside) in one city;
    // A and C: same website domain (C's stored domain, A's website); B and C: same phone.
    company(
        &app.db,
        "CA",
        "Acme Bath Co., Inc.",
        &[
            ("website", "https://www.Acme-Bath.example/about"),
            ("city", "Dallas"),
            ("state", "TX"),
        ],
    )
    .await;
    company(
        &app.db,
        "CB",
        "ACME  bath LLC",
        &[
            ("phone", "(214) 555-0100"),
            ("city", " dallas "),
            ("state", "tx"),
        ],
    )
    .await;
    company(
        &app.db,
        "CC",
        "Bath Pros",
        &[
            ("domain", "acme-bath.example"),
            ("phone", "+1 214.555.0100"),
            ("city", "Austin"),
            ("state", "TX"),
        ],
    )
    .await;
    company(
        &app.db,
        "CD",
        "Acme Bath",
        &[("city", "Houston"), ("state", "TX"), ("phone", "555-0100")],
    )
    .await;
    let (s, v) = get(&app, &user, "/api/duplicates?recordType=company").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        groups_of(&v),
        vec![
            ("domain".into(), ids(&["CA", "CC"])),
            ("name".into(), ids(&["CA", "CB"])),
            ("phone".into(), ids(&["CB", "CC"])),
        ]
    );
    let labels: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["label"].as_str().unwrap())
        .collect();
    assert!(
        labels.contains(&"Same website")
            && labels.contains(&"Same phone")
            && labels.contains(&"Same name and city"),
        "{labels:?}"
    );
    // Paged, with the total in the header.
    let res = user
        .get(app.url("/api/duplicates?recordType=company&limit=1&offset=1"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "3");
    assert_eq!(
        res.json::<Value>().await.unwrap().as_array().unwrap().len(),
        1
    );
    let (_, v) = get(
        &app,
        &user,
        "/api/duplicates?recordType=company&reason=phone",
    )
    .await;
    assert_eq!(groups_of(&v), vec![("phone".into(), ids(&["CB", "CC"]))]);
    // A record page's possible duplicates, with every reason.
    let (s, v) = get(&app, &user, "/api/companies/CC/duplicates").await;
    assert_eq!(s, 200, "{v}");
    let twins: Vec<(String, Vec<String>)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["id"].as_str().unwrap().to_string(),
                t["reasons"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r["reason"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        twins,
        vec![
            ("CA".into(), ids(&["domain"])),
            ("CB".into(), ids(&["phone"]))
        ]
    );
    assert_eq!(
        get(&app, &user, "/api/companies/CD/duplicates").await.1,
        json!([])
    );
    // The website key reads a website as discovery's domain_of does.
    for (i, site) in [
        "https://www.Acme-Bath.example/about",
        "http://shop.example?x=1",
        "HTTPS://WWW.X.EXAMPLE#top",
        "acme.example",
        "not a site",
        "https://acme.example:8080/x",
    ]
    .iter()
    .enumerate()
    {
        let id = format!("W{i}");
        company(&app.db, &id, &format!("Web {i}"), &[("website", site)]).await;
        let key: Option<String> = scalar!(
            &app.db,
            Option<String>,
            "SELECT dup_domain FROM companies WHERE id = $1",
            &id
        );
        assert_eq!(key, jobs::providers::discovery::domain_of(site), "{site}");
    }

    // Contacts: the same email (case and spaces aside), phone, and full name at one company.
    contact(
        &app.db,
        "PA",
        "Ann",
        "Lee",
        &[("email", "Ann.Lee@Example.test"), ("company_id", "CA")],
    )
    .await;
    contact(
        &app.db,
        "PB",
        "ann",
        "Lee ",
        &[
            ("email", " ann.lee@example.test"),
            ("phone", "214 555 0199"),
            ("company_id", "CA"),
        ],
    )
    .await;
    contact(
        &app.db,
        "PC",
        "Bob",
        "Ray",
        &[("phone", "+1 (214) 555-0199")],
    )
    .await;
    contact(&app.db, "PD", "Ann", "Lee", &[("company_id", "CB")]).await;
    let (s, v) = get(&app, &user, "/api/duplicates?recordType=contact").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        groups_of(&v),
        vec![
            ("email".into(), ids(&["PA", "PB"])),
            ("name".into(), ids(&["PA", "PB"])),
            ("phone".into(), ids(&["PB", "PC"])),
        ]
    );
    let group = v
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["reason"] == "email")
        .unwrap();
    assert_eq!(group["label"], "Same email");
    assert_eq!(group["count"], 2);
    let first = &group["records"][0];
    assert_eq!(first["companyName"], "Acme Bath Co., Inc.");
    assert_eq!(
        first["href"],
        format!("/contacts/{}", first["id"].as_str().unwrap())
    );
    let (_, v) = get(&app, &user, "/api/contacts/PC/duplicates").await;
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["id"], "PB");
    assert_eq!(v[0]["reasons"][0]["label"], "Same phone");
    app.stop().await;
}

/// The survivor's timeline items of kind `merged`.
async fn merged_items(app: &TestApp, c: &Client, path: &str) -> Vec<Value> {
    let (s, v) = get(app, c, path).await;
    assert_eq!(s, 200, "{v}");
    v["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["kind"] == "merged")
        .cloned()
        .collect()
}

async fn merging_companies_moves_everything(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let now = now_ms();
    company(
        &app.db,
        "S",
        "Acme Bath",
        &[("city", "Dallas"), ("state", "TX"), ("status", "qualified")],
    )
    .await;
    company(
        &app.db,
        "L",
        "Acme Bath Inc",
        &[
            ("industry", "Remodeling"),
            ("revenue", "2500000"),
            ("domain", "acme.example"),
            ("website", "https://acme.example"),
            ("phone", "2145550100"),
            ("state", "OK"),
            ("status", "prospect"),
        ],
    )
    .await;
    contact(
        &app.db,
        "K1",
        "Kim",
        "One",
        &[("company_id", "L"), ("status", "customer"), ("score", "88")],
    )
    .await;
    contact(
        &app.db,
        "K2",
        "Kai",
        "Two",
        &[("company_id", "L"), ("status", "contacted")],
    )
    .await;
    contact(&app.db, "K3", "Sue", "Stay", &[("company_id", "S")]).await;
    exec!(&app.db, "INSERT INTO deals (id, title, value, stage, company_id, contact_id, stage_changed_at, created_at, updated_at)
                    VALUES ('D1', 'Showroom', 12000, 'proposal', 'L', 'K1', $1, $1, $1)", now);
    exec!(
        &app.db,
        "INSERT INTO meetings (id, title, company_id, scheduled_at, created_at, updated_at)
                    VALUES ('M1', 'Intro call', 'L', $1, $1, $1)",
        now + DAY
    );
    exec!(&app.db, "INSERT INTO activities (id, type, description, entity_type, entity_id, created_at)
                    VALUES ('A1', 'company_status_change', 'Status changed from discovered to prospect', 'company', 'L', $1)", now - DAY);
    exec!(
        &app.db,
        "INSERT INTO notes (id, entity_type, entity_id, body, created_at) VALUES ('N1', 'company', 'L', 'Met at the expo', $1)",
        now
    );
    exec!(
        &app.db,
        "INSERT INTO tasks (id, entity_type, entity_id, title, created_at, updated_at) VALUES ('T1', 'company', 'L', 'Send brochure', $1, $1)",
        now
    );

    let (s, v) = post(
        &app,
        &user,
        "/api/merge",
        json!({ "recordType": "company", "survivorId": "S", "mergeIds": ["L"] }),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["survivorId"], "S");
    assert_eq!(v["merged"], 1);
    assert_eq!(v["moved"]["contacts"], 2);
    assert_eq!(v["moved"]["deals"], 1);
    assert_eq!(v["moved"]["meetings"], 1);
    assert_eq!(v["moved"]["notes"], 1);
    assert_eq!(v["moved"]["tasks"], 1);

    assert_eq!(
        count(&app.db, "SELECT COUNT(*) FROM companies WHERE id = $1", "L").await,
        0
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM contacts WHERE company_id = $1",
            "S"
        )
        .await,
        3
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM deals WHERE company_id = $1",
            "S"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM meetings WHERE company_id = $1",
            "S"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM notes WHERE entity_id = $1",
            "S"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM tasks WHERE entity_id = $1",
            "S"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM activities WHERE entity_id = $1 AND id = 'A1'",
            "S"
        )
        .await,
        1
    );
    // Empty fields filled from the merged company; the survivor's own kept; the unique domain moved.
    let (s, v) = get(&app, &user, "/api/companies/S").await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["industry"], "Remodeling");
    assert_eq!(v["state"], "TX");
    assert_eq!(v["status"], "qualified");
    assert_eq!(v["phone"], "2145550100");
    let domain: Option<String> = scalar!(
        &app.db,
        Option<String>,
        "SELECT domain FROM companies WHERE id = $1",
        "S"
    );
    assert_eq!(domain.as_deref(), Some("acme.example"));
    // The related list and the timeline show what came over, and who merged it.
    let (_, related) = get(&app, &user, "/api/companies/S/related").await;
    assert_eq!(related["contactCount"], 3);
    let items = merged_items(&app, &user, "/api/companies/S/timeline").await;
    assert_eq!(items.len(), 1, "{items:?}");
    assert_eq!(items[0]["title"], "Merged a duplicate into this record");
    let detail = items[0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("Acme Bath Inc")
            && detail.contains("2 contacts")
            && detail.contains("1 deal"),
        "{detail}"
    );
    assert!(items[0]["actor"].is_string(), "{}", items[0]);
    assert_rollups_match(&app.db).await;
    app.stop().await;
}

async fn merging_contacts_moves_history_and_resolves_conflicts(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let now = now_ms();
    company(&app.db, "CO", "Bath Pros", &[("state", "TX")]).await;
    contact(
        &app.db,
        "S",
        "Ann",
        "Lee",
        &[
            ("email", "ann@work.example"),
            ("status", "contacted"),
            ("tags", "[\"vip\"]"),
        ],
    )
    .await;
    contact(
        &app.db,
        "L",
        "Ann",
        "Lee",
        &[
            ("email", "ann@home.example"),
            ("phone", "2145550199"),
            ("title", "Owner"),
            ("company_id", "CO"),
            ("status", "customer"),
            ("score", "91"),
            ("tags", "[\"bath\", \"VIP\"]"),
        ],
    )
    .await;
    exec!(
        &app.db,
        format!(
            "UPDATE contacts SET last_contacted_at = {} WHERE id = 'L'",
            now - DAY
        )
    );
    exec!(
        &app.db,
        "INSERT INTO deals (id, title, value, contact_id, stage_changed_at, created_at, updated_at) VALUES ('D1', 'Tub', 9000, 'L', $1, $1, $1)",
        now
    );
    exec!(
        &app.db,
        "INSERT INTO meetings (id, title, contact_id, scheduled_at, created_at, updated_at) VALUES ('M1', 'Visit', 'L', $1, $1, $1)",
        now + DAY
    );
    exec!(&app.db, "INSERT INTO campaigns (id, kind, name, status, selected_contact_ids, created_at, updated_at)
                    VALUES ('CP', 'bulk', 'Spring', 'draft', '[\"L\", \"S\", \"X\"]', $1, $1)", now);
    exec!(
        &app.db,
        "INSERT INTO campaigns (id, kind, name, status, created_at, updated_at) VALUES ('CQ', 'bulk', 'Summer', 'sent', $1, $1)",
        now
    );
    exec!(&app.db, "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email, message_id, status, created_at, sent_at)
                    VALUES ('E1', 'campaign:CQ:L', 'CQ', 'L', 'ann@home.example', 'us@example.test', '<E1@x>', 'sent', $1, $1)", now - DAY);
    exec!(
        &app.db,
        "INSERT INTO email_events (id, message_id, contact_id, email, event_type, occurred_at) VALUES ('EV1', 'E1', 'L', 'ann@home.example', 'opened', $1)",
        now - DAY
    );
    exec!(
        &app.db,
        "INSERT INTO sms_messages (id, dedupe_key, contact_id, kind, to_phone, body, status, created_at) VALUES ('SM1', 'sms:1', 'L', 'manual', '2145550199', 'Hi', 'sent', $1)",
        now
    );
    exec!(&app.db, format!("INSERT INTO voice_calls (id, contact_id, agent_id, purpose, to_phone, status, simulated, created_at, updated_at)
                    VALUES ('V1', 'L', 'agent-qualify', 'Qualify', '2145550199', 'completed', {}, {now}, {now})", if app.db.backend() == jobs::db::Backend::Postgres { "TRUE" } else { "1" }));
    // Both are in sequence Q1: the merged contact's run ended (a reply), the survivor's is active;
    // only the merged contact is in Q2.
    for q in ["Q1", "Q2"] {
        exec!(
            &app.db,
            "INSERT INTO email_sequences (id, name, description, created_at, updated_at) VALUES ($1, $1, 'A sequence for the test', $2, $2)",
            q,
            now
        );
    }
    exec!(
        &app.db,
        "INSERT INTO sequence_enrollments (id, sequence_id, contact_id, status, current_step, exit_reason, enrolled_at, updated_at) VALUES ('EL1', 'Q1', 'L', 'exited', 1, 'replied', $1, $1)",
        now
    );
    exec!(
        &app.db,
        "INSERT INTO sequence_enrollments (id, sequence_id, contact_id, status, current_step, enrolled_at, updated_at) VALUES ('ES1', 'Q1', 'S', 'active', 2, $1, $1)",
        now
    );
    exec!(
        &app.db,
        "INSERT INTO sequence_enrollments (id, sequence_id, contact_id, status, current_step, enrolled_at, updated_at) VALUES ('EL2', 'Q2', 'L', 'active', 0, $1, $1)",
        now
    );
    exec!(&app.db, "INSERT INTO email_messages (id, dedupe_key, contact_id, enrollment_id, to_email, from_email, message_id, status, created_at, sent_at)
                    VALUES ('E2', 'seq:ES1:step1', 'S', 'ES1', 'ann@work.example', 'us@example.test', '<E2@x>', 'sent', $1, $1)", now - DAY);
    exec!(
        &app.db,
        "INSERT INTO suppressions (email, reason, created_at) VALUES ('ann@home.example', 'unsubscribed', $1)",
        now
    );
    exec!(
        &app.db,
        "INSERT INTO notes (id, entity_type, entity_id, body, created_at) VALUES ('N1', 'contact', 'L', 'Prefers calls', $1)",
        now
    );

    let (s, v) = post(
        &app,
        &user,
        "/api/merge",
        json!({ "recordType": "contact", "survivorId": "S", "mergeIds": ["L"] }),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["moved"]["deals"], 1);
    assert_eq!(v["moved"]["emails"], 1);
    assert_eq!(v["moved"]["calls"], 1);
    assert_eq!(v["moved"]["textMessages"], 1);
    assert_eq!(v["moved"]["campaigns"], 1);
    assert_eq!(
        count(&app.db, "SELECT COUNT(*) FROM contacts WHERE id = $1", "L").await,
        0
    );
    for table in [
        "deals",
        "meetings",
        "email_messages",
        "email_events",
        "sms_messages",
        "voice_calls",
    ] {
        let sql = format!("SELECT COUNT(*) FROM {table} WHERE contact_id = $1");
        let moved: i64 = scalar!(&app.db, i64, sql, "S");
        assert!(moved >= 1, "{table} did not move");
        let left: i64 = scalar!(
            &app.db,
            i64,
            format!("SELECT COUNT(*) FROM {table} WHERE contact_id = 'L'")
        );
        assert_eq!(left, 0, "{table} still points at the merged contact");
    }
    // The campaign message is keyed to the survivor now: the campaign never mails the person twice.
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM email_messages WHERE dedupe_key = $1",
            "campaign:CQ:S"
        )
        .await,
        1
    );
    // One enrollment per sequence: the ended one is kept (no restarted mail), its mail re-pointed.
    let kept: String = scalar!(
        &app.db,
        String,
        "SELECT id FROM sequence_enrollments WHERE sequence_id = 'Q1' AND contact_id = $1",
        "S"
    );
    assert_eq!(kept, "EL1");
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM email_messages WHERE enrollment_id = $1",
            "EL1"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM sequence_enrollments WHERE contact_id = $1",
            "S"
        )
        .await,
        2
    );
    // The person's unsubscribe follows them to the address that stays.
    let reason: Option<String> = scalar!(
        &app.db,
        Option<String>,
        "SELECT MAX(reason) FROM suppressions WHERE email = $1",
        "ann@work.example"
    );
    assert_eq!(reason.as_deref(), Some("unsubscribed"));
    // The campaign picks the survivor, once.
    let picks: String = scalar!(
        &app.db,
        String,
        "SELECT CAST(selected_contact_ids AS TEXT) FROM campaigns WHERE id = $1",
        "CP"
    );
    let picks: Vec<String> = serde_json::from_str(&picks).unwrap();
    assert_eq!(picks, ids(&["S", "X"]));
    let (_, c) = get(&app, &user, "/api/contacts/S").await;
    assert_eq!(c["email"], "ann@work.example");
    assert_eq!(c["phone"], "2145550199");
    assert_eq!(c["title"], "Owner");
    assert_eq!(c["status"], "contacted");
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM contacts WHERE company_id = 'CO' AND id = $1",
            "S"
        )
        .await,
        1
    );
    let tags: String = scalar!(
        &app.db,
        String,
        "SELECT CAST(tags AS TEXT) FROM contacts WHERE id = $1",
        "S"
    );
    assert_eq!(
        serde_json::from_str::<Vec<String>>(&tags).unwrap(),
        ids(&["vip", "bath"])
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM notes WHERE entity_type = 'contact' AND entity_id = $1",
            "S"
        )
        .await,
        1
    );
    let items = merged_items(&app, &user, "/api/contacts/S/timeline").await;
    assert_eq!(items.len(), 1);
    let detail = items[0]["detail"].as_str().unwrap();
    assert!(
        detail.contains("Ann Lee (ann@home.example)")
            && detail.contains("1 deal")
            && detail.contains("1 call"),
        "{detail}"
    );

    // A survivor without an email takes the merged one's.
    contact(&app.db, "S2", "Bo", "Ng", &[]).await;
    contact(&app.db, "L2", "Bo", "Ng", &[("email", "bo@example.test")]).await;
    let (s, v) = post(
        &app,
        &user,
        "/api/merge",
        json!({ "recordType": "contact", "survivorId": "S2", "mergeIds": ["L2"] }),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let email: Option<String> = scalar!(
        &app.db,
        Option<String>,
        "SELECT email FROM contacts WHERE id = $1",
        "S2"
    );
    assert_eq!(email.as_deref(), Some("bo@example.test"));
    assert_rollups_match(&app.db).await;
    app.stop().await;
}

async fn bulk_merge_job_merges_every_group(db: TestDb) {
    let mut app = TestApp::idle(&db).await;
    let user = app.user().await;
    // Three groups by phone: two pairs, and a trio with one pair someone said are different.
    company(
        &app.db,
        "A1",
        "Alpha",
        &[
            ("phone", "2145550001"),
            ("industry", "Bath"),
            ("website", "https://alpha.example"),
        ],
    )
    .await;
    company(
        &app.db,
        "A2",
        "Alpha Remodeling",
        &[("phone", "(214) 555-0001")],
    )
    .await;
    company(&app.db, "B1", "Beta", &[("phone", "2145550002")]).await;
    company(
        &app.db,
        "B2",
        "Beta Baths",
        &[("phone", "214-555-0002"), ("state", "TX")],
    )
    .await;
    contact(&app.db, "BK", "Bea", "Kay", &[("company_id", "B1")]).await;
    company(&app.db, "G1", "Gamma", &[("phone", "2145550003")]).await;
    company(&app.db, "G2", "Gamma Two", &[("phone", "2145550003")]).await;
    company(&app.db, "G3", "Gamma Three", &[("phone", "2145550003")]).await;
    let (s, _) = post(
        &app,
        &user,
        "/api/duplicates/dismiss",
        json!({ "recordType": "company", "ids": ["G1", "G3"] }),
    )
    .await;
    assert_eq!(s, 200);
    let (s, v) = post(
        &app,
        &user,
        "/api/merge/bulk",
        json!({ "recordType": "company", "reason": "phone" }),
    )
    .await;
    assert_eq!(s, 202, "{v}");
    let job_id = v["jobId"].as_str().unwrap().to_string();
    // A second click while it waits follows the same job.
    let (_, again) = post(
        &app,
        &user,
        "/api/merge/bulk",
        json!({ "recordType": "company", "reason": "phone" }),
    )
    .await;
    assert_eq!(again["jobId"], job_id);
    app.start_worker().await;
    let admin = app.admin().await;
    let job = app
        .wait_status(&admin, &job_id, "succeeded", Duration::from_secs(30))
        .await;
    assert_eq!(job["kind"], "record_merge");
    assert_eq!(job["result"]["groupsMerged"], 2, "{job}");
    assert_eq!(job["result"]["recordsMerged"], 2, "{job}");
    assert_eq!(job["result"]["groupsSkipped"], 1, "{job}");
    // The most complete record survived each pair; the trio is left for a person.
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM companies WHERE id = $1",
            "A1"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM companies WHERE id = $1",
            "A2"
        )
        .await,
        0
    );
    assert_eq!(
        scalar!(
            &app.db,
            i64,
            "SELECT COUNT(*) FROM companies WHERE id IN ('B1', 'B2')"
        ),
        1
    );
    let (_, v) = get(
        &app,
        &user,
        "/api/duplicates?recordType=company&reason=phone",
    )
    .await;
    assert_eq!(
        groups_of(&v),
        vec![("phone".into(), ids(&["G1", "G2", "G3"]))]
    );
    let survivor: String = scalar!(
        &app.db,
        String,
        "SELECT id FROM companies WHERE id IN ('B1', 'B2')"
    );
    assert_eq!(
        count(
            &app.db,
            "SELECT COUNT(*) FROM contacts WHERE company_id = $1",
            &survivor
        )
        .await,
        1
    );
    let items = merged_items(&app, &user, &format!("/api/companies/{survivor}/timeline")).await;
    assert_eq!(items.len(), 1);
    assert_rollups_match(&app.db).await;
    app.stop().await;
}

async fn dismissed_pairs_are_not_suggested_again(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    contact(&app.db, "P1", "Al", "One", &[("phone", "2145550100")]).await;
    contact(&app.db, "P2", "Al", "Two", &[("phone", "214.555.0100")]).await;
    let (_, v) = get(&app, &user, "/api/duplicates?recordType=contact").await;
    assert_eq!(groups_of(&v), vec![("phone".into(), ids(&["P1", "P2"]))]);
    let (s, v) = post(
        &app,
        &user,
        "/api/duplicates/dismiss",
        json!({ "recordType": "contact", "ids": ["P2", "P1"] }),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["dismissedPairs"], 1);
    let (_, v) = get(&app, &user, "/api/duplicates?recordType=contact").await;
    assert_eq!(v, json!([]));
    assert_eq!(
        get(&app, &user, "/api/contacts/P1/duplicates").await.1,
        json!([])
    );
    // Said twice, remembered once.
    let (s, v) = post(
        &app,
        &user,
        "/api/duplicates/dismiss",
        json!({ "recordType": "contact", "ids": ["P1", "P2"] }),
    )
    .await;
    assert_eq!((s, v["dismissedPairs"].clone()), (200, json!(0)));
    // A third record with the same number brings the group back, the dismissed pair with it.
    contact(
        &app.db,
        "P3",
        "Al",
        "Three",
        &[("phone", "+1 214 555 0100")],
    )
    .await;
    let (_, v) = get(&app, &user, "/api/duplicates?recordType=contact").await;
    assert_eq!(
        groups_of(&v),
        vec![("phone".into(), ids(&["P1", "P2", "P3"]))]
    );
    let (_, v) = get(&app, &user, "/api/contacts/P1/duplicates").await;
    assert_eq!(v.as_array().unwrap().len(), 1);
    assert_eq!(v[0]["id"], "P3");
    app.stop().await;
}

async fn bad_merges_get_clear_errors(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    company(&app.db, "C1", "One", &[]).await;
    company(&app.db, "C2", "Two", &[]).await;
    contact(&app.db, "K1", "Kim", "One", &[]).await;
    let cases = [
        (
            json!({ "recordType": "company", "survivorId": "C1", "mergeIds": ["C1"] }),
            422,
            "A record cannot be merged with itself",
        ),
        (
            json!({ "recordType": "company", "survivorId": "C1", "mergeIds": ["nope"] }),
            404,
            "Company not found",
        ),
        (
            json!({ "recordType": "company", "survivorId": "nope", "mergeIds": ["C1"] }),
            404,
            "Company not found",
        ),
        (
            json!({ "recordType": "contact", "survivorId": "K1", "mergeIds": ["nope"] }),
            404,
            "Contact not found",
        ),
        (
            json!({ "recordType": "company", "survivorId": "C1", "mergeIds": ["K1"] }),
            422,
            "Companies can only be merged with companies, and contacts with contacts",
        ),
        (
            json!({ "recordType": "contact", "survivorId": "C1", "mergeIds": ["K1"] }),
            422,
            "Companies can only be merged with companies, and contacts with contacts",
        ),
        (
            json!({ "recordType": "deal", "survivorId": "C1", "mergeIds": ["C2"] }),
            422,
            "recordType must be one of: company, contact",
        ),
        (
            json!({ "survivorId": "C1", "mergeIds": ["C2"] }),
            422,
            "recordType is required",
        ),
        (
            json!({ "recordType": "company", "mergeIds": ["C2"] }),
            422,
            "survivorId is required",
        ),
        (
            json!({ "recordType": "company", "survivorId": "C1", "mergeIds": "C2" }),
            422,
            "mergeIds must be a list of ids",
        ),
        (
            json!({ "recordType": "company", "survivorId": "C1", "mergeIds": [] }),
            422,
            "Pick at least one record to merge into the survivor",
        ),
    ];
    for (body, status, message) in cases {
        let (s, v) = post(&app, &user, "/api/merge", body.clone()).await;
        assert_eq!(
            (s, v["message"].as_str()),
            (status, Some(message)),
            "{body}: {v}"
        );
    }
    let (s, v) = send(
        user.post(app.url("/api/merge"))
            .header("content-type", "application/json")
            .body("{not json"),
    )
    .await;
    assert!(
        (400..500).contains(&s) && v["message"].is_string(),
        "{s} {v}"
    );
    // Nothing was written by any of them.
    assert_eq!(scalar!(&app.db, i64, "SELECT COUNT(*) FROM companies"), 2);
    assert_eq!(scalar!(&app.db, i64, "SELECT COUNT(*) FROM contacts"), 1);
    for (path, body, status, message) in [
        (
            "/api/duplicates/dismiss",
            json!({ "recordType": "company", "ids": ["C1"] }),
            422,
            "Pick at least two different records",
        ),
        (
            "/api/duplicates/dismiss",
            json!({ "recordType": "company", "ids": ["C1", "K1"] }),
            422,
            "Companies can only be merged with companies, and contacts with contacts",
        ),
        (
            "/api/duplicates/dismiss",
            json!({ "recordType": "company", "ids": ["C1", "zz"] }),
            404,
            "Company not found",
        ),
        (
            "/api/merge/bulk",
            json!({ "recordType": "company", "reason": "email" }),
            422,
            "reason must be one of: domain, phone, name",
        ),
        (
            "/api/merge/bulk",
            json!({ "recordType": "contact" }),
            422,
            "reason is required",
        ),
    ] {
        let (s, v) = post(&app, &user, path, body.clone()).await;
        assert_eq!(
            (s, v["message"].as_str()),
            (status, Some(message)),
            "{path} {body}: {v}"
        );
    }
    for (path, status, message) in [
        ("/api/duplicates", 422, "recordType is required"),
        (
            "/api/duplicates?recordType=company&reason=email",
            422,
            "reason must be one of: domain, phone, name",
        ),
        (
            "/api/duplicates?recordType=company&limit=0",
            400,
            "limit must be between 1 and 1000",
        ),
        ("/api/companies/K1/duplicates", 404, "Company not found"),
        ("/api/contacts/nope/duplicates", 404, "Contact not found"),
    ] {
        let (s, v) = get(&app, &user, path).await;
        assert_eq!(
            (s, v["message"].as_str()),
            (status, Some(message)),
            "{path}: {v}"
        );
    }
    let (s, _) = post(&app, &app.anonymous(), "/api/merge", json!({})).await;
    assert_eq!(s, 401);
    app.stop().await;
}

/// The rollup tables (migrations 0022–0030) equal a recount of the rows.
async fn assert_rollups_match(db: &Db) {
    let stored = stored_rollups(db).await;
    let recount = recounted(db).await;
    assert_eq!(stored, recount);
}
