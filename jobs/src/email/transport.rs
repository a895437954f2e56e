//! Where composed messages go: an SMTP relay (SendGrid or any other) through a pooled lettre
//! client, or `.eml` files in an outbox directory, the embedded default that works offline.
//!
//! Errors: [`SendError`] says whether trying later can help. SMTP 4xx replies, network trouble
//! and timeouts are `Transient` (a deferral); a 5xx reply is `Permanent` for that recipient.
//!
//! Throughput: lettre 0.11.23 leaves Nagle on (no TCP_NODELAY; fixed upstream after that
//! release), so on each connection the `.` that ends DATA waits for the relay's delayed ACK:
//! ~22 ms a message on Linux loopback, i.e. about 45 messages/s per pooled connection. Size the
//! pool for the rate wanted.

use std::path::PathBuf;
use std::time::Duration;

use lettre::transport::smtp::PoolConfig;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// A relay that answers nothing within this time is treated as down (a transient failure).
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

pub enum Mailer {
    Smtp {
        transport: AsyncSmtpTransport<Tokio1Executor>,
        /// `host:port`, for [`Mailer::describe`] (lettre's own `Debug` would show credentials).
        endpoint: String,
    },
    Outbox(PathBuf),
}

#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// SMTP 4xx, connection trouble, timeouts: try later.
    #[error("{0}")]
    Transient(String),
    /// SMTP 5xx for this recipient.
    #[error("{0}")]
    Permanent(String),
}

impl From<lettre::transport::smtp::Error> for SendError {
    fn from(e: lettre::transport::smtp::Error) -> Self {
        if e.is_permanent() {
            Self::Permanent(e.to_string())
        } else {
            // 4xx replies and everything that is not a reply at all (io, tls, timeout).
            Self::Transient(e.to_string())
        }
    }
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Mailer {
    /// `smtp_url` as lettre reads it: `smtp://user:pass@host:port` is plain SMTP unless
    /// `?tls=required` (STARTTLS) or `?tls=opportunistic`; `smtps://` is implicit TLS. Up to
    /// `pool_size` connections are kept open. The error text never contains the URL.
    ///
    /// Call (and drop) it inside a Tokio runtime: lettre's pool spawns tasks then.
    pub fn smtp(smtp_url: &str, pool_size: u32) -> Result<Self, String> {
        if tokio::runtime::Handle::try_current().is_err() {
            return Err("the SMTP mailer must be created inside a Tokio runtime".into());
        }
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url)
            .map_err(|e| format!("SMTP_URL is not a usable smtp:// or smtps:// URL ({e})"))?
            .pool_config(PoolConfig::new().max_size(pool_size.max(1)))
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        // from_url accepted it, so it parses; the port defaults are lettre's.
        let url = url::Url::parse(smtp_url).map_err(|e| format!("SMTP_URL: {e}"))?;
        let tls = url.query_pairs().any(|(k, _)| k == "tls");
        let port = url.port().unwrap_or(match (url.scheme(), tls) {
            ("smtps", _) => 465,
            (_, true) => 587,
            _ => 25,
        });
        let endpoint = format!("{}:{port}", url.host_str().unwrap_or_default());
        Ok(Self::Smtp {
            transport,
            endpoint,
        })
    }

    /// `.eml` files in `dir`, created on first send.
    pub fn outbox(dir: PathBuf) -> Self {
        Self::Outbox(dir)
    }

    pub async fn send(&self, msg: &Message) -> Result<(), SendError> {
        match self {
            Self::Smtp { transport, .. } => {
                transport.send_raw(msg.envelope(), &msg.formatted()).await?;
                Ok(())
            }
            Self::Outbox(dir) => write_eml(dir, msg)
                .await
                .map_err(|e| SendError::Transient(format!("outbox {}: {e}", dir.display()))),
        }
    }

    /// `smtp host:port` or `outbox /path`, for logs: no credentials.
    pub fn describe(&self) -> String {
        match self {
            Self::Smtp { endpoint, .. } => format!("smtp {endpoint}"),
            Self::Outbox(dir) => format!("outbox {}", dir.display()),
        }
    }
}

/// Writes `{dir}/{name}.eml` through a temporary file and a rename, so a reader never sees half a
/// message; the name is the ledger id (or the Message-ID) with unsafe characters replaced.
async fn write_eml(dir: &std::path::Path, msg: &Message) -> std::io::Result<()> {
    tokio::fs::create_dir_all(dir).await?;
    let headers = msg.headers();
    let id = headers
        .get_raw("X-Prospector-Message")
        .or_else(|| headers.get_raw("Message-ID"))
        .map(|id| {
            id.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .to_string()
        })
        .filter(|id| !id.is_empty())
        .unwrap_or_else(|| ulid::Ulid::new().to_string());
    let name: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let name = name.trim_start_matches('.');
    let tmp = dir.join(format!(".{name}.{}.tmp", ulid::Ulid::new()));
    tokio::fs::write(&tmp, msg.formatted()).await?;
    if let Err(e) = tokio::fs::rename(&tmp, dir.join(format!("{name}.eml"))).await {
        let _ = tokio::fs::remove_file(&tmp).await;
        return Err(e);
    }
    Ok(())
}
