//! Invoicing (seed 002 §3–§5, §7 "Invoicing", §8, §9): invoices with line items, their PDF (rendered
//! by the `invoice_pdf` job), payments through Stripe PaymentIntents with the webhook that marks an
//! invoice paid, and the product catalog the line items come from.
//!
//! Money is integers of cents from the moment a body is read: amounts arrive as dollars (numbers or
//! text with at most two decimals) and are parsed as decimals, never through floating point; totals
//! are computed here and the client's `totals` are ignored. Answers give dollars as JSON numbers.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{Datelike, Duration as Days, NaiveDate};
use jobs::db::{
    CatalogRow, InvoiceFilter, InvoiceInsertError, InvoiceItemRow, InvoiceRow, InvoiceSortKey,
    PaymentRow, PaymentSettle, Sort,
};
use jobs::domain::catalog::{self, CatalogError};
use jobs::domain::contacts::is_valid_email;
use jobs::domain::invoices::{
    DEFAULT_TAX_MILLI, DUE_DAYS, MAX_LINE_ITEMS, STATUSES, cents, tax_milli, totals,
};
use jobs::providers::stripe::{StripeError, verify_signature};
use jobs::queue::NewJob;
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult, parse_upload};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::{paging, sort_from, with_total};
use crate::validate::{Body, Field, Fields, Number, Object, Text, field_error};
use crate::{Access, AppState, Routes};

use crate::forms::CATALOG_LIMIT;
/// How long a PDF download waits for its rendering before asking the client to come back.
const PDF_WAIT: Duration = Duration::from_secs(20);
const CURRENCY: &str = "usd";

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/invoices", Access::User, invoice_list)
        .query::<ListQuery>()
        .returns_page::<InvoiceView>()
        .post("/api/invoices", Access::User, invoice_create)
        .body::<InvoiceBody>()
        .creates::<InvoiceView>()
        .get(
            "/api/invoices/next-number",
            Access::User,
            invoice_next_number,
        )
        .query::<NextNumberQuery>()
        .returns::<NextNumber>()
        .get("/api/invoices/summary", Access::User, invoice_summary)
        .query::<SummaryQuery>()
        .returns::<InvoiceSummary>()
        .get("/api/invoices/{id}", Access::User, invoice_get)
        .returns::<InvoiceView>()
        .patch("/api/invoices/{id}", Access::User, invoice_status)
        .body::<StatusBody>()
        .returns::<InvoiceView>()
        .post("/api/invoices/{id}/send", Access::User, invoice_send)
        .body::<SendBody>()
        .accepted()
        .get("/api/invoices/{id}/pdf", Access::User, invoice_pdf)
        .returns_file("application/pdf")
        .post("/api/create-payment-intent", Access::User, payment_intent)
        .body::<PaymentBody>()
        .returns::<PaymentIntentView>()
        .post("/api/webhooks/stripe", Access::Public, stripe_webhook)
        .body_as("application/json", crate::forms::stripe_event)
        .signed_by("Stripe-Signature")
        .returns::<StripeWebhookReceipt>()
        .get("/api/catalog", Access::User, catalog_list)
        .returns_list::<ProductView>()
        .upload(
            "/api/catalog/upload",
            Access::User,
            CATALOG_LIMIT,
            catalog_upload,
        )
        .body_as("multipart/form-data", crate::forms::catalog_upload)
        .returns::<CatalogUploaded>()
}

// ---- answers ----

/// Cents as dollars (exact to the cent when printed).
fn usd(cents: i64) -> f64 {
    cents as f64 / 100.0
}

/// `draft`, `sent`, `paid` or `overdue` (the statuses a PATCH accepts).
fn status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&STATUSES)
}

