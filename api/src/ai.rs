//! AI orchestration, management and features (seed 002 §2, §3, §5, §7 "AI orchestration and
//! management", "AI features", §8). Tasks run as `ai_task` / `document_ai` jobs; the request waits
//! for its job up to `AI_WAIT_MS` and answers with the result, else 202 with the job to follow. The
//! status endpoints are computed from the jobs table, the configuration and the CRM's data.
//! Contract: docs/voice-and-ai.md.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jobs::ai::documents::{self, MAX_DOCUMENT_BYTES};
use jobs::ai::{CONTENT_TYPES, MAX_INSIGHT_ROWS, Task};
use jobs::db::{AiDocumentRow, CompanyFilter, Db, FigureScope, JobList, figure_total};
use jobs::domain::analytics::{
    self, AGENTS, AnalyticsInput, Call, EmailCounts, MODEL_KINDS, ModelRun, ReplyOutcome,
    kind_counts, ratio, round3,
};
use jobs::domain::email_figures::email_figures;
use jobs::kinds::document_ai::NEEDS_VISION;
use jobs::queue::NewJob;
use jobs::time::now_ms;
use serde::Deserialize;
use serde_json::{Map, Value, json};

use crate::enqueue::accepted;
use crate::error::{ApiError, ApiResult, parse_upload};
use crate::extract::{CurrentUser, Json};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    let limit = MAX_DOCUMENT_BYTES + 64 * 1024;
    Routes::new()
        .post("/api/ai/sentiment-analysis", Access::User, sentiment)
        .body::<SentimentBody>()
        .post("/api/ai/market-intelligence", Access::User, intelligence)
        .body::<IntelligenceBody>()
        .post("/api/ai/generate-outreach", Access::User, outreach)
        .body::<OutreachBody>()
        .post("/api/ai/generate-content", Access::User, content)
        .body::<ContentBody>()
        .post("/api/ai/generate-insights", Access::User, insights)
        .body::<InsightsBody>()
        .upload(
            "/api/ai/invoice-extract",
            Access::User,
            limit,
            document_upload,
        )
        .upload(
            "/api/ai/document-analyze",
            Access::User,
            limit,
            document_upload,
        )
        .get("/api/ai/analytics", Access::User, analytics)
        .get("/api/mcp/status", Access::User, mcp_status)
        .get(
            "/api/email-automation/status",
            Access::User,
            email_automation,
        )
        .get("/api/automation/preview", Access::User, automation_preview)
}

/// Waits for the job: its result (200), its failure (502 from the provider, else 422), or 202.
async fn answer(state: &AppState, job_id: &str) -> ApiResult<Response> {
    let deadline = tokio::time::Instant::now() + state.config.providers.ai_wait;
    let mut pause = Duration::from_millis(20);
    loop {
        let job = state
            .queue
            .get(job_id)
            .await?
            .ok_or_else(|| ApiError::not_found("Job not found"))?;
        match job.status.as_str() {
            "succeeded" => {
                let mut result = job.result.unwrap_or_else(|| json!({}));
                if let Some(o) = result.as_object_mut() {
                    o.insert("jobId".into(), job_id.into());
                }
                return Ok(axum::Json(result).into_response());
            }
            "failed" => {
                let error = job.error.unwrap_or_else(|| "The AI task failed".into());
                let status = if error.starts_with("the AI provider") {
                    StatusCode::BAD_GATEWAY
                } else {
                    StatusCode::UNPROCESSABLE_ENTITY
                };
                return Err(ApiError::Status(status, error));
            }
            "cancelled" => return Err(ApiError::conflict("The AI task was cancelled")),
            status => {
                if tokio::time::Instant::now() >= deadline {
                    return Ok(accepted(job_id, status));
                }
            }
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(250));
    }
}

async fn run_task(state: &AppState, task: Task) -> ApiResult<Response> {
    let job = state
        .queue
        .enqueue(NewJob::new("ai_task", json!({ "task": task })))
        .await?;
    answer(state, &job.id).await
}

fn text(v: &Option<String>) -> Option<String> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.chars().take(2000).collect())
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SentimentBody {
    company_name: Option<String>,
    industry: Option<String>,
}

