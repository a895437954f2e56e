//! Voice agents (seed 002 §2 "Voice Agents screen", §3, §5, §7 "Voice agents", §8): agents stored and
//! editable, calls placed by the `voice_call` job through the voice-agent API (or simulated in demo
//! mode, and labelled so), and the API's signed status callbacks. Contract: docs/voice-and-ai.md.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use jobs::db::{VoiceAgentRow, VoiceCallRow};
use jobs::queue::NewJob;
use jobs::time::{now_ms, to_rfc3339};
use jobs::voice::{Applied, Callback, apply_callback};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::{Access, AppState, Routes};

pub const MISSING: &str =
    "Missing Information: Please select a contact, agent, and provide a call purpose";
const MAX_CAPABILITIES: usize = 20;
/// Most characters of an agent's name.
const MAX_NAME_CHARS: usize = 100;
/// Most characters of a call's purpose.
const MAX_PURPOSE_CHARS: usize = 2000;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/kojie/health", Access::User, health)
        .returns::<Health>()
        .get("/api/kojie/voice-agents", Access::User, agent_list)
        .returns_list::<AgentView>()
        .post("/api/kojie/voice-agents", Access::User, agent_create)
        .body::<NewAgentBody>()
        .creates::<AgentView>()
        .patch("/api/kojie/voice-agents/{id}", Access::User, agent_update)
        .body::<AgentBody>()
        .returns::<AgentView>()
        .post("/api/kojie/voice-call", Access::User, voice_call)
        .body::<CallBody>()
        .returns_status::<CallQueued>(202)
        .post(
            "/api/kojie/schedule-followup",
            Access::User,
            schedule_followup,
        )
        .body::<FollowupBody>()
        .returns_status::<CallQueued>(202)
        .get("/api/kojie/calls", Access::User, call_list)
        .query::<CallQuery>()
        .returns_list::<CallView>()
        .get("/api/kojie/calls/{id}", Access::User, call_get)
        .returns::<CallView>()
        .post("/api/webhooks/voice", Access::Public, webhook)
        .body::<jobs::voice::Callback>()
        .signed_by("X-Voice-Signature")
        .no_content()
}

/// Whether calls are placed (a voice service is configured) or simulated, and what the screen offers.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = VoiceHealth)]
struct Health {
    /// `connected` or `demo`.
    status: &'static str,
    features: Vec<&'static str>,
    /// The voice service's host.
    provider: Option<String>,
}

const AGENT_STATUSES: [&str; 2] = ["active", "inactive"];

fn agent_status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&AGENT_STATUSES)
}

fn call_status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&jobs::voice::CALL_STATUSES)
}

fn outcome_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_null(&jobs::voice::OUTCOMES)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AgentView {
    id: String,
    name: String,
    /// `active` or `inactive`.
    #[schema(schema_with = agent_status_schema)]
    status: String,
    capabilities: Vec<String>,
    description: Option<String>,
    created_at: String,
    updated_at: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CallView {
    id: String,
    contact_id: String,
    contact_name: String,
    agent_id: String,
    agent_name: String,
    purpose: String,
    to_phone: String,
    #[schema(schema_with = call_status_schema)]
    status: String,
    /// No voice service: nothing was dialled.
    simulated: bool,
    #[schema(schema_with = outcome_schema)]
    outcome: Option<String>,
    transcript: Option<String>,
    summary: Option<String>,
    duration_seconds: Option<i32>,
    /// A meeting the call agreed, as the voice service describes it.
    suggested_meeting: Option<Value>,
    error: Option<String>,
    job_id: Option<String>,
    /// RFC 3339; a scheduled follow-up.
    scheduled_for: Option<String>,
    created_at: String,
    updated_at: String,
}

/// A call stored and its `voice_call` job queued (or scheduled).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CallQueued {
    call_id: String,
    job_id: String,
    /// `queued`, or `scheduled` for a follow-up.
    status: &'static str,
    /// RFC 3339; follow-ups only.
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled_for: Option<String>,
    simulated: bool,
}