/// An invoice with its lines and totals, amounts in dollars.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct InvoiceView {
    id: String,
    invoice_number: String,
    customer_name: String,
    customer_email: Option<String>,
    customer_phone: Option<String>,
    billing_address: Option<String>,
    notes: Option<String>,
    /// A fraction: 0.085 is 8.5 %.
    tax_rate: f64,
    discount_amount: f64,
    #[schema(schema_with = status_schema)]
    status: String,
    /// YYYY-MM-DD.
    date: String,
    due_date: String,
    total_amount: f64,
    totals: InvoiceTotals,
    line_items: Vec<LineItemView>,
    /// RFC 3339.
    paid_at: Option<String>,
    created_at: String,
    updated_at: String,
    /// The create's PDF job.
    #[serde(skip_serializing_if = "Option::is_none")]
    pdf_job_id: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct InvoiceTotals {
    subtotal: f64,
    discount_amount: f64,
    tax_amount: f64,
    total_amount: f64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct LineItemView {
    id: String,
    product_id: Option<String>,
    description: String,
    quantity: i64,
    unit_price: f64,
    total_price: f64,
}

fn invoice_view(i: &InvoiceRow, items: &[InvoiceItemRow]) -> InvoiceView {
    let line_items = items
        .iter()
        .filter(|it| it.invoice_id == i.id)
        .map(|it| LineItemView {
            id: it.id.clone(),
            product_id: it.product_id.clone(),
            description: it.description.clone(),
            quantity: it.quantity.into(),
            unit_price: usd(it.unit_price_cents),
            total_price: usd(it.total_cents),
        })
        .collect();
    InvoiceView {
        id: i.id.clone(),
        invoice_number: i.invoice_number.clone(),
        customer_name: i.customer_name.clone(),
        customer_email: i.customer_email.clone(),
        customer_phone: i.customer_phone.clone(),
        billing_address: i.billing_address.clone(),
        notes: i.notes.clone(),
        tax_rate: f64::from(i.tax_milli) / 1000.0,
        discount_amount: usd(i.discount_cents),
        status: i.status.clone(),
        date: i.invoice_date.clone(),
        due_date: i.due_date.clone(),
        total_amount: usd(i.total_cents),
        totals: InvoiceTotals {
            subtotal: usd(i.subtotal_cents),
            discount_amount: usd(i.discount_cents),
            tax_amount: usd(i.tax_cents),
            total_amount: usd(i.total_cents),
        },
        line_items,
        paid_at: i.paid_at.map(to_rfc3339),
        created_at: to_rfc3339(i.created_at),
        updated_at: to_rfc3339(i.updated_at),
        pdf_job_id: None,
    }
}

async fn load(state: &AppState, id: &str) -> ApiResult<(InvoiceRow, Vec<InvoiceItemRow>)> {
    let db = &state.queue.db;
    let invoice = db
        .invoice_get(id)
        .await?
        .ok_or_else(|| ApiError::not_found("Invoice not found"))?;
    let items = db.invoice_items(std::slice::from_ref(&invoice.id)).await?;
    Ok((invoice, items))
}

// ---- list, read ----

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct ListQuery {
    /// Text in the number, customer name or email.
    search: Option<String>,
    /// One of the invoice statuses, or `all`.
    #[param(schema_with = status_filter_schema)]
    status: Option<String>,
    /// Invoice date from (YYYY-MM-DD, inclusive).
    #[param(schema_with = date_schema)]
    date_from: Option<String>,
    /// Invoice date to (YYYY-MM-DD, inclusive).
    #[param(schema_with = date_schema)]
    date_to: Option<String>,
    /// 1–1000, default 100.
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
    /// One of [`InvoiceSortKey::ALL`]; none keeps the newest first.
    #[param(schema_with = sort_schema)]
    sort: Option<String>,
    /// `asc` or `desc`; the key's own default when absent.
    #[param(schema_with = crate::list::dir_schema)]
    dir: Option<String>,
}

/// A date (YYYY-MM-DD), or `""`: read as absent (`date_param`).
fn date_schema() -> utoipa::openapi::schema::OneOfBuilder {
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(
            utoipa::openapi::ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::Type::String)
                .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                    utoipa::openapi::KnownFormat::Date,
                ))),
        )
        .item(crate::validate::one_of(&[""]))
        .description(Some("YYYY-MM-DD."))
}

/// The list's `status`: [`STATUSES`], [`ALL_STATUSES`], or `""` (read as absent).
fn status_filter_schema() -> utoipa::openapi::ObjectBuilder {
    let mut all = vec![ALL_STATUSES];
    all.extend_from_slice(&STATUSES);
    crate::validate::one_of_or_empty(&all)
        .description(Some("One of the invoice statuses, or `all`."))
}

/// The list's `status` for every status.
const ALL_STATUSES: &str = "all";

/// The names of [`InvoiceSortKey::ALL`], or `""` (read as absent).
fn sort_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&InvoiceSortKey::ALL.map(|(name, ..)| name))
        .description(Some("Without it, newest first."))
}

fn date_param(name: &str, v: Option<&str>) -> ApiResult<Option<String>> {
    match v.map(str::trim).filter(|s| !s.is_empty()) {
        None => Ok(None),
        Some(d) => NaiveDate::parse_from_str(d, "%Y-%m-%d")
            .map(|d| Some(d.to_string()))
            .map_err(|_| ApiError::bad_request(format!("{name} must be a date (YYYY-MM-DD)"))),
    }
}

/// The list's filters, checked; dates are owned, so the filter borrows them from here.
struct Filters<'q> {
    search: Option<&'q str>,
    status: Option<&'q str>,
    date_from: Option<String>,
    date_to: Option<String>,
}

impl<'q> Filters<'q> {
    fn of(q: &'q ListQuery) -> ApiResult<Self> {
        let status = q
            .status
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty() && *s != ALL_STATUSES);
        if let Some(s) = status
            && !STATUSES.contains(&s)
        {
            return Err(ApiError::bad_request(status_message()));
        }
        Ok(Self {
            search: q.search.as_deref().map(str::trim).filter(|s| !s.is_empty()),
            status,
            date_from: date_param("dateFrom", q.date_from.as_deref())?,
            date_to: date_param("dateTo", q.date_to.as_deref())?,
        })
    }

    fn filter(
        &self,
        limit: i64,
        offset: i64,
        sort: Option<Sort<InvoiceSortKey>>,
    ) -> InvoiceFilter<'_> {
        InvoiceFilter {
            search: self.search,
            status: self.status,
            date_from: self.date_from.as_deref(),
            date_to: self.date_to.as_deref(),
            limit,
            offset,
            sort,
        }
    }
}

async fn invoice_list(
    State(state): State<AppState>,
    _user: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let filters = Filters::of(&q)?;
    let sort = sort_from(q.sort.as_deref(), q.dir.as_deref(), &InvoiceSortKey::ALL)?;
    let db = &state.queue.db;
    let (rows, total) = db
        .invoice_list(&filters.filter(limit, offset, sort))
        .await?;
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let items = db.invoice_items(&ids).await?;
    let out: Vec<InvoiceView> = rows.iter().map(|r| invoice_view(r, &items)).collect();
    Ok(with_total(out, total))
}

/// A count and an amount (dollars) of invoices.
#[derive(Debug, Default, serde::Serialize, utoipa::ToSchema)]
struct Tally {
    count: i64,
    amount: f64,
}

/// The history's tiles for every invoice the filters match, not only the page the board shows.
#[derive(Debug, Default, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct InvoiceSummary {
    count: i64,
    total_amount: f64,
    paid: Tally,
    /// Sent or overdue: billed and not paid.
    outstanding: Tally,
    overdue: Tally,
}

