//! Email calls (seed 002 "Single campaigns and email analytics", "Email configuration"; seed 001
//! `POST /api/contacts/email`, email history) and SendGrid's event webhook.
//!
//! The webhook needs no session but accepts nothing unauthenticated: when
//! `SENDGRID_WEBHOOK_PUBLIC_KEY` is set every call must carry a valid ECDSA signature; otherwise (the
//! default) its URL carries the install's webhook token (`?token=`, made on first need, stored sealed
//! in `app_secrets`, shown to admins by `GET /api/email/webhook/config`, rotated by
//! `POST /api/email/webhook/rotate`). Anything else is a 401 that changes nothing. Repeated
//! `sg_event_id`s are ignored, so a retried delivery of the same batch changes nothing.
//!
//! Suppressions are listed here, and an admin can lift one (audit log entry and contact activity):
//! a forged or mistaken entry must be undoable.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use jobs::db::{
    ActivityInsert, AuditInsert, CampaignRow, EventInsert, FigureScope, MessageInsert,
    WEBHOOK_TOKEN, figure_total,
};
use jobs::domain::email_figures::{EmailFigures, email_figures};
use jobs::email::compose::render;
use jobs::email::domain_check::DomainCheck;
use jobs::email::sendgrid;
use jobs::kinds::{EmailSend, SenderDomainCheck};
use jobs::mailing::{address_of, apply_event};
use jobs::queue::{JobKind, NewJob};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::extract::{AdminUser, CurrentUser, Json, Path, Query};
use crate::list::{paging, with_total};
use crate::webhook_token::{check_install_token, install_token, sealer};
use crate::{Access, AppState, Routes};

pub const NO_EMAIL: &str = "No Email Address: Email address not available for this contact.";
/// Messages a contact's email history lists (newest first).
const HISTORY_MESSAGES: i64 = 20;

pub(crate) fn routes() -> Routes {
    use Access::{Admin, Public, User};
    Routes::new()
        .post("/api/contacts/email", User, contact_email)
        .body::<EmailInput>()
        // A 202 of its own: the queued message and its job, without a Location.
        .returns_status::<EmailQueued>(202)
        .get("/api/contacts/{id}/email-history", User, email_history)
        .returns::<EmailHistory>()
        .get("/api/email/analytics", User, analytics)
        .query::<Timeframe>()
        .returns::<EmailAnalytics>()
        .post("/api/email/seed-events", User, seed_events)
        .returns::<SampleEvents>()
        .post("/api/email/webhook", Public, webhook)
        .query::<TokenQuery>()
        .body_as("application/json", sendgrid_events)
        .returns::<SendgridWebhookReceipt>()
        .get("/api/email/webhook/config", User, webhook_config)
        .returns::<WebhookConfig>()
        .post("/api/email/webhook/rotate", Admin, webhook_rotate)
        .returns::<WebhookConfig>()
        .get("/api/email/suppressions", User, suppression_list)
        .query::<SuppressionQuery>()
        .returns_page::<SuppressionView>()
        .delete("/api/email/suppressions/{email}", Admin, suppression_lift)
        .returns::<SuppressionLifted>()
        .get("/api/email/domain-check", User, domain_check_latest)
        .returns::<DomainCheckLatest>()
        .post("/api/email/domain-check", User, domain_check_start)
        .accepted()
}

/// Starts a check of the sender domain's SPF, DKIM and DMARC records (one at a time).
async fn domain_check_start(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let job = NewJob::new(SenderDomainCheck::NAME, json!({}))
        .unique_while_active(SenderDomainCheck::NAME);
    let inserted = state.queue.enqueue(job).await?;
    Ok(crate::enqueue::accepted(&inserted.id, &inserted.status))
}

/// All null before the first check.
/// The check's job status, `null` before the first check.
fn job_status_or_null() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_null(&jobs::queue::STATUSES)
}

