//! `company_enrich`: reads a company's own website (its home page, then the contact, team and
//! about pages it links to, [`MAX_PAGES`] in all) through the guarded client of
//! `providers::website`, stores what the site shows on the company, makes contacts of the people
//! its team page names, records the visit in the company's timeline and scores the company and its
//! contacts again (docs/providers.md, "Website enrichment").

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use url::Url;

use crate::db::{EnrichmentSave, FoundPerson};
use crate::enrich::{MAX_PAGES, PageFacts, SiteFacts, Skipped, read_page, service_label};
use crate::providers::website::{FetchError, Page};
use crate::queue::{JobContext, JobError, JobKind};
use crate::time::now_ms;

/// The longest company id a payload may carry (ids are ULIDs).
const MAX_ID: usize = 64;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CompanyEnrich {
    pub company_id: String,
    /// Who asked (the timeline's actor); none when enqueued by the system.
    #[serde(default)]
    pub actor_id: Option<String>,
}

/// The company's website as a URL: "acme.com" gets https://.
fn site_url(website: &str) -> Result<Url, String> {
    let w = website.trim();
    let full = if w.contains("://") {
        w.to_string()
    } else {
        format!("https://{w}")
    };
    Url::parse(&full).map_err(|_| format!("The website {w:?} is not a web address"))
}

/// Parses a page off the async runtime (a 1 MB page is CPU work).
async fn parse(page: Page) -> Result<PageFacts, JobError> {
    if !page.is_html {
        return Ok(PageFacts::default());
    }
    tokio::task::spawn_blocking(move || read_page(&page.body, &page.url))
        .await
        .map_err(|e| JobError::Retry(format!("reading the page failed: {e}")))
}

fn fetch_error(website: &str, e: FetchError) -> JobError {
    let message = format!("{website}: {e}");
    if e.is_transient() {
        JobError::Retry(message)
    } else {
        JobError::Permanent(message)
    }
}

/// What the visit found; with the count of contacts it made, once known.
fn describe(site: &SiteFacts, created: Option<usize>) -> String {
    let services: Vec<&str> = site
        .services
        .iter()
        .filter_map(|s| service_label(s))
        .collect();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut text = format!(
        "Website read ({}): {}, {}, {}, {}",
        plural(site.pages.len(), "page", "pages"),
        plural(site.emails.len(), "email", "emails"),
        plural(site.phones.len(), "phone", "phones"),
        plural(site.socials.len(), "social profile", "social profiles"),
        plural(site.people.len(), "person named", "people named"),
    );
    if let Some(n) = created {
        text.push_str(&format!(" ({})", plural(n, "new contact", "new contacts")));
    }
    if !services.is_empty() {
        text.push_str(&format!("; services: {}", services.join(", ")));
    }
    text
}

impl JobKind for CompanyEnrich {
    const NAME: &'static str = "company_enrich";
    const MAX_ATTEMPTS: i32 = 3;
    /// Four pages and their robots.txt at 10 s each, with room to store and rescore.
    const TIME_BUDGET: Duration = Duration::from_secs(90);

    fn validate(&self) -> Result<(), String> {
        let id = self.company_id.trim();
        if id.is_empty() || id.len() > MAX_ID {
            return Err("companyId is required".into());
        }
        Ok(())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db();
        let id = self.company_id.trim();
        let target = db
            .company_enrich_target(id)
            .await?
            .ok_or_else(|| JobError::Permanent("Company not found".into()))?;
        let website = target
            .website
            .filter(|w| !w.trim().is_empty())
            .ok_or_else(|| JobError::Permanent("The company has no website to read".into()))?;
        let start = site_url(&website).map_err(JobError::Permanent)?;
        let client = ctx.env.providers.website.clone();
        let mut visit = client.visit();
        ctx.progress(
            10,
            format!("Reading {}", start.host_str().unwrap_or("the website")),
        )
        .await?;
        let home = visit
            .get(&start)
            .await
            .map_err(|e| fetch_error(&website, e))?;
        let home_url = home.url.clone();
        let truncated = home.truncated;
        let facts = parse(home).await?;
        let next: Vec<Url> = facts.next.iter().take(MAX_PAGES - 1).cloned().collect();
        let mut site = SiteFacts::default();
        site.add(&home_url, facts, truncated);
        for (i, url) in next.iter().enumerate() {
            ctx.progress((25 + i * 20) as i32, format!("Reading {}", url.path()))
                .await?;
            match visit.get(url).await {
                Ok(page) if page.is_html => {
                    let (at, cut) = (page.url.clone(), page.truncated);
                    let facts = parse(page).await?;
                    site.add(&at, facts, cut);
                }
                Ok(page) => site.skipped.push(Skipped {
                    url: page.url.to_string(),
                    reason: "not an HTML page".into(),
                }),
                // One page missing is not the visit failing: it is reported with the rest.
                Err(e) => site.skipped.push(Skipped {
                    url: url.to_string(),
                    reason: e.to_string(),
                }),
            }
        }
        site.match_emails();
        let people: Vec<FoundPerson> = site
            .people
            .iter()
            .map(|p| FoundPerson {
                first_name: p.first_name.clone(),
                last_name: p.last_name.clone(),
                title: p.title.clone(),
                email: p.email.clone(),
            })
            .collect();
        ctx.progress(90, "Saving what the website shows").await?;
        let now = now_ms();
        let line = describe(&site, None);
        let saved = db
            .company_enrichment_save(&EnrichmentSave {
                company_id: id,
                facts: &site,
                phone: site.phones.first().map(String::as_str),
                people: &people,
                description: &line,
                actor_id: self.actor_id.as_deref(),
                now,
            })
            .await?
            .ok_or_else(|| JobError::Permanent("Company not found".into()))?;
        let score = db.company_rescore(id, now).await?;
        Ok(json!({
            "companyId": id,
            "companyName": target.name,
            "message": describe(&site, Some(saved.created.len())),
            "pages": site.pages,
            "skipped": site.skipped,
            "truncated": site.truncated,
            "emails": site.emails,
            "phones": site.phones,
            "socials": site.socials,
            "people": site.people,
            "services": site.services,
            "contactsCreated": saved.created.len(),
            "contactsKnown": saved.known,
            "requests": visit.requests,
            "score": score.as_ref().map(|s| s.score),
            "factors": score.map(|s| s.factors),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn websites_without_a_scheme_get_https() {
        assert_eq!(
            site_url("acme-bath.example").map(|u| u.to_string()),
            Ok("https://acme-bath.example/".to_string())
        );
        assert!(site_url("http://[not").is_err());
    }
}
