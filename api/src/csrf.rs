//! Cross-site request forgery: a browser attaches the session cookie to a form another site posts
//! to us, so a state-changing request that carries a session must come from our own pages. Browsers
//! say where a request comes from (`Sec-Fetch-Site`, else `Origin`); a request that says neither
//! is not a browser's and carries no ambient authority. Requests without a session (the public
//! form, webhooks) are judged by their own checks.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::ApiError;
use crate::extract::SESSION_COOKIE;

pub const CROSS_SITE: &str = "Cross-site request refused: use Prospector's own pages.";

fn has_session(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .any(|c| {
            c.trim()
                .split_once('=')
                .is_some_and(|(name, _)| name == SESSION_COOKIE)
        })
}

/// `scheme://host[:port]` of a URL, as browsers write `Origin`.
fn origin_of(url: &str) -> Option<String> {
    let u = url::Url::parse(url).ok()?;
    Some(u.origin().ascii_serialization())
}

/// Whether the request may change state on the strength of its cookie.
fn same_origin(headers: &HeaderMap, public_base_url: &str) -> bool {
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    match text("sec-fetch-site") {
        // `none`: typed in the address bar or a bookmark, not another site.
        Some("same-origin" | "none") => return true,
        Some(_) => return false,
        None => {}
    }
    let Some(origin) = text("origin") else {
        return true;
    };
    let host = text("host").unwrap_or_default();
    let ours = origin_of(public_base_url);
    origin_of(origin).is_some_and(|o| {
        ours.as_deref() == Some(o.as_str())
            || o.split_once("://")
                .is_some_and(|(_, h)| h.eq_ignore_ascii_case(host))
    })
}

pub(crate) async fn refuse_cross_site(
    State(state): State<AppState>,
    req: Request,
    next: Next,
) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if safe
        || !has_session(req.headers())
        || same_origin(req.headers(), &state.config.public_base_url)
    {
        return next.run(req).await;
    }
    tracing::warn!(path = %req.uri().path(), "cross-site request with a session refused");
    ApiError::Status(StatusCode::FORBIDDEN, CROSS_SITE.into()).into_response()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_our_own_pages_may_post_with_the_cookie() {
        let base = "https://crm.example.com";
        assert!(same_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            base
        ));
        assert!(!same_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            base
        ));
        assert!(!same_origin(
            &headers(&[("sec-fetch-site", "same-site")]),
            base
        ));
        assert!(same_origin(
            &headers(&[("origin", "https://crm.example.com")]),
            base
        ));
        assert!(same_origin(
            &headers(&[
                ("origin", "http://127.0.0.1:8080"),
                ("host", "127.0.0.1:8080")
            ]),
            base
        ));
        assert!(!same_origin(
            &headers(&[
                ("origin", "https://evil.example"),
                ("host", "crm.example.com")
            ]),
            base
        ));
        assert!(!same_origin(&headers(&[("origin", "null")]), base));
        assert!(same_origin(&headers(&[]), base), "not a browser");
        assert!(has_session(&headers(&[(
            "cookie",
            "a=1; prospector_session=x"
        )])));
        assert!(!has_session(&headers(&[(
            "cookie",
            "prospector_sessionx=1"
        )])));
    }
}
