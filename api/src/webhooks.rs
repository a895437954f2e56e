//! The admin's Webhooks screen (issue 24 §4, docs/webhooks.md): endpoints (list, create, change,
//! delete, rotate the secret), a test event, an endpoint's deliveries with their attempts, and
//! redelivery. The secret is shown once, when made; stored sealed. Every change writes an audit
//! row in its transaction. Errors are `ApiError`: field errors 422 `{message, errors}`, an unknown
//! endpoint or delivery 404, a state that forbids the action 409.

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use jobs::db::{
    AuditInsert, Tx, WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow,
    WebhookEndpointWrite, event_body,
};
use jobs::domain::webhooks::{
    self as rules, EVENT_TYPES, MAX_DESCRIPTION_CHARS, MAX_ENDPOINTS, MAX_URL_CHARS, TEST_EVENT,
};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::extract::{AdminUser, Json, Path, Query};
use crate::list::{paging, with_total};
use crate::validate::{Body, Field, Fields, Text};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/admin/webhooks", Access::Admin, endpoint_list)
        .returns_list::<EndpointView>()
        .post("/api/admin/webhooks", Access::Admin, endpoint_create)
        .body::<CreateBody>()
        .creates::<WithSecret>()
        .get(
            "/api/admin/webhooks/event-types",
            Access::Admin,
            event_types,
        )
        .returns_list::<EventTypeView>()
        .get("/api/admin/webhooks/{id}", Access::Admin, endpoint_get)
        .returns::<EndpointView>()
        .patch("/api/admin/webhooks/{id}", Access::Admin, endpoint_update)
        .body::<UpdateBody>()
        .returns::<EndpointView>()
        .delete("/api/admin/webhooks/{id}", Access::Admin, endpoint_delete)
        .no_content()
        .post(
            "/api/admin/webhooks/{id}/rotate-secret",
            Access::Admin,
            secret_rotate,
        )
        .returns::<WithSecret>()
        .post("/api/admin/webhooks/{id}/test", Access::Admin, send_test)
        .accepted_with::<DeliveryAccepted>()
        .get(
            "/api/admin/webhooks/{id}/deliveries",
            Access::Admin,
            delivery_list,
        )
        .query::<DeliveryQuery>()
        .returns_page::<DeliveryView>()
        .post(
            "/api/admin/webhooks/{id}/deliveries/{delivery_id}/redeliver",
            Access::Admin,
            redeliver,
        )
        .accepted_with::<DeliveryAccepted>()
}

const NOT_FOUND: &str = "Webhook endpoint not found";
const DELIVERY_NOT_FOUND: &str = "Delivery not found";
const DISABLED: &str = "This endpoint is disabled: enable it first";

/// An endpoint as the screen shows it (never its secret).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = WebhookEndpoint)]
struct EndpointView {
    id: String,
    url: String,
    description: Option<String>,
    event_types: Vec<String>,
    enabled: bool,
    /// Why it is disabled (by an admin, after a run of failures, or a 410 Gone).
    disabled_reason: Option<String>,
    disabled_at: Option<String>,
    /// Deliveries in a row that failed all their attempts; at 5 the endpoint is disabled.
    failure_streak: i32,
    created_at: String,
    updated_at: String,
}

impl From<&WebhookEndpointRow> for EndpointView {
    fn from(e: &WebhookEndpointRow) -> Self {
        Self {
            id: e.id.clone(),
            url: e.url.clone(),
            description: e.description.clone(),
            event_types: e.events(),
            enabled: e.enabled,
            disabled_reason: e.disabled_reason.clone(),
            disabled_at: e.disabled_at.map(to_rfc3339),
            failure_streak: e.failure_streak,
            created_at: to_rfc3339(e.created_at),
            updated_at: to_rfc3339(e.updated_at),
        }
    }
}

/// An endpoint with its signing secret: the answer of create and rotate, the only ones that show it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = WebhookEndpointWithSecret)]
struct WithSecret {
    #[serde(flatten)]
    endpoint: EndpointView,
    secret: String,
}

