//! What each Prometheus metric means: its HELP text, given to the recorder once it is installed
//! (`prospector::metrics_handle`), so `/metrics` passes `promtool check metrics`. Units are in the
//! names (`_seconds`, `_total`). The alert rules and the dashboard in `docs/monitoring/` read
//! these names, and a test checks that they read nothing else.

use metrics::{describe_counter, describe_gauge, describe_histogram};

/// A metric's Prometheus type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MetricType {
    Counter,
    Gauge,
    Histogram,
}

/// Every metric the api, worker and scheduler record: name, type, HELP.
pub const METRICS: &[(&str, MetricType, &str)] = &[
    (
        "prospector_jobs",
        MetricType::Gauge,
        "Jobs in the queue by kind and status, read from the database at scrape time.",
    ),
    (
        "prospector_job_oldest_ready_age_seconds",
        MetricType::Gauge,
        "Age of the oldest job of the kind that is due and waiting for a worker (0 when none).",
    ),
    (
        "prospector_job_oldest_running_age_seconds",
        MetricType::Gauge,
        "How long the longest-running job of the kind has been running (0 when none).",
    ),
    (
        "prospector_jobs_finished_total",
        MetricType::Counter,
        "Job runs finished by this process, by kind and outcome status.",
    ),
    (
        "prospector_job_run_seconds",
        MetricType::Histogram,
        "Time a job run took in this process, by kind and outcome status.",
    ),
    (
        "prospector_http_request_duration_seconds",
        MetricType::Histogram,
        "Time the api took to answer, by method, route and status code.",
    ),
    (
        "prospector_email_messages_total",
        MetricType::Counter,
        "Email messages handed to the relay by outcome: sent, deferred, failed or suppressed.",
    ),
    (
        "prospector_email_events_total",
        MetricType::Counter,
        "Email events recorded by type: delivered, opened, clicked, replied, bounced, spam_reported, unsubscribed.",
    ),
    (
        "prospector_sms_messages_total",
        MetricType::Counter,
        "Text messages by the provider's answer status.",
    ),
    (
        "prospector_voice_calls_total",
        MetricType::Counter,
        "Voice calls by outcome: placed or failed.",
    ),
    (
        "prospector_ai_request_seconds",
        MetricType::Histogram,
        "Time a language-model request took, by model.",
    ),
];

/// Gives the installed recorder every metric's HELP text.
pub fn describe_metrics() {
    for &(name, kind, help) in METRICS {
        match kind {
            MetricType::Counter => describe_counter!(name, help),
            MetricType::Gauge => describe_gauge!(name, help),
            MetricType::Histogram => describe_histogram!(name, help),
        }
    }
}
