//! The admin's Users screen: list, add, disable and re-enable accounts, change their role and reset
//! their password. Every change writes an audit row in the same transaction. The rules (email,
//! password, roles, not locking yourself out) are `jobs::domain::users`, shared with the CLI.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use jobs::auth::{hash_password_off_runtime, normalize_email, token_hash};
use jobs::db::{AuditInsert, Tx, UserRow, UserUpdate};
use jobs::domain::users::{
    self, CANNOT_DEMOTE_SELF, DUPLICATE_EMAIL, INVALID_EMAIL, MAX_EMAIL_CHARS, Role,
};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::extract::{AdminUser, Json, Path, SESSION_COOKIE};
use crate::validate::{Body, Field, Fields, Text};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/admin/users", Access::Admin, user_list)
        .returns_list::<UserAdminView>()
        .post("/api/admin/users", Access::Admin, user_create)
        .body::<CreateUserBody>()
        .creates::<UserAdminView>()
        .patch("/api/admin/users/{id}", Access::Admin, user_update)
        .body::<UpdateUserBody>()
        .returns::<UserAdminView>()
        .post(
            "/api/admin/users/{id}/password",
            Access::Admin,
            password_reset,
        )
        .body::<PasswordBody>()
        .no_content()
}

/// Longest first or last name.
const MAX_NAME_CHARS: usize = 100;
const NOT_FOUND: &str = "User not found";
const ADMIN_BY_CONFIG: &str =
    "This user is an admin through ADMIN_EMAILS; remove the address there to make them a user";

/// An account as the Users screen shows it (never its password hash).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct UserAdminView {
    id: String,
    email: String,
    first_name: Option<String>,
    last_name: Option<String>,
    /// `admin` or `user`: what the account may do (its flag or `ADMIN_EMAILS`).
    role: &'static str,
    /// An admin through `ADMIN_EMAILS`: the role cannot be changed here.
    admin_by_config: bool,
    disabled: bool,
    disabled_at: Option<String>,
    created_at: String,
}

impl UserAdminView {
    fn new(state: &AppState, u: &UserRow) -> Self {
        Self {
            id: u.id.clone(),
            email: u.email.clone(),
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            role: Role::of(state.is_admin(u)).as_str(),
            admin_by_config: state.config.is_admin_email(&u.email),
            disabled: u.disabled_at.is_some(),
            disabled_at: u.disabled_at.map(to_rfc3339),
            created_at: to_rfc3339(u.created_at),
        }
    }
}

async fn user_list(
    State(state): State<AppState>,
    _: AdminUser,
) -> ApiResult<axum::Json<Vec<UserAdminView>>> {
    let rows = state.queue.db.user_list().await?;
    Ok(axum::Json(
        rows.iter().map(|u| UserAdminView::new(&state, u)).collect(),
    ))
}

/// A new account: email and password required; the role is `user` unless given.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreateUserBody {
    /// An address as `users::email_is_valid` takes it (this document says ASCII).
    #[serde(default)]
    #[schema(required = true, schema_with = email_schema)]
    email: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = name_schema)]
    first_name: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = name_schema)]
    last_name: Field<Text>,
    /// 8–1,024 characters, spaces included (a number: its digits).
    #[serde(default)]
    #[schema(required = true, schema_with = password_schema)]
    password: Field<Text>,
    /// `admin` or `user` (left out: `user`).
    #[serde(default)]
    #[schema(schema_with = role_schema)]
    role: Field<Text>,
}

/// The fields of an account to change; absent ones stay as they are.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct UpdateUserBody {
    /// `admin` or `user`.
    #[serde(default)]
    #[schema(schema_with = role_schema)]
    role: Field<Text>,
    /// `true` disables the account (its sessions end), `false` enables it again.
    #[serde(default)]
    #[schema(value_type = bool)]
    disabled: Field<bool>,
    #[serde(default)]
    #[schema(schema_with = name_schema)]
    first_name: Field<Text>,
    #[serde(default)]
    #[schema(schema_with = name_schema)]
    last_name: Field<Text>,
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct PasswordBody {
    /// 8–1,024 characters, spaces included (a number: its digits).
    #[serde(default)]
    #[schema(required = true, schema_with = password_schema)]
    password: Field<Text>,
}

/// [`users::email_is_valid`]'s addresses, at most [`MAX_EMAIL_CHARS`].
fn email_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::email().max_length(Some(MAX_EMAIL_CHARS))
}

/// A name, or `null` or blank (none): at most [`MAX_NAME_CHARS`] once trimmed.
fn name_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::text_or_null().max_length(Some(MAX_NAME_CHARS))
}

