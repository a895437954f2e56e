//! Mailbox sync (issue 24 §5) against a real IMAP server: Dovecot on loopback, one per test
//! (tests/it/common/imap.rs). A sequence sends its first message to a loopback SMTP sink; the
//! contact's answer is APPENDed to the mailbox, as delivery would put it there; the `mailbox_sync`
//! job reads it through the real worker and records it through the same reply and bounce paths as
//! the inbound webhook.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::time::Duration;

use chrono::{Datelike, NaiveDate, Utc};
use common::imap::{Dovecot, PASSWORD, USER};
use common::smtp::SmtpSink;
use common::*;
use jobs::config::{GoogleSettings, Secret};
use jobs::db::CalendarAccountRow;
use jobs::kinds::{MailboxSync, MailboxTick, SequenceTick};
use jobs::providers::Providers;
use jobs::providers::google::GoogleCalendar;
use jobs::queue::{JobKind, NewJob};
use jobs::sealed::Sealer;
use reqwest::Client;
use serde_json::{Value, json};
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const T: Duration = Duration::from_secs(30);

struct Sent {
    /// Our Message-ID, without brackets.
    message_id: String,
    contact_id: String,
    to: String,
}

/// An app mailing a loopback sink; a staff user's client.
async fn mailing_app(db: &TestDb) -> (SmtpSink, TestApp, Client) {
    let sink = SmtpSink::start();
    let app = TestApp::mailing_to(db, &sink).await;
    let admin = app.admin().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let user = app.user().await;
    (sink, app, user)
}

/// `n` contacts enrolled in an active two-step sequence whose first message went out.
async fn sequence_sent(app: &TestApp, user: &Client, n: usize) -> Vec<Sent> {
    let mut ids = Vec::new();
    for i in 0..n {
        let id = ulid::Ulid::new().to_string();
        let now = jobs::time::now_ms();
        exec!(
            &app.db,
            "INSERT INTO contacts (id, first_name, last_name, email, status, score, created_at, updated_at)
             VALUES ($1, $2, 'Mailbox', $3, 'new_lead', 80, $4, $4)",
            &id,
            format!("C{i}"),
            format!("c{i}@customer.test"),
            now
        );
        ids.push(id);
    }
    let (status, s) = send(user.post(app.url("/api/email-sequences")).json(&json!({
        "name": "Two touches", "description": "Intro, wait two days, follow up", "maxDailyEnrollments": 100
    })))
    .await;
    assert_eq!(status, 201, "{s}");
    let seq = s["id"].as_str().unwrap().to_string();
    for step in [
        json!({ "name": "Intro", "config": { "subject": "Hello {{firstName}}", "body": "<p>Intro</p>" } }),
        json!({ "name": "Wait two days", "type": "delay", "delayMinutes": 2880 }),
        json!({ "name": "Follow up", "config": { "templateId": "follow-up" } }),
    ] {
        let (status, b) = send(
            user.post(app.url(&format!("/api/email-sequences/{seq}/steps")))
                .json(&step),
        )
        .await;
        assert_eq!(status, 201, "{b}");
    }
    send(
        user.post(app.url(&format!("/api/email-sequences/{seq}/enrollments")))
            .json(&json!({ "contactIds": ids })),
    )
    .await;
    send(
        user.patch(app.url(&format!("/api/email-sequences/{seq}")))
            .json(&json!({ "status": "active" })),
    )
    .await;
    app.queue
        .enqueue(NewJob::new(SequenceTick::NAME, json!({})))
        .await
        .unwrap();
    eventually(T, "first messages sent", || async {
        let sent = scalar(
            &app.db,
            "SELECT COUNT(*) FROM email_messages WHERE status = 'sent'",
        )
        .await;
        (sent == n as i64).then_some(())
    })
    .await;
    let mut out = Vec::new();
    for id in ids {
        let (message_id, to): (String, String) = match &app.db {
            jobs::db::Db::Sqlite(p) => sqlx::query_as(
                "SELECT message_id, to_email FROM email_messages WHERE contact_id = ?",
            )
            .bind(&id)
            .fetch_one(p.write())
            .await
            .unwrap(),
            jobs::db::Db::Postgres(p) => sqlx::query_as(
                "SELECT message_id, to_email FROM email_messages WHERE contact_id = $1",
            )
            .bind(&id)
            .fetch_one(p.write())
            .await
            .unwrap(),
        };
        out.push(Sent {
            message_id,
            contact_id: id,
            to,
        });
    }
    out
}

