//! Meetings (seed 001 §2, §4, §5, §7): list (status filter, soonest first), read, schedule, partial
//! update with the menu's status rules, and cancel (which deletes, as the seed's Cancel Meeting does).
//!
//! Errors are [`ApiError`]: validation is a 422 with the seed's message for the first problem and one
//! entry per field in `errors`; unknown ids are 404; confirming a confirmed meeting or completing a
//! completed one is 409 (the seed disables those menu items). Every change writes its activity
//! (`meeting_scheduled`, `meeting_status_change`, `meeting_updated`, `meeting_cancelled`) in the
//! transaction of the change.
//!
//! Calendar figures from the meetings themselves: `GET /api/calendar/meetings` (upcoming scheduled or
//! confirmed meetings, soonest first, `limit` default 100) and `GET /api/calendar/stats`
//! (totalMeetings, upcomingMeetings, completedMeetings, averageMeetingDuration in whole minutes).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDateTime, Utc};
use jobs::db::{ActivityInsert, MeetingList, MeetingRow};
use jobs::kinds::CalendarSync;
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::{paging, with_total};
use crate::validate::{Body, Field, Fields, Number, Text, check_refs, field_error};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/calendar/meetings", Access::User, calendar_meetings)
        .query::<CalendarQuery>()
        .returns_list::<UpcomingMeeting>()
        .get("/api/calendar/stats", Access::User, calendar_stats)
        .returns::<CalendarStats>()
        .get("/api/meetings", Access::User, meeting_list)
        .query::<MeetingListQuery>()
        .returns_page::<MeetingView>()
        .post("/api/meetings", Access::User, meeting_create)
        .body::<NewMeetingBody>()
        .creates::<MeetingView>()
        .get("/api/meetings/{id}", Access::User, meeting_get)
        .returns::<MeetingView>()
        .put("/api/meetings/{id}", Access::User, meeting_update)
        .body::<MeetingBody>()
        .returns::<MeetingView>()
        .delete("/api/meetings/{id}", Access::User, meeting_delete)
        .no_content()
}

const STATUSES: [&str; 5] = [
    "scheduled",
    "confirmed",
    "completed",
    "cancelled",
    "no_show",
];
const TYPES: [&str; 5] = ["discovery", "demo", "proposal", "closing", "follow-up"];
/// Longest meeting accepted, in minutes (a working day and then some).
const MAX_DURATION: i64 = 1440;

fn status_message() -> String {
    format!("status must be one of: {}", STATUSES.join(", "))
}

