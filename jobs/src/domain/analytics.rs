//! The AI analytics (seed 002 §7 "AI orchestration and management"): each AI job kind is an
//! "agent"; its figures, the insights and the model performance are computed from the job counts,
//! the reply outcomes of scored contacts, the voice calls and the recorded AI runs.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::time::to_rfc3339;

/// The AI kinds, each one "agent" of the analytics: (kind, agent type, task type).
pub const AGENTS: [(&str, &str, &str); 6] = [
    ("ai_score", "Lead Scoring", "score one contact"),
    ("bulk_ai_score", "Bulk Scoring", "score many contacts"),
    ("discovery_scan", "Discovery", "find companies and contacts"),
    (
        "ai_task",
        "Content",
        "sentiment, research, outreach, content, insights",
    ),
    (
        "document_ai",
        "Document",
        "invoice extraction and document analysis",
    ),
    ("voice_call", "Voice", "qualification and follow-up calls"),
];

/// The job kinds whose runs record the model that answered.
pub const MODEL_KINDS: [&str; 2] = ["ai_task", "document_ai"];

/// A score of this or more counts as "high" (predicts a reply).
const HIGH_SCORE: i32 = 70;

/// `a / b`; 0 when `b` is 0.
pub fn ratio(a: i64, b: i64) -> f64 {
    if b == 0 { 0.0 } else { a as f64 / b as f64 }
}

/// Confidence that grows with the sample: 0.5 with a handful, towards 0.95 with hundreds.
fn confidence(n: usize) -> f64 {
    ((n as f64 / (n as f64 + 30.0)) * 0.95).clamp(0.5, 0.95)
}

pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Jobs of one kind: (total, succeeded, failed).
pub type KindCounts = (i64, i64, i64);

/// Per kind, from `(kind, status, count)` rows.
pub fn kind_counts(
    rows: impl IntoIterator<Item = (String, String, i64)>,
) -> BTreeMap<String, KindCounts> {
    let mut by_kind: BTreeMap<String, KindCounts> = BTreeMap::new();
    for (kind, status, n) in rows {
        let e = by_kind.entry(kind).or_default();
        e.0 += n;
        if status == "succeeded" {
            e.1 += n;
        } else if status == "failed" {
            e.2 += n;
        }
    }
    by_kind
}

/// An emailed contact: its score, whether the score came from scoring, its state, and whether it
/// replied (0 or 1).
#[derive(Debug, Clone, Copy)]
pub struct ReplyOutcome<'a> {
    pub score: i32,
    pub scored: bool,
    pub state: Option<&'a str>,
    pub replied: i64,
}

/// A voice call as the analytics read it.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    pub status: &'a str,
    pub outcome: Option<&'a str>,
    pub has_transcript: bool,
    pub simulated: bool,
}

/// A succeeded AI run with its recorded result (`model`, `latencyMs`).
#[derive(Debug, Clone, Copy)]
pub struct ModelRun<'a> {
    pub result: &'a Value,
    pub started_at: Option<i64>,
    pub finished_at: Option<i64>,
}

/// Messages of the last 30 days by what happened to them.
#[derive(Debug, Clone, Copy, Default)]
pub struct EmailCounts {
    pub sent: i64,
    /// Sent with the open pixel: the open rate's base (docs/figures.md).
    pub open_tracked: i64,
    pub opened: i64,
    pub clicked: i64,
    pub replied: i64,
}

/// Everything the analytics are computed from.
#[derive(Debug, Clone, Copy)]
pub struct AnalyticsInput<'a> {
    pub counts: &'a BTreeMap<String, KindCounts>,
    pub outcomes: &'a [ReplyOutcome<'a>],
    pub calls: &'a [Call<'a>],
    pub companies: i64,
    /// Per agent kind, when its latest job finished (or was created, if it has not).
    pub last_runs: &'a BTreeMap<&'a str, i64>,
    pub model_runs: &'a [ModelRun<'a>],
    /// The configured LLM's model, if any.
    pub configured_model: Option<&'a str>,
    pub email: EmailCounts,
    pub active_campaigns: i64,
    pub retention_days: f64,
}

