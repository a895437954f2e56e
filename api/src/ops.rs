//! `/api/ops/*`: what ops need to see, retry and cancel any job. Admin only; every action is
//! written to the audit log (in the same transaction as its job, where it makes one).

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::Method;
use axum::response::Response;
use axum::routing::{get, post};
use chrono::{DateTime, Utc};
use jobs::db::{AuditInsert, CancelOutcome, JobList};
use jobs::queue::{JobView, NewJob, STATUSES};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::extract::{AdminUser, Json, Path, Query};
use crate::jobs_api::accepted;
use crate::list::{paging, with_total};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .add(Method::GET, "/api/ops/queues", Access::Admin, get(queues))
        .add(Method::GET, "/api/ops/jobs", Access::Admin, get(job_list))
        .add(
            Method::POST,
            "/api/ops/jobs",
            Access::Admin,
            post(job_create),
        )
        .add(
            Method::GET,
            "/api/ops/jobs/{id}",
            Access::Admin,
            get(job_detail),
        )
        .add(
            Method::POST,
            "/api/ops/jobs/{id}/retry",
            Access::Admin,
            post(job_retry),
        )
        .add(
            Method::POST,
            "/api/ops/jobs/{id}/cancel",
            Access::Admin,
            post(job_cancel),
        )
        .add(Method::GET, "/api/ops/workers", Access::Admin, get(workers))
        .add(Method::GET, "/api/ops/audit", Access::Admin, get(audit))
}

#[derive(Debug, Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct QueueStats {
    kind: String,
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
    let mut out = Vec::new();
    for kind in state.queue.registry.kinds() {
        let mut s = QueueStats {
            kind: kind.to_string(),
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

#[derive(Debug, Deserialize)]
struct ListQuery {
    kind: Option<String>,
    status: Option<String>,
    limit: Option<i64>,
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
    let (rows, total) = state
        .queue
        .db
        .job_list(&JobList {
            kind: kind.as_deref(),
            status: status.as_deref(),
            limit,
            offset,
        })
        .await?;
    let jobs: Vec<JobView> = rows.into_iter().map(JobView::from).collect();
    Ok(with_total(jobs, total))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateJob {
    kind: String,
    #[serde(default)]
    payload: Option<Value>,
    idempotency_key: Option<String>,
    run_at: Option<DateTime<Utc>>,
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
        && (key.is_empty() || key.len() > 200)
    {
        errors.insert(
            "idempotencyKey".to_string(),
            "idempotencyKey must be 1 to 200 characters".to_string(),
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

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct JobDetail {
    #[serde(flatten)]
    job: JobView,
    payload: Value,
    idempotency_key: Option<String>,
    locked_by: Option<String>,
    cancel_requested: bool,
    attempt_history: Vec<AttemptView>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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
    let mut tx = state.queue.db.begin().await?;
    tx.audit_insert(&AuditInsert {
        id: &ulid::Ulid::new().to_string(),
        actor_id: Some(&admin.0.user.id),
        actor_email: Some(&admin.0.user.email),
        action,
        target: Some(target),
        detail: None,
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
    if state.queue.retry(&id).await?.is_some() {
        audit_action(&state, &admin, "job.retry", &id).await?;
        return Ok(accepted(&id, "queued"));
    }
    match state.queue.db.job_get_by_id(&id).await? {
        None => Err(ApiError::not_found("Job not found")),
        Some(job) => Err(ApiError::conflict(format!(
            "Only failed or cancelled jobs can be retried; this job is {}",
            job.status
        ))),
    }
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

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
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

#[derive(Debug, Deserialize)]
struct AuditQuery {
    limit: Option<i64>,
}

async fn audit(
    State(state): State<AppState>,
    _: AdminUser,
    Query(q): Query<AuditQuery>,
) -> ApiResult<axum::Json<Vec<Value>>> {
    let (limit, _) = paging(q.limit, None)?;
    let rows = state.queue.db.audit_list(limit).await?;
    Ok(axum::Json(
        rows.into_iter()
            .map(|a| {
                json!({
                    "id": a.id, "actorEmail": a.actor_email, "action": a.action, "target": a.target,
                    "detail": a.detail.map(|d| d.0), "createdAt": to_rfc3339(a.created_at),
                })
            })
            .collect(),
    ))
}