async fn endpoint_list(
    State(state): State<AppState>,
    _: AdminUser,
) -> ApiResult<axum::Json<Vec<EndpointView>>> {
    let rows = state.queue.db.webhook_endpoint_list().await?;
    Ok(axum::Json(rows.iter().map(EndpointView::from).collect()))
}

async fn endpoint_get(
    State(state): State<AppState>,
    _: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<Json<EndpointView>> {
    let row = state
        .queue
        .db
        .webhook_endpoint_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    Ok(Json(EndpointView::from(&row)))
}

/// An event an endpoint may subscribe to, with the screen's label and group.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = WebhookEventType)]
struct EventTypeView {
    /// The event's name, e.g. `contact.created`.
    #[serde(rename = "type")]
    name: &'static str,
    label: &'static str,
    group: &'static str,
}

/// The events an endpoint may subscribe to, in the catalogue's order.
async fn event_types(_: AdminUser) -> Json<Vec<EventTypeView>> {
    Json(
        EVENT_TYPES
            .iter()
            .map(|e| EventTypeView {
                name: e.name,
                label: e.label,
                group: e.group,
            })
            .collect(),
    )
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreateBody {
    /// `https://…` (plain http and private addresses only with `WEBHOOK_ALLOW_PRIVATE=true`),
    /// at most 2,000 characters.
    #[serde(default)]
    #[schema(required = true, schema_with = url_schema)]
    url: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = description_schema)]
    description: Field<Text>,
    /// One or more of `GET /api/admin/webhooks/event-types`.
    #[serde(default)]
    #[schema(required = true, schema_with = event_types_schema)]
    event_types: Field<Vec<Value>>,
    /// Default `true`.
    #[serde(default)]
    #[schema(value_type = bool)]
    enabled: Field<bool>,
}

/// The fields to change; absent ones stay as they are. `enabled: true` re-enables a disabled
/// endpoint (its failure streak starts again at 0).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct UpdateBody {
    /// As when created: a URL that is given may not be `null` or blank.
    #[serde(default)]
    #[schema(schema_with = url_schema)]
    url: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = description_schema)]
    description: Field<Text>,
    /// One or more of `GET /api/admin/webhooks/event-types`.
    #[serde(default)]
    #[schema(schema_with = event_types_schema)]
    event_types: Field<Vec<Value>>,
    #[serde(default)]
    #[schema(value_type = bool)]
    enabled: Field<bool>,
}

/// A label of a host name: letters and digits (`url::Url` takes any of them as a name).
const HOST_LABEL: &str = "[a-z0-9]{1,30}";

/// URLs `rules::url_problem` takes whatever `WEBHOOK_ALLOW_PRIVATE` says: `https://`, a dotted
/// host name whose last label starts with a letter and has at most 8 letters or digits (never an
/// address, never `localhost` or a name under it; `*` may follow), then anything but `#` after a
/// `/` or `?` (`url::Url` escapes it); at most [`MAX_URL_CHARS`], spaces or tabs around them.
fn url_schema() -> utoipa::openapi::ObjectBuilder {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .pattern(Some(format!(
            r"^[ \t]*https://({HOST_LABEL}\.){{1,3}}[a-z][a-z0-9]{{1,7}}\**([/?][^#\x00]*)?[ \t]*$"
        )))
        .max_length(Some(MAX_URL_CHARS))
}

/// At most [`MAX_DESCRIPTION_CHARS`] once trimmed; `null` or blank is none.
fn description_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::text_or_null().max_length(Some(MAX_DESCRIPTION_CHARS))
}

/// At least one name of [`EVENT_TYPES`] (a repeated one counts once).
fn event_types_schema() -> utoipa::openapi::schema::ArrayBuilder {
    let names: Vec<&str> = EVENT_TYPES.iter().map(|e| e.name).collect();
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(crate::validate::one_of(&names))
        .min_items(Some(1))
}

/// The URL: absent → `None`; else checked (required when `required`).
fn read_url(
    f: &mut Fields,
    field: &Field<Text>,
    required: bool,
    allow_private: bool,
) -> Option<String> {
    match f.text("url", field) {
        None if !required => None,
        None | Some(None) => {
            f.error("url", "URL is required");
            None
        }
        Some(Some(url)) => {
            if let Some(problem) = rules::url_problem(&url, allow_private) {
                f.error("url", problem);
            }
            Some(url)
        }
    }
}

