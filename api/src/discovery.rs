//! `POST /api/discovery/scan`: validates the seed's search form and enqueues a `discovery_scan` job.
//! The same search while one is still running returns that scan. `GET /api/discovery/sources` says
//! which sources this server offers (the form offers only those), `GET /api/discovery/company-sources`
//! which sources found given companies (labels and attribution), `GET /api/discovery/market` the
//! Census market sizing of the target states (the map).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use jobs::db::{CompanySourceRow, JobList};
use jobs::domain::discovery::{CountyCount, Source, market_sizing};
use jobs::geo::COMPANY_TYPES;
use jobs::kinds::{DiscoveryScan as ScanRequest, SEARCH_MODES};
use jobs::providers::discovery::{REGIONS, REVENUE_RANGES};
use jobs::queue::{JobKind, JobView, NewJob};
use serde_json::json;
use utoipa::openapi::schema::{ArrayBuilder, OneOfBuilder, Schema, SchemaType};
use utoipa::openapi::{ObjectBuilder, RefOr, Type};

use crate::enqueue::accepted;
use crate::error::ApiResult;
use crate::extract::{CurrentUser, Json, Query};
use crate::list::id_list;
use crate::validate;
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .post("/api/discovery/scan", Access::User, scan)
        .body::<DiscoveryScan>()
        .accepted()
        .get("/api/discovery/scans/active", Access::User, active_scan)
        .returns::<Option<JobView>>()
        .get("/api/discovery/sources", Access::User, sources)
        .returns_list::<SourceView>()
        .get(
            "/api/discovery/company-sources",
            Access::User,
            company_sources,
        )
        .query::<IdsQuery>()
        .returns_list::<CompanySourceRow>()
        .get("/api/discovery/market", Access::User, market)
        .returns::<MarketView>()
}

/// One of `values`, blank or null (none), as `ScanRequest::normalize` reads a choice.
fn choice(values: &[&str]) -> RefOr<Schema> {
    OneOfBuilder::new()
        .item(validate::or_null(validate::one_of(values)))
        .item(validate::blank())
        .into()
}

/// What `ScanRequest::normalize` takes: a company name or the three search parameters; a city or
/// state, or a `cityState` it can read (this document says: with a letter before any comma).
/// Which sources `discoverySource` may name is this server's configuration
/// (`GET /api/discovery/sources`), and a list names at most one search mode.
fn scan_schema(base: RefOr<Schema>) -> RefOr<Schema> {
    let ranges: Vec<&str> = REVENUE_RANGES.iter().map(|r| r.0).collect();
    let states = crate::targeting::state_values();
    let mut names: Vec<&str> = SEARCH_MODES.to_vec();
    names.extend(Source::ALL.map(Source::key));
    let name = || {
        OneOfBuilder::new()
            .item(validate::one_of(&names))
            .item(validate::blank())
    };
    let source = OneOfBuilder::new()
        .item(ObjectBuilder::new().schema_type(Type::Null))
        .item(name())
        .item(ArrayBuilder::new().items(name()))
        .description(Some(
            "A search mode, a source, or a list of them (at most one search mode).",
        ));
    let city_state = ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .pattern(Some(r"^[^,\x00]*[A-Za-z][^\x00]*$"))
        .description(Some(
            "Free text (\"Dallas, TX\"); parsed into `city` and `state` when those are not given.",
        ));
    let base = validate::describing(
        base,
        vec![
            ("region", choice(&REGIONS)),
            ("revenueRange", choice(&ranges)),
            ("companyType", choice(&COMPANY_TYPES)),
            ("state", choice(&states)),
            ("discoverySource", source.into()),
        ],
    );
    let searched = validate::one_of_shapes(
        base,
        vec![
            validate::shape(vec![("companyName", validate::not_blank().into())]),
            validate::shape(vec![
                ("region", validate::one_of(&REGIONS).into()),
                ("revenueRange", validate::one_of(&ranges).into()),
                ("companyType", validate::one_of(&COMPANY_TYPES).into()),
            ]),
        ],
    );
    validate::one_of_shapes(
        searched,
        vec![
            validate::shape(vec![("city", validate::not_blank().into())]),
            validate::shape(vec![("state", validate::one_of(&states).into())]),
            // Neither: a `cityState` left out, null or blank is fine too.
            ObjectBuilder::new().property(
                "cityState",
                OneOfBuilder::new().item(city_state).item(validate::blank()),
            ),
        ],
    )
}

validate::body_variant!(
    /// A scan request ([`ScanRequest`], the seed's search form) that names what to search.
    DiscoveryScan(ScanRequest),
    scan_schema
);

