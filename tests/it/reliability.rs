//! The reliability suite (`make test-reliability`, not part of `make test`): the job platform at
//! scale under failure, with the real binary started as the Procfile starts it (api, two workers
//! and a scheduler on Postgres) or all in one process (SQLite). The Postgres half restarts the
//! Postgres server, so the suite runs one test at a time. SIGTERM draining and two schedulers
//! without duplicate ticks are proven in `tests/it/jobs.rs`, which `make test-reliability` runs again.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::smtp::{POSTAL, SmtpSink};
use common::*;
use futures::StreamExt;
use jobs::db::Db;
use serde_json::json;
use wiremock::matchers::{body_string_contains, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const CONTACTS: usize = 1000;
const NOOPS: usize = 4000;
/// One noop in this many fails on purpose (and must end `failed`, after its retries).
const FAIL_EVERY: usize = 25;
const OURS: &str = "kind IN ('noop', 'bulk_campaign_send', 'email_send')";

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// Starts `args` with `env` and waits until the process serves `/readyz` on `port`.
async fn start_serving(db: &TestDb, args: &[&str], env: &[(&str, String)], port: u16) -> Proc {
    let mut env = env.to_vec();
    env.push(("PORT", port.to_string()));
    let p = Proc::spawn(db, args, &env);
    let url = format!("http://127.0.0.1:{port}/readyz");
    eventually(Duration::from_secs(30), "the api serves", || async {
        reqwest::get(&url)
            .await
            .ok()
            .filter(|r| r.status() == 200)
            .map(|_| ())
    })
    .await;
    p
}

async fn rows<T>(db: &Db, sql: &str) -> Vec<T>
where
    T: Send + Unpin,
    for<'r> T:
        sqlx::FromRow<'r, sqlx::sqlite::SqliteRow> + sqlx::FromRow<'r, sqlx::postgres::PgRow>,
{
    match db {
        Db::Sqlite(p) => sqlx::query_as(sqlx::AssertSqlSafe(sql.to_string()))
            .fetch_all(p.write())
            .await
            .unwrap(),
        Db::Postgres(p) => sqlx::query_as(sqlx::AssertSqlSafe(sql.to_string()))
            .fetch_all(p.write())
            .await
            .unwrap(),
    }
}

/// Counts, retrying while the server is away (the Postgres restart).
async fn count(db: &Db, sql: &str) -> i64 {
    loop {
        let r = match db {
            Db::Sqlite(p) => {
                sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.to_string()))
                    .fetch_one(p.write())
                    .await
            }
            Db::Postgres(p) => {
                sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(sql.to_string()))
                    .fetch_one(p.write())
                    .await
            }
        };
        match r {
            Ok(n) => return n,
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// A job that stopped moving: id, kind, status, attempts, due in ms, worker, last error.
type StuckJob = (
    String,
    String,
    String,
    i32,
    i64,
    Option<String>,
    Option<String>,
);

/// The last lines of a process log, enough to see why a job stopped moving.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(60)..].join("\n")
}