async fn sentiment(
    State(state): State<AppState>,
    _u: CurrentUser,
    Json(b): Json<SentimentBody>,
) -> ApiResult<Response> {
    let (Some(company_name), Some(industry)) = (text(&b.company_name), text(&b.industry)) else {
        return Err(ApiError::unprocessable(
            "Company name and industry are required",
        ));
    };
    run_task(
        &state,
        Task::Sentiment {
            company_name,
            industry,
        },
    )
    .await
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct IntelligenceBody {
    company_name: Option<String>,
    query: Option<String>,
}

async fn intelligence(
    State(state): State<AppState>,
    _u: CurrentUser,
    Json(b): Json<IntelligenceBody>,
) -> ApiResult<Response> {
    let (Some(company_name), Some(query)) = (text(&b.company_name), text(&b.query)) else {
        return Err(ApiError::unprocessable(
            "Company name and query are required",
        ));
    };
    run_task(
        &state,
        Task::Intelligence {
            company_name,
            query,
        },
    )
    .await
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompanyData {
    industry: Option<String>,
    city: Option<String>,
    state: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct OutreachBody {
    contact_name: Option<String>,
    company_name: Option<String>,
    #[serde(default)]
    company_data: Option<CompanyData>,
}

async fn outreach(
    State(state): State<AppState>,
    _u: CurrentUser,
    Json(b): Json<OutreachBody>,
) -> ApiResult<Response> {
    let (Some(contact_name), Some(company_name)) = (text(&b.contact_name), text(&b.company_name))
    else {
        return Err(ApiError::unprocessable(
            "Contact name and company name are required",
        ));
    };
    let d = b.company_data.unwrap_or_default();
    run_task(
        &state,
        Task::Outreach {
            contact_name,
            company_name,
            industry: text(&d.industry),
            city: text(&d.city),
            state: text(&d.state),
        },
    )
    .await
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
struct ContentContext {
    description: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct ContentBody {
    #[serde(rename = "type")]
    kind: Option<String>,
    context: Option<ContentContext>,
}

async fn content(
    State(state): State<AppState>,
    _u: CurrentUser,
    Json(b): Json<ContentBody>,
) -> ApiResult<Response> {
    let kind = b
        .kind
        .as_deref()
        .map(str::trim)
        .unwrap_or("email")
        .to_string();
    if !CONTENT_TYPES.contains(&kind.as_str()) {
        return Err(ApiError::unprocessable(
            "Type must be one of email, proposal, report",
        ));
    }
    let context = b.context.unwrap_or_default();
    let Some(description) = context
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    else {
        return Err(ApiError::unprocessable(
            "Please provide context for content generation",
        ));
    };
    if description.chars().count() > 10_000 {
        return Err(ApiError::unprocessable(
            "The context must be at most 10,000 characters",
        ));
    }
    run_task(
        &state,
        Task::Content {
            content_type: kind,
            description: description.to_string(),
            context_type: text(&context.kind),
        },
    )
    .await
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct InsightsBody {
    data: Option<Value>,
}

async fn insights(
    State(state): State<AppState>,
    _u: CurrentUser,
    Json(b): Json<InsightsBody>,
) -> ApiResult<Response> {
    let Some(Value::Array(data)) = b.data else {
        return Err(ApiError::unprocessable(
            "Please provide valid JSON array data",
        ));
    };
    if data.len() > MAX_INSIGHT_ROWS {
        return Err(ApiError::Status(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("At most {MAX_INSIGHT_ROWS} records per request"),
        ));
    }
    run_task(&state, Task::Insights { data }).await
}

/// `invoice-extract` and `document-analyze`: the path says which.
async fn document_upload(
    State(state): State<AppState>,
    _u: CurrentUser,
    uri: axum::http::Uri,
    headers: HeaderMap,
    form: Result<Multipart, MultipartRejection>,
) -> ApiResult<Response> {
    let task = if uri.path().ends_with("invoice-extract") {
        "invoice_extract"
    } else {
        "document_analyze"
    };
    let too_large = || {
        ApiError::Status(
            StatusCode::PAYLOAD_TOO_LARGE,
            "Documents must be 15 MB or smaller".into(),
        )
    };
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if announced.is_some_and(|n| n > MAX_DOCUMENT_BYTES + 64 * 1024) {
        return Err(too_large());
    }
    let mut form = form.map_err(|r| ApiError::bad_request(r.body_text()))?;
    let mut file = None;
    while let Some(field) = form.next_field().await.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError::bad_request(format!("malformed upload: {}", e.body_text()))
        }
    })? {
        if field.name() == Some("document") {
            let name = field
                .file_name()
                .map(|n| n.chars().take(200).collect::<String>());
            let bytes = field.bytes().await.map_err(|e| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    too_large()
                } else {
                    ApiError::bad_request(format!("malformed upload: {}", e.body_text()))
                }
            })?;
            file = Some((name, bytes));
        }
    }
    let (file_name, bytes) =
        file.ok_or_else(|| ApiError::bad_request("Choose a document to upload"))?;
    if bytes.len() > MAX_DOCUMENT_BYTES {
        return Err(too_large());
    }
    let kind = documents::sniff(&bytes).ok_or_else(|| {
        ApiError::Status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Unsupported document type: upload a JPG, PNG, PDF, DOC or DOCX file".into(),
        )
    })?;
    // Bounded before the job parses it, so the sender hears about a limit at once.
    let checked = bytes.clone();
    parse_upload(move || Ok(documents::check(kind, &checked)?)).await?;
    let vision = state.queue.providers.llm.as_ref().is_some_and(|l| l.vision);
    if kind.is_image() && !vision {
        return Err(ApiError::unprocessable(NEEDS_VISION));
    }
    let doc = AiDocumentRow {
        id: ulid::Ulid::new().to_string(),
        task: task.into(),
        media_type: kind.media_type().into(),
        file_name,
        body: bytes.to_vec(),
        created_at: now_ms(),
    };
    let mut tx = state.queue.begin().await?;
    tx.tx().ai_document_insert(&doc).await?;
    let job = tx
        .enqueue(NewJob::new("document_ai", json!({ "documentId": doc.id })))
        .await?;
    tx.commit().await?;
    answer(&state, &job.id).await
}

