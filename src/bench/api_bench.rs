//! `prospector bench api`: loads a large CRM (fixed RNG, so runs are comparable), starts `prospector
//! api` as its own process and drives N concurrent connections at route groups built from the web
//! app's main screens, with URLs varied from the seeded data (pages, filters, search terms), in three
//! phases: cache off, cache on, and cache off with a paced writer going through the api.

use std::collections::BTreeMap;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use clap::ValueEnum;
use jobs::config::DatabaseUrl;
use jobs::db::{CompanySeed, ContactSeed, Db, DealSeed};
use jobs::domain::pipeline::BOARD_STAGES as DEAL_STAGES;
use jobs::time::now_ms;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::json;

use super::{BenchDb, peak_rss_mb_of, percentile};

pub struct Sizes {
    pub contacts: usize,
    pub companies: usize,
    pub deals: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Phase {
    /// `READ_CACHE_TTL_MS=0`: every read reaches the database.
    Cold,
    /// The default read cache.
    Cached,
    /// Cache off, the same reads plus a writer at `WRITES_PER_SEC` through the api.
    Mixed,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Cold => "cold",
            Phase::Cached => "cached",
            Phase::Mixed => "mixed",
        }
    }
}

pub struct Options {
    pub sizes: Sizes,
    pub connections: usize,
    pub seconds: u64,
    pub phases: Vec<Phase>,
    /// Only the groups whose name contains this (or one of these, comma-separated).
    pub routes: Option<String>,
    /// The database already holds a seeded bench (`--keep`): measure it as it is.
    pub seeded: bool,
}

const WRITES_PER_SEC: u64 = 20;
const WARMUP: Duration = Duration::from_secs(2);
/// Contacts generated and inserted per transaction: 1M contacts never sit in memory at once.
const SEED_CHUNK: usize = 10_000;
/// Contacts remembered for the writer (ids and statuses).
const WRITE_SAMPLE: usize = 4_000;
/// Distinct URLs per varied group.
const URLS_PER_GROUP: usize = 400;
/// Page sizes the web app's screens ask for.
const CONTACTS_PAGE: usize = 50;
const COMPANIES_PAGE: usize = 48;
const CUSTOMERS_PAGE: usize = 48;
/// Cards per board column and per "Show more" (the web app's boards).
const BOARD_PAGE: usize = 25;

const STATES: [&str; 10] = ["TX", "TX", "TX", "LA", "AR", "MS", "NM", "OK", "AZ", "CA"];
/// The contacts screen's region filter (web/src/lib/rules.ts REGIONS).
const REGIONS: [&str; 8] = [
    "southwest",
    "texas",
    "louisiana",
    "arkansas",
    "mississippi",
    "new-mexico",
    "oklahoma",
    "arizona",
];
/// The contacts screen's role filter.
const ROLES: [&str; 7] = [
    "CEO",
    "President",
    "Owner",
    "Founder",
    "VP",
    "Director",
    "Manager",
];
const FIRST: [&str; 24] = [
    "James", "Maria", "Robert", "Linda", "Carlos", "Angela", "Kevin", "Rosa", "Brian", "Tamika",
    "Marcus", "Denise", "Luis", "Sarah", "Derek", "Monica", "Tyrone", "Emily", "Hector", "Grace",
    "Wade", "Priya", "Colton", "Yolanda",
];
const LAST: [&str; 24] = [
    "Garcia",
    "Johnson",
    "Nguyen",
    "Williams",
    "Martinez",
    "Brown",
    "Davis",
    "Lopez",
    "Wilson",
    "Moore",
    "Clark",
    "Young",
    "Hernandez",
    "Walker",
    "Patel",
    "Robinson",
    "Ramirez",
    "Turner",
    "Castillo",
    "Begay",
    "Fontenot",
    "Boudreaux",
    "Okafor",
    "Whitfield",
];
const COMPANY_WORDS: [&str; 6] = ["Bath", "Shower", "Home", "Remodeling", "Tile", "Renovation"];
const COMPANY_KINDS: [&str; 5] = ["Works", "Pros", "Co", "Group", "Solutions"];
const COMPANY_TYPES: [&str; 3] = ["bath-shower", "general-contractor", "kitchen-bath"];
/// The companies screen's status filter.
const COMPANY_STATUSES: [&str; 7] = [
    "discovered",
    "prospect",
    "qualified",
    "contacted",
    "interested",
    "partner",
    "not_interested",
];
const SCORE_BANDS: [&str; 3] = ["high", "medium", "low"];
const TITLES: [&str; 8] = [
    "CEO",
    "President",
    "Owner",
    "VP of Sales",
    "Operations Manager",
    "Project Manager",
    "Director of Operations",
    "Estimator",
];
/// The lead board's stages first: `pipeline-move` walks them, so the writer only moves contacts in
/// them.
const STATUSES: [&str; 8] = [
    "new_lead",
    "email_sent",
    "meeting_scheduled",
    "qualified",
    "customer",
    "contacted",
    "discovered",
    "responded",
];
/// The lead board's stages: the first four of [`STATUSES`].
const BOARD_STAGES: usize = 4;
const STAGES: [Option<&str>; 7] = [
    None,
    Some("qualification"),
    Some("proposal"),
    Some("negotiation"),
    Some("decision"),
    Some("closed_won"),
    Some("closed_lost"),
];
/// Search terms that match no row.
const NO_MATCH: [&str; 3] = ["zzqxv", "nobody-here", "qqqq.wwww"];

