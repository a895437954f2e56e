//! What a bulk action on a selection will do before it is done: "12 selected: 10 will be
//! enrolled; 1 has no email, 1 is suppressed". The selection bar of the contacts list, the lead
//! board and the discovery results asks this before "Add to sequence" and "New bulk campaign".
//!
//! Errors: [`ApiError`] — an unknown sequence is a 404, bad targeting or too large a selection a
//! 422; database errors are logged 500s.

use axum::extract::State;
use jobs::db::Audience;
use jobs::time::now_ms;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json};
use crate::targeting::{Selection, Skipped, TargetFilters};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/outreach/preview", Access::User, preview)
        .body::<OutreachPreviewInput>()
        .returns::<Preview>()
}

/// A selection and where it would go: a sequence (its rules, enrollments and daily allowance
/// apply) or, without `sequenceId`, a new bulk campaign.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct PreviewFields {
    #[serde(flatten)]
    selection: Selection,
    #[serde(default, deserialize_with = "crate::validate::object_or_null")]
    target_filters: Option<TargetFilters>,
    sequence_id: Option<String>,
}

crate::validate::body_variant!(
    /// [`PreviewFields`] that select someone.
    OutreachPreviewInput(PreviewFields),
    crate::targeting::something_selected
);

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Preview {
    /// Contacts in the selection.
    selected: i64,
    /// Those the action would add.
    reachable: i64,
    skipped: Skipped,
    /// The selected contacts' ids (for a campaign's hand-picked audience); empty when the
    /// selection was targeting alone.
    contact_ids: Vec<String>,
}

async fn preview(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(OutreachPreviewInput(input)): Json<OutreachPreviewInput>,
) -> ApiResult<Json<Preview>> {
    if input.selection.is_empty() && input.target_filters.is_none() {
        return Err(ApiError::unprocessable("Select contacts first"));
    }
    let db = &state.queue.db;
    let ids = input.selection.contact_ids(db).await?;
    let selection = input
        .target_filters
        .unwrap_or_default()
        .audience(ids.clone())?;
    let (counts, allowance) = match input.sequence_id.as_deref() {
        Some(id) => {
            let s = db
                .sequence_get(id)
                .await?
                .ok_or_else(|| ApiError::not_found("Sequence not found"))?;
            let rules = Audience::from_rules(&s.enrollment_rules.0);
            let counts = db.selection_counts(&selection, Some(&s.id), &rules).await?;
            let now = now_ms();
            let today = now - now.rem_euclid(86_400_000);
            let left =
                i64::from(s.max_daily_enrollments) - db.enrollments_since(&s.id, today).await?;
            (counts, left.max(0))
        }
        None => {
            let counts = db
                .selection_counts(&selection, None, &Audience::default())
                .await?;
            (counts, counts.eligible)
        }
    };
    let reachable = counts.eligible.min(allowance);
    Ok(Json(Preview {
        selected: counts.selected,
        reachable,
        skipped: Skipped::of(&counts, reachable),
        contact_ids: ids.unwrap_or_default(),
    }))
}
