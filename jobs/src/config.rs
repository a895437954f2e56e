//! Typed settings read from the environment (and `.env` when present).
//!
//! Every setting has a safe default; a bad value stops start-up with a [`ConfigError`] that names the
//! variable. Secrets are wrapped in [`Secret`] so they never reach a log line or a `Debug` dump.

use std::collections::HashMap;
use std::fmt;
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use rand::RngCore;

/// A value that must never be printed.
#[derive(Clone)]
pub struct Secret<T>(T);

impl<T> Secret<T> {
    pub fn new(value: T) -> Self {
        Self(value)
    }
    pub fn expose(&self) -> &T {
        &self.0
    }
}

impl<T> fmt::Debug for Secret<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{var}: {message}")]
    Invalid { var: &'static str, message: String },
    #[error("{var}: {source}")]
    Io {
        var: &'static str,
        source: std::io::Error,
    },
}

fn invalid(var: &'static str, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        var,
        message: message.into(),
    }
}

/// Where the data lives: the embedded SQLite file or a Postgres server.
#[derive(Clone)]
pub enum DatabaseUrl {
    Sqlite(String),
    Postgres(Secret<String>),
}

impl DatabaseUrl {
    /// Parses `DATABASE_URL`; the error text never echoes the URL (it may hold a password).
    pub fn parse(raw: &str) -> Result<Self, ConfigError> {
        let raw = raw.trim();
        if raw.starts_with("sqlite:") {
            Ok(Self::Sqlite(raw.to_string()))
        } else if raw.starts_with("postgres://") || raw.starts_with("postgresql://") {
            url::Url::parse(raw)
                .map_err(|e| invalid("DATABASE_URL", format!("not a valid postgres URL ({e})")))?;
            Ok(Self::Postgres(Secret::new(raw.to_string())))
        } else {
            Err(invalid(
                "DATABASE_URL",
                "must start with sqlite:// or postgres:// (e.g. sqlite://./data/prospector.db)",
            ))
        }
    }

    pub fn is_postgres(&self) -> bool {
        matches!(self, Self::Postgres(_))
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Sqlite(path) => write!(f, "Sqlite({path})"),
            Self::Postgres(_) => f.write_str("Postgres([redacted])"),
        }
    }
}

/// Settings of the job platform.
#[derive(Debug, Clone)]
pub struct QueueSettings {
    /// How often a worker writes its heartbeat and looks for cancelled and orphaned jobs.
    pub heartbeat_interval: Duration,
    /// A worker whose heartbeat is older than this is dead; its running jobs are rescued.
    pub heartbeat_timeout: Duration,
    /// On SIGTERM, in-flight jobs get this long to finish before they go back to the queue.
    pub shutdown_grace: Duration,
    /// Finished jobs older than this are deleted by the `prune_jobs` job.
    pub retention: Duration,
    /// First retry delay; each further attempt doubles it (with jitter).
    pub backoff_base: Duration,
    /// Safety poll when no wake-up arrives (cross-process SQLite, a lost LISTEN connection).
    pub poll_interval: Duration,
    /// Default concurrency of each kind's worker.
    pub concurrency: usize,
    /// Per-kind overrides, from `JOB_TIME_BUDGETS` and `JOB_MAX_ATTEMPTS` (`kind=value,...`).
    pub time_budgets: HashMap<String, Duration>,
    pub max_attempts: HashMap<String, i32>,
    /// Cron expression (with seconds) of the prune tick.
    pub prune_cron: String,
    /// When the scheduler looks for due sequence steps (`SEQUENCE_TICK_CRON`).
    pub sequence_tick_cron: String,
    /// When the scheduler looks for due meeting reminders (`REMINDER_TICK_CRON`).
    pub reminder_tick_cron: String,
    /// When the scheduler starts a `mailbox_sync` for each connected mailbox (`MAILBOX_SYNC_CRON`).
    pub mailbox_sync_cron: String,
    /// How long each scheduled `mailbox_sync` then waits in IMAP IDLE for new mail
    /// (`MAILBOX_IDLE_SECONDS`; 0: no IDLE).
    pub mailbox_idle_seconds: u32,
    /// Minutes before a meeting that reminders go out (`REMINDER_OFFSETS_MINUTES`, e.g. `1440,60`),
    /// largest first.
    pub reminder_offsets: Vec<i64>,
}

impl Default for QueueSettings {
    fn default() -> Self {
        Self {
            heartbeat_interval: Duration::from_secs(5),
            heartbeat_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(30),
            retention: Duration::from_secs(7 * 24 * 3600),
            backoff_base: Duration::from_secs(2),
            poll_interval: Duration::from_millis(50),
            concurrency: 16,
            time_budgets: HashMap::new(),
            max_attempts: HashMap::new(),
            prune_cron: "0 */10 * * * *".to_string(),
            sequence_tick_cron: "*/5 * * * * *".to_string(),
            reminder_tick_cron: "0 * * * * *".to_string(),
            mailbox_sync_cron: "0 */2 * * * *".to_string(),
            mailbox_idle_seconds: 90,
            reminder_offsets: vec![1440, 60],
        }
    }
}

/// Which discovery provider runs scans.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DiscoveryChoice {
    Catalog,
    OpenAi,
}