/// What the seed leaves for building URLs and writes.
struct Seeded {
    company_names: Vec<String>,
    /// (id, index into STATUSES), spread over the whole table.
    contacts: Vec<(String, usize)>,
}

async fn load(db: &Db, sizes: &Sizes) -> anyhow::Result<Seeded> {
    let mut rng = StdRng::seed_from_u64(42);
    let now = now_ms();
    let day = 86_400_000;
    let companies: Vec<CompanySeed> = (0..sizes.companies)
        .map(|i| CompanySeed {
            id: ulid::Ulid::new().to_string(),
            name: format!(
                "{} {} {} {i}",
                LAST.choose(&mut rng).unwrap_or(&"Acme"),
                COMPANY_WORDS.choose(&mut rng).unwrap_or(&"Bath"),
                COMPANY_KINDS.choose(&mut rng).unwrap_or(&"Co"),
            ),
            industry: Some("Bath Remodeling".into()),
            company_type: COMPANY_TYPES.choose(&mut rng).map(|t| t.to_string()),
            status: COMPANY_STATUSES
                .choose(&mut rng)
                .unwrap_or(&"discovered")
                .to_string(),
            revenue: Some(rng.random_range(1..60) * 1_000_000),
            employees: Some(rng.random_range(5..400)),
            score: rng.random_range(20..100),
            prospect_score: rng.random_range(0..100),
            city: Some("Dallas".into()),
            state: STATES.choose(&mut rng).map(|s| s.to_string()),
            created_at: now - rng.random_range(0..120) * day,
            ..Default::default()
        })
        .collect();
    for chunk in companies.chunks(SEED_CHUNK) {
        db.seed_companies(chunk).await?;
    }
    let company_id = |i: usize| {
        companies
            .get(i % companies.len().max(1))
            .map(|c| c.id.clone())
    };

    let sample_every = (sizes.contacts / WRITE_SAMPLE).max(1);
    let mut sample = Vec::new();
    let mut start = 0;
    while start < sizes.contacts {
        let end = (start + SEED_CHUNK).min(sizes.contacts);
        let chunk: Vec<ContactSeed> = (start..end)
            .map(|i| {
                let f = FIRST.choose(&mut rng).unwrap_or(&"Pat");
                let l = LAST.choose(&mut rng).unwrap_or(&"Lee");
                let status = rng.random_range(0..STATUSES.len());
                let id = ulid::Ulid::new().to_string();
                if i % sample_every == 0 {
                    sample.push((id.clone(), status));
                }
                ContactSeed {
                    id,
                    company_id: company_id(rng.random_range(0..sizes.companies.max(1))),
                    first_name: f.to_string(),
                    last_name: l.to_string(),
                    email: Some(format!(
                        "{}.{}.{i}@bench.example",
                        f.to_lowercase(),
                        l.to_lowercase()
                    )),
                    title: TITLES.choose(&mut rng).map(|t| t.to_string()),
                    status: STATUSES[status].into(),
                    score: rng.random_range(30..100),
                    tags: json!([]),
                    created_at: now - rng.random_range(0..120) * day,
                    ..Default::default()
                }
            })
            .collect();
        db.seed_contacts(&chunk).await?;
        start = end;
    }

    let mut start = 0;
    while start < sizes.deals {
        let end = (start + SEED_CHUNK).min(sizes.deals);
        let chunk: Vec<DealSeed> = (start..end)
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
                    company_id: company_id(i),
                    created_at: now - rng.random_range(0..200) * day,
                    ..Default::default()
                }
            })
            .collect();
        db.seed_deals(&chunk).await?;
        start = end;
    }
    // The history the app writes for each contact it creates (the activity feed reads it).
    db.seed_contact_activities().await?;
    // What an import of this size does when it ends: compact the search index, refresh statistics.
    db.compact_after_load().await?;
    Ok(Seeded {
        company_names: companies.into_iter().map(|c| c.name).collect(),
        contacts: sample,
    })
}