/// Connects the test server's mailbox through the api; waits for its connection test.
async fn connect(
    app: &TestApp,
    user: &Client,
    imap: &Dovecot,
    folder: &str,
    password: &str,
) -> (String, Value) {
    let (status, r) = send(user.post(app.url("/api/mailboxes")).json(&json!({
        "host": "127.0.0.1", "port": imap.port, "tls": "none", "username": USER,
        "password": password, "folder": folder,
    })))
    .await;
    assert_eq!(status, 201, "{r}");
    let id = r["mailbox"]["id"].as_str().unwrap().to_string();
    let job = r["jobId"].as_str().unwrap().to_string();
    let done = app
        .wait_job(user, &job, T, |j| {
            matches!(j["status"].as_str(), Some("succeeded" | "failed"))
        })
        .await;
    (id, done)
}

/// "Sync now", followed to its end.
async fn sync(app: &TestApp, user: &Client, mailbox: &str) -> Value {
    let (status, r) = send(user.post(app.url(&format!("/api/mailboxes/{mailbox}/sync")))).await;
    assert_eq!(status, 202, "{r}");
    let job = r["jobId"].as_str().unwrap().to_string();
    app.wait_job(user, &job, T, |j| {
        matches!(j["status"].as_str(), Some("succeeded" | "failed"))
    })
    .await
}

async fn mailbox_view(app: &TestApp, user: &Client, id: &str) -> Value {
    let list = app.get_json(user, "/api/mailboxes").await;
    list.as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == id)
        .cloned()
        .expect("the mailbox in the list")
}

fn reply_to(sent: &Sent, own_id: &str, extra_headers: &str, body: &str) -> String {
    format!(
        "From: {to}\r\nTo: {USER}\r\nSubject: Re: Hello\r\nMessage-ID: <{own_id}>\r\n\
         In-Reply-To: <{id}>\r\nReferences: <{id}>\r\nDate: Fri, 27 Nov 2026 10:00:00 +0000\r\n\
         {extra_headers}Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
        to = sent.to,
        id = sent.message_id,
    )
}

fn unrelated(n: usize) -> String {
    format!(
        "From: newsletter@vendor.test\r\nTo: {USER}\r\nSubject: Weekly news {n}\r\n\
         Message-ID: <news-{n}@vendor.test>\r\nDate: Fri, 27 Nov 2026 09:00:00 +0000\r\n\r\nNothing for us.\r\n"
    )
}

async fn enrollment(app: &TestApp, contact: &str) -> (String, Option<String>, Option<i64>) {
    match &app.db {
        jobs::db::Db::Sqlite(p) => sqlx::query_as(
            "SELECT status, exit_reason, next_action_at FROM sequence_enrollments WHERE contact_id = ?",
        )
        .bind(contact)
        .fetch_one(p.write())
        .await
        .unwrap(),
        jobs::db::Db::Postgres(p) => sqlx::query_as(
            "SELECT status, exit_reason, next_action_at FROM sequence_enrollments WHERE contact_id = $1",
        )
        .bind(contact)
        .fetch_one(p.write())
        .await
        .unwrap(),
    }
}

async fn events(app: &TestApp, kind: &str) -> i64 {
    scalar!(
        &app.db,
        i64,
        "SELECT COUNT(*) FROM email_events WHERE event_type = $1",
        kind
    )
}

