//! The Business Intelligence Dashboard (seed 000 §2.5, §3, §7.3, §9): KPI metrics, campaign
//! performance per timeframe, companies per target state and the CSV report. Every figure is counted
//! from the data; where the seed shows fixed numbers ('+12%', the regional totals), the real ones
//! take their place.
//!
//! Errors are [`ApiError`]: a timeframe other than 7, 30 or 90 is a 422; database errors are logged
//! 500s.

use axum::extract::State;
use axum::response::Response;
use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use jobs::db::DashboardWindows;
use jobs::time::now_ms;
use serde::{Deserialize, Serialize};

use crate::deals::{BOARD_STAGES, effective_stage, field_error, full_name, growth, percent, today};
use crate::error::ApiResult;
use crate::extract::{CurrentUser, Json, Query};
use crate::list::csv_download;
use crate::{Access, AppState, Routes};

pub(crate) fn routes() -> Routes {
    Routes::new()
        .get("/api/dashboard/metrics", Access::User, dashboard_metrics)
        .get(
            "/api/dashboard/campaign-performance",
            Access::User,
            campaign_performance,
        )
        .get("/api/dashboard/regional", Access::User, regional)
        .get("/api/dashboard/report", Access::User, report)
}

const DAY_MS: i64 = 86_400_000;

/// The seven target states (seed 000 §2.6), in the chart's order.
const TARGET_STATES: [(&str, &str); 7] = [
    ("TX", "Texas"),
    ("LA", "Louisiana"),
    ("AR", "Arkansas"),
    ("MS", "Mississippi"),
    ("NM", "New Mexico"),
    ("OK", "Oklahoma"),
    ("AZ", "Arizona"),
];

fn month_bounds(now: i64) -> (i64, i64) {
    let date = Utc
        .timestamp_millis_opt(now)
        .single()
        .map(|t| t.date_naive())
        .unwrap_or_default();
    let start = NaiveDate::from_ymd_opt(date.year(), date.month(), 1);
    let end = if date.month() == 12 {
        NaiveDate::from_ymd_opt(date.year() + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(date.year(), date.month() + 1, 1)
    };
    let ms = |d: Option<NaiveDate>| {
        d.and_then(|d| d.and_hms_opt(0, 0, 0))
            .map(|t| t.and_utc().timestamp_millis())
            .unwrap_or(0)
    };
    (ms(start), ms(end))
}

#[derive(Debug, Serialize)]
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
    /// meetingsScheduled / contacts contacted, percent.
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
    let change = growth(c.companies_recent, c.companies_previous);
    let sign = if change > 0.0 { "+" } else { "" };
    let metrics = DashboardMetrics {
        prospects_identified: c.companies,
        prospects_change: change,
        prospects_change_text: format!("{sign}{change}% from last month"),
        meetings_scheduled: c.meetings,
        meeting_conversion_rate: percent(c.meetings, c.contacts_contacted),
        active_deals: c.active_deals,
        pipeline_value: c.pipeline_value,
        upcoming_meetings: c.upcoming_meetings,
        completed_meetings: c.completed_meetings,
        monthly_meetings: c.monthly_meetings,
    };
    Ok(serde_json::to_value(metrics).map_err(anyhow::Error::from)?)
}

#[derive(Debug, Deserialize)]
struct TimeframeQuery {
    timeframe: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CampaignPerformance {
    timeframe: i64,
    /// Delivered / sent, percent; 0 until emails are sent.
    delivery_rate: f64,
    /// Replied / delivered, percent; 0 until emails are sent.
    response_rate: f64,
    /// Meetings created in the window / contacts contacted in the window, percent.
    meeting_rate: f64,
    /// False while there are no email sends to rate (the email engine is not built yet).
    email_data_available: bool,
    meetings_created: i64,
    contacts_contacted: i64,
}

async fn campaign_performance(
    State(state): State<AppState>,
    _: CurrentUser,
    Query(q): Query<TimeframeQuery>,
) -> ApiResult<Json<CampaignPerformance>> {
    let days: i64 = match q.timeframe.as_deref().map(str::trim) {
        None | Some("") => 7,
        Some(t @ ("7" | "30" | "90")) => t.parse().unwrap_or(7),
        Some(_) => {
            return Err(field_error(
                "timeframe",
                "timeframe must be one of: 7, 30, 90",
            ));
        }
    };
    let w = state
        .queue
        .db
        .dashboard_window_counts(now_ms() - days * DAY_MS)
        .await?;
    Ok(Json(CampaignPerformance {
        timeframe: days,
        delivery_rate: 0.0,
        response_rate: 0.0,
        meeting_rate: percent(w.meetings_created, w.contacts_contacted),
        email_data_available: false,
        meetings_created: w.meetings_created,
        contacts_contacted: w.contacts_contacted,
    }))
}

#[derive(Debug, Serialize)]
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
    // Stored states may be abbreviations or names, in any case.
    let regions = TARGET_STATES
        .iter()
        .map(|(abbr, name)| RegionCount {
            state: abbr,
            name,
            count: counts
                .iter()
                .filter(|c| {
                    c.state.as_deref().map(str::trim).is_some_and(|s| {
                        s.eq_ignore_ascii_case(abbr) || s.eq_ignore_ascii_case(name)
                    })
                })
                .map(|c| c.count)
                .sum(),
        })
        .collect();
    Ok(Json(regions))
}

/// Legal-form words dropped from the end of a business name for its short form.
const SUFFIXES: [&str; 14] = [
    "llc",
    "l.l.c",
    "inc",
    "incorporated",
    "corp",
    "corporation",
    "co",
    "company",
    "ltd",
    "limited",
    "lp",
    "llp",
    "pllc",
    "plc",
];

