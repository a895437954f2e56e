//! Email sequences (seed 002 "Email Sequences page", "Sequences" calls, §3–§5, §9): sequences with
//! the seed's schema rules and messages, steps (add, edit, delete, reorder) with per-step stats,
//! enrollments (by contact ids or the bulk campaigns' targeting, within `maxDailyEnrollments` a
//! day; list, unenroll) and reply rules.
//!
//! Choices: archiving a sequence ends its active enrollments (`exitReason: archived`); suppressed
//! addresses and contacts without email are never enrolled; a contact is enrolled in a sequence at
//! most once; the daily allowance counts enrollments since 00:00 UTC.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::db::{
    Audience, Enroll, FigureRow, FigureScope, ReplyRuleRow, SequenceCounts, SequenceRow, StepRow,
    figure_total,
};
use jobs::domain::email_figures::{EmailFigures, email_figures};
use jobs::domain::one_of_message;
use jobs::domain::sequences::{WaitInput, sequence_waiting, step_moves};
use jobs::kinds::{SequenceStepSend, SequenceTick};
use jobs::mailing::{effective_daily_limit, window_keys};
use jobs::queue::JobKind;
use jobs::sending_window::SendingWindow;
use jobs::time::{now_ms, to_rfc3339};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use sqlx::types::Json as SqlJson;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use crate::error::{ApiError, ApiResult};
use crate::extract::{CurrentUser, Json, Path, Query};
use crate::list::{paging, with_total};
use crate::targeting::{Selection, Skipped, TargetFilters};
use crate::validate::{Body, Field};
use crate::{Access, AppState, Routes};

pub const NAME_MESSAGE: &str = "Name must be at least 2 characters";
pub const DESCRIPTION_MESSAGE: &str = "Description must be at least 10 characters";
const STATUSES_SEQ: [&str; 4] = ["draft", "active", "paused", "archived"];
const TRIGGERS: [&str; 5] = [
    "manual",
    "contact_created",
    "deal_stage_changed",
    "form_submitted",
    "tag_added",
];
const STEP_TYPES: [&str; 5] = ["email", "delay", "condition", "action", "ab_test"];
const RULE_TRIGGERS: [&str; 6] = [
    "any_reply",
    "positive_reply",
    "negative_reply",
    "out_of_office",
    "unsubscribe_request",
    "keyword",
];
const RULE_ACTIONS: [&str; 4] = ["stop_sequence", "mark_responded", "create_task", "notify"];
/// What a condition step checks.
const CONDITION_CHECKS: [&str; 4] = ["opened", "clicked", "replied", SCORE_CHECK];
/// The check that compares the contact's score with the step's `value`.
const SCORE_CHECK: &str = "scoreAtLeast";
/// What an action step does (one at least).
const ACTION_KEYS: [&str; 4] = ["setStatus", "addTag", "createDeal", "notify"];
/// The text an email step (or each of its variants) may hold.
const EMAIL_TEXT_KEYS: [&str; 3] = ["subject", "body", "templateId"];
const EMAIL_FORMATS: [&str; 2] = ["text", "html"];
/// The variants of an A/B email step.
const VARIANTS: [&str; 2] = ["A", "B"];

pub(crate) fn routes() -> Routes {
    use Access::User;
    Routes::new()
        .get("/api/email-sequences", User, sequence_list)
        .returns_list::<SequenceView>()
        .post("/api/email-sequences", User, sequence_create)
        .body::<NewSequenceBody>()
        .creates::<SequenceView>()
        .get("/api/email-sequences/{id}", User, sequence_get)
        .returns::<SequenceDetail>()
        .patch("/api/email-sequences/{id}", User, sequence_update)
        .body::<SequenceBody>()
        .returns::<SequenceView>()
        .delete("/api/email-sequences/{id}", User, sequence_delete)
        .no_content()
        .get("/api/email-sequences/{id}/steps", User, step_list)
        .returns_list::<StepView>()
        .post("/api/email-sequences/{id}/steps", User, step_create)
        .body::<NewStepBody>()
        .creates::<StepView>()
        .post(
            "/api/email-sequences/{id}/steps/reorder",
            User,
            step_reorder,
        )
        .body::<Reorder>()
        .returns_list::<StepView>()
        .patch(
            "/api/email-sequences/{id}/steps/{step_id}",
            User,
            step_update,
        )
        .body::<StepBody>()
        .returns::<StepView>()
        .delete(
            "/api/email-sequences/{id}/steps/{step_id}",
            User,
            step_delete,
        )
        .no_content()
        .get(
            "/api/email-sequences/{id}/enrollments",
            User,
            enrollment_list,
        )
        .query::<EnrollmentQuery>()
        .returns_page::<EnrollmentView>()
        .post("/api/email-sequences/{id}/enrollments", User, enroll)
        .body::<EnrollInput>()
        .returns::<Enrolled>()
        .delete(
            "/api/email-sequences/{id}/enrollments/{enrollment_id}",
            User,
            unenroll,
        )
        .no_content()
        .get("/api/reply-rules", User, rule_list)
        .returns_list::<RuleView>()
        .post("/api/reply-rules", User, rule_create)
        .body::<NewRuleBody>()
        .creates::<RuleView>()
        .patch("/api/reply-rules/{id}", User, rule_update)
        .body::<RuleBody>()
        .returns::<RuleView>()
        .delete("/api/reply-rules/{id}", User, rule_delete)
        .no_content()
}

/// Field errors collected while reading a body; the message is the first by field name (unlike
/// [`crate::validate::Fields`], whose message is the first one found).
#[derive(Default)]
struct Errors(BTreeMap<String, String>);

impl Errors {
    fn add(&mut self, field: &str, message: impl Into<String>) {
        self.0
            .entry(field.to_string())
            .or_insert_with(|| message.into());
    }
    fn check(self) -> ApiResult<()> {
        match self.0.values().next() {
            None => Ok(()),
            Some(first) => Err(ApiError::fields(first.clone(), self.0)),
        }
    }
}

/// A JSON object kept as sent (configs and rules are documents of their own).
type JsonObject = Map<String, Value>;

/// A text field: `Some(None)` when present but not a string.
fn text(field: &Field<String>) -> Option<Option<String>> {
    match field {
        Field::Absent => None,
        Field::Value(s) => Some(Some(s.trim().to_string())),
        Field::Null | Field::Wrong => Some(None),
    }
}