/// A reply stops the enrollment; mail that answers nothing of ours is ignored; a second sync reads
/// nothing old again; the scheduler's tick starts one sync per mailbox.
async fn reply_stops_the_sequence_and_old_mail_is_not_reread(db: TestDb) {
    let imap = Dovecot::start();
    let (_sink, app, user) = mailing_app(&db).await;
    let sent = sequence_sent(&app, &user, 2).await;
    let (mailbox, test) = connect(&app, &user, &imap, "INBOX", PASSWORD).await;
    assert_eq!(test["status"], "succeeded", "{test}");
    assert_eq!(test["result"]["connected"], true);
    assert_eq!(test["result"]["idle"], true, "Dovecot offers IDLE");

    // The password is stored sealed and never shown.
    let stored: String = scalar!(
        &app.db,
        String,
        "SELECT secret FROM mailboxes WHERE id = $1",
        &mailbox
    );
    assert!(!stored.contains(PASSWORD));
    let list = app.get_json(&user, "/api/mailboxes").await.to_string();
    assert!(
        !list.contains(PASSWORD) && !list.contains(&stored),
        "{list}"
    );

    imap.append("INBOX", &unrelated(1));
    imap.append(
        "INBOX",
        &reply_to(
            &sent[0],
            "r1@customer.test",
            "",
            "Sounds good, let's talk Tuesday.",
        ),
    );
    let first = sync(&app, &user, &mailbox).await;
    assert_eq!(first["status"], "succeeded", "{first}");
    assert_eq!(
        (
            first["result"]["seen"].as_i64(),
            first["result"]["matched"].as_i64()
        ),
        (Some(2), Some(1)),
        "{first}"
    );
    let (status, reason, _) = enrollment(&app, &sent[0].contact_id).await;
    assert_eq!(
        (status.as_str(), reason.as_deref()),
        ("exited", Some("replied"))
    );
    let (status, _, _) = enrollment(&app, &sent[1].contact_id).await;
    assert_eq!(status, "active", "the other contact's sequence goes on");
    assert_eq!(events(&app, "replied").await, 1);
    let view = mailbox_view(&app, &user, &mailbox).await;
    assert_eq!(view["messagesMatched"], 1, "{view}");
    assert_eq!(view["messagesSeen"], 2, "{view}");
    assert!(
        view["lastSyncAt"].is_string() && view["lastError"].is_null(),
        "{view}"
    );

    // Nothing new: nothing read. One more unrelated message: only it is read.
    let second = sync(&app, &user, &mailbox).await;
    assert_eq!(second["result"]["seen"], 0, "{second}");
    imap.append("INBOX", &unrelated(2));
    let third = sync(&app, &user, &mailbox).await;
    assert_eq!(
        (
            third["result"]["seen"].as_i64(),
            third["result"]["matched"].as_i64()
        ),
        (Some(1), Some(0)),
        "{third}"
    );
    assert_eq!(events(&app, "replied").await, 1, "no reply counted twice");

    // The same reply arriving again (a copy in another sync) changes nothing.
    imap.append(
        "INBOX",
        &reply_to(
            &sent[0],
            "r1@customer.test",
            "",
            "Sounds good, let's talk Tuesday.",
        ),
    );
    let again = sync(&app, &user, &mailbox).await;
    assert_eq!(
        (
            again["result"]["seen"].as_i64(),
            again["result"]["matched"].as_i64()
        ),
        (Some(1), Some(0)),
        "{again}"
    );

    // The scheduler's tick: one sync per connected mailbox (waiting in IDLE, MAILBOX_IDLE_SECONDS),
    // and no second one while it is still running.
    for _ in 0..2 {
        app.queue
            .enqueue(NewJob::new(MailboxTick::NAME, json!({})))
            .await
            .unwrap();
    }
    eventually(T, "both ticks ran, one sync in IDLE", || async {
        let ticks = scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'mailbox_tick' AND status = 'succeeded'",
        )
        .await;
        let idling = scalar(
            &app.db,
            "SELECT COUNT(*) FROM jobs WHERE kind = 'mailbox_sync' AND status = 'running'",
        )
        .await;
        (ticks == 2 && idling == 1).then_some(())
    })
    .await;
    let open = scalar(
        &app.db,
        "SELECT COUNT(*) FROM jobs WHERE kind = 'mailbox_sync' AND status IN ('queued', 'running', 'retrying', 'scheduled')",
    )
    .await;
    assert_eq!(open, 1, "one sync per mailbox at a time");

    // Disconnecting forgets it.
    let (status, _) = send(user.delete(app.url(&format!("/api/mailboxes/{mailbox}")))).await;
    assert_eq!(status, 204);
    let (status, _) = send(user.post(app.url(&format!("/api/mailboxes/{mailbox}/sync")))).await;
    assert_eq!(status, 404);
    app.stop().await;
}

