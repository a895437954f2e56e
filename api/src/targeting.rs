//! The targeting of bulk campaigns and of sequence enrollment: which contacts, by score, status and
//! state, checked with the campaigns' messages.

use std::collections::{BTreeMap, BTreeSet};

use jobs::db::{Audience, ContactFilter, Db, SelectionCounts};
use jobs::domain::contacts::{self as rules, STATUSES, is_status};
use jobs::domain::{like_pattern, non_empty, one_of_message};
use jobs::geo::state_code;
use serde::{Deserialize, Serialize};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::error::{ApiError, ApiResult};
use crate::validate::field_error;

/// Targeting shared by bulk campaigns and sequence enrollment (its schema: [`target_filters_schema`]).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TargetFilters {
    pub(crate) score_min: Option<i32>,
    pub(crate) score_max: Option<i32>,
    #[serde(default)]
    pub(crate) statuses: Vec<String>,
    #[serde(default)]
    pub(crate) states: Vec<String>,
}

/// The states [`state_code`] reads: two-letter codes and names.
pub(crate) fn state_values() -> Vec<&'static str> {
    let mut all: Vec<&str> = jobs::geo::STATES.iter().map(|(code, _)| *code).collect();
    all.extend(jobs::geo::STATES.iter().map(|(_, name)| *name));
    all
}

/// [`TargetFilters`] as [`check_filters`] takes them. That `scoreMin` is not above `scoreMax` is
/// said in words only: the one exact schema of it, 101 alternatives (a score both sides hold),
/// made Schemathesis' coverage phase spend nine tenths of its time on the four operations that
/// carry it, and told a client nothing the description does not.
fn target_filters_schema() -> RefOr<Schema> {
    use utoipa::openapi::schema::{ArrayBuilder, SchemaType};
    use utoipa::openapi::{ObjectBuilder, Type};
    let score = |description: &str| {
        crate::validate::integer(Some(0), Some(100))
            .schema_type(SchemaType::from_iter([Type::Integer, Type::Null]))
            .description(Some(description))
    };
    ObjectBuilder::new()
        .property("scoreMin", score("The lowest score, 0–100."))
        .property(
            "scoreMax",
            score("The highest score, 0–100 and not below scoreMin."),
        )
        .property(
            "statuses",
            ArrayBuilder::new().items(crate::validate::one_of(&STATUSES)),
        )
        .property(
            "states",
            ArrayBuilder::new()
                .items(crate::validate::one_of(&state_values()))
                .description(Some("US states, as codes or names.")),
        )
        .description(Some(
            "Targeting shared by bulk campaigns and sequence enrollment.",
        ))
        .into()
}

impl utoipa::PartialSchema for TargetFilters {
    fn schema() -> RefOr<Schema> {
        target_filters_schema()
    }
}

impl utoipa::ToSchema for TargetFilters {}

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

pub(crate) fn status_checked(status: &str) -> ApiResult<String> {
    let status = status.trim();
    if is_status(status) {
        Ok(status.to_string())
    } else {
        Err(field_error("status", one_of_message("status", &STATUSES)))
    }
}

/// One of `values`, `""` (read as absent) or null.
fn one_of_or_blank(values: &[&str]) -> utoipa::openapi::ObjectBuilder {
    crate::validate::or_null(crate::validate::one_of_or_empty(values)).into()
}

/// A contact status ([`STATUSES`]), blank or null.
fn status_filter_schema() -> utoipa::openapi::ObjectBuilder {
    one_of_or_blank(&STATUSES)
}

/// A region's name (`rules::region_names`), blank or null.
fn region_schema() -> utoipa::openapi::ObjectBuilder {
    one_of_or_blank(&rules::region_names())
        .description(Some("A region's name: its companies' states."))
}

/// The contacts list's filters (`GET /api/contacts`): the list, its export and "select all N
/// matching" read them alike.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ContactListFilter {
    pub(crate) q: Option<String>,
    pub(crate) role: Option<String>,
    #[schema(schema_with = status_filter_schema)]
    pub(crate) status: Option<String>,
    #[schema(schema_with = region_schema)]
    pub(crate) region: Option<String>,
    pub(crate) company_id: Option<String>,
}

