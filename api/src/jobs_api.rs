//! `GET /api/jobs/{id}`: the status every enqueuing screen polls.

use axum::extract::State;
use jobs::queue::JobView;

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Path};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/jobs/{id}", Access::User, job_get)
        .returns::<JobView>()
}

async fn job_get(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<JobView>> {
    state
        .queue
        .get(&id)
        .await?
        .map(axum::Json)
        .ok_or_else(|| ApiError::not_found("Job not found"))
}