#[derive(Serialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DomainCheckLatest {
    job_id: Option<String>,
    #[schema(schema_with = job_status_or_null)]
    status: Option<String>,
    checked_at: Option<String>,
    check: Option<DomainCheck>,
    error: Option<String>,
}

/// The latest check: its job (to follow while it runs) and, once it succeeded, its verdicts.
async fn domain_check_latest(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let (rows, _) = state
        .queue
        .db
        .job_list(&jobs::db::JobList {
            kind: Some(SenderDomainCheck::NAME),
            status: None,
            text: None,
            from: None,
            until: None,
            limit: 1,
            offset: 0,
        })
        .await?;
    let Some(job) = rows.into_iter().next() else {
        return Ok(axum::Json(DomainCheckLatest::default()).into_response());
    };
    let check = match (&job.status[..], &job.result) {
        ("succeeded", Some(r)) => serde_json::from_value::<DomainCheck>(r.0.clone()).ok(),
        _ => None,
    };
    Ok(axum::Json(DomainCheckLatest {
        job_id: Some(job.id),
        status: Some(job.status),
        checked_at: job.finished_at.map(to_rfc3339),
        check,
        error: job.error,
    })
    .into_response())
}

/// Required text (not blank).
fn required_text() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank()
}

/// A message to a contact (who has an email address and is not suppressed).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EmailInput {
    #[schema(schema_with = required_text, required = true)]
    contact_id: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    subject: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    message: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EmailQueued {
    success: bool,
    message_id: String,
    job_id: String,
}

/// Queues one message to a contact; the `email_send` job sends it.
async fn contact_email(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(input): Json<EmailInput>,
) -> ApiResult<Response> {
    let contact_id = input
        .contact_id
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .ok_or_else(|| ApiError::unprocessable("contactId is required"))?;
    let subject = input.subject.as_deref().map(str::trim).unwrap_or_default();
    let message = input.message.as_deref().map(str::trim).unwrap_or_default();
    if subject.is_empty() || message.is_empty() {
        return Err(ApiError::unprocessable("Subject and message are required."));
    }
    let db = &state.queue.db;
    let contact = db
        .contact_get(contact_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Contact not found"))?;
    let to = contact
        .email
        .as_deref()
        .map(|e| e.trim().to_lowercase())
        .filter(|e| !e.is_empty())
        .ok_or_else(|| ApiError::unprocessable(NO_EMAIL))?;
    if let Some(reason) = db.suppression_get(&to).await? {
        return Err(ApiError::unprocessable(format!(
            "{to} does not receive email from us ({})",
            reason.replace('_', " ")
        )));
    }
    let mailing = &state.queue.providers.mailing;
    let id = ulid::Ulid::new().to_string();
    let message_id = format!("{}@{}", id.to_lowercase(), mailing.message_domain);
    let company = match &contact.company_id {
        Some(c) => db.company_get(c).await?.map(|c| c.name),
        None => None,
    };
    let vars = json!({
        "firstName": contact.first_name,
        "lastName": contact.last_name,
        "email": to,
        "companyName": company.unwrap_or_default(),
        "senderName": user.user.first_name.clone().unwrap_or_default(),
    });
    let mut tx = state.queue.begin().await?;
    tx.tx()
        .messages_insert(&[MessageInsert {
            id: &id,
            dedupe_key: &format!("direct:{id}"),
            campaign_id: None,
            contact_id: Some(&contact.id),
            to_email: &to,
            from_email: &mailing.sender.from,
            subject: Some(subject),
            body: Some(message),
            vars: &vars,
            message_id: &message_id,
            status: "queued",
            step_id: None,
            enrollment_id: None,
            variant: None,
            now: now_ms(),
        }])
        .await?;
    tx.tx()
        .activity_insert(&ActivityInsert {
            kind: "email_sent",
            description: &format!("Email \"{subject}\" to {to}"),
            entity_type: Some("contact"),
            entity_id: Some(&contact.id),
            actor_id: Some(&user.user.id),
        })
        .await?;
    let job = tx
        .enqueue(NewJob::new(EmailSend::NAME, json!({ "messageId": id })))
        .await?;
    tx.commit().await?;
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(EmailQueued {
            success: true,
            message_id: id,
            job_id: job.id,
        }),
    )
        .into_response())
}

