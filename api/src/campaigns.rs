//! Campaigns (seed 002 "Single campaigns", "Bulk campaigns"), templates and the deliverability
//! settings. Sending is the `bulk_campaign_send` job's; these handlers validate, store and enqueue.
//!
//! Choices: a bulk campaign with a future `scheduleAt` is created `scheduled` with its job enqueued
//! for that time; `send` answers `successful` = recipients queued for delivery (suppressed addresses
//! are skipped at send time and show in the campaign's progress). A single campaign is created a
//! `draft` over its target audience (high-value: score ≥ 85, medium-value: 45–84, all-active: not
//! customer or lost) and sent, with the message written for it, as a bulk send to that audience
//! (`POST /api/campaigns/{id}/send`); its emailsSent/opens come from the ledger. A campaign whose
//! send job died shows `failed` with the job's reason (see `domain::campaigns`).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Utc};
use jobs::db::{
    Audience, CampaignRow, CampaignStats, DeliverabilityRow, FigureRow, FigureScope, TemplateRow,
    figure_total,
};
use jobs::domain::campaigns::{CampaignState, LimitUse, SendJob, StateInput, campaign_state};
use jobs::domain::contacts::{STATUSES, is_valid_email};
use jobs::domain::email_figures::{EmailFigures, email_figures};
use jobs::domain::figures::rate;
use jobs::kinds::BulkCampaignSend;
use jobs::kinds::bulk_campaign_send::campaign_audience;
use jobs::mailing::{address_of, effective_daily_limit, window_keys};
use jobs::queue::{JobKind, NewJob};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sqlx::types::Json as SqlJson;

use crate::error::{ApiError, ApiResult};
use crate::extract::{AdminUser, CurrentUser, Json, Path, Query};
use crate::list::{paging, with_total};
use crate::targeting::{TargetFilters, check_filters};
use crate::validate;
use crate::{Access, AppState, Routes};

pub const BULK_REQUIRED: &str = "Please provide campaign name, subject, and select a template.";
pub const SINGLE_REQUIRED: &str =
    "Missing Information: Please provide campaign name and description.";
pub const NO_RECIPIENTS: &str =
    "No contacts match this campaign's targeting (contacts without an email are excluded).";
const AUDIENCES: [&str; 3] = ["high-value", "medium-value", "all-active"];
const AI_MODELS: [&str; 3] = ["gpt-5", "claude-4", "gemini"];

pub(crate) fn routes() -> Routes {
    use Access::{Admin, User};
    Routes::new()
        .get("/api/email-templates", User, template_list)
        .returns::<TemplateList>()
        .post("/api/email-templates", User, template_create)
        .body::<TemplateInput>()
        .creates::<TemplateView>()
        .put("/api/email-templates/{id}", User, template_update)
        .body::<TemplateInput>()
        .returns::<TemplateView>()
        .delete("/api/email-templates/{id}", User, template_delete)
        .no_content()
        .get("/api/campaigns", User, single_list)
        .query::<Page>()
        .returns_page::<SingleView>()
        .post("/api/campaigns", User, single_create)
        .body::<SingleInput>()
        .creates::<SingleView>()
        .post("/api/campaigns/{id}/send", User, single_send)
        .body::<SingleSendInput>()
        .returns::<SingleSent>()
        // `X-Total-Count` is every bulk campaign; the body is an object, not a bare page.
        .get("/api/campaigns/bulk-email", User, bulk_list)
        .query::<Page>()
        .returns::<BulkList>()
        .post("/api/campaigns/bulk-email", User, bulk_create)
        .body::<CampaignBulkInput>()
        .creates::<BulkView>()
        .get(
            "/api/campaigns/bulk-email/performance/overview",
            User,
            performance,
        )
        .returns::<PerformanceOverview>()
        .get("/api/campaigns/bulk-email/audience", User, audience_count)
        .query::<AudienceQuery>()
        .returns::<AudienceCount>()
        .get(
            "/api/campaigns/bulk-email/audience/contacts",
            User,
            audience_contacts,
        )
        .query::<AudienceQuery>()
        .returns_page::<AudienceMemberView>()
        .get("/api/campaigns/bulk-email/{id}", User, bulk_get)
        .returns::<BulkView>()
        .post("/api/campaigns/bulk-email/{id}/send", User, bulk_send)
        .returns::<SendStarted>()
        .post("/api/campaigns/bulk-email/{id}/pause", User, bulk_pause)
        .returns::<BulkView>()
        .post("/api/campaigns/bulk-email/{id}/resume", User, bulk_resume)
        .returns::<SendStarted>()
        .post("/api/campaigns/bulk-email/{id}/cancel", User, bulk_cancel)
        .returns::<BulkView>()
        .post("/api/campaigns/bulk-email/{id}/retry", User, bulk_retry)
        .returns::<RetryStarted>()
        .get("/api/deliverability-settings", User, deliverability_get)
        .returns::<DeliverabilityView>()
        .put("/api/deliverability-settings", Admin, deliverability_put)
        .body::<DeliverabilityInput>()
        .returns::<DeliverabilityView>()
}

