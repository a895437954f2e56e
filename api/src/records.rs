//! The record pages (docs/records.md): `GET /api/{companies|contacts|deals}/{id}/timeline` and
//! `/related`. Errors are [`ApiError`]: 404 with the record's "… not found", 400 for a bad
//! `limit` or a cursor that is not one of ours.
//!
//! The timeline is read from what the tables already record (see `jobs/src/db/records.rs`), one
//! statement per page, paged by a keyset cursor over `(at, id)` so a page never shifts when new
//! items arrive.

use std::collections::HashMap;

use axum::extract::State;
use jobs::db::{RecordType, RelatedDeal, RelatedMeeting, TIMELINE_SHOWS};
use jobs::domain::timeline::{TimelineEntry, cursor_decode, cursor_encode, timeline_text};
use jobs::email::compose::render;
use jobs::time::to_rfc3339;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get(
            "/api/companies/{id}/timeline",
            Access::User,
            company_timeline,
        )
        .query::<TimelineQuery>()
        .returns::<TimelinePage>()
        .get(
            "/api/contacts/{id}/timeline",
            Access::User,
            contact_timeline,
        )
        .query::<TimelineQuery>()
        .returns::<TimelinePage>()
        .get("/api/deals/{id}/timeline", Access::User, deal_timeline)
        .query::<TimelineQuery>()
        .returns::<TimelinePage>()
        .get("/api/companies/{id}/related", Access::User, company_related)
        .returns::<CompanyRelated>()
        .get("/api/contacts/{id}/related", Access::User, contact_related)
        .returns::<ContactRelated>()
        .get("/api/deals/{id}/related", Access::User, deal_related)
        .returns::<DealRelated>()
}

/// The 404 of a record that does not exist.
pub(crate) fn record_not_found(kind: RecordType) -> ApiError {
    ApiError::not_found(match kind {
        RecordType::Company => "Company not found",
        RecordType::Contact => "Contact not found",
        RecordType::Deal => "Deal not found",
    })
}

/// The record's name, or its 404.
pub(crate) async fn record_name(state: &AppState, kind: RecordType, id: &str) -> ApiResult<String> {
    state
        .queue
        .db
        .record_name(kind, id)
        .await?
        .ok_or_else(|| record_not_found(kind))
}

/// A record's page in the web app.
pub(crate) fn record_href(kind: &str, id: &str) -> String {
    match kind {
        "company" => format!("/companies/{id}"),
        "deal" => format!("/deals/{id}"),
        _ => format!("/contacts/{id}"),
    }
}

// ---- timeline ----

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct TimelineQuery {
    /// Items per page, 1–100 (default 50).
    #[param(minimum = 1, maximum = 100)]
    limit: Option<i64>,
    /// The `nextCursor` of the previous page; blank is none.
    #[param(schema_with = cursor_schema)]
    before: Option<String>,
    /// `all` (default), `emails`, `calls` (with text messages), `meetings`, `notes` or `tasks`.
    #[param(schema_with = show_schema)]
    show: Option<String>,
}

/// [`TIMELINE_SHOWS`] (an empty `show` is refused).
fn show_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&TIMELINE_SHOWS).description(Some(
        "`all` (default), `emails`, `calls` (with text messages), `meetings`, `notes` or `tasks`.",
    ))
}

