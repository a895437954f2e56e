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
use jobs::domain::email_figures::email_figures;
use jobs::domain::one_of_message;
use jobs::domain::sequences::{WaitInput, sequence_waiting, step_moves};
use jobs::kinds::{SequenceStepSend, SequenceTick};
use jobs::mailing::{effective_daily_limit, window_keys};
use jobs::queue::JobKind;
use jobs::sending_window::SendingWindow;
use jobs::time::{now_ms, to_rfc3339};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use sqlx::types::Json as SqlJson;

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

pub(crate) fn routes() -> Routes {
    use Access::User;
    Routes::new()
        .get("/api/email-sequences", User, sequence_list)
        .post("/api/email-sequences", User, sequence_create)
        .body::<SequenceBody>()
        .get("/api/email-sequences/{id}", User, sequence_get)
        .patch("/api/email-sequences/{id}", User, sequence_update)
        .body::<SequenceBody>()
        .delete("/api/email-sequences/{id}", User, sequence_delete)
        .get("/api/email-sequences/{id}/steps", User, step_list)
        .post("/api/email-sequences/{id}/steps", User, step_create)
        .body::<StepBody>()
        .post(
            "/api/email-sequences/{id}/steps/reorder",
            User,
            step_reorder,
        )
        .body::<Reorder>()
        .patch(
            "/api/email-sequences/{id}/steps/{step_id}",
            User,
            step_update,
        )
        .body::<StepBody>()
        .delete(
            "/api/email-sequences/{id}/steps/{step_id}",
            User,
            step_delete,
        )
        .get(
            "/api/email-sequences/{id}/enrollments",
            User,
            enrollment_list,
        )
        .post("/api/email-sequences/{id}/enrollments", User, enroll)
        .body::<EnrollInput>()
        .delete(
            "/api/email-sequences/{id}/enrollments/{enrollment_id}",
            User,
            unenroll,
        )
        .get("/api/reply-rules", User, rule_list)
        .post("/api/reply-rules", User, rule_create)
        .body::<RuleBody>()
        .patch("/api/reply-rules/{id}", User, rule_update)
        .body::<RuleBody>()
        .delete("/api/reply-rules/{id}", User, rule_delete)
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

fn sequence_view(s: SequenceRow, c: Option<&SequenceCounts>) -> Value {
    let c = c.cloned().unwrap_or_default();
    json!({
        "id": s.id,
        "name": s.name,
        "description": s.description,
        "status": s.status,
        "triggerType": s.trigger_type,
        "triggerConfig": s.trigger_config.0,
        "enrollmentRules": s.enrollment_rules.0,
        "exitRules": s.exit_rules.0,
        "abTestingEnabled": s.ab_testing_enabled,
        "abTestConfig": s.ab_test_config.map(|j| j.0),
        "maxDailyEnrollments": s.max_daily_enrollments,
        "sendingWindow": s.sending_window.map(|j| j.0),
        "totalEnrollments": c.total,
        "activeEnrollments": c.active,
        "completedEnrollments": c.completed,
        "completionRate": if c.total > 0 { (c.completed * 100 + c.total / 2) / c.total } else { 0 },
        "createdAt": to_rfc3339(s.created_at),
        "updatedAt": to_rfc3339(s.updated_at),
    })
}

async fn view_of(state: &AppState, s: SequenceRow) -> ApiResult<Value> {
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
    let mut view = sequence_view(s, counts.first());
    if let Some(v) = view.as_object_mut() {
        v.insert("figures".into(), json!(figures));
    }
    Ok(view)
}

async fn sequence_list(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let db = &state.queue.db;
    let rows = db.sequence_list().await?;
    let ids: Vec<String> = rows.iter().map(|s| s.id.clone()).collect();
    let counts = db.sequence_counts(&ids).await?;
    let items: Vec<Value> = rows
        .into_iter()
        .map(|s| {
            let c = counts.iter().find(|c| c.sequence_id == s.id);
            sequence_view(s, c)
        })
        .collect();
    Ok(axum::Json(items).into_response())
}

/// A sequence to create (name and description required), or the fields of one to change.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SequenceBody {
    /// At least 2 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    name: Field<String>,
    /// At least 10 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    description: Field<String>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    status: Field<String>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    trigger_type: Field<String>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    trigger_config: Field<JsonObject>,
    /// The bulk campaigns' targeting filters.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    enrollment_rules: Field<JsonObject>,
    /// `statuses` and `tags`, each a list of text.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    exit_rules: Field<JsonObject>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    sending_window: Field<JsonObject>,
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    ab_testing_enabled: Field<bool>,
    /// `splitPercent`: 1–99.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    ab_test_config: Field<JsonObject>,
    /// At least 1.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    max_daily_enrollments: Field<i64>,
}

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
    Body(body): Body<SequenceBody>,
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
    let mut view = view_of(&state, s).await?;
    view["waiting"] = waiting;
    Ok(axum::Json(view).into_response())
}