/// A new password as [`users::password_problem`] takes it: text of 8–1,024 characters, or a
/// number ([`Text`] reads it as its digits) with at least 8 of them: from 10,000,000 up, or from
/// -1,000,000 down.
fn password_schema() -> utoipa::openapi::schema::OneOfBuilder {
    use utoipa::openapi::{ObjectBuilder, Type};
    let number = || ObjectBuilder::new().schema_type(Type::Number);
    utoipa::openapi::schema::OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(users::MIN_PASSWORD_CHARS))
                .max_length(Some(users::MAX_PASSWORD_CHARS)),
        )
        .item(number().minimum(Some(1e7)))
        .item(number().maximum(Some(-1e6)))
}

/// [`Role::NAMES`] (`null` or blank is refused: only a role left out is the default).
fn role_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(Role::NAMES)
}

/// A name: absent → `None`; null or blank → `Some(None)`.
fn read_name(f: &mut Fields, key: &str, field: &Field<Text>) -> Option<Option<String>> {
    let name = f.text(key, field);
    if let Some(Some(n)) = &name
        && n.chars().count() > MAX_NAME_CHARS
    {
        f.error(
            key,
            format!("{key} must be at most {MAX_NAME_CHARS} characters"),
        );
    }
    name
}

/// A role: absent → `None`; anything but `admin` or `user` is a field error.
fn read_role(f: &mut Fields, field: &Field<Text>) -> Option<Role> {
    let text = f.text("role", field)?;
    let role = text.as_deref().and_then(Role::parse);
    if role.is_none() {
        f.error("role", jobs::domain::one_of_message("role", Role::NAMES));
    }
    role
}

/// A new password exactly as typed (spaces count): required, and within the policy.
fn read_password(f: &mut Fields, field: &Field<Text>) -> String {
    match field {
        Field::Value(Text(p)) if !p.is_empty() => {
            if let Some(problem) = users::password_problem(p) {
                f.error("password", problem);
            }
            p.clone()
        }
        Field::Wrong => {
            f.error("password", "password must be text");
            String::new()
        }
        _ => {
            f.error("password", "Password is required");
            String::new()
        }
    }
}

async fn audit(
    tx: &mut Tx,
    admin: &AdminUser,
    action: &str,
    target: &UserRow,
    detail: Value,
) -> ApiResult<()> {
    tx.audit_insert(&AuditInsert {
        // Sorts after the rows written before it, so one request's rows list in the order written.
        id: &jobs::domain::new_id(),
        actor_id: Some(&admin.0.user.id),
        actor_email: Some(&admin.0.user.email),
        action,
        target: Some(&target.id),
        detail: Some(&detail),
        created_at: now_ms(),
    })
    .await?;
    Ok(())
}

async fn user_create(
    State(state): State<AppState>,
    admin: AdminUser,
    Body(body): Body<CreateUserBody>,
) -> ApiResult<Response> {
    let mut f = Fields::default();
    let email = f
        .text("email", &body.email)
        .flatten()
        .map(|e| normalize_email(&e));
    match &email {
        None => f.error("email", "Email is required"),
        Some(e) if e.chars().count() > MAX_EMAIL_CHARS => f.error(
            "email",
            format!("Email must be at most {MAX_EMAIL_CHARS} characters"),
        ),
        Some(e) if !users::email_is_valid(e) => f.error("email", INVALID_EMAIL),
        Some(_) => {}
    }
    let first_name = read_name(&mut f, "firstName", &body.first_name).flatten();
    let last_name = read_name(&mut f, "lastName", &body.last_name).flatten();
    let password = read_password(&mut f, &body.password);
    let role = read_role(&mut f, &body.role).unwrap_or(Role::User);
    f.finish()?;
    let email = email.unwrap_or_default();

    let db = &state.queue.db;
    // Checked before hashing so a taken address answers at once; the unique index decides a race.
    if db.user_get_by_email(&email).await?.is_some() {
        return Err(duplicate());
    }
    let hash = hash_password_off_runtime(password)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    let row = UserRow {
        id: jobs::domain::new_id(),
        email,
        password_hash: hash,
        first_name,
        last_name,
        is_admin: role == Role::Admin,
        created_at: now_ms(),
        disabled_at: None,
    };
    let mut tx = db.begin().await?;
    match tx.user_insert(&row).await {
        Err(sqlx::Error::Database(d)) if d.is_unique_violation() => return Err(duplicate()),
        other => other?,
    }
    let detail = json!({ "email": row.email, "role": role.as_str() });
    audit(&mut tx, &admin, "user.create", &row, detail).await?;
    tx.commit().await?;
    tracing::info!(user_id = %row.id, by = %admin.0.user.id, "user created");
    Ok((StatusCode::CREATED, Json(UserAdminView::new(&state, &row))).into_response())
}

fn duplicate() -> ApiError {
    ApiError::conflict(DUPLICATE_EMAIL)
}

