//! Notes and tasks on a company, contact or deal (docs/records.md): `/api/notes` and `/api/tasks`.
//!
//! Errors are [`ApiError`]: a bad field is a 400 `{message, errors: {field: message}}` (the first
//! problem is the message); a record, note or task that does not exist is a 404; deleting someone
//! else's note without admin rights is a 403. Authors and assignees are the signed-in user.

use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use jobs::db::{NoteInsert, NoteRow, RecordType, TaskInsert, TaskRow, TaskScope, TaskUpdate};
use jobs::domain::{new_id, one_of_message};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::records::record_name;
use crate::validate::{Body, Field, Fields, Text};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/notes", Access::User, note_list)
        .query::<NoteQuery>()
        .returns_list::<NoteView>()
        .post("/api/notes", Access::User, note_create)
        .body::<NoteBody>()
        .creates::<NoteView>()
        .delete("/api/notes/{id}", Access::User, note_delete)
        .no_content()
        .get("/api/tasks", Access::User, task_list)
        .query::<RecordQuery>()
        .returns_list::<TaskView>()
        .post("/api/tasks", Access::User, task_create)
        .body::<TaskBody>()
        .creates::<TaskView>()
        .patch("/api/tasks/{id}", Access::User, task_update)
        .body::<TaskPatch>()
        .returns::<TaskView>()
        .delete("/api/tasks/{id}", Access::User, task_delete)
        .no_content()
}

const NOTE_MAX: usize = 10_000;
const TITLE_MAX: usize = 500;
const RECORD_TYPES: [&str; 3] = ["company", "contact", "deal"];

/// The field errors collected in `p`, answered as a 400 (the contract's status for these bodies;
/// the seed's forms elsewhere get [`Fields::finish`]'s 422).
fn finish(p: Fields) -> ApiResult<()> {
    p.finish().map_err(|e| match e {
        ApiError::Invalid { message, errors } => ApiError::bad_fields(message, errors),
        other => other,
    })
}

/// The record a note or task is on: its type and id, checked.
fn record_of(
    p: &mut Fields,
    entity_type: Option<&str>,
    entity_id: Option<&str>,
) -> Option<(RecordType, String)> {
    let kind = match entity_type.map(str::trim).filter(|t| !t.is_empty()) {
        None => {
            p.error("entityType", "entityType is required");
            None
        }
        Some(t) => {
            let kind = RecordType::parse(t);
            if kind.is_none() {
                p.error("entityType", one_of_message("entityType", &RECORD_TYPES));
            }
            kind
        }
    };
    let id = match entity_id.map(str::trim).filter(|t| !t.is_empty()) {
        None => {
            p.error("entityId", "entityId is required");
            None
        }
        Some(id) => Some(id.to_string()),
    };
    kind.zip(id)
}

/// A text field: `None` when absent or null; a value of another type is a field error.
fn text_of(p: &mut Fields, key: &str, field: &Field<Text>) -> Option<String> {
    match field {
        Field::Value(Text(s)) => Some(s.clone()),
        Field::Wrong => {
            p.error(key, format!("{key} must be text"));
            None
        }
        Field::Absent | Field::Null => None,
    }
}

/// A task title: 1–500 characters after trimming.
fn title_of(p: &mut Fields, title: Option<String>) -> Option<String> {
    let t = title.as_deref().map(str::trim).unwrap_or("");
    if t.is_empty() {
        p.error("title", "Task title is required");
        None
    } else if t.chars().count() > TITLE_MAX {
        p.error("title", "Task title is limited to 500 characters");
        None
    } else {
        Some(t.to_string())
    }
}

/// A due date: a real calendar day written `YYYY-MM-DD`; blank is none.
fn due_date_of(p: &mut Fields, field: &Field<Text>) -> Option<Option<String>> {
    match field {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(Text(s)) if s.trim().is_empty() => Some(None),
        Field::Value(Text(s))
            if s.trim().len() == 10 && NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d").is_ok() =>
        {
            Some(Some(s.trim().to_string()))
        }
        _ => {
            p.error("dueDate", "Due date must be a date (YYYY-MM-DD)");
            None
        }
    }
}

