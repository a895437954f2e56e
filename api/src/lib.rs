//! The HTTP API: thin handlers that validate, read and enqueue; it never calls a slow provider inline.
//!
//! Every route is declared once in [`routes`] with its access level, so the router and the access
//! tests come from the same table. Errors: see [`error`].

pub mod error;
pub mod extract;

mod activities;
mod ai;
mod auth;
mod automation;
mod bulk;
pub mod cache;
mod calendar;
mod calendar_feed;
mod campaigns;
mod companies;
mod composer;
mod contacts;
mod csrf;
mod dashboard;
mod deals;
mod discovery;
mod email;
mod enqueue;
mod forms;
mod health;
mod inbound;
mod invoices;
mod jobs_api;
mod leads;
mod limit;
mod list;
mod mailboxes;
mod meetings;
mod merge;
mod notes;
pub mod openapi;
mod ops;
mod outreach;
mod records;
mod scoring;
mod search;
mod sequences;
mod targeting;
mod tracking;
mod users;
mod validate;
mod views;
mod voice;
mod web;
mod webhook_token;
mod webhooks;
mod writes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request};
use axum::handler::Handler;
use axum::http::{HeaderName, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::MethodRouter;
use jobs::config::Config;
use jobs::db::UserRow;
use jobs::queue::Queue;
use metrics_exporter_prometheus::PrometheusHandle;
use tokio_util::sync::CancellationToken;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::request_id::{
    MakeRequestId, PropagateRequestIdLayer, RequestId, SetRequestIdLayer,
};
use tower_http::trace::TraceLayer;

use crate::error::ApiError;

/// Largest request body accepted (413 beyond it).
pub const BODY_LIMIT: usize = 1024 * 1024;

#[derive(Clone)]
pub struct AppState {
    pub queue: Queue,
    pub config: Arc<Config>,
    pub metrics: PrometheusHandle,
    /// Limits of the public calls (login, lead form); see [`limit`].
    pub(crate) limits: Arc<limit::Limits>,
    pub read_cache: Arc<cache::ReadCache>,
    /// The web app's addresses (see [`web`]).
    pub(crate) web_routes: Arc<web::WebRoutes>,
}

impl AppState {
    pub fn new(queue: Queue, config: Arc<Config>, metrics: PrometheusHandle) -> Self {
        let limits = Arc::new(limit::Limits::new(&config));
        limit::Limits::spawn_pruner(&limits);
        Self {
            limits,
            read_cache: Arc::new(cache::ReadCache::new(config.read_cache_ttl)),
            web_routes: Arc::new(web::WebRoutes::load(&config.web_dist)),
            queue,
            config,
            metrics,
        }
    }

    /// Admin rights: the user's admin flag or the `ADMIN_EMAILS` allowlist.
    pub fn is_admin(&self, user: &UserRow) -> bool {
        user.is_admin || self.config.is_admin_email(&user.email)
    }
}

/// Who may call a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    /// Any signed-in user.
    User,
    /// An administrator in an admin session.
    Admin,
}

/// One declared route.
#[derive(Debug, Clone)]
pub struct RouteInfo {
    pub method: Method,
    pub path: &'static str,
    pub access: Access,
    /// The body's schema and the schemas it refers to, for the OpenAPI document.
    pub body: Option<BodySchema>,
    /// The body's content type: JSON, or a form or file (`Routes::body_as`).
    pub body_content: &'static str,
    /// A header that signs the request (a provider's callback), for the OpenAPI document.
    pub signed_by: Option<&'static str>,
    /// The query parameters, for the OpenAPI document (`Routes::query`).
    pub query: Option<QueryParams>,
    /// The handler's extractors, by type name: a test checks that a route reading a JSON body
    /// declares its schema.
    pub extractors: &'static str,
    /// What it answers on success (`Routes::returns` and kin), for the OpenAPI document.
    pub returns: Option<Returns>,
}

/// A route's success answer, for the OpenAPI document.
#[derive(Debug, Clone, Copy, Default)]
pub struct Returns {
    pub status: u16,
    /// The JSON body's schema; `None`: no JSON body.
    pub body: Option<BodySchema>,
    /// A list page: an array of `body` with `X-Total-Count` (`list::with_total`).
    pub page: bool,
    /// A 201 that is a 200 when the record already existed and was replaced.
    pub or_ok: bool,
    /// Not JSON: a file of this content type.
    pub file: Option<&'static str>,
    /// A `Location` header names the job, record or page.
    pub location: bool,
    /// Errors are HTML pages for a person (public pages), not `ErrorBody`.
    pub html_errors: bool,
    /// Another success: its status and JSON body (a bulk action with nothing to do answers 200).
    pub also: Option<(u16, BodySchema)>,
}

