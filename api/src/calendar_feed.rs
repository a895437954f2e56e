//! The embedded calendar (issue 7 §3): each user's secret iCalendar URL, which any calendar app can
//! subscribe to without a Google account. `GET /api/calendar/feed-url` gives the URL;
//! `POST /api/calendar/feed-url/rotate` replaces it (the old one stops working at once);
//! `GET /calendar/{token}.ics` serves the user's scheduled and confirmed meetings from a week ago on.
//!
//! The token is an HMAC under the server's `SECRET_KEY` (its own purpose, so no other token opens
//! it) of the user's id and `users.calendar_feed_version`, never their email (issue 19 §6): a URL
//! leaks no address and a subscriber learns nothing but an opaque id. The feed answers only while the
//! signed version is the stored one, so a rotation revokes the old URL; a removed user's feed
//! answers 404, as does any bad token. Rotating `SECRET_KEY` revokes every feed URL at once.
//!
//! A feed shows what its owner may see: meetings on their own calendar and shared ones (no calendar
//! owner), never meetings synced to another user's calendar.

use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, Duration};
use icalendar::{Calendar, Component, Event, EventLike, EventStatus};
use jobs::db::MeetingRow;
use jobs::time::now_ms;

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path};
use crate::{Access, AppState, Routes};

/// How far back the feed reaches, so a calendar keeps the last week's meetings.
const FEED_PAST_MS: i64 = 7 * 86_400_000;
const FEED_MAX: i64 = 1000;

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/calendar/feed-url", Access::User, feed_url)
        .returns::<FeedUrl>()
        .post(
            "/api/calendar/feed-url/rotate",
            Access::User,
            feed_url_rotate,
        )
        .returns::<FeedUrl>()
        .get("/calendar/{file}", Access::Public, feed)
        .returns_file("text/calendar")
}

/// The user's private iCalendar feed.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
struct FeedUrl {
    url: String,
}

fn feed_url_json(state: &AppState, user_id: &str, version: i32) -> Response {
    let mailing = &state.queue.providers.mailing;
    let token = mailing.signer.calendar_feed_token(user_id, version);
    let base = mailing.sender.public_base_url.trim_end_matches('/');
    Json(FeedUrl {
        url: format!("{base}/calendar/{token}.ics"),
    })
    .into_response()
}

/// A signed-in user who has vanished from `users` (removed mid-session) has no feed.
fn no_user() -> ApiError {
    ApiError::not_found("Calendar feed not found")
}

async fn feed_url(State(state): State<AppState>, user: CurrentUser) -> ApiResult<Response> {
    let version = state
        .queue
        .db
        .calendar_feed_version(&user.user.id)
        .await?
        .ok_or_else(no_user)?;
    Ok(feed_url_json(&state, &user.user.id, version))
}

/// A new feed URL for the signed-in user; the one they had answers 404 from now on.
async fn feed_url_rotate(State(state): State<AppState>, user: CurrentUser) -> ApiResult<Response> {
    let version = state
        .queue
        .db
        .calendar_feed_rotate(&user.user.id)
        .await?
        .ok_or_else(no_user)?;
    Ok(feed_url_json(&state, &user.user.id, version))
}

async fn feed(State(state): State<AppState>, Path(file): Path<String>) -> ApiResult<Response> {
    let not_found = || ApiError::not_found("Calendar feed not found");
    let (user_id, version) = file
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
    // An intact MAC is not enough: only the current version opens the feed (a rotated URL is dead),
    // and only while the user exists.
    let current = db.calendar_feed_version(&user_id).await?;
    if current != Some(version) {
        return Err(not_found());
    }
    let meetings = db
        .meetings_feed(&user_id, now_ms() - FEED_PAST_MS, FEED_MAX)
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
