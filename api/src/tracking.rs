//! Links inside messages: the open pixel, click redirects and the unsubscribe page with RFC 8058
//! one-click POST. No session; every token is signed, and a token that does not verify is a 404 (a
//! click link can only lead to the URL that was in the message: no open redirect).

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use jobs::db::EventInsert;
use jobs::mailing::apply_event;
use jobs::time::now_ms;

use crate::error::ApiResult;
use crate::extract::Path;
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/t/o/{token}", Access::Public, open)
        .returns_file("image/gif")
        .html_errors()
        .get("/t/c/{token}", Access::Public, click)
        .redirects(303)
        .html_errors()
        .get("/u/{token}", Access::Public, unsubscribe_page)
        .returns_file("text/html")
        .html_errors()
        .post("/u/{token}", Access::Public, unsubscribe)
        .returns_file("text/html")
        .html_errors()
}

/// A transparent 1×1 GIF.
const PIXEL: &[u8] = &[
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00,
    0xff, 0xff, 0xff, 0x21, 0xf9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3b,
];

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        Html(page("Link not found", "<p>This link is not valid.</p>")),
    )
        .into_response()
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" \
         content=\"width=device-width, initial-scale=1\"><title>{title}</title></head>\
         <body style=\"font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem\">\
         <h1>{title}</h1>{body}</body></html>"
    )
}

/// Records a tracking event for a ledger message.
async fn track(
    state: &AppState,
    ledger_id: &str,
    kind: &str,
    url: Option<String>,
) -> ApiResult<()> {
    let db = &state.queue.db;
    if let Some(m) = db.message_find(Some(ledger_id), None).await? {
        let event = EventInsert {
            message_id: Some(m.id),
            campaign_id: m.campaign_id,
            contact_id: m.contact_id,
            email: Some(m.to_email),
            event_type: kind.into(),
            provider_event_id: None,
            url,
            detail: None,
            is_demo: false,
            occurred_at: now_ms(),
        };
        apply_event(db, &state.queue.providers.mailing, &event).await?;
    }
    Ok(())
}

async fn open(State(state): State<AppState>, Path(token): Path<String>) -> ApiResult<Response> {
    let token = token.trim_end_matches(".gif");
    let Some(ledger_id) = state.queue.providers.mailing.signer.verify_open(token) else {
        return Ok(not_found());
    };
    track(&state, &ledger_id, "opened", None).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/gif"),
            (header::CACHE_CONTROL, "no-store, max-age=0"),
        ],
        PIXEL,
    )
        .into_response())
}

async fn click(State(state): State<AppState>, Path(token): Path<String>) -> ApiResult<Response> {
    let Some(c) = state.queue.providers.mailing.signer.verify_click(&token) else {
        return Ok(not_found());
    };
    track(&state, &c.message_id, "clicked", Some(c.url.clone())).await?;
    Ok(Redirect::to(&c.url).into_response())
}

async fn unsubscribe_page(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Response> {
    let Some(u) = state
        .queue
        .providers
        .mailing
        .signer
        .verify_unsubscribe(&token)
    else {
        return Ok(not_found());
    };
    let email = html_escape::encode_text(&u.email);
    let token = html_escape::encode_double_quoted_attribute(&token);
    let body = if state.queue.db.suppression_get(&u.email).await?.is_some() {
        format!("<p>{email} is unsubscribed: we will not email this address again.</p>")
    } else {
        format!(
            "<p>Stop all email from us to <strong>{email}</strong>?</p>\
             <form method=\"post\" action=\"/u/{token}\"><button type=\"submit\">Unsubscribe</button></form>"
        )
    };
    Ok(Html(page("Unsubscribe", &body)).into_response())
}

/// The form's POST and RFC 8058's one-click POST (`List-Unsubscribe=One-Click`) alike.
async fn unsubscribe(
    State(state): State<AppState>,
    Path(token): Path<String>,
) -> ApiResult<Response> {
    let mailing = state.queue.providers.mailing.clone();
    let Some(u) = mailing.signer.verify_unsubscribe(&token) else {
        return Ok(not_found());
    };
    let db = &state.queue.db;
    let now = now_ms();
    db.suppression_add(&u.email, "unsubscribed", &format!("link:{}", u.list), now)
        .await?;
    let contact = db.contact_id_by_email(&u.email).await?;
    db.event_record(&EventInsert {
        message_id: None,
        campaign_id: Some(u.list.clone()).filter(|l| l != "all"),
        contact_id: contact,
        email: Some(u.email.clone()),
        event_type: "unsubscribed".into(),
        provider_event_id: None,
        url: None,
        detail: Some(format!("list {}", u.list)),
        is_demo: false,
        occurred_at: now,
    })
    .await?;
    let email = html_escape::encode_text(&u.email);
    Ok(Html(page(
        "You are unsubscribed",
        &format!("<p>{email} will not receive email from us again.</p>"),
    ))
    .into_response())
}
