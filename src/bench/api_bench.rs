//! `prospector bench api`: loads a large CRM, starts `prospector api` as its own process, drives N
//! concurrent connections at each route for a fixed time and prints p50/p99 and requests/s per route,
//! and the server's peak RSS.

use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use jobs::config::DatabaseUrl;
use jobs::db::{CompanySeed, ContactSeed, Db, DealSeed};
use jobs::time::now_ms;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

use super::{BenchDb, peak_rss_mb_of, percentile};

pub struct Sizes {
    pub contacts: usize,
    pub companies: usize,
    pub deals: usize,
}

const STATES: [&str; 10] = ["TX", "TX", "TX", "LA", "AR", "MS", "NM", "OK", "AZ", "CA"];
const FIRST: [&str; 12] = [
    "James", "Maria", "Robert", "Linda", "Carlos", "Angela", "Kevin", "Rosa", "Brian", "Tamika",
    "Marcus", "Denise",
];
const LAST: [&str; 12] = [
    "Garcia", "Johnson", "Nguyen", "Williams", "Martinez", "Brown", "Davis", "Lopez", "Wilson",
    "Moore", "Clark", "Young",
];
const TITLES: [&str; 6] = [
    "CEO",
    "President",
    "VP of Sales",
    "Operations Manager",
    "Project Manager",
    "Estimator",
];
const STATUSES: [&str; 7] = [
    "new_lead",
    "email_sent",
    "meeting_scheduled",
    "qualified",
    "customer",
    "contacted",
    "discovered",
];
const STAGES: [Option<&str>; 7] = [
    None,
    Some("qualification"),
    Some("proposal"),
    Some("negotiation"),
    Some("decision"),
    Some("closed_won"),
    Some("closed_lost"),
];

async fn load(db: &Db, sizes: &Sizes) -> anyhow::Result<()> {
    let mut rng = StdRng::seed_from_u64(42);
    let now = now_ms();
    let day = 86_400_000;
    let companies: Vec<CompanySeed> = (0..sizes.companies)
        .map(|i| CompanySeed {
            id: ulid::Ulid::new().to_string(),
            name: format!("{} Bath Works {i}", LAST[i % LAST.len()]),
            industry: Some("Bath Remodeling".into()),
            company_type: Some("bath-shower".into()),
            status: "discovered".into(),
            revenue: Some(rng.random_range(1..60) * 1_000_000),
            employees: Some(rng.random_range(5..400)),
            score: rng.random_range(20..100),
            prospect_score: rng.random_range(0..100),
            city: Some("Dallas".into()),
            state: Some(STATES[i % STATES.len()].into()),
            created_at: now - rng.random_range(0..120) * day,
            ..Default::default()
        })
        .collect();
    db.seed_companies(&companies).await?;
    let contacts: Vec<ContactSeed> = (0..sizes.contacts)
        .map(|i| {
            let (f, l) = (FIRST[i % FIRST.len()], LAST[(i / FIRST.len()) % LAST.len()]);
            ContactSeed {
                id: ulid::Ulid::new().to_string(),
                company_id: companies
                    .get(i % companies.len().max(1))
                    .map(|c| c.id.clone()),
                first_name: f.into(),
                last_name: l.into(),
                email: Some(format!(
                    "{}.{}.{i}@bench.example",
                    f.to_lowercase(),
                    l.to_lowercase()
                )),
                title: Some(TITLES[i % TITLES.len()].into()),
                status: STATUSES[i % STATUSES.len()].into(),
                score: rng.random_range(30..100),
                tags: json!([]),
                created_at: now - rng.random_range(0..120) * day,
                ..Default::default()
            }
        })
        .collect();
    db.seed_contacts(&contacts).await?;
    let deals: Vec<DealSeed> = (0..sizes.deals)
        .map(|i| {
            let stage = STAGES[i % STAGES.len()];
            DealSeed {
                id: ulid::Ulid::new().to_string(),
                title: format!("Dealer agreement {i}"),
                value: rng.random_range(10..200) * 1000,
                stage: stage.map(str::to_string),
                probability: 50,
                actual_close_date: stage
                    .filter(|s| s.starts_with("closed"))
                    .map(|_| "2026-10-01".to_string()),
                company_id: companies
                    .get(i % companies.len().max(1))
                    .map(|c| c.id.clone()),
                created_at: now - rng.random_range(0..200) * day,
                ..Default::default()
            }
        })
        .collect();
    db.seed_deals(&deals).await?;
    Ok(())
}

struct ServerProc(std::process::Child);

impl Drop for ServerProc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn raw_url(url: &DatabaseUrl) -> String {
    match url {
        DatabaseUrl::Sqlite(s) => s.clone(),
        DatabaseUrl::Postgres(s) => s.expose().clone(),
    }
}

