//! The composer's server side: the merge fields, a preview rendered for a real contact by the same
//! renderer the senders use (so the preview is what is sent), a test send to the signed-in user
//! (an `email_send` job, marked as a test and never part of any campaign's figures), and the
//! readiness check that lists what is missing before email goes out for real.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::db::{ContactRow, MessageInsert};
use jobs::domain::campaigns::{ReadinessInput, readiness};
use jobs::email::compose::{MERGE_FIELDS, Outgoing, body_html, merge_vars, render_parts};
use jobs::kinds::EmailSend;
use jobs::mailing::{effective_daily_limit, is_default_from, sender_name, window_keys};
use jobs::queue::{JobKind, NewJob};
use jobs::time::now_ms;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    use Access::User;
    Routes::new()
        .get("/api/email/merge-fields", User, merge_fields)
        .returns::<MergeFields>()
        .get("/api/email/readiness", User, readiness_check)
        .returns::<Readiness>()
        .post("/api/email/preview", User, preview)
        .body::<ContactPreviewInput>()
        .returns::<RenderedPreview>()
        .post("/api/email/send-test", User, send_test)
        .body::<ComposerPreviewInput>()
        .returns_status::<TestQueued>(202)
}

/// The fields a subject or body may hold, as `{{key}}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MergeFields {
    fields: Vec<MergeField>,
    /// How a field names its fallback: `{{field|fallback}}`.
    fallback_syntax: &'static str,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct MergeField {
    key: &'static str,
    label: &'static str,
}

/// A draft as it would be sent.
#[derive(Debug, Serialize, utoipa::ToSchema)]
struct RenderedPreview {
    to: String,
    from: String,
    subject: String,
    html: String,
    text: String,
}

/// A test message queued for its `email_send` job.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct TestQueued {
    job_id: String,
    message_id: String,
    to: String,
    /// Always true.
    test: bool,
}

/// Whether campaigns can send, and what to fix first.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Readiness {
    ready: bool,
    /// Why sending is stopped (a bounce or complaint rate over its limit); null while it may send.
    send_blocked: Option<String>,
    items: Vec<jobs::domain::campaigns::ReadinessItem>,
}

async fn merge_fields(_: CurrentUser) -> ApiResult<Response> {
    let fields = MERGE_FIELDS
        .iter()
        .map(|(key, label)| MergeField { key, label })
        .collect();
    Ok(axum::Json(MergeFields {
        fields,
        fallback_syntax: "{{field|fallback}}",
    })
    .into_response())
}

/// Required text (not blank), as [`text`] reads it.
fn required_text() -> utoipa::openapi::ObjectBuilder {
    crate::validate::not_blank()
}

/// A subject and body, sent to the signed-in user as a test ([`ContactPreviewInput`]: rendered
/// for a contact).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ComposerPreviewInput {
    #[schema(schema_with = required_text, required = true)]
    subject: Option<String>,
    #[schema(schema_with = required_text, required = true)]
    body: Option<String>,
    /// The contact whose merge values fill the fields (else the user's own).
    contact_id: Option<String>,
    /// A campaign's own from-address, when it has one.
    from_email: Option<String>,
}

crate::validate::body_variant!(
    /// A draft to render for a contact: [`ComposerPreviewInput`] with the contact.
    ContactPreviewInput(ComposerPreviewInput),
    |base| {
        crate::validate::requiring(
            base,
            "A subject and body, rendered for a contact (who has an email address).",
            vec![(
                "contactId",
                required_text()
                    .description(Some("The contact whose merge values fill the fields."))
                    .into(),
            )],
        )
    }
);

fn text(v: &Option<String>) -> Option<&str> {
    v.as_deref().filter(|s| !s.trim().is_empty())
}

/// The subject and body, or the 422 that says which is missing.
fn content(input: &ComposerPreviewInput) -> ApiResult<(&str, &str)> {
    match (text(&input.subject), text(&input.body)) {
        (Some(s), Some(b)) => Ok((s, b)),
        _ => Err(ApiError::unprocessable("Subject and body are required.")),
    }
}

async fn contact_of(state: &AppState, id: &str) -> ApiResult<(ContactRow, Option<String>)> {
    let db = &state.queue.db;
    let contact = db
        .contact_get(id)
        .await?
        .ok_or_else(|| ApiError::not_found("Contact not found"))?;
    let company = match &contact.company_id {
        Some(c) => db.company_get(c).await?.map(|c| c.name),
        None => None,
    };
    Ok((contact, company))
}

/// The merge values of a contact as a campaign sends them (same fields, same sender name).
fn vars_of(contact: &ContactRow, company: Option<&str>, from: &str) -> Map<String, Value> {
    merge_vars(
        &contact.first_name,
        &contact.last_name,
        contact.email.as_deref().unwrap_or_default(),
        contact.title.as_deref(),
        company,
        sender_name(from),
    )
}

