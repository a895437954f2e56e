//! Requests that write run on a runtime of their own.
//!
//! Tokio has no priorities: on one runtime, each step of a write (the session, `BEGIN`, each
//! statement, `COMMIT`, the answer) waits in the run queue behind every screen's read, so under 50
//! busy readers a status change took as long as a list page. Here the reads keep the main runtime
//! and each POST, PUT, PATCH and DELETE runs on two threads that are idle most of the time, so a
//! write waits on the database, not on the readers (docs/performance.md, "Writes apart").

use std::future::Future;
use std::sync::OnceLock;

use axum::extract::Request;
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use tracing::Instrument;

use crate::error::ApiError;

/// Two threads: one slow write (an import's parsing) does not hold up the others.
const THREADS: usize = 2;

/// The thread name of the writes' runtime.
const THREAD_NAME: &str = "prospector-writes";

fn runtime() -> Option<&'static tokio::runtime::Runtime> {
    // A static is never dropped, so the runtime is never shut down inside async code.
    static RUNTIME: OnceLock<Option<tokio::runtime::Runtime>> = OnceLock::new();
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(THREADS)
                .thread_name(THREAD_NAME)
                .enable_all()
                .build()
                .inspect_err(|e| {
                    tracing::warn!(error = %e, "no runtime for writes; they share the readers'")
                })
                .ok()
        })
        .as_ref()
}

/// Whether a request writes (anything but GET, HEAD and OPTIONS).
pub(crate) fn is_write(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Runs `f` to its end on the writes' runtime (in the current request's span), or here if that
/// runtime could not start. Err if `f` panicked.
async fn run<F>(f: F) -> Result<F::Output, tokio::task::JoinError>
where
    F: Future + Send + 'static,
    F::Output: Send + 'static,
{
    match runtime() {
        Some(rt) => rt.spawn(f.instrument(tracing::Span::current())).await,
        None => Ok(f.await),
    }
}

/// The middleware: a write request's handler (and its own reads, on the connections kept for
/// writers: [`jobs::db::writing`]) runs on the writes' runtime; reads run where they are.
pub(crate) async fn apart(req: Request, next: Next) -> Response {
    if !is_write(req.method()) {
        return next.run(req).await;
    }
    match run(jobs::db::writing(next.run(req))).await {
        Ok(res) => res,
        Err(_) => ApiError::Internal(anyhow::anyhow!("handler panicked")).into_response(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use axum::Router;
    use axum::body::Body;
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;

    fn thread_name() -> String {
        std::thread::current().name().unwrap_or("-").to_string()
    }

    async fn call(app: &Router, method: Method) -> (u16, String) {
        let res = app
            .clone()
            .oneshot(
                Request::builder()
                    .method(method)
                    .uri("/")
                    .body(Body::empty())
                    .unwrap(),
            )
            .await
            .unwrap();
        let status = res.status().as_u16();
        let body = axum::body::to_bytes(res.into_body(), 1024).await.unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn writes_run_on_their_own_threads_and_reads_stay() {
        let app = Router::new()
            .route(
                "/",
                get(|| async { thread_name() })
                    .post(|| async { thread_name() })
                    .put(|| async { thread_name() })
                    .delete(|| async { thread_name() }),
            )
            .layer(axum::middleware::from_fn(apart));
        for m in [Method::POST, Method::PUT, Method::DELETE] {
            assert_eq!(call(&app, m).await, (200, THREAD_NAME.to_string()));
        }
        let (status, read_on) = call(&app, Method::GET).await;
        assert_eq!(status, 200);
        assert_ne!(read_on, THREAD_NAME);
    }

    #[tokio::test]
    async fn a_write_that_panics_is_a_500_and_the_next_one_goes_through() {
        let app = Router::new()
            .route(
                "/",
                axum::routing::post(|| async {
                    if thread_name() == THREAD_NAME {
                        panic!("boom");
                    }
                    "unreachable"
                })
                .put(|| async { "ok" }),
            )
            .layer(axum::middleware::from_fn(apart));
        assert_eq!(call(&app, Method::POST).await.0, 500);
        assert_eq!(call(&app, Method::PUT).await, (200, "ok".to_string()));
    }
}
