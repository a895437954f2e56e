//! `contact_verify`: checks a contact's email (syntax, mail server, company domain) and profile, and
//! stores isVerified, verificationScore, verifiedBy, warnings and verifiedAt.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::VerificationSet;
use crate::intel::{email_domain, email_syntax_ok, verify};
use crate::queue::{JobContext, JobError, JobKind};
use crate::time::now_ms;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContactVerify {
    pub contact_id: String,
}

impl JobKind for ContactVerify {
    const NAME: &'static str = "contact_verify";

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let c = ctx
            .db()
            .contact_intel_get(&self.contact_id)
            .await?
            .ok_or_else(|| JobError::Permanent(format!("contact {} not found", self.contact_id)))?;
        let domain = c
            .email
            .as_deref()
            .filter(|e| email_syntax_ok(e))
            .and_then(email_domain);
        let mx = match &domain {
            Some(d) => Some(ctx.env.providers.mail.mx(d).await),
            None => None,
        };
        let v = verify(&c, mx.as_ref());
        ctx.db()
            .contact_verification_set(&VerificationSet {
                id: &c.id,
                is_verified: v.is_verified,
                score: v.confidence_score,
                verified_by: &json!(v.verified_by),
                warnings: &json!(v.warnings),
                now: now_ms(),
            })
            .await?;
        Ok(json!({ "contactId": c.id, "verification": v }))
    }
}
