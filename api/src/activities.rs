//! `GET /api/activities`: the CRM's history, newest first, paged (`limit`, `offset`, total in
//! `x-total-count`). Besides the recorded activities it shows discovery scans, campaigns and
//! batches of sends, derived from their own tables (see `jobs/src/db/activities.rs` for why).
//!
//! Each entry has `kind`, a `summary` to read, `at` (RFC 3339) and a `link` to the screen it is
//! about (a root path such as `/discovery?job=…`, or null); the earlier fields (`type`,
//! `description`, `entityType`, `entityId`, `timestamp`) stay for the clients that read them.

use axum::extract::State;
use axum::response::Response;
use jobs::domain::activity_feed::{FeedEntry, feed_text};
use jobs::time::to_rfc3339;
use serde::{Deserialize, Serialize};

use crate::error::ApiResult;
use crate::extract::{CurrentUser, Query};
use crate::list::{paging, with_total};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/activities", Access::User, activity_list)
        .query::<ListQuery>()
        .returns_page::<ActivityView>()
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct ListQuery {
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ActivityView {
    id: String,
    kind: String,
    summary: String,
    at: String,
    link: Option<String>,
    #[serde(rename = "type")]
    legacy_type: String,
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
    let (rows, total) = state.queue.db.activity_feed(limit, offset).await?;
    let items = rows
        .into_iter()
        .map(|r| {
            let text = feed_text(&FeedEntry {
                kind: &r.kind,
                ref_type: r.ref_type.as_deref(),
                ref_id: r.ref_id.as_deref(),
                name: r.name.as_deref(),
                n: r.n,
                detail: r.detail.as_deref(),
            });
            let at = to_rfc3339(r.at);
            ActivityView {
                id: r.id,
                legacy_type: r.kind.clone(),
                kind: r.kind,
                description: text.summary.clone(),
                summary: text.summary,
                timestamp: at.clone(),
                at,
                link: text.link,
                entity_type: r.ref_type,
                entity_id: r.ref_id,
            }
        })
        .collect();
    Ok(with_total(items, total))
}
