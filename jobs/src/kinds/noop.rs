//! `noop`: does nothing, or sleeps and reports progress. For benchmarks, health checks and for
//! exercising the platform (retries, budgets, cancellation, rescue) end to end.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::queue::{JobContext, JobError, JobKind};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Noop {
    /// Total time to sleep, spread over `steps`.
    #[serde(default)]
    pub sleep_ms: u64,
    /// Number of progress reports while sleeping.
    #[serde(default)]
    pub steps: u32,
    /// Fail every attempt (retryable), to exercise retries.
    #[serde(default)]
    pub fail: bool,
    /// Fail only the first N attempts.
    #[serde(default)]
    pub fail_times: u32,
}

const MAX_SLEEP_MS: u64 = 3_600_000;

impl JobKind for Noop {
    const NAME: &'static str = "noop";

    fn validate(&self) -> Result<(), String> {
        if self.sleep_ms > MAX_SLEEP_MS {
            return Err(format!("sleepMs must be at most {MAX_SLEEP_MS}"));
        }
        if self.steps > 1000 {
            return Err("steps must be at most 1000".into());
        }
        Ok(())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let steps = self.steps.max(1);
        let slice = Duration::from_millis(self.sleep_ms / u64::from(steps));
        for step in 1..=self.steps {
            tokio::time::sleep(slice).await;
            let percent = (step * 100 / steps) as i32;
            ctx.progress(percent, format!("Step {step} of {steps}"))
                .await?;
        }
        if self.steps == 0 && self.sleep_ms > 0 {
            tokio::time::sleep(Duration::from_millis(self.sleep_ms)).await;
        }
        if self.fail || ctx.attempt <= self.fail_times as i32 {
            return Err(JobError::Retry(format!(
                "noop failed on purpose (attempt {})",
                ctx.attempt
            )));
        }
        Ok(json!({ "attempt": ctx.attempt, "sleptMs": self.sleep_ms }))
    }
}