/// A kept database's sizes, company names and a sample of contacts spread over the table.
async fn read_kept(db: &Db) -> anyhow::Result<(Seeded, Sizes)> {
    // The same statements on either backend's pool.
    macro_rules! read {
        ($pool:expr) => {{
            let pool = $pool;
            let count = |table: &'static str| async move {
                sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(format!(
                    "SELECT COUNT(*) FROM {table}"
                )))
                .fetch_one(pool)
                .await
                .map(|n| usize::try_from(n).unwrap_or(0))
            };
            let sizes = Sizes {
                contacts: count("contacts").await?,
                companies: count("companies").await?,
                deals: count("deals").await?,
            };
            let company_names: Vec<String> = sqlx::query_scalar("SELECT name FROM companies")
                .fetch_all(pool)
                .await?;
            let rows: Vec<(String, String)> =
                sqlx::query_as("SELECT id, status FROM contacts ORDER BY random() LIMIT $1")
                    .bind(i64::try_from(WRITE_SAMPLE)?)
                    .fetch_all(pool)
                    .await?;
            (sizes, company_names, rows)
        }};
    }
    let (sizes, company_names, rows) = match db {
        Db::Sqlite(pools) => read!(pools.read()),
        Db::Postgres(pools) => read!(pools.read()),
    };
    let contacts = rows
        .into_iter()
        .map(|(id, status)| {
            let i = STATUSES.iter().position(|s| *s == status).unwrap_or(0);
            (id, i)
        })
        .collect();
    let seeded = Seeded {
        company_names,
        contacts,
    };
    Ok((seeded, sizes))
}

#[derive(Clone, Copy)]
enum Kind {
    List,
    Search,
    Aggregate,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::List => "list",
            Kind::Search => "search",
            Kind::Aggregate => "aggregate",
        }
    }
    /// The p99 the issue sets for a cold read (issue 22).
    fn target_ms(self) -> f64 {
        match self {
            Kind::Search => 50.0,
            Kind::List | Kind::Aggregate => 25.0,
        }
    }
}

struct Group {
    name: &'static str,
    kind: Kind,
    paths: Vec<String>,
}

/// Deepest page a reader reaches: people page through the front of a list and filter or search
/// for the rest.
const MAX_PAGE: usize = 20;

/// A random page of a list of `total` rows, most among the first five.
fn offset(rng: &mut StdRng, total: usize, page: usize) -> usize {
    let pages = (total / page).clamp(1, MAX_PAGE);
    let p = if rng.random_bool(0.7) {
        rng.random_range(0..pages.min(5))
    } else {
        rng.random_range(0..pages)
    };
    p * page
}

