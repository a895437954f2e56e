//! Outgoing email, as a serious sender does it (DESIGN.md "Email rules"): signed links
//! ([`tokens`]), message building ([`compose`]), the sender domain's DNS check ([`domain_check`]), delivery over SMTP or to an outbox
//! ([`transport`]), SendGrid's signed event webhook ([`sendgrid`]) and a loopback SMTP server for
//! tests and benchmarks ([`sink`]). No database here: the ledger and its jobs build on this.

pub mod compose;
pub mod domain_check;
pub mod sendgrid;
pub mod sink;
pub mod tokens;
pub mod transport;