fn enum_field(
    key: &str,
    field: &Field<String>,
    allowed: &[&str],
    errors: &mut Errors,
) -> Option<String> {
    match text(field)? {
        Some(v) if allowed.contains(&v.as_str()) => Some(v),
        _ => {
            errors.add(key, one_of_message(key, allowed));
            None
        }
    }
}

fn object_field(key: &str, field: Field<JsonObject>, errors: &mut Errors) -> Option<Value> {
    match field {
        Field::Absent => None,
        Field::Value(v) => Some(Value::Object(v)),
        Field::Null | Field::Wrong => {
            errors.add(key, format!("{key} must be an object"));
            None
        }
    }
}

/// A nullable object: `Some(None)` for an explicit null.
fn nullable_object(
    key: &str,
    field: Field<JsonObject>,
    errors: &mut Errors,
) -> Option<Option<Value>> {
    match field {
        Field::Absent => None,
        Field::Null => Some(None),
        Field::Value(v) => Some(Some(Value::Object(v))),
        Field::Wrong => {
            errors.add(key, format!("{key} must be an object or null"));
            None
        }
    }
}

fn int_field(
    key: &str,
    field: &Field<i64>,
    min: i64,
    message: &str,
    errors: &mut Errors,
) -> Option<i32> {
    let n = match field {
        Field::Absent => return None,
        Field::Value(n) => Some(*n),
        Field::Null | Field::Wrong => None,
    };
    match n.filter(|n| *n >= min).and_then(|n| i32::try_from(n).ok()) {
        Some(n) => Some(n),
        None => {
            errors.add(key, message);
            None
        }
    }
}

/// A true/false field: `Err` when present but not a boolean.
fn bool_field(field: &Field<bool>) -> Result<Option<bool>, ()> {
    match field {
        Field::Absent => Ok(None),
        Field::Value(b) => Ok(Some(*b)),
        Field::Null | Field::Wrong => Err(()),
    }
}

// ---- sequences ----

/// `exitRules`: `statuses` (contact statuses) and `tags`, each a list; an enrollment whose contact
/// has one of them exits before its next step.
fn exit_rules(v: &Value) -> Result<(), String> {
    for (key, item) in v.as_object().into_iter().flatten() {
        let list = item.as_array().filter(|l| l.iter().all(Value::is_string));
        match (key.as_str(), list) {
            ("statuses", Some(l)) => {
                if let Some(bad) = l
                    .iter()
                    .filter_map(Value::as_str)
                    .find(|s| !jobs::domain::contacts::is_status(s))
                {
                    return Err(format!(
                        "exitRules.statuses: '{bad}' is not a contact status"
                    ));
                }
            }
            ("tags", Some(_)) => {}
            ("statuses" | "tags", None) => {
                return Err(format!("exitRules.{key} must be a list of text"));
            }
            _ => return Err(format!("exitRules: unknown rule '{key}' (statuses, tags)")),
        }
    }
    Ok(())
}

/// One of [`STATUSES_SEQ`], as the PATCH checks it.
fn sequence_status_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&STATUSES_SEQ)
}

/// One of [`STEP_TYPES`], as a new step is checked.
fn step_type_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&STEP_TYPES)
}

/// A name of at least 2 characters once trimmed.
fn name_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::trimmed_text(2, None).description(Some("At least 2 characters."))
}

/// A description of at least 10 characters once trimmed.
fn description_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::trimmed_text(10, None).description(Some("At least 10 characters."))
}

fn trigger_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&TRIGGERS)
}

/// A whole number from `min` that fits the stored column (`i32`).
fn stored_int(min: i64) -> utoipa::openapi::ObjectBuilder {
    crate::validate::integer(Some(min), Some(i64::from(i32::MAX)))
}

fn max_daily_schema() -> utoipa::openapi::ObjectBuilder {
    stored_int(1).description(Some("At least 1."))
}

fn order_schema() -> utoipa::openapi::ObjectBuilder {
    stored_int(0).description(Some("0 or more; a new step without it goes last."))
}

fn delay_schema() -> utoipa::openapi::ObjectBuilder {
    stored_int(0).description(Some("0 or more."))
}

/// Texts, each any (a list of words, of tags).
fn texts() -> utoipa::openapi::schema::ArrayBuilder {
    utoipa::openapi::schema::ArrayBuilder::new()
        .items(utoipa::openapi::ObjectBuilder::new().schema_type(utoipa::openapi::Type::String))
}

/// [`exit_rules`]: `statuses` (contact statuses) and `tags`, each a list, and nothing else.
fn exit_rules_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder};
    utoipa::openapi::ObjectBuilder::new()
        .property(
            "statuses",
            ArrayBuilder::new().items(crate::validate::one_of(&jobs::domain::contacts::STATUSES)),
        )
        .property("tags", texts())
        .additional_properties(Some(AdditionalProperties::FreeForm(false)))
        .description(Some(
            "An enrollment whose contact has one of these statuses or tags exits before its next step.",
        ))
}

/// An A/B test's settings, or null: `splitPercent` (1–99) and whatever else it keeps.
fn ab_test_config_schema() -> utoipa::openapi::ObjectBuilder {
    use utoipa::openapi::Type;
    use utoipa::openapi::schema::SchemaType;
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Object, Type::Null]))
        .property(
            "splitPercent",
            crate::validate::integer(Some(1), Some(99))
                .description(Some("Percent of enrollments that get variant A.")),
        )
}

/// A free-form object (a step's rules, a trigger's settings), not null.
fn object_schema() -> utoipa::openapi::ObjectBuilder {
    utoipa::openapi::ObjectBuilder::new()
}

/// A free-form object, or null.
fn object_or_null_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::or_null(utoipa::openapi::ObjectBuilder::new()).into()
}

/// A sequence with its enrollment counts.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = EmailSequence)]
struct SequenceView {
    id: String,
    name: String,
    description: String,
    #[schema(schema_with = sequence_status_schema)]
    status: String,
    trigger_type: String,
    #[schema(value_type = Object)]
    trigger_config: Value,
    /// The bulk campaigns' targeting filters, states as codes.
    #[schema(value_type = Object)]
    enrollment_rules: Value,
    /// `statuses` and `tags`.
    #[schema(value_type = Object)]
    exit_rules: Value,
    ab_testing_enabled: bool,
    #[schema(value_type = Option<Object>)]
    ab_test_config: Option<Value>,
    max_daily_enrollments: i32,
    #[schema(value_type = Option<Object>)]
    sending_window: Option<Value>,
    total_enrollments: i64,
    active_enrollments: i64,
    completed_enrollments: i64,
    /// Percent of enrollments completed, rounded.
    completion_rate: i64,
    created_at: String,
    updated_at: String,
    /// Its email figures (one sequence, not the list).
    #[serde(skip_serializing_if = "Option::is_none")]
    figures: Option<EmailFigures>,
}

