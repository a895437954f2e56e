//! The Sales Pipeline (seed 001 §2, §4, §5, §7): deals (list, read, create, partial update, delete,
//! next stage), the active prospects and their conversion into deals, the pipeline metrics and the
//! pipeline CSV export.
//!
//! Errors are [`ApiError`]: validation is a 422 whose `message` is the seed's text for the first
//! problem and whose `errors` has one entry per field; unknown ids are 404; a move past the last stage
//! and converting a prospect that already is a deal are 409. Every change writes its activity in the
//! transaction of the change.
//!
//! Bodies are typed structs of [`Field`]s (see [`crate::validate`]), so that a field's absence, its
//! `null` and a value of the wrong type can each be told apart and reported per field (the seed's
//! form sends numbers as strings or numbers, and partial updates only carry what changed). The
//! pipeline's rules and figures are [`jobs::domain::pipeline`]'s.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{Datelike, NaiveDate};
use jobs::db::{
    ActivityInsert, DealList, DealRow, DealWindowBounds, ProspectCompany, ProspectContact,
};
use jobs::domain::deals::{STAGES, stage_default_probability};
use jobs::domain::figures::day_of;
use jobs::domain::one_of_message;
use jobs::domain::pipeline::{
    self, BOARD_STAGES, DealWindows, StageTotals, effective_stage, full_name, is_closed,
    next_stage, revenue_estimate,
};
use jobs::domain::{MAX_DOLLARS, MAX_DOLLARS_DIGITS};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::{BoardQuery, csv_download, paging, with_total};
use crate::validate::{self, Body, Field, Fields, Number, Text, check_refs, field_error};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/deals", Access::User, deal_list)
        .query::<DealListQuery>()
        .returns_page::<DealView>()
        .get("/api/deals/board", Access::User, deal_board)
        .query::<BoardQuery>()
        .returns_list::<BoardColumn>()
        .post("/api/deals", Access::User, deal_create)
        .body::<NewDealBody>()
        .creates::<DealView>()
        .post(
            "/api/deals/convert-prospect",
            Access::User,
            prospect_convert,
        )
        .body::<ConvertBody>()
        .creates::<DealView>()
        .get("/api/deals/{id}", Access::User, deal_get)
        .returns::<DealView>()
        .put("/api/deals/{id}", Access::User, deal_update)
        .body::<DealBody>()
        .returns::<DealView>()
        .delete("/api/deals/{id}", Access::User, deal_delete)
        .no_content()
        .post("/api/deals/{id}/next-stage", Access::User, deal_next_stage)
        .returns::<DealView>()
        .get("/api/pipeline/prospects", Access::User, prospect_list)
        .returns::<ProspectsView>()
        .get("/api/pipeline/metrics", Access::User, pipeline_metrics)
        // Served from the read cache as JSON, made from this type.
        .returns::<jobs::domain::pipeline::PipelineMetrics>()
        .get("/api/pipeline/export", Access::User, pipeline_export)
        .returns_file("text/csv")
}

// ---- stages ----

fn stage_names() -> Vec<&'static str> {
    STAGES.iter().map(|(s, _)| *s).collect()
}

fn stages_message() -> String {
    format!("stage must be one of: {}", stage_names().join(", "))
}

fn today() -> String {
    day_of(now_ms())
}

// ---- body fields ----

/// A deal value: a JSON integer or a string of digits (whole dollars). `Err` is the field message.
fn parse_value(v: &Field<Number>) -> Result<Option<i64>, &'static str> {
    const BAD: &str = "Deal value must be a whole number of dollars";
    const TOO_MUCH: &str = "Deal value must be at most 999999999999 dollars";
    let capped = |n: i64| {
        if n > MAX_DOLLARS {
            Err(TOO_MUCH)
        } else {
            Ok(Some(n))
        }
    };
    match v {
        Field::Absent | Field::Null => Ok(None),
        Field::Value(Number::Number(n)) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) if i >= 0 => capped(i),
            (None, Some(f)) if f >= 0.0 && f.fract() == 0.0 && f < 9.0e15 => capped(f as i64),
            _ => Err(BAD),
        },
        Field::Value(Number::Text(s)) => {
            let t = s.trim();
            if t.is_empty() {
                Ok(None)
            } else if t.bytes().all(|b| b.is_ascii_digit()) {
                if t.len() > MAX_DOLLARS_DIGITS {
                    return Err(TOO_MUCH);
                }
                t.parse::<i64>().map_err(|_| BAD).and_then(capped)
            } else {
                Err(BAD)
            }
        }
        Field::Wrong => Err(BAD),
    }
}

