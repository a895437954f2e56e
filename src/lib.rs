//! The `prospector` command: start-up order config → pool → migrate → serve, one role per
//! subcommand (Procfile) or all of them in one process on the embedded SQLite default.

mod bench;
mod seed;

use std::process::ExitCode;
use std::sync::{Arc, OnceLock};

use anyhow::Context as _;
use clap::{Parser, Subcommand};
use jobs::config::Config;
use jobs::db::Db;
use jobs::queue::Queue;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tokio_util::sync::CancellationToken;
use tracing::info;

#[derive(Debug, Parser)]
#[command(
    name = "prospector",
    version,
    about = "Prospector CRM: api, worker and scheduler"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Benchmarks; the last line printed is the summary.
    Bench {
        #[command(subcommand)]
        command: bench::BenchCommand,
    },
    /// Print the OpenAPI document the api serves (the web app's types are generated from it).
    Openapi,
    #[command(flatten)]
    Role(Role),
}

/// The commands that run against the configured database.
#[derive(Debug, Subcommand)]
enum Role {
    /// Migrate, seed demo data into an empty database, run api + worker + scheduler (the default).
    All,
    /// Serve the HTTP API and the web app.
    Api,
    /// Run jobs.
    Worker {
        /// Only these kinds (comma-separated); all by default.
        #[arg(long, value_delimiter = ',')]
        kinds: Option<Vec<String>>,
        /// Jobs run at once per kind (default WORKER_CONCURRENCY).
        #[arg(long)]
        concurrency: Option<usize>,
    },
    /// Enqueue recurring jobs on their cron schedules.
    Scheduler,
    /// Apply database migrations.
    Migrate,
    /// Load seeds/ (the demo login and demo data).
    Seed {
        /// Also load demo data into a database that already has users.
        #[arg(long)]
        demo: bool,
    },
    /// Manage logins.
    User {
        #[command(subcommand)]
        command: UserCommand,
    },
}

