//! IMAP for mailbox sync (issue 24 §5): connect (implicit TLS, STARTTLS, or plain text only to
//! this machine or with `IMAP_ALLOW_PLAINTEXT=true`), log in with an app password or XOAUTH2, and
//! read a folder sparingly: the UIDs after the last one read, their few headers first
//! (`BODY.PEEK[HEADER.FIELDS (...)]`, never marking anything seen), a body only when asked, and
//! capped in size. Certificates are checked against the platform's roots, as for SMTP.
//!
//! Errors say what the user can fix ("the server refused the user name or password") and whether a
//! retry may help ([`ImapError::is_transient`]).

use std::fmt::Debug;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use async_imap::extensions::idle::IdleResponse;
use async_imap::imap_proto::{MailboxDatum, Response};
use futures::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::time::timeout;
use tokio_rustls::TlsConnector;
use tokio_rustls::rustls::ClientConfig;
use tokio_rustls::rustls::pki_types::ServerName;

use crate::sealed::Sealer;

/// Each network step (connect and log in, select, one fetch) gets this long.
const STEP_TIMEOUT: Duration = Duration::from_secs(30);
/// The headers read to decide whether a message is ours.
const HEADER_FIELDS: &str = "MESSAGE-ID IN-REPLY-TO REFERENCES FROM SUBJECT CONTENT-TYPE \
                             AUTO-SUBMITTED X-AUTOREPLY X-AUTORESPOND";
/// UIDs fetched per command, so a command line stays short.
const UID_CHUNK: usize = 100;

/// How the connection is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tls {
    /// TLS from the first byte (port 993).
    Implicit,
    /// Plain text, then `STARTTLS` before logging in (port 143); refused if the server cannot.
    StartTls,
    /// No TLS: only to this machine, or with `IMAP_ALLOW_PLAINTEXT=true`.
    None,
}

impl Tls {
    /// The names [`Self::parse`] reads, as a mailbox stores them.
    pub const NAMES: [&'static str; 3] = ["implicit", "starttls", "none"];

    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "implicit" => Some(Self::Implicit),
            "starttls" => Some(Self::StartTls),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

/// How to log in.
pub enum Credentials {
    /// `LOGIN` with an app password.
    Password(String),
    /// `AUTHENTICATE XOAUTH2` with an OAuth access token (Gmail, Microsoft 365).
    XOAuth2(String),
}

/// Where and as whom.
pub struct Endpoint<'a> {
    pub host: &'a str,
    pub port: u16,
    pub tls: Tls,
    pub username: &'a str,
}

#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error(
        "Unencrypted IMAP is allowed only to this machine: choose SSL/TLS or STARTTLS \
         (or set IMAP_ALLOW_PLAINTEXT=true)"
    )]
    Plaintext,
    #[error("Could not reach {0}")]
    Connect(String),
    #[error("Secure connection failed: {0}")]
    Tls(String),
    #[error("The server refused the user name or password ({0})")]
    Auth(String),
    #[error("The folder {0:?} does not exist on this server")]
    Folder(String),
    #[error("The IMAP server did not answer within {0} seconds")]
    Timeout(u64),
    #[error("The IMAP server answered unexpectedly: {0}")]
    Protocol(String),
}

impl ImapError {
    /// Whether trying again later may succeed (a server down or slow), as opposed to a setting
    /// the user must change.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Connect(_) | Self::Timeout(_) | Self::Protocol(_)
        )
    }
}

/// The IMAP side of a process: the sealer of the mailboxes' passwords and the plain-text rule.
pub struct Imap {
    pub sealer: Sealer,
    allow_plaintext: bool,
}

impl Imap {
    pub fn new(sealer: Sealer, allow_plaintext: bool) -> Self {
        Self {
            sealer,
            allow_plaintext,
        }
    }

    /// Why this endpoint may not be used, if it may not.
    pub fn refusal(&self, host: &str, tls: Tls) -> Option<ImapError> {
        (tls == Tls::None && !self.allow_plaintext && !is_loopback(host))
            .then_some(ImapError::Plaintext)
    }

    /// Connects and logs in.
    pub async fn connect(
        &self,
        ep: &Endpoint<'_>,
        creds: &Credentials,
    ) -> Result<Connection, ImapError> {
        if let Some(e) = self.refusal(ep.host, ep.tls) {
            return Err(e);
        }
        step(open(ep, creds)).await?
    }
}

/// `localhost` or a loopback address.
pub fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// A stream the IMAP client runs over: plain TCP or TLS.
pub trait ImapIo: AsyncRead + AsyncWrite + Unpin + Send + Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + Debug> ImapIo for T {}

type Session = async_imap::Session<Box<dyn ImapIo>>;
type Client = async_imap::Client<Box<dyn ImapIo>>;

async fn step<T>(f: impl Future<Output = T>) -> Result<T, ImapError> {
    timeout(STEP_TIMEOUT, f)
        .await
        .map_err(|_| ImapError::Timeout(STEP_TIMEOUT.as_secs()))
}

fn protocol(e: async_imap::error::Error) -> ImapError {
    ImapError::Protocol(e.to_string())
}

