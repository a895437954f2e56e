//! `ApiError`: every handler returns `Result<T, ApiError>`. Client mistakes map to their 4xx with a
//! JSON `{"message", "errors"?}`; database and other internal errors become a logged 500 whose body
//! says nothing about internals.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jobs::queue::QueueError;
use serde_json::json;

pub type ApiResult<T, E = ApiError> = Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{1}")]
    Status(StatusCode, String),
    #[error("{message}")]
    Invalid {
        message: String,
        errors: BTreeMap<String, String>,
    },
    #[error("{message}")]
    TooManyRequests { message: String, retry_after: u64 },
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    pub fn bad_request(m: impl Into<String>) -> Self {
        Self::Status(StatusCode::BAD_REQUEST, m.into())
    }
    pub fn unauthorized(m: impl Into<String>) -> Self {
        Self::Status(StatusCode::UNAUTHORIZED, m.into())
    }
    pub fn forbidden(m: impl Into<String>) -> Self {
        Self::Status(StatusCode::FORBIDDEN, m.into())
    }
    pub fn not_found(m: impl Into<String>) -> Self {
        Self::Status(StatusCode::NOT_FOUND, m.into())
    }
    pub fn conflict(m: impl Into<String>) -> Self {
        Self::Status(StatusCode::CONFLICT, m.into())
    }
    pub fn unprocessable(m: impl Into<String>) -> Self {
        Self::Status(StatusCode::UNPROCESSABLE_ENTITY, m.into())
    }
    /// 422 with one message per field.
    pub fn fields(message: impl Into<String>, errors: BTreeMap<String, String>) -> Self {
        Self::Invalid {
            message: message.into(),
            errors,
        }
    }
}

pub const NUL_TEXT: &str = "Text must not contain NUL characters.";

/// Postgres refuses a NUL character in text ("invalid byte sequence"): the client's input, not ours.
fn is_nul_text(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|c| c == "22021")
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        if is_nul_text(&e) {
            return Self::bad_request(NUL_TEXT);
        }
        Self::Internal(e.into())
    }
}

impl From<QueueError> for ApiError {
    fn from(e: QueueError) -> Self {
        match e {
            QueueError::UnknownKind(_) | QueueError::InvalidPayload { .. } => {
                Self::unprocessable(e.to_string())
            }
            QueueError::Db(e) => e.into(),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> Self {
        let message = match r.status() {
            StatusCode::PAYLOAD_TOO_LARGE => "Request body is too large".to_string(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => {
                "Expected a JSON body with Content-Type: application/json".to_string()
            }
            _ => r.body_text(),
        };
        Self::Status(r.status(), message)
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> Self {
        Self::bad_request(r.body_text())
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> Self {
        Self::bad_request(r.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            Self::Status(status, message) => {
                (status, Json(json!({ "message": message }))).into_response()
            }
            Self::Invalid { message, errors } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                Json(json!({ "message": message, "errors": errors })),
            )
                .into_response(),
            Self::TooManyRequests {
                message,
                retry_after,
            } => {
                let mut res = (
                    StatusCode::TOO_MANY_REQUESTS,
                    Json(json!({ "message": message })),
                )
                    .into_response();
                if let Ok(v) = HeaderValue::from_str(&retry_after.to_string()) {
                    res.headers_mut().insert(header::RETRY_AFTER, v);
                }
                res
            }
            Self::Internal(e)
                if e.chain()
                    .any(|c| c.downcast_ref::<sqlx::Error>().is_some_and(is_nul_text)) =>
            {
                Self::bad_request(NUL_TEXT).into_response()
            }
            Self::Internal(e) => {
                // The request id is on the enclosing span, so the log line can be found from a report.
                tracing::error!(error = ?e, "internal error");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    Json(json!({ "message": "Internal server error" })),
                )
                    .into_response()
            }
        }
    }
}