/// One agent (AI job kind) and its figures.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiAgentPerformance)]
pub struct AgentPerformance {
    /// The job kind.
    pub agent_id: String,
    pub agent_type: String,
    pub task_type: String,
    pub total_tasks: i64,
    pub successful_tasks: i64,
    /// Succeeded of all, 0–1 with two decimals ("0.75").
    pub success_rate: String,
    /// The share of scores that predicted the reply (scoring agents with scored contacts only).
    pub average_accuracy: Option<f64>,
    /// The examples it has to go on (scored contacts, companies, finished calls, succeeded runs).
    pub training_data_count: i64,
    /// When its latest job finished (or was created, if it has not); none without jobs.
    pub last_training_update: Option<String>,
}

/// What an insight is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = AiInsightType)]
pub enum InsightType {
    Pattern,
    Improvement,
    Alert,
}

/// A finding from the CRM's outcomes and the job runs.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiInsight)]
pub struct Insight {
    pub id: String,
    pub agent_type: String,
    pub insight_type: InsightType,
    pub title: String,
    pub description: String,
    /// 0–1, growing with the sample.
    pub confidence: f64,
    /// 0–1.
    pub impact_score: f64,
    pub actionable: bool,
    pub implemented: bool,
}

/// Campaign figures of the last 30 days, in percent.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiPerformanceMetrics)]
pub struct PerformanceMetrics {
    pub current_campaigns: i64,
    /// None when no message carried the open pixel (the screen shows a dash).
    pub open_rate: Option<f64>,
    pub click_through_rate: f64,
    pub conversion_rate: f64,
}

/// The AI jobs run.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiOrchestration)]
pub struct Orchestration {
    pub tasks_routed: i64,
    /// Percent of them that succeeded.
    pub efficiency: f64,
    /// Not measured: always null.
    pub cost_savings: Option<f64>,
}

/// A model (or the template fallback) and how it answered.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiModelPerformance)]
pub struct ModelPerformance {
    /// Not measured: always null.
    pub accuracy: Option<f64>,
    /// Mean latency ("420 ms"); none before its first timed run.
    pub speed: Option<String>,
    /// Runs it answered.
    pub usage: usize,
    pub specialty: String,
}

/// One score band of [`ScoreAccuracy`].
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiScoreBand)]
pub struct ScoreBand {
    /// "0-39", "40-69" or "70-100".
    pub range: String,
    pub emailed: usize,
    pub replied: i64,
    /// 0–1.
    pub reply_rate: f64,
}

/// The lead score's measured accuracy (see [`score_accuracy`]).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiScoreAccuracy)]
pub struct ScoreAccuracy {
    pub emailed: usize,
    pub replied: i64,
    pub bands: Vec<ScoreBand>,
    /// Whether the reply rate rises from band to band (of the bands with emailed contacts);
    /// null until two bands have some.
    pub rates_rise_with_score: Option<bool>,
}

/// The `/api/ai/analytics` document.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = AiAnalytics)]
pub struct Analytics {
    pub total_agents: usize,
    pub total_training_data: i64,
    /// Mean success rate (0–1) of the agents that ran.
    pub average_success_rate: f64,
    pub agent_performance: Vec<AgentPerformance>,
    pub recent_insights: Vec<Insight>,
    pub performance_metrics: PerformanceMetrics,
    pub ai_orchestration: Orchestration,
    /// Keyed by model: `template` and the configured model always listed.
    pub model_performance: BTreeMap<String, ModelPerformance>,
    pub score_accuracy: ScoreAccuracy,
    /// Task runs count only while the queue keeps them (JOB_RETENTION_SECS); CRM examples stay.
    pub job_retention_days: f64,
}

fn agent_performance(i: &AnalyticsInput<'_>) -> (Vec<AgentPerformance>, i64, Vec<f64>) {
    let scored: Vec<_> = i.outcomes.iter().filter(|o| o.scored).collect();
    let finished_calls = i
        .calls
        .iter()
        .filter(|c| c.has_transcript && !c.simulated)
        .count();
    let mut agents = Vec::new();
    let mut total_training = 0i64;
    let mut rates = Vec::new();
    for (kind, agent_type, task_type) in AGENTS {
        let (total, ok, _) = i.counts.get(kind).copied().unwrap_or_default();
        let (accuracy, training) = match kind {
            "ai_score" | "bulk_ai_score" => {
                let agree = scored
                    .iter()
                    .filter(|o| (o.score >= HIGH_SCORE) == (o.replied == 1))
                    .count();
                (
                    (!scored.is_empty()).then(|| round3(ratio(agree as i64, scored.len() as i64))),
                    scored.len() as i64,
                )
            }
            "discovery_scan" => (None, i.companies),
            "voice_call" => (None, finished_calls as i64),
            _ => (None, ok),
        };
        total_training += training;
        if total > 0 {
            rates.push(ratio(ok, total));
        }
        agents.push(AgentPerformance {
            agent_id: kind.to_string(),
            agent_type: agent_type.to_string(),
            task_type: task_type.to_string(),
            total_tasks: total,
            successful_tasks: ok,
            success_rate: format!("{:.2}", ratio(ok, total)),
            average_accuracy: accuracy,
            training_data_count: training,
            last_training_update: i.last_runs.get(kind).map(|ms| to_rfc3339(*ms)),
        });
    }
    (agents, total_training, rates)
}