/// An out-of-office reply holds the sequence until the date it states, and does not end it.
async fn out_of_office_pauses_until_the_return_date(db: TestDb) {
    let imap = Dovecot::start();
    let (_sink, app, user) = mailing_app(&db).await;
    let sent = sequence_sent(&app, &user, 1).await;
    let (mailbox, _) = connect(&app, &user, &imap, "INBOX", PASSWORD).await;
    let back = (Utc::now() + chrono::Duration::days(10)).date_naive();
    let text = format!(
        "I am out of the office until {} {}, {} with no access to email.",
        back.format("%B"),
        back.day(),
        back.year()
    );
    imap.append(
        "INBOX",
        &reply_to(
            &sent[0],
            "ooo-1@customer.test",
            "Auto-Submitted: auto-replied\r\n",
            &text,
        ),
    );
    let done = sync(&app, &user, &mailbox).await;
    assert_eq!(done["result"]["matched"], 1, "{done}");
    let (status, reason, next) = enrollment(&app, &sent[0].contact_id).await;
    assert_eq!(
        (status.as_str(), reason),
        ("active", None),
        "held, not ended"
    );
    let want = NaiveDate::from_ymd_opt(back.year(), back.month(), back.day())
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc()
        .timestamp_millis();
    assert_eq!(next, Some(want), "resumes on the stated return date");
    assert_eq!(events(&app, "auto_replied").await, 1);
    assert_eq!(
        events(&app, "replied").await,
        0,
        "an automatic reply is not a reply"
    );
    app.stop().await;
}

/// A delivery status notification for one of our messages is recorded as its bounce.
async fn delivery_report_records_the_bounce(db: TestDb) {
    let imap = Dovecot::start();
    let (_sink, app, user) = mailing_app(&db).await;
    let sent = sequence_sent(&app, &user, 1).await;
    let (mailbox, _) = connect(&app, &user, &imap, "INBOX", PASSWORD).await;
    let dsn = format!(
        "From: MAILER-DAEMON@mx.customer.test\r\nTo: {USER}\r\n\
         Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <dsn-1@mx.customer.test>\r\n\
         Date: Fri, 27 Nov 2026 10:00:00 +0000\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=\"RPT\"\r\n\r\n\
         --RPT\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n\
         --RPT\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.customer.test\r\n\r\n\
         Final-Recipient: rfc822; {to}\r\nAction: failed\r\nStatus: 5.1.1\r\n\
         Diagnostic-Code: smtp; 550 5.1.1 User unknown\r\n\r\n\
         --RPT\r\nContent-Type: text/rfc822-headers\r\n\r\nMessage-ID: <{id}>\r\nSubject: Hello C0\r\n\r\n\
         --RPT--\r\n",
        to = sent[0].to,
        id = sent[0].message_id,
    );
    imap.append("INBOX", &dsn);
    let done = sync(&app, &user, &mailbox).await;
    assert_eq!(done["result"]["matched"], 1, "{done}");
    assert_eq!(events(&app, "bounced").await, 1);
    let detail: String = scalar!(
        &app.db,
        String,
        "SELECT detail FROM email_events WHERE event_type = 'bounced'"
    );
    assert!(detail.contains("5.1.1"), "{detail}");
    let bounced: i64 = scalar!(
        &app.db,
        i64,
        "SELECT COUNT(*) FROM email_messages WHERE bounced_at IS NOT NULL"
    );
    assert_eq!(bounced, 1);
    let (status, reason, _) = enrollment(&app, &sent[0].contact_id).await;
    assert_eq!(
        (status.as_str(), reason.as_deref()),
        ("exited", Some("bounced"))
    );
    app.stop().await;
}