/// A contact's email: the campaigns that reached it, its latest events and messages, and its
/// figures.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EmailHistory {
    total_events: i64,
    campaigns: Vec<HistoryCampaignView>,
    recent_events: Vec<HistoryEventView>,
    /// The newest 20, from the moment each is queued.
    messages: Vec<HistoryMessageView>,
    figures: EmailFigures,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailHistoryCampaign)]
struct HistoryCampaignView {
    id: String,
    name: String,
    status: String,
    total_events: i64,
    last_event: LastEvent,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = EmailHistoryLastEvent)]
struct LastEvent {
    timestamp: String,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailHistoryEvent)]
struct HistoryEventView {
    event_type: String,
    timestamp: String,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailHistoryMessage)]
struct HistoryMessageView {
    id: String,
    /// Its merge fields filled in.
    subject: Option<String>,
    campaign_name: Option<String>,
    to: String,
    status: String,
    error: Option<String>,
    created_at: String,
    sent_at: Option<String>,
    opened_at: Option<String>,
    clicked_at: Option<String>,
    replied_at: Option<String>,
    bounced_at: Option<String>,
}

async fn email_history(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let db = &state.queue.db;
    if db.contact_get(&id).await?.is_none() {
        return Err(ApiError::not_found("Contact not found"));
    }
    let (total, campaigns, recent) = db.contact_email_history(&id).await?;
    let campaigns: Vec<HistoryCampaignView> = campaigns
        .into_iter()
        .map(|c| HistoryCampaignView {
            id: c.id,
            name: c.name,
            status: c.status,
            total_events: c.total_events,
            last_event: LastEvent {
                timestamp: to_rfc3339(c.last_event_at),
            },
        })
        .collect();
    let recent: Vec<HistoryEventView> = recent
        .into_iter()
        .map(|e| HistoryEventView {
            event_type: e.event_type,
            timestamp: to_rfc3339(e.occurred_at),
        })
        .collect();
    // Its counts and rates as every screen shows them (docs/figures.md).
    let figures = email_figures(&figure_total(
        &db.email_figures(&FigureScope {
            contact_id: Some(&id),
            ..FigureScope::default()
        })
        .await?,
    ));
    // Every message, from the moment it is queued: a direct email shows before it is sent.
    let messages: Vec<HistoryMessageView> = db
        .contact_messages(&id, HISTORY_MESSAGES)
        .await?
        .into_iter()
        .map(|m| {
            let vars = m.vars.0.as_object().cloned().unwrap_or_default();
            HistoryMessageView {
                id: m.id,
                subject: m.subject.map(|s| render(&s, &vars, false)),
                campaign_name: m.campaign_name,
                to: m.to_email,
                status: m.status,
                error: m.last_error,
                created_at: to_rfc3339(m.created_at),
                sent_at: m.sent_at.map(to_rfc3339),
                opened_at: m.opened_at.map(to_rfc3339),
                clicked_at: m.clicked_at.map(to_rfc3339),
                replied_at: m.replied_at.map(to_rfc3339),
                bounced_at: m.bounced_at.map(to_rfc3339),
            }
        })
        .collect();
    Ok(axum::Json(EmailHistory {
        total_events: total,
        campaigns,
        recent_events: recent,
        messages,
        figures,
    })
    .into_response())
}

/// Days back as [`analytics`] reads them: trimmed, trailing `d`s dropped, then blank (30) or a
/// number from 1 to 365 as `i64::from_str` reads it (a `+`, leading zeros).
fn timeframe_schema() -> utoipa::openapi::ObjectBuilder {
    use crate::validate::SPACE;
    let days = "0*([1-9]|[1-9][0-9]|[12][0-9][0-9]|3[0-5][0-9]|36[0-5])";
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .pattern(Some(format!("^{SPACE}*(\\+?{days})?d*{SPACE}*$")))
        .description(Some("Days back, 1–365 (`30` or `30d`; default 30)."))
}

