//! One truth (issue 21, journey 3): real messages go through a loopback SMTP server from a bulk
//! campaign and a sequence, the webhook and the inbound parse post opens, a click, a bounce, a
//! complaint, an unsubscribe and replies, and then the dashboard, the campaign, the overview, the
//! sequence and its step, a contact's history and the email analytics all show the same counts
//! (docs/figures.md). The meeting rate stays at most 100 % and is the same on both dashboard cards;
//! the activity feed shows the scan, the campaign, the batch of sends, the reply, the deal and the
//! meeting with links. Every test runs on SQLite and on Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::rollups::{fetch_rows, recounted, stored_rollups};
use common::smtp::SmtpSink;
use common::*;
use jobs::db::Db;
use jobs::kinds::SequenceTick;
use jobs::queue::{JobKind, NewJob};
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(30);

async fn insert_contact(db: &Db, i: usize) -> String {
    let id = ulid::Ulid::new().to_string();
    exec!(
        db,
        "INSERT INTO contacts (id, first_name, last_name, email, status, score, created_at, updated_at)
         VALUES ($1, $2, 'Truth', $3, 'new_lead', 80, $4, $4)",
        &id,
        format!("C{i}"),
        format!("c{i}@example.test"),
        now_ms()
    );
    id
}

/// (ledger id, RFC Message-ID, contact, address) of the messages `filter` picks, by address.
async fn messages(db: &Db, filter: &'static str) -> Vec<(String, String, String, String)> {
    let q = format!(
        "SELECT id, message_id, contact_id, to_email FROM email_messages WHERE {filter} ORDER BY to_email"
    );
    match db {
        Db::Sqlite(p) => sqlx::query_as(sqlx::AssertSqlSafe(q))
            .fetch_all(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(q))
            .fetch_all(p.write())
            .await
            .unwrap(),
    }
}

/// Runs sequence ticks and the step jobs they start to the end.
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

async fn post(app: &TestApp, c: &Client, path: &str, body: Value) -> Value {
    let (status, v) = send(c.post(app.url(path)).json(&body)).await;
    assert!(
        (200..300).contains(&status),
        "POST {path} {body}: {status} {v}"
    );
    v
}

/// The counts every screen shares, from a `figures` object.
fn counts(f: &Value) -> [i64; 8] {
    [
        "sent",
        "delivered",
        "opened",
        "clicked",
        "replied",
        "bounced",
        "unsubscribed",
        "complained",
    ]
    .map(|k| f[k].as_i64().unwrap_or_else(|| panic!("{k} in {f}")))
}