/// A sequence's page: the sequence and why it is not sending now.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = EmailSequenceDetail)]
struct SequenceDetail {
    #[serde(flatten)]
    sequence: SequenceView,
    /// Null when it sends.
    waiting: Option<SequenceWaiting>,
}

#[derive(Serialize, utoipa::ToSchema)]
struct SequenceWaiting {
    /// `draft`, `paused`, `paused_by_ops`, `daily_limit`, `hourly_limit`,
    /// `outside_sending_window` or `daily_enrollment_limit`.
    reason: &'static str,
    label: &'static str,
    /// Null when it waits for someone.
    until: Option<String>,
}

fn sequence_view(s: SequenceRow, c: Option<&SequenceCounts>) -> SequenceView {
    let c = c.cloned().unwrap_or_default();
    SequenceView {
        id: s.id,
        name: s.name,
        description: s.description,
        status: s.status,
        trigger_type: s.trigger_type,
        trigger_config: s.trigger_config.0,
        enrollment_rules: s.enrollment_rules.0,
        exit_rules: s.exit_rules.0,
        ab_testing_enabled: s.ab_testing_enabled,
        ab_test_config: s.ab_test_config.map(|j| j.0),
        max_daily_enrollments: s.max_daily_enrollments,
        sending_window: s.sending_window.map(|j| j.0),
        total_enrollments: c.total,
        active_enrollments: c.active,
        completed_enrollments: c.completed,
        completion_rate: if c.total > 0 {
            (c.completed * 100 + c.total / 2) / c.total
        } else {
            0
        },
        created_at: to_rfc3339(s.created_at),
        updated_at: to_rfc3339(s.updated_at),
        figures: None,
    }
}

async fn view_of(state: &AppState, s: SequenceRow) -> ApiResult<SequenceView> {
    let db = &state.queue.db;
    let counts = db.sequence_counts(std::slice::from_ref(&s.id)).await?;
    // The sequence's email figures, counted like every other screen's (docs/figures.md).
    let figures = email_figures(&figure_total(
        &db.email_figures(&FigureScope {
            sequence_id: Some(&s.id),
            ..FigureScope::default()
        })
        .await?,
    ));
    Ok(SequenceView {
        figures: Some(figures),
        ..sequence_view(s, counts.first())
    })
}

async fn sequence_list(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let db = &state.queue.db;
    let rows = db.sequence_list().await?;
    let ids: Vec<String> = rows.iter().map(|s| s.id.clone()).collect();
    let counts = db.sequence_counts(&ids).await?;
    let items: Vec<SequenceView> = rows
        .into_iter()
        .map(|s| {
            let c = counts.iter().find(|c| c.sequence_id == s.id);
            sequence_view(s, c)
        })
        .collect();
    Ok(axum::Json(items).into_response())
}

/// The fields of a sequence to change: each may be left out, none may be null but `sendingWindow`
/// and `abTestConfig` (which clear them).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SequenceBody {
    #[serde(default)]
    #[schema(schema_with = name_schema)]
    name: Field<String>,
    #[serde(default)]
    #[schema(schema_with = description_schema)]
    description: Field<String>,
    #[serde(default)]
    #[schema(schema_with = sequence_status_schema)]
    status: Field<String>,
    #[serde(default)]
    #[schema(schema_with = trigger_schema)]
    trigger_type: Field<String>,
    /// What the trigger matches (a stage, a tag).
    #[serde(default)]
    #[schema(schema_with = object_schema)]
    trigger_config: Field<JsonObject>,
    /// The bulk campaigns' targeting filters.
    #[serde(default)]
    #[schema(value_type = TargetFilters)]
    enrollment_rules: Field<JsonObject>,
    #[serde(default)]
    #[schema(schema_with = exit_rules_schema)]
    exit_rules: Field<JsonObject>,
    #[serde(default)]
    #[schema(value_type = Option<SendingWindow>)]
    sending_window: Field<JsonObject>,
    #[serde(default)]
    #[schema(value_type = bool)]
    ab_testing_enabled: Field<bool>,
    #[serde(default)]
    #[schema(schema_with = ab_test_config_schema)]
    ab_test_config: Field<JsonObject>,
    #[serde(default)]
    #[schema(schema_with = max_daily_schema)]
    max_daily_enrollments: Field<i64>,
}

crate::validate::body_variant!(
    /// A new sequence: [`SequenceBody`] with its name and description.
    NewSequenceBody(SequenceBody),
    |base| {
        crate::validate::requiring(
            base,
            "A sequence to create: its name and description are required.",
            vec![
                ("name", name_schema().into()),
                ("description", description_schema().into()),
            ],
        )
    }
);

