//! `POST /api/email/inbound`: replies from SendGrid Inbound Parse (multipart form: `headers`, `from`,
//! `text`, `html`, …, or the whole message in `email` when "raw" is on). No session, but nothing
//! unauthenticated: the call needs `?token=`, `INBOUND_PARSE_TOKEN` when set, else the install's
//! webhook token (see `email.rs`); 401 otherwise. A reply is matched only to a message we sent: one
//! of our Message-IDs in `In-Reply-To`/`References`. A From header alone proves nothing (anyone can
//! write one), so a reply without such a reference is logged and ignored. A matched reply records a
//! `replied` event (which ends the contact's sequences), fires the reply rules and writes an
//! activity. A reply seen before (same Message-ID) changes nothing. Always 200 for a well-formed,
//! authenticated call, so the provider does not resend what we chose to ignore.

use axum::extract::multipart::MultipartRejection;
use axum::extract::{Multipart, State};
use axum::response::{IntoResponse, Response};
use jobs::db::{ActivityInsert, EventInsert};
use jobs::mailing::{address_of, apply_event};
use jobs::replies::fires;
use jobs::time::now_ms;
use serde::Deserialize;
use serde_json::json;

use crate::error::{ApiError, ApiResult};
use crate::extract::Query;
use crate::webhook_token::{check_install_token, same_secret};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new().post("/api/email/inbound", Access::Public, inbound)
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
        return Ok(axum::Json(json!({ "matched": false })).into_response());
    };
    let event = EventInsert {
        message_id: Some(m.id.clone()),
        campaign_id: m.campaign_id.clone(),
        contact_id: m.contact_id.clone(),
        email: Some(m.to_email.clone()),
        event_type: "replied".into(),
        provider_event_id: reply.message_id.as_ref().map(|id| format!("inbound:{id}")),
        url: None,
        detail: Some(reply.text.chars().take(500).collect()),
        is_demo: false,
        occurred_at: now_ms(),
    };
    if !apply_event(db, &mailing, &event).await? {
        return Ok(axum::Json(json!({ "matched": true, "duplicate": true })).into_response());
    }
    let mut fired = Vec::new();
    for rule in db.reply_rule_list().await? {
        if !fires(&rule, &reply.text) {
            continue;
        }
        db.reply_rule_triggered(&rule.id).await?;
        if let Some(contact) = &m.contact_id {
            let mut tx = db.begin().await?;
            match rule.action.as_str() {
                "mark_responded" => {
                    tx.contact_status_set(contact, "responded", now_ms())
                        .await?;
                }
                "create_task" | "notify" => {
                    tx.activity_insert(&ActivityInsert {
                        kind: "reply_rule_fired",
                        description: &format!(
                            "Reply rule \"{}\": {} replied",
                            rule.name, m.to_email
                        ),
                        entity_type: Some("contact"),
                        entity_id: Some(contact),
                        actor_id: None,
                    })
                    .await?;
                }
                // stop_sequence: the reply itself already ended the contact's sequences.
                _ => {}
            }
            tx.commit().await?;
        }
        fired.push(rule.name);
    }
    if let Some(contact) = &m.contact_id {
        let mut tx = db.begin().await?;
        tx.activity_insert(&ActivityInsert {
            kind: "email_replied",
            description: &format!("{} replied", m.to_email),
            entity_type: Some("contact"),
            entity_id: Some(contact),
            actor_id: None,
        })
        .await?;
        tx.commit().await?;
    }
    Ok(
        axum::Json(json!({ "matched": true, "messageId": m.id, "rulesFired": fired }))
            .into_response(),
    )
}
