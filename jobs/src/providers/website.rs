//! Fetching a company's own website for enrichment (docs/providers.md, "Website enrichment"). The
//! address comes from a record anyone may have typed, so the client defends the network it runs
//! in, with the resolver and address check of outbound webhooks (`super::webhooks`):
//! - http and https only, no user name or password in the URL;
//! - every address a name resolves to is checked when connecting, so DNS rebinding cannot slip a
//!   private address in after a check, and a literal IP is checked before the request: private,
//!   loopback, link-local, unique-local, CGNAT, multicast and reserved addresses are refused
//!   (loopback only with `WEBSITE_ALLOW_LOOPBACK=true`, for a local test site);
//! - redirects are followed by hand, at most [`MAX_REDIRECTS`], each hop checked again (scheme,
//!   address, robots.txt); no proxy from the environment (it would resolve names unchecked);
//! - robots.txt (RFC 9309) is read once per origin and honoured: a 4xx means no rules, a 5xx or
//!   an unreachable file means the site is left alone;
//! - each answer is cut at `max_bytes` (1 MB) and each request has a time limit.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use texting_robots::Robot;
use url::Url;

use super::webhooks::{GuardedResolver, describe, refused_in};
use crate::domain::webhooks::refused_ip;

/// How the requests introduce themselves; robots.txt rules for this agent (or `*`) apply.
pub const ROBOTS_AGENT: &str = "ProspectorBot";
const USER_AGENT: &str = concat!(
    "ProspectorBot/",
    env!("CARGO_PKG_VERSION"),
    " (company website enrichment)"
);
/// Redirect hops followed for one page.
pub const MAX_REDIRECTS: usize = 5;
/// The part of a robots.txt read (RFC 9309 asks parsers to read at least 500 KiB).
const MAX_ROBOTS_BYTES: usize = 512 * 1024;

/// Size and time caps of one site visit.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Bytes of one page read; the rest is cut off.
    pub max_bytes: usize,
    /// One request, from connecting to the last byte read.
    pub timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 1024 * 1024,
            timeout: Duration::from_secs(10),
        }
    }
}

/// Why a page was not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The address or the scheme is not one enrichment may reach.
    #[error("{0}")]
    Refused(String),
    #[error("robots.txt does not allow {0}")]
    Disallowed(String),
    #[error("the site answered HTTP {0}")]
    Status(u16),
    #[error("the site did not answer within {0} s")]
    Timeout(u64),
    #[error("the site could not be reached: {0}")]
    Transport(String),
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
}

impl FetchError {
    /// Worth another try later: rate limits, server errors, timeouts, connection trouble.
    pub fn is_transient(&self) -> bool {
        match self {
            Self::Status(s) => *s == 429 || *s >= 500,
            Self::Timeout(_) | Self::Transport(_) => true,
            Self::Refused(_) | Self::Disallowed(_) | Self::TooManyRedirects => false,
        }
    }
}

/// A page as read.
#[derive(Debug, Clone)]
pub struct Page {
    /// Where it was read from, after redirects.
    pub url: Url,
    pub is_html: bool,
    /// Lossy UTF-8 of at most `max_bytes`.
    pub body: String,
    /// The answer was longer than `max_bytes` and was cut.
    pub truncated: bool,
}

/// The website client of a process.
pub struct WebsiteClient {
    allow_loopback: bool,
    limits: Limits,
    /// `Err` when the TLS backend could not start: every visit then fails, saying so.
    client: Result<reqwest::Client, String>,
}

/// One answer, unfollowed.
struct Answer {
    status: u16,
    location: Option<String>,
    is_html: bool,
    body: Vec<u8>,
    truncated: bool,
}

/// What robots.txt says about one origin.
enum Rules {
    /// No rules (no file, or a 4xx).
    Any,
    Parsed(Box<Robot>),
    /// A 5xx or an unreachable file: stay away (RFC 9309 §2.3.1.4).
    None(String),
}