/// The summary's query string: the list's, whose `sort` and `dir` it ignores (so takes any).
struct SummaryQuery;

impl utoipa::IntoParams for SummaryQuery {
    fn into_params(
        parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        <ListQuery as utoipa::IntoParams>::into_params(parameter_in)
            .into_iter()
            .filter(|p| p.name != "sort" && p.name != "dir")
            .collect()
    }
}

async fn invoice_summary(
    State(state): State<AppState>,
    _user: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<InvoiceSummary>> {
    // The list's query string is accepted as the table sends it, checked the same way.
    crate::list::paging(q.limit, q.offset)?;
    let filters = Filters::of(&q)?;
    let rows = state
        .queue
        .db
        .invoice_status_sums(&filters.filter(0, 0, None))
        .await?;
    let mut out = InvoiceSummary::default();
    // Cents are summed as integers; dollars only at the end.
    let (mut total, mut paid, mut outstanding, mut overdue) = (0i64, 0i64, 0i64, 0i64);
    for (status, count, cents) in rows {
        out.count += count;
        total += cents;
        match status.as_str() {
            "paid" => {
                out.paid.count += count;
                paid += cents;
            }
            "sent" | "overdue" => {
                out.outstanding.count += count;
                outstanding += cents;
                if status == "overdue" {
                    out.overdue.count += count;
                    overdue += cents;
                }
            }
            _ => {}
        }
    }
    let dollars = |c: i64| c as f64 / 100.0;
    out.total_amount = dollars(total);
    out.paid.amount = dollars(paid);
    out.outstanding.amount = dollars(outstanding);
    out.overdue.amount = dollars(overdue);
    Ok(axum::Json(out))
}

async fn invoice_get(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<InvoiceView>> {
    let (invoice, items) = load(&state, &id).await?;
    Ok(axum::Json(invoice_view(&invoice, &items)))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct NextNumberQuery {
    /// YYYY-MM-DD: the invoice's date, whose year names the series (default today).
    #[param(schema_with = date_schema)]
    date: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct NextNumber {
    /// `INV-2026-0007`.
    invoice_number: String,
}

/// The number a blank save would take now (`INV-2026-0007`), for the form to show; the save
/// itself takes the next free one then.
async fn invoice_next_number(
    State(state): State<AppState>,
    _user: CurrentUser,
    Query(q): Query<NextNumberQuery>,
) -> ApiResult<axum::Json<NextNumber>> {
    let date = date_param("date", q.date.as_deref())?
        .and_then(|d| NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())
        .unwrap_or_else(|| chrono::Utc::now().date_naive());
    let number = state.queue.db.invoice_next_number(date.year()).await?;
    Ok(axum::Json(NextNumber {
        invoice_number: number,
    }))
}

// ---- create ----

/// Dollars (JSON number or text) as cents; `Err` is the field's message.
fn money(v: &Field<Number>, message: &str) -> Result<i64, String> {
    match v {
        Field::Value(n) => cents(&n.text()),
        _ => None,
    }
    .ok_or_else(|| message.to_string())
}

fn date_field(f: &mut Fields, key: &str, field: &Field<Text>, label: &str) -> Option<NaiveDate> {
    let text = f.text(key, field).flatten()?;
    match NaiveDate::parse_from_str(&text, "%Y-%m-%d") {
        Ok(d) => Some(d),
        Err(_) => {
            f.error(key, format!("{label} must be a date (YYYY-MM-DD)"));
            None
        }
    }
}

/// The pattern of dollars as `cents` reads them: at most 13 digits before the point and 2 after.
const DOLLARS: &str = r"([0-9]{1,13}(\.[0-9]{0,2})?|\.[0-9]{1,2})";

/// Dollars as [`money`] reads them (a subset: a whole number, or text with at most 2 decimals).
fn dollars_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Integer,
            Type::String,
        ]))
        .minimum(Some(0))
        .maximum(Some(9_999_999_999_999_i64))
        .pattern(Some(format!("^[ \\t]*{DOLLARS}[ \\t]*$")))
}

/// [`dollars_schema`], blank or null: none (0).
fn discount_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    dollars_schema()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Integer,
            Type::String,
            Type::Null,
        ]))
        .pattern(Some(format!("^[ \\t]*({DOLLARS})?[ \\t]*$")))
}

/// A percentage as `tax_milli` reads it (a subset: a whole number, or text with at most 3
/// decimals), 0–100; blank or null: the default.
fn tax_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Integer,
            Type::String,
            Type::Null,
        ]))
        .minimum(Some(0))
        .maximum(Some(100))
        .pattern(Some(
            r"^[ \t]*(0?[0-9]{1,2}(\.[0-9]{0,3})?|100(\.0{0,3})?)?[ \t]*$",
        ))
}

/// A quantity: a whole number from 1 to 1,000,000, or its digits as text.
fn quantity_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Integer,
            Type::String,
        ]))
        .minimum(Some(1))
        .maximum(Some(1_000_000))
        .pattern(Some(r"^[ \t]*\+?0*([1-9][0-9]{0,5}|1000000)[ \t]*$"))
}

/// A line's description: not blank, at most 500 characters (a subset: counted before trimming).
fn line_description_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank().max_length(Some(500))
}

/// A date (`YYYY-MM-DD`), blank or null.
fn body_date_schema() -> utoipa::openapi::schema::OneOfBuilder {
    use utoipa::openapi::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date))),
        )
        .item(crate::validate::blank())
        .item(ObjectBuilder::new().schema_type(Type::Null))
}

/// An email address (`is_valid_email`), blank or null.
fn customer_email_schema() -> utoipa::openapi::schema::OneOfBuilder {
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(crate::validate::or_null(crate::validate::email()))
        .item(crate::validate::blank())
}