/// A folder whose UIDVALIDITY changed (deleted and made again: its UIDs start over) is read from
/// the start again, so a new message with a UID below the last one read is not missed.
async fn uidvalidity_change_starts_again(db: TestDb) {
    let imap = Dovecot::start();
    let (_sink, app, user) = mailing_app(&db).await;
    let sent = sequence_sent(&app, &user, 2).await;
    let mut s = imap.session();
    s.ok("CREATE \"Replies\"");
    s.append("Replies", &unrelated(1));
    s.append("Replies", &unrelated(2));
    s.append(
        "Replies",
        &reply_to(&sent[0], "r-a@customer.test", "", "Tell me more."),
    );
    let old_validity = s.uid_validity("Replies");
    let (mailbox, _) = connect(&app, &user, &imap, "Replies", PASSWORD).await;
    let first = sync(&app, &user, &mailbox).await;
    assert_eq!(
        (
            first["result"]["lastUid"].as_i64(),
            first["result"]["matched"].as_i64()
        ),
        (Some(3), Some(1)),
        "{first}"
    );

    s.ok("DELETE \"Replies\"");
    // Dovecot derives UIDVALIDITY from the clock: make sure the new folder gets another one.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    s.ok("CREATE \"Replies\"");
    s.append(
        "Replies",
        &reply_to(&sent[1], "r-b@customer.test", "", "Interested, call me."),
    );
    let new_validity = s.uid_validity("Replies");
    s.ok("LOGOUT");
    assert_ne!(old_validity, new_validity);
    let second = sync(&app, &user, &mailbox).await;
    assert_eq!(second["status"], "succeeded", "{second}");
    assert_eq!(
        second["result"]["uidValidity"].as_i64(),
        Some(i64::from(new_validity))
    );
    assert_eq!(
        (
            second["result"]["lastUid"].as_i64(),
            second["result"]["matched"].as_i64()
        ),
        (Some(1), Some(1)),
        "{second}"
    );
    let (status, reason, _) = enrollment(&app, &sent[1].contact_id).await;
    assert_eq!(
        (status.as_str(), reason.as_deref()),
        ("exited", Some("replied"))
    );
    app.stop().await;
}

/// A wrong password: the test and the sync fail with a message that says so, shown on the mailbox;
/// the worker goes on. An unreachable server says so too. The form refuses what cannot work.
async fn wrong_password_and_bad_host_fail_clearly(db: TestDb) {
    let imap = Dovecot::start();
    let (_sink, app, user) = mailing_app(&db).await;
    let (mailbox, test) = connect(&app, &user, &imap, "INBOX", "not-the-password").await;
    assert_eq!(test["status"], "failed", "{test}");
    let error = test["error"].as_str().unwrap();
    assert!(
        error.contains("refused the user name or password"),
        "{error}"
    );
    assert_eq!(test["attempts"], 1, "a refused login is not retried");
    let view = mailbox_view(&app, &user, &mailbox).await;
    assert!(
        view["lastError"]
            .as_str()
            .unwrap()
            .contains("refused the user name or password"),
        "{view}"
    );
    let failed = sync(&app, &user, &mailbox).await;
    assert_eq!(failed["status"], "failed");
    // The same account on the same host cannot be connected twice.
    let (status, r) = send(user.post(app.url("/api/mailboxes")).json(&json!({
        "host": "127.0.0.1", "port": imap.port, "tls": "none", "username": USER, "password": PASSWORD,
    })))
    .await;
    assert_eq!(status, 409, "{r}");
    // The worker is fine: reconnected with the right password, it works at once.
    let (status, _) = send(user.delete(app.url(&format!("/api/mailboxes/{mailbox}")))).await;
    assert_eq!(status, 204);
    let (good, test) = connect(&app, &user, &imap, "INBOX", PASSWORD).await;
    assert_eq!(test["status"], "succeeded", "{test}");
    assert!(mailbox_view(&app, &user, &good).await["lastError"].is_null());

    // Nothing listens on this port: retried (a server may come back), then shown.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let (status, r) = send(user.post(app.url("/api/mailboxes")).json(&json!({
        "host": "localhost", "port": closed, "tls": "none", "username": "x@dealers.test", "password": "p",
    })))
    .await;
    assert_eq!(status, 201, "{r}");
    let done = app
        .wait_job(&user, r["jobId"].as_str().unwrap(), T, |j| {
            j["status"] == "failed"
        })
        .await;
    assert!(
        done["error"]
            .as_str()
            .unwrap()
            .starts_with("Could not reach localhost:"),
        "{done}"
    );
    assert_eq!(done["attempts"], MailboxSync::MAX_ATTEMPTS, "{done}");

    // The form: plain IMAP off this machine, a missing password, a bad port, a bad host.
    for (body, field) in [
        (
            json!({ "host": "imap.example.com", "tls": "none", "username": "u", "password": "p" }),
            "tls",
        ),
        (
            json!({ "host": "imap.example.com", "username": "u" }),
            "password",
        ),
        (
            json!({ "host": "imap.example.com", "port": 70000, "username": "u", "password": "p" }),
            "port",
        ),
        (
            json!({ "host": "imap example.com", "username": "u", "password": "p" }),
            "host",
        ),
        (
            json!({ "host": "imap.example.com", "username": "u", "password": "p\r\nA LOGOUT" }),
            "password",
        ),
        (
            json!({ "host": "imap.gmail.com", "username": "u", "auth": "xoauth2" }),
            "auth",
        ),
    ] {
        let (status, r) = send(user.post(app.url("/api/mailboxes")).json(&body)).await;
        assert_eq!(status, 422, "{body} → {r}");
        assert!(r["errors"][field].is_string(), "{body} → {r}");
    }
    // Another user sees none of these mailboxes.
    let admin = app.admin().await;
    assert_eq!(app.get_json(&admin, "/api/mailboxes").await, json!([]));
    let (status, _) = send(admin.post(app.url(&format!("/api/mailboxes/{good}/test")))).await;
    assert_eq!(status, 404);
    app.stop().await;
}

