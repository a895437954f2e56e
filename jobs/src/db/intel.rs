//! Contact intelligence: what verification and enrichment read, and what they write back.

use super::*;

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
        dispatch!(self, contact_intel_get(id))
    }
    pub async fn contact_verification_set(
        &self,
        v: &VerificationSet<'_>,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, contact_verification_set(v))
    }
    pub async fn contact_enrichment_set(&self, e: &EnrichmentSet<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, contact_enrichment_set(e))
    }
    pub async fn company_id_by_domain(&self, domain: &str) -> Result<Option<String>, sqlx::Error> {
        dispatch!(self, company_id_by_domain(domain))
    }
}
