//! Companies (seed 000 §2.6–§3, seed 001 §2–§4): the list with its filters and contact counts, one
//! company with its contacts, add, the edit dialog and status changes, and the map's customer report.
//!
//! Errors: [`ApiError`] — validation is a 422 naming the field (enumerations list their values),
//! unknown ids a 404; database errors are logged 500s.

use std::collections::{BTreeMap, HashMap, HashSet};

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use jobs::db::{
    ActivityInsert, CompanyCard, CompanyFilter, CompanyList, CompanyRow, CompanySortKey,
    CompanyWrite,
};
use jobs::domain::companies::{self as rules, NAME_REQUIRED, SCORE_BANDS, STATUSES};
use jobs::domain::{non_empty, one_of_message, state_code};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_json::value::RawValue;

use crate::bulk::{COMPANIES, DeleteOutcome, StatusOutcome};
use crate::contacts::ContactView;
use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::{Page, csv_download, id_list, paging, sort_from};
use crate::validate::{self, field_error, merge_text, present};
use crate::{Access, AppState, Routes};

/// Contacts listed with one company (its detail, `include=contacts`).
const CONTACTS_PER_COMPANY: i64 = 1000;
/// Most rows one export writes.
const EXPORT_MAX: i64 = 1_000_000;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/companies", Access::User, company_list)
        .query::<ListQuery>()
        .returns_page::<CompanyView>()
        .post("/api/companies", Access::User, company_create)
        .body::<NewCompanyBody>()
        .creates::<CompanyView>()
        .get("/api/companies/export", Access::User, company_export)
        .query::<ExportQuery>()
        .returns_file("text/csv")
        .post(
            "/api/companies/bulk-status",
            Access::User,
            company_bulk_status,
        )
        .body::<CompanyBulkStatusBody>()
        .returns::<StatusOutcome>()
        .post(
            "/api/companies/bulk-delete",
            Access::User,
            company_bulk_delete,
        )
        .body::<CompanyBulkDeleteBody>()
        .returns::<DeleteOutcome>()
        .get("/api/companies/report", Access::User, company_report)
        .query::<ReportQuery>()
        .returns::<Report>()
        .get("/api/companies/{id}", Access::User, company_get)
        .returns::<CompanyView>()
        .put("/api/companies/{id}", Access::User, company_update)
        .body::<CompanyBody>()
        .returns::<CompanyView>()
        .delete("/api/companies/{id}", Access::User, company_delete)
        .no_content()
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompanyView {
    id: String,
    name: String,
    industry: Option<String>,
    status: String,
    /// Whole dollars as a digit string (seed 000 §3).
    revenue: Option<String>,
    employees: Option<i32>,
    founded: Option<i32>,
    score: i32,
    website: Option<String>,
    phone: Option<String>,
    address: Option<String>,
    city: Option<String>,
    state: Option<String>,
    zip_code: Option<String>,
    location: Option<String>,
    growth_rate: Option<f64>,
    description: Option<String>,
    competitor_alignment: Option<i32>,
    discovered_at: Option<String>,
    last_contacted_at: Option<String>,
    discovery_source: Option<String>,
    discovery_city: Option<String>,
    discovery_state: Option<String>,
    discovery_region: Option<String>,
    discovery_metadata: Option<Value>,
    competitive_analysis: Option<Value>,
    lead_qualification: Option<Value>,
    has_enhanced_data: bool,
    prospect_score: i32,
    is_deal: bool,
    contact_count: i64,
    // The contacts' cards as the database keeps them (migration 0041).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<ContactView>>)]
    contacts: Option<Vec<Box<RawValue>>>,
    /// Report only: contacts beyond the ones listed.
    // The report writes it onto each company's card (`company_report`); here it is the schema's.
    #[serde(skip_serializing_if = "Option::is_none")]
    more_contacts: Option<i64>,
    /// The record only: why it has its score, and what its website showed (docs/providers.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    enrichment: Option<jobs::db::CompanyEnrichmentView>,
    /// Where the company was found (`osm`, `google_places`, `catalog`, `llm`): screens label each,
    /// the catalog's as "Demo data". Empty for companies added by hand or imported.
    sources: Vec<String>,
    created_at: String,
}

