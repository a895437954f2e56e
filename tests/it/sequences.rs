//! Email sequences as staff use them (seed 002 "Email Sequences page", §3–§5, §9): the schema rules
//! and messages, steps with their order, enrollments within the daily allowance, unenroll and
//! archive, reply rules. Every test runs on SQLite and on Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::smtp::SmtpSink;
use common::*;
use jobs::db::Db;
use jobs::kinds::SequenceTick;
use jobs::queue::{JobKind, NewJob};
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(20);

async fn create(app: &TestApp, c: &Client, body: Value) -> (u16, Value) {
    send(c.post(app.url("/api/email-sequences")).json(&body)).await
}

async fn insert_contact(db: &Db, first: &str, email: Option<&str>, score: i32) -> String {
    let id = ulid::Ulid::new().to_string();
    let now = now_ms();
    exec!(
        db,
        "INSERT INTO contacts (id, first_name, last_name, email, status, score, created_at, updated_at)
         VALUES ($1, $2, 'Seq', $3, 'new_lead', $4, $5, $5)",
        &id,
        first,
        email,
        score,
        now
    );
    id
}

async fn sequences_steps_and_rules(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let cases = [
        (
            json!({ "name": "A", "description": "long enough text" }),
            "Name must be at least 2 characters",
        ),
        (
            json!({ "name": "Dealers", "description": "short" }),
            "Description must be at least 10 characters",
        ),
        (
            json!({ "name": "Dealers", "description": "long enough text", "status": "live" }),
            "status must be one of: draft, active, paused, archived",
        ),
        (
            json!({ "name": "Dealers", "description": "long enough text", "triggerType": "cron" }),
            "triggerType must be one of",
        ),
        (
            json!({ "name": "Dealers", "description": "long enough text", "maxDailyEnrollments": 0 }),
            "Max daily enrollments must be at least 1",
        ),
    ];
    for (body, message) in cases {
        let (status, r) = create(&app, &user, body).await;
        assert_eq!(status, 422, "{r}");
        assert!(r["message"].as_str().unwrap().starts_with(message), "{r}");
    }
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM email_sequences").await,
        0
    );

    let (status, s) = create(
        &app,
        &user,
        json!({ "name": "Dealer onboarding", "description": "Three touches for new dealers" }),
    )
    .await;
    assert_eq!(status, 201, "{s}");
    assert_eq!(
        (
            s["status"].as_str(),
            s["triggerType"].as_str(),
            s["abTestingEnabled"].as_bool(),
            s["maxDailyEnrollments"].as_i64(),
            s["totalEnrollments"].as_i64()
        ),
        (
            Some("draft"),
            Some("manual"),
            Some(false),
            Some(50),
            Some(0)
        )
    );
    let id = s["id"].as_str().unwrap().to_string();
    let seq = |p: &str| app.url(&format!("/api/email-sequences/{id}{p}"));
    let (status, s) = send(user.patch(seq("")).json(&json!({ "status": "active" }))).await;
    assert_eq!(
        (status, s["status"].as_str(), s["name"].as_str()),
        (200, Some("active"), Some("Dealer onboarding"))
    );
    let (status, _) = send(
        user.patch(seq(""))
            .json(&json!({ "description": "too short" })),
    )
    .await;
    assert_eq!(status, 422);
    let (status, _) = send(
        user.patch(app.url("/api/email-sequences/nope"))
            .json(&json!({ "status": "paused" })),
    )
    .await;
    assert_eq!(status, 404);

    // Steps: the schema rules, defaults, running order and reorder.
    for (body, field) in [
        (json!({ "name": "X" }), "name"),
        (json!({ "name": "Intro", "type": "sms" }), "type"),
        (
            json!({ "name": "Intro", "delayMinutes": -1 }),
            "delayMinutes",
        ),
        (json!({ "name": "Intro", "stepOrder": -1 }), "stepOrder"),
    ] {
        let (status, r) = send(user.post(seq("/steps")).json(&body)).await;
        assert_eq!(status, 422, "{r}");
        assert!(r["errors"][field].is_string(), "{r}");
    }
    let (status, r) = send(
        user.post(seq("/steps"))
            .json(&json!({ "name": "Intro", "config": { "templateId": "nope" } })),
    )
    .await;
    assert_eq!(status, 422, "{r}");
    let mut step_ids = Vec::new();
    for body in [
        json!({ "name": "Intro email", "config": { "templateId": "business-outreach" } }),
        json!({ "name": "Wait two days", "type": "delay", "delayMinutes": 2880 }),
        json!({ "name": "Follow up", "config": { "subject": "Checking in", "body": "<p>Hi {{firstName}}</p>" } }),
    ] {
        let (status, st) = send(user.post(seq("/steps")).json(&body)).await;
        assert_eq!(status, 201, "{st}");
        step_ids.push(st["id"].as_str().unwrap().to_string());
    }
    let steps = app
        .get_json(&user, &format!("/api/email-sequences/{id}/steps"))
        .await;
    let names: Vec<&str> = steps
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["Intro email", "Wait two days", "Follow up"],
        "same order: by creation"
    );
    assert_eq!(steps[1]["delayMinutes"], 2880);
    assert_eq!(steps[0]["totalSent"], 0);
    let (status, _) = send(
        user.post(seq("/steps/reorder"))
            .json(&json!({ "stepIds": [step_ids[0]] })),
    )
    .await;
    assert_eq!(status, 422, "every step exactly once");
    let order = json!({ "stepIds": [step_ids[2], step_ids[0], step_ids[1]] });
    let (status, steps) = send(user.post(seq("/steps/reorder")).json(&order)).await;
    assert_eq!(status, 200);
    assert_eq!(steps[0]["name"], "Follow up");
    assert_eq!(steps[2]["stepOrder"], 2);
    let (status, st) = send(
        user.patch(seq(&format!("/steps/{}", step_ids[1])))
            .json(&json!({ "delayMinutes": 60 })),
    )
    .await;
    assert_eq!(
        (status, st["delayMinutes"].as_i64(), st["name"].as_str()),
        (200, Some(60), Some("Wait two days"))
    );
    // The automation overview shows each sequence's steps in running order (read for all sequences
    // in one statement), a sequence without steps as still in development.
    let (status, empty) = create(
        &app,
        &user,
        json!({ "name": "Empty one", "description": "No steps written yet", "status": "active" }),
    )
    .await;
    assert_eq!(status, 201, "{empty}");
    let overview = app.get_json(&user, "/api/email-automation/status").await;
    let workflow = |wid: &str| {
        overview["automationWorkflows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|w| w["id"] == wid)
            .map(|w| (w["components"].clone(), w["status"].clone()))
    };
    assert_eq!(
        workflow(&id),
        Some((json!(["email", "email", "delay"]), json!("ready"))),
        "{overview}"
    );
    assert_eq!(
        workflow(empty["id"].as_str().unwrap()),
        Some((json!([]), json!("development")))
    );
    let (status, _) = send(user.delete(app.url(&format!(
        "/api/email-sequences/{}",
        empty["id"].as_str().unwrap()
    ))))
    .await;
    assert_eq!(status, 204);
    let (status, _) = send(user.delete(seq(&format!("/steps/{}", step_ids[1])))).await;
    assert_eq!(status, 204);
    let (status, _) = send(user.delete(seq(&format!("/steps/{}", step_ids[1])))).await;
    assert_eq!(status, 404);

    // Free-form rules keep any number JSON can carry: Postgres writes the edges of f64 out in full
    // (309 digits), and reading them back once answered 500 on every route that lists the step.
    let edges = json!({
        "max": f64::MAX, "min": f64::MIN, "tiny": 5e-324, "big": u64::MAX, "low": i64::MIN
    });
    let (status, st) = send(
        user.post(seq("/steps"))
            .json(&json!({ "name": "Edge rules", "type": "delay", "conditionalRules": edges })),
    )
    .await;
    assert_eq!(status, 201, "{st}");
    let edge_id = st["id"].as_str().unwrap().to_string();
    let steps = app
        .get_json(&user, &format!("/api/email-sequences/{id}/steps"))
        .await;
    let stored = steps
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["id"] == edge_id.as_str())
        .map(|s| s["conditionalRules"].clone());
    assert_eq!(stored, Some(edges));
    let (status, _) = send(user.delete(seq(&format!("/steps/{edge_id}")))).await;
    assert_eq!(status, 204);

    // Reply rules.
    let (status, r) = send(
        user.post(app.url("/api/reply-rules"))
            .json(&json!({ "name": "Keywords", "triggerType": "keyword" })),
    )
    .await;
    assert_eq!(status, 422, "a keyword rule needs keywords: {r}");
    let (status, rule) = send(user.post(app.url("/api/reply-rules")).json(&json!({ "name": "Not interested", "triggerType": "keyword", "keywords": ["not interested", "remove me"] }))).await;
    assert_eq!(status, 201, "{rule}");
    assert_eq!(
        (
            rule["action"].as_str(),
            rule["timesTriggered"].as_i64(),
            rule["isActive"].as_bool()
        ),
        (Some("stop_sequence"), Some(0), Some(true))
    );
    let rid = rule["id"].as_str().unwrap();
    let (status, rule) = send(
        user.patch(app.url(&format!("/api/reply-rules/{rid}")))
            .json(&json!({ "isActive": false })),
    )
    .await;
    assert_eq!((status, rule["isActive"].as_bool()), (200, Some(false)));
    let rules = app.get_json(&user, "/api/reply-rules").await;
    assert_eq!(rules.as_array().unwrap().len(), 1);
    let (status, _) = send(user.delete(app.url(&format!("/api/reply-rules/{rid}")))).await;
    assert_eq!(status, 204);

    let (status, _) = send(user.delete(seq(""))).await;
    assert_eq!(status, 204);
    assert_eq!(
        scalar(&app.db, "SELECT COUNT(*) FROM sequence_steps").await,
        0,
        "steps go with their sequence"
    );
    let (status, _) = send(user.get(seq(""))).await;
    assert_eq!(status, 404);
    app.stop().await;
}

