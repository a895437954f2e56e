//! Pipeline and dashboard figures: params, rows and their queries, the same in both dialects.
//! Totals and windows read the rollups that migration 0022's triggers keep (see
//! docs/performance.md); the pipeline figures are computed from [`DealStageRollup`] rows.

use super::sql::Sql;
use super::*;
use crate::domain::figures::DAY_MS;

/// When a contact counts as contacted: its `last_contacted_at`, or, for a contact whose status says
/// it was reached but has no timestamp, its last update.
macro_rules! contacted_at {
    () => {
        "COALESCE(last_contacted_at, CASE WHEN status IN
            ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
            THEN updated_at END)"
    };
}

/// Whole days of `day_series` in a window (binds `from_day`, `to_day`), closed by the caller.
macro_rules! whole_days {
    ($series:literal, $from:literal, $to:literal) => {
        concat!(
            "(SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM day_series WHERE series = '",
            $series,
            "' AND day >= ?",
            $from,
            " AND day < ?",
            $to,
            ")"
        )
    };
}

/// A window's count: its whole days from `day_series`, its partial first and last days counted
/// from the table's index (`$column` in [?a, ?b) and [?c, ?d)). Binds: see [`DayWindow`].
macro_rules! window_count {
    ($series:literal, $table:literal, $column:expr, [$f:literal, $t:literal, $a:literal, $b:literal, $c:literal, $d:literal]) => {
        concat!(
            whole_days!($series, $f, $t),
            " + (SELECT COUNT(*) FROM ",
            $table,
            " WHERE ",
            $column,
            " >= ?",
            $a,
            " AND ",
            $column,
            " < ?",
            $b,
            ")",
            " + (SELECT COUNT(*) FROM ",
            $table,
            " WHERE ",
            $column,
            " >= ?",
            $c,
            " AND ",
            $column,
            " < ?",
            $d,
            ")"
        )
    };
}

/// The deal rollup (migration 0022), one row per effective stage.
const DEAL_ROLLUP: Sql = sql!(
    "SELECT stage, n, value_sum, weighted_sum, cycle_days_sum, cycle_n FROM deal_rollup WHERE n <> 0"
)
.with_generic_plan();
/// ?1..?6 deals created since a week ago, ?7..?12 the week before; ?13..?14 the open deals' value
/// created this quarter, ?15..?16 last quarter (quarters start on a day).
const DEAL_WINDOWS: Sql = sql!(concat!(
    "SELECT ",
    window_count!("deals.created", "deals", "created_at", ["1", "2", "3", "4", "5", "6"]),
    " AS created_last_week, ",
    window_count!("deals.created", "deals", "created_at", ["7", "8", "9", "10", "11", "12"]),
    " AS created_week_before,
        (SELECT CAST(COALESCE(SUM(total), 0) AS BIGINT) FROM day_series
            WHERE series = 'deals.open_created' AND day >= ?13 AND day < ?14) AS open_value_this_quarter,
        (SELECT CAST(COALESCE(SUM(total), 0) AS BIGINT) FROM day_series
            WHERE series = 'deals.open_created' AND day >= ?15 AND day < ?16) AS open_value_last_quarter"
))
.with_generic_plan();
/// ?1 now; ?2..?7 companies created in the last 30 days, ?8..?13 in the 30 before; ?14..?15 this
/// month. Totals from the rollups of migration 0022.
const COUNTS: Sql = sql!(concat!(
    "SELECT
        (SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM company_rollup) AS companies, ",
    window_count!("companies.created", "companies", "created_at", ["2", "3", "4", "5", "6", "7"]),
    " AS companies_recent, ",
    window_count!("companies.created", "companies", "created_at", ["8", "9", "10", "11", "12", "13"]),
    " AS companies_previous,
        (SELECT COUNT(*) FROM meetings WHERE status <> 'cancelled') AS meetings,
        (SELECT COUNT(*) FROM meetings WHERE status IN ('scheduled', 'confirmed') AND scheduled_at >= ?1)
            AS upcoming_meetings,
        (SELECT COUNT(*) FROM meetings WHERE status = 'completed') AS completed_meetings,
        (SELECT COUNT(*) FROM meetings WHERE status <> 'cancelled' AND scheduled_at >= ?14 AND scheduled_at < ?15)
            AS monthly_meetings,
        (SELECT CAST(COALESCE(SUM(CASE WHEN status IN
            ('contacted','email_sent','meeting_scheduled','responded','qualified','customer')
            THEN n ELSE reached_n END), 0) AS BIGINT) FROM contact_rollup) AS contacts_contacted,
        (SELECT CAST(COALESCE(SUM(n), 0) AS BIGINT) FROM deal_rollup WHERE stage NOT IN ('closed_won', 'closed_lost'))
            AS active_deals,
        (SELECT CAST(COALESCE(SUM(value_sum), 0) AS BIGINT) FROM deal_rollup
            WHERE stage NOT IN ('closed_won', 'closed_lost')) AS pipeline_value"
))
.with_generic_plan();
/// The meeting rate's parts in a window from ?1..?6 (contacted-at since, see [`DayWindow`]):
/// contacts contacted, and those of them with a meeting (not cancelled) created since ?7; the
/// second is a subset of the first, so the rate is at most 100 %.
const WINDOW_COUNTS: Sql = sql!(concat!(
    "SELECT
        (SELECT COUNT(*) FROM contacts WHERE id IN
            (SELECT contact_id FROM meetings WHERE created_at >= ?7 AND status <> 'cancelled')
         AND ",
    contacted_at!(),
    " >= ?7) AS meetings_created, ",
    window_count!(
        "contacts.contacted",
        "contacts",
        contacted_at!(),
        ["1", "2", "3", "4", "5", "6"]
    ),
    " AS contacts_contacted"
))
.with_generic_plan();
const STATE_COUNTS: Sql = sql!(
    "SELECT NULLIF(state, '') AS state, CAST(SUM(n) AS BIGINT) AS count FROM company_rollup
     GROUP BY state HAVING SUM(n) > 0"
)
.with_generic_plan();
const REPORT_COMPANIES: Sql = sql!(concat!(
    "SELECT co.name, co.industry, co.city, co.state, co.phone, co.website, co.revenue, co.score,
            co.status, ",
    contact_count_of!("co"),
    " AS contact_count, co.description
     FROM companies co ORDER BY co.score DESC, co.name, co.id"
));
const REPORT_CONTACTS: Sql = sql!(
    "SELECT c.first_name, c.last_name, c.title, c.email, c.phone, c.status, c.score,
            co.name AS company_name
     FROM contacts c LEFT JOIN companies co ON co.id = c.company_id
     ORDER BY c.score DESC, c.last_name, c.first_name, c.id"
);

/// A window [from, to) split for [`window_count!`]: whole UTC days `from_day..to_day` read from
/// `day_series`, and the partial days at each end, `head` and `tail`, counted from the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayWindow {
    pub from_day: i64,
    pub to_day: i64,
    pub head: (i64, i64),
    pub tail: (i64, i64),
}

