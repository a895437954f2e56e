//! `POST /api/email/inbound`: replies from SendGrid Inbound Parse (multipart form: `headers`, `from`,
//! `text`, `html`, …, or the whole message in `email` when "raw" is on). No session, but nothing
//! unauthenticated: the call needs `?token=`, `INBOUND_PARSE_TOKEN` when set, else the install's
//! webhook token (see `email.rs`); 401 otherwise. A reply is matched only to a message we sent: one
//! of our Message-IDs in `In-Reply-To`/`References`. A From header alone proves nothing (anyone can
//! write one), so a reply without such a reference is logged and ignored. A matched reply is
//! recorded by `jobs::replies::record_reply`, as mailbox sync records one: a `replied` event (which
//! ends the contact's sequences), the reply rules and an activity; an out-of-office reply holds the
//! sequences until its return date instead. A reply seen before (same Message-ID, by either way in)
//! changes nothing. Always 200 for a well-formed,
//! authenticated call, so the provider does not resend what we chose to ignore.

use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::response::{IntoResponse, Response};
use jobs::mailing::address_of;
use jobs::replies::{InboundReply, ReplyOutcome, record_reply};
use jobs::time::now_ms;
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};
use crate::extract::Query;
use crate::webhook_token::{check_install_token, same_secret};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/email/inbound", Access::Public, inbound)
        .body_as("multipart/form-data", crate::forms::inbound_parse)
        .returns::<InboundOutcome>()
}

/// What became of an inbound message.
#[derive(Debug, Default, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct InboundOutcome {
    /// It answers one of our messages.
    matched: bool,
    /// Recorded before (a provider's retry).
    #[serde(skip_serializing_if = "Option::is_none")]
    duplicate: Option<bool>,
    /// The message it answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    message_id: Option<String>,
    /// The reply rules that acted on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    rules_fired: Option<Vec<String>>,
    /// An automatic reply: the sequence pauses until the stated return.
    #[serde(skip_serializing_if = "Option::is_none")]
    out_of_office: Option<bool>,
}

#[derive(Deserialize)]
struct Token {
    token: Option<String>,
}

/// The parts of a reply we use.
#[derive(Default)]
struct Reply {
    from: String,
    message_id: Option<String>,
    /// Message-IDs it answers (In-Reply-To, then References).
    answers: Vec<String>,
    subject: String,
    /// `Auto-Submitted` (other than `no`), `X-Autoreply` or `X-Autorespond` (an out-of-office).
    auto_reply: bool,
    text: String,
}

/// `<a@b> <c@d>` → `a@b`, `c@d`.
fn ids_in(value: &str) -> Vec<String> {
    value
        .split('<')
        .skip(1)
        .filter_map(|p| p.split_once('>').map(|(id, _)| id.trim().to_string()))
        .filter(|id| !id.is_empty())
        .collect()
}

fn from_headers(reply: &mut Reply, headers: &str) {
    for line in unfold(headers) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "in-reply-to" | "references" => reply.answers.extend(ids_in(value)),
            "message-id" => reply.message_id = ids_in(value).into_iter().next(),
            "from" if reply.from.is_empty() => reply.from = address_of(value.trim()),
            "subject" if reply.subject.is_empty() => reply.subject = value.trim().to_string(),
            "auto-submitted" => reply.auto_reply |= !value.trim().eq_ignore_ascii_case("no"),
            "x-autoreply" | "x-autorespond" => reply.auto_reply = true,
            _ => {}
        }
    }
}

/// Header lines with continuation lines joined.
fn unfold(headers: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in headers.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some(last) = out.last_mut() {
                last.push(' ');
                last.push_str(line.trim());
            }
        } else {
            out.push(line.to_string());
        }
    }
    out
}

async fn read(mut form: Multipart) -> ApiResult<Reply> {
    let mut reply = Reply::default();
    let mut html = String::new();
    while let Some(field) = form
        .next_field()
        .await
        .map_err(|e| ApiError::bad_request(format!("malformed multipart body: {e}")))?
    {
        let name = field.name().unwrap_or_default().to_string();
        let value = field
            .text()
            .await
            .map_err(|e| ApiError::bad_request(format!("malformed multipart field: {e}")))?;
        match name.as_str() {
            "headers" => from_headers(&mut reply, &value),
            "from" => reply.from = address_of(&value),
            "subject" => reply.subject = value,
            "text" => reply.text = value,
            "html" => html = value,
            "email" => {
                // Raw mode: the whole MIME message.
                if let Some(msg) = mail_parser::MessageParser::default().parse(value.as_bytes()) {
                    let (head, _) = value
                        .split_once("\r\n\r\n")
                        .or_else(|| value.split_once("\n\n"))
                        .unwrap_or((&value, ""));
                    from_headers(&mut reply, head);
                    if let Some(t) = msg.body_text(0) {
                        reply.text = t.into_owned();
                    }
                }
            }
            _ => {}
        }
    }
    if reply.text.is_empty() {
        reply.text = html;
    }
    if reply.from.is_empty() {
        return Err(ApiError::unprocessable(
            "An inbound email needs a sender (from)",
        ));
    }
    Ok(reply)
}

async fn inbound(
    State(state): State<AppState>,
    Query(q): Query<Token>,
    form: Result<Multipart, MultipartRejection>,
) -> ApiResult<Response> {
    let form = form.map_err(|r| ApiError::bad_request(r.body_text()))?;
    let mailing = state.queue.providers.mailing.clone();
    if let Some(expected) = &mailing.inbound_token {
        if !same_secret(q.token.as_deref().unwrap_or_default(), expected.expose()) {
            return Err(ApiError::unauthorized("Invalid inbound token"));
        }
    } else {
        check_install_token(&state, q.token.as_deref(), "inbound").await?;
    }
    let reply = read(form).await?;
    let db = &state.queue.db;
    let mut message = None;
    for id in &reply.answers {
        if let Some(m) = db.message_find(None, Some(id)).await? {
            message = Some(m);
            break;
        }
    }
    let Some(m) = message else {
        tracing::info!(
            from = %reply.from,
            references = reply.answers.len(),
            "inbound email answers none of our messages; ignored"
        );
        return Ok(axum::Json(InboundOutcome::default()).into_response());
    };
    let inbound = InboundReply {
        message_id: reply.message_id.clone(),
        subject: reply.subject.clone(),
        text: reply.text.clone(),
        auto_reply: reply.auto_reply,
    };
    let (rules_fired, out_of_office) =
        match record_reply(db, &mailing, &m, &inbound, now_ms()).await? {
            ReplyOutcome::Duplicate => {
                let seen = InboundOutcome {
                    matched: true,
                    duplicate: Some(true),
                    ..InboundOutcome::default()
                };
                return Ok(axum::Json(seen).into_response());
            }
            ReplyOutcome::Replied { rules_fired } => (rules_fired, false),
            ReplyOutcome::OutOfOffice { rules_fired, .. } => (rules_fired, true),
        };
    Ok(axum::Json(InboundOutcome {
        matched: true,
        duplicate: None,
        message_id: Some(m.id),
        rules_fired: Some(rules_fired),
        out_of_office: Some(out_of_office),
    })
    .into_response())
}
