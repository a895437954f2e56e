//! `discovery_scan`: searches one or more sources for companies and decision makers side by side,
//! stores them (updating, never duplicating, each with the sources that found it), scores them,
//! and reports progress as it goes. Its time budget is hard: a quarter second before the worker
//! would stop it, the scan stops itself and keeps what it found.
//!
//! `discoverySource` (seed 000 §3) said how to search: `city_state_search` or `region_search`. It
//! still does, and may now also name sources (`osm`, `google_places`, `catalog`, `llm`): one
//! value, or a list mixing at most one search mode with sources. Without a source, the process'
//! default sources run (every configured one, else the catalog); without a mode, it follows from
//! whether a city or state is given, as before.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::DiscoveryUpsert;
use crate::domain::discovery::market_sizing;
use crate::geo::{COMPANY_TYPES, parse_city_state, state_code};
use crate::providers::discovery::{
    DiscoveryQuery, FoundCompany, ProviderError, REGIONS, REVENUE_RANGES, Source, domain_of,
};
use crate::queue::{JobContext, JobError, JobKind};
use crate::scoring::{CompanyFacts, ContactFacts, score_company, score_contact};
use crate::time::now_ms;

pub const MISSING_PARAMETERS: &str =
    "Please select all search parameters or enter a company name to search.";
pub const INVALID_CITY_STATE: &str = "Please enter a valid city and state (e.g., 'Dallas, TX' or 'Dallas Texas') or just a state name.";

/// A scan request, in the seed's field names (000 §3, §7.3).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiscoveryScan {
    #[serde(default)]
    pub region: Option<String>,
    #[serde(default)]
    pub revenue_range: Option<String>,
    #[serde(default)]
    pub company_type: Option<String>,
    #[serde(default)]
    pub company_name: Option<String>,
    /// Free text ("Dallas, TX"); parsed into `city` and `state` when those are not given.
    #[serde(default)]
    pub city_state: Option<String>,
    #[serde(default)]
    pub city: Option<String>,
    #[serde(default)]
    pub state: Option<String>,
    /// A search mode, a source, or a list of them (see the module's doc).
    #[serde(default)]
    pub discovery_source: Option<SourceChoice>,
    #[serde(default)]
    pub market_intelligence: bool,
    #[serde(default)]
    pub competitor_analysis: bool,
    #[serde(default)]
    pub territory_optimization: bool,
    #[serde(default)]
    pub lead_qualification: bool,
    /// True when any enhanced flag is on (the seed sends it; we derive it).
    #[serde(default)]
    pub enhanced_mode: bool,
}

/// `discoverySource`: one value or a list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum SourceChoice {
    One(String),
    Many(Vec<String>),
}

impl Default for SourceChoice {
    fn default() -> Self {
        Self::Many(Vec::new())
    }
}

/// The seed's search modes.
pub const SEARCH_MODES: [&str; 2] = ["city_state_search", "region_search"];

impl SourceChoice {
    fn values(&self) -> Vec<&str> {
        match self {
            Self::One(v) => vec![v.as_str()],
            Self::Many(v) => v.iter().map(String::as_str).collect(),
        }
    }

    /// The search mode named, if any.
    pub fn mode(&self) -> Option<&str> {
        self.values().into_iter().find(|v| SEARCH_MODES.contains(v))
    }

    /// The sources named, in order, each once.
    pub fn sources(&self) -> Vec<Source> {
        let mut out = Vec::new();
        for s in self.values().into_iter().filter_map(Source::parse) {
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    }
}

/// Why a scan request is refused, with the seed's texts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScanError {
    #[error("{MISSING_PARAMETERS}")]
    MissingParameters,
    #[error("{INVALID_CITY_STATE}")]
    InvalidCityState,
    #[error("{field} must be one of {allowed}")]
    NotAllowed {
        field: &'static str,
        allowed: String,
    },
}

impl ScanError {
    /// The toast title of the seed, for the API's answer.
    pub fn title(&self) -> &'static str {
        match self {
            Self::MissingParameters => "Missing Parameters",
            Self::InvalidCityState => "Invalid City/State",
            Self::NotAllowed { .. } => "Invalid Parameters",
        }
    }
}

fn blank_to_none(v: &mut Option<String>) {
    if v.as_deref().is_some_and(|s| s.trim().is_empty()) {
        *v = None;
    }
    if let Some(s) = v {
        *s = s.trim().to_string();
    }
}

