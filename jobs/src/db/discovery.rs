//! Storing discovery results: each found company and its contacts are created or updated by their
//! natural keys (company: website domain, else normalised name + city + state; contact: email, else
//! name + company), so re-running a scan, or another source finding the same business, updates and
//! never duplicates. Each source that found a company is a `company_sources` row with when it
//! first and last saw it.

use sqlx::types::Json;

use super::sql::Sql;
use super::*;
use crate::domain::discovery::{FoundCompany, Source, name_key};

pub struct DiscoveryUpsert<'a> {
    pub company: &'a FoundCompany,
    pub domain: Option<&'a str>,
    pub score: i32,
    /// One score per contact of `company`, in order.
    pub contact_scores: &'a [i32],
    /// How the scan searched: `city_state_search` or `region_search`.
    pub mode: &'a str,
    /// The source that found the company.
    pub found_by: Source,
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

const COMPANY_BY_DOMAIN: Sql = sql!("SELECT id FROM companies WHERE domain = ?1");
// The companies that may be this one by name: same state, same city when both know it, a name
// starting with the same word (the normalised comparison is `name_key`, in Rust).
// Differs: SQLite compares a NULL state with IS; Postgres needs IS NOT DISTINCT FROM and the types of
// NULL parameters.
const COMPANY_BY_NAME: Sql = Sql {
    sqlite: "SELECT id, name FROM companies WHERE state IS ?1
               AND (city IS NULL OR ?2 IS NULL OR lower(city) = lower(?2))
               AND (?3 IS NULL OR domain IS NULL) AND lower(name) LIKE ?4 ORDER BY created_at",
    postgres:
        "SELECT id, name FROM companies WHERE state IS NOT DISTINCT FROM $1
               AND (city IS NULL OR $2::text IS NULL OR lower(city) = lower($2))
               AND ($3::text IS NULL OR domain IS NULL) AND lower(name) LIKE $4 ORDER BY created_at",
    generic_plan: false,
};
const SOURCE_UPSERT: Sql = sql!(
    "INSERT INTO company_sources (company_id, source, external_id, verified, attribution, opening_hours,
                                  first_seen_at, last_seen_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)
     ON CONFLICT (company_id, source) DO UPDATE SET
         external_id = COALESCE(excluded.external_id, company_sources.external_id),
         verified = excluded.verified, attribution = excluded.attribution,
         opening_hours = COALESCE(excluded.opening_hours, company_sources.opening_hours),
         last_seen_at = excluded.last_seen_at"
);
const COMPANY_INSERT: Sql = sql!("INSERT INTO companies (id, name, industry, company_type, status, revenue, employees, founded, score,
                 prospect_score, website, domain, phone, address, city, state, zip_code, description, discovered_at,
                 created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, 'discovered', ?5, ?6, ?7, ?8, ?8, ?9, ?10, ?11,
                 ?12, ?13, ?14, ?15, ?16, ?17, ?17, ?17)");