fn type_message() -> String {
    format!("meetingType must be one of: {}", TYPES.join(", "))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MeetingView {
    id: String,
    title: String,
    description: Option<String>,
    company_id: Option<String>,
    contact_id: Option<String>,
    scheduled_date: String,
    duration: i32,
    location: Option<String>,
    meeting_type: String,
    agenda: Option<String>,
    attendees: Option<String>,
    status: String,
    sync_status: String,
    google_calendar_event_id: Option<String>,
    google_meet_link: Option<String>,
    last_synced_at: Option<String>,
    google_calendar_sync_enabled: bool,
    sync_error: Option<String>,
    created_at: String,
}

impl From<MeetingRow> for MeetingView {
    fn from(m: MeetingRow) -> Self {
        Self {
            id: m.id,
            title: m.title,
            description: m.description,
            company_id: m.company_id,
            contact_id: m.contact_id,
            scheduled_date: to_rfc3339(m.scheduled_at),
            duration: m.duration,
            location: m.location,
            meeting_type: m.meeting_type,
            agenda: m.agenda,
            attendees: m.attendees,
            status: m.status,
            sync_status: m.sync_status,
            google_calendar_event_id: m.google_calendar_event_id,
            google_meet_link: m.google_meet_link,
            last_synced_at: m.last_synced_at.map(to_rfc3339),
            google_calendar_sync_enabled: m.google_calendar_sync_enabled,
            sync_error: m.sync_error,
            created_at: to_rfc3339(m.created_at),
        }
    }
}

/// The list's `status` for every status.
const ALL_STATUSES: &str = "all";

/// The list's `status`: [`STATUSES`], [`ALL_STATUSES`], or `""` (read as absent).
fn status_filter_schema() -> utoipa::openapi::ObjectBuilder {
    let mut all = vec![ALL_STATUSES];
    all.extend_from_slice(&STATUSES);
    crate::validate::one_of_or_empty(&all).description(Some("One of the statuses, or `all`."))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
struct MeetingListQuery {
    /// One of the statuses, or `all`.
    #[param(schema_with = status_filter_schema)]
    status: Option<String>,
    company_id: Option<String>,
    contact_id: Option<String>,
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

async fn meeting_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<MeetingListQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    // The screen's filter has an "all" choice: no filter.
    let status = q
        .status
        .as_deref()
        .filter(|s| !s.is_empty() && *s != ALL_STATUSES);
    if let Some(s) = status
        && !STATUSES.contains(&s)
    {
        return Err(field_error("status", status_message()));
    }
    let (rows, total) = state
        .queue
        .db
        .meeting_list(&MeetingList {
            status,
            company_id: q.company_id.as_deref().filter(|s| !s.is_empty()),
            contact_id: q.contact_id.as_deref().filter(|s| !s.is_empty()),
            limit,
            offset,
        })
        .await?;
    Ok(with_total(
        rows.into_iter().map(MeetingView::from).collect(),
        total,
    ))
}

async fn meeting_get(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<MeetingView>> {
    let m = state
        .queue
        .db
        .meeting_get_by_id(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Meeting not found"))?;
    Ok(Json(m.into()))
}

/// An ISO 8601 date-time: RFC 3339, or without an offset (the form's `datetime-local`), taken as UTC.
fn parse_when(s: &str) -> Option<i64> {
    if let Ok(t) = DateTime::parse_from_rfc3339(s) {
        return Some(t.with_timezone(&Utc).timestamp_millis());
    }
    ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
        .map(|t| t.and_utc().timestamp_millis())
}

/// A duration: a positive whole number of minutes, as a JSON number or digits.
fn parse_duration(v: &Field<Number>) -> Option<i32> {
    let n = match v {
        Field::Value(Number::Number(n)) => n.as_i64(),
        Field::Value(Number::Text(s)) => s.trim().parse::<i64>().ok(),
        _ => None,
    }?;
    (1..=MAX_DURATION).contains(&n).then_some(n as i32)
}

/// Attendees: comma-separated text (the seed's form), or a list of names.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Attendees {
    /// Items that are not text are skipped.
    List(Vec<Field<String>>),
    Text(Text),
}

/// A date-time as [`parse_when`] reads it (a subset: RFC 3339).
fn when_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::{KnownFormat, SchemaFormat, Type};
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
}

/// Attendees as [`Attendees`] reads them: text, a list (items that are not text are skipped), or
/// null.
fn attendees_schema() -> utoipa::openapi::schema::OneOfBuilder {
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(crate::validate::text_or_null())
        .item(utoipa::openapi::schema::ArrayBuilder::new().items(crate::validate::any_value()))
}

/// Minutes as [`parse_duration`] reads them: a whole number from 1 to [`MAX_DURATION`], its digits
/// as text, or null (unchanged; 60 for a new meeting).
fn duration_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Integer,
            Type::String,
            Type::Null,
        ]))
        .minimum(Some(1))
        .maximum(Some(MAX_DURATION))
        .pattern(Some(
            r"^[ \t]*\+?0*([1-9][0-9]{0,2}|1[0-3][0-9]{2}|14[0-3][0-9]|1440)[ \t]*$",
        ))
}

fn type_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&TYPES)
}

fn status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&STATUSES)
}

/// A meeting to change: each field left out stays as it is; title, date, type and status cannot be
/// emptied, other text is cleared by null or blank.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MeetingBody {
    #[serde(default)]
    #[schema(schema_with = crate::validate::not_blank_text)]
    title: Field<Text>,
    /// An ISO 8601 date-time; without an offset it is UTC.
    #[serde(default)]
    #[schema(schema_with = when_schema)]
    scheduled_date: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    description: Field<Text>,
    /// An existing company's id.
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    company_id: Field<Text>,
    /// An existing contact's id.
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    contact_id: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    location: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    agenda: Field<Text>,
    /// Comma-separated names (a list of names is joined the same way).
    #[serde(default)]
    #[schema(schema_with = attendees_schema)]
    attendees: Field<Attendees>,
    /// Minutes, 1 to 1440.
    #[serde(default)]
    #[schema(schema_with = duration_schema)]
    duration: Field<Number>,
    #[serde(default)]
    #[schema(schema_with = type_schema)]
    meeting_type: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = status_schema)]
    status: Field<Text>,
}