impl Returns {
    fn json(status: u16, body: BodySchema) -> Self {
        Self {
            status,
            body: Some(body),
            ..Self::default()
        }
    }
}

pub type QueryParams = fn() -> Vec<utoipa::openapi::path::Parameter>;

pub type BodySchema = fn() -> (
    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    Vec<(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )>,
);

/// `T`'s schema and the schemas it refers to. A type of ours is a named component that the
/// operation refers to, so generated clients get one named type per body and answer.
fn schema_of<T: utoipa::ToSchema>() -> (
    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    Vec<(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )>,
) {
    let mut nested = Vec::new();
    T::schemas(&mut nested);
    if !is_ours(std::any::type_name::<T>()) {
        return (T::schema(), nested);
    }
    let name = T::name().into_owned();
    nested.push((name.clone(), T::schema()));
    (utoipa::openapi::Ref::from_schema_name(name).into(), nested)
}

/// A list of `T`, `T` named as in [`schema_of`].
fn list_of<T: utoipa::ToSchema>() -> (
    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    Vec<(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )>,
) {
    let (item, nested) = schema_of::<T>();
    (
        utoipa::openapi::schema::ArrayBuilder::new()
            .items(item)
            .into(),
        nested,
    )
}

/// Types of this workspace (not `Vec`, `Option` or `serde_json::Value`, which have no name of
/// their own).
fn is_ours(type_name: &str) -> bool {
    ["api::", "jobs::"]
        .iter()
        .any(|krate| type_name.starts_with(krate))
        && !type_name.contains('<')
}

/// Builds a router and the table of what it serves, from the same declarations.
pub struct Routes {
    router: Router<AppState>,
    table: Vec<RouteInfo>,
}

impl Routes {
    fn new() -> Self {
        Self {
            router: Router::new(),
            table: Vec::new(),
        }
    }

    fn add(
        mut self,
        method: Method,
        path: &'static str,
        access: Access,
        handler: MethodRouter<AppState>,
        extractors: &'static str,
    ) -> Self {
        self.router = self.router.route(path, handler);
        self.table.push(RouteInfo {
            method,
            path,
            access,
            body: None,
            body_content: "application/json",
            signed_by: None,
            query: None,
            extractors,
            returns: None,
        });
        self
    }

