//! The Business Intelligence Dashboard (seed 000 §2.5, §3, §7.3, §9): KPI metrics, campaign
//! performance per timeframe, companies per target state and the CSV report. Every figure is counted
//! from the data; where the seed shows fixed numbers ('+12%', the regional totals), the real ones
//! take their place.
//!
//! Errors are [`ApiError`]: a timeframe other than 7, 30 or 90 is a 422; database errors are logged
//! 500s. The figures' rules and the report's layout are [`jobs::domain::dashboard`]'s.

use axum::extract::State;
use axum::response::Response;
use jobs::db::{DashboardWindows, FigureScope, figure_total};
use jobs::domain::dashboard::{
    self, ReportCompany, ReportContact, ReportDeal, ReportSummary, TARGET_STATES, change_text,
    is_state, meeting_rate, month_bounds,
};
use jobs::domain::email_figures::{EmailFigures, email_figures};
use jobs::domain::figures::{DAY_MS, day_of, growth};
use jobs::time::now_ms;
use serde::{Deserialize, Serialize};

use crate::error::ApiResult;
use crate::extract::{CurrentUser, Json, Query};
use crate::list::csv_download;
use crate::validate::field_error;
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/dashboard/metrics", Access::User, dashboard_metrics)
        // Served from the read cache as JSON, made from this type.
        .returns::<DashboardMetrics>()
        .get(
            "/api/dashboard/campaign-performance",
            Access::User,
            campaign_performance,
        )
        .query::<TimeframeQuery>()
        .returns::<CampaignPerformance>()
        .get("/api/dashboard/regional", Access::User, regional)
        .returns_list::<RegionCount>()
        .get("/api/dashboard/report", Access::User, report)
        .returns_file("text/csv")
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DashboardMetrics {
    /// Companies on file.
    prospects_identified: i64,
    /// Companies added in the last 30 days vs the 30 days before, percent.
    prospects_change: f64,
    /// The same as the card's text, e.g. "+12.5% from last month".
    prospects_change_text: String,
    /// Meetings that are not cancelled.
    meetings_scheduled: i64,
    /// The meeting rate of the last 30 days (the campaign performance card's at 30 days): contacts
    /// contacted in them who booked a meeting in them, per contact contacted, percent.
    meeting_conversion_rate: f64,
    /// Open deals (not closed_won or closed_lost).
    active_deals: i64,
    /// Their value, whole dollars.
    pipeline_value: i64,
    /// Scheduled or confirmed meetings from now on.
    upcoming_meetings: i64,
    completed_meetings: i64,
    /// Meetings (not cancelled) in this calendar month (UTC).
    monthly_meetings: i64,
}

