//! Mailbox sync (issue 24 §5, docs/email.md "Mailbox sync"): a user connects their own mailboxes
//! over IMAP so replies that land there stop sequences. Each user sees and manages only theirs.
//!
//! `POST /api/mailboxes` checks the form, stores the app password sealed (never returned, never
//! logged) and starts a connection test (`mailbox_sync` with `test: true`) in the same
//! transaction: 201 `{mailbox, jobId}`. `POST .../test` and `POST .../sync` start a test or a sync
//! now (202 with the job to follow; a sync already queued or running is the one returned).
//! `DELETE /api/mailboxes/{id}` forgets it (204). Plain IMAP (`tls: "none"`) only to this machine
//! unless `IMAP_ALLOW_PLAINTEXT=true`. `auth: "xoauth2"` signs in with the user's Google grant
//! (connected under Meetings) instead of a password.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::db::{MailboxInsert, MailboxRow};
use jobs::kinds::{MailboxSync, mailbox_sync_key};
use jobs::providers::imap::Tls;
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::enqueue;
use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path};
use crate::validate::{Body, Field, Fields, Text};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    use Access::User;
    Routes::new()
        .get("/api/mailboxes", User, list)
        .returns_list::<MailboxView>()
        .post("/api/mailboxes", User, connect)
        .body::<ConnectBody>()
        .creates::<MailboxConnected>()
        .delete("/api/mailboxes/{id}", User, disconnect)
        .no_content()
        .post("/api/mailboxes/{id}/test", User, test)
        .accepted()
        .post("/api/mailboxes/{id}/sync", User, sync_now)
        .accepted()
}

const NOT_FOUND: &str = "Mailbox not found";
/// Mailboxes one user may connect.
const MAX_MAILBOXES: i64 = 10;
const MAX_HOST_CHARS: usize = 253;
const MAX_USERNAME_CHARS: usize = 320;
const MAX_PASSWORD_CHARS: usize = 1000;
const MAX_FOLDER_CHARS: usize = 200;

fn tls_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&jobs::providers::imap::Tls::NAMES)
}

/// A mailbox as the screen shows it (never its password).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MailboxView {
    id: String,
    host: String,
    port: i32,
    /// `implicit` (SSL/TLS), `starttls` or `none`.
    #[schema(schema_with = tls_schema)]
    tls: String,
    /// `password` (app password) or `xoauth2` (the user's Google grant).
    auth: String,
    username: String,
    folder: String,
    last_sync_at: Option<String>,
    /// Messages read since connecting (headers only for those that are not ours).
    messages_seen: i64,
    /// Replies and bounce reports matched to messages we sent.
    messages_matched: i64,
    /// Why the last test or sync failed; cleared by the next one that works.
    last_error: Option<String>,
    last_error_at: Option<String>,
    created_at: String,
}

/// A new mailbox with the connection test it started.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MailboxConnected {
    mailbox: MailboxView,
    job_id: String,
}

impl From<&MailboxRow> for MailboxView {
    fn from(r: &MailboxRow) -> Self {
        Self {
            id: r.id.clone(),
            host: r.host.clone(),
            port: r.port,
            tls: r.tls.clone(),
            auth: r.auth.clone(),
            username: r.username.clone(),
            folder: r.folder.clone(),
            last_sync_at: r.last_sync_at.map(to_rfc3339),
            messages_seen: r.messages_seen,
            messages_matched: r.messages_matched,
            last_error: r.last_error.clone(),
            last_error_at: r.last_error_at.map(to_rfc3339),
            created_at: to_rfc3339(r.created_at),
        }
    }
}

/// The connection form.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ConnectBody {
    /// The IMAP server, e.g. `imap.gmail.com` or `outlook.office365.com`.
    #[serde(default)]
    #[schema(value_type = String)]
    host: Field<Text>,
    /// 1–65535; default 993 with `implicit` TLS, else 143.
    #[serde(default)]
    #[schema(value_type = Option<u16>)]
    port: Field<Value>,
    /// `implicit` (default), `starttls` or `none`.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    tls: Field<Text>,
    /// `password` (default) or `xoauth2`.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    auth: Field<Text>,
    /// The account's login, usually its address.
    #[serde(default)]
    #[schema(value_type = String)]
    username: Field<Text>,
    /// The app password; required with `auth: "password"`.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    password: Field<Text>,
    /// Default `INBOX`.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    folder: Field<Text>,
}

/// Letters, digits, dots and dashes (a name), or an IP address.
fn host_problem(host: &str) -> Option<&'static str> {
    if host.chars().count() > MAX_HOST_CHARS {
        return Some("Server must be at most 253 characters");
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if bare.parse::<std::net::IpAddr>().is_ok() {
        return None;
    }
    let ok = host.split('.').all(|label| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    });
    (!ok).then_some("Server must be a host name such as imap.example.com")
}

fn has_control(s: &str) -> bool {
    s.chars().any(char::is_control)
}

async fn list(State(state): State<AppState>, user: CurrentUser) -> ApiResult<Response> {
    let rows = state.queue.db.mailbox_list(&user.user.id).await?;
    let views: Vec<MailboxView> = rows.iter().map(MailboxView::from).collect();
    Ok(Json(views).into_response())
}

