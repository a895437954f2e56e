//! Where composed messages go: an SMTP relay (SendGrid or any other) through a pool of our own
//! lettre connections, or `.eml` files in an outbox directory, the embedded default that works
//! offline.
//!
//! Errors: [`SendError`] says whether trying later can help. SMTP 4xx replies, network trouble
//! and timeouts are `Transient` (a deferral); a 5xx reply is `Permanent` for that recipient.
//!
//! Throughput: we open each TCP connection ourselves, with TCP_NODELAY, and hand it to lettre's
//! `AsyncSmtpConnection`. lettre 0.11.23's own connector leaves Nagle on, and since it writes a
//! message and its closing `.` separately, every message then waited for the relay's delayed ACK
//! (~40 ms: 161 messages/s over 8 connections). No PIPELINING: lettre's connection cannot tell
//! whether a relay offers it, and a message costs four round trips, microseconds on loopback.

use std::path::PathBuf;
use std::time::Duration;

use deadpool::managed::{self, Metrics, PoolError, RecycleError, RecycleResult};
use lettre::Message;
use lettre::transport::smtp::authentication::{Credentials, DEFAULT_MECHANISMS};
#[allow(deprecated)] // lettre's only way to put TLS over a stream we connected ourselves.
use lettre::transport::smtp::client::AsyncNetworkStream;
use lettre::transport::smtp::client::{AsyncSmtpConnection, AsyncTokioStream, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use tokio::net::TcpStream;
use tokio_util::compat::{Compat, FuturesAsyncReadCompatExt};

/// A relay that answers nothing within this time is treated as down (a transient failure): it
/// bounds connecting (TLS and AUTH included), each send, and the liveness check.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// A pooled connection unused for longer than this gets a NOOP before it carries a message:
/// relays close idle connections, and a send on a dead one would defer its message for nothing.
const IDLE_CHECK: Duration = Duration::from_secs(5);

pub enum Mailer {
    Smtp {
        pool: managed::Pool<Relay>,
        /// `host:port`, for [`Mailer::describe`] (the relay holds credentials).
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

/// How the connection is secured, as `SMTP_URL` says.
enum Security {
    Plain,
    /// `?tls=required`: STARTTLS or no connection.
    StartTls(TlsParameters),
    /// `?tls=opportunistic`: STARTTLS when the relay offers it.
    Opportunistic(TlsParameters),
    /// `smtps://`: TLS from the first byte.
    Implicit(TlsParameters),
}

/// The relay `SMTP_URL` names; the pool's manager. No `Debug`: it holds the credentials.
pub struct Relay {
    host: String,
    port: u16,
    security: Security,
    credentials: Option<Credentials>,
    hello: ClientId,
}

/// A pooled SMTP connection.
pub struct Connection {
    smtp: AsyncSmtpConnection,
    /// False while a conversation is under way: one cut short (a timeout, a dropped send) leaves
    /// the connection mid-transaction, and it must not carry another message.
    clean: bool,
}

/// Connects to `host:port` with TCP_NODELAY set (see the module's note on throughput).
async fn connect_tcp(host: &str, port: u16) -> std::io::Result<TcpStream> {
    let tcp = TcpStream::connect((host, port)).await?;
    tcp.set_nodelay(true)?;
    Ok(tcp)
}

/// An implicit-TLS stream in the shape lettre takes for an existing connection.
#[allow(deprecated)]
#[derive(Debug)]
struct ImplicitTls(Compat<AsyncNetworkStream>);

#[allow(deprecated)]
impl AsyncTokioStream for ImplicitTls {
    fn peer_addr(&self) -> std::io::Result<std::net::SocketAddr> {
        self.0.get_ref().peer_addr()
    }
}

impl tokio::io::AsyncRead for ImplicitTls {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        tokio::io::AsyncRead::poll_read(std::pin::Pin::new(&mut self.0), cx, buf)
    }
}

impl tokio::io::AsyncWrite for ImplicitTls {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        tokio::io::AsyncWrite::poll_write(std::pin::Pin::new(&mut self.0), cx, buf)
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        tokio::io::AsyncWrite::poll_flush(std::pin::Pin::new(&mut self.0), cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        tokio::io::AsyncWrite::poll_shutdown(std::pin::Pin::new(&mut self.0), cx)
    }
}

impl Relay {
    /// Reads `smtp_url`; the error text never contains it.
    fn parse(smtp_url: &str) -> Result<Self, String> {
        let unusable =
            |why: String| format!("SMTP_URL is not a usable smtp:// or smtps:// URL ({why})");
        let url = url::Url::parse(smtp_url).map_err(|e| unusable(e.to_string()))?;
        let host = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| unusable("no host".into()))?
            .to_string();
        let tls_parameters =
            || TlsParameters::new(host.clone()).map_err(|e| unusable(e.to_string()));
        let tls = url
            .query_pairs()
            .find(|(k, _)| k == "tls")
            .map(|(_, v)| v.into_owned());
        // lettre's defaults: 25 plain, 587 submission with STARTTLS, 465 implicit TLS.
        let (security, default_port) = match (url.scheme(), tls.as_deref()) {
            ("smtp", None) => (Security::Plain, 25),
            ("smtp", Some("required")) => (Security::StartTls(tls_parameters()?), 587),
            ("smtp", Some("opportunistic")) => (Security::Opportunistic(tls_parameters()?), 587),
            ("smtps", _) => (Security::Implicit(tls_parameters()?), 465),
            (scheme, tls) => {
                return Err(unusable(format!(
                    "scheme {scheme} with tls={}",
                    tls.unwrap_or("(none)")
                )));
            }
        };
        let decode = |s: &str| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8()
                .map(|s| s.into_owned())
                .map_err(|_| unusable("credentials are not UTF-8".into()))
        };
        let credentials = match url.password() {
            Some(password) => Some(Credentials::new(decode(url.username())?, decode(password)?)),
            None => None,
        };
        // As lettre reads it: a path names us in EHLO.
        let hello = match url.path().trim_matches('/') {
            "" => ClientId::default(),
            name => ClientId::Domain(name.to_string()),
        };
        Ok(Self {
            port: url.port().unwrap_or(default_port),
            host,
            security,
            credentials,
            hello,
        })
    }

    async fn connect(&self) -> Result<AsyncSmtpConnection, SendError> {
        let endpoint = format!("{}:{}", self.host, self.port);
        let tcp = connect_tcp(&self.host, self.port)
            .await
            .map_err(|e| SendError::Transient(format!("connecting to {endpoint}: {e}")))?;
        let mut smtp = match &self.security {
            Security::Implicit(tls) => {
                #[allow(deprecated)]
                let mut stream = AsyncNetworkStream::use_existing_tokio1(Box::new(tcp));
                stream.upgrade_tls(tls.clone()).await?;
                let stream = Box::new(ImplicitTls(stream.compat()));
                AsyncSmtpConnection::connect_with_transport(stream, &self.hello).await?
            }
            _ => AsyncSmtpConnection::connect_with_transport(Box::new(tcp), &self.hello).await?,
        };
        match &self.security {
            Security::StartTls(tls) => smtp.starttls(tls.clone(), &self.hello).await?,
            Security::Opportunistic(tls) if smtp.can_starttls() => {
                smtp.starttls(tls.clone(), &self.hello).await?;
            }
            _ => {}
        }
        if let Some(credentials) = &self.credentials {
            smtp.auth(DEFAULT_MECHANISMS, credentials).await?;
        }
        Ok(smtp)
    }
}

