//! Contacts: params, rows and the dispatching methods (SQL in sqlite/contacts.rs and
//! postgres/contacts.rs). Also the stored CSV uploads of the contact import and the import's upsert.

use std::collections::HashSet;

use super::*;

/// The columns of [`ContactRow`], in its order.
pub(crate) const CONTACT_COLUMNS: &str = "id, company_id, first_name, last_name, email, phone, title, \
    department, linkedin_url, status, score, source, tags, notes, is_verified, verification_score, \
    verified_by, verified_at, verification_warnings, last_contacted_at, created_at, updated_at, score_factors";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ContactRow {
    pub id: String,
    pub company_id: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub linkedin_url: Option<String>,
    pub status: String,
    pub score: i32,
    pub source: Option<String>,
    pub tags: Json<Vec<String>>,
    pub notes: Option<String>,
    pub is_verified: bool,
    pub verification_score: Option<i32>,
    pub verified_by: Json<Vec<String>>,
    pub verified_at: Option<i64>,
    pub verification_warnings: Json<Vec<String>>,
    pub last_contacted_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    /// Why the contact has its score (the scorer's factors); `None` until it is scored.
    pub score_factors: Option<Json<serde_json::Value>>,
}

/// Filters of the contact list, export, customers list and board; every `None` is "any".
#[derive(Debug, Clone, Default)]
pub struct ContactFilter {
    /// Text searched in "first last", email and title (case-insensitive substring).
    pub q: Option<String>,
    /// A `LIKE` pattern over the title.
    pub role: Option<String>,
    pub status: Option<String>,
    pub company_id: Option<String>,
    /// State codes of the contact's company.
    pub states: Option<Vec<String>>,
}

pub struct ContactList<'a> {
    pub filter: &'a ContactFilter,
    pub limit: i64,
    pub offset: i64,
}

/// The editable columns of a contact, written as a whole (insert, or update after a merge).
#[derive(Debug, Clone, PartialEq)]
pub struct ContactWrite {
    pub id: String,
    pub company_id: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub linkedin_url: Option<String>,
    pub status: String,
    pub score: i32,
    pub source: Option<String>,
    pub tags: Vec<String>,
    pub notes: Option<String>,
    pub now: i64,
}

impl From<&ContactRow> for ContactWrite {
    fn from(r: &ContactRow) -> Self {
        Self {
            id: r.id.clone(),
            company_id: r.company_id.clone(),
            first_name: r.first_name.clone(),
            last_name: r.last_name.clone(),
            email: r.email.clone(),
            phone: r.phone.clone(),
            title: r.title.clone(),
            department: r.department.clone(),
            linkedin_url: r.linkedin_url.clone(),
            status: r.status.clone(),
            score: r.score,
            source: r.source.clone(),
            tags: r.tags.0.clone(),
            notes: r.notes.clone(),
            now: r.updated_at,
        }
    }
}

/// Per pipeline stage: contacts, rounded average score and high-priority count.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StageStats {
    pub status: String,
    pub count: i64,
    pub avg_score: Option<i64>,
    pub high_priority: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CustomerStats {
    pub total: i64,
    pub high_value: i64,
    pub new_this_month: i64,
}

/// One CSV row of an import, validated: `None` fields leave an existing contact's value alone.
#[derive(Debug, Clone)]
pub struct ContactImportRow {
    pub id: String,
    pub company_id: Option<String>,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: Option<String>,
    pub title: Option<String>,
    pub department: Option<String>,
    pub linkedin_url: Option<String>,
    pub status: Option<String>,
    pub score: Option<i32>,
    pub source: Option<String>,
    pub tags: Option<Vec<String>>,
    pub notes: Option<String>,
}

pub struct ContactImportInsert<'a> {
    pub id: &'a str,
    pub body: &'a [u8],
    pub created_by: Option<&'a str>,
    pub created_at: i64,
}

impl Db {
    pub async fn contact_get(&self, id: &str) -> Result<Option<ContactRow>, sqlx::Error> {
        dispatch!(self, contact_get(id))
    }
    /// Newest first, with the total of the filter.
    /// A page and the total of the filter.
    pub async fn contact_list(
        &self,
        p: &ContactList<'_>,
    ) -> Result<(Vec<ContactRow>, i64), sqlx::Error> {
        Ok((
            self.contact_page(p).await?,
            self.contact_count(p.filter).await?,
        ))
    }
    pub async fn contact_page(&self, p: &ContactList<'_>) -> Result<Vec<ContactRow>, sqlx::Error> {
        dispatch!(self, contact_page(p))
    }
    pub async fn contact_count(&self, f: &ContactFilter) -> Result<i64, sqlx::Error> {
        dispatch!(self, contact_count(f))
    }
    /// Contacts of these companies, best score first, at most `per_company` each.
    pub async fn contact_list_by_companies(
        &self,
        company_ids: &[String],
        per_company: i64,
    ) -> Result<Vec<ContactRow>, sqlx::Error> {
        if company_ids.is_empty() {
            return Ok(Vec::new());
        }
        dispatch!(self, contact_list_by_companies(company_ids, per_company))
    }
    /// The four pipeline stages' figures (stages without contacts are absent).
    pub async fn contact_stage_stats(&self) -> Result<Vec<StageStats>, sqlx::Error> {
        dispatch!(self, contact_stage_stats())
    }
    /// Customers: total, high value, and created at or after `since`.
    pub async fn customer_stats(&self, since: i64) -> Result<CustomerStats, sqlx::Error> {
        dispatch!(self, customer_stats(since))
    }
    pub async fn contact_import_body(&self, id: &str) -> Result<Option<Vec<u8>>, sqlx::Error> {
        dispatch!(self, contact_import_body(id))
    }
    pub async fn contact_import_delete(&self, id: &str) -> Result<(), sqlx::Error> {
        dispatch!(self, contact_import_delete(id))
    }
}

impl Tx {
    /// The contact, locked until the transaction ends (Postgres; SQLite's write lock is already held).
    pub async fn contact_get_for_update(
        &mut self,
        id: &str,
    ) -> Result<Option<ContactRow>, sqlx::Error> {
        dispatch_tx!(self, contact_get_for_update(id))
    }
    /// A unique violation (`is_unique_violation`) means the email is taken.
    pub async fn contact_insert(&mut self, c: &ContactWrite) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, contact_insert(c))
    }
    pub async fn contact_update(&mut self, c: &ContactWrite) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, contact_update(c))
    }
    /// Sets the status; `false` when there is no such contact.
    pub async fn contact_status_set(
        &mut self,
        id: &str,
        status: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        dispatch_tx!(self, contact_status_set(id, status, now))
    }
    /// Adds a tag unless the contact has it; `false` when nothing changed.
    pub async fn contact_tag_add(
        &mut self,
        id: &str,
        tag: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        dispatch_tx!(self, contact_tag_add(id, tag, now))
    }
    /// Which of these lower-cased emails already belong to a contact.
    pub async fn contact_emails_existing(
        &mut self,
        emails: &[String],
    ) -> Result<HashSet<String>, sqlx::Error> {
        if emails.is_empty() {
            return Ok(HashSet::new());
        }
        dispatch_tx!(self, contact_emails_existing(emails))
    }
    /// Inserts the row, or fills the contact with the same email with the row's non-empty fields.
    pub async fn contact_import_upsert(
        &mut self,
        r: &ContactImportRow,
        now: i64,
    ) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, contact_import_upsert(r, now))
    }
    pub async fn contact_import_insert(
        &mut self,
        p: &ContactImportInsert<'_>,
    ) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, contact_import_insert(p))
    }
}