async fn dashboard_metrics(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<Json<serde_json::Value>> {
    let cache = state.read_cache.clone();
    let value = cache
        .get_or_compute("dashboard:metrics".into(), || {
            dashboard_metrics_compute(state)
        })
        .await?;
    Ok(Json(value))
}

async fn dashboard_metrics_compute(state: AppState) -> ApiResult<serde_json::Value> {
    let now = now_ms();
    let (month_start, month_end) = month_bounds(now);
    let c = state
        .queue
        .db
        .dashboard_counts(&DashboardWindows {
            now,
            recent_since: now - 30 * DAY_MS,
            previous_since: now - 60 * DAY_MS,
            month_start,
            month_end,
        })
        .await?;
    let w = state
        .queue
        .db
        .dashboard_window_counts(now - METRICS_MEETING_DAYS * DAY_MS)
        .await?;
    let change = growth(c.companies_recent, c.companies_previous);
    let metrics = DashboardMetrics {
        prospects_identified: c.companies,
        prospects_change: change,
        prospects_change_text: change_text(change),
        meetings_scheduled: c.meetings,
        meeting_conversion_rate: meeting_rate(w.meetings_created, w.contacts_contacted),
        active_deals: c.active_deals,
        pipeline_value: c.pipeline_value,
        upcoming_meetings: c.upcoming_meetings,
        completed_meetings: c.completed_meetings,
        monthly_meetings: c.monthly_meetings,
    };
    Ok(serde_json::to_value(metrics).map_err(anyhow::Error::from)?)
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
struct TimeframeQuery {
    /// Days: 7 (default), 30 or 90.
    #[param(schema_with = timeframe_schema)]
    timeframe: Option<String>,
}

/// What `timeframe` takes (days).
const TIMEFRAMES: [&str; 3] = ["7", "30", "90"];

/// [`TIMEFRAMES`], or `""` (the default).
fn timeframe_schema() -> utoipa::openapi::ObjectBuilder {
    crate::validate::one_of_or_empty(&TIMEFRAMES).description(Some("Days: 7 (default), 30 or 90."))
}

/// The window of the metrics card's meeting rate.
const METRICS_MEETING_DAYS: i64 = 30;

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CampaignPerformance {
    timeframe: i64,
    /// Delivered / sent, percent, of the messages sent in the window; 0 when none was.
    delivery_rate: f64,
    /// Replied / sent, percent, of the messages sent in the window; 0 when none was.
    response_rate: f64,
    /// Contacts contacted in the window who booked a meeting in it, per contact contacted, percent.
    meeting_rate: f64,
    /// True once a message was sent in the window.
    email_data_available: bool,
    /// Contacts contacted in the window with a meeting created in it.
    meetings_created: i64,
    contacts_contacted: i64,
    /// The messages sent in the window: counts and rates as every screen shows them.
    emails: EmailFigures,
}

async fn campaign_performance(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<TimeframeQuery>,
) -> ApiResult<Json<CampaignPerformance>> {
    let days: i64 = match q.timeframe.as_deref().map(str::trim) {
        None | Some("") => 7,
        Some(t) if TIMEFRAMES.contains(&t) => t.parse().unwrap_or(7),
        Some(_) => {
            return Err(field_error(
                "timeframe",
                jobs::domain::one_of_message("timeframe", &TIMEFRAMES),
            ));
        }
    };
    let db = &state.queue.db;
    let since = now_ms() - days * DAY_MS;
    let w = db.dashboard_window_counts(since).await?;
    let rows = db
        .email_figures(&FigureScope {
            since: Some(since),
            ..FigureScope::default()
        })
        .await?;
    let emails = email_figures(&figure_total(&rows));
    Ok(Json(CampaignPerformance {
        timeframe: days,
        delivery_rate: emails.delivery_rate,
        response_rate: emails.reply_rate,
        meeting_rate: meeting_rate(w.meetings_created, w.contacts_contacted),
        email_data_available: emails.sent > 0,
        meetings_created: w.meetings_created,
        contacts_contacted: w.contacts_contacted,
        emails,
    }))
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
struct RegionCount {
    state: &'static str,
    name: &'static str,
    count: i64,
}

async fn regional(
    State(state): State<AppState>,
    _: CurrentUser,
) -> ApiResult<Json<Vec<RegionCount>>> {
    let counts = state.queue.db.dashboard_state_counts().await?;
    let regions = TARGET_STATES
        .iter()
        .map(|&(abbr, name)| RegionCount {
            state: abbr,
            name,
            count: counts
                .iter()
                .filter(|c| is_state(c.state.as_deref(), (abbr, name)))
                .map(|c| c.count)
                .sum(),
        })
        .collect();
    Ok(Json(regions))
}

async fn report(State(state): State<AppState>, _: CurrentUser) -> ApiResult<Response> {
    let db = &state.queue.db;
    let now = now_ms();
    let (month_start, month_end) = month_bounds(now);
    let counts = db
        .dashboard_counts(&DashboardWindows {
            now,
            recent_since: now - 30 * DAY_MS,
            previous_since: now - 60 * DAY_MS,
            month_start,
            month_end,
        })
        .await?;
    let companies = db.report_companies().await?;
    let contacts = db.report_contacts().await?;
    let deals = db.deal_export_rows().await?;
    let date = day_of(now);
    let summary = ReportSummary {
        companies: counts.companies,
        contacts_contacted: counts.contacts_contacted,
        active_deals: counts.active_deals,
        pipeline_value: counts.pipeline_value,
        meetings: counts.meetings,
        upcoming_meetings: counts.upcoming_meetings,
        completed_meetings: counts.completed_meetings,
    };
    let companies: Vec<ReportCompany<'_>> = companies
        .iter()
        .map(|c| ReportCompany {
            name: &c.name,
            industry: c.industry.as_deref(),
            city: c.city.as_deref(),
            state: c.state.as_deref(),
            phone: c.phone.as_deref(),
            website: c.website.as_deref(),
            revenue: c.revenue,
            score: c.score,
            status: &c.status,
            contact_count: c.contact_count,
            description: c.description.as_deref(),
        })
        .collect();
    let contacts: Vec<ReportContact<'_>> = contacts
        .iter()
        .map(|c| ReportContact {
            first_name: &c.first_name,
            last_name: &c.last_name,
            title: c.title.as_deref(),
            company_name: c.company_name.as_deref(),
            email: c.email.as_deref(),
            phone: c.phone.as_deref(),
            status: &c.status,
            score: c.score,
        })
        .collect();
    let deals: Vec<ReportDeal<'_>> = deals
        .iter()
        .map(|d| ReportDeal {
            title: &d.title,
            stage: d.stage.as_deref(),
            value: d.value,
            probability: d.probability,
            expected_close_date: d.expected_close_date.as_deref(),
            company_name: d.company_name.as_deref(),
            contact_first_name: d.contact_first_name.as_deref(),
            contact_last_name: d.contact_last_name.as_deref(),
        })
        .collect();
    let report = dashboard::report(&date, &summary, &companies, &contacts, &deals);
    let header: Vec<&str> = report.header.iter().map(String::as_str).collect();
    csv_download(
        &format!("business-development-report-{date}.csv"),
        &header,
        report.rows,
    )
}
