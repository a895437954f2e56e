//! `prospector bench campaign`: a bulk campaign to N contacts through the real worker and the real
//! SMTP client into a loopback SMTP server, limits lifted. Prints messages/s from send to `sent`,
//! duplicates and missing recipients (counted at the server), and peak RSS.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use anyhow::bail;
use jobs::config::{DatabaseUrl, QueueSettings};
use jobs::db::{CampaignRow, ContactSeed, Db};
use jobs::kinds::BulkCampaignSend;
use jobs::providers::Providers;
use jobs::queue::{JobKind, NewJob, Queue};
use jobs::time::now_ms;
use serde_json::json;
use sqlx::types::Json;
use tokio_util::sync::CancellationToken;

use super::{BenchDb, peak_rss_mb};

pub async fn run(
    url: &DatabaseUrl,
    which: BenchDb,
    recipients: usize,
    concurrency: usize,
) -> anyhow::Result<()> {
    let db = Db::connect(url, 16).await?;
    db.migrate().await?;
    let now = now_ms();
    let rows: Vec<ContactSeed> = (0..recipients)
        .map(|i| ContactSeed {
            id: ulid::Ulid::new().to_string(),
            first_name: "Pat".into(),
            last_name: format!("Bench{i}"),
            email: Some(format!("pat{i}@bench.example")),
            status: "new_lead".into(),
            score: 80,
            tags: json!([]),
            created_at: now,
            ..Default::default()
        })
        .collect();
    for chunk in rows.chunks(5_000) {
        db.seed_contacts(chunk).await?;
    }
    drop(rows);

    let (sink, mailing) = super::loopback_mailing(&db, concurrency).await?;
    let queue = Queue::new(
        db.clone(),
        jobs::kinds::registry(),
        QueueSettings::default(),
    )
    .with_providers(Providers::embedded().with_mailing(mailing));
    let shutdown = CancellationToken::new();
    let worker = worker::start(
        queue.clone(),
        worker::WorkerOptions::default(),
        shutdown.clone(),
    )
    .await?;

    let campaign = CampaignRow {
        id: ulid::Ulid::new().to_string(),
        kind: "bulk".into(),
        name: "Bench".into(),
        description: None,
        status: "sending".into(),
        subject: Some("Hello {{firstName}}".into()),
        template_id: Some("business-outreach".into()),
        from_email: None,
        target_filters: Some(Json(json!({ "scoreMin": 70, "statuses": ["new_lead"] }))),
        selected_contact_ids: None,
        schedule_at: None,
        target_audience: None,
        ai_model: None,
        total_recipients: recipients as i32,
        created_at: now,
        updated_at: now,
        started_at: None,
        sent_at: None,
        ended_at: None,
    };
    let mut tx = db.begin().await?;
    tx.campaign_insert(&campaign).await?;
    tx.commit().await?;
    let started = Instant::now();
    let job = queue
        .enqueue(NewJob::new(
            BulkCampaignSend::NAME,
            json!({ "campaignId": campaign.id }),
        ))
        .await?;
    loop {
        let c = db.campaign_get(&campaign.id).await?;
        if c.as_ref().is_some_and(|c| c.status == "sent") {
            break;
        }
        if let Some(j) = db.job_get_by_id(&job.id).await?
            && (j.status == "failed" || j.status == "cancelled")
        {
            bail!("campaign job {}: {:?}", j.status, j.error);
        }
        if started.elapsed() > Duration::from_secs(600) {
            bail!("the campaign did not finish in 600 s");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let elapsed = started.elapsed();
    shutdown.cancel();
    worker.shutdown().await?;

    let mut per_recipient: HashMap<String, usize> = HashMap::new();
    for m in sink.messages() {
        for to in m.to {
            *per_recipient.entry(to.to_lowercase()).or_default() += 1;
        }
    }
    let duplicates: usize = per_recipient.values().map(|n| n.saturating_sub(1)).sum();
    let missing = recipients.saturating_sub(per_recipient.len());
    let rate = recipients as f64 / elapsed.as_secs_f64();
    println!(
        "{which:?}: {recipients} recipients, {concurrency} in flight: {:.2} s, {rate:.0} messages/s",
        elapsed.as_secs_f64()
    );
    println!(
        "campaign {which:?}: {rate:.0} messages/s, duplicates {duplicates}, missing {missing}, peak RSS {:.0} MB",
        peak_rss_mb()
    );
    Ok(())
}
