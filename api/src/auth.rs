//! Sign-in, sign-out and the current user. Admin and ordinary sessions are separate (seed 000 §6):
//! only the admin login creates an admin session. Ordinary users sign in on the web app's `/login`
//! (which `GET /api/login` opens), admins on `/admin/login`.

use axum::extract::State;
use axum::http::{StatusCode, request::Parts};
use axum::response::{IntoResponse, Redirect, Response};
use axum_extra::extract::CookieJar;
use axum_extra::extract::cookie::{Cookie, SameSite};
use jobs::auth::{dummy_hash, new_token, normalize_email, token_hash, verify_password_off_runtime};
use jobs::db::{SessionInsert, UserRow};
// The longest email and password accepted at login: argon2 never hashes a megabyte body.
use jobs::domain::users::{MAX_EMAIL_CHARS, MAX_PASSWORD_CHARS};
use jobs::time::now_ms;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use crate::error::{ApiError, ApiResult};
use crate::extract::{AdminUser, CurrentUser, Json, SESSION_COOKIE};
use crate::limit::{client_ip, rate_limit};
use crate::{Access, AppState, Routes, SESSION_TTL};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/admin/login", Access::Public, admin_login)
        .body::<LoginBody>()
        .returns::<UserView>()
        .post("/api/admin/logout", Access::Public, logout)
        .no_content()
        .get("/api/admin/user", Access::Admin, admin_user)
        .returns::<UserView>()
        .post("/api/login", Access::Public, user_login)
        .body::<LoginBody>()
        .returns::<UserView>()
        .get("/api/login", Access::Public, login_page)
        .redirects(303)
        .get("/api/logout", Access::Public, logout_page)
        .returns_file("text/html")
        .post("/api/logout", Access::Public, logout_redirect)
        .redirects(303)
        .get("/api/auth/user", Access::User, auth_user)
        .returns::<UserView>()
}

pub const LOGIN_FAILED: &str = "Login failed. Please check your credentials.";
pub const NOT_ADMIN: &str = "Only authorized admin accounts can access this panel.";
/// Told only to whoever typed the right password: the account exists, an admin switched it off.
pub const DISABLED: &str = "This account is disabled. Ask an administrator to enable it.";

/// The email is trimmed and lower-cased before it is looked up; the password is taken as typed.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
pub struct LoginBody {
    #[schema(required = true, schema_with = login_email_schema)]
    email: Option<String>,
    #[schema(required = true, schema_with = login_password_schema)]
    password: Option<String>,
}

/// Not blank, at most [`MAX_EMAIL_CHARS`] once trimmed: any address is tried (a wrong one is 401).
fn login_email_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::trimmed_text(1, Some(MAX_EMAIL_CHARS))
}

/// Not empty (spaces count), at most [`MAX_PASSWORD_CHARS`].
fn login_password_schema() -> utoipa::openapi::ObjectBuilder {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_PASSWORD_CHARS))
}

/// The user as the web app reads it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SessionUser)]
pub struct UserView {
    id: String,
    email: String,
    first_name: Option<String>,
    last_name: Option<String>,
    /// The account has admin rights.
    is_admin: bool,
    /// This session was opened at the admin login: the admin screens and calls are open to it.
    admin_session: bool,
}

impl UserView {
    fn new(user: &UserRow, is_admin: bool, admin_session: bool) -> Self {
        Self {
            id: user.id.clone(),
            email: user.email.clone(),
            first_name: user.first_name.clone(),
            last_name: user.last_name.clone(),
            is_admin,
            admin_session: admin_session && is_admin,
        }
    }
}

async fn admin_login(
    State(state): State<AppState>,
    jar: CookieJar,
    parts: Parts,
    Json(body): Json<LoginBody>,
) -> ApiResult<Response> {
    login(state, jar, &parts, body, true).await
}

async fn user_login(
    State(state): State<AppState>,
    jar: CookieJar,
    parts: Parts,
    Json(body): Json<LoginBody>,
) -> ApiResult<Response> {
    login(state, jar, &parts, body, false).await
}

