//! Campaigns as their users write and follow them, with a real SMTP server on loopback: the
//! composer's preview is what is sent, a test send reaches the signed-in user and counts nowhere,
//! saved templates are changed and deleted, a campaign held by the hourly limit says so and until
//! when, a dead send job leaves the campaign `failed` with a Retry, and the readiness check blocks
//! real sending without a postal address. Every test runs on SQLite and on Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::time::Duration;

use common::smtp::{POSTAL, SmtpSink, parse};
use common::*;
use jobs::db::Db;
use jobs::providers::Providers;
use jobs::time::now_ms;
use reqwest::Client;
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(20);

async fn app_with(db: &TestDb, mailing: jobs::mailing::Mailing) -> TestApp {
    TestApp::spawn(
        db,
        AppOptions {
            providers: Some(Providers::embedded().with_mailing(mailing)),
            ..AppOptions::default()
        },
    )
    .await
}

async fn insert_contact(db: &Db, first: &str, email: &str, score: i32) -> String {
    let id = ulid::Ulid::new().to_string();
    let now = now_ms();
    exec!(
        db,
        "INSERT INTO contacts (id, first_name, last_name, email, title, status, score, created_at, updated_at)
         VALUES ($1, $2, 'Tester', $3, 'Owner', 'new_lead', $4, $5, $5)",
        &id,
        first,
        email,
        score,
        now
    );
    id
}

async fn campaign(app: &TestApp, c: &Client, id: &str) -> Value {
    app.get_json(c, &format!("/api/campaigns/bulk-email/{id}"))
        .await
}

/// A bulk campaign from the built-in follow-up template to every contact; its id.
async fn follow_up_campaign(app: &TestApp, c: &Client, name: &str) -> String {
    let (status, v) = send(c.post(app.url("/api/campaigns/bulk-email")).json(&json!({
        "name": name, "subject": "Hi", "templateId": "follow-up", "targetFilters": {}
    })))
    .await;
    assert_eq!(status, 201, "{v}");
    v["id"].as_str().unwrap().to_string()
}

/// The plain-text part of a message, without the footer (postal address, unsubscribe link).
fn text_before_footer(text: &str) -> String {
    text.replace("\r\n", "\n")
        .split("\n\n--\n")
        .next()
        .unwrap_or_default()
        .to_string()
}