/// The route groups behind the web app's main screens (web/src/features/*/api), URLs drawn from
/// what was seeded so no single key is hot.
fn groups(seeded: &Seeded, sizes: &Sizes) -> Vec<Group> {
    let mut rng = StdRng::seed_from_u64(7);
    let n = URLS_PER_GROUP;
    let mut many = |f: &mut dyn FnMut(&mut StdRng) -> String| -> Vec<String> {
        (0..n).map(|_| f(&mut rng)).collect()
    };
    let contact_term = |rng: &mut StdRng| -> String {
        let f = FIRST.choose(rng).unwrap_or(&"Pat").to_lowercase();
        let l = LAST.choose(rng).unwrap_or(&"Lee").to_lowercase();
        match rng.random_range(0..10) {
            0..=2 => f,
            3..=5 => l,
            6 => format!("{f}%20{l}"),
            7 => format!("{f}.{l}"),
            8 => format!("{f}.{l}.{}", rng.random_range(0..sizes.contacts.max(1))),
            _ => NO_MATCH.choose(rng).unwrap_or(&"zzqxv").to_string(),
        }
    };
    let company_term = |rng: &mut StdRng| -> String {
        let name = seeded
            .company_names
            .choose(rng)
            .cloned()
            .unwrap_or_default()
            .to_lowercase();
        let words: Vec<&str> = name.split(' ').collect();
        match rng.random_range(0..10) {
            0..=3 => words.first().copied().unwrap_or("garcia").to_string(),
            4..=5 => words.get(..2).map_or(name.clone(), |w| w.join("%20")),
            6..=7 => words.get(1..3).map_or(name.clone(), |w| w.join("%20")),
            8 => name.replace(' ', "%20"),
            _ => NO_MATCH.choose(rng).unwrap_or(&"zzqxv").to_string(),
        }
    };
    vec![
        Group {
            name: "contacts pages",
            kind: Kind::List,
            paths: many(&mut |rng| {
                format!(
                    "/api/contacts?limit={CONTACTS_PAGE}&offset={}",
                    offset(rng, sizes.contacts, CONTACTS_PAGE)
                )
            }),
        },
        Group {
            name: "contacts filters",
            kind: Kind::List,
            paths: many(&mut |rng| {
                let mut url = format!("/api/contacts?limit={CONTACTS_PAGE}");
                if rng.random_bool(0.6) {
                    url += &format!("&status={}", STATUSES.choose(rng).unwrap_or(&"new_lead"));
                }
                if rng.random_bool(0.5) {
                    url += &format!("&region={}", REGIONS.choose(rng).unwrap_or(&"texas"));
                }
                if rng.random_bool(0.4) {
                    url += &format!("&role={}", ROLES.choose(rng).unwrap_or(&"CEO"));
                }
                let off = offset(rng, sizes.contacts / 20, CONTACTS_PAGE);
                url + &format!("&offset={off}")
            }),
        },
        Group {
            name: "contacts search",
            kind: Kind::Search,
            paths: many(&mut |rng| {
                format!(
                    "/api/contacts?limit={CONTACTS_PAGE}&offset=0&q={}",
                    contact_term(rng)
                )
            }),
        },
        Group {
            name: "companies list",
            kind: Kind::List,
            paths: many(&mut |rng| {
                let mut url = format!("/api/companies?limit={COMPANIES_PAGE}");
                if rng.random_bool(0.5) {
                    url += &format!("&state={}", STATES.choose(rng).unwrap_or(&"TX"));
                }
                if rng.random_bool(0.4) {
                    url += &format!(
                        "&status={}",
                        COMPANY_STATUSES.choose(rng).unwrap_or(&"qualified")
                    );
                }
                if rng.random_bool(0.3) {
                    url += &format!("&scoreBand={}", SCORE_BANDS.choose(rng).unwrap_or(&"high"));
                }
                let off = offset(rng, sizes.companies / 4, COMPANIES_PAGE);
                url + &format!("&offset={off}")
            }),
        },
        Group {
            name: "companies search",
            kind: Kind::Search,
            paths: many(&mut |rng| {
                format!(
                    "/api/companies?limit={COMPANIES_PAGE}&offset=0&q={}",
                    company_term(rng)
                )
            }),
        },
        Group {
            name: "customers",
            kind: Kind::List,
            paths: many(&mut |rng| {
                let off = offset(rng, sizes.contacts / STATUSES.len(), CUSTOMERS_PAGE);
                format!("/api/customers?q=&limit={CUSTOMERS_PAGE}&offset={off}")
            }),
        },
        // The boards ask for what the web app's boards ask for: a first page per column, then
        // "Show more" pages of one column (deals by stage, leads by status).
        Group {
            name: "deals board",
            kind: Kind::Aggregate,
            paths: vec![format!("/api/deals/board?limit={BOARD_PAGE}")],
        },
        Group {
            name: "lead board",
            kind: Kind::Aggregate,
            paths: vec![format!("/api/leads/board?limit={BOARD_PAGE}")],
        },
        Group {
            name: "board columns",
            kind: Kind::List,
            paths: many(&mut |rng| {
                let off = BOARD_PAGE * rng.random_range(1..=8);
                if rng.random_bool(0.5) {
                    let stage = DEAL_STAGES.choose(rng).unwrap_or(&"proposal");
                    format!("/api/deals?stage={stage}&limit={BOARD_PAGE}&offset={off}")
                } else {
                    let status = STATUSES[..BOARD_STAGES].choose(rng).unwrap_or(&"new_lead");
                    format!("/api/contacts?status={status}&limit={BOARD_PAGE}&offset={off}")
                }
            }),
        },
        Group {
            name: "dashboard metrics",
            kind: Kind::Aggregate,
            paths: vec!["/api/dashboard/metrics".into()],
        },
        Group {
            name: "campaign performance",
            kind: Kind::Aggregate,
            paths: [7, 30, 90]
                .iter()
                .map(|t| format!("/api/dashboard/campaign-performance?timeframe={t}"))
                .collect(),
        },
        Group {
            name: "dashboard regional",
            kind: Kind::Aggregate,
            paths: vec!["/api/dashboard/regional".into()],
        },
        Group {
            name: "activity feed",
            kind: Kind::Aggregate,
            paths: vec![
                "/api/activities?limit=5".into(),
                "/api/activities?limit=15".into(),
            ],
        },
        Group {
            name: "email analytics",
            kind: Kind::Aggregate,
            paths: vec!["/api/email/analytics?timeframe=30".into()],
        },
        Group {
            name: "customer report",
            kind: Kind::Aggregate,
            paths: STATES[2..]
                .iter()
                .map(|s| format!("/api/companies/report?state={s}&limit=24"))
                .collect(),
        },
        Group {
            name: "customer stats",
            kind: Kind::Aggregate,
            paths: vec!["/api/customers/stats".into()],
        },
        Group {
            name: "pipeline metrics",
            kind: Kind::Aggregate,
            paths: vec!["/api/pipeline/metrics".into()],
        },
        Group {
            name: "pipeline prospects",
            kind: Kind::Aggregate,
            paths: vec!["/api/pipeline/prospects".into()],
        },
        Group {
            name: "ai analytics",
            kind: Kind::Aggregate,
            paths: vec!["/api/ai/analytics".into()],
        },
        // The automation screen's overview tiles.
        Group {
            name: "automation figures",
            kind: Kind::Aggregate,
            paths: [
                "/api/campaign-metrics",
                "/api/scoring-insights",
                "/api/payment/analytics",
                "/api/calendar/stats",
            ]
            .iter()
            .map(|p| p.to_string())
            .collect(),
        },
    ]
}

