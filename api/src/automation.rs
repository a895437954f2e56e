//! The automation screen's calls (seed 002 "Automation, scoring, calendar, SMS") with real figures:
//! `GET /api/campaign-metrics` and `GET /api/campaign-executions` from sequence enrollments (the
//! campaigns that run on their own), `GET /api/payment/analytics` (from paid invoices and Stripe payments, in
//! the seed's shape), and `POST /api/contacts/{id}/trigger-automation`, which fires the sequence
//! triggers for a contact as the CRM's own changes do.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::domain::one_of_message;
use jobs::time::to_rfc3339;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::paging;
use crate::{Access, AppState, Routes};

/// The triggers a staff member can fire by hand (`manual` sequences are enrolled directly).
const TRIGGER_EVENTS: [&str; 4] = [
    "contact_created",
    "deal_stage_changed",
    "form_submitted",
    "tag_added",
];
const EXECUTION_STATUSES: [&str; 3] = ["active", "completed", "exited"];

pub(crate) fn routes() -> Routes {
    use Access::User;
    Routes::new()
        .get("/api/campaign-metrics", User, campaign_metrics)
        .returns::<ExecutionMetrics>()
        .get("/api/campaign-executions", User, campaign_executions)
        .query::<ExecutionQuery>()
        .returns_list::<Execution>()
        .get("/api/payment/analytics", User, payment_analytics)
        .returns::<PaymentAnalytics>()
        .post(
            "/api/contacts/{id}/trigger-automation",
            User,
            trigger_automation,
        )
        .body::<TriggerInput>()
        .returns_status::<TriggerQueued>(202)
}

async fn campaign_metrics(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let m = state.queue.db.execution_metrics().await?;
    Ok(Json(ExecutionMetrics {
        active: m.active,
        completed: m.completed,
        failed: m.failed,
        paused: m.paused,
    })
    .into_response())
}

/// Sequence enrollments by state.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct ExecutionMetrics {
    active: i64,
    completed: i64,
    failed: i64,
    paused: i64,
}

/// A contact's way through a sequence.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Execution {
    id: String,
    contact_id: String,
    current_step: i32,
    /// RFC 3339.
    next_action_at: Option<String>,
    status: String,
}

/// Revenue and payments (seed 002's payment analytics).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct PaymentAnalytics {
    /// Dollars of paid invoices.
    total_revenue: f64,
    total_transactions: i64,
    successful_payments: i64,
    failed_payments: i64,
}

/// The trigger's job.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TriggerQueued {
    job_id: String,
    trigger_event: String,
}

/// [`EXECUTION_STATUSES`], or `""` (read as absent).
fn execution_status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&EXECUTION_STATUSES)
        .description(Some("One of the enrollment states."))
}

#[derive(Deserialize, utoipa::IntoParams)]
struct ExecutionQuery {
    /// One of the enrollment states.
    #[param(schema_with = execution_status_schema)]
    status: Option<String>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
}

async fn campaign_executions(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<ExecutionQuery>,
) -> ApiResult<Response> {
    let (limit, _) = paging(q.limit, None)?;
    let status = q.status.as_deref().filter(|s| !s.is_empty());
    if status.is_some_and(|s| !EXECUTION_STATUSES.contains(&s)) {
        return Err(ApiError::bad_request(one_of_message(
            "status",
            &EXECUTION_STATUSES,
        )));
    }
    let rows = state.queue.db.executions(status, limit).await?;
    let items: Vec<Execution> = rows
        .into_iter()
        .map(|e| Execution {
            id: e.id,
            contact_id: e.contact_id,
            current_step: e.current_step,
            next_action_at: e.next_action_at.map(to_rfc3339),
            status: e.status,
        })
        .collect();
    Ok(Json(items).into_response())
}

/// Revenue is what paid invoices total (however they were paid); transactions are the payments
/// asked of Stripe, with those that succeeded and those that failed or were cancelled.
async fn payment_analytics(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let a = state.queue.db.payment_analytics().await?;
    Ok(Json(PaymentAnalytics {
        total_revenue: a.revenue_cents as f64 / 100.0,
        total_transactions: a.transactions,
        successful_payments: a.succeeded,
        failed_payments: a.failed,
    })
    .into_response())
}

fn trigger_event_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&TRIGGER_EVENTS)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TriggerInput {
    #[schema(schema_with = trigger_event_schema, required = true)]
    trigger_event: Option<String>,
    /// The stage or tag the sequence's triggerConfig may name.
    detail: Option<String>,
}

async fn trigger_automation(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<TriggerInput>,
) -> ApiResult<Response> {
    let event = input
        .trigger_event
        .filter(|e| TRIGGER_EVENTS.contains(&e.as_str()))
        .ok_or_else(|| ApiError::unprocessable(one_of_message("triggerEvent", &TRIGGER_EVENTS)))?;
    if state.queue.db.contact_get(&id).await?.is_none() {
        return Err(ApiError::not_found("Contact not found"));
    }
    let job = crate::enqueue::trigger_job(&event, &id, input.detail.as_deref())?;
    let inserted = state.queue.enqueue(job).await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(TriggerQueued {
            job_id: inserted.id,
            trigger_event: event,
        }),
    )
        .into_response())
}