fn insights(i: &AnalyticsInput<'_>) -> Vec<Insight> {
    let mut insights = Vec::new();
    let (high, low): (Vec<_>, Vec<_>) = i.outcomes.iter().partition(|o| o.score >= HIGH_SCORE);
    if !high.is_empty() && !low.is_empty() {
        let rate = |v: &[&ReplyOutcome<'_>]| {
            ratio(
                v.iter().filter(|o| o.replied == 1).count() as i64,
                v.len() as i64,
            )
        };
        let (h, l) = (rate(&high), rate(&low));
        let predicts = h > l;
        insights.push(Insight {
            id: "reply-by-score".into(),
            agent_type: "Lead Scoring".into(),
            insight_type: if predicts {
                InsightType::Pattern
            } else {
                InsightType::Improvement
            },
            title: if predicts {
                "Scores of 70 and above predict replies"
            } else {
                "Scores do not predict replies yet"
            }
            .into(),
            description: format!(
                "Contacts scored 70+ replied {:.1}% of the time ({} emailed); those below 70 replied {:.1}% ({} emailed).{}",
                h * 100.0,
                high.len(),
                l * 100.0,
                low.len(),
                if predicts {
                    " Prioritise high scores in campaigns."
                } else {
                    " Review the scoring factors."
                }
            ),
            confidence: round3(confidence(i.outcomes.len())),
            impact_score: round3((h - l).abs().min(1.0)),
            actionable: true,
            implemented: false,
        });
    }
    let mut by_state: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
    for o in i.outcomes {
        if let Some(s) = o.state {
            let e = by_state.entry(s).or_default();
            e.0 += 1;
            e.1 += o.replied;
        }
    }
    if let Some((st, (n, r))) = by_state
        .iter()
        .filter(|(_, (n, _))| *n >= 5)
        .max_by(|a, b| ratio(a.1.1, a.1.0).total_cmp(&ratio(b.1.1, b.1.0)))
        .filter(|(_, (_, r))| *r > 0)
    {
        insights.push(Insight {
            id: format!("reply-by-state-{st}"),
            agent_type: "Lead Scoring".into(),
            insight_type: InsightType::Pattern,
            title: format!("{st} answers most"),
            description: format!(
                "{r} of {n} emailed contacts in {st} replied ({:.1}%), the best of any state with 5 or more.",
                ratio(*r, *n) * 100.0
            ),
            confidence: round3(confidence(*n as usize)),
            impact_score: round3(ratio(*r, *n)),
            actionable: true,
            implemented: false,
        });
    }
    let completed: Vec<_> = i
        .calls
        .iter()
        .filter(|c| c.status == "completed" && !c.simulated)
        .collect();
    if !completed.is_empty() {
        let q = completed
            .iter()
            .filter(|c| c.outcome == Some("qualified"))
            .count();
        insights.push(Insight {
            id: "voice-qualified".into(),
            agent_type: "Voice".into(),
            insight_type: InsightType::Pattern,
            title: format!(
                "{q} of {} answered calls qualified the lead",
                completed.len()
            ),
            description: "Outcome of calls placed through the voice agents.".into(),
            confidence: round3(confidence(completed.len())),
            impact_score: round3(ratio(q as i64, completed.len() as i64)),
            actionable: false,
            implemented: false,
        });
    }
    for (kind, agent_type, _) in AGENTS {
        let (total, _, failed) = i.counts.get(kind).copied().unwrap_or_default();
        if total >= 5 && ratio(failed, total) > 0.2 {
            insights.push(Insight {
                id: format!("failing-{kind}"),
                agent_type: agent_type.into(),
                insight_type: InsightType::Alert,
                title: format!("{agent_type} jobs are failing"),
                description: format!(
                    "{failed} of {total} {kind} jobs failed; see the ops dashboard for their errors."
                ),
                confidence: 0.95,
                impact_score: round3(ratio(failed, total)),
                actionable: true,
                implemented: false,
            });
        }
    }
    insights
}