struct ServerProc(std::process::Child);

impl ServerProc {
    fn peak_rss_mb(&self) -> f64 {
        peak_rss_mb_of(&self.0.id().to_string())
    }
}

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

const EMAIL: &str = "bench@prospector.test";
const PASSWORD: &str = "bench-password-123";

/// A running api and a client signed in to it.
struct Server {
    proc: ServerProc,
    base: String,
    client: reqwest::Client,
    data_dir: std::path::PathBuf,
}

impl Server {
    async fn start(url: &DatabaseUrl, cache: bool, connections: usize) -> anyhow::Result<Self> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let data_dir = std::env::temp_dir().join(format!("prospector_bench_api_{port}"));
        let exe = std::env::current_exe().context("finding the prospector binary")?;
        let mut cmd = std::process::Command::new(exe);
        cmd.arg("api")
            .env("DATABASE_URL", raw_url(url))
            .env("PORT", port.to_string())
            .env("PROSPECTOR_DATA_DIR", &data_dir)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if cache {
            cmd.env_remove("READ_CACHE_TTL_MS");
        } else {
            cmd.env("READ_CACHE_TTL_MS", "0");
        }
        let proc = ServerProc(cmd.spawn().context("starting prospector api")?);
        let base = format!("http://127.0.0.1:{port}");
        let client = http_client(connections)?;
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
        sign_in(&client, &base).await?;
        Ok(Self {
            proc,
            base,
            client,
            data_dir,
        })
    }

    fn stop(self) -> f64 {
        let rss = self.proc.peak_rss_mb();
        drop(self.proc);
        let _ = std::fs::remove_dir_all(&self.data_dir);
        rss
    }
}

fn http_client(connections: usize) -> anyhow::Result<reqwest::Client> {
    Ok(reqwest::Client::builder()
        .cookie_store(true)
        .pool_max_idle_per_host(connections + 8)
        .build()?)
}

async fn sign_in(client: &reqwest::Client, base: &str) -> anyhow::Result<()> {
    let login = client
        .post(format!("{base}/api/login"))
        .json(&json!({"email": EMAIL, "password": PASSWORD}))
        .send()
        .await?;
    if !login.status().is_success() {
        bail!("bench login failed: {}", login.status());
    }
    Ok(())
}

