//! contact intelligence queries, sqlite dialect.

use sqlx::SqlitePool;
use sqlx::types::Json;

use crate::db::{ContactIntel, EnrichmentSet, VerificationSet};

pub async fn contact_intel_get(
    pool: &SqlitePool,
    id: &str,
) -> Result<Option<ContactIntel>, sqlx::Error> {
    sqlx::query_as(
        "SELECT c.id, c.first_name, c.last_name, c.email, c.phone, c.title, c.department, c.company_id, c.tags,
                co.website AS company_website, co.domain AS company_domain
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id WHERE c.id = ?1",
    )
    .bind(id)
    .fetch_optional(pool)
    .await
}

pub async fn contact_verification_set(
    pool: &SqlitePool,
    v: &VerificationSet<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE contacts SET is_verified = ?2, verification_score = ?3, verified_by = ?4,
                verification_warnings = ?5, verified_at = ?6, updated_at = ?6 WHERE id = ?1",
    )
    .bind(v.id)
    .bind(v.is_verified)
    .bind(v.score)
    .bind(Json(v.verified_by))
    .bind(Json(v.warnings))
    .bind(v.now)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn contact_enrichment_set(
    pool: &SqlitePool,
    e: &EnrichmentSet<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE contacts SET first_name = ?2, last_name = ?3, phone = ?4, department = ?5,
                company_id = ?6, tags = ?7, updated_at = ?8 WHERE id = ?1",
    )
    .bind(e.id)
    .bind(e.first_name)
    .bind(e.last_name)
    .bind(e.phone)
    .bind(e.department)
    .bind(e.company_id)
    .bind(Json(e.tags))
    .bind(e.now)
    .execute(pool)
    .await
    .map(|_| ())
}

pub async fn company_id_by_domain(
    pool: &SqlitePool,
    domain: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM companies WHERE domain = ?1")
        .bind(domain)
        .fetch_optional(pool)
        .await
}