#[derive(Deserialize, utoipa::IntoParams)]
struct Timeframe {
    /// Days back, 1–365 (`30` or `30d`; default 30).
    #[param(schema_with = timeframe_schema)]
    timeframe: Option<String>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EmailAnalytics {
    /// Days.
    timeframe: i64,
    total_sent: i64,
    delivered: i64,
    bounced: i64,
    open_rate: f64,
    click_rate: f64,
    reply_rate: f64,
    figures: EmailFigures,
}

/// The email figures (docs/figures.md) of the messages sent in the last `timeframe` days (default
/// 30): the seed's fields and, in `figures`, every count and rate.
async fn analytics(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<Timeframe>,
) -> ApiResult<Response> {
    let days: i64 = match q
        .timeframe
        .as_deref()
        .map(|t| t.trim().trim_end_matches('d'))
    {
        None | Some("") => 30,
        Some(t) => t
            .parse()
            .ok()
            .filter(|d| (1..=365).contains(d))
            .ok_or_else(|| {
                ApiError::unprocessable("timeframe must be a number of days from 1 to 365")
            })?,
    };
    let rows = state
        .queue
        .db
        .email_figures(&FigureScope {
            since: Some(now_ms() - days * 86_400_000),
            ..FigureScope::default()
        })
        .await?;
    let f = email_figures(&figure_total(&rows));
    Ok(axum::Json(EmailAnalytics {
        timeframe: days,
        total_sent: f.sent,
        delivered: f.delivered,
        bounced: f.bounced,
        open_rate: f.open_rate,
        click_rate: f.click_rate,
        reply_rate: f.reply_rate,
        figures: f,
    })
    .into_response())
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SampleEvents {
    success: bool,
    total_events: i64,
}

/// Demo tracking data for an empty install: one completed sample campaign over up to 20 contacts
/// with sent/delivered/opened/clicked/replied events, all marked as demo data.
async fn seed_events(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let db = &state.queue.db;
    if db.event_total().await? > 0 {
        return Err(ApiError::conflict(
            "Email tracking data already exists; sample data is only for an empty install.",
        ));
    }
    let contacts = db.contacts_with_email(20).await?;
    if contacts.is_empty() {
        return Err(ApiError::unprocessable(
            "Add contacts with an email address first.",
        ));
    }
    let now = now_ms();
    let campaign = CampaignRow {
        id: ulid::Ulid::new().to_string(),
        kind: "single".into(),
        name: "Sample tracking data".into(),
        description: Some("Demo events created from the Email Campaigns page".into()),
        status: "completed".into(),
        subject: None,
        template_id: None,
        from_email: None,
        target_filters: None,
        selected_contact_ids: None,
        schedule_at: None,
        target_audience: Some("all-active".into()),
        ai_model: Some("gpt-5".into()),
        total_recipients: contacts.len() as i32,
        created_at: now,
        updated_at: now,
        started_at: Some(now - 7 * 86_400_000),
        sent_at: None,
        ended_at: Some(now),
    };
    let mailing = &state.queue.providers.mailing;
    let mut tx = db.begin().await?;
    tx.campaign_insert(&campaign).await?;
    let messages: Vec<(String, String, String, String, String)> = contacts
        .iter()
        .map(|(contact_id, email)| {
            let id = ulid::Ulid::new().to_string();
            let key = format!("demo:{}:{contact_id}", campaign.id);
            let message_id = format!("{}@{}", id.to_lowercase(), mailing.message_domain);
            (id, contact_id.clone(), email.clone(), key, message_id)
        })
        .collect();
    let no_vars = json!({});
    let rows: Vec<MessageInsert<'_>> = messages
        .iter()
        .map(|(id, contact_id, email, key, message_id)| MessageInsert {
            id,
            dedupe_key: key,
            campaign_id: Some(&campaign.id),
            contact_id: Some(contact_id),
            to_email: email,
            from_email: &mailing.sender.from,
            subject: Some("Sample message"),
            body: Some("Demo data"),
            vars: &no_vars,
            message_id,
            status: "sent",
            step_id: None,
            enrollment_id: None,
            variant: None,
            now,
        })
        .collect();
    tx.messages_insert(&rows).await?;
    tx.commit().await?;
    let mut total = 0;
    for (i, (id, contact_id, email, ..)) in messages.iter().enumerate() {
        // A typical funnel: everyone sent, 19 in 20 delivered, 9 in 20 opened, 3 clicked, 1 replied.
        let steps: &[&str] = match i % 20 {
            0 => &["sent", "delivered", "opened", "clicked", "replied"],
            1 | 2 => &["sent", "delivered", "opened", "clicked"],
            3..=8 => &["sent", "delivered", "opened"],
            19 => &["sent", "bounced"],
            _ => &["sent", "delivered"],
        };
        for (n, step) in steps.iter().enumerate() {
            let at = now - 6 * 86_400_000 + (i as i64) * 600_000 + (n as i64) * 3_600_000;
            db.event_record(&EventInsert {
                message_id: Some(id.clone()),
                campaign_id: Some(campaign.id.clone()),
                contact_id: Some(contact_id.clone()),
                email: Some(email.clone()),
                event_type: (*step).to_string(),
                provider_event_id: None,
                url: None,
                detail: Some("demo".into()),
                is_demo: true,
                occurred_at: at,
            })
            .await?;
            total += 1;
        }
    }
    Ok(axum::Json(SampleEvents {
        success: true,
        total_events: total,
    })
    .into_response())
}

/// The webhook's body: a batch of SendGrid's events (`SendgridEvent`), as `sendgrid::parse_events`
/// reads it.
fn sendgrid_events() -> (
    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    Vec<(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )>,
) {
    use utoipa::{PartialSchema, ToSchema};
    let name = sendgrid::Event::name().into_owned();
    let mut nested = Vec::new();
    sendgrid::Event::schemas(&mut nested);
    nested.push((name.clone(), sendgrid::Event::schema()));
    let events = utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::Ref::from_schema_name(name))
        .description(Some("SendGrid's events, a batch at a time."));
    (events.into(), nested)
}

/// SendGrid's event name → ours; `None`: not tracked.
fn event_type(e: &sendgrid::Event) -> Option<&'static str> {
    Some(match e.event.as_str() {
        "delivered" => "delivered",
        "open" => "opened",
        "click" => "clicked",
        "bounce" if e.bounce_type.as_deref() == Some("blocked") => "deferred",
        "bounce" => "bounced",
        "deferred" => "deferred",
        "dropped" => "dropped",
        "spamreport" => "spam_reported",
        "unsubscribe" | "group_unsubscribe" => "unsubscribed",
        _ => return None,
    })
}

