//! `/api/ops/*`: what ops need to see, retry and cancel any job. Admin only; every action is
//! written to the audit log (in the same transaction as its job, where it makes one).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, Utc};
use jobs::db::{AuditInsert, CancelOutcome, JobBulk, JobList};
use jobs::queue::{JobView, NewJob, STATUSES};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::enqueue::accepted;
use crate::error::{ApiError, ApiResult};
use crate::extract::{AdminUser, Json, Path, Query};
use crate::list::{paging, with_total};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/ops/queues", Access::Admin, queues)
        .returns_list::<QueueStats>()
        .get("/api/ops/jobs", Access::Admin, job_list)
        .query::<ListQuery>()
        .returns_page::<JobView>()
        .post("/api/ops/jobs", Access::Admin, job_create)
        .body::<CreateJob>()
        .accepted()
        .get("/api/ops/jobs/{id}", Access::Admin, job_detail)
        .returns::<JobDetail>()
        .post("/api/ops/jobs/{id}/retry", Access::Admin, job_retry)
        .accepted()
        .post("/api/ops/jobs/{id}/cancel", Access::Admin, job_cancel)
        .returns::<JobView>()
        .post("/api/ops/jobs/{id}/run-now", Access::Admin, job_run_now)
        .returns::<JobView>()
        .delete("/api/ops/jobs/{id}", Access::Admin, job_delete)
        .no_content()
        .post("/api/ops/jobs/bulk", Access::Admin, jobs_bulk)
        .body::<JobBulkInput>()
        .returns::<BulkDone>()
        .post("/api/ops/kinds/{kind}/pause", Access::Admin, kind_pause)
        .returns::<KindPaused>()
        .post("/api/ops/kinds/{kind}/resume", Access::Admin, kind_resume)
        .returns::<KindPaused>()
        .get("/api/ops/history", Access::Admin, history)
        .query::<HistoryQuery>()
        .returns::<History>()
        .get("/api/ops/workers", Access::Admin, workers)
        .returns_list::<WorkerView>()
        .get("/api/ops/audit", Access::Admin, audit)
        .query::<AuditQuery>()
        .returns_list::<AuditView>()
}

#[derive(Debug, Serialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = QueueStatsView)]
struct QueueStats {
    kind: String,
    /// Paused by ops: its jobs wait.
    paused: bool,
    queued: i64,
    scheduled: i64,
    running: i64,
    retrying: i64,
    succeeded: i64,
    failed: i64,
    cancelled: i64,
    oldest_queued_age_seconds: Option<f64>,
    /// Jobs finished per minute, over the last 5 minutes.
    throughput_per_minute: f64,
    /// Run times of jobs finished in the last hour.
    p50_run_ms: Option<i64>,
    p95_run_ms: Option<i64>,
}

fn percentile(sorted: &[i64], p: f64) -> Option<i64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

async fn queues(
    State(state): State<AppState>,
    _: AdminUser,
) -> ApiResult<axum::Json<Vec<QueueStats>>> {
    let db = &state.queue.db;
    let now = now_ms();
    let counts = db.job_counts().await?;
    let oldest = db.job_oldest_ready(now).await?;
    let finished = db.job_finished_since(now - 3_600_000).await?;
    let paused = db.kinds_paused().await?;
    let mut out = Vec::new();
    for kind in state.queue.registry.kinds() {
        let mut s = QueueStats {
            kind: kind.to_string(),
            paused: paused.iter().any(|p| p == kind),
            ..Default::default()
        };
        for (_, status, n) in counts.iter().filter(|(k, _, _)| k == kind) {
            let slot = match status.as_str() {
                "queued" => &mut s.queued,
                "scheduled" => &mut s.scheduled,
                "running" => &mut s.running,
                "retrying" => &mut s.retrying,
                "succeeded" => &mut s.succeeded,
                "failed" => &mut s.failed,
                "cancelled" => &mut s.cancelled,
                _ => continue,
            };
            *slot = *n;
        }
        s.oldest_queued_age_seconds = oldest
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, at)| (now - at) as f64 / 1000.0);
        let mine: Vec<_> = finished.iter().filter(|f| f.kind == kind).collect();
        let recent = mine
            .iter()
            .filter(|f| f.finished_at >= now - 300_000)
            .count();
        s.throughput_per_minute = recent as f64 / 5.0;
        let mut runs: Vec<i64> = mine
            .iter()
            .filter(|f| f.status == "succeeded" || f.status == "failed")
            .filter_map(|f| f.started_at.map(|st| f.finished_at - st))
            .collect();
        runs.sort_unstable();
        s.p50_run_ms = percentile(&runs, 0.50);
        s.p95_run_ms = percentile(&runs, 0.95);
        out.push(s);
    }
    Ok(axum::Json(out))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct HistoryQuery {
    /// 1–1440 (default 60).
    #[param(minimum = 1, maximum = 1440)]
    minutes: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = JobHistoryBucket)]
