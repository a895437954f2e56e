//! Duplicates and merges (docs/merge.md): the Duplicates screen's suggestion groups, a record's
//! possible duplicates, merging (one pair or a group, at once; every group of a kind, as a
//! `record_merge` job) and "not duplicates".
//!
//! Errors are [`ApiError`]: a bad body or query is a 422 `{message, errors}` (the first problem is
//! the message), an unknown record a 404 ("Company not found", "Contact not found"), a record of
//! the other kind in a merge a 422.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use jobs::db::{DupRecordRow, MergeError, MergeOutcome, MergeParams};
use jobs::domain::merge::{MAX_MERGE, Reason, RecordKind, merge_ids, pairs};
use jobs::domain::one_of_message;
use jobs::kinds::RecordMerge;
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::enqueue::{accepted, job};
use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::{paging, with_total};
use crate::validate::{Body, Field, Fields, Text, field_error};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/duplicates", Access::User, groups)
        .query::<GroupsQuery>()
        .returns_page::<DupGroup>()
        .post("/api/duplicates/dismiss", Access::User, dismiss)
        .body::<DismissBody>()
        .returns::<Dismissed>()
        .get(
            "/api/companies/{id}/duplicates",
            Access::User,
            company_twins,
        )
        .returns_list::<Twin>()
        .get("/api/contacts/{id}/duplicates", Access::User, contact_twins)
        .returns_list::<Twin>()
        .post("/api/merge", Access::User, merge)
        .body::<MergeBody>()
        .returns::<MergeOutcome>()
        .post("/api/merge/bulk", Access::User, merge_bulk)
        .body::<MergeBulkBody>()
        .accepted()
}

/// Most records one suggestion group lists (the count says how many share the key).
const GROUP_RECORDS: usize = 25;
const MIXED_KINDS: &str = "Companies can only be merged with companies, and contacts with contacts";

fn kind_of(p: &mut Fields, value: Option<&str>) -> Option<RecordKind> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => {
            p.error("recordType", "recordType is required");
            None
        }
        Some(v) => {
            let kind = RecordKind::parse(v);
            if kind.is_none() {
                p.error(
                    "recordType",
                    one_of_message("recordType", &RecordKind::NAMES),
                );
            }
            kind
        }
    }
}

fn reason_of(p: &mut Fields, kind: RecordKind, value: &str) -> Option<Reason> {
    let reason = Reason::parse(kind, value.trim());
    if reason.is_none() {
        let names: Vec<&str> = kind.reasons().iter().map(|r| r.as_str()).collect();
        p.error("reason", one_of_message("reason", &names));
    }
    reason
}

fn text_field(p: &mut Fields, key: &str, field: &Field<Text>) -> Option<String> {
    p.text(key, field).flatten()
}

/// A list of ids: text items only.
fn id_list(p: &mut Fields, key: &str, field: &Field<Vec<String>>) -> Option<Vec<String>> {
    match field {
        Field::Value(ids) => Some(ids.clone()),
        Field::Absent | Field::Null => {
            p.error(key, format!("{key} is required"));
            None
        }
        Field::Wrong => {
            p.error(key, format!("{key} must be a list of ids"));
            None
        }
    }
}

/// A record as the Duplicates screen and a record page's notice show it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DupRecord {
    id: String,
    name: String,
    email: Option<String>,
    phone: Option<String>,
    website: Option<String>,
    city: Option<String>,
    state: Option<String>,
    title: Option<String>,
    company_id: Option<String>,
    company_name: Option<String>,
    status: String,
    score: i32,
    /// A company's contacts; a contact's deals and emails.
    related: i64,
    created_at: String,
    href: String,
}

fn record_of(kind: RecordKind, r: &DupRecordRow) -> DupRecord {
    DupRecord {
        id: r.id.clone(),
        name: r.name.clone(),
        email: r.email.clone(),
        phone: r.phone.clone(),
        website: r.website.clone(),
        city: r.city.clone(),
        state: r.state.clone(),
        title: r.title.clone(),
        company_id: r.company_id.clone(),
        company_name: r.company_name.clone(),
        status: r.status.clone(),
        score: r.score,
        related: r.related,
        created_at: to_rfc3339(r.created_at),
        href: match kind {
            RecordKind::Company => format!("/companies/{}", r.id),
            RecordKind::Contact => format!("/contacts/{}", r.id),
        },
    }
}

// ---- suggestion groups ----

/// [`RecordKind::NAMES`].
fn record_type_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&RecordKind::NAMES)
}

