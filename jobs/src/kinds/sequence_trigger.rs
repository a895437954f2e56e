//! `sequence_trigger`: enqueued with the change that fires it (a contact created, the public lead
//! form, a deal's stage change, a tag added), in that change's transaction. Enrolls the contact in
//! every active sequence with that trigger whose `triggerConfig` matches (`stage` for
//! deal_stage_changed, `tag` for tag_added; absent = any), within each sequence's daily allowance.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{Audience, Enroll};
use crate::queue::{JobContext, JobError, JobKind};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SequenceTrigger {
    /// contact_created, form_submitted, deal_stage_changed or tag_added.
    pub trigger: String,
    pub contact_id: String,
    /// The new stage or the added tag.
    #[serde(default)]
    pub detail: Option<String>,
}

impl JobKind for SequenceTrigger {
    const NAME: &'static str = "sequence_trigger";

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let db = ctx.db();
        let now = ctx.env.clock.now_ms();
        let today = now - now.rem_euclid(86_400_000);
        let key = match self.trigger.as_str() {
            "deal_stage_changed" => Some("stage"),
            "tag_added" => Some("tag"),
            _ => None,
        };
        let mut enrolled = Vec::new();
        for s in db.sequences_by_trigger(&self.trigger).await? {
            let wanted = key
                .and_then(|k| s.trigger_config.0.get(k))
                .and_then(Value::as_str);
            if wanted.is_some_and(|w| Some(w) != self.detail.as_deref()) {
                continue;
            }
            // The sequence's enrollmentRules narrow who its trigger enrolls.
            let Some(audience) = (Audience {
                contact_ids: Some(vec![self.contact_id.clone()]),
                ..Audience::default()
            })
            .narrow(&Audience::from_rules(&s.enrollment_rules.0)) else {
                continue;
            };
            let left =
                i64::from(s.max_daily_enrollments) - db.enrollments_since(&s.id, today).await?;
            if left <= 0 {
                continue;
            }
            let n = db
                .enrollments_insert(&Enroll {
                    sequence_id: &s.id,
                    audience: &audience,
                    limit: 1,
                    now,
                })
                .await?;
            if n > 0 {
                enrolled.push(s.id);
            }
        }
        Ok(json!({ "contactId": self.contact_id, "trigger": self.trigger, "enrolledIn": enrolled }))
    }
}