struct HistoryBucket {
    at: String,
    kind: String,
    succeeded: i64,
    failed: i64,
    cancelled: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = JobHistory)]
struct History {
    bucket_seconds: i64,
    from: String,
    until: String,
    /// Only buckets in which a job of the kind finished, oldest first.
    buckets: Vec<HistoryBucket>,
}

/// Charts of the last `minutes` (default 60, at most a day): jobs finished per kind and outcome.
async fn history(
    State(state): State<AppState>,
    _: AdminUser,
    Query(q): Query<HistoryQuery>,
) -> ApiResult<axum::Json<History>> {
    let minutes = q.minutes.unwrap_or(60);
    if !(1..=1440).contains(&minutes) {
        return Err(ApiError::bad_request("minutes must be between 1 and 1440"));
    }
    // At most 120 points per kind: one-minute buckets up to two hours, wider beyond.
    let bucket_ms = 60_000 * ((minutes + 119) / 120);
    let now = now_ms();
    let from = (now - minutes * 60_000) / bucket_ms * bucket_ms;
    let rows = state.queue.db.job_finished_buckets(from, bucket_ms).await?;
    let mut merged: BTreeMap<(i64, String), HistoryBucket> = BTreeMap::new();
    for r in rows {
        let b = merged
            .entry((r.bucket, r.kind.clone()))
            .or_insert_with(|| HistoryBucket {
                at: to_rfc3339(r.bucket),
                kind: r.kind,
                succeeded: 0,
                failed: 0,
                cancelled: 0,
            });
        match r.status.as_str() {
            "succeeded" => b.succeeded += r.count,
            "failed" => b.failed += r.count,
            "cancelled" => b.cancelled += r.count,
            _ => {}
        }
    }
    Ok(axum::Json(History {
        bucket_seconds: bucket_ms / 1000,
        from: to_rfc3339(from),
        until: to_rfc3339(now),
        buckets: merged.into_values().collect(),
    }))
}

/// The job statuses ([`STATUSES`]), or `""` (read as absent).
fn job_status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&STATUSES).description(Some("One of the job statuses."))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct ListQuery {
    kind: Option<String>,
    /// One of the job statuses (`queued`, `running`, `failed`…).
    #[param(schema_with = job_status_schema)]
    status: Option<String>,
    /// Text in the payload or the error.
    q: Option<String>,
    /// Created at or after (RFC 3339).
    from: Option<DateTime<Utc>>,
    /// Created before (RFC 3339).
    until: Option<DateTime<Utc>>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

async fn job_list(
    State(state): State<AppState>,
    _: AdminUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let status = q.status.filter(|s| !s.is_empty());
    if let Some(s) = &status
        && !STATUSES.contains(&s.as_str())
    {
        return Err(ApiError::bad_request(format!(
            "status must be one of {}",
            STATUSES.join(", ")
        )));
    }
    let kind = q.kind.filter(|k| !k.is_empty());
    let text =
        q.q.as_deref()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(jobs::domain::like_pattern);
    let (rows, total) = state
        .queue
        .db
        .job_list(&JobList {
            kind: kind.as_deref(),
            status: status.as_deref(),
            text: text.as_deref(),
            from: q.from.map(|t| t.timestamp_millis()),
            until: q.until.map(|t| t.timestamp_millis()),
            limit,
            offset,
        })
        .await?;
    let jobs: Vec<JobView> = rows.into_iter().map(JobView::from).collect();
    Ok(with_total(jobs, total))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateJob {
    /// A job kind this build runs.
    #[schema(schema_with = kind_schema)]
    kind: String,
    /// The kind's payload (default `{}`), checked as that kind reads it.
    #[serde(default)]
    payload: Option<Value>,
    /// 1–200 bytes: a second job with the same key is not made (the first one is answered).
    #[schema(schema_with = idempotency_key_schema)]
    idempotency_key: Option<String>,
    run_at: Option<DateTime<Utc>>,
}

/// The kinds of [`jobs::kinds::registry`], the queue's (`Queue::spec` refuses any other).
fn kind_names() -> Vec<&'static str> {
    jobs::kinds::registry().kinds().collect()
}

fn kind_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&kind_names())
}

/// 1–200 characters: the check counts bytes, which this document cannot (a key of more than 200
/// bytes in at most 200 characters is refused).
/// An idempotency key's longest, in characters as the document counts them (not bytes).
const IDEMPOTENCY_KEY_MAX: usize = 200;