/// Why the sequence is not sending now and until when (`waiting` on its detail; null when it
/// sends): from its enrollments, the sending limits (all mailboxes, as the deliverability screen
/// counts them), ops' pauses of the sequence jobs and its window in the sender's zone.
async fn waiting_of(state: &AppState, s: &SequenceRow, active: i64) -> ApiResult<Value> {
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
    Ok(waiting.map_or(
        Value::Null,
        |w| json!({ "reason": w.reason, "label": w.label, "until": w.until.map(to_rfc3339) }),
    ))
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
fn totals(rows: &[&FigureRow]) -> Map<String, Value> {
    let f = email_figures(&figure_total(rows.iter().copied()));
    let mut m = Map::new();
    m.insert("totalSent".into(), f.sent.into());
    m.insert("totalOpened".into(), f.opened.into());
    m.insert("totalClicked".into(), f.clicked.into());
    m.insert("totalReplied".into(), f.replied.into());
    m.insert("totalBounced".into(), f.bounced.into());
    m.insert("figures".into(), json!(f));
    m
}

fn step_view(s: StepRow, stats: &[&FigureRow]) -> Value {
    let mut variants: Vec<Value> = stats
        .iter()
        .filter_map(|r| {
            let mut v = totals(std::slice::from_ref(r));
            v.insert("variant".into(), r.variant.clone()?.into());
            Some(Value::Object(v))
        })
        .collect();
    variants.sort_by(|a, b| a["variant"].as_str().cmp(&b["variant"].as_str()));
    let mut view = json!({
        "id": s.id,
        "sequenceId": s.sequence_id,
        "name": s.name,
        "type": s.kind,
        "stepOrder": s.step_order,
        "config": s.config.0,
        "delayMinutes": s.delay_minutes,
        "conditionalRules": s.conditional_rules.map(|j| j.0),
        "variants": variants,
        "createdAt": to_rfc3339(s.created_at),
    });
    if let Some(v) = view.as_object_mut() {
        v.extend(totals(stats));
    }
    view
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
    let items: Vec<Value> = steps
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

/// A step to add (name required), or the fields of one to change.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct StepBody {
    /// At least 2 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    name: Field<String>,
    #[serde(default)]
    #[serde(rename = "type")]
    #[schema(value_type = Option<String>)]
    kind: Field<String>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    step_order: Field<i64>,
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    delay_minutes: Field<i64>,
    /// What the step does; checked against its type.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    config: Field<JsonObject>,
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    conditional_rules: Field<JsonObject>,
}

/// Applies the fields present in `body`; an email step may name a template, which must exist.
async fn apply_step(
    state: &AppState,
    body: StepBody,
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
            for key in ["subject", "body", "templateId"] {
                text(cfg, key)?;
            }
            if cfg
                .get("format")
                .is_some_and(|f| !matches!(f.as_str(), Some("text" | "html")))
            {
                return Err("config.format must be text or html".into());
            }
            if let Some(variants) = cfg.get("variants") {
                let map = variants
                    .as_object()
                    .ok_or("config.variants must be an object with A and/or B")?;
                for (name, v) in map {
                    if name != "A" && name != "B" || !v.is_object() {
                        return Err(
                            "config.variants holds A and/or B, each with subject, body or templateId"
                                .into(),
                        );
                    }
                    for key in ["subject", "body", "templateId"] {
                        text(v, key)?;
                    }
                }
            }
        }
        "condition" => {
            let checks = ["opened", "clicked", "replied", "scoreAtLeast"];
            match cfg.get("check").and_then(Value::as_str) {
                Some(c) if checks.contains(&c) => {}
                _ => return Err(one_of_message("config.check", &checks)),
            }
            if cfg.get("check").and_then(Value::as_str) == Some("scoreAtLeast")
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
            if !["setStatus", "addTag", "createDeal", "notify"]
                .iter()
                .any(|k| cfg.get(*k).is_some())
            {
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
    Body(body): Body<StepBody>,
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
            .map(|s| s.step_order + 1),
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
    Body(body): Body<StepBody>,
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
struct EnrollInput {
    #[serde(flatten)]
    selection: Selection,
    target_filters: Option<TargetFilters>,
}

async fn enroll(
    State(state): State<AppState>,
    _: CurrentUser,
    Path(id): Path<String>,
    Json(input): Json<EnrollInput>,
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
    Ok(axum::Json(json!({
        "enrolled": enrolled,
        "selected": counts.selected,
        "skipped": Skipped::of(&counts, enrolled),
        "remainingToday": (left - enrolled).max(0),
        "maxDailyEnrollments": s.max_daily_enrollments,
    }))
    .into_response())
}

#[derive(Deserialize)]
struct EnrollmentQuery {
    status: Option<String>,
    limit: Option<i64>,
    offset: Option<i64>,
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
    let items: Vec<Value> = rows
        .into_iter()
        .map(|e| {
            let step = usize::try_from(e.current_step)
                .ok()
                .and_then(|i| steps.get(i));
            json!({
                "id": e.id,
                "contactId": e.contact_id,
                "contactName": format!("{} {}", e.first_name, e.last_name).trim().to_string(),
                "email": e.email,
                "status": e.status,
                "currentStep": e.current_step,
                "currentStepName": step.map(|s| s.name.clone()),
                "nextActionAt": e.next_action_at.map(to_rfc3339),
                "variant": e.variant,
                "exitReason": e.exit_reason,
                "enrolledAt": to_rfc3339(e.enrolled_at),
                "completedAt": e.completed_at.map(to_rfc3339),
            })
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

fn rule_view(r: ReplyRuleRow) -> Value {
    json!({
        "id": r.id,
        "name": r.name,
        "triggerType": r.trigger_type,
        "keywords": r.keywords.0,
        "action": r.action,
        "timesTriggered": r.times_triggered,
        "isActive": r.is_active,
        "createdAt": to_rfc3339(r.created_at),
    })
}

async fn rule_list(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let rules: Vec<Value> = state
        .queue
        .db
        .reply_rule_list()
        .await?
        .into_iter()
        .map(rule_view)
        .collect();
    Ok(axum::Json(rules).into_response())
}

/// A reply rule to create (name required), or the fields of one to change.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct RuleBody {
    /// At least 2 characters.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    name: Field<String>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    trigger_type: Field<String>,
    /// Needed by a `keyword` rule.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    keywords: Field<Vec<String>>,
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    action: Field<String>,
    #[serde(default)]
    #[schema(value_type = Option<bool>)]
    is_active: Field<bool>,
}

fn apply_rule(body: RuleBody, r: &mut ReplyRuleRow, creating: bool) -> ApiResult<()> {
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
    if r.trigger_type == "keyword" && no_keywords {
        errors.add("keywords", "A keyword rule needs at least one keyword");
    }
    errors.check()
}

async fn rule_create(
    State(state): State<AppState>,
    _: CurrentUser,
    Body(body): Body<RuleBody>,
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
    Body(body): Body<RuleBody>,
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
