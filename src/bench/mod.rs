//! `prospector bench queue`: drains a backlog of no-op jobs through the real worker and measures
//! enqueue rate, drain rate, enqueue-to-start latency of a trickle, and peak memory.

use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::{Subcommand, ValueEnum};
use jobs::config::{DatabaseUrl, QueueSettings, default_db_max_connections};
use jobs::db::{Db, JobInsertMany};
use jobs::kinds::Noop;
use jobs::queue::{JobKind, NewJob, Queue};
use jobs::time::now_ms;
use serde_json::json;
use sqlx::Connection;
use tokio_util::sync::CancellationToken;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BenchDb {
    Sqlite,
    Postgres,
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Discovery: a catalog scan and bulk scoring, enqueue to succeeded.
    Discovery {
        #[arg(long, value_enum, default_value = "sqlite")]
        db: BenchDb,
        /// Contacts for the bulk-scoring run.
        #[arg(long, default_value_t = 10_000)]
        contacts: usize,
        #[arg(
            long,
            env = "TEST_DATABASE_URL",
            default_value = "postgres://postgres@127.0.0.1:5432/postgres"
        )]
        postgres_url: String,
    },
    /// API latency under load over a large CRM (the server runs as its own process).
    Api {
        #[arg(long, value_enum, default_value = "sqlite")]
        db: BenchDb,
        #[arg(long, default_value_t = 100_000)]
        contacts: usize,
        #[arg(long, default_value_t = 20_000)]
        companies: usize,
        #[arg(long, default_value_t = 10_000)]
        deals: usize,
        /// Concurrent connections.
        #[arg(long, default_value_t = 50)]
        connections: usize,
        /// Seconds of load per route group, after a 2 s warm-up.
        #[arg(long, default_value_t = 10)]
        seconds: u64,
        /// cold: cache off; cached: the default read cache; mixed: cache off plus 20 writes/s.
        #[arg(
            long,
            value_enum,
            value_delimiter = ',',
            default_value = "cold,cached,mixed"
        )]
        phases: Vec<api_bench::Phase>,
        /// Only the route groups whose name contains this, or one of several separated by commas
        /// (e.g. `contacts search,customer`).
        #[arg(long)]
        routes: Option<String>,
        /// A database kept after the run under this name (on SQLite the file `NAME/bench.db` in
        /// the temp directory). The first run creates and seeds it; later runs migrate it and
        /// measure without seeding (a 1,000,000-contact seed takes most of an hour), and read the
        /// sizes from it.
        #[arg(long)]
        keep: Option<String>,
        #[arg(
            long,
            env = "TEST_DATABASE_URL",
            default_value = "postgres://postgres@127.0.0.1:5432/postgres"
        )]
        postgres_url: String,
    },
    /// A bulk campaign into a loopback SMTP server, limits lifted.
    Campaign {
        #[arg(long, value_enum, default_value = "sqlite")]
        db: BenchDb,
        #[arg(long, default_value_t = 10_000)]
        recipients: usize,
        /// Messages in flight and SMTP connections (`MAIL_SEND_CONCURRENCY`); the product's
        /// default, which is what the sending target is measured at.
        #[arg(long, default_value_t = jobs::config::MailSettings::default().send_concurrency)]
        concurrency: usize,
        #[arg(
            long,
            env = "TEST_DATABASE_URL",
            default_value = "postgres://postgres@127.0.0.1:5432/postgres"
        )]
        postgres_url: String,
    },
    /// Sequences: one tick over many active enrollments, lateness to SMTP.
    Scheduler {
        #[arg(long, value_enum, default_value = "sqlite")]
        db: BenchDb,
        #[arg(long, default_value_t = 100_000)]
        enrollments: usize,
        #[arg(long, default_value_t = 10_000)]
        due: usize,
        /// Step jobs and SMTP connections at once (`MAIL_SEND_CONCURRENCY`). 128: on loopback each
        /// message costs lettre 0.11.23's 40 ms Nagle stall, so 64 connections hand over ~900 msg/s.
        #[arg(long, default_value_t = 128)]
        concurrency: usize,
        #[arg(
            long,
            env = "TEST_DATABASE_URL",
            default_value = "postgres://postgres@127.0.0.1:5432/postgres"
        )]
        postgres_url: String,
    },
    /// Queue throughput and latency with no-op jobs.
    Queue {
        #[arg(long, value_enum, default_value = "sqlite")]
        db: BenchDb,
        #[arg(long, default_value_t = 100_000)]
        jobs: usize,
        /// Worker concurrency; unset, the worker runs at `prospector worker`'s defaults
        /// (`WORKER_CONCURRENCY` and `DB_MAX_CONNECTIONS` unset).
        #[arg(long)]
        concurrency: Option<usize>,
        /// Jobs in the latency trickle.
        #[arg(long, default_value_t = 500)]
        samples: usize,
        /// Server for the Postgres run; a scratch database is created on it and dropped.
        #[arg(
            long,
            env = "TEST_DATABASE_URL",
            default_value = "postgres://postgres@127.0.0.1:5432/postgres"
        )]
        postgres_url: String,
    },
}