impl From<CompanyRow> for CompanyView {
    fn from(c: CompanyRow) -> Self {
        let location = match (&c.city, &c.state) {
            (Some(city), Some(state)) => Some(format!("{city}, {state}")),
            (Some(one), None) | (None, Some(one)) => Some(one.clone()),
            (None, None) => None,
        };
        Self {
            location,
            revenue: c.revenue.map(|r| r.to_string()),
            discovered_at: c.discovered_at.map(to_rfc3339),
            last_contacted_at: c.last_contacted_at.map(to_rfc3339),
            created_at: to_rfc3339(c.created_at),
            discovery_metadata: c.discovery_metadata.map(|j| j.0),
            competitive_analysis: c.competitive_analysis.map(|j| j.0),
            lead_qualification: c.lead_qualification.map(|j| j.0),
            id: c.id,
            name: c.name,
            industry: c.industry,
            status: c.status,
            employees: c.employees,
            founded: c.founded,
            score: c.score,
            website: c.website,
            phone: c.phone,
            address: c.address,
            city: c.city,
            state: c.state,
            zip_code: c.zip_code,
            growth_rate: c.growth_rate,
            description: c.description,
            competitor_alignment: c.competitor_alignment,
            discovery_source: c.discovery_source,
            discovery_city: c.discovery_city,
            discovery_state: c.discovery_state,
            discovery_region: c.discovery_region,
            has_enhanced_data: c.has_enhanced_data,
            prospect_score: c.prospect_score,
            is_deal: c.is_deal,
            contact_count: c.contact_count,
            contacts: None,
            more_contacts: None,
            enrichment: None,
            sources: Vec::new(),
        }
    }
}

fn state_checked(s: &str) -> ApiResult<String> {
    state_code(s).ok_or_else(|| {
        field_error(
            "state",
            "state must be a US state: its two-letter code (e.g. TX) or its name",
        )
    })
}

fn status_checked(s: &str) -> ApiResult<String> {
    let s = s.trim();
    if rules::is_status(s) {
        Ok(s.to_string())
    } else {
        Err(field_error("status", one_of_message("status", &STATUSES)))
    }
}

fn not_found() -> ApiError {
    ApiError::not_found("Company not found")
}

/// Fills in each company's `sources`: one query for the page.
async fn attach_sources(state: &AppState, items: &mut [CompanyView]) -> ApiResult<()> {
    let ids: Vec<String> = items.iter().map(|c| c.id.clone()).collect();
    let mut by: HashMap<String, Vec<String>> = HashMap::new();
    for row in state.queue.db.company_sources_of(&ids).await? {
        by.entry(row.company_id).or_default().push(row.source);
    }
    for c in items {
        c.sources = by.remove(&c.id).unwrap_or_default();
    }
    Ok(())
}

/// Writes company `c` onto `out` as the answer's JSON: its card (migration 0042), the report's
/// description cut where the card's is longer, its contact count, then `more` (`,"key":value`
/// pairs already JSON).
fn push_card(out: &mut String, c: &CompanyCard, more: &str) -> ApiResult<()> {
    let cut;
    let card = match &c.description_cut {
        None => c.card.as_str(),
        Some(description) => {
            let mut fields: serde_json::Map<String, Value> =
                serde_json::from_str(&c.card).map_err(anyhow::Error::from)?;
            fields.insert("description".into(), description.as_str().into());
            cut = serde_json::to_string(&fields).map_err(anyhow::Error::from)?;
            cut.as_str()
        }
    };
    let fields = card
        .trim_end()
        .strip_suffix('}')
        .ok_or_else(|| anyhow::anyhow!("company {}: its card is not a JSON object", c.id))?;
    out.push_str(fields);
    out.push_str(",\"contactCount\":");
    out.push_str(&c.contact_count.to_string());
    out.push_str(more);
    out.push('}');
    Ok(())
}

/// `,"contacts":[…]`: the cards of a company's contacts, for [`push_card`].
fn contacts_field(cards: &[Box<RawValue>]) -> String {
    let mut field = String::from(",\"contacts\":[");
    for (i, card) in cards.iter().enumerate() {
        if i > 0 {
            field.push(',');
        }
        field.push_str(card.get());
    }
    field.push(']');
    field
}

