//! Pipeline and dashboard figures: params, rows and the dispatching methods (SQL in
//! sqlite/metrics.rs and postgres/metrics.rs). Counts are done in SQL; the pipeline figures are
//! computed by the api from [`MetricsDeal`] rows so both dialects share one formula.

use super::*;

/// When a contact counts as contacted: its `last_contacted_at`, or, for a contact whose status says
/// it was reached but has no timestamp, its last update.
pub(crate) const CONTACTED_AT: &str = "COALESCE(last_contacted_at, CASE WHEN status IN \
    ('contacted','email_sent','meeting_scheduled','responded','qualified','customer') \
    THEN updated_at END)";

/// What the pipeline metrics need of a deal.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MetricsDeal {
    pub value: i64,
    pub stage: Option<String>,
    pub probability: i32,
    pub created_at: i64,
    pub actual_close_date: Option<String>,
}

/// Bounds (ms since the epoch) of the dashboard's windows.
pub struct DashboardWindows {
    pub now: i64,
    /// Start of the last 30 days.
    pub recent_since: i64,
    /// Start of the 30 days before those.
    pub previous_since: i64,
    pub month_start: i64,
    pub month_end: i64,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct DashboardCounts {
    pub companies: i64,
    pub companies_recent: i64,
    pub companies_previous: i64,
    /// Meetings that are not cancelled.
    pub meetings: i64,
    pub upcoming_meetings: i64,
    pub completed_meetings: i64,
    pub monthly_meetings: i64,
    pub contacts_contacted: i64,
    pub active_deals: i64,
    pub pipeline_value: i64,
}

#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct WindowCounts {
    pub meetings_created: i64,
    pub contacts_contacted: i64,
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct StateCount {
    pub state: Option<String>,
    pub count: i64,
}

/// A company row of the dashboard report.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReportCompany {
    pub name: String,
    pub industry: Option<String>,
    pub city: Option<String>,
    pub state: Option<String>,
    pub phone: Option<String>,
    pub website: Option<String>,
    pub revenue: Option<i64>,
    pub score: i32,
    pub status: String,
    pub contact_count: i64,
    pub description: Option<String>,
}

/// A contact row of the dashboard report.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ReportContact {
    pub first_name: String,
    pub last_name: String,
    pub title: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub status: String,
    pub score: i32,
    pub company_name: Option<String>,
}

impl Db {
    pub async fn metrics_deals(&self) -> Result<Vec<MetricsDeal>, sqlx::Error> {
        dispatch!(self, metrics_deals())
    }
    pub async fn dashboard_counts(
        &self,
        w: &DashboardWindows,
    ) -> Result<DashboardCounts, sqlx::Error> {
        dispatch!(self, dashboard_counts(w))
    }
    /// Meetings created and contacts contacted since `since`.
    pub async fn dashboard_window_counts(&self, since: i64) -> Result<WindowCounts, sqlx::Error> {
        dispatch!(self, dashboard_window_counts(since))
    }
    /// Companies per stored `state` value (as written: abbreviations or names).
    pub async fn dashboard_state_counts(&self) -> Result<Vec<StateCount>, sqlx::Error> {
        dispatch!(self, dashboard_state_counts())
    }
    pub async fn report_companies(&self) -> Result<Vec<ReportCompany>, sqlx::Error> {
        dispatch!(self, report_companies())
    }
    pub async fn report_contacts(&self) -> Result<Vec<ReportContact>, sqlx::Error> {
        dispatch!(self, report_contacts())
    }
}
