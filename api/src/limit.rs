//! Rate limits of the public calls (login attempts and lead-form submissions) and the client address
//! they key on.
//!
//! - The address is the socket peer's, unless the peer is in `TRUSTED_PROXIES`: then the rightmost
//!   hop of `X-Forwarded-For` (or, without that header, of `Forwarded: for=`) that is not itself a
//!   trusted proxy. Hops further left were written by the client and are never believed. IPv6
//!   clients are keyed by their /64, which one host usually owns whole.
//! - Per-address quotas are governor keyed limiters; the lead form also has one global ceiling.
//! - Failed logins are counted per email; after a few, each further attempt for that email waits a
//!   delay that doubles up to a cap, and a successful login clears it. So no stranger can lock an
//!   account for good, and guessing stays slow.
//! - The keyed stores are pruned every [`PRUNE_EVERY`] by a task that ends with the state.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ConnectInfo;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, NotUntil, Quota, RateLimiter};
use jobs::config::{Config, LimitSettings};

use crate::error::{ApiError, ApiResult};

/// How often the limiter stores drop keys that no longer limit anything.
pub(crate) const PRUNE_EVERY: Duration = Duration::from_secs(60);
/// Failure counts are forgotten this long after an email's last attempt.
const FORGET_FAILURES_AFTER: Duration = Duration::from_secs(24 * 3600);
/// Most emails whose failures are remembered; past it the oldest half is dropped.
const MAX_TRACKED_EMAILS: usize = 100_000;

/// Every limiter of the public calls; one per api process.
pub(crate) struct Limits {
    pub login_by_ip: DefaultKeyedRateLimiter<String>,
    pub leads_by_ip: DefaultKeyedRateLimiter<String>,
    /// All lead-form submissions together: many addresses cannot flood the form either.
    pub leads_global: DefaultDirectRateLimiter,
    pub login_failures: LoginFailures,
}

fn per_minute(n: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN))
}

impl Limits {
    pub fn new(config: &Config) -> Self {
        let global = config
            .limits
            .leads_global_per_minute
            .unwrap_or(config.leads_per_minute.saturating_mul(10));
        Self {
            login_by_ip: RateLimiter::keyed(per_minute(config.login_attempts_per_minute)),
            leads_by_ip: RateLimiter::keyed(per_minute(config.leads_per_minute)),
            leads_global: RateLimiter::direct(per_minute(global)),
            login_failures: LoginFailures::new(&config.limits),
        }
    }

    /// Drops what no longer limits anything, and the memory it held.
    fn prune(&self) {
        for l in [&self.login_by_ip, &self.leads_by_ip] {
            l.retain_recent();
            l.shrink_to_fit();
        }
        self.login_failures.prune(Instant::now());
    }

    /// Prunes every [`PRUNE_EVERY`] until the last reference to `limits` is gone (outside a tokio
    /// runtime, never: nothing could be serving requests there).
    pub fn spawn_pruner(limits: &Arc<Self>) {
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let weak = Arc::downgrade(limits);
        rt.spawn(async move {
            let mut tick = tokio::time::interval(PRUNE_EVERY);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tick.tick().await;
            loop {
                tick.tick().await;
                match weak.upgrade() {
                    Some(limits) => limits.prune(),
                    None => break,
                }
            }
        });
    }
}

/// The client's address as a limiter key (see the module doc for when proxies are believed).
pub(crate) fn client_ip(parts: &Parts, limits: &LimitSettings) -> String {
    let Some(peer) = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_canonical())
    else {
        return "unknown".into();
    };
    let trusted = |ip: &IpAddr| limits.trusted_proxies.iter().any(|n| n.contains(ip));
    let mut client = peer;
    if trusted(&peer) {
        for hop in forwarded_hops(&parts.headers).into_iter().rev() {
            // An unreadable hop ("unknown", an obfuscated name): the last proxy we trust is all
            // we know.
            let Some(ip) = hop else { break };
            client = ip;
            if !trusted(&ip) {
                break;
            }
        }
    }
    key_of(client)
}