fn restart_postgres() {
    let version = std::fs::read_dir("/etc/postgresql")
        .ok()
        .and_then(|mut d| d.next())
        .and_then(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .expect("a Postgres cluster under /etc/postgresql");
    let status = std::process::Command::new("pg_ctlcluster")
        .args(["--skip-systemctl-redirect", &version, "main", "restart"])
        .status()
        .expect("pg_ctlcluster");
    assert!(status.success(), "Postgres restarted");
}

fn p99(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[(samples.len() * 99).div_ceil(100) - 1]
}

async fn contacts_p99(app: &TestApp, client: &reqwest::Client, n: usize) -> Duration {
    let mut samples = Vec::with_capacity(n);
    for i in 0..n {
        let started = Instant::now();
        let res = client
            .get(app.url(&format!("/api/contacts?page={}", i % 5 + 1)))
            .send()
            .await
            .expect("contacts");
        assert_eq!(res.status(), 200);
        res.bytes().await.expect("body");
        samples.push(started.elapsed());
    }
    p99(samples)
}

async fn insert_contacts(db: &Db, n: usize, prefix: &str) {
    let now = jobs::time::now_ms();
    for chunk in (0..n).collect::<Vec<_>>().chunks(500) {
        let values: Vec<String> = chunk
            .iter()
            .map(|i| {
                format!(
                    "('{prefix}{i:05}', 'R', 'Rel', '{prefix}{i}@example.test', 'new_lead', 90, {now}, {now})"
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO contacts (id, first_name, last_name, email, status, score, created_at, updated_at) VALUES {}",
            values.join(", ")
        );
        exec!(db, sql);
    }
}

/// 5,000 mixed jobs, among them a bulk campaign to a loopback SMTP server; a worker is SIGKILLed
/// mid-run and (on Postgres) the database server restarts. Afterwards every job has ended once,
/// in the state it should, and no recipient has two messages.
async fn kill_and_restart_lose_nothing(db: TestDb) {
    let sink = SmtpSink::start();
    let mut app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    insert_contacts(&app.db, CONTACTS, "r").await;
    app.set_send_limits(&admin, 1_000_000, 1_000_000).await;

    let mut env = fast_env();
    env.push(("SMTP_URL", sink.url()));
    env.push(("MAIL_POSTAL_ADDRESS", POSTAL.into()));
    env.push(("MAIL_SEND_CONCURRENCY", "8".into()));
    let port = free_port();
    let postgres = db.backend == Backend::Postgres;
    // Postgres: the Procfile's processes; SQLite: everything in one.
    let mut api = start_serving(&db, &[if postgres { "api" } else { "all" }], &env, port).await;
    let mut workers = Vec::new();
    let mut scheduler = None;
    if postgres {
        workers.push(Proc::spawn(&db, &["worker"], &env));
        workers.push(Proc::spawn(&db, &["worker"], &env));
        scheduler = Some(Proc::spawn(&db, &["scheduler"], &env));
    }
    // From here on every request goes to the process, signed in with the same session.
    app.base = format!("http://127.0.0.1:{port}");

    let (_, c) = send(
        admin
            .post(app.url("/api/campaigns/bulk-email"))
            .json(&json!({
                "name": "Reliability", "subject": "Hi", "templateId": "follow-up", "targetFilters": {}
            })),
    )
    .await;
    let campaign = c["id"].as_str().expect("campaign id").to_string();
    let (status, _) =
        send(admin.post(app.url(&format!("/api/campaigns/bulk-email/{campaign}/send")))).await;
    assert_eq!(status, 200);
    let started = Instant::now();
    let enqueued: Vec<String> = futures::stream::iter(0..NOOPS)
        .map(|i| {
            let app = &app;
            let admin = &admin;
            async move {
                let payload = json!({"sleepMs": i % 20, "fail": i % FAIL_EVERY == 0});
                app.enqueue(admin, json!({"kind": "noop", "payload": payload}))
                    .await
            }
        })
        .buffer_unordered(16)
        .collect()
        .await;
    assert_eq!(enqueued.len(), NOOPS);

    // SIGKILL mid-run (the all-in-one process on SQLite, a worker on Postgres), then restart it.
    eventually(Duration::from_secs(60), "a quarter sent", || async {
        (sink.count() >= CONTACTS / 4).then_some(())
    })
    .await;
    let victim = if postgres { &mut workers[0] } else { &mut api };
    victim.signal(9);
    assert!(victim.wait_exit(Duration::from_secs(5)).is_some());
    let at_kill = sink.count();
    if postgres {
        workers[0] = Proc::spawn(&db, &["worker"], &env);
    } else {
        api = start_serving(&db, &["all"], &env, port).await;
    }
    if postgres {
        let restart = tokio::task::spawn_blocking(restart_postgres);
        restart.await.expect("restart task");
    }

    let left = format!(
        "SELECT COUNT(*) FROM jobs WHERE {OURS} AND status NOT IN ('succeeded', 'failed', 'cancelled')"
    );
    let mut last = i64::MAX;
    let mut last_change = Instant::now();
    loop {
        let n = count(&app.db, &left).await;
        if n == 0 {
            break;
        }
        if n != last {
            last = n;
            last_change = Instant::now();
        }
        if last_change.elapsed() >= Duration::from_secs(60) {
            let stuck: Vec<StuckJob> = rows(
                &app.db,
                &format!(
                    "SELECT id, kind, status, attempts, run_at - {}, locked_by, error FROM jobs
                     WHERE {OURS} AND status NOT IN ('succeeded', 'failed', 'cancelled')",
                    jobs::time::now_ms()
                ),
            )
            .await;
            let logs: Vec<String> = workers
                .iter()
                .chain(scheduler.iter())
                .map(|p| tail(&p.output()))
                .collect();
            panic!(
                "{n} jobs stuck for a minute (id, kind, status, attempts, due in ms, worker, error): {stuck:?}\napi log:\n{}\nother processes:\n{}",
                tail(&api.output()),
                logs.join("\n---\n")
            );
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let elapsed = started.elapsed();

    // Every noop ended as it should: the failing ones failed after their retries, the rest succeeded.
    let fails = NOOPS.div_ceil(FAIL_EVERY) as i64;
    let by_status: Vec<(String, i64)> = rows(
        &app.db,
        "SELECT status, COUNT(*) FROM jobs WHERE kind = 'noop' GROUP BY status ORDER BY status",
    )
    .await;
    assert_eq!(
        by_status,
        vec![
            ("failed".to_string(), fails),
            ("succeeded".to_string(), NOOPS as i64 - fails)
        ]
    );
    // Ended once: no job has two finishing attempts (a rescued job's first attempt is 'lost').
    let twice: Vec<(String, i64)> = rows(
        &app.db,
        &format!(
            "SELECT a.job_id, COUNT(*) FROM job_attempts a JOIN jobs j ON j.id = a.job_id
             WHERE j.{OURS} AND a.outcome = 'succeeded' GROUP BY a.job_id HAVING COUNT(*) > 1"
        ),
    )
    .await;
    assert!(twice.is_empty(), "jobs that succeeded twice: {twice:?}");
    let lost = count(
        &app.db,
        "SELECT COUNT(*) FROM job_attempts WHERE outcome = 'lost'",
    )
    .await;

    // The campaign: sent; nobody has two messages; what the ledger calls sent arrived once.
    let v = app
        .get_json(&admin, &format!("/api/campaigns/bulk-email/{campaign}"))
        .await;
    assert_eq!(v["status"], "sent", "{v}");
    let ledger: Vec<(String, String)> =
        rows(&app.db, "SELECT to_email, status FROM email_messages").await;
    assert_eq!(ledger.len(), CONTACTS);
    let mut got = HashMap::<String, usize>::new();
    for m in sink.messages() {
        for to in m.to {
            *got.entry(to).or_default() += 1;
        }
    }
    assert!(got.values().all(|n| *n == 1), "no recipient got two");
    let mut in_doubt = 0;
    for (to, status) in &ledger {
        match status.as_str() {
            "sent" => assert_eq!(got.get(to), Some(&1), "{to} sent once"),
            "unknown" => in_doubt += 1,
            other => panic!("{to} ended {other}"),
        }
    }
    // At most the messages in flight in the killed process (8 connections) are in doubt.
    assert!(in_doubt <= 8, "{in_doubt} in doubt");

    // The processes lived through it (the restarted Postgres included) and still answer.
    for w in &mut workers {
        assert!(w.wait_exit(Duration::ZERO).is_none(), "{}", w.output());
    }
    if let Some(s) = &mut scheduler {
        assert!(s.wait_exit(Duration::ZERO).is_none(), "{}", s.output());
    }
    let (status, _) = send(admin.get(app.url("/api/ops/queues"))).await;
    assert_eq!(status, 200);
    println!(
        "{:?}: {} jobs ended in {elapsed:.1?}; killed after {at_kill} of {CONTACTS} messages, {in_doubt} in doubt, {lost} attempts lost and rescued",
        db.backend,
        NOOPS + CONTACTS + 1
    );
    drop((workers, scheduler, api));
}

/// An outside provider that answers 500, 429 with Retry-After, or not at all: the scans retry
/// with backoff and then fail with a clear error, while the api keeps its speed.
async fn failing_provider_keeps_the_api_responsive(db: TestDb) {
    let provider = MockServer::start().await;
    for (name, answer) in [
        (
            "Broken",
            ResponseTemplate::new(500).set_body_string("upstream exploded"),
        ),
        (
            "Busy",
            ResponseTemplate::new(429).insert_header("retry-after", "1"),
        ),
        (
            "Silent",
            ResponseTemplate::new(200).set_delay(Duration::from_secs(5)),
        ),
    ] {
        Mock::given(method("POST"))
            .and(path("/chat/completions"))
            .and(body_string_contains(name))
            .respond_with(answer)
            .mount(&provider)
            .await;
    }
    let mut app = TestApp::idle(&db).await;
    insert_contacts(&app.db, 2000, "p").await;
    let mut env = fast_env();
    env.push(("DISCOVERY_PROVIDER", "openai".into()));
    env.push(("OPENAI_BASE_URL", provider.uri()));
    env.push(("OPENAI_API_KEY", "test-key".into()));
    env.push(("OPENAI_TIMEOUT_MS", "1000".into()));
    env.push(("JOB_MAX_ATTEMPTS", "discovery_scan=2".into()));
    // Cached pages would hide the database: every request queries.
    env.push(("READ_CACHE_TTL_MS", "0".into()));
    let port = free_port();
    let postgres = db.backend == Backend::Postgres;
    let api = start_serving(&db, &[if postgres { "api" } else { "all" }], &env, port).await;
    let worker = postgres.then(|| Proc::spawn(&db, &["worker"], &env));
    app.base = format!("http://127.0.0.1:{port}");
    let admin = app.admin().await;

    let before = contacts_p99(&app, &admin, 300).await;
    let mut scans = Vec::new();
    for name in ["Broken", "Busy", "Silent"] {
        for i in 0..4 {
            let (status, v) = send(
                admin
                    .post(app.url("/api/discovery/scan"))
                    .json(&json!({"companyName": format!("{name} Bath {i}")})),
            )
            .await;
            assert_eq!(status, 202, "{v}");
            scans.push((name, v["jobId"].as_str().expect("jobId").to_string()));
        }
    }
    let during = contacts_p99(&app, &admin, 300).await;
    let mut finished = Vec::new();
    for (name, id) in &scans {
        let job = app
            .wait_job(&admin, id, Duration::from_secs(120), |j| {
                j["status"] == "failed"
            })
            .await;
        finished.push((*name, job));
    }
    for (name, job) in &finished {
        assert_eq!(job["attempts"], 2, "{name}: {job}");
        let error = job["error"].as_str().unwrap_or_default().to_lowercase();
        let expected = match *name {
            "Broken" => "500",
            "Busy" => "429",
            _ => "timed out",
        };
        assert!(
            error.contains("discovery provider unavailable") && error.contains(expected),
            "{name}: a clear reason, got {error:?}"
        );
    }
    // Backoff: the HTTP layer retried within each attempt, so each scan asked several times.
    let asked = provider.received_requests().await.unwrap_or_default().len();
    assert!(
        asked >= scans.len() * 2 * 2,
        "{asked} requests for {} scans",
        scans.len()
    );
    println!(
        "{:?}: GET /api/contacts p99 {before:.1?} before, {during:.1?} while {} scans failed; {asked} provider requests",
        db.backend,
        scans.len()
    );
    // Within 2x; a floor of 5 ms keeps a sub-millisecond baseline from failing on scheduler noise.
    assert!(
        during <= (before * 2).max(before + Duration::from_millis(5)),
        "p99 {before:?} -> {during:?}"
    );
    drop((worker, api));
}

both_backends!(
    kill_and_restart_lose_nothing,
    failing_provider_keeps_the_api_responsive
);
