//! Google Calendar API v3 over reqwest: the OAuth 2.0 code flow (offline access, so a refresh token
//! comes back), token refresh, and event insert / patch / delete with a Meet link requested
//! (`conferenceDataVersion=1`). Each meeting's event id is derived from the meeting id, so an insert
//! that ran twice (a retried job, two jobs at once) finds the first event and patches it instead of
//! making a second one.
//!
//! 429, 5xx and timeouts are retried with backoff by [`super::http::send`]; 401 is the caller's cue to
//! refresh; `invalid_grant` from the token endpoint means the user revoked access (or the grant
//! expired) and only connecting again helps.

use serde::Deserialize;
use serde_json::{Value, json};

use super::http::{self, HttpError, HttpPolicy};
use crate::config::GoogleSettings;
use crate::sealed::Sealer;

/// Read-write access to events only, not to the rest of the user's Google account.
pub const SCOPE: &str = "https://www.googleapis.com/auth/calendar.events";

#[derive(Debug, Clone, thiserror::Error)]
pub enum CalendarError {
    /// The user never connected a calendar (seed 001 §8).
    #[error("No calendar tokens available.")]
    NoTokens,
    /// The grant is gone: revoked by the user, expired, or the account was removed.
    #[error("Google Calendar access was revoked or has expired. Connect Google Calendar again.")]
    Revoked,
    /// The access token was refused: refresh it and try once more.
    #[error("Google refused the access token")]
    Unauthorized,
    /// Google is down or rate limiting, after the retries.
    #[error("Google Calendar is unavailable: {0}")]
    Unavailable(String),
    /// Refused for good (bad request, no permission to the calendar, misconfigured client).
    #[error("Google Calendar refused the request: {0}")]
    Rejected(String),
}

impl From<HttpError> for CalendarError {
    fn from(e: HttpError) -> Self {
        match &e {
            HttpError::Status { status: 401, .. } => Self::Unauthorized,
            _ if e.is_transient() => Self::Unavailable(e.to_string()),
            _ => Self::Rejected(e.to_string()),
        }
    }
}

/// What the token endpoint grants.
#[derive(Debug, Clone, Deserialize)]
pub struct TokenGrant {
    pub access_token: String,
    /// Sent on the first consent (and on refresh only when Google rotates it).
    #[serde(default)]
    pub refresh_token: Option<String>,
    /// Seconds.
    #[serde(default = "default_expiry")]
    pub expires_in: i64,
}

fn default_expiry() -> i64 {
    3600
}

/// An event as written: what the meeting record keeps of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRef {
    pub id: String,
    pub meet_link: Option<String>,
}

/// The event fields from a meeting.
#[derive(Debug, Clone)]
pub struct EventInput<'a> {
    pub meeting_id: &'a str,
    pub title: &'a str,
    pub description: Option<&'a str>,
    pub location: Option<&'a str>,
    pub start_ms: i64,
    pub duration_minutes: i32,
    pub attendees: Vec<String>,
}

#[derive(Clone)]
pub struct GoogleCalendar {
    settings: GoogleSettings,
    redirect_uri: String,
    /// Seals tokens before they are stored.
    pub sealer: Sealer,
    http: reqwest::Client,
    policy: HttpPolicy,
}

impl GoogleCalendar {
    pub fn new(settings: GoogleSettings, public_base_url: &str, sealer: Sealer) -> Self {
        Self {
            settings,
            redirect_uri: format!(
                "{}/api/calendar/callback",
                public_base_url.trim_end_matches('/')
            ),
            sealer,
            http: reqwest::Client::new(),
            policy: HttpPolicy {
                timeout: std::time::Duration::from_secs(20),
                retries: 3,
                min_delay: std::time::Duration::from_millis(500),
                max_delay: std::time::Duration::from_secs(20),
                ..HttpPolicy::default()
            },
        }
    }