/// A cursor as [`cursor_encode`] writes it (URL-safe base64 without padding of `{at}:{id}`), for
/// an `at` of 13 digits (the milliseconds of 2001 to 2286) and an id of 1–100 printable ASCII
/// characters; or blank. Base64 turns 3 bytes into 4 characters, 6 bits each: a character class
/// per position says which bits the bytes there may have (digits `0x30`–`0x39`, `:` `0x3A`,
/// printable `0x20`–`0x7F`), so whatever matches decodes to such a cursor.
fn cursor_pattern() -> String {
    // The first 6 bits of a digit, with the 2 after them: 0x30–0x37 any, 0x38–0x39 only 00 or 01.
    let digit_then = "(?:[MN][DTjz]|O[DT])";
    // Three digits.
    let digits = format!("{digit_then}[AEIMQUYcgk][w-z0-5]");
    // A digit, `:`, and the id's first character (from 0x40 its top bits are 01, else 00 and the
    // last 6 bits at least 0x20).
    let digit_colon_char = format!("{digit_then}(?:o[g-z0-9_-]|p[A-Za-z0-9_-])");
    // Three printable characters: the first 6 bits of the first; its last 2 and the second's first
    // 4; the second's last 4 and the third's first 2 (00 needs its last 6 at least 0x20).
    let high = "[I-Za-f]";
    let middle = "[C-HS-Xi-nyz0-3]";
    let chars =
        format!("{high}{middle}(?:[AEIMQUYcgkosw048][g-z0-9_-]|[BFJNRVZdhlptx159][A-Za-z0-9_-])");
    // One or two last characters, the bits after them 0.
    let tail = format!("{high}(?:[AQgw]|{middle}[AEIMQUYcgkosw048])");
    // 13 digits and `:` and 1 + 3 × k + 0, 1 or 2 id characters: at most 100.
    format!(
        "^[ \\t]*(?:(?:{digits}){{4}}{digit_colon_char}(?:(?:{chars}){{0,33}}|(?:{chars}){{0,32}}{tail}))?[ \\t]*$"
    )
}