async fn enrollments_within_the_daily_allowance(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let mut ids = Vec::new();
    for i in 0..5 {
        ids.push(
            insert_contact(
                &app.db,
                &format!("C{i}"),
                Some(&format!("c{i}@example.test")),
                60 + i,
            )
            .await,
        );
    }
    insert_contact(&app.db, "NoMail", None, 99).await;
    exec!(
        &app.db,
        "INSERT INTO suppressions (email, reason, source, created_at) VALUES ('c0@example.test', 'unsubscribed', 'test', 0)"
    );
    let (_, s) = create(&app, &user, json!({ "name": "Allowance", "description": "Three a day at most", "maxDailyEnrollments": 3, "status": "active" })).await;
    let id = s["id"].as_str().unwrap().to_string();
    send(
        user.post(app.url(&format!("/api/email-sequences/{id}/steps")))
            .json(&json!({ "name": "Intro email" })),
    )
    .await;
    let enroll = |body: Value| {
        send(
            user.post(app.url(&format!("/api/email-sequences/{id}/enrollments")))
                .json(&body),
        )
    };

    let (status, _) = enroll(json!({})).await;
    assert_eq!(status, 422, "contacts or filters are needed");
    let (status, _) = enroll(json!({ "targetFilters": { "statuses": ["nope"] } })).await;
    assert_eq!(status, 422);
    let (status, r) = enroll(json!({ "targetFilters": { "scoreMin": 0 } })).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        (r["enrolled"].as_i64(), r["remainingToday"].as_i64()),
        (Some(3), Some(0)),
        "{r}"
    );
    let (_, r) = enroll(json!({ "contactIds": [ids[4]] })).await;
    assert_eq!(r["enrolled"], 0, "the day's allowance is used up");

    let list = app
        .get_json(&user, &format!("/api/email-sequences/{id}/enrollments"))
        .await;
    let rows = list.as_array().unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows.iter().all(|e| e["status"] == "active"
        && e["currentStepName"] == "Intro email"
        && e["nextActionAt"].is_string()));
    assert!(
        rows.iter().all(|e| e["email"] != "c0@example.test"),
        "suppressed addresses are not enrolled"
    );
    let s = app
        .get_json(&user, &format!("/api/email-sequences/{id}"))
        .await;
    assert_eq!(
        (
            s["totalEnrollments"].as_i64(),
            s["activeEnrollments"].as_i64()
        ),
        (Some(3), Some(3))
    );

    let first = rows[0]["id"].as_str().unwrap();
    let (status, _) =
        send(user.delete(app.url(&format!("/api/email-sequences/{id}/enrollments/{first}")))).await;
    assert_eq!(status, 204);
    let (status, _) =
        send(user.delete(app.url(&format!("/api/email-sequences/{id}/enrollments/{first}")))).await;
    assert_eq!(status, 404);
    let (status, s) = send(
        user.patch(app.url(&format!("/api/email-sequences/{id}")))
            .json(&json!({ "status": "archived" })),
    )
    .await;
    assert_eq!(
        (status, s["activeEnrollments"].as_i64()),
        (200, Some(0)),
        "archiving ends every enrollment: {s}"
    );
    let exited = app
        .get_json(
            &user,
            &format!("/api/email-sequences/{id}/enrollments?status=exited"),
        )
        .await;
    let reasons: Vec<&str> = exited
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["exitReason"].as_str().unwrap())
        .collect();
    assert_eq!(reasons.iter().filter(|r| **r == "archived").count(), 2);
    assert_eq!(reasons.iter().filter(|r| **r == "unenrolled").count(), 1);
    let (status, _) = enroll(json!({ "contactIds": [ids[4]] })).await;
    assert_eq!(status, 409);
    app.stop().await;
}

