//! OpenStreetMap through the Overpass API (`OVERPASS_URL`, no key). One query per state of the
//! search (or one for the city's administrative area inside its state) asks for the
//! remodeling-related tags of the search's company type, and each element with a name becomes a
//! company: `addr:*` for the address, `phone`/`contact:phone`, `website`/`contact:website`,
//! `opening_hours`. OpenStreetMap data is © OpenStreetMap contributors under the ODbL; the
//! attribution is stored with every company it found and shown with the results.
//!
//! OSM knows nothing of revenue, so a search's revenue range does not narrow it.

use std::collections::HashMap;
use std::sync::atomic::AtomicU32;

use futures::future::BoxFuture;
use serde::Deserialize;

use super::{
    Batch, DiscoveryProvider, DiscoveryQuery, FoundCompany, HttpSource, ProviderError, Source,
    forward,
};
use crate::config::DiscoverySourceSettings;
use crate::domain::discovery::us_phone;
use crate::geo::{region_states, state_code};
use crate::providers::http::{HttpPolicy, send};

/// Most elements one query returns (Overpass' `out … N`).
const PER_QUERY: usize = 200;
pub struct OverpassDiscovery {
    http: HttpSource,
    url: String,
}

impl OverpassDiscovery {
    pub fn new(settings: &DiscoverySourceSettings) -> Self {
        Self {
            http: HttpSource::new(Source::Osm, settings),
            url: settings.url.clone(),
        }
    }

    /// The same provider with another retry schedule (tests: short delays).
    pub fn with_policy(mut self, policy: HttpPolicy) -> Self {
        self.http.policy = policy;
        self
    }
}

/// The OSM tags (key, values) that mark a business of `company_type`; all of them without one.
pub fn tags_for(company_type: Option<&str>) -> Vec<(&'static str, &'static [&'static str])> {
    const BUILDERS: (&str, &[&str]) = ("craft", &["builder", "carpenter", "plumber", "tiler"]);
    const SHOPS: (&str, &[&str]) = ("shop", &["bathroom_furnishing", "kitchen", "doityourself"]);
    const OFFICES: (&str, &[&str]) = ("office", &["construction_company"]);
    match company_type {
        Some("bath-shower") => vec![
            ("shop", &["bathroom_furnishing"]),
            ("craft", &["tiler", "plumber"]),
        ],
        Some("kitchen-bath") => vec![
            ("shop", &["kitchen", "bathroom_furnishing"]),
            ("craft", &["carpenter", "tiler"]),
        ],
        Some("accessible-bath") => vec![
            ("shop", &["bathroom_furnishing", "medical_supply"]),
            ("craft", &["plumber"]),
        ],
        Some("luxury-bath") => vec![("shop", &["bathroom_furnishing", "interior_decoration"])],
        Some("plumbing") => vec![("craft", &["plumber"])],
        Some("roofing") => vec![("craft", &["roofer"])],
        Some("home-improvement") => vec![
            ("craft", &["builder", "carpenter"]),
            ("shop", &["doityourself"]),
            OFFICES,
        ],
        _ => vec![BUILDERS, SHOPS, OFFICES, ("craft", &["roofer"])],
    }
}

/// A value inside an Overpass QL double-quoted string.
fn ql_string(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '\\' => vec!['\\', '\\'],
            '"' => vec!['\\', '"'],
            c => vec![c],
        })
        .collect()
}

/// `text` as a regular expression that matches it literally.
fn literal_regex(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if ".*+?()[]{}|^$\\".contains(c) {
                vec!['\\', c]
            } else {
                vec![c]
            }
        })
        .collect()
}