async fn health(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<axum::Json<Health>> {
    let voice = state.queue.providers.voice.as_ref();
    let mut features = vec![
        "Outbound qualification calls",
        "Scheduled follow-up calls",
        "Call history on contacts",
    ];
    if voice.is_some() {
        features.extend([
            "Transcripts and outcomes",
            "Meeting suggestions for qualified leads",
        ]);
    } else {
        features.push("Simulated calls (demo mode: nothing is dialled)");
    }
    Ok(axum::Json(Health {
        status: if voice.is_some() { "connected" } else { "demo" },
        features,
        provider: voice.and_then(|v| v.host()),
    }))
}

fn agent_json(a: &VoiceAgentRow) -> AgentView {
    AgentView {
        id: a.id.clone(),
        name: a.name.clone(),
        status: a.status.clone(),
        capabilities: a.capabilities.0.clone(),
        description: a.description.clone(),
        created_at: to_rfc3339(a.created_at),
        updated_at: to_rfc3339(a.updated_at),
    }
}

async fn agent_list(
    State(state): State<AppState>,
    _user: CurrentUser,
) -> ApiResult<axum::Json<Vec<AgentView>>> {
    let agents = state.queue.db.voice_agent_list().await?;
    Ok(axum::Json(agents.iter().map(agent_json).collect()))
}

/// An agent's name: not blank, at most [`MAX_NAME_CHARS`] characters once trimmed.
fn agent_name_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::trimmed_text(1, Some(MAX_NAME_CHARS))
        .description(Some("At most 100 characters."))
}

/// [`agent_name_schema`], or null (the name stays as it is).
fn agent_name_or_null_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::trimmed_text_or_null(1, Some(MAX_NAME_CHARS))
        .description(Some("At most 100 characters."))
}

/// One of [`AGENT_STATUSES`], or null (it stays as it is).
fn agent_status_or_null_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_null(&AGENT_STATUSES)
}

/// At most [`MAX_CAPABILITIES`] (blank ones and repeats are dropped, so the document's count of
/// items is a floor of what is taken), or null.
fn capabilities_schema() -> utoipa::openapi::schema::ArrayBuilder {
    use utoipa::openapi::{Type, schema::SchemaType};
    utoipa::openapi::schema::ArrayBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
        .items(utoipa::openapi::ObjectBuilder::new().schema_type(Type::String))
        .max_items(Some(MAX_CAPABILITIES))
}

/// The fields of an agent to change; a field left out or null stays as it is.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AgentBody {
    #[schema(schema_with = agent_name_or_null_schema)]
    name: Option<String>,
    #[schema(schema_with = agent_status_or_null_schema)]
    status: Option<String>,
    #[schema(schema_with = capabilities_schema)]
    capabilities: Option<Vec<String>>,
    description: Option<String>,
}

crate::validate::body_variant!(
    /// A new agent: [`AgentBody`] with its name.
    NewAgentBody(AgentBody),
    |base| crate::validate::requiring(
        base,
        "A new agent (active unless said otherwise).",
        vec![("name", agent_name_schema().into())]
    )
);

/// Applies a body to an agent (a new one starts active, without capabilities).
fn apply_agent(a: &mut VoiceAgentRow, b: AgentBody) -> ApiResult<()> {
    if let Some(name) = b.name {
        a.name = name.trim().to_string();
    }
    if a.name.is_empty() {
        return Err(ApiError::unprocessable("Agent name is required"));
    }
    if a.name.chars().count() > MAX_NAME_CHARS {
        return Err(ApiError::unprocessable(
            "Agent name must be at most 100 characters",
        ));
    }
    if let Some(s) = b.status {
        if !AGENT_STATUSES.contains(&s.as_str()) {
            return Err(ApiError::unprocessable("Status must be active or inactive"));
        }
        a.status = s;
    }
    if let Some(caps) = b.capabilities {
        let mut clean: Vec<String> = Vec::new();
        for c in caps.iter().map(|c| c.trim()).filter(|c| !c.is_empty()) {
            if !clean.iter().any(|x| x.eq_ignore_ascii_case(c)) {
                clean.push(c.chars().take(60).collect());
            }
        }
        if clean.len() > MAX_CAPABILITIES {
            return Err(ApiError::unprocessable(format!(
                "At most {MAX_CAPABILITIES} capabilities"
            )));
        }
        a.capabilities = sqlx::types::Json(clean);
    }
    if let Some(d) = b.description {
        let d = d.trim();
        a.description = (!d.is_empty()).then(|| d.chars().take(1000).collect());
    }
    Ok(())
}

async fn agent_create(
    State(state): State<AppState>,
    _user: CurrentUser,
    Json(NewAgentBody(body)): Json<NewAgentBody>,
) -> ApiResult<Response> {
    let now = now_ms();
    let mut agent = VoiceAgentRow {
        id: ulid::Ulid::new().to_string(),
        name: String::new(),
        status: "active".into(),
        capabilities: sqlx::types::Json(Vec::new()),
        description: None,
        created_at: now,
        updated_at: now,
    };
    apply_agent(&mut agent, body)?;
    state.queue.db.voice_agent_insert(&agent).await?;
    Ok((StatusCode::CREATED, axum::Json(agent_json(&agent))).into_response())
}

