//! Pipeline and dashboard figures: params, rows and their queries, the same in both dialects.
//! Counts are done in SQL; the pipeline figures are computed by the api from [`MetricsDeal`] rows.

use super::sql::Sql;
use super::*;

/// When a contact counts as contacted: its `last_contacted_at`, or, for a contact whose status says
/// it was reached but has no timestamp, its last update.
macro_rules! contacted_at {
    () => {
        "COALESCE(last_contacted_at, CASE WHEN status IN
            ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
            THEN updated_at END)"
    };
}

const DEALS: Sql =
    sql!("SELECT value, stage, probability, created_at, actual_close_date FROM deals");
/// ?1 now, ?2 the start of the last 30 days, ?3 of the 30 before, ?4..?5 this month.
const COUNTS: Sql = sql!(concat!(
    "SELECT
        (SELECT COUNT(*) FROM companies) AS companies,
        (SELECT COUNT(*) FROM companies WHERE created_at >= ?2 AND created_at <= ?1) AS companies_recent,
        (SELECT COUNT(*) FROM companies WHERE created_at >= ?3 AND created_at < ?2) AS companies_previous,
        (SELECT COUNT(*) FROM meetings WHERE status <> 'cancelled') AS meetings,
        (SELECT COUNT(*) FROM meetings WHERE status IN ('scheduled', 'confirmed') AND scheduled_at >= ?1)
            AS upcoming_meetings,
        (SELECT COUNT(*) FROM meetings WHERE status = 'completed') AS completed_meetings,
        (SELECT COUNT(*) FROM meetings WHERE status <> 'cancelled' AND scheduled_at >= ?4 AND scheduled_at < ?5)
            AS monthly_meetings,
        (SELECT COUNT(*) FROM contacts WHERE ",
    contacted_at!(),
    " IS NOT NULL) AS contacts_contacted,
        (SELECT COUNT(*) FROM deals WHERE stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost'))
            AS active_deals,
        (SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) FROM deals
            WHERE stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost')) AS pipeline_value"
));
/// The meeting rate's parts since ?1: contacts contacted, and those of them with a meeting (not
/// cancelled) created since; the second is a subset of the first, so the rate is at most 100 %.
const WINDOW_COUNTS: Sql = sql!(concat!(
    "SELECT
        COUNT(CASE WHEN EXISTS (SELECT 1 FROM meetings mt WHERE mt.contact_id = c.id
            AND mt.created_at >= ?1 AND mt.status <> 'cancelled') THEN 1 END) AS meetings_created,
        COUNT(*) AS contacts_contacted
     FROM contacts c WHERE ",
    contacted_at!(),
    " >= ?1"
));
const STATE_COUNTS: Sql = sql!("SELECT state, COUNT(*) AS count FROM companies GROUP BY state");
const REPORT_COMPANIES: Sql = sql!(
    "SELECT co.name, co.industry, co.city, co.state, co.phone, co.website, co.revenue, co.score,
            co.status, (SELECT COUNT(*) FROM contacts c WHERE c.company_id = co.id) AS contact_count,
            co.description
     FROM companies co ORDER BY co.score DESC, co.name, co.id"
);
const REPORT_CONTACTS: Sql = sql!(
    "SELECT c.first_name, c.last_name, c.title, c.email, c.phone, c.status, c.score,
            co.name AS company_name
     FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
     ORDER BY c.score DESC, c.last_name, c.first_name, c.id"
);

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
    /// Contacts contacted in the window with a meeting created in it.
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
        fetch!(self, fetch_all, query_as(DEALS))
    }
    pub async fn dashboard_counts(
        &self,
        w: &DashboardWindows,
    ) -> Result<DashboardCounts, sqlx::Error> {
        fetch!(
            self,
            fetch_one,
            query_as(COUNTS),
            w.now,
            w.recent_since,
            w.previous_since,
            w.month_start,
            w.month_end
        )
    }
    /// Contacts contacted since `since`, and those of them who booked a meeting since.
    pub async fn dashboard_window_counts(&self, since: i64) -> Result<WindowCounts, sqlx::Error> {
        fetch!(self, fetch_one, query_as(WINDOW_COUNTS), since)
    }
    /// Companies per stored `state` value (as written: abbreviations or names).
    pub async fn dashboard_state_counts(&self) -> Result<Vec<StateCount>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(STATE_COUNTS))
    }
    pub async fn report_companies(&self) -> Result<Vec<ReportCompany>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(REPORT_COMPANIES))
    }
    pub async fn report_contacts(&self) -> Result<Vec<ReportContact>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(REPORT_CONTACTS))
    }
}
