//! `sender_domain_check`: reads the sender domain's SPF, DKIM and DMARC records from DNS and
//! judges them (`email::domain_check`); the Email Configuration screen shows the latest result.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::email::domain_check::{
    DkimIdentity, DomainCheck, judge_dkim, judge_dmarc, judge_spf, not_signed,
};
use crate::mailing::address_of;
use crate::providers::mail::MailResolver;
use crate::queue::{JobContext, JobError, JobKind};

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SenderDomainCheck {}

impl JobKind for SenderDomainCheck {
    const NAME: &'static str = "sender_domain_check";

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let providers = &ctx.env.providers;
        let from = address_of(&providers.mailing.sender.from);
        let domain = from
            .rsplit_once('@')
            .map(|(_, d)| d.to_string())
            .filter(|d| d.contains('.'))
            .ok_or_else(|| {
                JobError::Permanent(format!("the sender address {from} has no domain"))
            })?;
        let found = check(
            providers.mail.as_ref(),
            &domain,
            providers.mailing.dkim_identity.as_ref(),
        )
        .await;
        serde_json::to_value(found).map_err(|e| JobError::Permanent(e.to_string()))
    }
}

/// Looks up the three records of `domain` and judges them.
async fn check(
    resolver: &dyn MailResolver,
    domain: &str,
    dkim: Option<&DkimIdentity>,
) -> DomainCheck {
    let domain = domain.trim().trim_end_matches('.').to_lowercase();
    let spf = judge_spf(&domain, resolver.txt(&domain).await);
    let dkim = match dkim {
        None => not_signed(&domain),
        Some(id) => {
            let name = format!("{}._domainkey.{}", id.selector, id.domain);
            let found = resolver.txt(&name).await;
            judge_dkim(&name, &domain, id, found)
        }
    };
    let dmarc_name = format!("_dmarc.{domain}");
    let dmarc = judge_dmarc(&dmarc_name, resolver.txt(&dmarc_name).await);
    DomainCheck {
        domain,
        spf,
        dkim,
        dmarc,
    }
}
