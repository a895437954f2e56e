//! Discovery: finding companies and their decision makers for a search. The embedded provider
//! searches a catalog of demo companies generated in code (reproducible, see [`catalog`]).

pub mod catalog;
pub mod openai;

use futures::future::BoxFuture;
use serde::{Deserialize, Serialize};

pub use catalog::CatalogProvider;
pub use openai::OpenAiDiscovery;

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
}

/// Receives results as they arrive, so a scan cut off by its deadline keeps what it found.
pub type Batch = Vec<FoundCompany>;

pub trait DiscoveryProvider: Send + Sync {
    /// Stable name, shown in results.
    fn name(&self) -> &'static str;

    /// Searches and hands results to `sink` in batches; returns when the search is complete.
    fn search<'a>(
        &'a self,
        query: &'a DiscoveryQuery,
        sink: &'a tokio::sync::mpsc::Sender<Batch>,
    ) -> BoxFuture<'a, Result<(), ProviderError>>;
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
