//! The Sales Pipeline (seed 001 §2, §4, §5, §7): deals (list, read, create, partial update, delete,
//! next stage), the active prospects and their conversion into deals, the pipeline metrics and the
//! pipeline CSV export.
//!
//! Errors are [`ApiError`]: validation is a 422 whose `message` is the seed's text for the first
//! problem and whose `errors` has one entry per field; unknown ids are 404; a move past the last stage
//! and converting a prospect that already is a deal are 409. Every change writes its activity in the
//! transaction of the change.
//!
//! Bodies are read as JSON objects rather than typed structs so that a field's absence, its `null`
//! and a value of the wrong type can each be told apart and reported per field (the seed's form sends
//! numbers as strings or numbers, and partial updates only carry what changed).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use jobs::db::{ActivityInsert, DealList, DealRow, MetricsDeal, ProspectCompany, ProspectContact};
use jobs::domain::deals::{STAGES, stage_default_probability};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::{csv_download, paging, with_total};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/deals", Access::User, deal_list)
        .post("/api/deals", Access::User, deal_create)
        .post(
            "/api/deals/convert-prospect",
            Access::User,
            prospect_convert,
        )
        .get("/api/deals/{id}", Access::User, deal_get)
        .put("/api/deals/{id}", Access::User, deal_update)
        .delete("/api/deals/{id}", Access::User, deal_delete)
        .post("/api/deals/{id}/next-stage", Access::User, deal_next_stage)
        .get("/api/pipeline/prospects", Access::User, prospect_list)
        .get("/api/pipeline/metrics", Access::User, pipeline_metrics)
        .get("/api/pipeline/export", Access::User, pipeline_export)
}

// ---- stages ----

/// The board's columns, in order; `closed_lost` is not on the board.
pub(crate) const BOARD_STAGES: [&str; 5] = [
    "qualification",
    "proposal",
    "negotiation",
    "decision",
    "closed_won",
];

fn stages_message() -> String {
    let names: Vec<&str> = STAGES.iter().map(|(s, _)| *s).collect();
    format!("stage must be one of: {}", names.join(", "))
}

fn is_closed(stage: &str) -> bool {
    stage == "closed_won" || stage == "closed_lost"
}

/// The stage a deal counts as: stage-less deals are qualification.
pub(crate) fn effective_stage(stage: Option<&str>) -> &str {
    stage.unwrap_or("qualification")
}

fn next_stage(stage: Option<&str>) -> Option<&'static str> {
    let current = effective_stage(stage);
    let i = BOARD_STAGES.iter().position(|s| *s == current)?;
    BOARD_STAGES.get(i + 1).copied()
}

pub(crate) fn today() -> String {
    Utc::now().date_naive().format("%Y-%m-%d").to_string()
}

// ---- body fields ----

/// A JSON object body read field by field, collecting one error per field; the first error's text
/// becomes the response's `message`.
pub(crate) struct Fields {
    map: Map<String, Value>,
    errors: BTreeMap<String, String>,
    first: Option<String>,
}

impl Fields {
    pub(crate) fn new(map: Map<String, Value>) -> Self {
        Self {
            map,
            errors: BTreeMap::new(),
            first: None,
        }
    }

    pub(crate) fn error(&mut self, field: &str, message: impl Into<String>) {
        let message = message.into();
        if self.first.is_none() {
            self.first = Some(message.clone());
        }
        self.errors.entry(field.to_string()).or_insert(message);
    }

