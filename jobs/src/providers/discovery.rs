//! Discovery: finding companies and their decision makers for a search. Each source is one
//! [`DiscoveryProvider`]; a scan picks some of the configured ones ([`DiscoverySources`]) and runs
//! them side by side. OpenStreetMap ([`overpass`]) and Google Places ([`places`]) are offered when
//! configured; the embedded catalog of invented demo companies ([`catalog`]) always is, and is the
//! default when nothing else is configured; the LLM ([`openai`]) with `DISCOVERY_PROVIDER=openai`.

pub mod catalog;
pub mod openai;
pub mod overpass;
pub mod places;

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

pub use crate::domain::discovery::Source;
pub use catalog::CatalogProvider;
pub use openai::OpenAiDiscovery;
pub use overpass::OverpassDiscovery;
pub use places::PlacesDiscovery;

/// Revenue ranges of seed 000 §3, as (label, low, high) in dollars (`high` exclusive; `None` = open).
pub const REVENUE_RANGES: [(&str, i64, Option<i64>); 5] = [
    ("2-5M", 2_000_000, Some(5_000_000)),
    ("5-10M", 5_000_000, Some(10_000_000)),
    ("10-25M", 10_000_000, Some(25_000_000)),
    ("25-50M", 25_000_000, Some(50_000_000)),
    ("50M+", 50_000_000, None),
];

pub use crate::geo::REGIONS;

/// A validated search.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoveryQuery {
    pub region: Option<String>,
    pub revenue_range: Option<String>,
    pub company_type: Option<String>,
    pub company_name: Option<String>,
    pub city: Option<String>,
    /// Two-letter code.
    pub state: Option<String>,
}

// What a provider finds: domain types, so the db layer stores them without depending on providers.
pub use crate::domain::discovery::{FoundCompany, FoundContact};

#[derive(Debug, Clone, thiserror::Error)]
pub enum ProviderError {
    /// Worth retrying later (rate limit, outage, timeout).
    #[error("{0}")]
    Transient(String),
    /// The provider answered something we cannot use.
    #[error("{0}")]
    Invalid(String),
    /// Rate limited after the request's own retries: worth another try once `after` has passed.
    #[error("{message}")]
    Throttled {
        message: String,
        after: std::time::Duration,
    },
}

impl ProviderError {
    /// From an HTTP failure after its retries: 429 and outages may pass, other refusals will not.
    pub fn from_http(what: &str, e: crate::providers::http::HttpError) -> Self {
        use crate::providers::http::HttpError;
        match e {
            HttpError::Status {
                status: 429,
                retry_after,
                ..
            } => Self::Throttled {
                message: format!("{what} rate limited the scan: {e}"),
                after: retry_after.unwrap_or(std::time::Duration::from_secs(60)),
            },
            e if e.is_transient() => Self::Transient(format!("{what} unavailable: {e}")),
            e @ HttpError::TooLarge(_) => Self::Invalid(format!("{what} {e}: refused")),
            e => Self::Invalid(format!("{what} refused the request: {e}")),
        }
    }
}

/// How hard a scan may use an outside source: a request budget per search and a rate shared by
/// every scan of the process, evenly spaced (no bursts: free services such as Overpass ask for
/// politeness, not just a total).
pub struct RequestLimits {
    pub max_requests: u32,
    limiter: governor::DefaultDirectRateLimiter,
}

impl RequestLimits {
    pub fn new(max_requests: u32, per_minute: u32) -> Self {
        let period = std::time::Duration::from_secs(60) / per_minute.max(1);
        let quota = governor::Quota::with_period(period)
            .unwrap_or_else(|| governor::Quota::per_second(NonZeroU32::MAX))
            .allow_burst(NonZeroU32::MIN);
        Self {
            max_requests,
            limiter: governor::RateLimiter::direct(quota),
        }
    }

    /// Takes one request of `spent`'s budget, waiting for the rate limit; `false` when the
    /// budget is spent.
    pub async fn take(&self, spent: &AtomicU32) -> bool {
        if spent.fetch_add(1, Ordering::SeqCst) >= self.max_requests {
            return false;
        }
        self.limiter.until_ready().await;
        true
    }
}

/// Receives results as they arrive, so a scan cut off by its deadline keeps what it found.
pub type Batch = Vec<FoundCompany>;