/// The Overpass QL query for one state (and optionally a city in it).
pub fn query_text(state: &str, city: Option<&str>, q: &DiscoveryQuery) -> String {
    let mut text = format!(
        "[out:json][timeout:50];\narea[\"ISO3166-2\"=\"US-{}\"][admin_level=4]->.state;\n",
        ql_string(state)
    );
    let within = match city {
        Some(city) => {
            text.push_str(&format!(
                "rel[boundary=administrative][name=\"{}\"](area.state);map_to_area->.where;\n",
                ql_string(city)
            ));
            "area.where"
        }
        None => "area.state",
    };
    let name = q
        .company_name
        .as_deref()
        .map(|n| format!("[\"name\"~\"{}\",i]", ql_string(&literal_regex(n))))
        .unwrap_or_else(|| "[\"name\"]".to_string());
    text.push_str("(\n");
    for (key, values) in tags_for(q.company_type.as_deref()) {
        text.push_str(&format!(
            "  nwr[\"{key}\"~\"^({})$\"]{name}({within});\n",
            values.join("|")
        ));
    }
    text.push_str(&format!(");\nout center tags {PER_QUERY};\n"));
    text
}

#[derive(Deserialize)]
struct Answer {
    elements: Vec<Element>,
    /// Overpass reports a query that ran out of time or memory here, with a 200.
    #[serde(default)]
    remark: Option<String>,
}

#[derive(Deserialize)]
struct Element {
    #[serde(rename = "type")]
    kind: String,
    id: i64,
    #[serde(default)]
    tags: HashMap<String, String>,
}

/// What the business does, in words, from its tags.
fn industry(tags: &HashMap<String, String>) -> Option<(String, Option<&'static str>)> {
    let (label, company_type) = match (
        tags.get("craft").map(String::as_str),
        tags.get("shop").map(String::as_str),
        tags.get("office").map(String::as_str),
    ) {
        (Some("plumber"), ..) => ("Plumbing", Some("plumbing")),
        (Some("tiler"), ..) => ("Tile & Bath", Some("bath-shower")),
        (Some("roofer"), ..) => ("Roofing", Some("roofing")),
        (Some("carpenter"), ..) => ("Carpentry & Remodeling", Some("home-improvement")),
        (Some("builder"), ..) => ("Home Building & Remodeling", Some("home-improvement")),
        (_, Some("bathroom_furnishing"), _) => ("Bathroom Furnishing", Some("bath-shower")),
        (_, Some("kitchen"), _) => ("Kitchens", Some("kitchen-bath")),
        (_, Some("doityourself"), _) => ("Home Improvement Store", Some("home-improvement")),
        (_, Some("medical_supply"), _) => {
            ("Accessibility & Medical Supply", Some("accessible-bath"))
        }
        (_, Some("interior_decoration"), _) => ("Interior Design", Some("luxury-bath")),
        (.., Some("construction_company")) => ("Construction", Some("home-improvement")),
        _ => return None,
    };
    Some((label.to_string(), company_type))
}

/// One element as a company; `None` without a name.
fn company(e: Element, searched_state: &str) -> Option<FoundCompany> {
    let tags = e.tags;
    let get = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| tags.get(*k))
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let name = get(&["name", "brand"])?;
    let (industry, company_type) = industry(&tags).unzip();
    let street = match (get(&["addr:housenumber"]), get(&["addr:street"])) {
        (Some(n), Some(s)) => Some(format!("{n} {s}")),
        (None, Some(s)) => Some(s),
        _ => get(&["addr:full"]),
    };
    let state = get(&["addr:state"])
        .as_deref()
        .and_then(state_code)
        .unwrap_or(searched_state)
        .to_string();
    // OSM phones are free text, often with several numbers: the first plausible one is kept.
    let phone =
        get(&["phone", "contact:phone"]).and_then(|p| p.split([';', ',']).find_map(us_phone));
    let website = get(&["website", "contact:website", "url"]).map(|w| {
        if w.contains("://") {
            w
        } else {
            format!("https://{w}")
        }
    });
    Some(FoundCompany {
        name,
        industry,
        company_type: company_type.flatten().map(str::to_string),
        revenue: None,
        employees: None,
        founded: None,
        website,
        phone,
        address: street,
        city: get(&["addr:city"]),
        state: Some(state),
        zip_code: get(&["addr:postcode"]),
        description: get(&["description"]),
        growth_rate: None,
        contacts: Vec::new(),
        external_id: Some(format!("{}/{}", e.kind, e.id)),
        opening_hours: get(&["opening_hours"]),
    })
}