/// The description: absent → `None`; null or blank → `Some(None)`.
fn read_description(f: &mut Fields, field: &Field<Text>) -> Option<Option<String>> {
    let text = f.text("description", field);
    if let Some(Some(d)) = &text
        && d.chars().count() > MAX_DESCRIPTION_CHARS
    {
        f.error(
            "description",
            format!("Description must be at most {MAX_DESCRIPTION_CHARS} characters"),
        );
    }
    text
}

/// The event types, once each in the catalogue's order: absent → `None`.
fn read_event_types(
    f: &mut Fields,
    field: &Field<Vec<Value>>,
    required: bool,
) -> Option<Vec<String>> {
    let list = match field {
        Field::Absent if !required => return None,
        Field::Absent | Field::Null => {
            f.error("eventTypes", "Choose at least one event");
            return None;
        }
        Field::Wrong => {
            f.error("eventTypes", "eventTypes must be a list of event names");
            return None;
        }
        Field::Value(list) => list,
    };
    let mut names = Vec::new();
    for item in list {
        match item.as_str() {
            Some(name) if rules::is_event_type(name) => names.push(name),
            _ => {
                f.error("eventTypes", rules::event_types_message());
                return None;
            }
        }
    }
    if names.is_empty() {
        f.error("eventTypes", "Choose at least one event");
        return None;
    }
    Some(
        EVENT_TYPES
            .iter()
            .filter(|e| names.contains(&e.name))
            .map(|e| e.name.to_string())
            .collect(),
    )
}

fn read_enabled(f: &mut Fields, field: &Field<bool>) -> Option<bool> {
    match field {
        Field::Absent => None,
        Field::Value(b) => Some(*b),
        Field::Null | Field::Wrong => {
            f.error("enabled", "enabled must be true or false");
            None
        }
    }
}

async fn audit(
    tx: &mut Tx,
    admin: &AdminUser,
    action: &str,
    endpoint_id: &str,
    detail: Value,
) -> ApiResult<()> {
    tx.audit_insert(&AuditInsert {
        id: &jobs::domain::new_id(),
        actor_id: Some(&admin.0.user.id),
        actor_email: Some(&admin.0.user.email),
        action,
        target: Some(endpoint_id),
        detail: Some(&detail),
        created_at: now_ms(),
    })
    .await?;
    Ok(())
}

