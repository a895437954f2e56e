//! Invoices and their line items (SQL in sqlite/invoices.rs and postgres/invoices.rs).

use super::*;

pub(crate) const INVOICE_COLUMNS: &str = "id, invoice_number, customer_name, customer_email, \
    customer_phone, billing_address, notes, tax_milli, discount_cents, subtotal_cents, tax_cents, \
    total_cents, status, invoice_date, due_date, paid_at, created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct InvoiceRow {
    pub id: String,
    pub invoice_number: String,
    pub customer_name: String,
    pub customer_email: Option<String>,
    pub customer_phone: Option<String>,
    pub billing_address: Option<String>,
    pub notes: Option<String>,
    pub tax_milli: i32,
    pub discount_cents: i64,
    pub subtotal_cents: i64,
    pub tax_cents: i64,
    pub total_cents: i64,
    pub status: String,
    pub invoice_date: String,
    pub due_date: String,
    pub paid_at: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct InvoiceItemRow {
    pub id: String,
    pub invoice_id: String,
    pub position: i32,
    pub product_id: Option<String>,
    pub description: String,
    pub quantity: i32,
    pub unit_price_cents: i64,
    pub total_cents: i64,
}

/// The invoice list's filters: text in number, customer name or email; status; date range (inclusive).
#[derive(Debug, Default)]
pub struct InvoiceFilter<'a> {
    pub search: Option<&'a str>,
    pub status: Option<&'a str>,
    pub date_from: Option<&'a str>,
    pub date_to: Option<&'a str>,
    pub limit: i64,
    pub offset: i64,
}

/// Why an invoice could not be stored.
#[derive(Debug, thiserror::Error)]
pub enum InvoiceInsertError {
    #[error("invoice number already used")]
    DuplicateNumber,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl Tx {
    /// The invoice and its items, in the caller's transaction (with the job that renders its PDF).
    pub async fn invoice_insert(
        &mut self,
        i: &InvoiceRow,
        items: &[InvoiceItemRow],
    ) -> Result<(), InvoiceInsertError> {
        let r = dispatch_tx!(self, invoice_insert(i, items));
        match r {
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(InvoiceInsertError::DuplicateNumber)
            }
            other => Ok(other?),
        }
    }
}

impl Db {
    /// By id, or by invoice number.
    pub async fn invoice_get(&self, id: &str) -> Result<Option<InvoiceRow>, sqlx::Error> {
        dispatch!(self, invoice_get(id))
    }
    /// A page of invoices, newest first, with the total number that match.
    pub async fn invoice_list(
        &self,
        f: &InvoiceFilter<'_>,
    ) -> Result<(Vec<InvoiceRow>, i64), sqlx::Error> {
        dispatch!(self, invoice_list(f))
    }
    pub async fn invoice_items(&self, ids: &[String]) -> Result<Vec<InvoiceItemRow>, sqlx::Error> {
        dispatch!(self, invoice_items(ids))
    }
    /// Sets the status unless the invoice is paid; false when it is (or is gone).
    pub async fn invoice_set_status(
        &self,
        id: &str,
        status: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, invoice_set_status(id, status, now))
    }
    /// Records that this sending job hands the invoice to the mail server, before it does: true
    /// when this call recorded it, false when an earlier run of the job did (at most one email).
    pub async fn invoice_email_claim(
        &self,
        invoice_id: &str,
        job_id: &str,
        to: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        dispatch!(self, invoice_email_claim(invoice_id, job_id, to, now))
    }
    /// Forgets a claim whose message the mail server refused, so a retry may send it.
    pub async fn invoice_email_release(&self, job_id: &str) -> Result<(), sqlx::Error> {
        dispatch!(self, invoice_email_release(job_id))
    }
    /// The stored PDF and the invoice version (`updated_at`) it shows.
    pub async fn invoice_pdf_get(
        &self,
        invoice_id: &str,
    ) -> Result<Option<(i64, Vec<u8>)>, sqlx::Error> {
        dispatch!(self, invoice_pdf_get(invoice_id))
    }
    /// Stores a rendering unless a newer version is already stored.
    pub async fn invoice_pdf_put(
        &self,
        invoice_id: &str,
        version: i64,
        pdf: &[u8],
        now: i64,
    ) -> Result<(), sqlx::Error> {
        dispatch!(self, invoice_pdf_put(invoice_id, version, pdf, now))
    }
    pub async fn payment_insert(&self, p: &PaymentRow) -> Result<(), sqlx::Error> {
        dispatch!(self, payment_insert(p))
    }
    pub async fn payment_by_ref(
        &self,
        provider_ref: &str,
    ) -> Result<Option<PaymentRow>, sqlx::Error> {
        dispatch!(self, payment_by_ref(provider_ref))
    }
    /// The payment's new status; a success also marks its invoice paid, in the same transaction.
    pub async fn payment_settle(&self, s: &PaymentSettle<'_>) -> Result<(), sqlx::Error> {
        dispatch!(self, payment_settle(s))
    }
    pub async fn payment_analytics(&self) -> Result<PaymentAnalytics, sqlx::Error> {
        dispatch!(self, payment_analytics())
    }
    /// Adds the items; an item whose name is already in the catalog updates that one.
    pub async fn catalog_upsert(&self, items: &[CatalogRow]) -> Result<(), sqlx::Error> {
        dispatch!(self, catalog_upsert(items))
    }
    pub async fn catalog_list(&self) -> Result<Vec<CatalogRow>, sqlx::Error> {
        dispatch!(self, catalog_list())
    }
}

pub(crate) const PAYMENT_COLUMNS: &str = "id, invoice_id, provider, provider_ref, amount_cents, \
    currency, status, error, created_at, updated_at";

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PaymentRow {
    pub id: String,
    pub invoice_id: String,
    /// `stripe` or `demo` (no provider configured: nothing is charged).
    pub provider: String,
    /// The PaymentIntent id.
    pub provider_ref: Option<String>,
    pub amount_cents: i64,
    pub currency: String,
    /// Stripe's PaymentIntent status (`requires_payment_method`, `processing`, `succeeded`, ...),
    /// `failed` after a `payment_intent.payment_failed` event, or `demo`.
    pub status: String,
    pub error: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

pub struct PaymentSettle<'a> {
    pub payment_id: &'a str,
    pub invoice_id: &'a str,
    pub status: &'a str,
    pub error: Option<&'a str>,
    pub now: i64,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct PaymentAnalytics {
    pub revenue_cents: i64,
    pub transactions: i64,
    pub succeeded: i64,
    pub failed: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct CatalogRow {
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub price_cents: i64,
    pub category: Option<String>,
    pub sku: Option<String>,
    pub created_at: i64,
}