// ---- templates ----

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailTemplate)]
struct TemplateView {
    id: String,
    name: String,
    category: String,
    subject: String,
    body: String,
    is_builtin: bool,
    is_active: bool,
}

impl From<TemplateRow> for TemplateView {
    fn from(t: TemplateRow) -> Self {
        Self {
            id: t.id,
            name: t.name,
            category: t.category,
            subject: t.subject,
            body: t.body,
            is_builtin: t.is_builtin,
            is_active: true,
        }
    }
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = EmailTemplateList)]
struct TemplateList {
    templates: Vec<TemplateView>,
}

async fn template_list(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let templates: Vec<TemplateView> = state
        .queue
        .db
        .template_list()
        .await?
        .into_iter()
        .map(Into::into)
        .collect();
    Ok(axum::Json(TemplateList { templates }).into_response())
}

/// Required text (not blank), as [`trimmed`] reads it.
fn required_text() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank()
}

/// A template: its name, subject and body are required.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TemplateInput {
    #[schema(schema_with = required_text, required = true)]
    name: Option<String>,
    /// `custom` when left out.
    category: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    subject: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    body: Option<String>,
}

async fn template_create(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(input): Json<TemplateInput>,
) -> ApiResult<Response> {
    let t = template_row(ulid::Ulid::new().to_string(), input)?;
    state.queue.db.template_insert(&t).await?;
    Ok((StatusCode::CREATED, axum::Json(TemplateView::from(t))).into_response())
}

/// Changes a template a user saved; built-in ones are starting points and stay as they are.
async fn template_update(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<TemplateInput>,
) -> ApiResult<Response> {
    let db = &state.queue.db;
    let existing = db
        .template_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Template not found"))?;
    if existing.is_builtin {
        return Err(ApiError::conflict(
            "Built-in templates cannot be changed; save a copy instead.",
        ));
    }
    let mut t = template_row(id, input)?;
    t.created_at = existing.created_at;
    db.template_update(&t).await?;
    Ok(axum::Json(TemplateView::from(t)).into_response())
}