fn cursor_schema() -> utoipa::openapi::ObjectBuilder {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .pattern(Some(cursor_pattern()))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TimelinePage {
    items: Vec<TimelineItem>,
    next_cursor: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TimelineItem {
    id: String,
    kind: String,
    at: String,
    title: String,
    detail: Option<String>,
    link: Option<String>,
    actor: Option<String>,
    about: Option<RecordRef>,
    /// RFC 3339; meetings only.
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled_for: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct RecordRef {
    #[serde(rename = "type")]
    kind: String,
    id: String,
    name: String,
}

async fn company_timeline(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<TimelineQuery>,
) -> ApiResult<Json<TimelinePage>> {
    timeline(&state, RecordType::Company, &id, q).await
}

async fn contact_timeline(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<TimelineQuery>,
) -> ApiResult<Json<TimelinePage>> {
    timeline(&state, RecordType::Contact, &id, q).await
}

async fn deal_timeline(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<TimelineQuery>,
) -> ApiResult<Json<TimelinePage>> {
    timeline(&state, RecordType::Deal, &id, q).await
}

async fn timeline(
    state: &AppState,
    kind: RecordType,
    id: &str,
    q: TimelineQuery,
) -> ApiResult<Json<TimelinePage>> {
    let limit = q.limit.unwrap_or(50);
    if !(1..=100).contains(&limit) {
        return Err(ApiError::bad_request("limit must be between 1 and 100"));
    }
    let before = match q.before.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(c) => Some(cursor_decode(c).ok_or_else(|| ApiError::bad_request("Invalid cursor"))?),
    };
    let show = q.show.as_deref().map(str::trim).unwrap_or("all");
    if !TIMELINE_SHOWS.contains(&show) {
        return Err(ApiError::bad_request(format!(
            "show must be one of: {}",
            TIMELINE_SHOWS.join(", ")
        )));
    }
    record_name(state, kind, id).await?;
    let mut rows = state
        .queue
        .db
        .timeline_page(
            kind,
            id,
            before.as_ref().map(|(at, item)| (*at, item.as_str())),
            limit + 1,
            show,
        )
        .await?;
    // One row past the page says there is a next one; the cursor is the page's last item.
    let more = rows.len() as i64 > limit;
    rows.truncate(limit as usize);
    let next_cursor = match rows.last() {
        Some(last) if more => Some(cursor_encode(last.at, &last.id)),
        _ => None,
    };
    // Subjects are stored as written ({{ }} merge fields); each reads as its message was sent.
    let (mut messages, mut events) = (Vec::new(), Vec::new());
    for r in rows
        .iter()
        .filter(|r| r.text.as_deref().is_some_and(|t| t.contains("{{")))
    {
        if let Some(m) = r.id.strip_prefix("em:") {
            messages.push(m.to_string());
        } else if let Some(e) = r.id.strip_prefix("ev:") {
            events.push(e.to_string());
        }
    }
    let vars: HashMap<String, Map<String, Value>> = state
        .queue
        .db
        .timeline_vars(&messages, &events)
        .await?
        .into_iter()
        .filter_map(|(id, v)| match serde_json::from_str(&v) {
            Ok(Value::Object(map)) => Some((id, map)),
            _ => None,
        })
        .collect();
    let items = rows
        .into_iter()
        .map(|mut r| {
            let own_id = r.id.split_once(':').map_or("", |(_, id)| id);
            if let (Some(subject), Some(v)) = (&r.text, vars.get(own_id)) {
                r.text = Some(render(subject, v, false));
            }
            let text = timeline_text(&TimelineEntry {
                kind: &r.kind,
                text: r.text.as_deref(),
                detail: r.detail.as_deref(),
                extra: r.extra.as_deref(),
                n: r.n,
                ref_type: &r.ref_type,
            });
            let own = r.ref_type == kind.as_str() && r.ref_id == id;
            TimelineItem {
                id: r.id,
                kind: text.kind,
                at: to_rfc3339(r.at),
                title: text.title,
                detail: text.detail,
                link: text.link,
                scheduled_for: text.scheduled_for.map(to_rfc3339),
                actor: r.actor,
                about: (!own).then(|| RecordRef {
                    kind: r.ref_type,
                    id: r.ref_id,
                    name: r.ref_name.unwrap_or_default(),
                }),
            }
        })
        .collect();
    Ok(Json(TimelinePage { items, next_cursor }))
}

// ---- related ----

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ContactRef {
    id: String,
    name: String,
    title: Option<String>,
    email: Option<String>,
    status: String,
    score: i32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DealRef {
    id: String,
    title: String,
    /// Whole dollars as a string of digits, as the deals' own views.
    value: String,
    stage: Option<String>,
}

impl From<RelatedDeal> for DealRef {
    fn from(d: RelatedDeal) -> Self {
        Self {
            id: d.id,
            title: d.title,
            value: d.value.to_string(),
            stage: d.stage,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MeetingRef {
    id: String,
    title: String,
    scheduled_at: String,
    status: String,
}

impl From<RelatedMeeting> for MeetingRef {
    fn from(m: RelatedMeeting) -> Self {
        Self {
            id: m.id,
            title: m.title,
            scheduled_at: to_rfc3339(m.scheduled_at),
            status: m.status,
        }
    }
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct NamedRef {
    id: String,
    name: String,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ContactBrief {
    id: String,
    name: String,
    email: Option<String>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EnrollmentRef {
    id: String,
    sequence_id: String,
    sequence_name: String,
    status: String,
    current_step: i32,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CompanyRelated {
    contacts: Vec<ContactRef>,
    contact_count: i64,
    deals: Vec<DealRef>,
    meetings: Vec<MeetingRef>,
    open_tasks: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ContactRelated {
    company: Option<NamedRef>,
    deals: Vec<DealRef>,
    meetings: Vec<MeetingRef>,
    enrollments: Vec<EnrollmentRef>,
    open_tasks: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DealRelated {
    company: Option<NamedRef>,
    contact: Option<ContactBrief>,
    meetings: Vec<MeetingRef>,
    open_tasks: i64,
}

async fn company_related(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<CompanyRelated>> {
    let kind = RecordType::Company;
    record_name(&state, kind, &id).await?;
    let db = &state.queue.db;
    let (contacts, contact_count) = db.company_related_contacts(&id).await?;
    Ok(Json(CompanyRelated {
        contacts: contacts
            .into_iter()
            .map(|c| ContactRef {
                id: c.id,
                name: c.name,
                title: c.title,
                email: c.email,
                status: c.status,
                score: c.score,
            })
            .collect(),
        contact_count,
        deals: related_deals(&state, kind, &id).await?,
        meetings: related_meetings(&state, kind, &id).await?,
        open_tasks: db.task_open_count(kind.as_str(), &id).await?,
    }))
}

async fn contact_related(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<ContactRelated>> {
    let kind = RecordType::Contact;
    record_name(&state, kind, &id).await?;
    let db = &state.queue.db;
    Ok(Json(ContactRelated {
        company: db
            .contact_company(&id)
            .await?
            .map(|(id, name)| NamedRef { id, name }),
        deals: related_deals(&state, kind, &id).await?,
        meetings: related_meetings(&state, kind, &id).await?,
        enrollments: db
            .contact_enrollments(&id)
            .await?
            .into_iter()
            .map(|e| EnrollmentRef {
                id: e.id,
                sequence_id: e.sequence_id,
                sequence_name: e.sequence_name,
                status: e.status,
                current_step: e.current_step,
            })
            .collect(),
        open_tasks: db.task_open_count(kind.as_str(), &id).await?,
    }))
}

async fn deal_related(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Json<DealRelated>> {
    let kind = RecordType::Deal;
    let db = &state.queue.db;
    let parties = db
        .deal_parties(&id)
        .await?
        .ok_or_else(|| record_not_found(kind))?;
    Ok(Json(DealRelated {
        company: parties
            .company_id
            .zip(parties.company_name)
            .map(|(id, name)| NamedRef { id, name }),
        contact: parties.contact_id.map(|cid| ContactBrief {
            id: cid,
            name: parties.contact_name.unwrap_or_default(),
            email: parties.contact_email,
        }),
        meetings: related_meetings(&state, kind, &id).await?,
        open_tasks: db.task_open_count(kind.as_str(), &id).await?,
    }))
}

async fn related_deals(state: &AppState, of: RecordType, id: &str) -> ApiResult<Vec<DealRef>> {
    Ok(state
        .queue
        .db
        .related_deals(of, id)
        .await?
        .into_iter()
        .map(DealRef::from)
        .collect())
}

async fn related_meetings(
    state: &AppState,
    of: RecordType,
    id: &str,
) -> ApiResult<Vec<MeetingRef>> {
    Ok(state
        .queue
        .db
        .related_meetings(of, id)
        .await?
        .into_iter()
        .map(MeetingRef::from)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    fn pattern() -> regex::Regex {
        regex::Regex::new(&cursor_pattern()).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_cursor_pattern_takes_the_cursors_we_write() {
        let re = pattern();
        let printable: Vec<char> = (0x20u8..=0x7F).map(char::from).collect();
        for len in 1..=100 {
            let id: String = printable.iter().cycle().skip(len).take(len).collect();
            for at in [
                1_000_000_000_000,
                1_234_567_890_123,
                1_700_000_000_000,
                9_876_543_210_999,
            ] {
                assert!(re.is_match(&cursor_encode(at, &id)), "{at}:{id}");
            }
        }
        assert!(re.is_match("") && re.is_match(" \t"));
        let long = cursor_encode(1_700_000_000_000, &"x".repeat(101));
        assert!(!re.is_match(&long));
    }

    /// Each group of 4 characters is two halves the pattern checks on their own (a tail's
    /// characters one by one): every half it takes, the rest of a cursor as written, decodes.
    #[test]
    fn what_the_cursor_pattern_takes_is_a_cursor() {
        let re = pattern();
        // 4 groups of digits, a digit with `:` and a character, 3 groups of characters, then no
        // tail, 2 tail characters (1 byte) or 3 (2 bytes).
        for (id, tail) in [
            ("em:01JABCD", 0_usize),
            ("em:01JABCDE", 2),
            ("em:01JABCDEF", 3),
        ] {
            let cursor = cursor_encode(1_700_000_000_000, id);
            let mut halves: Vec<usize> = (0..32).step_by(2).collect();
            halves.extend((32..32 + tail).take(tail.saturating_sub(1)));
            for at in halves {
                let mut taken = 0;
                for (a, b) in BASE64
                    .iter()
                    .flat_map(|a| BASE64.iter().map(move |b| (*a, *b)))
                {
                    let mut bytes = cursor.clone().into_bytes();
                    bytes[at] = a;
                    bytes[at + 1] = b;
                    let candidate = String::from_utf8_lossy(&bytes).into_owned();
                    if !re.is_match(&candidate) {
                        continue;
                    }
                    let decoded = cursor_decode(&candidate);
                    assert!(
                        decoded
                            .is_some_and(|(_, id)| id.bytes().all(|c| (0x20..=0x7F).contains(&c))),
                        "{candidate}"
                    );
                    taken += 1;
                }
                assert!(taken > 1, "{id} at {at}");
            }
        }
    }
}
