//! `ApiError`: every handler returns `Result<T, ApiError>`. Client mistakes map to their 4xx with a
//! JSON `{"message", "errors"?}`; database and other internal errors become a logged 500 whose body
//! says nothing about internals.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jobs::queue::QueueError;
use serde::Serialize;

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
    /// As [`Self::Invalid`] with 400: the record pages' bodies (docs/records.md).
    #[error("{message}")]
    BadFields {
        message: String,
        errors: BTreeMap<String, String>,
    },
    #[error("{message}")]
    TooManyRequests { message: String, retry_after: u64 },
    /// The database is busy (locked or out of connections): 503, the client may try again.
    #[error("{message}")]
    Unavailable { message: String, retry_after: u64 },
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
    /// 400 with one message per field.
    pub fn bad_fields(message: impl Into<String>, errors: BTreeMap<String, String>) -> Self {
        Self::BadFields {
            message: message.into(),
            errors,
        }
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

/// The database could not take the request now (SQLite locked or busy, the pool exhausted; with
/// [`jobs::db::is_conflict`], a Postgres deadlock's victim): a moment later it can, so the client
/// hears 503 and when to retry, not 500.
fn is_busy(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut => true,
        sqlx::Error::Database(d) => d.code().is_some_and(|c| {
            // SQLite: SQLITE_BUSY (5) and SQLITE_LOCKED (6) with their extended codes;
            // Postgres: too many connections (53300) and lock_not_available (55P03).
            c.parse::<i32>().is_ok_and(|n| matches!(n & 0xff, 5 | 6))
                || c == "53300"
                || c == "55P03"
        }),
        _ => false,
    }
}

/// Seconds a client waits before retrying a busy database.
const BUSY_RETRY_AFTER: u64 = 1;

impl ApiError {
    fn busy() -> Self {
        Self::Unavailable {
            message: "The database is busy. Try again in a moment.".into(),
            retry_after: BUSY_RETRY_AFTER,
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        if is_nul_text(&e) {
            return Self::bad_request(NUL_TEXT);
        }
        if is_busy(&e) || jobs::db::is_conflict(&e) {
            tracing::warn!(error = %e, "database busy");
            return Self::busy();
        }
        Self::Internal(e.into())
    }
}

impl From<jobs::untrusted::LimitError> for ApiError {
    fn from(e: jobs::untrusted::LimitError) -> Self {
        let status = if e.is_size() {
            StatusCode::PAYLOAD_TOO_LARGE
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        Self::Status(status, e.to_string())
    }
}

/// Runs a parser of an uploaded file on the blocking pool: it is CPU-bound, and a panic inside it
/// (a parser meeting a file it did not expect) is a file that cannot be read (422), not a 500.
pub async fn parse_upload<T: Send + 'static>(
    parse: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(parse)
        .await
        .unwrap_or_else(|e| {
            tracing::warn!(error = %e, "upload parser failed");
            Err(ApiError::unprocessable(
                "The file could not be read: it is damaged or not in a supported format.",
            ))
        })
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

/// The body of every error answer: what went wrong, and per field when a form's fields were.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub message: String,
    /// Field (as the request spells it) → what is wrong with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<BTreeMap<String, String>>,
}

impl ErrorBody {
    fn new(message: String) -> Json<Self> {
        Json(Self {
            message,
            errors: None,
        })
    }

    fn fields(message: String, errors: BTreeMap<String, String>) -> Json<Self> {
        Json(Self {
            message,
            errors: Some(errors),
        })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            Self::Status(status, message) => (status, ErrorBody::new(message)).into_response(),
            Self::Invalid { message, errors } => (
                StatusCode::UNPROCESSABLE_ENTITY,
                ErrorBody::fields(message, errors),
            )
                .into_response(),
            Self::BadFields { message, errors } => {
                (StatusCode::BAD_REQUEST, ErrorBody::fields(message, errors)).into_response()
            }
            Self::TooManyRequests {
                message,
                retry_after,
            } => with_retry_after(StatusCode::TOO_MANY_REQUESTS, message, retry_after),
            Self::Unavailable {
                message,
                retry_after,
            } => with_retry_after(StatusCode::SERVICE_UNAVAILABLE, message, retry_after),
            Self::Internal(e)
                if e.chain()
                    .any(|c| c.downcast_ref::<sqlx::Error>().is_some_and(is_busy)) =>
            {
                Self::busy().into_response()
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
                    ErrorBody::new("Internal server error".into()),
                )
                    .into_response()
            }
        }
    }
}

fn with_retry_after(status: StatusCode, message: String, retry_after: u64) -> Response {
    let mut res = (status, ErrorBody::new(message)).into_response();
    if let Ok(v) = HeaderValue::from_str(&retry_after.to_string()) {
        res.headers_mut().insert(header::RETRY_AFTER, v);
    }
    res
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn a_busy_database_is_503_with_retry_after() {
        let res = ApiError::from(sqlx::Error::PoolTimedOut).into_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(res.headers()[header::RETRY_AFTER], "1");
        // Through anyhow, as a `?` in a job-platform call delivers it.
        let res = ApiError::Internal(anyhow::Error::new(sqlx::Error::PoolTimedOut)).into_response();
        assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
        let res = ApiError::from(sqlx::Error::RowNotFound).into_response();
        assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
