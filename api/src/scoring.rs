//! Lead intelligence: AI scoring (seed 002 "Automation, scoring"), verification and enrichment
//! (seed 001 §7), one contact or many, and the scoring insights. The work runs as jobs; the
//! answers are `202` with the job to follow, whose result has the seed's shapes. "Many" is a
//! selection: picked contacts or everyone the contacts list's filters match (at most 10,000).

use std::collections::HashSet;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::kinds::{AiScore, BulkAiScore, ContactEnrich, ContactVerify, HIGH_VALUE};
use jobs::queue::{JobKind, NewJob};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::enqueue::accepted;
use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path};
use crate::targeting::Selection;
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/contacts/{id}/ai-score", Access::User, score_one)
        .post("/api/contacts/bulk-ai-score", Access::User, score_many)
        .body::<BulkBody>()
        .post("/api/contacts/{id}/verify", Access::User, verify_one)
        .post("/api/contacts/{id}/enrich", Access::User, enrich_one)
        .post("/api/contacts/bulk-enrich", Access::User, enrich_many)
        .body::<EnrichBody>()
        .get("/api/scoring-insights", Access::User, insights)
}

pub const NO_CONTACTS: &str = "No contacts to score. Add contacts first.";
pub const ALL_SCORED: &str = "All contacts already have high-quality scores.";

async fn score_one(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    if state.queue.db.contact_score_facts(&id).await?.is_none() {
        return Err(ApiError::not_found("Contact not found"));
    }
    let payload = serde_json::to_value(AiScore {
        contact_id: Some(id),
        company_id: None,
    })
    .map_err(anyhow::Error::from)?;
    let job = state
        .queue
        .enqueue(NewJob::new(AiScore::NAME, payload))
        .await?;
    Ok(accepted(&job.id, &job.status))
}

/// Which contacts: picked ids, the contacts of picked companies, or every contact the contacts
/// list's filters match (`contactFilter`, the list's own query parameters), up to 10,000.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct BulkBody {
    #[serde(flatten)]
    selection: Selection,
    #[serde(default)]
    use_enterprise_model: bool,
}

/// The selected contacts' ids; `empty` is the answer when nothing is selected or matches.
async fn selected_ids(
    state: &AppState,
    selection: &Selection,
    empty: &str,
) -> ApiResult<Vec<String>> {
    let ids = match selection.contact_ids(&state.queue.db).await? {
        Some(ids) if !ids.is_empty() => ids,
        _ => return Err(ApiError::unprocessable(empty)),
    };
    // Picked contacts keep the order they were picked in: the job's results list them so.
    let mut seen = HashSet::new();
    let mut ordered: Vec<String> = selection
        .contact_ids
        .iter()
        .flatten()
        .filter(|id| seen.insert(id.as_str()))
        .cloned()
        .collect();
    ordered.extend(ids.into_iter().filter(|id| !seen.contains(id.as_str())));
    Ok(ordered)
}

async fn score_many(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(body): Json<BulkBody>,
) -> ApiResult<Response> {
    let ids = selected_ids(&state, &body.selection, NO_CONTACTS).await?;
    // Only contacts that need it (seed 002 §5): never scored or below the rescoring threshold.
    let due = state
        .queue
        .db
        .contact_score_facts_many(&ids, jobs::kinds::RESCORE_BELOW)
        .await?;
    if due.is_empty() {
        let body = json!({ "message": ALL_SCORED, "scoringResults": [] });
        return Ok((StatusCode::OK, axum::Json(body)).into_response());
    }
    let job = BulkAiScore {
        contact_ids: due.into_iter().map(|(id, _)| id).collect(),
        use_enterprise_model: body.use_enterprise_model,
    };
    let payload = serde_json::to_value(&job).map_err(anyhow::Error::from)?;
    let job = state
        .queue
        .enqueue(NewJob::new(BulkAiScore::NAME, payload))
        .await?;
    Ok(accepted(&job.id, &job.status))
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Band {
    range: &'static str,
    count: i64,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Insights {
    average_score: i64,
    high_value_count: i64,
    total_contacts: i64,
    scoring_distribution: Vec<Band>,
}

async fn insights(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<axum::Json<Insights>> {
    let counts = state.queue.db.contact_score_counts().await?;
    let bands: [(&str, i32, i32); 4] = [
        ("0-49", 0, 49),
        ("50-69", 50, 69),
        ("70-84", 70, 84),
        ("85-100", 85, 100),
    ];
    let within = |lo: i32, hi: i32| -> i64 {
        counts
            .iter()
            .filter(|(s, _)| (lo..=hi).contains(s))
            .map(|(_, n)| n)
            .sum()
    };
    let total: i64 = counts.iter().map(|(_, n)| n).sum();
    let sum: i64 = counts.iter().map(|(s, n)| i64::from(*s) * n).sum();
    Ok(axum::Json(Insights {
        average_score: sum.checked_div(total).unwrap_or(0),
        high_value_count: within(HIGH_VALUE, 100),
        total_contacts: total,
        scoring_distribution: bands
            .iter()
            .map(|(range, lo, hi)| Band {
                range,
                count: within(*lo, *hi),
            })
            .collect(),
    }))
}

async fn enqueue<K: JobKind>(state: &AppState, job: &K) -> ApiResult<Response> {
    let payload = serde_json::to_value(job).map_err(anyhow::Error::from)?;
    let job = state.queue.enqueue(NewJob::new(K::NAME, payload)).await?;
    Ok(accepted(&job.id, &job.status))
}

async fn contact_exists(state: &AppState, id: &str) -> ApiResult<()> {
    match state.queue.db.contact_intel_get(id).await? {
        Some(_) => Ok(()),
        None => Err(ApiError::not_found("Contact not found")),
    }
}

async fn verify_one(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    contact_exists(&state, &id).await?;
    enqueue(&state, &ContactVerify { contact_id: id }).await
}

async fn enrich_one(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    contact_exists(&state, &id).await?;
    enqueue(
        &state,
        &ContactEnrich {
            contact_ids: vec![id],
        },
    )
    .await
}

/// Which contacts, as [`BulkBody`].
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EnrichBody {
    #[serde(flatten)]
    selection: Selection,
}

async fn enrich_many(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(body): Json<EnrichBody>,
) -> ApiResult<Response> {
    let contact_ids = selected_ids(
        &state,
        &body.selection,
        "Select at least one contact to enrich.",
    )
    .await?;
    enqueue(&state, &ContactEnrich { contact_ids }).await
}
