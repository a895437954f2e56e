//! The Sales Pipeline's rules (seed 001 §3, §4, §9): the board's stages, the value a converted
//! prospect starts at, and every figure of the pipeline metrics, computed from the deals.

use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use serde::Serialize;

use super::figures::{growth, percent, round1};

/// The board's columns, in order; `closed_lost` is not on the board.
pub const BOARD_STAGES: [&str; 5] = [
    "qualification",
    "proposal",
    "negotiation",
    "decision",
    "closed_won",
];

pub fn is_closed(stage: &str) -> bool {
    stage == "closed_won" || stage == "closed_lost"
}

/// The stage a deal counts as: stage-less deals are qualification.
pub fn effective_stage(stage: Option<&str>) -> &str {
    stage.unwrap_or("qualification")
}

/// The board's next column; `None` from the last one and from `closed_lost`.
pub fn next_stage(stage: Option<&str>) -> Option<&'static str> {
    let current = effective_stage(stage);
    let i = BOARD_STAGES.iter().position(|s| *s == current)?;
    BOARD_STAGES.get(i + 1).copied()
}

/// The value a converted prospect's deal starts at: 1% of its company's annual revenue, in whole
/// dollars (a $5.2M dealer gives $52,000, the industry's average deal size); 0 when the revenue is
/// unknown.
pub fn revenue_estimate(revenue: Option<i64>) -> i64 {
    revenue.map(|r| r.max(0) / 100).unwrap_or(0)
}

/// A contact's display name from its parts.
pub fn full_name(first: Option<&str>, last: Option<&str>) -> String {
    [first, last]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ")
}

// ---- metrics ----

const TARGET_CLOSE_RATE: f64 = 20.0;
const TARGET_CYCLE: i64 = 35;
const INDUSTRY_AVG_CYCLE: i64 = 45;
const INDUSTRY_AVG_CLOSE_RATE: f64 = 15.2;
const INDUSTRY_AVG_DEAL_SIZE: i64 = 52_000;

/// One effective stage's totals, as the rollup keeps them (no stage counts as qualification).
#[derive(Debug, Clone, Copy, Default)]
pub struct StageTotals<'a> {
    pub stage: &'a str,
    pub count: i64,
    pub value: i64,
    /// Σ value × probability (percent points).
    pub weighted: i64,
    /// Won deals with a valid close date: Σ whole days from creation to close (at least 0 each),
    /// and how many.
    pub cycle_days: i64,
    pub cycles: i64,
}