fn tls_connector() -> Result<TlsConnector, ImapError> {
    use rustls_platform_verifier::BuilderVerifierExt;
    let provider = Arc::new(tokio_rustls::rustls::crypto::aws_lc_rs::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .and_then(|b| b.with_platform_verifier())
        .map_err(|e| ImapError::Tls(e.to_string()))?
        .with_no_client_auth();
    Ok(TlsConnector::from(Arc::new(config)))
}

async fn tls_wrap<S: ImapIo + 'static>(tcp: S, host: &str) -> Result<Box<dyn ImapIo>, ImapError> {
    let name = ServerName::try_from(host.to_string())
        .map_err(|_| ImapError::Tls(format!("{host:?} is not a valid server name")))?;
    let stream = tls_connector()?
        .connect(name, tcp)
        .await
        .map_err(|e| ImapError::Tls(e.to_string()))?;
    Ok(Box::new(stream))
}

/// Reads the server's greeting (`* OK ...`).
async fn greeting(client: &mut Client) -> Result<(), ImapError> {
    match client.read_response().await {
        Ok(Some(_)) => Ok(()),
        Ok(None) => Err(ImapError::Connect(
            "the server closed the connection".into(),
        )),
        Err(e) => Err(ImapError::Connect(e.to_string())),
    }
}

/// The SASL XOAUTH2 response: the token once; after that (the server's error challenge) an empty
/// response, so the server answers NO instead of waiting.
struct XOAuth2<'a> {
    user: &'a str,
    token: &'a str,
    sent: bool,
}

impl async_imap::Authenticator for XOAuth2<'_> {
    type Response = String;
    fn process(&mut self, _challenge: &[u8]) -> String {
        if std::mem::replace(&mut self.sent, true) {
            return String::new();
        }
        format!("user={}\x01auth=Bearer {}\x01\x01", self.user, self.token)
    }
}

async fn open(ep: &Endpoint<'_>, creds: &Credentials) -> Result<Connection, ImapError> {
    let where_ = format!("{}:{}", ep.host, ep.port);
    let tcp = TcpStream::connect((ep.host, ep.port))
        .await
        .map_err(|e| ImapError::Connect(format!("{where_} ({e})")))?;
    let mut client: Client = match ep.tls {
        Tls::Implicit => async_imap::Client::new(tls_wrap(tcp, ep.host).await?),
        Tls::None => async_imap::Client::new(Box::new(tcp)),
        Tls::StartTls => {
            let mut plain: Client = async_imap::Client::new(Box::new(tcp));
            greeting(&mut plain).await?;
            plain
                .run_command_and_check_ok("STARTTLS", None)
                .await
                .map_err(|e| ImapError::Tls(format!("the server refused STARTTLS ({e})")))?;
            // The greeting is not repeated after STARTTLS.
            let client: Client =
                async_imap::Client::new(tls_wrap(plain.into_inner(), ep.host).await?);
            return login(client, ep, creds).await;
        }
    };
    greeting(&mut client).await?;
    login(client, ep, creds).await
}

async fn login(
    client: Client,
    ep: &Endpoint<'_>,
    creds: &Credentials,
) -> Result<Connection, ImapError> {
    let result = match creds {
        Credentials::Password(password) => client.login(ep.username, password).await,
        Credentials::XOAuth2(token) => {
            let auth = XOAuth2 {
                user: ep.username,
                token,
                sent: false,
            };
            client.authenticate("XOAUTH2", auth).await
        }
    };
    let mut session = result.map_err(|(e, _)| match e {
        async_imap::error::Error::No(m) | async_imap::error::Error::Bad(m) => ImapError::Auth(m),
        other => protocol(other),
    })?;
    let idle = session
        .capabilities()
        .await
        .map_err(protocol)?
        .has_str("IDLE");
    Ok(Connection { session, idle })
}

/// A folder as selected.
#[derive(Debug, Clone, Copy)]
pub struct Folder {
    pub uid_validity: u32,
    /// The next UID the server will give (when it says).
    pub uid_next: Option<u32>,
    pub exists: u32,
}

/// The headers of one message.
#[derive(Debug, Clone)]
pub struct Headers {
    pub uid: u32,
    /// The raw header lines asked for.
    pub raw: Vec<u8>,
}

/// A logged-in connection.
pub struct Connection {
    session: Session,
    idle: bool,
}

impl Connection {
    /// Whether the server supports IDLE.
    pub fn can_idle(&self) -> bool {
        self.idle
    }

    /// Selects `folder` read-only (`EXAMINE`: nothing gets marked).
    pub async fn examine(&mut self, folder: &str) -> Result<Folder, ImapError> {
        let mailbox = step(self.session.examine(folder))
            .await?
            .map_err(|e| match e {
                async_imap::error::Error::No(_) => ImapError::Folder(folder.to_string()),
                other => protocol(other),
            })?;
        let uid_validity = mailbox
            .uid_validity
            .ok_or_else(|| ImapError::Protocol("the folder has no UIDVALIDITY".into()))?;
        Ok(Folder {
            uid_validity,
            uid_next: mailbox.uid_next,
            exists: mailbox.exists,
        })
    }