/// The seed's coercion: a number (or numeric text) clamped to 0–100 and rounded; anything
/// non-numeric is 0.
fn coerce_probability(v: &Field<Number>) -> i32 {
    let n = match v {
        Field::Value(Number::Number(n)) => n.as_f64(),
        Field::Value(Number::Text(s)) => s.trim().parse::<f64>().ok(),
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

#[derive(Debug, Serialize, utoipa::ToSchema)]
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

/// The list's `stage` for every stage.
const ALL_STAGES: &str = "all";

/// The list's `stage`: [`STAGES`], [`ALL_STAGES`], or `""` (read as absent).
fn stage_filter_schema() -> utoipa::openapi::ObjectBuilder {
    let mut all = vec![ALL_STAGES];
    all.extend(stage_names());
    validate::one_of_or_empty(&all).description(Some("One of the stages, or `all`."))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct DealListQuery {
    /// One of the stages, or `all`.
    #[param(schema_with = stage_filter_schema)]
    stage: Option<String>,
    company_id: Option<String>,
    contact_id: Option<String>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

async fn deal_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<DealListQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let stage = q
        .stage
        .as_deref()
        .filter(|s| !s.is_empty() && *s != ALL_STAGES);
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

/// A column of the deals board: every deal of the stage counted and summed, its newest shown.
fn board_stage_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&jobs::domain::pipeline::BOARD_STAGES)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DealBoardColumn)]
struct BoardColumn {
    #[schema(schema_with = board_stage_schema)]
    stage: &'static str,
    count: i64,
    /// Whole dollars.
    value: i64,
    deals: Vec<DealView>,
}

/// Cards a column shows before the user asks for more (`GET /api/deals?stage=` pages on).
const BOARD_PAGE: i64 = 25;

/// `GET /api/deals/board`: the board's columns, with exact totals from the deal rollup however
/// many cards each shows.
async fn deal_board(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<BoardQuery>,
) -> ApiResult<Json<Vec<BoardColumn>>> {
    let (limit, _) = paging(Some(q.limit.unwrap_or(BOARD_PAGE)), None)?;
    let db = &state.queue.db;
    let rollup = db.deal_stage_rollup().await?;
    let mut columns: Vec<BoardColumn> = BOARD_STAGES
        .iter()
        .map(|stage| {
            let totals = rollup.iter().find(|r| r.stage == *stage);
            BoardColumn {
                stage,
                count: totals.map_or(0, |r| r.n),
                value: totals.map_or(0, |r| r.value_sum),
                deals: Vec::new(),
            }
        })
        .collect();
    for deal in db.deal_board(limit).await? {
        let stage = effective_stage(deal.stage.as_deref());
        if let Some(column) = columns.iter_mut().find(|c| c.stage == stage) {
            column.deals.push(deal.into());
        }
    }
    Ok(Json(columns))
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

/// Whole dollars as [`parse_value`] reads them: a whole number from 0, or its digits as text.
fn value_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Integer,
            Type::String,
        ]))
        .minimum(Some(0))
        .maximum(Some(MAX_DOLLARS))
        .pattern(Some(r"^[ \t]*[0-9]{1,12}[ \t]*$"))
}

fn stage_schema() -> utoipa::openapi::ObjectBuilder {
    validate::one_of(&stage_names())
}

/// A close date as [`parse_close_date`] reads it (a subset: `YYYY-MM-DD` from 1900), blank or
/// null (none).
fn close_date_schema() -> utoipa::openapi::schema::OneOfBuilder {
    use utoipa::openapi::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date)))
                .pattern(Some("^(19|[2-9][0-9])[0-9]{2}-")),
        )
        .item(validate::blank())
        .item(ObjectBuilder::new().schema_type(Type::Null))
}