/// The contacts of `ids` as their cards (the api's JSON of each, migration 0041), grouped by
/// company.
async fn contacts_by_company(
    state: &AppState,
    ids: &[String],
    per_company: i64,
) -> ApiResult<HashMap<String, Vec<Box<RawValue>>>> {
    let rows = state
        .queue
        .db
        .contact_cards_by_companies(ids, per_company)
        .await?;
    let mut by: HashMap<String, Vec<Box<RawValue>>> = HashMap::new();
    for (company, card) in rows {
        let card = RawValue::from_string(card).map_err(anyhow::Error::from)?;
        by.entry(company).or_default().push(card);
    }
    Ok(by)
}

// ---- list, report ----

/// A US state as `jobs::geo::state_code` reads it: its two-letter code or its name; or `""`, read
/// as absent.
fn state_schema() -> utoipa::openapi::ObjectBuilder {
    let mut all = vec![""];
    all.extend(crate::targeting::state_values());
    crate::validate::one_of(&all).description(Some("A US state: its two-letter code or its name."))
}

/// The list's `include` values: [`INCLUDES`], or `""` (read as absent).
fn include_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&INCLUDES).description(Some(
        "`contacts`: each company with its contacts (the list only).",
    ))
}

/// What `include` takes.
const INCLUDES: [&str; 1] = ["contacts"];

/// [`STATUSES`], or `""` (read as absent).
fn status_filter_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&STATUSES)
}

/// [`SCORE_BANDS`], or `""` (read as absent).
fn score_band_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&SCORE_BANDS).description(Some("`high`, `medium` or `low`."))
}