/// A source as the form offers it.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SourceView {
    /// What `discoverySource` names it: `osm`, `google_places`, `catalog` or `llm`.
    source: &'static str,
    label: &'static str,
    /// Used when a scan names no source.
    default: bool,
    /// False for demo data and AI suggestions.
    verified: bool,
    attribution: &'static str,
}

/// The sources this server can search: the catalog always, the others when configured.
async fn sources(State(state): State<AppState>, _: CurrentUser) -> axum::Json<Vec<SourceView>> {
    let offered = &state.queue.providers.discovery;
    axum::Json(
        offered
            .available()
            .into_iter()
            .map(|s| SourceView {
                source: s.key(),
                label: s.label(),
                default: offered.defaults().contains(&s),
                verified: s.verified(),
                attribution: s.attribution(),
            })
            .collect(),
    )
}

#[derive(serde::Deserialize, utoipa::IntoParams)]
struct IdsQuery {
    /// Company ids, comma-separated.
    ids: Option<String>,
}

/// Which sources found the listed companies, and when each first and last saw them.
async fn company_sources(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<IdsQuery>,
) -> ApiResult<axum::Json<Vec<CompanySourceRow>>> {
    let ids = id_list(q.ids.as_deref())?.unwrap_or_default();
    Ok(axum::Json(state.queue.db.company_sources_of(&ids).await?))
}

/// County Business Patterns establishments of residential remodelers (NAICS 236118).
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct MarketView {
    /// False when the shipped file has no figures (see `note`).
    available: bool,
    source: Option<String>,
    year: Option<String>,
    note: Option<String>,
    /// Establishments per target state.
    states: Vec<StateCount>,
    #[schema(value_type = Vec<Object>)]
    counties: Vec<CountyCount>,
}

#[derive(serde::Serialize, utoipa::ToSchema)]
struct StateCount {
    state: &'static str,
    establishments: u64,
}

async fn market(_: CurrentUser) -> axum::Json<MarketView> {
    let m = market_sizing();
    let states = jobs::scoring::TARGET_STATES
        .iter()
        .map(|s| StateCount {
            state: s,
            establishments: m
                .counties
                .iter()
                .filter(|c| c.state == *s)
                .map(|c| u64::from(c.establishments))
                .sum(),
        })
        .collect();
    axum::Json(MarketView {
        available: !m.counties.is_empty(),
        source: m.source.clone(),
        year: m.year.clone(),
        note: m.note.clone(),
        states,
        counties: m.counties.clone(),
    })
}

/// The newest discovery scan still under way (running, retrying, then queued), so a reloaded
/// Discovery page follows it again; `null` when there is none. Any signed-in user may ask: the
/// ops job list is for admins.
async fn active_scan(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<axum::Json<Option<JobView>>> {
    for status in ["running", "retrying", "queued"] {
        let (rows, _) = state
            .queue
            .db
            .job_list(&JobList {
                kind: Some(ScanRequest::NAME),
                status: Some(status),
                text: None,
                from: None,
                until: None,
                limit: 1,
                offset: 0,
            })
            .await?;
        if let Some(job) = rows.into_iter().next() {
            return Ok(axum::Json(Some(JobView::from(job))));
        }
    }
    Ok(axum::Json(None))
}

async fn scan(
    State(state): State<AppState>,
    _: CurrentUser,
    Json(DiscoveryScan(body)): Json<DiscoveryScan>,
) -> ApiResult<Response> {
    let scan = match body.normalize() {
        Ok(scan) => scan,
        Err(e) => {
            // The seed shows a titled toast ('Missing Parameters', 'Invalid City/State').
            let body = json!({ "message": e.to_string(), "title": e.title() });
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, axum::Json(body)).into_response());
        }
    };
    // Only what this server offers may be asked for.
    let offered = state.queue.providers.discovery.available();
    if let Some(missing) = scan.sources().into_iter().find(|s| !offered.contains(s)) {
        let names: Vec<&str> = offered.iter().map(|s: &Source| s.label()).collect();
        let message = format!(
            "{} is not available on this server (available: {})",
            missing.label(),
            names.join(", ")
        );
        let body = json!({ "message": message, "title": "Invalid Parameters",
                           "errors": { "discoverySource": message } });
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, axum::Json(body)).into_response());
    }
    let key = format!("discovery:{}", scan.dedupe_key());
    let payload = serde_json::to_value(&scan).map_err(anyhow::Error::from)?;
    let job = state
        .queue
        .enqueue(NewJob::new(ScanRequest::NAME, payload).unique_while_active(key))
        .await?;
    Ok(accepted(&job.id, &job.status))
}