async fn template_delete(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let db = &state.queue.db;
    let existing = db
        .template_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Template not found"))?;
    if existing.is_builtin {
        return Err(ApiError::conflict("Built-in templates cannot be deleted."));
    }
    if db.template_in_use(&id).await? {
        return Err(ApiError::conflict(
            "A campaign was made from this template, so it stays; change it or save a new one.",
        ));
    }
    db.template_delete(&id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// A template from the form, or the 422 naming the missing fields.
fn template_row(id: String, input: TemplateInput) -> ApiResult<TemplateRow> {
    let mut errors = BTreeMap::new();
    for (field, value) in [
        ("name", &input.name),
        ("subject", &input.subject),
        ("body", &input.body),
    ] {
        if trimmed(value).is_none() {
            errors.insert(field.to_string(), format!("{field} is required"));
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::fields(
            "Template name, subject and body are required.",
            errors,
        ));
    }
    Ok(TemplateRow {
        id,
        name: trimmed(&input.name).unwrap_or_default().to_string(),
        category: trimmed(&input.category).unwrap_or("custom").to_string(),
        subject: trimmed(&input.subject).unwrap_or_default().to_string(),
        body: input.body.unwrap_or_default(),
        is_builtin: false,
        created_at: now_ms(),
    })
}

fn trimmed(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

// ---- bulk campaigns ----

#[derive(Serialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BulkCampaignStats)]
struct StatsView {
    sent: i64,
    delivered: i64,
    opened: i64,
    clicked: i64,
    replied: i64,
}

#[derive(Serialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BulkCampaignProgress)]
struct ProgressView {
    total: i64,
    handled: i64,
    percent: i64,
    queued: i64,
    deferred: i64,
    failed: i64,
    suppressed: i64,
    /// Claimed by a run that stopped mid-delivery: maybe delivered, never sent again.
    in_doubt: i64,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BulkCampaign)]
struct BulkView {
    id: String,
    name: String,
    description: Option<String>,
    status: String,
    subject: Option<String>,
    template_id: Option<String>,
    from_email: Option<String>,
    /// `scoreMin`, `scoreMax`, `statuses`, `states`.
    #[schema(value_type = Object)]
    target_filters: Value,
    /// The contacts picked by hand, when it was sent to a pick.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<String>>)]
    selected_contact_ids: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    schedule_at: Option<String>,
    created_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    sent_at: Option<String>,
    total_recipients: i64,
    stats: StatsView,
    progress: ProgressView,
    /// Why the send job died (`status` is `failed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<String>,
    /// Why nothing is being sent now, and until when.
    #[serde(skip_serializing_if = "Option::is_none")]
    waiting: Option<WaitingView>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = CampaignWaiting)]
struct WaitingView {
    /// `hourly_limit`, `daily_limit`, `deferred`, `retrying`, `scheduled`, `waiting`,
    /// `paused_by_ops` or `paused`.
    reason: &'static str,
    label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    until: Option<String>,
}

fn bulk_view(c: CampaignRow, s: Option<&CampaignStats>, state: Option<CampaignState>) -> BulkView {
    let s = s.cloned().unwrap_or_default();
    let total = s.total.max(i64::from(c.total_recipients));
    let (status, failure, waiting) = match state {
        Some(st) => (st.status, st.failure, st.waiting),
        None => (c.status, None, None),
    };
    BulkView {
        failure,
        waiting: waiting.map(|w| WaitingView {
            reason: w.reason,
            label: w.label,
            until: w.until.map(to_rfc3339),
        }),
        stats: StatsView {
            sent: s.sent,
            delivered: s.delivered,
            opened: s.opened,
            clicked: s.clicked,
            replied: s.replied,
        },
        progress: ProgressView {
            total,
            handled: s.done(),
            percent: if total > 0 { s.done() * 100 / total } else { 0 },
            queued: s.queued,
            deferred: s.deferred,
            failed: s.failed,
            suppressed: s.suppressed,
            in_doubt: s.unknown,
        },
        id: c.id,
        name: c.name,
        description: c.description,
        status,
        subject: c.subject,
        template_id: c.template_id,
        from_email: c.from_email,
        target_filters: c.target_filters.map(|j| j.0).unwrap_or_else(|| json!({})),
        selected_contact_ids: c.selected_contact_ids.map(|j| j.0),
        schedule_at: c.schedule_at.map(to_rfc3339),
        created_at: to_rfc3339(c.created_at),
        sent_at: c.sent_at.map(to_rfc3339),
        total_recipients: total,
    }
}

/// Each campaign's state as its send job and the limits make it (see `domain::campaigns`); only
/// campaigns that may be waiting or failed read their job.
async fn with_states(
    state: &AppState,
    rows: Vec<CampaignRow>,
) -> ApiResult<Vec<(CampaignRow, Option<CampaignStats>, Option<CampaignState>)>> {
    let rows = with_stats(state, rows).await?;
    let db = &state.queue.db;
    if !rows
        .iter()
        .any(|(c, _)| matches!(c.status.as_str(), "sending" | "scheduled" | "paused"))
    {
        return Ok(rows.into_iter().map(|(c, s)| (c, s, None)).collect());
    }
    let now = now_ms();
    let kind_paused = db
        .kinds_paused()
        .await?
        .iter()
        .any(|k| k == BulkCampaignSend::NAME);
    let settings = db.deliverability_get().await?;
    let (hour, day) = window_keys(now);
    let mailing = &state.queue.providers.mailing;
    let mut out = Vec::with_capacity(rows.len());
    for (c, s) in rows {
        if !matches!(c.status.as_str(), "sending" | "scheduled" | "paused") {
            out.push((c, s, None));
            continue;
        }
        let job = db
            .campaign_send_job(&c.id)
            .await?
            .map(|(status, run_at, error)| SendJob {
                status,
                run_at,
                error,
            });
        let from = c.from_email.as_deref().unwrap_or(&mailing.sender.from);
        let usage = db
            .mailbox_usage(Some(&address_of(from)), &hour, &day)
            .await?;
        let st = campaign_state(&StateInput {
            status: &c.status,
            job: job.as_ref(),
            kind_paused,
            limits: LimitUse {
                sent_this_hour: usage.this_hour,
                hourly_limit: i64::from(settings.hourly_limit),
                sent_today: usage.today,
                daily_limit: effective_daily_limit(&settings, &usage),
            },
            deferred: s.as_ref().map_or(0, |s| s.deferred),
            next_attempt_at: s.as_ref().and_then(|s| s.next_attempt_at),
            now,
        });
        out.push((c, s, Some(st)));
    }
    Ok(out)
}

/// Each campaign's ledger stats, with the figures the screens show (sent, delivered, opened,
/// clicked, replied, bounced) taken from `email_figures`, the one place every page counts them
/// (docs/figures.md); the delivery progress stays the ledger's statuses.
async fn with_stats(
    state: &AppState,
    rows: Vec<CampaignRow>,
) -> ApiResult<Vec<(CampaignRow, Option<CampaignStats>)>> {
    let ids: Vec<String> = rows.iter().map(|c| c.id.clone()).collect();
    let db = &state.queue.db;
    let stats = db.campaign_stats(&ids).await?;
    let figures = db.email_figures(&FigureScope::default()).await?;
    Ok(rows
        .into_iter()
        .map(|c| {
            let s = stats
                .iter()
                .find(|s| s.campaign_id == c.id)
                .cloned()
                .map(|mut s| {
                    let f = campaign_figures(&figures, &c.id);
                    s.sent = f.sent;
                    s.delivered = f.delivered;
                    s.opened = f.opened;
                    s.clicked = f.clicked;
                    s.replied = f.replied;
                    s.bounced = f.bounced;
                    s
                });
            (c, s)
        })
        .collect())
}

/// The figures of one campaign's messages.
fn campaign_figures(rows: &[FigureRow], id: &str) -> EmailFigures {
    email_figures(&figure_total(
        rows.iter().filter(|r| r.campaign_id.as_deref() == Some(id)),
    ))
}

#[derive(Deserialize, utoipa::IntoParams)]
struct Page {
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

/// A page of bulk campaigns (`X-Total-Count`: all of them).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = BulkCampaignList)]
struct BulkList {
    campaigns: Vec<BulkView>,
}

async fn bulk_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(page): Query<Page>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(page.limit, page.offset)?;
    let (rows, total) = state.queue.db.campaign_list("bulk", limit, offset).await?;
    let campaigns: Vec<BulkView> = with_states(&state, rows)
        .await?
        .into_iter()
        .map(|(c, s, st)| bulk_view(c, s.as_ref(), st))
        .collect();
    let mut res = axum::Json(BulkList { campaigns }).into_response();
    res.headers_mut()
        .insert("x-total-count", axum::http::HeaderValue::from(total));
    Ok(res)
}

async fn load_bulk(state: &AppState, id: &str) -> ApiResult<CampaignRow> {
    state
        .queue
        .db
        .campaign_get(id)
        .await?
        .filter(|c| c.kind == "bulk")
        .ok_or_else(|| ApiError::not_found("Campaign not found"))
}

async fn bulk_view_of(state: &AppState, id: &str) -> ApiResult<Response> {
    let c = load_bulk(state, id).await?;
    let mut v = with_states(state, vec![c]).await?;
    let (c, s, st) = v
        .pop()
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    Ok(axum::Json(bulk_view(c, s.as_ref(), st)).into_response())
}

async fn bulk_get(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    bulk_view_of(&state, &id).await
}

/// A sender address as `is_valid_email` takes it once trimmed and lowercased ([`validate::email`]),
/// or blank or null (the configured sender).
fn from_email_schema() -> utoipa::openapi::schema::OneOfBuilder {
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(validate::email())
        .item(validate::or_null(validate::blank()))
        .description(Some(
            "The address it is sent from (else the configured sender).",
        ))
}

/// An RFC 3339 date-time, or blank or null (not scheduled).
fn schedule_at_schema() -> utoipa::openapi::schema::OneOfBuilder {
    use utoipa::openapi::schema::{KnownFormat, SchemaFormat};
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(
            utoipa::openapi::ObjectBuilder::new()
                .schema_type(utoipa::openapi::Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime))),
        )
        .item(validate::or_null(validate::blank()))
        .description(Some(
            "When to send it; a time to come makes it `scheduled`.",
        ))
}