fn one_of(field: &'static str, value: &Option<String>, allowed: &[&str]) -> Result<(), ScanError> {
    match value {
        Some(v) if !allowed.contains(&v.as_str()) => Err(ScanError::NotAllowed {
            field,
            allowed: allowed.join(", "),
        }),
        _ => Ok(()),
    }
}

impl DiscoveryScan {
    /// Normalises (blanks, city/state text, state codes, derived flags) and checks the request.
    pub fn normalize(mut self) -> Result<Self, ScanError> {
        for v in [
            &mut self.region,
            &mut self.revenue_range,
            &mut self.company_type,
            &mut self.company_name,
            &mut self.city_state,
            &mut self.city,
            &mut self.state,
        ] {
            blank_to_none(v);
        }
        let choice = self.discovery_source.take().unwrap_or_default();
        let mut values: Vec<String> = choice
            .values()
            .into_iter()
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .collect();
        values.dedup();
        if self.company_name.is_none()
            && (self.region.is_none()
                || self.revenue_range.is_none()
                || self.company_type.is_none())
        {
            return Err(ScanError::MissingParameters);
        }
        one_of("region", &self.region, &REGIONS)?;
        let ranges: Vec<&str> = REVENUE_RANGES.iter().map(|r| r.0).collect();
        one_of("revenueRange", &self.revenue_range, &ranges)?;
        one_of("companyType", &self.company_type, &COMPANY_TYPES)?;
        let allowed: Vec<&str> = SEARCH_MODES
            .into_iter()
            .chain(Source::ALL.map(Source::key))
            .collect();
        for v in &values {
            one_of("discoverySource", &Some(v.clone()), &allowed)?;
        }
        if values
            .iter()
            .filter(|v| SEARCH_MODES.contains(&v.as_str()))
            .count()
            > 1
        {
            return Err(ScanError::NotAllowed {
                field: "discoverySource",
                allowed: "at most one of city_state_search, region_search, with any sources".into(),
            });
        }
        if let Some(text) = self.city_state.take()
            && self.city.is_none()
            && self.state.is_none()
        {
            let parsed = parse_city_state(&text).ok_or(ScanError::InvalidCityState)?;
            self.city = parsed.city;
            self.state = parsed.state.map(str::to_string);
        }
        if let Some(s) = &self.state {
            self.state = Some(
                state_code(s)
                    .ok_or(ScanError::InvalidCityState)?
                    .to_string(),
            );
        }
        self.enhanced_mode = self.market_intelligence
            || self.competitor_analysis
            || self.territory_optimization
            || self.lead_qualification;
        let named = SourceChoice::Many(values);
        let mode = match named.mode() {
            Some(m) => m.to_string(),
            None if self.city.is_some() || self.state.is_some() => "city_state_search".into(),
            None => "region_search".into(),
        };
        // Normalised: the mode first, then the sources named (none: the defaults at run time).
        let mut list = vec![mode];
        list.extend(named.sources().into_iter().map(|s| s.key().to_string()));
        self.discovery_source = Some(SourceChoice::Many(list));
        Ok(self)
    }

    /// The search mode (after `normalize`).
    pub fn mode(&self) -> &str {
        self.discovery_source
            .as_ref()
            .and_then(SourceChoice::mode)
            .unwrap_or("region_search")
    }

    /// The sources the request names (none: the defaults).
    pub fn sources(&self) -> Vec<Source> {
        self.discovery_source
            .as_ref()
            .map(SourceChoice::sources)
            .unwrap_or_default()
    }

    fn query(&self) -> DiscoveryQuery {
        DiscoveryQuery {
            region: self.region.clone(),
            revenue_range: self.revenue_range.clone(),
            company_type: self.company_type.clone(),
            company_name: self.company_name.clone(),
            city: self.city.clone(),
            state: self.state.clone(),
        }
    }

    /// One key per distinct search, so the same search while it runs returns the running scan.
    pub fn dedupe_key(&self) -> String {
        use sha2::{Digest, Sha256};
        let canonical = serde_json::to_string(self)
            .unwrap_or_default()
            .to_lowercase();
        let digest = Sha256::digest(canonical.as_bytes());
        digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
    }
}