/// Text of at most 64 characters (a subset: counted before trimming), or null.
fn invoice_number_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::text_or_null().max_length(Some(64))
}

/// 1 to [`MAX_LINE_ITEMS`] lines.
fn line_items_schema() -> utoipa::openapi::schema::ArrayBuilder {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(<LineItemBody as utoipa::PartialSchema>::schema())
        .min_items(Some(1))
        .max_items(Some(MAX_LINE_ITEMS))
}

/// A line of an invoice body.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct LineItemBody {
    /// A catalog product's id (kept as given; anything but text is ignored).
    #[serde(default)]
    #[schema(schema_with = crate::validate::any_value)]
    product_id: Field<Text>,
    /// Required, at most 500 characters.
    #[serde(default)]
    #[schema(schema_with = line_description_schema, required = true)]
    description: Field<String>,
    /// A whole number from 1.
    #[serde(default)]
    #[schema(schema_with = quantity_schema, required = true)]
    quantity: Field<Number>,
    /// Dollars, at most 2 decimals.
    #[serde(default)]
    #[schema(schema_with = dollars_schema, required = true)]
    unit_price: Field<Number>,
}

/// An invoice to create; amounts are dollars (numbers or text).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct InvoiceBody {
    #[serde(default)]
    #[schema(schema_with = crate::validate::not_blank_text, required = true)]
    customer_name: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = customer_email_schema)]
    customer_email: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    customer_phone: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    billing_address: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    notes: Field<Text>,
    /// At most 64 characters, not taken by another invoice; the year's next number
    /// (`INV-2026-0007`) when absent or blank.
    #[serde(default)]
    #[schema(schema_with = invoice_number_schema)]
    invoice_number: Field<Text>,
    /// Percent, 0–100; 8.5 when absent or blank.
    #[serde(default)]
    #[schema(schema_with = tax_schema)]
    tax_rate: Field<Number>,
    #[serde(default)]
    #[schema(schema_with = discount_schema)]
    discount_amount: Field<Number>,
    /// `YYYY-MM-DD`; today when absent.
    #[serde(default)]
    #[schema(schema_with = body_date_schema)]
    date: Field<Text>,
    /// `YYYY-MM-DD`, not before the date; 30 days after the date when absent.
    #[serde(default)]
    #[schema(schema_with = body_date_schema)]
    due_date: Field<Text>,
    /// The invoice's lines, 1 to 200; the total they come to must fit (`totals`).
    #[serde(default)]
    #[schema(schema_with = line_items_schema, required = true)]
    line_items: Field<Vec<Field<Object<LineItemBody>>>>,
}

struct Line {
    product_id: Option<String>,
    description: String,
    quantity: i64,
    unit_cents: i64,
}

fn read_lines(f: &mut Fields, field: Field<Vec<Field<Object<LineItemBody>>>>) -> Vec<Line> {
    let list = match field {
        Field::Value(list) => list,
        Field::Absent | Field::Null => Vec::new(),
        Field::Wrong => {
            f.error("lineItems", "lineItems must be a list");
            return Vec::new();
        }
    };
    if list.is_empty() {
        f.error("lineItems", "Add at least one line item");
        return Vec::new();
    }
    if list.len() > MAX_LINE_ITEMS {
        f.error(
            "lineItems",
            format!("At most {MAX_LINE_ITEMS} line items per invoice"),
        );
        return Vec::new();
    }
    let mut lines = Vec::new();
    for (n, item) in list.iter().enumerate() {
        let key = |field: &str| format!("lineItems[{n}].{field}");
        let Field::Value(Object(item)) = item else {
            f.error(&key("description"), "Each line item must be an object");
            continue;
        };
        let description = match &item.description {
            Field::Value(d) => d.trim(),
            _ => "",
        };
        if description.is_empty() {
            f.error(&key("description"), "Line item description is required");
        } else if description.chars().count() > 500 {
            f.error(
                &key("description"),
                "Line item description is too long (at most 500 characters)",
            );
        }
        let quantity = match &item.quantity {
            Field::Value(Number::Number(n)) => n.as_i64(),
            Field::Value(Number::Text(s)) => s.trim().parse::<i64>().ok(),
            _ => None,
        }
        .filter(|q| (1..=1_000_000).contains(q));
        if quantity.is_none() {
            f.error(
                &key("quantity"),
                "Quantity must be a whole number of at least 1",
            );
        }
        let unit = if item.unit_price.is_present() {
            money(
                &item.unit_price,
                "Unit price must be an amount in dollars with at most 2 decimals",
            )
        } else {
            Err("Unit price is required".into())
        };
        if let Err(m) = &unit {
            f.error(&key("unitPrice"), m.clone());
        }
        let product_id = match &item.product_id {
            Field::Value(Text(s)) => Some(s.trim().to_string()),
            _ => None,
        }
        .filter(|s| !s.is_empty());
        if let (Some(quantity), Ok(unit_cents)) = (quantity, unit)
            && !description.is_empty()
        {
            lines.push(Line {
                product_id,
                description: description.to_string(),
                quantity,
                unit_cents,
            });
        }
    }
    lines
}

/// Blank text in an amount field counts as absent (the form's emptied input).
fn is_blank(v: &Field<Number>) -> bool {
    match v {
        Field::Absent | Field::Null => true,
        Field::Value(Number::Text(s)) => s.trim().is_empty(),
        _ => false,
    }
}