/// Settings of the outside services.
#[derive(Debug, Clone)]
pub struct ProviderSettings {
    pub discovery: DiscoveryChoice,
    pub openai_base_url: String,
    pub openai_api_key: Option<Secret<String>>,
    pub openai_model: String,
    /// `OPENAI_TIMEOUT_MS`: one request's limit (a long answer takes a while; default 60 s).
    pub openai_timeout: Duration,
    /// Google Calendar; unset: the ICS feed only.
    pub google: Option<GoogleSettings>,
    /// A Twilio-style SMS API; unset: demo mode (messages recorded, not sent).
    pub sms: Option<SmsSettings>,
    /// Stripe PaymentIntents; unset: demo mode (invoices marked payable, nothing charged).
    pub stripe: Option<StripeSettings>,
    /// `AI_PROVIDER=openai`: AI tasks go to the `OPENAI_*` endpoint; `template` (default): the
    /// template fallbacks, labelled as such.
    pub ai_llm: bool,
    /// `AI_VISION=true`: the model reads images (invoice photos, scanned PDFs).
    pub ai_vision: bool,
    /// `AI_WAIT_MS`: how long an AI request waits for its job before answering 202 (default 25 s).
    pub ai_wait: Duration,
    /// A voice-agent API; unset: demo mode (simulated calls, clearly labelled).
    pub voice: Option<VoiceSettings>,
    /// `WEBHOOK_ALLOW_PRIVATE=true`: outbound webhooks may reach private and loopback addresses
    /// and use plain http (tests, a receiver on the same network); otherwise https to public
    /// addresses only (docs/webhooks.md).
    pub webhook_allow_private: bool,
    /// `IMAP_ALLOW_PLAINTEXT=true`: mailboxes may be read without TLS on any host; otherwise plain
    /// IMAP only to this machine (docs/email.md, "Mailbox sync").
    pub imap_allow_plaintext: bool,
    /// `DNS_RESOLVER` (`ip:port`): the DNS server for MX and sender-domain lookups; unset: the
    /// system's.
    pub dns_server: Option<std::net::SocketAddr>,
    /// `WEBSITE_ALLOW_LOOPBACK=true`: website enrichment may fetch a site on this machine (tests, a
    /// local fixture); private, link-local and other special addresses stay refused either way.
    pub website_allow_loopback: bool,
    /// `OVERPASS_URL`: OpenStreetMap as a discovery source; unset: not offered.
    pub overpass: Option<DiscoverySourceSettings>,
    /// `GOOGLE_PLACES_API_KEY`: Google Places (New) as a discovery source; unset: not offered.
    pub places: Option<DiscoverySourceSettings>,
}

/// One discovery source's endpoint and how hard a scan may use it (docs/providers.md).
#[derive(Debug, Clone)]
pub struct DiscoverySourceSettings {
    pub url: String,
    pub api_key: Option<Secret<String>>,
    /// `<P>_MAX_REQUESTS`: requests one scan may make (each page or state is one).
    pub max_requests: u32,
    /// `<P>_PER_MINUTE`: requests per minute across all scans of the process.
    pub per_minute: u32,
    /// `<P>_RETRIES`: retries of a request after a 429, a 5xx or a timeout (backoff, Retry-After).
    pub retries: usize,
    /// `<P>_TIMEOUT_MS`: one request's limit.
    pub timeout: Duration,
}

impl DiscoverySourceSettings {
    fn overpass() -> Result<Option<Self>, ConfigError> {
        if var("OVERPASS_URL").is_none() {
            return Ok(None);
        }
        Ok(Some(Self {
            url: url_var("OVERPASS_URL", "")?,
            api_key: None,
            max_requests: parse_var("OVERPASS_MAX_REQUESTS", 10)?,
            per_minute: parse_var::<u32>("OVERPASS_PER_MINUTE", 10)?.max(1),
            retries: parse_var("OVERPASS_RETRIES", 3)?,
            timeout: millis("OVERPASS_TIMEOUT_MS", Duration::from_secs(60))?,
        }))
    }

    fn places() -> Result<Option<Self>, ConfigError> {
        let Some(key) = var("GOOGLE_PLACES_API_KEY") else {
            return Ok(None);
        };
        Ok(Some(Self {
            url: url_var("GOOGLE_PLACES_URL", "https://places.googleapis.com")?,
            api_key: Some(Secret::new(key)),
            max_requests: parse_var("GOOGLE_PLACES_MAX_REQUESTS", 10)?,
            per_minute: parse_var::<u32>("GOOGLE_PLACES_PER_MINUTE", 60)?.max(1),
            retries: parse_var("GOOGLE_PLACES_RETRIES", 3)?,
            timeout: millis("GOOGLE_PLACES_TIMEOUT_MS", Duration::from_secs(15))?,
        }))
    }
}

/// `VOICE_API_URL`, `VOICE_API_KEY` and `VOICE_WEBHOOK_SECRET` (all three: the callbacks that carry
/// transcripts are signed with the secret).
#[derive(Debug, Clone)]
pub struct VoiceSettings {
    pub api_url: String,
    pub api_key: Secret<String>,
    pub webhook_secret: Secret<String>,
}

impl VoiceSettings {
    fn from_env() -> Result<Option<Self>, ConfigError> {
        let url = var("VOICE_API_URL");
        let key = var("VOICE_API_KEY");
        let secret = var("VOICE_WEBHOOK_SECRET");
        match (url, key, secret) {
            (None, None, None) => Ok(None),
            (Some(_), Some(key), Some(secret)) => Ok(Some(Self {
                api_url: url_var("VOICE_API_URL", "")?,
                api_key: Secret::new(key),
                webhook_secret: Secret::new(secret),
            })),
            (url, key, _) => {
                let missing = if url.is_none() {
                    "VOICE_API_URL"
                } else if key.is_none() {
                    "VOICE_API_KEY"
                } else {
                    "VOICE_WEBHOOK_SECRET"
                };
                Err(invalid(
                    missing,
                    "VOICE_API_URL, VOICE_API_KEY and VOICE_WEBHOOK_SECRET go together",
                ))
            }
        }
    }
}