/// A deal to change: each field left out stays as it is; title, value and stage cannot be emptied,
/// other text is cleared by null or blank.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DealBody {
    #[serde(default)]
    #[schema(schema_with = validate::not_blank_text)]
    title: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = validate::text_or_null)]
    description: Field<Text>,
    /// Whole dollars.
    #[serde(default)]
    #[schema(schema_with = value_schema)]
    value: Field<Number>,
    #[serde(default)]
    #[schema(schema_with = stage_schema)]
    stage: Field<Text>,
    /// 0–100, rounded (a number, or its text; anything else is 0); the stage's default when absent
    /// or null.
    #[serde(default)]
    #[schema(schema_with = validate::any_value)]
    probability: Field<Number>,
    /// `YYYY-MM-DD` (or an RFC 3339 time, whose date is taken), from 1900.
    #[serde(default)]
    #[schema(schema_with = close_date_schema)]
    expected_close_date: Field<Text>,
    /// An existing contact's id.
    #[serde(default)]
    #[schema(schema_with = validate::text_or_null)]
    contact_id: Field<Text>,
    /// An existing company's id.
    #[serde(default)]
    #[schema(schema_with = validate::text_or_null)]
    company_id: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = validate::text_or_null)]
    notes: Field<Text>,
}

validate::body_variant!(
    /// A new deal: a [`DealBody`] with its title and value, whose stage may be blank or null
    /// (`qualification`).
    NewDealBody(DealBody),
    |base| {
        let stage = utoipa::openapi::schema::OneOfBuilder::new()
            .item(validate::or_null(stage_schema()))
            .item(validate::blank());
        validate::describing(
            validate::requiring(
                base,
                "A new deal: its title and value are required.",
                vec![
                    ("title", validate::not_blank_text().into()),
                    ("value", value_schema().into()),
                ],
            ),
            vec![("stage", stage.into())],
        )
    }
);

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
fn read_deal(b: DealBody, create: bool) -> ApiResult<DealInput> {
    let mut f = Fields::default();
    let mut input = DealInput {
        title: f.text("title", &b.title),
        ..Default::default()
    };
    if matches!(input.title, Some(None)) || (create && input.title.is_none()) {
        f.error("title", "Deal title is required");
    }
    match &b.value {
        Field::Absent if create => f.error("value", "Deal value is required"),
        Field::Absent => {}
        v => match parse_value(v) {
            Ok(None) => f.error("value", "Deal value is required"),
            Ok(Some(n)) => input.value = Some(Some(n)),
            Err(m) => f.error("value", m),
        },
    }
    input.description = f.text("description", &b.description);
    input.notes = f.text("notes", &b.notes);
    if b.stage.is_present() {
        match f.text("stage", &b.stage) {
            Some(Some(s)) if STAGES.iter().any(|(name, _)| *name == s) => input.stage = Some(s),
            Some(None) if create => {}
            _ => f.error("stage", stages_message()),
        }
    }
    // Absent or null: the stage's default applies (set by the caller).
    if !matches!(b.probability, Field::Absent | Field::Null) {
        input.probability = Some(coerce_probability(&b.probability));
    }
    match f.text("expectedCloseDate", &b.expected_close_date) {
        Some(Some(s)) => match parse_close_date(&s) {
            Ok(d) => input.expected_close_date = Some(Some(d)),
            Err(m) => f.error("expectedCloseDate", m),
        },
        other => input.expected_close_date = other,
    }
    input.contact_id = f.text("contactId", &b.contact_id);
    input.company_id = f.text("companyId", &b.company_id);
    f.finish()?;
    Ok(input)
}

