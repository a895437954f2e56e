//! The Sales Pipeline's rules (seed 001 §3, §4, §9): the board's stages, the value a converted
//! prospect starts at, and every figure of the pipeline metrics, computed from the deals.

use chrono::{Datelike, NaiveDate, TimeZone, Utc};
use serde::Serialize;

use super::figures::{DAY_MS, growth, percent, round1};

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

/// What the metrics read of a deal.
#[derive(Debug, Clone, Copy)]
pub struct MetricsDeal<'a> {
    pub value: i64,
    pub stage: Option<&'a str>,
    pub probability: i32,
    pub created_at: i64,
    /// `YYYY-MM-DD`.
    pub actual_close_date: Option<&'a str>,
}

#[derive(Debug, Serialize)]
pub struct StageFigures {
    pub stage: &'static str,
    pub count: i64,
    pub value: i64,
}

#[derive(Debug, Serialize)]
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
fn quarter_start(now: i64, offset: i32) -> i64 {
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

/// Every figure of seed 001 §3 from the deals:
/// - totalPipeline, activeDealsCount, expectedCloseValue: open deals (not closed_won/closed_lost);
///   expectedCloseValue = Σ value × probability / 100, rounded to whole dollars;
/// - qoqGrowth: value of open deals created this calendar quarter vs those created last quarter;
/// - weeklyGrowth: deals created in the last 7 days vs the 7 days before;
/// - closeRate = won / (won + lost); conversionRate = won / all deals (percent, one decimal);
/// - avgCycleDays: mean days from creation to actualCloseDate of won deals (rounded);
/// - avgDealSize: mean value of won deals, else of open deals;
/// - pipelineVelocity (sales velocity, $K per day) = open deals × avgDealSize × closeRate / cycle
///   days / 1000, the cycle being avgCycleDays, or the industry's 45 days before any win.
pub fn metrics(deals: &[MetricsDeal<'_>], now: i64) -> PipelineMetrics {
    let stage_of = |d: &MetricsDeal<'_>| effective_stage(d.stage).to_string();
    let open: Vec<&MetricsDeal<'_>> = deals.iter().filter(|d| !is_closed(&stage_of(d))).collect();
    let won: Vec<&MetricsDeal<'_>> = deals
        .iter()
        .filter(|d| stage_of(d) == "closed_won")
        .collect();
    let lost = deals
        .iter()
        .filter(|d| stage_of(d) == "closed_lost")
        .count() as i64;
    let won_count = won.len() as i64;

    let total_pipeline: i64 = open.iter().map(|d| d.value).sum();
    let expected_close_value: f64 = open
        .iter()
        .map(|d| d.value as f64 * f64::from(d.probability) / 100.0)
        .sum();
    let this_quarter = quarter_start(now, 0);
    let last_quarter = quarter_start(now, -1);
    let created_in = |from: i64, to: i64| {
        open.iter()
            .filter(|d| d.created_at >= from && d.created_at < to)
            .map(|d| d.value)
            .sum::<i64>()
    };
    let qoq_growth = growth(
        created_in(this_quarter, i64::MAX),
        created_in(last_quarter, this_quarter),
    );
    let week = |from: i64, to: i64| {
        deals
            .iter()
            .filter(|d| d.created_at >= from && d.created_at < to)
            .count() as i64
    };
    let weekly_growth = growth(
        week(now - 7 * DAY_MS, i64::MAX),
        week(now - 14 * DAY_MS, now - 7 * DAY_MS),
    );
    let close_rate = percent(won_count, won_count + lost);
    let conversion_rate = percent(won_count, deals.len() as i64);

    let cycles: Vec<i64> = won
        .iter()
        .filter_map(|d| {
            let closed = NaiveDate::parse_from_str(d.actual_close_date?, "%Y-%m-%d").ok()?;
            Some(((ms_of(closed) - d.created_at) / DAY_MS).max(0))
        })
        .collect();
    let avg_cycle_days = if cycles.is_empty() {
        0
    } else {
        (cycles.iter().sum::<i64>() as f64 / cycles.len() as f64).round() as i64
    };
    let mean = |ds: &[&MetricsDeal<'_>]| {
        if ds.is_empty() {
            0
        } else {
            (ds.iter().map(|d| d.value as f64).sum::<f64>() / ds.len() as f64).round() as i64
        }
    };
    let avg_deal_size = if won.is_empty() {
        mean(&open)
    } else {
        mean(&won)
    };
    let cycle = if avg_cycle_days > 0 {
        avg_cycle_days
    } else {
        INDUSTRY_AVG_CYCLE
    };
    let pipeline_velocity = round1(
        open.len() as f64 * avg_deal_size as f64 * (close_rate / 100.0) / cycle as f64 / 1000.0,
    );
    let stage_breakdown = BOARD_STAGES
        .iter()
        .map(|s| {
            let in_stage = deals.iter().filter(|d| stage_of(d) == *s);
            StageFigures {
                stage: s,
                count: in_stage.clone().count() as i64,
                value: in_stage.map(|d| d.value).sum(),
            }
        })
        .collect();
    PipelineMetrics {
        total_pipeline,
        qoq_growth,
        active_deals_count: open.len() as i64,
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

    fn deal<'a>(stage: &'a str, value: i64, created_at: i64) -> MetricsDeal<'a> {
        MetricsDeal {
            value,
            stage: Some(stage),
            probability: crate::domain::deals::stage_default_probability(stage),
            created_at,
            actual_close_date: None,
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
        let m = metrics(&[], 0);
        assert_eq!(m.close_rate, 0.0);
        assert_eq!(m.pipeline_velocity, 0.0);
        assert_eq!(m.avg_deal_size, 0);
        assert_eq!(m.qoq_growth, 0.0);
        assert_eq!(m.stage_breakdown.len(), 5);
        assert!(!m.is_above_target);
    }

    #[test]
    fn figures_from_known_deals() {
        let now = day(2026, 5, 20);
        let last_quarter = day(2026, 2, 1);
        let mut won = deal("closed_won", 40_000, day(2026, 4, 1));
        won.actual_close_date = Some("2026-05-01");
        let mut won_fast = deal("closed_won", 20_000, day(2026, 4, 21));
        won_fast.actual_close_date = Some("2026-05-01");
        let deals = [
            deal("qualification", 10_000, now - 2 * DAY_MS),
            deal("negotiation", 30_000, last_quarter),
            MetricsDeal {
                stage: None,
                ..deal("qualification", 5_000, now - 10 * DAY_MS)
            },
            won,
            won_fast,
            deal("closed_lost", 7_000, last_quarter),
        ];
        let m = metrics(&deals, now);
        assert_eq!(m.total_pipeline, 45_000);
        assert_eq!(m.active_deals_count, 3);
        // 10,000 × 25% + 30,000 × 65% + 5,000 × 25%.
        assert_eq!(m.expected_close_value, 23_250);
        // Two won, one lost: 66.7 %; two won of six deals: 33.3 %.
        assert_eq!(m.close_rate, 66.7);
        assert!(m.is_above_target);
        assert_eq!(m.conversion_rate, 33.3);
        // Open value created this quarter (15,000) against last quarter's (30,000).
        assert_eq!(m.qoq_growth, -50.0);
        // One deal in the last 7 days, one in the 7 before.
        assert_eq!(m.weekly_growth, 0.0);
        // 30 and 10 days to close.
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