/// A bulk campaign's fields; [`CampaignBulkInput`] says which are required.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct BulkFields {
    #[schema(schema_with = required_text, required = true)]
    name: Option<String>,
    description: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    subject: Option<String>,
    /// The template it started from (it must exist); optional when `body` is given.
    template_id: Option<String>,
    /// Written in the composer: what is sent (else the template's body).
    body: Option<String>,
    #[schema(schema_with = from_email_schema)]
    from_email: Option<String>,
    #[serde(default, deserialize_with = "validate::object")]
    target_filters: TargetFilters,
    selected_contact_ids: Option<Vec<String>>,
    #[schema(schema_with = schedule_at_schema)]
    schedule_at: Option<String>,
}

crate::validate::body_variant!(
    /// A bulk campaign: [`BulkFields`] with a body or a template to send.
    CampaignBulkInput(BulkFields),
    |base| {
        crate::validate::one_shape_of(
            base,
            vec![
                vec![("body", required_text().into())],
                vec![("templateId", required_text().into())],
            ],
        )
    }
);

async fn bulk_create(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(CampaignBulkInput(input)): Json<CampaignBulkInput>,
) -> ApiResult<Response> {
    let body = trimmed(&input.body);
    let template_id = trimmed(&input.template_id);
    let (Some(name), Some(subject), true) = (
        trimmed(&input.name),
        trimmed(&input.subject),
        body.is_some() || template_id.is_some(),
    ) else {
        return Err(ApiError::unprocessable(BULK_REQUIRED));
    };
    let db = &state.queue.db;
    if let Some(template_id) = template_id
        && db.template_get(template_id).await?.is_none()
    {
        return Err(ApiError::unprocessable(format!(
            "Unknown template: {template_id}"
        )));
    }
    let from_email = trimmed(&input.from_email).map(str::to_lowercase);
    if let Some(f) = &from_email
        && !is_valid_email(f)
    {
        return Err(ApiError::unprocessable(
            "fromEmail must be a valid email address",
        ));
    }
    let (statuses, states) = check_filters(&input.target_filters)?;
    let now = now_ms();
    let schedule_at = match trimmed(&input.schedule_at) {
        None => None,
        Some(raw) => Some(
            DateTime::parse_from_rfc3339(raw)
                .map_err(|_| ApiError::unprocessable("scheduleAt must be an ISO 8601 date-time"))?
                .with_timezone(&Utc),
        ),
    };
    let selected = input.selected_contact_ids.filter(|ids| !ids.is_empty());
    let filters = json!({
        "scoreMin": input.target_filters.score_min,
        "scoreMax": input.target_filters.score_max,
        "statuses": statuses,
        "states": states,
    });
    let mut c = CampaignRow {
        id: ulid::Ulid::new().to_string(),
        kind: "bulk".into(),
        name: name.to_string(),
        description: trimmed(&input.description).map(String::from),
        status: "draft".into(),
        subject: Some(subject.to_string()),
        template_id: template_id.map(String::from),
        from_email,
        target_filters: Some(SqlJson(filters)),
        selected_contact_ids: selected.map(|ids| SqlJson(json!(ids))),
        schedule_at: schedule_at.map(|t| t.timestamp_millis()),
        target_audience: None,
        ai_model: None,
        total_recipients: 0,
        created_at: now,
        updated_at: now,
        started_at: None,
        sent_at: None,
        ended_at: None,
    };
    let recipients = db.audience_count(&campaign_audience(&c)).await?;
    if recipients == 0 {
        return Err(ApiError::unprocessable(NO_RECIPIENTS));
    }
    c.total_recipients = i32::try_from(recipients).unwrap_or(i32::MAX);
    let scheduled = schedule_at.filter(|t| t.timestamp_millis() > now);
    if scheduled.is_some() {
        c.status = "scheduled".into();
    }
    // The campaign and its scheduled run commit together.
    let mut tx = state.queue.begin().await?;
    tx.tx().campaign_insert(&c).await?;
    if let Some(body) = body {
        tx.tx().campaign_body_set(&c.id, body).await?;
    }
    if let Some(at) = scheduled {
        tx.enqueue(
            NewJob::new(BulkCampaignSend::NAME, json!({ "campaignId": c.id }))
                .idempotency_key(format!("campaign:{}:scheduled", c.id))
                .run_at(at),
        )
        .await?;
    }
    tx.commit().await?;
    let view = bulk_view(c, None, None);
    Ok((StatusCode::CREATED, axum::Json(view)).into_response())
}