async fn deal_create(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(NewDealBody(body)): Body<NewDealBody>,
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

/// The stage change's activity, webhook events, and sequence trigger for the deal's contact.
async fn stage_activity(
    jtx: &mut jobs::queue::JobTx,
    deal: &DealRow,
    from: Option<&str>,
    user: &CurrentUser,
) -> ApiResult<()> {
    if let Some(contact) = &deal.contact_id {
        let stage = effective_stage(deal.stage.as_deref());
        jtx.enqueue(crate::enqueue::trigger_job(
            "deal_stage_changed",
            contact,
            Some(stage),
        )?)
        .await?;
    }
    let tx = jtx.tx();
    // Its webhook events (`deal.stage_changed`, and `deal.won` / `deal.lost`) commit with the move.
    tx.webhook_emit_deal_stage(deal, from, deal.stage_changed_at)
        .await?;
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
    Body(body): Body<DealBody>,
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

#[derive(Debug, Serialize, utoipa::ToSchema)]
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

#[derive(Debug, Serialize, utoipa::ToSchema)]
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

#[derive(Debug, Serialize, utoipa::ToSchema)]
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

/// What a prospect is.
const PROSPECT_KINDS: [&str; 2] = ["company", "contact"];

fn prospect_kind_schema() -> utoipa::openapi::ObjectBuilder {
    validate::one_of(&PROSPECT_KINDS)
}

/// A prospect to turn into a deal.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ConvertBody {
    #[serde(default)]
    #[schema(schema_with = validate::not_blank_text, required = true)]
    prospect_id: Field<Text>,
    /// `company` or `contact`.
    #[serde(default)]
    #[serde(rename = "type")]
    #[schema(schema_with = prospect_kind_schema, required = true)]
    kind: Field<Text>,
}

async fn prospect_convert(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(body): Body<ConvertBody>,
) -> ApiResult<Response> {
    let mut f = Fields::default();
    let prospect_id = f.text("prospectId", &body.prospect_id).flatten();
    if prospect_id.is_none() {
        f.error("prospectId", "prospectId is required");
    }
    let kind = f.text("type", &body.kind).flatten();
    if !kind.as_deref().is_some_and(|k| PROSPECT_KINDS.contains(&k)) {
        f.error("type", one_of_message("type", &PROSPECT_KINDS));
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

async fn pipeline_metrics(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<Json<serde_json::Value>> {
    let db = state.queue.db.clone();
    let value = state
        .read_cache
        .get_or_compute("pipeline:metrics".into(), || async move {
            let now = now_ms();
            let rows = db.deal_stage_rollup().await?;
            let w = db
                .deal_windows(&DealWindowBounds {
                    now,
                    quarter_start: pipeline::quarter_start(now, 0),
                    last_quarter_start: pipeline::quarter_start(now, -1),
                })
                .await?;
            let stages: Vec<StageTotals<'_>> = rows
                .iter()
                .map(|r| StageTotals {
                    stage: &r.stage,
                    count: r.n,
                    value: r.value_sum,
                    weighted: r.weighted_sum,
                    cycle_days: r.cycle_days_sum,
                    cycles: r.cycle_n,
                })
                .collect();
            let windows = DealWindows {
                created_last_week: w.created_last_week,
                created_week_before: w.created_week_before,
                open_value_this_quarter: w.open_value_this_quarter,
                open_value_last_quarter: w.open_value_last_quarter,
            };
            Ok(serde_json::to_value(pipeline::metrics(&stages, &windows))
                .map_err(anyhow::Error::from)?)
        })
        .await?;
    Ok(Json(value))
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

    fn number(v: serde_json::Value) -> Field<Number> {
        serde_json::from_value(v).unwrap_or_default()
    }

    #[test]
    fn values_and_probabilities_are_read_like_the_form() {
        use serde_json::json;
        assert_eq!(parse_value(&number(json!("1500"))), Ok(Some(1500)));
        assert_eq!(parse_value(&number(json!(1500))), Ok(Some(1500)));
        assert_eq!(parse_value(&number(json!(""))), Ok(None));
        assert!(parse_value(&number(json!("12a"))).is_err());
        assert!(parse_value(&number(json!(-1))).is_err());
        assert!(parse_value(&number(json!(true))).is_err());
        assert_eq!(coerce_probability(&number(json!("abc"))), 0);
        assert_eq!(coerce_probability(&number(json!(150))), 100);
        assert_eq!(coerce_probability(&number(json!("-5"))), 0);
        assert_eq!(coerce_probability(&number(json!(33.6))), 34);
        assert_eq!(coerce_probability(&number(json!([1]))), 0);
    }
}