pub async fn run(
    url: &DatabaseUrl,
    which: BenchDb,
    sizes: Sizes,
    connections: usize,
    seconds: u64,
) -> anyhow::Result<()> {
    let db = Db::connect(url, 8).await?;
    db.migrate().await?;
    let t = Instant::now();
    load(&db, &sizes).await?;
    println!(
        "loaded {} companies, {} contacts, {} deals in {:.1} s",
        sizes.companies,
        sizes.contacts,
        sizes.deals,
        t.elapsed().as_secs_f64()
    );
    let password = "bench-password-123";
    jobs::auth::user_create(
        &db,
        jobs::auth::NewUser {
            email: "bench@prospector.test",
            password,
            first_name: None,
            last_name: None,
            is_admin: true,
        },
    )
    .await?;
    db.close().await;

    let port = std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port();
    let data_dir = std::env::temp_dir().join(format!("prospector_bench_api_{port}"));
    let exe = std::env::current_exe().context("finding the prospector binary")?;
    let server = ServerProc(
        std::process::Command::new(exe)
            .arg("api")
            .env("DATABASE_URL", raw_url(url))
            .env("PORT", port.to_string())
            .env("PROSPECTOR_DATA_DIR", &data_dir)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting prospector api")?,
    );
    let base = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::builder()
        .cookie_store(true)
        .pool_max_idle_per_host(connections)
        .build()?;
    let started = Instant::now();
    loop {
        if client
            .get(format!("{base}/readyz"))
            .send()
            .await
            .is_ok_and(|r| r.status().is_success())
        {
            break;
        }
        if started.elapsed() > Duration::from_secs(30) {
            bail!("the api did not become ready");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let login = client
        .post(format!("{base}/api/login"))
        .json(&json!({"email": "bench@prospector.test", "password": password}))
        .send()
        .await?;
    if !login.status().is_success() {
        bail!("bench login failed: {}", login.status());
    }

    let routes: [(&str, Vec<String>); 5] = [
        (
            "GET /api/contacts?limit=100",
            vec!["/api/contacts?limit=100".into()],
        ),
        (
            "GET /api/contacts?limit=100&q=",
            ["garcia", "maria", "ceo", "lopez.12", "xyz-none"]
                .iter()
                .map(|q| format!("/api/contacts?limit=100&q={q}"))
                .collect(),
        ),
        (
            "GET /api/companies?state=TX",
            vec!["/api/companies?state=TX".into()],
        ),
        (
            "GET /api/dashboard/metrics",
            vec!["/api/dashboard/metrics".into()],
        ),
        (
            "GET /api/pipeline/metrics",
            vec!["/api/pipeline/metrics".into()],
        ),
    ];
    let backend = match which {
        BenchDb::Sqlite => "sqlite",
        BenchDb::Postgres => "postgres",
    };
    let mut summary = Vec::new();
    let mut worst_p99: f64 = 0.0;
    for (name, paths) in routes {
        let paths = Arc::new(paths);
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let mut tasks = Vec::new();
        for worker in 0..connections {
            let (client, base, paths) = (client.clone(), base.clone(), paths.clone());
            tasks.push(tokio::spawn(async move {
                let mut lat = Vec::new();
                let mut errors = 0usize;
                let mut i = worker;
                while Instant::now() < deadline {
                    let path = &paths[i % paths.len()];
                    i += 1;
                    let t = Instant::now();
                    match client.get(format!("{base}{path}")).send().await {
                        Ok(r) if r.status().is_success() => {
                            let _ = r.bytes().await;
                            lat.push(t.elapsed().as_secs_f64() * 1000.0);
                        }
                        _ => errors += 1,
                    }
                }
                (lat, errors)
            }));
        }
        let mut all = Vec::new();
        let mut errors = 0;
        for t in tasks {
            let (lat, e) = t.await?;
            all.extend(lat);
            errors += e;
        }
        all.sort_by(|a, b| a.total_cmp(b));
        let (p50, p99) = (percentile(&all, 0.5), percentile(&all, 0.99));
        let rps = all.len() as f64 / seconds as f64;
        worst_p99 = worst_p99.max(p99);
        println!("{name}: {rps:.0} req/s p50={p50:.2} ms p99={p99:.2} ms errors={errors}");
        if errors > 0 {
            bail!("{name}: {errors} requests failed");
        }
        summary.push(format!("{}={p99:.1}ms", name.trim_start_matches("GET ")));
    }
    let rss = peak_rss_mb_of(&server.0.id().to_string());
    drop(server);
    let _ = std::fs::remove_dir_all(&data_dir);
    println!(
        "bench api {backend}: connections={connections} worst_p99={worst_p99:.1} ms server_peak_rss={rss:.0} MB p99 {}",
        summary.join(" ")
    );
    Ok(())
}