async fn login(
    state: AppState,
    jar: CookieJar,
    parts: &Parts,
    body: LoginBody,
    admin: bool,
) -> ApiResult<Response> {
    let email = body
        .email
        .as_deref()
        .map(normalize_email)
        .unwrap_or_default();
    let password = body.password.unwrap_or_default();
    let mut errors = BTreeMap::new();
    if email.is_empty() {
        errors.insert("email".to_string(), "Email is required".to_string());
    }
    if password.is_empty() {
        errors.insert("password".to_string(), "Password is required".to_string());
    }
    if !errors.is_empty() {
        return Err(ApiError::fields("Email and password are required", errors));
    }
    // Caps before anything is keyed or hashed on them: no megabyte keys in the failure counter.
    if email.chars().count() > MAX_EMAIL_CHARS {
        let message = format!("Email must be at most {MAX_EMAIL_CHARS} characters");
        errors.insert("email".to_string(), message.clone());
        return Err(ApiError::fields(message, errors));
    }
    if password.chars().count() > MAX_PASSWORD_CHARS {
        let message = format!("Password must be at most {MAX_PASSWORD_CHARS} characters");
        errors.insert("password".to_string(), message.clone());
        return Err(ApiError::fields(message, errors));
    }
    rate_limit(
        &state.limits.login_by_ip,
        client_ip(parts, &state.config.limits),
        "login attempts",
    )?;
    state.limits.login_failures.attempt(&email)?;

    let user = state.queue.db.user_get_by_email(&email).await?;
    // Verify against a dummy hash for unknown addresses so timing does not reveal which exist.
    let hash = user
        .as_ref()
        .map_or(dummy_hash(), |u| u.password_hash.as_str());
    let password_ok = verify_password_off_runtime(password, hash.to_string()).await;
    let user = match user {
        Some(u) if password_ok => u,
        _ => return Err(ApiError::unauthorized(LOGIN_FAILED)),
    };
    state.limits.login_failures.succeeded(&email);
    if user.disabled_at.is_some() {
        return Err(ApiError::forbidden(DISABLED));
    }
    let is_admin = state.is_admin(&user);
    if admin && !is_admin {
        return Err(ApiError::forbidden(NOT_ADMIN));
    }
    let token = new_token();
    let now = now_ms();
    state
        .queue
        .db
        .session_insert(&SessionInsert {
            token_hash: &token_hash(&token),
            user_id: &user.id,
            is_admin: admin,
            created_at: now,
            expires_at: now + SESSION_TTL.as_millis() as i64,
        })
        .await?;
    let secure = state.config.public_base_url.starts_with("https://");
    let cookie = Cookie::build((SESSION_COOKIE, token))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .path("/")
        .max_age(time_duration(SESSION_TTL))
        .build();
    tracing::info!(user_id = %user.id, admin, "signed in");
    Ok((
        jar.add(cookie),
        axum::Json(UserView::new(&user, is_admin, admin)),
    )
        .into_response())
}

fn time_duration(d: std::time::Duration) -> cookie::time::Duration {
    cookie::time::Duration::seconds(d.as_secs() as i64)
}

async fn end_session(state: &AppState, jar: CookieJar) -> ApiResult<CookieJar> {
    if let Some(c) = jar.get(SESSION_COOKIE) {
        state
            .queue
            .db
            .session_delete(&token_hash(c.value()))
            .await?;
        // The session may be cached: no cached copy outlives it.
        state.read_cache.bump();
    }
    Ok(jar.remove(Cookie::build(SESSION_COOKIE).path("/").build()))
}

async fn logout(State(state): State<AppState>, jar: CookieJar) -> ApiResult<Response> {
    let jar = end_session(&state, jar).await?;
    Ok((jar, StatusCode::NO_CONTENT).into_response())
}

/// Browser navigation to sign in: the users' login screen (admins have their own at /admin/login).
async fn login_page() -> Redirect {
    Redirect::to("/login")
}

/// Browser navigation to sign out (ordinary users, seed 000 §2.2): a page whose button posts the
/// sign-out. A GET never changes state, so a link or an image on another site cannot sign anyone out.
async fn logout_page() -> Response {
    (
        [
            (axum::http::header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (axum::http::header::CACHE_CONTROL, "no-store"),
        ],
        LOGOUT_PAGE,
    )
        .into_response()
}

const LOGOUT_PAGE: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign out - Prospector</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem">
<h1 style="font-size: 1.25rem">Sign out of Prospector?</h1>
<form method="post" action="/api/logout"><button type="submit">Sign out</button></form>
<p><a href="/">Back to Prospector</a></p>
</body></html>
"#;

/// The sign-out the page's form posts: the session ends and the browser goes home.
async fn logout_redirect(State(state): State<AppState>, jar: CookieJar) -> ApiResult<Response> {
    let jar = end_session(&state, jar).await?;
    Ok((jar, Redirect::to("/")).into_response())
}

async fn admin_user(
    State(state): State<AppState>,
    AdminUser(current): AdminUser,
) -> axum::Json<UserView> {
    axum::Json(UserView::new(
        &current.user,
        state.is_admin(&current.user),
        current.admin_session,
    ))
}

async fn auth_user(State(state): State<AppState>, current: CurrentUser) -> axum::Json<UserView> {
    axum::Json(UserView::new(
        &current.user,
        state.is_admin(&current.user),
        current.admin_session,
    ))
}