/// The campaign's sending run: one at a time per campaign.
fn send_job(campaign_id: &str) -> NewJob {
    NewJob::new(BulkCampaignSend::NAME, json!({ "campaignId": campaign_id }))
        .unique_while_active(format!("campaign:{campaign_id}"))
}

/// A bulk send started: the recipients queued for delivery, and the job that sends to them.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BulkSendStarted)]
struct SendStarted {
    success: bool,
    /// Recipients queued (suppressed addresses are skipped at send time).
    successful: i64,
    total_recipients: i64,
    job_id: String,
}

async fn start_sending(state: &AppState, c: &CampaignRow, from: &[&str]) -> ApiResult<Response> {
    let db = &state.queue.db;
    if let Some(why) = state.queue.providers.mailing.send_blocked() {
        return Err(ApiError::conflict(why));
    }
    let recipients = db.audience_count(&campaign_audience(c)).await?;
    if recipients == 0 && from.contains(&"draft") {
        return Err(ApiError::unprocessable(NO_RECIPIENTS));
    }
    if !db
        .campaign_set_status(&c.id, from, "sending", now_ms())
        .await?
    {
        return Err(ApiError::conflict(format!(
            "Only {} campaigns can be sent",
            from.join(" or ")
        )));
    }
    let job = state.queue.enqueue(send_job(&c.id)).await?;
    Ok(axum::Json(SendStarted {
        success: true,
        successful: recipients,
        total_recipients: recipients,
        job_id: job.id,
    })
    .into_response())
}

async fn bulk_send(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let c = load_bulk(&state, &id).await?;
    if c.status != "draft" {
        return Err(ApiError::conflict(format!(
            "Only draft campaigns can be sent; this one is {}",
            c.status
        )));
    }
    start_sending(&state, &c, &["draft"]).await
}

async fn bulk_resume(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let c = load_bulk(&state, &id).await?;
    start_sending(&state, &c, &["paused"]).await
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BulkRetryStarted)]
struct RetryStarted {
    success: bool,
    job_id: String,
}

/// Sends again a campaign whose send job died (shown `failed`): a new job picks up the recipients
/// still queued; those already handled are not sent twice (the ledger holds them).
async fn bulk_retry(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let c = load_bulk(&state, &id).await?;
    let failed = with_states(&state, vec![c])
        .await?
        .pop()
        .and_then(|(_, _, st)| st)
        .is_some_and(|st| st.status == "failed");
    if !failed {
        return Err(ApiError::conflict(
            "Only a campaign whose sending failed can be retried",
        ));
    }
    let job = state.queue.enqueue(send_job(&id)).await?;
    Ok(axum::Json(RetryStarted {
        success: true,
        job_id: job.id,
    })
    .into_response())
}

async fn bulk_pause(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let c = load_bulk(&state, &id).await?;
    if !state
        .queue
        .db
        .campaign_set_status(&c.id, &["sending", "scheduled"], "paused", now_ms())
        .await?
    {
        return Err(ApiError::conflict(format!(
            "Only sending or scheduled campaigns can be paused; this one is {}",
            c.status
        )));
    }
    bulk_view_of(&state, &id).await
}