/// Parses an Overpass JSON answer into companies, or says why it cannot be used.
pub fn parse_answer(body: &str, searched_state: &str) -> Result<Vec<FoundCompany>, ProviderError> {
    let answer: Answer = serde_json::from_str(body).map_err(|e| {
        ProviderError::Invalid(format!("OpenStreetMap answer is not Overpass JSON ({e})"))
    })?;
    if answer.elements.is_empty()
        && let Some(remark) = answer.remark.filter(|r| r.contains("error"))
    {
        // A query that ran out of time on a busy server may pass later.
        return Err(ProviderError::Transient(format!(
            "OpenStreetMap query failed: {}",
            remark.chars().take(200).collect::<String>()
        )));
    }
    Ok(answer
        .elements
        .into_iter()
        .filter_map(|e| company(e, searched_state))
        .collect())
}

impl DiscoveryProvider for OverpassDiscovery {
    fn source(&self) -> Source {
        Source::Osm
    }

    fn search<'a>(
        &'a self,
        query: &'a DiscoveryQuery,
        sink: &'a tokio::sync::mpsc::Sender<Batch>,
    ) -> BoxFuture<'a, Result<(), ProviderError>> {
        Box::pin(async move {
            let states: Vec<&str> = match (&query.state, query.region.as_deref()) {
                (Some(s), _) => vec![s.as_str()],
                (None, Some(region)) => region_states(region).unwrap_or_default().to_vec(),
                (None, None) => crate::scoring::TARGET_STATES.to_vec(),
            };
            let spent = AtomicU32::new(0);
            for state in states {
                if !self.http.take(&spent).await {
                    break;
                }
                let text = query_text(state, query.city.as_deref(), query);
                let body = send(&self.http.policy, || {
                    self.http
                        .client
                        .post(&self.url)
                        .form(&[("data", text.as_str())])
                })
                .await
                .map_err(|e| ProviderError::from_http("OpenStreetMap (Overpass)", e))?;
                forward(sink, parse_answer(&body, state)?).await?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_asks_for_the_types_tags_in_the_place() {
        let q = DiscoveryQuery {
            company_type: Some("plumbing".into()),
            company_name: Some("A\"b.c".into()),
            ..Default::default()
        };
        let text = query_text("TX", Some("Dallas"), &q);
        assert!(text.contains("area[\"ISO3166-2\"=\"US-TX\"]"), "{text}");
        assert!(text.contains("[name=\"Dallas\"](area.state)"), "{text}");
        assert!(
            text.contains(
                "nwr[\"craft\"~\"^(plumber)$\"][\"name\"~\"A\\\"b\\\\.c\",i](area.where)"
            ),
            "{text}"
        );
        assert!(!text.contains("roofer"));
    }

    #[test]
    fn elements_become_companies() {
        let body = r#"{"version":0.6,"elements":[
            {"type":"node","id":1,"lat":32.7,"lon":-96.8,"tags":{"name":"Lone Star Plumbing","craft":"plumber",
             "addr:housenumber":"12","addr:street":"Elm St","addr:city":"Dallas","addr:postcode":"75201",
             "phone":"+1 214 748 3647; +1 214 555 0100","website":"lonestarplumbing.com","opening_hours":"Mo-Fr 08:00-17:00"}},
            {"type":"way","id":2,"center":{"lat":1,"lon":2},"tags":{"shop":"kitchen"}}]}"#;
        let found = parse_answer(body, "TX").unwrap_or_default();
        assert_eq!(found.len(), 1, "an element without a name is skipped");
        let c = &found[0];
        assert_eq!(c.address.as_deref(), Some("12 Elm St"));
        assert_eq!(c.phone.as_deref(), Some("(214) 748-3647"));
        assert_eq!(c.website.as_deref(), Some("https://lonestarplumbing.com"));
        assert_eq!(c.company_type.as_deref(), Some("plumbing"));
        assert_eq!(c.external_id.as_deref(), Some("node/1"));
        assert_eq!(c.state.as_deref(), Some("TX"));
        assert!(matches!(
            parse_answer("<html>", "TX"),
            Err(ProviderError::Invalid(_))
        ));
        assert!(matches!(
            parse_answer(
                r#"{"elements":[],"remark":"runtime error: Query timed out"}"#,
                "TX"
            ),
            Err(ProviderError::Transient(_))
        ));
    }
}
