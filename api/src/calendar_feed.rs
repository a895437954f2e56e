//! The embedded calendar (issue 7 §3): each user's secret iCalendar URL, which any calendar app can
//! subscribe to without a Google account. `GET /api/calendar/feed-url` gives the URL;
//! `GET /calendar/{token}.ics` serves scheduled and confirmed meetings from a week ago on.
//!
//! The token is an HMAC of the user's sign-in email under the server's `SECRET_KEY` (its own purpose,
//! so no other token opens it); a removed user's feed answers 404. Rotating `SECRET_KEY` revokes every
//! feed URL at once.

use axum::extract::State;
use axum::http::{Method, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::{DateTime, Duration};
use icalendar::{Calendar, Component, Event, EventLike, EventStatus};
use jobs::db::MeetingRow;
use jobs::time::now_ms;
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path};
use crate::{Access, AppState, Routes};

/// How far back the feed reaches, so a calendar keeps the last week's meetings.
const FEED_PAST_MS: i64 = 7 * 86_400_000;
const FEED_MAX: i64 = 1000;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .add(
            Method::GET,
            "/api/calendar/feed-url",
            Access::User,
            get(feed_url),
        )
        .add(Method::GET, "/calendar/{file}", Access::Public, get(feed))
}

async fn feed_url(State(state): State<AppState>, user: CurrentUser) -> ApiResult<Response> {
    let mailing = &state.queue.providers.mailing;
    let token = mailing.signer.calendar_feed_token(&user.user.email);
    let base = mailing.sender.public_base_url.trim_end_matches('/');
    Ok(Json(json!({ "url": format!("{base}/calendar/{token}.ics") })).into_response())
}

async fn feed(State(state): State<AppState>, Path(file): Path<String>) -> ApiResult<Response> {
    let not_found = || ApiError::not_found("Calendar feed not found");
    let email = file
        .strip_suffix(".ics")
        .and_then(|token| {
            state
                .queue
                .providers
                .mailing
                .signer
                .verify_calendar_feed(token)
        })
        .ok_or_else(not_found)?;
    let db = &state.queue.db;
    db.user_get_by_email(&email).await?.ok_or_else(not_found)?;
    let meetings = db
        .meetings_upcoming(now_ms() - FEED_PAST_MS, FEED_MAX)
        .await?;
    let domain = state.queue.providers.mailing.message_domain.clone();
    let body = calendar(&meetings, &domain).to_string();
    Ok((
        [
            (header::CONTENT_TYPE, "text/calendar; charset=utf-8"),
            (header::CACHE_CONTROL, "private, max-age=300"),
        ],
        body,
    )
        .into_response())
}

fn calendar(meetings: &[MeetingRow], domain: &str) -> Calendar {
    let mut cal = Calendar::new();
    cal.name("Prospector meetings");
    for m in meetings {
        let Some(start) = DateTime::from_timestamp_millis(m.scheduled_at) else {
            continue;
        };
        let mut event = Event::new();
        event
            .uid(&format!("{}@{domain}", m.id))
            .summary(&m.title)
            .starts(start)
            .ends(start + Duration::minutes(i64::from(m.duration)))
            .status(if m.status == "confirmed" {
                EventStatus::Confirmed
            } else {
                EventStatus::Tentative
            });
        if let Some(location) = m.location.as_deref().filter(|l| !l.trim().is_empty()) {
            event.location(location);
        }
        let notes: Vec<&str> = [m.description.as_deref(), m.agenda.as_deref()]
            .into_iter()
            .flatten()
            .filter(|t| !t.trim().is_empty())
            .collect();
        if !notes.is_empty() {
            event.description(&notes.join("\n\n"));
        }
        cal.push(event.done());
    }
    cal.done()
}