/// `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` (both or neither: without the webhook no payment
/// would ever mark its invoice paid), and `STRIPE_API_URL`, settable for tests.
#[derive(Debug, Clone)]
pub struct StripeSettings {
    pub api_url: String,
    pub secret_key: Secret<String>,
    pub webhook_secret: Secret<String>,
}

impl StripeSettings {
    fn from_env() -> Result<Option<Self>, ConfigError> {
        match (var("STRIPE_SECRET_KEY"), var("STRIPE_WEBHOOK_SECRET")) {
            (None, None) => Ok(None),
            (Some(key), Some(webhook)) => Ok(Some(Self {
                api_url: url_var("STRIPE_API_URL", "https://api.stripe.com")?,
                secret_key: Secret::new(key),
                webhook_secret: Secret::new(webhook),
            })),
            (Some(_), None) => Err(invalid(
                "STRIPE_WEBHOOK_SECRET",
                "required with STRIPE_SECRET_KEY (the webhook marks invoices paid)",
            )),
            (None, Some(_)) => Err(invalid(
                "STRIPE_SECRET_KEY",
                "required with STRIPE_WEBHOOK_SECRET",
            )),
        }
    }
}

/// `GOOGLE_CLIENT_ID` and `GOOGLE_CLIENT_SECRET` (an OAuth client of type "Web application" whose
/// redirect URI is `{PUBLIC_BASE_URL}/api/calendar/callback`), and the endpoints, settable for tests.
#[derive(Debug, Clone)]
pub struct GoogleSettings {
    pub client_id: String,
    pub client_secret: Secret<String>,
    /// `GOOGLE_AUTH_URL`: where the consent popup goes.
    pub auth_url: String,
    /// `GOOGLE_TOKEN_URL`: code exchange and refresh.
    pub token_url: String,
    /// `GOOGLE_CALENDAR_API_URL`: Calendar API v3 base.
    pub api_url: String,
    /// `GOOGLE_CALENDAR_ID`: the calendar events go to.
    pub calendar_id: String,
}

/// `SMS_ACCOUNT_SID`, `SMS_AUTH_TOKEN`, `SMS_FROM` (all three or none) and `SMS_API_URL`.
#[derive(Debug, Clone)]
pub struct SmsSettings {
    pub api_url: String,
    pub account_sid: String,
    pub auth_token: Secret<String>,
    pub from: String,
}

fn url_var(name: &'static str, default: &str) -> Result<String, ConfigError> {
    let value = var(name).unwrap_or_else(|| default.to_string());
    url::Url::parse(&value).map_err(|e| invalid(name, format!("not a URL ({e})")))?;
    Ok(value.trim_end_matches('/').to_string())
}

impl GoogleSettings {
    fn from_env() -> Result<Option<Self>, ConfigError> {
        let (client_id, client_secret) =
            match (var("GOOGLE_CLIENT_ID"), var("GOOGLE_CLIENT_SECRET")) {
                (None, None) => return Ok(None),
                (Some(id), Some(secret)) => (id, secret),
                (Some(_), None) => {
                    return Err(invalid(
                        "GOOGLE_CLIENT_SECRET",
                        "required with GOOGLE_CLIENT_ID",
                    ));
                }
                (None, Some(_)) => {
                    return Err(invalid(
                        "GOOGLE_CLIENT_ID",
                        "required with GOOGLE_CLIENT_SECRET",
                    ));
                }
            };
        Ok(Some(Self {
            client_id,
            client_secret: Secret::new(client_secret),
            auth_url: url_var(
                "GOOGLE_AUTH_URL",
                "https://accounts.google.com/o/oauth2/v2/auth",
            )?,
            token_url: url_var("GOOGLE_TOKEN_URL", "https://oauth2.googleapis.com/token")?,
            api_url: url_var(
                "GOOGLE_CALENDAR_API_URL",
                "https://www.googleapis.com/calendar/v3",
            )?,
            calendar_id: var("GOOGLE_CALENDAR_ID").unwrap_or_else(|| "primary".into()),
        }))
    }
}

impl SmsSettings {
    fn from_env() -> Result<Option<Self>, ConfigError> {
        let parts = [
            ("SMS_ACCOUNT_SID", var("SMS_ACCOUNT_SID")),
            ("SMS_AUTH_TOKEN", var("SMS_AUTH_TOKEN")),
            ("SMS_FROM", var("SMS_FROM")),
        ];
        if parts.iter().all(|(_, v)| v.is_none()) {
            return Ok(None);
        }
        let [
            (_, Some(account_sid)),
            (_, Some(auth_token)),
            (_, Some(from)),
        ] = parts.clone()
        else {
            let missing = parts
                .iter()
                .find(|(_, v)| v.is_none())
                .map_or("SMS_FROM", |(n, _)| n);
            return Err(invalid(
                missing,
                "SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM go together",
            ));
        };
        Ok(Some(Self {
            api_url: url_var("SMS_API_URL", "https://api.twilio.com")?,
            account_sid,
            auth_token: Secret::new(auth_token),
            from,
        }))
    }
}