// ---- analytics and status ----

async fn recent(
    state: &AppState,
    kind: &str,
    status: Option<&str>,
    limit: i64,
) -> ApiResult<Vec<jobs::db::JobRow>> {
    let (rows, _) = state
        .queue
        .db
        .job_list(&JobList {
            kind: Some(kind),
            status,
            text: None,
            from: None,
            until: None,
            limit,
            offset: 0,
        })
        .await?;
    Ok(rows)
}

/// Reads what the analytics count ([`jobs::domain::analytics`] computes them).
async fn analytics(State(state): State<AppState>, _u: CurrentUser) -> ApiResult<axum::Json<Value>> {
    let db = &state.queue.db;
    let counts = kind_counts(db.job_counts().await?);
    let outcomes = db.reply_outcomes(20_000).await?;
    let calls = db.voice_call_list(None, 1000).await?;
    let companies = db.company_total(&CompanyFilter::default(), 0).await?.n;
    let mut last_runs = BTreeMap::new();
    for (kind, ..) in AGENTS {
        if let Some(j) = recent(&state, kind, None, 1).await?.into_iter().next() {
            last_runs.insert(kind, j.finished_at.unwrap_or(j.created_at));
        }
    }
    let mut runs = Vec::new();
    for kind in MODEL_KINDS {
        runs.extend(recent(&state, kind, Some("succeeded"), 500).await?);
    }
    let month = month_of_email(db).await?;
    let (_, active_campaigns) = db.campaign_list("bulk", 1, 0).await?;
    let outcomes: Vec<ReplyOutcome<'_>> = outcomes
        .iter()
        .map(|o| ReplyOutcome {
            score: o.score,
            scored: o.scored == 1,
            state: o.state.as_deref(),
            replied: o.replied,
        })
        .collect();
    let calls: Vec<Call<'_>> = calls
        .iter()
        .map(|c| Call {
            status: &c.status,
            outcome: c.outcome.as_deref(),
            has_transcript: c.transcript.is_some(),
            simulated: c.simulated,
        })
        .collect();
    let model_runs: Vec<ModelRun<'_>> = runs
        .iter()
        .filter_map(|j| {
            Some(ModelRun {
                result: &j.result.as_ref()?.0,
                started_at: j.started_at,
                finished_at: j.finished_at,
            })
        })
        .collect();
    let configured = state.queue.providers.llm.as_ref().map(|l| l.model.clone());
    Ok(axum::Json(analytics::analytics(&AnalyticsInput {
        counts: &counts,
        outcomes: &outcomes,
        calls: &calls,
        companies,
        last_runs: &last_runs,
        model_runs: &model_runs,
        configured_model: configured.as_deref(),
        email: EmailCounts {
            sent: month.sent,
            open_tracked: month.open_tracked,
            opened: month.opened,
            clicked: month.clicked,
            replied: month.replied,
        },
        active_campaigns,
        retention_days: state.queue.settings.retention.as_secs_f64() / 86_400.0,
    })))
}

