//! `record_merge`: merges every suggestion group of one kind of duplicate ("merge all: same phone")
//! as the Duplicates screen lists them (docs/merge.md). Each group is its own transaction, so a
//! stopped job keeps what it merged and a rerun merges what is left (idempotent). The survivor of a
//! group is picked by `domain::merge::pick_survivor`; a group with a pair someone dismissed is left
//! for a person to decide.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::db::{DupRecordRow, MergeError, MergeParams};
use crate::domain::merge::{MAX_MERGE, Reason, RecordKind, SurvivorFacts, pick_survivor};
use crate::queue::{JobContext, JobError, JobKind};
use crate::time::now_ms;

/// Groups read per page.
const PAGE: i64 = 50;
/// Most groups one job merges; a larger backlog takes another run.
pub const MAX_GROUPS: usize = 5_000;

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RecordMerge {
    /// `company` or `contact`.
    pub record_type: String,
    /// The kind of duplicate: `name`, `domain`, `phone` (companies) or `email`, `phone`, `name`.
    pub reason: String,
    /// Who asked: the timeline names them.
    #[serde(default)]
    pub actor_id: Option<String>,
}

impl RecordMerge {
    fn parsed(&self) -> Result<(RecordKind, Reason), String> {
        let kind = RecordKind::parse(&self.record_type)
            .ok_or_else(|| "recordType must be one of: company, contact".to_string())?;
        let reason = Reason::parse(kind, &self.reason).ok_or_else(|| {
            let names: Vec<&str> = kind.reasons().iter().map(|r| r.as_str()).collect();
            format!("reason must be one of: {}", names.join(", "))
        })?;
        Ok((kind, reason))
    }
}

impl JobKind for RecordMerge {
    const NAME: &'static str = "record_merge";
    // A few statements per merged record: thousands of groups take minutes on a remote database.
    const TIME_BUDGET: Duration = Duration::from_secs(15 * 60);

    fn validate(&self) -> Result<(), String> {
        self.parsed().map(|_| ())
    }

    async fn run(self, ctx: JobContext) -> Result<Value, JobError> {
        let (kind, reason) = self.parsed().map_err(JobError::Permanent)?;
        let label = reason.label(kind).to_lowercase();
        let (_, first_total) = ctx.db().duplicate_groups(kind, Some(reason), 1, 0).await?;
        let planned = usize::try_from(first_total).unwrap_or(0).min(MAX_GROUPS);
        let (mut groups, mut records, mut skipped) = (0usize, 0usize, 0usize);
        // Merged groups leave the list; skipped ones stay, so the next page starts past them.
        let mut offset = 0i64;
        while groups + skipped < planned {
            let (page, _) = ctx
                .db()
                .duplicate_groups(kind, Some(reason), PAGE, offset)
                .await?;
            if page.is_empty() {
                break;
            }
            let keys: Vec<String> = page.iter().map(|g| g.k.clone()).collect();
            let members = ctx.db().duplicate_members(kind, reason, &keys).await?;
            for key in &keys {
                if groups + skipped >= planned {
                    break;
                }
                let group: Vec<&DupRecordRow> = members.iter().filter(|m| &m.k == key).collect();
                match merge_group(&ctx, kind, &group, self.actor_id.as_deref()).await? {
                    Some(n) => {
                        groups += 1;
                        records += n;
                    }
                    None => {
                        skipped += 1;
                        offset += 1;
                    }
                }
            }
            let done = groups + skipped;
            ctx.progress(
                (done * 100 / planned.max(1)) as i32,
                format!("Merged {groups} of {planned} groups ({label})"),
            )
            .await?;
        }
        Ok(json!({
            "message": format!("Merged {groups} groups of duplicates ({label}): {records} records folded into their survivors"),
            "recordType": kind.as_str(),
            "reason": reason.as_str(),
            "groupsMerged": groups,
            "recordsMerged": records,
            "groupsSkipped": skipped,
        }))
    }
}

/// Merges one group into its survivor: how many records were merged, or `None` when the group is
/// left alone (gone meanwhile, too large for one merge, or holding a dismissed pair).
async fn merge_group(
    ctx: &JobContext,
    kind: RecordKind,
    group: &[&DupRecordRow],
    actor: Option<&str>,
) -> Result<Option<usize>, JobError> {
    if group.len() < 2 || group.len() > MAX_MERGE + 1 {
        return Ok(None);
    }
    let ids: Vec<String> = group.iter().map(|m| m.id.clone()).collect();
    if ctx.db().merge_any_dismissed(kind, &ids).await? {
        return Ok(None);
    }
    let facts: Vec<SurvivorFacts<'_>> = group
        .iter()
        .map(|m| SurvivorFacts {
            id: &m.id,
            filled: m.filled,
            related: m.related,
            created_at: m.created_at,
        })
        .collect();
    let Some(survivor) = pick_survivor(&facts) else {
        return Ok(None);
    };
    let merged: Vec<String> = ids.iter().filter(|id| *id != survivor).cloned().collect();
    let result = ctx
        .db()
        .records_merge(&MergeParams {
            kind,
            survivor,
            merged: &merged,
            actor,
            now: now_ms(),
        })
        .await;
    match result {
        Ok(outcome) => Ok(Some(outcome.merged)),
        // Deleted or merged elsewhere since the page was read: nothing to do here.
        Err(MergeError::NotFound(_) | MergeError::OtherKind(_)) => Ok(None),
        Err(MergeError::Db(e)) => Err(e.into()),
    }
}