async fn endpoint_create(
    State(state): State<AppState>,
    admin: AdminUser,
    Body(body): Body<CreateBody>,
) -> ApiResult<Response> {
    let webhooks = state.queue.providers.webhooks.clone();
    let mut f = Fields::default();
    let url = read_url(&mut f, &body.url, true, webhooks.allow_private());
    let description = read_description(&mut f, &body.description).flatten();
    let event_types = read_event_types(&mut f, &body.event_types, true);
    let enabled = read_enabled(&mut f, &body.enabled).unwrap_or(true);
    f.finish()?;
    let (Some(url), Some(event_types)) = (url, event_types) else {
        return Err(ApiError::unprocessable("URL and events are required"));
    };
    let db = &state.queue.db;
    if db.webhook_endpoint_count().await? >= MAX_ENDPOINTS {
        return Err(ApiError::conflict(format!(
            "At most {MAX_ENDPOINTS} webhook endpoints: delete one first"
        )));
    }
    let id = jobs::domain::new_id();
    let secret = rules::new_secret();
    let now = now_ms();
    let write = WebhookEndpointWrite {
        id: &id,
        url: &url,
        description: description.as_deref(),
        event_types: &event_types,
        enabled,
        disabled_reason: None,
        disabled_at: None,
        failure_streak: 0,
        now,
    };
    let mut tx = db.begin().await?;
    tx.webhook_endpoint_insert(
        &write,
        &webhooks.sealer.seal(&secret, &id),
        Some(&admin.0.user.id),
    )
    .await?;
    let detail = json!({ "url": url, "eventTypes": event_types });
    audit(&mut tx, &admin, "webhook.create", &id, detail).await?;
    tx.commit().await?;
    let row = db
        .webhook_endpoint_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    let view = WithSecret {
        endpoint: EndpointView::from(&row),
        secret,
    };
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

async fn endpoint_update(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    Body(body): Body<UpdateBody>,
) -> ApiResult<Json<EndpointView>> {
    let allow_private = state.queue.providers.webhooks.allow_private();
    let mut f = Fields::default();
    let url = read_url(&mut f, &body.url, false, allow_private);
    let description = read_description(&mut f, &body.description);
    let event_types = read_event_types(&mut f, &body.event_types, false);
    let enabled = read_enabled(&mut f, &body.enabled);
    f.finish()?;
    let db = &state.queue.db;
    let mut tx = db.begin().await?;
    let row = tx
        .webhook_endpoint_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    let now = now_ms();
    let events = event_types.unwrap_or_else(|| row.events());
    let url = url.unwrap_or_else(|| row.url.clone());
    let description = description.unwrap_or_else(|| row.description.clone());
    let enabled_now = enabled.unwrap_or(row.enabled);
    let (reason, disabled_at, streak) = match (row.enabled, enabled_now) {
        (true, false) => (
            Some(format!("Disabled by {}", admin.0.user.email)),
            Some(now),
            row.failure_streak,
        ),
        // Enabled again: the failures that disabled it are behind it.
        (false, true) => (None, None, 0),
        _ => (
            row.disabled_reason.clone(),
            row.disabled_at,
            row.failure_streak,
        ),
    };
    tx.webhook_endpoint_update(&WebhookEndpointWrite {
        id: &id,
        url: &url,
        description: description.as_deref(),
        event_types: &events,
        enabled: enabled_now,
        disabled_reason: reason.as_deref(),
        disabled_at,
        failure_streak: streak,
        now,
    })
    .await?;
    let action = match (row.enabled, enabled_now) {
        (true, false) => "webhook.disable",
        (false, true) => "webhook.enable",
        _ => "webhook.update",
    };
    let detail = json!({ "url": url, "eventTypes": events, "enabled": enabled_now });
    audit(&mut tx, &admin, action, &id, detail).await?;
    tx.commit().await?;
    let row = db
        .webhook_endpoint_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    Ok(Json(EndpointView::from(&row)))
}

async fn endpoint_delete(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let mut tx = state.queue.db.begin().await?;
    let row = tx
        .webhook_endpoint_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    tx.webhook_endpoint_delete(&id).await?;
    audit(
        &mut tx,
        &admin,
        "webhook.delete",
        &id,
        json!({ "url": row.url }),
    )
    .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// A new secret, at once: the old one no longer signs (the receiver needs the new one).
async fn secret_rotate(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<Json<WithSecret>> {
    let webhooks = state.queue.providers.webhooks.clone();
    let db = &state.queue.db;
    let secret = rules::new_secret();
    let mut tx = db.begin().await?;
    tx.webhook_endpoint_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    tx.webhook_endpoint_set_secret(&id, &webhooks.sealer.seal(&secret, &id), now_ms())
        .await?;
    audit(&mut tx, &admin, "webhook.rotate_secret", &id, json!({})).await?;
    tx.commit().await?;
    let row = db
        .webhook_endpoint_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    Ok(Json(WithSecret {
        endpoint: EndpointView::from(&row),
        secret,
    }))
}

/// The job that sends a delivery, and the delivery.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = WebhookDeliveryAccepted)]
struct DeliveryAccepted {
    job_id: String,
    /// The job's state when it was answered.
    status: String,
    delivery_id: String,
}

/// `202` with the job that sends the delivery.
fn accepted(job_id: &str, status: &str, delivery_id: &str) -> Response {
    (
        StatusCode::ACCEPTED,
        [(header::LOCATION, format!("/api/jobs/{job_id}"))],
        axum::Json(DeliveryAccepted {
            job_id: job_id.to_string(),
            status: status.to_string(),
            delivery_id: delivery_id.to_string(),
        }),
    )
        .into_response()
}

/// The delivery's job, enqueued in `jtx`.
async fn delivery_job(
    jtx: &mut jobs::queue::JobTx,
    delivery_id: &str,
) -> ApiResult<jobs::db::Inserted> {
    let job = crate::enqueue::job(&jobs::kinds::WebhookDeliver {
        delivery_id: delivery_id.to_string(),
    })?;
    Ok(jtx.enqueue(job).await?)
}

/// Sends a `webhook.test` event to the endpoint, whatever it subscribes to.
async fn send_test(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let mut jtx = state.queue.begin().await?;
    let row = jtx
        .tx()
        .webhook_endpoint_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    if !row.enabled {
        return Err(ApiError::conflict(DISABLED));
    }
    let now = now_ms();
    let delivery_id = rules::new_message_id();
    let data = json!({
        "endpointId": id,
        "message": "A test event from Prospector: this endpoint receives and can verify webhooks.",
    });
    let job = delivery_job(&mut jtx, &delivery_id).await?;
    let tx = jtx.tx();
    tx.webhook_delivery_insert(
        &delivery_id,
        &id,
        TEST_EVENT,
        &event_body(TEST_EVENT, now, &data),
        &job.id,
        now,
    )
    .await?;
    audit(
        tx,
        &admin,
        "webhook.test",
        &id,
        json!({ "deliveryId": delivery_id }),
    )
    .await?;
    jtx.commit().await?;
    Ok(accepted(&job.id, &job.status, &delivery_id))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct DeliveryQuery {
    /// `pending`, `delivered` or `failed`.
    #[param(schema_with = delivery_status_filter_schema)]
    status: Option<String>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = WebhookAttempt)]
struct AttemptView {
    id: String,
    attempted_at: String,
    duration_ms: i64,
    status_code: Option<i32>,
    error: Option<String>,
    /// The first 4 KB of the receiver's answer.
    response: Option<String>,
}

impl From<WebhookAttemptRow> for AttemptView {
    fn from(a: WebhookAttemptRow) -> Self {
        Self {
            id: a.id,
            attempted_at: to_rfc3339(a.attempted_at),
            duration_ms: a.duration_ms,
            status_code: a.status_code,
            error: a.error,
            response: a.response,
        }
    }
}

/// What a delivery can be: waiting for an attempt, done, or given up on.
const DELIVERY_STATUSES: [&str; 3] = ["pending", "delivered", "failed"];

fn delivery_status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&DELIVERY_STATUSES)
}

/// [`DELIVERY_STATUSES`], or `""` (read as absent).
fn delivery_status_filter_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&DELIVERY_STATUSES)
        .description(Some("`pending`, `delivered` or `failed`."))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = WebhookDelivery)]
