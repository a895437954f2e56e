//! The fallback of the whole router: a JSON 404 under `/api`, else the built web app (`web/dist`)
//! with `index.html` for every client-side route.

use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::AppState;
use crate::error::ApiError;

pub(crate) async fn fallback(State(state): State<AppState>, req: Request) -> Response {
    let path = req.uri().path();
    if path == "/api" || path.starts_with("/api/") {
        return ApiError::not_found("Not found").into_response();
    }
    let dist = &state.config.web_dist;
    let index = ServeFile::new(dist.join("index.html"));
    match ServeDir::new(dist).fallback(index).oneshot(req).await {
        Ok(res) => res.into_response(),
        Err(never) => match never {},
    }
}