impl ProviderSettings {
    fn from_env() -> Result<Self, ConfigError> {
        let discovery = match var("DISCOVERY_PROVIDER")
            .as_deref()
            .map(str::to_lowercase)
            .as_deref()
        {
            None | Some("catalog") => DiscoveryChoice::Catalog,
            Some("openai") => DiscoveryChoice::OpenAi,
            Some(other) => {
                return Err(invalid(
                    "DISCOVERY_PROVIDER",
                    format!("{other:?} is not one of catalog, openai"),
                ));
            }
        };
        let openai_base_url =
            var("OPENAI_BASE_URL").unwrap_or_else(|| "https://api.openai.com/v1".into());
        url::Url::parse(&openai_base_url)
            .map_err(|e| invalid("OPENAI_BASE_URL", format!("not a URL ({e})")))?;
        let openai_api_key = var("OPENAI_API_KEY").map(Secret::new);
        let ai_llm = match var("AI_PROVIDER")
            .as_deref()
            .map(str::to_lowercase)
            .as_deref()
        {
            None | Some("template") => false,
            Some("openai") => true,
            Some(other) => {
                return Err(invalid(
                    "AI_PROVIDER",
                    format!("{other:?} is not one of template, openai"),
                ));
            }
        };
        // Ollama and vLLM need no key; api.openai.com does.
        if (discovery == DiscoveryChoice::OpenAi || ai_llm)
            && openai_api_key.is_none()
            && openai_base_url.contains("api.openai.com")
        {
            return Err(invalid(
                "OPENAI_API_KEY",
                "is required when DISCOVERY_PROVIDER or AI_PROVIDER is openai on api.openai.com",
            ));
        }
        Ok(Self {
            discovery,
            openai_base_url,
            openai_api_key,
            openai_model: var("OPENAI_MODEL").unwrap_or_else(|| "gpt-4o-mini".into()),
            openai_timeout: millis("OPENAI_TIMEOUT_MS", Duration::from_secs(60))?,
            google: GoogleSettings::from_env()?,
            sms: SmsSettings::from_env()?,
            stripe: StripeSettings::from_env()?,
            ai_llm,
            ai_vision: match var("AI_VISION").as_deref() {
                None | Some("false" | "0") => false,
                Some("true" | "1") => true,
                Some(other) => {
                    return Err(invalid(
                        "AI_VISION",
                        format!("{other:?} is not true or false"),
                    ));
                }
            },
            ai_wait: millis("AI_WAIT_MS", Duration::from_secs(25))?,
            voice: VoiceSettings::from_env()?,
            dns_server: var("DNS_RESOLVER")
                .map(|v| {
                    v.parse()
                        .map_err(|_| invalid("DNS_RESOLVER", format!("{v:?} is not ip:port")))
                })
                .transpose()?,
            imap_allow_plaintext: match var("IMAP_ALLOW_PLAINTEXT").as_deref() {
                None | Some("false" | "0") => false,
                Some("true" | "1") => true,
                Some(other) => {
                    return Err(invalid(
                        "IMAP_ALLOW_PLAINTEXT",
                        format!("{other:?} is not true or false"),
                    ));
                }
            },
            webhook_allow_private: match var("WEBHOOK_ALLOW_PRIVATE").as_deref() {
                None | Some("false" | "0") => false,
                Some("true" | "1") => true,
                Some(other) => {
                    return Err(invalid(
                        "WEBHOOK_ALLOW_PRIVATE",
                        format!("{other:?} is not true or false"),
                    ));
                }
            },
            website_allow_loopback: match var("WEBSITE_ALLOW_LOOPBACK").as_deref() {
                None | Some("false" | "0") => false,
                Some("true" | "1") => true,
                Some(other) => {
                    return Err(invalid(
                        "WEBSITE_ALLOW_LOOPBACK",
                        format!("{other:?} is not true or false"),
                    ));
                }
            },
            overpass: DiscoverySourceSettings::overpass()?,
            places: DiscoverySourceSettings::places()?,
        })
    }
}

impl Default for ProviderSettings {
    fn default() -> Self {
        Self {
            discovery: DiscoveryChoice::Catalog,
            openai_base_url: "https://api.openai.com/v1".into(),
            openai_api_key: None,
            openai_model: "gpt-4o-mini".into(),
            openai_timeout: Duration::from_secs(60),
            google: None,
            sms: None,
            stripe: None,
            ai_llm: false,
            ai_vision: false,
            ai_wait: Duration::from_secs(25),
            voice: None,
            webhook_allow_private: false,
            imap_allow_plaintext: false,
            dns_server: None,
            website_allow_loopback: false,
            overpass: None,
            places: None,
        }
    }
}

/// Outgoing email: where it goes, who sends it, and the rules it follows.
#[derive(Debug, Clone)]
pub struct MailSettings {
    /// `SMTP_URL` (`smtp://user:pass@host:587?tls=required`, `smtps://...`); unset: `.eml` files in
    /// `{data}/outbox`, nothing leaves the machine.
    pub smtp_url: Option<Secret<String>>,
    /// `MAIL_FROM`: the default sender (a campaign may name its own from-address).
    pub from: String,
    /// `MAIL_REPLY_TO`.
    pub reply_to: Option<String>,
    /// `MAIL_POSTAL_ADDRESS`: printed in every message (CAN-SPAM); required with `SMTP_URL`.
    pub postal_address: String,
    /// `MAIL_UNSUBSCRIBE_MAILTO`: the mailto of `List-Unsubscribe`; default `unsubscribe@` the sender's domain.
    pub unsubscribe_mailto: Option<String>,
    /// `MAIL_SEND_CONCURRENCY`: messages in flight per sending run (and SMTP connections).
    pub send_concurrency: usize,
    /// `SUPPRESS_AFTER_HARD_BOUNCES`.
    pub hard_bounce_limit: i64,
    /// `SENDGRID_WEBHOOK_PUBLIC_KEY`: when set, webhook calls must carry a valid signature.
    pub sendgrid_public_key: Option<String>,
    /// `INBOUND_PARSE_TOKEN`: when set, `POST /api/email/inbound` needs `?token=` with this value.
    pub inbound_token: Option<Secret<String>>,
    /// `DKIM_PRIVATE_KEY`, `DKIM_SELECTOR`, `DKIM_DOMAIN`: when set, every message is DKIM-signed.
    pub dkim: Option<DkimSettings>,
}