struct DeliveryView {
    /// Also its `webhook-id`, the same on every attempt and redelivery.
    id: String,
    event_type: String,
    /// `pending`, `delivered` or `failed`.
    #[schema(schema_with = delivery_status_schema)]
    status: String,
    /// The body every attempt sends.
    payload: Value,
    job_id: Option<String>,
    /// When a pending delivery's next attempt is due.
    next_attempt_at: Option<String>,
    last_status_code: Option<i32>,
    last_error: Option<String>,
    created_at: String,
    finished_at: Option<String>,
    /// Oldest first.
    attempts: Vec<AttemptView>,
}

impl DeliveryView {
    fn new(d: WebhookDeliveryRow, attempts: Vec<AttemptView>) -> Self {
        let status = d.effective_status().to_string();
        Self {
            payload: serde_json::from_str(&d.body).unwrap_or(Value::Null),
            next_attempt_at: d.job_run_at.filter(|_| status == "pending").map(to_rfc3339),
            created_at: to_rfc3339(d.created_at),
            finished_at: d.finished_at.map(to_rfc3339),
            id: d.id,
            event_type: d.event_type,
            status,
            job_id: d.job_id,
            last_status_code: d.last_status_code,
            last_error: d.last_error,
            attempts,
        }
    }
}

async fn delivery_list(
    State(state): State<AppState>,
    _: AdminUser,
    Path(id): Path<String>,
    Query(q): Query<DeliveryQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let status = jobs::domain::non_empty(q.status.as_deref());
    if let Some(s) = &status
        && !DELIVERY_STATUSES.contains(&s.as_str())
    {
        return Err(crate::validate::field_error(
            "status",
            jobs::domain::one_of_message("status", &DELIVERY_STATUSES),
        ));
    }
    let db = &state.queue.db;
    if db.webhook_endpoint_get(&id).await?.is_none() {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    let (rows, total) = db
        .webhook_delivery_page(&id, status.as_deref(), limit, offset)
        .await?;
    let ids: Vec<String> = rows.iter().map(|d| d.id.clone()).collect();
    let mut attempts = db.webhook_attempts_of(&ids).await?;
    let items: Vec<DeliveryView> = rows
        .into_iter()
        .map(|d| {
            let (mine, rest) = attempts
                .drain(..)
                .partition::<Vec<_>, _>(|a| a.delivery_id == d.id);
            attempts = rest;
            DeliveryView::new(d, mine.into_iter().map(AttemptView::from).collect())
        })
        .collect();
    Ok(with_total(items, total))
}

/// Sends a finished delivery again: a new job for the same delivery, so the same `webhook-id`
/// and body (the receiver can tell it is the same event).
async fn redeliver(
    State(state): State<AppState>,
    admin: AdminUser,
    Path((id, delivery_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    let mut jtx = state.queue.begin().await?;
    let tx = jtx.tx();
    let endpoint = tx
        .webhook_endpoint_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    let delivery = tx
        .webhook_delivery_get(&delivery_id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found(DELIVERY_NOT_FOUND))?;
    if !endpoint.enabled {
        return Err(ApiError::conflict(DISABLED));
    }
    if delivery.effective_status() == "pending" {
        return Err(ApiError::conflict(
            "This delivery is still being sent: wait for its attempts to end",
        ));
    }
    let job = delivery_job(&mut jtx, &delivery_id).await?;
    let tx = jtx.tx();
    tx.webhook_delivery_requeue(&delivery_id, &job.id).await?;
    audit(
        tx,
        &admin,
        "webhook.redeliver",
        &id,
        json!({ "deliveryId": delivery_id }),
    )
    .await?;
    jtx.commit().await?;
    Ok(accepted(&job.id, &job.status, &delivery_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_types_are_known_once_each_in_catalogue_order() {
        let mut f = Fields::default();
        let list = Field::Value(vec![
            json!("job.failed"),
            json!("contact.created"),
            json!("job.failed"),
        ]);
        assert_eq!(
            read_event_types(&mut f, &list, true),
            Some(vec![
                "contact.created".to_string(),
                "job.failed".to_string()
            ])
        );
        assert!(f.finish().is_ok());
        for bad in [
            Field::Value(vec![json!("contact.deleted")]),
            Field::Value(vec![]),
            Field::Value(vec![json!(3)]),
            Field::Wrong,
            Field::Null,
        ] {
            let mut f = Fields::default();
            assert_eq!(read_event_types(&mut f, &bad, true), None);
            assert!(f.finish().is_err());
        }
        let mut f = Fields::default();
        assert_eq!(read_event_types(&mut f, &Field::Absent, false), None);
        assert!(f.finish().is_ok());
    }

    #[test]
    fn the_url_pattern_takes_only_urls_the_rules_take() {
        let pattern = url_schema().build().pattern.unwrap_or_default();
        let re = regex::Regex::new(&pattern).unwrap_or_else(|e| panic!("{e}"));
        for url in [
            "https://example.com",
            " https://hooks.example.com/a/b.c/_~- ",
            "https://0.1.aa/",
            "https://a.localhos",
            "https://localhost.example.org//",
            "https://abcdefghijklmnopqrstuvwxyz0123.b.c.a1234567/..",
            "https://a.bb**",
            "https://a.bb/x y\t\n%zz*",
            "https://a.bb?q=1&r=[]",
        ] {
            assert!(re.is_match(url), "{url}");
            for allow_private in [false, true] {
                assert_eq!(rules::url_problem(url.trim(), allow_private), None, "{url}");
            }
        }
        for url in [
            "https://localhost",
            "https://a.localhost",
            "https://127.0.0.1",
            "http://example.com",
            "https://example.com#x",
            "https://user@example.com",
            "https://a.bb *",
            "https://a.1",
        ] {
            assert!(!re.is_match(url), "{url}");
        }
    }
}