/// Applies the fields present in `body` to `s` (all of them when creating).
fn apply_sequence(body: SequenceBody, s: &mut SequenceRow, creating: bool) -> ApiResult<()> {
    let mut errors = Errors::default();
    match text(&body.name) {
        Some(Some(n)) if n.chars().count() >= 2 => s.name = n,
        None if !creating => {}
        _ => errors.add("name", NAME_MESSAGE),
    }
    match text(&body.description) {
        Some(Some(d)) if d.chars().count() >= 10 => s.description = d,
        None if !creating => {}
        _ => errors.add("description", DESCRIPTION_MESSAGE),
    }
    if let Some(v) = enum_field("status", &body.status, &STATUSES_SEQ, &mut errors) {
        s.status = v;
    }
    if let Some(v) = enum_field("triggerType", &body.trigger_type, &TRIGGERS, &mut errors) {
        s.trigger_type = v;
    }
    if let Some(v) = object_field("triggerConfig", body.trigger_config, &mut errors) {
        s.trigger_config = SqlJson(v);
    }
    if let Some(v) = object_field("enrollmentRules", body.enrollment_rules, &mut errors) {
        // The bulk campaigns' targeting, stored with states as codes.
        let rules = serde_json::from_value::<TargetFilters>(v)
            .map_err(|e| ApiError::unprocessable(format!("enrollmentRules: {e}")))
            .and_then(|f| f.audience(None));
        match rules {
            Ok(a) => s.enrollment_rules = SqlJson(a.to_rules()),
            Err(ApiError::Invalid { errors: found, .. }) => {
                for (key, m) in found {
                    let key = key.replace("targetFilters", "enrollmentRules");
                    errors.add(&key, format!("{key} {m}"));
                }
            }
            Err(e) => errors.add("enrollmentRules", e.to_string()),
        }
    }
    if let Some(v) = object_field("exitRules", body.exit_rules, &mut errors) {
        match exit_rules(&v) {
            Ok(()) => s.exit_rules = SqlJson(v),
            Err(m) => errors.add("exitRules", m),
        }
    }
    if let Some(v) = nullable_object("sendingWindow", body.sending_window, &mut errors) {
        match v.map(|w| SendingWindow::parse(&w).map(|_| w)).transpose() {
            Ok(w) => s.sending_window = w.map(SqlJson),
            Err(m) => errors.add("sendingWindow", m),
        }
    }
    match bool_field(&body.ab_testing_enabled) {
        Ok(None) => {}
        Ok(Some(b)) => s.ab_testing_enabled = b,
        Err(()) => errors.add("abTestingEnabled", "abTestingEnabled must be true or false"),
    }
    if let Some(v) = nullable_object("abTestConfig", body.ab_test_config, &mut errors) {
        let split = v.as_ref().and_then(|c| c.get("splitPercent"));
        if split.is_some_and(|p| !p.as_i64().is_some_and(|n| (1..=99).contains(&n))) {
            errors.add(
                "abTestConfig",
                "abTestConfig.splitPercent must be a whole number from 1 to 99",
            );
        } else {
            s.ab_test_config = v.map(SqlJson);
        }
    }
    if let Some(n) = int_field(
        "maxDailyEnrollments",
        &body.max_daily_enrollments,
        1,
        "Max daily enrollments must be at least 1",
        &mut errors,
    ) {
        s.max_daily_enrollments = n;
    }
    errors.check()
}

async fn sequence_create(
    State(state): State<AppState>,
    _: CurrentUser,
    Body(NewSequenceBody(body)): Body<NewSequenceBody>,
) -> ApiResult<Response> {
    let now = now_ms();
    let mut s = SequenceRow {
        id: ulid::Ulid::new().to_string(),
        name: String::new(),
        description: String::new(),
        status: "draft".into(),
        trigger_type: "manual".into(),
        trigger_config: SqlJson(json!({})),
        enrollment_rules: SqlJson(json!({})),
        exit_rules: SqlJson(json!({})),
        ab_testing_enabled: false,
        ab_test_config: None,
        max_daily_enrollments: 50,
        created_at: now,
        updated_at: now,
        sending_window: None,
    };
    apply_sequence(body, &mut s, true)?;
    state.queue.db.sequence_insert(&s).await?;
    let view = view_of(&state, s).await?;
    Ok((StatusCode::CREATED, axum::Json(view)).into_response())
}

async fn load(state: &AppState, id: &str) -> ApiResult<SequenceRow> {
    state
        .queue
        .db
        .sequence_get(id)
        .await?
        .ok_or_else(|| ApiError::not_found("Sequence not found"))
}

async fn sequence_get(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let s = load(&state, &id).await?;
    let counts = state
        .queue
        .db
        .sequence_counts(std::slice::from_ref(&s.id))
        .await?;
    let waiting = waiting_of(&state, &s, counts.first().map_or(0, |c| c.active)).await?;
    let sequence = view_of(&state, s).await?;
    Ok(axum::Json(SequenceDetail { sequence, waiting }).into_response())
}

/// Why the sequence is not sending now and until when (`waiting` on its detail; null when it
/// sends): from its enrollments, the sending limits (all mailboxes, as the deliverability screen
/// counts them), ops' pauses of the sequence jobs and its window in the sender's zone.
async fn waiting_of(
    state: &AppState,
    s: &SequenceRow,
    active: i64,
) -> ApiResult<Option<SequenceWaiting>> {
    let db = &state.queue.db;
    let now = now_ms();
    let settings = db.deliverability_get().await?;
    let (hour, day) = window_keys(now);
    let usage = db.mailbox_usage(None, &hour, &day).await?;
    let kinds_paused = db
        .kinds_paused()
        .await?
        .iter()
        .any(|k| k == SequenceTick::NAME || k == SequenceStepSend::NAME);
    let window_opens = s
        .sending_window
        .as_ref()
        .and_then(|w| SendingWindow::parse(&w.0).ok())
        .map(|w| w.next_open(now, None));
    let today = now - now.rem_euclid(86_400_000);
    let waiting = sequence_waiting(&WaitInput {
        status: &s.status,
        now,
        active_enrollments: active,
        kinds_paused,
        sent_this_hour: usage.this_hour,
        hourly_limit: i64::from(settings.hourly_limit),
        sent_today: usage.today,
        daily_limit: effective_daily_limit(&settings, &usage),
        window_opens,
        enrolled_today: db.enrollments_since(&s.id, today).await?,
        max_daily_enrollments: i64::from(s.max_daily_enrollments),
    });
    Ok(waiting.map(|w| SequenceWaiting {
        reason: w.reason,
        label: w.label,
        until: w.until.map(to_rfc3339),
    }))
}

async fn sequence_update(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Body(body): Body<SequenceBody>,
) -> ApiResult<Response> {
    let mut s = load(&state, &id).await?;
    let was = s.status.clone();
    apply_sequence(body, &mut s, false)?;
    s.updated_at = now_ms();
    let db = &state.queue.db;
    if db.sequence_update(&s).await? == 0 {
        return Err(ApiError::not_found("Sequence not found"));
    }
    if s.status == "archived" && was != "archived" {
        db.enrollments_exit_all(&s.id, "archived", s.updated_at)
            .await?;
    }
    Ok(axum::Json(view_of(&state, s).await?).into_response())
}

async fn sequence_delete(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if state.queue.db.sequence_delete(&id).await? == 0 {
        return Err(ApiError::not_found("Sequence not found"));
    }
    Ok(StatusCode::NO_CONTENT)
}

// ---- steps ----

/// The counts of one step (or variant) as the seed names them, from `email_figures` like every
/// other screen's (docs/figures.md), and all its figures in `figures`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SequenceStepTotals)]
struct StepTotals {
    total_sent: i64,
    total_opened: i64,
    total_clicked: i64,
    total_replied: i64,
    total_bounced: i64,
    figures: EmailFigures,
}

fn totals(rows: &[&FigureRow]) -> StepTotals {
    let f = email_figures(&figure_total(rows.iter().copied()));
    StepTotals {
        total_sent: f.sent,
        total_opened: f.opened,
        total_clicked: f.clicked,
        total_replied: f.replied,
        total_bounced: f.bounced,
        figures: f,
    }
}

