//! `bulk_ai_score`: scores many contacts in one job: facts are read and scores written in batches, so
//! 10,000 contacts take seconds, not 10,000 jobs. Only contacts that need it are scored (never
//! scored, or below the rescoring threshold of seed 002 §9).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::ScoreSetOwned;
use crate::queue::{JobContext, JobError, JobKind};
use crate::scoring::score_contact_with;
use crate::time::now_ms;

/// Contacts scored below this are scored again (seed 002 §9: "rescoring threshold below 50").
pub const RESCORE_BELOW: i32 = 50;
/// High-value leads score this or more (seed 002 §9).
pub const HIGH_VALUE: i32 = 85;
/// Most contacts one bulk job takes.
pub const MAX_CONTACTS: usize = 10_000;
const BATCH: usize = 500;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkAiScore {
    pub contact_ids: Vec<String>,
    /// The seed's enterprise switch; the rule-based scorer is the same for both.
    #[serde(default)]
    pub use_enterprise_model: bool,
}

impl JobKind for BulkAiScore {
    const NAME: &'static str = "bulk_ai_score";

    fn validate(&self) -> Result<(), String> {
        if self.contact_ids.is_empty() {
            return Err("contactIds must not be empty".into());
        }
        if self.contact_ids.len() > MAX_CONTACTS {
            return Err(format!("at most {MAX_CONTACTS} contacts per bulk scoring"));
        }
        Ok(())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let total = self.contact_ids.len();
        let mut results = Vec::new();
        let mut sum = 0i64;
        for (n, chunk) in self.contact_ids.chunks(BATCH).enumerate() {
            let facts = ctx
                .db()
                .contact_score_facts_many(chunk, RESCORE_BELOW)
                .await?;
            let rows: Vec<ScoreSetOwned> = facts
                .into_iter()
                .map(|(id, f, services)| {
                    let s = score_contact_with(&f, services.as_deref());
                    ScoreSetOwned {
                        id,
                        score: s.score,
                        factors: json!(s.factors),
                    }
                })
                .collect();
            ctx.db().contact_scores_set_many(&rows, now_ms()).await?;
            for r in rows {
                sum += i64::from(r.score);
                results.push(json!({ "contactId": r.id, "score": r.score }));
            }
            let done = ((n + 1) * BATCH).min(total);
            ctx.progress(
                (done * 100 / total) as i32,
                format!("Scored {done} of {total} contacts"),
            )
            .await?;
        }
        let high = results
            .iter()
            .filter(|r| {
                r["score"]
                    .as_i64()
                    .is_some_and(|s| s >= i64::from(HIGH_VALUE))
            })
            .count();
        let average = sum.checked_div(results.len() as i64).unwrap_or(0);
        Ok(json!({
            "model": "rules",
            "scored": results.len(),
            "skipped": total - results.len(),
            "highValueCount": high,
            "averageScore": average,
            // Each contact keeps the factors behind its score (its scoreFactors).
            "scoringResults": results,
        }))
    }
}