/// The names of [`CompanySortKey::ALL`], or `""` (read as absent).
fn sort_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&CompanySortKey::ALL.map(|(name, ..)| name))
        .description(Some("Without it, best score first."))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct ListQuery {
    /// Text in the name, industry, city or state.
    q: Option<String>,
    /// A US state: its two-letter code or its name.
    #[param(schema_with = state_schema)]
    state: Option<String>,
    #[param(schema_with = status_filter_schema)]
    status: Option<String>,
    /// `high`, `medium` or `low`.
    #[param(schema_with = score_band_schema)]
    score_band: Option<String>,
    /// `contacts`: each company with its contacts (the list only).
    #[param(schema_with = include_schema)]
    include: Option<String>,
    /// Comma-separated company ids, at most 1,000 (a scan's results, the rows picked for an export).
    ids: Option<String>,
    /// `created`, `name`, `state`, `score`, `revenue`, `employees` or `status`; without it, best
    /// score first.
    #[param(schema_with = sort_schema)]
    sort: Option<String>,
    /// `asc` or `desc` (default `asc` for name, state and status, else `desc`).
    #[param(schema_with = crate::list::dir_schema)]
    dir: Option<String>,
    /// 1–1000 (default 100); the list only.
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

/// The export's query string: the list's but `include`, `limit` and `offset`, which it ignores
/// (so takes any).
struct ExportQuery;

impl utoipa::IntoParams for ExportQuery {
    fn into_params(
        parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        <ListQuery as utoipa::IntoParams>::into_params(parameter_in)
            .into_iter()
            .filter(|p| !["include", "limit", "offset"].contains(&p.name.as_str()))
            .collect()
    }
}

fn filter_from(q: &ListQuery) -> ApiResult<CompanyFilter> {
    let band =
        match non_empty(q.score_band.as_deref()) {
            None => None,
            Some(b) => Some(rules::score_band(&b.to_ascii_lowercase()).ok_or_else(|| {
                field_error("scoreBand", one_of_message("scoreBand", &SCORE_BANDS))
            })?),
        };
    Ok(CompanyFilter {
        q: non_empty(q.q.as_deref()),
        state: non_empty(q.state.as_deref())
            .map(|s| state_checked(&s))
            .transpose()?,
        status: non_empty(q.status.as_deref())
            .map(|s| status_checked(&s))
            .transpose()?,
        score_min: band.map(|b| b.0),
        score_max: band.map(|b| b.1),
        ids: id_list(q.ids.as_deref())?,
    })
}

async fn company_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let include_contacts = match non_empty(q.include.as_deref()).as_deref() {
        None => false,
        Some("contacts") => true,
        Some(_) => {
            return Err(field_error("include", one_of_message("include", &INCLUDES)));
        }
    };
    let filter = filter_from(&q)?;
    let sort = sort_from(q.sort.as_deref(), q.dir.as_deref(), &CompanySortKey::ALL)?;
    let db = &state.queue.db;
    let key = format!("companies:page:{filter:?}:{sort:?}:{limit}:{offset}:{include_contacts}");
    let page: Page = state
        .read_cache
        .get_or_compute(key, || async {
            let (rows, total) = db
                .company_list::<CompanyCard>(&CompanyList {
                    filter: &filter,
                    limit,
                    offset,
                    sort,
                })
                .await?;
            let mut by = if include_contacts {
                let ids: Vec<String> = rows.iter().map(|c| c.id.clone()).collect();
                contacts_by_company(&state, &ids, CONTACTS_PER_COMPANY).await?
            } else {
                HashMap::new()
            };
            let mut body = String::from("[");
            for (i, c) in rows.iter().enumerate() {
                if i > 0 {
                    body.push(',');
                }
                let more = if include_contacts {
                    contacts_field(&by.remove(&c.id).unwrap_or_default())
                } else {
                    String::new()
                };
                push_card(&mut body, c, &more)?;
            }
            body.push(']');
            Ok(Page::of_json(body, total))
        })
        .await?;
    Ok(axum::response::IntoResponse::into_response(page))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct ReportQuery {
    /// A state's two-letter code or name; none: every state.
    #[param(schema_with = state_schema)]
    state: Option<String>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Report {
    state: Option<String>,
    total_companies: i64,
    avg_revenue: Option<i64>,
    avg_employees: Option<i64>,
    qualified: i64,
    // The companies' cards (migration 0042) with their first contacts.
    #[schema(value_type = Vec<CompanyView>)]
    companies: Vec<Box<RawValue>>,
}

/// The map panel's customer report for a state: summary tiles over every company of the state, and
/// a page of company cards with at most three contacts each (seed 000 §2.6, §9).
async fn company_report(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<ReportQuery>,
) -> ApiResult<Json<Report>> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let code = non_empty(q.state.as_deref())
        .map(|s| state_checked(&s))
        .transpose()?;
    let db = &state.queue.db;
    let summary = db.company_report_summary(code.as_deref()).await?;
    let filter = CompanyFilter {
        state: code.clone(),
        ..CompanyFilter::default()
    };
    let rows = db
        .company_list_report(&CompanyList {
            filter: &filter,
            limit,
            offset,
            sort: None,
        })
        .await?;
    let ids: Vec<String> = rows.iter().map(|c| c.id.clone()).collect();
    let mut by = contacts_by_company(&state, &ids, rules::REPORT_CONTACTS).await?;
    let mut companies = Vec::with_capacity(rows.len());
    for c in &rows {
        let listed = by.remove(&c.id).unwrap_or_default();
        let more = format!(
            "{},\"moreContacts\":{}",
            contacts_field(&listed),
            (c.contact_count - listed.len() as i64).max(0)
        );
        let mut card = String::new();
        push_card(&mut card, c, &more)?;
        companies.push(RawValue::from_string(card).map_err(anyhow::Error::from)?);
    }
    Ok(Json(Report {
        state: code,
        total_companies: summary.total_companies,
        avg_revenue: summary.avg_revenue,
        avg_employees: summary.avg_employees,
        qualified: summary.qualified,
        companies,
    }))
}

/// The list's filters (and sort) as a CSV file: the companies table's export of its filter or of
/// the rows picked (`ids`).
async fn company_export(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    let filter = filter_from(&q)?;
    let sort = sort_from(q.sort.as_deref(), q.dir.as_deref(), &CompanySortKey::ALL)?;
    let rows = state
        .queue
        .db
        .company_page::<CompanyRow>(&CompanyList {
            filter: &filter,
            limit: EXPORT_MAX,
            offset: 0,
            sort,
        })
        .await?;
    if rows.is_empty() {
        return Err(ApiError::not_found("No companies to export"));
    }
    let opt = |s: Option<String>| s.unwrap_or_default();
    let num = |n: Option<i64>| n.map(|n| n.to_string()).unwrap_or_default();
    csv_download(
        "companies-export.csv",
        &[
            "Name",
            "Industry",
            "Status",
            "Score",
            "Revenue",
            "Employees",
            "City",
            "State",
            "Website",
            "Phone",
        ],
        rows.into_iter().map(|c| {
            vec![
                c.name,
                opt(c.industry),
                c.status,
                c.score.to_string(),
                num(c.revenue),
                num(c.employees.map(i64::from)),
                opt(c.city),
                opt(c.state),
                opt(c.website),
                opt(c.phone),
            ]
        }),
    )
}

/// The record page's company: its fields, first contacts, score reasons, website facts and sources.
async fn company_record(state: &AppState, id: &str) -> ApiResult<CompanyView> {
    let row = state
        .queue
        .db
        .company_get(id)
        .await?
        .ok_or_else(not_found)?;
    let mut view = CompanyView::from(row);
    let ids = [id.to_string()];
    let mut by = contacts_by_company(state, &ids, CONTACTS_PER_COMPANY).await?;
    view.contacts = Some(by.remove(id).unwrap_or_default());
    view.enrichment = state.queue.db.company_enrichment_view(id).await?;
    attach_sources(state, std::slice::from_mut(&mut view)).await?;
    Ok(view)
}

async fn company_get(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<CompanyView>> {
    Ok(Json(company_record(&state, &id).await?))
}

// ---- create, update ----

/// A name an edit may leave out or null (keeping it), but not blank.
fn name_schema() -> utoipa::openapi::schema::Object {
    validate::or_null(validate::not_blank())
}

/// Whole dollars as `rules::revenue_dollars` reads them: a whole number from 0, its digits as text,
/// blank or null (none).
fn revenue_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Integer,
            Type::String,
            Type::Null,
        ]))
        .minimum(Some(0))
        .maximum(Some(jobs::domain::MAX_DOLLARS))
        .pattern(Some(r"^[ \t]*(\+?[0-9]{1,12})?[ \t]*$"))
}

