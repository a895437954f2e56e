//! The built web app (`web/dist`), with `index.html` for every client-side route.

use std::path::Path;

use axum::Router;
use tower_http::services::{ServeDir, ServeFile};

use crate::AppState;

pub(crate) fn router(dist: &Path) -> Router<AppState> {
    let index = ServeFile::new(dist.join("index.html"));
    Router::new().fallback_service(ServeDir::new(dist).fallback(index))
}
