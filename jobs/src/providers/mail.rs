//! DNS lookups for email: mail servers (MX) for contact verification, TXT records for the sender
//! domain's SPF, DKIM and DMARC check. The real resolver uses the system's DNS settings, or the
//! server named by `DNS_RESOLVER`; tests replace it or point it at a server on loopback. Any failure
//! to ask is an `Err`, which callers turn into a warning ("could not check mail server"), never a
//! crash.

use std::net::SocketAddr;
use std::time::Duration;

use futures::future::BoxFuture;
use hickory_resolver::TokioResolver;
use hickory_resolver::config::{NameServerConfig, ResolverConfig};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
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
    /// The TXT records at `name`, each one's strings joined; empty when there are none.
    fn txt<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<Vec<String>, String>>;
}

/// DNS through the system's resolver settings (`/etc/resolv.conf`) or one named server, 2 s per
/// lookup.
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

    /// `Some(server)`: every question goes to that server (UDP, then TCP); `None`: [`Self::system`].
    pub fn new(server: Option<SocketAddr>) -> Self {
        let Some(server) = server else {
            return Self::system();
        };
        let mut ns = NameServerConfig::udp_and_tcp(server.ip());
        for c in &mut ns.connections {
            c.port = server.port();
        }
        let mut builder = TokioResolver::builder_with_config(
            ResolverConfig::from_name_servers(vec![ns]),
            TokioRuntimeProvider::default(),
        );
        builder.options_mut().timeout = Duration::from_secs(2);
        builder.options_mut().attempts = 1;
        Self {
            inner: builder.build().map_err(|e| e.to_string()),
        }
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

    fn txt<'a>(&'a self, name: &'a str) -> BoxFuture<'a, Result<Vec<String>, String>> {
        Box::pin(async move {
            let resolver = self.inner.as_ref().map_err(Clone::clone)?;
            match resolver
                .txt_lookup(format!("{}.", name.trim_end_matches('.')))
                .await
            {
                Ok(lookup) => Ok(lookup
                    .answers()
                    .iter()
                    .filter_map(|r| match &r.data {
                        RData::TXT(txt) => Some(
                            txt.txt_data
                                .iter()
                                .map(|part| String::from_utf8_lossy(part))
                                .collect::<String>(),
                        ),
                        _ => None,
                    })
                    .collect()),
                Err(e) if e.is_no_records_found() || e.is_nx_domain() => Ok(Vec::new()),
                Err(e) => Err(e.to_string()),
            }
        })
    }
}
