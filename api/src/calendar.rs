//! Google Calendar connection and meeting sync (seed 001 "Meetings and calendar"), reminders and
//! SMS (seed 002 "Automation, scoring, calendar, SMS").
//!
//! Connect: `GET /api/calendar/auth-url` signs an OAuth `state` for the signed-in user (10 minutes);
//! Google sends the popup to `GET /api/calendar/callback`, which exchanges the code, stores the
//! tokens sealed under `SECRET_KEY` and posts `{type: 'google-calendar-auth', success, tokens}` to the
//! opener. The `tokens` the browser receives only say that the server holds a grant: the sync calls
//! take the seed's `tokens` body and ignore it, using the stored grant of the user who asks.
//! `GET /api/calendar/connection` and `DELETE /api/calendar/connection` show and forget it.
//!
//! Sync: `POST /api/meetings/{id}/sync-to-calendar`, `PUT .../update-calendar` and
//! `DELETE .../remove-from-calendar` mark the meeting pending and enqueue a `calendar_sync` job in
//! one transaction (202 `{jobId, syncStatus}`); without a grant: 409 'No calendar tokens available.'
//!
//! `POST /api/calendar/send-reminders` starts a `reminder_batch` job that sends a reminder now for
//! each meeting in the reminder horizon (once per meeting time); `POST /api/contacts/{id}/send-sms` texts a contact.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use jobs::db::{CalendarAccountRow, SmsInsert};
use jobs::kinds::{CalendarSync, ReminderBatch, SmsSend};
use jobs::providers::google::CalendarError;
use jobs::queue::{JobKind, NewJob};
use jobs::time::now_ms;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::enqueue;
use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::validate::field_error;
use crate::{Access, AppState, Routes};

const STATE_TTL_MS: i64 = 10 * 60_000;
const NOT_CONFIGURED: &str =
    "Google Calendar is not configured on this server. Subscribe to the calendar feed instead.";
const CONNECT_FAILED: &str = "Failed to connect to Google Calendar. Please try again.";
/// Twilio's limit for one message (ten segments).
const SMS_MAX_CHARS: usize = 1600;

pub(crate) fn routes() -> Routes {
    use Access::{Public, User};
    Routes::new()
        .get("/api/calendar/connection", User, connection)
        .returns::<CalendarConnection>()
        .delete("/api/calendar/connection", User, disconnect)
        .no_content()
        .get("/api/calendar/auth-url", User, auth_url)
        .returns::<AuthUrl>()
        .get("/api/calendar/callback", Public, callback)
        .query::<CallbackQuery>()
        .returns_file("text/html")
        .html_errors()
        .post("/api/meetings/{id}/sync-to-calendar", User, sync_meeting)
        .returns_status::<SyncAccepted>(202)
        .put("/api/meetings/{id}/update-calendar", User, sync_meeting)
        .returns_status::<SyncAccepted>(202)
        .delete(
            "/api/meetings/{id}/remove-from-calendar",
            User,
            remove_meeting,
        )
        .returns_status::<SyncAccepted>(202)
        .post("/api/calendar/send-reminders", User, send_reminders)
        .body::<RemindersInput>()
        .accepted()
        .post("/api/contacts/{id}/send-sms", User, send_sms)
        .body::<SmsInput>()
        .returns_status::<SmsAccepted>(202)
}

/// The user's Google Calendar connection.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CalendarConnection {
    /// The server has Google credentials.
    configured: bool,
    connected: bool,
    account_email: Option<String>,
    /// RFC 3339.
    connected_at: Option<String>,
    /// Why the grant stopped working (reconnect).
    error: Option<String>,
}

async fn connection(State(state): State<AppState>, user: CurrentUser) -> ApiResult<Response> {
    let account = state.queue.db.calendar_account_get(&user.user.id).await?;
    Ok(Json(CalendarConnection {
        configured: state.queue.providers.calendar.is_some(),
        connected: account.as_ref().is_some_and(|a| a.error.is_none()),
        account_email: account.as_ref().and_then(|a| a.account_email.clone()),
        connected_at: account
            .as_ref()
            .map(|a| jobs::time::to_rfc3339(a.connected_at)),
        error: account.and_then(|a| a.error),
    })
    .into_response())
}

