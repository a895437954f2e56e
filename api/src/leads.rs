//! `POST /api/leads`: the public dealer form (seed 002 "Lead form"). No session; rate-limited per
//! client address and by a global ceiling; a filled honeypot field (`fax`, hidden in the form) is
//! accepted and dropped, so a bot learns nothing. Anyone may submit any email or company name, so an
//! existing company or contact is never overwritten: only its empty fields are filled, and the
//! activity written for the submission says what was filled and what was kept. The lead's scoring job
//! is enqueued in the same transaction.

use std::collections::BTreeMap;

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use jobs::db::{ActivityInsert, LeadMerge, LeadUpsert};
use jobs::geo::{COMPANY_TYPES, state_code};
use jobs::kinds::AiScore;
use jobs::queue::{JobKind, NewJob};
use jobs::time::now_ms;
use serde::Deserialize;
use serde_json::json;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{AnyOfBuilder, ObjectBuilder, Schema, Type};

use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::limit::{client_ip, rate_limit, rate_limit_all};
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/leads", Access::Public, lead_create)
        .body::<LeadForm>()
        .creates::<Thanks>()
}

pub const THANK_YOU: &str = "Thank you! Our team will contact you within 1-2 business days.";

/// The form as people send it. Text is trimmed; a blank or `null` optional field is left out.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Form {
    /// 2–200 characters.
    #[schema(required = true, schema_with = company_name_schema)]
    company_name: Option<String>,
    /// 2–200 characters.
    #[schema(required = true, schema_with = contact_name_schema)]
    contact_name: Option<String>,
    /// An address as `jobs::domain::contacts::is_valid_email` takes it (this document says ASCII).
    #[schema(required = true, schema_with = crate::validate::email)]
    email: Option<String>,
    /// At most 40 characters.
    #[schema(schema_with = phone_schema)]
    phone: Option<String>,
    /// At most 100 characters.
    #[schema(schema_with = city_schema)]
    city: Option<String>,
    /// A US state: its two-letter code or its name.
    #[schema(schema_with = state_schema)]
    state: Option<String>,
    #[schema(schema_with = company_type_schema)]
    company_type: Option<String>,
    /// A revenue band.
    #[schema(schema_with = revenue_schema)]
    annual_revenue: Option<String>,
    /// At most 5,000 characters.
    #[schema(schema_with = message_schema)]
    message: Option<String>,
    /// Honeypot: people never see it, bots fill it.
    #[schema(schema_with = blank_or_null)]
    fax: Option<String>,
}

crate::validate::body_variant!(
    /// The dealer form: a [`Form`], or what a bot sends (a filled `fax`: answered alike, dropped).
    LeadForm(Form),
    form_or_bot
);

/// A form as people send it, or one whose honeypot is filled: any text in any field is taken then
/// (and dropped), as long as each is text or `null`.
fn form_or_bot(form: RefOr<Schema>) -> RefOr<Schema> {
    let RefOr::T(Schema::Object(form)) = form else {
        return form;
    };
    let mut bot = ObjectBuilder::new().description(Some(
        "A bot's submission: the honeypot `fax` is filled, so nothing else is checked.",
    ));
    for name in form.properties.keys().filter(|n| *n != "fax") {
        bot = bot.property(name, text_or_null());
    }
    bot = bot
        .property("fax", crate::validate::not_blank())
        .required("fax");
    AnyOfBuilder::new().item(form).item(bot).into()
}

fn text_or_null() -> utoipa::openapi::schema::Object {
    crate::validate::or_null(ObjectBuilder::new().schema_type(Type::String))
}

fn blank_or_null() -> utoipa::openapi::schema::Object {
    crate::validate::or_null(crate::validate::blank())
}

/// The cap of a field of [`FIELD_CAPS`].
fn cap(field: &str) -> Option<usize> {
    FIELD_CAPS
        .iter()
        .find(|(f, ..)| *f == field)
        .map(|(.., cap)| *cap)
}

fn company_name_schema() -> ObjectBuilder {
    crate::validate::trimmed_text(MIN_NAME_CHARS, cap("companyName"))
}

fn contact_name_schema() -> ObjectBuilder {
    crate::validate::trimmed_text(MIN_NAME_CHARS, cap("contactName"))
}

