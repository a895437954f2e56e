//! The job platform's guarantees (DESIGN.md "Job platform"), each proven on SQLite and Postgres.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::collections::HashSet;
use std::time::Duration;

use common::*;
use jobs::db::AuditInsert;
use jobs::queue::NewJob;
use serde_json::{Value, json};

const T: Duration = Duration::from_secs(15);

fn ms(rfc3339: &Value) -> i64 {
    chrono::DateTime::parse_from_rfc3339(rfc3339.as_str().unwrap_or_default())
        .map(|t| t.timestamp_millis())
        .unwrap_or_else(|e| panic!("not a time: {rfc3339} ({e})"))
}

/// queued → running (with progress) → succeeded, in the exact shape of the status contract.
async fn job_lifecycle_and_progress(db: TestDb) {
    let mut app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let res = admin
        .post(app.url("/api/ops/jobs"))
        .json(&json!({"kind": "noop", "payload": {"sleepMs": 1200, "steps": 3}}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
    let location = res.headers()["location"].to_str().unwrap().to_string();
    let body: Value = res.json().await.unwrap();
    let id = body["jobId"].as_str().unwrap().to_string();
    assert_eq!(body["status"], "queued");
    assert!(
        ulid::Ulid::from_string(&id).is_ok(),
        "job id is a ULID: {id}"
    );
    assert_eq!(location, format!("/api/jobs/{id}"));

    let queued = app.job(&admin, &id).await;
    let keys: HashSet<&str> = queued
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let expected: HashSet<&str> = [
        "id",
        "kind",
        "status",
        "attempts",
        "maxAttempts",
        "progress",
        "result",
        "error",
        "createdAt",
        "runAt",
        "startedAt",
        "finishedAt",
    ]
    .into();
    assert_eq!(keys, expected);
    assert_eq!(queued["status"], "queued");
    assert_eq!(queued["attempts"], 0);
    assert_eq!(queued["maxAttempts"], 3);
    assert!(queued["startedAt"].is_null() && queued["progress"].is_null());

    app.start_worker().await;
    let running = app
        .wait_job(&admin, &id, T, |j| {
            j["status"] == "running" && !j["progress"].is_null()
        })
        .await;
    assert!(running["progress"]["percent"].as_i64().unwrap() > 0);
    assert!(
        running["progress"]["message"]
            .as_str()
            .unwrap()
            .starts_with("Step ")
    );
    assert_eq!(running["attempts"], 1);
    assert!(!running["startedAt"].is_null());

    let done = app.wait_status(&admin, &id, "succeeded", T).await;
    assert_eq!(done["result"], json!({"attempt": 1, "sleptMs": 1200}));
    assert_eq!(done["progress"]["percent"], 100);
    assert!(done["error"].is_null());
    assert!(ms(&done["finishedAt"]) - ms(&done["startedAt"]) >= 1200);

    // Ops see it in the queue statistics, the worker that ran it, and the run-time metric.
    let queues: Value = app.get_json(&admin, "/api/ops/queues").await;
    let noop = queues
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["kind"] == "noop")
        .unwrap();
    assert_eq!(noop["succeeded"], 1);
    assert_eq!(noop["queued"], 0);
    assert!(noop["p50RunMs"].as_i64().unwrap() >= 1200, "{noop}");
    assert!(noop["p95RunMs"].as_i64().unwrap() >= noop["p50RunMs"].as_i64().unwrap());
    assert!(noop["throughputPerMinute"].as_f64().unwrap() > 0.0);
    let workers: Value = app.get_json(&admin, "/api/ops/workers").await;
    let me = workers
        .as_array()
        .unwrap()
        .iter()
        .find(|w| w["alive"] == true)
        .unwrap();
    assert!(me["kinds"].as_array().unwrap().contains(&json!("noop")));
    assert_eq!(me["pid"], std::process::id());
    let metrics = app
        .anonymous()
        .get(app.url("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("prospector_job_run_seconds"),
        "run-time histogram exported"
    );
    assert!(metrics.contains(r#"prospector_jobs_finished_total{kind="noop",status="succeeded"}"#));
    app.stop().await;
}

/// Failures retry later (persisted `runAt`, growing backoff) and end `failed` with the last error.
async fn retries_back_off_then_fail(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let admin = app.admin().await;
    let id = app
        .enqueue(&admin, json!({"kind": "noop", "payload": {"fail": true}}))
        .await;

    let retrying = app.wait_status(&admin, &id, "retrying", T).await;
    assert_eq!(retrying["error"], "noop failed on purpose (attempt 1)");
    let row = app.db.job_get_by_id(&id).await.unwrap().unwrap();
    assert_eq!(row.status, "retrying");
    assert!(
        row.run_at > jobs::time::now_ms() - 100,
        "runAt moved forward in the database"
    );
    assert!(row.locked_by.is_none());

    let failed = app.wait_status(&admin, &id, "failed", T).await;
    assert_eq!(failed["attempts"], 3);
    assert_eq!(failed["error"], "noop failed on purpose (attempt 3)");
    assert!(!failed["finishedAt"].is_null());

    let detail: Value = app.get_json(&admin, &format!("/api/ops/jobs/{id}")).await;
    let history = detail["attemptHistory"].as_array().unwrap();
    let outcomes: Vec<&str> = history
        .iter()
        .map(|a| a["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(outcomes, ["retry", "retry", "failed"]);
    // Base 400 ms with ±50 % jitter: the first wait is ≥ 200 ms, the second (doubled) ≥ 400 ms.
    let gap = |i: usize| ms(&history[i + 1]["startedAt"]) - ms(&history[i]["finishedAt"]);
    assert!(gap(0) >= 200, "first backoff {} ms", gap(0));
    assert!(gap(1) >= 400, "second backoff {} ms", gap(1));
    app.stop().await;
}

/// The same idempotency key twice (even at once) gives one job and one execution.
async fn idempotency_key_dedupes(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let admin = app.admin().await;
    let body = json!({"kind": "noop", "payload": {"sleepMs": 200}, "idempotencyKey": "scan-42"});
    let (a, b) = tokio::join!(
        app.enqueue(&admin, body.clone()),
        app.enqueue(&admin, body.clone())
    );
    assert_eq!(a, b);
    let c = app.enqueue(&admin, body.clone()).await;
    assert_eq!(a, c);
    let done = app.wait_status(&admin, &a, "succeeded", T).await;
    assert_eq!(done["attempts"], 1);
    // Still the same job after it finished.
    assert_eq!(app.enqueue(&admin, body).await, a);
    let res = admin
        .get(app.url("/api/ops/jobs?kind=noop"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.headers()["x-total-count"], "1");
    // A different key is a different job.
    let other = app
        .enqueue(&admin, json!({"kind": "noop", "idempotencyKey": "scan-43"}))
        .await;
    assert_ne!(other, a);
    app.stop().await;
}

/// An over-running job is stopped at its kind's budget and fails with the budget message.
async fn time_budget_stops_job(db: TestDb) {
    let mut settings = fast_settings();
    settings
        .time_budgets
        .insert("noop".into(), Duration::from_secs(1));
    let app = TestApp::spawn(
        &db,
        AppOptions {
            settings,
            ..Default::default()
        },
    )
    .await;
    let admin = app.admin().await;
    let id = app
        .enqueue(
            &admin,
            json!({"kind": "noop", "payload": {"sleepMs": 10000}}),
        )
        .await;
    let failed = app.wait_status(&admin, &id, "failed", T).await;
    assert_eq!(failed["error"], "time budget of 1 s exceeded");
    assert_eq!(failed["attempts"], 1, "a budget overrun is not retried");
    let took = ms(&failed["finishedAt"]) - ms(&failed["startedAt"]);
    assert!((1000..4000).contains(&took), "stopped after {took} ms");
    app.stop().await;
}

/// Cancel: a queued job never runs; a running one is told and ends cancelled; finished → 409.
async fn cancel_queued_and_running(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let admin = app.admin().await;
    let soon = (chrono::Utc::now() + chrono::Duration::milliseconds(600)).to_rfc3339();
    let queued = app
        .enqueue(&admin, json!({"kind": "noop", "runAt": soon}))
        .await;
    assert_eq!(app.job(&admin, &queued).await["status"], "scheduled");
    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{queued}/cancel")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.json::<Value>().await.unwrap()["status"], "cancelled");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let after = app.job(&admin, &queued).await;
    assert_eq!(after["status"], "cancelled");
    assert_eq!(after["attempts"], 0, "a cancelled queued job never runs");

    let running = app
        .enqueue(
            &admin,
            json!({"kind": "noop", "payload": {"sleepMs": 20000}}),
        )
        .await;
    app.wait_status(&admin, &running, "running", T).await;
    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{running}/cancel")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let cancelled = app
        .wait_status(&admin, &running, "cancelled", Duration::from_secs(5))
        .await;
    assert!(ms(&cancelled["finishedAt"]) - ms(&cancelled["startedAt"]) < 5000);

    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{running}/cancel")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 409);
    // A cancelled job can be retried and then runs to the end.
    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{queued}/retry")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
    let done = app.wait_status(&admin, &queued, "succeeded", T).await;
    assert_eq!(done["attempts"], 1);
    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{queued}/retry")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 409, "a succeeded job is not retried");
    app.stop().await;
}

/// A job whose work is already waiting again under the same active key (a new search, a new send)
/// is not retried beside it: 409, the job stays as it was, alone or in a bulk retry.
async fn retry_beside_an_active_twin_is_a_conflict(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let twin = || NewJob::new("noop", json!({})).unique_while_active("same-work");
    let first = app.queue.enqueue(twin()).await.unwrap().id;
    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{first}/cancel")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let second = app.queue.enqueue(twin()).await.unwrap().id;
    assert_ne!(first, second, "the cancelled job no longer holds the key");
    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{first}/retry")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 409);
    let message = res.json::<Value>().await.unwrap()["message"].clone();
    assert!(
        message
            .as_str()
            .unwrap_or_default()
            .contains("already waiting or running"),
        "{message}"
    );
    let res = admin
        .post(app.url("/api/ops/jobs/bulk"))
        .json(&json!({"action": "retry", "kind": "noop", "status": "cancelled"}))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 409);
    assert_eq!(app.job(&admin, &first).await["status"], "cancelled");
    assert_eq!(app.job(&admin, &second).await["status"], "queued");
    // Once the twin is done with, the job can be retried.
    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{second}/cancel")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    let res = admin
        .post(app.url(&format!("/api/ops/jobs/{first}/retry")))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 202);
    assert_eq!(app.job(&admin, &first).await["status"], "queued");
    app.stop().await;
}

/// A domain row and its job commit or roll back together.
async fn transactional_enqueue(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let audit = |id: &'static str| AuditInsert {
        id,
        actor_id: None,
        actor_email: Some("test"),
        action: "test.domain_write",
        target: None,
        detail: None,
        created_at: jobs::time::now_ms(),
    };
    // Rolled back: neither the domain row nor the job exist.
    let mut tx = app.queue.begin().await.unwrap();
    tx.tx().audit_insert(&audit("a1")).await.unwrap();
    let rolled = tx.enqueue(NewJob::new("noop", json!({}))).await.unwrap();
    tx.rollback().await.unwrap();
    assert!(app.db.job_get_by_id(&rolled.id).await.unwrap().is_none());
    assert!(
        app.db
            .audit_list(100)
            .await
            .unwrap()
            .iter()
            .all(|a| a.id != "a1")
    );

    // A failure inside the transaction (an unknown kind) leaves nothing either.
    let mut tx = app.queue.begin().await.unwrap();
    tx.tx().audit_insert(&audit("a2")).await.unwrap();
    let first = tx.enqueue(NewJob::new("noop", json!({}))).await.unwrap();
    assert!(tx.enqueue(NewJob::new("nope", json!({}))).await.is_err());
    drop(tx);
    assert!(app.db.job_get_by_id(&first.id).await.unwrap().is_none());
    assert!(
        app.db
            .audit_list(100)
            .await
            .unwrap()
            .iter()
            .all(|a| a.id != "a2")
    );

    // Committed: both, and a worker started afterwards runs the job.
    let mut tx = app.queue.begin().await.unwrap();
    tx.tx().audit_insert(&audit("a3")).await.unwrap();
    let kept = tx.enqueue(NewJob::new("noop", json!({}))).await.unwrap();
    tx.commit().await.unwrap();
    assert!(app.db.job_get_by_id(&kept.id).await.unwrap().is_some());
    assert!(
        app.db
            .audit_list(100)
            .await
            .unwrap()
            .iter()
            .any(|a| a.id == "a3")
    );
    app.stop().await;
}

/// The prune job, enqueued by the scheduler's cron, deletes finished jobs past retention only.
async fn scheduler_prunes_finished_jobs(db: TestDb) {
    let mut settings = fast_settings();
    settings.retention = Duration::from_secs(1);
    settings.prune_cron = "* * * * * *".into();
    let app = TestApp::spawn(
        &db,
        AppOptions {
            settings,
            ..Default::default()
        },
    )
    .await;
    let admin = app.admin().await;
    let old = app.enqueue(&admin, json!({"kind": "noop"})).await;
    app.wait_status(&admin, &old, "succeeded", T).await;
    let waiting = app
        .enqueue(&admin, json!({"kind": "noop", "runAt": (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339()}))
        .await;

    let stop = tokio_util::sync::CancellationToken::new();
    let entries = scheduler::entries(&app.queue);
    scheduler::validate(&entries).unwrap();
    let sched = tokio::spawn(scheduler::run(app.queue.clone(), entries, stop.clone()));
    eventually(Duration::from_secs(10), "old job pruned", || async {
        app.db
            .job_get_by_id(&old)
            .await
            .unwrap()
            .is_none()
            .then_some(())
    })
    .await;
    assert!(
        app.db.job_get_by_id(&waiting).await.unwrap().is_some(),
        "unfinished jobs are kept"
    );
    stop.cancel();
    sched.await.unwrap().unwrap();
    app.stop().await;
}

/// A worker killed with SIGKILL: its job is rescued after the heartbeat timeout and finished by
/// another worker; a healthy job running longer than the timeout is left alone.
async fn sigkill_rescue_and_long_healthy_job(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let env = fast_env();
    let mut a = Proc::spawn(&db, &["worker"], &env);
    let id = app
        .enqueue(
            &admin,
            json!({"kind": "noop", "payload": {"sleepMs": 2500}}),
        )
        .await;
    app.wait_status(&admin, &id, "running", T).await;
    a.signal(9);
    assert!(a.wait_exit(Duration::from_secs(5)).is_some());

    let b = Proc::spawn(&db, &["worker"], &env);
    let done = app
        .wait_status(&admin, &id, "succeeded", Duration::from_secs(20))
        .await;
    assert_eq!(done["attempts"], 2, "ran again after the rescue");
    let detail: Value = app.get_json(&admin, &format!("/api/ops/jobs/{id}")).await;
    assert_eq!(detail["attemptHistory"][0]["outcome"], "lost", "{detail}");

    // 3 s is twice the heartbeat timeout: a live worker's job is not rescued.
    let long = app
        .enqueue(
            &admin,
            json!({"kind": "noop", "payload": {"sleepMs": 3000}}),
        )
        .await;
    let done = app
        .wait_status(&admin, &long, "succeeded", Duration::from_secs(20))
        .await;
    assert_eq!(done["attempts"], 1, "{}", b.output());
    drop(b);
    app.stop().await;
}

/// SIGTERM: no new jobs; in-flight jobs finish within the grace period; the rest go back.
async fn sigterm_drains_then_returns_jobs(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let mut w = Proc::spawn(&db, &["worker"], &fast_env());
    let short = app
        .enqueue(&admin, json!({"kind": "noop", "payload": {"sleepMs": 700}}))
        .await;
    let long = app
        .enqueue(
            &admin,
            json!({"kind": "noop", "payload": {"sleepMs": 30000}}),
        )
        .await;
    app.wait_status(&admin, &short, "running", T).await;
    app.wait_status(&admin, &long, "running", T).await;
    w.signal(15);
    let status = w
        .wait_exit(Duration::from_secs(10))
        .expect("worker exits after the grace period");
    assert!(status.success(), "{}", w.output());
    assert_eq!(app.job(&admin, &short).await["status"], "succeeded");
    let back = app.job(&admin, &long).await;
    assert_eq!(
        back["status"], "queued",
        "unfinished job returned to the queue"
    );
    assert_eq!(
        back["attempts"], 0,
        "the interrupted attempt does not count"
    );
    let row = app.db.job_get_by_id(&long).await.unwrap().unwrap();
    assert!(row.locked_by.is_none());
    // Nothing new was claimed once the signal arrived.
    let later = app.enqueue(&admin, json!({"kind": "noop"})).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(app.job(&admin, &later).await["status"], "queued");
    app.stop().await;
}

/// Two scheduler processes on one database: exactly one job per cron tick.
async fn two_schedulers_one_job_per_tick(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let mut env = fast_env();
    env.push(("JOB_PRUNE_CRON", "* * * * * *".into()));
    let s1 = Proc::spawn(&db, &["scheduler"], &env);
    let s2 = Proc::spawn(&db, &["scheduler"], &env);
    tokio::time::sleep(Duration::from_millis(4500)).await;
    drop((s1, s2));
    let (rows, total) = app
        .db
        .job_list(&jobs::db::JobList {
            kind: Some("prune_jobs"),
            status: None,
            text: None,
            from: None,
            until: None,
            limit: 1000,
            offset: 0,
        })
        .await
        .unwrap();
    let keys: HashSet<String> = rows
        .iter()
        .filter_map(|r| r.idempotency_key.clone())
        .collect();
    assert!(total >= 3, "ticks were enqueued: {total}");
    assert_eq!(keys.len() as i64, total, "one job per tick, no duplicates");
    assert!(keys.iter().all(|k| k.starts_with("cron:prune_jobs:")));
    app.stop().await;
}

/// Ops actions beyond retry and cancel: pause and resume a kind, run a scheduled job now, delete,
/// and the bulk forms over a kind and status; each written to the audit log, bad input refused.
async fn pause_run_now_delete_and_bulk(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let admin = app.admin().await;
    let user = app.user().await;

    // Paused: nothing of the kind starts; resumed: it all runs.
    let (s, v) = send(admin.post(app.url("/api/ops/kinds/noop/pause"))).await;
    assert_eq!((s, v["paused"].clone()), (200, json!(true)));
    let queues = app.get_json(&admin, "/api/ops/queues").await;
    let noop = queues
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["kind"] == "noop")
        .unwrap()
        .clone();
    assert_eq!(noop["paused"], true);
    let waiting: Vec<String> =
        futures::future::join_all((0..3).map(|_| app.enqueue(&admin, json!({"kind": "noop"}))))
            .await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    for id in &waiting {
        assert_eq!(
            app.job(&admin, id).await["status"],
            "queued",
            "paused kind waits"
        );
    }
    let (s, _) = send(admin.post(app.url("/api/ops/kinds/noop/resume"))).await;
    assert_eq!(s, 200);
    for id in &waiting {
        app.wait_status(&admin, id, "succeeded", T).await;
    }

    // Run now: a job scheduled an hour ahead runs at once; a finished one cannot.
    let later = (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339();
    let scheduled = app
        .enqueue(&admin, json!({"kind": "noop", "runAt": later}))
        .await;
    assert_eq!(app.job(&admin, &scheduled).await["status"], "scheduled");
    let (s, _) = send(admin.post(app.url(&format!("/api/ops/jobs/{scheduled}/run-now")))).await;
    assert_eq!(s, 200);
    app.wait_status(&admin, &scheduled, "succeeded", T).await;
    let (s, v) = send(admin.post(app.url(&format!("/api/ops/jobs/{scheduled}/run-now")))).await;
    assert_eq!(s, 409, "{v}");

    // Delete: a finished job goes; a running one is refused; unknown is 404.
    let (s, _) = send(admin.delete(app.url(&format!("/api/ops/jobs/{scheduled}")))).await;
    assert_eq!(s, 204);
    assert_eq!(
        send(admin.get(app.url(&format!("/api/ops/jobs/{scheduled}"))))
            .await
            .0,
        404
    );
    let running = app
        .enqueue(
            &admin,
            json!({"kind": "noop", "payload": {"sleepMs": 20000}}),
        )
        .await;
    app.wait_status(&admin, &running, "running", T).await;
    let (s, v) = send(admin.delete(app.url(&format!("/api/ops/jobs/{running}")))).await;
    assert_eq!(
        (s, v["message"].as_str()),
        (
            409,
            Some("A running job cannot be deleted; cancel it first")
        )
    );

    // Bulk: retry every failed noop, cancel what waits (the running one is asked to stop), delete
    // the cancelled ones.
    let failing: Vec<String> = futures::future::join_all(
        (0..2).map(|_| app.enqueue(&admin, json!({"kind": "noop", "payload": {"fail": true}}))),
    )
    .await;
    for id in &failing {
        app.wait_status(&admin, id, "failed", T).await;
    }
    let retried_at = jobs::time::now_ms();
    let (s, v) = send(
        admin
            .post(app.url("/api/ops/jobs/bulk"))
            .json(&json!({"action": "retry", "kind": "noop", "status": "failed"})),
    )
    .await;
    assert_eq!((s, v["affected"].clone()), (200, json!(2)));
    for id in &failing {
        // Ran its attempts again and failed again, after the retry.
        app.wait_job(&admin, id, T, |j| {
            j["status"] == "failed" && ms(&j["finishedAt"]) > retried_at
        })
        .await;
    }
    let ahead: Vec<String> = futures::future::join_all(
        (0..2).map(|_| app.enqueue(&admin, json!({"kind": "noop", "runAt": later}))),
    )
    .await;
    let (s, v) = send(
        admin
            .post(app.url("/api/ops/jobs/bulk"))
            .json(&json!({"action": "cancel", "kind": "noop"})),
    )
    .await;
    assert_eq!(
        (s, v["affected"].clone()),
        (200, json!(3)),
        "two scheduled, one running"
    );
    app.wait_status(&admin, &running, "cancelled", T).await;
    let (s, v) = send(
        admin
            .post(app.url("/api/ops/jobs/bulk"))
            .json(&json!({"action": "delete", "status": "cancelled"})),
    )
    .await;
    assert_eq!((s, v["affected"].clone()), (200, json!(3)));
    for id in ahead.iter().chain([&running]) {
        assert_eq!(
            send(admin.get(app.url(&format!("/api/ops/jobs/{id}"))))
                .await
                .0,
            404
        );
    }

    // Bad input and no access.
    for (body, message) in [
        (
            json!({"action": "explode"}),
            "action must be one of: retry, cancel, delete, run_now",
        ),
        (
            json!({"action": "retry", "kind": "nope"}),
            "Unknown job kind: nope",
        ),
    ] {
        let (s, v) = send(admin.post(app.url("/api/ops/jobs/bulk")).json(&body)).await;
        assert_eq!((s, v["message"].as_str()), (422, Some(message)), "{body}");
    }
    assert_eq!(
        send(admin.post(app.url("/api/ops/kinds/nope/pause")))
            .await
            .0,
        404
    );
    assert_eq!(
        send(user.post(app.url("/api/ops/kinds/noop/pause")))
            .await
            .0,
        403
    );
    assert_eq!(
        send(
            user.post(app.url("/api/ops/jobs/bulk"))
                .json(&json!({"action": "delete"}))
        )
        .await
        .0,
        403
    );

    let audit = app
        .get_json(&admin, "/api/ops/audit?limit=50")
        .await
        .to_string();
    for action in [
        "kind.pause",
        "kind.resume",
        "job.run_now",
        "job.delete",
        "jobs.bulk_retry",
        "jobs.bulk_cancel",
        "jobs.bulk_delete",
    ] {
        assert!(audit.contains(action), "{action} audited: {audit}");
    }
    app.stop().await;
}

/// A worker process with `METRICS_PORT` serves what it records: job outcomes and run times.
async fn worker_process_serves_its_metrics(db: TestDb) {
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut env = fast_env();
    env.push(("METRICS_PORT", port.to_string()));
    let worker = Proc::spawn(&db, &["worker"], &env);
    let id = app.enqueue(&admin, json!({"kind": "noop"})).await;
    app.wait_status(&admin, &id, "succeeded", T).await;
    let text = eventually(T, "worker metrics", || async {
        let res = reqwest::get(format!("http://127.0.0.1:{port}/metrics"))
            .await
            .ok()?;
        let text = res.text().await.ok()?;
        text.contains("prospector_jobs_finished_total")
            .then_some(text)
    })
    .await;
    assert!(
        text.contains(r#"prospector_jobs_finished_total{kind="noop",status="succeeded"} 1"#),
        "{text}\n{}",
        worker.output()
    );
    assert!(text.contains("prospector_job_run_seconds"), "{text}");
    drop(worker);
    app.stop().await;
}

/// The job list finds jobs by text in their payload or error, and by creation time.
async fn job_list_text_and_time_filters(db: TestDb) {
    let app = TestApp::spawn(&db, AppOptions::default()).await;
    let admin = app.admin().await;
    let before = chrono::Utc::now() - chrono::Duration::seconds(1);
    let marked = app
        .enqueue(
            &admin,
            json!({"kind": "noop", "payload": {"sleepMs": 4321}}),
        )
        .await;
    let failing = app
        .enqueue(&admin, json!({"kind": "noop", "payload": {"fail": true}}))
        .await;
    app.wait_status(&admin, &marked, "succeeded", T).await;
    app.wait_status(&admin, &failing, "failed", T).await;
    let ids = |v: Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|j| j["id"].as_str().unwrap().to_string())
            .collect()
    };
    let q = |s: &str| {
        format!(
            "/api/ops/jobs?q={}",
            url::form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>()
        )
    };
    assert_eq!(ids(app.get_json(&admin, &q("4321")).await), [marked]);
    assert_eq!(
        ids(app.get_json(&admin, &q("ON PURPOSE")).await),
        [failing],
        "error text, any case"
    );
    assert!(
        ids(app.get_json(&admin, &q("100%")).await).is_empty(),
        "wildcards match literally"
    );
    let from =
        url::form_urlencoded::byte_serialize(before.to_rfc3339().as_bytes()).collect::<String>();
    assert_eq!(
        ids(app
            .get_json(&admin, &format!("/api/ops/jobs?until={from}"))
            .await)
        .len(),
        0
    );
    assert_eq!(
        ids(app
            .get_json(&admin, &format!("/api/ops/jobs?from={from}&kind=noop"))
            .await)
        .len(),
        2
    );
    let (s, _) = send(admin.get(app.url("/api/ops/jobs?from=yesterday"))).await;
    assert_eq!(s, 400);

    // The charts' history: both outcomes counted in the kind's buckets of the last hour.
    let history = app.get_json(&admin, "/api/ops/history").await;
    assert_eq!(history["bucketSeconds"], 60);
    let noop: Vec<&Value> = history["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["kind"] == "noop")
        .collect();
    let total = |field: &str| noop.iter().map(|b| b[field].as_i64().unwrap()).sum::<i64>();
    assert_eq!((total("succeeded"), total("failed")), (1, 1));
    let day = app.get_json(&admin, "/api/ops/history?minutes=1440").await;
    assert_eq!(day["bucketSeconds"], 720, "a day in 120 points");
    for bad in ["0", "1441", "soon"] {
        let (s, body) = send(admin.get(app.url(&format!("/api/ops/history?minutes={bad}")))).await;
        assert_eq!(s, 400, "{bad}: {body}");
    }
    app.stop().await;
}

both_backends!(
    job_list_text_and_time_filters,
    worker_process_serves_its_metrics,
    pause_run_now_delete_and_bulk,
    job_lifecycle_and_progress,
    retries_back_off_then_fail,
    idempotency_key_dedupes,
    time_budget_stops_job,
    cancel_queued_and_running,
    retry_beside_an_active_twin_is_a_conflict,
    transactional_enqueue,
    scheduler_prunes_finished_jobs,
    sigkill_rescue_and_long_healthy_job,
    sigterm_drains_then_returns_jobs,
    two_schedulers_one_job_per_tick,
);

mod postgres_only {
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn bulk_cancel_survives_a_deadlock() {
        if let Some(db) = super::TestDb::new(super::Backend::Postgres).await {
            super::bulk_cancel_survives_a_deadlock(db).await
        }
    }
}

/// A bulk cancel locks the waiting jobs, then the running ones; a worker recording a batch of
/// outcomes locks its rows in its own order. Here another transaction holds the running job and
/// then asks for the waiting one the bulk cancel holds: Postgres breaks the deadlock by aborting
/// the bulk cancel, which runs again and answers 200 with every job changed — not a 500.
async fn bulk_cancel_survives_a_deadlock(db: TestDb) {
    use sqlx::Connection;
    let app = TestApp::idle(&db).await;
    let admin = app.admin().await;
    let later = (chrono::Utc::now() + chrono::Duration::hours(1)).to_rfc3339();
    let waiting = app
        .enqueue(&admin, json!({"kind": "noop", "runAt": later}))
        .await;
    let running = app
        .enqueue(&admin, json!({"kind": "noop", "runAt": later}))
        .await;
    let mut other = sqlx::PgConnection::connect(&db.raw_url).await.unwrap();
    sqlx::query("UPDATE jobs SET status = 'running', locked_by = 'w-test' WHERE id = $1")
        .bind(&running)
        .execute(&mut other)
        .await
        .unwrap();
    // This side never gives up first: the bulk cancel, waiting longer, is the one aborted.
    sqlx::query("SET deadlock_timeout = '30s'")
        .execute(&mut other)
        .await
        .unwrap();
    let mut tx = other.begin().await.unwrap();
    sqlx::query("UPDATE jobs SET progress_message = 'held' WHERE id = $1")
        .bind(&running)
        .execute(&mut *tx)
        .await
        .unwrap();

    let bulk = tokio::spawn({
        let request = admin
            .post(app.url("/api/ops/jobs/bulk"))
            .json(&json!({"action": "cancel", "kind": "noop"}));
        async move { send(request).await }
    });
    // The bulk cancel has cancelled the waiting job and waits for the running one.
    let mut watch = sqlx::PgConnection::connect(&db.raw_url).await.unwrap();
    let deadline = tokio::time::Instant::now() + T;
    loop {
        let blocked: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM pg_stat_activity
             WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&mut watch)
        .await
        .unwrap();
        if blocked == 1 {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the bulk cancel never waited"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    sqlx::query("UPDATE jobs SET progress_message = 'held' WHERE id = $1")
        .bind(&waiting)
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();

    let (s, v) = bulk.await.unwrap();
    assert_eq!(
        (s, v["affected"].clone()),
        (200, json!(2)),
        "one cancelled, one asked to stop: {v}"
    );
    assert_eq!(app.job(&admin, &waiting).await["status"], "cancelled");
    let (status, asked): (String, bool) =
        sqlx::query_as("SELECT status, cancel_requested FROM jobs WHERE id = $1")
            .bind(&running)
            .fetch_one(&mut watch)
            .await
            .unwrap();
    assert_eq!((status.as_str(), asked), ("running", true));
    app.stop().await;
}