/// DKIM signing (RSA-SHA256). The key is a PKCS#1 PEM (`openssl genrsa -traditional 2048`), given
/// inline in `DKIM_PRIVATE_KEY` or as the path of a file holding it.
#[derive(Debug, Clone)]
pub struct DkimSettings {
    pub selector: String,
    pub domain: String,
    pub private_key: Secret<String>,
}

impl DkimSettings {
    fn from_env() -> Result<Option<Self>, ConfigError> {
        let (key, selector, domain) = (
            var("DKIM_PRIVATE_KEY"),
            var("DKIM_SELECTOR"),
            var("DKIM_DOMAIN"),
        );
        let (key, selector, domain) = match (key, selector, domain) {
            (None, None, None) => return Ok(None),
            (Some(k), Some(s), Some(d)) => (k, s, d),
            _ => {
                return Err(invalid(
                    "DKIM_PRIVATE_KEY",
                    "DKIM_PRIVATE_KEY, DKIM_SELECTOR and DKIM_DOMAIN go together: set all three or none",
                ));
            }
        };
        let pem = if key.trim_start().starts_with("-----BEGIN") {
            key
        } else {
            std::fs::read_to_string(&key).map_err(|source| ConfigError::Io {
                var: "DKIM_PRIVATE_KEY",
                source,
            })?
        };
        let settings = Self {
            selector: selector.trim().to_string(),
            domain: domain.trim().trim_end_matches('.').to_lowercase(),
            private_key: Secret::new(pem),
        };
        settings
            .signing_config()
            .map_err(|message| invalid("DKIM_PRIVATE_KEY", message))?;
        Ok(Some(settings))
    }

    /// lettre's signing settings; `Err` names what is wrong with the key, never its content.
    /// Relaxed/relaxed canonicalization (lettre's default "simple" headers did not survive its own
    /// formatting in our tests), and the one-click unsubscribe headers are signed, as RFC 8058 asks.
    pub fn signing_config(&self) -> Result<lettre::message::dkim::DkimConfig, String> {
        use lettre::message::dkim::{
            DkimCanonicalization, DkimCanonicalizationType, DkimConfig, DkimSigningAlgorithm,
            DkimSigningKey,
        };
        use lettre::message::header::HeaderName;
        let key = DkimSigningKey::new(self.private_key.expose(), DkimSigningAlgorithm::Rsa)
            .map_err(|_| {
                "is not an RSA private key in PKCS#1 PEM (BEGIN RSA PRIVATE KEY)".to_string()
            })?;
        let headers = [
            "From",
            "To",
            "Subject",
            "Date",
            "Message-ID",
            "Reply-To",
            "List-Id",
            "List-Unsubscribe",
            "List-Unsubscribe-Post",
        ]
        .into_iter()
        .map(HeaderName::new_from_ascii_str)
        .collect();
        Ok(DkimConfig::new(
            self.selector.clone(),
            self.domain.clone(),
            key,
            headers,
            DkimCanonicalization {
                header: DkimCanonicalizationType::Relaxed,
                body: DkimCanonicalizationType::Relaxed,
            },
        ))
    }
}

impl Default for MailSettings {
    fn default() -> Self {
        Self {
            smtp_url: None,
            from: "Prospector Partnerships <partnerships@prospector.local>".into(),
            reply_to: None,
            postal_address: "Postal address not configured (MAIL_POSTAL_ADDRESS)".into(),
            unsubscribe_mailto: None,
            send_concurrency: 8,
            hard_bounce_limit: 2,
            sendgrid_public_key: None,
            inbound_token: None,
            dkim: None,
        }
    }
}

impl MailSettings {
    /// The SMTP relay's host and port, never its credentials; `None` in outbox mode.
    pub fn relay(&self) -> Option<String> {
        let url = url::Url::parse(self.smtp_url.as_ref()?.expose()).ok()?;
        let host = url.host_str()?;
        Some(match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_string(),
        })
    }

    fn from_env() -> Result<Self, ConfigError> {
        let d = Self::default();
        let smtp_url = var("SMTP_URL");
        if let Some(raw) = &smtp_url {
            let scheme = url::Url::parse(raw)
                .map(|u| u.scheme().to_string())
                .map_err(|_| invalid("SMTP_URL", "not a URL"))?;
            if scheme != "smtp" && scheme != "smtps" {
                return Err(invalid("SMTP_URL", "must start with smtp:// or smtps://"));
            }
        }
        let postal_address = match (var("MAIL_POSTAL_ADDRESS"), &smtp_url) {
            (Some(a), _) => a,
            (None, Some(_)) => {
                return Err(invalid(
                    "MAIL_POSTAL_ADDRESS",
                    "required when SMTP_URL is set: every message must show the sender's postal address",
                ));
            }
            (None, None) => d.postal_address,
        };
        let send_concurrency: usize = parse_var("MAIL_SEND_CONCURRENCY", d.send_concurrency)?;
        if send_concurrency == 0 {
            return Err(invalid("MAIL_SEND_CONCURRENCY", "must be at least 1"));
        }
        Ok(Self {
            smtp_url: smtp_url.map(Secret::new),
            from: var("MAIL_FROM").unwrap_or(d.from),
            reply_to: var("MAIL_REPLY_TO"),
            postal_address,
            unsubscribe_mailto: var("MAIL_UNSUBSCRIBE_MAILTO"),
            send_concurrency,
            hard_bounce_limit: parse_var("SUPPRESS_AFTER_HARD_BOUNCES", d.hard_bounce_limit)?,
            sendgrid_public_key: var("SENDGRID_WEBHOOK_PUBLIC_KEY"),
            inbound_token: var("INBOUND_PARSE_TOKEN").map(Secret::new),
            dkim: DkimSettings::from_env()?,
        })
    }
}