#[derive(Deserialize, utoipa::IntoParams)]
pub(crate) struct TokenQuery {
    /// The install's webhook token (when no signing key is set).
    token: Option<String>,
}

/// What a batch of events did: recorded, already seen (`sg_event_id`), or not tracked.
#[derive(Serialize, utoipa::ToSchema)]
struct SendgridWebhookReceipt {
    received: usize,
    recorded: i64,
    duplicates: i64,
    ignored: i64,
}

async fn webhook(
    State(state): State<AppState>,
    Query(q): Query<TokenQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Response> {
    // Shape first (pure: nothing is read or written for a body that is not a batch of events),
    // then who sent it, then the database.
    let events = sendgrid::parse_events(&body).map_err(ApiError::bad_request)?;
    let mailing = state.queue.providers.mailing.clone();
    if let Some(key) = &mailing.webhook_public_key {
        let header = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
        };
        let signature = header("x-twilio-email-event-webhook-signature");
        let timestamp = header("x-twilio-email-event-webhook-timestamp");
        if !sendgrid::verify_signature(key, signature, timestamp, &body) {
            return Err(ApiError::unauthorized("Invalid webhook signature"));
        }
    } else {
        check_install_token(&state, q.token.as_deref(), "webhook").await?;
    }
    let db = &state.queue.db;
    let (mut recorded, mut duplicates, mut ignored) = (0, 0, 0);
    for e in &events {
        let Some(kind) = event_type(e) else {
            ignored += 1;
            continue;
        };
        let rfc_id = e
            .smtp_id
            .as_deref()
            .map(|s| s.trim().trim_start_matches('<').trim_end_matches('>'));
        let message = db
            .message_find(e.prospector_message_id.as_deref(), rfc_id)
            .await?;
        let email = e
            .email
            .as_deref()
            .map(address_of)
            .or_else(|| message.as_ref().map(|m| m.to_email.clone()));
        let event = EventInsert {
            message_id: message.as_ref().map(|m| m.id.clone()),
            campaign_id: message.as_ref().and_then(|m| m.campaign_id.clone()),
            contact_id: message.as_ref().and_then(|m| m.contact_id.clone()),
            email,
            event_type: kind.to_string(),
            provider_event_id: e.sg_event_id.clone(),
            url: e.url.clone(),
            detail: e.reason.clone(),
            is_demo: false,
            occurred_at: e
                .timestamp
                .map(|t| t.saturating_mul(1000))
                .unwrap_or_else(now_ms),
        };
        if apply_event(db, &mailing, &event).await? {
            recorded += 1;
        } else {
            duplicates += 1;
        }
    }
    Ok(axum::Json(SendgridWebhookReceipt {
        received: events.len(),
        recorded,
        duplicates,
        ignored,
    })
    .into_response())
}