// ---- notes ----

/// The notes list's query: one record's notes.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct NoteQuery {
    entity_type: Option<String>,
    entity_id: Option<String>,
}

/// Written by hand: the derived one cannot both require `entityType` and take its values from
/// [`RECORD_TYPES`].
impl utoipa::IntoParams for NoteQuery {
    fn into_params(
        parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        use crate::validate::query_param;
        vec![
            query_param(
                parameter_in(),
                "entityType",
                true,
                "`company`, `contact` or `deal`.",
                record_type_schema(),
            ),
            query_param(
                parameter_in(),
                "entityId",
                true,
                "The record's id (not blank).",
                crate::validate::not_blank(),
            ),
        ]
    }
}

/// The tasks list's query: one record's tasks (`entityType` and `entityId` both, or neither: the
/// user's own tasks).
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct RecordQuery {
    /// `company`, `contact` or `deal`.
    #[param(schema_with = entity_type_schema)]
    entity_type: Option<String>,
    /// The record's id (not blank).
    #[param(schema_with = entity_id_schema)]
    entity_id: Option<String>,
    /// `open` (default), `done` or `all`.
    #[param(schema_with = task_status_schema)]
    status: Option<String>,
}

/// [`record_type_schema`], described.
fn entity_type_schema() -> utoipa::openapi::ObjectBuilder {
    record_type_schema().description(Some("`company`, `contact` or `deal`."))
}

/// The record's id: not blank.
fn entity_id_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank().description(Some("The record's id (not blank)."))
}

/// What the tasks list's `status` takes.
const TASK_STATUSES: [&str; 3] = ["open", "done", "all"];

/// [`TASK_STATUSES`] (an empty one is refused).
fn task_status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&TASK_STATUSES).description(Some("`open` (default), `done` or `all`."))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct NoteBody {
    /// `company`, `contact` or `deal`.
    #[serde(default)]
    #[schema(required = true, schema_with = record_type_schema)]
    entity_type: Field<Text>,
    /// The record's id (not blank).
    #[serde(default)]
    #[schema(required = true, schema_with = crate::validate::not_blank_text)]
    entity_id: Field<Text>,
    /// 1–10,000 characters, not blank.
    #[serde(default)]
    #[schema(required = true, schema_with = note_schema)]
    body: Field<Text>,
}

/// Not blank, at most [`NOTE_MAX`] characters (spaces around it count).
fn note_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank_text().max_length(Some(NOTE_MAX))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct NoteView {
    id: String,
    entity_type: String,
    entity_id: String,
    body: String,
    author: Option<String>,
    created_at: String,
}

impl From<NoteRow> for NoteView {
    fn from(n: NoteRow) -> Self {
        Self {
            id: n.id,
            entity_type: n.entity_type,
            entity_id: n.entity_id,
            body: n.body,
            author: n.author,
            created_at: to_rfc3339(n.created_at),
        }
    }
}

async fn note_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<NoteQuery>,
) -> ApiResult<Json<Vec<NoteView>>> {
    let mut p = Fields::default();
    let record = record_of(&mut p, q.entity_type.as_deref(), q.entity_id.as_deref());
    finish(p)?;
    let Some((kind, id)) = record else {
        return Ok(Json(Vec::new()));
    };
    record_name(&state, kind, &id).await?;
    let notes = state.queue.db.note_list(kind.as_str(), &id).await?;
    Ok(Json(notes.into_iter().map(NoteView::from).collect()))
}