async fn bulk_cancel(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let c = load_bulk(&state, &id).await?;
    let db = &state.queue.db;
    if !db
        .campaign_set_status(
            &c.id,
            &["draft", "scheduled", "sending", "paused"],
            "cancelled",
            now_ms(),
        )
        .await?
    {
        return Err(ApiError::conflict(format!(
            "A {} campaign cannot be cancelled",
            c.status
        )));
    }
    db.campaign_cancel_pending(&c.id).await?;
    bulk_view_of(&state, &id).await
}

/// The contact statuses targeting checks (`crate::targeting::check_filters`), comma-separated.
fn audience_statuses_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::comma_list_of(&jobs::domain::contacts::STATUSES)
        .description(Some("Comma-separated contact statuses."))
}

/// The states targeting reads (`jobs::geo::state_code`: codes or names), comma-separated.
fn audience_states_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::comma_list_of(&crate::targeting::state_values())
        .description(Some("Comma-separated states (codes or names)."))
}

#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct AudienceQuery {
    /// 0–100 (and not above `scoreMax`).
    #[param(minimum = 0, maximum = 100)]
    score_min: Option<i32>,
    /// 0–100 (and not below `scoreMin`).
    #[param(minimum = 0, maximum = 100)]
    score_max: Option<i32>,
    /// Comma-separated contact statuses.
    #[param(schema_with = audience_statuses_schema)]
    statuses: Option<String>,
    /// Comma-separated states (codes or names).
    #[param(schema_with = audience_states_schema)]
    states: Option<String>,
    /// 1–1000 (default 100; the contacts only).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AudienceMember)]
struct AudienceMemberView {
    id: String,
    first_name: String,
    last_name: String,
    email: Option<String>,
    score: i32,
    status: String,
    company_name: Option<String>,
}

/// The contacts a targeting matches, a page at a time, by the same filter the send applies (the
/// dialog's pick list, and the composer's preview picker); `X-Total-Count` is every match.
async fn audience_contacts(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<AudienceQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let audience = audience_filters(&q).audience(None)?;
    let db = &state.queue.db;
    let total = db.audience_count(&audience).await?;
    let items: Vec<AudienceMemberView> = db
        .audience_page(&audience, limit, offset)
        .await?
        .into_iter()
        .map(|m| AudienceMemberView {
            id: m.id,
            first_name: m.first_name,
            last_name: m.last_name,
            email: m.email,
            score: m.score,
            status: m.status,
            company_name: m.company_name,
        })
        .collect();
    Ok(with_total(items, total))
}

/// The targeting of an audience query, as the send will read it.
fn audience_filters(q: &AudienceQuery) -> TargetFilters {
    let split = |v: &Option<String>| -> Vec<String> {
        v.as_deref()
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    };
    TargetFilters {
        score_min: q.score_min,
        score_max: q.score_max,
        statuses: split(&q.statuses),
        states: split(&q.states),
    }
}

#[derive(Serialize, utoipa::ToSchema)]
struct AudienceCount {
    count: i64,
}

/// How many contacts a targeting matches (the create dialog's count).
async fn audience_count(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<AudienceQuery>,
) -> ApiResult<Response> {
    // The same query string as the audience's pages, checked the same way.
    paging(q.limit, q.offset)?;
    let filters = audience_filters(&q);
    let count = state
        .queue
        .db
        .audience_count(&filters.audience(None)?)
        .await?;
    Ok(axum::Json(AudienceCount { count }).into_response())
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = BulkPerformanceOverview)]
struct PerformanceOverview {
    success: bool,
    performance: Performance,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = BulkPerformance)]
struct Performance {
    total_campaigns: i64,
    total_emails_sent: i64,
    average_open_rate: f64,
    average_click_rate: f64,
    average_reply_rate: f64,
    figures: EmailFigures,
}

/// The figures of every bulk campaign's messages together (docs/figures.md). The "average" rates
/// are of all those messages (opened / sent), so they agree with the other screens' rates.
async fn performance(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let db = &state.queue.db;
    let (rows, total) = db.campaign_list("bulk", 10_000, 0).await?;
    let figures = db.email_figures(&FigureScope::default()).await?;
    let f = email_figures(&figure_total(figures.iter().filter(|r| {
        r.campaign_id
            .as_deref()
            .is_some_and(|id| rows.iter().any(|c| c.id == id))
    })));
    Ok(axum::Json(PerformanceOverview {
        success: true,
        performance: Performance {
            total_campaigns: total,
            total_emails_sent: f.sent,
            average_open_rate: f.open_rate,
            average_click_rate: f.click_rate,
            average_reply_rate: f.reply_rate,
            figures: f,
        },
    })
    .into_response())
}

// ---- single campaigns ----

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SingleCampaign)]
struct SingleView {
    id: String,
    name: String,
    description: Option<String>,
    status: String,
    target_audience: Option<String>,
    ai_model: Option<String>,
    emails_sent: i64,
    opens: i64,
    /// Sent with the open pixel: the open rate's base (0: opens were not tracked).
    open_tracked: i64,
    open_rate: f64,
    total_recipients: i64,
    start_date: Option<String>,
    end_date: Option<String>,
    created_at: String,
    subject: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    waiting: Option<WaitingView>,
}