/// A step in running order, with its counts (and each A/B variant's).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SequenceStep)]
struct StepView {
    id: String,
    sequence_id: String,
    name: String,
    #[serde(rename = "type")]
    #[schema(schema_with = step_type_schema)]
    kind: String,
    step_order: i32,
    #[schema(value_type = Object)]
    config: Value,
    delay_minutes: i32,
    #[schema(value_type = Option<Object>)]
    conditional_rules: Option<Value>,
    /// A and/or B, once sent.
    variants: Vec<VariantView>,
    created_at: String,
    #[serde(flatten)]
    totals: StepTotals,
}

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = SequenceStepVariant)]
struct VariantView {
    variant: String,
    #[serde(flatten)]
    totals: StepTotals,
}

fn step_view(s: StepRow, stats: &[&FigureRow]) -> StepView {
    let mut variants: Vec<VariantView> = stats
        .iter()
        .filter_map(|r| {
            Some(VariantView {
                variant: r.variant.clone()?,
                totals: totals(std::slice::from_ref(r)),
            })
        })
        .collect();
    variants.sort_by(|a, b| a.variant.cmp(&b.variant));
    StepView {
        id: s.id,
        sequence_id: s.sequence_id,
        name: s.name,
        kind: s.kind,
        step_order: s.step_order,
        config: s.config.0,
        delay_minutes: s.delay_minutes,
        conditional_rules: s.conditional_rules.map(|j| j.0),
        variants,
        created_at: to_rfc3339(s.created_at),
        totals: totals(stats),
    }
}

async fn step_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    load(&state, &id).await?;
    steps_view(&state, &id).await
}

/// The steps in running order, with their stats.
async fn steps_view(state: &AppState, id: &str) -> ApiResult<Response> {
    let db = &state.queue.db;
    let steps = db.step_list(id).await?;
    let stats = db
        .email_figures(&FigureScope {
            sequence_id: Some(id),
            ..FigureScope::default()
        })
        .await?;
    let items: Vec<StepView> = steps
        .into_iter()
        .map(|s| {
            let st: Vec<&FigureRow> = stats
                .iter()
                .filter(|x| x.step_id.as_deref() == Some(s.id.as_str()))
                .collect();
            step_view(s, &st)
        })
        .collect();
    Ok(axum::Json(items).into_response())
}

/// The fields of a step to change: each may be left out, none may be null but
/// `conditionalRules`. A `config` is checked against the step's type (stored, or given).
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct StepFields {
    #[serde(default)]
    #[schema(schema_with = name_schema)]
    name: Field<String>,
    #[serde(default)]
    #[serde(rename = "type")]
    #[schema(schema_with = step_type_schema)]
    kind: Field<String>,
    #[serde(default)]
    #[schema(schema_with = order_schema)]
    step_order: Field<i64>,
    #[serde(default)]
    #[schema(schema_with = delay_schema)]
    delay_minutes: Field<i64>,
    /// What the step does.
    #[serde(default)]
    #[schema(schema_with = object_schema)]
    config: Field<JsonObject>,
    #[serde(default)]
    #[schema(schema_with = object_or_null_schema)]
    conditional_rules: Field<JsonObject>,
}

/// `base` (a step's fields) whose `config` fits its type as [`step_config`] checks it: one shape
/// per type. A new step (`creating`) without `type` is an email, whose config may be left out;
/// a condition or an action needs its config. A change is checked against the stored type and
/// config where it leaves them out, so only what it gives is described.
fn config_by_type(base: RefOr<Schema>, creating: bool) -> RefOr<Schema> {
    use crate::validate::{integer, one_of};
    use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, SchemaType};
    use utoipa::openapi::{ObjectBuilder, Type};
    let text = || ObjectBuilder::new().schema_type(Type::String);
    let texts = || {
        EMAIL_TEXT_KEYS
            .iter()
            .fold(ObjectBuilder::new(), |o, k| o.property(*k, text()))
    };
    let email = texts().property("format", one_of(&EMAIL_FORMATS)).property(
        "variants",
        ObjectBuilder::new()
            .property_names(Some(one_of(&VARIANTS)))
            .additional_properties(Some(texts())),
    );
    let checks: Vec<&str> = CONDITION_CHECKS
        .into_iter()
        .filter(|c| *c != SCORE_CHECK)
        .collect();
    let condition = AnyOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .property("check", one_of(&checks))
                .required("check"),
        )
        .item(
            ObjectBuilder::new()
                .property("check", one_of(&[SCORE_CHECK]))
                .required("check")
                .property("value", integer(Some(0), Some(100)))
                .required("value"),
        );
    let deal = ObjectBuilder::new().property("title", text()).property(
        "value",
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(0))
            .maximum(Some(i64::MAX))
            .description(Some("Whole dollars.")),
    );
    let fields = ObjectBuilder::new()
        .property("setStatus", one_of(&jobs::domain::contacts::STATUSES))
        .property("addTag", text())
        .property("notify", text())
        .property("createDeal", deal);
    let one_action = ACTION_KEYS.iter().fold(AnyOfBuilder::new(), |any, k| {
        any.item(
            ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .required(*k),
        )
    });
    let action = AllOfBuilder::new().item(fields).item(one_action);
    let others: Vec<&str> = STEP_TYPES
        .into_iter()
        .filter(|t| !["email", "condition", "action"].contains(t))
        .collect();
    let shape = |kind: &[&str]| {
        ObjectBuilder::new()
            .schema_type(SchemaType::AnyValue)
            .property("type", one_of(kind))
    };
    let needs = |o: ObjectBuilder, fields: &[&str]| {
        if creating {
            fields.iter().fold(o, |o, f| o.required(*f))
        } else {
            o
        }
    };
    let shapes = AnyOfBuilder::new()
        .item(shape(&["email"]).property("config", email))
        .item(needs(
            shape(&["condition"]).property("config", condition),
            &["type", "config"],
        ))
        .item(needs(
            shape(&["action"]).property("config", action),
            &["type", "config"],
        ))
        .item(needs(shape(&others), &["type"]));
    AllOfBuilder::new().item(base).item(shapes).into()
}

crate::validate::body_variant!(
    /// A new step: [`StepFields`] with its name, its config fitting its type.
    NewStepBody(StepFields),
    |base| {
        let base = crate::validate::requiring(
            base,
            "A step to add: its name is required, and its config fits its type.",
            vec![("name", name_schema().into())],
        );
        config_by_type(base, true)
    }
);