async fn invoice_create(
    State(state): State<AppState>,
    _user: CurrentUser,
    Body(body): Body<InvoiceBody>,
) -> ApiResult<Response> {
    let mut f = Fields::default();
    let customer_name = f.text("customerName", &body.customer_name).flatten();
    if customer_name.is_none() {
        f.error("customerName", "Customer name is required");
    }
    let customer_email = f.text("customerEmail", &body.customer_email).flatten();
    if let Some(e) = &customer_email
        && !is_valid_email(e)
    {
        f.error("customerEmail", "Valid email required");
    }
    let customer_phone = f.text("customerPhone", &body.customer_phone).flatten();
    let billing_address = f.text("billingAddress", &body.billing_address).flatten();
    let notes = f.text("notes", &body.notes).flatten();
    // Left blank, the number is the next of the invoice year's series (INV-2026-0001).
    let typed_number = f.text("invoiceNumber", &body.invoice_number).flatten();
    if typed_number
        .as_ref()
        .is_some_and(|n| n.chars().count() > 64)
    {
        f.error("invoiceNumber", "Invoice number is too long (at most 64)");
    }
    // An emptied tax field means the default (the seed resets it to 8.5).
    let tax = match &body.tax_rate {
        t if is_blank(t) => Some(DEFAULT_TAX_MILLI),
        Field::Value(n) => tax_milli(&n.text()),
        _ => None,
    };
    if tax.is_none() {
        f.error("taxRate", "Tax rate must be between 0 and 100");
    }
    let discount = if is_blank(&body.discount_amount) {
        Ok(0)
    } else {
        money(
            &body.discount_amount,
            "Discount must be an amount of at least 0",
        )
    };
    if let Err(m) = &discount {
        f.error("discountAmount", m.clone());
    }
    let date = date_field(&mut f, "date", &body.date, "Date");
    let due = date_field(&mut f, "dueDate", &body.due_date, "Due date");
    let lines = read_lines(&mut f, body.line_items);
    let date = date.unwrap_or_else(|| chrono::Utc::now().date_naive());
    let due = due.unwrap_or(date + Days::days(DUE_DAYS));
    if due < date {
        f.error("dueDate", "Due date must not be before the invoice date");
    }
    f.finish()?;
    let (Some(customer_name), Some(tax), Ok(discount)) = (customer_name, tax, discount) else {
        return Err(ApiError::unprocessable("Invalid invoice"));
    };
    let pairs: Vec<(i64, i64)> = lines.iter().map(|l| (l.quantity, l.unit_cents)).collect();
    let t = totals(&pairs, discount, tax)
        .ok_or_else(|| field_error("lineItems", "The invoice total is too large"))?;
    let now = now_ms();
    let id = ulid::Ulid::new().to_string();
    let mut invoice = InvoiceRow {
        id: id.clone(),
        invoice_number: String::new(),
        customer_name,
        customer_email,
        customer_phone,
        billing_address,
        notes,
        tax_milli: i32::try_from(tax).unwrap_or(0),
        discount_cents: t.discount,
        subtotal_cents: t.subtotal,
        tax_cents: t.tax,
        total_cents: t.total,
        status: "draft".into(),
        invoice_date: date.to_string(),
        due_date: due.to_string(),
        paid_at: None,
        created_at: now,
        updated_at: now,
    };
    let items: Vec<InvoiceItemRow> = lines
        .into_iter()
        .enumerate()
        .map(|(n, l)| InvoiceItemRow {
            id: ulid::Ulid::new().to_string(),
            invoice_id: id.clone(),
            position: i32::try_from(n).unwrap_or(i32::MAX),
            product_id: l.product_id,
            description: l.description,
            quantity: i32::try_from(l.quantity).unwrap_or(i32::MAX),
            unit_price_cents: l.unit_cents,
            total_cents: l.quantity * l.unit_cents,
        })
        .collect();
    let mut attempts = 0;
    let inserted = loop {
        invoice.invoice_number = match &typed_number {
            Some(n) => n.clone(),
            None => state.queue.db.invoice_next_number(date.year()).await?,
        };
        let mut tx = state.queue.begin().await?;
        match tx.tx().invoice_insert(&invoice, &items).await {
            Ok(()) => {}
            // Another save took the number this one was given: take the next.
            Err(InvoiceInsertError::DuplicateNumber)
                if typed_number.is_none() && attempts < NUMBER_ATTEMPTS =>
            {
                attempts += 1;
                continue;
            }
            Err(InvoiceInsertError::DuplicateNumber) => {
                return Err(ApiError::conflict("Invoice number already exists"));
            }
            Err(InvoiceInsertError::Db(e)) => return Err(e.into()),
        }
        let inserted = tx.enqueue(pdf_job(&invoice)).await?;
        tx.commit().await?;
        break inserted;
    };
    let mut out = invoice_view(&invoice, &items);
    out.pdf_job_id = Some(inserted.id);
    Ok((StatusCode::CREATED, axum::Json(out)).into_response())
}

/// Saves at once that were given the same assigned number: each retry takes the next free one.
const NUMBER_ATTEMPTS: u32 = 5;

/// The rendering of this version of the invoice; asked twice, it is one job.
fn pdf_job(i: &InvoiceRow) -> NewJob {
    NewJob::new("invoice_pdf", json!({ "invoiceId": i.id }))
        .unique_while_active(format!("invoice_pdf:{}:{}", i.id, i.updated_at))
}

// ---- status ----

fn status_message() -> String {
    format!("status must be one of: {}", STATUSES.join(", "))
}

/// The invoice's new status.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct StatusBody {
    /// An `Option` (not `#[serde(default)]`): read as before, a missing or null status is the
    /// field's error, and a list body is serde's.
    #[schema(schema_with = status_schema, required = true)]
    status: Option<Field<String>>,
}

