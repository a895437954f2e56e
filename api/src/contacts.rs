//! Contacts (seed 001 §2–§9): the list with its filters, add and edit, the lead pipeline's rules
//! (one-step moves, bulk status, convert to customer, the board), customers, the CSV export and the
//! CSV import (stored, then a `contact_import` job).
//!
//! Errors: [`ApiError`] — validation is a 422 with the seed's message, unknown ids a 404, a taken
//! email or a move the pipeline does not allow a 409; database errors are logged 500s.

use std::collections::{BTreeMap, HashSet};

use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::Response;
use jobs::db::{
    ActivityInsert, ContactFilter, ContactImportInsert, ContactList, ContactRow, ContactSortKey,
    ContactWrite, StageStats, Tx, contact_sort_custom,
};
use jobs::domain::contacts::{
    self as rules, DEFAULT_SCORE, DEFAULT_STATUS, Direction, NO_EXPORT_MESSAGE, PIPELINE,
    REQUIRED_MESSAGE,
};
use jobs::domain::{non_empty, one_of_message};
use jobs::queue::NewJob;
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::value::RawValue;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::bulk::{BULK_MAX, CONTACTS, DeleteOutcome, StatusOutcome};
use crate::enqueue::{accepted, trigger_job};
use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::{BoardQuery, Page, csv_download, id_list, paging, sort_from};
use crate::targeting::{ContactListFilter, MAX_SELECTION, Selection, status_checked};
use crate::validate::{self, field_error, merge_text, present};
use crate::{Access, AppState, Routes};

use crate::forms::IMPORT_LIMIT;
/// Most rows one export writes.
const EXPORT_MAX: i64 = 1_000_000;
const DAY_MS: i64 = 24 * 3600 * 1000;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/contacts", Access::User, contact_list)
        .query::<ListQuery>()
        .returns_page::<ContactView>()
        .post("/api/contacts", Access::User, contact_create)
        .body::<NewContactBody>()
        .creates::<ContactView>()
        .get("/api/contacts/export", Access::User, contact_export)
        .query::<ExportQuery>()
        .returns_file("text/csv")
        .upload(
            "/api/contacts/import",
            Access::User,
            IMPORT_LIMIT,
            contact_import,
        )
        .body_as("text/csv", crate::forms::contact_csv)
        .accepted()
        .post(
            "/api/contacts/bulk-status",
            Access::User,
            contact_bulk_status,
        )
        .body::<ContactBulkStatusBody>()
        .returns::<StatusOutcome>()
        .post(
            "/api/contacts/bulk-delete",
            Access::User,
            contact_bulk_delete,
        )
        .body::<ContactBulkDeleteBody>()
        .returns::<DeleteOutcome>()
        .get("/api/contacts/{id}", Access::User, contact_get)
        .returns::<ContactView>()
        .put("/api/contacts/{id}", Access::User, contact_update)
        .body::<ContactBody>()
        .returns::<ContactView>()
        .delete("/api/contacts/{id}", Access::User, contact_delete)
        .no_content()
        .post(
            "/api/contacts/{id}/pipeline-move",
            Access::User,
            contact_pipeline_move,
        )
        .body::<MoveBody>()
        .returns::<ContactView>()
        .post(
            "/api/contacts/{id}/convert-to-customer",
            Access::User,
            contact_convert,
        )
        .returns::<ContactView>()
        .get("/api/leads/board", Access::User, lead_board)
        .query::<BoardQuery>()
        .returns_list::<Stage>()
        .get("/api/customers", Access::User, customer_list)
        .query::<CustomerQuery>()
        .returns_page::<ContactView>()
        .get("/api/customers/stats", Access::User, customer_stats)
        .returns::<CustomerStatsView>()
}

