//! Google Places API (New) Text Search (`GOOGLE_PLACES_API_KEY`): `POST /v1/places:searchText`
//! with the key in `X-Goog-Api-Key` and an `X-Goog-FieldMask` naming only the fields read below
//! (Google bills by the fields asked for), one text query per state of the search (or one for its
//! city), paged with `nextPageToken` while the request budget lasts.

use std::sync::atomic::AtomicU32;

use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::json;

use super::{
    Batch, DiscoveryProvider, DiscoveryQuery, FoundCompany, HttpSource, ProviderError, Source,
    forward,
};
use crate::config::{DiscoverySourceSettings, Secret};
use crate::domain::discovery::us_phone;
use crate::geo::{STATES, region_states, state_code};
use crate::providers::http::{HttpPolicy, send};

/// The fields read from an answer; nothing else is paid for.
pub const FIELD_MASK: &str = "places.id,places.displayName,places.formattedAddress,places.nationalPhoneNumber,places.websiteUri,places.regularOpeningHours.weekdayDescriptions,nextPageToken";
/// Results per page (the API's maximum).
const PAGE_SIZE: u32 = 20;
pub struct PlacesDiscovery {
    http: HttpSource,
    url: String,
    api_key: Secret<String>,
}

impl PlacesDiscovery {
    /// `None` without an API key.
    pub fn new(settings: &DiscoverySourceSettings) -> Option<Self> {
        Some(Self {
            http: HttpSource::new(Source::GooglePlaces, settings),
            url: format!(
                "{}/v1/places:searchText",
                settings.url.trim_end_matches('/')
            ),
            api_key: settings.api_key.clone()?,
        })
    }

    /// The same provider with another retry schedule (tests: short delays).
    pub fn with_policy(mut self, policy: HttpPolicy) -> Self {
        self.http.policy = policy;
        self
    }
}

/// What to ask for, by company type.
fn what(company_type: Option<&str>) -> &'static str {
    match company_type {
        Some("bath-shower") => "bathroom remodeling contractor",
        Some("kitchen-bath") => "kitchen and bath remodeler",
        Some("accessible-bath") => "accessible bathroom remodeling walk-in tub contractor",
        Some("luxury-bath") => "luxury bathroom remodeler",
        Some("plumbing") => "plumbing contractor",
        Some("roofing") => "roofing contractor",
        Some("home-improvement") => "home improvement remodeling contractor",
        _ => "home remodeling contractor",
    }
}

/// The text queries of a search: one per place, with the state each keeps.
pub fn text_queries(q: &DiscoveryQuery) -> Vec<(String, &'static str)> {
    let subject = match &q.company_name {
        Some(name) => name.clone(),
        None => what(q.company_type.as_deref()).to_string(),
    };
    let states: Vec<&'static str> = match (&q.state, q.region.as_deref()) {
        (Some(s), _) => state_code(s).into_iter().collect(),
        (None, Some(region)) => region_states(region).unwrap_or_default().to_vec(),
        (None, None) => crate::scoring::TARGET_STATES.to_vec(),
    };
    states
        .into_iter()
        .map(|code| {
            let state_name = STATES
                .iter()
                .find(|(c, _)| *c == code)
                .map_or(code, |(_, n)| *n);
            let place = match &q.city {
                Some(city) => format!("{city}, {code}"),
                None => state_name.to_string(),
            };
            (format!("{subject} in {place}"), code)
        })
        .collect()
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    #[serde(default)]
    places: Vec<Place>,
    next_page_token: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Place {
    id: Option<String>,
    display_name: Option<LocalizedText>,
    formatted_address: Option<String>,
    national_phone_number: Option<String>,
    website_uri: Option<String>,
    regular_opening_hours: Option<OpeningHours>,
}

