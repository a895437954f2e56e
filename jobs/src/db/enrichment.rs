//! Website enrichment's reads and writes (`kinds/company_enrich.rs`), and the evidence the lead
//! score reads beyond a record (`scoring::Evidence`): the services the company's website shows,
//! the emails it publishes or its contacts have verified, and how it engaged. Scores are computed
//! here from those reads, so every job that scores (ai_score, bulk scoring, enrichment) scores
//! the same way.

use serde::Serialize;

use super::sql::Sql;
use super::*;
use crate::enrich::SiteFacts;
use crate::scoring::{
    EmailEvidence, Evidence, Score, engagement_share, score_company_with, score_contact_with,
};

/// The company a visit starts from.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct EnrichTarget {
    pub name: String,
    pub website: Option<String>,
}

/// A person of the site who becomes a contact.
#[derive(Debug, Clone)]
pub struct FoundPerson {
    pub first_name: String,
    pub last_name: String,
    pub title: Option<String>,
    pub email: Option<String>,
}

/// What one visit stores.
pub struct EnrichmentSave<'a> {
    pub company_id: &'a str,
    pub facts: &'a SiteFacts,
    /// The site's first phone, kept when the company has none.
    pub phone: Option<&'a str>,
    pub people: &'a [FoundPerson],
    /// The timeline's line.
    pub description: &'a str,
    pub actor_id: Option<&'a str>,
    pub now: i64,
}

/// What the save did.
#[derive(Debug, Clone, Default)]
pub struct EnrichmentSaved {
    /// Contacts made from the site's people.
    pub created: Vec<String>,
    /// People left out: already a contact of the company (same name) or an address already on file.
    pub known: usize,
}

/// A company record's "why this score" and what its website showed (`GET /api/companies/{id}`).
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CompanyEnrichmentView {
    /// The factors of its score (factor, label, value, points, max, reason); `null` if never scored.
    pub score_factors: Option<Value>,
    /// What the last website visit found; `null` if its website was never read.
    pub website_facts: Option<Value>,
    /// RFC 3339.
    pub enriched_at: Option<String>,
}

#[derive(sqlx::FromRow)]
struct EnrichmentViewRow {
    score_factors: Option<Json<Value>>,
    website_facts: Option<Json<Value>>,
    enriched_at: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct EvidenceRow {
    status: String,
    website_services: Option<Json<Value>>,
    website_facts: Option<Json<Value>>,
}

const VIEW: Sql =
    sql!("SELECT score_factors, website_facts, enriched_at FROM companies WHERE id = ?1");
const TARGET: Sql = sql!("SELECT name, website FROM companies WHERE id = ?1");
const EVIDENCE: Sql =
    sql!("SELECT status, website_services, website_facts FROM companies WHERE id = ?1");
/// Enough contacts to judge a company's engagement and email evidence.
const EVIDENCE_CONTACTS: Sql = sql!(
    "SELECT status, is_verified, email IS NOT NULL AS has_email FROM contacts
     WHERE company_id = ?1 ORDER BY id LIMIT 500"
);
const CONTACT_COMPANY: Sql = sql!("SELECT company_id FROM contacts WHERE id = ?1");
const COMPANY_CONTACT_IDS: Sql =
    sql!("SELECT id FROM contacts WHERE company_id = ?1 ORDER BY id LIMIT 500");
const SAVE: Sql = sql!(
    "UPDATE companies SET website_services = ?2, website_facts = ?3, enriched_at = ?4, updated_at = ?4,
         phone = CASE WHEN phone IS NULL OR trim(phone) = '' THEN ?5 ELSE phone END
     WHERE id = ?1"
);
const NAMES: Sql =
    sql!("SELECT lower(first_name), lower(last_name) FROM contacts WHERE company_id = ?1");
const EMAIL_TAKEN: Sql = sql!("SELECT COUNT(*) FROM contacts WHERE lower(email) = lower(?1)");

impl Db {
    pub async fn company_enrichment_view(
        &self,
        id: &str,
    ) -> Result<Option<CompanyEnrichmentView>, sqlx::Error> {
        let row: Option<EnrichmentViewRow> = fetch!(self, fetch_optional, query_as(VIEW), id)?;
        Ok(row.map(|r| CompanyEnrichmentView {
            score_factors: r.score_factors.map(|Json(v)| v),
            website_facts: r.website_facts.map(|Json(v)| v),
            enriched_at: r.enriched_at.map(crate::time::to_rfc3339),
        }))
    }