/// The windows the metrics compare.
#[derive(Debug, Clone, Copy, Default)]
pub struct DealWindows {
    /// Deals created in the last 7 days, and in the 7 before.
    pub created_last_week: i64,
    pub created_week_before: i64,
    /// Value of open deals created this calendar quarter, and last quarter.
    pub open_value_this_quarter: i64,
    pub open_value_last_quarter: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct StageFigures {
    pub stage: &'static str,
    pub count: i64,
    pub value: i64,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PipelineMetrics {
    pub total_pipeline: i64,
    pub qoq_growth: f64,
    pub active_deals_count: i64,
    pub weekly_growth: f64,
    pub close_rate: f64,
    pub target_close_rate: f64,
    pub is_above_target: bool,
    pub avg_cycle_days: i64,
    pub target_cycle: i64,
    pub industry_avg_cycle: i64,
    pub expected_close_value: i64,
    pub conversion_rate: f64,
    pub industry_avg_close_rate: f64,
    pub avg_deal_size: i64,
    pub industry_avg_deal_size: i64,
    pub pipeline_velocity: f64,
    pub stage_breakdown: Vec<StageFigures>,
}

fn ms_of(date: NaiveDate) -> i64 {
    date.and_hms_opt(0, 0, 0)
        .map(|t| Utc.from_utc_datetime(&t).timestamp_millis())
        .unwrap_or(0)
}

/// Start (ms) of the calendar quarter `offset` quarters from the one holding `now` (UTC).
pub fn quarter_start(now: i64, offset: i32) -> i64 {
    let date = Utc
        .timestamp_millis_opt(now)
        .single()
        .map(|t| t.date_naive())
        .unwrap_or_default();
    let quarter = date.year() * 4 + (date.month0() as i32) / 3 + offset;
    NaiveDate::from_ymd_opt(
        quarter.div_euclid(4),
        (quarter.rem_euclid(4) * 3 + 1) as u32,
        1,
    )
    .map(ms_of)
    .unwrap_or(0)
}

/// Every figure of seed 001 §3 from the stages' totals and the windows (both kept by the
/// database's rollups in the write's transaction):
/// - totalPipeline, activeDealsCount, expectedCloseValue: open deals (not closed_won/closed_lost);
///   expectedCloseValue = Σ value × probability / 100, rounded to whole dollars;
/// - qoqGrowth: value of open deals created this calendar quarter vs those created last quarter;
/// - weeklyGrowth: deals created in the last 7 days vs the 7 days before;
/// - closeRate = won / (won + lost); conversionRate = won / all deals (percent, one decimal);
/// - avgCycleDays: mean days from creation to actualCloseDate of won deals (rounded);
/// - avgDealSize: mean value of won deals, else of open deals;
/// - pipelineVelocity (sales velocity, $K per day) = open deals × avgDealSize × closeRate / cycle
///   days / 1000, the cycle being avgCycleDays, or the industry's 45 days before any win.
pub fn metrics(stages: &[StageTotals<'_>], w: &DealWindows) -> PipelineMetrics {
    let sum = |keep: &dyn Fn(&str) -> bool, f: &dyn Fn(&StageTotals<'_>) -> i64| {
        stages.iter().filter(|s| keep(s.stage)).map(f).sum::<i64>()
    };
    let open = |s: &str| !is_closed(s);
    let won = |s: &str| s == "closed_won";
    let open_count = sum(&open, &|s| s.count);
    let won_count = sum(&won, &|s| s.count);
    let lost = sum(&|s| s == "closed_lost", &|s| s.count);
    let all = sum(&|_| true, &|s| s.count);

    let total_pipeline = sum(&open, &|s| s.value);
    let expected_close_value = sum(&open, &|s| s.weighted) as f64 / 100.0;
    let qoq_growth = growth(w.open_value_this_quarter, w.open_value_last_quarter);
    let weekly_growth = growth(w.created_last_week, w.created_week_before);
    let close_rate = percent(won_count, won_count + lost);
    let conversion_rate = percent(won_count, all);

    let cycles = sum(&won, &|s| s.cycles);
    let avg_cycle_days = if cycles == 0 {
        0
    } else {
        (sum(&won, &|s| s.cycle_days) as f64 / cycles as f64).round() as i64
    };
    let mean = |value: i64, count: i64| {
        if count == 0 {
            0
        } else {
            (value as f64 / count as f64).round() as i64
        }
    };
    let avg_deal_size = if won_count == 0 {
        mean(total_pipeline, open_count)
    } else {
        mean(sum(&won, &|s| s.value), won_count)
    };
    let cycle = if avg_cycle_days > 0 {
        avg_cycle_days
    } else {
        INDUSTRY_AVG_CYCLE
    };
    let pipeline_velocity = round1(
        open_count as f64 * avg_deal_size as f64 * (close_rate / 100.0) / cycle as f64 / 1000.0,
    );
    let stage_breakdown = BOARD_STAGES
        .iter()
        .map(|stage| StageFigures {
            stage,
            count: sum(&|s| s == *stage, &|s| s.count),
            value: sum(&|s| s == *stage, &|s| s.value),
        })
        .collect();
    PipelineMetrics {
        total_pipeline,
        qoq_growth,
        active_deals_count: open_count,
        weekly_growth,
        close_rate,
        target_close_rate: TARGET_CLOSE_RATE,
        is_above_target: close_rate > TARGET_CLOSE_RATE,
        avg_cycle_days,
        target_cycle: TARGET_CYCLE,
        industry_avg_cycle: INDUSTRY_AVG_CYCLE,
        expected_close_value: expected_close_value.round() as i64,
        conversion_rate,
        industry_avg_close_rate: INDUSTRY_AVG_CLOSE_RATE,
        avg_deal_size,
        industry_avg_deal_size: INDUSTRY_AVG_DEAL_SIZE,
        pipeline_velocity,
        stage_breakdown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> i64 {
        NaiveDate::from_ymd_opt(y, m, d).map(ms_of).unwrap_or(-1)
    }

    fn stage(stage: &str, count: i64, value: i64, weighted: i64) -> StageTotals<'_> {
        StageTotals {
            stage,
            count,
            value,
            weighted,
            ..StageTotals::default()
        }
    }

    #[test]
    fn stage_chain() {
        assert_eq!(next_stage(None), Some("proposal"));
        assert_eq!(next_stage(Some("decision")), Some("closed_won"));
        assert_eq!(next_stage(Some("closed_won")), None);
        assert_eq!(next_stage(Some("closed_lost")), None);
        assert_eq!(effective_stage(None), "qualification");
        assert!(is_closed("closed_lost") && !is_closed("decision"));
    }

    #[test]
    fn estimates_and_names() {
        assert_eq!(revenue_estimate(Some(5_200_000)), 52_000);
        assert_eq!(revenue_estimate(Some(-10)), 0);
        assert_eq!(revenue_estimate(None), 0);
        assert_eq!(full_name(Some("Ann"), Some("Lee")), "Ann Lee");
        assert_eq!(full_name(None, Some("Lee")), "Lee");
        assert_eq!(full_name(None, None), "");
    }

    #[test]
    fn quarters_roll_over_years() {
        assert_eq!(quarter_start(day(2026, 2, 10), -1), day(2025, 10, 1));
        assert_eq!(quarter_start(day(2026, 12, 31), 0), day(2026, 10, 1));
    }

    #[test]
    fn no_deals_means_zeros() {
        let m = metrics(&[], &DealWindows::default());
        assert_eq!(m.close_rate, 0.0);
        assert_eq!(m.pipeline_velocity, 0.0);
        assert_eq!(m.avg_deal_size, 0);
        assert_eq!(m.qoq_growth, 0.0);
        assert_eq!(m.stage_breakdown.len(), 5);
        assert!(!m.is_above_target);
    }

    #[test]
    fn figures_from_known_totals() {
        // Qualification: 10,000 and 5,000 at 25 %; negotiation: 30,000 at 65 %; two won deals
        // (40,000 in 30 days, 20,000 in 10); one lost (7,000).
        let won = StageTotals {
            cycle_days: 40,
            cycles: 2,
            ..stage("closed_won", 2, 60_000, 6_000_000)
        };
        let stages = [
            stage("qualification", 2, 15_000, 375_000),
            stage("negotiation", 1, 30_000, 1_950_000),
            won,
            stage("closed_lost", 1, 7_000, 0),
        ];
        let windows = DealWindows {
            created_last_week: 1,
            created_week_before: 1,
            open_value_this_quarter: 15_000,
            open_value_last_quarter: 30_000,
        };
        let m = metrics(&stages, &windows);
        assert_eq!(m.total_pipeline, 45_000);
        assert_eq!(m.active_deals_count, 3);
        assert_eq!(m.expected_close_value, 23_250);
        // Two won, one lost: 66.7 %; two won of six deals: 33.3 %.
        assert_eq!(m.close_rate, 66.7);
        assert!(m.is_above_target);
        assert_eq!(m.conversion_rate, 33.3);
        assert_eq!(m.qoq_growth, -50.0);
        assert_eq!(m.weekly_growth, 0.0);
        assert_eq!(m.avg_cycle_days, 20);
        assert_eq!(m.avg_deal_size, 30_000);
        // 3 × 30,000 × 0.667 / 20 / 1000 = 3.0015.
        assert_eq!(m.pipeline_velocity, 3.0);
        let qualification = &m.stage_breakdown[0];
        assert_eq!(
            (
                qualification.stage,
                qualification.count,
                qualification.value
            ),
            ("qualification", 2, 15_000)
        );
        assert_eq!(m.stage_breakdown[4].count, 2);
    }
}
