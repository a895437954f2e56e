//! One file per job kind: its payload, stable name and handler.

pub mod contact_import;
mod noop;
mod prune_jobs;

pub use contact_import::ContactImport;
pub use noop::Noop;
pub use prune_jobs::PruneJobs;

use crate::queue::Registry;

/// Every kind this build runs.
pub fn registry() -> Registry {
    Registry::default()
        .register::<ContactImport>()
        .register::<Noop>()
        .register::<PruneJobs>()
}
