//! The fallback of the whole router: a JSON 404 under `/api`, else the built web app (`web/dist`):
//! its files, `index.html` for every address the app routes, and the app's not-found page with
//! HTTP 404 for any other address.

use std::collections::HashSet;
use std::path::Path;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

use crate::AppState;
use crate::error::ApiError;

/// The addresses the web app routes, from `routes.json` that its build writes beside
/// `index.html`. Without that file (an older build) every address is the app's.
pub(crate) struct WebRoutes(Option<HashSet<String>>);

impl WebRoutes {
    pub(crate) fn load(dist: &Path) -> Self {
        let file = dist.join("routes.json");
        let routes = std::fs::read(&file)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Vec<String>>(&bytes).ok());
        if routes.is_none() && dist.join("index.html").exists() {
            tracing::warn!(file = %file.display(), "no route list: every address serves the web app");
        }
        Self(routes.map(|r| r.into_iter().collect()))
    }

    fn routes(&self, path: &str) -> bool {
        let path = match path.trim_end_matches('/') {
            "" => "/",
            p => p,
        };
        self.0.as_ref().is_none_or(|r| r.contains(path))
    }
}

pub(crate) async fn fallback(State(state): State<AppState>, req: Request) -> Response {
    let path = req.uri().path();
    if path == "/api" || path.starts_with("/api/") {
        return ApiError::not_found("Not found").into_response();
    }
    let dist = &state.config.web_dist;
    let index = dist.join("index.html");
    if state.web_routes.routes(path) {
        return match ServeDir::new(dist)
            .fallback(ServeFile::new(&index))
            .oneshot(req)
            .await
        {
            Ok(res) => res.into_response(),
            Err(never) => match never {},
        };
    }
    let res = match ServeDir::new(dist).oneshot(req).await {
        Ok(res) => res.into_response(),
        Err(never) => match never {},
    };
    if res.status() != StatusCode::NOT_FOUND {
        return res;
    }
    // Not a file and not the app's: its not-found page, said to be one.
    match tokio::fs::read_to_string(&index).await {
        Ok(page) => (StatusCode::NOT_FOUND, Html(page)).into_response(),
        Err(_) => res,
    }
}