crate::validate::body_variant!(
    /// A meeting to schedule: a [`MeetingBody`] with its title and date, whose type may be blank or
    /// null (`discovery`).
    NewMeetingBody(MeetingBody),
    |base| {
        use crate::validate;
        let kind = utoipa::openapi::schema::OneOfBuilder::new()
            .item(validate::or_null(type_schema()))
            .item(validate::blank());
        validate::describing(
            validate::requiring(
                base,
                "A meeting to schedule: its title and date are required.",
                vec![
                    ("title", validate::not_blank_text().into()),
                    ("scheduledDate", when_schema().into()),
                ],
            ),
            vec![("meetingType", kind.into())],
        )
    }
);

/// The fields of a meeting body, each `None` when absent.
#[derive(Default)]
struct MeetingInput {
    title: Option<Option<String>>,
    description: Option<Option<String>>,
    company_id: Option<Option<String>>,
    contact_id: Option<Option<String>>,
    scheduled_at: Option<i64>,
    duration: Option<i32>,
    location: Option<Option<String>>,
    meeting_type: Option<String>,
    agenda: Option<Option<String>>,
    attendees: Option<Option<String>>,
    status: Option<String>,
}

fn read_meeting(b: MeetingBody, create: bool) -> ApiResult<MeetingInput> {
    let mut f = Fields::default();
    let mut input = MeetingInput {
        title: f.text("title", &b.title),
        ..Default::default()
    };
    if matches!(input.title, Some(None)) || (create && input.title.is_none()) {
        f.error("title", "Title is required");
    }
    match f.text("scheduledDate", &b.scheduled_date) {
        None if !create => {}
        None | Some(None) => f.error("scheduledDate", "Date and time are required"),
        Some(Some(s)) => match parse_when(&s) {
            Some(ms) => input.scheduled_at = Some(ms),
            None => f.error(
                "scheduledDate",
                "Date and time must be an ISO 8601 date-time (e.g. 2026-03-01T15:00:00Z)",
            ),
        },
    }
    input.description = f.text("description", &b.description);
    input.company_id = f.text("companyId", &b.company_id);
    input.contact_id = f.text("contactId", &b.contact_id);
    input.location = f.text("location", &b.location);
    input.agenda = f.text("agenda", &b.agenda);
    input.attendees = match b.attendees {
        Field::Value(Attendees::List(items)) => {
            let names: Vec<String> = items
                .into_iter()
                .filter_map(|v| match v {
                    Field::Value(s) => Some(s.trim().to_string()),
                    _ => None,
                })
                .filter(|s| !s.is_empty())
                .collect();
            Some((!names.is_empty()).then(|| names.join(", ")))
        }
        Field::Value(Attendees::Text(t)) => f.text("attendees", &Field::Value(t)),
        Field::Absent => None,
        Field::Null => f.text("attendees", &Field::Null),
        Field::Wrong => f.text("attendees", &Field::Wrong),
    };
    if !matches!(b.duration, Field::Absent | Field::Null) {
        match parse_duration(&b.duration) {
            Some(d) => input.duration = Some(d),
            None => f.error(
                "duration",
                format!("Duration must be a whole number of minutes from 1 to {MAX_DURATION}"),
            ),
        }
    }
    if b.meeting_type.is_present() {
        match f.text("meetingType", &b.meeting_type) {
            Some(Some(t)) if TYPES.contains(&t.as_str()) => input.meeting_type = Some(t),
            Some(None) if create => {}
            _ => f.error("meetingType", type_message()),
        }
    }
    if b.status.is_present() {
        match f.text("status", &b.status) {
            Some(Some(s)) if STATUSES.contains(&s.as_str()) => input.status = Some(s),
            _ => f.error("status", status_message()),
        }
    }
    f.finish()?;
    Ok(input)
}