/// One scheduler tick, twice at once (as two schedulers would make it), and every job it leads to
/// run to the end.
async fn tick(app: &TestApp) {
    for _ in 0..2 {
        app.queue
            .enqueue(NewJob::new(SequenceTick::NAME, json!({})))
            .await
            .unwrap();
    }
    eventually(T, "sequence jobs done", || async {
        let pending = scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind IN ('sequence_tick', 'sequence_step_send')
             AND status IN ('queued', 'running', 'retrying', 'scheduled')",
        )
        .await;
        (pending == 0).then_some(())
    })
    .await;
}

/// An app that mails a loopback SMTP server, limits raised for tests; a staff user's client.
async fn mailing_app(db: &TestDb) -> (SmtpSink, TestApp, Client) {
    let sink = SmtpSink::start();
    let app = TestApp::mailing_to(db, &sink).await;
    let admin = app.admin().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let user = app.user().await;
    (sink, app, user)
}

/// The seed-shaped three-step sequence run by ticks with a controllable clock: 50 first messages,
/// a reply stops one contact, pausing holds everyone, two days later exactly 49 second messages.
async fn sequence_runs_unattended(db: TestDb) {
    let (sink, app, user) = mailing_app(&db).await;
    for i in 0..50 {
        insert_contact(
            &app.db,
            &format!("P{i}"),
            Some(&format!("p{i}@example.test")),
            80,
        )
        .await;
    }
    let (_, s) = create(
        &app,
        &user,
        json!({ "name": "Three touches", "description": "Intro, wait two days, follow up", "maxDailyEnrollments": 100 }),
    )
    .await;
    let id = s["id"].as_str().unwrap().to_string();
    let seq = |p: &str| app.url(&format!("/api/email-sequences/{id}{p}"));
    for body in [
        json!({ "name": "Intro", "config": { "subject": "Hello {{firstName}}", "body": "<p>Intro for {{firstName}}</p>" } }),
        json!({ "name": "Wait two days", "type": "delay", "delayMinutes": 2880 }),
        json!({ "name": "Follow up", "config": { "templateId": "follow-up" } }),
    ] {
        let (status, _) = send(user.post(seq("/steps")).json(&body)).await;
        assert_eq!(status, 201);
    }
    let (_, r) = send(
        user.post(seq("/enrollments"))
            .json(&json!({ "targetFilters": {} })),
    )
    .await;
    assert_eq!(r["enrolled"], 50);
    tick(&app).await;
    assert_eq!(sink.count(), 0, "a draft sequence does not run");
    send(user.patch(seq("")).json(&json!({ "status": "active" }))).await;
    tick(&app).await;
    assert_eq!(sink.count(), 50, "the first ticks send step one to all");
    tick(&app).await;
    assert_eq!(sink.count(), 50, "nothing else is due for two days");

    // One contact replies through the inbound parse webhook: their sequence stops, rules fire.
    let (rule_status, _) = send(user.post(app.url("/api/reply-rules")).json(&json!({
        "name": "Warm", "triggerType": "positive_reply", "action": "mark_responded"
    })))
    .await;
    assert_eq!(rule_status, 201);
    send(user.post(app.url("/api/reply-rules")).json(&json!({
        "name": "Pricing", "triggerType": "keyword", "keywords": ["pricing"]
    })))
    .await;
    let (rfc_id, contact, to): (String, String, String) = match &app.db {
        Db::Sqlite(p) => sqlx::query_as(
            "SELECT message_id, contact_id, to_email FROM email_messages ORDER BY to_email LIMIT 1",
        )
        .fetch_one(p.write())
        .await
        .unwrap(),
        Db::Postgres(p) => sqlx::query_as(
            "SELECT message_id, contact_id, to_email FROM email_messages ORDER BY to_email LIMIT 1",
        )
        .fetch_one(p.write())
        .await
        .unwrap(),
    };
    // Inbound parse URLs carry the install's token, as an admin reads it on the config screen.
    let admin = app.admin().await;
    let cfg = app.get_json(&admin, "/api/email/webhook/config").await;
    let inbound = cfg["inboundUrl"]
        .as_str()
        .unwrap()
        .trim_start_matches("http://127.0.0.1")
        .to_string();
    assert!(inbound.contains("?token="), "{cfg}");

    // A From header alone proves nothing: a "reply" from another recipient that answers none of
    // our messages is ignored; their sequence goes on and no rule fires.
    let (other_contact, other_to): (String, String) = match &app.db {
        Db::Sqlite(p) => sqlx::query_as(
            "SELECT contact_id, to_email FROM email_messages ORDER BY to_email LIMIT 1 OFFSET 1",
        )
        .fetch_one(p.write())
        .await
        .unwrap(),
        Db::Postgres(p) => sqlx::query_as(
            "SELECT contact_id, to_email FROM email_messages ORDER BY to_email LIMIT 1 OFFSET 1",
        )
        .fetch_one(p.write())
        .await
        .unwrap(),
    };
    let forged = || {
        reqwest::multipart::Form::new()
            .text(
                "headers",
                "Message-ID: <forged-1@example.test>\r\nSubject: Re: Hello\r\n",
            )
            .text("from", format!("P <{other_to}>"))
            .text("text", "Sounds good, let's talk next week.")
    };
    let (status, _) = send(
        app.anonymous()
            .post(app.url("/api/email/inbound"))
            .multipart(forged()),
    )
    .await;
    assert_eq!(status, 401, "no token, no reply");
    let (status, r) = send(app.anonymous().post(app.url(&inbound)).multipart(forged())).await;
    assert_eq!((status, r["matched"].as_bool()), (200, Some(false)), "{r}");
    assert_eq!(
        scalar(
            &app.db,
            "SELECT COUNT(*) FROM email_events WHERE event_type = 'replied'"
        )
        .await,
        0,
        "an unmatched reply records nothing"
    );
    let status_of = |contact: String| {
        let db = app.db.clone();
        async move {
            match &db {
                Db::Sqlite(p) => sqlx::query_scalar::<_, String>(
                    "SELECT status FROM sequence_enrollments WHERE contact_id = ?1",
                )
                .bind(contact)
                .fetch_one(p.write())
                .await
                .unwrap(),
                Db::Postgres(p) => sqlx::query_scalar::<_, String>(
                    "SELECT status FROM sequence_enrollments WHERE contact_id = $1",
                )
                .bind(contact)
                .fetch_one(p.write())
                .await
                .unwrap(),
            }
        }
    };
    assert_eq!(
        status_of(other_contact.clone()).await,
        "active",
        "a forged reply does not stop a sequence"
    );

    let reply = || {
        reqwest::multipart::Form::new()
            .text("headers", format!("Message-ID: <reply-1@example.test>\r\nIn-Reply-To:\r\n <{rfc_id}>\r\nSubject: Re: Hello\r\n"))
            .text("from", format!("P <{to}>"))
            .text("text", "Sounds good, let's talk next week.")
    };
    let (status, r) = send(app.anonymous().post(app.url(&inbound)).multipart(reply())).await;
    assert_eq!(status, 200, "{r}");
    assert_eq!(
        (
            r["matched"].as_bool(),
            r["rulesFired"].as_array().map(Vec::len)
        ),
        (Some(true), Some(1)),
        "{r}"
    );
    let (_, r) = send(app.anonymous().post(app.url(&inbound)).multipart(reply())).await;
    assert_eq!(r["duplicate"], true, "the same reply twice counts once");
    let rules = app.get_json(&user, "/api/reply-rules").await;
    // By name: the two rules were made in the same millisecond, so the list's order between
    // them is their ids' (random within a millisecond).
    let triggered = |name: &str| {
        rules
            .as_array()
            .and_then(|all| all.iter().find(|r| r["name"] == name))
            .and_then(|r| r["timesTriggered"].as_i64())
    };
    assert_eq!(
        (triggered("Warm"), triggered("Pricing")),
        (Some(1), Some(0)),
        "{rules}"
    );
    assert_eq!(
        app.get_json(&user, &format!("/api/contacts/{contact}"))
            .await["status"],
        "responded"
    );
    let history = app
        .get_json(&user, &format!("/api/contacts/{contact}/email-history"))
        .await;
    assert_eq!(
        history["recentEvents"][0]["eventType"], "replied",
        "{history}"
    );
    let (status, _) = send(
        app.anonymous()
            .post(app.url(&inbound))
            .multipart(reqwest::multipart::Form::new().text("text", "hi")),
    )
    .await;
    assert_eq!(status, 422, "a reply needs a sender");
    assert_eq!(
        status_of(contact.clone()).await,
        "exited",
        "a reply to our Message-ID stops the sequence"
    );
    assert_eq!(status_of(other_contact).await, "active");

    // Paused before the due time: two days pass, nothing is sent, everyone waits where they are.
    send(user.patch(seq("")).json(&json!({ "status": "paused" }))).await;
    app.queue
        .clock
        .advance(Duration::from_secs(2 * 86_400 + 60));
    tick(&app).await;
    assert_eq!(sink.count(), 50, "a paused sequence sends nothing");
    send(user.patch(seq("")).json(&json!({ "status": "active" }))).await;
    // The delay step ends, then the follow-up goes out: exactly 49, once each.
    tick(&app).await;
    tick(&app).await;
    assert_eq!(sink.count(), 99);
    tick(&app).await;
    assert_eq!(sink.count(), 99, "no duplicates from repeated ticks");
    let mut per = std::collections::HashMap::<String, usize>::new();
    for m in sink.messages() {
        for to in m.to {
            *per.entry(to).or_default() += 1;
        }
    }
    assert_eq!(per.values().filter(|n| **n == 2).count(), 49);
    assert_eq!(per.values().filter(|n| **n == 1).count(), 1);
    let s = app
        .get_json(&user, &format!("/api/email-sequences/{id}"))
        .await;
    assert_eq!(
        (
            s["completedEnrollments"].as_i64(),
            s["activeEnrollments"].as_i64()
        ),
        (Some(49), Some(0)),
        "{s}"
    );
    let exited = app
        .get_json(
            &user,
            &format!("/api/email-sequences/{id}/enrollments?status=exited"),
        )
        .await;
    assert_eq!(
        (
            exited[0]["contactId"].as_str(),
            exited[0]["exitReason"].as_str()
        ),
        (Some(contact.as_str()), Some("replied"))
    );
    let steps = app
        .get_json(&user, &format!("/api/email-sequences/{id}/steps"))
        .await;
    assert_eq!(
        (
            steps[0]["totalSent"].as_i64(),
            steps[0]["totalReplied"].as_i64(),
            steps[2]["totalSent"].as_i64()
        ),
        (Some(50), Some(1), Some(49)),
        "{steps}"
    );
    app.stop().await;
}