/// An admin session (the token is shown to admins only; other users see the URLs without it).
fn admin_session(state: &AppState, user: &CurrentUser) -> bool {
    user.admin_session && state.is_admin(&user.user)
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailWebhookConfig)]
struct WebhookConfig {
    webhook_url: String,
    inbound_url: String,
    signature_verification: bool,
    /// How the webhook URL is authenticated: `signature` or `token`.
    webhook_auth: &'static str,
    /// `configured-token` or `token`.
    inbound_auth: &'static str,
    /// False for non-admins: the URLs come without their token.
    token_visible: bool,
    delivery: Delivery,
    /// The SendGrid events to turn on.
    events: Vec<&'static str>,
}

/// How mail leaves: through an SMTP relay, or written to the outbox folder (demo mode).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = EmailDelivery)]
struct Delivery {
    /// `smtp` or `outbox`.
    mode: &'static str,
    relay: Option<String>,
    from: String,
}

/// The webhook settings; `token` (the install's) goes into the URLs that use it.
fn config_json(state: &AppState, token: Option<&str>) -> WebhookConfig {
    let base = &state.config.public_base_url;
    let mailing = &state.queue.providers.mailing;
    let signed = mailing.webhook_public_key.is_some();
    let with = |path: &str, t: Option<&str>| match t {
        Some(t) => format!("{base}{path}?token={t}"),
        None => format!("{base}{path}"),
    };
    // A configured INBOUND_PARSE_TOKEN is the one inbound calls must carry.
    let inbound_token = match &mailing.inbound_token {
        Some(t) => token.map(|_| t.expose().as_str()),
        None => token,
    };
    let relay = state.config.mail.relay();
    WebhookConfig {
        webhook_url: with("/api/email/webhook", if signed { None } else { token }),
        inbound_url: with("/api/email/inbound", inbound_token),
        signature_verification: signed,
        webhook_auth: if signed { "signature" } else { "token" },
        inbound_auth: if mailing.inbound_token.is_some() {
            "configured-token"
        } else {
            "token"
        },
        token_visible: token.is_some(),
        delivery: Delivery {
            mode: if relay.is_some() { "smtp" } else { "outbox" },
            relay,
            from: state.config.mail.from.clone(),
        },
        events: vec![
            "delivered",
            "open",
            "click",
            "bounce",
            "dropped",
            "spamreport",
            "deferred",
            "unsubscribe",
        ],
    }
}