    pub(crate) fn has(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    pub(crate) fn raw(&self, key: &str) -> Option<&Value> {
        self.map.get(key)
    }

    /// Absent → `None`; `null` or blank → `Some(None)`; text → `Some(Some(trimmed))`; numbers are
    /// taken as their text; anything else is a field error.
    pub(crate) fn text(&mut self, key: &str) -> Option<Option<String>> {
        match self.map.get(key)? {
            Value::Null => Some(None),
            Value::String(s) => {
                let t = s.trim();
                Some((!t.is_empty()).then(|| t.to_string()))
            }
            Value::Number(n) => Some(Some(n.to_string())),
            _ => {
                self.error(key, format!("{key} must be text"));
                Some(None)
            }
        }
    }

    /// 422 with every field error, if there are any.
    pub(crate) fn finish(self) -> ApiResult<Map<String, Value>> {
        match self.first {
            Some(message) => Err(ApiError::fields(message, self.errors)),
            None => Ok(self.map),
        }
    }
}

/// A 422 about one field: the message, repeated under `errors`.
pub(crate) fn field_error(field: &str, message: impl Into<String>) -> ApiError {
    let message = message.into();
    ApiError::fields(
        message.clone(),
        BTreeMap::from([(field.to_string(), message)]),
    )
}

/// A deal value: a JSON integer or a string of digits (whole dollars). `Err` is the field message.
fn parse_value(v: &Value) -> Result<Option<i64>, &'static str> {
    const BAD: &str = "Deal value must be a whole number of dollars";
    match v {
        Value::Null => Ok(None),
        Value::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) if i >= 0 => Ok(Some(i)),
            (None, Some(f)) if f >= 0.0 && f.fract() == 0.0 && f < 9.0e15 => Ok(Some(f as i64)),
            _ => Err(BAD),
        },
        Value::String(s) => {
            let t = s.trim();
            if t.is_empty() {
                Ok(None)
            } else if t.bytes().all(|b| b.is_ascii_digit()) {
                t.parse::<i64>().map(Some).map_err(|_| BAD)
            } else {
                Err(BAD)
            }
        }
        _ => Err(BAD),
    }
}

/// The seed's coercion: a number (or numeric text) clamped to 0–100 and rounded; anything
/// non-numeric is 0.
fn coerce_probability(v: &Value) -> i32 {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    match n {
        Some(f) if f.is_finite() => f.clamp(0.0, 100.0).round() as i32,
        _ => 0,
    }
}

/// An expected close date: `YYYY-MM-DD` (or an RFC 3339 time, whose date is taken), a real date,
/// not before 1900.
fn parse_close_date(s: &str) -> Result<String, &'static str> {
    let date = NaiveDate::parse_from_str(s, "%Y-%m-%d")
        .ok()
        .or_else(|| {
            chrono::DateTime::parse_from_rfc3339(s)
                .ok()
                .map(|t| t.date_naive())
        })
        .ok_or("Expected close date must be a valid date (YYYY-MM-DD)")?;
    if date.year() < 1900 {
        return Err("Expected close date cannot be before 1900");
    }
    Ok(date.format("%Y-%m-%d").to_string())
}

// ---- views ----

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DealView {
    id: String,
    title: String,
    description: Option<String>,
    /// Whole dollars as a string of digits (seed 001 §3).
    value: String,
    stage: Option<String>,
    probability: i32,
    expected_close_date: Option<String>,
    actual_close_date: Option<String>,
    contact_id: Option<String>,
    company_id: Option<String>,
    notes: Option<String>,
    created_at: String,
}

impl From<DealRow> for DealView {
    fn from(d: DealRow) -> Self {
        Self {
            id: d.id,
            title: d.title,
            description: d.description,
            value: d.value.to_string(),
            stage: d.stage,
            probability: d.probability,
            expected_close_date: d.expected_close_date,
            actual_close_date: d.actual_close_date,
            contact_id: d.contact_id,
            company_id: d.company_id,
            notes: d.notes,
            created_at: to_rfc3339(d.created_at),
        }
    }
}

// ---- deals ----

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DealListQuery {
    stage: Option<String>,
    company_id: Option<String>,
    contact_id: Option<String>,
    limit: Option<i64>,
    offset: Option<i64>,
}

async fn deal_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<DealListQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let stage = q.stage.as_deref().filter(|s| !s.is_empty() && *s != "all");
    if let Some(s) = stage
        && !STAGES.iter().any(|(name, _)| *name == s)
    {
        return Err(field_error("stage", stages_message()));
    }
    let (rows, total) = state
        .queue
        .db
        .deal_list(&DealList {
            stage,
            company_id: q.company_id.as_deref().filter(|s| !s.is_empty()),
            contact_id: q.contact_id.as_deref().filter(|s| !s.is_empty()),
            limit,
            offset,
        })
        .await?;
    Ok(with_total(
        rows.into_iter().map(DealView::from).collect(),
        total,
    ))
}