/// Text of at most the field's cap, or `null`.
fn capped(field: &str) -> utoipa::openapi::schema::Object {
    crate::validate::or_null(
        ObjectBuilder::new()
            .schema_type(Type::String)
            .max_length(cap(field)),
    )
}

fn phone_schema() -> utoipa::openapi::schema::Object {
    capped("phone")
}

fn city_schema() -> utoipa::openapi::schema::Object {
    capped("city")
}

fn message_schema() -> utoipa::openapi::schema::Object {
    capped("message")
}

/// `values`, or `""` or `null` (left out).
fn one_of_or_none(values: impl IntoIterator<Item = &'static str>) -> ObjectBuilder {
    let mut all = vec![""];
    all.extend(values);
    crate::validate::one_of_or_null(&all)
}

/// The codes and names of `jobs::geo::STATES`, as `state_code` reads them.
fn state_schema() -> ObjectBuilder {
    let states = jobs::geo::STATES.iter();
    one_of_or_none(
        states
            .clone()
            .map(|(code, _)| *code)
            .chain(states.map(|(_, name)| *name)),
    )
}

/// [`COMPANY_TYPES`].
fn company_type_schema() -> ObjectBuilder {
    one_of_or_none(COMPANY_TYPES)
}

/// [`REVENUE_BANDS`].
fn revenue_schema() -> ObjectBuilder {
    one_of_or_none(REVENUE_BANDS.iter().map(|(band, _)| *band))
}

/// The shortest company or contact name.
const MIN_NAME_CHARS: usize = 2;

/// The form's revenue bands and their lower bounds, in dollars.
const REVENUE_BANDS: [(&str, i64); 4] = [
    ("5-10M", 5_000_000),
    ("10-25M", 10_000_000),
    ("25-50M", 25_000_000),
    ("50M+", 50_000_000),
];

/// Lower bound of a revenue band of the form, in dollars.
fn revenue_floor(band: &str) -> Option<i64> {
    REVENUE_BANDS
        .iter()
        .find(|(b, _)| *b == band)
        .map(|(_, floor)| *floor)
}