/// What a source over HTTP holds: its client, retry policy and request limits (job settings).
pub struct HttpSource {
    pub client: reqwest::Client,
    pub policy: crate::providers::http::HttpPolicy,
    limits: RequestLimits,
    source: Source,
}

impl HttpSource {
    pub fn new(source: Source, settings: &crate::config::DiscoverySourceSettings) -> Self {
        Self {
            client: reqwest::Client::new(),
            policy: crate::providers::http::HttpPolicy {
                timeout: settings.timeout,
                retries: settings.retries,
                ..Default::default()
            },
            limits: RequestLimits::new(settings.max_requests, settings.per_minute),
            source,
        }
    }

    /// Takes one request of the search's budget (`spent`), waiting for the rate limit; `false`
    /// once the budget is spent, and the scan keeps what it found.
    pub async fn take(&self, spent: &AtomicU32) -> bool {
        let granted = self.limits.take(spent).await;
        if !granted {
            tracing::info!(
                source = self.source.key(),
                "request budget spent; the scan keeps what it found"
            );
        }
        granted
    }
}

/// Hands a page of results to the scan (nothing for an empty page).
pub async fn forward(
    sink: &tokio::sync::mpsc::Sender<Batch>,
    found: Batch,
) -> Result<(), ProviderError> {
    if found.is_empty() {
        return Ok(());
    }
    sink.send(found)
        .await
        .map_err(|_| ProviderError::Transient("the scan stopped listening".into()))
}

pub trait DiscoveryProvider: Send + Sync {
    /// Which source this is: stored with what it finds, and how scans ask for it.
    fn source(&self) -> Source;

    /// Searches and hands results to `sink` in batches; returns when the search is complete.
    fn search<'a>(
        &'a self,
        query: &'a DiscoveryQuery,
        sink: &'a tokio::sync::mpsc::Sender<Batch>,
    ) -> BoxFuture<'a, Result<(), ProviderError>>;
}

/// The sources a process offers: the configured ones and the catalog, and which a scan uses when
/// it names none.
#[derive(Clone)]
pub struct DiscoverySources {
    providers: Vec<Arc<dyn DiscoveryProvider>>,
    defaults: Vec<Source>,
}

impl DiscoverySources {
    /// `configured` (OSM, Places, the LLM) plus the catalog. A scan naming no source uses every
    /// configured one, or the catalog when none is: `make run` works offline.
    pub fn new(configured: Vec<Arc<dyn DiscoveryProvider>>) -> Self {
        let mut defaults: Vec<Source> = configured.iter().map(|p| p.source()).collect();
        if defaults.is_empty() {
            defaults.push(Source::Catalog);
        }
        let mut providers = configured;
        if !providers.iter().any(|p| p.source() == Source::Catalog) {
            providers.push(Arc::new(CatalogProvider));
        }
        Self {
            providers,
            defaults,
        }
    }

    /// One provider, which is also the default (tests and tools).
    pub fn only(provider: Arc<dyn DiscoveryProvider>) -> Self {
        Self {
            defaults: vec![provider.source()],
            providers: vec![provider],
        }
    }

    pub fn available(&self) -> Vec<Source> {
        self.providers.iter().map(|p| p.source()).collect()
    }

    pub fn defaults(&self) -> &[Source] {
        &self.defaults
    }

    pub fn get(&self, source: Source) -> Option<Arc<dyn DiscoveryProvider>> {
        self.providers
            .iter()
            .find(|p| p.source() == source)
            .cloned()
    }
}

impl Default for DiscoverySources {
    fn default() -> Self {
        Self::new(Vec::new())
    }
}

/// Website domain for de-duplication: lower case, without scheme, `www.` and path.
pub fn domain_of(website: &str) -> Option<String> {
    let w = website.trim().to_lowercase();
    let w = w.split("://").last().unwrap_or(&w);
    let host = w.split(['/', '?', '#']).next().unwrap_or_default();
    let host = host.strip_prefix("www.").unwrap_or(host);
    (host.contains('.') && !host.starts_with('.')).then(|| host.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_normalise() {
        assert_eq!(
            domain_of("https://www.Acme-Bath.example/about").as_deref(),
            Some("acme-bath.example")
        );
        assert_eq!(domain_of("acme.example").as_deref(), Some("acme.example"));
        assert_eq!(domain_of("not a site"), None);
    }
}