async fn user_update(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<String>,
    Body(body): Body<UpdateUserBody>,
) -> ApiResult<Json<UserAdminView>> {
    let mut f = Fields::default();
    let role = read_role(&mut f, &body.role);
    let disabled = match body.disabled {
        Field::Absent => None,
        Field::Value(b) => Some(b),
        Field::Null | Field::Wrong => {
            f.error("disabled", "disabled must be true or false");
            None
        }
    };
    let first_name = read_name(&mut f, "firstName", &body.first_name);
    let last_name = read_name(&mut f, "lastName", &body.last_name);
    f.finish()?;
    let is_self = id == admin.0.user.id;
    if let Some(problem) = users::self_change_problem(is_self, disabled == Some(true), role) {
        return Err(ApiError::conflict(problem));
    }

    let mut tx = state.queue.db.begin().await?;
    let user = tx
        .user_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    if role == Some(Role::User) && state.config.is_admin_email(&user.email) {
        // Self-demotion is refused above; this is about the allowlist, which the screen cannot edit.
        let message = if is_self {
            CANNOT_DEMOTE_SELF
        } else {
            ADMIN_BY_CONFIG
        };
        return Err(ApiError::conflict(message));
    }
    let now = now_ms();
    let updated = UserRow {
        first_name: first_name.unwrap_or_else(|| user.first_name.clone()),
        last_name: last_name.unwrap_or_else(|| user.last_name.clone()),
        is_admin: role.map_or(user.is_admin, |r| r == Role::Admin),
        disabled_at: match disabled {
            None => user.disabled_at,
            Some(true) => user.disabled_at.or(Some(now)),
            Some(false) => None,
        },
        ..user.clone()
    };
    tx.user_update(&UserUpdate {
        id: &id,
        first_name: updated.first_name.as_deref(),
        last_name: updated.last_name.as_deref(),
        is_admin: updated.is_admin,
        disabled_at: updated.disabled_at,
    })
    .await?;
    let was_disabled = user.disabled_at.is_some();
    let now_disabled = updated.disabled_at.is_some();
    let mut ended = 0;
    if now_disabled && !was_disabled {
        ended = tx.session_delete_for_user(&id, None).await?;
        audit(
            &mut tx,
            &admin,
            "user.disable",
            &user,
            json!({ "sessionsEnded": ended }),
        )
        .await?;
    } else if was_disabled && !now_disabled {
        audit(&mut tx, &admin, "user.enable", &user, json!({})).await?;
    }
    if updated.is_admin != user.is_admin {
        let detail = json!({
            "from": Role::of(user.is_admin).as_str(),
            "to": Role::of(updated.is_admin).as_str(),
        });
        audit(&mut tx, &admin, "user.role", &user, detail).await?;
    }
    if (&updated.first_name, &updated.last_name) != (&user.first_name, &user.last_name) {
        let detail = json!({ "firstName": updated.first_name, "lastName": updated.last_name });
        audit(&mut tx, &admin, "user.rename", &user, detail).await?;
    }
    tx.commit().await?;
    if ended > 0 {
        // A cached session must not outlive its row.
        state.read_cache.bump();
    }
    Ok(Json(UserAdminView::new(&state, &updated)))
}

async fn password_reset(
    State(state): State<AppState>,
    admin: AdminUser,
    jar: CookieJar,
    Path(id): Path<String>,
    Body(body): Body<PasswordBody>,
) -> ApiResult<Response> {
    let mut f = Fields::default();
    let password = read_password(&mut f, &body.password);
    f.finish()?;
    let hash = hash_password_off_runtime(password)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    // Whoever knew the old password is signed out; an admin resetting their own keeps this session.
    let keep = jar.get(SESSION_COOKIE).map(|c| token_hash(c.value()));
    let mut tx = state.queue.db.begin().await?;
    let user = tx
        .user_get_for_update(&id)
        .await?
        .ok_or_else(|| ApiError::not_found(NOT_FOUND))?;
    tx.user_set_password(&id, &hash).await?;
    let ended = tx.session_delete_for_user(&id, keep.as_deref()).await?;
    let detail = json!({ "sessionsEnded": ended });
    audit(&mut tx, &admin, "user.password_reset", &user, detail).await?;
    tx.commit().await?;
    state.read_cache.bump();
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_kept_as_typed_and_checked() {
        let mut f = Fields::default();
        let p = read_password(&mut f, &Field::Value(Text(" spaced out ".into())));
        assert_eq!(p, " spaced out ");
        assert!(f.finish().is_ok());
        let mut f = Fields::default();
        read_password(&mut f, &Field::Value(Text("short".into())));
        assert!(f.finish().is_err());
        let mut f = Fields::default();
        read_password(&mut f, &Field::Null);
        assert!(f.finish().is_err());
    }

    #[test]
    fn a_role_must_be_admin_or_user() {
        let mut f = Fields::default();
        assert_eq!(read_role(&mut f, &Field::Absent), None);
        assert_eq!(
            read_role(&mut f, &Field::Value(Text("admin".into()))),
            Some(Role::Admin)
        );
        assert!(f.finish().is_ok());
        let mut f = Fields::default();
        assert_eq!(read_role(&mut f, &Field::Value(Text("owner".into()))), None);
        assert!(f.finish().is_err());
    }
}