#[derive(Default)]
struct Stats {
    count: usize,
    p50: f64,
    p99: f64,
    errors: usize,
    /// The first failure, to say why.
    first_error: Option<String>,
}

fn stats(mut lat: Vec<f64>, errors: usize, first_error: Option<String>) -> Stats {
    lat.sort_by(|a, b| a.total_cmp(b));
    Stats {
        count: lat.len(),
        p50: percentile(&lat, 0.5),
        p99: percentile(&lat, 0.99),
        errors,
        first_error,
    }
}

/// One request; the latency in ms, or why it failed.
async fn timed(req: reqwest::RequestBuilder) -> Result<f64, String> {
    let t = Instant::now();
    match req.send().await {
        Ok(r) if r.status().is_success() => {
            r.bytes().await.map_err(|e| e.to_string())?;
            Ok(t.elapsed().as_secs_f64() * 1000.0)
        }
        Ok(r) => Err(format!("{} {}", r.status(), r.url().path())),
        Err(e) => Err(e.to_string()),
    }
}

/// `connections` clients each reading random URLs of `paths` back to back until `until`; requests
/// that finish from `measure_from` on count.
async fn read_load(
    server: &Server,
    paths: &Arc<Vec<String>>,
    connections: usize,
    measure_from: Instant,
    until: Instant,
) -> anyhow::Result<Stats> {
    let mut tasks = Vec::new();
    for worker in 0..connections {
        let (client, base, paths) = (server.client.clone(), server.base.clone(), paths.clone());
        tasks.push(tokio::spawn(async move {
            let mut rng = StdRng::seed_from_u64(worker as u64);
            let (mut lat, mut errors, mut first_error) = (Vec::new(), 0usize, None);
            while Instant::now() < until {
                let path = paths.choose(&mut rng).map_or("/readyz", String::as_str);
                match timed(client.get(format!("{base}{path}"))).await {
                    // By finish time: a route slower than the warm-up still gets its samples.
                    Ok(ms) if Instant::now() >= measure_from => lat.push(ms),
                    Ok(_) => {}
                    Err(e) => {
                        errors += 1;
                        first_error.get_or_insert(e);
                    }
                }
            }
            (lat, errors, first_error)
        }));
    }
    let (mut all, mut errors, mut first_error) = (Vec::new(), 0, None);
    for t in tasks {
        let (lat, e, fe) = t.await?;
        all.extend(lat);
        errors += e;
        first_error = first_error.or(fe);
    }
    Ok(stats(all, errors, first_error))
}

/// The mixed phase's writer: contact edits, lead-board moves and notes through the api, paced.
struct Writer {
    /// (id, index into STATUSES) as this writer left them; only it writes, so they stay true.
    contacts: Mutex<Vec<(String, usize)>>,
    next: Mutex<usize>,
}

impl Writer {
    /// The request for write number `n`: an edit, a status move or a note, in turn.
    fn request(&self, client: &reqwest::Client, base: &str, n: usize) -> reqwest::RequestBuilder {
        let mut contacts = self.contacts.lock().unwrap_or_else(|e| e.into_inner());
        let len = contacts.len().max(1);
        // Spread over the sample so one contact is never written twice at once.
        let pick = (n / 3 * 7919) % len;
        let on_board: Vec<usize> = (0..contacts.len())
            .filter(|&i| contacts[i].1 < BOARD_STAGES)
            .collect();
        match n % 3 {
            1 if !on_board.is_empty() => {
                // Forward from the board's first stage, back from its last, else either way.
                let (id, stage) = &mut contacts[on_board[pick % on_board.len()]];
                let forward = *stage == 0 || (*stage < BOARD_STAGES - 1 && n.is_multiple_of(2));
                *stage = if forward { *stage + 1 } else { *stage - 1 };
                client
                    .post(format!("{base}/api/contacts/{id}/pipeline-move"))
                    .json(&json!({"direction": if forward { "forward" } else { "back" }}))
            }
            0 | 1 => {
                let id = &contacts[pick].0;
                client.put(format!("{base}/api/contacts/{id}"))
                    .json(&json!({"title": TITLES[n % TITLES.len()], "phone": format!("555-01{:02}", n % 100)}))
            }
            _ => {
                let id = &contacts[pick].0;
                client
                    .put(format!("{base}/api/contacts/{id}"))
                    .json(&json!({"notes": format!("Bench note {n}: called, left a voicemail.")}))
            }
        }
    }