async fn agent_update(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<AgentBody>,
) -> ApiResult<axum::Json<AgentView>> {
    let db = &state.queue.db;
    let mut agent = db
        .voice_agent_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Voice agent not found"))?;
    apply_agent(&mut agent, body)?;
    agent.updated_at = now_ms();
    db.voice_agent_update(&agent).await?;
    Ok(axum::Json(agent_json(&agent)))
}

fn call_json(c: &VoiceCallRow) -> CallView {
    CallView {
        id: c.id.clone(),
        contact_id: c.contact_id.clone(),
        contact_name: c.contact_name.clone(),
        agent_id: c.agent_id.clone(),
        agent_name: c.agent_name.clone(),
        purpose: c.purpose.clone(),
        to_phone: c.to_phone.clone(),
        status: c.status.clone(),
        simulated: c.simulated,
        outcome: c.outcome.clone(),
        transcript: c.transcript.clone(),
        summary: c.summary.clone(),
        duration_seconds: c.duration_seconds,
        suggested_meeting: c.suggested_meeting.as_ref().map(|m| m.0.clone()),
        error: c.error.clone(),
        job_id: c.job_id.clone(),
        scheduled_for: c.scheduled_for.map(to_rfc3339),
        created_at: to_rfc3339(c.created_at),
        updated_at: to_rfc3339(c.updated_at),
    }
}

/// Required text (not blank).
fn required_text() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank()
}

/// Not blank, at most [`MAX_PURPOSE_CHARS`] characters once trimmed.
fn purpose_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::trimmed_text(1, Some(MAX_PURPOSE_CHARS))
        .description(Some("At most 2,000 characters."))
}

/// A call to place: an active agent calls a contact with a phone number.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CallBody {
    #[schema(schema_with = required_text, required = true)]
    contact_id: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    agent_id: Option<String>,
    #[schema(schema_with = purpose_schema, required = true)]
    purpose: Option<String>,
    /// Follow-ups only.
    scheduled_for: Option<String>,
}

/// When to call back: an RFC 3339 date-time, in the future and within a year.
fn scheduled_for_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::schema::{KnownFormat, SchemaFormat};
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
        .description(Some(
            "When to call back: a date-time in the future and within a year.",
        ))
}

crate::validate::body_variant!(
    /// A follow-up call: [`CallBody`] with when to place it.
    FollowupBody(CallBody),
    |base| crate::validate::requiring(
        base,
        "A call to place later: an active agent calls a contact with a phone number.",
        vec![("scheduledFor", scheduled_for_schema().into())]
    )
);

