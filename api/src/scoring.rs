//! Lead intelligence: AI scoring (seed 002 "Automation, scoring"), verification and enrichment
//! (seed 001 §7), one contact or many, and the scoring insights. The work runs as jobs; the
//! answers are `202` with the job to follow, whose result has the seed's shapes. "Many" is a
//! selection: picked contacts or everyone the contacts list's filters match (at most 10,000).
//! Companies are enriched from their own websites (`company_enrich`, docs/providers.md): one, or
//! up to [`MAX_COMPANY_ENRICH`] picked companies, one job each.

use std::collections::HashSet;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::kinds::{AiScore, BulkAiScore, CompanyEnrich, ContactEnrich, ContactVerify, HIGH_VALUE};
use jobs::queue::{JobKind, NewJob};
use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::enqueue::accepted;
use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path};
use crate::targeting::Selection;
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/contacts/{id}/ai-score", Access::User, score_one)
        .accepted()
        .post("/api/contacts/bulk-ai-score", Access::User, score_many)
        .body::<ScoreBulkBody>()
        .accepted()
        .also::<NothingToScore>(200)
        .post("/api/contacts/{id}/verify", Access::User, verify_one)
        .accepted()
        .post("/api/contacts/{id}/enrich", Access::User, enrich_one)
        .accepted()
        .post("/api/contacts/bulk-enrich", Access::User, enrich_many)
        .body::<EnrichBody>()
        .accepted()
        .get("/api/scoring-insights", Access::User, insights)
        .returns::<Insights>()
        .post("/api/companies/{id}/enrich", Access::User, enrich_company)
        .accepted()
        .post("/api/companies/bulk-enrich", Access::User, enrich_companies)
        .body::<CompanyEnrichBody>()
        .returns_status::<CompaniesEnriching>(202)
}

/// Companies one bulk enrichment may pick (each is a job reading up to four pages).
pub const MAX_COMPANY_ENRICH: usize = 200;
pub const NO_WEBSITE: &str = "The company has no website to read. Add its website first.";

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
struct ScoreBulk {
    #[serde(flatten)]
    selection: Selection,
    #[serde(default)]
    use_enterprise_model: bool,
}

/// The three ways a [`Selection`] names contacts; naming none is refused (`selected_ids`), as is
/// a selection whose companies or filters hold no contacts (that depends on the data).
fn something_named(base: RefOr<Schema>) -> RefOr<Schema> {
    use utoipa::openapi::ObjectBuilder;
    use utoipa::openapi::schema::ArrayBuilder;
    let some = || ArrayBuilder::new().min_items(Some(1)).into();
    crate::validate::one_shape_of(
        base,
        vec![
            vec![("contactIds", some())],
            vec![("companyIds", some())],
            vec![(
                "contactFilter",
                ObjectBuilder::new()
                    .schema_type(utoipa::openapi::Type::Object)
                    .into(),
            )],
        ],
    )
}

crate::validate::body_variant!(
    /// [`ScoreBulk`], which names contacts.
    ScoreBulkBody(ScoreBulk),
    something_named
);

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
    Json(ScoreBulkBody(body)): Json<ScoreBulkBody>,
) -> ApiResult<Response> {
    let ids = selected_ids(&state, &body.selection, NO_CONTACTS).await?;
    // Only contacts that need it (seed 002 §5): never scored or below the rescoring threshold.
    let due = state
        .queue
        .db
        .contact_score_facts_many(&ids, jobs::kinds::RESCORE_BELOW)
        .await?;
    if due.is_empty() {
        let body = NothingToScore {
            message: ALL_SCORED,
            scoring_results: Vec::new(),
        };
        return Ok((StatusCode::OK, axum::Json(body)).into_response());
    }
    let job = BulkAiScore {
        contact_ids: due.into_iter().map(|(id, ..)| id).collect(),
        use_enterprise_model: body.use_enterprise_model,
    };
    let payload = serde_json::to_value(&job).map_err(anyhow::Error::from)?;
    let job = state
        .queue
        .enqueue(NewJob::new(BulkAiScore::NAME, payload))
        .await?;
    Ok(accepted(&job.id, &job.status))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ScoreBand)]