/// The integrations, each with the job kinds that use it.
fn integrations(
    state: &AppState,
) -> Vec<(
    &'static str,
    &'static str,
    bool,
    String,
    &'static [&'static str],
)> {
    let p = &state.queue.providers;
    let cfg = &state.config.providers;
    vec![
        (
            "Email delivery",
            "email",
            true,
            p.mailing.mailer.describe(),
            &[
                "email_send",
                "bulk_campaign_send",
                "sequence_step_send",
                "reminder_send",
                "invoice_send",
            ],
        ),
        (
            "AI model",
            "ai",
            p.llm.is_some(),
            p.llm.as_ref().map_or_else(
                || "template fallbacks (AI_PROVIDER unset)".to_string(),
                |l| l.model.clone(),
            ),
            &["ai_task", "document_ai"],
        ),
        (
            "Discovery",
            "discovery",
            true,
            format!("{:?}", cfg.discovery).to_lowercase(),
            &["discovery_scan"],
        ),
        (
            "Google Calendar",
            "calendar",
            p.calendar.is_some(),
            if p.calendar.is_some() {
                "OAuth".into()
            } else {
                "ICS feed only".into()
            },
            &["calendar_sync"],
        ),
        (
            "SMS",
            "sms",
            p.sms.is_some(),
            if p.sms.is_some() {
                "SMS API".into()
            } else {
                "demo mode".into()
            },
            &["sms_send"],
        ),
        (
            "Voice agents",
            "voice",
            p.voice.is_some(),
            p.voice
                .as_ref()
                .and_then(|v| v.host())
                .unwrap_or_else(|| "demo mode (simulated calls)".into()),
            &["voice_call"],
        ),
        (
            "Stripe",
            "payments",
            p.stripe.is_some(),
            if p.stripe.is_some() {
                "PaymentIntents".into()
            } else {
                "demo mode".into()
            },
            &[],
        ),
    ]
}

async fn mcp_status(
    State(state): State<AppState>,
    _u: CurrentUser,
) -> ApiResult<axum::Json<Value>> {
    let since = now_ms() - 86_400_000;
    let finished = state.queue.db.job_finished_since(since).await?;
    let mut connections = Vec::new();
    let mut potential = Map::new();
    let mut health = Map::new();
    for (name, kind, configured, detail, kinds) in integrations(&state) {
        let runs: Vec<_> = finished
            .iter()
            .filter(|j| kinds.contains(&j.kind.as_str()))
            .collect();
        let failed = runs.iter().filter(|j| j.status == "failed").count();
        let failure_rate = ratio(failed as i64, runs.len() as i64);
        let status = if !configured {
            "not_configured"
        } else if runs.len() >= 3 && failure_rate > 0.2 {
            "degraded"
        } else {
            "operational"
        };
        connections.push(json!({"name": name, "type": kind, "status": status, "detail": detail}));
        potential.insert(kind.into(), runs.len().into());
        health.insert(
            kind.into(),
            json!({
                "throughput": round3(runs.len() as f64 / 24.0),
                "failureRate": round3(failure_rate),
                "status": status,
            }),
        );
    }
    Ok(axum::Json(json!({
        "kojieConnection": {"status": if state.queue.providers.voice.is_some() { "connected" } else { "demo" }},
        "activeConnections": connections,
        "automationPotential": potential,
        "protocolHealth": health,
    })))
}