impl ContactListFilter {
    /// The validated filter.
    pub(crate) fn filter(&self) -> ApiResult<ContactFilter> {
        let states = match non_empty(self.region.as_deref()) {
            None => None,
            Some(region) => Some(
                rules::region_states(&region)
                    .ok_or_else(|| {
                        field_error("region", one_of_message("region", &rules::region_names()))
                    })?
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
        };
        Ok(ContactFilter {
            q: non_empty(self.q.as_deref()),
            role: non_empty(self.role.as_deref()).map(|s| like_pattern(&s)),
            status: non_empty(self.status.as_deref())
                .map(|s| status_checked(&s))
                .transpose()?,
            company_id: non_empty(self.company_id.as_deref()),
            region: states
                .is_some()
                .then(|| {
                    self.region
                        .as_deref()
                        .map(|r| r.trim().to_ascii_lowercase())
                })
                .flatten(),
            states,
            ids: None,
        })
    }
}

/// Most contacts one bulk action takes.
pub(crate) const MAX_SELECTION: usize = 10_000;

/// Ids, at most [`MAX_SELECTION`] (repeats count once, so the document's count is a floor), or null.
fn ids_schema() -> utoipa::openapi::schema::ArrayBuilder {
    use utoipa::openapi::schema::{ArrayBuilder, SchemaType};
    use utoipa::openapi::{ObjectBuilder, Type};
    ArrayBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
        .items(ObjectBuilder::new().schema_type(Type::String))
        .max_items(Some(MAX_SELECTION))
}

/// `base`, a body that holds a [`Selection`] and `targetFilters`, requiring one of them to select
/// something (`Selection::is_empty` and no targeting is refused).
pub(crate) fn something_selected(base: RefOr<Schema>) -> RefOr<Schema> {
    use utoipa::openapi::ObjectBuilder;
    use utoipa::openapi::schema::ArrayBuilder;
    let some = || ArrayBuilder::new().min_items(Some(1)).into();
    crate::validate::one_shape_of(
        base,
        vec![
            vec![("contactIds", some())],
            vec![("companyIds", some())],
            vec![("contactFilter", ObjectBuilder::new().into())],
            vec![("targetFilters", ObjectBuilder::new().into())],
        ],
    )
}

/// Who a bulk action is for: contacts picked by hand, the contacts of picked companies (discovery
/// results), or every contact the contacts list's filters match. Several parts add up.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Selection {
    #[schema(schema_with = ids_schema)]
    pub(crate) contact_ids: Option<Vec<String>>,
    #[schema(schema_with = ids_schema)]
    pub(crate) company_ids: Option<Vec<String>>,
    #[serde(default, deserialize_with = "crate::validate::object_or_null")]
    pub(crate) contact_filter: Option<ContactListFilter>,
}

impl Selection {
    pub(crate) fn is_empty(&self) -> bool {
        self.contact_ids.as_ref().is_none_or(Vec::is_empty)
            && self.company_ids.as_ref().is_none_or(Vec::is_empty)
            && self.contact_filter.is_none()
    }

    /// The selected contacts' ids (None: nothing was selected, so targeting alone decides).
    pub(crate) async fn contact_ids(&self, db: &Db) -> ApiResult<Option<Vec<String>>> {
        if self.is_empty() {
            return Ok(None);
        }
        let too_many = || {
            ApiError::unprocessable(format!(
                "At most {MAX_SELECTION} contacts can be selected at once; narrow the filters"
            ))
        };
        let cap = MAX_SELECTION as i64 + 1;
        let mut ids = BTreeSet::new();
        ids.extend(self.contact_ids.iter().flatten().cloned());
        if ids.len() > MAX_SELECTION {
            return Err(too_many());
        }
        if let Some(companies) = self.company_ids.as_ref().filter(|c| !c.is_empty()) {
            if companies.len() > MAX_SELECTION {
                return Err(too_many());
            }
            ids.extend(db.contact_ids_of_companies(companies, cap).await?);
        }
        if let Some(filter) = &self.contact_filter {
            ids.extend(db.contact_ids_matching(&filter.filter()?, cap).await?);
        }
        if ids.len() > MAX_SELECTION {
            return Err(too_many());
        }
        Ok(Some(ids.into_iter().collect()))
    }
}

/// Who an "add to sequence" or "add to campaign" reached and who it skipped, and why.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Skipped {
    pub(crate) no_email: i64,
    pub(crate) suppressed: i64,
    pub(crate) already_enrolled: i64,
    pub(crate) outside_rules: i64,
    pub(crate) over_daily_limit: i64,
}

impl Skipped {
    /// The breakdown once `added` of the eligible contacts went in.
    pub(crate) fn of(counts: &SelectionCounts, added: i64) -> Self {
        Self {
            no_email: counts.no_email,
            suppressed: counts.suppressed,
            already_enrolled: counts.already_enrolled,
            outside_rules: counts.outside_rules(),
            over_daily_limit: (counts.eligible - added).max(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The document's score ranges are the check's, side by side (either side may be left out);
    /// the order between them, said in words, is checked: an inverted pair is refused on
    /// `scoreMax`.
    #[test]
    fn score_ranges_are_the_checks() {
        let schema = serde_json::to_value(target_filters_schema()).unwrap_or_default();
        let holds = |key: &str, v: i32| {
            let bound = &schema["properties"][key];
            bound["minimum"].as_i64().is_none_or(|m| i64::from(v) >= m)
                && bound["maximum"].as_i64().is_none_or(|m| i64::from(v) <= m)
        };
        for v in -2..=102 {
            let min = TargetFilters {
                score_min: Some(v),
                ..TargetFilters::default()
            };
            let max = TargetFilters {
                score_max: Some(v),
                ..TargetFilters::default()
            };
            assert_eq!(holds("scoreMin", v), check_filters(&min).is_ok(), "{v}");
            assert_eq!(holds("scoreMax", v), check_filters(&max).is_ok(), "{v}");
        }
        let pair = |a, b| TargetFilters {
            score_min: Some(a),
            score_max: Some(b),
            ..TargetFilters::default()
        };
        assert!(check_filters(&pair(40, 40)).is_ok());
        let Err(refused) = check_filters(&pair(41, 40)) else {
            panic!("an inverted range was taken");
        };
        assert!(format!("{refused:?}").contains("must not be below scoreMin"));
        assert!(
            schema["properties"]["scoreMax"]["description"]
                .as_str()
                .is_some_and(|d| d.contains("not below scoreMin"))
        );
        assert!(schema.to_string().contains(&json!("Texas").to_string()));
    }
}