// ---- views ----

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ContactView {
    id: String,
    company_id: Option<String>,
    first_name: String,
    last_name: String,
    title: Option<String>,
    department: Option<String>,
    email: Option<String>,
    phone: Option<String>,
    linkedin_url: Option<String>,
    status: String,
    score: i32,
    source: Option<String>,
    tags: Vec<String>,
    notes: Option<String>,
    created_at: String,
    last_contacted_at: Option<String>,
    is_verified: bool,
    verification_score: Option<i32>,
    verified_by: Vec<String>,
    verified_at: Option<String>,
    verification_warnings: Vec<String>,
    /// The factors behind `score` (the contact dialog's AI analysis).
    score_factors: Option<serde_json::Value>,
    /// The company's name, city and state (every contact, lead and customer card shows them).
    company_name: Option<String>,
    company_city: Option<String>,
    company_state: Option<String>,
    /// Found by a scan of the demo catalog: generated, like its company (labelled "Demo data").
    demo: bool,
}

impl From<ContactRow> for ContactView {
    fn from(c: ContactRow) -> Self {
        Self {
            created_at: to_rfc3339(c.created_at),
            last_contacted_at: c.last_contacted_at.map(to_rfc3339),
            verified_at: c.verified_at.map(to_rfc3339),
            id: c.id,
            company_id: c.company_id,
            first_name: c.first_name,
            last_name: c.last_name,
            title: c.title,
            department: c.department,
            email: c.email,
            phone: c.phone,
            linkedin_url: c.linkedin_url,
            status: c.status,
            score: c.score,
            source: c.source,
            tags: c.tags.0,
            notes: c.notes,
            is_verified: c.is_verified,
            verification_score: c.verification_score,
            verified_by: c.verified_by.0,
            verification_warnings: c.verification_warnings.0,
            score_factors: c.score_factors.map(|f| f.0),
            company_name: c.company_name,
            company_city: c.company_city,
            company_state: c.company_state,
            demo: c.demo,
        }
    }
}

// ---- list, export ----

/// The contact statuses (`jobs::domain::contacts::STATUSES`), or `""` (read as absent).
fn status_filter_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&jobs::domain::contacts::STATUSES)
}

/// The regions (`jobs::domain::contacts::region_names`), or `""` (read as absent).
fn region_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&jobs::domain::contacts::region_names())
        .description(Some("A region's name: its companies' states."))
}

/// The names of [`ContactSortKey::ALL`], or `""` (read as absent).
fn sort_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&ContactSortKey::ALL.map(|(name, ..)| name))
        .description(Some("Without it, newest first."))
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct ListQuery {
    /// Text in the name, email or title.
    q: Option<String>,
    /// Text in the title.
    role: Option<String>,
    #[param(schema_with = status_filter_schema)]
    status: Option<String>,
    /// A region's name: its companies' states.
    #[param(schema_with = region_schema)]
    region: Option<String>,
    company_id: Option<String>,
    /// Comma-separated contact ids, at most 1,000 (the rows picked for an export).
    ids: Option<String>,
    /// `created`, `name`, `score`, `status`, `company` or `lastContacted`; without it, newest first.
    #[param(schema_with = sort_schema)]
    sort: Option<String>,
    /// `asc` or `desc` (default `asc` for name, company and status, else `desc`).
    #[param(schema_with = crate::list::dir_schema)]
    dir: Option<String>,
    /// 1–1000 (default 100); the list only.
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

/// The export's query string: the list's but `limit` and `offset`, which it ignores (so takes
/// any).
struct ExportQuery;

impl utoipa::IntoParams for ExportQuery {
    fn into_params(
        parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        <ListQuery as utoipa::IntoParams>::into_params(parameter_in)
            .into_iter()
            .filter(|p| p.name != "limit" && p.name != "offset")
            .collect()
    }
}

/// The list filters, validated (shared by the list and the export).
fn filter_from(q: &ListQuery) -> ApiResult<ContactFilter> {
    let mut filter = ContactListFilter {
        q: q.q.clone(),
        role: q.role.clone(),
        status: q.status.clone(),
        region: q.region.clone(),
        company_id: q.company_id.clone(),
    }
    .filter()?;
    filter.ids = id_list(q.ids.as_deref())?;
    Ok(filter)
}

/// The contacts and customers lists' sort; `created` descending is their own order, so it takes
/// the same fast paths and cache entries as no sort.
fn contact_sort(
    sort: Option<&str>,
    dir: Option<&str>,
) -> ApiResult<Option<jobs::db::Sort<ContactSortKey>>> {
    Ok(contact_sort_custom(sort_from(
        sort,
        dir,
        &ContactSortKey::ALL,
    )?))
}

async fn contact_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let filter = filter_from(&q)?;
    let sort = contact_sort(q.sort.as_deref(), q.dir.as_deref())?;
    let db = &state.queue.db;
    // The page and its total are computed together, so they always agree.
    let page: Page = state
        .read_cache
        .get_or_compute(
            format!("contacts:page:{filter:?}:{sort:?}:{limit}:{offset}"),
            || async {
                let (page, total) = db
                    .contact_list_page(&ContactList {
                        filter: &filter,
                        limit,
                        offset,
                        sort,
                    })
                    .await?;
                Ok(Page::of_json(page, total))
            },
        )
        .await?;
    Ok(axum::response::IntoResponse::into_response(page))
}