async fn invoice_status(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<StatusBody>,
) -> ApiResult<axum::Json<InvoiceView>> {
    let status = match &body.status {
        Some(Field::Value(s)) => Some(s.trim()),
        _ => None,
    }
    .filter(|s| STATUSES.contains(s))
    .ok_or_else(|| field_error("status", status_message()))?
    .to_string();
    let (invoice, _) = load(&state, &id).await?;
    if invoice.status == "paid" {
        return Err(ApiError::conflict("Paid invoices cannot be changed"));
    }
    let db = &state.queue.db;
    if !db
        .invoice_set_status(&invoice.id, &status, now_ms())
        .await?
    {
        // Paid (by the webhook) between the read and the write.
        return Err(ApiError::conflict("Paid invoices cannot be changed"));
    }
    let (invoice, items) = load(&state, &invoice.id).await?;
    // The PDF shows the status: render the new version.
    state.queue.enqueue(pdf_job(&invoice)).await?;
    Ok(axum::Json(invoice_view(&invoice, &items)))
}

// ---- PDF ----

/// `invoice-INV-123.pdf`: the number, with anything unsafe in a file name replaced.
fn pdf_file_name(number: &str) -> String {
    let safe: String = number
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("invoice-{safe}.pdf")
}

async fn invoice_pdf(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let (invoice, _) = load(&state, &id).await?;
    let db = &state.queue.db;
    let current = |stored: &Option<(i64, Vec<u8>)>| {
        stored
            .as_ref()
            .is_some_and(|(version, _)| *version >= invoice.updated_at)
    };
    let mut stored = db.invoice_pdf_get(&invoice.id).await?;
    if !current(&stored) {
        let job = state.queue.enqueue(pdf_job(&invoice)).await?;
        let deadline = tokio::time::Instant::now() + PDF_WAIT;
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            stored = db.invoice_pdf_get(&invoice.id).await?;
            if current(&stored) {
                break;
            }
            let failed = state
                .queue
                .get(&job.id)
                .await?
                .and_then(|j| (j.status == "failed").then_some(j.error))
                .flatten();
            if let Some(error) = failed {
                return Err(ApiError::Status(
                    StatusCode::SERVICE_UNAVAILABLE,
                    format!("Failed to download PDF: {error}"),
                ));
            }
            if tokio::time::Instant::now() >= deadline {
                return Ok((
                    StatusCode::SERVICE_UNAVAILABLE,
                    [(header::RETRY_AFTER, "5")],
                    axum::Json(json!({
                        "message": "The PDF is still being rendered; try again in a moment.",
                        "jobId": job.id,
                    })),
                )
                    .into_response());
            }
        }
    }
    let Some((_, pdf)) = stored else {
        return Err(ApiError::not_found("Invoice PDF not found"));
    };
    Ok((
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"{}\"",
                    pdf_file_name(&invoice.invoice_number)
                ),
            ),
        ],
        pdf,
    )
        .into_response())
}

/// Optional: the whole body may be left out.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
struct SendBody {
    /// A note above the invoice, at most 2000 characters kept.
    message: Option<String>,
}

/// Emails the invoice with its PDF (the `invoice_send` job); 202 with the job.
async fn invoice_send(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Response> {
    // The body is optional: nothing, or `{"message": ...}`.
    let body: SendBody = if body.iter().all(u8::is_ascii_whitespace) {
        SendBody::default()
    } else {
        serde_json::from_slice(&body)
            .map_err(|e| ApiError::bad_request(format!("Malformed JSON: {e}")))?
    };
    let (invoice, _) = load(&state, &id).await?;
    if invoice.status == "paid" {
        return Err(ApiError::conflict("Paid invoices cannot be changed"));
    }
    if invoice
        .customer_email
        .as_deref()
        .is_none_or(|e| e.trim().is_empty())
    {
        return Err(ApiError::unprocessable(
            "This invoice has no customer email",
        ));
    }
    let message = body
        .message
        .map(|m| m.chars().take(2000).collect::<String>());
    let job = state
        .queue
        .enqueue(
            NewJob::new(
                "invoice_send",
                json!({ "invoiceId": invoice.id, "message": message }),
            )
            .unique_while_active(format!("invoice_send:{}", invoice.id)),
        )
        .await?;
    Ok(crate::enqueue::accepted(&job.id, &job.status))
}

// ---- payments ----

/// What the payment form sends about its invoice.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct PaymentMetadata {
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    invoice_number: Field<String>,
}

/// `usd` in any case, blank or null (`usd`).
fn currency_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::String,
            Type::Null,
        ]))
        .pattern(Some(r"^[ \t]*([uU][sS][dD])?[ \t]*$"))
}

/// A payment of an invoice, named by its id or by `metadata.invoiceNumber`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Payment {
    /// The invoice's id; blank or null: `metadata.invoiceNumber` names it.
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    invoice_id: Field<Text>,
    #[serde(default)]
    #[schema(value_type = Option<PaymentMetadata>)]
    metadata: Field<Object<PaymentMetadata>>,
    /// `usd`, the only one.
    #[serde(default)]
    #[schema(schema_with = currency_schema)]
    currency: Field<Text>,
    /// Dollars; must match the invoice's total.
    #[serde(default)]
    #[schema(schema_with = dollars_schema)]
    amount: Field<Number>,
}

crate::validate::body_variant!(
    /// A [`Payment`] that names its invoice: by its id or by `metadata.invoiceNumber`.
    PaymentBody(Payment),
    |base| {
        use utoipa::openapi::{ObjectBuilder, Type};
        let number = ObjectBuilder::new()
            .schema_type(Type::Object)
            .property(
                "invoiceNumber",
                crate::validate::not_blank(),
            )
            .required("invoiceNumber");
        crate::validate::one_shape_of(
            base,
            vec![
                vec![(
                    "invoiceId",
                    crate::validate::not_blank_text().into(),
                )],
                vec![("metadata", number.into())],
            ],
        )
    }
);

