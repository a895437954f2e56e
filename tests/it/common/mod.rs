//! Test harness: every test runs once per backend, each run with a database of its own (a temp
//! SQLite file, or a Postgres database created on `TEST_DATABASE_URL` and dropped afterwards), the
//! real api on port 0, and optionally the real worker and scheduler in-process or as processes.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod dns;
pub mod hostile;
pub mod imap;
pub mod rollups;
pub mod smtp;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use jobs::config::{Config, DatabaseUrl, QueueSettings, Secret};
use jobs::db::Db;
use jobs::queue::Queue;
use serde_json::{Value, json};
use sqlx::Connection;
use tokio_util::sync::CancellationToken;

pub const ADMIN_EMAIL: &str = "admin@test.local";
pub const USER_EMAIL: &str = "user@test.local";
pub const PASSWORD: &str = "correct-horse-battery";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Runs `$name(TestDb)` once per backend, as `sqlite::$name` and `postgres::$name`.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    if let Some(db) = $crate::common::TestDb::new($crate::common::Backend::Sqlite).await {
                        super::$name(db).await
                    }
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    if let Some(db) = $crate::common::TestDb::new($crate::common::Backend::Postgres).await {
                        super::$name(db).await
                    }
                }
            )*
        }
    };
}

/// Runs one statement written with `$n` placeholders on either backend.
#[macro_export]
macro_rules! exec {
    ($db:expr, $sql:expr $(, $arg:expr)* $(,)?) => {
        match $db {
            jobs::db::Db::Sqlite(pool) => {
                sqlx::query(sqlx::AssertSqlSafe($sql.replace('$', "?")))$(.bind($arg))*
                    .execute(pool.write()).await.expect("sqlite exec");
            }
            jobs::db::Db::Postgres(pool) => {
                sqlx::query(sqlx::AssertSqlSafe($sql.to_string()))$(.bind($arg))*
                    .execute(pool.write()).await.expect("postgres exec");
            }
        }
    };
}

/// One scalar from a query written with `$n` placeholders.
#[macro_export]
macro_rules! scalar {
    ($db:expr, $ty:ty, $sql:expr $(, $arg:expr)* $(,)?) => {
        match $db {
            jobs::db::Db::Sqlite(pool) => sqlx::query_scalar::<_, $ty>(sqlx::AssertSqlSafe($sql.replace('$', "?")))
                $(.bind($arg))*.fetch_one(pool.write()).await.expect("sqlite scalar"),
            jobs::db::Db::Postgres(pool) => sqlx::query_scalar::<_, $ty>(sqlx::AssertSqlSafe($sql.to_string()))
                $(.bind($arg))*.fetch_one(pool.write()).await.expect("postgres scalar"),
        }
    };
}

/// A database for one test, removed when dropped.
pub struct TestDb {
    pub backend: Backend,
    pub url: DatabaseUrl,
    pub raw_url: String,
    pub dir: PathBuf,
    pg_admin: Option<(String, String)>,
}

fn pg_admin_url() -> String {
    std::env::var("TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into())
}

impl TestDb {
    /// `None` only when Postgres is unreachable outside CI (said loudly); under `CI=true` it fails.
    pub async fn new(backend: Backend) -> Option<Self> {
        let id = ulid::Ulid::new().to_string().to_lowercase();
        let dir = std::env::temp_dir().join(format!("prospector_test_{id}"));
        std::fs::create_dir_all(&dir).ok()?;
        match backend {
            Backend::Sqlite => {
                let raw_url = format!("sqlite://{}", dir.join("test.db").display());
                Some(Self {
                    backend,
                    url: DatabaseUrl::Sqlite(raw_url.clone()),
                    raw_url,
                    dir,
                    pg_admin: None,
                })
            }
            Backend::Postgres => {
                let admin = pg_admin_url();
                let mut conn = match sqlx::PgConnection::connect(&admin).await {
                    Ok(c) => c,
                    Err(e) => {
                        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
                        assert!(
                            !ci,
                            "Postgres unreachable at TEST_DATABASE_URL under CI=true: {e}"
                        );
                        eprintln!(
                            "\n!!!!! POSTGRES UNREACHABLE ({e}): the Postgres half of this test did NOT run !!!!!\n"
                        );
                        return None;
                    }
                };
                let name = format!("prospector_test_{id}");
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .execute(&mut conn)
                    .await
                    .ok()?;
                let mut url = url::Url::parse(&admin).ok()?;
                url.set_path(&name);
                let raw_url = url.to_string();
                Some(Self {
                    backend,
                    url: DatabaseUrl::parse(&raw_url).ok()?,
                    raw_url,
                    dir,
                    pg_admin: Some((admin, name)),
                })
            }
        }
    }

    pub async fn connect(&self) -> Db {
        let db = Db::connect(&self.url, 16).await.expect("connect");
        db.migrate().await.expect("migrate");
        db
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
        if let Some((admin, name)) = self.pg_admin.take() {
            // Drop runs outside async; a thread with its own runtime does the async drop.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .ok()?;
                rt.block_on(async {
                    let mut conn = sqlx::PgConnection::connect(&admin).await.ok()?;
                    sqlx::query(sqlx::AssertSqlSafe(format!(
                        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                    )))
                    .execute(&mut conn)
                    .await
                    .ok()
                })
            })
            .join();
        }
    }
}

