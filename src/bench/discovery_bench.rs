//! `prospector bench discovery`: enqueue-to-succeeded time of a catalog scan (first run inserts,
//! second updates) and of bulk scoring 10,000 contacts, through the real worker.

use std::time::{Duration, Instant};

use anyhow::bail;
use jobs::config::{DatabaseUrl, QueueSettings};
use jobs::db::{CompanySeed, ContactSeed, Db};
use jobs::kinds::{BulkAiScore, DiscoveryScan};
use jobs::queue::{JobKind, NewJob, Queue};
use jobs::time::now_ms;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::BenchDb;

/// Waits for the job to succeed; returns how long it took from `since`.
async fn until_succeeded(db: &Db, id: &str, since: Instant) -> anyhow::Result<Duration> {
    loop {
        if let Some(job) = db.job_get_by_id(id).await? {
            match job.status.as_str() {
                "succeeded" => return Ok(since.elapsed()),
                "failed" | "cancelled" => bail!("job {id} ended {}: {:?}", job.status, job.error),
                _ => {}
            }
        }
        if since.elapsed() > Duration::from_secs(120) {
            bail!("job {id} did not finish in 120 s");
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

pub async fn run(url: &DatabaseUrl, which: BenchDb, contacts: usize) -> anyhow::Result<()> {
    let db = Db::connect(url, 16).await?;
    db.migrate().await?;
    let queue = Queue::new(
        db.clone(),
        jobs::kinds::registry(),
        QueueSettings::default(),
    );
    let shutdown = CancellationToken::new();
    let worker = worker::start(
        queue.clone(),
        worker::WorkerOptions::default(),
        shutdown.clone(),
    )
    .await?;

    // The widest catalog search: every company name contains "of" (capped at the provider's maximum).
    let scan = serde_json::to_value(DiscoveryScan {
        company_name: Some("of".into()),
        market_intelligence: true,
        competitor_analysis: true,
        territory_optimization: true,
        lead_qualification: true,
        ..Default::default()
    })?;
    let mut scans = Vec::new();
    for _ in 0..2 {
        let t = Instant::now();
        let job = queue
            .enqueue(NewJob::new(DiscoveryScan::NAME, scan.clone()))
            .await?;
        let took = until_succeeded(&db, &job.id, t).await?;
        let result = db
            .job_get_by_id(&job.id)
            .await?
            .and_then(|j| j.result)
            .map(|r| r.0);
        let n = result
            .as_ref()
            .and_then(|r| r["companies"].as_array().map(Vec::len))
            .unwrap_or(0);
        let m = result
            .as_ref()
            .and_then(|r| r["contacts"].as_array().map(Vec::len))
            .unwrap_or(0);
        println!(
            "catalog scan: {n} companies, {m} contacts, enqueue-to-succeeded {:.0} ms",
            took.as_secs_f64() * 1000.0
        );
        scans.push(took);
    }

    // Bulk scoring: contacts that were never scored, spread over companies.
    let now = now_ms();
    let companies: Vec<CompanySeed> = (0..contacts / 5)
        .map(|i| CompanySeed {
            id: ulid::Ulid::new().to_string(),
            name: format!("Bench Bath {i}"),
            company_type: Some(["bath-shower", "plumbing", "roofing"][i % 3].into()),
            status: "discovered".into(),
            revenue: Some(((i % 40) as i64 + 1) * 1_000_000),
            state: Some(["TX", "OK", "CA"][i % 3].into()),
            created_at: now,
            ..Default::default()
        })
        .collect();
    db.seed_companies(&companies).await?;
    let rows: Vec<ContactSeed> = (0..contacts)
        .map(|i| ContactSeed {
            id: ulid::Ulid::new().to_string(),
            company_id: companies.get(i / 5).map(|c| c.id.clone()),
            first_name: "Pat".into(),
            last_name: format!("Bench{i}"),
            email: Some(format!("pat{i}@bench.example")),
            title: Some(["CEO", "VP of Sales", "Estimator"][i % 3].into()),
            status: "new_lead".into(),
            score: 50,
            tags: json!([]),
            created_at: now,
            ..Default::default()
        })
        .collect();
    db.seed_contacts(&rows).await?;
    let ids: Vec<String> = rows.into_iter().map(|r| r.id).collect();
    let t = Instant::now();
    let job = queue
        .enqueue(NewJob::new(
            BulkAiScore::NAME,
            serde_json::to_value(BulkAiScore {
                contact_ids: ids,
                use_enterprise_model: false,
            })?,
        ))
        .await?;
    let bulk = until_succeeded(&db, &job.id, t).await?;
    println!(
        "bulk scoring: {contacts} contacts, enqueue-to-succeeded {:.0} ms",
        bulk.as_secs_f64() * 1000.0
    );

    shutdown.cancel();
    worker.shutdown().await?;
    db.close().await;
    let backend = match which {
        BenchDb::Sqlite => "sqlite",
        BenchDb::Postgres => "postgres",
    };
    println!(
        "bench discovery {backend}: scan_first={:.0} ms scan_repeat={:.0} ms bulk_score_{contacts}={:.0} ms",
        scans[0].as_secs_f64() * 1000.0,
        scans[1].as_secs_f64() * 1000.0,
        bulk.as_secs_f64() * 1000.0
    );
    Ok(())
}