/// A head count, 0 or more (stored as a 32-bit integer), or null.
fn employees_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    validate::integer(Some(0), Some(i64::from(i32::MAX))).schema_type(
        utoipa::openapi::schema::SchemaType::from_iter([Type::Integer, Type::Null]),
    )
}

/// A US state (`jobs::geo::state_code`: its two-letter code or its name), blank or null (none).
fn body_state_schema() -> utoipa::openapi::schema::OneOfBuilder {
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(validate::or_null(validate::one_of(
            &crate::targeting::state_values(),
        )))
        .item(validate::blank())
}

/// [`STATUSES`], or null (unchanged).
fn body_status_schema() -> utoipa::openapi::ObjectBuilder {
    validate::one_of_or_null(&STATUSES)
}

/// The edit dialog's fields (seed 000 §2.7, §7.3), or a status; every field optional.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompanyBody {
    #[schema(schema_with = name_schema)]
    name: Option<String>,
    #[serde(default, deserialize_with = "present")]
    website: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    industry: Option<Option<String>>,
    /// Whole dollars: a number, or its digits as text (e.g. 5000000 for $5M).
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = revenue_schema)]
    revenue: Option<Value>,
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = employees_schema)]
    employees: Option<Option<i64>>,
    #[serde(default, deserialize_with = "present")]
    address: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    city: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = body_state_schema)]
    state: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    zip_code: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    phone: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    description: Option<Option<String>>,
    #[schema(schema_with = body_status_schema)]
    status: Option<String>,
    #[schema(minimum = 0, maximum = 100)]
    score: Option<i64>,
}

validate::body_variant!(
    /// A new company: a [`CompanyBody`] with its name.
    NewCompanyBody(CompanyBody),
    |base| {
        validate::requiring(
            base,
            "A new company: its name is required.",
            vec![("name", validate::not_blank().into())],
        )
    }
);