/// With IDLE, a sync waits for new mail and reads it as it arrives, then ends by its deadline.
async fn idle_reads_mail_as_it_arrives(db: TestDb) {
    let imap = Dovecot::start();
    let (_sink, app, user) = mailing_app(&db).await;
    let sent = sequence_sent(&app, &user, 1).await;
    let (mailbox, _) = connect(&app, &user, &imap, "INBOX", PASSWORD).await;
    let job = app
        .queue
        .enqueue(NewJob::new(
            MailboxSync::NAME,
            json!({ "mailboxId": mailbox, "idleSeconds": 6 }),
        ))
        .await
        .unwrap()
        .id;
    app.wait_status(&user, &job, "running", T).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    imap.append(
        "INBOX",
        &reply_to(&sent[0], "idle-1@customer.test", "", "Let's talk."),
    );
    eventually(T, "the reply recorded during IDLE", || async {
        (events(&app, "replied").await == 1).then_some(())
    })
    .await;
    let state = app.job(&user, &job).await;
    assert_eq!(
        state["status"], "running",
        "recorded while still in IDLE: {state}"
    );
    let done = app
        .wait_job(&user, &job, T, |j| j["status"] == "succeeded")
        .await;
    assert_eq!(
        (
            done["result"]["idled"].as_bool(),
            done["result"]["matched"].as_i64()
        ),
        (Some(true), Some(1)),
        "{done}"
    );
    app.stop().await;
}