async fn note_create(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(body): Body<NoteBody>,
) -> ApiResult<(StatusCode, Json<NoteView>)> {
    let mut p = Fields::default();
    let entity_type = text_of(&mut p, "entityType", &body.entity_type);
    let entity_id = text_of(&mut p, "entityId", &body.entity_id);
    let record = record_of(&mut p, entity_type.as_deref(), entity_id.as_deref());
    let text = text_of(&mut p, "body", &body.body).unwrap_or_default();
    if text.trim().is_empty() {
        p.error("body", "Note cannot be empty");
    } else if text.chars().count() > NOTE_MAX {
        p.error("body", "Note is limited to 10,000 characters");
    }
    finish(p)?;
    let Some((kind, entity_id)) = record else {
        return Err(ApiError::bad_request(
            "entityType and entityId are required",
        ));
    };
    record_name(&state, kind, &entity_id).await?;
    let id = new_id();
    let db = &state.queue.db;
    db.note_insert(&NoteInsert {
        id: &id,
        entity_type: kind.as_str(),
        entity_id: &entity_id,
        body: &text,
        author_id: &user.user.id,
        now: now_ms(),
    })
    .await?;
    let note = db
        .note_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Note not found"))?;
    Ok((StatusCode::CREATED, Json(note.into())))
}

async fn note_delete(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let db = &state.queue.db;
    let note = db
        .note_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Note not found"))?;
    let author = note.author_id.as_deref() == Some(user.user.id.as_str());
    if !author && !state.is_admin(&user.user) {
        return Err(ApiError::forbidden(
            "Only the note's author or an administrator can delete it",
        ));
    }
    db.note_delete(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

// ---- tasks ----

#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TaskBody {
    /// `company`, `contact` or `deal`.
    #[serde(default)]
    #[schema(required = true, schema_with = record_type_schema)]
    entity_type: Field<Text>,
    /// The record's id (not blank).
    #[serde(default)]
    #[schema(required = true, schema_with = crate::validate::not_blank_text)]
    entity_id: Field<Text>,
    /// 1–500 characters once trimmed.
    #[serde(default)]
    #[schema(required = true, schema_with = title_schema)]
    title: Field<Text>,
    /// `YYYY-MM-DD`, or null or blank (none).
    #[serde(default)]
    #[schema(schema_with = due_date_schema)]
    due_date: Field<Text>,
}

/// 1–[`TITLE_MAX`] characters once trimmed; a number is its text.
fn title_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::text_like(crate::validate::trimmed_text(1, Some(TITLE_MAX)))
}

/// A calendar day (`YYYY-MM-DD`), or `null` or blank: none.
fn due_date_schema() -> utoipa::openapi::schema::AnyOfBuilder {
    use utoipa::openapi::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
    utoipa::openapi::schema::AnyOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date))),
        )
        .item(crate::validate::blank())
        .item(ObjectBuilder::new().schema_type(Type::Null))
}

/// The fields of a task to change; an absent one stays as it is.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TaskPatch {
    #[serde(default)]
    #[schema(value_type = bool)]
    done: Field<bool>,
    /// 1–500 characters once trimmed.
    #[serde(default)]
    #[schema(schema_with = title_schema)]
    title: Field<Text>,
    /// `YYYY-MM-DD`, or null or blank to clear it.
    #[serde(default)]
    #[schema(schema_with = due_date_schema)]
    due_date: Field<Text>,
}

/// One of [`RECORD_TYPES`], as notes and tasks are checked.
fn record_type_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&RECORD_TYPES)
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TaskView {
    id: String,
    #[schema(schema_with = record_type_schema)]
    entity_type: String,
    entity_id: String,
    entity_name: Option<String>,
    title: String,
    due_date: Option<String>,
    done: bool,
    done_at: Option<String>,
    assignee: Option<String>,
    created_at: String,
}

impl From<TaskRow> for TaskView {
    fn from(t: TaskRow) -> Self {
        Self {
            id: t.id,
            entity_type: t.entity_type,
            entity_id: t.entity_id,
            entity_name: t.entity_name,
            title: t.title,
            due_date: t.due_date,
            done: t.done,
            done_at: t.done_at.map(to_rfc3339),
            assignee: t.assignee,
            created_at: to_rfc3339(t.created_at),
        }
    }
}