async fn contact_export(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    let filter = filter_from(&q)?;
    let sort = contact_sort(q.sort.as_deref(), q.dir.as_deref())?;
    let rows = state
        .queue
        .db
        .contact_page(&ContactList {
            filter: &filter,
            limit: EXPORT_MAX,
            offset: 0,
            sort,
        })
        .await?;
    if rows.is_empty() {
        return Err(ApiError::not_found(NO_EXPORT_MESSAGE));
    }
    let opt = |s: Option<String>| s.unwrap_or_default();
    csv_download(
        "contacts-export.csv",
        &[
            "First Name",
            "Last Name",
            "Title",
            "Email",
            "Phone",
            "Status",
            "Score",
        ],
        rows.into_iter().map(|c| {
            vec![
                c.first_name,
                c.last_name,
                opt(c.title),
                opt(c.email),
                opt(c.phone),
                c.status,
                c.score.to_string(),
            ]
        }),
    )
}

async fn contact_get(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<ContactView>> {
    let row = state
        .queue
        .db
        .contact_get(&id)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(row.into()))
}

fn not_found() -> ApiError {
    ApiError::not_found("Contact not found")
}

// ---- create, update ----

/// A name an edit may leave out or null (keeping it), but not blank.
fn name_schema() -> utoipa::openapi::schema::Object {
    validate::or_null(validate::not_blank())
}

fn email_schema() -> utoipa::openapi::schema::Object {
    validate::or_null(validate::email())
}

/// The contact statuses (`jobs::domain::contacts::STATUSES`), or null (unchanged).
fn status_schema() -> utoipa::openapi::ObjectBuilder {
    validate::one_of_or_null(&jobs::domain::contacts::STATUSES)
}

/// An edit of a contact: each field left out (or a null name, email, status or score) stays as
/// it is; a null or blank text field is cleared.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ContactBody {
    #[schema(schema_with = name_schema)]
    first_name: Option<String>,
    #[schema(schema_with = name_schema)]
    last_name: Option<String>,
    /// An email address (`jobs::domain::contacts::is_valid_email`; this document says ASCII).
    #[schema(schema_with = email_schema)]
    email: Option<String>,
    #[serde(default, deserialize_with = "present")]
    phone: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    title: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    department: Option<Option<String>>,
    /// An existing company's id ("Unknown company" otherwise).
    #[serde(default, deserialize_with = "present")]
    company_id: Option<Option<String>>,
    #[schema(schema_with = status_schema)]
    status: Option<String>,
    #[serde(default, deserialize_with = "present")]
    notes: Option<Option<String>>,
    #[schema(minimum = 0, maximum = 100)]
    score: Option<i64>,
    #[serde(default, deserialize_with = "present")]
    linkedin_url: Option<Option<String>>,
    #[serde(default, deserialize_with = "present")]
    source: Option<Option<String>>,
    tags: Option<Vec<String>>,
}