fn idempotency_key_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::{Type, schema::SchemaType};
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .min_length(Some(1))
        .max_length(Some(IDEMPOTENCY_KEY_MAX))
}

async fn job_create(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Json(body): Json<CreateJob>,
) -> ApiResult<Response> {
    let mut errors = BTreeMap::new();
    if body.kind.trim().is_empty() {
        errors.insert("kind".to_string(), "kind is required".to_string());
    }
    if let Some(key) = &body.idempotency_key
        && (key.is_empty() || key.chars().count() > IDEMPOTENCY_KEY_MAX)
    {
        errors.insert(
            "idempotencyKey".to_string(),
            format!("idempotencyKey must be 1 to {IDEMPOTENCY_KEY_MAX} characters"),
        );
    }
    if !errors.is_empty() {
        return Err(ApiError::fields("Invalid job", errors));
    }
    let mut job = NewJob::new(body.kind.trim(), body.payload.unwrap_or_else(|| json!({})));
    job.idempotency_key = body.idempotency_key;
    job.run_at = body.run_at;
    let mut tx = state.queue.begin().await?;
    let inserted = tx.enqueue(job.clone()).await?;
    if inserted.created {
        let detail = json!({ "kind": job.kind, "idempotencyKey": job.idempotency_key });
        tx.tx()
            .audit_insert(&AuditInsert {
                id: &ulid::Ulid::new().to_string(),
                actor_id: Some(&admin.user.id),
                actor_email: Some(&admin.user.email),
                action: "job.enqueue",
                target: Some(&inserted.id),
                detail: Some(&detail),
                created_at: now_ms(),
            })
            .await?;
    }
    tx.commit().await?;
    Ok(accepted(&inserted.id, &inserted.status))
}

/// A job with what only ops see: its payload, its lock and every attempt.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = OpsJobDetail)]
struct JobDetail {
    #[serde(flatten)]
    job: JobView,
    payload: Value,
    idempotency_key: Option<String>,
    locked_by: Option<String>,
    cancel_requested: bool,
    attempt_history: Vec<AttemptView>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = JobAttempt)]
struct AttemptView {
    attempt: i32,
    worker_id: Option<String>,
    started_at: Option<String>,
    finished_at: String,
    outcome: String,
    error: String,
}

