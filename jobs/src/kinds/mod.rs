//! One file per job kind: its payload, stable name and handler.

mod ai_score;
pub mod ai_task;
mod bulk_ai_score;
pub mod bulk_campaign_send;
pub mod calendar_sync;
mod company_enrich;
mod contact_enrich;
pub mod contact_import;
mod contact_verify;
mod discovery_scan;
pub mod document_ai;
mod email_send;
pub mod invoice_pdf;
mod invoice_send;
pub mod mailbox_sync;
mod mailbox_tick;
mod noop;
mod prune_jobs;
mod record_merge;
mod reminder_batch;
mod reminder_send;
mod reminder_tick;
mod sender_domain_check;
mod sequence_step_send;
mod sequence_tick;
mod sequence_trigger;
pub mod sms_send;
mod voice_call;
mod webhook_deliver;

pub use ai_score::AiScore;
pub use ai_task::AiTask;
pub use bulk_ai_score::{BulkAiScore, HIGH_VALUE, MAX_CONTACTS as MAX_BULK_SCORE, RESCORE_BELOW};
pub use bulk_campaign_send::BulkCampaignSend;
pub use calendar_sync::CalendarSync;
pub use company_enrich::CompanyEnrich;
pub use contact_enrich::{ContactEnrich, MAX_ENRICH};
pub use contact_import::ContactImport;
pub use contact_verify::ContactVerify;
pub use discovery_scan::{DiscoveryScan, SEARCH_MODES, ScanError};
pub use document_ai::DocumentAi;
pub use email_send::EmailSend;
pub use invoice_pdf::InvoicePdf;
pub use invoice_send::InvoiceSend;
pub use mailbox_sync::MailboxSync;
pub use mailbox_tick::{MailboxTick, sync_key as mailbox_sync_key};
pub use noop::Noop;
pub use prune_jobs::PruneJobs;
pub use record_merge::RecordMerge;
pub use reminder_batch::ReminderBatch;
pub use reminder_send::{REMINDER_TAG, ReminderSend};
pub use reminder_tick::ReminderTick;
pub use sender_domain_check::SenderDomainCheck;
pub use sequence_step_send::SequenceStepSend;
pub use sequence_tick::SequenceTick;
pub use sequence_trigger::SequenceTrigger;
pub use sms_send::SmsSend;
pub use voice_call::VoiceCall;
pub use webhook_deliver::WebhookDeliver;

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
        .register::<CompanyEnrich>()
        .register::<DiscoveryScan>()
        .register::<BulkCampaignSend>()
        .register::<EmailSend>()
        .register::<SequenceTick>()
        .register::<SequenceStepSend>()
        .register::<SequenceTrigger>()
        .register::<CalendarSync>()
        .register::<ReminderTick>()
        .register::<ReminderSend>()
        .register::<ReminderBatch>()
        .register::<SmsSend>()
        .register::<InvoicePdf>()
        .register::<InvoiceSend>()
        .register::<AiTask>()
        .register::<DocumentAi>()
        .register::<VoiceCall>()
        .register::<WebhookDeliver>()
        .register::<MailboxSync>()
        .register::<MailboxTick>()
        .register::<RecordMerge>()
        .register::<SenderDomainCheck>()
}