async fn webhook_config(State(state): State<AppState>, user: CurrentUser) -> ApiResult<Response> {
    let token = if admin_session(&state, &user) {
        Some(install_token(&state).await?)
    } else {
        None
    };
    Ok(axum::Json(config_json(&state, token.as_deref())).into_response())
}

/// A new install token: URLs with the old one get 401 from now on.
async fn webhook_rotate(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
) -> ApiResult<Response> {
    let mut tx = state.queue.db.begin().await?;
    let token = tx
        .secret_token_rotate(&sealer(&state), WEBHOOK_TOKEN)
        .await?;
    tx.audit_insert(&AuditInsert {
        id: &ulid::Ulid::new().to_string(),
        actor_id: Some(&admin.user.id),
        actor_email: Some(&admin.user.email),
        action: "email.webhook_token.rotate",
        target: Some(WEBHOOK_TOKEN),
        detail: None,
        created_at: now_ms(),
    })
    .await?;
    tx.commit().await?;
    Ok(axum::Json(config_json(&state, Some(&token))).into_response())
}

#[derive(Deserialize, utoipa::IntoParams)]
struct SuppressionQuery {
    /// Text in the address.
    q: Option<String>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = Suppression)]
struct SuppressionView {
    email: String,
    reason: String,
    source: Option<String>,
    contact_id: Option<String>,
    created_at: String,
}

/// The suppression list, newest first; `q` filters by address.
async fn suppression_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<SuppressionQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let (rows, total) = state
        .queue
        .db
        .suppression_list(q.q.as_deref(), limit, offset)
        .await?;
    let items: Vec<SuppressionView> = rows
        .into_iter()
        .map(|r| SuppressionView {
            email: r.email,
            reason: r.reason,
            source: r.source,
            contact_id: r.contact_id,
            created_at: to_rfc3339(r.created_at),
        })
        .collect();
    Ok(with_total(items, total))
}

/// The address taken off the list, why it was on it, and its contact.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SuppressionLifted {
    success: bool,
    email: String,
    reason: String,
    contact_id: Option<String>,
}

/// Takes an address off the suppression list (admins only): it can be emailed again. The audit
/// log records who lifted what; the contact's history shows it too.
async fn suppression_lift(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Path(email): Path<String>,
) -> ApiResult<Response> {
    let email = email.trim().to_lowercase();
    let db = &state.queue.db;
    let contact = db.contact_id_by_email(&email).await?;
    let mut tx = db.begin().await?;
    let Some(removed) = tx.suppression_delete(&email).await? else {
        return Err(ApiError::not_found(format!("{email} is not suppressed")));
    };
    let detail = json!({ "reason": removed.reason, "source": removed.source });
    tx.audit_insert(&AuditInsert {
        id: &ulid::Ulid::new().to_string(),
        actor_id: Some(&admin.user.id),
        actor_email: Some(&admin.user.email),
        action: "email.suppression.lift",
        target: Some(&removed.email),
        detail: Some(&detail),
        created_at: now_ms(),
    })
    .await?;
    if let Some(contact) = &contact {
        tx.activity_insert(&ActivityInsert {
            kind: "suppression_lifted",
            description: &format!(
                "{} can be emailed again (suppression for {} lifted)",
                removed.email,
                removed.reason.replace('_', " ")
            ),
            entity_type: Some("contact"),
            entity_id: Some(contact),
            actor_id: Some(&admin.user.id),
        })
        .await?;
    }
    tx.commit().await?;
    Ok(axum::Json(SuppressionLifted {
        success: true,
        email: removed.email,
        reason: removed.reason,
        contact_id: contact,
    })
    .into_response())
}