    /// Issues WRITES_PER_SEC writes a second until `until`, each on its own task so a slow write
    /// never delays the next (the rate is the server's load, not a closed loop); latencies count
    /// from `measure_from`. It runs on a thread and runtime of its own, signed in as its own
    /// session, as a user's browser is its own client: on the readers' runtime each write's
    /// answer would wait behind 50 readers' tasks in the bench process, not in the api.
    fn start(
        self: Arc<Self>,
        base: String,
        measure_from: Instant,
        until: Instant,
    ) -> std::thread::JoinHandle<anyhow::Result<WriteResults>> {
        std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?
                .block_on(async move {
                    let client = http_client(4)?;
                    sign_in(&client, &base).await?;
                    self.run(client, base, measure_from, until).await
                })
        })
    }

    async fn run(
        self: Arc<Self>,
        client: reqwest::Client,
        base: String,
        measure_from: Instant,
        until: Instant,
    ) -> anyhow::Result<WriteResults> {
        let mut tick = tokio::time::interval(Duration::from_millis(1000 / WRITES_PER_SEC));
        let mut tasks = Vec::new();
        while Instant::now() < until {
            tick.tick().await;
            let n = {
                let mut next = self.next.lock().unwrap_or_else(|e| e.into_inner());
                *next += 1;
                *next
            };
            let req = self.request(&client, &base, n);
            let measured = Instant::now() >= measure_from;
            tasks.push(tokio::spawn(async move { (measured, timed(req).await) }));
        }
        let (mut lat, mut errors, mut first_error) = (Vec::new(), 0, None);
        for t in tasks {
            match t.await? {
                (true, Ok(ms)) => lat.push(ms),
                (false, Ok(_)) => {}
                (_, Err(e)) => {
                    errors += 1;
                    first_error.get_or_insert(e);
                }
            }
        }
        Ok((lat, errors, first_error))
    }
}

/// The writes' latencies, failures and the first failure.
type WriteResults = (Vec<f64>, usize, Option<String>);

struct Row {
    name: &'static str,
    p99: f64,
}

fn print_row(name: &str, kind: &str, target: &str, secs: u64, s: &Stats, note: &str) {
    println!(
        "  {name:<22} {kind:<9} {target:>6} {:>8.0} {:>8.2} {:>8.2} {:>6}{note}",
        s.count as f64 / secs as f64,
        s.p50,
        s.p99,
        s.errors
    );
}

fn worst(rows: &[Row]) -> Option<&Row> {
    rows.iter().max_by(|a, b| a.p99.total_cmp(&b.p99))
}

