//! Invoices and their line items, payments and the product catalog. Every query is the same in
//! both dialects, so all are written once here.

use super::sql::Sql;
use super::*;

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
    /// None: newest first (by creation), the list's order before sorting existed.
    pub sort: Option<Sort<InvoiceSortKey>>,
}

/// The invoice list's sort keys (docs/records.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvoiceSortKey {
    Created,
    /// The number in its series' order (`INV-2026-0002` before `INV-2026-0010`).
    Number,
    Customer,
    /// The invoice date.
    Date,
    DueDate,
    Amount,
    Status,
}

impl InvoiceSortKey {
    /// Each `sort` value, its key, and whether it runs descending unless `dir` says otherwise.
    pub const ALL: [(&'static str, Self, bool); 7] = [
        ("created", Self::Created, true),
        ("number", Self::Number, true),
        ("customer", Self::Customer, false),
        ("date", Self::Date, true),
        ("dueDate", Self::DueDate, true),
        ("amount", Self::Amount, true),
        ("status", Self::Status, false),
    ];
}

/// `ORDER BY` terms (no binds: the keys are ours); ties break on id in the same direction so pages
/// never repeat or skip a row.
fn invoice_order(sort: Option<Sort<InvoiceSortKey>>) -> String {
    let Some(s) = sort else {
        return "created_at DESC, id DESC".to_string();
    };
    let terms: &[(&str, bool)] = match s.key {
        InvoiceSortKey::Created => &[("created_at", false)],
        // Length first: numbers of one series have one length, and older numbers sort apart.
        InvoiceSortKey::Number => &[("length(invoice_number)", false), ("invoice_number", false)],
        InvoiceSortKey::Customer => &[("lower(customer_name)", false)],
        InvoiceSortKey::Date => &[("invoice_date", false)],
        InvoiceSortKey::DueDate => &[("due_date", false)],
        InvoiceSortKey::Amount => &[("total_cents", false)],
        InvoiceSortKey::Status => &[("status", false)],
    };
    let dir = if s.desc { "DESC" } else { "ASC" };
    super::contacts::order_terms(terms, dir, "id")
}

/// Why an invoice could not be stored.
#[derive(Debug, thiserror::Error)]
pub enum InvoiceInsertError {
    #[error("invoice number already used")]
    DuplicateNumber,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

/// The invoice columns, in the order [`InvoiceRow`] reads them.
macro_rules! invoice_columns {
    () => {
        "id, invoice_number, customer_name, customer_email, customer_phone, billing_address, notes,
         tax_milli, discount_cents, subtotal_cents, tax_cents, total_cents, status, invoice_date,
         due_date, paid_at, created_at, updated_at"
    };
}

/// The payment columns, in the order [`PaymentRow`] reads them.
macro_rules! payment_columns {
    () => {
        "id, invoice_id, provider, provider_ref, amount_cents, currency, status, error, created_at,
         updated_at"
    };
}

const INVOICE_INSERT: Sql = sql!(concat!(
    "INSERT INTO invoices (",
    invoice_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)"
));
const ITEM_INSERT: Sql = sql!(
    "INSERT INTO invoice_items (id, invoice_id, position, product_id, description, quantity,
                                unit_price_cents, total_cents)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
);
const INVOICE_GET: Sql = sql!(concat!(
    "SELECT ",
    invoice_columns!(),
    " FROM invoices WHERE id = ?1 OR invoice_number = ?1"
));
/// A year's numbers, longest then highest first; LIKE's `_`/`%` cannot occur in the prefix.
const NUMBERS_OF_YEAR: Sql = sql!(
    "SELECT invoice_number FROM invoices WHERE invoice_number LIKE ?1
     ORDER BY length(invoice_number) DESC, invoice_number DESC LIMIT 200"
);
/// The list's page and count; [`invoice_where`] adds the filters.
const INVOICE_PAGE: Sql = sql!(concat!("SELECT ", invoice_columns!(), " FROM invoices"));
const INVOICE_COUNT: Sql = sql!("SELECT COUNT(*) FROM invoices");
/// Followed by the list's conditions and `GROUP BY status`; the cast keeps Postgres' sum an integer.
const INVOICE_STATUS_SUMS: Sql =
    sql!("SELECT status, COUNT(*), CAST(COALESCE(SUM(total_cents), 0) AS BIGINT) FROM invoices");