/// Per model that ran AI tasks (the template fallback and the configured model always listed):
/// its mean latency and how many runs it answered.
fn model_performance(i: &AnalyticsInput<'_>) -> BTreeMap<String, ModelPerformance> {
    // Per model: (sum of latencies in ms, runs with a latency, runs).
    let mut models: BTreeMap<String, (u64, u64, usize)> = BTreeMap::new();
    for run in i.model_runs {
        let model = run.result["model"]
            .as_str()
            .map_or_else(|| "template".to_string(), str::to_string);
        let e = models.entry(model).or_default();
        e.2 += 1;
        if let Some(ms) = run.result["latencyMs"].as_u64() {
            e.0 += ms;
            e.1 += 1;
        } else if let (Some(s), Some(f)) = (run.started_at, run.finished_at) {
            e.0 += u64::try_from(f - s).unwrap_or(0);
            e.1 += 1;
        }
    }
    if let Some(m) = i.configured_model {
        models.entry(m.to_string()).or_default();
    }
    models.entry("template".into()).or_default();
    models
        .into_iter()
        .map(|(name, (ms, n, usage))| {
            let specialty = if name == "template" {
                "rule-based fallbacks from CRM data"
            } else {
                "content, research, documents"
            };
            let performance = ModelPerformance {
                accuracy: None,
                speed: ms.checked_div(n).map(|avg| format!("{avg} ms")),
                usage,
                specialty: specialty.into(),
            };
            (name, performance)
        })
        .collect()
}

/// Score bands of the measured accuracy: (label, lowest, highest).
pub const ACCURACY_BANDS: [(&str, i32, i32); 3] =
    [("0-39", 0, 39), ("40-69", 40, 69), ("70-100", 70, 100)];