impl DayWindow {
    pub fn new(from: i64, to: i64) -> Self {
        let from_day = from.div_euclid(DAY_MS) + i64::from(from.rem_euclid(DAY_MS) != 0);
        let to_day = to.div_euclid(DAY_MS);
        if from_day >= to_day {
            // No whole day inside: the head is the window, the tail is empty.
            return Self {
                from_day: 0,
                to_day: 0,
                head: (from, to),
                tail: (to, to),
            };
        }
        Self {
            from_day,
            to_day,
            head: (from, from_day * DAY_MS),
            tail: (to_day * DAY_MS, to),
        }
    }

    pub(super) fn binds(&self) -> [i64; 6] {
        [
            self.from_day,
            self.to_day,
            self.head.0,
            self.head.1,
            self.tail.0,
            self.tail.1,
        ]
    }
}

/// A deal stage's rollup row (migration 0022).
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct DealStageRollup {
    pub stage: String,
    pub n: i64,
    pub value_sum: i64,
    pub weighted_sum: i64,
    pub cycle_days_sum: i64,
    pub cycle_n: i64,
}

/// The pipeline's windows: deals created in the last 7 days and the 7 before, and the value of
/// open deals created this calendar quarter and the last.
#[derive(Debug, Clone, Default, sqlx::FromRow)]
pub struct DealWindows {
    pub created_last_week: i64,
    pub created_week_before: i64,
    pub open_value_this_quarter: i64,
    pub open_value_last_quarter: i64,
}

/// Bounds (ms since the epoch) of the pipeline's windows.
pub struct DealWindowBounds {
    pub now: i64,
    pub quarter_start: i64,
    pub last_quarter_start: i64,
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
    pub async fn deal_stage_rollup(&self) -> Result<Vec<DealStageRollup>, sqlx::Error> {
        fetch!(self, fetch_all, query_as(DEAL_ROLLUP))
    }
    pub async fn deal_windows(&self, b: &DealWindowBounds) -> Result<DealWindows, sqlx::Error> {
        let week = DayWindow::new(b.now - 7 * DAY_MS, i64::MAX).binds();
        let before = DayWindow::new(b.now - 14 * DAY_MS, b.now - 7 * DAY_MS).binds();
        on_db!(self, pool, [q = DEAL_WINDOWS], {
            let mut query = sqlx::query_as(q);
            for v in week.into_iter().chain(before) {
                query = query.bind(v);
            }
            query
                .bind(b.quarter_start.div_euclid(DAY_MS))
                .bind(i64::MAX / DAY_MS)
                .bind(b.last_quarter_start.div_euclid(DAY_MS))
                .bind(b.quarter_start.div_euclid(DAY_MS))
                .fetch_one(pool)
                .await
        })
    }
    pub async fn dashboard_counts(
        &self,
        w: &DashboardWindows,
    ) -> Result<DashboardCounts, sqlx::Error> {
        // "Recent" includes `now` itself.
        let recent = DayWindow::new(w.recent_since, w.now + 1).binds();
        let previous = DayWindow::new(w.previous_since, w.recent_since).binds();
        on_db!(self, pool, [q = COUNTS], {
            let mut query = sqlx::query_as(q).bind(w.now);
            for v in recent.into_iter().chain(previous) {
                query = query.bind(v);
            }
            query
                .bind(w.month_start)
                .bind(w.month_end)
                .fetch_one(pool)
                .await
        })
    }
    /// Contacts contacted since `since`, and those of them who booked a meeting since.
    pub async fn dashboard_window_counts(&self, since: i64) -> Result<WindowCounts, sqlx::Error> {
        let window = DayWindow::new(since, i64::MAX).binds();
        on_db!(self, pool, [q = WINDOW_COUNTS], {
            let mut query = sqlx::query_as(q);
            for v in window {
                query = query.bind(v);
            }
            query.bind(since).fetch_one(pool).await
        })
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