crate::validate::body_variant!(
    /// A change to a step: [`StepFields`], a config given with a type fitting it.
    StepBody(StepFields),
    |base| config_by_type(base, false)
);

/// Applies the fields present in `body`; an email step may name a template, which must exist.
async fn apply_step(
    state: &AppState,
    body: StepFields,
    s: &mut StepRow,
    creating: bool,
) -> ApiResult<()> {
    let mut errors = Errors::default();
    match text(&body.name) {
        Some(Some(n)) if n.chars().count() >= 2 => s.name = n,
        None if !creating => {}
        _ => errors.add("name", NAME_MESSAGE),
    }
    if let Some(v) = enum_field("type", &body.kind, &STEP_TYPES, &mut errors) {
        s.kind = v;
    }
    if let Some(n) = int_field(
        "stepOrder",
        &body.step_order,
        0,
        "stepOrder must be 0 or more",
        &mut errors,
    ) {
        s.step_order = n;
    }
    if let Some(n) = int_field(
        "delayMinutes",
        &body.delay_minutes,
        0,
        "delayMinutes must be 0 or more",
        &mut errors,
    ) {
        s.delay_minutes = n;
    }
    if let Some(v) = object_field("config", body.config, &mut errors) {
        s.config = SqlJson(v);
    }
    if let Some(v) = nullable_object("conditionalRules", body.conditional_rules, &mut errors) {
        s.conditional_rules = v.map(SqlJson);
    }
    if let Err(m) = step_config(&s.kind, &s.config.0) {
        errors.add("config", m);
    }
    errors.check()?;
    let variants = s.config.0.get("variants").and_then(Value::as_object);
    let templates = std::iter::once(&s.config.0)
        .chain(variants.into_iter().flat_map(|v| v.values()))
        .filter_map(|c| c.get("templateId").and_then(Value::as_str));
    for t in templates {
        if state.queue.db.template_get(t).await?.is_none() {
            return Err(ApiError::unprocessable(format!("Unknown template: {t}")));
        }
    }
    Ok(())
}

/// What the step runner reads from a step's `config`, checked so a step cannot fail unattended.
fn step_config(kind: &str, cfg: &Value) -> Result<(), String> {
    let text = |v: &Value, key: &str| match v.get(key) {
        None => Ok(()),
        Some(Value::String(_)) => Ok(()),
        Some(_) => Err(format!("config.{key} must be text")),
    };
    match kind {
        "email" => {
            for key in EMAIL_TEXT_KEYS {
                text(cfg, key)?;
            }
            if cfg
                .get("format")
                .is_some_and(|f| !f.as_str().is_some_and(|f| EMAIL_FORMATS.contains(&f)))
            {
                return Err("config.format must be text or html".into());
            }
            if let Some(variants) = cfg.get("variants") {
                let map = variants
                    .as_object()
                    .ok_or("config.variants must be an object with A and/or B")?;
                for (name, v) in map {
                    if !VARIANTS.contains(&name.as_str()) || !v.is_object() {
                        return Err(
                            "config.variants holds A and/or B, each with subject, body or templateId"
                                .into(),
                        );
                    }
                    for key in EMAIL_TEXT_KEYS {
                        text(v, key)?;
                    }
                }
            }
        }
        "condition" => {
            match cfg.get("check").and_then(Value::as_str) {
                Some(c) if CONDITION_CHECKS.contains(&c) => {}
                _ => return Err(one_of_message("config.check", &CONDITION_CHECKS)),
            }
            if cfg.get("check").and_then(Value::as_str) == Some(SCORE_CHECK)
                && !cfg
                    .get("value")
                    .is_some_and(|v| v.as_i64().is_some_and(|n| (0..=100).contains(&n)))
            {
                return Err("config.value must be a score from 0 to 100".into());
            }
        }
        "action" => {
            if let Some(s) = cfg.get("setStatus")
                && !s.as_str().is_some_and(jobs::domain::contacts::is_status)
            {
                return Err("config.setStatus must be a contact status".into());
            }
            text(cfg, "addTag")?;
            text(cfg, "notify")?;
            if let Some(d) = cfg.get("createDeal") {
                let ok = d.is_object()
                    && d.get("title").is_none_or(Value::is_string)
                    && d.get("value")
                        .is_none_or(|v| v.as_i64().is_some_and(|n| n >= 0));
                if !ok {
                    return Err(
                        "config.createDeal takes an optional title (text) and value (whole dollars)"
                            .into(),
                    );
                }
            }
            if !ACTION_KEYS.iter().any(|k| cfg.get(*k).is_some()) {
                return Err("An action step needs setStatus, addTag, createDeal or notify".into());
            }
        }
        _ => {}
    }
    Ok(())
}

async fn step_create(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Body(NewStepBody(body)): Body<NewStepBody>,
) -> ApiResult<Response> {
    load(&state, &id).await?;
    // Without a place, a new step goes last (after a reorder, order 0 is the first step's).
    let last = match body.step_order {
        Field::Absent => state
            .queue
            .db
            .step_list(&id)
            .await?
            .last()
            .map(|s| s.step_order.saturating_add(1)),
        _ => None,
    };
    let now = now_ms();
    let mut s = StepRow {
        // Steps list by creation: an id that sorts after the last one keeps two steps added in one
        // millisecond in their order.
        id: jobs::domain::new_id(),
        sequence_id: id,
        name: String::new(),
        kind: "email".into(),
        step_order: 0,
        config: SqlJson(json!({})),
        delay_minutes: 0,
        conditional_rules: None,
        created_at: now,
        updated_at: now,
    };
    apply_step(&state, body, &mut s, true).await?;
    if let Some(order) = last {
        s.step_order = order;
    }
    state.queue.db.step_insert(&s).await?;
    Ok((StatusCode::CREATED, axum::Json(step_view(s, &[]))).into_response())
}

async fn find_step(state: &AppState, id: &str, step_id: &str) -> ApiResult<StepRow> {
    load(state, id).await?;
    state
        .queue
        .db
        .step_list(id)
        .await?
        .into_iter()
        .find(|s| s.id == step_id)
        .ok_or_else(|| ApiError::not_found("Step not found"))
}