/// Applies `b` to `w`, collecting every field's problem into one 422.
fn apply(b: &CompanyBody, w: &mut CompanyWrite) -> ApiResult<()> {
    let mut errors = BTreeMap::new();
    if let Some(name) = &b.name {
        w.name = name.trim().to_string();
    }
    if w.name.is_empty() {
        return Err(field_error("name", NAME_REQUIRED));
    }
    if let Some(revenue) = &b.revenue {
        match rules::revenue_dollars(revenue) {
            Ok(r) => w.revenue = r,
            Err(m) => {
                errors.insert("revenue".to_string(), m);
            }
        }
    }
    if let Some(employees) = b.employees {
        match employees.map(i32::try_from) {
            None => w.employees = None,
            Some(Ok(n)) if n >= 0 => w.employees = Some(n),
            Some(_) => {
                errors.insert(
                    "employees".to_string(),
                    "employees must be a whole number, 0 or more".to_string(),
                );
            }
        }
    }
    if let Some(state) = &b.state {
        match non_empty(state.as_deref()) {
            None => w.state = None,
            Some(s) => match state_code(&s) {
                Some(code) => w.state = Some(code),
                None => {
                    errors.insert(
                        "state".to_string(),
                        "state must be a US state: its two-letter code (e.g. TX) or its name"
                            .to_string(),
                    );
                }
            },
        }
    }
    if let Some(status) = &b.status {
        if rules::is_status(status.trim()) {
            w.status = status.trim().to_string();
        } else {
            errors.insert("status".to_string(), one_of_message("status", &STATUSES));
        }
    }
    if let Some(score) = b.score {
        if (0..=100).contains(&score) {
            w.score = score as i32;
        } else {
            errors.insert(
                "score".to_string(),
                "score must be between 0 and 100".to_string(),
            );
        }
    }
    if let Some((_, first)) = errors.iter().next() {
        let message = if errors.len() == 1 {
            first.clone()
        } else {
            "Please correct the highlighted fields.".to_string()
        };
        return Err(ApiError::fields(message, errors));
    }
    w.website = merge_text(&b.website, w.website.take());
    w.industry = merge_text(&b.industry, w.industry.take());
    w.address = merge_text(&b.address, w.address.take());
    w.city = merge_text(&b.city, w.city.take());
    w.zip_code = merge_text(&b.zip_code, w.zip_code.take());
    w.phone = merge_text(&b.phone, w.phone.take());
    w.description = merge_text(&b.description, w.description.take());
    Ok(())
}

async fn company_create(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(NewCompanyBody(body)): Json<NewCompanyBody>,
) -> ApiResult<(StatusCode, Json<CompanyView>)> {
    let mut w = CompanyWrite {
        id: jobs::domain::new_id(),
        name: String::new(),
        industry: None,
        status: "discovered".to_string(),
        revenue: None,
        employees: None,
        score: 0,
        website: None,
        phone: None,
        address: None,
        city: None,
        state: None,
        zip_code: None,
        description: None,
        discovery_source: Some("manual".to_string()),
        now: now_ms(),
    };
    apply(&body, &mut w)?;
    let mut tx = state.queue.db.begin().await?;
    tx.company_insert(&w).await?;
    let description = format!("Company {} added", w.name);
    tx.activity_insert(&ActivityInsert {
        kind: "company_created",
        description: &description,
        entity_type: Some("company"),
        entity_id: Some(&w.id),
        actor_id: Some(&user.user.id),
    })
    .await?;
    tx.commit().await?;
    let row = state
        .queue
        .db
        .company_get(&w.id)
        .await?
        .ok_or_else(not_found)?;
    let mut view = CompanyView::from(row);
    view.contacts = Some(Vec::new());
    Ok((StatusCode::CREATED, Json(view)))
}