async fn deal_get(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<DealView>> {
    let deal = state
        .queue
        .db
        .deal_get_by_id(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Deal not found"))?;
    Ok(Json(deal.into()))
}

/// The fields of a create or update body, each `None` when absent.
#[derive(Default)]
struct DealInput {
    title: Option<Option<String>>,
    description: Option<Option<String>>,
    value: Option<Option<i64>>,
    stage: Option<String>,
    probability: Option<i32>,
    expected_close_date: Option<Option<String>>,
    contact_id: Option<Option<String>>,
    company_id: Option<Option<String>>,
    notes: Option<Option<String>>,
}

/// Reads and checks a deal body; `create` makes title and value required.
fn read_deal(body: Map<String, Value>, create: bool) -> ApiResult<DealInput> {
    let mut f = Fields::new(body);
    let mut input = DealInput {
        title: f.text("title"),
        ..Default::default()
    };
    if matches!(input.title, Some(None)) || (create && input.title.is_none()) {
        f.error("title", "Deal title is required");
    }
    match f.raw("value").cloned() {
        None if create => f.error("value", "Deal value is required"),
        None => {}
        Some(v) => match parse_value(&v) {
            Ok(None) => f.error("value", "Deal value is required"),
            Ok(Some(n)) => input.value = Some(Some(n)),
            Err(m) => f.error("value", m),
        },
    }
    input.description = f.text("description");
    input.notes = f.text("notes");
    if f.has("stage") {
        match f.text("stage") {
            Some(Some(s)) if STAGES.iter().any(|(name, _)| *name == s) => input.stage = Some(s),
            Some(None) if create => {}
            _ => f.error("stage", stages_message()),
        }
    }
    // Absent or null: the stage's default applies (set by the caller).
    if let Some(v) = f.raw("probability").filter(|v| !v.is_null()) {
        input.probability = Some(coerce_probability(v));
    }
    match f.text("expectedCloseDate") {
        Some(Some(s)) => match parse_close_date(&s) {
            Ok(d) => input.expected_close_date = Some(Some(d)),
            Err(m) => f.error("expectedCloseDate", m),
        },
        other => input.expected_close_date = other,
    }
    input.contact_id = f.text("contactId");
    input.company_id = f.text("companyId");
    f.finish()?;
    Ok(input)
}

/// 422 when a referenced company or contact does not exist.
pub(crate) async fn check_refs(
    tx: &mut jobs::db::Tx,
    company_id: Option<&str>,
    contact_id: Option<&str>,
) -> ApiResult<()> {
    let mut errors = BTreeMap::new();
    let mut message = None;
    if let Some(id) = company_id
        && tx.prospect_company_get(id).await?.is_none()
    {
        message.get_or_insert("Company not found");
        errors.insert("companyId".to_string(), "Company not found".to_string());
    }
    if let Some(id) = contact_id
        && tx.prospect_contact_get(id).await?.is_none()
    {
        message.get_or_insert("Contact not found");
        errors.insert("contactId".to_string(), "Contact not found".to_string());
    }
    match message {
        Some(m) => Err(ApiError::fields(m, errors)),
        None => Ok(()),
    }
}

async fn deal_create(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<Map<String, Value>>,
) -> ApiResult<Response> {
    let input = read_deal(body, true)?;
    let stage = input.stage.unwrap_or_else(|| "qualification".to_string());
    let now = now_ms();
    let deal = DealRow {
        id: ulid::Ulid::new().to_string(),
        title: input.title.flatten().unwrap_or_default(),
        description: input.description.flatten(),
        value: input.value.flatten().unwrap_or_default(),
        probability: input
            .probability
            .unwrap_or_else(|| stage_default_probability(&stage)),
        actual_close_date: is_closed(&stage).then(today),
        stage: Some(stage),
        expected_close_date: input.expected_close_date.flatten(),
        contact_id: input.contact_id.flatten(),
        company_id: input.company_id.flatten(),
        notes: input.notes.flatten(),
        stage_changed_at: now,
        created_at: now,
        updated_at: now,
    };
    let mut tx = state.queue.db.begin().await?;
    check_refs(
        &mut tx,
        deal.company_id.as_deref(),
        deal.contact_id.as_deref(),
    )
    .await?;
    tx.deal_insert(&deal).await?;
    let description = format!(
        "Deal \"{}\" created (${}, {})",
        deal.title,
        deal.value,
        effective_stage(deal.stage.as_deref())
    );
    tx.activity_insert(&ActivityInsert {
        kind: "deal_created",
        description: &description,
        entity_type: Some("deal"),
        entity_id: Some(&deal.id),
        actor_id: Some(&user.user.id),
    })
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(DealView::from(deal))).into_response())
}

