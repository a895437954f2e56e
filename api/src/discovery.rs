//! `POST /api/discovery/scan`: validates the seed's search form and enqueues a `discovery_scan` job.
//! The same search while one is still running returns that scan.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::db::JobList;
use jobs::kinds::DiscoveryScan;
use jobs::queue::{JobKind, JobView, NewJob};
use serde_json::json;

use crate::enqueue::accepted;
use crate::error::ApiResult;
use crate::extract::{CurrentUser, Json};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/discovery/scan", Access::User, scan)
        .body::<DiscoveryScan>()
        .get("/api/discovery/scans/active", Access::User, active_scan)
}

/// The newest discovery scan still under way (running, retrying, then queued), so a reloaded
/// Discovery page follows it again; `null` when there is none. Any signed-in user may ask: the
/// ops job list is for admins.
async fn active_scan(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<axum::Json<Option<JobView>>> {
    for status in ["running", "retrying", "queued"] {
        let (rows, _) = state
            .queue
            .db
            .job_list(&JobList {
                kind: Some(DiscoveryScan::NAME),
                status: Some(status),
                text: None,
                from: None,
                until: None,
                limit: 1,
                offset: 0,
            })
            .await?;
        if let Some(job) = rows.into_iter().next() {
            return Ok(axum::Json(Some(JobView::from(job))));
        }
    }
    Ok(axum::Json(None))
}

async fn scan(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(body): Json<DiscoveryScan>,
) -> ApiResult<Response> {
    let scan = match body.normalize() {
        Ok(scan) => scan,
        Err(e) => {
            // The seed shows a titled toast ('Missing Parameters', 'Invalid City/State').
            let body = json!({ "message": e.to_string(), "title": e.title() });
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, axum::Json(body)).into_response());
        }
    };
    let key = format!("discovery:{}", scan.dedupe_key());
    let payload = serde_json::to_value(&scan).map_err(anyhow::Error::from)?;
    let job = state
        .queue
        .enqueue(NewJob::new(DiscoveryScan::NAME, payload).unique_while_active(key))
        .await?;
    Ok(accepted(&job.id, &job.status))
}
