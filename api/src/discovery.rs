//! `POST /api/discovery/scan`: validates the seed's search form and enqueues a `discovery_scan` job.
//! The same search while one is still running returns that scan.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::kinds::DiscoveryScan;
use jobs::queue::{JobKind, NewJob};
use serde_json::json;

use crate::enqueue::accepted;
use crate::error::ApiResult;
use crate::extract::{CurrentUser, Json};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/discovery/scan", Access::User, scan)
        .body::<DiscoveryScan>()
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