/// The reasons of every record kind (which ones a kind takes, a schema cannot say), or `""` (read
/// as absent).
fn reason_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&all_reasons())
}

/// The reasons of every record kind, each once.
fn all_reasons() -> Vec<&'static str> {
    let mut names: Vec<&str> = Vec::new();
    for kind in RecordKind::NAMES
        .iter()
        .filter_map(|n| RecordKind::parse(n))
    {
        for r in kind.reasons() {
            if !names.contains(&r.as_str()) {
                names.push(r.as_str());
            }
        }
    }
    names
}

/// The reasons of every record kind (the body's shapes say which ones a kind takes).
fn any_reason_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&all_reasons())
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct GroupsQuery {
    record_type: Option<String>,
    reason: Option<String>,
    limit: Option<i64>,
    offset: Option<i64>,
}

/// Written by hand: the derived one cannot both require `recordType` and take its values from
/// [`RecordKind::NAMES`].
impl utoipa::IntoParams for GroupsQuery {
    fn into_params(
        parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        use crate::validate::{integer, query_param};
        vec![
            query_param(
                parameter_in(),
                "recordType",
                true,
                "`company` or `contact`.",
                record_type_schema(),
            ),
            query_param(
                parameter_in(),
                "reason",
                false,
                "One kind of duplicate: `domain`, `phone`, `name` (companies) or `email`, `phone`, \
                 `name` (contacts); all kinds when absent.",
                reason_schema(),
            ),
            query_param(
                parameter_in(),
                "limit",
                false,
                "1–1000 (default 100).",
                integer(Some(1), Some(1000)),
            ),
            query_param(parameter_in(), "offset", false, "", integer(Some(0), None)),
        ]
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DupGroup {
    /// Stable within a listing: the reason and the shared key.
    id: String,
    reason: String,
    label: String,
    /// How many records share the key (`records` lists at most 25).
    count: i64,
    records: Vec<DupRecord>,
}

/// `GET /api/duplicates`: the suggestion groups, largest first, with `X-Total-Count`.
async fn groups(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<GroupsQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let mut p = Fields::default();
    let kind = kind_of(&mut p, q.record_type.as_deref());
    let reason = match (kind, q.reason.as_deref().filter(|r| !r.trim().is_empty())) {
        (Some(k), Some(r)) => reason_of(&mut p, k, r),
        _ => None,
    };
    p.finish()?;
    let Some(kind) = kind else {
        return Err(field_error("recordType", "recordType is required"));
    };
    let db = &state.queue.db;
    let (heads, total) = db.duplicate_groups(kind, reason, limit, offset).await?;
    let mut members: BTreeMap<(String, String), Vec<DupRecord>> = BTreeMap::new();
    for r in kind.reasons() {
        let keys: Vec<String> = heads
            .iter()
            .filter(|h| h.reason == r.as_str())
            .map(|h| h.k.clone())
            .collect();
        if keys.is_empty() {
            continue;
        }
        for row in db.duplicate_members(kind, *r, &keys).await? {
            let list = members
                .entry((row.reason.clone(), row.k.clone()))
                .or_default();
            if list.len() < GROUP_RECORDS {
                list.push(record_of(kind, &row));
            }
        }
    }
    let out: Vec<DupGroup> = heads
        .into_iter()
        .filter_map(|h| {
            let reason = Reason::parse(kind, &h.reason)?;
            Some(DupGroup {
                id: format!("{}:{}", h.reason, h.k),
                label: reason.label(kind).to_string(),
                records: members.remove(&(h.reason.clone(), h.k)).unwrap_or_default(),
                reason: h.reason,
                count: h.n,
            })
        })
        .collect();
    Ok(with_total(out, total))
}

// ---- a record's possible duplicates ----

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Twin {
    #[serde(flatten)]
    record: DupRecord,
    /// Why it may be the same: `[{reason, label}]`.
    reasons: Vec<TwinReason>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct TwinReason {
    reason: String,
    label: String,
}

async fn twins(state: &AppState, kind: RecordKind, id: &str) -> ApiResult<Json<Vec<Twin>>> {
    let db = &state.queue.db;
    if db.merge_record_kind(id).await? != Some(kind) {
        return Err(ApiError::not_found(kind.not_found()));
    }
    let mut out: Vec<Twin> = Vec::new();
    for row in db.duplicates_of(kind, id).await? {
        let Some(reason) = Reason::parse(kind, &row.reason) else {
            continue;
        };
        let why = TwinReason {
            reason: row.reason.clone(),
            label: reason.label(kind).to_string(),
        };
        match out.iter_mut().find(|t| t.record.id == row.id) {
            Some(t) => t.reasons.push(why),
            None => out.push(Twin {
                record: record_of(kind, &row),
                reasons: vec![why],
            }),
        }
    }
    Ok(Json(out))
}

/// `GET /api/companies/{id}/duplicates`: companies that may be the same one.
async fn company_twins(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<Twin>>> {
    twins(&state, RecordKind::Company, &id).await
}

/// `GET /api/contacts/{id}/duplicates`: contacts that may be the same person.
async fn contact_twins(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<Vec<Twin>>> {
    twins(&state, RecordKind::Contact, &id).await
}

// ---- merging ----

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MergeBody {
    /// `company` or `contact`.
    #[serde(default)]
    #[schema(required = true, schema_with = record_type_schema)]
    record_type: Field<Text>,
    /// The record that stays.
    #[serde(default)]
    #[schema(required = true, schema_with = crate::validate::not_blank_text)]
    survivor_id: Field<Text>,
    /// The records folded into it (1–50), never the survivor itself.
    #[serde(default)]
    #[schema(required = true, schema_with = merge_ids_schema)]
    merge_ids: Field<Vec<String>>,
}

/// An id as a list of them holds it: not blank, no spaces around it (`merge_ids` and `dismiss`
/// trim them), so two different ones are two records.
fn id_schema() -> utoipa::openapi::ObjectBuilder {
    use crate::validate::NOT_SPACE;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .pattern(Some(format!("^{NOT_SPACE}([^\\x00]*{NOT_SPACE})?$")))
}

/// `min`–`max` different ids ([`id_schema`]).
fn ids_schema(min: usize, max: usize) -> utoipa::openapi::schema::ArrayBuilder {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(id_schema())
        .min_items(Some(min))
        .max_items(Some(max))
        .unique_items(true)
}

/// 1–[`MAX_MERGE`] ids (`merge_ids`).
fn merge_ids_schema() -> utoipa::openapi::schema::ArrayBuilder {
    ids_schema(1, MAX_MERGE)
}

/// The 404 or 422 of a merge that could not be done.
fn merge_error(kind: RecordKind, e: MergeError) -> ApiError {
    match e {
        MergeError::NotFound(_) => ApiError::not_found(kind.not_found()),
        MergeError::OtherKind(_) => ApiError::unprocessable(MIXED_KINDS),
        MergeError::Db(e) => e.into(),
    }
}

/// `POST /api/merge`: folds `mergeIds` into `survivorId` now, in one transaction.
async fn merge(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(body): Body<MergeBody>,
) -> ApiResult<Json<MergeOutcome>> {
    let mut p = Fields::default();
    let kind_text = text_field(&mut p, "recordType", &body.record_type);
    let kind = kind_of(&mut p, kind_text.as_deref());
    let survivor = text_field(&mut p, "survivorId", &body.survivor_id);
    if survivor.is_none() {
        p.error("survivorId", "survivorId is required");
    }
    let ids = id_list(&mut p, "mergeIds", &body.merge_ids);
    let merged = match (&survivor, &ids) {
        (Some(s), Some(ids)) => match merge_ids(s, ids) {
            Ok(m) => Some(m),
            Err(rule) => {
                p.error("mergeIds", rule.message());
                None
            }
        },
        _ => None,
    };
    p.finish()?;
    let (Some(kind), Some(survivor), Some(merged)) = (kind, survivor, merged) else {
        return Err(ApiError::unprocessable(
            "recordType, survivorId and mergeIds are required",
        ));
    };
    state
        .queue
        .db
        .records_merge(&MergeParams {
            kind,
            survivor: &survivor,
            merged: &merged,
            actor: Some(&user.user.id),
            now: now_ms(),
        })
        .await
        .map(Json)
        .map_err(|e| merge_error(kind, e))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MergeBulk {
    /// `company` or `contact`.
    #[serde(default)]
    #[schema(required = true, schema_with = record_type_schema)]
    record_type: Field<Text>,
    /// The kind of duplicate to merge every group of: `domain`, `phone` or `name` (companies),
    /// `email`, `phone` or `name` (contacts).
    #[serde(default)]
    #[schema(required = true, schema_with = any_reason_schema)]
    reason: Field<Text>,
}

crate::validate::body_variant!(
    /// [`MergeBulk`], its reason one of its record type's.
    MergeBulkBody(MergeBulk),
    |base| crate::validate::one_shape_of(base, kinds_with_reasons())
);

/// One shape per record kind: its name as `recordType` and its reasons as `reason`.
fn kinds_with_reasons<'a>() -> Vec<Vec<(&'a str, RefOr<Schema>)>> {
    RecordKind::NAMES
        .iter()
        .filter_map(|n| RecordKind::parse(n))
        .map(|kind| {
            let reasons: Vec<&str> = kind.reasons().iter().map(|r| r.as_str()).collect();
            vec![
                (
                    "recordType",
                    crate::validate::one_of(&[kind.as_str()]).into(),
                ),
                ("reason", crate::validate::one_of(&reasons).into()),
            ]
        })
        .collect()
}

/// `POST /api/merge/bulk`: a `record_merge` job over every group of one kind of duplicate; one at
/// a time per kind (a second click follows the running job).
async fn merge_bulk(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(MergeBulkBody(body)): Body<MergeBulkBody>,
) -> ApiResult<Response> {
    let mut p = Fields::default();
    let kind_text = text_field(&mut p, "recordType", &body.record_type);
    let kind = kind_of(&mut p, kind_text.as_deref());
    let reason_text = text_field(&mut p, "reason", &body.reason);
    let reason = match (kind, reason_text.as_deref()) {
        (Some(k), Some(r)) => reason_of(&mut p, k, r),
        (_, None) => {
            p.error("reason", "reason is required");
            None
        }
        _ => None,
    };
    p.finish()?;
    let (Some(kind), Some(reason)) = (kind, reason) else {
        return Err(ApiError::unprocessable(
            "recordType and reason are required",
        ));
    };
    let payload = RecordMerge {
        record_type: kind.as_str().to_string(),
        reason: reason.as_str().to_string(),
        actor_id: Some(user.user.id.clone()),
    };
    let queued = state
        .queue
        .enqueue(job(&payload)?.unique_while_active(format!(
            "record_merge:{}:{}",
            kind.as_str(),
            reason.as_str()
        )))
        .await?;
    Ok(accepted(&queued.id, &queued.status))
}

// ---- not duplicates ----

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DismissBody {
    /// `company` or `contact`.
    #[serde(default)]
    #[schema(required = true, schema_with = record_type_schema)]
    record_type: Field<Text>,
    /// The records that are not duplicates of each other (2–51 different ones).
    #[serde(default)]
    #[schema(required = true, schema_with = dismiss_ids_schema)]
    ids: Field<Vec<String>>,
}

/// 2–[`MAX_MERGE`]` + 1` ids: a group, survivor and merged alike.
fn dismiss_ids_schema() -> utoipa::openapi::schema::ArrayBuilder {
    ids_schema(2, MAX_MERGE + 1)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Dismissed {
    /// Pairs newly remembered as not duplicates.
    dismissed_pairs: u64,
}

/// `POST /api/duplicates/dismiss`: none of `ids` is suggested with another of them again.
async fn dismiss(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(body): Body<DismissBody>,
) -> ApiResult<impl IntoResponse> {
    let mut p = Fields::default();
    let kind_text = text_field(&mut p, "recordType", &body.record_type);
    let kind = kind_of(&mut p, kind_text.as_deref());
    let ids = id_list(&mut p, "ids", &body.ids).map(|ids| {
        let mut v: Vec<String> = ids
            .iter()
            .map(|i| i.trim().to_string())
            .filter(|i| !i.is_empty())
            .collect();
        v.sort();
        v.dedup();
        v
    });
    if let Some(ids) = &ids {
        if ids.len() < 2 {
            p.error("ids", "Pick at least two different records");
        } else if ids.len() > MAX_MERGE + 1 {
            p.error("ids", format!("At most {} records at once", MAX_MERGE + 1));
        }
    }
    p.finish()?;
    let (Some(kind), Some(ids)) = (kind, ids) else {
        return Err(ApiError::unprocessable("recordType and ids are required"));
    };
    let db = &state.queue.db;
    for id in &ids {
        match db.merge_record_kind(id).await? {
            Some(k) if k == kind => {}
            Some(_) => return Err(ApiError::unprocessable(MIXED_KINDS)),
            None => return Err(ApiError::not_found(kind.not_found())),
        }
    }
    let added = db
        .merge_dismiss(kind, &pairs(&ids), Some(&user.user.id), now_ms())
        .await?;
    Ok(Json(Dismissed {
        dismissed_pairs: added,
    }))
}