async fn disconnect(State(state): State<AppState>, user: CurrentUser) -> ApiResult<StatusCode> {
    state
        .queue
        .db
        .calendar_account_delete(&user.user.id)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn auth_url(State(state): State<AppState>, user: CurrentUser) -> ApiResult<Response> {
    let google = state
        .queue
        .providers
        .calendar
        .clone()
        .ok_or_else(|| ApiError::conflict(NOT_CONFIGURED))?;
    let token = state
        .queue
        .providers
        .mailing
        .signer
        .oauth_state_token(&user.user.id, now_ms() + STATE_TTL_MS);
    Ok(Json(AuthUrl {
        auth_url: google.auth_url(&token),
    })
    .into_response())
}

/// Google's consent page for this user (opened in a popup).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct AuthUrl {
    auth_url: String,
}

/// A meeting's calendar job, and the meeting's sync state until it runs.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SyncAccepted {
    job_id: String,
    /// `pending`.
    sync_status: &'static str,
}

/// A text queued for its `sms_send` job.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SmsAccepted {
    job_id: String,
    sms_id: String,
    /// `queued`.
    status: &'static str,
    /// No SMS provider: the text is recorded as simulated, not sent.
    demo: bool,
}

#[derive(Deserialize, utoipa::IntoParams)]
struct CallbackQuery {
    code: Option<String>,
    state: Option<String>,
    error: Option<String>,
}

/// The popup's last page: tells the opener how it went and closes.
fn popup(status: StatusCode, origin: &str, message: &Value) -> Response {
    // `<` escaped so no value can end the script element.
    let data = message.to_string().replace('<', "\\u003c");
    let origin = serde_json::to_string(origin)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    let text = if message["success"] == true {
        "Google Calendar connected. You can close this window."
    } else {
        CONNECT_FAILED
    };
    let body = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>Google Calendar</title></head>\
         <body><p>{text}</p><script>\
         if (window.opener) {{ window.opener.postMessage({data}, {origin}); window.close(); }}\
         </script></body></html>"
    );
    (status, Html(body)).into_response()
}

async fn callback(State(state): State<AppState>, Query(q): Query<CallbackQuery>) -> Response {
    let origin = state.config.public_base_url.clone();
    let fail = |status: StatusCode, why: &str| {
        popup(
            status,
            &origin,
            &json!({ "type": "google-calendar-auth", "success": false, "message": why }),
        )
    };
    let now = now_ms();
    let signer = &state.queue.providers.mailing.signer;
    let Some(user_id) = q
        .state
        .as_deref()
        .and_then(|s| signer.verify_oauth_state(s, now))
    else {
        return fail(
            StatusCode::BAD_REQUEST,
            "The sign-in link is invalid or has expired.",
        );
    };
    let Some(google) = state.queue.providers.calendar.clone() else {
        return fail(StatusCode::CONFLICT, NOT_CONFIGURED);
    };
    let code = match (q.error, q.code) {
        (None, Some(code)) if !code.is_empty() => code,
        (error, _) => {
            tracing::info!(error = ?error, "calendar connection declined");
            return fail(StatusCode::BAD_REQUEST, CONNECT_FAILED);
        }
    };
    let grant = match google.exchange_code(&code).await {
        Ok(g) => g,
        Err(e) => {
            tracing::warn!(error = %e, "calendar code exchange failed");
            let status = match e {
                CalendarError::Unavailable(_) => StatusCode::BAD_GATEWAY,
                _ => StatusCode::BAD_REQUEST,
            };
            return fail(status, CONNECT_FAILED);
        }
    };
    // The address is only shown; a failure to read it does not fail the connection.
    let account_email = google.account_email(&grant.access_token).await.ok();
    let sealer = &google.sealer;
    let row = CalendarAccountRow {
        user_id: user_id.clone(),
        provider: "google".into(),
        account_email: account_email.clone(),
        access_token: sealer.seal(&grant.access_token, &user_id),
        refresh_token: grant
            .refresh_token
            .as_deref()
            .map(|t| sealer.seal(t, &user_id)),
        expires_at: now.saturating_add(grant.expires_in.saturating_mul(1000)),
        error: None,
        connected_at: now,
        updated_at: now,
    };
    if let Err(e) = state.queue.db.calendar_account_save(&row).await {
        tracing::error!(error = %e, "calendar grant not stored");
        return fail(StatusCode::INTERNAL_SERVER_ERROR, CONNECT_FAILED);
    }
    popup(
        StatusCode::OK,
        &origin,
        &json!({
            "type": "google-calendar-auth",
            "success": true,
            "tokens": { "connected": true, "accountEmail": account_email },
        }),
    )
}