#[derive(Debug, Subcommand)]
enum UserCommand {
    /// Create a login.
    Add {
        #[arg(long)]
        email: String,
        #[arg(long)]
        password: String,
        /// Full name ("First Last").
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        admin: bool,
    },
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn init_logging(json: bool) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,apalis=warn,apalis_core=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // A second init (tests, bench) is harmless; the first subscriber stays.
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// The process-wide Prometheus recorder (installed once).
pub fn metrics_handle() -> anyhow::Result<PrometheusHandle> {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    if let Some(h) = HANDLE.get() {
        return Ok(h.clone());
    }
    // Buckets, not the exporter's default summaries: rates and quantiles then add up across
    // processes (docs/monitoring/).
    let handle = PrometheusBuilder::new()
        .set_buckets(&[
            0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0,
        ])
        .context("histogram buckets")?
        .install_recorder()
        .context("installing the metrics recorder")?;
    jobs::telemetry::describe_metrics();
    Ok(HANDLE.get_or_init(|| handle).clone())
}

/// `/metrics` on `METRICS_PORT` for a process without the api, when set.
async fn serve_metrics(config: &Config, shutdown: CancellationToken) -> anyhow::Result<()> {
    let Some(port) = config.metrics_port else {
        return Ok(());
    };
    let listener = tokio::net::TcpListener::bind((config.bind, port))
        .await
        .with_context(|| format!("binding METRICS_PORT {port}"))?;
    let handle = metrics_handle()?;
    let token = config.limits.metrics_token.clone();
    tokio::spawn(async move {
        if let Err(e) = api::serve_metrics(listener, handle, token, shutdown).await {
            tracing::error!(error = %e, "metrics listener stopped");
        }
    });
    Ok(())
}

/// Config, pool, migrations: what every role starts with.
async fn connect(config: &Config) -> anyhow::Result<Db> {
    let db = Db::connect(&config.database_url, config.db_max_connections).await?;
    db.migrate().await?;
    Ok(db)
}

fn queue(db: Db, config: &Config) -> anyhow::Result<Queue> {
    let providers = jobs::providers::Providers::from_config(config).map_err(anyhow::Error::msg)?;
    Ok(Queue::new(db, jobs::kinds::registry(), config.queue.clone()).with_providers(providers))
}

/// Cancels the token on SIGTERM or Ctrl-C.
fn shutdown_on_signal() -> CancellationToken {
    let token = CancellationToken::new();
    let t = token.clone();
    tokio::spawn(async move {
        let ctrl_c = tokio::signal::ctrl_c();
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            match signal(SignalKind::terminate()) {
                Ok(mut term) => {
                    tokio::select! {
                        _ = ctrl_c => {}
                        _ = term.recv() => {}
                    }
                }
                Err(_) => {
                    let _ = ctrl_c.await;
                }
            }
        }
        #[cfg(not(unix))]
        let _ = ctrl_c.await;
        info!("shutting down");
        t.cancel();
    });
    token
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let role = match cli.command {
        Some(Command::Bench { command }) => {
            init_logging(false);
            return bench::run(command).await;
        }
        Some(Command::Openapi) => {
            println!("{}", api::openapi::pretty_document()?);
            return Ok(());
        }
        Some(Command::Role(role)) => role,
        None => Role::All,
    };
    let config = Config::from_env()?;
    init_logging(config.log_json);
    let db = connect(&config).await?;
    match role {
        Role::Migrate => {
            println!("migrations applied");
            Ok(())
        }
        Role::Seed { demo } => {
            let login = seed::run(&db, &config, demo).await?;
            if let Some(login) = login {
                println!("demo login: {} / {}", login.email, login.password);
            }
            Ok(())
        }
        Role::User {
            command:
                UserCommand::Add {
                    email,
                    password,
                    name,
                    admin,
                },
        } => {
            let (first, last) = match name.as_deref().map(str::trim) {
                Some(n) => match n.split_once(' ') {
                    Some((f, l)) => (Some(f), Some(l.trim())),
                    None => (Some(n), None),
                },
                None => (None, None),
            };
            let user = jobs::auth::user_create(
                &db,
                jobs::auth::NewUser {
                    email: &email,
                    password: &password,
                    first_name: first,
                    last_name: last,
                    is_admin: admin,
                },
            )
            .await?;
            println!(
                "created user {} ({}){}",
                user.email,
                user.id,
                if admin { " with admin rights" } else { "" }
            );
            Ok(())
        }
        Role::Api => {
            let shutdown = shutdown_on_signal();
            serve_api(queue(db, &config)?, Arc::new(config), shutdown).await
        }
        Role::Worker { kinds, concurrency } => {
            let shutdown = shutdown_on_signal();
            serve_metrics(&config, shutdown.clone()).await?;
            let handle = worker::start(
                queue(db, &config)?,
                worker::WorkerOptions { kinds, concurrency },
                shutdown.clone(),
            )
            .await?;
            shutdown.cancelled().await;
            handle.shutdown().await
        }
        Role::Scheduler => {
            let shutdown = shutdown_on_signal();
            serve_metrics(&config, shutdown.clone()).await?;
            let q = queue(db, &config)?;
            let entries = scheduler::entries(&q);
            scheduler::validate(&entries)?;
            scheduler::run(q, entries, shutdown).await?;
            Ok(())
        }
        Role::All => {
            let shutdown = shutdown_on_signal();
            let q = queue(db.clone(), &config)?;
            let entries = scheduler::entries(&q);
            scheduler::validate(&entries)?;
            let login = seed::run(&db, &config, false).await?;
            let config = Arc::new(config);
            let worker = worker::start(
                q.clone(),
                worker::WorkerOptions::default(),
                shutdown.clone(),
            )
            .await?;
            let sched = tokio::spawn(scheduler::run(q.clone(), entries, shutdown.clone()));
            let url = format!("http://{}:{}", config.bind, config.port);
            println!("Prospector is running at {url}");
            match login.or(seed::saved_login(&config)) {
                Some(l) => println!(
                    "Sign in at {url}/admin/login as {} with password {}",
                    l.email, l.password
                ),
                None => println!(
                    "Sign in at {url}/admin/login (create a login with `prospector user add`)"
                ),
            }
            let served = serve_api(q, config, shutdown.clone()).await;
            shutdown.cancel();
            let worker_result = worker.shutdown().await;
            let _ = sched.await;
            db.close().await;
            served.and(worker_result)
        }
    }
}

async fn serve_api(
    queue: Queue,
    config: Arc<Config>,
    shutdown: CancellationToken,
) -> anyhow::Result<()> {
    let addr = std::net::SocketAddr::new(config.bind, config.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("PORT/BIND: cannot listen on {addr}"))?;
    info!(%addr, "api listening");
    let state = api::AppState::new(queue, config, metrics_handle()?);
    api::serve(state, listener, shutdown).await?;
    Ok(())
}
