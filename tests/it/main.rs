//! The integration suite as one test binary: one link and one build of the shared harness instead
//! of one per file. Each module is a feature area; every test runs on SQLite and on Postgres.
#![allow(clippy::expect_used, clippy::unwrap_used)]

#[macro_use]
mod common;

mod api;
mod calendar;
mod campaign_send;
mod cli;
mod companies;
mod contact_actions;
mod contacts;
mod dashboard;
mod deals;
mod deliverability;
mod discovery;
mod discovery_providers;
mod email;
mod email_smtp;
mod enrichment;
mod figures;
mod fuzz;
mod intel;
mod invoices;
mod jobs;
mod leads;
mod mailbox_sync;
mod meetings;
mod merge;
mod openai_discovery;
mod outreach;
mod records;
mod reliability;
mod scoring;
mod seed;
mod sequences;
mod users;
mod views;
mod voice_ai;
mod webhooks;
