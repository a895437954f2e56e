//! Discovery through any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM): the model
//! is asked for companies and contacts with a strict JSON-schema `response_format`, and the answer is
//! parsed strictly. A truncated (`finish_reason: "length"`) or malformed answer is rejected whole, so
//! nothing half-parsed is ever stored.
//!
//! A model invents companies as readily as it finds them, so an answer is kept only when it can be
//! checked: its website must answer (a HEAD, or a GET where HEAD is refused, with a short timeout,
//! to a public address only: the name is resolved once, private and loopback addresses are
//! refused, the connection goes to the checked address and redirects are not followed), and a
//! phone that is not a plausible US number is dropped. What is kept is stored as unverified.

use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    Batch, DiscoveryProvider, DiscoveryQuery, FoundCompany, FoundContact, ProviderError,
    REVENUE_RANGES, Source,
};
use crate::config::Secret;
use crate::domain::discovery::us_phone;
use crate::domain::webhooks::refused_ip;
use crate::geo::{COMPANY_TYPES, state_code};
use crate::providers::http::{HttpError, HttpPolicy};
use crate::providers::llm::{LlmError, parse, post_chat};

pub struct OpenAiDiscovery {
    client: reqwest::Client,
    base_url: String,
    api_key: Option<Secret<String>>,
    model: String,
    policy: HttpPolicy,
    check: SiteCheck,
}

/// How an answer's website is checked.
#[derive(Debug, Clone)]
pub struct SiteCheck {
    pub timeout: std::time::Duration,
    /// Private and loopback addresses count as answering (tests against a local server only).
    pub allow_private: bool,
}

impl Default for SiteCheck {
    fn default() -> Self {
        Self {
            timeout: std::time::Duration::from_secs(4),
            allow_private: false,
        }
    }
}

/// Whether `website` answers over HTTP(S) from a public address (any status below 400; a
/// redirect counts: the site exists).
pub async fn site_answers(website: &str, check: &SiteCheck) -> bool {
    let text = website.trim();
    let with_scheme = if text.contains("://") {
        text.to_string()
    } else {
        format!("https://{text}")
    };
    let Ok(url) = url::Url::parse(&with_scheme) else {
        return false;
    };
    let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
        return false;
    };
    if !matches!(url.scheme(), "http" | "https") {
        return false;
    }
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let lookup = tokio::time::timeout(
        check.timeout,
        tokio::net::lookup_host((host.as_str(), port)),
    );
    let Ok(Ok(addrs)) = lookup.await else {
        return false;
    };
    let Some(addr) = addrs
        .into_iter()
        .find(|a| check.allow_private || refused_ip(a.ip()).is_none())
    else {
        return false;
    };
    // The connection goes to the address just checked, so DNS cannot swap in another.
    let Ok(client) = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .resolve(&host, addr)
        .timeout(check.timeout)
        .build()
    else {
        return false;
    };
    let answered = |r: &reqwest::Response| r.status().as_u16() < 400;
    match client.head(url.clone()).send().await {
        Ok(r) if answered(&r) => true,
        Ok(r) if matches!(r.status().as_u16(), 403 | 405 | 501) => {
            client.get(url).send().await.is_ok_and(|r| answered(&r))
        }
        _ => false,
    }
}

impl OpenAiDiscovery {
    pub fn new(
        base_url: &str,
        api_key: Option<Secret<String>>,
        model: &str,
        policy: HttpPolicy,
    ) -> Self {
        Self {
            client: reqwest::Client::new(),
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key,
            model: model.to_string(),
            policy,
            check: SiteCheck::default(),
        }
    }

    /// The same provider checking websites another way (tests: a local server).
    pub fn with_site_check(mut self, check: SiteCheck) -> Self {
        self.check = check;
        self
    }

