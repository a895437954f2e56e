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
struct Connect {
    /// The IMAP server, e.g. `imap.gmail.com` or `outlook.office365.com`: a host name of dotted
    /// labels (letters, digits, dashes), at most 253 characters. An IP address works too; this
    /// document leaves addresses out.
    #[serde(default)]
    #[schema(required = true, schema_with = host_schema)]
    host: Field<Text>,
    /// 1–65535 (a number or its digits); default 993 with `implicit` TLS, else 143.
    #[serde(default)]
    #[schema(schema_with = port_schema)]
    port: Field<Value>,
    /// `implicit` (default), `starttls` or `none`; `none` only to this machine (`localhost`,
    /// a loopback address) unless `IMAP_ALLOW_PLAINTEXT=true`.
    #[serde(default)]
    #[schema(schema_with = tls_or_default_schema)]
    tls: Field<Text>,
    /// `password` (default) or `xoauth2`, which needs the user's Google grant (connected under
    /// Meetings).
    #[serde(default)]
    #[schema(schema_with = auth_or_default_schema)]
    auth: Field<Text>,
    /// The account's login, usually its address: at most 320 characters, on one line.
    #[serde(default)]
    #[schema(required = true, schema_with = username_schema)]
    username: Field<Text>,
    /// The app password, taken as typed: required with `auth: "password"`, at most 1,000
    /// characters, on one line.
    #[serde(default)]
    #[schema(schema_with = crate::validate::text_or_null)]
    password: Field<Text>,
    /// Default `INBOX`: at most 200 characters, on one line, without quotes.
    #[serde(default)]
    #[schema(schema_with = folder_schema)]
    folder: Field<Text>,
}

crate::validate::body_variant!(
    /// [`Connect`], whose password the default sign-in needs.
    ConnectBody(Connect),
    |base| {
        crate::validate::one_shape_of(
            base,
            vec![
                vec![("auth", crate::validate::one_of(&[XOAUTH2]).into())],
                vec![("password", password_schema().into())],
            ],
        )
    }
);

/// How a mailbox signs in: an app password (the default) or the user's Google grant.
const PASSWORD: &str = "password";
const XOAUTH2: &str = "xoauth2";
const AUTHS: [&str; 2] = [PASSWORD, XOAUTH2];
/// A character `char::is_control` says is one: what a line of the form may not hold.
const CONTROL: &str = r"\x00-\x1F\x7F-\x9F";

/// A host name as [`host_problem`] takes it: dotted labels of letters, digits and dashes (not at
/// either end), spaces or tabs around it; or a number (its text is such a name, unless negative).
fn host_schema() -> utoipa::openapi::ObjectBuilder {
    let label = "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::Type::String,
            utoipa::openapi::Type::Number,
        ]))
        .pattern(Some(format!(r"^[ \t]*{label}(\.{label})*[ \t]*$")))
        .max_length(Some(MAX_HOST_CHARS))
        .minimum(Some(0.0))
}

/// A port: 1–65535 as a number or as its digits; `null` is the default.
fn port_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    let digits =
        "[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]";
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::Integer,
            Type::String,
            Type::Null,
        ]))
        .minimum(Some(1.0))
        .maximum(Some(65535.0))
        .pattern(Some(format!(r"^[ \t]*0*({digits})[ \t]*$")))
}

/// [`Tls::NAMES`], or `null` or `""` (the default, `implicit`).
fn tls_or_default_schema() -> utoipa::openapi::ObjectBuilder {
    let mut all = vec![""];
    all.extend(Tls::NAMES);
    crate::validate::one_of_or_null(&all)
}

/// [`AUTHS`], or `null` or `""` (the default, `password`).
fn auth_or_default_schema() -> utoipa::openapi::ObjectBuilder {
    let mut all = vec![""];
    all.extend(AUTHS);
    crate::validate::one_of_or_null(&all)
}

/// Not blank, at most [`MAX_USERNAME_CHARS`], no control character; or a number.
fn username_schema() -> utoipa::openapi::ObjectBuilder {
    let visible = format!(r"[^{CONTROL} \xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]");
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::Type::String,
            utoipa::openapi::Type::Number,
        ]))
        .pattern(Some(format!("^[^{CONTROL}]*{visible}[^{CONTROL}]*$")))
        .max_length(Some(MAX_USERNAME_CHARS))
}

/// The app password of the default sign-in: not empty, at most [`MAX_PASSWORD_CHARS`], no
/// control character; or a number.
fn password_schema() -> utoipa::openapi::ObjectBuilder {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            utoipa::openapi::Type::String,
            utoipa::openapi::Type::Number,
        ]))
        .pattern(Some(format!("^[^{CONTROL}]+$")))
        .max_length(Some(MAX_PASSWORD_CHARS))
}

/// At most [`MAX_FOLDER_CHARS`], no control character or quote; `null` or blank is `INBOX`.
fn folder_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::text_or_null()
        .pattern(Some(format!("^[^{CONTROL}\"]*$")))
        .max_length(Some(MAX_FOLDER_CHARS))
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
    Body(ConnectBody(body)): Body<ConnectBody>,
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
        .unwrap_or_else(|| PASSWORD.into());
    if !AUTHS.contains(&auth.as_str()) {
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
    if auth == PASSWORD {
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
    if auth == XOAUTH2 {
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
        (PASSWORD, Some(p)) => Some(imap.sealer.seal(p, &id)),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn matcher(schema: utoipa::openapi::ObjectBuilder) -> regex::Regex {
        let pattern = schema.build().pattern.unwrap_or_default();
        regex::Regex::new(&pattern).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn host_names_the_pattern_takes_are_hosts() {
        let re = matcher(host_schema());
        let label = format!("a{}z", "-9".repeat(30));
        for host in [
            "imap.gmail.com",
            " x ",
            "0",
            "a-b.c-d.9",
            &label,
            &format!("{label}.{label}"),
        ] {
            assert!(re.is_match(host), "{host}");
            assert_eq!(host_problem(host.trim()), None, "{host}");
        }
        for host in [
            "-a",
            "a-",
            "a..b",
            ".a",
            "a b",
            "a_b",
            &format!("{label}xy"),
        ] {
            assert!(!re.is_match(host), "{host}");
        }
    }

    #[test]
    fn ports_the_pattern_takes_are_ports() {
        let re = matcher(port_schema());
        for port in [
            "1",
            "993",
            " 0065535\t",
            "9999",
            "59999",
            "64999",
            "65499",
            "65529",
        ] {
            assert!(re.is_match(port), "{port}");
            let n: i64 = port.trim().parse().unwrap_or_default();
            assert!((1..=65535).contains(&n), "{port}");
        }
        for port in ["0", "65536", "70000", "99999", "+1", "1.5", ""] {
            assert!(!re.is_match(port), "{port}");
        }
    }
}