/// A/B, condition and action steps: the variant is fixed per contact, a failed condition exits the
/// enrollment, an action changes the contact.
async fn branching_steps(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let user = app.user().await;
    let high = insert_contact(&app.db, "High", Some("high@example.test"), 80).await;
    let low = insert_contact(&app.db, "Low", Some("low@example.test"), 50).await;
    let (_, s) = create(
        &app,
        &user,
        json!({ "name": "Qualify", "description": "Split, check the score, qualify", "status": "active" }),
    )
    .await;
    let id = s["id"].as_str().unwrap().to_string();
    let seq = |p: &str| app.url(&format!("/api/email-sequences/{id}{p}"));
    for body in [
        json!({ "name": "Split", "type": "ab_test" }),
        json!({ "name": "Score 70+", "type": "condition", "config": { "check": "scoreAtLeast", "value": 70 } }),
        json!({ "name": "Qualify", "type": "action", "config": { "setStatus": "qualified" } }),
    ] {
        let (status, _) = send(user.post(seq("/steps")).json(&body)).await;
        assert_eq!(status, 201);
    }
    send(
        user.post(seq("/enrollments"))
            .json(&json!({ "contactIds": [high, low] })),
    )
    .await;
    for _ in 0..4 {
        tick(&app).await;
    }
    let all = app
        .get_json(&user, &format!("/api/email-sequences/{id}/enrollments"))
        .await;
    let by = |cid: &str| {
        all.as_array()
            .unwrap()
            .iter()
            .find(|e| e["contactId"] == cid)
            .unwrap()
            .clone()
    };
    let (h, l) = (by(&high), by(&low));
    assert_eq!(h["status"], "completed", "{h}");
    assert_eq!(
        (l["status"].as_str(), l["exitReason"].as_str()),
        (Some("exited"), Some("condition_not_met")),
        "{l}"
    );
    assert!(["A", "B"].contains(&h["variant"].as_str().unwrap()));
    let contact = app.get_json(&user, &format!("/api/contacts/{high}")).await;
    assert_eq!(contact["status"], "qualified");
    let contact = app.get_json(&user, &format!("/api/contacts/{low}")).await;
    assert_eq!(
        contact["status"], "new_lead",
        "an exited enrollment runs no further step"
    );
    app.stop().await;
}