async fn the_same_counts_on_every_screen(db: TestDb) {
    let sink = SmtpSink::start();
    let app = TestApp::mailing_to(&db, &sink).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    app.track_opens(&admin).await;
    let mut contacts = Vec::new();
    for i in 0..5 {
        contacts.push(insert_contact(&app.db, i).await);
    }
    let empty = app
        .get_json(&user, "/api/dashboard/campaign-performance?timeframe=7")
        .await;
    assert_eq!(empty["emailDataAvailable"], false, "{empty}");

    // A bulk campaign to the five, through SMTP.
    let c = post(
        &app,
        &user,
        "/api/campaigns/bulk-email",
        json!({ "name": "One truth", "subject": "Hello {{firstName}}", "templateId": "business-outreach",
                "targetFilters": { "statuses": ["new_lead"] } }),
    )
    .await;
    let campaign = c["id"].as_str().unwrap().to_string();
    post(
        &app,
        &user,
        &format!("/api/campaigns/bulk-email/{campaign}/send"),
        json!({}),
    )
    .await;
    eventually(T, "campaign sent", || async {
        let v = app
            .get_json(&user, &format!("/api/campaigns/bulk-email/{campaign}"))
            .await;
        (v["status"] == "sent").then_some(())
    })
    .await;

    // A one-step sequence to the same five.
    let s = post(
        &app,
        &user,
        "/api/email-sequences",
        json!({ "name": "Truth sequence", "description": "One email to everyone enrolled" }),
    )
    .await;
    let sequence = s["id"].as_str().unwrap().to_string();
    post(
        &app,
        &user,
        &format!("/api/email-sequences/{sequence}/steps"),
        json!({ "name": "Intro", "config": { "subject": "Hi {{firstName}}", "body": "<p>Intro</p>" } }),
    )
    .await;
    let (status, _) = send(
        user.patch(app.url(&format!("/api/email-sequences/{sequence}")))
            .json(&json!({ "status": "active" })),
    )
    .await;
    assert_eq!(status, 200);
    let r = post(
        &app,
        &user,
        &format!("/api/email-sequences/{sequence}/enrollments"),
        json!({ "targetFilters": {} }),
    )
    .await;
    assert_eq!(r["enrolled"], 5, "{r}");
    tick(&app).await;
    assert_eq!(
        sink.wait_for(10, T).await.len(),
        10,
        "5 + 5 messages received"
    );

    // Events: C0 opens, clicks and replies to both; C1 opens; C2 bounces; C3 complains; C4
    // unsubscribes.
    let bulk = messages(&app.db, "campaign_id IS NOT NULL").await;
    let seq = messages(&app.db, "enrollment_id IS NOT NULL").await;
    assert_eq!((bulk.len(), seq.len()), (5, 5));
    let cfg = app.get_json(&admin, "/api/email/webhook/config").await;
    let path = |k: &str| {
        cfg[k]
            .as_str()
            .unwrap()
            .trim_start_matches("http://127.0.0.1")
            .to_string()
    };
    let event = |i: usize, kind: &str, extra: Value| {
        let mut e = json!({ "email": bulk[i].3, "event": kind, "timestamp": 1_700_000_000,
                            "sg_event_id": format!("{kind}-{i}"), "prospector_message_id": bulk[i].0 });
        if let (Some(e), Some(x)) = (e.as_object_mut(), extra.as_object()) {
            e.extend(x.clone());
        }
        e
    };
    let (status, r) = send(
        app.anonymous()
            .post(app.url(&path("webhookUrl")))
            .json(&json!([
                event(0, "open", json!({})),
                event(0, "open", json!({ "sg_event_id": "open-0-again" })),
                event(0, "click", json!({ "url": "https://example.test" })),
                event(1, "open", json!({})),
                event(2, "bounce", json!({ "type": "bounce" })),
                event(3, "spamreport", json!({})),
                event(4, "unsubscribe", json!({})),
            ])),
    )
    .await;
    assert_eq!(status, 200, "{r}");
    for (rfc, to) in [(&bulk[0].1, &bulk[0].3), (&seq[0].1, &seq[0].3)] {
        let form = reqwest::multipart::Form::new()
            .text(
                "headers",
                format!("Message-ID: <re-{rfc}>\r\nIn-Reply-To: <{rfc}>\r\nSubject: Re: Hello\r\n"),
            )
            .text("from", format!("C0 <{to}>"))
            .text("text", "Yes, let's talk.");
        let (status, r) = send(
            app.anonymous()
                .post(app.url(&path("inboundUrl")))
                .multipart(form),
        )
        .await;
        assert_eq!((status, r["matched"].as_bool()), (200, Some(true)), "{r}");
    }

    // The campaign: 5 sent, 1 bounced (4 delivered), 2 opened, 1 clicked, 1 replied, 1 unsubscribed,
    // 1 complained. The sequence: 5 sent, 1 replied.
    let card = app
        .get_json(&user, &format!("/api/campaigns/bulk-email/{campaign}"))
        .await;
    let list = app.get_json(&user, "/api/campaigns/bulk-email").await;
    let overview = app
        .get_json(&user, "/api/campaigns/bulk-email/performance/overview")
        .await;
    let campaign_counts = counts(&overview["performance"]["figures"]);
    assert_eq!(campaign_counts, [5, 4, 2, 1, 1, 1, 1, 1], "{overview}");
    for stats in [&card["stats"], &list["campaigns"][0]["stats"]] {
        assert_eq!(
            ["sent", "delivered", "opened", "clicked", "replied"].map(|k| stats[k].as_i64()),
            [5, 4, 2, 1, 1].map(Some),
            "the campaign card: {stats}"
        );
    }
    assert_eq!(overview["performance"]["totalEmailsSent"], 5);
    assert_eq!(overview["performance"]["averageOpenRate"], 40.0);

    let sequence_view = app
        .get_json(&user, &format!("/api/email-sequences/{sequence}"))
        .await;
    let sequence_counts = counts(&sequence_view["figures"]);
    assert_eq!(sequence_counts, [5, 5, 0, 0, 1, 0, 0, 0], "{sequence_view}");
    let steps = app
        .get_json(&user, &format!("/api/email-sequences/{sequence}/steps"))
        .await;
    assert_eq!(counts(&steps[0]["figures"]), sequence_counts, "{steps}");
    assert_eq!(
        (
            steps[0]["totalSent"].as_i64(),
            steps[0]["totalReplied"].as_i64()
        ),
        (Some(5), Some(1))
    );

    // Everything together, the same on the dashboard (every window) and in the email analytics.
    let all: Vec<i64> = campaign_counts
        .iter()
        .zip(sequence_counts)
        .map(|(a, b)| a + b)
        .collect();
    assert_eq!(all, [10, 9, 2, 1, 2, 1, 1, 1]);
    for days in [7, 30, 90] {
        let perf = app
            .get_json(
                &user,
                &format!("/api/dashboard/campaign-performance?timeframe={days}"),
            )
            .await;
        assert_eq!(counts(&perf["emails"]).to_vec(), all, "{perf}");
        assert_eq!(perf["emailDataAvailable"], true);
        assert_eq!(perf["deliveryRate"], 90.0, "9 of 10 delivered");
        assert_eq!(perf["responseRate"], 20.0, "2 of 10 replied");
        let analytics = app
            .get_json(&user, &format!("/api/email/analytics?timeframe={days}"))
            .await;
        assert_eq!(analytics["figures"], perf["emails"], "{analytics}");
        assert_eq!(
            (
                analytics["totalSent"].as_i64(),
                analytics["openRate"].as_f64()
            ),
            (Some(10), Some(20.0))
        );
    }

    // The AI pages count the last 30 days the same way.
    let month = app
        .get_json(&user, "/api/email/analytics?timeframe=30")
        .await;
    let automation = app.get_json(&user, "/api/email-automation/status").await;
    let metrics = &automation["performanceMetrics"];
    for key in ["sent", "opened", "clicked", "replied"] {
        assert_eq!(metrics[key], month["figures"][key], "{key}: {automation}");
    }
    assert_eq!(metrics["openRate"], month["figures"]["openRate"]);
    let preview = app.get_json(&user, "/api/automation/preview").await;
    assert_eq!(
        preview["roiProjections"]["emailsSent"], month["figures"]["sent"],
        "{preview}"
    );
    let ai = app.get_json(&user, "/api/ai/analytics").await;
    assert_eq!(
        ai["performanceMetrics"]["openRate"], month["figures"]["openRate"],
        "{ai}"
    );

    // C0's history: two messages, one opened and clicked, both replied.
    let history = app
        .get_json(&user, &format!("/api/contacts/{}/email-history", bulk[0].2))
        .await;
    assert_eq!(
        counts(&history["figures"]),
        [2, 2, 1, 1, 2, 0, 0, 0],
        "{history}"
    );
    let c2 = app
        .get_json(&user, &format!("/api/contacts/{}/email-history", bulk[2].2))
        .await;
    assert_eq!(counts(&c2["figures"]), [2, 1, 0, 0, 0, 1, 0, 0], "{c2}");

    // C0 books a meeting; so does a contact nobody contacted: 1 of the 5 contacted booked.
    let stranger = ulid::Ulid::new().to_string();
    exec!(
        &app.db,
        "INSERT INTO contacts (id, first_name, last_name, status, created_at, updated_at)
         VALUES ($1, 'Walk', 'In', 'new_lead', $2, $2)",
        &stranger,
        now_ms()
    );
    for who in [&bulk[0].2, &stranger] {
        post(
            &app,
            &user,
            "/api/meetings",
            json!({ "title": "Demo", "scheduledDate": "2031-01-01T10:00:00Z", "contactId": who }),
        )
        .await;
    }
    post(
        &app,
        &user,
        "/api/deals",
        json!({ "title": "Truth deal", "value": 5000, "contactId": bulk[0].2 }),
    )
    .await;
    let month = app
        .get_json(&user, "/api/dashboard/campaign-performance?timeframe=30")
        .await;
    let metrics = app.get_json(&user, "/api/dashboard/metrics").await;
    assert_eq!(month["meetingRate"], 20.0, "{month}");
    assert_eq!(metrics["meetingConversionRate"], month["meetingRate"]);

    // A discovery scan, then the feed.
    let scan = post(
        &app,
        &user,
        "/api/discovery/scan",
        json!({
            "region": "texas", "revenueRange": "5-10M", "companyType": "accessible-bath",
            "companyName": "", "city": "", "state": "", "discoverySource": "region_search",
            "marketIntelligence": false, "competitorAnalysis": false, "territoryOptimization": false,
            "leadQualification": false, "enhancedMode": false
        }),
    )
    .await;
    let job = scan["jobId"].as_str().unwrap().to_string();
    app.wait_status(&user, &job, "succeeded", T).await;
    let res = user
        .get(app.url("/api/activities?limit=100"))
        .send()
        .await
        .unwrap();
    let total: i64 = res.headers()["x-total-count"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    let feed: Vec<Value> = res.json().await.unwrap();
    assert_eq!(total, feed.len() as i64);
    let find = |kind: &str, pred: &dyn Fn(&Value) -> bool| -> Value {
        feed.iter()
            .find(|e| e["kind"] == kind && pred(e))
            .cloned()
            .unwrap_or_else(|| panic!("no {kind} in {feed:#?}"))
    };
    let started = find("scan_started", &|e| {
        e["link"] == format!("/discovery?job={job}")
    });
    assert_eq!(started["summary"], "Discovery scan started: Texas");
    let finished = find("scan_finished", &|_| true);
    assert!(
        finished["summary"]
            .as_str()
            .unwrap()
            .starts_with("Discovery scan finished: "),
        "{finished}"
    );
    let batch = find("emails_sent", &|e| e["link"] == "/email-campaigns");
    assert_eq!(batch["summary"], "Sent 5 emails for \"One truth\"");
    let seq_batch = find("emails_sent", &|e| e["link"] == "/email-sequences");
    assert_eq!(
        seq_batch["summary"],
        "Sent 5 emails for sequence \"Truth sequence\""
    );
    assert_eq!(
        feed.iter().filter(|e| e["kind"] == "emails_sent").count(),
        2,
        "one row per batch, not one per message"
    );
    find("campaign_created", &|e| e["link"] == "/email-campaigns");
    find("email_replied", &|e| e["link"] == "/contacts");
    find("deal_created", &|e| e["link"] == "/pipeline");
    let meeting = feed
        .iter()
        .find(|e| e["link"] == "/meetings")
        .unwrap_or_else(|| panic!("no meeting in {feed:#?}"));
    for e in [&started, &batch, meeting] {
        assert!(
            chrono::DateTime::parse_from_rfc3339(e["at"].as_str().unwrap()).is_ok(),
            "{e}"
        );
    }
    let ats: Vec<&str> = feed.iter().map(|e| e["at"].as_str().unwrap()).collect();
    assert!(
        ats.windows(2).all(|w| w[0] >= w[1]),
        "newest first: {ats:?}"
    );
    let page = app
        .get_json(&user, "/api/activities?limit=2&offset=1")
        .await;
    assert_eq!(page.as_array().unwrap()[..], feed[1..3]);
    // A page shorter than the feed: its length is counted, every source (stored, scans, campaigns,
    // send batches) in it.
    let res = user
        .get(app.url("/api/activities?limit=3"))
        .send()
        .await
        .unwrap();
    assert!(res.headers().get("x-total-count-exact").is_none());
    assert_eq!(
        res.headers()["x-total-count"],
        feed.len().to_string().as_str()
    );
    app.stop().await;
}

/// Open tracking is a workspace setting: a campaign sent partly with the pixel and partly without
/// shows the open rate of the messages that carried it (one of two, not one of four), on the email
/// analytics and the campaigns' performance alike, and says how many could report an open.
async fn open_rate_is_of_the_messages_with_the_pixel(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let now = jobs::time::now_ms();
    exec!(
        &app.db,
        "INSERT INTO campaigns (id, kind, name, status, created_at, updated_at)
         VALUES ('CT', 'bulk', 'Spring', 'sent', $1, $1)",
        now
    );
    for (i, tracked, opened) in [
        (1, true, true),
        (2, true, false),
        (3, false, false),
        (4, false, false),
    ] {
        exec!(
            &app.db,
            "INSERT INTO email_messages (id, dedupe_key, campaign_id, to_email, from_email, message_id,
                 status, created_at, sent_at, opened_at, track_opens)
             VALUES ($1, $2, 'CT', $3, 'us@example.test', $4, 'sent', $5, $5, $6, $7)",
            format!("M{i}"),
            format!("campaign:CT:{i}"),
            format!("r{i}@example.test"),
            format!("M{i}@example.test"),
            now - 60_000,
            opened.then_some(now - 30_000),
            tracked
        );
    }
    let a = app.get_json(&user, "/api/email/analytics").await;
    assert_eq!(
        (
            a["totalSent"].as_i64(),
            a["openRate"].as_f64(),
            a["figures"]["openTracked"].as_i64()
        ),
        (Some(4), Some(50.0), Some(2)),
        "{a}"
    );
    let p = app
        .get_json(&user, "/api/campaigns/bulk-email/performance/overview")
        .await;
    let p = &p["performance"];
    assert_eq!(
        (
            p["totalEmailsSent"].as_i64(),
            p["averageOpenRate"].as_f64(),
            p["figures"]["openTracked"].as_i64()
        ),
        (Some(4), Some(50.0), Some(2)),
        "{p}"
    );
    app.stop().await;
}