/// "Acme Bath Co., Inc." → "Acme Bath".
fn short_name(name: &str) -> String {
    let mut words: Vec<&str> = name.split_whitespace().collect();
    while words.len() > 1 {
        let last = words[words.len() - 1]
            .trim_matches(|c: char| c == ',' || c == '.')
            .to_ascii_lowercase();
        if SUFFIXES.contains(&last.as_str()) {
            words.pop();
        } else {
            break;
        }
    }
    words
        .join(" ")
        .trim_end_matches([',', '.', ' '])
        .to_string()
}

/// The seed's cell rule: commas, quotes and line breaks become spaces (the CSV writer would quote
/// them anyway; this keeps the report readable in naive viewers).
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ',' | '"' | '\r' | '\n' => ' ',
            c => c,
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Every report row has the same width: the widest section's (companies).
const REPORT_WIDTH: usize = 12;
const DESCRIPTION_MAX: usize = 200;

fn row(cells: &[&str]) -> Vec<String> {
    let mut r: Vec<String> = cells.iter().map(|c| clean(c)).collect();
    r.resize(REPORT_WIDTH, String::new());
    r
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
    let date = today();

    let mut rows = vec![row(&[])];
    rows.push(row(&["EXECUTIVE SUMMARY"]));
    rows.push(row(&["Metric", "Value"]));
    for (label, value) in [
        ("Total Companies", counts.companies),
        ("Total Contacts", contacts.len() as i64),
        ("Contacts Contacted", counts.contacts_contacted),
        ("Active Deals", counts.active_deals),
        ("Pipeline Value", counts.pipeline_value),
        ("Meetings Scheduled", counts.meetings),
        ("Upcoming Meetings", counts.upcoming_meetings),
        ("Completed Meetings", counts.completed_meetings),
    ] {
        rows.push(row(&[label, &value.to_string()]));
    }

    rows.push(row(&[]));
    rows.push(row(&["COMPANIES DATABASE"]));
    rows.push(row(&[
        "Business Name",
        "Full Name",
        "Industry",
        "City",
        "State",
        "Phone",
        "Website",
        "Revenue",
        "Score",
        "Status",
        "Contacts",
        "Description",
    ]));
    for c in &companies {
        let description: String = c
            .description
            .as_deref()
            .unwrap_or_default()
            .chars()
            .take(DESCRIPTION_MAX)
            .collect();
        rows.push(row(&[
            &short_name(&c.name),
            &c.name,
            c.industry.as_deref().unwrap_or_default(),
            c.city.as_deref().unwrap_or_default(),
            c.state.as_deref().unwrap_or_default(),
            c.phone.as_deref().unwrap_or_default(),
            c.website.as_deref().unwrap_or_default(),
            &c.revenue.map(|r| r.to_string()).unwrap_or_default(),
            &c.score.to_string(),
            &c.status,
            &c.contact_count.to_string(),
            &description,
        ]));
    }

    rows.push(row(&[]));
    rows.push(row(&["CONTACTS DATABASE"]));
    rows.push(row(&[
        "First Name",
        "Last Name",
        "Title",
        "Company",
        "Email",
        "Phone",
        "Status",
        "Score",
    ]));
    for c in &contacts {
        rows.push(row(&[
            &c.first_name,
            &c.last_name,
            c.title.as_deref().unwrap_or_default(),
            c.company_name.as_deref().unwrap_or_default(),
            c.email.as_deref().unwrap_or_default(),
            c.phone.as_deref().unwrap_or_default(),
            &c.status,
            &c.score.to_string(),
        ]));
    }

    rows.push(row(&[]));
    rows.push(row(&["PIPELINE BREAKDOWN"]));
    rows.push(row(&["Stage", "Deals", "Value"]));
    for stage in BOARD_STAGES.iter().chain(std::iter::once(&"closed_lost")) {
        let in_stage: Vec<_> = deals
            .iter()
            .filter(|d| effective_stage(d.stage.as_deref()) == *stage)
            .collect();
        let value: i64 = in_stage.iter().map(|d| d.value).sum();
        rows.push(row(&[
            stage,
            &in_stage.len().to_string(),
            &value.to_string(),
        ]));
    }
    rows.push(row(&[]));
    rows.push(row(&[
        "Deal",
        "Stage",
        "Value",
        "Probability",
        "Expected Close",
        "Company",
        "Contact",
    ]));
    for d in &deals {
        rows.push(row(&[
            &d.title,
            effective_stage(d.stage.as_deref()),
            &d.value.to_string(),
            &d.probability.to_string(),
            d.expected_close_date.as_deref().unwrap_or_default(),
            d.company_name.as_deref().unwrap_or_default(),
            &full_name(
                d.contact_first_name.as_deref(),
                d.contact_last_name.as_deref(),
            ),
        ]));
    }

    let mut header: Vec<&str> = vec!["Business Development Report", "Generated", &date];
    header.resize(REPORT_WIDTH, "");
    csv_download(
        &format!("business-development-report-{date}.csv"),
        &header,
        rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_drop_legal_forms() {
        assert_eq!(short_name("Acme Bath Co., Inc."), "Acme Bath");
        assert_eq!(
            short_name("Lone Star Remodeling LLC"),
            "Lone Star Remodeling"
        );
        assert_eq!(short_name("Inc"), "Inc");
        assert_eq!(short_name("Corpus Christi Baths"), "Corpus Christi Baths");
    }

    #[test]
    fn cells_lose_commas_quotes_and_breaks() {
        assert_eq!(clean("a,b\"c\nd"), "a b c d");
    }
}
