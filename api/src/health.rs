//! Liveness, readiness and Prometheus metrics.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::error::ErrorBody;
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/healthz", Access::Public, healthz)
        .returns::<HealthStatus>()
        .get("/readyz", Access::Public, readyz)
        // 503 with an `ErrorBody` when the database does not answer.
        .returns::<HealthStatus>()
        .get("/metrics", Access::Public, metrics_text)
        .returns_file("text/plain")
}

/// `ok` (the process answers) or `ready` (and its database does).
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct HealthStatus {
    status: &'static str,
}

fn error_body(message: &str) -> axum::Json<ErrorBody> {
    axum::Json(ErrorBody {
        message: message.to_string(),
        errors: None,
    })
}

async fn healthz() -> axum::Json<HealthStatus> {
    axum::Json(HealthStatus { status: "ok" })
}

async fn readyz(State(state): State<AppState>) -> Response {
    match state.queue.db.ping().await {
        Ok(()) => axum::Json(HealthStatus { status: "ready" }).into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check: database unreachable");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                error_body("Database unreachable"),
            )
                .into_response()
        }
    }
}

/// With `METRICS_TOKEN` set, a scrape without `Authorization: Bearer <token>` is refused (401): queue
/// depths and request counts tell a stranger how the business runs.
pub(crate) fn metrics_refused(
    headers: &HeaderMap,
    token: Option<&jobs::config::Secret<String>>,
) -> Option<Response> {
    let token = token?;
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if given.is_some_and(|g| crate::webhook_token::same_secret(g.trim(), token.expose())) {
        return None;
    }
    Some(
        (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            error_body("Metrics need Authorization: Bearer <METRICS_TOKEN>"),
        )
            .into_response(),
    )
}

/// Job counts come from the database at scrape time, so every process reports the same truth.
async fn metrics_text(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Some(refused) = metrics_refused(&headers, state.config.limits.metrics_token.as_ref()) {
        return refused;
    }
    match state.queue.db.job_counts().await {
        Ok(counts) => {
            for kind in state.queue.registry.kinds() {
                for status in jobs::queue::STATUSES {
                    let n = counts
                        .iter()
                        .find(|(k, s, _)| k == kind && s == status)
                        .map_or(0, |c| c.2);
                    metrics::gauge!("prospector_jobs", "kind" => kind, "status" => status)
                        .set(n as f64);
                }
            }
        }
        Err(e) => tracing::warn!(error = %e, "metrics: job counts unavailable"),
    }
    let now = jobs::time::now_ms();
    let ages = |oldest: &[(String, i64)], name: &'static str| {
        for kind in state.queue.registry.kinds() {
            let age = oldest
                .iter()
                .find(|(k, _)| k == kind)
                .map_or(0, |(_, at)| (now - at).max(0));
            metrics::gauge!(name, "kind" => kind).set(age as f64 / 1000.0);
        }
    };
    match state.queue.db.job_oldest_ready(now).await {
        Ok(oldest) => ages(&oldest, "prospector_job_oldest_ready_age_seconds"),
        Err(e) => tracing::warn!(error = %e, "metrics: oldest ready job unavailable"),
    }
    // A job running far longer than its kind's runs is stuck (the StuckJob alert).
    match state.queue.db.job_oldest_running().await {
        Ok(oldest) => ages(&oldest, "prospector_job_oldest_running_age_seconds"),
        Err(e) => tracing::warn!(error = %e, "metrics: oldest running job unavailable"),
    }
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(),
    )
        .into_response()
}