/// How far a company's product lines overlap ours (0–100), by company type.
fn competitor_alignment(company_type: Option<&str>) -> i32 {
    match company_type {
        Some("accessible-bath") => 95,
        Some("bath-shower") => 88,
        Some("kitchen-bath") => 76,
        Some("luxury-bath") => 70,
        Some("plumbing") => 55,
        Some("home-improvement") => 50,
        Some("roofing") => 25,
        _ => 40,
    }
}

fn company_facts(c: &FoundCompany) -> CompanyFacts {
    CompanyFacts {
        revenue: c.revenue,
        state: c.state.clone(),
        company_type: c.company_type.clone(),
        has_website: c.website.is_some(),
        has_phone: c.phone.is_some(),
        growth_rate: c.growth_rate,
    }
}

/// What one stored company contributes to the result.
struct Stored {
    company: Value,
    contacts: Vec<Value>,
    city: Option<String>,
    state: Option<String>,
    revenue: Option<i64>,
    company_type: Option<String>,
    score: i32,
}

/// What one source did in a scan.
#[derive(Default)]
struct SourceReport {
    found: usize,
    created: usize,
    updated: usize,
    elapsed: Duration,
    error: Option<ProviderError>,
}

impl JobKind for DiscoveryScan {
    const NAME: &'static str = "discovery_scan";
    const MAX_ATTEMPTS: i32 = 2;
    /// Seed 000 §9: 5 minutes. `JOB_TIME_BUDGETS=discovery_scan=N` changes it.
    const TIME_BUDGET: Duration = Duration::from_secs(300);

