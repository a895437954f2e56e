//! `ai_score`: scores a contact and/or a company. This build has the embedded, rule-based scorer
//! (`crate::scoring`, with the evidence `Db::company_score_now` reads), which explains every point.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::ScoreSet;
use crate::queue::{JobContext, JobError, JobKind};
use crate::time::now_ms;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AiScore {
    #[serde(default)]
    pub contact_id: Option<String>,
    #[serde(default)]
    pub company_id: Option<String>,
}

impl JobKind for AiScore {
    const NAME: &'static str = "ai_score";

    fn validate(&self) -> Result<(), String> {
        if self.contact_id.is_none() && self.company_id.is_none() {
            return Err("contactId or companyId is required".into());
        }
        Ok(())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db();
        let mut result = json!({ "model": "rules" });
        if let Some(id) = &self.company_id {
            let s = db
                .company_score_now(id)
                .await?
                .ok_or_else(|| JobError::Permanent(format!("company {id} not found")))?;
            let factors = json!(s.factors);
            db.company_score_set(&ScoreSet {
                id,
                score: s.score,
                factors: &factors,
                now: now_ms(),
            })
            .await?;
            result["company"] = json!({ "id": id, "score": s.score, "factors": s.factors });
        }
        if let Some(id) = &self.contact_id {
            let s = db
                .contact_score_now(id)
                .await?
                .ok_or_else(|| JobError::Permanent(format!("contact {id} not found")))?;
            let factors = json!(s.factors);
            db.contact_score_set(&ScoreSet {
                id,
                score: s.score,
                factors: &factors,
                now: now_ms(),
            })
            .await?;
            result["contact"] = json!({ "id": id, "score": s.score, "factors": s.factors });
        }
        Ok(result)
    }
}