/// Settings tuned so timing-based guarantees show within seconds.
pub fn fast_settings() -> QueueSettings {
    QueueSettings {
        heartbeat_interval: Duration::from_millis(200),
        heartbeat_timeout: Duration::from_millis(1500),
        shutdown_grace: Duration::from_millis(1500),
        backoff_base: Duration::from_millis(400),
        poll_interval: Duration::from_millis(50),
        concurrency: 8,
        ..QueueSettings::default()
    }
}

/// The same settings as environment variables, for child processes.
pub fn fast_env() -> Vec<(&'static str, String)> {
    vec![
        ("JOB_HEARTBEAT_INTERVAL_MS", "200".into()),
        ("JOB_HEARTBEAT_TIMEOUT_MS", "1500".into()),
        ("JOB_SHUTDOWN_GRACE_MS", "1500".into()),
        ("JOB_BACKOFF_BASE_MS", "400".into()),
        ("JOB_POLL_INTERVAL_MS", "50".into()),
        ("RUST_LOG", "info".into()),
    ]
}

pub struct AppOptions {
    pub worker: bool,
    pub settings: QueueSettings,
    pub admin_emails: Vec<String>,
    pub login_attempts_per_minute: u32,
    pub leads_per_minute: u32,
    pub web_dist: Option<PathBuf>,
    /// Providers to use instead of the embedded ones.
    pub providers: Option<jobs::providers::Providers>,
    /// Zero by default, so tests that write around the api read fresh figures.
    pub read_cache_ttl: Duration,
    /// How long AI requests wait for their job before answering 202.
    pub ai_wait: Duration,
    /// Trusted proxies, the lead form's global ceiling, the login failure delay.
    pub limits: jobs::config::LimitSettings,
}

impl Default for AppOptions {
    fn default() -> Self {
        Self {
            worker: true,
            settings: fast_settings(),
            admin_emails: Vec::new(),
            login_attempts_per_minute: 1000,
            leads_per_minute: 1000,
            web_dist: None,
            providers: None,
            read_cache_ttl: Duration::ZERO,
            ai_wait: Duration::from_secs(25),
            limits: Default::default(),
        }
    }
}

/// The api (and by default a worker) on port 0, with an admin and an ordinary user.
pub struct TestApp {
    pub base: String,
    pub db: Db,
    pub queue: Queue,
    pub config: Arc<Config>,
    shutdown: CancellationToken,
    worker: Option<worker::WorkerHandle>,
    server: tokio::task::JoinHandle<()>,
}