async fn meeting_activity(
    tx: &mut jobs::db::Tx,
    kind: &str,
    description: &str,
    meeting_id: &str,
    user: &CurrentUser,
) -> ApiResult<()> {
    tx.activity_insert(&ActivityInsert {
        kind,
        description,
        entity_type: Some("meeting"),
        entity_id: Some(meeting_id),
        actor_id: Some(&user.user.id),
    })
    .await?;
    Ok(())
}

async fn meeting_create(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(NewMeetingBody(body)): Body<NewMeetingBody>,
) -> ApiResult<Response> {
    let input = read_meeting(body, true)?;
    let now = now_ms();
    let m = MeetingRow {
        id: ulid::Ulid::new().to_string(),
        title: input.title.flatten().unwrap_or_default(),
        description: input.description.flatten(),
        company_id: input.company_id.flatten(),
        contact_id: input.contact_id.flatten(),
        scheduled_at: input.scheduled_at.unwrap_or(now),
        duration: input.duration.unwrap_or(60),
        location: input.location.flatten(),
        meeting_type: input.meeting_type.unwrap_or_else(|| "discovery".into()),
        agenda: input.agenda.flatten(),
        attendees: input.attendees.flatten(),
        status: input.status.unwrap_or_else(|| "scheduled".into()),
        sync_status: "pending".into(),
        google_calendar_event_id: None,
        google_meet_link: None,
        last_synced_at: None,
        google_calendar_sync_enabled: true,
        created_at: now,
        updated_at: now,
        calendar_owner_id: None,
        sync_error: None,
    };
    let mut tx = state.queue.db.begin().await?;
    check_refs(&mut tx, m.company_id.as_deref(), m.contact_id.as_deref()).await?;
    tx.meeting_insert(&m).await?;
    if m.status != "cancelled" {
        tx.webhook_emit_meeting(&m, now).await?;
    }
    // A booked meeting is what a sequence works towards: it ends the contact's sequences.
    if let Some(contact) = &m.contact_id
        && m.status != "cancelled"
    {
        tx.enrollments_exit_contact(contact, "meeting_booked", now)
            .await?;
    }
    let description = format!(
        "Meeting \"{}\" scheduled for {}",
        m.title,
        to_rfc3339(m.scheduled_at)
    );
    meeting_activity(&mut tx, "meeting_scheduled", &description, &m.id, &user).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(MeetingView::from(m))).into_response())
}

async fn meeting_update(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Body(body): Body<MeetingBody>,
) -> ApiResult<Json<MeetingView>> {
    let input = read_meeting(body, false)?;
    let mut jtx = state.queue.begin().await?;
    let tx = jtx.tx();
    let mut m = tx
        .meeting_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Meeting not found"))?;
    let previous_status = m.status.clone();
    if let Some(s) = &input.status
        && *s == previous_status
        && (s == "confirmed" || s == "completed")
    {
        return Err(ApiError::conflict(format!("Meeting is already {s}")));
    }
    let before = (
        m.title.clone(),
        m.description.clone(),
        m.company_id.clone(),
        m.contact_id.clone(),
        m.scheduled_at,
        m.duration,
        m.location.clone(),
        m.meeting_type.clone(),
        m.agenda.clone(),
        m.attendees.clone(),
    );
    if let Some(Some(t)) = input.title {
        m.title = t;
    }
    if let Some(v) = input.description {
        m.description = v;
    }
    if let Some(v) = input.company_id {
        m.company_id = v;
    }
    if let Some(v) = input.contact_id {
        m.contact_id = v;
    }
    if let Some(v) = input.scheduled_at {
        m.scheduled_at = v;
    }
    if let Some(v) = input.duration {
        m.duration = v;
    }
    if let Some(v) = input.location {
        m.location = v;
    }
    if let Some(v) = input.meeting_type {
        m.meeting_type = v;
    }
    if let Some(v) = input.agenda {
        m.agenda = v;
    }
    if let Some(v) = input.attendees {
        m.attendees = v;
    }
    if let Some(v) = input.status {
        m.status = v;
    }
    let after = (
        m.title.clone(),
        m.description.clone(),
        m.company_id.clone(),
        m.contact_id.clone(),
        m.scheduled_at,
        m.duration,
        m.location.clone(),
        m.meeting_type.clone(),
        m.agenda.clone(),
        m.attendees.clone(),
    );
    m.updated_at = now_ms();
    check_refs(tx, m.company_id.as_deref(), m.contact_id.as_deref()).await?;
    tx.meeting_update(&m).await?;
    if m.status != previous_status {
        let description = format!(
            "Meeting \"{}\" status changed from {previous_status} to {}",
            m.title, m.status
        );
        meeting_activity(tx, "meeting_status_change", &description, &m.id, &user).await?;
    } else if before != after {
        let description = format!("Meeting \"{}\" updated", m.title);
        meeting_activity(tx, "meeting_updated", &description, &m.id, &user).await?;
    }
    // A synced meeting follows its edits (a cancelled one leaves the calendar), in this transaction.
    if let (true, Some(owner), true) = (
        m.google_calendar_sync_enabled,
        m.calendar_owner_id.clone(),
        before != after || m.status != previous_status,
    ) {
        tx.meeting_sync_request(&m.id, &owner).await?;
        m.sync_status = "pending".into();
        m.sync_error = None;
        jtx.enqueue(crate::enqueue::job(&CalendarSync {
            meeting_id: m.id.clone(),
            op: "upsert".into(),
            owner_id: None,
            event_id: None,
        })?)
        .await?;
    }
    jtx.commit().await?;
    Ok(Json(m.into()))
}