    /// Shorter waits between retries (tests).
    pub fn with_policy(mut self, policy: HttpPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// The consent page for the popup: offline access and a forced consent screen, so Google sends a
    /// refresh token even to a user who connected before.
    pub fn auth_url(&self, state: &str) -> String {
        let mut url = match url::Url::parse(&self.settings.auth_url) {
            Ok(u) => u,
            // Checked when the settings were read.
            Err(_) => unreachable!("GOOGLE_AUTH_URL is a URL"),
        };
        url.query_pairs_mut()
            .append_pair("client_id", &self.settings.client_id)
            .append_pair("redirect_uri", &self.redirect_uri)
            .append_pair("response_type", "code")
            .append_pair("scope", SCOPE)
            .append_pair("access_type", "offline")
            .append_pair("prompt", "consent")
            .append_pair("include_granted_scopes", "true")
            .append_pair("state", state);
        url.into()
    }

    async fn token(&self, form: &[(&str, &str)]) -> Result<TokenGrant, CalendarError> {
        let body = http::send(&self.policy, || {
            self.http.post(&self.settings.token_url).form(form)
        })
        .await
        .map_err(|e| match &e {
            // `invalid_grant`: the code was used or the refresh token revoked.
            HttpError::Status { status, body, .. }
                if (*status == 400 || *status == 401) && body.contains("invalid_grant") =>
            {
                CalendarError::Revoked
            }
            _ if e.is_transient() => CalendarError::Unavailable(e.to_string()),
            _ => CalendarError::Rejected(e.to_string()),
        })?;
        serde_json::from_str(&body).map_err(|e| {
            CalendarError::Unavailable(format!("unreadable answer from the token endpoint ({e})"))
        })
    }

    /// Exchanges the popup's authorisation code.
    pub async fn exchange_code(&self, code: &str) -> Result<TokenGrant, CalendarError> {
        let secret = self.settings.client_secret.expose();
        self.token(&[
            ("grant_type", "authorization_code"),
            ("code", code),
            ("client_id", &self.settings.client_id),
            ("client_secret", secret),
            ("redirect_uri", &self.redirect_uri),
        ])
        .await
    }

    pub async fn refresh(&self, refresh_token: &str) -> Result<TokenGrant, CalendarError> {
        let secret = self.settings.client_secret.expose();
        self.token(&[
            ("grant_type", "refresh_token"),
            ("refresh_token", refresh_token),
            ("client_id", &self.settings.client_id),
            ("client_secret", secret),
        ])
        .await
    }

    /// The address of the connected account (its primary calendar's id), for the screen.
    pub async fn account_email(&self, access_token: &str) -> Result<String, CalendarError> {
        let url = format!("{}/calendars/primary", self.settings.api_url);
        let body = http::send(&self.policy, || {
            self.http.get(&url).bearer_auth(access_token)
        })
        .await?;
        serde_json::from_str::<Value>(&body)
            .ok()
            .and_then(|v| v.get("id").and_then(Value::as_str).map(String::from))
            .ok_or_else(|| CalendarError::Unavailable("unreadable calendar answer".into()))
    }

    fn events_url(&self) -> String {
        format!(
            "{}/calendars/{}/events",
            self.settings.api_url,
            urlencode(&self.settings.calendar_id)
        )
    }

    /// Creates the meeting's event, or brings it up to date when it exists (also when it was
    /// deleted in Google before: the patch makes it confirmed again).
    pub async fn upsert_event(
        &self,
        access_token: &str,
        event: &EventInput<'_>,
        known_id: Option<&str>,
    ) -> Result<EventRef, CalendarError> {
        let id = known_id.map_or_else(|| event_id(event.meeting_id), String::from);
        let body = event_body(event, &id);
        let query = [("conferenceDataVersion", "1"), ("sendUpdates", "all")];
        if known_id.is_none() {
            let inserted = http::send(&self.policy, || {
                self.http
                    .post(self.events_url())
                    .query(&query)
                    .bearer_auth(access_token)
                    .json(&body)
            })
            .await;
            match inserted {
                Ok(answer) => return parse_event(&answer, &id),
                // The id exists: an earlier insert got through. Patch it below.
                Err(HttpError::Status { status: 409, .. }) => {}
                Err(e) => return Err(e.into()),
            }
        }
        let url = format!("{}/{}", self.events_url(), id);
        let answer = http::send(&self.policy, || {
            self.http
                .patch(&url)
                .query(&query)
                .bearer_auth(access_token)
                .json(&body)
        })
        .await?;
        parse_event(&answer, &id)
    }

    /// Deletes the event; one that is already gone counts as deleted.
    pub async fn delete_event(
        &self,
        access_token: &str,
        event_id: &str,
    ) -> Result<(), CalendarError> {
        let url = format!("{}/{}", self.events_url(), event_id);
        match http::send(&self.policy, || {
            self.http
                .delete(&url)
                .query(&[("sendUpdates", "all")])
                .bearer_auth(access_token)
        })
        .await
        {
            Ok(_)
            | Err(HttpError::Status {
                status: 404 | 410, ..
            }) => Ok(()),
            Err(e) => Err(e.into()),
        }
    }
}

fn urlencode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// Google event ids are base32hex (0-9, a-v), 5 to 1024 characters: the meeting id's bytes in hex.
pub fn event_id(meeting_id: &str) -> String {
    let hex: String = meeting_id.bytes().map(|b| format!("{b:02x}")).collect();
    format!("pm{hex}")
}

fn event_body(e: &EventInput<'_>, id: &str) -> Value {
    let start = chrono::DateTime::from_timestamp_millis(e.start_ms).unwrap_or_default();
    let end = start + chrono::Duration::minutes(i64::from(e.duration_minutes));
    let attendees: Vec<Value> = e.attendees.iter().map(|a| json!({ "email": a })).collect();
    json!({
        "id": id,
        "status": "confirmed",
        "summary": e.title,
        "description": e.description,
        "location": e.location,
        "start": { "dateTime": start.to_rfc3339(), "timeZone": "UTC" },
        "end": { "dateTime": end.to_rfc3339(), "timeZone": "UTC" },
        "attendees": attendees,
        // The same request id on every write: Google makes one Meet link per event.
        "conferenceData": {
            "createRequest": {
                "requestId": e.meeting_id,
                "conferenceSolutionKey": { "type": "hangoutsMeet" }
            }
        },
        "extendedProperties": { "private": { "prospectorMeetingId": e.meeting_id } }
    })
}

fn parse_event(answer: &str, id: &str) -> Result<EventRef, CalendarError> {
    let v: Value = serde_json::from_str(answer).map_err(|e| {
        CalendarError::Unavailable(format!("unreadable event answer from Google ({e})"))
    })?;
    let meet_link = v
        .get("hangoutLink")
        .and_then(Value::as_str)
        .map(String::from)
        .or_else(|| {
            v.pointer("/conferenceData/entryPoints")
                .and_then(Value::as_array)?
                .iter()
                .find(|p| p.get("entryPointType").and_then(Value::as_str) == Some("video"))
                .and_then(|p| p.get("uri").and_then(Value::as_str))
                .map(String::from)
        });
    Ok(EventRef {
        id: v
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or(id)
            .to_string(),
        meet_link,
    })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_are_base32hex() {
        let id = event_id("01JB7ZK4XW9T3QYV5N8M2R6PDA");
        assert!(id.len() >= 5);
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'v').contains(&b)),
            "{id}"
        );
        assert_ne!(id, event_id("01JB7ZK4XW9T3QYV5N8M2R6PDB"));
    }

    #[test]
    fn meet_link_from_either_place() {
        let a = parse_event(
            r#"{"id":"x1","hangoutLink":"https://meet.google.com/abc"}"#,
            "x",
        )
        .unwrap();
        assert_eq!(a.meet_link.as_deref(), Some("https://meet.google.com/abc"));
        let b = parse_event(
            r#"{"conferenceData":{"entryPoints":[{"entryPointType":"phone","uri":"tel:1"},{"entryPointType":"video","uri":"https://meet.google.com/xyz"}]}}"#,
            "x",
        )
        .unwrap();
        assert_eq!(b.id, "x");
        assert_eq!(b.meet_link.as_deref(), Some("https://meet.google.com/xyz"));
        assert!(matches!(
            parse_event("<html>", "x"),
            Err(CalendarError::Unavailable(_))
        ));
    }
}
