//! The shared library of Prospector: settings, the database layer, domain types, the job platform
//! (queue, job kinds) and, later, the providers. The api, worker and scheduler all build on it.

pub mod ai;
pub mod auth;
pub mod config;
pub mod db;
pub mod domain;
pub mod email;
pub mod enrich;
pub mod geo;
pub mod intel;
pub mod kinds;
pub mod mailing;
pub mod providers;
pub mod queue;
pub mod reminders;
pub mod replies;
pub mod scoring;
pub mod sealed;
pub mod sending_window;
pub mod telemetry;
pub mod time;
pub mod untrusted;
pub mod voice;
