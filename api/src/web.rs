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
/// `index.html`. Without that file (an older build) every address is the app's. A `:name`
/// segment (`/companies/:id`) stands for any one non-empty segment.
pub(crate) struct WebRoutes(Option<RouteSet>);

#[derive(Default)]
struct RouteSet {
    exact: HashSet<String>,
    /// The routes with a parameter, split into segments (`None` for a parameter).
    patterns: Vec<Vec<Option<String>>>,
}

impl RouteSet {
    fn new(routes: Vec<String>) -> Self {
        let mut set = Self::default();
        for route in routes {
            let route = normalize(&route).to_string();
            if route.split('/').any(|s| s.starts_with(':')) {
                set.patterns.push(
                    route
                        .split('/')
                        .map(|s| (!s.starts_with(':')).then(|| s.to_string()))
                        .collect(),
                );
            } else {
                set.exact.insert(route);
            }
        }
        set
    }

    fn contains(&self, path: &str) -> bool {
        if self.exact.contains(path) {
            return true;
        }
        let segments: Vec<&str> = path.split('/').collect();
        self.patterns.iter().any(|p| {
            p.len() == segments.len()
                && p.iter().zip(&segments).all(|(want, got)| match want {
                    Some(literal) => literal.as_str() == *got,
                    None => !got.is_empty(),
                })
        })
    }
}

/// A path without its trailing slashes (`/` stays `/`).
fn normalize(path: &str) -> &str {
    match path.trim_end_matches('/') {
        "" => "/",
        p => p,
    }
}

impl WebRoutes {
    pub(crate) fn load(dist: &Path) -> Self {
        let file = dist.join("routes.json");
        let routes = std::fs::read(&file)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Vec<String>>(&bytes).ok());
        if routes.is_none() && dist.join("index.html").exists() {
            tracing::warn!(file = %file.display(), "no route list: every address serves the web app");
        }
        Self(routes.map(RouteSet::new))
    }

    fn routes(&self, path: &str) -> bool {
        self.0.as_ref().is_none_or(|r| r.contains(normalize(path)))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn routes(list: &[&str]) -> WebRoutes {
        WebRoutes(Some(RouteSet::new(
            list.iter().map(|s| s.to_string()).collect(),
        )))
    }

    #[test]
    fn parameter_segments_match_one_non_empty_segment() {
        let r = routes(&[
            "/",
            "/contacts",
            "/companies/:id",
            "/admin/companies/:id",
            "/deals/:id/",
        ]);
        for ok in [
            "/",
            "/contacts",
            "/contacts/",
            "/companies/01JABC",
            "/companies/01JABC/",
            "/admin/companies/x",
            "/deals/7",
        ] {
            assert!(r.routes(ok), "{ok}");
        }
        for no in [
            "/companies",
            "/companies/",
            "/companies//",
            "/companies/a/b",
            "/admin/companies",
            "/admin/companies/a/b",
            "/people/01JABC",
            "/contacts/nope",
            "/x/companies/1",
        ] {
            assert!(!r.routes(no), "{no}");
        }
    }

    #[test]
    fn without_a_route_list_every_address_is_the_apps() {
        assert!(WebRoutes(None).routes("/anything/at/all"));
    }
}