impl WebsiteClient {
    pub fn new(allow_loopback: bool) -> Self {
        Self::with_limits(allow_loopback, Limits::default())
    }

    pub fn with_limits(allow_loopback: bool, limits: Limits) -> Self {
        Self {
            allow_loopback,
            limits,
            client: build_client(allow_loopback, limits.timeout),
        }
    }

    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// A visit: pages read through it share the robots.txt of each origin.
    pub fn visit(&self) -> Visit<'_> {
        Visit {
            client: self,
            robots: HashMap::new(),
            requests: 0,
        }
    }

    /// Scheme, credentials and a literal address, before any request.
    fn check_url(&self, url: &Url) -> Result<(), FetchError> {
        if !matches!(url.scheme(), "http" | "https") {
            return Err(FetchError::Refused(format!(
                "{url} is not an http or https address"
            )));
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(FetchError::Refused(
                "a website address must not contain a user name or password".into(),
            ));
        }
        let ip = match url.host() {
            None => return Err(FetchError::Refused(format!("{url} names no host"))),
            Some(url::Host::Domain(_)) => return Ok(()),
            Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip),
            Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip),
        };
        match refused_ip(ip) {
            Some(_) if self.allow_loopback && ip.is_loopback() => Ok(()),
            Some(what) => Err(FetchError::Refused(format!(
                "{ip} is {what}: refused (WEBSITE_ALLOW_LOOPBACK is off or does not cover it)"
            ))),
            None => Ok(()),
        }
    }

    /// One GET, redirects not followed, the body cut at `cap` bytes.
    async fn get_once(&self, url: &Url, cap: usize) -> Result<Answer, FetchError> {
        let client = self
            .client
            .as_ref()
            .map_err(|e| FetchError::Transport(e.clone()))?;
        let timeout = self.limits.timeout;
        let read = async {
            let mut res = client.get(url.clone()).send().await?;
            let status = res.status().as_u16();
            let header = |name| {
                res.headers()
                    .get(name)
                    .and_then(|v: &reqwest::header::HeaderValue| v.to_str().ok())
                    .map(str::to_string)
            };
            let location = header(reqwest::header::LOCATION);
            let is_html = header(reqwest::header::CONTENT_TYPE).is_none_or(|t| {
                let t = t.to_ascii_lowercase();
                t.starts_with("text/html") || t.starts_with("application/xhtml")
            });
            let mut body = Vec::new();
            let mut truncated = false;
            while let Some(chunk) = res.chunk().await? {
                body.extend_from_slice(&chunk);
                if body.len() > cap {
                    // The rest is left unread with the connection.
                    body.truncate(cap);
                    truncated = true;
                    break;
                }
            }
            Ok::<_, reqwest::Error>(Answer {
                status,
                location,
                is_html,
                body,
                truncated,
            })
        };
        read.await.map_err(|e| match refused_in(&e) {
            Some(r) => FetchError::Refused(r.to_string()),
            None if e.is_timeout() => FetchError::Timeout(timeout.as_secs()),
            None => FetchError::Transport(describe(&e)),
        })
    }
}

/// Pages of one site visit and the robots.txt rules read so far.
pub struct Visit<'a> {
    client: &'a WebsiteClient,
    robots: HashMap<String, Rules>,
    /// Requests made (pages, redirect hops and robots.txt files).
    pub requests: usize,
}