    /// UIDs above `after`, ascending, at most `limit` (the oldest first, so the next run goes on
    /// from where this one stopped). With `since` (e.g. `1-Nov-2026`), only messages that arrived
    /// on or after that day.
    pub async fn uids_after(
        &mut self,
        after: u32,
        since: Option<&str>,
        limit: usize,
    ) -> Result<Vec<u32>, ImapError> {
        let from = after.saturating_add(1);
        let query = match since {
            Some(day) => format!("UID {from}:* SINCE {day}"),
            None => format!("UID {from}:*"),
        };
        let found = step(self.session.uid_search(query))
            .await?
            .map_err(protocol)?;
        // `n:*` always matches the last message, even below `n`.
        let mut uids: Vec<u32> = found.into_iter().filter(|u| *u > after).collect();
        uids.sort_unstable();
        uids.truncate(limit);
        Ok(uids)
    }

    /// The header fields we read, for these UIDs.
    pub async fn headers(&mut self, uids: &[u32]) -> Result<Vec<Headers>, ImapError> {
        let mut out = Vec::with_capacity(uids.len());
        for chunk in uids.chunks(UID_CHUNK) {
            let set = uid_set(chunk);
            let query = format!("(UID FLAGS BODY.PEEK[HEADER.FIELDS ({HEADER_FIELDS})])");
            let fetched: Vec<_> = step(async {
                self.session
                    .uid_fetch(&set, &query)
                    .await?
                    .try_collect::<Vec<_>>()
                    .await
            })
            .await?
            .map_err(protocol)?;
            for f in fetched {
                if let (Some(uid), Some(raw)) = (f.uid, f.header()) {
                    out.push(Headers {
                        uid,
                        raw: raw.to_vec(),
                    });
                }
            }
        }
        out.sort_by_key(|h| h.uid);
        Ok(out)
    }

    /// The first `max_bytes` of one message (a reply's text and a report's parts come first).
    pub async fn body(&mut self, uid: u32, max_bytes: u32) -> Result<Option<Vec<u8>>, ImapError> {
        let query = format!("(UID BODY.PEEK[]<0.{max_bytes}>)");
        let fetched: Vec<_> = step(async {
            self.session
                .uid_fetch(uid.to_string(), &query)
                .await?
                .try_collect::<Vec<_>>()
                .await
        })
        .await?
        .map_err(protocol)?;
        Ok(fetched
            .iter()
            .find(|f| f.uid == Some(uid))
            .and_then(|f| f.body())
            .map(<[u8]>::to_vec))
    }

    /// Waits in IDLE up to `wait` for the folder to change; `true` when new messages arrived.
    /// The connection comes back either way (ready for commands).
    pub async fn idle(self, wait: Duration) -> Result<(Connection, bool), ImapError> {
        let idle = self.idle;
        let mut handle = self.session.idle();
        step(handle.init()).await?.map_err(protocol)?;
        let (until, _stop) = handle.wait_with_timeout(wait);
        let outcome = timeout(wait + STEP_TIMEOUT, until)
            .await
            .map_err(|_| ImapError::Timeout((wait + STEP_TIMEOUT).as_secs()))?
            .map_err(protocol)?;
        let arrived = match outcome {
            IdleResponse::NewData(data) => matches!(
                data.parsed(),
                Response::MailboxData(MailboxDatum::Exists(_) | MailboxDatum::Recent(_))
            ),
            IdleResponse::Timeout | IdleResponse::ManualInterrupt => false,
        };
        let session = step(handle.done()).await?.map_err(protocol)?;
        Ok((Connection { session, idle }, arrived))
    }

    /// Logs out; a failure here changes nothing for the caller.
    pub async fn logout(mut self) {
        let _ = step(self.session.logout()).await;
    }
}

/// `1,2,5` for the UIDs (consecutive runs are not worth folding for chunks of 100).
fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// IMAP's date for `SINCE`: `7-Nov-2026`.
pub fn imap_day(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .format("%-d-%b-%Y")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_and_plaintext() {
        assert!(is_loopback("127.0.0.1"));
        assert!(is_loopback("localhost"));
        assert!(is_loopback("[::1]"));
        assert!(!is_loopback("imap.gmail.com"));
        assert!(!is_loopback("10.0.0.1"));
        let imap = Imap::new(Sealer::new(b"k"), false);
        assert!(imap.refusal("imap.example.com", Tls::None).is_some());
        assert!(imap.refusal("127.0.0.1", Tls::None).is_none());
        assert!(imap.refusal("imap.example.com", Tls::Implicit).is_none());
        let allowed = Imap::new(Sealer::new(b"k"), true);
        assert!(allowed.refusal("imap.example.com", Tls::None).is_none());
    }

    #[test]
    fn days_and_sets() {
        // 2026-11-07T10:00:00Z
        assert_eq!(imap_day(1_794_045_600_000), "7-Nov-2026");
        assert_eq!(uid_set(&[3, 4, 9]), "3,4,9");
        assert!(ImapError::Connect("x".into()).is_transient());
        assert!(!ImapError::Auth("x".into()).is_transient());
    }
}