async fn preview_is_what_is_sent_and_tests_count_nowhere(db: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&db, sink.mailing(None)).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let ann = insert_contact(&app.db, "Ann", "ann@example.test", 90).await;

    let subject = "Hello {{firstName|there}}";
    let body = "Hi {{firstName|there}},\n\nA note for {{companyName|your team}} ({{title}}).";
    // The merge fields offered are the renderer's.
    let fields = app.get_json(&user, "/api/email/merge-fields").await;
    let keys: Vec<&str> = fields["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["key"].as_str().unwrap())
        .collect();
    assert!(
        keys.contains(&"firstName") && keys.contains(&"companyName"),
        "{fields}"
    );

    let preview = |contact: &str| {
        send(user.post(app.url("/api/email/preview")).json(&json!({
            "subject": subject, "body": body, "contactId": contact
        })))
    };
    let (status, p) = preview(&ann).await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["subject"], "Hello Ann");
    assert!(p["html"].as_str().unwrap().contains("Hi Ann,"), "{p}");
    assert!(p["html"].as_str().unwrap().contains(POSTAL), "{p}");
    // Ann has no company: the fallback fills the empty field.
    assert!(
        p["html"]
            .as_str()
            .unwrap()
            .contains("A note for your team (Owner)."),
        "{p}"
    );
    let (status, bad) = send(
        user.post(app.url("/api/email/preview"))
            .json(&json!({ "subject": "", "body": "x", "contactId": ann })),
    )
    .await;
    assert_eq!(status, 422, "{bad}");
    let (status, _) = preview("nobody").await;
    assert_eq!(status, 404);

    // The campaign written with the same subject and body sends exactly the preview.
    let (status, c) = send(user.post(app.url("/api/campaigns/bulk-email")).json(&json!({
        "name": "Composed", "subject": subject, "body": body, "targetFilters": { "scoreMin": 80 }
    })))
    .await;
    assert_eq!(status, 201, "{c}");
    let id = c["id"].as_str().unwrap().to_string();
    let (status, s) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 200, "{s}");
    app.wait_status(&user, s["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    let sent = sink.messages();
    assert_eq!(sent.len(), 1);
    let to_ann = sent
        .iter()
        .find(|m| m.to.iter().any(|t| t.contains("ann@example.test")))
        .expect("a message to Ann");
    let msg = parse(&to_ann.raw);
    assert_eq!(msg.subject(), Some("Hello Ann"));
    assert_eq!(
        text_before_footer(&msg.body_text(0).unwrap()).trim(),
        text_before_footer(p["text"].as_str().unwrap()).trim(),
        "preview = sent"
    );

    // A test send goes to the signed-in user, marked, and counts in no campaign figure.
    let before = campaign(&app, &user, &id).await;
    let (status, t) = send(user.post(app.url("/api/email/send-test")).json(&json!({
        "subject": subject, "body": body, "contactId": ann
    })))
    .await;
    assert_eq!(status, 202, "{t}");
    assert_eq!(t["to"], USER_EMAIL);
    app.wait_status(&user, t["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    let test = sink
        .messages()
        .into_iter()
        .find(|m| m.to.iter().any(|to| to.contains(USER_EMAIL)))
        .expect("the test message");
    assert_eq!(parse(&test.raw).subject(), Some("[Test] Hello Ann"));
    let after = campaign(&app, &user, &id).await;
    assert_eq!(before["stats"], after["stats"]);
    let perf = app
        .get_json(&user, "/api/campaigns/bulk-email/performance/overview")
        .await;
    assert_eq!(perf["performance"]["totalEmailsSent"], 1, "{perf}");
    app.stop().await;
}

async fn saved_templates_change_and_go(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let user = app.user().await;
    let (status, t) = send(user.post(app.url("/api/email-templates")).json(&json!({
        "name": "Mine", "subject": "Hi {{firstName}}", "body": "Hello"
    })))
    .await;
    assert_eq!(status, 201, "{t}");
    let id = t["id"].as_str().unwrap();
    let (status, u) = send(
        user.put(app.url(&format!("/api/email-templates/{id}")))
            .json(&json!({ "name": "Mine v2", "subject": "Hey", "body": "Changed" })),
    )
    .await;
    assert_eq!(status, 200, "{u}");
    let list = app.get_json(&user, "/api/email-templates").await;
    let mine = list["templates"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id)
        .cloned()
        .unwrap();
    assert_eq!(
        (mine["name"].as_str(), mine["body"].as_str()),
        (Some("Mine v2"), Some("Changed"))
    );
    let (status, e) = send(
        user.put(app.url(&format!("/api/email-templates/{id}")))
            .json(&json!({ "name": "" })),
    )
    .await;
    assert_eq!(status, 422, "{e}");
    // Built-in templates are starting points: neither changed nor deleted.
    let (status, _) = send(
        user.put(app.url("/api/email-templates/follow-up"))
            .json(&json!({ "name": "x", "subject": "y", "body": "z" })),
    )
    .await;
    assert_eq!(status, 409);
    let (status, _) = send(user.delete(app.url("/api/email-templates/follow-up"))).await;
    assert_eq!(status, 409);
    let (status, _) = send(user.delete(app.url(&format!("/api/email-templates/{id}")))).await;
    assert_eq!(status, 204);
    // A template a campaign was made from stays, for that campaign's record.
    let (_, used) = send(user.post(app.url("/api/email-templates")).json(&json!({
        "name": "Used", "subject": "Hi", "body": "<p>Hi</p>"
    })))
    .await;
    let used = used["id"].as_str().unwrap().to_string();
    insert_contact(&app.db, "A", "a@example.test", 90).await;
    let (status, c) = send(
        user.post(app.url("/api/campaigns/bulk-email"))
            .json(&json!({
                "name": "From it", "subject": "Hi", "templateId": used, "targetFilters": {}
            })),
    )
    .await;
    assert_eq!(status, 201, "{c}");
    let (status, e) = send(user.delete(app.url(&format!("/api/email-templates/{used}")))).await;
    assert_eq!(status, 409, "{e}");
    let (status, _) = send(user.delete(app.url(&format!("/api/email-templates/{id}")))).await;
    assert_eq!(status, 404);
    app.stop().await;
}

async fn hourly_limit_says_why_and_until_when(db: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&db, sink.mailing(None)).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 2, 100).await;
    for i in 0..5 {
        insert_contact(&app.db, "Lim", &format!("l{i}@example.test"), 90).await;
    }
    let id = follow_up_campaign(&app, &user, "Limited").await;
    let (_, s) = send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    app.wait_status(&user, s["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    let v = campaign(&app, &user, &id).await;
    assert_eq!(v["status"], "sending", "{v}");
    assert_eq!(v["waiting"]["reason"], "hourly_limit", "{v}");
    assert_eq!(v["waiting"]["label"], "Hourly limit reached", "{v}");
    let until = chrono::DateTime::parse_from_rfc3339(v["waiting"]["until"].as_str().unwrap())
        .unwrap()
        .timestamp_millis();
    assert!(
        until > now_ms() && until % 3_600_000 == 0,
        "the next hour: {v}"
    );

    // Ops pause the kind: the campaign says so.
    let (status, _) = send(admin.post(app.url("/api/ops/kinds/bulk_campaign_send/pause"))).await;
    assert!(status < 300, "{status}");
    let v = campaign(&app, &user, &id).await;
    assert_eq!(v["waiting"]["label"], "Paused by ops", "{v}");
    // The user pauses it: "Paused".
    send(admin.post(app.url("/api/ops/kinds/bulk_campaign_send/resume"))).await;
    send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/pause")))).await;
    let v = campaign(&app, &user, &id).await;
    assert_eq!(
        (v["status"].as_str(), v["waiting"]["label"].as_str()),
        (Some("paused"), Some("Paused"))
    );
    app.stop().await;
}

async fn a_dead_send_job_fails_the_campaign(db: TestDb) {
    // No worker: the send job waits until ops cancel it, as a job that died would leave it.
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let user = app.user().await;
    insert_contact(&app.db, "Ann", "ann@example.test", 90).await;
    let id = follow_up_campaign(&app, &user, "Doomed").await;
    // Retry is only for a failed campaign.
    let (status, _) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/retry")))).await;
    assert_eq!(status, 409);
    let (status, s) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 200, "{s}");
    let job = s["jobId"].as_str().unwrap().to_string();
    assert_eq!(campaign(&app, &user, &id).await["status"], "sending");
    let (status, _) = send(admin.post(app.url(&format!("/api/ops/jobs/{job}/cancel")))).await;
    assert_eq!(status, 200);
    let v = campaign(&app, &user, &id).await;
    assert_eq!(v["status"], "failed", "not sending forever: {v}");
    assert_eq!(v["failure"], "the sending job was cancelled", "{v}");
    let list = app.get_json(&user, "/api/campaigns/bulk-email").await;
    assert_eq!(list["campaigns"][0]["status"], "failed", "{list}");
    let (status, r) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/retry")))).await;
    assert_eq!(status, 200, "{r}");
    assert_ne!(r["jobId"].as_str(), Some(job.as_str()));
    assert_eq!(campaign(&app, &user, &id).await["status"], "sending");
    app.stop().await;
}

async fn single_campaigns_send_to_their_audience(db: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&db, sink.mailing(None)).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    insert_contact(&app.db, "Hot", "hot@example.test", 90).await;
    insert_contact(&app.db, "Cold", "cold@example.test", 20).await;
    let (status, c) = send(user.post(app.url("/api/campaigns")).json(&json!({
        "name": "Top leads", "description": "for the best", "targetAudience": "high-value"
    })))
    .await;
    assert_eq!(status, 201, "{c}");
    assert_eq!(c["status"], "draft", "no 'active' that does nothing: {c}");
    let id = c["id"].as_str().unwrap().to_string();
    let (status, e) = send(
        user.post(app.url(&format!("/api/campaigns/{id}/send")))
            .json(&json!({ "subject": "" })),
    )
    .await;
    assert_eq!(status, 422, "{e}");
    let (status, s) = send(
        user.post(app.url(&format!("/api/campaigns/{id}/send")))
            .json(&json!({ "subject": "For {{firstName}}", "body": "Hello {{firstName|there}}" })),
    )
    .await;
    assert_eq!(status, 200, "{s}");
    assert_eq!(s["totalRecipients"], 1, "only the high-value contact: {s}");
    app.wait_status(&user, s["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    let sent = sink.messages();
    assert_eq!(sent.len(), 1);
    assert!(sent[0].to.iter().any(|t| t.contains("hot@example.test")));
    assert_eq!(parse(&sent[0].raw).subject(), Some("For Hot"));
    let list = app.get_json(&user, "/api/campaigns").await;
    let mine = list
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id.as_str())
        .unwrap()
        .clone();
    assert_eq!(
        (mine["status"].as_str(), mine["emailsSent"].as_i64()),
        (Some("sent"), Some(1)),
        "{mine}"
    );
    let (status, _) = send(
        user.post(app.url(&format!("/api/campaigns/{id}/send")))
            .json(&json!({ "subject": "Again", "body": "x" })),
    )
    .await;
    assert_eq!(status, 409, "a sent campaign is not sent twice");
    app.stop().await;
}

async fn readiness_blocks_real_sending_without_a_postal_address(db: TestDb) {
    let sink = SmtpSink::start();
    let unconfigured = jobs::mailing::Mailing::new(
        jobs::email::transport::Mailer::smtp(&sink.url(), 2).expect("SMTP mailer"),
        jobs::email::compose::Sender {
            from: "Partnerships <partners@dealers.test>".into(),
            reply_to: None,
            postal_address: jobs::config::MailSettings::default().postal_address,
            public_base_url: "https://crm.dealers.test".into(),
            unsubscribe_mailto: "unsubscribe@dealers.test".into(),
        },
        jobs::email::tokens::Signer::new(&[7u8; 64]),
        &jobs::config::MailSettings::default(),
    );
    let app = app_with(&db, unconfigured).await;
    let user = app.user().await;
    insert_contact(&app.db, "Ann", "ann@example.test", 90).await;
    let r = app.get_json(&user, "/api/email/readiness").await;
    assert_eq!(r["ready"], false, "{r}");
    let items = r["items"].as_array().unwrap();
    let postal = items
        .iter()
        .find(|i| i["item"] == "postal_address")
        .unwrap();
    assert_eq!(postal["ok"], false, "{r}");
    let delivery = items.iter().find(|i| i["item"] == "delivery").unwrap();
    assert_eq!(delivery["ok"], true, "SMTP is set: {r}");
    assert!(
        r["sendBlocked"]
            .as_str()
            .unwrap()
            .contains("MAIL_POSTAL_ADDRESS")
    );

    let id = follow_up_campaign(&app, &user, "Blocked").await;
    let (status, b) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 409, "{b}");
    assert!(
        b["message"].as_str().unwrap().contains("postal address"),
        "{b}"
    );
    let (status, _) = send(user.post(app.url("/api/email/send-test")).json(&json!({
        "subject": "Hi", "body": "Hello"
    })))
    .await;
    assert_eq!(status, 409);
    // The job refuses too, when something enqueues it anyway.
    exec!(
        &app.db,
        "UPDATE campaigns SET status = 'sending' WHERE id = $1",
        &id
    );
    let admin = app.admin().await;
    let job = app
        .enqueue(
            &admin,
            json!({ "kind": "bulk_campaign_send", "payload": { "campaignId": id } }),
        )
        .await;
    let j = app.wait_status(&admin, &job, "failed", T).await;
    assert!(
        j["error"].as_str().unwrap().contains("MAIL_POSTAL_ADDRESS"),
        "{j}"
    );
    let v = campaign(&app, &user, &id).await;
    assert_eq!(v["status"], "failed", "{v}");
    assert!(
        v["failure"]
            .as_str()
            .unwrap()
            .contains("MAIL_POSTAL_ADDRESS"),
        "{v}"
    );
    assert_eq!(sink.count(), 0, "nothing left the machine");
    app.stop().await;
}

/// The contacts a campaign reaches are marked contacted (`new_lead` → `email_sent`), also when an
/// earlier run recorded a send and stopped before marking its contact: the next run puts it right.
async fn contacts_reached_are_marked_contacted_even_after_a_stop(db: TestDb) {
    let sink = SmtpSink::start();
    let app = app_with(&db, sink.mailing(None)).await;
    let admin = app.admin().await;
    let user = app.user().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let ann = insert_contact(&app.db, "Ann", "ann@example.test", 90).await;
    let bob = insert_contact(&app.db, "Bob", "bob@example.test", 90).await;
    let id = follow_up_campaign(&app, &user, "Reach").await;
    // What a run that stopped between its two commits leaves: Ann's send recorded, Ann untouched.
    let sent_at = now_ms() - 60_000;
    exec!(
        &app.db,
        "INSERT INTO email_messages (id, dedupe_key, campaign_id, contact_id, to_email, from_email,
             message_id, status, attempts, sent_at, created_at)
         VALUES ($1, $2, $3, $4, 'ann@example.test', 'sales@example.test', $5, 'sent', 1, $6, $6)",
        ulid::Ulid::new().to_string(),
        format!("campaign:{id}:{ann}"),
        &id,
        &ann,
        format!("earlier.{ann}@example.test"),
        sent_at
    );
    let (status, s) =
        send(user.post(app.url(&format!("/api/campaigns/bulk-email/{id}/send")))).await;
    assert_eq!(status, 200, "{s}");
    app.wait_status(&user, s["jobId"].as_str().unwrap(), "succeeded", T)
        .await;
    let sent = sink.messages();
    assert_eq!(sent.len(), 1, "Ann is not sent to again");
    assert!(sent[0].to.iter().any(|t| t.contains("bob@example.test")));

    let a = app.get_json(&user, &format!("/api/contacts/{ann}")).await;
    assert_eq!(a["status"], "email_sent", "{a}");
    let at = |v: &Value| {
        chrono::DateTime::parse_from_rfc3339(v["lastContactedAt"].as_str().unwrap())
            .unwrap()
            .timestamp_millis()
    };
    assert_eq!(at(&a), sent_at, "{a}");
    let b = app.get_json(&user, &format!("/api/contacts/{bob}")).await;
    assert_eq!(b["status"], "email_sent", "{b}");
    assert!(at(&b) > sent_at, "{b}");
    // The list and its status filter agree with the records.
    let list = app
        .get_json(&user, "/api/contacts?status=email_sent&limit=10")
        .await;
    let mut ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    ids.sort();
    let mut want = vec![ann.as_str(), bob.as_str()];
    want.sort();
    assert_eq!(ids, want, "{list}");
    app.stop().await;
}

both_backends!(
    contacts_reached_are_marked_contacted_even_after_a_stop,
    single_campaigns_send_to_their_audience,
    preview_is_what_is_sent_and_tests_count_nowhere,
    saved_templates_change_and_go,
    hourly_limit_says_why_and_until_when,
    a_dead_send_job_fails_the_campaign,
    readiness_blocks_real_sending_without_a_postal_address,
);