async fn step_update(
    State(state): State<AppState>,
    _: CurrentUser,
    Path((id, step_id)): Path<(String, String)>,
    Body(StepBody(body)): Body<StepBody>,
) -> ApiResult<Response> {
    let mut s = find_step(&state, &id, &step_id).await?;
    apply_step(&state, body, &mut s, false).await?;
    s.updated_at = now_ms();
    if state.queue.db.step_update(&s).await? == 0 {
        return Err(ApiError::not_found("Step not found"));
    }
    Ok(axum::Json(step_view(s, &[])).into_response())
}

async fn step_delete(
    State(state): State<AppState>,
    _: CurrentUser,
    Path((id, step_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    load(&state, &id).await?;
    let db = &state.queue.db;
    let steps = db.step_list(&id).await?;
    let ids: Vec<String> = steps.into_iter().map(|s| s.id).collect();
    if !ids.contains(&step_id) {
        return Err(ApiError::not_found("Step not found"));
    }
    let rest: Vec<String> = ids.iter().filter(|s| **s != step_id).cloned().collect();
    let moves = step_moves(&ids, &rest);
    if db.step_delete(&id, &step_id, &moves, now_ms()).await? == 0 {
        return Err(ApiError::not_found("Step not found"));
    }
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Reorder {
    step_ids: Vec<String>,
}

/// Puts the steps in the given order: every step of the sequence, each once.
async fn step_reorder(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Json(body): Json<Reorder>,
) -> ApiResult<Response> {
    load(&state, &id).await?;
    let db = &state.queue.db;
    let steps = db.step_list(&id).await?;
    let ids: Vec<String> = steps.into_iter().map(|s| s.id).collect();
    let mut have: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut given: Vec<&str> = body.step_ids.iter().map(String::as_str).collect();
    have.sort_unstable();
    given.sort_unstable();
    if have != given {
        return Err(ApiError::unprocessable(
            "stepIds must list every step of the sequence exactly once",
        ));
    }
    let moves = step_moves(&ids, &body.step_ids);
    db.step_reorder(&id, &body.step_ids, &moves, now_ms())
        .await?;
    steps_view(&state, &id).await
}

// ---- enrollments ----

/// Who to enroll: a selection (picked contacts, picked companies' contacts, the contacts list's
/// filters) and/or the campaigns' targeting; the sequence's enrollmentRules narrow either.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EnrollFields {
    #[serde(flatten)]
    selection: Selection,
    #[serde(default, deserialize_with = "crate::validate::object_or_null")]
    target_filters: Option<TargetFilters>,
}

crate::validate::body_variant!(
    /// [`EnrollFields`] that select someone.
    EnrollInput(EnrollFields),
    crate::targeting::something_selected
);

/// Who went in, who the selection named, who was skipped and why, and today's allowance left.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SequenceEnrolled)]
struct Enrolled {
    enrolled: i64,
    selected: i64,
    skipped: Skipped,
    remaining_today: i64,
    max_daily_enrollments: i32,
}

async fn enroll(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Json(EnrollInput(input)): Json<EnrollInput>,
) -> ApiResult<Response> {
    let s = load(&state, &id).await?;
    if s.status == "archived" {
        return Err(ApiError::conflict(
            "An archived sequence takes no enrollments",
        ));
    }
    if input.selection.is_empty() && input.target_filters.is_none() {
        return Err(ApiError::unprocessable(
            "Give contactIds or targetFilters to enroll contacts",
        ));
    }
    let db = &state.queue.db;
    let ids = input.selection.contact_ids(db).await?;
    let selection = input.target_filters.unwrap_or_default().audience(ids)?;
    let rules = Audience::from_rules(&s.enrollment_rules.0);
    let counts = db.selection_counts(&selection, Some(&s.id), &rules).await?;
    let now = now_ms();
    let today = now - now.rem_euclid(86_400_000);
    let left = i64::from(s.max_daily_enrollments) - db.enrollments_since(&s.id, today).await?;
    // Only contacts the sequence's enrollmentRules admit.
    let enrolled = match selection.narrow(&rules) {
        Some(audience) if left > 0 => {
            db.enrollments_insert(&Enroll {
                sequence_id: &s.id,
                audience: &audience,
                limit: left,
                now,
            })
            .await? as i64
        }
        _ => 0,
    };
    Ok(axum::Json(Enrolled {
        enrolled,
        selected: counts.selected,
        skipped: Skipped::of(&counts, enrolled),
        remaining_today: (left - enrolled).max(0),
        max_daily_enrollments: s.max_daily_enrollments,
    })
    .into_response())
}

#[derive(Deserialize, utoipa::IntoParams)]
struct EnrollmentQuery {
    status: Option<String>,
    /// 1–1000 (default 100).
    #[param(minimum = 1, maximum = 1000)]
    limit: Option<i64>,
    #[param(minimum = 0)]
    offset: Option<i64>,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SequenceEnrollment)]
struct EnrollmentView {
    id: String,
    contact_id: String,
    contact_name: String,
    email: Option<String>,
    status: String,
    current_step: i32,
    current_step_name: Option<String>,
    next_action_at: Option<String>,
    /// `A` or `B` in an A/B test.
    variant: Option<String>,
    exit_reason: Option<String>,
    enrolled_at: String,
    completed_at: Option<String>,
}

async fn enrollment_list(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Query(q): Query<EnrollmentQuery>,
) -> ApiResult<Response> {
    load(&state, &id).await?;
    let (limit, offset) = paging(q.limit, q.offset)?;
    let db = &state.queue.db;
    let steps = db.step_list(&id).await?;
    let (rows, total) = db
        .enrollment_list(&id, q.status.as_deref(), limit, offset)
        .await?;
    let items: Vec<EnrollmentView> = rows
        .into_iter()
        .map(|e| {
            let step = usize::try_from(e.current_step)
                .ok()
                .and_then(|i| steps.get(i));
            EnrollmentView {
                id: e.id,
                contact_id: e.contact_id,
                contact_name: format!("{} {}", e.first_name, e.last_name)
                    .trim()
                    .to_string(),
                email: e.email,
                status: e.status,
                current_step: e.current_step,
                current_step_name: step.map(|s| s.name.clone()),
                next_action_at: e.next_action_at.map(to_rfc3339),
                variant: e.variant,
                exit_reason: e.exit_reason,
                enrolled_at: to_rfc3339(e.enrolled_at),
                completed_at: e.completed_at.map(to_rfc3339),
            }
        })
        .collect();
    Ok(with_total(items, total))
}

async fn unenroll(
    State(state): State<AppState>,
    _: CurrentUser,
    Path((id, enrollment_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    if !state
        .queue
        .db
        .enrollment_exit(&id, &enrollment_id, "unenrolled", now_ms())
        .await?
    {
        return Err(ApiError::not_found("Active enrollment not found"));
    }
    Ok(StatusCode::NO_CONTENT)
}

// ---- reply rules ----

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ReplyRule)]
struct RuleView {
    id: String,
    name: String,
    trigger_type: String,
    /// As saved: a list of words.
    #[schema(value_type = Vec<String>)]
    keywords: Value,
    action: String,
    times_triggered: i32,
    is_active: bool,
    created_at: String,
}

fn rule_view(r: ReplyRuleRow) -> RuleView {
    RuleView {
        id: r.id,
        name: r.name,
        trigger_type: r.trigger_type,
        keywords: r.keywords.0,
        action: r.action,
        times_triggered: r.times_triggered,
        is_active: r.is_active,
        created_at: to_rfc3339(r.created_at),
    }
}

async fn rule_list(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let rules: Vec<RuleView> = state
        .queue
        .db
        .reply_rule_list()
        .await?
        .into_iter()
        .map(rule_view)
        .collect();
    Ok(axum::Json(rules).into_response())
}

fn rule_trigger_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&RULE_TRIGGERS)
}