async fn workflows(
    state: &AppState,
) -> ApiResult<Vec<(jobs::db::SequenceRow, Vec<String>, i64, i64)>> {
    let db = &state.queue.db;
    let seqs = db.sequence_list().await?;
    let ids: Vec<String> = seqs.iter().map(|s| s.id.clone()).collect();
    let counts = db.sequence_counts(&ids).await?;
    let mut out = Vec::new();
    for s in seqs {
        let steps = db.step_list(&s.id).await?;
        let delay: i64 = steps.iter().map(|st| i64::from(st.delay_minutes)).sum();
        let enrolled = counts
            .iter()
            .find(|c| c.sequence_id == s.id)
            .map_or(0, |c| c.total);
        out.push((
            s,
            steps.into_iter().map(|st| st.kind).collect(),
            delay,
            enrolled,
        ));
    }
    Ok(out)
}

async fn email_automation(
    State(state): State<AppState>,
    _u: CurrentUser,
) -> ApiResult<axum::Json<Value>> {
    let db = &state.queue.db;
    let month = month_of_email(db).await?;
    let f = email_figures(&month);
    let (_, campaigns) = db.campaign_list("bulk", 1, 0).await?;
    let contacts = db
        .contact_total(&jobs::db::ContactFilter::default(), 0)
        .await?
        .n;
    let flows = workflows(&state).await?;
    let active = flows.iter().filter(|(s, ..)| s.status == "active").count();
    Ok(axum::Json(json!({
        "currentCapabilities": {
            "totalCampaigns": campaigns,
            "openRate": (f.open_tracked > 0).then_some(f.open_rate),
            "contactBase": contacts,
            "automationSequences": active,
        },
        "automationWorkflows": flows.iter().map(|(s, kinds, _, enrolled)| json!({
            "id": s.id, "name": s.name, "description": s.description, "components": kinds,
            "status": if s.status == "active" && !kinds.is_empty() { "ready" } else { "development" },
            "potential": format!("{enrolled} enrolled"),
        })).collect::<Vec<_>>(),
        "performanceMetrics": {
            "sent": f.sent, "opened": f.opened, "clicked": f.clicked, "replied": f.replied,
            "openRate": (f.open_tracked > 0).then_some(f.open_rate),
            "clickRate": f.click_rate,
            "replyRate": f.reply_rate,
        },
    })))
}

async fn automation_preview(
    State(state): State<AppState>,
    _u: CurrentUser,
) -> ApiResult<axum::Json<Value>> {
    let db = &state.queue.db;
    let list = integrations(&state);
    let configured = list.iter().filter(|i| i.2).count();
    let mut categories: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (name, kind, ..) in &list {
        categories.entry(kind).or_default().push(name);
    }
    let flows = workflows(&state).await?;
    let sent = month_of_email(db).await?.sent;
    let meetings = db.calendar_stats(now_ms()).await?;
    let payments = db.payment_analytics().await?;
    Ok(axum::Json(json!({
        "integrationEcosystem": {
            "coreIntegrations": configured,
            "readyForKOJIE": list.iter().filter(|i| i.2 && !i.4.is_empty()).count(),
            "totalPotential": list.len(),
            "categories": categories.iter().map(|(k, v)| json!({"name": k, "count": v.len(), "examples": v})).collect::<Vec<_>>(),
        },
        "kojieAICapabilities": {
            "workflowTemplates": flows.iter().map(|(s, kinds, delay, _)| json!({
                "name": s.name,
                "timeline": format!("{} over {}", plural(kinds.len(), "step"), span(*delay)),
                "triggers": [s.trigger_type.replace('_', " ")],
                "actions": kinds,
            })).collect::<Vec<_>>(),
        },
        // Measured over the last 30 days; hours saved assume 3 minutes per email written and sent by hand.
        "roiProjections": {
            "emailsSent": sent,
            "meetingsBooked": meetings.total,
            "revenueCents": payments.revenue_cents,
            "hoursSaved": round3(sent as f64 * 3.0 / 60.0),
        },
    })))
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn span(minutes: i64) -> String {
    if minutes >= 1440 {
        plural((minutes / 1440) as usize, "day")
    } else if minutes >= 60 {
        plural((minutes / 60) as usize, "hour")
    } else {
        plural(minutes as usize, "minute")
    }
}

/// The last 30 days' email counts, as every other screen counts them (docs/figures.md).
async fn month_of_email(db: &Db) -> ApiResult<jobs::domain::email_figures::EmailCounts> {
    let rows = db
        .email_figures(&FigureScope {
            since: Some(now_ms() - 30 * 86_400_000),
            ..FigureScope::default()
        })
        .await?;
    Ok(figure_total(&rows))
}