#[derive(Debug, Clone)]
pub struct Config {
    pub database_url: DatabaseUrl,
    pub bind: IpAddr,
    pub port: u16,
    pub data_dir: PathBuf,
    pub public_base_url: String,
    pub secret_key: Secret<Vec<u8>>,
    pub admin_emails: Vec<String>,
    pub web_dist: PathBuf,
    pub log_json: bool,
    pub queue: QueueSettings,
    /// Login attempts allowed per minute, per client address and per email.
    pub login_attempts_per_minute: u32,
    /// Public lead-form submissions allowed per minute per client address.
    pub leads_per_minute: u32,
    pub providers: ProviderSettings,
    /// How long dashboard aggregates and list totals may be served from memory.
    pub read_cache_ttl: Duration,
    /// Connections in the pool: `DB_MAX_CONNECTIONS`, else 6 on SQLite (each connection maps the
    /// file, see `SQLITE_MMAP_SIZE`, and writes take turns anyway), twice the cores and two on
    /// Postgres ([`default_db_max_connections`]).
    pub db_max_connections: u32,
    /// `METRICS_PORT`: where a worker or scheduler process serves `/metrics` (the api serves its own
    /// on `PORT`); unset: none.
    pub metrics_port: Option<u16>,
    pub mail: MailSettings,
    pub limits: LimitSettings,
}

/// Which proxies are believed about the client's address, the limits of the public calls beyond
/// their per-minute quotas, and who may read `/metrics`.
#[derive(Debug, Clone)]
pub struct LimitSettings {
    /// `TRUSTED_PROXIES`: comma-separated CIDRs (or single addresses) whose `X-Forwarded-For` /
    /// `Forwarded` headers are believed. Empty (the default): no proxy header is.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// `LEADS_GLOBAL_PER_MINUTE`: lead-form submissions per minute from all addresses together;
    /// unset: ten times `LEADS_PER_MINUTE`.
    pub leads_global_per_minute: Option<u32>,
    /// `LOGIN_FREE_FAILURES`: failed logins for one email before each further attempt must wait.
    pub login_free_failures: u32,
    /// `LOGIN_MAX_DELAY_SECS`: the longest such wait (it doubles from 1 s up to this).
    pub login_max_delay: Duration,
    /// `METRICS_TOKEN`: when set, `/metrics` (the api's and `METRICS_PORT`'s) answers only requests
    /// with `Authorization: Bearer <token>`.
    pub metrics_token: Option<Secret<String>>,
}

impl Default for LimitSettings {
    fn default() -> Self {
        Self {
            trusted_proxies: Vec::new(),
            leads_global_per_minute: None,
            login_free_failures: 5,
            login_max_delay: Duration::from_secs(15 * 60),
            metrics_token: None,
        }
    }
}

impl LimitSettings {
    fn from_env() -> Result<Self, ConfigError> {
        let d = Self::default();
        let leads_global_per_minute = var("LEADS_GLOBAL_PER_MINUTE")
            .map(|v| match v.parse::<u32>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(invalid(
                    "LEADS_GLOBAL_PER_MINUTE",
                    "must be a whole number of at least 1",
                )),
            })
            .transpose()?;
        let login_max_delay = seconds("LOGIN_MAX_DELAY_SECS", d.login_max_delay)?;
        if login_max_delay.is_zero() {
            return Err(invalid("LOGIN_MAX_DELAY_SECS", "must be at least 1"));
        }
        Ok(Self {
            trusted_proxies: match var("TRUSTED_PROXIES") {
                Some(raw) => trusted_proxies(&raw)?,
                None => d.trusted_proxies,
            },
            leads_global_per_minute,
            login_free_failures: parse_var("LOGIN_FREE_FAILURES", d.login_free_failures)?,
            login_max_delay,
            metrics_token: var("METRICS_TOKEN").map(Secret::new),
        })
    }
}

/// `10.0.0.0/8, 192.168.1.10` → networks; a bare address is a network of one.
fn trusted_proxies(raw: &str) -> Result<Vec<ipnet::IpNet>, ConfigError> {
    raw.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| {
            part.parse::<ipnet::IpNet>()
                .or_else(|_| part.parse::<IpAddr>().map(ipnet::IpNet::from))
                .map(|net| net.trunc())
                .map_err(|_| {
                    invalid(
                        "TRUSTED_PROXIES",
                        format!("{part:?} is not an address or CIDR (e.g. 10.0.0.0/8)"),
                    )
                })
        })
        .collect()
}

/// Reads one variable: `None` when unset or empty.
/// `1440,60` → `[1440, 60]`: whole minutes from 1 to 30 days, largest first, no repeats.
fn reminder_offsets(raw: &str) -> Result<Vec<i64>, ConfigError> {
    let name = "REMINDER_OFFSETS_MINUTES";
    let mut out = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.parse::<i64>() {
            Ok(m) if (1..=43_200).contains(&m) => out.push(m),
            _ => {
                return Err(invalid(
                    name,
                    format!("{part:?} is not a whole number of minutes from 1 to 43200"),
                ));
            }
        }
    }
    out.sort_unstable_by(|a, b| b.cmp(a));
    out.dedup();
    Ok(out)
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// `DB_MAX_CONNECTIONS` when unset. SQLite has one writer, so more connections would only wait.
/// Postgres: twice the cores and two (6 on 2 cores). Each connection is a server process: under
/// 50 clients, 16 (and 16 more with generic plans) read no faster than 6 and made each write's
/// statements queue for the CPU behind them (write p99 2× as long; docs/performance.md).
pub fn default_db_max_connections(url: &DatabaseUrl) -> u32 {
    if url.is_postgres() {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        2 * u32::try_from(cores).unwrap_or(u32::MAX / 4) + 2
    } else {
        6
    }
}

