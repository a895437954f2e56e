//! AI orchestration, management and features (seed 002 §2, §3, §5, §7 "AI orchestration and
//! management", "AI features", §8). Tasks run as `ai_task` / `document_ai` jobs; the request waits
//! for its job up to `AI_WAIT_MS` and answers with the result, else 202 with the job to follow. The
//! status endpoints are computed from the jobs table, the configuration and the CRM's data.
//! Contract: docs/voice-and-ai.md.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jobs::ai::documents::{self, AnalysisResult, InvoiceExtraction, MAX_DOCUMENT_BYTES};
use jobs::ai::{
    CONTENT_TYPES, ContentResult, InsightsResult, IntelligenceResult, MAX_INSIGHT_ROWS,
    OutreachResult, SentimentResult, Task,
};
use jobs::db::{AiDocumentRow, AiReads, Db, FigureScope, figure_total};
use jobs::domain::analytics::{
    self, AGENTS, AnalyticsInput, Call, EmailCounts, MODEL_KINDS, ModelRun, ReplyOutcome,
    kind_counts, ratio, round3,
};
use jobs::domain::email_figures::email_figures;
use jobs::kinds::document_ai::NEEDS_VISION;
use jobs::queue::NewJob;
use jobs::time::now_ms;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::enqueue::accepted;
use crate::error::{ApiError, ApiResult, parse_upload};
use crate::extract::{CurrentUser, Json};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    let limit = MAX_DOCUMENT_BYTES + 64 * 1024;
    // The AI tasks and documents answer their job's result (200), or 202 with the job to follow
    // when it is still running after AI_WAIT_MS ([`answer`]).
    Routes::new()
        .post("/api/ai/sentiment-analysis", Access::User, sentiment)
        .body::<SentimentBody>()
        .accepted()
        .also::<SentimentAnswer>(200)
        .post("/api/ai/market-intelligence", Access::User, intelligence)
        .body::<IntelligenceBody>()
        .accepted()
        .also::<IntelligenceAnswer>(200)
        .post("/api/ai/generate-outreach", Access::User, outreach)
        .body::<OutreachBody>()
        .accepted()
        .also::<OutreachAnswer>(200)
        .post("/api/ai/generate-content", Access::User, content)
        .body::<ContentBody>()
        .accepted()
        .also::<ContentAnswer>(200)
        .post("/api/ai/generate-insights", Access::User, insights)
        .body::<InsightsBody>()
        .accepted()
        .also::<InsightsAnswer>(200)
        .upload(
            "/api/ai/invoice-extract",
            Access::User,
            limit,
            document_upload,
        )
        .body_as("multipart/form-data", crate::forms::document_upload)
        .accepted()
        .also::<InvoiceAnswer>(200)
        .upload(
            "/api/ai/document-analyze",
            Access::User,
            limit,
            document_upload,
        )
        .body_as("multipart/form-data", crate::forms::document_upload)
        .accepted()
        .also::<AnalysisAnswer>(200)
        .get("/api/ai/analytics", Access::User, analytics)
        .returns::<analytics::Analytics>()
        .get("/api/mcp/status", Access::User, mcp_status)
        .returns::<McpStatus>()
        .get(
            "/api/email-automation/status",
            Access::User,
            email_automation,
        )
        .returns::<EmailAutomationStatus>()
        .get("/api/automation/preview", Access::User, automation_preview)
        .returns::<AutomationPreview>()
}