impl TestApp {
    pub async fn spawn(tdb: &TestDb, opts: AppOptions) -> Self {
        let db = tdb.connect().await;
        let config = Arc::new(Config {
            database_url: tdb.url.clone(),
            bind: [127, 0, 0, 1].into(),
            port: 0,
            data_dir: tdb.dir.clone(),
            public_base_url: "http://127.0.0.1".into(),
            secret_key: Secret::new(vec![7u8; 64]),
            admin_emails: opts.admin_emails.clone(),
            web_dist: opts
                .web_dist
                .clone()
                .unwrap_or_else(|| tdb.dir.join("no-dist")),
            log_json: false,
            queue: opts.settings.clone(),
            login_attempts_per_minute: opts.login_attempts_per_minute,
            leads_per_minute: opts.leads_per_minute,
            providers: jobs::config::ProviderSettings {
                ai_wait: opts.ai_wait,
                ..Default::default()
            },
            read_cache_ttl: opts.read_cache_ttl,
            db_max_connections: 16,
            metrics_port: None,
            mail: Default::default(),
            limits: opts.limits.clone(),
        });
        let mut queue = Queue::new(db.clone(), jobs::kinds::registry(), opts.settings.clone());
        if let Some(p) = opts.providers.clone() {
            queue = queue.with_providers(p);
        }
        for (email, admin) in [(ADMIN_EMAIL, true), (USER_EMAIL, false)] {
            jobs::auth::user_create(
                &db,
                jobs::auth::NewUser {
                    email,
                    password: PASSWORD,
                    first_name: Some("Test"),
                    last_name: Some(if admin { "Admin" } else { "User" }),
                    is_admin: admin,
                },
            )
            .await
            .expect("create user");
        }
        let shutdown = CancellationToken::new();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("addr"));
        let state = api::AppState::new(
            queue.clone(),
            config.clone(),
            prospector::metrics_handle().expect("metrics"),
        );
        let s = shutdown.clone();
        let server = tokio::spawn(async move {
            let _ = api::serve(state, listener, s).await;
        });
        let worker = if opts.worker {
            Some(
                worker::start(
                    queue.clone(),
                    worker::WorkerOptions::default(),
                    shutdown.clone(),
                )
                .await
                .expect("worker"),
            )
        } else {
            None
        };
        Self {
            base,
            db,
            queue,
            config,
            shutdown,
            worker,
            server,
        }
    }

    /// The api and a worker that send mail to `sink`.
    pub async fn mailing_to(tdb: &TestDb, sink: &smtp::SmtpSink) -> Self {
        Self::spawn(
            tdb,
            AppOptions {
                providers: Some(
                    jobs::providers::Providers::embedded().with_mailing(sink.mailing(None)),
                ),
                ..Default::default()
            },
        )
        .await
    }

    /// Sets the sending limits (an admin call), so a test's sends are not held back.
    pub async fn set_send_limits(&self, admin: &reqwest::Client, hourly: i64, daily: i64) {
        let (status, body) = send(
            admin
                .put(self.url("/api/deliverability-settings"))
                .json(&json!({ "hourlyLimit": hourly, "dailyLimit": daily })),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }

    /// Turns open tracking on (off by default: docs/email.md, "Deliverability").
    pub async fn track_opens(&self, admin: &reqwest::Client) {
        let (status, body) = send(
            admin
                .put(self.url("/api/deliverability-settings"))
                .json(&json!({ "trackOpens": true })),
        )
        .await;
        assert_eq!(
            (status, body["trackOpens"].as_bool()),
            (200, Some(true)),
            "{body}"
        );
    }

    /// The api without a worker: jobs stay where they are until a test starts one.
    pub async fn idle(tdb: &TestDb) -> Self {
        Self::spawn(
            tdb,
            AppOptions {
                worker: false,
                ..Default::default()
            },
        )
        .await
    }

    /// `GET path` as `client`, expecting 200 and JSON.
    pub async fn get_json(&self, client: &reqwest::Client, path: &str) -> Value {
        let res = client.get(self.url(path)).send().await.expect("get");
        assert_eq!(res.status(), 200, "GET {path}");
        res.json().await.expect("json")
    }

    pub async fn start_worker(&mut self) {
        self.worker = Some(
            worker::start(
                self.queue.clone(),
                worker::WorkerOptions::default(),
                self.shutdown.clone(),
            )
            .await
            .expect("worker"),
        );
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base, path)
    }

    /// A client with its own cookie jar, not signed in.
    pub fn anonymous(&self) -> reqwest::Client {
        reqwest::Client::builder()
            .cookie_store(true)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client")
    }

    /// A client signed in through `path` (`/api/admin/login` or `/api/login`).
    pub async fn signed_in(&self, path: &str, email: &str) -> reqwest::Client {
        let client = self.anonymous();
        let res = client
            .post(self.url(path))
            .json(&json!({ "email": email, "password": PASSWORD }))
            .send()
            .await
            .expect("login request");
        assert_eq!(res.status(), 200, "login of {email} at {path}");
        client
    }

    pub async fn admin(&self) -> reqwest::Client {
        self.signed_in("/api/admin/login", ADMIN_EMAIL).await
    }

    pub async fn user(&self) -> reqwest::Client {
        self.signed_in("/api/login", USER_EMAIL).await
    }

    /// Enqueues through `POST /api/ops/jobs`; returns the job id.
    pub async fn enqueue(&self, client: &reqwest::Client, body: Value) -> String {
        let res = client
            .post(self.url("/api/ops/jobs"))
            .json(&body)
            .send()
            .await
            .expect("enqueue");
        assert_eq!(res.status(), 202, "enqueue {body}");
        let v: Value = res.json().await.expect("json");
        v["jobId"].as_str().expect("jobId").to_string()
    }

    pub async fn job(&self, client: &reqwest::Client, id: &str) -> Value {
        let res = client
            .get(self.url(&format!("/api/jobs/{id}")))
            .send()
            .await
            .expect("get job");
        assert_eq!(res.status(), 200);
        res.json().await.expect("json")
    }

    /// Polls the job until `pred` holds; panics with the last state after `timeout`.
    pub async fn wait_job(
        &self,
        client: &reqwest::Client,
        id: &str,
        timeout: Duration,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        let started = Instant::now();
        loop {
            let job = self.job(client, id).await;
            if pred(&job) {
                return job;
            }
            assert!(
                started.elapsed() < timeout,
                "timed out waiting on job: {job}"
            );
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    pub async fn wait_status(
        &self,
        client: &reqwest::Client,
        id: &str,
        status: &str,
        timeout: Duration,
    ) -> Value {
        self.wait_job(client, id, timeout, |j| j["status"] == status)
            .await
    }

    pub async fn stop(mut self) {
        self.shutdown.cancel();
        if let Some(w) = self.worker.take() {
            let _ = w.shutdown().await;
        }
        let _ = (&mut self.server).await;
        self.db.close().await;
    }
}

/// A `prospector` process (killed if still running when dropped).
pub struct Proc {
    pub child: Child,
    pub log: PathBuf,
}

impl Proc {
    pub fn spawn(tdb: &TestDb, args: &[&str], env: &[(&str, String)]) -> Self {
        let log = tdb
            .dir
            .join(format!("{}-{}.log", args.join("-"), ulid::Ulid::new()));
        let out = std::fs::File::create(&log).expect("log file");
        let err = out.try_clone().expect("log file");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_prospector"));
        cmd.args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("DATABASE_URL", &tdb.raw_url)
            .env("PROSPECTOR_DATA_DIR", tdb.dir.join("data"))
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err);
        for (k, v) in env {
            cmd.env(k, v);
        }
        Self {
            child: cmd.spawn().expect("spawn prospector"),
            log,
        }
    }

    pub fn signal(&self, sig: i32) {
        let rc = send_signal(self.child.id() as i32, sig);
        assert_eq!(rc, 0, "kill({sig})");
    }

    /// Waits for exit up to `timeout`; `None` if still running.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<std::process::ExitStatus> {
        let started = Instant::now();
        while started.elapsed() < timeout {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    pub fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

fn send_signal(pid: i32, sig: i32) -> i32 {
    // The workspace forbids unsafe code; the `kill` command does the same job.
    let status = Command::new("kill")
        .arg(format!("-{sig}"))
        .arg(pid.to_string())
        .status();
    if status.map(|s| s.success()).unwrap_or(false) {
        0
    } else {
        -1
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until `f` returns `Some`, polling every 25 ms.
pub async fn eventually<T, F, Fut>(timeout: Duration, what: &str, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let started = Instant::now();
    loop {
        if let Some(v) = f().await {
            return v;
        }
        assert!(started.elapsed() < timeout, "timed out: {what}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// One number from a query without parameters, on either backend (counts in assertions).
pub async fn scalar(db: &Db, sql: &'static str) -> i64 {
    match db {
        Db::Sqlite(p) => sqlx::query_scalar(sql)
            .fetch_one(p.write())
            .await
            .expect("scalar query"),
        Db::Postgres(p) => sqlx::query_scalar(sql)
            .fetch_one(p.write())
            .await
            .expect("scalar query"),
    }
}

/// Sends a request; returns the status and the JSON body (`null` when empty).
pub async fn send(req: reqwest::RequestBuilder) -> (u16, Value) {
    let res = req.send().await.expect("request");
    let status = res.status().as_u16();
    let text = res.text().await.expect("body");
    let v = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
    };
    (status, v)
}
