//! `GET /api/activities`: the CRM's history, newest first.

use axum::extract::State;
use axum::response::Response;
use jobs::time::to_rfc3339;
use serde::{Deserialize, Serialize};

use crate::error::ApiResult;
use crate::extract::{CurrentUser, Query};
use crate::list::{paging, with_total};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new().get("/api/activities", Access::User, activity_list)
}

#[derive(Debug, Deserialize)]
struct ListQuery {
    limit: Option<i64>,
    offset: Option<i64>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ActivityView {
    id: String,
    #[serde(rename = "type")]
    kind: String,
    description: String,
    entity_type: Option<String>,
    entity_id: Option<String>,
    timestamp: String,
}

async fn activity_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<ListQuery>,
) -> ApiResult<Response> {
    let (limit, offset) = paging(q.limit, q.offset)?;
    let (rows, total) = state.queue.db.activity_list(limit, offset).await?;
    let items = rows
        .into_iter()
        .map(|a| ActivityView {
            timestamp: to_rfc3339(a.created_at),
            id: a.id,
            kind: a.kind,
            description: a.description,
            entity_type: a.entity_type,
            entity_id: a.entity_id,
        })
        .collect();
    Ok(with_total(items, total))
}