pub async fn run(cmd: BenchCommand) -> anyhow::Result<()> {
    match cmd {
        BenchCommand::Queue {
            db,
            jobs,
            concurrency,
            samples,
            postgres_url,
        } => {
            let scratch = Scratch::create(db, &postgres_url).await?;
            let result = queue_bench(&scratch.url, db, jobs, concurrency, samples).await;
            scratch.drop_db().await;
            result
        }
        BenchCommand::Scheduler {
            db,
            enrollments,
            due,
            concurrency,
            postgres_url,
        } => {
            let scratch = Scratch::create(db, &postgres_url).await?;
            let result =
                scheduler_bench::run(&scratch.url, db, enrollments, due, concurrency).await;
            scratch.drop_db().await;
            result
        }
        BenchCommand::Campaign {
            db,
            recipients,
            concurrency,
            postgres_url,
        } => {
            let scratch = Scratch::create(db, &postgres_url).await?;
            let result = campaign_bench::run(&scratch.url, db, recipients, concurrency).await;
            scratch.drop_db().await;
            result
        }
        BenchCommand::Discovery {
            db,
            contacts,
            postgres_url,
        } => {
            let scratch = Scratch::create(db, &postgres_url).await?;
            let result = discovery_bench::run(&scratch.url, db, contacts).await;
            scratch.drop_db().await;
            result
        }
        BenchCommand::Api {
            db,
            contacts,
            companies,
            deals,
            connections,
            seconds,
            phases,
            routes,
            keep,
            postgres_url,
        } => {
            let (scratch, seeded) = match keep {
                Some(name) => Scratch::kept(db, &postgres_url, &name).await?,
                None => (Scratch::create(db, &postgres_url).await?, false),
            };
            let opts = api_bench::Options {
                sizes: api_bench::Sizes {
                    contacts,
                    companies,
                    deals,
                },
                connections,
                seconds,
                phases,
                routes,
                seeded,
            };
            let result = api_bench::run(&scratch.url, db, opts).await;
            if scratch.kept {
                println!("kept database {}", scratch.name);
            } else {
                scratch.drop_db().await;
            }
            result
        }
    }
}

/// A database that exists for one bench run.
pub(crate) struct Scratch {
    url: DatabaseUrl,
    admin_url: Option<String>,
    name: String,
    _dir: Option<tempdir::Dir>,
    /// Kept after the run (`bench api --keep`).
    kept: bool,
}

mod api_bench;
mod campaign_bench;
mod discovery_bench;
mod scheduler_bench;