async fn job_detail(
    State(state): State<AppState>,
    _: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<JobDetail>> {
    let db = &state.queue.db;
    let row = db
        .job_get_by_id(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Job not found"))?;
    let attempts = db.job_attempt_list(&id).await?;
    Ok(axum::Json(JobDetail {
        payload: row.payload.0.clone(),
        idempotency_key: row.idempotency_key.clone(),
        locked_by: row.locked_by.clone(),
        cancel_requested: row.cancel_requested,
        job: JobView::from(row),
        attempt_history: attempts
            .into_iter()
            .map(|a| AttemptView {
                attempt: a.attempt,
                worker_id: a.worker_id,
                started_at: a.started_at.map(to_rfc3339),
                finished_at: to_rfc3339(a.finished_at),
                outcome: a.outcome,
                error: a.error,
            })
            .collect(),
    }))
}

async fn audit_action(
    state: &AppState,
    admin: &AdminUser,
    action: &str,
    target: &str,
) -> ApiResult<()> {
    audit_detail(state, admin, action, target, None).await
}

async fn audit_detail(
    state: &AppState,
    admin: &AdminUser,
    action: &str,
    target: &str,
    detail: Option<&Value>,
) -> ApiResult<()> {
    let mut tx = state.queue.db.begin().await?;
    tx.audit_insert(&AuditInsert {
        id: &ulid::Ulid::new().to_string(),
        actor_id: Some(&admin.0.user.id),
        actor_email: Some(&admin.0.user.email),
        action,
        target: Some(target),
        detail,
        created_at: now_ms(),
    })
    .await?;
    tx.commit().await?;
    Ok(())
}

async fn job_retry(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    match state.queue.retry(&id).await {
        Ok(Some(_)) => {
            audit_action(&state, &admin, "job.retry", &id).await?;
            return Ok(accepted(&id, "queued"));
        }
        Ok(None) => {}
        Err(e) if same_key_active(&e) => return Err(ApiError::conflict(SAME_KEY_ACTIVE)),
        Err(e) => return Err(e.into()),
    }
    match state.queue.db.job_get_by_id(&id).await? {
        None => Err(ApiError::not_found("Job not found")),
        Some(job) => Err(ApiError::conflict(format!(
            "Only failed or cancelled jobs can be retried; this job is {}",
            job.status
        ))),
    }
}

/// A retried job is one of a kind's jobs with an active key (one search, one send) while another
/// job of that key waits or runs: the unique index refuses a second one, and nothing changes.
const SAME_KEY_ACTIVE: &str = "Another job for the same work is already waiting or running; retry this one when it has finished";

fn same_key_active(e: &jobs::queue::QueueError) -> bool {
    matches!(e, jobs::queue::QueueError::Db(sqlx::Error::Database(d)) if d.is_unique_violation())
}

async fn job_cancel(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<JobView>> {
    match state.queue.cancel(&id).await? {
        CancelOutcome::NotFound => return Err(ApiError::not_found("Job not found")),
        CancelOutcome::Finished(status) => {
            return Err(ApiError::conflict(format!("Job already {status}")));
        }
        CancelOutcome::Cancelled | CancelOutcome::Requested => {}
    }
    audit_action(&state, &admin, "job.cancel", &id).await?;
    state
        .queue
        .get(&id)
        .await?
        .map(axum::Json)
        .ok_or_else(|| ApiError::not_found("Job not found"))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = JobWorker)]
struct WorkerView {
    id: String,
    hostname: String,
    pid: i32,
    kinds: Vec<String>,
    concurrency: i32,
    started_at: String,
    heartbeat_at: String,
    alive: bool,
    running_jobs: i64,
}

async fn workers(
    State(state): State<AppState>,
    _: AdminUser,
) -> ApiResult<axum::Json<Vec<WorkerView>>> {
    let cutoff = now_ms() - state.queue.settings.heartbeat_timeout.as_millis() as i64;
    let rows = state.queue.db.worker_list().await?;
    Ok(axum::Json(
        rows.into_iter()
            .map(|w| WorkerView {
                alive: w.heartbeat_at >= cutoff,
                kinds: w.kinds.split(',').map(str::to_string).collect(),
                started_at: to_rfc3339(w.started_at),
                heartbeat_at: to_rfc3339(w.heartbeat_at),
                id: w.id,
                hostname: w.hostname,
                pid: w.pid,
                concurrency: w.concurrency,
                running_jobs: w.running,
            })
            .collect(),
    ))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct AuditQuery {
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
}

/// An entry of the audit log: who did what to which job, kind, user or endpoint.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AuditEntry)]
struct AuditView {
    id: String,
    actor_email: Option<String>,
    /// e.g. `job.retry`, `user.create`, `webhook.delete`.
    action: String,
    target: Option<String>,
    detail: Option<Value>,
    created_at: String,
}

/// The newest entries first.
async fn audit(
    State(state): State<AppState>,
    _: AdminUser,
    Query(q): Query<AuditQuery>,
) -> ApiResult<axum::Json<Vec<AuditView>>> {
    let (limit, _) = paging(q.limit, None)?;
    let rows = state.queue.db.audit_list(limit).await?;
    Ok(axum::Json(
        rows.into_iter()
            .map(|a| AuditView {
                id: a.id,
                actor_email: a.actor_email,
                action: a.action,
                target: a.target,
                detail: a.detail.map(|d| d.0),
                created_at: to_rfc3339(a.created_at),
            })
            .collect(),
    ))
}

/// A waiting job (queued, scheduled or retrying) runs at once, whatever its `run_at`.
async fn job_run_now(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<JobView>> {
    match state.queue.db.job_run_now(&id, now_ms()).await? {
        Some(kind) => {
            state.queue.nudge(&kind).await?;
            audit_action(&state, &admin, "job.run_now", &id).await?;
        }
        None => {
            return Err(match state.queue.db.job_get_by_id(&id).await? {
                None => ApiError::not_found("Job not found"),
                Some(job) => ApiError::conflict(format!(
                    "Only waiting jobs can be run now; this job is {}",
                    job.status
                )),
            });
        }
    }
    state
        .queue
        .get(&id)
        .await?
        .map(axum::Json)
        .ok_or_else(|| ApiError::not_found("Job not found"))
}

/// Deletes a job that is not running (a running one is cancelled first).
async fn job_delete(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if state.queue.db.job_delete(&id).await?.is_some() {
        audit_action(&state, &admin, "job.delete", &id).await?;
        return Ok(StatusCode::NO_CONTENT);
    }
    Err(match state.queue.db.job_get_by_id(&id).await? {
        None => ApiError::not_found("Job not found"),
        Some(_) => ApiError::conflict("A running job cannot be deleted; cancel it first"),
    })
}

const BULK_ACTIONS: [&str; 4] = ["retry", "cancel", "delete", "run_now"];

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct JobBulkInput {
    #[schema(required = true, schema_with = bulk_action_schema)]
    action: Option<String>,
    /// One kind's jobs; `null` or `""`: every kind's.
    #[schema(schema_with = bulk_kind_schema)]
    kind: Option<String>,
    /// Only jobs in this status; `null` or `""`: any.
    #[schema(schema_with = bulk_status_schema)]
    status: Option<String>,
}

fn bulk_action_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&BULK_ACTIONS)
}

/// [`kind_names`], or `null` or `""`.
fn bulk_kind_schema() -> utoipa::openapi::ObjectBuilder {
    let mut all = vec![""];
    all.extend(kind_names());
    crate::validate::one_of_or_null(&all)
}

/// [`STATUSES`], or `null` or `""`.
fn bulk_status_schema() -> utoipa::openapi::ObjectBuilder {
    let mut all = vec![""];
    all.extend(STATUSES);
    crate::validate::one_of_or_null(&all)
}

/// What a bulk action did: the action and how many jobs it changed.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = JobsBulkDone)]
struct BulkDone {
    action: String,
    affected: u64,
}

/// One action over every job of a kind and/or status: retry all failed of a kind, cancel what
/// waits, delete what finished, run what waits now. `{affected}`; one audit entry with the filter.
async fn jobs_bulk(
    State(state): State<AppState>,
    admin: AdminUser,
    Json(input): Json<JobBulkInput>,
) -> ApiResult<axum::Json<BulkDone>> {
    let action = input
        .action
        .filter(|a| BULK_ACTIONS.contains(&a.as_str()))
        .ok_or_else(|| {
            ApiError::unprocessable(jobs::domain::one_of_message("action", &BULK_ACTIONS))
        })?;
    let kind = input.kind.filter(|k| !k.is_empty());
    if let Some(k) = &kind
        && state.queue.spec(k).is_err()
    {
        return Err(ApiError::unprocessable(format!("Unknown job kind: {k}")));
    }
    let status = input.status.filter(|s| !s.is_empty());
    if let Some(s) = &status
        && !STATUSES.contains(&s.as_str())
    {
        return Err(ApiError::unprocessable(jobs::domain::one_of_message(
            "status", &STATUSES,
        )));
    }
    let affected = state
        .queue
        .db
        .jobs_bulk(&JobBulk {
            action: &action,
            kind: kind.as_deref(),
            status: status.as_deref(),
            now: now_ms(),
        })
        .await
        .map_err(|e| match e {
            sqlx::Error::Database(d) if d.is_unique_violation() => {
                ApiError::conflict(SAME_KEY_ACTIVE)
            }
            e => e.into(),
        })?;
    if affected > 0 && (action == "retry" || action == "run_now") {
        match &kind {
            Some(k) => state.queue.nudge(k).await?,
            None => {
                for k in state.queue.registry.kinds() {
                    state.queue.nudge(k).await?;
                }
            }
        }
    }
    let detail = json!({ "kind": kind, "status": status, "affected": affected });
    audit_detail(
        &state,
        &admin,
        &format!("jobs.bulk_{action}"),
        kind.as_deref().unwrap_or("all kinds"),
        Some(&detail),
    )
    .await?;
    Ok(axum::Json(BulkDone { action, affected }))
}

/// A kind's state after pause or resume.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct KindPaused {
    kind: String,
    paused: bool,
}

async fn set_paused(
    state: &AppState,
    admin: &AdminUser,
    kind: &str,
    pause: bool,
) -> ApiResult<axum::Json<KindPaused>> {
    if state.queue.spec(kind).is_err() {
        return Err(ApiError::not_found(format!("Unknown job kind: {kind}")));
    }
    let db = &state.queue.db;
    let changed = if pause {
        db.kind_pause(kind, Some(&admin.0.user.email), now_ms())
            .await?
    } else {
        let resumed = db.kind_resume(kind).await?;
        // Its waiting jobs are due: wake the fetchers rather than wait for their next poll.
        state.queue.nudge(kind).await?;
        resumed
    };
    if changed {
        let action = if pause { "kind.pause" } else { "kind.resume" };
        audit_action(state, admin, action, kind).await?;
    }
    Ok(axum::Json(KindPaused {
        kind: kind.to_string(),
        paused: pause,
    }))
}

async fn kind_pause(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(kind): Path<String>,
) -> ApiResult<axum::Json<KindPaused>> {
    set_paused(&state, &admin, &kind, true).await
}

async fn kind_resume(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(kind): Path<String>,
) -> ApiResult<axum::Json<KindPaused>> {
    set_paused(&state, &admin, &kind, false).await
}