validate::body_variant!(
    /// A new contact: a [`ContactBody`] with its names and email.
    NewContactBody(ContactBody),
    |base| {
        validate::requiring(
            base,
            "A new contact: its names and email are required.",
            vec![
                ("firstName", validate::not_blank().into()),
                ("lastName", validate::not_blank().into()),
                ("email", validate::email().into()),
            ],
        )
    }
);

/// Applies `b` to `w` and checks the result: the names and the email must end up non-empty.
fn apply(b: &ContactBody, w: &mut ContactWrite) -> ApiResult<()> {
    let mut missing = BTreeMap::new();
    for (field, value, target) in [
        ("firstName", &b.first_name, &mut w.first_name),
        ("lastName", &b.last_name, &mut w.last_name),
    ] {
        if let Some(v) = value {
            *target = v.trim().to_string();
        }
        if target.is_empty() {
            missing.insert(field.to_string(), format!("{field} is required"));
        }
    }
    if let Some(email) = &b.email {
        w.email = non_empty(Some(email));
    }
    if w.email.is_none() {
        missing.insert("email".to_string(), "email is required".to_string());
    }
    if !missing.is_empty() {
        return Err(ApiError::fields(REQUIRED_MESSAGE, missing));
    }
    if let Some(email) = &w.email
        && !rules::is_valid_email(email)
    {
        return Err(field_error("email", "Please enter a valid email address."));
    }
    if let Some(status) = &b.status {
        w.status = status_checked(status)?;
    }
    if let Some(score) = b.score {
        if !(0..=100).contains(&score) {
            return Err(field_error("score", "score must be between 0 and 100"));
        }
        w.score = score as i32;
    }
    w.phone = merge_text(&b.phone, w.phone.take());
    w.title = merge_text(&b.title, w.title.take());
    w.department = merge_text(&b.department, w.department.take());
    w.company_id = merge_text(&b.company_id, w.company_id.take());
    w.notes = merge_text(&b.notes, w.notes.take());
    w.linkedin_url = merge_text(&b.linkedin_url, w.linkedin_url.take());
    w.source = merge_text(&b.source, w.source.take());
    if let Some(tags) = &b.tags {
        w.tags = tags.iter().filter_map(|t| non_empty(Some(t))).collect();
    }
    Ok(())
}

async fn check_company(tx: &mut Tx, company_id: Option<&String>) -> ApiResult<()> {
    if let Some(id) = company_id
        && tx
            .company_ids_existing(std::slice::from_ref(id))
            .await?
            .is_empty()
    {
        return Err(field_error("companyId", format!("Unknown company: {id}")));
    }
    Ok(())
}

/// A taken email is a 409; anything else stays an internal error.
fn email_conflict(e: sqlx::Error) -> ApiError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            ApiError::conflict("A contact with this email address already exists.")
        }
        _ => e.into(),
    }
}

fn full_name(w: &ContactWrite) -> String {
    format!("{} {}", w.first_name, w.last_name)
}

async fn contact_create(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(NewContactBody(body)): Json<NewContactBody>,
) -> ApiResult<(StatusCode, Json<ContactView>)> {
    let now = now_ms();
    let mut w = ContactWrite {
        id: jobs::domain::new_id(),
        company_id: None,
        first_name: String::new(),
        last_name: String::new(),
        email: None,
        phone: None,
        title: None,
        department: None,
        linkedin_url: None,
        status: DEFAULT_STATUS.to_string(),
        score: DEFAULT_SCORE,
        source: None,
        tags: Vec::new(),
        notes: None,
        now,
    };
    apply(&body, &mut w)?;
    // The contact, its activity and its sequence trigger commit together.
    let mut jtx = state.queue.begin().await?;
    let tx = jtx.tx();
    check_company(tx, w.company_id.as_ref()).await?;
    tx.contact_insert(&w).await.map_err(email_conflict)?;
    tx.webhook_emit_contact("contact.created", &w.id, json!({}), now)
        .await?;
    let description = format!("Contact {} added", full_name(&w));
    tx.activity_insert(&ActivityInsert {
        kind: "contact_created",
        description: &description,
        entity_type: Some("contact"),
        entity_id: Some(&w.id),
        actor_id: Some(&user.user.id),
    })
    .await?;
    jtx.enqueue(trigger_job("contact_created", &w.id, None)?)
        .await?;
    jtx.commit().await?;
    let row = state
        .queue
        .db
        .contact_get(&w.id)
        .await?
        .ok_or_else(not_found)?;
    Ok((StatusCode::CREATED, Json(row.into())))
}

