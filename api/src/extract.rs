//! Extractors: JSON, query and path with JSON errors, and the session ones (`CurrentUser`, `AdminUser`).

use axum::extract::{FromRequest, FromRequestParts};
use axum::http::request::Parts;
use axum_extra::extract::CookieJar;
use jobs::auth::token_hash;
use jobs::db::UserRow;
use jobs::time::now_ms;
use serde::Serialize;

use crate::AppState;
use crate::error::ApiError;

#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct Json<T>(pub T);

impl<T: Serialize> axum::response::IntoResponse for Json<T> {
    fn into_response(self) -> axum::response::Response {
        axum::Json(self.0).into_response()
    }
}

#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct Query<T>(pub T);

#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct Path<T>(pub T);

pub const SESSION_COOKIE: &str = "prospector_session";

/// The signed-in user; 401 without a valid session.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    pub user: UserRow,
    /// Signed in through the admin login.
    pub admin_session: bool,
}

impl FromRequestParts<AppState> for CurrentUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let jar = CookieJar::from_headers(&parts.headers);
        let token = jar
            .get(SESSION_COOKIE)
            .map(|c| c.value().to_string())
            .ok_or_else(|| ApiError::unauthorized("Authentication required"))?;
        let hash = token_hash(&token);
        let db = &state.queue.db;
        // Read through the read cache: a sign-out or any other write through this process drops it
        // at once; a session ended elsewhere stops working within READ_CACHE_TTL_MS.
        let (user, admin_session) = state
            .read_cache
            .get_or_compute(format!("session:{hash}"), || async {
                Ok(db.session_get(&hash, now_ms()).await?)
            })
            .await?
            .ok_or_else(|| ApiError::unauthorized("Authentication required"))?;
        Ok(Self {
            user,
            admin_session,
        })
    }
}

/// An administrator in an admin session; 401 without a session, 403 for anyone else.
#[derive(Debug, Clone)]
pub struct AdminUser(pub CurrentUser);

impl FromRequestParts<AppState> for AdminUser {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let current = CurrentUser::from_request_parts(parts, state).await?;
        if current.admin_session && state.is_admin(&current.user) {
            Ok(Self(current))
        } else {
            Err(ApiError::forbidden("Administrator access required"))
        }
    }
}