const COMPANY_UPDATE: Sql = sql!("UPDATE companies SET industry = COALESCE(?2, industry), company_type = COALESCE(?3, company_type),
                 revenue = COALESCE(?4, revenue), employees = COALESCE(?5, employees),
                 founded = COALESCE(?6, founded), score = ?7, prospect_score = ?7,
                 website = COALESCE(?8, website), domain = COALESCE(domain, ?9), phone = COALESCE(?10, phone),
                 address = COALESCE(?11, address), city = COALESCE(?12, city), zip_code = COALESCE(?13, zip_code),
                 description = COALESCE(?14, description), updated_at = ?15
             WHERE id = ?1");
const COMPANY_DISCOVERY: Sql = sql!("UPDATE companies SET discovery_source = ?2, discovery_city = ?3, discovery_state = ?4,
             discovery_region = ?5, discovery_metadata = ?6,
             competitor_alignment = COALESCE(?7, competitor_alignment), growth_rate = COALESCE(?8, growth_rate),
             competitive_analysis = COALESCE(?9, competitive_analysis),
             lead_qualification = COALESCE(?10, lead_qualification),
             has_enhanced_data = (has_enhanced_data OR ?11), discovered_at = COALESCE(discovered_at, ?12)
         WHERE id = ?1");
const CONTACT_BY_EMAIL: Sql = sql!("SELECT id FROM contacts WHERE lower(email) = lower(?1)");
const CONTACT_BY_NAME: Sql = sql!(
    "SELECT id FROM contacts WHERE lower(first_name) = lower(?1) AND lower(last_name) = lower(?2)
                   AND company_id = ?3 LIMIT 1"
);
const CONTACT_UPDATE: Sql = sql!(
    "UPDATE contacts SET title = COALESCE(?2, title), department = COALESCE(?3, department),
                         phone = COALESCE(?4, phone), linkedin_url = COALESCE(?5, linkedin_url),
                         company_id = COALESCE(company_id, ?6), score = ?7, updated_at = ?8
                     WHERE id = ?1"
);
const CONTACT_INSERT: Sql = sql!(
    "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, title, department,
                         linkedin_url, status, score, source, created_at, updated_at)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'new_lead', ?10, 'discovery',
                         ?11, ?11)"
);

