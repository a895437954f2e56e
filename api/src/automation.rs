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
use serde::Deserialize;
use serde_json::{Value, json};

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
        .get("/api/campaign-executions", User, campaign_executions)
        .get("/api/payment/analytics", User, payment_analytics)
        .post(
            "/api/contacts/{id}/trigger-automation",
            User,
            trigger_automation,
        )
        .body::<TriggerInput>()
}

async fn campaign_metrics(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let m = state.queue.db.execution_metrics().await?;
    Ok(Json(json!({
        "active": m.active,
        "completed": m.completed,
        "failed": m.failed,
        "paused": m.paused,
    }))
    .into_response())
}

#[derive(Deserialize)]
struct ExecutionQuery {
    status: Option<String>,
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
    let items: Vec<Value> = rows
        .into_iter()
        .map(|e| {
            json!({
                "id": e.id,
                "contactId": e.contact_id,
                "currentStep": e.current_step,
                "nextActionAt": e.next_action_at.map(to_rfc3339),
                "status": e.status,
            })
        })
        .collect();
    Ok(Json(items).into_response())
}

/// Revenue is what paid invoices total (however they were paid); transactions are the payments
/// asked of Stripe, with those that succeeded and those that failed or were cancelled.
async fn payment_analytics(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let a = state.queue.db.payment_analytics().await?;
    Ok(Json(json!({
        "totalRevenue": a.revenue_cents as f64 / 100.0,
        "totalTransactions": a.transactions,
        "successfulPayments": a.succeeded,
        "failedPayments": a.failed,
    }))
    .into_response())
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TriggerInput {
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
        Json(json!({ "jobId": inserted.id, "triggerEvent": event })),
    )
        .into_response())
}
