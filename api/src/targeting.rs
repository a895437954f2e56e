//! The targeting of bulk campaigns and of sequence enrollment: which contacts, by score, status and
//! state, checked with the campaigns' messages.

use std::collections::BTreeMap;

use jobs::db::Audience;
use jobs::domain::contacts::{STATUSES, is_status};
use jobs::geo::state_code;
use serde::Deserialize;

use crate::error::{ApiError, ApiResult};

/// Targeting shared by bulk campaigns and sequence enrollment.
#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TargetFilters {
    pub(crate) score_min: Option<i32>,
    pub(crate) score_max: Option<i32>,
    #[serde(default)]
    pub(crate) statuses: Vec<String>,
    #[serde(default)]
    pub(crate) states: Vec<String>,
}

impl TargetFilters {
    /// The validated audience (states as two-letter codes).
    pub(crate) fn audience(&self, contact_ids: Option<Vec<String>>) -> ApiResult<Audience> {
        let (statuses, states) = check_filters(self)?;
        Ok(Audience {
            score_min: self.score_min,
            score_max: self.score_max,
            statuses,
            states,
            contact_ids,
        })
    }
}

/// Checks targeting; states come back as two-letter codes.
pub(crate) fn check_filters(f: &TargetFilters) -> ApiResult<(Vec<String>, Vec<String>)> {
    let mut errors = BTreeMap::new();
    for (key, v) in [("scoreMin", f.score_min), ("scoreMax", f.score_max)] {
        if v.is_some_and(|v| !(0..=100).contains(&v)) {
            errors.insert(
                format!("targetFilters.{key}"),
                "must be between 0 and 100".to_string(),
            );
        }
    }
    if let (Some(a), Some(b)) = (f.score_min, f.score_max)
        && a > b
    {
        errors.insert(
            "targetFilters.scoreMax".into(),
            "must not be below scoreMin".into(),
        );
    }
    if let Some(bad) = f.statuses.iter().find(|s| !is_status(s)) {
        errors.insert(
            "targetFilters.statuses".into(),
            format!("unknown status {bad:?}; allowed: {}", STATUSES.join(", ")),
        );
    }
    let mut states = Vec::new();
    for s in &f.states {
        match state_code(s) {
            Some(code) => states.push(code.to_string()),
            None => {
                errors.insert(
                    "targetFilters.states".into(),
                    format!("unknown state {s:?}: use a US state name or two-letter code"),
                );
            }
        }
    }
    if !errors.is_empty() {
        return Err(ApiError::fields("Invalid targeting", errors));
    }
    Ok((f.statuses.clone(), states))
}