/// 409 unless the user holds a working grant.
async fn require_grant(state: &AppState, user: &CurrentUser) -> ApiResult<()> {
    match state.queue.db.calendar_account_get(&user.user.id).await? {
        Some(a) if a.error.is_none() && state.queue.providers.calendar.is_some() => Ok(()),
        Some(a) if a.error.is_some() => Err(ApiError::conflict(a.error.unwrap_or_default())),
        _ => Err(ApiError::conflict(
            jobs::providers::google::CalendarError::NoTokens.to_string(),
        )),
    }
}

/// Sync and update are one call: the job inserts or patches as the meeting's event id says.
async fn sync_meeting(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    require_grant(&state, &user).await?;
    let mut jtx = state.queue.begin().await?;
    if jtx.tx().meeting_sync_request(&id, &user.user.id).await? == 0 {
        return Err(ApiError::not_found("Meeting not found"));
    }
    let inserted = jtx
        .enqueue(enqueue::job(&CalendarSync {
            meeting_id: id,
            op: "upsert".into(),
            owner_id: None,
            event_id: None,
        })?)
        .await?;
    jtx.commit().await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(SyncAccepted {
            job_id: inserted.id,
            sync_status: "pending",
        }),
    )
        .into_response())
}

async fn remove_meeting(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let mut jtx = state.queue.begin().await?;
    let m = jtx
        .tx()
        .meeting_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Meeting not found"))?;
    let Some(event_id) = m.google_calendar_event_id.clone() else {
        return Err(ApiError::conflict("This meeting is not on a calendar."));
    };
    let owner = m.calendar_owner_id.clone().unwrap_or(user.user.id.clone());
    jtx.tx().meeting_sync_disable(&id).await?;
    let inserted = jtx
        .enqueue(enqueue::job(&CalendarSync {
            meeting_id: id,
            op: "delete".into(),
            owner_id: Some(owner),
            event_id: Some(event_id),
        })?)
        .await?;
    jtx.commit().await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(SyncAccepted {
            job_id: inserted.id,
            sync_status: "pending",
        }),
    )
        .into_response())
}

/// What a reminder batch does; left out or null: email and SMS, personalized, no automation.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Reminders {
    include_email: Option<bool>,
    #[serde(rename = "includeSMS", alias = "includeSms")]
    include_sms: Option<bool>,
    personalize_messages: Option<bool>,
    trigger_automation: Option<bool>,
}

crate::validate::body_variant!(
    /// [`Reminders`] that send something (`ReminderBatch::validate`): email or SMS not turned
    /// off, or the automation turned on.
    RemindersInput(Reminders),
    |base| {
        use utoipa::openapi::{ObjectBuilder, Type};
        // Left out, null or true: on.
        let on = || {
            ObjectBuilder::new()
                .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
                    Type::Boolean,
                    Type::Null,
                ]))
                .enum_values(Some([serde_json::Value::Bool(true), serde_json::Value::Null]))
        };
        let automation = ObjectBuilder::new()
            .schema_type(Type::Boolean)
            .enum_values(Some([true]));
        crate::validate::one_of_shapes(
            base,
            vec![
                ObjectBuilder::new().property("includeEmail", on()),
                ObjectBuilder::new().property("includeSMS", on()),
                crate::validate::shape(vec![("triggerAutomation", automation.into())]),
            ],
        )
    }
);

