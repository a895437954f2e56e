//! `contact_enrich`: fills in what a contact's record implies (proper names, phone format,
//! department from title, tier tags, the company its email domain belongs to) and rescores it.
//! One job takes one contact or a bulk selection (up to every contact a filter matches), reporting
//! its progress as it goes.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{EnrichmentSet, ScoreSet};
use crate::intel::{email_domain, enrich};
use crate::queue::{JobContext, JobError, JobKind};
use crate::time::now_ms;

/// Most contacts one job enriches (the API's largest selection).
pub const MAX_ENRICH: usize = 10_000;
/// Progress is written once per this many contacts.
const PROGRESS_EVERY: usize = 50;
/// Per-contact results kept in a bulk job's result; the counts cover every contact.
const RESULTS_KEPT: usize = 100;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContactEnrich {
    pub contact_ids: Vec<String>,
}

impl JobKind for ContactEnrich {
    const NAME: &'static str = "contact_enrich";
    // A few queries per contact: 10,000 contacts take minutes on a remote database.
    const TIME_BUDGET: Duration = Duration::from_secs(15 * 60);

    fn validate(&self) -> Result<(), String> {
        match self.contact_ids.len() {
            0 => Err("contactIds must not be empty".into()),
            n if n > MAX_ENRICH => Err(format!("at most {MAX_ENRICH} contacts per enrichment")),
            _ => Ok(()),
        }
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let total = self.contact_ids.len();
        let mut results = Vec::with_capacity(total.min(RESULTS_KEPT));
        let mut enriched = 0;
        for (i, id) in self.contact_ids.iter().enumerate() {
            let Some(c) = ctx.db().contact_intel_get(id).await? else {
                if results.len() < RESULTS_KEPT {
                    results.push(json!({ "contactId": id, "enrichedFields": [], "message": "Contact not found" }));
                }
                continue;
            };
            let by_domain = match c.email.as_deref().and_then(email_domain) {
                Some(d) if c.company_id.is_none() => ctx.db().company_id_by_domain(&d).await?,
                _ => None,
            };
            let e = enrich(&c, by_domain);
            let now = now_ms();
            if !e.fields.is_empty() {
                ctx.db()
                    .contact_enrichment_set(&EnrichmentSet {
                        id: &c.id,
                        first_name: &e.first_name,
                        last_name: &e.last_name,
                        phone: e.phone.as_deref(),
                        department: e.department.as_deref(),
                        company_id: e.company_id.as_deref(),
                        tags: &e.tags,
                        now,
                    })
                    .await?;
                enriched += 1;
            }
            // A better-known contact may score differently (a linked company, say).
            if let Some(s) = ctx.db().contact_score_now(&c.id).await? {
                let factors = json!(s.factors);
                ctx.db()
                    .contact_score_set(&ScoreSet {
                        id: &c.id,
                        score: s.score,
                        factors: &factors,
                        now,
                    })
                    .await?;
            }
            let name = format!("{} {}", e.first_name, e.last_name);
            let message = if e.fields.is_empty() {
                format!("No new details found for {}", name.trim())
            } else {
                format!("Enriched {} fields for {}", e.fields.len(), name.trim())
            };
            if results.len() < RESULTS_KEPT {
                results.push(
                    json!({ "contactId": c.id, "enrichedFields": e.fields, "message": message }),
                );
            }
            let done = i + 1;
            if total > 1 && (done % PROGRESS_EVERY == 0 || done == total) {
                ctx.progress(
                    (done * 100 / total) as i32,
                    format!("Enriched {done} of {total} contacts"),
                )
                .await?;
            }
        }
        if total == 1 {
            // The seed's single-contact answer: enrichedFields and message.
            return Ok(results.pop().unwrap_or_default());
        }
        Ok(json!({
            "message": format!("Enriched {enriched} of {total} contacts"),
            "enriched": enriched,
            "total": total,
            "results": results,
        }))
    }
}
