//! One file per job kind: its payload, stable name and handler.

mod ai_score;
mod bulk_ai_score;
pub mod bulk_campaign_send;
mod contact_enrich;
pub mod contact_import;
mod contact_verify;
mod discovery_scan;
mod email_send;
mod noop;
mod prune_jobs;
mod sequence_step_send;
mod sequence_tick;
mod sequence_trigger;

pub use ai_score::AiScore;
pub use bulk_ai_score::{BulkAiScore, HIGH_VALUE, MAX_CONTACTS as MAX_BULK_SCORE, RESCORE_BELOW};
pub use bulk_campaign_send::BulkCampaignSend;
pub use contact_enrich::{ContactEnrich, MAX_ENRICH};
pub use contact_import::ContactImport;
pub use contact_verify::ContactVerify;
pub use discovery_scan::{DiscoveryScan, ScanError};
pub use email_send::EmailSend;
pub use noop::Noop;
pub use prune_jobs::PruneJobs;
pub use sequence_step_send::SequenceStepSend;
pub use sequence_tick::SequenceTick;
pub use sequence_trigger::SequenceTrigger;

use crate::queue::Registry;

/// Every kind this build runs.
pub fn registry() -> Registry {
    Registry::default()
        .register::<ContactImport>()
        .register::<Noop>()
        .register::<PruneJobs>()
        .register::<AiScore>()
        .register::<BulkAiScore>()
        .register::<ContactVerify>()
        .register::<ContactEnrich>()
        .register::<DiscoveryScan>()
        .register::<BulkCampaignSend>()
        .register::<EmailSend>()
        .register::<SequenceTick>()
        .register::<SequenceStepSend>()
        .register::<SequenceTrigger>()
}