fn task_not_found() -> ApiError {
    ApiError::not_found("Task not found")
}

async fn task_list(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(q): Query<RecordQuery>,
) -> ApiResult<Json<Vec<TaskView>>> {
    let mut p = Fields::default();
    let status = q.status.as_deref().map(str::trim).unwrap_or("open");
    if !TASK_STATUSES.contains(&status) {
        p.error("status", one_of_message("status", &TASK_STATUSES));
    }
    let record = if q.entity_type.is_some() || q.entity_id.is_some() {
        record_of(&mut p, q.entity_type.as_deref(), q.entity_id.as_deref())
    } else {
        None
    };
    finish(p)?;
    let db = &state.queue.db;
    let tasks = match &record {
        Some((kind, id)) => {
            record_name(&state, *kind, id).await?;
            db.task_list(
                &TaskScope::Record {
                    entity_type: kind.as_str(),
                    id,
                },
                status,
            )
            .await?
        }
        None => {
            db.task_list(&TaskScope::Assignee(&user.user.id), status)
                .await?
        }
    };
    Ok(Json(tasks.into_iter().map(TaskView::from).collect()))
}

async fn task_create(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(body): Body<TaskBody>,
) -> ApiResult<(StatusCode, Json<TaskView>)> {
    let mut p = Fields::default();
    let entity_type = text_of(&mut p, "entityType", &body.entity_type);
    let entity_id = text_of(&mut p, "entityId", &body.entity_id);
    let record = record_of(&mut p, entity_type.as_deref(), entity_id.as_deref());
    let title = text_of(&mut p, "title", &body.title);
    let title = title_of(&mut p, title);
    let due_date = due_date_of(&mut p, &body.due_date).flatten();
    finish(p)?;
    let (Some((kind, entity_id)), Some(title)) = (record, title) else {
        return Err(ApiError::bad_request(
            "entityType, entityId and title are required",
        ));
    };
    record_name(&state, kind, &entity_id).await?;
    let id = new_id();
    let db = &state.queue.db;
    db.task_insert(&TaskInsert {
        id: &id,
        entity_type: kind.as_str(),
        entity_id: &entity_id,
        title: &title,
        due_date: due_date.as_deref(),
        user_id: &user.user.id,
        now: now_ms(),
    })
    .await?;
    let task = db.task_get(&id).await?.ok_or_else(task_not_found)?;
    Ok((StatusCode::CREATED, Json(task.into())))
}

async fn task_update(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Body(body): Body<TaskPatch>,
) -> ApiResult<Json<TaskView>> {
    let db = &state.queue.db;
    let current = db.task_get(&id).await?.ok_or_else(task_not_found)?;
    let mut p = Fields::default();
    let done = match body.done {
        Field::Absent => current.done,
        Field::Value(done) => done,
        Field::Null | Field::Wrong => {
            p.error("done", "done must be true or false");
            current.done
        }
    };
    let title = if body.title.is_present() {
        let title = text_of(&mut p, "title", &body.title);
        title_of(&mut p, title).unwrap_or_default()
    } else {
        current.title.clone()
    };
    let due_date = due_date_of(&mut p, &body.due_date).unwrap_or_else(|| current.due_date.clone());
    finish(p)?;
    let changed = db
        .task_update(&TaskUpdate {
            id: &id,
            title: &title,
            due_date: due_date.as_deref(),
            done,
            user_id: &user.user.id,
            now: now_ms(),
        })
        .await?;
    if !changed {
        return Err(task_not_found());
    }
    let task = db.task_get(&id).await?.ok_or_else(task_not_found)?;
    Ok(Json(task.into()))
}

async fn task_delete(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if state.queue.db.task_delete(&id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(task_not_found())
    }
}