fn parse_var<T: std::str::FromStr>(name: &'static str, default: T) -> Result<T, ConfigError>
where
    T::Err: fmt::Display,
{
    match var(name) {
        None => Ok(default),
        Some(raw) => raw
            .trim()
            .parse()
            .map_err(|e| invalid(name, format!("cannot parse {raw:?} ({e})"))),
    }
}

fn millis(name: &'static str, default: Duration) -> Result<Duration, ConfigError> {
    let ms: u64 = parse_var(name, default.as_millis() as u64)?;
    Ok(Duration::from_millis(ms))
}

fn seconds(name: &'static str, default: Duration) -> Result<Duration, ConfigError> {
    let s: u64 = parse_var(name, default.as_secs())?;
    Ok(Duration::from_secs(s))
}

/// Parses `kind=value,kind=value`.
fn kind_map<T: std::str::FromStr>(name: &'static str) -> Result<HashMap<String, T>, ConfigError> {
    let mut out = HashMap::new();
    let Some(raw) = var(name) else {
        return Ok(out);
    };
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (kind, value) = part
            .split_once('=')
            .ok_or_else(|| invalid(name, format!("expected kind=value, got {part:?}")))?;
        let value = value
            .trim()
            .parse()
            .map_err(|_| invalid(name, format!("bad value in {part:?}")))?;
        out.insert(kind.trim().to_string(), value);
    }
    Ok(out)
}