impl Tx {
    pub async fn discovery_upsert(
        &mut self,
        d: &DiscoveryUpsert<'_>,
    ) -> Result<DiscoveryUpserted, sqlx::Error> {
        on_tx!(
            self,
            conn,
            [
                company_by_domain = COMPANY_BY_DOMAIN,
                company_by_name = COMPANY_BY_NAME,
                company_insert = COMPANY_INSERT,
                company_update = COMPANY_UPDATE,
                company_discovery = COMPANY_DISCOVERY,
                contact_by_email = CONTACT_BY_EMAIL,
                contact_by_name = CONTACT_BY_NAME,
                contact_update = CONTACT_UPDATE,
                contact_insert = CONTACT_INSERT,
                source_upsert = SOURCE_UPSERT
            ],
            {
                let c = d.company;
                let existing: Option<String> = match d.domain {
                    Some(domain) => {
                        sqlx::query_scalar(company_by_domain)
                            .bind(domain)
                            .fetch_optional(&mut *conn)
                            .await?
                    }
                    None => None,
                };
                // Without a domain, name + city + state identify the company; with one that is not stored
                // yet, they may still find a record that never had a website (a lead-form company, say).
                let existing = match existing {
                    Some(id) => Some(id),
                    None => {
                        let key = name_key(&c.name);
                        let first_word = key.split(' ').next().unwrap_or_default();
                        let candidates: Vec<(String, String)> = sqlx::query_as(company_by_name)
                            .bind(&c.state)
                            .bind(&c.city)
                            .bind(d.domain)
                            .bind(format!("{first_word}%"))
                            .fetch_all(&mut *conn)
                            .await?;
                        candidates
                            .into_iter()
                            .find(|(_, name)| name_key(name) == key)
                            .map(|(id, _)| id)
                    }
                };
                let created = existing.is_none();
                let company_id = existing.unwrap_or_else(|| ulid::Ulid::new().to_string());
                if created {
                    sqlx::query(company_insert)
                        .bind(&company_id)
                        .bind(&c.name)
                        .bind(&c.industry)
                        .bind(&c.company_type)
                        .bind(c.revenue)
                        .bind(c.employees)
                        .bind(c.founded)
                        .bind(d.score)
                        .bind(&c.website)
                        .bind(d.domain)
                        .bind(&c.phone)
                        .bind(&c.address)
                        .bind(&c.city)
                        .bind(&c.state)
                        .bind(&c.zip_code)
                        .bind(&c.description)
                        .bind(d.now)
                        .execute(&mut *conn)
                        .await?;
                } else {
                    // What the provider knows wins; what it does not know is kept.
                    sqlx::query(company_update)
                        .bind(&company_id)
                        .bind(&c.industry)
                        .bind(&c.company_type)
                        .bind(c.revenue)
                        .bind(c.employees)
                        .bind(c.founded)
                        .bind(d.score)
                        .bind(&c.website)
                        .bind(d.domain)
                        .bind(&c.phone)
                        .bind(&c.address)
                        .bind(&c.city)
                        .bind(&c.zip_code)
                        .bind(&c.description)
                        .bind(d.now)
                        .execute(&mut *conn)
                        .await?;
                }
                sqlx::query(company_discovery)
                    .bind(&company_id)
                    .bind(d.mode)
                    .bind(d.discovery_city)
                    .bind(d.discovery_state)
                    .bind(d.discovery_region)
                    .bind(Json(d.metadata))
                    .bind(d.competitor_alignment)
                    .bind(d.growth_rate)
                    .bind(d.competitive_analysis.map(Json))
                    .bind(d.lead_qualification.map(Json))
                    .bind(d.has_enhanced_data)
                    .bind(d.now)
                    .execute(&mut *conn)
                    .await?;
                sqlx::query(source_upsert)
                    .bind(&company_id)
                    .bind(d.found_by.key())
                    .bind(&c.external_id)
                    .bind(d.found_by.verified())
                    .bind(d.found_by.attribution())
                    .bind(&c.opening_hours)
                    .bind(d.now)
                    .execute(&mut *conn)
                    .await?;

                let mut contacts = Vec::with_capacity(c.contacts.len());
                for (i, p) in c.contacts.iter().enumerate() {
                    let score = d.contact_scores.get(i).copied().unwrap_or(50);
                    let existing: Option<String> = match &p.email {
                        Some(email) => {
                            sqlx::query_scalar(contact_by_email)
                                .bind(email)
                                .fetch_optional(&mut *conn)
                                .await?
                        }
                        None => {
                            sqlx::query_scalar(contact_by_name)
                                .bind(&p.first_name)
                                .bind(&p.last_name)
                                .bind(&company_id)
                                .fetch_optional(&mut *conn)
                                .await?
                        }
                    };
                    match existing {
                        Some(id) => {
                            sqlx::query(contact_update)
                                .bind(&id)
                                .bind(&p.title)
                                .bind(&p.department)
                                .bind(&p.phone)
                                .bind(&p.linkedin_url)
                                .bind(&company_id)
                                .bind(score)
                                .bind(d.now)
                                .execute(&mut *conn)
                                .await?;
                            contacts.push((id, false));
                        }
                        None => {
                            let id = ulid::Ulid::new().to_string();
                            sqlx::query(contact_insert)
                                .bind(&id)
                                .bind(&company_id)
                                .bind(&p.first_name)
                                .bind(&p.last_name)
                                .bind(&p.email)
                                .bind(&p.phone)
                                .bind(&p.title)
                                .bind(&p.department)
                                .bind(&p.linkedin_url)
                                .bind(score)
                                .bind(d.now)
                                .execute(&mut *conn)
                                .await?;
                            contacts.push((id, true));
                        }
                    }
                }
                Ok(DiscoveryUpserted {
                    company_id,
                    company_created: created,
                    contacts,
                })
            }
        )
    }
}

/// One source of one company, for labels and attribution where companies are shown.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanySourceRow {
    pub company_id: String,
    pub source: String,
    pub external_id: Option<String>,
    pub verified: bool,
    pub attribution: Option<String>,
    pub opening_hours: Option<String>,
    pub first_seen_at: i64,
    pub last_seen_at: i64,
}

const SOURCES_OF: Sql = in_list!(
    "SELECT company_id, source, external_id, verified, attribution, opening_hours, first_seen_at,
            last_seen_at FROM company_sources WHERE company_id IN ",
    1,
    " ORDER BY company_id, first_seen_at, source"
);

impl Db {
    /// The sources of the listed companies.
    pub async fn company_sources_of(
        &self,
        company_ids: &[String],
    ) -> Result<Vec<CompanySourceRow>, sqlx::Error> {
        if company_ids.is_empty() {
            return Ok(Vec::new());
        }
        let ids = Value::from(company_ids).to_string();
        fetch!(self, fetch_all, query_as(SOURCES_OF), &ids)
    }
}