/// Records a status change in the transaction that makes it.
async fn status_activity(
    tx: &mut Tx,
    user: &CurrentUser,
    kind: &str,
    id: &str,
    description: &str,
) -> ApiResult<()> {
    tx.activity_insert(&ActivityInsert {
        kind,
        description,
        entity_type: Some("contact"),
        entity_id: Some(id),
        actor_id: Some(&user.user.id),
    })
    .await?;
    Ok(())
}

async fn contact_update(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<ContactBody>,
) -> ApiResult<Json<ContactView>> {
    let mut jtx = state.queue.begin().await?;
    let tx = jtx.tx();
    let current = tx
        .contact_get_for_update(&id)
        .await?
        .ok_or_else(not_found)?;
    let before = ContactWrite::from(&current);
    let mut w = before.clone();
    apply(&body, &mut w)?;
    w.now = now_ms();
    if w.company_id != before.company_id {
        check_company(tx, w.company_id.as_ref()).await?;
    }
    tx.contact_update(&w).await.map_err(email_conflict)?;
    tx.webhook_emit_contact_edit(&before, &w, w.now).await?;
    if w.status != before.status {
        let description = format!(
            "Contact {} status changed from {} to {}",
            full_name(&w),
            before.status,
            w.status
        );
        status_activity(tx, &user, "contact_status_change", &id, &description).await?;
    }
    let other_changes = ContactWrite {
        status: before.status.clone(),
        now: before.now,
        ..w.clone()
    } != before;
    if other_changes {
        let description = format!("Contact {} updated", full_name(&w));
        status_activity(tx, &user, "contact_updated", &id, &description).await?;
    }
    // Each tag the change adds may start a sequence.
    for tag in w.tags.iter().filter(|t| !before.tags.contains(t)) {
        jtx.enqueue(trigger_job("tag_added", &id, Some(tag))?)
            .await?;
    }
    jtx.commit().await?;
    let row = state
        .queue
        .db
        .contact_get(&id)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(row.into()))
}

// ---- lead pipeline ----

/// The ways a card moves: [`Direction::Forward`], [`Direction::Back`].
const DIRECTIONS: [&str; 2] = ["forward", "back"];

fn direction_schema() -> utoipa::openapi::ObjectBuilder {
    validate::one_of(&DIRECTIONS)
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct MoveBody {
    #[schema(schema_with = direction_schema)]
    direction: String,
}

async fn contact_pipeline_move(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<MoveBody>,
) -> ApiResult<Json<ContactView>> {
    let dir = match body.direction.trim() {
        d if d == DIRECTIONS[0] => Direction::Forward,
        d if d == DIRECTIONS[1] => Direction::Back,
        _ => {
            return Err(field_error(
                "direction",
                one_of_message("direction", &DIRECTIONS),
            ));
        }
    };
    let mut tx = state.queue.db.begin().await?;
    let c = tx
        .contact_get_for_update(&id)
        .await?
        .ok_or_else(not_found)?;
    let to = rules::pipeline_step(&c.status, dir).map_err(ApiError::conflict)?;
    tx.contact_status_set(&id, to, now_ms()).await?;
    let extra = json!({ "from": c.status, "to": to });
    tx.webhook_emit_contact("contact.status_changed", &id, extra, now_ms())
        .await?;
    let description = format!(
        "Contact {} {} moved from {} to {}",
        c.first_name, c.last_name, c.status, to
    );
    status_activity(&mut tx, &user, "contact_status_change", &id, &description).await?;
    tx.commit().await?;
    let row = state
        .queue
        .db
        .contact_get(&id)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(row.into()))
}

