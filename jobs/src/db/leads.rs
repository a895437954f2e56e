//! Leads from the public form (create or update company + contact by their natural keys) and the
//! facts and writes of lead scoring.

use super::*;
use crate::scoring::{CompanyFacts, ContactFacts};

/// A dealer-form lead, already validated and normalised.
pub struct LeadUpsert<'a> {
    pub company_name: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub email: &'a str,
    pub phone: Option<&'a str>,
    pub city: Option<&'a str>,
    pub state: Option<&'a str>,
    pub company_type: Option<&'a str>,
    /// Lower bound of the chosen revenue band, whole dollars.
    pub revenue: Option<i64>,
    pub message: Option<&'a str>,
    pub now: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeadUpserted {
    pub company_id: String,
    pub contact_id: String,
    pub company_created: bool,
    pub contact_created: bool,
}

impl Tx {
    /// Finds the company by name and state and the contact by email; updates or creates them.
    pub async fn lead_upsert(&mut self, l: &LeadUpsert<'_>) -> Result<LeadUpserted, sqlx::Error> {
        dispatch_tx!(self, lead_upsert(l))
    }
}

impl Db {
    pub async fn contact_score_facts(&self, id: &str) -> Result<Option<ContactFacts>, sqlx::Error> {
        dispatch!(self, contact_score_facts(id))
    }
    pub async fn company_score_facts(&self, id: &str) -> Result<Option<CompanyFacts>, sqlx::Error> {
        dispatch!(self, company_score_facts(id))
    }
    pub async fn contact_score_set(&self, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
        dispatch!(self, contact_score_set(s))
    }
    /// Sets the company's score and its prospect score (the pipeline's prospect list reads it).
    pub async fn company_score_set(&self, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
        dispatch!(self, company_score_set(s))
    }
    /// Facts for many contacts at once (bulk scoring), for those that need a score: never scored
    /// (no factors) or scored below `below`.
    pub async fn contact_score_facts_many(
        &self,
        ids: &[String],
        below: i32,
    ) -> Result<Vec<(String, ContactFacts)>, sqlx::Error> {
        dispatch!(self, contact_score_facts_many(ids, below))
    }
    pub async fn contact_scores_set_many(
        &self,
        rows: &[ScoreSetOwned],
        now: i64,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, contact_scores_set_many(rows, now))
    }
    /// Every contact's score (scoring insights).
    pub async fn contact_scores_all(&self) -> Result<Vec<i32>, sqlx::Error> {
        dispatch!(self, contact_scores_all())
    }
}

/// A score and the factors behind it.
pub struct ScoreSet<'a> {
    pub id: &'a str,
    pub score: i32,
    pub factors: &'a Value,
    pub now: i64,
}

pub struct ScoreSetOwned {
    pub id: String,
    pub score: i32,
    pub factors: Value,
}

#[derive(sqlx::FromRow)]
pub(crate) struct ContactFactsManyRow {
    pub id: String,
    pub title: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub is_verified: bool,
    pub status: String,
    pub revenue: Option<i64>,
    pub state: Option<String>,
    pub company_type: Option<String>,
    pub website: Option<String>,
    pub company_phone: Option<String>,
    pub growth_rate: Option<f64>,
    pub has_company: bool,
}

impl From<ContactFactsManyRow> for (String, ContactFacts) {
    fn from(r: ContactFactsManyRow) -> Self {
        let company = r.has_company.then(|| CompanyFacts {
            revenue: r.revenue,
            state: r.state,
            company_type: r.company_type,
            has_website: r.website.is_some_and(|w| !w.trim().is_empty()),
            has_phone: r.company_phone.is_some_and(|p| !p.trim().is_empty()),
            growth_rate: r.growth_rate,
        });
        (
            r.id,
            ContactFacts {
                title: r.title,
                has_email: r.email.is_some_and(|e| e.contains('@')),
                has_phone: r.phone.is_some_and(|p| !p.trim().is_empty()),
                is_verified: r.is_verified,
                status: r.status,
                company,
            },
        )
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct CompanyFactsRow {
    pub revenue: Option<i64>,
    pub state: Option<String>,
    pub company_type: Option<String>,
    pub website: Option<String>,
    pub phone: Option<String>,
    pub growth_rate: Option<f64>,
}

impl From<CompanyFactsRow> for CompanyFacts {
    fn from(r: CompanyFactsRow) -> Self {
        Self {
            revenue: r.revenue,
            state: r.state,
            company_type: r.company_type,
            has_website: r.website.is_some_and(|w| !w.trim().is_empty()),
            has_phone: r.phone.is_some_and(|p| !p.trim().is_empty()),
            growth_rate: r.growth_rate,
        }
    }
}

#[derive(sqlx::FromRow)]
pub(crate) struct ContactFactsRow {
    pub title: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub is_verified: bool,
    pub status: String,
    pub company_id: Option<String>,
}