/// XOAUTH2 with the user's Google grant: its expired access token is refreshed at Google's token
/// endpoint (wiremock), and Dovecot accepts the fresh token after asking its introspection URL
/// (wiremock); a token the server refuses says so.
async fn xoauth2_with_the_google_grant(db: TestDb) {
    let google = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/token"))
        .and(body_string_contains("refresh_token=1%2F%2Frefresh"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "access_token": "ya29.fresh", "expires_in": 3600, "token_type": "Bearer"
        })))
        .mount(&google)
        .await;
    Mock::given(method("POST"))
        .and(path("/introspect"))
        .and(body_string_contains("token=ya29.fresh"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(json!({ "active": true, "email": USER })),
        )
        .mount(&google)
        .await;
    Mock::given(method("POST"))
        .and(path("/introspect"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({ "active": false })))
        .mount(&google)
        .await;
    let imap = Dovecot::start_with_oauth(&format!("{}/introspect", google.uri()));
    let sealer = Sealer::new(&[7u8; 64]);
    let calendar = GoogleCalendar::new(
        GoogleSettings {
            client_id: "client-1.apps.googleusercontent.com".into(),
            client_secret: Secret::new("client-secret".into()),
            auth_url: format!("{}/o/oauth2/v2/auth", google.uri()),
            token_url: format!("{}/token", google.uri()),
            api_url: format!("{}/calendar/v3", google.uri()),
            calendar_id: "primary".into(),
        },
        "http://127.0.0.1",
        sealer.clone(),
    );
    let sink = SmtpSink::start();
    let app = TestApp::spawn(
        &db,
        AppOptions {
            providers: Some(
                Providers::embedded()
                    .with_mailing(sink.mailing(None))
                    .with_calendar(calendar),
            ),
            ..Default::default()
        },
    )
    .await;
    let admin = app.admin().await;
    app.set_send_limits(&admin, 1000, 1000).await;
    let user = app.user().await;
    let sent = sequence_sent(&app, &user, 1).await;

    // Without a grant, Google sign-in is refused by the form.
    let body = json!({ "host": "127.0.0.1", "port": imap.port, "tls": "none", "auth": "xoauth2", "username": USER });
    let (status, r) = send(user.post(app.url("/api/mailboxes")).json(&body)).await;
    assert_eq!(status, 422, "{r}");
    let uid: String = scalar!(
        &app.db,
        String,
        "SELECT id FROM users WHERE email = $1",
        USER_EMAIL
    );
    let now = jobs::time::now_ms();
    app.db
        .calendar_account_save(&CalendarAccountRow {
            user_id: uid.clone(),
            provider: "google".into(),
            account_email: Some(USER.into()),
            access_token: sealer.seal("ya29.expired", &uid),
            refresh_token: Some(sealer.seal("1//refresh", &uid)),
            expires_at: now - 1,
            error: None,
            connected_at: now,
            updated_at: now,
        })
        .await
        .unwrap();
    let (status, r) = send(user.post(app.url("/api/mailboxes")).json(&body)).await;
    assert_eq!(status, 201, "{r}");
    let mailbox = r["mailbox"]["id"].as_str().unwrap().to_string();
    let test = app
        .wait_job(&user, r["jobId"].as_str().unwrap(), T, |j| {
            matches!(j["status"].as_str(), Some("succeeded" | "failed"))
        })
        .await;
    assert_eq!(test["status"], "succeeded", "{test}\n{}", imap.log());
    let stored: String = scalar!(
        &app.db,
        String,
        "SELECT access_token FROM calendar_accounts WHERE user_id = $1",
        &uid
    );
    assert_eq!(
        sealer.open(&stored, &uid).as_deref(),
        Some("ya29.fresh"),
        "the refreshed token is kept, sealed"
    );

    imap.append(
        "INBOX",
        &reply_to(
            &sent[0],
            "x1@customer.test",
            "",
            "Interested, tell me more.",
        ),
    );
    let done = sync(&app, &user, &mailbox).await;
    assert_eq!(done["result"]["matched"], 1, "{done}");

    // A token the server no longer accepts: a clear refusal, not a hang.
    exec!(
        &app.db,
        "UPDATE calendar_accounts SET access_token = $1, expires_at = $2 WHERE user_id = $3",
        sealer.seal("ya29.revoked", &uid),
        now + 3_600_000,
        &uid
    );
    let failed = sync(&app, &user, &mailbox).await;
    assert_eq!(failed["status"], "failed", "{failed}");
    assert!(
        failed["error"]
            .as_str()
            .unwrap()
            .contains("refused the user name or password"),
        "{failed}"
    );
    app.stop().await;
}

both_backends!(
    reply_stops_the_sequence_and_old_mail_is_not_reread,
    out_of_office_pauses_until_the_return_date,
    delivery_report_records_the_bounce,
    uidvalidity_change_starts_again,
    wrong_password_and_bad_host_fail_clearly,
    idle_reads_mail_as_it_arrives,
    xoauth2_with_the_google_grant,
);