#[derive(Deserialize)]
struct LocalizedText {
    text: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct OpeningHours {
    #[serde(default)]
    weekday_descriptions: Vec<String>,
}

/// Street, city, state and ZIP of a US `formattedAddress` ("12 Elm St, Dallas, TX 75201, USA").
pub fn split_address(
    formatted: &str,
) -> (
    Option<String>,
    Option<String>,
    Option<&'static str>,
    Option<String>,
) {
    let mut parts: Vec<&str> = formatted.split(',').map(str::trim).collect();
    if parts
        .last()
        .is_some_and(|p| matches!(*p, "USA" | "United States"))
    {
        parts.pop();
    }
    let Some(state_zip) = parts.pop() else {
        return (None, None, None, None);
    };
    let mut words = state_zip.split_whitespace();
    let state = words.next().and_then(state_code);
    let zip = words.next().map(str::to_string);
    if state.is_none() {
        return (Some(formatted.to_string()), None, None, None);
    }
    let city = parts.pop().map(str::to_string);
    let street = (!parts.is_empty()).then(|| parts.join(", "));
    (street, city, state, zip)
}

/// Parses one page: its companies (those in `state`) and the token of the next page.
pub fn parse_page(
    body: &str,
    state: &str,
    company_type: Option<&str>,
) -> Result<(Vec<FoundCompany>, Option<String>), ProviderError> {
    let answer: Answer = serde_json::from_str(body).map_err(|e| {
        ProviderError::Invalid(format!(
            "Google Places answer is not a Text Search response ({e})"
        ))
    })?;
    let companies = answer
        .places
        .into_iter()
        .filter_map(|p| {
            let name = p.display_name.map(|n| n.text.trim().to_string())?;
            if name.is_empty() {
                return None;
            }
            let (address, city, found_state, zip) = p
                .formatted_address
                .as_deref()
                .map(split_address)
                .unwrap_or_default();
            // Text Search also returns places just over the border: only the searched state's stay.
            if found_state.is_some_and(|s| s != state) {
                return None;
            }
            Some(FoundCompany {
                name,
                industry: None,
                company_type: company_type.map(str::to_string),
                revenue: None,
                employees: None,
                founded: None,
                website: p.website_uri,
                phone: p.national_phone_number.as_deref().and_then(us_phone),
                address,
                city,
                state: Some(state.to_string()),
                zip_code: zip,
                description: None,
                growth_rate: None,
                contacts: Vec::new(),
                external_id: p.id,
                opening_hours: p
                    .regular_opening_hours
                    .map(|h| h.weekday_descriptions.join("; "))
                    .filter(|h| !h.is_empty()),
            })
        })
        .collect();
    Ok((companies, answer.next_page_token.filter(|t| !t.is_empty())))
}

impl DiscoveryProvider for PlacesDiscovery {
    fn source(&self) -> Source {
        Source::GooglePlaces
    }

    fn search<'a>(
        &'a self,
        query: &'a DiscoveryQuery,
        sink: &'a tokio::sync::mpsc::Sender<Batch>,
    ) -> BoxFuture<'a, Result<(), ProviderError>> {
        Box::pin(async move {
            let spent = AtomicU32::new(0);
            'places: for (text, state) in text_queries(query) {
                let mut token: Option<String> = None;
                loop {
                    if !self.http.take(&spent).await {
                        break 'places;
                    }
                    let mut body = json!({"textQuery": text, "pageSize": PAGE_SIZE, "regionCode": "US", "languageCode": "en"});
                    if let Some(t) = &token {
                        body["pageToken"] = json!(t);
                    }
                    let answer = send(&self.http.policy, || {
                        self.http
                            .client
                            .post(&self.url)
                            .header("X-Goog-Api-Key", self.api_key.expose())
                            .header("X-Goog-FieldMask", FIELD_MASK)
                            .json(&body)
                    })
                    .await
                    .map_err(|e| ProviderError::from_http("Google Places", e))?;
                    let (found, next) = parse_page(&answer, state, query.company_type.as_deref())?;
                    forward(sink, found).await?;
                    match next {
                        Some(next) => token = Some(next),
                        None => break,
                    }
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_split_into_their_parts() {
        assert_eq!(
            split_address("12 Elm St, Suite 4, Dallas, TX 75201, USA"),
            (
                Some("12 Elm St, Suite 4".into()),
                Some("Dallas".into()),
                Some("TX"),
                Some("75201".into())
            )
        );
        assert_eq!(split_address("Somewhere far").2, None);
    }

    #[test]
    fn one_text_query_per_state() {
        let q = DiscoveryQuery {
            region: Some("southwest".into()),
            company_type: Some("plumbing".into()),
            ..Default::default()
        };
        let all = text_queries(&q);
        assert_eq!(all.len(), 7);
        assert!(
            all.iter()
                .any(|(t, s)| t == "plumbing contractor in Texas" && *s == "TX")
        );
        let city = DiscoveryQuery {
            city: Some("Dallas".into()),
            state: Some("TX".into()),
            ..Default::default()
        };
        assert_eq!(
            text_queries(&city)[0].0,
            "home remodeling contractor in Dallas, TX"
        );
    }
}