fn single_view(
    c: CampaignRow,
    s: Option<&CampaignStats>,
    state: Option<CampaignState>,
) -> SingleView {
    let (sent, opened, open_tracked) = s
        .map(|s| (s.sent, s.opened, s.open_tracked))
        .unwrap_or_default();
    let (status, failure, waiting) = match state {
        Some(st) => (st.status, st.failure, st.waiting),
        None => (c.status, None, None),
    };
    SingleView {
        subject: c.subject,
        failure,
        waiting: waiting.map(|w| WaitingView {
            reason: w.reason,
            label: w.label,
            until: w.until.map(to_rfc3339),
        }),
        id: c.id,
        name: c.name,
        description: c.description,
        status,
        target_audience: c.target_audience,
        ai_model: c.ai_model,
        emails_sent: sent,
        opens: opened,
        open_tracked,
        open_rate: rate(opened, open_tracked),
        total_recipients: i64::from(c.total_recipients),
        start_date: c.started_at.map(to_rfc3339),
        end_date: c.ended_at.map(to_rfc3339),
        created_at: to_rfc3339(c.created_at),
    }
}

async fn single_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(page): Query<Page>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(page.limit, page.offset)?;
    let (rows, total) = state
        .queue
        .db
        .campaign_list("single", limit, offset)
        .await?;
    let items: Vec<SingleView> = with_states(&state, rows)
        .await?
        .into_iter()
        .map(|(c, s, st)| single_view(c, s.as_ref(), st))
        .collect();
    Ok(with_total(items, total))
}

/// The contacts a single campaign's audience names.
pub(crate) fn single_audience(audience: &str) -> Audience {
    let active: Vec<String> = STATUSES
        .iter()
        .filter(|s| !matches!(**s, "customer" | "lost"))
        .map(|s| s.to_string())
        .collect();
    match audience {
        "high-value" => Audience {
            score_min: Some(85),
            statuses: active,
            ..Audience::default()
        },
        "medium-value" => Audience {
            score_min: Some(45),
            score_max: Some(84),
            statuses: active,
            ..Audience::default()
        },
        _ => Audience {
            statuses: active,
            ..Audience::default()
        },
    }
}

/// One of `values`, `""` or null (the default).
fn one_of_or_blank(values: &[&str]) -> utoipa::openapi::ObjectBuilder {
    validate::or_null(validate::one_of_or_empty(values)).into()
}

/// One of [`AUDIENCES`] (default `all-active`).
fn audience_schema() -> utoipa::openapi::ObjectBuilder {
    one_of_or_blank(&AUDIENCES).description(Some("Who it is for; `all-active` when left out."))
}

/// One of [`AI_MODELS`] (default `gpt-5`).
fn ai_model_schema() -> utoipa::openapi::ObjectBuilder {
    one_of_or_blank(&AI_MODELS).description(Some("`gpt-5` when left out."))
}

/// A single campaign: its name and description are required.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SingleInput {
    #[schema(schema_with = required_text, required = true)]
    name: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    description: Option<String>,
    #[schema(schema_with = audience_schema)]
    target_audience: Option<String>,
    #[schema(schema_with = ai_model_schema)]
    ai_model: Option<String>,
}

async fn single_create(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(input): Json<SingleInput>,
) -> ApiResult<Response> {
    let (Some(name), Some(description)) = (trimmed(&input.name), trimmed(&input.description))
    else {
        return Err(ApiError::unprocessable(SINGLE_REQUIRED));
    };
    let audience = trimmed(&input.target_audience).unwrap_or("all-active");
    if !AUDIENCES.contains(&audience) {
        return Err(ApiError::unprocessable(format!(
            "targetAudience must be one of {}",
            AUDIENCES.join(", ")
        )));
    }
    let model = trimmed(&input.ai_model).unwrap_or("gpt-5");
    if !AI_MODELS.contains(&model) {
        return Err(ApiError::unprocessable(format!(
            "aiModel must be one of {}",
            AI_MODELS.join(", ")
        )));
    }
    let recipients = state
        .queue
        .db
        .audience_count(&single_audience(audience))
        .await?;
    let now = now_ms();
    let c = CampaignRow {
        id: ulid::Ulid::new().to_string(),
        kind: "single".into(),
        name: name.to_string(),
        description: Some(description.to_string()),
        // A draft until its message is written and sent (`POST /api/campaigns/{id}/send`).
        status: "draft".into(),
        subject: None,
        template_id: None,
        from_email: None,
        target_filters: None,
        selected_contact_ids: None,
        schedule_at: None,
        target_audience: Some(audience.to_string()),
        ai_model: Some(model.to_string()),
        total_recipients: i32::try_from(recipients).unwrap_or(i32::MAX),
        created_at: now,
        updated_at: now,
        started_at: None,
        sent_at: None,
        ended_at: None,
    };
    let mut tx = state.queue.db.begin().await?;
    tx.campaign_insert(&c).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, axum::Json(single_view(c, None, None))).into_response())
}