    fn validate(&self) -> Result<(), String> {
        self.clone()
            .normalize()
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let scan = self
            .normalize()
            .map_err(|e| JobError::Permanent(e.to_string()))?;
        let started = Instant::now();
        let budget = ctx
            .deadline
            .saturating_duration_since(tokio::time::Instant::now());
        // Stop a little before the worker would, so what was found is committed and reported.
        let stop_at = ctx.deadline - Duration::from_millis(250);
        let offered = ctx.env.providers.discovery.clone();
        let mut chosen = scan.sources();
        if chosen.is_empty() {
            chosen = offered.defaults().to_vec();
        }
        let query = scan.query();
        let mut reports: BTreeMap<Source, SourceReport> = BTreeMap::new();
        // Each source searches in its own task; a forwarder tags its batches with the source.
        let (tx, mut rx) = tokio::sync::mpsc::channel::<(Source, Vec<FoundCompany>)>(8);
        let mut searches = Vec::new();
        for source in &chosen {
            let Some(provider) = offered.get(*source) else {
                reports.entry(*source).or_default().error = Some(ProviderError::Invalid(format!(
                    "{} is not configured on this server",
                    source.label()
                )));
                continue;
            };
            let (ptx, mut prx) = tokio::sync::mpsc::channel(4);
            let q = query.clone();
            searches.push((
                *source,
                tokio::spawn(async move {
                    let t = Instant::now();
                    let r = provider.search(&q, &ptx).await;
                    (r, t.elapsed())
                }),
            ));
            let out = tx.clone();
            let source = *source;
            tokio::spawn(async move {
                while let Some(batch) = prx.recv().await {
                    if out.send((source, batch)).await.is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let names: Vec<&str> = chosen.iter().map(|s| s.label()).collect();
        ctx.progress(5, format!("Searching {}", names.join(", ")))
            .await?;

        let metadata = json!({
            "providers": chosen.iter().map(|s| s.key()).collect::<Vec<_>>(),
            "scanJobId": ctx.id,
            "competitorAnalysis": scan.competitor_analysis,
            "leadQualification": scan.lead_qualification,
            "enhancedMode": scan.enhanced_mode,
            "query": query,
        });
        let region = scan.region.as_deref();
        let mut stored: Vec<Stored> = Vec::new();
        // Two sources finding one business store one company: the result lists it once.
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut budget_exhausted = false;
        let mut contacts_found = 0usize;
        loop {
            let batch = tokio::select! {
                b = rx.recv() => b,
                _ = tokio::time::sleep_until(stop_at) => {
                    budget_exhausted = true;
                    None
                }
            };
            let Some((source, batch)) = batch else { break };
            let now = now_ms();
            let mut db_tx = ctx.db().begin().await?;
            // Companies we already had: scored again below with what we know beyond the scan
            // (website findings, engagement), which the scan's own score cannot see.
            let mut known: Vec<String> = Vec::new();
            for c in &batch {
                let facts = company_facts(c);
                let company_score = score_company(&facts);
                let contact_scores: Vec<i32> = c
                    .contacts
                    .iter()
                    .map(|p| {
                        score_contact(&ContactFacts {
                            title: p.title.clone(),
                            has_email: p.email.is_some(),
                            has_phone: p.phone.is_some(),
                            is_verified: false,
                            status: "new_lead".into(),
                            company: Some(facts.clone()),
                        })
                        .score
                    })
                    .collect();
                let alignment = competitor_alignment(c.company_type.as_deref());
                let partnership = (company_score.score * 6 + alignment * 4) / 10;
                let best_contact = contact_scores.iter().copied().max().unwrap_or(0);
                let qualification = (company_score.score + best_contact) / 2;
                let competitive = json!({ "partnershipOpportunity": partnership });
                let qualification_doc = json!({ "qualificationScore": qualification });
                let domain = c.website.as_deref().and_then(domain_of);
                let saved = db_tx
                    .discovery_upsert(&DiscoveryUpsert {
                        company: c,
                        domain: domain.as_deref(),
                        score: company_score.score,
                        contact_scores: &contact_scores,
                        mode: scan.mode(),
                        found_by: source,
                        discovery_city: scan.city.as_deref(),
                        discovery_state: scan.state.as_deref(),
                        discovery_region: region,
                        metadata: &metadata,
                        competitor_alignment: scan.competitor_analysis.then_some(alignment),
                        growth_rate: if scan.market_intelligence {
                            c.growth_rate
                        } else {
                            None
                        },
                        competitive_analysis: scan.competitor_analysis.then_some(&competitive),
                        lead_qualification: scan.lead_qualification.then_some(&qualification_doc),
                        has_enhanced_data: scan.enhanced_mode,
                        now,
                    })
                    .await?;
                let report = reports.entry(source).or_default();
                report.found += 1;
                if saved.company_created {
                    report.created += 1;
                } else {
                    report.updated += 1;
                    known.push(saved.company_id.clone());
                }
                let contacts: Vec<Value> = c
                    .contacts
                    .iter()
                    .zip(&saved.contacts)
                    .zip(&contact_scores)
                    .map(|((p, (id, created)), score)| {
                        json!({
                            "id": id, "companyId": saved.company_id, "firstName": p.first_name,
                            "lastName": p.last_name, "title": p.title, "score": score, "isNew": created,
                        })
                    })
                    .collect();
                contacts_found += contacts.len();
                if let Some(&i) = index.get(&saved.company_id) {
                    let entry = &mut stored[i];
                    if let Some(list) = entry.company["sources"].as_array_mut()
                        && !list.contains(&json!(source.key()))
                    {
                        list.push(json!(source.key()));
                    }
                    entry.contacts.extend(contacts);
                    continue;
                }
                index.insert(saved.company_id.clone(), stored.len());
                stored.push(Stored {
                    company: json!({
                        "id": saved.company_id, "name": c.name, "city": c.city, "state": c.state,
                        "score": company_score.score, "isNew": saved.company_created,
                        "website": c.website, "phone": c.phone, "openingHours": c.opening_hours,
                        "sources": [source.key()],
                    }),
                    contacts,
                    city: c.city.clone(),
                    state: c.state.clone(),
                    revenue: c.revenue,
                    company_type: c.company_type.clone(),
                    score: company_score.score,
                });
            }
            db_tx.commit().await?;
            for id in known {
                if let Some(score) = ctx.db().company_rescore(&id, now).await?
                    && let Some(&i) = index.get(&id)
                {
                    stored[i].score = score.score;
                    stored[i].company["score"] = json!(score.score);
                }
            }
            let percent = (10
                + stored.len() * 85 / crate::providers::discovery::catalog::MAX_RESULTS)
                .min(95) as i32;
            ctx.progress(
                percent,
                format!(
                    "Saving results: {} companies, {contacts_found} contacts",
                    stored.len()
                ),
            )
            .await?;
        }
        for (source, search) in searches {
            if budget_exhausted {
                search.abort();
                continue;
            }
            let report = reports.entry(source).or_default();
            match search.await {
                Ok((outcome, elapsed)) => {
                    report.elapsed = elapsed;
                    if let Err(e) = outcome {
                        tracing::warn!(source = source.key(), error = %e, "discovery source failed");
                        report.error = Some(e);
                    }
                }
                Err(e) => {
                    report.error = Some(ProviderError::Transient(format!(
                        "discovery search task failed: {e}"
                    )))
                }
            }
        }
        if stored.is_empty() {
            if budget_exhausted {
                return Err(JobError::Permanent(format!(
                    "time budget of {} s ran out before the provider returned any company",
                    budget.as_secs_f64().round()
                )));
            }
            if let Some(e) = failure(&reports) {
                return Err(e);
            }
        }
        Ok(result(
            &scan,
            stored,
            &reports,
            budget_exhausted,
            started.elapsed(),
        ))
    }
}

/// The job's error when no source found anything and some failed: a wait the provider asked for,
/// else a retry when any failure may pass, else a permanent failure with every reason.
fn failure(reports: &BTreeMap<Source, SourceReport>) -> Option<JobError> {
    let errors: Vec<&ProviderError> = reports.values().filter_map(|r| r.error.as_ref()).collect();
    if errors.is_empty() {
        return None;
    }
    let all = errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ");
    let wait = errors
        .iter()
        .filter_map(|e| match e {
            ProviderError::Throttled { after, .. } => Some(*after),
            _ => None,
        })
        .max();
    Some(match wait {
        Some(after) => JobError::RetryAfter { error: all, after },
        None if errors
            .iter()
            .any(|e| matches!(e, ProviderError::Transient(_))) =>
        {
            JobError::Retry(all)
        }
        None => JobError::Permanent(all),
    })
}

fn result(
    scan: &DiscoveryScan,
    stored: Vec<Stored>,
    reports: &BTreeMap<Source, SourceReport>,
    budget_exhausted: bool,
    elapsed: Duration,
) -> Value {
    let n = stored.len();
    let market = scan.market_intelligence.then(|| {
        let revenues: Vec<i64> = stored.iter().filter_map(|s| s.revenue).collect();
        let average = if revenues.is_empty() { 0 } else { revenues.iter().sum::<i64>() / revenues.len() as i64 };
        let mut by_range = BTreeMap::new();
        for (label, low, high) in REVENUE_RANGES {
            let count = revenues.iter().filter(|r| **r >= low && high.is_none_or(|h| **r < h)).count();
            by_range.insert(label, count);
        }
        let mut by_type: BTreeMap<String, usize> = BTreeMap::new();
        for s in &stored {
            *by_type.entry(s.company_type.clone().unwrap_or_else(|| "unknown".into())).or_default() += 1;
        }
        let average_score = stored.iter().map(|s| s.score as usize).sum::<usize>().checked_div(n).unwrap_or(0);
        json!({
            "totalCompanies": n, "averageRevenue": average.to_string(), "revenueDistribution": by_range,
            "companyTypes": by_type, "averageScore": average_score,
            "highQualityLeads": stored.iter().filter(|s| s.score >= 70).count(),
        })
    });
    let territory = scan.territory_optimization.then(|| {
        let mut by_city: BTreeMap<(String, String), (usize, i32, usize)> = BTreeMap::new();
        let mut by_state: BTreeMap<String, usize> = BTreeMap::new();
        for s in &stored {
            let key = (
                s.city.clone().unwrap_or_default(),
                s.state.clone().unwrap_or_default(),
            );
            *by_state.entry(key.1.clone()).or_default() += 1;
            let e = by_city.entry(key).or_default();
            e.0 += 1;
            e.1 += s.score;
            e.2 += usize::from(s.score >= 70);
        }
        let mut cities: Vec<Value> = by_city
            .into_iter()
            .map(|((city, state), (count, total, high))| {
                json!({ "city": city, "state": state, "companies": count,
                        "averageScore": total / count.max(1) as i32, "highQualityLeads": high })
            })
            .collect();
        cities.sort_by_key(|c| std::cmp::Reverse(c["companies"].as_u64().unwrap_or(0)));
        // The market's size in the searched states (Census CBP, NAICS 236118) against what was found.
        let states: Vec<&str> = match (scan.state.as_deref(), scan.region.as_deref()) {
            (Some(s), _) => vec![s],
            (None, Some(r)) => crate::geo::region_states(r).unwrap_or_default().to_vec(),
            (None, None) => by_state
                .keys()
                .map(String::as_str)
                .filter(|s| !s.is_empty())
                .collect(),
        };
        json!({ "cities": cities, "marketSize": market_sizing().insight(&states, &by_state) })
    });
    let sources: Vec<Value> = reports
        .iter()
        .map(|(source, r)| {
            json!({
                "source": source.key(), "label": source.label(), "verified": source.verified(),
                "attribution": source.attribution(), "found": r.found, "new": r.created,
                "updated": r.updated, "elapsedMs": r.elapsed.as_millis() as u64,
                "error": r.error.as_ref().map(ToString::to_string),
            })
        })
        .collect();
    let (companies, contacts): (Vec<Value>, Vec<Vec<Value>>) =
        stored.into_iter().map(|s| (s.company, s.contacts)).unzip();
    // A provider may list one person twice; storage merged them, the result lists them once.
    let mut seen = std::collections::HashSet::new();
    let contacts: Vec<Value> = contacts
        .into_iter()
        .flatten()
        .filter(|c| seen.insert(c["id"].as_str().unwrap_or_default().to_string()))
        .collect();
    json!({
        "companies": companies,
        "contacts": contacts,
        "sources": sources,
        "marketIntelligence": market,
        "territoryInsights": territory,
        "budgetExhausted": budget_exhausted,
        "elapsedMs": elapsed.as_millis() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_validation_rules() {
        let none = DiscoveryScan::default();
        assert_eq!(none.normalize(), Err(ScanError::MissingParameters));
        let by_name = DiscoveryScan {
            company_name: Some("Lone Star".into()),
            ..Default::default()
        };
        assert!(by_name.normalize().is_ok());
        let full = DiscoveryScan {
            region: Some("texas".into()),
            revenue_range: Some("5-10M".into()),
            company_type: Some("bath-shower".into()),
            city_state: Some("Dallas Texas".into()),
            lead_qualification: true,
            ..Default::default()
        };
        let n = full.normalize().unwrap_or_default();
        assert_eq!(
            (n.city.as_deref(), n.state.as_deref()),
            (Some("Dallas"), Some("TX"))
        );
        assert!(n.enhanced_mode);
        assert_eq!(n.mode(), "city_state_search");
        assert!(n.sources().is_empty(), "no source named: the defaults run");
        let mixed = DiscoveryScan {
            company_name: Some("x".into()),
            discovery_source: Some(SourceChoice::Many(vec![
                "osm".into(),
                "region_search".into(),
                "catalog".into(),
                "osm".into(),
            ])),
            ..Default::default()
        }
        .normalize()
        .unwrap_or_default();
        assert_eq!(mixed.mode(), "region_search");
        assert_eq!(mixed.sources(), vec![Source::Osm, Source::Catalog]);
        let one = DiscoveryScan {
            company_name: Some("x".into()),
            city: Some("Dallas".into()),
            discovery_source: Some(SourceChoice::One("google_places".into())),
            ..Default::default()
        }
        .normalize()
        .unwrap_or_default();
        assert_eq!(
            (one.mode(), one.sources()),
            ("city_state_search", vec![Source::GooglePlaces])
        );
        for bad in [
            SourceChoice::One("yelp".into()),
            SourceChoice::Many(vec!["region_search".into(), "city_state_search".into()]),
        ] {
            let r = DiscoveryScan {
                company_name: Some("x".into()),
                discovery_source: Some(bad),
                ..Default::default()
            }
            .normalize();
            assert!(
                matches!(
                    r,
                    Err(ScanError::NotAllowed {
                        field: "discoverySource",
                        ..
                    })
                ),
                "{r:?}"
            );
        }
        let bad_place = DiscoveryScan {
            company_name: Some("x".into()),
            city_state: Some(", ".into()),
            ..Default::default()
        };
        assert_eq!(bad_place.normalize(), Err(ScanError::InvalidCityState));
        let bad_region = DiscoveryScan {
            region: Some("florida".into()),
            revenue_range: Some("5-10M".into()),
            company_type: Some("bath-shower".into()),
            ..Default::default()
        };
        let err = bad_region
            .normalize()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            err.starts_with("region must be one of southwest, arkansas"),
            "{err}"
        );
    }

    #[test]
    fn same_search_same_key() {
        let a = DiscoveryScan {
            company_name: Some("Acme".into()),
            ..Default::default()
        };
        let b = DiscoveryScan {
            company_name: Some("ACME".into()),
            ..Default::default()
        };
        assert_eq!(a.dedupe_key(), b.dedupe_key());
        let c = DiscoveryScan {
            company_name: Some("Acme".into()),
            lead_qualification: true,
            ..Default::default()
        };
        assert_ne!(a.dedupe_key(), c.dedupe_key());
    }
}
