//! Extractors: JSON, query and path with JSON errors, and the session ones (`CurrentUser`, `AdminUser`).

use axum::body::Body;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use jobs::auth::token_hash;
use jobs::db::UserRow;
use jobs::time::now_ms;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::AppState;
use crate::error::{ApiError, NUL_TEXT};

/// A JSON body read into `T`. A whole number written as a float (`71.0`, as JSON Schema and
/// clients such as Python's `json` spell integers now and then) is read as the integer, so an
/// integer field takes it; otherwise as axum's `Json` (same rejections, same messages).
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let axum::Json(mut value) = axum::Json::<Value>::from_request(req, state).await?;
        whole_floats_as_integers(&mut value);
        serde_path_to_error::deserialize(value)
            .map(Json)
            .map_err(|e| {
                ApiError::unprocessable(format!(
                    "Failed to deserialize the JSON body into the target type: {e}"
                ))
            })
    }
}

/// Floats that hold a whole number exactly (below 2^53) become integers, everywhere in `value`.
fn whole_floats_as_integers(value: &mut Value) {
    match value {
        Value::Number(n) => {
            if let Some(f) = n.as_f64().filter(|_| n.is_f64())
                && f.fract() == 0.0
                && f.abs() < 9_007_199_254_740_992.0
            {
                *n = serde_json::Number::from(f as i64);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_floats_as_integers),
        Value::Object(map) => map.values_mut().for_each(whole_floats_as_integers),
        _ => {}
    }
}

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
            .get_or_compute_kept(
                format!("session:{hash}"),
                || async { Ok(db.session_get(&hash, now_ms()).await?) },
                Option::is_some,
            )
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

/// Refuses text with a NUL character anywhere in the address or a JSON body: no field of ours
/// can hold one (Postgres refuses it, SQLite cuts text at it), so it is answered as bad input
/// before any handler runs rather than failing halfway through a write.
pub async fn reject_nul(req: Request, next: Next) -> Response {
    let uri = req.uri().to_string().to_ascii_lowercase();
    if uri.contains("%00") {
        return ApiError::bad_request(NUL_TEXT).into_response();
    }
    let json = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().contains("json"));
    if !json {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, crate::BODY_LIMIT).await {
        Ok(b) => b,
        Err(_) => {
            return ApiError::Status(
                StatusCode::PAYLOAD_TOO_LARGE,
                "Request body is too large".into(),
            )
            .into_response();
        }
    };
    if has_nul_escape(&bytes) {
        return ApiError::bad_request(NUL_TEXT).into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// A `\u0000` escape (an odd run of backslashes before `u0000`) or a raw NUL byte.
fn has_nul_escape(json: &[u8]) -> bool {
    json.contains(&0)
        || json.windows(6).enumerate().any(|(i, w)| {
            w == b"\\u0000" && json[..i].iter().rev().take_while(|b| **b == b'\\').count() % 2 == 0
        })
}

#[cfg(test)]
mod tests {
    use super::has_nul_escape;

    #[test]
    fn whole_floats_are_read_as_integers() {
        let mut body = serde_json::json!({"employees": 71.0, "lines": [{"quantity": 2.0}], "rate": 7.5, "big": 1e300});
        super::whole_floats_as_integers(&mut body);
        assert_eq!(body["employees"].as_i64(), Some(71));
        assert_eq!(body["lines"][0]["quantity"].as_i64(), Some(2));
        assert_eq!(body["rate"].as_f64(), Some(7.5));
        assert!(body["big"].is_f64(), "past 2^53 a float stays a float");
    }

    #[test]
    fn nul_escapes_found_but_escaped_backslashes_are_text() {
        assert!(has_nul_escape(br#"{"name":"a\u0000b"}"#));
        assert!(has_nul_escape(b"{\"name\":\"a\0\"}"));
        assert!(
            !has_nul_escape(br#"{"name":"C:\\u0000"}"#),
            "a backslash, then text"
        );
        assert!(has_nul_escape(br#"{"name":"C:\\\u0000"}"#));
        assert!(!has_nul_escape(br#"{"name":"u0000 \u0041"}"#));
    }
}
