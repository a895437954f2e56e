//! Deals and prospects: params, rows and the dispatching methods (SQL in sqlite/deals.rs and
//! postgres/deals.rs). Reads that precede a write in the same request go through [`Tx`] so the
//! check and the write see the same row (Postgres locks it with `FOR UPDATE`; SQLite's
//! `BEGIN IMMEDIATE` already holds the write lock).

use super::*;

/// The deal columns, in the order [`DealRow`] reads them.
pub(crate) const DEAL_COLUMNS: &str = "id, title, description, value, stage, probability, \
    expected_close_date, actual_close_date, contact_id, company_id, notes, stage_changed_at, \
    created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DealRow {
    pub id: String,
    pub title: String,
    pub description: Option<String>,
    /// Whole dollars.
    pub value: i64,
    /// `None` for legacy deals; they count as `qualification`.
    pub stage: Option<String>,
    pub probability: i32,
    pub expected_close_date: Option<String>,
    pub actual_close_date: Option<String>,
    pub contact_id: Option<String>,
    pub company_id: Option<String>,
    pub notes: Option<String>,
    pub stage_changed_at: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// `GET /api/deals` filters; newest first.
pub struct DealList<'a> {
    pub stage: Option<&'a str>,
    pub company_id: Option<&'a str>,
    pub contact_id: Option<&'a str>,
    pub limit: i64,
    pub offset: i64,
}

/// One deal with the names the CSV exports show.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct DealExportRow {
    pub title: String,
    pub stage: Option<String>,
    pub value: i64,
    pub probability: i32,
    pub expected_close_date: Option<String>,
    pub company_name: Option<String>,
    pub contact_first_name: Option<String>,
    pub contact_last_name: Option<String>,
}

/// A company as the prospect lists and conversion read it.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProspectCompany {
    pub id: String,
    pub name: String,
    pub industry: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub revenue: Option<i64>,
    pub score: i32,
    pub prospect_score: i32,
    pub status: String,
    pub is_deal: bool,
}

/// A contact as the prospect lists and conversion read it, with its company's name and revenue.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ProspectContact {
    pub id: String,
    pub first_name: String,
    pub last_name: String,
    pub title: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub status: String,
    pub score: i32,
    pub company_id: Option<String>,
    pub company_name: Option<String>,
    pub company_revenue: Option<i64>,
}

impl Db {
    pub async fn deal_list(&self, p: &DealList<'_>) -> Result<(Vec<DealRow>, i64), sqlx::Error> {
        dispatch!(self, deal_list(p))
    }
    pub async fn deal_get_by_id(&self, id: &str) -> Result<Option<DealRow>, sqlx::Error> {
        dispatch!(self, deal_get_by_id(id))
    }
    /// Every deal with its company and contact names, newest first (CSV exports).
    pub async fn deal_export_rows(&self) -> Result<Vec<DealExportRow>, sqlx::Error> {
        dispatch!(self, deal_export_rows())
    }
    /// Companies with a prospect score above 0 that are not deals yet, best first.
    pub async fn prospect_company_list(
        &self,
        limit: i64,
    ) -> Result<Vec<ProspectCompany>, sqlx::Error> {
        dispatch!(self, prospect_company_list(limit))
    }
    /// Contacts in new_lead, contacted or responded, best score first.
    pub async fn prospect_contact_list(
        &self,
        limit: i64,
    ) -> Result<Vec<ProspectContact>, sqlx::Error> {
        dispatch!(self, prospect_contact_list(limit))
    }
}

impl Tx {
    /// The deal, locked against concurrent changes until the transaction ends.
    pub async fn deal_get_for_update(&mut self, id: &str) -> Result<Option<DealRow>, sqlx::Error> {
        dispatch_tx!(self, deal_get_for_update(id))
    }
    pub async fn deal_insert(&mut self, d: &DealRow) -> Result<(), sqlx::Error> {
        dispatch_tx!(self, deal_insert(d))
    }
    /// Writes every mutable column of `d`; the number of rows changed (0: gone).
    pub async fn deal_update(&mut self, d: &DealRow) -> Result<u64, sqlx::Error> {
        dispatch_tx!(self, deal_update(d))
    }
    pub async fn deal_delete(&mut self, id: &str) -> Result<Option<String>, sqlx::Error> {
        dispatch_tx!(self, deal_delete(id))
    }
    pub async fn prospect_company_get(
        &mut self,
        id: &str,
    ) -> Result<Option<ProspectCompany>, sqlx::Error> {
        dispatch_tx!(self, prospect_company_get(id))
    }
    pub async fn prospect_contact_get(
        &mut self,
        id: &str,
    ) -> Result<Option<ProspectContact>, sqlx::Error> {
        dispatch_tx!(self, prospect_contact_get(id))
    }
    /// Marks the company a deal; 0 when it already was one (or is gone).
    pub async fn prospect_company_mark_deal(
        &mut self,
        id: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        dispatch_tx!(self, prospect_company_mark_deal(id, now))
    }
    /// Whether the contact already has a deal (a repeated conversion must not make a second one).
    pub async fn deal_exists_for_contact(&mut self, contact_id: &str) -> Result<bool, sqlx::Error> {
        dispatch_tx!(self, deal_exists_for_contact(contact_id))
    }
    /// Sets the contact's status to qualified.
    pub async fn prospect_contact_qualify(
        &mut self,
        id: &str,
        now: i64,
    ) -> Result<u64, sqlx::Error> {
        dispatch_tx!(self, prospect_contact_qualify(id, now))
    }
}