impl Visit<'_> {
    /// Reads `start`, following redirects hop by hop, each checked like the first.
    pub async fn get(&mut self, start: &Url) -> Result<Page, FetchError> {
        let mut url = start.clone();
        for _ in 0..=MAX_REDIRECTS {
            self.client.check_url(&url)?;
            self.allowed(&url).await?;
            self.requests += 1;
            let a = self
                .client
                .get_once(&url, self.client.limits.max_bytes)
                .await?;
            if (300..400).contains(&a.status) {
                let next = a
                    .location
                    .and_then(|l| url.join(&l).ok())
                    .ok_or(FetchError::Status(a.status))?;
                url = next;
                continue;
            }
            if !(200..300).contains(&a.status) {
                return Err(FetchError::Status(a.status));
            }
            return Ok(Page {
                url,
                is_html: a.is_html,
                body: String::from_utf8_lossy(&a.body).into_owned(),
                truncated: a.truncated,
            });
        }
        Err(FetchError::TooManyRedirects)
    }

    async fn allowed(&mut self, url: &Url) -> Result<(), FetchError> {
        let origin = url.origin().ascii_serialization();
        if !self.robots.contains_key(&origin) {
            let rules = self.read_robots(url).await?;
            self.robots.insert(origin.clone(), rules);
        }
        match self.robots.get(&origin) {
            Some(Rules::Parsed(r)) if !r.allowed(url.as_str()) => {
                Err(FetchError::Disallowed(url.path().to_string()))
            }
            Some(Rules::None(why)) => {
                Err(FetchError::Disallowed(format!("{} ({why})", url.path())))
            }
            _ => Ok(()),
        }
    }

    /// The origin's robots.txt; a refused address is an error of its own (the page would be
    /// refused too), anything else becomes rules.
    async fn read_robots(&mut self, page: &Url) -> Result<Rules, FetchError> {
        let Ok(mut url) = page.join("/robots.txt") else {
            return Ok(Rules::Any);
        };
        for _ in 0..=MAX_REDIRECTS {
            self.client.check_url(&url)?;
            self.requests += 1;
            let a = match self.client.get_once(&url, MAX_ROBOTS_BYTES).await {
                Ok(a) => a,
                Err(e @ FetchError::Refused(_)) => return Err(e),
                Err(e) => return Ok(Rules::None(format!("robots.txt could not be read: {e}"))),
            };
            match a.status {
                300..=399 => match a.location.and_then(|l| url.join(&l).ok()) {
                    Some(next) => url = next,
                    None => return Ok(Rules::Any),
                },
                // An unparsable file has no rules we could follow; RFC 9309 reads what it can.
                200..=299 => {
                    return Ok(Robot::new(ROBOTS_AGENT, &a.body)
                        .map_or(Rules::Any, |r| Rules::Parsed(Box::new(r))));
                }
                400..=499 => return Ok(Rules::Any),
                s => return Ok(Rules::None(format!("robots.txt answered HTTP {s}"))),
            }
        }
        Ok(Rules::Any)
    }
}

fn build_client(allow_loopback: bool, timeout: Duration) -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .dns_resolver(Arc::new(GuardedResolver {
            allow_private: false,
            allow_loopback,
            flag: "WEBSITE_ALLOW_LOOPBACK",
        }))
        .connect_timeout(timeout)
        .timeout(timeout)
        .user_agent(USER_AGENT)
        .build()
        .map_err(|e| format!("the website HTTP client could not start: {e}"))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn literal_addresses_and_schemes_are_checked_before_any_request() {
        let strict = WebsiteClient::new(false);
        let local = WebsiteClient::new(true);
        let url = |s: &str| Url::parse(s).unwrap();
        for bad in [
            "http://127.0.0.1/",
            "http://10.0.0.1/",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]/",
            "http://[fd00::1]/",
            "http://[fe80::1]/",
            "http://[::ffff:192.168.0.1]/",
        ] {
            assert!(
                matches!(strict.check_url(&url(bad)), Err(FetchError::Refused(_))),
                "{bad}"
            );
        }
        assert!(local.check_url(&url("http://127.0.0.1:8080/")).is_ok());
        assert!(matches!(
            local.check_url(&url("http://169.254.169.254/")),
            Err(FetchError::Refused(_))
        ));
        assert!(matches!(
            strict.check_url(&url("ftp://example.com/")),
            Err(FetchError::Refused(_))
        ));
        assert!(matches!(
            strict.check_url(&url("https://user:pw@example.com/")),
            Err(FetchError::Refused(_))
        ));
        assert!(strict.check_url(&url("https://example.com/")).is_ok());
    }
}