async fn payment_intent(
    State(state): State<AppState>,
    _user: CurrentUser,
    Body(PaymentBody(body)): Body<PaymentBody>,
) -> ApiResult<Response> {
    let mut f = Fields::default();
    let metadata_number = match &body.metadata {
        Field::Value(Object(m)) => match &m.invoice_number {
            Field::Value(n) => Some(n.clone()),
            _ => None,
        },
        _ => None,
    };
    let invoice_ref = f
        .text("invoiceId", &body.invoice_id)
        .flatten()
        .or(metadata_number)
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    if invoice_ref.is_none() {
        f.error(
            "metadata.invoiceNumber",
            "Save the invoice first: a payment needs its invoice number",
        );
    }
    let currency = f
        .text("currency", &body.currency)
        .flatten()
        .unwrap_or_else(|| CURRENCY.into())
        .to_ascii_lowercase();
    if currency != CURRENCY {
        f.error("currency", "Only usd is supported");
    }
    let amount = body.amount.is_present().then(|| {
        money(
            &body.amount,
            "Amount must be an amount in dollars with at most 2 decimals",
        )
    });
    if let Some(Err(m)) = &amount {
        f.error("amount", m.clone());
    }
    f.finish()?;
    let Some(invoice_ref) = invoice_ref else {
        return Err(ApiError::unprocessable("Invalid payment"));
    };
    let (invoice, _) = load(&state, &invoice_ref).await?;
    if invoice.status == "paid" {
        return Err(ApiError::conflict("This invoice is already paid"));
    }
    if invoice.total_cents <= 0 {
        return Err(field_error(
            "amount",
            "The invoice total must be above zero",
        ));
    }
    if let Some(Ok(a)) = amount
        && a != invoice.total_cents
    {
        return Err(field_error(
            "amount",
            "The amount does not match the invoice total; save the invoice again",
        ));
    }
    let db = &state.queue.db;
    let now = now_ms();
    let Some(stripe) = state.queue.providers.stripe.clone() else {
        // Demo mode: the invoice becomes payable (sent), nothing is charged.
        let payment_id = ulid::Ulid::new().to_string();
        db.payment_insert(&PaymentRow {
            id: payment_id.clone(),
            invoice_id: invoice.id.clone(),
            provider: "demo".into(),
            provider_ref: None,
            amount_cents: invoice.total_cents,
            currency: CURRENCY.into(),
            status: "demo".into(),
            error: None,
            created_at: now,
            updated_at: now,
        })
        .await?;
        if invoice.status == "draft" {
            db.invoice_set_status(&invoice.id, "sent", now).await?;
        }
        return Ok(axum::Json(PaymentIntentView {
            demo: true,
            payment_id: Some(payment_id),
            payment_intent_id: None,
            client_secret: None,
            status: "demo".into(),
            amount: invoice.total_cents,
            currency: CURRENCY.into(),
            message: Some(
                "Demo mode: no payment provider is configured (STRIPE_SECRET_KEY), so nothing \
                 was charged. The invoice is marked payable.",
            ),
        })
        .into_response());
    };
    // One intent per version of the invoice: a double click or a retry gets the same one back.
    let key = format!("invoice-{}-{}", invoice.id, invoice.updated_at);
    let intent = stripe
        .create_intent(
            invoice.total_cents,
            CURRENCY,
            &key,
            &[
                ("invoiceId", &invoice.id),
                ("invoiceNumber", &invoice.invoice_number),
                ("customerName", &invoice.customer_name),
            ],
        )
        .await
        .map_err(|e| match e {
            StripeError::Refused(m) => {
                ApiError::Status(StatusCode::PAYMENT_REQUIRED, format!("Payment Failed: {m}"))
            }
            other => ApiError::Status(StatusCode::BAD_GATEWAY, format!("Payment Failed: {other}")),
        })?;
    if db.payment_by_ref(&intent.id).await?.is_none() {
        let row = PaymentRow {
            id: ulid::Ulid::new().to_string(),
            invoice_id: invoice.id.clone(),
            provider: "stripe".into(),
            provider_ref: Some(intent.id.clone()),
            amount_cents: intent.amount,
            currency: intent.currency.clone(),
            status: intent.status.clone(),
            error: None,
            created_at: now,
            updated_at: now,
        };
        if let Err(e) = db.payment_insert(&row).await {
            // The same intent recorded by a concurrent double click.
            let duplicate = matches!(&e, sqlx::Error::Database(d) if d.is_unique_violation());
            if !duplicate {
                return Err(e.into());
            }
        }
    }
    Ok(axum::Json(PaymentIntentView {
        demo: false,
        payment_id: None,
        payment_intent_id: Some(intent.id),
        client_secret: intent.client_secret,
        status: intent.status,
        amount: intent.amount,
        currency: intent.currency,
        message: None,
    })
    .into_response())
}

/// A payment to take in the browser (Stripe), or the demo's record of one.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct PaymentIntentView {
    /// No payment provider: nothing was charged.
    demo: bool,
    /// The demo's payment record.
    #[serde(skip_serializing_if = "Option::is_none")]
    payment_id: Option<String>,
    /// Stripe's PaymentIntent.
    #[serde(skip_serializing_if = "Option::is_none")]
    payment_intent_id: Option<String>,
    /// For Stripe.js; null in demo mode.
    client_secret: Option<String>,
    status: String,
    /// Cents.
    amount: i64,
    currency: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'static str>,
}

/// What the webhook did with an event.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct StripeWebhookReceipt {
    received: bool,
    /// An event this app acts on (a payment of one of its invoices).
    handled: bool,
}