/// The lead score's measured accuracy: per score band, how many scored contacts were emailed and
/// how many replied. A score that means something has reply rates that rise with the band.
/// Engagement is a factor of the score, so a contact's reply also lifts its own score; the bands
/// read the scores as they stand (docs/voice-and-ai.md).
pub fn score_accuracy(outcomes: &[ReplyOutcome<'_>]) -> ScoreAccuracy {
    let scored: Vec<_> = outcomes.iter().filter(|o| o.scored).collect();
    let bands: Vec<ScoreBand> = ACCURACY_BANDS
        .iter()
        .map(|(range, lo, hi)| {
            let inside: Vec<_> = scored
                .iter()
                .filter(|o| (*lo..=*hi).contains(&o.score))
                .collect();
            let replied: i64 = inside.iter().map(|o| o.replied).sum();
            ScoreBand {
                range: (*range).to_string(),
                emailed: inside.len(),
                replied,
                reply_rate: round3(ratio(replied, inside.len() as i64)),
            }
        })
        .collect();
    let known: Vec<f64> = bands
        .iter()
        .filter(|b| b.emailed > 0)
        .map(|b| b.reply_rate)
        .collect();
    ScoreAccuracy {
        emailed: scored.len(),
        replied: scored.iter().map(|o| o.replied).sum::<i64>(),
        bands,
        rates_rise_with_score: (known.len() >= 2).then(|| known.windows(2).all(|w| w[0] <= w[1])),
    }
}

/// The `/api/ai/analytics` document.
pub fn analytics(i: &AnalyticsInput<'_>) -> Analytics {
    let (agents, total_training, rates) = agent_performance(i);
    let routed: i64 = AGENTS
        .iter()
        .map(|(k, ..)| i.counts.get(*k).map_or(0, |c| c.0))
        .sum();
    let routed_ok: i64 = AGENTS
        .iter()
        .map(|(k, ..)| i.counts.get(*k).map_or(0, |c| c.1))
        .sum();
    let e = i.email;
    Analytics {
        total_agents: AGENTS.len(),
        total_training_data: total_training,
        average_success_rate: if rates.is_empty() {
            0.0
        } else {
            round3(rates.iter().sum::<f64>() / rates.len() as f64)
        },
        agent_performance: agents,
        recent_insights: insights(i),
        performance_metrics: PerformanceMetrics {
            current_campaigns: i.active_campaigns,
            // No open rate at all (the screen shows a dash) when no message carried the pixel.
            open_rate: (e.open_tracked > 0)
                .then(|| round3(ratio(e.opened, e.open_tracked) * 100.0)),
            click_through_rate: round3(ratio(e.clicked, e.sent) * 100.0),
            conversion_rate: round3(ratio(e.replied, e.sent) * 100.0),
        },
        ai_orchestration: Orchestration {
            tasks_routed: routed,
            efficiency: round3(ratio(routed_ok, routed) * 100.0),
            cost_savings: None,
        },
        model_performance: model_performance(i),
        score_accuracy: score_accuracy(i.outcomes),
        job_retention_days: i.retention_days,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// As the route sends it.
    fn json_of<T: Serialize>(t: &T) -> Value {
        serde_json::to_value(t).unwrap_or_default()
    }

    fn input<'a>(
        counts: &'a BTreeMap<String, KindCounts>,
        outcomes: &'a [ReplyOutcome<'a>],
        calls: &'a [Call<'a>],
        last_runs: &'a BTreeMap<&'a str, i64>,
        model_runs: &'a [ModelRun<'a>],
    ) -> AnalyticsInput<'a> {
        AnalyticsInput {
            counts,
            outcomes,
            calls,
            companies: 12,
            last_runs,
            model_runs,
            configured_model: Some("gpt-test"),
            email: EmailCounts {
                sent: 200,
                // Half carried the pixel: 50 opens of 100.
                open_tracked: 100,
                opened: 50,
                clicked: 5,
                replied: 3,
            },
            active_campaigns: 2,
            retention_days: 14.0,
        }
    }

    fn outcome(score: i32, replied: i64, state: Option<&str>) -> ReplyOutcome<'_> {
        ReplyOutcome {
            score,
            scored: true,
            state,
            replied,
        }
    }

    #[test]
    fn accuracy_is_the_reply_rate_per_score_band() {
        let outcomes = [
            outcome(90, 1, None),
            outcome(75, 1, None),
            outcome(72, 0, None),
            outcome(55, 1, None),
            outcome(45, 0, None),
            outcome(20, 0, None),
            outcome(10, 0, None),
            ReplyOutcome {
                scored: false,
                ..outcome(15, 1, None)
            },
        ];
        let a = json_of(&score_accuracy(&outcomes));
        assert_eq!(a["emailed"], 7, "only scores the scorer set");
        assert_eq!(a["replied"], 3);
        let bands: Vec<(i64, i64, f64)> = a["bands"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|b| {
                (
                    b["emailed"].as_i64().unwrap_or(-1),
                    b["replied"].as_i64().unwrap_or(-1),
                    b["replyRate"].as_f64().unwrap_or(-1.0),
                )
            })
            .collect();
        assert_eq!(bands, [(2, 0, 0.0), (2, 1, 0.5), (3, 2, 0.667)]);
        assert_eq!(a["ratesRiseWithScore"], true);
        assert_eq!(
            json_of(&score_accuracy(&[]))["ratesRiseWithScore"],
            Value::Null
        );
    }

    #[test]
    fn counts_by_kind() {
        let c = kind_counts([
            ("ai_task".to_string(), "succeeded".to_string(), 3),
            ("ai_task".into(), "failed".into(), 2),
            ("ai_task".into(), "queued".into(), 1),
        ]);
        assert_eq!(c["ai_task"], (6, 3, 2));
    }

    #[test]
    fn nothing_yet_gives_zeros_and_the_template_model() {
        let (counts, last, no_runs) = (BTreeMap::new(), BTreeMap::new(), []);
        let mut i = input(&counts, &[], &[], &last, &no_runs);
        i.configured_model = None;
        i.email = EmailCounts::default();
        let a = json_of(&analytics(&i));
        assert_eq!(a["totalAgents"], 6);
        assert_eq!(a["averageSuccessRate"], 0.0);
        assert_eq!(a["recentInsights"], json!([]));
        assert_eq!(a["performanceMetrics"]["openRate"], Value::Null);
        assert_eq!(a["aiOrchestration"]["efficiency"], 0.0);
        // Fields nothing measures are null, not absent.
        assert_eq!(
            a["aiOrchestration"].get("costSavings"),
            Some(&Value::Null),
            "{a}"
        );
        assert_eq!(a["modelPerformance"]["template"]["usage"], 0);
        assert!(a["modelPerformance"]["template"]["speed"].is_null());
        assert_eq!(
            a["modelPerformance"]["template"].get("accuracy"),
            Some(&Value::Null)
        );
        assert_eq!(
            a["agentPerformance"][0].get("lastTrainingUpdate"),
            Some(&Value::Null)
        );
        // Discovery's training data is the companies on file.
        assert_eq!(a["agentPerformance"][2]["trainingDataCount"], 12);
        assert_eq!(a["totalTrainingData"], 12);
    }

    #[test]
    fn figures_and_insights_from_known_runs() {
        let counts = BTreeMap::from([
            ("ai_score".to_string(), (4, 3, 1)),
            ("ai_task".to_string(), (10, 5, 5)),
        ]);
        // Scored 70+: 2 of 3 replied; below 70: 1 of 4. TX has 5 with 3 replies.
        let outcomes = [
            outcome(90, 1, Some("TX")),
            outcome(80, 1, Some("TX")),
            outcome(75, 0, Some("TX")),
            outcome(40, 1, Some("TX")),
            outcome(30, 0, Some("TX")),
            outcome(20, 0, Some("OK")),
            outcome(10, 0, None),
        ];
        let calls = [
            Call {
                status: "completed",
                outcome: Some("qualified"),
                has_transcript: true,
                simulated: false,
            },
            Call {
                status: "completed",
                outcome: None,
                has_transcript: true,
                simulated: true,
            },
        ];
        let last = BTreeMap::from([("ai_task", 1_772_409_600_000)]);
        let results = [
            json!({"model": "gpt-test", "latencyMs": 300}),
            json!({"model": "gpt-test"}),
            json!({}),
        ];
        let runs = [
            ModelRun {
                result: &results[0],
                started_at: None,
                finished_at: None,
            },
            ModelRun {
                result: &results[1],
                started_at: Some(1_000),
                finished_at: Some(1_500),
            },
            ModelRun {
                result: &results[2],
                started_at: None,
                finished_at: None,
            },
        ];
        let a = json_of(&analytics(&input(&counts, &outcomes, &calls, &last, &runs)));
        let score = &a["agentPerformance"][0];
        assert_eq!(score["successRate"], "0.75");
        // 90, 80 replied (agree), 75 did not (disagree), 40 replied (disagree), 30, 20, 10 did not.
        assert_eq!(score["averageAccuracy"], round3(5.0 / 7.0));
        assert_eq!(score["trainingDataCount"], 7);
        assert_eq!(
            a["agentPerformance"][3]["lastTrainingUpdate"],
            "2026-03-02T00:00:00.000Z"
        );
        // Two kinds ran: (0.75 + 0.5) / 2.
        assert_eq!(a["averageSuccessRate"], 0.625);
        assert_eq!(a["aiOrchestration"]["tasksRouted"], 14);
        assert_eq!(
            a["aiOrchestration"]["efficiency"],
            round3(8.0 / 14.0 * 100.0)
        );
        assert_eq!(a["performanceMetrics"]["openRate"], 50.0);
        assert_eq!(a["performanceMetrics"]["conversionRate"], 1.5);
        let ids: Vec<&str> = a["recentInsights"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|i| i["id"].as_str())
            .collect();
        assert_eq!(
            ids,
            [
                "reply-by-score",
                "reply-by-state-TX",
                "voice-qualified",
                "failing-ai_task"
            ]
        );
        let by_score = &a["recentInsights"][0];
        assert_eq!(by_score["insightType"], "pattern");
        assert_eq!(by_score["impactScore"], round3(2.0 / 3.0 - 0.25));
        assert_eq!(
            a["recentInsights"][2]["title"],
            "1 of 1 answered calls qualified the lead"
        );
        let gpt = &a["modelPerformance"]["gpt-test"];
        assert_eq!(
            (gpt["usage"].clone(), gpt["speed"].clone()),
            (json!(2), json!("400 ms"))
        );
        assert_eq!(a["modelPerformance"]["template"]["usage"], 1);
    }
}