/// Picked contact ids, at most `max`.
fn ids_schema(max: usize) -> utoipa::openapi::schema::ArrayBuilder {
    utoipa::openapi::schema::ArrayBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::Type::Array,
            utoipa::openapi::Type::Null,
        ]))
        .items(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::String))
        .max_items(Some(max))
}

/// At most [`BULK_MAX`] (`Noun::at_most`).
fn status_ids_schema() -> utoipa::openapi::schema::ArrayBuilder {
    ids_schema(BULK_MAX)
}

/// At most [`MAX_SELECTION`] (`Selection::contact_ids`).
fn delete_ids_schema() -> utoipa::openapi::schema::ArrayBuilder {
    ids_schema(MAX_SELECTION)
}

/// The contact statuses (`jobs::domain::contacts::STATUSES`).
fn bulk_status_schema() -> utoipa::openapi::ObjectBuilder {
    validate::one_of(&jobs::domain::contacts::STATUSES)
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ContactBulkStatus {
    /// At most 1,000 picked contacts.
    #[schema(schema_with = status_ids_schema)]
    contact_ids: Option<Vec<String>>,
    /// Every contact the list's filters match ("select all N matching"), at most 10,000.
    contact_filter: Option<ContactListFilter>,
    #[schema(schema_with = bulk_status_schema)]
    status: String,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ContactBulkDelete {
    /// Picked contacts; with the filter's matches, at most 10,000.
    #[schema(schema_with = delete_ids_schema)]
    contact_ids: Option<Vec<String>>,
    /// Every contact the list's filters match ("select all N matching").
    contact_filter: Option<ContactListFilter>,
}

/// The two ways a bulk action names its contacts ([`selected`]: "Select at least one contact."
/// otherwise): a picked id, or the list's filters.
fn picked_or_matching(base: RefOr<Schema>) -> RefOr<Schema> {
    use utoipa::ToSchema;
    let ids = utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::String))
        .min_items(Some(1));
    let filter = utoipa::openapi::Ref::from_schema_name(ContactListFilter::name());
    validate::one_shape_of(
        base,
        vec![
            vec![("contactIds", ids.into())],
            vec![("contactFilter", filter.into())],
        ],
    )
}

validate::body_variant!(
    /// A bulk status change: [`ContactBulkStatus`], which names at least one contact.
    ContactBulkStatusBody(ContactBulkStatus),
    picked_or_matching
);

validate::body_variant!(
    /// A bulk delete: [`ContactBulkDelete`], which names at least one contact.
    ContactBulkDeleteBody(ContactBulkDelete),
    picked_or_matching
);

/// The contacts a bulk action names: the picked ones and every match of the list's filters,
/// resolved as the other bulk actions resolve them (at most 10,000), once each, in id order.
async fn selected(
    state: &AppState,
    contact_ids: Option<Vec<String>>,
    contact_filter: Option<ContactListFilter>,
) -> ApiResult<Vec<String>> {
    let selection = Selection {
        contact_ids,
        company_ids: None,
        contact_filter,
    };
    selection
        .contact_ids(&state.queue.db)
        .await?
        .ok_or_else(|| CONTACTS.none_picked())
}