fn rule_action_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of(&RULE_ACTIONS)
}

/// The fields of a reply rule to change: each may be left out, none may be null. A `keyword` rule
/// keeps at least one keyword.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct RuleFields {
    #[serde(default)]
    #[schema(schema_with = name_schema)]
    name: Field<String>,
    #[serde(default)]
    #[schema(schema_with = rule_trigger_schema)]
    trigger_type: Field<String>,
    /// Needed by a `keyword` rule.
    #[serde(default)]
    #[schema(schema_with = texts)]
    keywords: Field<Vec<String>>,
    #[serde(default)]
    #[schema(schema_with = rule_action_schema)]
    action: Field<String>,
    #[serde(default)]
    #[schema(value_type = bool)]
    is_active: Field<bool>,
}

/// The trigger `keyword`, which needs a keyword.
const KEYWORD_TRIGGER: &str = "keyword";

/// `base` (a rule's fields) where a `keyword` trigger comes with a keyword: its trigger is another
/// one (or left out), or it has keywords. A new rule (`creating`) without a trigger is `any_reply`
/// and needs none; a change is checked against the stored trigger and keywords where it leaves
/// them out, so only a keyword trigger given with no keywords is described.
fn keyword_rule(base: RefOr<Schema>, creating: bool) -> RefOr<Schema> {
    use utoipa::openapi::ObjectBuilder;
    use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, SchemaType};
    let others: Vec<&str> = RULE_TRIGGERS
        .into_iter()
        .filter(|t| *t != KEYWORD_TRIGGER)
        .collect();
    let any = AnyOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .property("triggerType", crate::validate::one_of(&others)),
        )
        .item({
            let some = ObjectBuilder::new()
                .schema_type(SchemaType::AnyValue)
                .property("keywords", texts().min_items(Some(1)));
            if creating {
                some.required("keywords")
            } else {
                some
            }
        });
    AllOfBuilder::new().item(base).item(any).into()
}

crate::validate::body_variant!(
    /// A new reply rule: [`RuleFields`] with its name (and a keyword for a keyword rule).
    NewRuleBody(RuleFields),
    |base| {
        let base = crate::validate::requiring(
            base,
            "A reply rule to create: its name is required, and a keyword rule needs a keyword.",
            vec![("name", name_schema().into())],
        );
        keyword_rule(base, true)
    }
);

crate::validate::body_variant!(
    /// A change to a reply rule: [`RuleFields`], a keyword trigger not given with no keywords.
    RuleBody(RuleFields),
    |base| keyword_rule(base, false)
);

fn apply_rule(body: RuleFields, r: &mut ReplyRuleRow, creating: bool) -> ApiResult<()> {
    let mut errors = Errors::default();
    match text(&body.name) {
        Some(Some(n)) if n.chars().count() >= 2 => r.name = n,
        None if !creating => {}
        _ => errors.add("name", NAME_MESSAGE),
    }
    if let Some(v) = enum_field(
        "triggerType",
        &body.trigger_type,
        &RULE_TRIGGERS,
        &mut errors,
    ) {
        r.trigger_type = v;
    }
    if let Some(v) = enum_field("action", &body.action, &RULE_ACTIONS, &mut errors) {
        r.action = v;
    }
    match body.keywords {
        Field::Absent => {}
        Field::Value(words) => r.keywords = SqlJson(Value::from(words)),
        Field::Null | Field::Wrong => errors.add("keywords", "keywords must be a list of words"),
    }
    match bool_field(&body.is_active) {
        Ok(None) => {}
        Ok(Some(b)) => r.is_active = b,
        Err(()) => errors.add("isActive", "isActive must be true or false"),
    }
    let no_keywords = r.keywords.0.as_array().is_none_or(|a| a.is_empty());
    if r.trigger_type == KEYWORD_TRIGGER && no_keywords {
        errors.add("keywords", "A keyword rule needs at least one keyword");
    }
    errors.check()
}

async fn rule_create(
    State(state): State<AppState>,
    _: CurrentUser,
    Body(NewRuleBody(body)): Body<NewRuleBody>,
) -> ApiResult<Response> {
    let now = now_ms();
    let mut r = ReplyRuleRow {
        id: ulid::Ulid::new().to_string(),
        name: String::new(),
        trigger_type: "any_reply".into(),
        keywords: SqlJson(json!([])),
        action: "stop_sequence".into(),
        times_triggered: 0,
        is_active: true,
        created_at: now,
        updated_at: now,
    };
    apply_rule(body, &mut r, true)?;
    state.queue.db.reply_rule_insert(&r).await?;
    Ok((StatusCode::CREATED, axum::Json(rule_view(r))).into_response())
}

async fn rule_update(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Body(RuleBody(body)): Body<RuleBody>,
) -> ApiResult<Response> {
    let db = &state.queue.db;
    let mut r = db
        .reply_rule_get(&id)
        .await?
        .ok_or_else(|| ApiError::not_found("Reply rule not found"))?;
    apply_rule(body, &mut r, false)?;
    r.updated_at = now_ms();
    db.reply_rule_update(&r).await?;
    Ok(axum::Json(rule_view(r)).into_response())
}

async fn rule_delete(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    if state.queue.db.reply_rule_delete(&id).await? == 0 {
        return Err(ApiError::not_found("Reply rule not found"));
    }
    Ok(StatusCode::NO_CONTENT)
}
