//! Storing discovery results: each found company and its contacts are created or updated by their
//! natural keys (company: website domain, else name + state; contact: email, else name + company), so
//! re-running a scan updates and never duplicates.

use super::*;
use crate::domain::discovery::FoundCompany;

pub struct DiscoveryUpsert<'a> {
    pub company: &'a FoundCompany,
    pub domain: Option<&'a str>,
    pub score: i32,
    /// One score per contact of `company`, in order.
    pub contact_scores: &'a [i32],
    /// `city_state_search` or `region_search`.
    pub source: &'a str,
    pub discovery_city: Option<&'a str>,
    pub discovery_state: Option<&'a str>,
    pub discovery_region: Option<&'a str>,
    pub metadata: &'a Value,
    pub competitor_alignment: Option<i32>,
    pub growth_rate: Option<f64>,
    pub competitive_analysis: Option<&'a Value>,
    pub lead_qualification: Option<&'a Value>,
    pub has_enhanced_data: bool,
    pub now: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscoveryUpserted {
    pub company_id: String,
    pub company_created: bool,
    /// (id, created) per contact, in order.
    pub contacts: Vec<(String, bool)>,
}

impl Tx {
    pub async fn discovery_upsert(
        &mut self,
        d: &DiscoveryUpsert<'_>,
    ) -> Result<DiscoveryUpserted, sqlx::Error> {
        dispatch_tx!(self, discovery_upsert(d))
    }
}
