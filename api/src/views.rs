//! Saved views (issue 23): `/api/views`. A user names the settings of a table (filters, columns,
//! sort) to come back to them; each user has their own, per screen. The state is the web app's
//! JSON object, stored as it is (bounded in size, never interpreted here).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::db::SavedViewRow;
use jobs::domain::{new_id, one_of_message};
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::validate::{Body, Field, Fields, Object, Text};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/views", Access::User, view_list)
        .query::<ScreenQuery>()
        .returns_list::<ViewOut>()
        .post("/api/views", Access::User, view_save)
        .body::<ViewBody>()
        .creates_or_replaces::<ViewOut>()
        .delete("/api/views/{id}", Access::User, view_delete)
        .no_content()
}

/// The tables that keep views.
const SCREENS: [&str; 5] = [
    "companies",
    "contacts",
    "customers",
    "discovery-results",
    "invoices",
];
const NAME_MAX: usize = 80;
/// Filters, a column list and a sort fit in far less.
const STATE_MAX_BYTES: usize = 4096;
const VIEWS_PER_SCREEN: i64 = 50;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ViewOut {
    id: String,
    screen: String,
    name: String,
    state: Value,
    created_at: String,
    updated_at: String,
}

impl From<SavedViewRow> for ViewOut {
    fn from(v: SavedViewRow) -> Self {
        Self {
            id: v.id,
            screen: v.screen,
            name: v.name,
            state: v.state.0,
            created_at: to_rfc3339(v.created_at),
            updated_at: to_rfc3339(v.updated_at),
        }
    }
}

fn screen_of(f: &mut Fields, screen: Option<&str>) -> Option<String> {
    match screen.map(str::trim).filter(|s| !s.is_empty()) {
        Some(s) if SCREENS.contains(&s) => Some(s.to_string()),
        Some(_) => {
            f.error("screen", one_of_message("screen", &SCREENS));
            None
        }
        None => {
            f.error("screen", "screen is required");
            None
        }
    }
}

#[derive(Debug, Deserialize)]
struct ScreenQuery {
    screen: Option<String>,
}

/// Written by hand: the derived one cannot both require `screen` and take its values from
/// [`SCREENS`].
impl utoipa::IntoParams for ScreenQuery {
    fn into_params(
        parameter_in: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        vec![crate::validate::query_param(
            parameter_in(),
            "screen",
            true,
            "The screen whose views to list.",
            screen_schema(),
        )]
    }
}

async fn view_list(
    State(state): State<AppState>,
    user: CurrentUser,
    Query(q): Query<ScreenQuery>,
) -> ApiResult<Json<Vec<ViewOut>>> {
    let mut f = Fields::default();
    let screen = screen_of(&mut f, q.screen.as_deref());
    f.finish()?;
    let Some(screen) = screen else {
        return Err(ApiError::unprocessable("screen is required"));
    };
    let rows = state.queue.db.saved_views(&user.user.id, &screen).await?;
    Ok(Json(rows.into_iter().map(ViewOut::from).collect()))
}

#[derive(Debug, Deserialize, utoipa::ToSchema)]
struct ViewBody {
    /// The table the view is of.
    #[serde(default)]
    #[schema(required = true, schema_with = screen_schema)]
    screen: Field<Text>,
    /// 1–80 characters once trimmed; a name the user has on the screen (in any case) is replaced.
    #[serde(default)]
    #[schema(required = true, schema_with = name_schema)]
    name: Field<Text>,
    /// The table's settings, as the web app writes them (a JSON object of at most 4 KB).
    #[serde(default)]
    #[schema(required = true, value_type = Object)]
    state: Field<Object<Map<String, Value>>>,
}

/// [`SCREENS`].
fn screen_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&SCREENS)
}

/// 1–[`NAME_MAX`] characters once trimmed; a number is its text.
fn name_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::text_like(crate::validate::trimmed_text(1, Some(NAME_MAX)))
}

/// Saves a view; a name the user already has on that screen (whatever its case) is replaced:
/// 201 for a new view, 200 for a replaced one.
async fn view_save(
    State(state): State<AppState>,
    user: CurrentUser,
    Body(body): Body<ViewBody>,
) -> ApiResult<Response> {
    let mut f = Fields::default();
    let screen = match &body.screen {
        Field::Value(Text(s)) => screen_of(&mut f, Some(s)),
        _ => screen_of(&mut f, None),
    };
    let name = f.text("name", &body.name).flatten();
    match &name {
        None => f.error("name", "Name the view"),
        Some(n) if n.chars().count() > NAME_MAX => {
            f.error("name", "A view's name is limited to 80 characters");
        }
        Some(_) => {}
    }
    let view_state = match body.state {
        Field::Value(Object(map)) => {
            let value = Value::Object(map);
            if value.to_string().len() > STATE_MAX_BYTES {
                f.error("state", "The view's settings are too large (at most 4 KB)");
            }
            Some(value)
        }
        Field::Absent | Field::Null => {
            f.error("state", "state is required");
            None
        }
        Field::Wrong => {
            f.error("state", "state must be an object");
            None
        }
    };
    f.finish()?;
    let (Some(screen), Some(name), Some(view_state)) = (screen, name, view_state) else {
        return Err(ApiError::unprocessable("Invalid view"));
    };
    let db = &state.queue.db;
    let existing = db.saved_views(&user.user.id, &screen).await?;
    let replaces = existing
        .iter()
        .any(|v| v.name.to_lowercase() == name.to_lowercase());
    if !replaces && existing.len() as i64 >= VIEWS_PER_SCREEN {
        return Err(ApiError::conflict(
            "You have 50 views of this table: delete one first",
        ));
    }
    let id = new_id();
    let row = db
        .saved_view_put(&id, &user.user.id, &screen, &name, &view_state, now_ms())
        .await?;
    let status = if row.id == id {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(ViewOut::from(row))).into_response())
}

async fn view_delete(
    State(state): State<AppState>,
    user: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if state.queue.db.saved_view_delete(&id, &user.user.id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("View not found"))
    }
}