/// Moves `deal` to `stage`: the stage's probability unless one was given, and the close date set on
/// closing (cleared on reopening).
fn apply_stage(deal: &mut DealRow, stage: &str, probability: Option<i32>, now: i64) {
    deal.stage = Some(stage.to_string());
    deal.probability = probability.unwrap_or_else(|| stage_default_probability(stage));
    deal.actual_close_date = is_closed(stage).then(today);
    deal.stage_changed_at = now;
}

/// The stage change's activity, and its sequence trigger for the deal's contact.
async fn stage_activity(
    jtx: &mut jobs::queue::JobTx,
    deal: &DealRow,
    from: Option<&str>,
    user: &CurrentUser,
) -> ApiResult<()> {
    if let Some(contact) = &deal.contact_id {
        let stage = effective_stage(deal.stage.as_deref());
        jtx.enqueue(crate::contacts::trigger_job(
            "deal_stage_changed",
            contact,
            Some(stage),
        )?)
        .await?;
    }
    let tx = jtx.tx();
    let to = effective_stage(deal.stage.as_deref());
    let description = format!(
        "Deal \"{}\" moved from {} to {}",
        deal.title,
        effective_stage(from),
        to
    );
    tx.activity_insert(&ActivityInsert {
        kind: "deal_stage_change",
        description: &description,
        entity_type: Some("deal"),
        entity_id: Some(&deal.id),
        actor_id: Some(&user.user.id),
    })
    .await?;
    Ok(())
}

async fn deal_update(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<Map<String, Value>>,
) -> ApiResult<Json<DealView>> {
    let input = read_deal(body, false)?;
    let mut jtx = state.queue.begin().await?;
    let tx = jtx.tx();
    let mut deal = tx
        .deal_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Deal not found"))?;
    let now = now_ms();
    let previous_stage = deal.stage.clone();
    if let Some(Some(t)) = input.title {
        deal.title = t;
    }
    if let Some(d) = input.description {
        deal.description = d;
    }
    if let Some(Some(v)) = input.value {
        deal.value = v;
    }
    if let Some(d) = input.expected_close_date {
        deal.expected_close_date = d;
    }
    if let Some(c) = input.contact_id {
        deal.contact_id = c;
    }
    if let Some(c) = input.company_id {
        deal.company_id = c;
    }
    if let Some(n) = input.notes {
        deal.notes = n;
    }
    let stage_changed = match &input.stage {
        Some(s) if previous_stage.as_deref() != Some(s.as_str()) => {
            apply_stage(&mut deal, s, input.probability, now);
            true
        }
        _ => {
            if let Some(p) = input.probability {
                deal.probability = p;
            }
            false
        }
    };
    deal.updated_at = now;
    check_refs(tx, deal.company_id.as_deref(), deal.contact_id.as_deref()).await?;
    tx.deal_update(&deal).await?;
    if stage_changed {
        stage_activity(&mut jtx, &deal, previous_stage.as_deref(), &user).await?;
    }
    jtx.commit().await?;
    Ok(Json(deal.into()))
}