/// Checks the call and stores it with its job (at `run_at`, when scheduled) in one transaction.
async fn place(
    state: &AppState,
    user: &CurrentUser,
    body: CallBody,
    run_at: Option<i64>,
) -> ApiResult<(VoiceCallRow, String)> {
    let present = |v: &Option<String>| {
        v.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    let (Some(contact_id), Some(agent_id), Some(purpose)) = (
        present(&body.contact_id),
        present(&body.agent_id),
        present(&body.purpose),
    ) else {
        return Err(ApiError::unprocessable(MISSING));
    };
    if purpose.chars().count() > MAX_PURPOSE_CHARS {
        return Err(ApiError::unprocessable(
            "The call purpose must be at most 2,000 characters",
        ));
    }
    let db = &state.queue.db;
    let contact = db
        .contact_get(&contact_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Contact not found"))?;
    let agent = db
        .voice_agent_get(&agent_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Voice agent not found"))?;
    if agent.status != "active" {
        return Err(ApiError::unprocessable("This agent is not active"));
    }
    let phone = contact
        .phone
        .clone()
        .filter(|p| p.chars().filter(char::is_ascii_digit).count() >= 7)
        .ok_or_else(|| ApiError::unprocessable("This contact has no phone number"))?;
    let now = now_ms();
    let id = ulid::Ulid::new().to_string();
    let mut job = NewJob::new("voice_call", json!({ "callId": id }));
    if let Some(at) = run_at.and_then(chrono::DateTime::from_timestamp_millis) {
        job = job.run_at(at);
    }
    let mut tx = state.queue.begin().await?;
    let inserted = tx.enqueue(job).await?;
    let call = VoiceCallRow {
        id,
        contact_id,
        agent_id,
        purpose,
        to_phone: phone,
        status: if run_at.is_some() {
            "scheduled"
        } else {
            "queued"
        }
        .into(),
        simulated: state.queue.providers.voice.is_none(),
        provider_call_id: None,
        outcome: None,
        transcript: None,
        summary: None,
        duration_seconds: None,
        suggested_meeting: None,
        error: None,
        job_id: Some(inserted.id.clone()),
        scheduled_for: run_at,
        actor_id: Some(user.user.id.clone()),
        created_at: now,
        updated_at: now,
        contact_name: format!("{} {}", contact.first_name, contact.last_name),
        agent_name: agent.name,
    };
    tx.tx().voice_call_insert(&call).await?;
    tx.commit().await?;
    Ok((call, inserted.id))
}

async fn voice_call(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<CallBody>,
) -> ApiResult<Response> {
    let (call, job_id) = place(&state, &user, body, None).await?;
    Ok(accepted(CallQueued {
        call_id: call.id,
        job_id,
        status: "queued",
        scheduled_for: None,
        simulated: call.simulated,
    }))
}

async fn schedule_followup(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(FollowupBody(body)): Json<FollowupBody>,
) -> ApiResult<Response> {
    let Some(when) = body
        .scheduled_for
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        return Err(ApiError::unprocessable(
            "Choose when to call back (scheduledFor)",
        ));
    };
    let at = chrono::DateTime::parse_from_rfc3339(when)
        .map_err(|_| {
            ApiError::unprocessable(
                "scheduledFor must be a date and time like 2026-12-01T15:00:00Z",
            )
        })?
        .timestamp_millis();
    if at <= now_ms() {
        return Err(ApiError::unprocessable(
            "Follow-up time must be in the future",
        ));
    }
    if at > now_ms() + 366 * 86_400_000 {
        return Err(ApiError::unprocessable(
            "Follow-up time must be within a year",
        ));
    }
    let (call, job_id) = place(&state, &user, body, Some(at)).await?;
    Ok(accepted(CallQueued {
        call_id: call.id,
        job_id,
        status: "scheduled",
        scheduled_for: Some(to_rfc3339(at)),
        simulated: call.simulated,
    }))
}

/// 202 with the call and the job to follow (`Location`).
fn accepted(body: CallQueued) -> Response {
    (
        StatusCode::ACCEPTED,
        [(
            axum::http::header::LOCATION,
            format!("/api/jobs/{}", body.job_id),
        )],
        axum::Json(body),
    )
        .into_response()
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct CallQuery {
    contact_id: Option<String>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
}

async fn call_list(
    State(state): State<AppState>,
    _user: CurrentUser,
    Query(q): Query<CallQuery>,
) -> ApiResult<axum::Json<Vec<CallView>>> {
    let (limit, _) = crate::list::paging(q.limit, None)?;
    let calls = state
        .queue
        .db
        .voice_call_list(q.contact_id.as_deref(), limit)
        .await?;
    Ok(axum::Json(calls.iter().map(call_json).collect()))
}

async fn call_get(
    State(state): State<AppState>,
    _user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<CallView>> {
    let call = state
        .queue
        .db
        .voice_call_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Call not found"))?;
    Ok(axum::Json(call_json(&call)))
}

async fn webhook(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    let Some(voice) = state.queue.providers.voice.clone() else {
        return Err(ApiError::bad_request("The voice service is not configured"));
    };
    let signature = headers
        .get("x-voice-signature")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !jobs::providers::voice::verify_signature(
        voice.webhook_secret(),
        signature,
        &body,
        now_ms() / 1000,
    ) {
        return Err(ApiError::bad_request("Invalid voice callback signature"));
    }
    let cb: Callback = serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("Malformed callback: {e}")))?;
    let applied = apply_callback(&state.queue.db, &cb, now_ms())
        .await
        .map_err(ApiError::bad_request)?;
    if applied == Applied::UnknownCall {
        tracing::warn!(provider_call_id = %cb.id, "voice callback for a call we did not place");
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document's agent name is the check's: trimmed, not blank, at most 100 characters (one
    /// that `str::trim` alone removes, U+3000, stands for the others).
    #[test]
    fn agent_names_are_described_as_checked() {
        let schema = serde_json::to_value(agent_name_schema().build()).unwrap_or_default();
        let pattern = regex::Regex::new(schema["pattern"].as_str().unwrap_or_default());
        let Ok(pattern) = pattern else {
            panic!("{schema}")
        };
        let long = "é".repeat(MAX_NAME_CHARS);
        for name in [
            "A".to_string(),
            " \t\u{3000}Ann\n".to_string(),
            "Ann  Lee".to_string(),
            String::new(),
            " \u{3000}\u{85} ".to_string(),
            long.clone(),
            format!("  {long}\u{2028}"),
            format!("{long}x"),
        ] {
            let mut agent = VoiceAgentRow {
                id: String::new(),
                name: String::new(),
                status: "active".into(),
                capabilities: sqlx::types::Json(Vec::new()),
                description: None,
                created_at: 0,
                updated_at: 0,
            };
            let body = AgentBody {
                name: Some(name.clone()),
                status: None,
                capabilities: None,
                description: None,
            };
            let taken = apply_agent(&mut agent, body).is_ok();
            assert_eq!(pattern.is_match(&name), taken, "{name:?}");
        }
    }
}
