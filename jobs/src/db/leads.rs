//! Leads from the public form (create or update company + contact by their natural keys) and the
//! facts and writes of lead scoring.

use super::sql::Sql;
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

const COMPANY_FIND: Sql = Sql {
    // Differs: Postgres locks the row read for the merge; SQLite's write transaction already
    // excludes other writers.
    sqlite: "SELECT id, city, company_type, revenue FROM companies
             WHERE lower(name) = lower(?1) AND state IS NOT DISTINCT FROM ?2 ORDER BY created_at LIMIT 1",
    postgres: "SELECT id, city, company_type, revenue FROM companies
               WHERE lower(name) = lower($1) AND state IS NOT DISTINCT FROM $2 ORDER BY created_at LIMIT 1
               FOR UPDATE",
    generic_plan: false,
};
/// The CASEs repeat the emptiness test, so a value written since the SELECT is kept too.
const COMPANY_FILL: Sql = sql!(
    "UPDATE companies
     SET city = CASE WHEN city IS NULL OR trim(city) = '' THEN COALESCE(?2, city) ELSE city END,
         company_type = CASE WHEN company_type IS NULL OR trim(company_type) = ''
                             THEN COALESCE(?3, company_type) ELSE company_type END,
         revenue = COALESCE(revenue, ?4), updated_at = ?5
     WHERE id = ?1"
);
const COMPANY_INSERT: Sql = sql!(
    "INSERT INTO companies (id, name, company_type, status, revenue, city, state, discovery_source,
                            discovered_at, created_at, updated_at)
     VALUES (?1, ?2, ?3, 'interested', ?4, ?5, ?6, 'dealer_form', ?7, ?7, ?7)"
);
const CONTACT_FIND: Sql = Sql {
    // Differs: the row lock, as for the company.
    sqlite: "SELECT id, last_name, phone, notes, company_id FROM contacts WHERE lower(email) = lower(?1)",
    postgres:
        "SELECT id, last_name, phone, notes, company_id FROM contacts WHERE lower(email) = lower($1)
               FOR UPDATE",
    generic_plan: false,
};
const CONTACT_FILL: Sql = sql!(
    "UPDATE contacts
     SET last_name = CASE WHEN trim(last_name) = '' THEN COALESCE(?2, last_name) ELSE last_name END,
         phone = CASE WHEN phone IS NULL OR trim(phone) = '' THEN COALESCE(?3, phone) ELSE phone END,
         notes = CASE WHEN notes IS NULL OR trim(notes) = '' THEN COALESCE(?4, notes) ELSE notes END,
         company_id = COALESCE(company_id, ?5), updated_at = ?6
     WHERE id = ?1"
);
const CONTACT_INSERT: Sql = sql!(
    "INSERT INTO contacts (id, company_id, first_name, last_name, email, phone, status, score, source,
                           notes, created_at, updated_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'new_lead', 50, 'dealer_form', ?7, ?8, ?8)"
);

impl Tx {
    /// Finds the company by name and state and the contact by email; creates them, or fills only
    /// their empty fields (see [`LeadMerge`]).
    pub async fn lead_upsert(&mut self, l: &LeadUpsert<'_>) -> Result<LeadUpserted, sqlx::Error> {
        let existing: Option<LeadCompanyRow> = fetch_tx!(
            self,
            fetch_optional,
            query_as(COMPANY_FIND),
            l.company_name,
            l.state
        )?;
        let (company_id, company_created, company_merge) = match existing {
            Some(row) => {
                let mut merge = LeadMerge::default();
                let city = merge.text("city", row.city.as_deref(), l.city);
                let company_type =
                    merge.text("company type", row.company_type.as_deref(), l.company_type);
                let revenue = merge.number("revenue", row.revenue, l.revenue);
                if !merge.is_unchanged() {
                    exec_tx!(
                        self,
                        COMPANY_FILL,
                        &row.id,
                        city,
                        company_type,
                        revenue,
                        l.now
                    )
                    .map(|_| ())?;
                }
                (row.id, false, merge)
            }
            None => {
                let id = ulid::Ulid::new().to_string();
                exec_tx!(
                    self,
                    COMPANY_INSERT,
                    &id,
                    l.company_name,
                    l.company_type,
                    l.revenue,
                    l.city,
                    l.state,
                    l.now
                )
                .map(|_| ())?;
                (id, true, LeadMerge::default())
            }
        };
        let contact: Option<LeadContactRow> =
            fetch_tx!(self, fetch_optional, query_as(CONTACT_FIND), l.email)?;
        let (contact_id, contact_created, contact_merge) = match contact {
            Some(row) => {
                // A returning lead (or anyone who knows the address): fill only what is missing.
                let mut merge = LeadMerge::default();
                let last_name = merge.text("last name", Some(&row.last_name), Some(l.last_name));
                let phone = merge.text("phone", row.phone.as_deref(), l.phone);
                let notes = merge.text("notes", row.notes.as_deref(), l.message);
                let company = merge.text("company", row.company_id.as_deref(), Some(&company_id));
                if !merge.is_unchanged() {
                    exec_tx!(
                        self,
                        CONTACT_FILL,
                        &row.id,
                        last_name,
                        phone,
                        notes,
                        company,
                        l.now
                    )
                    .map(|_| ())?;
                }
                (row.id, false, merge)
            }
            None => {
                let id = ulid::Ulid::new().to_string();
                exec_tx!(
                    self,
                    CONTACT_INSERT,
                    &id,
                    &company_id,
                    l.first_name,
                    l.last_name,
                    l.email,
                    l.phone,
                    l.message,
                    l.now
                )
                .map(|_| ())?;
                (id, true, LeadMerge::default())
            }
        };
        Ok(LeadUpserted {
            company_id,
            contact_id,
            company_created,
            contact_created,
            company_merge,
            contact_merge,
        })
    }
}

