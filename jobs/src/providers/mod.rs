//! Outside concerns behind one trait each, with an embedded default that works offline.
//! Chosen from settings at start-up; handlers reach them through `JobContext::queue.providers`.

pub mod discovery;

use std::sync::Arc;

/// The providers a process uses.
#[derive(Clone)]
pub struct Providers {
    pub discovery: Arc<dyn discovery::DiscoveryProvider>,
}

impl Providers {
    /// The embedded defaults: no outside service needed.
    pub fn embedded() -> Self {
        Self {
            discovery: Arc::new(discovery::CatalogProvider),
        }
    }
}

impl Default for Providers {
    fn default() -> Self {
        Self::embedded()
    }
}