    fn get<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        let extractors = std::any::type_name::<T>();
        self.add(
            Method::GET,
            path,
            access,
            axum::routing::get(handler),
            extractors,
        )
    }

    fn post<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        let extractors = std::any::type_name::<T>();
        self.add(
            Method::POST,
            path,
            access,
            axum::routing::post(handler),
            extractors,
        )
    }

    fn put<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        let extractors = std::any::type_name::<T>();
        self.add(
            Method::PUT,
            path,
            access,
            axum::routing::put(handler),
            extractors,
        )
    }

    fn patch<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        let extractors = std::any::type_name::<T>();
        self.add(
            Method::PATCH,
            path,
            access,
            axum::routing::patch(handler),
            extractors,
        )
    }

    fn delete<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        handler: H,
    ) -> Self {
        let extractors = std::any::type_name::<T>();
        self.add(
            Method::DELETE,
            path,
            access,
            axum::routing::delete(handler),
            extractors,
        )
    }

    /// A POST that takes a file: its own body limit instead of [`BODY_LIMIT`].
    fn upload<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        access: Access,
        limit: usize,
        handler: H,
    ) -> Self {
        let route = axum::routing::post(handler).layer(DefaultBodyLimit::max(limit));
        self.add(
            Method::POST,
            path,
            access,
            route,
            std::any::type_name::<T>(),
        )
    }

    /// Declares the JSON body of the route added last (for the OpenAPI document).
    fn body<T: utoipa::ToSchema>(mut self) -> Self {
        if let Some(last) = self.table.last_mut() {
            last.body = Some(schema_of::<T>);
        }
        self
    }

    /// Declares a body that is not JSON (a form, a file) of the route added last: its content type
    /// and its schema (see `forms`).
    fn body_as(mut self, content_type: &'static str, schema: BodySchema) -> Self {
        if let Some(last) = self.table.last_mut() {
            last.body = Some(schema);
            last.body_content = content_type;
        }
        self
    }

    /// Declares the header with which a provider signs the calls of the route added last.
    fn signed_by(mut self, header: &'static str) -> Self {
        if let Some(last) = self.table.last_mut() {
            last.signed_by = Some(header);
        }
        self
    }

    fn answer(mut self, returns: Returns) -> Self {
        if let Some(last) = self.table.last_mut() {
            last.returns = Some(returns);
        }
        self
    }

    /// Declares the 200 JSON answer of the route added last (for the OpenAPI document).
    fn returns<T: utoipa::ToSchema>(self) -> Self {
        self.answer(Returns::json(200, schema_of::<T>))
    }

    /// Declares a 200 JSON list of `T`.
    fn returns_list<T: utoipa::ToSchema>(self) -> Self {
        self.answer(Returns::json(200, list_of::<T>))
    }

    /// Declares a JSON `T` with another success status (a 202 whose body is not `JobAccepted`).
    fn returns_status<T: utoipa::ToSchema>(self, status: u16) -> Self {
        self.answer(Returns::json(status, schema_of::<T>))
    }

    /// Declares a list page of `T` with its `X-Total-Count` as the route's answer.
    fn returns_page<T: utoipa::ToSchema>(self) -> Self {
        self.answer(Returns {
            page: true,
            ..Returns::json(200, schema_of::<T>)
        })
    }

    /// Declares a 201 with the created `T` as the route's answer.
    fn creates<T: utoipa::ToSchema>(self) -> Self {
        self.answer(Returns::json(201, schema_of::<T>))
    }

    /// Declares a 201 with the created `T`, or a 200 with it when it replaced one of the same key.
    fn creates_or_replaces<T: utoipa::ToSchema>(self) -> Self {
        self.answer(Returns {
            or_ok: true,
            ..Returns::json(201, schema_of::<T>)
        })
    }

    /// Declares the 202 of a route that enqueues a job (`enqueue::accepted`): `JobAccepted` and
    /// the job's `Location`.
    fn accepted(self) -> Self {
        self.answer(Returns {
            location: true,
            ..Returns::json(202, schema_of::<enqueue::JobAccepted>)
        })
    }

    /// As [`Self::accepted`] with a body of its own that names the job (`jobId`).
    fn accepted_with<T: utoipa::ToSchema>(self) -> Self {
        self.answer(Returns {
            location: true,
            ..Returns::json(202, schema_of::<T>)
        })
    }

    /// Declares a 200 that is a file of `content_type` (CSV, PDF, iCalendar, an image).
    fn returns_file(self, content_type: &'static str) -> Self {
        self.answer(Returns {
            status: 200,
            file: Some(content_type),
            ..Returns::default()
        })
    }

    /// Declares a redirect (`status` 302 or 303, `Location`) without a body.
    fn redirects(self, status: u16) -> Self {
        self.answer(Returns {
            status,
            location: true,
            ..Returns::default()
        })
    }

    /// Adds another success answer, `status` with a JSON `T`, to the one declared.
    fn also<T: utoipa::ToSchema>(mut self, status: u16) -> Self {
        if let Some(r) = self.table.last_mut().and_then(|r| r.returns.as_mut()) {
            r.also = Some((status, schema_of::<T>));
        }
        self
    }

    /// Marks the declared answer's errors as HTML pages (public pages a person opens).
    fn html_errors(mut self) -> Self {
        if let Some(r) = self.table.last_mut().and_then(|r| r.returns.as_mut()) {
            r.html_errors = true;
        }
        self
    }

    /// Declares a 204 without a body as the route's answer.
    fn no_content(self) -> Self {
        self.answer(Returns {
            status: 204,
            ..Returns::default()
        })
    }

    /// Declares the query parameters of the route added last (for the OpenAPI document).
    fn query<T: utoipa::IntoParams>(mut self) -> Self {
        if let Some(last) = self.table.last_mut() {
            last.query = Some(|| {
                validate::without_nul(T::into_params(|| {
                    Some(utoipa::openapi::path::ParameterIn::Query)
                }))
            });
        }
        self
    }

    fn merge(mut self, other: Routes) -> Self {
        self.router = self.router.merge(other.router);
        self.table.extend(other.table);
        self
    }
}