struct Band {
    range: &'static str,
    count: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
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

/// Which contacts, as [`ScoreBulkBody`].
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Enrich {
    #[serde(flatten)]
    selection: Selection,
}

crate::validate::body_variant!(
    /// [`Enrich`], which names contacts.
    EnrichBody(Enrich),
    something_named
);

async fn enrich_many(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(EnrichBody(body)): Json<EnrichBody>,
) -> ApiResult<Response> {
    let contact_ids = selected_ids(
        &state,
        &body.selection,
        "Select at least one contact to enrich.",
    )
    .await?;
    enqueue(&state, &ContactEnrich { contact_ids }).await
}

/// The job that enriches `id`; a double click finds the one already waiting.
async fn enqueue_company(state: &AppState, id: &str, actor: &str) -> ApiResult<(String, String)> {
    let payload = serde_json::to_value(CompanyEnrich {
        company_id: id.to_string(),
        actor_id: Some(actor.to_string()),
    })
    .map_err(anyhow::Error::from)?;
    let job = state
        .queue
        .enqueue(
            NewJob::new(CompanyEnrich::NAME, payload)
                .idempotency_key(format!("company_enrich:{id}")),
        )
        .await?;
    Ok((job.id, job.status))
}

async fn enrich_company(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let target = state
        .queue
        .db
        .company_enrich_target(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Company not found"))?;
    if target.website.is_none_or(|w| w.trim().is_empty()) {
        return Err(ApiError::unprocessable(NO_WEBSITE));
    }
    let (job, status) = enqueue_company(&state, &id, &user.user.id).await?;
    Ok(accepted(&job, &status))
}

/// 1 to [`MAX_COMPANY_ENRICH`] company ids (repeats count once).
fn company_ids_schema() -> utoipa::openapi::schema::ArrayBuilder {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::String))
        .min_items(Some(1))
        .max_items(Some(MAX_COMPANY_ENRICH))
}

/// Picked companies; at least one must have a website (that depends on the data).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompanyEnrichBody {
    #[schema(schema_with = company_ids_schema)]
    company_ids: Vec<String>,
}

/// One job per picked company with a website: `202` with their ids, and how many were left out
/// (no website, or gone).
async fn enrich_companies(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(body): Json<CompanyEnrichBody>,
) -> ApiResult<Response> {
    let mut seen = HashSet::new();
    let ids: Vec<&String> = body
        .company_ids
        .iter()
        .filter(|id| seen.insert(id.as_str()))
        .collect();
    if ids.is_empty() {
        return Err(ApiError::unprocessable(
            "Select at least one company to enrich.",
        ));
    }
    if ids.len() > MAX_COMPANY_ENRICH {
        return Err(ApiError::unprocessable(format!(
            "Select at most {MAX_COMPANY_ENRICH} companies to enrich at once."
        )));
    }
    let mut job_ids = Vec::new();
    let mut skipped = 0;
    for id in ids {
        let target = state.queue.db.company_enrich_target(id).await?;
        if target.is_none_or(|t| t.website.is_none_or(|w| w.trim().is_empty())) {
            skipped += 1;
            continue;
        }
        job_ids.push(enqueue_company(&state, id, &user.user.id).await?.0);
    }
    if job_ids.is_empty() {
        return Err(ApiError::unprocessable(
            "None of the selected companies has a website to read.",
        ));
    }
    let message = format!(
        "Enriching {} {} from {} website{}",
        job_ids.len(),
        if job_ids.len() == 1 {
            "company"
        } else {
            "companies"
        },
        if job_ids.len() == 1 { "its" } else { "their" },
        if job_ids.len() == 1 { "" } else { "s" },
    );
    let body = CompaniesEnriching {
        queued: job_ids.len(),
        job_ids,
        status: "queued",
        skipped,
        message,
    };
    Ok((StatusCode::ACCEPTED, axum::Json(body)).into_response())
}

/// A bulk score with nothing to do: every selected contact is scored well enough already.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct NothingToScore {
    message: &'static str,
    /// Always empty.
    scoring_results: Vec<String>,
}

/// One `company_enrich` job per picked company with a website.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompaniesEnriching {
    job_ids: Vec<String>,
    /// `queued`.
    status: &'static str,
    queued: usize,
    /// Picked companies without a website (or gone).
    skipped: usize,
    message: String,
}
