//! Outbound webhooks' HTTP (docs/webhooks.md): one signed POST per attempt, the retries being the
//! queue's (each attempt is recorded for the screen). Unlike the other providers' calls
//! ([`super::http::send`]) the receiver is whatever URL an admin typed, so the client defends the
//! network it runs in:
//! - every address a name resolves to is checked when connecting (the resolver below), so DNS
//!   rebinding cannot slip a private address in after a check; a URL's literal IP is checked
//!   before the request; private, loopback, link-local, CGNAT, multicast and unspecified addresses
//!   are refused unless `WEBHOOK_ALLOW_PRIVATE=true`;
//! - redirects are not followed (a 3xx is a failed attempt) and no proxy from the environment is
//!   used (it would resolve names where we cannot check them);
//! - one timeout covers connecting, sending and reading, and only the first 4 KB of an answer are
//!   read.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

use super::http::{HttpPolicy, parse_retry_after};
use crate::domain::webhooks::{RESPONSE_KEPT, TIMEOUT, clip, refused_ip, url_send_problem};
use crate::sealed::Sealer;

/// The webhook sender of a process, and the sealer of the endpoints' secrets.
pub struct Webhooks {
    /// Seals and opens the endpoints' signing secrets (keyed by `SECRET_KEY`).
    pub sealer: Sealer,
    allow_private: bool,
    policy: HttpPolicy,
    /// `None` when the TLS backend could not start: every attempt then fails, saying so.
    client: Result<reqwest::Client, String>,
}

/// What one attempt got.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    /// The receiver's HTTP status, when it answered.
    pub status: Option<u16>,
    /// `Retry-After` of a 429 or 503, in seconds.
    pub retry_after: Option<Duration>,
    /// The first 4 KB of its body (lossy UTF-8).
    pub response: Option<String>,
    /// Why there is no 2xx: transport trouble, a timeout, a refused address, a redirect.
    pub error: Option<String>,
    /// The address is refused: another attempt would be refused too.
    pub refused: bool,
    pub elapsed: Duration,
}

impl Answer {
    pub fn delivered(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }
}

/// The address a name resolved to is not one a delivery may reach.
#[derive(Debug, thiserror::Error)]
#[error("{host} resolves to {what} ({ip}): refused ({flag} is off)")]
pub(crate) struct Refused {
    host: String,
    ip: std::net::IpAddr,
    what: &'static str,
    /// The setting that would allow it.
    flag: &'static str,
}

