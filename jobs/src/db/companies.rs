//! Companies: params, rows and the dispatching methods (SQL in sqlite/companies.rs and
//! postgres/companies.rs).

use std::collections::HashSet;

use super::*;

/// The columns of [`CompanyRow`] with `$desc` as the description expression (the report truncates
/// it in SQL); `contact_count` is counted per row.
macro_rules! company_columns {
    ($desc:literal) => {
        concat!(
            "id, name, industry, status, revenue, employees, founded, score, prospect_score, is_deal, \
             website, phone, address, city, state, zip_code, growth_rate, ",
            $desc,
            " AS description, competitor_alignment, discovered_at, last_contacted_at, discovery_source, \
             discovery_city, discovery_state, discovery_region, discovery_metadata, competitive_analysis, \
             lead_qualification, has_enhanced_data, created_at, updated_at, \
             (SELECT COUNT(*) FROM contacts ct WHERE ct.company_id = companies.id) AS contact_count"
        )
    };
}
pub(crate) use company_columns;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CompanyRow {
    pub id: String,
    pub name: String,
    pub industry: Option<String>,
    pub status: String,
    pub revenue: Option<i64>,
    pub employees: Option<i32>,
    pub founded: Option<i32>,
    pub score: i32,
    pub prospect_score: i32,
    pub is_deal: bool,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub growth_rate: Option<f64>,
    pub description: Option<String>,
    pub competitor_alignment: Option<i32>,
    pub discovered_at: Option<i64>,
    pub last_contacted_at: Option<i64>,
    pub discovery_source: Option<String>,
    pub discovery_city: Option<String>,
    pub discovery_state: Option<String>,
    pub discovery_region: Option<String>,
    pub discovery_metadata: Option<Json<Value>>,
    pub competitive_analysis: Option<Json<Value>>,
    pub lead_qualification: Option<Json<Value>>,
    pub has_enhanced_data: bool,
    pub created_at: i64,
    pub updated_at: i64,
    pub contact_count: i64,
}

#[derive(Debug, Clone, Default)]
pub struct CompanyFilter {
    /// Text searched in name, industry, city and state (case-insensitive substring).
    pub q: Option<String>,
    /// Upper-case state code.
    pub state: Option<String>,
    pub status: Option<String>,
    /// Inclusive score range.
    pub score_min: Option<i32>,
    pub score_max: Option<i32>,
}

pub struct CompanyList<'a> {
    pub filter: &'a CompanyFilter,
    pub limit: i64,
    pub offset: i64,
}

/// The columns a user edits (create form, edit dialog, status), written as a whole.
#[derive(Debug, Clone, PartialEq)]
pub struct CompanyWrite {
    pub id: String,
    pub name: String,
    pub industry: Option<String>,
    pub status: String,
    pub revenue: Option<i64>,
    pub employees: Option<i32>,
    pub score: i32,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub address: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub zip_code: Option<String>,
    pub description: Option<String>,
    pub discovery_source: Option<String>,
    pub now: i64,
}

impl From<&CompanyRow> for CompanyWrite {
    fn from(r: &CompanyRow) -> Self {
        Self {
            id: r.id.clone(),
            name: r.name.clone(),
            industry: r.industry.clone(),
            status: r.status.clone(),
            revenue: r.revenue,
            employees: r.employees,
            score: r.score,
            website: r.website.clone(),
            phone: r.phone.clone(),
            address: r.address.clone(),
            city: r.city.clone(),
            state: r.state.clone(),
            zip_code: r.zip_code.clone(),
            description: r.description.clone(),
            discovery_source: r.discovery_source.clone(),
            now: r.updated_at,
        }
    }
}

/// The customer report's summary tiles for a state (or all states).
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CompanyReportSummary {
    pub total_companies: i64,
    pub avg_revenue: Option<i64>,
    pub avg_employees: Option<i64>,
    pub qualified: i64,
}

impl Db {
    pub async fn company_get(&self, id: &str) -> Result<Option<CompanyRow>, sqlx::Error> {
        dispatch!(self, company_get(id))
    }
    /// Best score first, then name; with the total of the filter.
    /// A page and the total of the filter.
    pub async fn company_list(
        &self,
        p: &CompanyList<'_>,
    ) -> Result<(Vec<CompanyRow>, i64), sqlx::Error> {
        Ok((
            self.company_page(p).await?,
            self.company_count(p.filter).await?,
        ))
    }
    pub async fn company_page(&self, p: &CompanyList<'_>) -> Result<Vec<CompanyRow>, sqlx::Error> {
        dispatch!(self, company_page(p))
    }
    pub async fn company_count(&self, f: &CompanyFilter) -> Result<i64, sqlx::Error> {
        dispatch!(self, company_count(f))
    }
    /// Like [`Db::company_list`] with descriptions cut to `desc_chars` characters (the report).
    pub async fn company_list_report(
        &self,
        p: &CompanyList<'_>,
    ) -> Result<Vec<CompanyRow>, sqlx::Error> {
        dispatch!(self, company_list_report(p))
    }
    pub async fn company_report_summary(
        &self,
        state: Option<&str>,
    ) -> Result<CompanyReportSummary, sqlx::Error> {
        dispatch!(self, company_report_summary(state))
    }
}

impl Tx {
    pub async fn company_get_for_update(
        &mut self,
        id: &str,
    ) -> Result<Option<CompanyRow>, sqlx::Error> {
        dispatch_tx!(self, company_get_for_update(id))
    }
    pub async fn company_insert(&mut self, c: &CompanyWrite) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, company_insert(c))
    }
    pub async fn company_update(&mut self, c: &CompanyWrite) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, company_update(c))
    }
    /// Which of these ids are companies.
    pub async fn company_ids_existing(
        &mut self,
        ids: &[String],
    ) -> Result<HashSet<String>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        dispatch_tx!(self, company_ids_existing(ids))
    }
}