/// Enrollments started by what happens in the CRM: a contact created (by staff or the public lead
/// form), the lead form itself, a deal reaching a stage, a tag added. Draft sequences never enroll.
async fn triggers_enroll_contacts(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let user = app.user().await;
    let mut ids = std::collections::HashMap::new();
    for (name, trigger, config, status) in [
        ("Welcome", "contact_created", json!({}), "active"),
        ("Dealer form", "form_submitted", json!({}), "active"),
        (
            "Proposal",
            "deal_stage_changed",
            json!({ "stage": "proposal" }),
            "active",
        ),
        ("VIP", "tag_added", json!({ "tag": "vip" }), "active"),
        ("Not yet", "contact_created", json!({}), "draft"),
    ] {
        let (status_code, s) = create(
            &app,
            &user,
            json!({ "name": name, "description": "Started by a trigger", "triggerType": trigger, "triggerConfig": config, "status": status }),
        )
        .await;
        assert_eq!(status_code, 201, "{s}");
        ids.insert(name, s["id"].as_str().unwrap().to_string());
    }
    let enrolled = |name: &'static str| {
        let url = app.url(&format!("/api/email-sequences/{}", ids[name]));
        let user = user.clone();
        async move {
            send(user.get(url)).await.1["totalEnrollments"]
                .as_i64()
                .unwrap()
        }
    };
    let wait = |name: &'static str, n: i64| {
        let enrolled = &enrolled;
        async move {
            eventually(T, name, || async {
                (enrolled(name).await == n).then_some(())
            })
            .await;
        }
    };

    let (status, c) = send(user.post(app.url("/api/contacts")).json(&json!({
        "firstName": "Ann", "lastName": "Lee", "email": "ann@example.test"
    })))
    .await;
    assert_eq!(status, 201, "{c}");
    let contact = c["id"].as_str().unwrap().to_string();
    wait("Welcome", 1).await;

    let (status, _) = send(app.anonymous().post(app.url("/api/leads")).json(&json!({
        "companyName": "Bath Pros", "contactName": "Bo Diaz", "email": "bo@bathpros.test"
    })))
    .await;
    assert_eq!(status, 201);
    wait("Dealer form", 1).await;
    wait("Welcome", 2).await;

    let (status, deal) = send(user.post(app.url("/api/deals")).json(&json!({
        "title": "Showroom", "value": 50000, "contactId": contact
    })))
    .await;
    assert_eq!(status, 201, "{deal}");
    let deal_id = deal["id"].as_str().unwrap();
    let (st, d) = send(
        user.put(app.url(&format!("/api/deals/{deal_id}")))
            .json(&json!({ "stage": "negotiation" })),
    )
    .await;
    assert_eq!(st, 200, "{d}");
    send(
        user.put(app.url(&format!("/api/deals/{deal_id}")))
            .json(&json!({ "stage": "proposal" })),
    )
    .await;
    wait("Proposal", 1).await;

    send(
        user.put(app.url(&format!("/api/contacts/{contact}")))
            .json(&json!({ "tags": ["other"] })),
    )
    .await;
    send(
        user.put(app.url(&format!("/api/contacts/{contact}")))
            .json(&json!({ "tags": ["other", "vip"] })),
    )
    .await;
    wait("VIP", 1).await;
    // Every trigger job ran; the draft sequence and the non-matching stage/tag enrolled nobody.
    eventually(T, "trigger jobs done", || async {
        (scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'sequence_trigger' AND status <> 'succeeded'",
        )
        .await
            == 0)
            .then_some(())
    })
    .await;
    assert_eq!(enrolled("Not yet").await, 0);
    assert_eq!(enrolled("Proposal").await, 1);
    assert_eq!(enrolled("VIP").await, 1);
    app.stop().await;
}

/// Enroll `ids` in a new active sequence with these settings and steps; its id.
async fn sequence_with(
    app: &TestApp,
    c: &Client,
    settings: Value,
    steps: &[Value],
    ids: &[String],
) -> String {
    let mut body = json!({ "name": "Rules", "description": "A sequence under test", "maxDailyEnrollments": 1000 });
    body.as_object_mut()
        .unwrap()
        .extend(settings.as_object().unwrap().clone());
    let (status, s) = create(app, c, body).await;
    assert_eq!(status, 201, "{s}");
    let id = s["id"].as_str().unwrap().to_string();
    for step in steps {
        let (status, b) = send(
            c.post(app.url(&format!("/api/email-sequences/{id}/steps")))
                .json(step),
        )
        .await;
        assert_eq!(status, 201, "{b}");
    }
    if !ids.is_empty() {
        send(
            c.post(app.url(&format!("/api/email-sequences/{id}/enrollments")))
                .json(&json!({ "contactIds": ids })),
        )
        .await;
    }
    send(
        c.patch(app.url(&format!("/api/email-sequences/{id}")))
            .json(&json!({ "status": "active" })),
    )
    .await;
    id
}

async fn enrollments_of(app: &TestApp, c: &Client, id: &str) -> Vec<Value> {
    app.get_json(c, &format!("/api/email-sequences/{id}/enrollments"))
        .await
        .as_array()
        .unwrap()
        .clone()
}