async fn connect(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(body): Body<ConnectBody>,
) -> ApiResult<Response> {
    let imap = state.queue.providers.imap.clone();
    let mut f = Fields::default();
    let host = match f.text("host", &body.host).flatten() {
        Some(h) => {
            if let Some(problem) = host_problem(&h) {
                f.error("host", problem);
            }
            Some(h.to_ascii_lowercase())
        }
        None => {
            f.error("host", "Server is required");
            None
        }
    };
    let tls_text = f
        .text("tls", &body.tls)
        .flatten()
        .unwrap_or_else(|| "implicit".into());
    let tls = Tls::parse(&tls_text);
    if tls.is_none() {
        f.error("tls", "Security must be implicit, starttls or none");
    }
    let port = match &body.port {
        Field::Absent | Field::Null => Some(if tls == Some(Tls::Implicit) { 993 } else { 143 }),
        Field::Value(v) => {
            let n = v
                .as_i64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()));
            match n.filter(|n| (1..=65535).contains(n)) {
                Some(n) => i32::try_from(n).ok(),
                None => {
                    f.error("port", "Port must be a whole number from 1 to 65535");
                    None
                }
            }
        }
        Field::Wrong => {
            f.error("port", "Port must be a whole number from 1 to 65535");
            None
        }
    };
    if let (Some(h), Some(t)) = (&host, tls)
        && let Some(refusal) = imap.refusal(h, t)
    {
        f.error("tls", refusal.to_string());
    }
    let auth = f
        .text("auth", &body.auth)
        .flatten()
        .unwrap_or_else(|| "password".into());
    if !matches!(auth.as_str(), "password" | "xoauth2") {
        f.error("auth", "Sign-in must be password or xoauth2");
    }
    let username = f.text("username", &body.username).flatten();
    match &username {
        None => f.error("username", "User name is required"),
        Some(u) if u.chars().count() > MAX_USERNAME_CHARS || has_control(u) => f.error(
            "username",
            "User name must be at most 320 characters, on one line",
        ),
        Some(_) => {}
    }
    // The password is taken as typed (spaces included): app passwords are often shown in groups.
    let password = match &body.password {
        Field::Value(Text(p)) if !p.is_empty() => Some(p.clone()),
        Field::Wrong => {
            f.error("password", "password must be text");
            None
        }
        _ => None,
    };
    if auth == "password" {
        match &password {
            None => f.error("password", "App password is required"),
            Some(p) if p.chars().count() > MAX_PASSWORD_CHARS || has_control(p) => f.error(
                "password",
                "App password must be at most 1000 characters, on one line",
            ),
            Some(_) => {}
        }
    }
    let folder = f
        .text("folder", &body.folder)
        .flatten()
        .unwrap_or_else(|| "INBOX".into());
    if folder.chars().count() > MAX_FOLDER_CHARS || has_control(&folder) || folder.contains('"') {
        f.error(
            "folder",
            "Folder must be at most 200 characters, without quotes",
        );
    }
    f.finish()?;
    let (Some(host), Some(tls), Some(port), Some(username)) = (host, tls, port, username) else {
        return Err(ApiError::unprocessable("Server and user name are required"));
    };
    let db = &state.queue.db;
    if auth == "xoauth2" {
        let granted = state.queue.providers.calendar.is_some()
            && db.calendar_account_get(&user.user.id).await?.is_some();
        if !granted {
            return Err(crate::validate::field_error(
                "auth",
                "Connect Google under Meetings first to sign in with Google",
            ));
        }
    }
    if db.mailbox_count(&user.user.id).await? >= MAX_MAILBOXES {
        return Err(ApiError::conflict(format!(
            "At most {MAX_MAILBOXES} mailboxes: disconnect one first"
        )));
    }
    let id = jobs::domain::new_id();
    let sealed = match (&auth[..], &password) {
        ("password", Some(p)) => Some(imap.sealer.seal(p, &id)),
        _ => None,
    };
    let tls_name = match tls {
        Tls::Implicit => "implicit",
        Tls::StartTls => "starttls",
        Tls::None => "none",
    };
    let mut jtx = state.queue.begin().await?;
    let inserted = jtx
        .tx()
        .mailbox_insert(&MailboxInsert {
            id: &id,
            user_id: &user.user.id,
            host: &host,
            port,
            tls: tls_name,
            auth: &auth,
            username: &username,
            sealed_secret: sealed.as_deref(),
            folder: &folder,
            now: now_ms(),
        })
        .await?;
    if !inserted {
        return Err(ApiError::conflict(
            "This account on this server is already connected",
        ));
    }
    let job = jtx
        .enqueue(enqueue::job(&MailboxSync {
            mailbox_id: id.clone(),
            test: true,
            idle_seconds: 0,
        })?)
        .await?;
    jtx.commit().await?;
    let row = db
        .mailbox_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    Ok((
        StatusCode::CREATED,
        Json(MailboxConnected {
            mailbox: MailboxView::from(&row),
            job_id: job.id,
        }),
    )
        .into_response())
}

/// The user's own mailbox, or 404.
async fn own(state: &AppState, user: &CurrentUser, id: &str) -> ApiResult<MailboxRow> {
    state
        .queue
        .db
        .mailbox_get(id)
        .await?
        .filter(|m| m.user_id == user.user.id)
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

async fn disconnect(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    if !state.queue.db.mailbox_delete(&id, &user.user.id).await? {
        return Err(ApiError::not_found(NOT_FOUND));
    }
    Ok(StatusCode::NO_CONTENT.into_response())
}

async fn test(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let m = own(&state, &user, &id).await?;
    let job = state
        .queue
        .enqueue(enqueue::job(&MailboxSync {
            mailbox_id: m.id,
            test: true,
            idle_seconds: 0,
        })?)
        .await?;
    Ok(enqueue::accepted(&job.id, &job.status))
}

async fn sync_now(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let m = own(&state, &user, &id).await?;
    let job = state
        .queue
        .enqueue(
            enqueue::job(&MailboxSync {
                mailbox_id: m.id.clone(),
                test: false,
                idle_seconds: 0,
            })?
            .unique_while_active(mailbox_sync_key(&m.id)),
        )
        .await?;
    Ok(enqueue::accepted(&job.id, &job.status))
}