fn receipt(handled: bool) -> Response {
    axum::Json(StripeWebhookReceipt {
        received: true,
        handled,
    })
    .into_response()
}

async fn stripe_webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let Some(stripe) = state.queue.providers.stripe.clone() else {
        return Err(ApiError::bad_request("Stripe is not configured"));
    };
    let signature = headers
        .get("stripe-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !verify_signature(stripe.webhook_secret(), signature, &body, now_ms() / 1000) {
        return Err(ApiError::bad_request("Invalid Stripe signature"));
    }
    let event: Value = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("Malformed event: {e}")))?;
    let kind = event["type"].as_str().unwrap_or_default();
    let object = &event["data"]["object"];
    let status = match kind {
        "payment_intent.succeeded" => "succeeded",
        "payment_intent.payment_failed" => "failed",
        "payment_intent.canceled" => "canceled",
        "payment_intent.processing" => "processing",
        // Other events are acknowledged so Stripe does not send them again.
        _ => return Ok(receipt(false)),
    };
    let Some(intent_id) = object["id"].as_str() else {
        return Err(ApiError::bad_request(
            "Malformed event: no payment intent id",
        ));
    };
    let db = &state.queue.db;
    let Some(payment) = db.payment_by_ref(intent_id).await? else {
        tracing::warn!(intent_id, "Stripe event for a payment we did not start");
        return Ok(receipt(false));
    };
    if payment.status == "succeeded" {
        // Events can arrive again and out of order; a success is final.
        return Ok(receipt(true));
    }
    let error = object["last_payment_error"]["message"].as_str();
    db.payment_settle(&PaymentSettle {
        payment_id: &payment.id,
        invoice_id: &payment.invoice_id,
        status,
        error,
        now: now_ms(),
    })
    .await?;
    if status == "succeeded"
        && let Some(invoice) = db.invoice_get(&payment.invoice_id).await?
    {
        state.queue.enqueue(pdf_job(&invoice)).await?;
    }
    Ok(receipt(true))
}

// ---- catalog ----

/// A product of the catalog, its price in dollars.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ProductView {
    id: String,
    name: String,
    description: Option<String>,
    price: f64,
    category: Option<String>,
    sku: Option<String>,
}

fn catalog_json(c: &CatalogRow) -> ProductView {
    ProductView {
        id: c.id.clone(),
        name: c.name.clone(),
        description: c.description.clone(),
        price: usd(c.price_cents),
        category: c.category.clone(),
        sku: c.sku.clone(),
    }
}

async fn catalog_list(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<axum::Json<Vec<ProductView>>> {
    let rows = state.queue.db.catalog_list().await?;
    Ok(axum::Json(rows.iter().map(catalog_json).collect()))
}

async fn catalog_upload(
    State(state): State<AppState>,
    _user: CurrentUser,
    headers: HeaderMap,
    form: Result<Multipart, MultipartRejection>,
) -> ApiResult<Response> {
    let too_large = || {
        ApiError::Status(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "The catalog file is too large (at most {} MiB)",
                CATALOG_LIMIT / 1024 / 1024
            ),
        )
    };
    // Refused before reading, when the size is announced.
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if announced.is_some_and(|n| n > CATALOG_LIMIT) {
        return Err(too_large());
    }
    let mut form = form.map_err(|r| ApiError::bad_request(r.body_text()))?;
    let mut file = None;
    loop {
        let field = form.next_field().await.map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                ApiError::bad_request(format!("malformed upload: {}", e.body_text()))
            }
        })?;
        let Some(field) = field else { break };
        if matches!(field.name(), Some("file" | "catalog" | "document")) {
            let bytes = field.bytes().await.map_err(|e| {
                ApiError::Status(e.status(), format!("malformed upload: {}", e.body_text()))
            })?;
            file = Some(bytes);
        }
    }
    let bytes = file.ok_or_else(|| ApiError::unprocessable("Choose a catalog file to upload"))?;
    let parsed = parse_upload(move || {
        catalog::parse(&bytes).map_err(|e| match e {
            CatalogError::Pdf | CatalogError::Unsupported => {
                ApiError::Status(StatusCode::UNSUPPORTED_MEDIA_TYPE, e.to_string())
            }
            CatalogError::TooMany => ApiError::Status(StatusCode::PAYLOAD_TOO_LARGE, e.to_string()),
            CatalogError::Limit(limit) => limit.into(),
            other => ApiError::unprocessable(other.to_string()),
        })
    })
    .await?;
    let now = now_ms();
    let rows: Vec<CatalogRow> = parsed
        .items
        .iter()
        .map(|i| CatalogRow {
            id: ulid::Ulid::new().to_string(),
            name: i.name.clone(),
            description: i.description.clone(),
            price_cents: i.price_cents,
            category: i.category.clone(),
            sku: i.sku.clone(),
            created_at: now,
        })
        .collect();
    state.queue.db.catalog_upsert(&rows).await?;
    let catalog = state.queue.db.catalog_list().await?;
    let skipped = if parsed.skipped > 0 {
        format!(
            "; {} rows without a name or a readable price were skipped",
            parsed.skipped
        )
    } else {
        String::new()
    };
    Ok(axum::Json(CatalogUploaded {
        message: format!(
            "{} products loaded from the {} file{skipped}",
            parsed.items.len(),
            parsed.format.to_uppercase(),
        ),
        format: parsed.format.to_string(),
        added: parsed.items.len(),
        skipped: parsed.skipped,
        products: catalog.iter().map(catalog_json).collect(),
    })
    .into_response())
}

/// What an upload loaded, and the whole catalog after it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct CatalogUploaded {
    /// `csv`, `xlsx`, …
    format: String,
    added: usize,
    skipped: usize,
    message: String,
    products: Vec<ProductView>,
}