/// Every route of the API.
pub fn routes() -> Routes {
    Routes::new()
        .merge(health::routes())
        .merge(auth::routes())
        .merge(jobs_api::routes())
        .merge(ops::routes())
        .merge(activities::routes())
        .merge(companies::routes())
        .merge(contacts::routes())
        .merge(deals::routes())
        .merge(records::routes())
        .merge(notes::routes())
        .merge(merge::routes())
        .merge(search::routes())
        .merge(meetings::routes())
        .merge(calendar::routes())
        .merge(calendar_feed::routes())
        .merge(automation::routes())
        .merge(dashboard::routes())
        .merge(leads::routes())
        .merge(discovery::routes())
        .merge(scoring::routes())
        .merge(campaigns::routes())
        .merge(composer::routes())
        .merge(email::routes())
        .merge(tracking::routes())
        .merge(sequences::routes())
        .merge(outreach::routes())
        .merge(inbound::routes())
        .merge(mailboxes::routes())
        .merge(invoices::routes())
        .merge(voice::routes())
        .merge(ai::routes())
        .merge(users::routes())
        .merge(webhooks::routes())
        .merge(views::routes())
        .merge(openapi::routes())
}

/// The declared routes (for the access tests and the docs).
pub fn route_table() -> Vec<RouteInfo> {
    routes().table
}

#[derive(Clone, Default)]
struct UlidRequestId;

impl MakeRequestId for UlidRequestId {
    fn make_request_id<B>(&mut self, _: &axum::http::Request<B>) -> Option<RequestId> {
        axum::http::HeaderValue::from_str(&ulid::Ulid::new().to_string())
            .ok()
            .map(RequestId::new)
    }
}

pub fn app(state: AppState) -> Router {
    let request_id = HeaderName::from_static("x-request-id");
    routes()
        .router
        .fallback(web::fallback)
        .method_not_allowed_fallback(|| async {
            ApiError::Status(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed".into())
        })
        .layer(middleware::from_fn(writes::apart))
        .layer(middleware::from_fn_with_state(state.clone(), cache::bump_on_write))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            csrf::refuse_cross_site,
        ))
        .layer(middleware::from_fn(extract::reject_nul))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn(record_http_metrics))
        .layer(CatchPanicLayer::custom(|_| {
            ApiError::Internal(anyhow::anyhow!("handler panicked")).into_response()
        }))
        .layer(PropagateRequestIdLayer::new(request_id.clone()))
        .layer(
            TraceLayer::new_for_http().make_span_with(|req: &Request| {
                let id = req
                    .headers()
                    .get("x-request-id")
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("-");
                tracing::info_span!("http", method = %req.method(), path = %req.uri().path(), request_id = %id)
            }),
        )
        .layer(SetRequestIdLayer::new(request_id, UlidRequestId))
        .with_state(state)
}

async fn record_http_metrics(req: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = req.method().to_string();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_else(|| "unmatched".into());
    let res = next.run(req).await;
    metrics::histogram!(
        "prospector_http_request_duration_seconds",
        "method" => method,
        "route" => route,
        "status" => res.status().as_u16().to_string()
    )
    .record(started.elapsed().as_secs_f64());
    res
}

/// Serves until `shutdown` fires; in-flight requests finish first.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let app = app(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await
}

/// `/metrics` alone, for a worker or scheduler process (`METRICS_PORT`): what it records (job run
/// times, email and SMS outcomes) is only in its own memory. Queue depths come from the api's.
pub async fn serve_metrics(
    listener: tokio::net::TcpListener,
    handle: metrics_exporter_prometheus::PrometheusHandle,
    token: Option<jobs::config::Secret<String>>,
    shutdown: CancellationToken,
) -> std::io::Result<()> {
    let app = Router::new().route(
        "/metrics",
        axum::routing::get(move |headers: axum::http::HeaderMap| {
            let handle = handle.clone();
            let refused = health::metrics_refused(&headers, token.as_ref());
            async move {
                if let Some(refused) = refused {
                    return refused;
                }
                (
                    [(
                        axum::http::header::CONTENT_TYPE,
                        "text/plain; version=0.0.4",
                    )],
                    handle.render(),
                )
                    .into_response()
            }
        }),
    );
    axum::serve(listener, app)
        .with_graceful_shutdown(async move { shutdown.cancelled().await })
        .await
}

/// Session lifetime.
pub const SESSION_TTL: Duration = Duration::from_secs(14 * 24 * 3600);