/// Sets every selected contact's status in one transaction, each change a
/// `contact_status_change` activity: an unknown id changes nothing.
async fn contact_bulk_status(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(ContactBulkStatusBody(body)): Json<ContactBulkStatusBody>,
) -> ApiResult<Json<StatusOutcome>> {
    let status = status_checked(&body.status)?;
    let picked: HashSet<&String> = body.contact_ids.iter().flatten().collect();
    CONTACTS.at_most(picked.len(), "updated")?;
    let ids = selected(&state, body.contact_ids, body.contact_filter).await?;
    let mut tx = state.queue.db.begin().await?;
    CONTACTS.all_found(&ids, tx.contact_ids_locked(&ids).await?)?;
    tx.webhook_emit_contacts_status(&ids, &status, now_ms())
        .await?;
    let updated = tx
        .contacts_status_set(&ids, &status, Some(&user.user.id), now_ms())
        .await?;
    tx.commit().await?;
    Ok(Json(StatusOutcome::new(
        CONTACTS,
        status,
        ids.len() as u64,
        updated,
    )))
}

async fn contact_delete(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let mut tx = state.queue.db.begin().await?;
    let ids = [id];
    if tx.contact_ids_locked(&ids).await?.is_empty() {
        return Err(not_found());
    }
    tx.contacts_delete(&ids, Some(&user.user.id), now_ms())
        .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Deletes every selected contact in one transaction (see `Tx::contacts_delete` for what goes
/// with them and what stays); an unknown id deletes nothing.
async fn contact_bulk_delete(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(ContactBulkDeleteBody(body)): Json<ContactBulkDeleteBody>,
) -> ApiResult<Json<DeleteOutcome>> {
    let ids = selected(&state, body.contact_ids, body.contact_filter).await?;
    // Run again when Postgres ends it to break a deadlock: it locks up to 10,000 contacts while
    // jobs write contacts and the companies whose cards they carry (migration 0041).
    let outcome = jobs::db::retry_conflicts(|| async {
        let mut tx = state.queue.db.begin().await?;
        let found = tx.contact_ids_locked(&ids).await?;
        if CONTACTS.all_found(&ids, found.clone()).is_err() {
            tx.rollback().await?;
            return Ok(Err(found));
        }
        let deleted = tx
            .contacts_delete(&ids, Some(&user.user.id), now_ms())
            .await?;
        tx.commit().await?;
        Ok(Ok(deleted))
    })
    .await?;
    let deleted = match outcome {
        Ok(deleted) => deleted,
        Err(found) => {
            CONTACTS.all_found(&ids, found)?;
            0
        }
    };
    Ok(Json(DeleteOutcome::new(CONTACTS, ids.len(), deleted)))
}

async fn contact_convert(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<ContactView>> {
    let mut tx = state.queue.db.begin().await?;
    let c = tx
        .contact_get_for_update(&id)
        .await?
        .ok_or_else(not_found)?;
    if c.status != "qualified" {
        return Err(ApiError::conflict(format!(
            "Only qualified leads can be converted to customers (this contact is {}).",
            c.status
        )));
    }
    tx.contact_status_set(&id, "customer", now_ms()).await?;
    let extra = json!({ "from": c.status, "to": "customer" });
    tx.webhook_emit_contact("contact.status_changed", &id, extra, now_ms())
        .await?;
    let description = format!(
        "Contact {} {} converted to customer",
        c.first_name, c.last_name
    );
    status_activity(&mut tx, &user, "contact_converted", &id, &description).await?;
    tx.commit().await?;
    let row = state
        .queue
        .db
        .contact_get(&id)
        .await?
        .ok_or_else(not_found)?;
    Ok(Json(row.into()))
}

fn lead_stage_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&jobs::domain::contacts::PIPELINE)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = LeadStage)]
struct Stage {
    #[schema(schema_with = lead_stage_schema)]
    stage: &'static str,
    title: &'static str,
    count: i64,
    avg_score: i64,
    high_priority: i64,
    // The contacts' cards as the database keeps them (migration 0041).
    #[schema(value_type = Vec<ContactView>)]
    contacts: Vec<Box<RawValue>>,
}

