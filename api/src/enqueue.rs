//! What the handlers that enqueue share: a job from its typed payload, the sequence trigger job, and
//! the `202` answer with the job to follow.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use jobs::queue::{JobKind, NewJob};

use crate::error::ApiResult;

/// The job of a kind, from its payload.
pub(crate) fn job<K: JobKind>(payload: &K) -> ApiResult<NewJob> {
    Ok(NewJob::new(
        K::NAME,
        serde_json::to_value(payload).map_err(anyhow::Error::from)?,
    ))
}

/// The job that enrolls a contact in the active sequences a change triggers.
pub(crate) fn trigger_job(
    trigger: &str,
    contact_id: &str,
    detail: Option<&str>,
) -> ApiResult<NewJob> {
    job(&jobs::kinds::SequenceTrigger {
        trigger: trigger.to_string(),
        contact_id: contact_id.to_string(),
        detail: detail.map(String::from),
    })
}

fn job_status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&jobs::queue::STATUSES)
}

/// The body of every endpoint that enqueues ([`accepted`]).
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JobAccepted {
    job_id: String,
    /// The job's state when it was answered (`queued`, or where an existing job already is).
    #[schema(schema_with = job_status_schema)]
    status: String,
}

/// The answer of every endpoint that enqueues: `202`, `Location`, `{"jobId","status"}`.
pub(crate) fn accepted(id: &str, status: &str) -> Response {
    (
        StatusCode::ACCEPTED,
        [(header::LOCATION, format!("/api/jobs/{id}"))],
        axum::Json(JobAccepted {
            job_id: id.to_string(),
            status: status.to_string(),
        }),
    )
        .into_response()
}