/// The [`Refused`] among a request error's causes, if an address was refused.
pub(crate) fn refused_in(e: &reqwest::Error) -> Option<&Refused> {
    std::iter::successors(Some(e as &(dyn std::error::Error + 'static)), |e| {
        e.source()
    })
    .find_map(|e| e.downcast_ref::<Refused>())
}

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The system resolver, keeping only the addresses a request may reach (also used by the
/// website enrichment's client, `super::website`).
pub(crate) struct GuardedResolver {
    /// Every address is allowed (`WEBHOOK_ALLOW_PRIVATE`).
    pub(crate) allow_private: bool,
    /// Loopback addresses are allowed, nothing else that [`refused_ip`] refuses (a local test site).
    pub(crate) allow_loopback: bool,
    /// The setting named when an address is refused.
    pub(crate) flag: &'static str,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let (allow_private, allow_loopback, flag) =
            (self.allow_private, self.allow_loopback, self.flag);
        let host = name.as_str().to_string();
        Box::pin(async move {
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            if allow_private {
                return Ok::<Addrs, BoxError>(Box::new(found.into_iter()));
            }
            let mut first_refused = None;
            let allowed: Vec<SocketAddr> = found
                .into_iter()
                .filter(|a| match refused_ip(a.ip()) {
                    None => true,
                    Some(_) if allow_loopback && a.ip().is_loopback() => true,
                    Some(what) => {
                        first_refused.get_or_insert((a.ip(), what));
                        false
                    }
                })
                .collect();
            match (allowed.is_empty(), first_refused) {
                (true, Some((ip, what))) => Err(Refused {
                    host,
                    ip,
                    what,
                    flag,
                }
                .into()),
                _ => Ok(Box::new(allowed.into_iter()) as Addrs),
            }
        })
    }
}

impl Webhooks {
    pub fn new(sealer: Sealer, allow_private: bool) -> Self {
        let policy = HttpPolicy {
            timeout: TIMEOUT,
            // The queue retries, with a schedule of its own (`domain::webhooks::retry_delay`).
            retries: 0,
            ..HttpPolicy::default()
        };
        Self {
            sealer,
            allow_private,
            client: build_client(allow_private, policy.timeout),
            policy,
        }
    }

    /// The same sender with another time limit per attempt (tests).
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.policy.timeout = timeout;
        self.client = build_client(self.allow_private, timeout);
        self
    }

    /// `WEBHOOK_ALLOW_PRIVATE`: private addresses and plain http are allowed.
    pub fn allow_private(&self) -> bool {
        self.allow_private
    }

    /// POSTs `body` with `headers` to `url` once.
    pub async fn post(
        &self,
        url: &str,
        headers: &[(&'static str, String)],
        body: String,
    ) -> Answer {
        let started = Instant::now();
        let mut answer = self.attempt(url, headers, body).await;
        answer.elapsed = started.elapsed();
        answer
    }

    async fn attempt(&self, url: &str, headers: &[(&'static str, String)], body: String) -> Answer {
        let failed = |error: String, refused: bool| Answer {
            error: Some(error),
            refused,
            ..Answer::default()
        };
        let client = match &self.client {
            Ok(c) => c,
            Err(e) => return failed(e.clone(), false),
        };
        // The URL was checked when saved; checked again, as the flag may have changed since
        // (a name's addresses are the resolver's to check).
        if let Some(problem) = url_send_problem(url, self.allow_private) {
            return failed(problem, true);
        }
        let mut request = client
            .post(url)
            .timeout(self.policy.timeout)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(body);
        for (name, value) in headers {
            request = request.header(*name, value);
        }
        let read = async {
            let mut res = request.send().await?;
            let status = res.status();
            let retry_after = parse_retry_after(res.headers());
            let mut kept: Vec<u8> = Vec::new();
            // Only what the screen shows is read; the rest is left unread with the connection.
            while kept.len() < RESPONSE_KEPT {
                match res.chunk().await? {
                    Some(chunk) => kept.extend_from_slice(&chunk),
                    None => break,
                }
            }
            Ok::<_, reqwest::Error>((status, retry_after, kept))
        };
        match read.await {
            Ok((status, retry_after, kept)) => {
                let text = String::from_utf8_lossy(&kept);
                let response = clip(&text, RESPONSE_KEPT).to_string();
                let error = (!status.is_success()).then(|| {
                    if status.is_redirection() {
                        format!("HTTP {}: redirects are not followed", status.as_u16())
                    } else {
                        format!("HTTP {}", status.as_u16())
                    }
                });
                Answer {
                    status: Some(status.as_u16()),
                    retry_after: matches!(status.as_u16(), 429 | 503)
                        .then_some(retry_after)
                        .flatten(),
                    response: (!response.is_empty()).then_some(response),
                    error,
                    ..Answer::default()
                }
            }
            Err(e) => match refused_in(&e) {
                Some(r) => failed(r.to_string(), true),
                None if e.is_timeout() => failed(
                    format!("timed out after {} s", self.policy.timeout.as_secs_f32()),
                    false,
                ),
                None => failed(describe(&e), false),
            },
        }
    }
}

fn build_client(allow_private: bool, timeout: Duration) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .dns_resolver(Arc::new(GuardedResolver {
            allow_private,
            allow_loopback: false,
            flag: "WEBHOOK_ALLOW_PRIVATE",
        }))
        .connect_timeout(timeout)
        .user_agent(concat!("Prospector-Webhooks/", env!("CARGO_PKG_VERSION")))
        .build()
        .map_err(|e| format!("the webhook HTTP client could not start: {e}"))
}

/// A transport error with its causes (reqwest's own text is often just "error sending request").
pub(crate) fn describe(e: &reqwest::Error) -> String {
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    clip(&text, 500).to_string()
}
