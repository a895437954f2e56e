//! Mail-server (MX) lookups for contact verification. The real resolver uses the system's DNS
//! settings; tests replace it. Any failure to ask is a `Err`, which verification turns into a
//! warning ("could not check mail server"), never a crash.

use std::time::Duration;

use futures::future::BoxFuture;
use hickory_resolver::TokioResolver;
use hickory_resolver::proto::rr::RData;

/// What an MX lookup found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MxAnswer {
    /// Mail servers of the domain.
    Servers(Vec<String>),
    /// The domain exists but takes no mail, or does not exist.
    None,
}

pub trait MailResolver: Send + Sync {
    fn mx<'a>(&'a self, domain: &'a str) -> BoxFuture<'a, Result<MxAnswer, String>>;
}

/// DNS through the system's resolver settings (`/etc/resolv.conf`), 2 s per lookup.
pub struct DnsResolver {
    inner: Result<TokioResolver, String>,
}

impl DnsResolver {
    pub fn system() -> Self {
        let inner = TokioResolver::builder_tokio()
            .and_then(|mut b| {
                b.options_mut().timeout = Duration::from_secs(2);
                b.options_mut().attempts = 1;
                b.build()
            })
            .map_err(|e| e.to_string());
        Self { inner }
    }
}

impl MailResolver for DnsResolver {
    fn mx<'a>(&'a self, domain: &'a str) -> BoxFuture<'a, Result<MxAnswer, String>> {
        Box::pin(async move {
            let resolver = self.inner.as_ref().map_err(Clone::clone)?;
            match resolver.mx_lookup(format!("{domain}.")).await {
                Ok(lookup) => {
                    let servers: Vec<String> = lookup
                        .answers()
                        .iter()
                        .filter_map(|r| match &r.data {
                            RData::MX(mx) => Some(mx.exchange.to_string()),
                            _ => None,
                        })
                        .collect();
                    Ok(if servers.is_empty() {
                        MxAnswer::None
                    } else {
                        MxAnswer::Servers(servers)
                    })
                }
                Err(e) if e.is_no_records_found() || e.is_nx_domain() => Ok(MxAnswer::None),
                Err(e) => Err(e.to_string()),
            }
        })
    }
}