    pub async fn company_enrich_target(
        &self,
        id: &str,
    ) -> Result<Option<EnrichTarget>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(TARGET), id)
    }

    /// What was observed about a company beyond its record (`None`: no such company).
    pub async fn company_evidence(&self, id: &str) -> Result<Option<Evidence>, sqlx::Error> {
        let row: Option<EvidenceRow> = fetch!(self, fetch_optional, query_as(EVIDENCE), id)?;
        let Some(row) = row else { return Ok(None) };
        let contacts: Vec<(String, bool, bool)> =
            fetch!(self, fetch_all, query_as(EVIDENCE_CONTACTS), id)?;
        let services = row.website_services.map(|Json(v)| {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        });
        let published = row
            .website_facts
            .is_some_and(|Json(f)| f["emails"].as_array().is_some_and(|e| !e.is_empty()));
        let email = contacts
            .iter()
            .map(|(_, verified, has_email)| match (verified, has_email) {
                (true, true) => EmailEvidence::Verified,
                (_, true) => EmailEvidence::Unverified,
                _ => EmailEvidence::None,
            })
            .chain(published.then_some(EmailEvidence::Published))
            .max()
            .unwrap_or_default();
        let engagement = std::iter::once(row.status.as_str())
            .chain(contacts.iter().map(|(s, ..)| s.as_str()))
            .max_by_key(|s| engagement_share(s))
            .filter(|s| engagement_share(s) > 0)
            .map(str::to_string);
        Ok(Some(Evidence {
            services,
            email,
            engagement,
        }))
    }

    /// A company's score from its record and evidence (`None`: no such company).
    pub async fn company_score_now(&self, id: &str) -> Result<Option<Score>, sqlx::Error> {
        let (Some(facts), Some(evidence)) = (
            self.company_score_facts(id).await?,
            self.company_evidence(id).await?,
        ) else {
            return Ok(None);
        };
        Ok(Some(score_company_with(&facts, &evidence)))
    }

    /// A contact's score, with what its company's website shows (`None`: no such contact).
    pub async fn contact_score_now(&self, id: &str) -> Result<Option<Score>, sqlx::Error> {
        let Some(facts) = self.contact_score_facts(id).await? else {
            return Ok(None);
        };
        let company: Option<Option<String>> =
            fetch!(self, fetch_optional, query_scalar(CONTACT_COMPANY), id)?;
        let services = match company.flatten() {
            Some(cid) => self.company_evidence(&cid).await?.and_then(|e| e.services),
            None => None,
        };
        Ok(Some(score_contact_with(&facts, services.as_deref())))
    }

    /// Scores a company and its contacts again and stores the scores with their factors.
    pub async fn company_rescore(&self, id: &str, now: i64) -> Result<Option<Score>, sqlx::Error> {
        let Some(score) = self.company_score_now(id).await? else {
            return Ok(None);
        };
        let factors = serde_json::json!(score.factors);
        self.company_score_set(&ScoreSet {
            id,
            score: score.score,
            factors: &factors,
            now,
        })
        .await?;
        let contacts: Vec<String> = fetch!(self, fetch_all, query_scalar(COMPANY_CONTACT_IDS), id)?;
        for cid in contacts {
            if let Some(s) = self.contact_score_now(&cid).await? {
                let factors = serde_json::json!(s.factors);
                self.contact_score_set(&ScoreSet {
                    id: &cid,
                    score: s.score,
                    factors: &factors,
                    now,
                })
                .await?;
            }
        }
        Ok(Some(score))
    }

    /// Stores a visit in one transaction: the site's facts on the company, its people as contacts
    /// (source `website`, never a second contact of the same name or address), each new contact's
    /// `contact.created` event, and the company's timeline entry. `None`: the company is gone.
    pub async fn company_enrichment_save(
        &self,
        s: &EnrichmentSave<'_>,
    ) -> Result<Option<EnrichmentSaved>, sqlx::Error> {
        let services = Value::from(s.facts.services.clone());
        let facts = serde_json::to_value(s.facts).unwrap_or(Value::Null);
        let mut tx = self.begin().await?;
        let changed = exec_tx!(
            &mut tx,
            SAVE,
            s.company_id,
            Json(&services),
            Json(&facts),
            s.now,
            s.phone
        )?;
        if changed == 0 {
            return Ok(None);
        }
        let mut names: Vec<(String, String)> =
            fetch_tx!(&mut tx, fetch_all, query_as(NAMES), s.company_id)?;
        let mut saved = EnrichmentSaved::default();
        for p in s.people {
            let key = (p.first_name.to_lowercase(), p.last_name.to_lowercase());
            let email_taken = match &p.email {
                Some(e) => {
                    let n: i64 = fetch_tx!(&mut tx, fetch_one, query_scalar(EMAIL_TAKEN), e)?;
                    n > 0
                }
                None => false,
            };
            if names.contains(&key) || email_taken {
                saved.known += 1;
                continue;
            }
            let id = ulid::Ulid::new().to_string();
            tx.contact_insert(&ContactWrite {
                id: id.clone(),
                company_id: Some(s.company_id.to_string()),
                first_name: p.first_name.clone(),
                last_name: p.last_name.clone(),
                email: p.email.clone(),
                phone: None,
                title: p.title.clone(),
                department: None,
                linkedin_url: None,
                status: "discovered".into(),
                score: 0,
                source: Some("website".into()),
                tags: vec!["website".into()],
                notes: None,
                now: s.now,
            })
            .await?;
            let description = format!(
                "{} {} found on the company's website",
                p.first_name, p.last_name
            );
            tx.activity_insert(&ActivityInsert {
                kind: "contact_created",
                description: &description,
                entity_type: Some("contact"),
                entity_id: Some(&id),
                actor_id: s.actor_id,
            })
            .await?;
            tx.webhook_emit_contact(
                "contact.created",
                &id,
                serde_json::json!({ "source": "website" }),
                s.now,
            )
            .await?;
            names.push(key);
            saved.created.push(id);
        }
        tx.activity_insert(&ActivityInsert {
            kind: "company_enriched",
            description: s.description,
            entity_type: Some("company"),
            entity_id: Some(s.company_id),
            actor_id: s.actor_id,
        })
        .await?;
        tx.commit().await?;
        Ok(Some(saved))
    }
}