/// Starts a `reminder_batch` job (202 with the job to follow): its result says how many emails
/// went and how many wait in the queue, and how many texts went.
async fn send_reminders(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(RemindersInput(input)): Json<RemindersInput>,
) -> ApiResult<Response> {
    let batch = ReminderBatch {
        email: input.include_email.unwrap_or(true),
        sms: input.include_sms.unwrap_or(true),
        personalize: input.personalize_messages.unwrap_or(true),
        trigger_automation: input.trigger_automation.unwrap_or(false),
    };
    batch.validate().map_err(ApiError::unprocessable)?;
    let job = state
        .queue
        .enqueue(enqueue::job(&batch)?.unique_while_active("reminders"))
        .await?;
    Ok(enqueue::accepted(&job.id, &job.status))
}

/// What a text's `type` may be: a short lower-case word (`custom` when left out or null).
fn sms_kind_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::String,
            Type::Null,
        ]))
        .pattern(Some("^[a-z_-]{1,40}$"))
}

/// The text: not blank, at most [`SMS_MAX_CHARS`] characters (a subset: counted before trimming).
fn sms_message_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank().max_length(Some(SMS_MAX_CHARS))
}

#[derive(Deserialize, utoipa::ToSchema)]
struct SmsInput {
    /// e.g. `custom`, `reminder` or `follow_up`.
    #[serde(rename = "type")]
    #[schema(schema_with = sms_kind_schema)]
    kind: Option<String>,
    #[schema(schema_with = sms_message_schema, required = true)]
    message: Option<String>,
}

async fn send_sms(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<SmsInput>,
) -> ApiResult<Response> {
    let message = input.message.unwrap_or_default().trim().to_string();
    if message.is_empty() {
        return Err(field_error("message", "Message is required"));
    }
    if message.chars().count() > SMS_MAX_CHARS {
        return Err(field_error(
            "message",
            format!("Message must be at most {SMS_MAX_CHARS} characters"),
        ));
    }
    let kind = input.kind.unwrap_or_else(|| "custom".into());
    if kind.is_empty()
        || kind.len() > 40
        || !kind
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'_' || b == b'-')
    {
        return Err(field_error(
            "type",
            "type must be a short lower-case word such as custom, reminder or follow_up",
        ));
    }
    let contact = state
        .queue
        .db
        .contact_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Contact not found"))?;
    let raw = contact
        .phone
        .as_deref()
        .filter(|p| !p.trim().is_empty())
        .ok_or_else(|| ApiError::unprocessable("This contact has no phone number."))?;
    let phone = jobs::providers::sms::e164(raw).ok_or_else(|| {
        ApiError::unprocessable(format!(
            "The contact's phone number {raw} is not a valid number (outside the US, start it with + and the country code)."
        ))
    })?;
    let sms_id = jobs::domain::new_id();
    let mut jtx = state.queue.begin().await?;
    jtx.tx()
        .sms_insert(&SmsInsert {
            id: &sms_id,
            dedupe_key: &format!("sms:{sms_id}"),
            contact_id: Some(&contact.id),
            meeting_id: None,
            kind: &kind,
            to_phone: &phone,
            body: &message,
            actor_id: Some(&user.user.id),
            now: now_ms(),
        })
        .await?;
    let inserted = jtx
        .enqueue(NewJob::new(SmsSend::NAME, json!({ "smsId": sms_id })))
        .await?;
    jtx.commit().await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(SmsAccepted {
            job_id: inserted.id,
            sms_id,
            status: "queued",
            demo: state.queue.providers.sms.is_none(),
        }),
    )
        .into_response())
}