async fn company_update(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<CompanyBody>,
) -> ApiResult<Json<CompanyView>> {
    let mut tx = state.queue.db.begin().await?;
    let current = tx
        .company_get_for_update(&id)
        .await?
        .ok_or_else(not_found)?;
    let before = CompanyWrite::from(&current);
    let mut w = before.clone();
    apply(&body, &mut w)?;
    w.now = now_ms();
    tx.company_update(&w).await?;
    let mut record = async |kind: &str, description: String| -> ApiResult<()> {
        tx.activity_insert(&ActivityInsert {
            kind,
            description: &description,
            entity_type: Some("company"),
            entity_id: Some(&id),
            actor_id: Some(&user.user.id),
        })
        .await?;
        Ok(())
    };
    if w.status != before.status {
        record(
            "company_status_change",
            format!(
                "Company {} status changed from {} to {}",
                w.name, before.status, w.status
            ),
        )
        .await?;
    }
    let other_changes = CompanyWrite {
        status: before.status.clone(),
        now: before.now,
        ..w.clone()
    } != before;
    if other_changes {
        record("company_updated", format!("Company {} updated", w.name)).await?;
    }
    tx.commit().await?;
    Ok(Json(company_record(&state, &id).await?))
}

// ---- bulk status, delete ----

/// 1 to [`BULK_MAX`](crate::bulk::BULK_MAX) company ids, none blank ([`picked`] skips blank ones
/// and counts repeats once).
fn company_ids_schema() -> utoipa::openapi::schema::ArrayBuilder {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(validate::not_blank())
        .min_items(Some(1))
        .max_items(Some(crate::bulk::BULK_MAX))
}

/// [`STATUSES`].
fn bulk_status_schema() -> utoipa::openapi::ObjectBuilder {
    validate::one_of(&STATUSES)
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompanyBulkStatusBody {
    /// 1–1,000 company ids.
    #[serde(default)]
    #[schema(schema_with = company_ids_schema, required = true)]
    company_ids: Vec<String>,
    #[schema(schema_with = bulk_status_schema)]
    status: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompanyBulkDeleteBody {
    /// 1–1,000 company ids.
    #[serde(default)]
    #[schema(schema_with = company_ids_schema, required = true)]
    company_ids: Vec<String>,
}

/// The picked ids once each, 1 to [`BULK_MAX`](crate::bulk::BULK_MAX) of them.
fn picked(ids: &[String], verb: &str) -> ApiResult<Vec<String>> {
    let mut seen = HashSet::new();
    let ids: Vec<String> = ids
        .iter()
        .map(|id| id.trim().to_string())
        .filter(|id| !id.is_empty() && seen.insert(id.clone()))
        .collect();
    if ids.is_empty() {
        return Err(COMPANIES.none_picked());
    }
    COMPANIES.at_most(ids.len(), verb)?;
    Ok(ids)
}

/// Sets the status of every picked company in one transaction, each change a
/// `company_status_change` activity; an unknown id changes nothing.
async fn company_bulk_status(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<CompanyBulkStatusBody>,
) -> ApiResult<Json<StatusOutcome>> {
    let status = status_checked(&body.status)?;
    let ids = picked(&body.company_ids, "updated")?;
    let mut tx = state.queue.db.begin().await?;
    COMPANIES.all_found(&ids, tx.company_ids_locked(&ids).await?)?;
    let updated = tx
        .companies_status_set(&ids, &status, Some(&user.user.id), now_ms())
        .await?;
    tx.commit().await?;
    Ok(Json(StatusOutcome::new(
        COMPANIES,
        status,
        ids.len() as u64,
        updated,
    )))
}

async fn company_delete(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let mut tx = state.queue.db.begin().await?;
    let ids = [id];
    if tx.company_ids_locked(&ids).await?.is_empty() {
        return Err(not_found());
    }
    tx.companies_delete(&ids, Some(&user.user.id), now_ms())
        .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes the picked companies in one transaction (their contacts and deals stay, without a
/// company); an unknown id deletes nothing.
async fn company_bulk_delete(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<CompanyBulkDeleteBody>,
) -> ApiResult<Json<DeleteOutcome>> {
    let ids = picked(&body.company_ids, "deleted")?;
    let mut tx = state.queue.db.begin().await?;
    COMPANIES.all_found(&ids, tx.company_ids_locked(&ids).await?)?;
    let deleted = tx
        .companies_delete(&ids, Some(&user.user.id), now_ms())
        .await?;
    tx.commit().await?;
    Ok(Json(DeleteOutcome::new(COMPANIES, ids.len(), deleted)))
}
