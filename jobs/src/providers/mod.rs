//! Outside concerns behind one trait each, with an embedded default that works offline.
//! Chosen from settings at start-up; handlers reach them through `JobContext::queue.providers`.

pub mod discovery;
pub mod google;
pub mod http;
pub mod imap;
pub mod llm;
pub mod mail;
pub mod sms;
pub mod stripe;
pub mod voice;
pub mod webhooks;
pub mod website;

use std::sync::Arc;

use crate::config::{Config, DiscoveryChoice};
use crate::mailing::Mailing;

/// The providers a process uses.
#[derive(Clone)]
pub struct Providers {
    /// The discovery sources on offer (docs/providers.md).
    pub discovery: Arc<discovery::DiscoverySources>,
    pub mail: Arc<dyn mail::MailResolver>,
    /// Outgoing email (SMTP or the outbox), its sender and link signing.
    pub mailing: Arc<Mailing>,
    /// Google Calendar, when configured; else meetings reach calendars through the ICS feed.
    pub calendar: Option<Arc<google::GoogleCalendar>>,
    /// The SMS API, when configured; else demo mode.
    pub sms: Option<Arc<sms::SmsApi>>,
    /// Stripe, when configured; else payments are demo records.
    pub stripe: Option<Arc<stripe::Stripe>>,
    /// The LLM for AI tasks (`AI_PROVIDER=openai`); else their template fallbacks.
    pub llm: Option<Arc<llm::Llm>>,
    /// The voice-agent API, when configured; else simulated calls.
    pub voice: Option<Arc<voice::VoiceApi>>,
    /// Outbound webhooks: the guarded HTTP client and the sealer of the endpoints' secrets.
    pub webhooks: Arc<webhooks::Webhooks>,
    /// Company websites for enrichment: the guarded client (public addresses, robots.txt, caps).
    pub website: Arc<website::WebsiteClient>,
    /// Mailbox sync over IMAP: the sealer of the mailboxes' passwords and the plain-text rule.
    pub imap: Arc<imap::Imap>,
}

impl Providers {
    /// From settings: `DISCOVERY_PROVIDER` (`catalog`, the default, or `openai` with `OPENAI_*`).
    pub fn from_config(config: &Config) -> Result<Self, String> {
        // Each source that is configured; the catalog is always there (DiscoverySources::new).
        let mut sources: Vec<Arc<dyn discovery::DiscoveryProvider>> = Vec::new();
        if let Some(osm) = &config.providers.overpass {
            sources.push(Arc::new(discovery::OverpassDiscovery::new(osm)));
        }
        if let Some(places) = config
            .providers
            .places
            .as_ref()
            .and_then(discovery::PlacesDiscovery::new)
        {
            sources.push(Arc::new(places));
        }
        if config.providers.discovery == DiscoveryChoice::OpenAi {
            sources.push(Arc::new(discovery::OpenAiDiscovery::new(
                &config.providers.openai_base_url,
                config.providers.openai_api_key.clone(),
                &config.providers.openai_model,
                http::HttpPolicy {
                    timeout: config.providers.openai_timeout,
                    ..http::HttpPolicy::default()
                },
            )));
        }
        let discovery = Arc::new(discovery::DiscoverySources::new(sources));
        let calendar = config.providers.google.clone().map(|g| {
            Arc::new(google::GoogleCalendar::new(
                g,
                &config.public_base_url,
                crate::sealed::Sealer::new(config.secret_key.expose()),
            ))
        });
        Ok(Self {
            discovery,
            mail: Arc::new(mail::DnsResolver::new(config.providers.dns_server)),
            mailing: Arc::new(Mailing::from_config(config)?),
            calendar,
            sms: config
                .providers
                .sms
                .clone()
                .map(|s| Arc::new(sms::SmsApi::new(s))),
            stripe: config
                .providers
                .stripe
                .clone()
                .map(|s| Arc::new(stripe::Stripe::new(s))),
            llm: config.providers.ai_llm.then(|| {
                Arc::new(llm::Llm::new(
                    &config.providers.openai_base_url,
                    config.providers.openai_api_key.clone(),
                    &config.providers.openai_model,
                    config.providers.ai_vision,
                    http::HttpPolicy {
                        timeout: config.providers.openai_timeout,
                        ..http::HttpPolicy::default()
                    },
                ))
            }),
            voice: config
                .providers
                .voice
                .clone()
                .map(|v| Arc::new(voice::VoiceApi::new(v))),
            webhooks: Arc::new(webhooks::Webhooks::new(
                crate::sealed::Sealer::new(config.secret_key.expose()),
                config.providers.webhook_allow_private,
            )),
            imap: Arc::new(imap::Imap::new(
                crate::sealed::Sealer::new(config.secret_key.expose()),
                config.providers.imap_allow_plaintext,
            )),
            website: Arc::new(website::WebsiteClient::new(
                config.providers.website_allow_loopback,
            )),
        })
    }