async fn preview(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(ContactPreviewInput(input)): Json<ContactPreviewInput>,
) -> ApiResult<Response> {
    let (subject, body) = content(&input)?;
    let id = text(&input.contact_id)
        .ok_or_else(|| ApiError::unprocessable("Choose a contact to preview for."))?;
    let (contact, company) = contact_of(&state, id).await?;
    let to = contact
        .email
        .clone()
        .filter(|e| !e.trim().is_empty())
        .ok_or_else(|| ApiError::unprocessable("This contact has no email address."))?;
    let mailing = &state.queue.providers.mailing;
    let from = text(&input.from_email).unwrap_or(&mailing.sender.from);
    let vars = vars_of(&contact, company.as_deref(), from);
    let html = body_html(body);
    // No tracking: links in a preview are the ones written, not per-recipient redirects.
    let r = render_parts(
        &mailing.sender,
        &mailing.signer,
        &Outgoing {
            ledger_id: "preview",
            message_id: "preview",
            to: &to,
            from: Some(from),
            subject,
            html: &html,
            vars: &vars,
            list: "preview",
            track_clicks: false,
            track_opens: false,
        },
    )
    .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    Ok(axum::Json(RenderedPreview {
        to,
        from: from.to_string(),
        subject: r.subject,
        html: r.html,
        text: r.text,
    })
    .into_response())
}

/// Sends the draft to the signed-in user, filled for a chosen contact (or with empty fields), as a
/// test: `[Test]` in the subject, a `test:` ledger key, no campaign and no contact.
async fn send_test(
    State(state): State<AppState>,
    user: CurrentUser,
    Json(input): Json<ComposerPreviewInput>,
) -> ApiResult<Response> {
    let (subject, body) = content(&input)?;
    let mailing = &state.queue.providers.mailing;
    if let Some(why) = mailing.send_blocked() {
        return Err(ApiError::conflict(why));
    }
    let from = text(&input.from_email).unwrap_or(&mailing.sender.from);
    let vars = match text(&input.contact_id) {
        Some(id) => {
            let (contact, company) = contact_of(&state, id).await?;
            vars_of(&contact, company.as_deref(), from)
        }
        None => merge_vars(
            user.user.first_name.as_deref().unwrap_or_default(),
            user.user.last_name.as_deref().unwrap_or_default(),
            &user.user.email,
            None,
            None,
            sender_name(from),
        ),
    };
    let to = user.user.email.trim().to_lowercase();
    let id = ulid::Ulid::new().to_string();
    let message_id = format!("{}@{}", id.to_lowercase(), mailing.message_domain);
    let vars = Value::Object(vars);
    let subject = format!("[Test] {subject}");
    let mut tx = state.queue.begin().await?;
    tx.tx()
        .messages_insert(&[MessageInsert {
            id: &id,
            dedupe_key: &format!("test:{id}"),
            campaign_id: None,
            contact_id: None,
            to_email: &to,
            from_email: &mailing.sender.from,
            subject: Some(&subject),
            body: Some(body),
            vars: &vars,
            message_id: &message_id,
            status: "queued",
            step_id: None,
            enrollment_id: None,
            variant: None,
            now: now_ms(),
        }])
        .await?;
    let job = tx
        .enqueue(NewJob::new(EmailSend::NAME, json!({ "messageId": id })))
        .await?;
    tx.commit().await?;
    Ok((
        StatusCode::ACCEPTED,
        axum::Json(TestQueued {
            job_id: job.id,
            message_id: id,
            to,
            test: true,
        }),
    )
        .into_response())
}

async fn readiness_check(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let db = &state.queue.db;
    let mailing = &state.queue.providers.mailing;
    let settings = db.deliverability_get().await?;
    let (hour, day) = window_keys(now_ms());
    let usage = db.mailbox_usage(None, &hour, &day).await?;
    let items = readiness(&ReadinessInput {
        smtp: mailing.is_smtp(),
        postal_address_set: mailing.postal_address_set(),
        from: &mailing.sender.from,
        from_is_default: is_default_from(&mailing.sender.from),
        public_base_url: &mailing.sender.public_base_url,
        hourly_limit: i64::from(settings.hourly_limit),
        daily_limit: effective_daily_limit(&settings, &usage),
        warmup: settings.warmup_enabled,
    });
    let blocked = mailing.send_blocked();
    Ok(axum::Json(Readiness {
        ready: items.iter().all(|i| i.ok),
        send_blocked: blocked.map(str::to_string),
        items,
    })
    .into_response())
}