    /// The answers that can be checked (see the module's doc), in order.
    async fn checked(&self, companies: Vec<FoundCompany>) -> Vec<FoundCompany> {
        let checks = companies.into_iter().map(|mut c| async move {
            let site = c.website.clone()?;
            if !site_answers(&site, &self.check).await {
                tracing::info!(company = %c.name, website = %site, "AI suggestion dropped: its website does not answer");
                return None;
            }
            c.phone = c.phone.as_deref().and_then(us_phone);
            for p in &mut c.contacts {
                p.phone = p.phone.as_deref().and_then(us_phone);
            }
            Some(c)
        });
        futures::future::join_all(checks)
            .await
            .into_iter()
            .flatten()
            .collect()
    }
}

fn nullable(t: &str) -> Value {
    json!({ "type": [t, "null"] })
}

/// The answer's shape; strict mode needs every property listed and required.
fn schema() -> Value {
    let contact = json!({
        "type": "object", "additionalProperties": false,
        "required": ["firstName", "lastName", "title", "email", "phone", "linkedinUrl"],
        "properties": {
            "firstName": {"type": "string"}, "lastName": {"type": "string"}, "title": nullable("string"),
            "email": nullable("string"), "phone": nullable("string"), "linkedinUrl": nullable("string"),
        }
    });
    let company = json!({
        "type": "object", "additionalProperties": false,
        "required": ["name", "industry", "companyType", "revenue", "employees", "website", "phone", "address",
                     "city", "state", "zipCode", "description", "contacts"],
        "properties": {
            "name": {"type": "string"}, "industry": nullable("string"),
            "companyType": {"type": ["string", "null"], "enum": COMPANY_TYPES.iter().map(|t| Value::from(*t)).chain([Value::Null]).collect::<Vec<_>>()},
            "revenue": nullable("integer"), "employees": nullable("integer"), "website": nullable("string"),
            "phone": nullable("string"), "address": nullable("string"), "city": nullable("string"),
            "state": nullable("string"), "zipCode": nullable("string"), "description": nullable("string"),
            "contacts": {"type": "array", "items": contact},
        }
    });
    json!({
        "type": "object", "additionalProperties": false, "required": ["companies"],
        "properties": { "companies": {"type": "array", "items": company} }
    })
}

