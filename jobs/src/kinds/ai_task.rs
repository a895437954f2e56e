//! `ai_task`: one AI tool request (sentiment, market intelligence, outreach, content, insights),
//! through the LLM when configured, else its template fallback. The result is what the api answers.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::ai::Task;
use crate::queue::{JobContext, JobError, JobKind};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AiTask {
    pub task: Task,
}

impl JobKind for AiTask {
    const NAME: &'static str = "ai_task";
    /// The provider call already retries with backoff; a second run would only repeat that.
    const MAX_ATTEMPTS: i32 = 1;
    const TIME_BUDGET: Duration = Duration::from_secs(300);

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let llm = ctx.env.providers.llm.clone();
        let result = self
            .task
            .run(ctx.db(), llm.as_deref())
            .await
            .map_err(|e| JobError::Permanent(e.to_string()))?;
        serde_json::to_value(result)
            .map_err(|e| JobError::Permanent(format!("the result cannot be stored ({e})")))
    }
}