/// A finished job's result as its route answers it: the result and the job that made it.
macro_rules! job_answer {
    ($(#[$doc:meta])* $name:ident($result:ty) as $schema:ident) => {
        $(#[$doc])*
        #[derive(Debug, Serialize, Deserialize, utoipa::ToSchema)]
        #[serde(rename_all = "camelCase")]
        #[schema(as = $schema)]
        struct $name {
            #[serde(flatten)]
            result: $result,
            /// The job that ran it (`/api/jobs/{id}`).
            job_id: String,
        }
    };
}

job_answer!(
    /// The sentiment around a company, with its job.
    SentimentAnswer(SentimentResult) as AiSentimentAnswer
);
job_answer!(
    /// Market intelligence on a company, with its job.
    IntelligenceAnswer(IntelligenceResult) as AiIntelligenceAnswer
);
job_answer!(
    /// A first email to a contact, with its job.
    OutreachAnswer(OutreachResult) as AiOutreachAnswer
);
job_answer!(
    /// Generated content, with its job.
    ContentAnswer(ContentResult) as AiContentAnswer
);
job_answer!(
    /// Insights on the rows sent, with their job.
    InsightsAnswer(InsightsResult) as AiInsightsAnswer
);
job_answer!(
    /// The invoice read from the document, with its job.
    InvoiceAnswer(InvoiceExtraction) as AiInvoiceAnswer
);
job_answer!(
    /// The document's analysis, with its job.
    AnalysisAnswer(AnalysisResult) as AiDocumentAnalysisAnswer
);

/// Waits for the job: its result as `A` (200), its failure (502 from the provider, else 422), or
/// 202 with the job to follow.
async fn answer<A: DeserializeOwned + Serialize>(
    state: &AppState,
    job_id: &str,
) -> ApiResult<Response> {
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
                // Read as the route's type, so what is sent is what the document describes.
                let answer: A = serde_json::from_value(result).map_err(|e| {
                    anyhow::anyhow!("job {job_id} succeeded with an unexpected result: {e}")
                })?;
                return Ok(axum::Json(answer).into_response());
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

async fn run_task<A: DeserializeOwned + Serialize>(
    state: &AppState,
    task: Task,
) -> ApiResult<Response> {
    let job = state
        .queue
        .enqueue(NewJob::new("ai_task", json!({ "task": task })))
        .await?;
    answer::<A>(state, &job.id).await
}

fn text(v: &Option<String>) -> Option<String> {
    v.as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.chars().take(2000).collect())
}

/// Required text (not blank), as [`text`] reads it.
fn required_text() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank()
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SentimentBody {
    #[schema(schema_with = required_text, required = true)]
    company_name: Option<String>,
    #[schema(schema_with = required_text, required = true)]
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
    run_task::<SentimentAnswer>(
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
    #[schema(schema_with = required_text, required = true)]
    company_name: Option<String>,
    #[schema(schema_with = required_text, required = true)]
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
    run_task::<IntelligenceAnswer>(
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
    #[schema(schema_with = required_text, required = true)]
    contact_name: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    company_name: Option<String>,
    #[serde(default, deserialize_with = "crate::validate::object_or_null")]
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
    run_task::<OutreachAnswer>(
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

/// Most characters of a content context.
const MAX_CONTEXT_CHARS: usize = 10_000;

/// Not blank, and at most [`MAX_CONTEXT_CHARS`] characters (the document counts them untrimmed).
fn context_description_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank()
        .max_length(Some(MAX_CONTEXT_CHARS))
        .description(Some("What to write about."))
}

/// One of [`CONTENT_TYPES`] (default `email`).
fn content_type_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_null(&CONTENT_TYPES).description(Some("`email` when left out."))
}

#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
struct ContentContext {
    #[schema(schema_with = context_description_schema, required = true)]
    description: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct ContentBody {
    #[serde(rename = "type")]
    #[schema(schema_with = content_type_schema)]
    kind: Option<String>,
    #[serde(default, deserialize_with = "crate::validate::object_or_null")]
    #[schema(value_type = ContentContext, required = true)]
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
    if description.chars().count() > MAX_CONTEXT_CHARS {
        return Err(ApiError::unprocessable(
            "The context must be at most 10,000 characters",
        ));
    }
    run_task::<ContentAnswer>(
        &state,
        Task::Content {
            content_type: kind,
            description: description.to_string(),
            context_type: text(&context.kind),
        },
    )
    .await
}

/// At most [`MAX_INSIGHT_ROWS`] rows, each any JSON value.
fn insight_rows_schema() -> utoipa::openapi::schema::ArrayBuilder {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(
            utoipa::openapi::ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::SchemaType::AnyValue),
        )
        .max_items(Some(MAX_INSIGHT_ROWS))
        .description(Some("The rows to look at."))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct InsightsBody {
    #[schema(schema_with = insight_rows_schema, required = true)]
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
    run_task::<InsightsAnswer>(&state, Task::Insights { data }).await
}

/// `invoice-extract` and `document-analyze`: the path says which.
async fn document_upload(
    State(state): State<AppState>,
    _u: CurrentUser,
    uri: axum::http::Uri,
    headers: HeaderMap,
    form: Result<Multipart, MultipartRejection>,
) -> ApiResult<Response> {
    let extract = uri.path().ends_with("invoice-extract");
    let task = if extract {
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
    if extract {
        answer::<InvoiceAnswer>(&state, &job.id).await
    } else {
        answer::<AnalysisAnswer>(&state, &job.id).await
    }
}

// ---- analytics and status ----

/// Reads what the analytics count ([`jobs::domain::analytics`] computes them).
async fn analytics(
    State(state): State<AppState>,
    _u: CurrentUser,
) -> ApiResult<axum::Json<analytics::Analytics>> {
    let db = &state.queue.db;
    let agents = AGENTS.map(|(kind, ..)| kind);
    let rows = db
        .ai_figure_rows(&AiReads {
            outcomes: 20_000,
            calls: 1000,
            agent_kinds: &agents,
            model_kinds: &MODEL_KINDS,
            model_runs: 500,
        })
        .await?;
    let counts = kind_counts(rows.job_counts);
    let last_runs: BTreeMap<&str, i64> = (rows.last_runs.iter())
        .map(|(kind, finished_at, created_at)| (kind.as_str(), finished_at.unwrap_or(*created_at)))
        .collect();
    let month = month_of_email(db).await?;
    let outcomes: Vec<ReplyOutcome<'_>> = rows
        .outcomes
        .iter()
        .map(|o| ReplyOutcome {
            score: o.score,
            scored: o.scored == 1,
            state: o.state.as_deref(),
            replied: o.replied,
        })
        .collect();
    let calls: Vec<Call<'_>> = rows
        .calls
        .iter()
        .map(|(status, outcome, has_transcript, simulated)| Call {
            status,
            outcome: outcome.as_deref(),
            has_transcript: *has_transcript,
            simulated: *simulated,
        })
        .collect();
    let model_runs: Vec<ModelRun<'_>> = rows
        .model_runs
        .iter()
        .filter_map(|(result, started_at, finished_at)| {
            Some(ModelRun {
                result: result.as_ref()?,
                started_at: *started_at,
                finished_at: *finished_at,
            })
        })
        .collect();
    let configured = state.queue.providers.llm.as_ref().map(|l| l.model.clone());
    Ok(axum::Json(analytics::analytics(&AnalyticsInput {
        counts: &counts,
        outcomes: &outcomes,
        calls: &calls,
        companies: rows.companies,
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
        active_campaigns: rows.bulk_campaigns,
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

/// How an integration is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = McpIntegrationStatus)]
enum IntegrationStatus {
    Operational,
    /// Three or more jobs in the last 24 hours, more than 20% of them failed.
    Degraded,
    NotConfigured,
}

/// The voice assistant's link: a configured voice provider, or demo mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = McpKojieStatus)]
enum KojieStatus {
    Connected,
    Demo,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = McpKojieConnection)]
struct KojieConnection {
    status: KojieStatus,
}

/// One integration.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = McpConnection)]
struct Connection {
    name: String,
    /// email, ai, discovery, calendar, sms, voice or payments.
    #[serde(rename = "type")]
    kind: String,
    status: IntegrationStatus,
    /// What it runs on (the mailer, the model, demo mode, ...).
    detail: String,
}

/// An integration's jobs of the last 24 hours.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = McpProtocolHealth)]
struct ProtocolHealth {
    /// Jobs per hour.
    throughput: f64,
    /// 0–1.
    failure_rate: f64,
    status: IntegrationStatus,
}

/// `/api/mcp/status`: the integrations, from the configuration and the last 24 hours of jobs.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = McpStatus)]
struct McpStatus {
    kojie_connection: KojieConnection,
    active_connections: Vec<Connection>,
    /// Jobs in the last 24 hours, by integration type.
    automation_potential: BTreeMap<String, usize>,
    /// By integration type.
    protocol_health: BTreeMap<String, ProtocolHealth>,
}

async fn mcp_status(
    State(state): State<AppState>,
    _u: CurrentUser,
) -> ApiResult<axum::Json<McpStatus>> {
    let since = now_ms() - 86_400_000;
    let finished = state.queue.db.job_finished_since(since).await?;
    let mut connections = Vec::new();
    let mut potential = BTreeMap::new();
    let mut health = BTreeMap::new();
    for (name, kind, configured, detail, kinds) in integrations(&state) {
        let runs: Vec<_> = finished
            .iter()
            .filter(|j| kinds.contains(&j.kind.as_str()))
            .collect();
        let failed = runs.iter().filter(|j| j.status == "failed").count();
        let failure_rate = ratio(failed as i64, runs.len() as i64);
        let status = if !configured {
            IntegrationStatus::NotConfigured
        } else if runs.len() >= 3 && failure_rate > 0.2 {
            IntegrationStatus::Degraded
        } else {
            IntegrationStatus::Operational
        };
        connections.push(Connection {
            name: name.into(),
            kind: kind.into(),
            status,
            detail,
        });
        potential.insert(kind.to_string(), runs.len());
        health.insert(
            kind.to_string(),
            ProtocolHealth {
                throughput: round3(runs.len() as f64 / 24.0),
                failure_rate: round3(failure_rate),
                status,
            },
        );
    }
    let kojie = if state.queue.providers.voice.is_some() {
        KojieStatus::Connected
    } else {
        KojieStatus::Demo
    };
    Ok(axum::Json(McpStatus {
        kojie_connection: KojieConnection { status: kojie },
        active_connections: connections,
        automation_potential: potential,
        protocol_health: health,
    }))
}

async fn workflows(
    state: &AppState,
) -> ApiResult<Vec<(jobs::db::SequenceRow, Vec<String>, i64, i64)>> {
    let db = &state.queue.db;
    let seqs = db.sequence_list().await?;
    let ids: Vec<String> = seqs.iter().map(|s| s.id.clone()).collect();
    let enrolled: HashMap<String, i64> = db
        .sequence_counts(&ids)
        .await?
        .into_iter()
        .map(|c| (c.sequence_id, c.total))
        .collect();
    // One statement for every sequence's steps: the overview lists all sequences.
    let mut steps: HashMap<String, (Vec<String>, i64)> = HashMap::new();
    for st in db.step_outlines(&ids).await? {
        let entry = steps.entry(st.sequence_id).or_default();
        entry.0.push(st.kind);
        entry.1 += i64::from(st.delay_minutes);
    }
    let mut out = Vec::new();
    for s in seqs {
        let (kinds, delay) = steps.remove(&s.id).unwrap_or_default();
        let total = enrolled.get(&s.id).copied().unwrap_or(0);
        out.push((s, kinds, delay, total));
    }
    Ok(out)
}

/// What email automation has to work with.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailAutomationCapabilities)]
struct EmailCapabilities {
    total_campaigns: i64,
    /// Percent of the last 30 days' messages sent with the open pixel; none when none carried it.
    open_rate: Option<f64>,
    contact_base: i64,
    /// Active sequences.
    automation_sequences: usize,
}

/// Whether a sequence can run: active with steps, else still being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = AutomationWorkflowStatus)]
enum WorkflowStatus {
    Ready,
    Development,
}

/// A sequence as an automation workflow.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AutomationWorkflow)]
struct Workflow {
    id: String,
    name: String,
    description: String,
    /// Its steps' kinds, in order.
    components: Vec<String>,
    status: WorkflowStatus,
    /// "N enrolled".
    potential: String,
}

/// The last 30 days' email figures (docs/figures.md); rates in percent.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailAutomationMetrics)]
struct EmailMetrics {
    sent: i64,
    opened: i64,
    clicked: i64,
    replied: i64,
    /// None when no message carried the open pixel.
    open_rate: Option<f64>,
    click_rate: f64,
    reply_rate: f64,
}

/// `/api/email-automation/status`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailAutomationStatus)]
struct EmailAutomationStatus {
    current_capabilities: EmailCapabilities,
    automation_workflows: Vec<Workflow>,
    performance_metrics: EmailMetrics,
}

async fn email_automation(
    State(state): State<AppState>,
    _u: CurrentUser,
) -> ApiResult<axum::Json<EmailAutomationStatus>> {
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
    let open_rate = (f.open_tracked > 0).then_some(f.open_rate);
    Ok(axum::Json(EmailAutomationStatus {
        current_capabilities: EmailCapabilities {
            total_campaigns: campaigns,
            open_rate,
            contact_base: contacts,
            automation_sequences: active,
        },
        automation_workflows: flows
            .into_iter()
            .map(|(s, kinds, _, enrolled)| Workflow {
                status: if s.status == "active" && !kinds.is_empty() {
                    WorkflowStatus::Ready
                } else {
                    WorkflowStatus::Development
                },
                id: s.id,
                name: s.name,
                description: s.description,
                components: kinds,
                potential: format!("{enrolled} enrolled"),
            })
            .collect(),
        performance_metrics: EmailMetrics {
            sent: f.sent,
            opened: f.opened,
            clicked: f.clicked,
            replied: f.replied,
            open_rate,
            click_rate: f.click_rate,
            reply_rate: f.reply_rate,
        },
    }))
}

/// Integrations of one type.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = IntegrationCategory)]
struct Category {
    /// The integration type (email, ai, ...).
    name: String,
    count: usize,
    /// The integrations' names.
    examples: Vec<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = IntegrationEcosystem)]
struct Ecosystem {
    /// Integrations configured.
    core_integrations: usize,
    /// Configured integrations that jobs use.
    #[serde(rename = "readyForKOJIE")]
    ready_for_kojie: usize,
    /// Integrations there are.
    total_potential: usize,
    categories: Vec<Category>,
}

/// A sequence as a workflow the assistant can run.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = AutomationWorkflowTemplate)]
struct WorkflowTemplate {
    name: String,
    /// "3 steps over 2 days".
    timeline: String,
    /// What enrolls a contact (one trigger).
    triggers: Vec<String>,
    /// Its steps' kinds, in order.
    actions: Vec<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = KojieAiCapabilities)]
struct KojieCapabilities {
    workflow_templates: Vec<WorkflowTemplate>,
}

/// Measured over the last 30 days; hours saved assume 3 minutes per email written and sent by hand.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = RoiProjections)]
struct RoiProjections {
    emails_sent: i64,
    meetings_booked: i64,
    revenue_cents: i64,
    hours_saved: f64,
}

/// `/api/automation/preview`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AutomationPreview)]
struct AutomationPreview {
    integration_ecosystem: Ecosystem,
    #[serde(rename = "kojieAICapabilities")]
    kojie_ai_capabilities: KojieCapabilities,
    roi_projections: RoiProjections,
}

async fn automation_preview(
    State(state): State<AppState>,
    _u: CurrentUser,
) -> ApiResult<axum::Json<AutomationPreview>> {
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
    Ok(axum::Json(AutomationPreview {
        integration_ecosystem: Ecosystem {
            core_integrations: configured,
            ready_for_kojie: list.iter().filter(|i| i.2 && !i.4.is_empty()).count(),
            total_potential: list.len(),
            categories: categories
                .into_iter()
                .map(|(k, v)| Category {
                    name: k.to_string(),
                    count: v.len(),
                    examples: v.into_iter().map(str::to_string).collect(),
                })
                .collect(),
        },
        kojie_ai_capabilities: KojieCapabilities {
            workflow_templates: flows
                .into_iter()
                .map(|(s, kinds, delay, _)| WorkflowTemplate {
                    timeline: format!("{} over {}", plural(kinds.len(), "step"), span(delay)),
                    triggers: vec![s.trigger_type.replace('_', " ")],
                    name: s.name,
                    actions: kinds,
                })
                .collect(),
        },
        roi_projections: RoiProjections {
            emails_sent: sent,
            meetings_booked: meetings.total,
            revenue_cents: payments.revenue_cents,
            hours_saved: round3(sent as f64 * 3.0 / 60.0),
        },
    }))
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

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use jobs::ai::Provenance;
    use jobs::ai::documents::{DocumentAnalysis, KeyValue};

    /// The job's stored result with its `jobId`, read as the route's type and sent again: unchanged.
    fn sent_as<A: DeserializeOwned + Serialize>(result: impl Serialize) -> (Value, Value) {
        let mut stored = serde_json::to_value(result).unwrap();
        stored["jobId"] = json!("01JOB");
        let answer: A = serde_json::from_value(stored.clone()).unwrap();
        (stored, serde_json::to_value(answer).unwrap())
    }

    #[test]
    fn answers_send_the_job_result_unchanged() {
        let llm = Provenance {
            source: jobs::ai::Source::Llm,
            fallback: false,
            message: "Sentiment analysed by the AI model".into(),
            model: Some("test-model".into()),
            latency_ms: Some(12),
            tokens: Some(40),
        };
        let (stored, sent) = sent_as::<SentimentAnswer>(SentimentResult {
            sentiment: jobs::ai::Sentiment::Negative,
            score: 20,
            key_factors: vec!["Lost twice".into()],
            provenance: llm,
        });
        assert_eq!(stored, sent);
        assert_eq!(
            (&sent["sentiment"], &sent["jobId"], &sent["latencyMs"]),
            (&json!("negative"), &json!("01JOB"), &json!(12))
        );
        let template = Provenance::template("Document analysed by rules".into());
        let (stored, sent) = sent_as::<AnalysisAnswer>(AnalysisResult {
            analysis: DocumentAnalysis {
                document_type: "letter".into(),
                summary: "Dear Ann.".into(),
                confidence: 45,
                key_data: BTreeMap::from([
                    ("Words".to_string(), KeyValue::Count(2)),
                    ("Re".to_string(), KeyValue::Text("Tubs".into())),
                ]),
            },
            media_type: "application/pdf".into(),
            text_chars: 9,
            provenance: template,
        });
        assert_eq!(stored, sent);
        assert_eq!(
            sent["analysis"]["keyData"],
            json!({"Words": 2, "Re": "Tubs"})
        );
        assert!(sent.get("model").is_none(), "{sent}");
        // A result of another shape is not sent as this route's answer.
        let other = json!({"content": "Hi", "source": "template", "fallback": true,
                           "message": "m", "jobId": "01JOB"});
        assert!(serde_json::from_value::<SentimentAnswer>(other).is_err());
    }

    #[test]
    fn status_field_names_stay_as_the_web_app_reads_them() {
        let preview = AutomationPreview {
            integration_ecosystem: Ecosystem {
                core_integrations: 2,
                ready_for_kojie: 1,
                total_potential: 7,
                categories: vec![Category {
                    name: "ai".into(),
                    count: 1,
                    examples: vec!["AI model".into()],
                }],
            },
            kojie_ai_capabilities: KojieCapabilities {
                workflow_templates: vec![WorkflowTemplate {
                    name: "Welcome".into(),
                    timeline: format!("{} over {}", plural(2, "step"), span(1440)),
                    triggers: vec!["contact created".into()],
                    actions: vec!["email".into(), "task".into()],
                }],
            },
            roi_projections: RoiProjections {
                emails_sent: 20,
                meetings_booked: 1,
                revenue_cents: 0,
                hours_saved: 1.0,
            },
        };
        let v = serde_json::to_value(&preview).unwrap();
        assert_eq!(v["integrationEcosystem"]["readyForKOJIE"], 1, "{v}");
        assert_eq!(
            v["kojieAICapabilities"]["workflowTemplates"][0]["timeline"],
            "2 steps over 1 day"
        );
        assert_eq!(v["roiProjections"]["hoursSaved"], 1.0);
        let status = McpStatus {
            kojie_connection: KojieConnection {
                status: KojieStatus::Demo,
            },
            active_connections: vec![Connection {
                name: "AI model".into(),
                kind: "ai".into(),
                status: IntegrationStatus::NotConfigured,
                detail: "template fallbacks".into(),
            }],
            automation_potential: BTreeMap::from([("ai".to_string(), 4)]),
            protocol_health: BTreeMap::from([(
                "ai".to_string(),
                ProtocolHealth {
                    throughput: 0.167,
                    failure_rate: 0.0,
                    status: IntegrationStatus::Degraded,
                },
            )]),
        };
        let v = serde_json::to_value(&status).unwrap();
        assert_eq!(
            v["activeConnections"][0],
            json!({"name": "AI model", "type": "ai", "status": "not_configured",
                   "detail": "template fallbacks"})
        );
        assert_eq!(v["kojieConnection"], json!({"status": "demo"}));
        assert_eq!(v["protocolHealth"]["ai"]["failureRate"], 0.0);
        assert_eq!(v["automationPotential"], json!({"ai": 4}));
    }

    /// `schema` with the schemas it names (`$ref`) put in place, `depth` levels down.
    fn inlined(doc: &Value, schema: &Value, depth: usize) -> Value {
        match schema {
            Value::Object(o) => {
                let named = o
                    .get("$ref")
                    .and_then(Value::as_str)
                    .and_then(|r| r.strip_prefix("#/components/schemas/"));
                match named {
                    Some(name) if depth > 0 => {
                        inlined(doc, &doc["components"]["schemas"][name], depth - 1)
                    }
                    _ => Value::Object(
                        o.iter()
                            .map(|(k, v)| (k.clone(), inlined(doc, v, depth)))
                            .collect(),
                    ),
                }
            }
            Value::Array(a) => Value::Array(a.iter().map(|v| inlined(doc, v, depth)).collect()),
            other => other.clone(),
        }
    }

    /// The AI routes document both answers: the result (200) and the job to follow (202, Location).
    #[test]
    fn ai_routes_document_their_result_and_the_job_to_follow() {
        let table = crate::route_table();
        let doc = serde_json::to_value(crate::openapi::document(&table)).unwrap();
        for (path, field) in [
            ("/api/ai/sentiment-analysis", "keyFactors"),
            ("/api/ai/market-intelligence", "intelligence"),
            ("/api/ai/generate-outreach", "subject"),
            ("/api/ai/generate-content", "content"),
            ("/api/ai/generate-insights", "insights"),
            ("/api/ai/invoice-extract", "extractedData"),
            ("/api/ai/document-analyze", "analysis"),
        ] {
            let responses = &doc["paths"][path]["post"]["responses"];
            let ok = inlined(
                &doc,
                &responses["200"]["content"]["application/json"]["schema"],
                6,
            )
            .to_string();
            assert!(ok.contains(field) && ok.contains("jobId"), "{path}: {ok}");
            let later = &responses["202"];
            assert!(later["headers"]["Location"].is_object(), "{path}: {later}");
            assert!(later.to_string().contains("JobAccepted"), "{path}: {later}");
        }
        let schemas = &doc["components"]["schemas"];
        for name in [
            "AiProvenance",
            "AiExtractedInvoice",
            "AiAnalytics",
            "McpStatus",
        ] {
            assert!(schemas[name].is_object(), "{name} missing");
        }
        let preview = schemas["IntegrationEcosystem"].to_string();
        assert!(preview.contains("readyForKOJIE"), "{preview}");
    }
}