pub async fn run(url: &DatabaseUrl, which: BenchDb, opts: Options) -> anyhow::Result<()> {
    let Options {
        sizes,
        connections,
        seconds,
        phases,
        routes,
        seeded: reuse,
    } = opts;
    let db = Db::connect(url, 8).await?;
    let t = Instant::now();
    db.migrate().await?;
    let (seeded, sizes) = if reuse {
        let kept = read_kept(&db).await?;
        // The last run's writes left dead rows (the rollups most) that autovacuum clears on a
        // server that runs it, and the test machines' Postgres does not: measure each run from the
        // same state.
        db.compact_after_load().await?;
        println!(
            "reused {} companies, {} contacts, {} deals (migrated and vacuumed in {:.1} s)",
            kept.1.companies,
            kept.1.contacts,
            kept.1.deals,
            t.elapsed().as_secs_f64()
        );
        kept
    } else {
        let t = Instant::now();
        let seeded = load(&db, &sizes).await?;
        println!(
            "loaded {} companies, {} contacts, {} deals in {:.1} s (bench process peak RSS {:.0} MB)",
            sizes.companies,
            sizes.contacts,
            sizes.deals,
            t.elapsed().as_secs_f64(),
            super::peak_rss_mb()
        );
        jobs::auth::user_create(
            &db,
            jobs::auth::NewUser {
                email: EMAIL,
                password: PASSWORD,
                first_name: None,
                last_name: None,
                is_admin: true,
            },
        )
        .await?;
        (seeded, sizes)
    };
    db.close().await;

    let groups: Vec<Group> = groups(&seeded, &sizes)
        .into_iter()
        .filter(|g| {
            routes
                .as_deref()
                .is_none_or(|r| r.split(',').any(|r| g.name.contains(r.trim())))
        })
        .collect();
    if groups.is_empty() {
        bail!("--routes matches no route group");
    }
    let writer = Arc::new(Writer {
        contacts: Mutex::new(seeded.contacts),
        next: Mutex::new(0),
    });
    let backend = match which {
        BenchDb::Sqlite => "sqlite",
        BenchDb::Postgres => "postgres",
    };
    let mut results: BTreeMap<&str, Vec<Row>> = BTreeMap::new();
    let mut cold_p99: BTreeMap<&str, f64> = BTreeMap::new();
    let mut writes: Vec<f64> = Vec::new();
    let (mut write_errors, mut write_first_error) = (0, None);
    let mut peak_rss: f64 = 0.0;
    let mut failures = Vec::new();
    for phase in phases {
        let server = Server::start(url, phase == Phase::Cached, connections).await?;
        println!(
            "\nphase {} ({}; {connections} connections, {seconds} s per group after {} s warm-up{}):",
            phase.name(),
            if phase == Phase::Cached {
                "READ_CACHE_TTL_MS unset"
            } else {
                "READ_CACHE_TTL_MS=0"
            },
            WARMUP.as_secs(),
            if phase == Phase::Mixed {
                format!(", {WRITES_PER_SEC} writes/s through the api")
            } else {
                String::new()
            }
        );
        println!(
            "  {:<22} {:<9} {:>6} {:>8} {:>8} {:>8} {:>6}",
            "group", "kind", "target", "req/s", "p50 ms", "p99 ms", "errors"
        );
        let rows = results.entry(phase.name()).or_default();
        for g in &groups {
            let paths = Arc::new(g.paths.clone());
            let measure_from = Instant::now() + WARMUP;
            let until = measure_from + Duration::from_secs(seconds);
            let writing = (phase == Phase::Mixed).then(|| {
                writer
                    .clone()
                    .start(server.base.clone(), measure_from, until)
            });
            let s = read_load(&server, &paths, connections, measure_from, until).await?;
            let target = g.kind.target_ms();
            let mut note = String::new();
            match phase {
                Phase::Cold => {
                    cold_p99.insert(g.name, s.p99);
                    if s.p99 > target {
                        note = "  over target".into();
                    }
                }
                Phase::Mixed => {
                    if let Some(cold) = cold_p99.get(g.name) {
                        note = format!("  {:.1}x cold", s.p99 / cold.max(0.001));
                    }
                }
                Phase::Cached => {}
            }
            print_row(
                g.name,
                g.kind.label(),
                &format!("{target:.0}"),
                seconds,
                &s,
                &note,
            );
            if let Some(e) = &s.first_error {
                failures.push(format!("{} {}: {e}", phase.name(), g.name));
            }
            rows.push(Row {
                name: g.name,
                p99: s.p99,
            });
            if let Some(w) = writing {
                let (lat, errors, first_error) = tokio::task::spawn_blocking(move || w.join())
                    .await?
                    .map_err(|_| anyhow::anyhow!("the writer panicked"))??;
                writes.extend(&lat);
                let ws = stats(lat, errors, first_error);
                print_row("  writes", "write", "50", seconds, &ws, "");
                write_errors += ws.errors;
                write_first_error = write_first_error.or(ws.first_error);
            }
        }
        peak_rss = peak_rss.max(server.stop());
    }
    if let Some(e) = write_first_error {
        failures.push(format!("mixed writes ({write_errors} failed): {e}"));
    }
    let fmt = |phase: &str| {
        results
            .get(phase)
            .and_then(|r| worst(r))
            .map_or("-".to_string(), |r| format!("{:.1} ms ({})", r.p99, r.name))
    };
    let write_p99 = if writes.is_empty() {
        "-".to_string()
    } else {
        format!("{:.1} ms", stats(writes, 0, None).p99)
    };
    println!(
        "\nbench api {backend}: contacts={} connections={connections} worst_cold_p99={} worst_mixed_p99={} write_p99={write_p99} cached_worst_p99={} server_peak_rss={peak_rss:.0} MB",
        sizes.contacts,
        fmt("cold"),
        fmt("mixed"),
        fmt("cached"),
    );
    if !failures.is_empty() {
        bail!("requests failed: {}", failures.join("; "));
    }
    Ok(())
}