/// The four stage columns; `limit` caps the contacts listed per column (counts are of all).
async fn lead_board(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<BoardQuery>,
) -> ApiResult<Json<Vec<Stage>>> {
    let (limit, _) = paging(q.limit, None)?;
    let db = &state.queue.db;
    let stats = db.contact_stage_stats().await?;
    let titles = ["New Leads", "Email Sent", "Meeting Scheduled", "Qualified"];
    let mut stages: Vec<Stage> = PIPELINE
        .into_iter()
        .zip(titles)
        .map(|(stage, title)| {
            let s = stats.iter().find(|s| s.status == stage);
            Stage {
                stage,
                title,
                count: s.map_or(0, |s| s.count),
                avg_score: s.and_then(StageStats::avg_score).unwrap_or(0),
                high_priority: s.map_or(0, |s| s.high_priority),
                contacts: Vec::new(),
            }
        })
        .collect();
    // One statement for every column's cards, in board order within each.
    for (status, card) in db.lead_board(limit).await? {
        if let Some(stage) = stages.iter_mut().find(|s| s.stage == status) {
            stage
                .contacts
                .push(RawValue::from_string(card).map_err(anyhow::Error::from)?);
        }
    }
    Ok(Json(stages))
}

// ---- customers ----

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct CustomerQuery {
    /// Text in the name, email or title.
    q: Option<String>,
    /// As the contacts list's: `created`, `name`, `score`, `status`, `company` or `lastContacted`.
    #[param(schema_with = sort_schema)]
    sort: Option<String>,
    /// `asc` or `desc` (default `asc` for name, company and status, else `desc`).
    #[param(schema_with = crate::list::dir_schema)]
    dir: Option<String>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

async fn customer_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<CustomerQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let sort = contact_sort(q.sort.as_deref(), q.dir.as_deref())?;
    let filter = ContactFilter {
        q: non_empty(q.q.as_deref()),
        status: Some("customer".to_string()),
        ..ContactFilter::default()
    };
    let (page, total) = state
        .queue
        .db
        .contact_list_page(&ContactList {
            filter: &filter,
            limit,
            offset,
            sort,
        })
        .await?;
    Ok(axum::response::IntoResponse::into_response(Page::of_json(
        page, total,
    )))
}

/// The Customers screen's tiles.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CustomerStatsView {
    total: i64,
    /// Customers scoring 80 or more.
    high_value: i64,
    /// Customers created in the last 30 days.
    new_this_month: i64,
}

async fn customer_stats(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<Json<CustomerStatsView>> {
    let s = state
        .queue
        .db
        .customer_stats(now_ms() - 30 * DAY_MS)
        .await?;
    Ok(Json(CustomerStatsView {
        total: s.total,
        high_value: s.high_value,
        new_this_month: s.new_this_month,
    }))
}

// ---- import ----

/// Stores the CSV and enqueues its `contact_import` job in one transaction; 202 with the job id.
async fn contact_import(
    State(state): State<AppState>,
    user: CurrentUser,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_ascii_lowercase();
    if !(content_type.starts_with("text/csv") || content_type.starts_with("application/csv")) {
        return Err(ApiError::Status(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "Expected a CSV body with Content-Type: text/csv".into(),
        ));
    }
    let body = body.map_err(|r| {
        let message = if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            format!(
                "The CSV file is too large (at most {} MiB)",
                IMPORT_LIMIT / 1024 / 1024
            )
        } else {
            r.body_text()
        };
        ApiError::Status(r.status(), message)
    })?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::unprocessable("The CSV file is empty."));
    }
    jobs::kinds::contact_import::check_header(&body).map_err(ApiError::unprocessable)?;
    let import_id = ulid::Ulid::new().to_string();
    let mut tx = state.queue.begin().await?;
    tx.tx()
        .contact_import_insert(&ContactImportInsert {
            id: &import_id,
            body: &body,
            created_by: Some(&user.user.id),
            created_at: now_ms(),
        })
        .await?;
    let job = NewJob::new("contact_import", json!({ "importId": import_id }));
    let inserted = tx.enqueue(job).await?;
    tx.commit().await?;
    Ok(accepted(&inserted.id, &inserted.status))
}