async fn deal_next_stage(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<DealView>> {
    let mut jtx = state.queue.begin().await?;
    let tx = jtx.tx();
    let mut deal = tx
        .deal_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Deal not found"))?;
    let previous_stage = deal.stage.clone();
    let next = next_stage(previous_stage.as_deref())
        .ok_or_else(|| ApiError::conflict("No next stage available"))?;
    let now = now_ms();
    apply_stage(&mut deal, next, None, now);
    deal.updated_at = now;
    tx.deal_update(&deal).await?;
    stage_activity(&mut jtx, &deal, previous_stage.as_deref(), &user).await?;
    jtx.commit().await?;
    Ok(Json(deal.into()))
}

async fn deal_delete(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let mut tx = state.queue.db.begin().await?;
    let title = tx
        .deal_delete(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Deal not found"))?;
    let description = format!("Deal \"{title}\" deleted");
    tx.activity_insert(&ActivityInsert {
        kind: "deal_deleted",
        description: &description,
        entity_type: Some("deal"),
        entity_id: Some(&id),
        actor_id: Some(&user.user.id),
    })
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

// ---- prospects ----

/// How many of each the Active Prospects section shows (seed 001 §9).
const PROSPECT_COMPANIES: i64 = 8;
const PROSPECT_CONTACTS: i64 = 6;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ProspectCompanyView {
    id: String,
    name: String,
    industry: Option<String>,
    city: Option<String>,
    state: Option<String>,
    revenue: Option<String>,
    score: i32,
    prospect_score: i32,
    status: String,
    is_deal: bool,
}

impl From<ProspectCompany> for ProspectCompanyView {
    fn from(c: ProspectCompany) -> Self {
        Self {
            id: c.id,
            name: c.name,
            industry: c.industry,
            city: c.city,
            state: c.state,
            revenue: c.revenue.map(|r| r.to_string()),
            score: c.score,
            prospect_score: c.prospect_score,
            status: c.status,
            is_deal: c.is_deal,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ProspectContactView {
    id: String,
    first_name: String,
    last_name: String,
    title: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    status: String,
    score: i32,
    company_id: Option<String>,
    company_name: Option<String>,
}

impl From<ProspectContact> for ProspectContactView {
    fn from(c: ProspectContact) -> Self {
        Self {
            id: c.id,
            first_name: c.first_name,
            last_name: c.last_name,
            title: c.title,
            email: c.email,
            phone: c.phone,
            status: c.status,
            score: c.score,
            company_id: c.company_id,
            company_name: c.company_name,
        }
    }
}

#[derive(Debug, Serialize)]
struct ProspectsView {
    companies: Vec<ProspectCompanyView>,
    contacts: Vec<ProspectContactView>,
}

async fn prospect_list(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<Json<ProspectsView>> {
    let db = &state.queue.db;
    let companies = db.prospect_company_list(PROSPECT_COMPANIES).await?;
    let contacts = db.prospect_contact_list(PROSPECT_CONTACTS).await?;
    Ok(Json(ProspectsView {
        companies: companies.into_iter().map(Into::into).collect(),
        contacts: contacts.into_iter().map(Into::into).collect(),
    }))
}

/// The value a converted prospect's deal starts at: 1% of its company's annual revenue, in whole
/// dollars (a $5.2M dealer gives $52,000, the industry's average deal size); 0 when the revenue is
/// unknown.
pub(crate) fn revenue_estimate(revenue: Option<i64>) -> i64 {
    revenue.map(|r| r.max(0) / 100).unwrap_or(0)
}

async fn prospect_convert(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<Map<String, Value>>,
) -> ApiResult<Response> {
    let mut f = Fields::new(body);
    let prospect_id = f.text("prospectId").flatten();
    if prospect_id.is_none() {
        f.error("prospectId", "prospectId is required");
    }
    let kind = f.text("type").flatten();
    if !matches!(kind.as_deref(), Some("company" | "contact")) {
        f.error("type", "type must be one of: company, contact");
    }
    f.finish()?;
    let (Some(prospect_id), Some(kind)) = (prospect_id, kind) else {
        return Err(ApiError::unprocessable("prospectId and type are required"));
    };
    let now = now_ms();
    let mut tx = state.queue.db.begin().await?;
    let (title, value, company_id, contact_id, prospect_name) = if kind == "company" {
        let company = tx
            .prospect_company_get(&prospect_id)
            .await?
            .ok_or_else(|| ApiError::not_found("Company not found"))?;
        // The conditional update is the guard: a second conversion changes no row.
        if company.is_deal || tx.prospect_company_mark_deal(&company.id, now).await? == 0 {
            return Err(ApiError::conflict("Company is already a deal"));
        }
        (
            company.name.clone(),
            revenue_estimate(company.revenue),
            Some(company.id),
            None,
            company.name,
        )
    } else {
        let contact = tx
            .prospect_contact_get(&prospect_id)
            .await?
            .ok_or_else(|| ApiError::not_found("Contact not found"))?;
        // A contact is converted once: a second click must not make a second deal.
        if tx.deal_exists_for_contact(&contact.id).await? {
            return Err(ApiError::conflict("Contact is already a deal"));
        }
        let name = format!("{} {}", contact.first_name, contact.last_name);
        let title = match &contact.company_name {
            Some(company) => format!("{name} - {company}"),
            None => name.clone(),
        };
        tx.prospect_contact_qualify(&contact.id, now).await?;
        (
            title,
            revenue_estimate(contact.company_revenue),
            contact.company_id,
            Some(contact.id),
            name,
        )
    };
    let deal = DealRow {
        id: ulid::Ulid::new().to_string(),
        title,
        description: None,
        value,
        stage: Some("qualification".into()),
        probability: stage_default_probability("qualification"),
        expected_close_date: None,
        actual_close_date: None,
        contact_id,
        company_id,
        notes: None,
        stage_changed_at: now,
        created_at: now,
        updated_at: now,
    };
    tx.deal_insert(&deal).await?;
    let description = format!(
        "Prospect {prospect_name} ({kind}) converted to deal \"{}\"",
        deal.title
    );
    tx.activity_insert(&ActivityInsert {
        kind: "prospect_converted",
        description: &description,
        entity_type: Some("deal"),
        entity_id: Some(&deal.id),
        actor_id: Some(&user.user.id),
    })
    .await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(DealView::from(deal))).into_response())
}

// ---- metrics ----

const TARGET_CLOSE_RATE: f64 = 20.0;
const TARGET_CYCLE: i64 = 35;
const INDUSTRY_AVG_CYCLE: i64 = 45;
const INDUSTRY_AVG_CLOSE_RATE: f64 = 15.2;
const INDUSTRY_AVG_DEAL_SIZE: i64 = 52_000;
const DAY_MS: i64 = 86_400_000;

#[derive(Debug, Serialize)]
struct StageFigures {
    stage: &'static str,
    count: i64,
    value: i64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct PipelineMetrics {
    total_pipeline: i64,
    qoq_growth: f64,
    active_deals_count: i64,
    weekly_growth: f64,
    close_rate: f64,
    target_close_rate: f64,
    is_above_target: bool,
    avg_cycle_days: i64,
    target_cycle: i64,
    industry_avg_cycle: i64,
    expected_close_value: i64,
    conversion_rate: f64,
    industry_avg_close_rate: f64,
    avg_deal_size: i64,
    industry_avg_deal_size: i64,
    pipeline_velocity: f64,
    stage_breakdown: Vec<StageFigures>,
}

pub(crate) fn round1(x: f64) -> f64 {
    if x.is_finite() {
        (x * 10.0).round() / 10.0
    } else {
        0.0
    }
}

/// `part / whole` in percent with one decimal; 0 when `whole` is 0.
pub(crate) fn percent(part: i64, whole: i64) -> f64 {
    if whole <= 0 {
        0.0
    } else {
        round1(part as f64 * 100.0 / whole as f64)
    }
}

/// Growth of `current` over `previous` in percent with one decimal: 100 from nothing to something,
/// 0 from nothing to nothing.
pub(crate) fn growth(current: i64, previous: i64) -> f64 {
    match (current, previous) {
        (0, 0) => 0.0,
        (_, 0) => 100.0,
        _ => round1((current - previous) as f64 * 100.0 / previous as f64),
    }
}

fn ms_of(date: NaiveDate) -> i64 {
    date.and_hms_opt(0, 0, 0)
        .map(|t| Utc.from_utc_datetime(&t).timestamp_millis())
        .unwrap_or(0)
}

/// Start (ms) of the calendar quarter `offset` quarters from the one holding `now` (UTC).
fn quarter_start(now: i64, offset: i32) -> i64 {
    let date = Utc
        .timestamp_millis_opt(now)
        .single()
        .map(|t| t.date_naive())
        .unwrap_or_default();
    let quarter = date.year() * 4 + (date.month0() as i32) / 3 + offset;
    NaiveDate::from_ymd_opt(
        quarter.div_euclid(4),
        (quarter.rem_euclid(4) * 3 + 1) as u32,
        1,
    )
    .map(ms_of)
    .unwrap_or(0)
}

/// Every figure of seed 001 §3 from the deals:
/// - totalPipeline, activeDealsCount, expectedCloseValue: open deals (not closed_won/closed_lost);
///   expectedCloseValue = Σ value × probability / 100, rounded to whole dollars;
/// - qoqGrowth: value of open deals created this calendar quarter vs those created last quarter;
/// - weeklyGrowth: deals created in the last 7 days vs the 7 days before;
/// - closeRate = won / (won + lost); conversionRate = won / all deals (percent, one decimal);
/// - avgCycleDays: mean days from creation to actualCloseDate of won deals (rounded);
/// - avgDealSize: mean value of won deals, else of open deals;
/// - pipelineVelocity (sales velocity, $K per day) = open deals × avgDealSize × closeRate / cycle
///   days / 1000, the cycle being avgCycleDays, or the industry's 45 days before any win.
fn compute_metrics(deals: &[MetricsDeal], now: i64) -> PipelineMetrics {
    let stage_of = |d: &MetricsDeal| effective_stage(d.stage.as_deref()).to_string();
    let open: Vec<&MetricsDeal> = deals.iter().filter(|d| !is_closed(&stage_of(d))).collect();
    let won: Vec<&MetricsDeal> = deals
        .iter()
        .filter(|d| stage_of(d) == "closed_won")
        .collect();
    let lost = deals
        .iter()
        .filter(|d| stage_of(d) == "closed_lost")
        .count() as i64;
    let won_count = won.len() as i64;

    let total_pipeline: i64 = open.iter().map(|d| d.value).sum();
    let expected_close_value: f64 = open
        .iter()
        .map(|d| d.value as f64 * f64::from(d.probability) / 100.0)
        .sum();
    let this_quarter = quarter_start(now, 0);
    let last_quarter = quarter_start(now, -1);
    let created_in = |from: i64, to: i64| {
        open.iter()
            .filter(|d| d.created_at >= from && d.created_at < to)
            .map(|d| d.value)
            .sum::<i64>()
    };
    let qoq_growth = growth(
        created_in(this_quarter, i64::MAX),
        created_in(last_quarter, this_quarter),
    );
    let week = |from: i64, to: i64| {
        deals
            .iter()
            .filter(|d| d.created_at >= from && d.created_at < to)
            .count() as i64
    };
    let weekly_growth = growth(
        week(now - 7 * DAY_MS, i64::MAX),
        week(now - 14 * DAY_MS, now - 7 * DAY_MS),
    );
    let close_rate = percent(won_count, won_count + lost);
    let conversion_rate = percent(won_count, deals.len() as i64);

    let cycles: Vec<i64> = won
        .iter()
        .filter_map(|d| {
            let closed =
                NaiveDate::parse_from_str(d.actual_close_date.as_deref()?, "%Y-%m-%d").ok()?;
            Some(((ms_of(closed) - d.created_at) / DAY_MS).max(0))
        })
        .collect();
    let avg_cycle_days = if cycles.is_empty() {
        0
    } else {
        (cycles.iter().sum::<i64>() as f64 / cycles.len() as f64).round() as i64
    };
    let mean = |ds: &[&MetricsDeal]| {
        if ds.is_empty() {
            0
        } else {
            (ds.iter().map(|d| d.value as f64).sum::<f64>() / ds.len() as f64).round() as i64
        }
    };
    let avg_deal_size = if won.is_empty() {
        mean(&open)
    } else {
        mean(&won)
    };
    let cycle = if avg_cycle_days > 0 {
        avg_cycle_days
    } else {
        INDUSTRY_AVG_CYCLE
    };
    let pipeline_velocity = round1(
        open.len() as f64 * avg_deal_size as f64 * (close_rate / 100.0) / cycle as f64 / 1000.0,
    );
    let stage_breakdown = BOARD_STAGES
        .iter()
        .map(|s| {
            let in_stage = deals.iter().filter(|d| stage_of(d) == *s);
            StageFigures {
                stage: s,
                count: in_stage.clone().count() as i64,
                value: in_stage.map(|d| d.value).sum(),
            }
        })
        .collect();
    PipelineMetrics {
        total_pipeline,
        qoq_growth,
        active_deals_count: open.len() as i64,
        weekly_growth,
        close_rate,
        target_close_rate: TARGET_CLOSE_RATE,
        is_above_target: close_rate > TARGET_CLOSE_RATE,
        avg_cycle_days,
        target_cycle: TARGET_CYCLE,
        industry_avg_cycle: INDUSTRY_AVG_CYCLE,
        expected_close_value: expected_close_value.round() as i64,
        conversion_rate,
        industry_avg_close_rate: INDUSTRY_AVG_CLOSE_RATE,
        avg_deal_size,
        industry_avg_deal_size: INDUSTRY_AVG_DEAL_SIZE,
        pipeline_velocity,
        stage_breakdown,
    }
}

async fn pipeline_metrics(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<Json<serde_json::Value>> {
    let db = state.queue.db.clone();
    let value = state
        .read_cache
        .get_or_compute("pipeline:metrics".into(), || async move {
            let deals = db.metrics_deals().await?;
            Ok(serde_json::to_value(compute_metrics(&deals, now_ms()))
                .map_err(anyhow::Error::from)?)
        })
        .await?;
    Ok(Json(value))
}

/// A contact's display name from its parts.
pub(crate) fn full_name(first: Option<&str>, last: Option<&str>) -> String {
    [first, last]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}

async fn pipeline_export(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let rows = state.queue.db.deal_export_rows().await?;
    csv_download(
        &format!("pipeline_export_{}.csv", today()),
        &[
            "Title",
            "Stage",
            "Value",
            "Probability",
            "Expected Close",
            "Company",
            "Contact",
        ],
        rows.into_iter().map(|d| {
            vec![
                d.title,
                effective_stage(d.stage.as_deref()).to_string(),
                d.value.to_string(),
                d.probability.to_string(),
                d.expected_close_date.unwrap_or_default(),
                d.company_name.unwrap_or_default(),
                full_name(
                    d.contact_first_name.as_deref(),
                    d.contact_last_name.as_deref(),
                ),
            ]
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stage_chain_and_probabilities() {
        assert_eq!(next_stage(None), Some("proposal"));
        assert_eq!(next_stage(Some("decision")), Some("closed_won"));
        assert_eq!(next_stage(Some("closed_won")), None);
        assert_eq!(next_stage(Some("closed_lost")), None);
        assert_eq!(stage_default_probability("negotiation"), 65);
    }

    #[test]
    fn values_and_probabilities_are_read_like_the_form() {
        assert_eq!(parse_value(&Value::from("1500")), Ok(Some(1500)));
        assert_eq!(parse_value(&Value::from(1500)), Ok(Some(1500)));
        assert_eq!(parse_value(&Value::from("")), Ok(None));
        assert!(parse_value(&Value::from("12a")).is_err());
        assert!(parse_value(&Value::from(-1)).is_err());
        assert_eq!(coerce_probability(&Value::from("abc")), 0);
        assert_eq!(coerce_probability(&Value::from(150)), 100);
        assert_eq!(coerce_probability(&Value::from("-5")), 0);
        assert_eq!(coerce_probability(&Value::from(33.6)), 34);
    }

    #[test]
    fn quarters_roll_over_years() {
        let jan = ms_of(NaiveDate::from_ymd_opt(2026, 2, 10).unwrap_or_default());
        assert_eq!(
            quarter_start(jan, -1),
            ms_of(NaiveDate::from_ymd_opt(2025, 10, 1).unwrap_or_default())
        );
    }

    #[test]
    fn no_deals_means_zeros() {
        let m = compute_metrics(&[], 0);
        assert_eq!(m.close_rate, 0.0);
        assert_eq!(m.pipeline_velocity, 0.0);
        assert_eq!(m.avg_deal_size, 0);
        assert_eq!(m.stage_breakdown.len(), 5);
    }
}