/// The message of a single campaign: its subject and body are required.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SingleSendInput {
    #[schema(schema_with = required_text, required = true)]
    subject: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    body: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SingleCampaignSent)]
struct SingleSent {
    success: bool,
    total_recipients: i64,
    job_id: String,
}

/// Sends a single campaign as a bulk send to its audience, with the message written for it; the
/// answer names the job to follow.
async fn single_send(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<SingleSendInput>,
) -> ApiResult<Response> {
    let db = &state.queue.db;
    let c = db
        .campaign_get(&id)
        .await?
        .filter(|c| c.kind == "single")
        .ok_or_else(|| ApiError::not_found("Campaign not found"))?;
    let (Some(subject), Some(body)) = (trimmed(&input.subject), trimmed(&input.body)) else {
        return Err(ApiError::unprocessable("Subject and body are required."));
    };
    if c.status != "draft" && c.status != "active" {
        return Err(ApiError::conflict(format!(
            "Only a draft campaign can be sent; this one is {}",
            c.status
        )));
    }
    if let Some(why) = state.queue.providers.mailing.send_blocked() {
        return Err(ApiError::conflict(why));
    }
    let audience = single_audience(c.target_audience.as_deref().unwrap_or("all-active"));
    let recipients = db.audience_count(&audience).await?;
    if recipients == 0 {
        return Err(ApiError::unprocessable(NO_RECIPIENTS));
    }
    db.campaign_content_set(&c.id, subject, &audience.to_rules(), body)
        .await?;
    // Campaigns made before single ones could send were created `active`.
    if !db
        .campaign_set_status(&c.id, &["draft", "active"], "sending", now_ms())
        .await?
    {
        return Err(ApiError::conflict(
            "The campaign changed; reload and try again",
        ));
    }
    let job = state.queue.enqueue(send_job(&c.id)).await?;
    Ok(axum::Json(SingleSent {
        success: true,
        total_recipients: recipients,
        job_id: job.id,
    })
    .into_response())
}

// ---- deliverability ----

/// The sending limits, and what was sent against them (all mailboxes).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = DeliverabilitySettings)]
struct DeliverabilityView {
    warmup_enabled: bool,
    daily_limit: i32,
    hourly_limit: i32,
    track_opens: bool,
    /// The daily limit as warm-up lowers it.
    effective_daily_limit: i64,
    emails_sent_today: i64,
    emails_sent_this_hour: i64,
}

async fn deliverability_view(state: &AppState) -> ApiResult<Response> {
    let db = &state.queue.db;
    let s = db.deliverability_get().await?;
    let (hour, day) = window_keys(now_ms());
    let usage = db.mailbox_usage(None, &hour, &day).await?;
    Ok(axum::Json(DeliverabilityView {
        warmup_enabled: s.warmup_enabled,
        daily_limit: s.daily_limit,
        hourly_limit: s.hourly_limit,
        track_opens: s.track_opens,
        effective_daily_limit: effective_daily_limit(&s, &usage),
        emails_sent_today: usage.today,
        emails_sent_this_hour: usage.this_hour,
    })
    .into_response())
}

async fn deliverability_get(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    deliverability_view(&state).await
}

/// The most a sending limit may be.
const MAX_LIMIT: i64 = 10_000_000;

/// A sending limit, 1–[`MAX_LIMIT`], or null (it stays as it is).
fn limit_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::{Type, schema::SchemaType};
    crate::validate::integer(Some(1), Some(MAX_LIMIT))
        .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct DeliverabilityInput {
    warmup_enabled: Option<bool>,
    #[schema(schema_with = limit_schema)]
    daily_limit: Option<i64>,
    #[schema(schema_with = limit_schema)]
    hourly_limit: Option<i64>,
    /// Put the 1-pixel open image in outreach messages (off by default: it costs deliverability).
    track_opens: Option<bool>,
}

async fn deliverability_put(
    State(state): State<AppState>,
    _: AdminUser,
    Json(input): Json<DeliverabilityInput>,
) -> ApiResult<Response> {
    let db = &state.queue.db;
    let current = db.deliverability_get().await?;
    let limit = |v: Option<i64>, field: &str, fallback: i32| -> ApiResult<i32> {
        match v {
            None => Ok(fallback),
            Some(n) if (1..=MAX_LIMIT).contains(&n) => Ok(n as i32),
            Some(_) => Err(ApiError::unprocessable(format!(
                "{field} must be between 1 and 10000000"
            ))),
        }
    };
    let next = DeliverabilityRow {
        warmup_enabled: input.warmup_enabled.unwrap_or(current.warmup_enabled),
        daily_limit: limit(input.daily_limit, "dailyLimit", current.daily_limit)?,
        hourly_limit: limit(input.hourly_limit, "hourlyLimit", current.hourly_limit)?,
        track_opens: input.track_opens.unwrap_or(current.track_opens),
    };
    db.deliverability_set(&next, now_ms()).await?;
    deliverability_view(&state).await
}
