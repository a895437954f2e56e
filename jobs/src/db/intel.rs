//! Contact intelligence: what verification and enrichment read, and what they write back.

use super::sql::Sql;
use super::*;

const GET: Sql = sql!(
    "SELECT c.id, c.first_name, c.last_name, c.email, c.phone, c.title, c.department, c.company_id, c.tags,
            co.website AS company_website, co.domain AS company_domain
     FROM contacts c LEFT JOIN companies co ON co.id = c.company_id WHERE c.id = ?1"
);
const VERIFICATION_SET: Sql = sql!(
    "UPDATE contacts SET is_verified = ?2, verification_score = ?3, verified_by = ?4,
            verification_warnings = ?5, verified_at = ?6, updated_at = ?6 WHERE id = ?1"
);
const ENRICHMENT_SET: Sql = sql!(
    "UPDATE contacts SET first_name = ?2, last_name = ?3, phone = ?4, department = ?5,
            company_id = ?6, tags = ?7, updated_at = ?8 WHERE id = ?1"
);
const COMPANY_BY_DOMAIN: Sql = sql!("SELECT id FROM companies WHERE domain = ?1");

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ContactIntel {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub company_id: Option<String>,
    pub tags: Json<Value>,
    pub company_website: Option<String>,
    pub company_domain: Option<String>,
}

pub struct VerificationSet<'a> {
    pub id: &'a str,
    pub is_verified: bool,
    pub score: i32,
    pub verified_by: &'a Value,
    pub warnings: &'a Value,
    pub now: i64,
}

pub struct EnrichmentSet<'a> {
    pub id: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub phone: Option<&'a str>,
    pub department: Option<&'a str>,
    pub company_id: Option<&'a str>,
    pub tags: &'a Value,
    pub now: i64,
}

impl Db {
    pub async fn contact_intel_get(&self, id: &str) -> Result<Option<ContactIntel>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(GET), id)
    }
    pub async fn contact_verification_set(
        &self,
        v: &VerificationSet<'_>,
    ) -> Result<(), sqlx::Error> {
        exec!(
            self,
            VERIFICATION_SET,
            v.id,
            v.is_verified,
            v.score,
            Json(v.verified_by),
            Json(v.warnings),
            v.now
        )
        .map(|_| ())
    }
    pub async fn contact_enrichment_set(&self, e: &EnrichmentSet<'_>) -> Result<(), sqlx::Error> {
        exec!(
            self,
            ENRICHMENT_SET,
            e.id,
            e.first_name,
            e.last_name,
            e.phone,
            e.department,
            e.company_id,
            Json(e.tags),
            e.now
        )
        .map(|_| ())
    }
    pub async fn company_id_by_domain(&self, domain: &str) -> Result<Option<String>, sqlx::Error> {
        fetch!(
            self,
            fetch_optional,
            query_scalar(COMPANY_BY_DOMAIN),
            domain
        )
    }
}