/// A/B variants with their own content and stats, sending windows, enrollment and exit rules, a
/// booked meeting, action steps, and a lost step job's enrollments handed out again after its lease.
async fn variants_windows_and_rules(db: TestDb) {
    let (sink, app, user) = mailing_app(&db).await;

    // Settings are checked before anything is saved.
    for (bad, field) in [
        (
            json!({ "sendingWindow": { "days": ["someday"], "start": "10:00", "end": "14:00", "timezone": "UTC" } }),
            "sendingWindow",
        ),
        (
            json!({ "sendingWindow": { "days": ["tue"], "start": "14:00", "end": "10:00", "timezone": "UTC" } }),
            "sendingWindow",
        ),
        (
            json!({ "exitRules": { "statuses": ["gone"] } }),
            "exitRules",
        ),
        (
            json!({ "enrollmentRules": { "scoreMin": 120 } }),
            "enrollmentRules.scoreMin",
        ),
        (
            json!({ "abTestConfig": { "splitPercent": 0 } }),
            "abTestConfig",
        ),
    ] {
        let mut body = json!({ "name": "Bad", "description": "Refused settings" });
        body.as_object_mut()
            .unwrap()
            .extend(bad.as_object().unwrap().clone());
        let (status, b) = create(&app, &user, body).await;
        assert_eq!(status, 422, "{bad} -> {b}");
        assert!(b["errors"][field].is_string(), "{b}");
        assert!(
            b["message"]
                .as_str()
                .unwrap()
                .contains(field.split('.').next().unwrap()),
            "{b}"
        );
    }
    let total = scalar(&app.db, "SELECT COUNT(*) FROM email_sequences").await;
    assert_eq!(total, 0, "nothing saved");

    // A/B: each contact's variant decides its subject; stats per variant add up to the step's.
    let mut ab = Vec::new();
    for i in 0..24 {
        ab.push(
            insert_contact(
                &app.db,
                &format!("Ab{i}"),
                Some(&format!("ab{i}@example.test")),
                80,
            )
            .await,
        );
    }
    let id = sequence_with(
        &app,
        &user,
        json!({ "abTestingEnabled": true, "abTestConfig": { "splitPercent": 50 } }),
        &[json!({ "name": "Intro", "config": {
            "subject": "Plain {{firstName}}", "body": "<p>A</p>",
            "variants": { "B": { "subject": "Bold {{firstName}}", "body": "<p>B</p>" } } } })],
        &ab,
    )
    .await;
    tick(&app).await;
    assert_eq!(sink.count(), 24);
    let enrolled = enrollments_of(&app, &user, &id).await;
    let variant_of = |first: &str| {
        let cid = &ab[first.trim_start_matches("Ab").parse::<usize>().unwrap()];
        enrolled.iter().find(|e| &e["contactId"] == cid).unwrap()["variant"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut per = std::collections::HashMap::<String, i64>::new();
    for m in sink.messages() {
        let subject = common::smtp::header(&m.raw, "Subject").unwrap();
        let (word, first) = subject.split_once(' ').unwrap();
        let v = variant_of(first);
        assert_eq!(
            word,
            if v == "A" { "Plain" } else { "Bold" },
            "{subject} for variant {v}"
        );
        *per.entry(v).or_default() += 1;
    }
    assert!(per.len() == 2, "both variants used: {per:?}");
    let steps = app
        .get_json(&user, &format!("/api/email-sequences/{id}/steps"))
        .await;
    let variants = steps[0]["variants"].as_array().unwrap();
    assert_eq!(steps[0]["totalSent"], 24);
    for v in variants {
        assert_eq!(
            v["totalSent"].as_i64(),
            per.get(v["variant"].as_str().unwrap()).copied(),
            "{steps}"
        );
    }

    // Enrollment rules admit only contacts with a score of 70 or more.
    let high = insert_contact(&app.db, "High", Some("high@example.test"), 85).await;
    let low = insert_contact(&app.db, "Low", Some("low@example.test"), 40).await;
    let tagged = insert_contact(&app.db, "Tagged", Some("tagged@example.test"), 90).await;
    let booked = insert_contact(&app.db, "Booked", Some("booked@example.test"), 90).await;
    exec!(
        &app.db,
        "UPDATE contacts SET tags = $1 WHERE id = $2",
        sqlx::types::Json(json!(["do-not-contact"])),
        &tagged
    );
    let rules = sequence_with(
        &app,
        &user,
        json!({ "enrollmentRules": { "scoreMin": 70 }, "exitRules": { "tags": ["do-not-contact"] } }),
        &[
            json!({ "name": "Act", "type": "action", "config": {
                "addTag": "nurtured", "notify": "Call them", "createDeal": { "title": "Walk-in tub", "value": 9500 } } }),
            json!({ "name": "Mail", "config": { "subject": "Hi", "body": "<p>Hi</p>" } }),
        ],
        &[high.clone(), low.clone(), tagged.clone(), booked.clone()],
    )
    .await;
    assert_eq!(
        enrollments_of(&app, &user, &rules).await.len(),
        3,
        "the score 40 contact is not admitted"
    );
    // Booking a meeting ends the contact's sequences at once.
    let (status, _) = send(
        user.post(app.url("/api/meetings")).json(&json!({
        "title": "Showroom visit", "scheduledDate": "2026-12-01T15:00:00Z", "contactId": booked })),
    )
    .await;
    assert_eq!(status, 201);
    let before = sink.count();
    tick(&app).await;
    tick(&app).await;
    assert_eq!(
        sink.count(),
        before + 1,
        "only the admitted, untagged, unbooked contact is mailed"
    );
    let enrolled = enrollments_of(&app, &user, &rules).await;
    let reason = |cid: &str| {
        enrolled
            .iter()
            .find(|e| e["contactId"] == cid)
            .map(|e| (e["status"].clone(), e["exitReason"].clone()))
    };
    assert_eq!(reason(&high), Some((json!("completed"), Value::Null)));
    assert_eq!(reason(&tagged), Some((json!("exited"), json!("exit_rule"))));
    assert_eq!(
        reason(&booked),
        Some((json!("exited"), json!("meeting_booked")))
    );
    let contact = app.get_json(&user, &format!("/api/contacts/{high}")).await;
    assert!(
        contact["tags"]
            .as_array()
            .unwrap()
            .contains(&json!("nurtured")),
        "{contact}"
    );
    assert_eq!(
        scalar!(
            &app.db,
            i64,
            "SELECT COUNT(*) FROM deals WHERE contact_id = $1 AND title = 'Walk-in tub' AND value = 9500",
            &high
        ),
        1
    );
    assert_eq!(
        scalar!(
            &app.db,
            i64,
            "SELECT COUNT(*) FROM activities WHERE type = 'sequence_notify' AND entity_id = $1",
            &high
        ),
        1
    );

    // A sending window: only the weekday two days from now, 09:00–17:00 UTC. The step waits for it.
    let in_two_days = chrono::DateTime::from_timestamp_millis(app.queue.clock.now_ms()).unwrap()
        + chrono::Duration::days(2);
    let day = in_two_days.format("%a").to_string().to_lowercase();
    let opening = in_two_days
        .date_naive()
        .and_hms_opt(9, 0, 0)
        .unwrap()
        .and_utc()
        .timestamp_millis();
    let late = insert_contact(&app.db, "Window", Some("window@example.test"), 80).await;
    let windowed = sequence_with(
        &app,
        &user,
        json!({ "sendingWindow": { "days": [day], "start": "09:00", "end": "17:00", "timezone": "UTC" } }),
        &[json!({ "name": "Mail", "config": { "subject": "Window", "body": "<p>In hours</p>" } })],
        std::slice::from_ref(&late),
    )
    .await;
    let before = sink.count();
    tick(&app).await;
    assert_eq!(sink.count(), before, "outside the window nothing is sent");
    let e = &enrollments_of(&app, &user, &windowed).await[0];
    assert_eq!(
        e["nextActionAt"].as_str(),
        Some(jobs::time::to_rfc3339(opening).as_str()),
        "{e}"
    );
    let wait = opening - app.queue.clock.now_ms() + 60_000;
    app.queue.clock.advance(Duration::from_millis(wait as u64));
    tick(&app).await;
    assert_eq!(sink.count(), before + 1, "sent once the window opens");

    // A step job that was lost leaves its enrollments leased: later ticks skip them until the lease
    // ends, then hand them out again.
    let lost = insert_contact(&app.db, "Lost", Some("lost@example.test"), 80).await;
    let leased = sequence_with(
        &app,
        &user,
        json!({}),
        &[json!({ "name": "Mail", "config": { "subject": "Again", "body": "<p>Again</p>" } })],
        &[],
    )
    .await;
    send(
        user.post(app.url(&format!("/api/email-sequences/{leased}/enrollments")))
            .json(&json!({ "contactIds": [lost] })),
    )
    .await;
    let lease = app.queue.clock.now_ms() + 10 * 60_000;
    exec!(
        &app.db,
        "UPDATE sequence_enrollments SET leased_until = $1, next_action_at = $2 WHERE sequence_id = $3",
        lease,
        app.queue.clock.now_ms() - 1_000,
        &leased
    );
    let before = sink.count();
    tick(&app).await;
    assert_eq!(sink.count(), before, "leased to a step job");
    app.queue.clock.advance(Duration::from_secs(11 * 60));
    tick(&app).await;
    assert_eq!(sink.count(), before + 1, "handed out again after the lease");
    app.stop().await;
}

/// The automation screen's figures come from the enrollments, and staff can fire a contact's
/// sequence triggers by hand.
async fn automation_figures_and_triggers(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let c = app.user().await;
    let mut ids = Vec::new();
    for i in 0..4 {
        ids.push(
            insert_contact(
                &app.db,
                &format!("Auto{i}"),
                Some(&format!("auto{i}@example.test")),
                80,
            )
            .await,
        );
    }
    let running = sequence_with(
        &app,
        &c,
        json!({}),
        &[json!({ "name": "Wait", "type": "delay", "delayMinutes": 600 })],
        &ids[..3],
    )
    .await;
    let held = sequence_with(
        &app,
        &c,
        json!({}),
        &[json!({ "name": "Wait", "type": "delay", "delayMinutes": 600 })],
        &ids[3..],
    )
    .await;
    send(
        c.patch(app.url(&format!("/api/email-sequences/{held}")))
            .json(&json!({ "status": "paused" })),
    )
    .await;
    // A booked meeting reaches the goal; an unenrolled contact does not.
    let (status, _) = send(c.post(app.url("/api/meetings")).json(&json!({
        "title": "Visit", "scheduledDate": "2030-01-10T15:00:00Z", "contactId": ids[0] })))
    .await;
    assert_eq!(status, 201);
    let gone = enrollments_of(&app, &c, &running)
        .await
        .into_iter()
        .find(|e| e["contactId"] == ids[1].as_str())
        .unwrap();
    let (status, _) = send(c.delete(app.url(&format!(
        "/api/email-sequences/{running}/enrollments/{}",
        gone["id"].as_str().unwrap()
    ))))
    .await;
    assert_eq!(status, 204);

    let metrics = app.get_json(&c, "/api/campaign-metrics").await;
    assert_eq!(
        metrics,
        json!({ "active": 1, "completed": 1, "failed": 1, "paused": 1 })
    );
    let active = app
        .get_json(&c, "/api/campaign-executions?status=active")
        .await;
    let mut contacts: Vec<&str> = active
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["contactId"].as_str().unwrap())
        .collect();
    contacts.sort();
    let mut want = vec![ids[2].as_str(), ids[3].as_str()];
    want.sort();
    assert_eq!(contacts, want, "{active}");
    assert!(
        active[0]["nextActionAt"].is_string() && active[0]["currentStep"] == 0,
        "{active}"
    );
    let (status, _) = send(c.get(app.url("/api/campaign-executions?status=stuck"))).await;
    assert_eq!(status, 400);
    let pay = app.get_json(&c, "/api/payment/analytics").await;
    assert_eq!(
        pay,
        json!({ "totalRevenue": 0.0, "totalTransactions": 0, "successfulPayments": 0, "failedPayments": 0 }),
        "no invoices, no payments (the figures with payments are in tests/it/invoices.rs)"
    );

    // Firing tag_added for "vip" by hand enrolls the contact in the sequence that waits for it.
    let vip = sequence_with(
        &app,
        &c,
        json!({ "triggerType": "tag_added", "triggerConfig": { "tag": "vip" } }),
        &[json!({ "name": "Wait", "type": "delay", "delayMinutes": 600 })],
        &[],
    )
    .await;
    let fire = |body: Value, contact: String| {
        let c = c.clone();
        let url = app.url(&format!("/api/contacts/{contact}/trigger-automation"));
        async move { send(c.post(url).json(&body)).await }
    };
    let (status, b) = fire(json!({ "triggerEvent": "sometimes" }), ids[2].clone()).await;
    assert_eq!(status, 422, "{b}");
    assert!(b["message"].as_str().unwrap().contains("tag_added"), "{b}");
    let (status, _) = fire(
        json!({ "triggerEvent": "tag_added", "detail": "vip" }),
        "nobody".into(),
    )
    .await;
    assert_eq!(status, 404);
    let (status, b) = fire(
        json!({ "triggerEvent": "tag_added", "detail": "vip" }),
        ids[2].clone(),
    )
    .await;
    assert_eq!(status, 202, "{b}");
    app.wait_status(&c, b["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    let enrolled = enrollments_of(&app, &c, &vip).await;
    assert_eq!(enrolled.len(), 1);
    assert_eq!(enrolled[0]["contactId"], ids[2].as_str());
    app.stop().await;
}

/// Editing a running sequence in the app: a step added after a reorder goes last, enrollments stay
/// with their step when steps move or one is deleted, an A/B email step's variants are edited and
/// checked, and the detail says why the sequence waits.
async fn editing_steps_keeps_enrollments_in_place(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let contact = insert_contact(&app.db, "Ed", Some("ed@example.test"), 50).await;
    let email = |name: &str| json!({ "name": name, "config": { "subject": "Hi", "body": "Hello {{firstName}}", "format": "text" } });
    let id = sequence_with(
        &app,
        &user,
        json!({}),
        &[email("Alpha"), email("Bravo"), email("Charlie")],
        std::slice::from_ref(&contact),
    )
    .await;
    let seq = |p: &str| app.url(&format!("/api/email-sequences/{id}{p}"));
    let steps = app
        .get_json(&user, &format!("/api/email-sequences/{id}/steps"))
        .await;
    let step_id = |name: &str| {
        steps
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let (a, b, c) = (step_id("Alpha"), step_id("Bravo"), step_id("Charlie"));
    // The contact is at Bravo.
    exec!(
        &app.db,
        "UPDATE sequence_enrollments SET current_step = 1 WHERE contact_id = $1",
        &contact
    );
    let at = || async {
        let e = enrollments_of(&app, &user, &id).await;
        (
            e[0]["currentStep"].as_i64().unwrap(),
            e[0]["currentStepName"].as_str().map(String::from),
        )
    };
    assert_eq!(at().await, (1, Some("Bravo".into())));

    let (status, list) = send(
        user.post(seq("/steps/reorder"))
            .json(&json!({ "stepIds": [c, a, b] })),
    )
    .await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(at().await, (2, Some("Bravo".into())), "moved with its step");
    let (status, d) = send(user.post(seq("/steps")).json(&email("Delta"))).await;
    assert_eq!(status, 201, "{d}");
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    };
    let steps = app
        .get_json(&user, &format!("/api/email-sequences/{id}/steps"))
        .await;
    assert_eq!(
        names(&steps),
        ["Charlie", "Alpha", "Bravo", "Delta"],
        "a new step goes last"
    );

    let (status, _) = send(user.delete(seq(&format!("/steps/{c}")))).await;
    assert_eq!(status, 204);
    assert_eq!(
        at().await,
        (1, Some("Bravo".into())),
        "an earlier step deleted"
    );
    let (status, _) = send(user.delete(seq(&format!("/steps/{b}")))).await;
    assert_eq!(status, 204);
    assert_eq!(
        at().await,
        (1, Some("Delta".into())),
        "its own step deleted: it goes on with the next"
    );

    // An A/B email step: both variants, then B edited alone; bad variants and formats are refused.
    let ab = json!({ "name": "Split intro", "config": { "format": "text", "variants": {
        "A": { "subject": "Quick question", "body": "Hi {{firstName}}" },
        "B": { "subject": "Seats at {{companyName}}", "body": "Hello {{firstName}}" } } } });
    let (status, st) = send(user.post(seq("/steps")).json(&ab)).await;
    assert_eq!(status, 201, "{st}");
    let sid = st["id"].as_str().unwrap();
    let edited = json!({ "name": "Split intro v2", "config": { "format": "text", "variants": {
        "A": { "subject": "Quick question", "body": "Hi {{firstName}}" },
        "B": { "subject": "A better subject", "body": "Hello {{firstName}}" } } } });
    let (status, st) = send(user.patch(seq(&format!("/steps/{sid}"))).json(&edited)).await;
    assert_eq!(status, 200, "{st}");
    assert_eq!(st["name"], "Split intro v2");
    assert_eq!(st["config"]["variants"]["B"]["subject"], "A better subject");
    assert_eq!(st["config"]["variants"]["A"]["subject"], "Quick question");
    for (config, message) in [
        (
            json!({ "variants": { "C": { "subject": "x" } } }),
            "config.variants holds A and/or B",
        ),
        (
            json!({ "format": "rtf" }),
            "config.format must be text or html",
        ),
    ] {
        let (status, r) = send(
            user.patch(seq(&format!("/steps/{sid}")))
                .json(&json!({ "config": config })),
        )
        .await;
        assert_eq!(status, 422, "{r}");
        assert!(r["message"].as_str().unwrap().starts_with(message), "{r}");
    }

    // Why it waits: active and able to send, then a closed window, then paused, then a draft.
    let detail = || async {
        app.get_json(&user, &format!("/api/email-sequences/{id}"))
            .await
    };
    assert_eq!(detail().await["waiting"], Value::Null);
    use chrono::Datelike;
    let in_two_days = chrono::Utc::now() + chrono::Duration::days(2);
    let day = in_two_days.weekday().to_string().to_lowercase();
    let window = json!({ "sendingWindow": { "days": [day], "start": "09:00", "end": "17:00", "timezone": "UTC" } });
    let (status, r) = send(user.patch(seq("")).json(&window)).await;
    assert_eq!(status, 200, "{r}");
    let w = detail().await["waiting"].clone();
    assert_eq!(w["reason"], "outside_sending_window", "{w}");
    assert_eq!(w["label"], "Outside the sending window");
    let expected = format!("{}T09:00:00", in_two_days.date_naive());
    assert!(
        w["until"].as_str().unwrap().starts_with(&expected),
        "{w} {expected}"
    );
    for (status, reason) in [("paused", "paused"), ("draft", "draft")] {
        send(user.patch(seq("")).json(&json!({ "status": status }))).await;
        let w = detail().await["waiting"].clone();
        assert_eq!(
            (w["reason"].as_str(), &w["until"]),
            (Some(reason), &Value::Null)
        );
    }
    app.stop().await;
}

/// An email step written in the app (plain text, A and B content, merge fields with a fallback)
/// splits contacts between its variants without the sequence-wide A/B switch, and its body goes
/// out as paragraphs with the fields filled in.
async fn written_ab_email_splits_and_reads_as_paragraphs(db: TestDb) {
    let (sink, app, user) = mailing_app(&db).await;
    let mut ids = Vec::new();
    for i in 0..16 {
        let email = format!("w{i}@example.test");
        ids.push(insert_contact(&app.db, &format!("W{i}"), Some(&email), 60).await);
    }
    let body = "Hi {{firstName}},\n\nSeats in {{state | your state}}?";
    let id = sequence_with(
        &app,
        &user,
        json!({}),
        &[
            json!({ "name": "Split intro", "config": { "format": "text", "variants": {
            "A": { "subject": "Alpha {{firstName}}", "body": body },
            "B": { "subject": "Beta {{firstName}}", "body": body } } } }),
        ],
        &ids,
    )
    .await;
    tick(&app).await;
    assert_eq!(sink.count(), 16);
    let mut words = std::collections::BTreeSet::new();
    for m in sink.messages() {
        let subject = common::smtp::header(&m.raw, "Subject").unwrap();
        let (word, first) = subject.split_once(' ').unwrap();
        words.insert(word.to_string());
        let msg = common::smtp::parse(&m.raw);
        let html = msg.body_html(0).unwrap();
        assert!(
            html.contains(&format!("<p>Hi {first},</p>"))
                && html.contains("<p>Seats in your state?</p>"),
            "{html}"
        );
    }
    assert_eq!(
        words.into_iter().collect::<Vec<_>>(),
        ["Alpha", "Beta"],
        "both variants sent"
    );
    let enrolled = enrollments_of(&app, &user, &id).await;
    assert!(
        enrolled.iter().all(|e| e["variant"].is_string()),
        "{enrolled:?}"
    );
    app.stop().await;
}

both_backends!(
    written_ab_email_splits_and_reads_as_paragraphs,
    editing_steps_keeps_enrollments_in_place,
    triggers_enroll_contacts,
    sequences_steps_and_rules,
    enrollments_within_the_daily_allowance,
    sequence_runs_unattended,
    branching_steps,
    variants_windows_and_rules,
    automation_figures_and_triggers,
);
