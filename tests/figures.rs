//! One truth (issue 21, journey 3): real messages go through a loopback SMTP server from a bulk
//! campaign and a sequence, the webhook and the inbound parse post opens, a click, a bounce, a
//! complaint, an unsubscribe and replies, and then the dashboard, the campaign, the overview, the
//! sequence and its step, a contact's history and the email analytics all show the same counts
//! (docs/figures.md). The meeting rate stays at most 100 % and is the same on both dashboard cards;
//! the activity feed shows the scan, the campaign, the batch of sends, the reply, the deal and the
//! meeting with links. Every test runs on SQLite and on Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used)]

mod common;

use std::time::Duration;

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
            .fetch_all(p)
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(q))
            .fetch_all(p)
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
    app.stop().await;
}

both_backends!(the_same_counts_on_every_screen);