impl Config {
    /// Reads the environment (after `.env`, if any). Creates the data directory and, when
    /// `SECRET_KEY` is unset, a random key kept in it.
    pub fn from_env() -> Result<Self, ConfigError> {
        // A missing .env is normal; a malformed one is not worth failing start-up over.
        let _ = dotenvy::dotenv();
        let data_dir = PathBuf::from(var("PROSPECTOR_DATA_DIR").unwrap_or_else(|| "./data".into()));
        std::fs::create_dir_all(&data_dir).map_err(|source| ConfigError::Io {
            var: "PROSPECTOR_DATA_DIR",
            source,
        })?;
        let database_url = match var("DATABASE_URL") {
            Some(raw) => DatabaseUrl::parse(&raw)?,
            None => DatabaseUrl::Sqlite(format!(
                "sqlite://{}",
                data_dir.join("prospector.db").display()
            )),
        };
        let db_max_connections = parse_var(
            "DB_MAX_CONNECTIONS",
            default_db_max_connections(&database_url),
        )?;
        let bind: IpAddr = parse_var("BIND", IpAddr::from([127, 0, 0, 1]))?;
        let port: u16 = parse_var("PORT", 8080)?;
        let public_base_url = var("PUBLIC_BASE_URL")
            .unwrap_or_else(|| format!("http://{bind}:{port}"))
            .trim_end_matches('/')
            .to_string();
        url::Url::parse(&public_base_url)
            .map_err(|e| invalid("PUBLIC_BASE_URL", format!("not a URL ({e})")))?;
        let secret_key = match var("SECRET_KEY") {
            Some(key) if key.len() >= 32 => key.into_bytes(),
            Some(_) => return Err(invalid("SECRET_KEY", "must be at least 32 characters")),
            None => load_or_create_key(&data_dir)?,
        };
        let admin_emails = var("ADMIN_EMAILS")
            .map(|raw| {
                raw.split(',')
                    .map(|e| e.trim().to_lowercase())
                    .filter(|e| !e.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let d = QueueSettings::default();
        let queue = QueueSettings {
            heartbeat_interval: millis("JOB_HEARTBEAT_INTERVAL_MS", d.heartbeat_interval)?,
            heartbeat_timeout: millis("JOB_HEARTBEAT_TIMEOUT_MS", d.heartbeat_timeout)?,
            shutdown_grace: millis("JOB_SHUTDOWN_GRACE_MS", d.shutdown_grace)?,
            retention: seconds("JOB_RETENTION_SECS", d.retention)?,
            backoff_base: millis("JOB_BACKOFF_BASE_MS", d.backoff_base)?,
            poll_interval: millis("JOB_POLL_INTERVAL_MS", d.poll_interval)?,
            concurrency: parse_var("WORKER_CONCURRENCY", d.concurrency)?,
            time_budgets: kind_map::<u64>("JOB_TIME_BUDGETS")?
                .into_iter()
                .map(|(k, v)| (k, Duration::from_secs(v)))
                .collect(),
            max_attempts: kind_map("JOB_MAX_ATTEMPTS")?,
            prune_cron: var("JOB_PRUNE_CRON").unwrap_or(d.prune_cron),
            sequence_tick_cron: var("SEQUENCE_TICK_CRON").unwrap_or(d.sequence_tick_cron),
            reminder_tick_cron: var("REMINDER_TICK_CRON").unwrap_or(d.reminder_tick_cron),
            mailbox_sync_cron: var("MAILBOX_SYNC_CRON").unwrap_or(d.mailbox_sync_cron),
            mailbox_idle_seconds: parse_var("MAILBOX_IDLE_SECONDS", d.mailbox_idle_seconds)?,
            reminder_offsets: match var("REMINDER_OFFSETS_MINUTES") {
                Some(raw) => reminder_offsets(&raw)?,
                None => d.reminder_offsets,
            },
        };
        if queue.heartbeat_timeout <= queue.heartbeat_interval {
            return Err(invalid(
                "JOB_HEARTBEAT_TIMEOUT_MS",
                "must be longer than JOB_HEARTBEAT_INTERVAL_MS",
            ));
        }
        if queue.concurrency == 0 {
            return Err(invalid("WORKER_CONCURRENCY", "must be at least 1"));
        }
        Ok(Self {
            database_url,
            bind,
            port,
            data_dir,
            public_base_url,
            secret_key: Secret::new(secret_key),
            admin_emails,
            web_dist: PathBuf::from(var("WEB_DIST").unwrap_or_else(|| "./web/dist".into())),
            log_json: var("LOG_FORMAT").is_some_and(|f| f.eq_ignore_ascii_case("json")),
            queue,
            login_attempts_per_minute: parse_var("LOGIN_ATTEMPTS_PER_MINUTE", 10)?,
            leads_per_minute: parse_var("LEADS_PER_MINUTE", 5)?,
            providers: ProviderSettings::from_env()?,
            read_cache_ttl: millis("READ_CACHE_TTL_MS", Duration::from_secs(1))?,
            db_max_connections,
            metrics_port: var("METRICS_PORT")
                .map(|p| {
                    p.parse()
                        .map_err(|_| invalid("METRICS_PORT", "must be a port number"))
                })
                .transpose()?,
            mail: MailSettings::from_env()?,
            limits: LimitSettings::from_env()?,
        })
    }

    pub fn is_admin_email(&self, email: &str) -> bool {
        self.admin_emails.iter().any(|e| e == email)
    }
}

fn load_or_create_key(data_dir: &std::path::Path) -> Result<Vec<u8>, ConfigError> {
    use std::io::Write;
    let path = data_dir.join("secret.key");
    let io = |source| ConfigError::Io {
        var: "SECRET_KEY",
        source,
    };
    let read = || -> Result<Vec<u8>, ConfigError> {
        let existing = std::fs::read(&path).map_err(io)?;
        if existing.len() < 32 {
            return Err(invalid(
                "SECRET_KEY",
                format!(
                    "{} is shorter than 32 bytes; remove it to have a new key made",
                    path.display()
                ),
            ));
        }
        Ok(existing)
    };
    if path.exists() {
        return read();
    }
    // Written whole to a private file, then linked into place: the link fails if another process
    // (api, worker and scheduler started together) made the key first, and that key wins. Nobody
    // ever reads a half-written key or one that others could read.
    let mut key = vec![0u8; 64];
    rand::rng().fill_bytes(&mut key);
    let tmp = data_dir.join(format!(
        ".secret.key.{}.{}",
        std::process::id(),
        rand::random::<u64>()
    ));
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    let written = opts
        .open(&tmp)
        .and_then(|mut f| f.write_all(&key).and_then(|()| f.sync_all()))
        .and_then(|()| std::fs::hard_link(&tmp, &path));
    let _ = std::fs::remove_file(&tmp);
    match written {
        Ok(()) => Ok(key),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => read(),
        Err(e) => Err(io(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processes_started_together_agree_on_one_private_key() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("temp dir: {e}"));
        let keys: Vec<Vec<u8>> = std::thread::scope(|s| {
            let all: Vec<_> = (0..8)
                .map(|_| s.spawn(|| load_or_create_key(dir.path())))
                .collect();
            all.into_iter()
                .map(|h| h.join().ok().and_then(Result::ok).unwrap_or_default())
                .collect()
        });
        assert_eq!(keys[0].len(), 64);
        assert!(keys.iter().all(|k| *k == keys[0]), "one key for all");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join("secret.key"))
                .map(|m| m.permissions().mode() & 0o777)
                .unwrap_or_default();
            assert_eq!(mode, 0o600);
        }
        let leftovers = std::fs::read_dir(dir.path())
            .map(Iterator::count)
            .unwrap_or(0);
        assert_eq!(leftovers, 1, "no temporary files left behind");
        std::fs::write(dir.path().join("secret.key"), b"short").unwrap_or_default();
        assert!(
            load_or_create_key(dir.path()).is_err(),
            "a damaged key is not replaced"
        );
    }

    #[test]
    fn the_relay_is_named_without_its_credentials() {
        let mail = |url: Option<&str>| MailSettings {
            smtp_url: url.map(|u| Secret::new(u.to_string())),
            ..MailSettings::default()
        };
        assert_eq!(
            mail(Some(
                "smtp://apikey:s3cret@smtp.sendgrid.net:587?tls=required"
            ))
            .relay(),
            Some("smtp.sendgrid.net:587".to_string())
        );
        assert_eq!(
            mail(Some("smtps://relay.example.com")).relay(),
            Some("relay.example.com".to_string())
        );
        assert_eq!(mail(None).relay(), None);
    }

    #[test]
    fn database_url_errors_name_the_variable_and_hide_the_password() {
        let err = DatabaseUrl::parse("mysql://root:hunter2@x/db")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.starts_with("DATABASE_URL:"), "{err}");
        assert!(!err.contains("hunter2"));
        let pg = DatabaseUrl::parse("postgres://u:hunter2@localhost/db");
        assert!(pg.as_ref().is_ok_and(|u| u.is_postgres()));
        assert!(!format!("{:?}", pg.ok()).contains("hunter2"));
    }

    #[test]
    fn trusted_proxies_take_cidrs_and_addresses_and_name_the_variable() {
        let nets = trusted_proxies("10.0.0.0/8, 192.168.1.10 ,fd00::/8,").unwrap_or_default();
        let shown: Vec<String> = nets.iter().map(ToString::to_string).collect();
        assert_eq!(shown, ["10.0.0.0/8", "192.168.1.10/32", "fd00::/8"]);
        let err = trusted_proxies("10.0.0.0/33").err().map(|e| e.to_string());
        assert!(err.is_some_and(|e| e.starts_with("TRUSTED_PROXIES")));
    }

    #[test]
    fn secrets_never_print() {
        assert_eq!(format!("{:?}", Secret::new("abc")), "Secret([redacted])");
    }
}