impl managed::Manager for Relay {
    type Type = Connection;
    type Error = SendError;

    async fn create(&self) -> Result<Connection, SendError> {
        let smtp = tokio::time::timeout(SMTP_TIMEOUT, self.connect())
            .await
            .map_err(|_| {
                SendError::Transient(format!(
                    "{}:{} did not answer within {SMTP_TIMEOUT:?}",
                    self.host, self.port
                ))
            })??;
        Ok(Connection { smtp, clean: true })
    }

    async fn recycle(&self, conn: &mut Connection, metrics: &Metrics) -> RecycleResult<SendError> {
        // lettre marks a connection broken after any failed command (it has sent QUIT).
        if !conn.clean || conn.smtp.has_broken() {
            return Err(RecycleError::message("broken"));
        }
        if metrics.last_used() > IDLE_CHECK
            && !tokio::time::timeout(SMTP_TIMEOUT, conn.smtp.test_connected())
                .await
                .unwrap_or(false)
        {
            return Err(RecycleError::message("closed by the relay"));
        }
        Ok(())
    }
}

impl Mailer {
    /// `smtp_url` as lettre reads it: `smtp://user:pass@host:port` is plain SMTP unless
    /// `?tls=required` (STARTTLS) or `?tls=opportunistic`; `smtps://` is implicit TLS; a path
    /// is the EHLO name. Up to `pool_size` connections are kept open, opened on demand. The
    /// error text never contains the URL.
    pub fn smtp(smtp_url: &str, pool_size: u32) -> Result<Self, String> {
        let relay = Relay::parse(smtp_url)?;
        let endpoint = format!("{}:{}", relay.host, relay.port);
        let pool = managed::Pool::builder(relay)
            .max_size(pool_size.max(1) as usize)
            .build()
            .map_err(|e| format!("SMTP connection pool: {e}"))?;
        Ok(Self::Smtp { pool, endpoint })
    }

    /// `.eml` files in `dir`, created on first send.
    pub fn outbox(dir: PathBuf) -> Self {
        Self::Outbox(dir)
    }

    pub async fn send(&self, msg: &Message) -> Result<(), SendError> {
        match self {
            Self::Smtp { pool, endpoint } => {
                let mut conn = pool.get().await.map_err(|e| match e {
                    PoolError::Backend(e) => e,
                    other => SendError::Transient(format!("SMTP pool for {endpoint}: {other}")),
                })?;
                conn.clean = false;
                let sent = tokio::time::timeout(
                    SMTP_TIMEOUT,
                    conn.smtp.send(msg.envelope(), &msg.formatted()),
                )
                .await
                .map_err(|_| {
                    SendError::Transient(format!(
                        "{endpoint} did not answer within {SMTP_TIMEOUT:?}"
                    ))
                })?;
                sent?;
                conn.clean = true;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Without TCP_NODELAY every message waits out the relay's delayed ACK (see the module note).
    #[tokio::test]
    async fn connections_are_opened_with_nodelay() -> std::io::Result<()> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let port = listener.local_addr()?.port();
        let tcp = connect_tcp("127.0.0.1", port).await?;
        assert!(tcp.nodelay()?);
        Ok(())
    }
}
