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
    /// What the submission did to an existing company's fields (empty when it was created).
    pub company_merge: LeadMerge,
    /// What the submission did to an existing contact's fields (empty when it was created).
    pub contact_merge: LeadMerge,
}

/// The public form never overwrites: for an existing row, a submitted value only fills a field that
/// is empty (NULL or blank); a different value in a filled field is kept and only reported.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeadMerge {
    /// Fields that were empty and now hold the submitted value.
    pub filled: Vec<&'static str>,
    /// Fields whose stored value differs from the submitted one and was kept.
    pub kept: Vec<&'static str>,
}

fn blank(v: Option<&str>) -> bool {
    v.is_none_or(|s| s.trim().is_empty())
}

impl LeadMerge {
    /// The submitted text to write into `field`, if the stored value is empty.
    pub(crate) fn text<'a>(
        &mut self,
        field: &'static str,
        current: Option<&str>,
        submitted: Option<&'a str>,
    ) -> Option<&'a str> {
        let submitted = submitted.filter(|s| !s.trim().is_empty())?;
        match current {
            c if blank(c) => {
                self.filled.push(field);
                Some(submitted)
            }
            Some(c) if !c.trim().eq_ignore_ascii_case(submitted.trim()) => {
                self.kept.push(field);
                None
            }
            _ => None,
        }
    }

    /// The submitted number to write into `field`, if the stored value is NULL.
    pub(crate) fn number(
        &mut self,
        field: &'static str,
        current: Option<i64>,
        submitted: Option<i64>,
    ) -> Option<i64> {
        let submitted = submitted?;
        match current {
            None => {
                self.filled.push(field);
                Some(submitted)
            }
            Some(c) if c != submitted => {
                self.kept.push(field);
                None
            }
            Some(_) => None,
        }
    }

    /// True when nothing is to be written.
    pub fn is_unchanged(&self) -> bool {
        self.filled.is_empty()
    }
}

/// An existing company as the form finds it.
#[derive(sqlx::FromRow)]
pub(crate) struct LeadCompanyRow {
    pub id: String,
    pub city: Option<String>,
    pub company_type: Option<String>,
    pub revenue: Option<i64>,
}

/// An existing contact as the form finds it.
#[derive(sqlx::FromRow)]
pub(crate) struct LeadContactRow {
    pub id: String,
    pub last_name: String,
    pub phone: Option<String>,
    pub notes: Option<String>,
    pub company_id: Option<String>,
}

impl Tx {
    /// Finds the company by name and state and the contact by email; creates them, or fills only
    /// their empty fields (see [`LeadMerge`]).
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