/// Issue 22: the activity feed reads each source only as far as the page reaches, and counts its
/// length only as far as the dashboard needs ("Show more"): exact when short, a floor beyond the
/// cap past the page, and newest first across the stored and the derived entries.
async fn activity_feed_counts_only_as_far_as_it_needs(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let total_of = |res: &reqwest::Response| {
        let n: i64 = res.headers()["x-total-count"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        let exact = res.headers().get("x-total-count-exact").is_none();
        (n, exact)
    };
    let now = now_ms();
    for i in 0..1_100i64 {
        exec!(
            &app.db,
            "INSERT INTO activities (id, type, description, entity_type, entity_id, actor_id, created_at)
             VALUES ($1, 'contact_created', $2, NULL, NULL, NULL, $3)",
            ulid::Ulid::new().to_string(),
            format!("Contact {i}"),
            now - 1_000 * (1_100 - i)
        );
        if i == 49 {
            let res = user
                .get(app.url("/api/activities?limit=5"))
                .send()
                .await
                .unwrap();
            assert_eq!(
                total_of(&res),
                (50, true),
                "a short feed is counted exactly"
            );
        }
    }
    // A campaign created after every stored activity comes first.
    exec!(
        &app.db,
        "INSERT INTO campaigns (id, kind, name, status, created_at, updated_at)
         VALUES ('feed-campaign', 'bulk', 'Newest', 'draft', $1, $1)",
        now
    );
    let res = user
        .get(app.url("/api/activities?limit=5&offset=10"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        total_of(&res),
        (1_015, false),
        "counted to the cap past the page, and said to be a floor"
    );
    let page: Vec<Value> = res.json().await.unwrap();
    let names: Vec<&str> = page
        .iter()
        .map(|e| e["summary"].as_str().unwrap())
        .collect();
    assert_eq!(names.len(), 5);
    assert!(names[0].contains("Contact 1090"), "{names:?}");
    let first = app.get_json(&user, "/api/activities?limit=2").await;
    assert_eq!(first[0]["kind"], "campaign_created", "{first}");
    assert!(
        first[1]["summary"]
            .as_str()
            .unwrap()
            .contains("Contact 1099"),
        "{first}"
    );
    app.stop().await;
}

both_backends!(
    activity_feed_counts_only_as_far_as_it_needs,
    open_rate_is_of_the_messages_with_the_pixel,
    the_same_counts_on_every_screen,
    rollups_match_a_recount,
    writes_go_ahead_of_waiting_reads,
    contact_filters_follow_every_write
);

/// Issue 22: the lists' totals, the lead board, the dashboard and the pipeline read rollups that
/// triggers keep in the write's transaction. After writes through the api and bulk statements
/// around it (inserts, updates of many rows, deletes) they equal a recount of the rows; a search
/// counts its matches only so far and says so.
async fn rollups_match_a_recount(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let day = 86_400_000;
    let now = now_ms();
    // 1,200 contacts in one statement each for two batches, over 90 days, of several statuses.
    for batch in 0..2 {
        let values: Vec<String> = (0..600)
            .map(|i| {
                let n = batch * 600 + i;
                let status = ["new_lead", "email_sent", "customer", "discovered"][n % 4];
                let contacted = if n % 5 == 0 { (now - (n as i64 % 40) * day).to_string() } else { "NULL".into() };
                format!(
                    "('R{n:05}', 'Roll', 'Up{n}', 'roll{n}@example.test', '{status}', {}, {contacted}, {}, {})",
                    n % 101,
                    now - (n as i64 % 90) * day,
                    now - (n as i64 % 60) * day
                )
            })
            .collect();
        exec!(
            &app.db,
            format!(
                "INSERT INTO contacts (id, first_name, last_name, email, status, score, last_contacted_at, created_at, updated_at) VALUES {}",
                values.join(", ")
            )
        );
    }
    let mut company_ids = Vec::new();
    for (i, (state, score)) in [
        ("TX", 91),
        ("TX", 65),
        ("LA", 12),
        ("OK", 80),
        ("OK", 70),
        ("AZ", 85),
    ]
    .iter()
    .enumerate()
    {
        let company_status = [
            "qualified",
            "discovered",
            "interested",
            "prospect",
            "partner",
            "qualified",
        ][i];
        let (status, c) = send(user.post(app.url("/api/companies")).json(&json!({
            "name": format!("Rollup Baths {i}"), "state": state, "score": score,
            "revenue": 1_000_000 * (i as i64 + 1), "employees": 10 + i,
            "status": company_status
        })))
        .await;
        assert_eq!(status, 201, "{c}");
        company_ids.push(c["id"].as_str().unwrap().to_string());
    }
    // Contacts at the companies that go, so their deletes move contacts too.
    exec!(
        &app.db,
        format!(
            "UPDATE contacts SET company_id = '{}' WHERE id IN ('R00010', 'R00011', 'R00012')",
            company_ids[4]
        )
    );
    // Each company's contact count (migration 0043): contacts placed at companies that stay, in
    // one statement for several companies; some then swapped between two in one statement, one
    // let go of its company, and a batch inserted straight at three companies.
    let (c0, c1, c2, c3) = (
        &company_ids[0],
        &company_ids[1],
        &company_ids[2],
        &company_ids[3],
    );
    exec!(
        &app.db,
        format!(
            "UPDATE contacts SET company_id = CASE WHEN score % 3 = 0 THEN '{c0}'
                 WHEN score % 3 = 1 THEN '{c1}' ELSE '{c3}' END
             WHERE id BETWEEN 'R00020' AND 'R00059' OR id BETWEEN 'R00150' AND 'R00159'"
        )
    );
    exec!(
        &app.db,
        format!(
            "UPDATE contacts SET company_id = CASE WHEN company_id = '{c0}' THEN '{c1}' ELSE '{c0}' END
             WHERE company_id IN ('{c0}', '{c1}') AND score % 2 = 0"
        )
    );
    exec!(
        &app.db,
        "UPDATE contacts SET company_id = NULL WHERE id = 'R00021'"
    );
    let placed: Vec<String> = (0..30)
        .map(|i| {
            let company = [c0, c1, c2][i % 3];
            format!(
                "('P{i:03}', '{company}', 'Placed', 'P{i}', 'placed{i}@example.test', 'new_lead', {i}, {now}, {now})"
            )
        })
        .collect();
    exec!(
        &app.db,
        format!(
            "INSERT INTO contacts (id, company_id, first_name, last_name, email, status, score, created_at, updated_at) VALUES {}",
            placed.join(", ")
        )
    );
    assert_eq!(stored_rollups(&app.db).await, recounted(&app.db).await);
    let mut deal_ids = Vec::new();
    for (i, value) in [10_000, 25_000, 40_000].iter().enumerate() {
        let (status, d) = send(user.post(app.url("/api/deals")).json(&json!({
            "title": format!("Dealer {i}"), "value": value
        })))
        .await;
        assert_eq!(status, 201, "{d}");
        deal_ids.push(d["id"].as_str().unwrap().to_string());
    }
    // Writes through the api: a deal moved on, one won, one deleted; a contact edited.
    let (s, _) = send(user.post(app.url(&format!("/api/deals/{}/next-stage", deal_ids[0])))).await;
    assert_eq!(s, 200);
    let (s, d) = send(
        user.put(app.url(&format!("/api/deals/{}", deal_ids[1])))
            .json(&json!({
                "title": "Dealer 1", "value": 30_000, "stage": "closed_won"
            })),
    )
    .await;
    assert_eq!(s, 200, "{d}");
    let (s, _) = send(user.delete(app.url(&format!("/api/deals/{}", deal_ids[2])))).await;
    assert!(s == 200 || s == 204, "{s}");
    let (s, c) = send(user.put(app.url("/api/contacts/R00007")).json(&json!({
        "firstName": "Roll", "lastName": "Up7", "status": "qualified", "score": 88
    })))
    .await;
    assert_eq!(s, 200, "{c}");
    // Bulk statements around the api: many rows moved, rescored and deleted at once.
    exec!(
        &app.db,
        "UPDATE contacts SET status = 'email_sent', updated_at = updated_at + 1 WHERE status = 'new_lead' AND score < 30"
    );
    exec!(
        &app.db,
        "UPDATE contacts SET score = score + 10 WHERE score BETWEEN 70 AND 80"
    );
    exec!(&app.db, "DELETE FROM contacts WHERE id LIKE 'R001%'");
    // Names and addresses edited in bulk: the searched words move (migration 0030).
    exec!(
        &app.db,
        "UPDATE contacts SET last_name = 'Renamed', email = 'new' || id || '@renamed.test' WHERE score BETWEEN 20 AND 25"
    );
    // Customers won, lost and re-dated in bulk (the customers screen's "new this month").
    exec!(
        &app.db,
        "UPDATE contacts SET status = 'customer' WHERE status = 'discovered' AND score > 90"
    );
    exec!(
        &app.db,
        "UPDATE contacts SET status = 'qualified' WHERE status = 'customer' AND score < 15"
    );
    exec!(
        &app.db,
        format!(
            "UPDATE contacts SET created_at = created_at - {} WHERE status = 'customer' AND score BETWEEN 40 AND 50",
            20 * day
        )
    );
    exec!(
        &app.db,
        "UPDATE companies SET state = NULL, score = 59 WHERE state = 'LA'"
    );
    exec!(
        &app.db,
        "UPDATE companies SET revenue = NULL, employees = employees * 2, status = 'partner' WHERE state = 'TX' AND score > 80"
    );
    // Deletes and status changes through the api: contacts picked by the list's filters, by hand
    // and one by one; companies one and many at once.
    let (s, v) = send(
        user.post(app.url("/api/contacts/bulk-delete"))
            .json(&json!({ "contactFilter": { "q": "up3", "status": "customer" } })),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    assert!(v["deleted"].as_i64().unwrap() > 5, "{v}");
    let (s, v) = send(
        user.post(app.url("/api/contacts/bulk-delete"))
            .json(&json!({ "contactIds": ["R00040", "R00041", "R00042", "R00043"] })),
    )
    .await;
    assert_eq!((s, v["deleted"].as_i64()), (200, Some(4)), "{v}");
    let (s, _) = send(user.delete(app.url("/api/contacts/R00044"))).await;
    assert_eq!(s, 204);
    let (s, v) = send(
        user.post(app.url("/api/contacts/bulk-status"))
            .json(&json!({ "contactFilter": { "q": "up5" }, "status": "customer" })),
    )
    .await;
    assert_eq!(s, 200, "{v}");
    let (s, _) = send(user.delete(app.url(&format!("/api/companies/{}", company_ids[3])))).await;
    assert_eq!(s, 204);
    let (s, v) =
        send(user.post(app.url("/api/companies/bulk-status")).json(
            &json!({ "companyIds": [company_ids[4], company_ids[5]], "status": "interested" }),
        ))
        .await;
    assert_eq!((s, v["updated"].as_i64()), (200, Some(2)), "{v}");
    let (s, v) = send(
        user.post(app.url("/api/companies/bulk-delete"))
            .json(&json!({ "companyIds": [company_ids[4], company_ids[5]] })),
    )
    .await;
    assert_eq!((s, v["deleted"].as_i64()), (200, Some(2)), "{v}");
    assert_eq!(stored_rollups(&app.db).await, recounted(&app.db).await);
    // The companies that stay show those counts on the list, alone and on their record.
    let (s, listed) = send(user.get(app.url("/api/companies?q=Rollup%20Baths"))).await;
    assert_eq!(s, 200, "{listed}");
    for id in &company_ids[..3] {
        let n = scalar!(
            &app.db,
            i64,
            "SELECT COUNT(*) FROM contacts WHERE company_id = $1",
            id
        );
        assert!(n > 0 || id == &company_ids[2], "{id}: {n}");
        let item = listed.as_array().unwrap().iter().find(|c| c["id"] == *id);
        assert_eq!(item.map(|c| &c["contactCount"]), Some(&json!(n)), "{id}");
        let (_, alone) = send(user.get(app.url(&format!("/api/companies/{id}")))).await;
        assert_eq!(alone["contactCount"], n, "{id}");
        let (_, record) = send(user.get(app.url(&format!("/api/companies/{id}/related")))).await;
        assert_eq!(record["contactCount"], n, "{id}: {record}");
    }

    // The customers screen's tiles read them too: "new this month" is the last 30 days.
    let (s, stats) = send(user.get(app.url("/api/customers/stats"))).await;
    assert_eq!(s, 200, "{stats}");
    let since = now_ms() - 30 * day;
    let created: Vec<(i64,)> = fetch_rows(
        &app.db,
        "SELECT created_at FROM contacts WHERE status = 'customer'",
    )
    .await;
    let recent = created.iter().filter(|(at,)| *at >= since).count();
    assert!(recent > 0, "the test's customers include recent ones");
    assert_eq!(stats["newThisMonth"], json!(recent), "{stats}");
    assert_eq!(stats["total"], json!(created.len()), "{stats}");

    // The customer report's summary and the scoring insights read those rollups.
    let (s, report) = send(user.get(app.url("/api/companies/report?state=TX&limit=5"))).await;
    assert_eq!(s, 200, "{report}");
    let tx_companies = scalar(
        &app.db,
        "SELECT COUNT(*) FROM companies WHERE upper(state) = 'TX'",
    )
    .await;
    assert_eq!(report["totalCompanies"], json!(tx_companies), "{report}");
    // Revenue is known only for the TX company at 65 (2,000,000); the other one's was cleared.
    assert_eq!(report["avgRevenue"], json!(2_000_000), "{report}");
    let (s, insights) = send(user.get(app.url("/api/scoring-insights"))).await;
    assert_eq!(s, 200, "{insights}");
    let all = scalar(&app.db, "SELECT COUNT(*) FROM contacts").await;
    let top = scalar(&app.db, "SELECT COUNT(*) FROM contacts WHERE score >= 85").await;
    let sum = scalar(&app.db, "SELECT CAST(SUM(score) AS BIGINT) FROM contacts").await;
    assert_eq!(insights["totalContacts"], json!(all));
    assert_eq!(insights["highValueCount"], json!(top));
    assert_eq!(insights["averageScore"], json!(sum / all));
    assert_eq!(insights["scoringDistribution"][3]["count"], json!(top));

    // What the screens read: exact totals from the rollup, a floor for a search.
    let total = |res: &reqwest::Response| -> (i64, bool) {
        let h = res.headers();
        (
            h["x-total-count"].to_str().unwrap().parse().unwrap(),
            h.get("x-total-count-exact").is_none(),
        )
    };
    let all = scalar(&app.db, "SELECT COUNT(*) FROM contacts").await;
    let res = user
        .get(app.url("/api/contacts?limit=5"))
        .send()
        .await
        .unwrap();
    assert_eq!(total(&res), (all, true));
    let customers = scalar(
        &app.db,
        "SELECT COUNT(*) FROM contacts WHERE status = 'customer'",
    )
    .await;
    let res = user
        .get(app.url("/api/contacts?limit=5&status=customer"))
        .send()
        .await
        .unwrap();
    assert_eq!(total(&res), (customers, true));
    let matching = scalar(
        &app.db,
        "SELECT COUNT(*) FROM contacts
         WHERE lower(first_name || ' ' || last_name || ' ' || COALESCE(email, '')) LIKE '%roll%'",
    )
    .await;
    assert!(matching > 1_000, "{matching}");
    let res = user
        .get(app.url("/api/contacts?limit=5&q=roll"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        total(&res),
        (1_000, false),
        "a search counts 1,000 past its page"
    );
    // A search of two words on Postgres reads its matches once: page and exact total.
    let res = user
        .get(app.url("/api/contacts?limit=5&q=Roll%20Up"))
        .send()
        .await
        .unwrap();
    let two_words = scalar(
        &app.db,
        "SELECT COUNT(*) FROM contacts WHERE last_name LIKE 'Up%'",
    )
    .await;
    let expected = if app.db.backend() == jobs::db::Backend::Postgres || two_words <= 1_000 {
        (two_words, true)
    } else {
        (1_000, false)
    };
    assert_eq!(total(&res), expected);
    let page: Vec<Value> = res.json().await.unwrap();
    let newest: Vec<(String,)> = fetch_rows(
        &app.db,
        "SELECT id FROM contacts WHERE last_name LIKE 'Up%' ORDER BY created_at DESC, id DESC LIMIT 5",
    )
    .await;
    let ids: Vec<&str> = page.iter().filter_map(|c| c["id"].as_str()).collect();
    let newest: Vec<&str> = newest.iter().map(|(id,)| id.as_str()).collect();
    if app.db.backend() == jobs::db::Backend::Postgres {
        // In the list's order (SQLite's FTS table gives the rows last written first).
        assert_eq!(ids, newest, "the newest matches first");
    } else {
        assert_eq!(ids.len(), 5);
    }
    // Parts of words at the term's ends match as any substring does.
    for (q, want) in [
        ("roll%20upx", (0, true)),
        ("xroll%20up", (0, true)),
        ("oll%20u", expected),
    ] {
        let res = user
            .get(app.url(&format!("/api/contacts?limit=5&q={q}")))
            .send()
            .await
            .unwrap();
        assert_eq!(total(&res), want, "{q}");
    }
    // With another filter the search's words prove nothing: its matches are counted.
    let res = user
        .get(app.url("/api/contacts?limit=5&q=roll&status=customer"))
        .send()
        .await
        .unwrap();
    assert!(customers > 5, "{customers}");
    assert_eq!(total(&res), (customers, true), "every customer is a 'roll'");
    let res = user
        .get(app.url("/api/contacts?limit=5&offset=600&q=roll"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        total(&res),
        (matching, true),
        "and exactly when the rest is within reach"
    );
    let page: Vec<Value> = res.json().await.unwrap();
    assert_eq!(page.len(), 5);
    // A short last page is the end of the list, a page past the end is counted: exact either way.
    for (offset, rows) in [(matching - 2, 2), (matching + 10, 0)] {
        let res = user
            .get(app.url(&format!("/api/contacts?limit=5&offset={offset}&q=roll")))
            .send()
            .await
            .unwrap();
        assert_eq!(total(&res), (matching, true), "offset {offset}");
        let page: Vec<Value> = res.json().await.unwrap();
        assert_eq!(page.len(), rows, "offset {offset}");
    }
    let res = user
        .get(app.url("/api/companies?q=rollup%20baths"))
        .send()
        .await
        .unwrap();
    assert_eq!(
        total(&res),
        (3, true),
        "a short first page (three were deleted)"
    );
    let res = user
        .get(app.url("/api/companies?state=TX&scoreBand=high"))
        .send()
        .await
        .unwrap();
    assert_eq!(total(&res), (1, true));
    app.stop().await;
}

/// Holds `n` connections of `pool` until dropped.
async fn hold<DB: sqlx::Database>(
    pool: &sqlx::Pool<DB>,
    n: usize,
) -> Vec<sqlx::pool::PoolConnection<DB>> {
    let mut held = Vec::with_capacity(n);
    for _ in 0..n {
        held.push(pool.acquire().await.expect("a read connection"));
    }
    held
}

/// Issue 22: a write (its row read, its transaction, its answer) never queues for a connection
/// behind the screens' reads: with every read connection taken, a status change through the api
/// still answers at once (a shared pool would make it wait the 15 s acquire timeout and fail).
async fn writes_go_ahead_of_waiting_reads(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let (s, c) = send(user.post(app.url("/api/contacts")).json(&json!({
        "firstName": "Busy", "lastName": "Reader", "email": "busy.reader@example.test"
    })))
    .await;
    assert_eq!(s, 201, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let put = async {
        tokio::time::timeout(
            Duration::from_secs(5),
            send(
                user.put(app.url(&format!("/api/contacts/{id}")))
                    .json(&json!({
                        "firstName": "Busy", "lastName": "Reader", "status": "qualified"
                    })),
            ),
        )
        .await
    };
    // Every read connection the api has (DB_MAX_CONNECTIONS is 16 in the tests) is taken.
    let answered = match &app.db {
        Db::Sqlite(p) => {
            let _held = hold(p.read(), 16).await;
            put.await
        }
        Db::Postgres(p) => {
            let _held = hold(p.read(), 16).await;
            put.await
        }
    };
    let (s, c) = answered.expect("the write waited behind the reads");
    assert_eq!(s, 200, "{c}");
    assert_eq!(c["status"], "qualified", "{c}");
    let stored = app.get_json(&user, &format!("/api/contacts/{id}")).await;
    assert_eq!(stored["status"], "qualified", "{stored}");
    app.stop().await;
}

mod postgres_only {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn generic_plans_where_marked_and_dropped_connections_replaced() {
        if let Some(db) = super::TestDb::new(super::Backend::Postgres).await {
            super::generic_plans_where_marked_and_dropped_connections_replaced(db).await
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn no_statement_is_jit_compiled() {
        if let Some(db) = super::TestDb::new(super::Backend::Postgres).await {
            super::no_statement_is_jit_compiled(db).await
        }
    }
}

/// Issue 22, Postgres at 1,000,000 contacts: a generic plan's `LIMIT $1` is costed as a tenth of
/// the rows, which took the lead board past `jit_above_cost`, and compiling it cost 66–178 ms a run
/// for 0.1–0.25 ms of work. Every pool's connections have JIT off, so even a statement costed
/// above any threshold (`jit_above_cost = 0` here) runs without compiling.
async fn no_statement_is_jit_compiled(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let Db::Postgres(pools) = &app.db else {
        panic!("a Postgres test")
    };
    let in_write = jobs::db::writing(async { pools.read().clone() }).await;
    for (name, pool) in [
        ("screens' reads", pools.read()),
        ("generic plans", pools.read_planned(&[true])),
        ("writes", pools.write()),
        ("a writing request's reads", &in_write),
    ] {
        let mut tx = pool.begin().await.expect("begin");
        sqlx::query("SET LOCAL jit_above_cost = 0")
            .execute(&mut *tx)
            .await
            .expect("SET LOCAL");
        let plan: Value = sqlx::query_scalar(
            "EXPLAIN (ANALYZE, FORMAT JSON) SELECT status, COUNT(*) FROM contacts GROUP BY status",
        )
        .fetch_one(&mut *tx)
        .await
        .expect("EXPLAIN");
        assert!(plan[0].get("JIT").is_none(), "{name}: compiled: {plan}");
        let jit: String = sqlx::query_scalar("SHOW jit")
            .fetch_one(&mut *tx)
            .await
            .expect("SHOW jit");
        assert_eq!(jit, "off", "{name}");
    }
    app.stop().await;
}

async fn plan_cache_mode(pool: &sqlx::PgPool) -> String {
    sqlx::query_scalar("SHOW plan_cache_mode")
        .fetch_one(pool)
        .await
        .expect("SHOW plan_cache_mode")
}

/// Issue 22, Postgres: the statements marked for a generic plan (the dashboard's windows, the
/// feed, the boards, the contacts' and companies' list pages without a term or a sort picked) run on
/// connections that plan them once, and the pages they give are the recount's; any other
/// statement, or one in a request that writes, on connections that plan per run. Connections the server dropped (a
/// restart) are replaced: at once for a write, whose pool still pings before each use; for the
/// screens' reads, which ping only a connection idle a second, once that second has passed.
async fn generic_plans_where_marked_and_dropped_connections_replaced(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let Db::Postgres(pools) = &app.db else {
        panic!("a Postgres test")
    };
    assert_eq!(
        plan_cache_mode(pools.read_planned(&[true])).await,
        "force_generic_plan"
    );
    assert_eq!(
        plan_cache_mode(pools.read_planned(&[true, true])).await,
        "force_generic_plan"
    );
    assert_eq!(
        plan_cache_mode(pools.read_planned(&[true, false])).await,
        "auto"
    );
    assert_eq!(plan_cache_mode(pools.read()).await, "auto");
    let in_write = jobs::db::writing(async { plan_cache_mode(pools.read_planned(&[true])).await });
    assert_eq!(in_write.await, "auto");

    // The contacts list's pages (unfiltered, by status, by a facet, deep) and the lead board are
    // planned once, on those connections, and answer what a recount says.
    for i in 0..3 {
        let (s, c) = send(user.post(app.url("/api/contacts")).json(&json!({
            "firstName": format!("Planned{i}"), "lastName": "Once",
            "email": format!("planned{i}.once@example.test"), "status": "qualified"
        })))
        .await;
        assert_eq!(s, 201, "{c}");
    }
    // The companies list's pages likewise: three in Texas, qualified, of scores 90, 85 and 85
    // (the tie in name order, the later one created first).
    for (i, score) in [(0, 90), (2, 85), (1, 85)] {
        let (s, c) = send(user.post(app.url("/api/companies")).json(&json!({
            "name": format!("Planned Works {i}"), "state": "TX", "status": "qualified",
            "score": score
        })))
        .await;
        assert_eq!(s, 201, "{c}");
    }
    for path in [
        "/api/contacts?limit=2&offset=0",
        "/api/contacts?limit=2&offset=1",
        "/api/contacts?limit=2&offset=0&status=qualified",
        "/api/contacts?limit=2&offset=2&status=qualified",
        "/api/contacts?limit=2&offset=0&role=CEO",
        "/api/leads/board?limit=2",
        "/api/companies?limit=2&offset=0",
        "/api/companies?limit=2&offset=0&state=TX&status=qualified",
        "/api/companies?limit=2&offset=0&scoreBand=high",
    ] {
        let (s, c) = send(user.get(app.url(path))).await;
        assert_eq!(s, 200, "{path}: {c}");
    }
    let page = app
        .get_json(&user, "/api/contacts?limit=2&offset=1&status=qualified")
        .await;
    let names: Vec<String> = page
        .as_array()
        .expect("a page of contacts")
        .iter()
        .filter_map(|c| c["firstName"].as_str().map(str::to_string))
        .collect();
    let recount: Vec<String> = sqlx::query_scalar(
        "SELECT first_name FROM contacts WHERE status = 'qualified'
         ORDER BY created_at DESC, id DESC LIMIT 2 OFFSET 1",
    )
    .fetch_all(pools.write())
    .await
    .expect("the page recounted");
    assert_eq!(recount.len(), 2, "{recount:?}");
    assert_eq!(names, recount, "{page}");
    let page = app
        .get_json(&user, "/api/companies?limit=2&offset=1&state=TX")
        .await;
    let names: Vec<&str> = page
        .as_array()
        .expect("a page of companies")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["Planned Works 1", "Planned Works 2"], "{page}");
    let generic = pools.read_planned(&[true]);
    // Every open connection: while the app's own reads hold one, an acquire opens a new one
    // instead, so taking `size()` connections once could skip the one that ran a page.
    let mut held = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        while held.len() < generic.size() as usize {
            held.push(generic.acquire().await.expect("a generic-plan connection"));
        }
    })
    .await
    .expect("every generic-plan connection within 10 s");
    let mut planned_once = Vec::new();
    for conn in &mut held {
        let rows: Vec<(String, i64, i64)> = sqlx::query_as(
            "SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements
             WHERE (statement LIKE '%FROM compan%' OR statement LIKE '%FROM contact%')
               AND generic_plans > 0 AND statement NOT LIKE '%pg_prepared%'",
        )
        .fetch_all(&mut **conn)
        .await
        .expect("pg_prepared_statements");
        planned_once.extend(rows);
    }
    drop(held);
    for part in [
        "status = ",
        "contact_facets f",
        "UNION ALL",
        "ORDER BY created_at DESC, id DESC LIMIT 2 OFFSET",
        "status = $2",
        "score >= ",
        "name_key FROM companies WHERE TRUE AND state = ",
    ] {
        assert!(
            planned_once
                .iter()
                .any(|(s, _, custom)| s.contains(part) && *custom == 0),
            "no page statement with {part:?} planned once: {planned_once:?}"
        );
    }

    let (s, c) = send(user.post(app.url("/api/contacts")).json(&json!({
        "firstName": "Dropped", "lastName": "Link", "email": "dropped.link@example.test"
    })))
    .await;
    assert_eq!(s, 201, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    // Every connection of the api's pools goes, from a connection of its own.
    let terminate_all = || async {
        let mut admin = <sqlx::PgConnection as sqlx::Connection>::connect(&db.raw_url)
            .await
            .expect("a connection of the test's own");
        sqlx::query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .execute(&mut admin)
        .await
        .expect("terminate the api's connections");
    };
    // A write right after.
    terminate_all().await;
    let (s, c) = send(
        user.put(app.url(&format!("/api/contacts/{id}")))
            .json(&json!({"firstName": "Dropped", "lastName": "Link", "status": "qualified"})),
    )
    .await;
    assert_eq!(s, 200, "{c}");
    assert_eq!(c["status"], "qualified", "{c}");
    // The reads' connections from before it went too: they are pinged after a second's rest.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let before = app.get_json(&user, "/api/dashboard/metrics").await;
    let feed = app.get_json(&user, "/api/activities?limit=5").await;
    terminate_all().await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    assert_eq!(app.get_json(&user, "/api/dashboard/metrics").await, before);
    assert_eq!(app.get_json(&user, "/api/activities?limit=5").await, feed);
    app.stop().await;
}

/// The facets of migrations 0024 and 0025 as stored, and as a recount from contacts and companies
/// says they must be; and the counts per facet, stored (zeros left out) and recounted.
async fn facets_and_recount(db: &Db) -> [Vec<(String, i64, String)>; 2] {
    // Sorted here: the database's collation may order '&' and ':' otherwise.
    let mut stored: Vec<(String, i64, String)> = fetch_rows(
        db,
        "SELECT facet, CAST(created_at AS BIGINT), contact_id FROM contact_facets",
    )
    .await;
    stored.sort();
    let plain: Vec<(String, i64, String)> = fetch_rows(
        db,
        "SELECT facet, CAST(created_at AS BIGINT), id FROM (
             SELECT 'status:' || status AS facet, created_at, id FROM contacts
             UNION ALL
             SELECT 'role:' || w.word, c.created_at, c.id FROM contacts c
             JOIN facet_role_words w ON lower(COALESCE(c.title, '')) LIKE '%' || w.word || '%'
             UNION ALL
             SELECT 'region:' || r.region, c.created_at, c.id FROM contacts c
             JOIN companies co ON co.id = c.company_id JOIN facet_region_states r ON r.state = co.state
         ) f",
    )
    .await;
    let recount = with_combinations(plain);
    let mut counts: Vec<(String, i64)> = fetch_rows(
        db,
        "SELECT facet, CAST(n AS BIGINT) FROM contact_facet_counts WHERE n <> 0",
    )
    .await;
    counts.sort();
    let mut recounted: Vec<(String, i64)> = Vec::new();
    for (facet, _, _) in &recount {
        match recounted.last_mut() {
            Some((f, n)) if f == facet => *n += 1,
            _ => recounted.push((facet.clone(), 1)),
        }
    }
    assert_eq!(counts, recounted, "facet counts");
    [stored, recount]
}

/// Migration 0025's entries: for each contact, every combination of its facets of two or three
/// kinds (one facet per kind), keyed by the facets in order joined with '&'.
fn with_combinations(entries: Vec<(String, i64, String)>) -> Vec<(String, i64, String)> {
    let mut per_contact: BTreeMap<(String, i64), Vec<String>> = BTreeMap::new();
    for (facet, created, contact) in &entries {
        per_contact
            .entry((contact.clone(), *created))
            .or_default()
            .push(facet.clone());
    }
    let mut all = entries;
    for ((contact, created), facets) in per_contact {
        let of = |kind: &str| -> Vec<Option<&str>> {
            let mut v: Vec<Option<&str>> = facets
                .iter()
                .filter(|f| f.starts_with(&format!("{kind}:")))
                .map(|f| Some(f.as_str()))
                .collect();
            v.push(None);
            v
        };
        for region in of("region") {
            for role in of("role") {
                for status in of("status") {
                    let parts: Vec<&str> = [region, role, status].into_iter().flatten().collect();
                    if parts.len() >= 2 {
                        all.push((parts.join("&"), created, contact.clone()));
                    }
                }
            }
        }
    }
    all.sort();
    all
}

/// Every combination of the contacts screen's role, region and status filters answers what a
/// scan of the contacts answers: the page's ids in order and the total.
async fn assert_filters(app: &TestApp, user: &Client) {
    let [stored, recount] = facets_and_recount(&app.db).await;
    assert_eq!(stored, recount, "facets");
    for role in [
        None,
        Some("CEO"),
        Some("founder"),
        Some("Manager"),
        Some("vp"),
    ] {
        for region in [None, Some("texas"), Some("southwest"), Some("arizona")] {
            for status in [None, Some("new_lead"), Some("qualified")] {
                if role.is_none() && region.is_none() {
                    continue;
                }
                let mut query = vec!["limit=200".to_string()];
                let mut expected = String::from("SELECT c.id FROM contacts c WHERE TRUE");
                if let Some(role) = role {
                    query.push(format!("role={role}"));
                    expected += &format!(
                        " AND lower(COALESCE(c.title, '')) LIKE '%{}%'",
                        role.to_lowercase()
                    );
                }
                if let Some(region) = region {
                    query.push(format!("region={region}"));
                    let states = match region {
                        "texas" => "'TX'",
                        "arizona" => "'AZ'",
                        _ => "'TX', 'LA', 'AR', 'MS', 'NM', 'OK', 'AZ'",
                    };
                    expected += &format!(
                        " AND EXISTS (SELECT 1 FROM companies co WHERE co.id = c.company_id
                           AND co.state IN ({states}))"
                    );
                }
                if let Some(status) = status {
                    query.push(format!("status={status}"));
                    expected += &format!(" AND c.status = '{status}'");
                }
                expected += " ORDER BY c.created_at DESC, c.id DESC";
                let expected: Vec<(String,)> = fetch_rows(&app.db, expected.leak()).await;
                let expected: Vec<String> = expected.into_iter().map(|(id,)| id).collect();
                let url = app.url(&format!("/api/contacts?{}", query.join("&")));
                let res = user.get(url).send().await.unwrap();
                assert_eq!(res.status(), 200);
                let total: usize = res.headers()["x-total-count"]
                    .to_str()
                    .unwrap()
                    .parse()
                    .unwrap();
                let body: Value = res.json().await.unwrap();
                let ids: Vec<String> = body
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["id"].as_str().unwrap().to_string())
                    .collect();
                let label = query.join("&");
                assert_eq!(ids, expected, "{label}");
                assert_eq!(total, expected.len(), "{label}");
                // A page further on: the offset counts in list order.
                query[0] = "limit=2&offset=1".into();
                let url = app.url(&format!("/api/contacts?{}", query.join("&")));
                let (s, page) = send(user.get(url)).await;
                assert_eq!(s, 200);
                let page: Vec<&str> = page
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c["id"].as_str().unwrap())
                    .collect();
                let want: Vec<&str> = expected
                    .iter()
                    .skip(1)
                    .take(2)
                    .map(String::as_str)
                    .collect();
                assert_eq!(page, want, "{label}, second page");
            }
        }
    }
}

/// The role, region and status filters read index entries (facets) that the database keeps in
/// the write's transaction: after contacts are created, edited, moved, imported in bulk and
/// deleted, and companies move state or go, every filter still answers what a scan answers.
async fn contact_filters_follow_every_write(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let mut companies = Vec::new();
    for (i, state) in ["TX", "AZ", "CA", "LA"].iter().enumerate() {
        let (s, c) = send(user.post(app.url("/api/companies")).json(&json!({
            "name": format!("Facet Baths {i}"), "state": state
        })))
        .await;
        assert_eq!(s, 201, "{c}");
        companies.push(c["id"].as_str().unwrap().to_string());
    }
    let titles = [
        "CEO & Founder",
        "VP of Sales",
        "Office Manager",
        "Estimator",
        "President",
    ];
    let statuses = ["new_lead", "qualified", "customer"];
    let mut contacts = Vec::new();
    for i in 0..30 {
        let (s, c) = send(user.post(app.url("/api/contacts")).json(&json!({
            "firstName": "Facet", "lastName": format!("Person{i}"),
            "email": format!("facet{i}@example.test"),
            "title": titles[i % titles.len()],
            "status": statuses[i % statuses.len()],
            "companyId": if i % 7 == 6 { Value::Null } else { json!(companies[i % companies.len()]) },
        })))
        .await;
        assert_eq!(s, 201, "{c}");
        contacts.push(c["id"].as_str().unwrap().to_string());
    }
    assert_filters(&app, &user).await;

    // An edit that changes the title and the status; a move; a bulk status change.
    let (s, c) = send(
        user.put(app.url(&format!("/api/contacts/{}", contacts[3])))
            .json(&json!({
                "firstName": "Facet", "lastName": "Person3", "title": "Founder",
                "status": "new_lead", "companyId": companies[1]
            })),
    )
    .await;
    assert_eq!(s, 200, "{c}");
    let (s, c) = send(user.post(app.url("/api/contacts/bulk-status")).json(
        &json!({ "contactIds": [contacts[0], contacts[1], contacts[2]], "status": "qualified" }),
    ))
    .await;
    assert_eq!(s, 200, "{c}");
    // A company moves from Texas to Oklahoma; another is deleted (its contacts lose their region).
    let (s, c) = send(
        user.put(app.url(&format!("/api/companies/{}", companies[0])))
            .json(&json!({ "name": "Facet Baths 0", "state": "OK" })),
    )
    .await;
    assert_eq!(s, 200, "{c}");
    exec!(
        &app.db,
        format!("DELETE FROM companies WHERE id = '{}'", companies[1])
    );
    // Statements over many rows, as imports and bulk tools write them.
    exec!(
        &app.db,
        "UPDATE contacts SET title = 'General Manager', status = 'new_lead' WHERE title = 'Estimator'"
    );
    exec!(
        &app.db,
        format!(
            "DELETE FROM contacts WHERE id IN ('{}', '{}')",
            contacts[4], contacts[5]
        )
    );
    assert_filters(&app, &user).await;
    // The same through the api: a company with contacts in a region, contacts by the filters'
    // facets and by hand, and statuses by a filter.
    let (s, _) = send(user.delete(app.url(&format!("/api/companies/{}", companies[2])))).await;
    assert_eq!(s, 204);
    let (s, c) = send(
        user.post(app.url("/api/contacts/bulk-delete"))
            .json(&json!({ "contactFilter": { "role": "vp", "region": "southwest" } })),
    )
    .await;
    assert_eq!(s, 200, "{c}");
    let (s, c) = send(
        user.post(app.url("/api/contacts/bulk-delete"))
            .json(&json!({ "contactIds": [contacts[8], contacts[9]] })),
    )
    .await;
    assert_eq!((s, c["deleted"].as_i64()), (200, Some(2)), "{c}");
    let (s, c) = send(
        user.post(app.url("/api/contacts/bulk-status"))
            .json(&json!({ "contactFilter": { "role": "president" }, "status": "customer" })),
    )
    .await;
    assert_eq!(s, 200, "{c}");
    assert_filters(&app, &user).await;
}