const CONTACT_FACTS_MANY: Sql = in_list!(
    "SELECT c.id, c.title, c.email, c.phone, c.is_verified, c.status, co.revenue, co.state,
            co.company_type, co.website, co.phone AS company_phone, co.growth_rate,
            co.id IS NOT NULL AS has_company, co.website_services
     FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
     WHERE c.id IN ",
    1,
    " AND (c.score_factors IS NULL OR c.score < ?2)"
);
const COMPANY_FACTS: Sql = sql!(
    "SELECT revenue, state, company_type, website, phone, growth_rate FROM companies WHERE id = ?1"
);
const CONTACT_FACTS: Sql =
    sql!("SELECT title, email, phone, is_verified, status, company_id FROM contacts WHERE id = ?1");
const CONTACT_SCORE: Sql =
    sql!("UPDATE contacts SET score = ?2, score_factors = ?3, updated_at = ?4 WHERE id = ?1");
const COMPANY_SCORE: Sql = sql!(
    "UPDATE companies SET score = ?2, prospect_score = ?2, score_factors = ?3, updated_at = ?4
     WHERE id = ?1"
);

impl Db {
    pub async fn contact_score_facts(&self, id: &str) -> Result<Option<ContactFacts>, sqlx::Error> {
        let row: Option<ContactFactsRow> =
            fetch!(self, fetch_optional, query_as(CONTACT_FACTS), id)?;
        let Some(row) = row else { return Ok(None) };
        let company = match &row.company_id {
            Some(cid) => self.company_score_facts(cid).await?,
            None => None,
        };
        Ok(Some(ContactFacts {
            title: row.title,
            has_email: row.email.is_some_and(|e| e.contains('@')),
            has_phone: row.phone.is_some_and(|p| !p.trim().is_empty()),
            is_verified: row.is_verified,
            status: row.status,
            company,
        }))
    }
    pub async fn company_score_facts(&self, id: &str) -> Result<Option<CompanyFacts>, sqlx::Error> {
        let row: Option<CompanyFactsRow> =
            fetch!(self, fetch_optional, query_as(COMPANY_FACTS), id)?;
        Ok(row.map(CompanyFacts::from))
    }
    pub async fn contact_score_set(&self, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
        self.score_set(CONTACT_SCORE, s).await
    }
    /// Sets the company's score and its prospect score (the pipeline's prospect list reads it).
    pub async fn company_score_set(&self, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
        self.score_set(COMPANY_SCORE, s).await
    }
    async fn score_set(&self, query: Sql, s: &ScoreSet<'_>) -> Result<bool, sqlx::Error> {
        on_db_write!(self, pool, [q = query], {
            sqlx::query(q)
                .bind(s.id)
                .bind(s.score)
                .bind(Json(s.factors))
                .bind(s.now)
                .execute(pool)
                .await
                .map(|r| r.rows_affected() == 1)
        })
    }
    /// Facts for many contacts at once (bulk scoring), for those that need a score: never scored
    /// (no factors) or scored below `below`; with the services their company's website shows.
    pub async fn contact_score_facts_many(
        &self,
        ids: &[String],
        below: i32,
    ) -> Result<Vec<ContactFactsMany>, sqlx::Error> {
        let ids = Value::from(ids).to_string();
        let rows: Vec<ContactFactsManyRow> =
            fetch!(self, fetch_all, query_as(CONTACT_FACTS_MANY), &ids, below)?;
        Ok(rows.into_iter().map(Into::into).collect())
    }
    /// Many contacts' scores in one transaction.
    pub async fn contact_scores_set_many(
        &self,
        rows: &[ScoreSetOwned],
        now: i64,
    ) -> Result<(), sqlx::Error> {
        let mut tx = self.begin().await?;
        for r in rows {
            on_tx!(&mut tx, conn, [q = CONTACT_SCORE], {
                sqlx::query(q)
                    .bind(&r.id)
                    .bind(r.score)
                    .bind(Json(&r.factors))
                    .bind(now)
                    .execute(&mut *conn)
                    .await
                    .map(|_| ())
            })?;
        }
        tx.commit().await
    }
    /// The contacts per score, lowest score first (scoring insights): kept by the triggers of
    /// migration 0023 in the write's transaction, so 101 rows at most instead of every contact.
    pub async fn contact_score_counts(&self) -> Result<Vec<(i32, i64)>, sqlx::Error> {
        const Q: Sql = sql!(
            "SELECT score, CAST(n AS BIGINT) FROM contact_score_rollup WHERE n > 0 ORDER BY score"
        );
        fetch!(self, fetch_all, query_as(Q))
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
    pub website_services: Option<Json<Value>>,
}

/// A contact's id, facts and its company's website services (`None`: the site was never read).
pub type ContactFactsMany = (String, ContactFacts, Option<Vec<String>>);

impl From<ContactFactsManyRow> for ContactFactsMany {
    fn from(r: ContactFactsManyRow) -> Self {
        let services = r.website_services.map(|Json(v)| {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        });
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
            services,
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