fn prompt(q: &DiscoveryQuery) -> String {
    let mut parts = vec![
        "Find remodeling companies that could become dealers of bath, accessibility and remodeling products, \
         with their decision makers (owners, executives, sales and operations leaders)."
            .to_string(),
    ];
    if let Some(n) = &q.company_name {
        parts.push(format!("Company name contains: {n}."));
    }
    if let Some(r) = &q.region {
        parts.push(format!("Region: {r}."));
    }
    if let Some(city) = &q.city {
        parts.push(format!("City: {city}."));
    }
    if let Some(state) = &q.state {
        parts.push(format!("State: {state}."));
    }
    if let Some(range) = &q.revenue_range
        && let Some((_, low, high)) = REVENUE_RANGES.iter().find(|(l, ..)| l == range)
    {
        parts.push(match high {
            Some(h) => format!("Annual revenue between ${low} and ${h} (whole US dollars)."),
            None => format!("Annual revenue of at least ${low} (whole US dollars)."),
        });
    }
    if let Some(t) = &q.company_type {
        parts.push(format!("Company type: {t}."));
    }
    parts.push("Only real, verifiable businesses; use null for anything you do not know. States as two-letter codes.".into());
    parts.join(" ")
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    companies: Vec<AnswerCompany>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AnswerCompany {
    name: String,
    industry: Option<String>,
    company_type: Option<String>,
    revenue: Option<i64>,
    employees: Option<i32>,
    website: Option<String>,
    phone: Option<String>,
    address: Option<String>,
    city: Option<String>,
    state: Option<String>,
    zip_code: Option<String>,
    description: Option<String>,
    contacts: Vec<AnswerContact>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AnswerContact {
    first_name: String,
    last_name: String,
    title: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    linkedin_url: Option<String>,
}

/// Parses the completion body into companies, or says precisely why it cannot be used.
pub fn parse_completion(body: &str) -> Result<Vec<FoundCompany>, ProviderError> {
    let invalid = |m: String| ProviderError::Invalid(format!("discovery answer rejected: {m}"));
    // The same envelope checks as every AI task (no choices, refused, cut off, not JSON).
    let (value, _) = parse(body).map_err(|e| match e {
        LlmError::Malformed(m) | LlmError::Unavailable(m) => invalid(m),
    })?;
    let answer: Answer = serde_json::from_value(value)
        .map_err(|e| invalid(format!("the answer does not match the schema ({e})")))?;
    answer
        .companies
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            if c.name.trim().is_empty() {
                return Err(invalid(format!("company {} has no name", i + 1)));
            }
            if let Some(t) = &c.company_type
                && !COMPANY_TYPES.contains(&t.as_str())
            {
                return Err(invalid(format!(
                    "company {} has an unknown type {t:?}",
                    i + 1
                )));
            }
            if c.revenue.is_some_and(|r| r < 0) || c.employees.is_some_and(|e| e < 0) {
                return Err(invalid(format!("company {} has a negative figure", i + 1)));
            }
            let contacts = c
                .contacts
                .into_iter()
                .filter(|p| !p.first_name.trim().is_empty() && !p.last_name.trim().is_empty())
                .map(|p| FoundContact {
                    first_name: p.first_name.trim().to_string(),
                    last_name: p.last_name.trim().to_string(),
                    title: p.title,
                    department: None,
                    email: p
                        .email
                        .map(|e| e.trim().to_lowercase())
                        .filter(|e| e.contains('@')),
                    phone: p.phone,
                    linkedin_url: p.linkedin_url,
                })
                .collect();
            Ok(FoundCompany {
                name: c.name.trim().to_string(),
                industry: c.industry,
                company_type: c.company_type,
                revenue: c.revenue,
                employees: c.employees,
                founded: None,
                website: c.website,
                phone: c.phone,
                address: c.address,
                city: c.city,
                // A state the model names in full or in an odd case still lands as its code.
                state: c.state.as_deref().and_then(state_code).map(str::to_string),
                zip_code: c.zip_code,
                description: c.description,
                growth_rate: None,
                contacts,
                external_id: None,
                opening_hours: None,
            })
        })
        .collect()
}

impl DiscoveryProvider for OpenAiDiscovery {
    fn source(&self) -> Source {
        Source::Llm
    }

    fn search<'a>(
        &'a self,
        query: &'a DiscoveryQuery,
        sink: &'a tokio::sync::mpsc::Sender<Batch>,
    ) -> BoxFuture<'a, Result<(), ProviderError>> {
        Box::pin(async move {
            let body = json!({
                "model": self.model,
                "temperature": 0.2,
                "messages": [
                    {"role": "system", "content": "You are a B2B research assistant. Answer only with JSON matching the schema."},
                    {"role": "user", "content": prompt(query)},
                ],
                "response_format": {
                    "type": "json_schema",
                    "json_schema": {"name": "discovery_results", "strict": true, "schema": schema()},
                },
            });
            let text = post_chat(
                &self.client,
                &self.policy,
                &self.base_url,
                self.api_key.as_ref(),
                &body,
            )
            .await
            .map_err(|e| match e {
                HttpError::Status { status, .. } if !(status == 429 || status >= 500) => {
                    ProviderError::Invalid(format!("discovery provider refused the request: {e}"))
                }
                e => ProviderError::Transient(format!("discovery provider unavailable: {e}")),
            })?;
            let companies = self.checked(parse_completion(&text)?).await;
            if !companies.is_empty() {
                sink.send(companies)
                    .await
                    .map_err(|_| ProviderError::Transient("the scan stopped listening".into()))?;
            }
            Ok(())
        })
    }
}