/// Followed by the list of invoice ids.
const ITEMS_OF: Sql = sql!(
    "SELECT id, invoice_id, position, product_id, description, quantity, unit_price_cents,
            total_cents
     FROM invoice_items WHERE invoice_id IN ("
);
/// A paid invoice keeps its status; `paid_at` is set when the new status is `paid`.
const INVOICE_SET_STATUS: Sql = sql!(
    "UPDATE invoices SET status = ?2, updated_at = ?3,
         paid_at = CASE WHEN ?2 = 'paid' THEN ?3 ELSE paid_at END
     WHERE id = ?1 AND status <> 'paid'"
);
/// One claim per sending job: a second run of the job finds it and does not send again.
const EMAIL_CLAIM: Sql = sql!(
    "INSERT INTO invoice_emails (job_id, invoice_id, to_email, sent_at) VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (job_id) DO NOTHING"
);
const EMAIL_RELEASE: Sql = sql!("DELETE FROM invoice_emails WHERE job_id = ?1");
const PDF_GET: Sql = sql!("SELECT version, pdf FROM invoice_pdfs WHERE invoice_id = ?1");
/// An older rendering (a slow job for an earlier version) never replaces a newer one.
const PDF_PUT: Sql = sql!(
    "INSERT INTO invoice_pdfs (invoice_id, version, pdf, created_at) VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (invoice_id) DO UPDATE SET version = excluded.version, pdf = excluded.pdf,
         created_at = excluded.created_at
     WHERE excluded.version >= invoice_pdfs.version"
);
const PAYMENT_INSERT: Sql = sql!(concat!(
    "INSERT INTO payments (",
    payment_columns!(),
    ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
));
const PAYMENT_BY_REF: Sql = sql!(concat!(
    "SELECT ",
    payment_columns!(),
    " FROM payments WHERE provider_ref = ?1"
));
const PAYMENT_STATUS: Sql =
    sql!("UPDATE payments SET status = ?2, error = ?3, updated_at = ?4 WHERE id = ?1");
const INVOICE_PAID: Sql = sql!(
    "UPDATE invoices SET status = 'paid', paid_at = ?2, updated_at = ?2
     WHERE id = ?1 AND status <> 'paid'"
);
/// The CAST: Postgres sums BIGINT to NUMERIC.
const PAYMENT_ANALYTICS: Sql = sql!(
    "SELECT
        (SELECT CAST(COALESCE(SUM(total_cents), 0) AS BIGINT) FROM invoices WHERE status = 'paid')
            AS revenue_cents,
        (SELECT COUNT(*) FROM payments WHERE provider = 'stripe') AS transactions,
        (SELECT COUNT(*) FROM payments WHERE provider = 'stripe' AND status = 'succeeded') AS succeeded,
        (SELECT COUNT(*) FROM payments WHERE provider = 'stripe'
            AND status IN ('failed', 'canceled')) AS failed"
);
/// Names are unique regardless of case (the index is on `lower(name)`).
const CATALOG_UPSERT: Sql = sql!(
    "INSERT INTO catalog_items (id, name, description, price_cents, category, sku, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
     ON CONFLICT ((lower(name))) DO UPDATE SET price_cents = excluded.price_cents,
         description = COALESCE(excluded.description, catalog_items.description),
         category = COALESCE(excluded.category, catalog_items.category),
         sku = COALESCE(excluded.sku, catalog_items.sku)"
);
const CATALOG_LIST: Sql = sql!(
    "SELECT id, name, description, price_cents, category, sku, created_at
     FROM catalog_items ORDER BY lower(name), id"
);

/// The list's WHERE clause, the same for the page and its count; `push_bind` writes each
/// backend's placeholder.
fn invoice_where<DB: sqlx::Database>(qb: &mut sqlx::QueryBuilder<DB>, f: &InvoiceFilter<'_>)
where
    String: for<'t> sqlx::Encode<'t, DB> + sqlx::Type<DB>,
    for<'s> &'s str: sqlx::Encode<'s, DB> + sqlx::Type<DB>,
{
    qb.push(" WHERE 1 = 1");
    if let Some(q) = f.search {
        let pat = crate::domain::like_pattern(q);
        qb.push(" AND (lower(invoice_number) LIKE ")
            .push_bind(pat.clone())
            .push(" ESCAPE '\\' OR lower(customer_name) LIKE ")
            .push_bind(pat.clone())
            .push(" ESCAPE '\\' OR lower(COALESCE(customer_email, '')) LIKE ")
            .push_bind(pat)
            .push(" ESCAPE '\\')");
    }
    if let Some(s) = f.status {
        qb.push(" AND status = ").push_bind(s);
    }
    if let Some(d) = f.date_from {
        qb.push(" AND invoice_date >= ").push_bind(d);
    }
    if let Some(d) = f.date_to {
        qb.push(" AND invoice_date <= ").push_bind(d);
    }
}

impl Tx {
    /// The invoice and its items, in the caller's transaction (with the job that renders its PDF).
    pub async fn invoice_insert(
        &mut self,
        i: &InvoiceRow,
        items: &[InvoiceItemRow],
    ) -> Result<(), InvoiceInsertError> {
        match self.invoice_insert_rows(i, items).await {
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => {
                Err(InvoiceInsertError::DuplicateNumber)
            }
            other => Ok(other?),
        }
    }
    async fn invoice_insert_rows(
        &mut self,
        i: &InvoiceRow,
        items: &[InvoiceItemRow],
    ) -> Result<(), sqlx::Error> {
        on_tx!(
            self,
            conn,
            [invoice = INVOICE_INSERT, item = ITEM_INSERT],
            {
                sqlx::query(invoice)
                    .bind(&i.id)
                    .bind(&i.invoice_number)
                    .bind(&i.customer_name)
                    .bind(&i.customer_email)
                    .bind(&i.customer_phone)
                    .bind(&i.billing_address)
                    .bind(&i.notes)
                    .bind(i.tax_milli)
                    .bind(i.discount_cents)
                    .bind(i.subtotal_cents)
                    .bind(i.tax_cents)
                    .bind(i.total_cents)
                    .bind(&i.status)
                    .bind(&i.invoice_date)
                    .bind(&i.due_date)
                    .bind(i.paid_at)
                    .bind(i.created_at)
                    .bind(i.updated_at)
                    .execute(&mut *conn)
                    .await?;
                for it in items {
                    sqlx::query(item)
                        .bind(&it.id)
                        .bind(&it.invoice_id)
                        .bind(it.position)
                        .bind(&it.product_id)
                        .bind(&it.description)
                        .bind(it.quantity)
                        .bind(it.unit_price_cents)
                        .bind(it.total_cents)
                        .execute(&mut *conn)
                        .await?;
                }
                Ok(())
            }
        )
    }
}

impl Db {
    /// By id, or by invoice number.
    pub async fn invoice_get(&self, id: &str) -> Result<Option<InvoiceRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(INVOICE_GET), id)
    }
    /// The next free number of the year's series (`INV-2026-0007`). Two saves at once may be
    /// told the same one: the unique index refuses the second, and the caller asks again.
    pub async fn invoice_next_number(&self, year: i32) -> Result<String, sqlx::Error> {
        let pattern = format!("{}%", crate::domain::invoices::number_prefix(year));
        let taken: Vec<String> = fetch!(self, fetch_all, query_scalar(NUMBERS_OF_YEAR), pattern)?;
        Ok(crate::domain::invoices::next_number(
            year,
            taken.iter().map(String::as_str),
        ))
    }
    /// A page of invoices (newest first, or in the filter's sort) with the total number that match.
    pub async fn invoice_list(
        &self,
        f: &InvoiceFilter<'_>,
    ) -> Result<(Vec<InvoiceRow>, i64), sqlx::Error> {
        on_db!(self, pool, [page = INVOICE_PAGE, count = INVOICE_COUNT], {
            let mut qb = sqlx::QueryBuilder::new(page);
            invoice_where(&mut qb, f);
            qb.push(" ORDER BY ")
                .push(invoice_order(f.sort))
                .push(" LIMIT ")
                .push_bind(f.limit)
                .push(" OFFSET ")
                .push_bind(f.offset);
            let rows = qb.build_query_as().fetch_all(pool).await?;
            let mut count = sqlx::QueryBuilder::new(count);
            invoice_where(&mut count, f);
            let total: i64 = count.build_query_scalar().fetch_one(pool).await?;
            Ok((rows, total))
        })
    }
    /// Per status: how many invoices the filters match and their total in cents (paging ignored).
    pub async fn invoice_status_sums(
        &self,
        f: &InvoiceFilter<'_>,
    ) -> Result<Vec<(String, i64, i64)>, sqlx::Error> {
        on_db!(self, pool, [head = INVOICE_STATUS_SUMS], {
            let mut qb = sqlx::QueryBuilder::new(head);
            invoice_where(&mut qb, f);
            qb.push(" GROUP BY status");
            qb.build_query_as().fetch_all(pool).await
        })
    }
    /// The items of these invoices, in order within each.
    pub async fn invoice_items(&self, ids: &[String]) -> Result<Vec<InvoiceItemRow>, sqlx::Error> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        on_db!(self, pool, [head = ITEMS_OF], {
            let mut qb = sqlx::QueryBuilder::new(head);
            let mut list = qb.separated(", ");
            for id in ids {
                list.push_bind(id.clone());
            }
            qb.push(") ORDER BY invoice_id, position");
            qb.build_query_as().fetch_all(pool).await
        })
    }
    /// Sets the status unless the invoice is paid; false when it is (or is gone).
    pub async fn invoice_set_status(
        &self,
        id: &str,
        status: &str,
        now: i64,
    ) -> Result<bool, sqlx::Error> {
        let mut tx = self.begin().await?;
        let changed = exec_tx!(&mut tx, INVOICE_SET_STATUS, id, status, now)? == 1;
        // Marked paid by hand: its `invoice.paid` webhook event commits with it.
        if changed && status == "paid" {
            tx.webhook_emit_invoice_paid(id, now).await?;
        }
        tx.commit().await?;
        Ok(changed)
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
        exec!(self, EMAIL_CLAIM, job_id, invoice_id, to, now).map(|n| n == 1)
    }
    /// Forgets a claim whose message the mail server refused, so a retry may send it.
    pub async fn invoice_email_release(&self, job_id: &str) -> Result<(), sqlx::Error> {
        exec!(self, EMAIL_RELEASE, job_id).map(|_| ())
    }
    /// The stored PDF and the invoice version (`updated_at`) it shows.
    pub async fn invoice_pdf_get(
        &self,
        invoice_id: &str,
    ) -> Result<Option<(i64, Vec<u8>)>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(PDF_GET), invoice_id)
    }
    /// Stores a rendering unless a newer version is already stored.
    pub async fn invoice_pdf_put(
        &self,
        invoice_id: &str,
        version: i64,
        pdf: &[u8],
        now: i64,
    ) -> Result<(), sqlx::Error> {
        exec!(self, PDF_PUT, invoice_id, version, pdf, now).map(|_| ())
    }
    pub async fn payment_insert(&self, p: &PaymentRow) -> Result<(), sqlx::Error> {
        exec!(
            self,
            PAYMENT_INSERT,
            &p.id,
            &p.invoice_id,
            &p.provider,
            &p.provider_ref,
            p.amount_cents,
            &p.currency,
            &p.status,
            &p.error,
            p.created_at,
            p.updated_at
        )
        .map(|_| ())
    }
    pub async fn payment_by_ref(
        &self,
        provider_ref: &str,
    ) -> Result<Option<PaymentRow>, sqlx::Error> {
        fetch!(self, fetch_optional, query_as(PAYMENT_BY_REF), provider_ref)
    }
    /// The payment's new status; a success also marks its invoice paid, in the same transaction.
    pub async fn payment_settle(&self, s: &PaymentSettle<'_>) -> Result<(), sqlx::Error> {
        let mut tx = self.begin().await?;
        exec_tx!(
            &mut tx,
            PAYMENT_STATUS,
            s.payment_id,
            s.status,
            s.error,
            s.now
        )?;
        // The invoice's `invoice.paid` webhook event commits with the payment (once: a paid
        // invoice is not marked again).
        if s.status == "succeeded" && exec_tx!(&mut tx, INVOICE_PAID, s.invoice_id, s.now)? == 1 {
            tx.webhook_emit_invoice_paid(s.invoice_id, s.now).await?;
        }
        tx.commit().await
    }
    pub async fn payment_analytics(&self) -> Result<PaymentAnalytics, sqlx::Error> {
        fetch!(self, fetch_one, query_as(PAYMENT_ANALYTICS))
    }
    /// Adds the items; an item whose name is already in the catalog updates that one.
    pub async fn catalog_upsert(&self, items: &[CatalogRow]) -> Result<(), sqlx::Error> {
        on_db_write!(self, pool, [q = CATALOG_UPSERT], {
            let mut tx = pool.begin().await?;
            for c in items {
                sqlx::query(q)
                    .bind(&c.id)
                    .bind(&c.name)
                    .bind(&c.description)
                    .bind(c.price_cents)
                    .bind(&c.category)
                    .bind(&c.sku)
                    .bind(c.created_at)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await
        })
    }
    pub async fn catalog_list(&self) -> Result<Vec<CatalogRow>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(CATALOG_LIST))
    }
}

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