mod tempdir {
    /// A scratch directory removed on drop.
    pub struct Dir(pub std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl Scratch {
    async fn create(db: BenchDb, postgres_url: &str) -> anyhow::Result<Self> {
        let name = format!(
            "prospector_bench_{}",
            ulid::Ulid::new().to_string().to_lowercase()
        );
        match db {
            BenchDb::Sqlite => {
                let dir = std::env::temp_dir().join(&name);
                std::fs::create_dir_all(&dir)?;
                Ok(Self {
                    url: DatabaseUrl::Sqlite(format!(
                        "sqlite://{}",
                        dir.join("bench.db").display()
                    )),
                    admin_url: None,
                    name,
                    _dir: Some(tempdir::Dir(dir)),
                    kept: false,
                })
            }
            BenchDb::Postgres => {
                let mut conn = sqlx::PgConnection::connect(postgres_url)
                    .await
                    .context("TEST_DATABASE_URL: cannot reach Postgres")?;
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .execute(&mut conn)
                    .await?;
                let mut url = url::Url::parse(postgres_url)?;
                url.set_path(&name);
                Ok(Self {
                    url: DatabaseUrl::parse(url.as_str())?,
                    admin_url: Some(postgres_url.to_string()),
                    name,
                    _dir: None,
                    kept: false,
                })
            }
        }
    }

    /// A Postgres database named `name`, or a SQLite file `name/bench.db` in the temp directory,
    /// created if it does not exist; true when it existed (and so holds a seeded bench).
    async fn kept(db: BenchDb, postgres_url: &str, name: &str) -> anyhow::Result<(Self, bool)> {
        if !name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            bail!("--keep: a name of lower-case letters, digits and underscores");
        }
        if matches!(db, BenchDb::Sqlite) {
            let dir = std::env::temp_dir().join(name);
            std::fs::create_dir_all(&dir)?;
            let file = dir.join("bench.db");
            let existed = file.exists();
            let scratch = Self {
                url: DatabaseUrl::Sqlite(format!("sqlite://{}", file.display())),
                admin_url: None,
                name: file.display().to_string(),
                _dir: None,
                kept: true,
            };
            return Ok((scratch, existed));
        }
        let mut conn = sqlx::PgConnection::connect(postgres_url)
            .await
            .context("TEST_DATABASE_URL: cannot reach Postgres")?;
        let existed: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)")
                .bind(name)
                .fetch_one(&mut conn)
                .await?;
        if !existed {
            sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                .execute(&mut conn)
                .await?;
        }
        let mut url = url::Url::parse(postgres_url)?;
        url.set_path(name);
        let scratch = Self {
            url: DatabaseUrl::parse(url.as_str())?,
            admin_url: Some(postgres_url.to_string()),
            name: name.to_string(),
            _dir: None,
            kept: true,
        };
        Ok((scratch, existed))
    }

    async fn drop_db(&self) {
        if let Some(admin) = &self.admin_url
            && let Ok(mut conn) = sqlx::PgConnection::connect(admin).await
        {
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            )))
            .execute(&mut conn)
            .await;
        }
    }
}

/// Sending limits lifted and a loopback SMTP server with a mailer pointed at it (campaign and
/// scheduler benches); `concurrency` connections on both sides.
pub(crate) async fn loopback_mailing(
    db: &jobs::db::Db,
    concurrency: usize,
) -> anyhow::Result<(jobs::email::sink::Sink, jobs::mailing::Mailing)> {
    db.deliverability_set(
        &jobs::db::DeliverabilityRow {
            warmup_enabled: false,
            daily_limit: 10_000_000,
            hourly_limit: 10_000_000,
            track_opens: false,
        },
        now_ms(),
    )
    .await?;
    let sink = jobs::email::sink::Sink::start(concurrency as u32 + 2)?;
    let settings = jobs::config::MailSettings {
        send_concurrency: concurrency,
        postal_address: "Prospector Bench, 1 Loop Road, Austin, TX 78701".into(),
        ..jobs::config::MailSettings::default()
    };
    let mut key = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut key);
    let mailing = jobs::mailing::Mailing::new(
        jobs::email::transport::Mailer::smtp(&sink.url(), concurrency as u32)
            .map_err(anyhow::Error::msg)?,
        jobs::email::compose::Sender {
            from: settings.from.clone(),
            reply_to: None,
            postal_address: settings.postal_address.clone(),
            public_base_url: "http://127.0.0.1:8080".into(),
            unsubscribe_mailto: "unsubscribe@prospector.local".into(),
        },
        jobs::email::tokens::Signer::new(&key),
        &settings,
    );
    Ok((sink, mailing))
}

fn peak_rss_mb() -> f64 {
    peak_rss_mb_of("self")
}

/// Peak resident memory of a process (`self` or a pid), from /proc.
pub(crate) fn peak_rss_mb_of(pid: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| {
                l.split_whitespace()
                    .nth(1)
                    .and_then(|kb| kb.parse::<f64>().ok())
            })
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