async fn meeting_delete(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let mut jtx = state.queue.begin().await?;
    let m = jtx
        .tx()
        .meeting_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Meeting not found"))?;
    jtx.tx().meeting_delete(&id).await?;
    let description = format!("Meeting \"{}\" cancelled and removed", m.title);
    meeting_activity(jtx.tx(), "meeting_cancelled", &description, &id, &user).await?;
    // Its calendar event goes with it.
    if let (Some(event_id), Some(owner)) = (m.google_calendar_event_id, m.calendar_owner_id) {
        jtx.enqueue(crate::enqueue::job(&CalendarSync {
            meeting_id: id,
            op: "delete".into(),
            owner_id: Some(owner),
            event_id: Some(event_id),
        })?)
        .await?;
    }
    jtx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;

    #[test]
    fn dates_and_durations() {
        assert!(parse_when("2026-03-01T15:00:00Z").is_some());
        assert!(parse_when("2026-03-01T15:00").is_some());
        assert!(parse_when("tomorrow").is_none());
        let duration = |v: Value| parse_duration(&serde_json::from_value(v).unwrap_or_default());
        assert_eq!(duration(Value::from("45")), Some(45));
        assert_eq!(duration(Value::from(0)), None);
        assert_eq!(duration(Value::from(1.5)), None);
        assert_eq!(duration(Value::from(true)), None);
    }
}

#[derive(Deserialize, utoipa::IntoParams)]
struct CalendarQuery {
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
}

/// A meeting as the calendar panel lists it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct UpcomingMeeting {
    id: String,
    title: String,
    /// RFC 3339.
    start_time: String,
    location: Option<String>,
    status: String,
}

/// The calendar panel's tiles.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CalendarStats {
    total_meetings: i64,
    upcoming_meetings: i64,
    completed_meetings: i64,
    /// Minutes, rounded; 0 without meetings.
    average_meeting_duration: i64,
}

async fn calendar_meetings(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<CalendarQuery>,
) -> ApiResult<Response> {
    let (limit, _) = paging(q.limit, None)?;
    let rows = state.queue.db.meetings_upcoming(now_ms(), limit).await?;
    let items: Vec<UpcomingMeeting> = rows
        .into_iter()
        .map(|m| UpcomingMeeting {
            id: m.id,
            title: m.title,
            start_time: to_rfc3339(m.scheduled_at),
            location: m.location,
            status: m.status,
        })
        .collect();
    Ok(Json(items).into_response())
}

async fn calendar_stats(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let s = state.queue.db.calendar_stats(now_ms()).await?;
    Ok(Json(CalendarStats {
        total_meetings: s.total,
        upcoming_meetings: s.upcoming,
        completed_meetings: s.completed,
        average_meeting_duration: s.average_duration.map_or(0, |m| m.round() as i64),
    })
    .into_response())
}
