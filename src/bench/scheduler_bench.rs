//! `prospector bench scheduler`: 100,000 active enrollments of a one-email sequence, 10,000 of them
//! due at once. Measures the tick (due steps found and enqueued), the lateness from the due time to
//! the message handed to the loopback SMTP server, and peak RSS.

use std::time::{Duration, Instant};

use anyhow::bail;
use jobs::config::{DatabaseUrl, QueueSettings};
use jobs::db::{Audience, ContactSeed, Db, Enroll, SequenceRow, StepRow};
use jobs::kinds::SequenceTick;
use jobs::providers::Providers;
use jobs::queue::{JobKind, NewJob, Queue};
use jobs::time::now_ms;
use serde_json::json;
use sqlx::types::Json;
use tokio_util::sync::CancellationToken;

use super::{BenchDb, peak_rss_mb, percentile};

pub async fn run(
    url: &DatabaseUrl,
    which: BenchDb,
    enrollments: usize,
    due: usize,
    concurrency: usize,
) -> anyhow::Result<()> {
    let db = Db::connect(url, 16).await?;
    db.migrate().await?;
    let now = now_ms();
    let ids: Vec<String> = (0..enrollments)
        .map(|_| ulid::Ulid::new().to_string())
        .collect();
    for (n, chunk) in ids.chunks(5_000).enumerate() {
        let rows: Vec<ContactSeed> = chunk
            .iter()
            .enumerate()
            .map(|(i, id)| ContactSeed {
                id: id.clone(),
                first_name: "Pat".into(),
                last_name: format!("Seq{}", n * 5_000 + i),
                email: Some(format!("seq{}@bench.example", n * 5_000 + i)),
                status: "new_lead".into(),
                score: 70,
                tags: json!([]),
                created_at: now,
                ..Default::default()
            })
            .collect();
        db.seed_contacts(&rows).await?;
    }
    let sequence = SequenceRow {
        id: ulid::Ulid::new().to_string(),
        name: "Bench".into(),
        description: "Scheduler benchmark".into(),
        status: "active".into(),
        trigger_type: "manual".into(),
        trigger_config: Json(json!({})),
        enrollment_rules: Json(json!({})),
        exit_rules: Json(json!({})),
        ab_testing_enabled: false,
        ab_test_config: None,
        max_daily_enrollments: i32::MAX,
        created_at: now,
        updated_at: now,
        sending_window: None,
    };
    db.sequence_insert(&sequence).await?;
    let step = StepRow {
        id: ulid::Ulid::new().to_string(),
        sequence_id: sequence.id.clone(),
        name: "Intro".into(),
        kind: "email".into(),
        step_order: 0,
        config: Json(
            json!({ "subject": "Hello {{firstName}}", "body": "<p>Hi {{firstName}}</p>" }),
        ),
        delay_minutes: 0,
        conditional_rules: None,
        created_at: now,
        updated_at: now,
    };
    db.step_insert(&step).await?;
    // The first `due` contacts fall due just before the tick starts (below); the rest a day later.
    let placeholder = now_ms();
    let (first, _) = ids.split_at(due.min(ids.len()));
    for (audience, at) in [
        (
            Audience {
                contact_ids: Some(first.to_vec()),
                ..Audience::default()
            },
            placeholder,
        ),
        (Audience::default(), placeholder + 86_400_000),
    ] {
        db.enrollments_insert(&Enroll {
            sequence_id: &sequence.id,
            audience: &audience,
            limit: enrollments as i64,
            now: at,
        })
        .await?;
    }

    let (sink, mailing) = super::loopback_mailing(&db, concurrency).await?;
    let queue = Queue::new(
        db.clone(),
        jobs::kinds::registry(),
        QueueSettings {
            concurrency,
            ..QueueSettings::default()
        },
    )
    .with_providers(Providers::embedded().with_mailing(mailing));
    let shutdown = CancellationToken::new();
    let worker = worker::start(
        queue.clone(),
        worker::WorkerOptions::default(),
        shutdown.clone(),
    )
    .await?;

    let due_at = now_ms();
    match &db {
        Db::Sqlite(pool) => sqlx::query(
            "UPDATE sequence_enrollments SET next_action_at = ?1 WHERE next_action_at = ?2",
        )
        .bind(due_at)
        .bind(placeholder)
        .execute(pool.write())
        .await?
        .rows_affected(),
        Db::Postgres(pool) => sqlx::query(
            "UPDATE sequence_enrollments SET next_action_at = $1 WHERE next_action_at = $2",
        )
        .bind(due_at)
        .bind(placeholder)
        .execute(pool.write())
        .await?
        .rows_affected(),
    };
    let started = Instant::now();
    let tick = queue
        .enqueue(NewJob::new(SequenceTick::NAME, json!({})))
        .await?;
    let tick_time = loop {
        if let Some(j) = db.job_get_by_id(&tick.id).await? {
            match j.status.as_str() {
                "succeeded" => break started.elapsed(),
                "failed" | "cancelled" => bail!("tick {}: {:?}", j.status, j.error),
                _ => {}
            }
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
    while sink.count() < due {
        if started.elapsed() > Duration::from_secs(600) {
            bail!("only {} of {due} messages in 600 s", sink.count());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let all_sent = started.elapsed();
    shutdown.cancel();
    worker.shutdown().await?;
    let mut late: Vec<f64> = db
        .step_sent_times(&step.id)
        .await?
        .into_iter()
        .map(|t| (t - due_at) as f64 / 1000.0)
        .collect();
    late.sort_by(|a, b| a.total_cmp(b));
    let (first, p50, p99) = (
        percentile(&late, 0.0),
        percentile(&late, 0.5),
        percentile(&late, 0.99),
    );
    println!(
        "{which:?}: {enrollments} active enrollments, {due} due; tick {:.2} s; all {} sent after {:.1} s",
        tick_time.as_secs_f64(),
        sink.count(),
        all_sent.as_secs_f64()
    );
    println!(
        "scheduler {which:?}: tick {:.2} s for {due} due steps, lateness first {first:.1} s p50 {p50:.1} s p99 {p99:.1} s, peak RSS {:.0} MB",
        tick_time.as_secs_f64(),
        peak_rss_mb()
    );
    Ok(())
}