fn clean(v: &Option<String>) -> Option<&str> {
    v.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// Longest accepted free-text fields, in characters: (field, label, cap).
pub const FIELD_CAPS: [(&str, &str, usize); 6] = [
    ("companyName", "Company name", 200),
    ("contactName", "Your name", 200),
    ("email", "Email", 254),
    ("phone", "Phone", 40),
    ("city", "City", 100),
    ("message", "Message", 5_000),
];

impl Form {
    fn capped_fields(&self) -> [Option<&str>; 6] {
        [
            clean(&self.company_name),
            clean(&self.contact_name),
            clean(&self.email),
            clean(&self.phone),
            clean(&self.city),
            clean(&self.message),
        ]
    }
}

/// What the activity says about an existing row: which fields the submission filled and which
/// submitted values were not applied because a different value was stored.
fn merge_note(merges: [&LeadMerge; 2]) -> String {
    let filled: Vec<&str> = merges
        .iter()
        .flat_map(|m| m.filled.iter().copied())
        .collect();
    let kept: Vec<String> = merges
        .iter()
        .flat_map(|m| m.kept.iter())
        .map(|f| format!("{f} (kept existing)"))
        .collect();
    let mut note = String::new();
    if !filled.is_empty() {
        note.push_str(&format!("; filled {}", filled.join(", ")));
    }
    if !kept.is_empty() {
        note.push_str(&format!("; not applied: {}", kept.join(", ")));
    }
    note
}

/// What the form's sender reads: the same whether the lead was stored or dropped as spam.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
struct Thanks {
    message: &'static str,
}

async fn lead_create(
    State(state): State<AppState>,
    parts: Parts,
    Json(LeadForm(form)): Json<LeadForm>,
) -> ApiResult<Response> {
    rate_limit(
        &state.limits.leads_by_ip,
        client_ip(&parts, &state.config.limits),
        "submissions",
    )?;
    // After the per-address check, so one address's flood does not spend everyone's quota.
    rate_limit_all(&state.limits.leads_global, "submissions")?;
    let thanks = (
        StatusCode::CREATED,
        axum::Json(Thanks { message: THANK_YOU }),
    )
        .into_response();
    if clean(&form.fax).is_some() {
        tracing::info!("lead form honeypot filled; dropped");
        return Ok(thanks);
    }

    let mut errors = BTreeMap::new();
    for ((field, label, cap), value) in FIELD_CAPS.iter().zip(form.capped_fields()) {
        if value.is_some_and(|v| v.chars().count() > *cap) {
            errors.insert(
                field.to_string(),
                format!("{label} must be at most {cap} characters"),
            );
        }
    }
    let company = clean(&form.company_name).unwrap_or_default();
    if company.chars().count() < MIN_NAME_CHARS {
        errors
            .entry("companyName".to_string())
            .or_insert_with(|| "Company name is required".to_string());
    }
    let name = clean(&form.contact_name).unwrap_or_default();
    if name.chars().count() < MIN_NAME_CHARS {
        errors
            .entry("contactName".to_string())
            .or_insert_with(|| "Your name is required".to_string());
    }
    let email = clean(&form.email)
        .map(str::to_lowercase)
        .unwrap_or_default();
    if !jobs::domain::contacts::is_valid_email(&email) {
        errors
            .entry("email".to_string())
            .or_insert_with(|| "Valid email is required".to_string());
    }
    let state_code = match clean(&form.state) {
        None => None,
        Some(s) => match state_code(s) {
            Some(code) => Some(code),
            None => {
                errors.insert(
                    "state".to_string(),
                    "State must be a US state name or two-letter code".to_string(),
                );
                None
            }
        },
    };
    let company_type = clean(&form.company_type);
    if let Some(t) = company_type
        && !COMPANY_TYPES.contains(&t)
    {
        errors.insert(
            "companyType".to_string(),
            format!("companyType must be one of {}", COMPANY_TYPES.join(", ")),
        );
    }
    let revenue = match clean(&form.annual_revenue) {
        None => None,
        Some(band) => match revenue_floor(band) {
            Some(r) => Some(r),
            None => {
                errors.insert(
                    "annualRevenue".to_string(),
                    format!(
                        "annualRevenue must be one of {}",
                        REVENUE_BANDS.map(|(band, _)| band).join(", ")
                    ),
                );
                None
            }
        },
    };
    if let Some((_, first)) = errors.iter().next() {
        return Err(ApiError::fields(first.clone(), errors));
    }
    let (first_name, last_name) = name
        .split_once(' ')
        .map_or((name, ""), |(f, l)| (f, l.trim()));

    let lead = LeadUpsert {
        company_name: company,
        first_name,
        last_name,
        email: &email,
        phone: clean(&form.phone),
        city: clean(&form.city),
        state: state_code,
        company_type,
        revenue,
        message: clean(&form.message),
        now: now_ms(),
    };
    let mut tx = state.queue.begin().await?;
    let saved = tx.tx().lead_upsert(&lead).await?;
    if saved.contact_created {
        tx.tx()
            .webhook_emit_contact("contact.created", &saved.contact_id, json!({}), lead.now)
            .await?;
    }
    let mut description = format!(
        "Dealer form lead: {name} <{email}> from {company}{}",
        state_code.map(|s| format!(", {s}")).unwrap_or_default()
    );
    description.push_str(&merge_note([&saved.contact_merge, &saved.company_merge]));
    // A returning lead's new message would be lost with the kept notes: the activity keeps it.
    if let Some(message) = lead.message
        && saved.contact_merge.kept.contains(&"notes")
    {
        description.push_str(&format!("; message: {message}"));
    }
    tx.tx()
        .activity_insert(&ActivityInsert {
            kind: if saved.contact_created {
                "contact_created"
            } else {
                "contact_updated"
            },
            description: &description,
            entity_type: Some("contact"),
            entity_id: Some(&saved.contact_id),
            actor_id: None,
        })
        .await?;
    let score = AiScore {
        contact_id: Some(saved.contact_id.clone()),
        company_id: Some(saved.company_id.clone()),
    };
    tx.enqueue(NewJob::new(
        AiScore::NAME,
        serde_json::to_value(&score).map_err(anyhow::Error::from)?,
    ))
    .await?;
    tx.enqueue(crate::enqueue::trigger_job(
        "form_submitted",
        &saved.contact_id,
        None,
    )?)
    .await?;
    if saved.contact_created {
        tx.enqueue(crate::enqueue::trigger_job(
            "contact_created",
            &saved.contact_id,
            None,
        )?)
        .await?;
    }
    tx.commit().await?;
    Ok(thanks)
}
