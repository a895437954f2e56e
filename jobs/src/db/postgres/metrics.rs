//! metrics queries, postgres dialect.

use sqlx::{AssertSqlSafe, PgPool};

use crate::db::{
    CONTACTED_AT, DashboardCounts, DashboardWindows, MetricsDeal, ReportCompany, ReportContact,
    StateCount, WindowCounts,
};

pub async fn metrics_deals(pool: &PgPool) -> Result<Vec<MetricsDeal>, sqlx::Error> {
    sqlx::query_as("SELECT value, stage, probability, created_at, actual_close_date FROM deals")
        .fetch_all(pool)
        .await
}

pub async fn dashboard_counts(
    pool: &PgPool,
    w: &DashboardWindows,
) -> Result<DashboardCounts, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT
            (SELECT COUNT(*) FROM companies) AS companies,
            (SELECT COUNT(*) FROM companies WHERE created_at >= $2 AND created_at <= $1) AS companies_recent,
            (SELECT COUNT(*) FROM companies WHERE created_at >= $3 AND created_at < $2) AS companies_previous,
            (SELECT COUNT(*) FROM meetings WHERE status <> 'cancelled') AS meetings,
            (SELECT COUNT(*) FROM meetings WHERE status IN ('scheduled', 'confirmed') AND scheduled_at >= $1)
                AS upcoming_meetings,
            (SELECT COUNT(*) FROM meetings WHERE status = 'completed') AS completed_meetings,
            (SELECT COUNT(*) FROM meetings WHERE status <> 'cancelled' AND scheduled_at >= $4 AND scheduled_at < $5)
                AS monthly_meetings,
            (SELECT COUNT(*) FROM contacts WHERE {CONTACTED_AT} IS NOT NULL) AS contacts_contacted,
            (SELECT COUNT(*) FROM deals WHERE stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost'))
                AS active_deals,
            (SELECT CAST(COALESCE(SUM(value), 0) AS BIGINT) FROM deals
                WHERE stage IS NULL OR stage NOT IN ('closed_won', 'closed_lost')) AS pipeline_value"
    )))
    .bind(w.now)
    .bind(w.recent_since)
    .bind(w.previous_since)
    .bind(w.month_start)
    .bind(w.month_end)
    .fetch_one(pool)
    .await
}

pub async fn dashboard_window_counts(
    pool: &PgPool,
    since: i64,
) -> Result<WindowCounts, sqlx::Error> {
    sqlx::query_as(AssertSqlSafe(format!(
        "SELECT
            (SELECT COUNT(*) FROM meetings WHERE created_at >= $1) AS meetings_created,
            (SELECT COUNT(*) FROM contacts WHERE {CONTACTED_AT} >= $1) AS contacts_contacted"
    )))
    .bind(since)
    .fetch_one(pool)
    .await
}

pub async fn dashboard_state_counts(pool: &PgPool) -> Result<Vec<StateCount>, sqlx::Error> {
    sqlx::query_as("SELECT state, COUNT(*) AS count FROM companies GROUP BY state")
        .fetch_all(pool)
        .await
}

pub async fn report_companies(pool: &PgPool) -> Result<Vec<ReportCompany>, sqlx::Error> {
    sqlx::query_as(
        "SELECT co.name, co.industry, co.city, co.state, co.phone, co.website, co.revenue, co.score,
                co.status, (SELECT COUNT(*) FROM contacts c WHERE c.company_id = co.id) AS contact_count,
                co.description
         FROM companies co ORDER BY co.score DESC, co.name, co.id",
    )
    .fetch_all(pool)
    .await
}

pub async fn report_contacts(pool: &PgPool) -> Result<Vec<ReportContact>, sqlx::Error> {
    sqlx::query_as(
        "SELECT c.first_name, c.last_name, c.title, c.email, c.phone, c.status, c.score,
                co.name AS company_name
         FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
         ORDER BY c.score DESC, c.last_name, c.first_name, c.id",
    )
    .fetch_all(pool)
    .await
}