pub(crate) fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

async fn queue_bench(
    url: &DatabaseUrl,
    which: BenchDb,
    n: usize,
    concurrency: Option<usize>,
    samples: usize,
) -> anyhow::Result<()> {
    let connections = default_db_max_connections(url);
    let db = Db::connect(url, connections).await?;
    db.migrate().await?;
    let defaults = QueueSettings::default();
    let settings_note = match concurrency {
        None => "prospector worker defaults",
        Some(_) => "concurrency given",
    };
    let concurrency = concurrency.unwrap_or(defaults.concurrency);
    let settings = QueueSettings {
        concurrency,
        ..defaults
    };
    let queue = Queue::new(db.clone(), jobs::kinds::registry(), settings);
    let payload = json!({});

    // Enqueue the backlog in batches (ids made up front: ULIDs, as enqueue makes them).
    let batch = 5_000;
    let t = Instant::now();
    let mut left = n;
    while left > 0 {
        let k = left.min(batch);
        let ids: Vec<String> = (0..k).map(|_| ulid::Ulid::new().to_string()).collect();
        db.job_insert_many(&JobInsertMany {
            ids: &ids,
            kind: Noop::NAME,
            payload: &payload,
            max_attempts: 3,
            now: now_ms(),
        })
        .await?;
        left -= k;
    }
    let enqueue_rate = n as f64 / t.elapsed().as_secs_f64();
    println!("enqueued {n} jobs in batches of {batch}: {enqueue_rate:.0} jobs/s");

    // Drain.
    let shutdown = CancellationToken::new();
    let t = Instant::now();
    let worker = worker::start(
        queue.clone(),
        worker::WorkerOptions {
            kinds: Some(vec![Noop::NAME.into()]),
            concurrency: Some(concurrency),
        },
        shutdown.clone(),
    )
    .await?;
    loop {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if t.elapsed() > Duration::from_secs(1800) {
            bail!("drain did not finish in 30 minutes");
        }
        // Counting scans the backlog's index: only once nothing is left to claim.
        if db.job_next_run_at(Noop::NAME).await?.is_some() {
            continue;
        }
        let done: i64 = db
            .job_counts()
            .await?
            .iter()
            .filter(|(k, s, _)| k == Noop::NAME && s == "succeeded")
            .map(|c| c.2)
            .sum();
        if done as usize >= n {
            break;
        }
    }
    let drain_secs = t.elapsed().as_secs_f64();
    let drain_rate = n as f64 / drain_secs;
    let rss = peak_rss_mb();
    println!(
        "drained {n} jobs in {drain_secs:.2} s: {drain_rate:.0} jobs/s \
         ({settings_note}: concurrency {concurrency}, {connections} connections), peak RSS {rss:.0} MB"
    );

    // Trickle: one job at a time into an idle worker.
    let mut started = worker.subscribe_started();
    let mut latencies = Vec::with_capacity(samples);
    for _ in 0..samples {
        tokio::time::sleep(Duration::from_millis(5)).await;
        let t = Instant::now();
        let job = queue.enqueue(NewJob::new(Noop::NAME, json!({}))).await?;
        let deadline = Duration::from_secs(10);
        loop {
            let id = tokio::time::timeout(deadline, started.recv())
                .await
                .context("a trickle job did not start within 10 s")??;
            if id == job.id {
                break;
            }
        }
        latencies.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    latencies.sort_by(|a, b| a.total_cmp(b));
    let (p50, p99, max) = (
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(0.0),
    );
    shutdown.cancel();
    worker.shutdown().await?;
    db.close().await;
    let backend = match which {
        BenchDb::Sqlite => "sqlite",
        BenchDb::Postgres => "postgres",
    };
    println!(
        "bench queue {backend}: jobs={n} concurrency={concurrency} connections={connections} ({settings_note}) drain={drain_rate:.0} jobs/s enqueue={enqueue_rate:.0} jobs/s \
         start_latency p50={p50:.2} ms p99={p99:.2} ms max={max:.2} ms peak_rss={rss:.0} MB"
    );
    Ok(())
}