fn key_of(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

/// The hops of `X-Forwarded-For`, else of `Forwarded`, leftmost first; `None` for one that is not
/// an address. `X-Forwarded-For` wins because nearly every proxy appends it: one that appends only
/// `Forwarded` must drop a client's `X-Forwarded-For`.
fn forwarded_hops(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let xff: Vec<_> = headers.get_all("x-forwarded-for").iter().collect();
    if !xff.is_empty() {
        return xff
            .iter()
            .flat_map(|v| match v.to_str() {
                Ok(s) => s.split(',').map(parse_hop).collect(),
                Err(_) => vec![None],
            })
            .collect();
    }
    headers
        .get_all("forwarded")
        .iter()
        .flat_map(|v| match v.to_str() {
            Ok(s) => s
                .split(',')
                .map(|element| {
                    element
                        .split(';')
                        .filter_map(|pair| pair.split_once('='))
                        .find(|(k, _)| k.trim().eq_ignore_ascii_case("for"))
                        .and_then(|(_, v)| parse_hop(v))
                })
                .collect(),
            Err(_) => vec![None],
        })
        .collect()
}

/// `1.2.3.4`, `1.2.3.4:80`, `2001:db8::1`, `[2001:db8::1]:80`, optionally quoted.
fn parse_hop(raw: &str) -> Option<IpAddr> {
    let s = raw.trim().trim_matches('"');
    if let Some(rest) = s.strip_prefix('[') {
        return rest
            .split(']')
            .next()?
            .parse::<IpAddr>()
            .ok()
            .map(|ip| ip.to_canonical());
    }
    if let Ok(ip) = s.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    let (host, port) = s.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    host.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
}

fn too_many(what: &str, wait: Duration) -> ApiError {
    // Whole seconds, rounded up: a client that waits that long is let through.
    let secs = wait.as_millis().div_ceil(1000).max(1) as u64;
    ApiError::TooManyRequests {
        message: format!("Too many {what}. Try again in {secs} seconds."),
        retry_after: secs,
    }
}

fn wait_of(not_until: &NotUntil<<DefaultClock as Clock>::Instant>) -> Duration {
    not_until.wait_time_from(DefaultClock::default().now())
}

/// Takes one unit of `key`'s quota, or answers 429 with `Retry-After`.
pub(crate) fn rate_limit(
    limiter: &DefaultKeyedRateLimiter<String>,
    key: String,
    what: &str,
) -> ApiResult<()> {
    limiter
        .check_key(&key)
        .map_err(|n| too_many(what, wait_of(&n)))
}

/// Takes one unit of a global quota, or answers 429 with `Retry-After`.
pub(crate) fn rate_limit_all(limiter: &DefaultDirectRateLimiter, what: &str) -> ApiResult<()> {
    limiter.check().map_err(|n| too_many(what, wait_of(&n)))
}

/// Login attempts per email not known to have succeeded.
pub(crate) struct LoginFailures {
    free: u32,
    max_delay: Duration,
    by_email: Mutex<HashMap<String, Failures>>,
}

#[derive(Debug, Clone, Copy)]
struct Failures {
    count: u32,
    last: Instant,
}

impl LoginFailures {
    pub fn new(s: &LimitSettings) -> Self {
        Self {
            free: s.login_free_failures,
            max_delay: s.login_max_delay,
            by_email: Mutex::new(HashMap::new()),
        }
    }

    /// The wait after `count` failures: none for the first `free`, then 1 s, 2 s, 4 s … up to the
    /// cap.
    fn delay(&self, count: u32) -> Duration {
        match count.checked_sub(self.free) {
            None => Duration::ZERO,
            Some(n) => Duration::from_secs(1u64 << n.min(30)).min(self.max_delay),
        }
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Failures>> {
        // A panic while holding the lock leaves plain counters behind; they are still usable.
        self.by_email
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Before the password is checked: answers 429 while `email` must wait, else counts this
    /// attempt as a failure until [`Self::succeeded`] says otherwise (so parallel guesses count
    /// too).
    pub fn attempt(&self, email: &str) -> ApiResult<()> {
        let now = Instant::now();
        let mut map = self.map();
        if let Some(f) = map.get_mut(email) {
            let wait = self
                .delay(f.count)
                .saturating_sub(now.saturating_duration_since(f.last));
            if !wait.is_zero() {
                return Err(too_many("login attempts", wait));
            }
            f.count = f.count.saturating_add(1);
            f.last = now;
            return Ok(());
        }
        if map.len() >= MAX_TRACKED_EMAILS {
            forget_oldest_half(&mut map);
        }
        map.insert(
            email.to_string(),
            Failures {
                count: 1,
                last: now,
            },
        );
        Ok(())
    }

    /// The password was right: the email starts afresh.
    pub fn succeeded(&self, email: &str) {
        self.map().remove(email);
    }

    fn prune(&self, now: Instant) {
        let mut map = self.map();
        map.retain(|_, f| now.saturating_duration_since(f.last) < FORGET_FAILURES_AFTER);
        map.shrink_to_fit();
    }
}

/// Keeps the more recent half (one pass and a selection, so a flood of new emails costs little).
fn forget_oldest_half(map: &mut HashMap<String, Failures>) {
    let mut lasts: Vec<Instant> = map.values().map(|f| f.last).collect();
    let mid = lasts.len() / 2;
    let (_, median, _) = lasts.select_nth_unstable(mid);
    let median = *median;
    map.retain(|_, f| f.last > median);
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderValue, Request};

    fn parts(peer: &str, headers: &[(&str, &str)]) -> Parts {
        let mut req = Request::builder();
        for (k, v) in headers {
            req = req.header(
                *k,
                HeaderValue::from_str(v).unwrap_or(HeaderValue::from_static("")),
            );
        }
        let (mut parts, ()) = req.body(()).unwrap_or_default().into_parts();
        if let Ok(addr) = peer.parse::<SocketAddr>() {
            parts.extensions.insert(ConnectInfo(addr));
        }
        parts
    }

    fn trusting(cidrs: &[&str]) -> LimitSettings {
        LimitSettings {
            trusted_proxies: cidrs.iter().filter_map(|c| c.parse().ok()).collect(),
            ..LimitSettings::default()
        }
    }

    #[test]
    fn proxy_headers_are_believed_only_from_trusted_peers() {
        let xff = [("x-forwarded-for", "6.6.6.6, 203.0.113.9, 10.0.0.2")];
        assert_eq!(
            client_ip(&parts("10.0.0.1:5", &xff), &trusting(&[])),
            "10.0.0.1"
        );
        assert_eq!(
            client_ip(&parts("192.0.2.1:5", &xff), &trusting(&["10.0.0.0/8"])),
            "192.0.2.1"
        );
        // Rightmost untrusted hop: the client's own claim (6.6.6.6) is ignored.
        assert_eq!(
            client_ip(&parts("10.0.0.1:5", &xff), &trusting(&["10.0.0.0/8"])),
            "203.0.113.9"
        );
        let fwd = [(
            "forwarded",
            "for=6.6.6.6, for=\"[2001:db8:1:2::7]:4711\";proto=https",
        )];
        assert_eq!(
            client_ip(&parts("10.0.0.1:5", &fwd), &trusting(&["10.0.0.0/8"])),
            "2001:db8:1:2::/64"
        );
        let unknown = [("x-forwarded-for", "6.6.6.6, unknown")];
        assert_eq!(
            client_ip(&parts("10.0.0.1:5", &unknown), &trusting(&["10.0.0.0/8"])),
            "10.0.0.1"
        );
        let with_port = [("x-forwarded-for", "198.51.100.4:1234")];
        assert_eq!(
            client_ip(
                &parts("[::ffff:10.0.0.1]:5", &with_port),
                &trusting(&["10.0.0.0/8"])
            ),
            "198.51.100.4"
        );
    }

    #[test]
    fn login_delay_doubles_after_the_free_failures_up_to_the_cap() {
        let f = LoginFailures::new(&LimitSettings::default());
        let secs: Vec<u64> = (0..=16).map(|n| f.delay(n).as_secs()).collect();
        assert_eq!(secs[..8], [0, 0, 0, 0, 0, 1, 2, 4]);
        assert_eq!(secs[14], 512);
        assert_eq!((secs[15], secs[16]), (900, 900));
        assert_eq!(f.delay(u32::MAX).as_secs(), 900);
    }

    #[test]
    fn failure_counts_are_forgotten_a_day_after_the_last_attempt() {
        let f = LoginFailures::new(&LimitSettings::default());
        assert!(f.attempt("a@example.com").is_ok());
        f.prune(Instant::now() + Duration::from_secs(3600));
        assert_eq!(f.map().len(), 1, "kept within the day");
        f.prune(Instant::now() + FORGET_FAILURES_AFTER);
        assert!(f.map().is_empty(), "forgotten after it");
        assert!(f.attempt("b@example.com").is_ok());
        f.succeeded("b@example.com");
        assert!(f.map().is_empty(), "a success clears at once");
    }

    #[test]
    fn a_full_failure_map_keeps_its_newest_half() {
        let now = Instant::now();
        let mut map: HashMap<String, Failures> = (0..10u64)
            .map(|i| {
                let last = now + Duration::from_secs(i);
                (i.to_string(), Failures { count: 1, last })
            })
            .collect();
        forget_oldest_half(&mut map);
        let mut kept: Vec<u64> = map.keys().filter_map(|k| k.parse().ok()).collect();
        kept.sort_unstable();
        assert_eq!(kept, [6, 7, 8, 9]);
    }
}