    /// The embedded defaults: no outside service needed.
    pub fn embedded() -> Self {
        Self {
            discovery: Arc::new(discovery::DiscoverySources::default()),
            mail: Arc::new(mail::DnsResolver::system()),
            mailing: Arc::new(Mailing::embedded()),
            calendar: None,
            sms: None,
            stripe: None,
            llm: None,
            voice: None,
            webhooks: Arc::new(webhooks::Webhooks::new(
                crate::sealed::Sealer::new(&random_key()),
                false,
            )),
            website: Arc::new(website::WebsiteClient::new(false)),
            imap: Arc::new(imap::Imap::new(
                crate::sealed::Sealer::new(&random_key()),
                false,
            )),
        }
    }
}

/// A key for what the embedded defaults seal or sign: random, so nothing sealed by one process
/// opens in another (tests and tools run in one process).
fn random_key() -> [u8; 32] {
    let mut key = [0u8; 32];
    rand::RngCore::fill_bytes(&mut rand::rng(), &mut key);
    key
}

impl Providers {
    /// Scans use `provider` only.
    pub fn with_discovery(mut self, provider: Arc<dyn discovery::DiscoveryProvider>) -> Self {
        self.discovery = Arc::new(discovery::DiscoverySources::only(provider));
        self
    }

    pub fn with_discovery_sources(mut self, sources: discovery::DiscoverySources) -> Self {
        self.discovery = Arc::new(sources);
        self
    }

    pub fn with_mailing(mut self, mailing: Mailing) -> Self {
        self.mailing = Arc::new(mailing);
        self
    }

    pub fn with_calendar(mut self, calendar: google::GoogleCalendar) -> Self {
        self.calendar = Some(Arc::new(calendar));
        self
    }

    pub fn with_stripe(mut self, stripe: stripe::Stripe) -> Self {
        self.stripe = Some(Arc::new(stripe));
        self
    }

    pub fn with_sms(mut self, sms: sms::SmsApi) -> Self {
        self.sms = Some(Arc::new(sms));
        self
    }

    pub fn with_llm(mut self, llm: llm::Llm) -> Self {
        self.llm = Some(Arc::new(llm));
        self
    }

    pub fn with_voice(mut self, voice: voice::VoiceApi) -> Self {
        self.voice = Some(Arc::new(voice));
        self
    }

    pub fn with_webhooks(mut self, webhooks: webhooks::Webhooks) -> Self {
        self.webhooks = Arc::new(webhooks);
        self
    }

    pub fn with_website(mut self, website: website::WebsiteClient) -> Self {
        self.website = Arc::new(website);
        self
    }

    pub fn with_mail(mut self, resolver: Arc<dyn mail::MailResolver>) -> Self {
        self.mail = resolver;
        self
    }
}

impl Default for Providers {
    fn default() -> Self {
        Self::embedded()
    }
}
